//! What the server reads from a request, as pure functions: the query
//! string of the study URL, participant ids and invitation names, cookies,
//! the same-origin check of a form. No I/O, no allocation beyond the
//! result; each is fuzzed (`fuzz/fuzz_targets/serve_parse.rs`).

/// Percent-decodes one component of a query string or form (`+` is a
/// space, `%XY` a byte; a `%` not followed by two hex digits stays as it
/// is, as browsers leave it).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::percent_decode;
/// assert_eq!(percent_decode("a%20b+c%zz"), b"a b c%zz");
/// assert_eq!(percent_decode("%FFid"), b"\xFFid");
/// ```
#[must_use]
pub fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Percent-encodes a query or form value: every byte but ASCII letters,
/// digits and `-_.~` as `%XY` (the inverse of [`percent_decode`]).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::{percent_decode, percent_encode};
/// assert_eq!(percent_encode("ann,1 é"), "ann%2C1%20%C3%A9");
/// assert_eq!(percent_decode(&percent_encode("a+b&c")), b"a+b&c");
/// ```
#[must_use]
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The pairs of a query string (`a=1&b=2`), decoded: names as text (bytes
/// that are not UTF-8 replaced, a name is only compared with known ones),
/// values as bytes, so that the caller decides what an invalid value means.
/// Empty pieces (`&&`) are skipped; a piece without `=` has an empty value.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::query_pairs;
/// let q = query_pairs("PROLIFIC_PID=%FEid&&STUDY_ID=s+1&flag");
/// assert_eq!(q[0], ("PROLIFIC_PID".to_owned(), b"\xFEid".to_vec()));
/// assert_eq!(q[1], ("STUDY_ID".to_owned(), b"s 1".to_vec()));
/// assert_eq!(q[2], ("flag".to_owned(), Vec::new()));
/// ```
#[must_use]
pub fn query_pairs(raw: &str) -> Vec<(String, Vec<u8>)> {
    raw.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (
                String::from_utf8_lossy(&percent_decode(k)).into_owned(),
                percent_decode(v),
            )
        })
        .collect()
}

/// The first value of `name` in decoded query pairs.
#[must_use]
pub fn first<'a>(pairs: &'a [(String, Vec<u8>)], name: &str) -> Option<&'a [u8]> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_slice())
}

/// The longest participant id, in characters.
pub const MAX_ID_CHARS: usize = 128;

/// Why a participant id from a URL is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadId {
    /// The bytes are not UTF-8 (`%FF`): two such ids would read as the
    /// same text.
    NotUtf8,
    /// Nothing (or only spaces).
    Empty,
    /// Over [`MAX_ID_CHARS`] characters.
    TooLong,
    /// A control character (a line break, a tab, …).
    Control,
    /// An invisible character: a zero-width space or joiner, a
    /// bidirectional override, a soft hyphen… (the id would look like
    /// another one).
    Invisible,
    /// A character outside printable ASCII, or a space inside the id:
    /// platforms' ids (Prolific's 24 hex digits, MTurk's worker ids) are
    /// printable ASCII, and letters that look alike (Latin `a`, Cyrillic
    /// `а`) would make two workers of one person.
    NotAscii,
}

impl BadId {
    /// A short reason, for the event log.
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Self::NotUtf8 => "not valid UTF-8",
            Self::Empty => "empty",
            Self::TooLong => "over 128 characters",
            Self::Control => "a control character",
            Self::Invisible => "an invisible character",
            Self::NotAscii => "a character outside printable ASCII",
        }
    }

    /// What the participant reads.
    #[must_use]
    pub fn explain(self) -> &'static str {
        match self {
            Self::NotUtf8 => {
                "The participant id in this link is not valid text (its bytes are not UTF-8)."
            }
            Self::Empty => "The participant id in this link is empty.",
            Self::TooLong => "The participant id in this link is too long.",
            Self::Control | Self::Invisible => {
                "The participant id in this link contains invisible characters."
            }
            Self::NotAscii => {
                "The participant id in this link contains characters a participant id cannot \
                 have (only letters, digits and punctuation of plain ASCII, no spaces)."
            }
        }
    }
}

