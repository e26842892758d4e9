//! Who a request is: the annotator's session (a cookie) and the CSRF token
//! of its forms; the researcher's admin token (once in the URL, then a
//! cookie; or `Authorization: Bearer`) and the dashboard's CSRF token; the
//! cross-site check of a posted form.

use std::sync::Arc;

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::{App, AppError, wants_json};
use crate::parse;
use crate::secret::ct_eq;

pub(crate) const SESSION_COOKIE: &str = "acm_session";
pub(crate) const ADMIN_COOKIE: &str = "acm_admin";

/// The value of cookie `name` in a request.
pub(crate) fn cookie<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    parse::cookie(
        h.get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok()),
        name,
    )
}

/// [`parse::cross_site`] on a request's headers.
fn cross_site(h: &HeaderMap) -> Option<&'static str> {
    let get = |name: &str| h.get(name).and_then(|v| v.to_str().ok());
    parse::cross_site(get("sec-fetch-site"), get("origin"), get("host"))
}

/// The `Set-Cookie` value of a session.
pub(crate) fn session_cookie(app: &App, token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax{}",
        if app.secure_cookies { "; Secure" } else { "" }
    )
}

/// A request's session.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub(crate) token: String,
    pub(crate) worker: u32,
    pub(crate) csrf: String,
    pub(crate) started: bool,
}

/// The session of a request, if any.
pub(crate) fn session_of(app: &App, h: &HeaderMap) -> Option<Session> {
    let token = cookie(h, SESSION_COOKIE)?;
    let e = app.engine();
    let s = e.sessions.get(token)?;
    Some(Session {
        token: token.to_owned(),
        worker: s.worker,
        csrf: s.csrf.clone(),
        started: s.started,
    })
}

/// The session of a request, or 401.
pub(crate) fn session(app: &App, h: &HeaderMap) -> Result<Session, AppError> {
    session_of(app, h).ok_or_else(|| no_session(wants_json(h)))
}

/// 401: no session.
pub(crate) fn no_session(as_json: bool) -> AppError {
    AppError::new(StatusCode::UNAUTHORIZED, "no session")
        .page(
            "Your session was not found",
            "Open the study again from the link you were given (cookies must be allowed).",
            None,
        )
        .reason_as_json_if(as_json)
}

/// A form that carries a CSRF token.
pub(crate) trait WithCsrf {
    fn csrf(&self) -> Option<&str>;
}

pub(crate) use crate::parse::forms::Csrf as CsrfForm;
use crate::parse::forms::{Answer, Exclude, Invite};

macro_rules! with_csrf {
    ($($t:ty),*) => {$(
        impl WithCsrf for $t {
            fn csrf(&self) -> Option<&str> {
                self.csrf.as_deref()
            }
        }
    )*};
}
with_csrf!(CsrfForm, Answer, Exclude, Invite);

/// A form body refused by axum (413, 415, 422…).
fn form_refused(e: &FormRejection) -> AppError {
    let status = e.status();
    let reason = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "request body over the size limit".to_owned()
    } else {
        format!(
            "malformed form: {}",
            e.body_text().chars().take(120).collect::<String>()
        )
    };
    AppError::new(status, reason)
}

/// A form body as axum parses it, and the request's headers; a refused
/// body (413, 415, 422…) is the first refusal, before any check of who sent it.
async fn headers_and_form<T: DeserializeOwned>(
    req: Request,
    app: &Arc<App>,
) -> Result<(HeaderMap, T), AppError> {
    let h = req.headers().clone();
    let Form(form) = Form::<T>::from_request(req, app)
        .await
        .map_err(|e| form_refused(&e))?;
    Ok((h, form))
}

/// An annotator's form, as a handler's argument: parsed, from this site,
/// from a session, with the session's CSRF token; else the refusal.
pub(crate) struct AnnotatorForm<T>(pub(crate) T, pub(crate) Session);

impl<T: WithCsrf + DeserializeOwned + Send> FromRequest<Arc<App>> for AnnotatorForm<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, app: &Arc<App>) -> Result<Self, AppError> {
        let (h, form) = headers_and_form::<T>(req, app).await?;
        if let Some(why) = cross_site(&h) {
            return Err(AppError::new(StatusCode::FORBIDDEN, why));
        }
        let s = session_of(app, &h).ok_or_else(|| no_session(false))?;
        if !form
            .csrf()
            .is_some_and(|c| ct_eq(c.as_bytes(), s.csrf.as_bytes()))
        {
            return Err(
                AppError::new(StatusCode::FORBIDDEN, "missing or wrong CSRF token")
                    .worker(app.engine().worker_name(s.worker))
                    .page(
                        "This form has expired",
                        "Please reload the page and answer again.",
                        Some(("/task", "Reload")),
                    ),
            );
        }
        Ok(Self(form, s))
    }
}

/// How an admin request proved itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AdminAuth {
    Bearer,
    Cookie,
}

/// The admin token of a request (bearer, or the dashboard's cookie).
pub(crate) fn admin_auth(app: &App, h: &HeaderMap) -> Option<AdminAuth> {
    let token = app.admin_token.as_bytes();
    if let Some(b) = h
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return ct_eq(b.trim().as_bytes(), token).then_some(AdminAuth::Bearer);
    }
    let c = cookie(h, ADMIN_COOKIE)?;
    ct_eq(c.as_bytes(), token).then_some(AdminAuth::Cookie)
}

/// 401: no admin token, or a wrong one.
pub(crate) fn admin_refused(as_json: bool) -> AppError {
    AppError::new(StatusCode::UNAUTHORIZED, "missing or wrong admin token")
        .page(
            "Admin token required",
            "Open the dashboard with the link the server printed when it started (…/admin?token=…).",
            None,
        )
        .json_if(as_json, "admin token required")
}

/// An admin request, authenticated.
pub(crate) fn admin(app: &App, h: &HeaderMap) -> Result<AdminAuth, AppError> {
    admin_auth(app, h).ok_or_else(|| admin_refused(wants_json(h)))
}

/// An admin form, as a handler's argument: parsed and authenticated (by
/// cookie: from this site, with the dashboard's CSRF token), and whether to
/// answer JSON; else the refusal.
pub(crate) struct AdminForm<T>(pub(crate) T, pub(crate) bool);

impl<T: WithCsrf + DeserializeOwned + Send> FromRequest<Arc<App>> for AdminForm<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, app: &Arc<App>) -> Result<Self, AppError> {
        let (h, form) = headers_and_form::<T>(req, app).await?;
        let as_json = wants_json(&h);
        match admin(app, &h)? {
            AdminAuth::Bearer => Ok(Self(form, true)),
            AdminAuth::Cookie => {
                if let Some(why) = cross_site(&h) {
                    return Err(AppError::new(StatusCode::FORBIDDEN, why));
                }
                if form
                    .csrf()
                    .is_some_and(|c| ct_eq(c.as_bytes(), app.admin_csrf.as_bytes()))
                {
                    Ok(Self(form, as_json))
                } else {
                    Err(AppError::new(
                        StatusCode::FORBIDDEN,
                        "missing or wrong CSRF token",
                    ))
                }
            }
        }
    }
}
