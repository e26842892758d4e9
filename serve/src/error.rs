//! The crate's error type.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a store could not be created, read or written, or the server could
/// not start or had to stop.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A file could not be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The store (an SQLite database) refused an operation.
    #[error("{}: store error: {message}", path.display())]
    Store {
        /// The store.
        path: PathBuf,
        /// SQLite's message.
        message: String,
    },
    /// The file is not a campaign store of this version.
    #[error("{}: not a campaign store: {reason}", path.display())]
    NotAStore {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Another server (or a command that writes) holds the store.
    #[error("{}: in use by another process (a server already serves this campaign)", path.display())]
    Locked {
        /// The store.
        path: PathBuf,
    },
    /// A state document or a store's content is inconsistent.
    #[error("corrupt state: {reason}")]
    Corrupt {
        /// What is inconsistent.
        reason: String,
    },
    /// The library refused an operation while the store was replayed.
    #[error("the campaign refused a recorded operation (event {seq}): {message}")]
    Replay {
        /// The event's sequence number.
        seq: i64,
        /// The library's message.
        message: String,
    },
    /// A bad option.
    #[error("{name}: {message}")]
    Option {
        /// The option.
        name: &'static str,
        /// What is expected.
        message: String,
    },
}

impl From<crate::state::StateError> for ServeError {
    fn from(e: crate::state::StateError) -> Self {
        Self::corrupt(e.to_string())
    }
}

impl ServeError {
    pub(crate) fn corrupt(reason: impl Into<String>) -> Self {
        Self::Corrupt {
            reason: reason.into(),
        }
    }

    pub(crate) fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Io {
            path: path.to_owned(),
            message: e.to_string().to_lowercase(),
        }
    }

    pub(crate) fn store(path: &Path, e: &rusqlite::Error) -> Self {
        Self::Store {
            path: path.to_owned(),
            message: e.to_string(),
        }
    }

    pub(crate) fn option(name: &'static str, message: impl Into<String>) -> Self {
        Self::Option {
            name,
            message: message.into(),
        }
    }
}
