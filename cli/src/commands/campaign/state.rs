//! The campaign's state file: one JSON document holding the items, the
//! control items, the library's [`Campaign`](adaptive_comp_metrics::ballot::Campaign)
//! (ballots, tasks, answers, workers, exclusions) and the two generators'
//! positions. The type is the crate `adaptive-comp-metrics-campaign`'s
//! [`CampaignFile`](adaptive_comp_metrics_campaign::CampaignFile), which the annotation server reads and writes too; this
//! module reads it from a path (a JSON file or a served campaign's store)
//! and writes it only through `files::write_atomic`.

use std::fs;

pub use adaptive_comp_metrics_campaign::{
    BALLOT_STREAM, CampaignFile as State, CampaignStatus, FORMAT, LAYOUT_STREAM, Page, RngState,
    StateError, VERSION,
};

use super::files::write_atomic;
use super::{Env, Failure, Outcome};

/// A state error, with the file when it is known.
pub(crate) fn state_error(path: Option<&str>, e: &StateError) -> Failure {
    let at = |m: String| match path {
        Some(p) => Failure::about(p, m),
        None => Failure::new(m),
    };
    match e {
        StateError::Json { line, message, .. } => match path {
            Some(p) => Failure::at_line(
                p,
                *line as u64,
                format!("not a valid campaign state: {message}"),
            ),
            None => Failure::new(format!("not a valid campaign state: {message}")),
        },
        StateError::Version => at(e.to_string()),
        StateError::Generator => Failure::new(format!("corrupt state: {e}")),
        StateError::Encode { .. } => Failure::new(e.to_string()),
        _ => at(format!("corrupt state: {e}")),
    }
}

/// Reading and writing the state at a path, for the commands.
pub trait StateFile: Sized {
    /// Reads and checks a state file (or a store's state).
    ///
    /// # Errors
    /// Unreadable, not JSON, not a campaign, or inconsistent.
    fn load(path: &str) -> Result<Self, Failure>;

    /// The bytes of the state file.
    ///
    /// # Errors
    /// Never in practice.
    fn to_bytes(&self) -> Result<Vec<u8>, Failure>;

    /// Writes the state atomically (a store's state replaced under its
    /// lock).
    ///
    /// # Errors
    /// I/O errors; a simulated crash.
    fn save(&self, path: &str, env: &mut Env<'_>) -> Outcome;
}

impl StateFile for State {
    fn load(path: &str) -> Result<Self, Failure> {
        let bytes = read_state(path)?;
        State::from_json(&bytes).map_err(|e| state_error(Some(path), &e))
    }

    fn to_bytes(&self) -> Result<Vec<u8>, Failure> {
        self.to_json().map_err(|e| state_error(None, &e))
    }

    fn save(&self, path: &str, env: &mut Env<'_>) -> Outcome {
        let bytes = self.to_bytes()?;
        if is_store(path) {
            return replace_store_state(path, &bytes, env);
        }
        write_atomic(path, &bytes, env)
    }
}

/// FNV-1a, 64 bits: the campaign tag from the seed and the items.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `true` when `path` is a served campaign's store (an SQLite file) rather
/// than a JSON state.
pub fn is_store(path: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// The bytes of a state: the JSON file, or a store's state brought up to
/// date (`acm campaign serve` keeps one SQLite file: the state `init`
/// wrote and every answer, exclusion and ballot since).
///
/// # Errors
/// An unreadable file; a store this `acm` cannot read.
pub fn read_state(path: &str) -> Result<Vec<u8>, Failure> {
    if is_store(path) {
        #[cfg(feature = "serve")]
        return adaptive_comp_metrics_serve::Store::state_json(std::path::Path::new(path))
            .map_err(|e| Failure::about(path, e.to_string()));
        #[cfg(not(feature = "serve"))]
        return Err(Failure::about(
            path,
            "a served campaign's store: this acm was built without the serve feature \
             (cargo install --locked --path cli --features serve)",
        ));
    }
    fs::read(path).map_err(|e| Failure::about(path, format!("cannot read: {e}")))
}

/// Replaces a store's state (the caller holds the campaign's lock).
fn replace_store_state(path: &str, bytes: &[u8], env: &mut Env<'_>) -> Outcome {
    env.checkpoint()?;
    #[cfg(feature = "serve")]
    return adaptive_comp_metrics_serve::Store::replace_state(std::path::Path::new(path), bytes)
        .map_err(|e| Failure::about(path, e.to_string()));
    #[cfg(not(feature = "serve"))]
    {
        let _ = bytes;
        Err(Failure::about(
            path,
            "this acm was built without the serve feature",
        ))
    }
}