/// `true` for a character that shows nothing: Unicode's
/// Default_Ignorable_Code_Point set (zero-width spaces and joiners,
/// bidirectional marks and overrides, the soft hyphen, variation
/// selectors, tags, Hangul fillers).
#[must_use]
pub fn invisible(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x34F
            | 0x61C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// A participant id from the study URL: UTF-8, trimmed of surrounding
/// spaces, 1 to [`MAX_ID_CHARS`] characters of printable ASCII.
///
/// # Errors
/// [`BadId`]: why it is refused (the most specific reason).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::{BadId, participant_id};
/// assert_eq!(participant_id(b" 5f3a9c ").as_deref(), Ok("5f3a9c"));
/// assert_eq!(participant_id(b"\xFFid"), Err(BadId::NotUtf8));
/// assert_eq!(participant_id("\u{200B}id".as_bytes()), Err(BadId::Invisible));
/// assert_eq!(participant_id("іd".as_bytes()), Err(BadId::NotAscii)); // Cyrillic і
/// ```
pub fn participant_id(raw: &[u8]) -> Result<String, BadId> {
    let s = std::str::from_utf8(raw).map_err(|_| BadId::NotUtf8)?;
    let s = s.trim_matches(|c: char| c.is_ascii_whitespace());
    name_check(s, true)?;
    Ok(s.to_owned())
}

/// An invitation's name (chosen by the researcher): 1 to
/// [`MAX_ID_CHARS`] characters, any script, spaces inside allowed, no
/// control or invisible character.
///
/// # Errors
/// [`BadId`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::invitation_name;
/// assert!(invitation_name("Zoë K.").is_ok());
/// assert!(invitation_name("a\u{202E}b").is_err());
/// ```
pub fn invitation_name(s: &str) -> Result<(), BadId> {
    name_check(s, false)
}

fn name_check(s: &str, ascii: bool) -> Result<(), BadId> {
    if s.is_empty() {
        return Err(BadId::Empty);
    }
    let mut n = 0;
    let mut worst = None;
    for c in s.chars() {
        n += 1;
        let bad = if c.is_control() {
            Some(BadId::Control)
        } else if invisible(c) {
            Some(BadId::Invisible)
        } else if ascii && !c.is_ascii_graphic() {
            Some(BadId::NotAscii)
        } else {
            None
        };
        // Control and invisible characters are named before others.
        worst = match (worst, bad) {
            (None, b) | (b, None) => b,
            (Some(BadId::NotAscii), Some(b)) => Some(b),
            (w, _) => w,
        };
    }
    if n > MAX_ID_CHARS {
        return Err(BadId::TooLong);
    }
    worst.map_or(Ok(()), Err)
}

/// The value of cookie `name` in `Cookie` header values (`a=1; b=2`).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::cookie;
/// assert_eq!(cookie(["x=1; acm_session=abc"], "acm_session"), Some("abc"));
/// assert_eq!(cookie(["acm_session_old=1"], "acm_session"), None);
/// ```
pub fn cookie<'a>(values: impl IntoIterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    values
        .into_iter()
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Refuses a form posted from another site (defence in depth: the CSRF
/// token is the protection): the reason, or `None` for a same-origin post.
/// A browser's `Sec-Fetch-Site` decides when it is sent (a document may
/// post with `Origin: null` even to its own origin); otherwise `Origin`,
/// when present, must name this host.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::cross_site;
/// assert_eq!(cross_site(Some("same-origin"), Some("null"), Some("h")), None);
/// assert!(cross_site(None, Some("https://evil.example"), Some("h")).is_some());
/// assert_eq!(cross_site(None, Some("http://h"), Some("h")), None);
/// assert_eq!(cross_site(None, None, Some("h")), None);
/// ```
#[must_use]
pub fn cross_site(
    sec_fetch_site: Option<&str>,
    origin: Option<&str>,
    host: Option<&str>,
) -> Option<&'static str> {
    match sec_fetch_site {
        Some("same-origin" | "none") => return None,
        Some(_) => return Some("a form posted from another site"),
        None => {}
    }
    let origin = origin?;
    if origin == "null" {
        return Some("a form posted from an opaque origin");
    }
    let origin_host = origin.split_once("://").map_or(origin, |(_, r)| r);
    (origin_host != host.unwrap_or("")).then_some("a form posted from another origin")
}

/// The forms the pages post (`application/x-www-form-urlencoded`, read by
/// axum's `Form` with `serde_urlencoded`): every field optional, so that a
/// missing one is refused with its name rather than as a malformed body.
pub mod forms {
    use serde::Deserialize;

    /// `POST /start`, `/finish`, `/admin/close`.
    #[derive(Debug, Clone, Default, Deserialize)]
    pub struct Csrf {
        /// The form's CSRF token.
        pub csrf: Option<String>,
    }

    /// `POST /answer`.
    #[derive(Debug, Clone, Default, Deserialize)]
    pub struct Answer {
        /// The form's CSRF token.
        pub csrf: Option<String>,
        /// The task id (`TAG-b<ballot>-<position>`).
        pub task: Option<String>,
        /// `first`, `second` or `tie`.
        pub choice: Option<String>,
    }

    /// `POST /admin/exclude`.
    #[derive(Debug, Clone, Default, Deserialize)]
    pub struct Exclude {
        /// The form's CSRF token.
        pub csrf: Option<String>,
        /// The worker's id.
        pub worker: Option<String>,
    }

    /// `POST /admin/invite`.
    #[derive(Debug, Clone, Default, Deserialize)]
    pub struct Invite {
        /// The form's CSRF token.
        pub csrf: Option<String>,
        /// Names, separated by commas or lines.
        pub names: Option<String>,
        /// A number of invitations named `invitee-K`.
        pub count: Option<String>,
    }
}

/// The vote of an answer form's `choice` (`tie` only when the campaign
/// offers it).
///
/// # Errors
/// A message for the page and the log.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::Vote;
/// use adaptive_comp_metrics_serve::parse::choice;
/// assert_eq!(choice(Some("second"), false), Ok(Vote::Second));
/// assert!(choice(Some("tie"), false).is_err());
/// ```
pub fn choice(
    choice: Option<&str>,
    ties: bool,
) -> Result<adaptive_comp_metrics::ballot::Vote, String> {
    use adaptive_comp_metrics::ballot::Vote;
    match choice {
        Some("first") => Ok(Vote::First),
        Some("second") => Ok(Vote::Second),
        Some("tie") if ties => Ok(Vote::Tie),
        Some("tie") => Err("this campaign has no tie choice".into()),
        Some(other) => Err(format!(
            "unknown choice {:?}",
            other.chars().take(20).collect::<String>()
        )),
        None => Err("no choice given".into()),
    }
}

/// The most invitations one form makes.
pub const MAX_INVITATIONS: usize = 10_000;

/// The names an invitation form asks for: those listed (commas or lines),
/// then `count` more, `invitee-K` numbered after the `have` existing ones.
///
/// # Errors
/// A count that is not a number up to [`MAX_INVITATIONS`]; a name
/// [`invitation_name`] refuses.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::parse::invitation_names;
/// assert_eq!(
///     invitation_names(Some("ann, bo\ncy"), Some("2"), 3).unwrap(),
///     ["ann", "bo", "cy", "invitee-4", "invitee-5"]
/// );
/// assert!(invitation_names(None, Some("x"), 0).is_err());
/// ```
pub fn invitation_names(
    names: Option<&str>,
    count: Option<&str>,
    have: usize,
) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = names
        .unwrap_or("")
        .split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(c) = count.map(str::trim).filter(|c| !c.is_empty()) {
        match c.parse::<usize>() {
            Ok(n) if n <= MAX_INVITATIONS => {
                out.extend((have + 1..=have + n).map(|i| format!("invitee-{i}")));
            }
            _ => return Err(format!("count: expected a number up to {MAX_INVITATIONS}")),
        }
    }
    if let Some(bad) = out.iter().find(|n| invitation_name(n).is_err()) {
        return Err(format!(
            "invalid name {:?}",
            bad.chars().take(60).collect::<String>()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode(""), b"");
        assert_eq!(percent_decode("%"), b"%");
        assert_eq!(percent_decode("%4"), b"%4");
        assert_eq!(percent_decode("%41"), b"A");
        assert_eq!(percent_decode("%4g1"), b"%4g1");
        assert_eq!(percent_decode("a%2Bb+c"), b"a+b c");
        assert_eq!(percent_decode("%e2%80%8b"), "\u{200B}".as_bytes());
    }

    #[test]
    fn ids_that_would_merge_or_look_alike_are_refused() {
        // %FF and %FE both read as U+FFFD when decoded leniently.
        assert_eq!(
            participant_id(&percent_decode("%FFid")),
            Err(BadId::NotUtf8)
        );
        assert_eq!(
            participant_id(&percent_decode("%FEid")),
            Err(BadId::NotUtf8)
        );
        for lookalike in [
            "%E2%80%8Balice",
            "alice%E2%80%8D",
            "%E2%80%AEecila",
            "al%C2%ADice",
        ] {
            assert_eq!(
                participant_id(&percent_decode(lookalike)),
                Err(BadId::Invisible),
                "{lookalike}"
            );
        }
        assert_eq!(participant_id(b"ali ce"), Err(BadId::NotAscii));
        assert_eq!(participant_id(b"\x01evil"), Err(BadId::Control));
        assert_eq!(participant_id(b"   "), Err(BadId::Empty));
        assert_eq!(participant_id(&[b'x'; 129]), Err(BadId::TooLong));
        assert_eq!(participant_id(&[b'x'; 128]).map(|s| s.len()), Ok(128));
        assert_eq!(
            participant_id(b"5f3a9c0e1b2d4a6f8e0c2b4d").as_deref(),
            Ok("5f3a9c0e1b2d4a6f8e0c2b4d")
        );
        assert_eq!(
            participant_id(b"A1B2C3D4E5F6G7").as_deref(),
            Ok("A1B2C3D4E5F6G7")
        );
    }

    #[test]
    fn query_pairs_keep_bytes() {
        let q = query_pairs("a=%FF&b=%FE&a=2");
        assert_eq!(first(&q, "a"), Some(&b"\xFF"[..]));
        assert_eq!(first(&q, "b"), Some(&b"\xFE"[..]));
        assert_eq!(first(&q, "c"), None);
    }
}
