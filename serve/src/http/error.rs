//! A refused request: [`AppError`], which every handler returns for what it
//! refuses. It carries the status, the reason for the event log (the guard
//! in [`super::router`] writes it, with the request's method, path and
//! remote address), and what the client reads: plain text, a page, or JSON.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::pages;

/// What a refused client reads.
#[derive(Debug)]
enum Shown {
    /// The reason, as plain text.
    Plain,
    /// A page.
    Html(String),
    /// A JSON document.
    Json(Value),
}

/// A refusal.
#[derive(Debug)]
pub(crate) struct AppError {
    status: StatusCode,
    reason: String,
    worker: Option<String>,
    shown: Shown,
    retry_after: Option<u64>,
}

/// What the guard logs of a refusal (a response extension).
#[derive(Debug, Clone)]
pub(crate) struct Refused {
    pub(crate) reason: String,
    pub(crate) worker: Option<String>,
}

impl AppError {
    /// A refusal with `status`; the client reads the reason as plain text.
    pub(crate) fn new(status: StatusCode, reason: impl Into<String>) -> Self {
        Self {
            status,
            reason: reason.into(),
            worker: None,
            shown: Shown::Plain,
            retry_after: None,
        }
    }

    /// The client reads a page saying `text` under `title`, with a link to
    /// go on.
    pub(crate) fn page(mut self, title: &str, text: &str, link: Option<(&str, &str)>) -> Self {
        self.shown = Shown::Html(pages::message(title, text, link));
        self
    }

    /// The client reads this page.
    pub(crate) fn html(mut self, page: String) -> Self {
        self.shown = Shown::Html(page);
        self
    }

    /// The client reads `{"error": text}` when it asked for JSON.
    pub(crate) fn json_if(mut self, as_json: bool, text: impl Into<String>) -> Self {
        if as_json {
            self.shown = Shown::Json(json!({"error": text.into()}));
        }
        self
    }

    /// The client reads `{"error": reason}` when it asked for JSON.
    pub(crate) fn reason_as_json_if(self, as_json: bool) -> Self {
        let r = self.reason.clone();
        self.json_if(as_json, r)
    }

    /// The worker concerned, for the log.
    pub(crate) fn worker(mut self, name: impl Into<String>) -> Self {
        self.worker = Some(name.into());
        self
    }

    /// Come back in `seconds` (`Retry-After`).
    pub(crate) fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut res = match self.shown {
            Shown::Plain => plain(self.status, &self.reason),
            Shown::Html(page) => html(self.status, page),
            Shown::Json(v) => json_response(self.status, &v),
        };
        if let Some(s) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&s.to_string())
        {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        res.extensions_mut().insert(Refused {
            reason: self.reason,
            worker: self.worker,
        });
        res
    }
}

/// A plain-text response (a line).
pub(crate) fn plain(status: StatusCode, text: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{text}\n"),
    )
        .into_response()
}

/// An HTML page.
pub(crate) fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

/// A JSON document.
pub(crate) fn json_response(status: StatusCode, v: &impl serde::Serialize) -> Response {
    match serde_json::to_string(v) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"error":"the response could not be written"}"#,
        )
            .into_response(),
    }
}

/// `303 See Other` to `to`.
pub(crate) fn see_other(to: &str) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, to.to_owned())]).into_response()
}
