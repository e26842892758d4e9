//! The annotator's pages, the dashboard's page, and their style sheet and
//! script: all compiled into the binary (no external script, font or CDN).
//! Every value from the campaign or a request is HTML-escaped.

use std::fmt::Write as _;

use crate::state::PageSettings;

/// The style sheet.
pub(crate) const CSS: &str = include_str!("assets/page.css");
/// The script: keyboard shortcuts, one submission per task.
pub(crate) const JS: &str = include_str!("assets/page.js");

/// HTML-escapes text for an element or a quoted attribute.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A whole page around `body`. `refresh`: seconds before the page reloads
/// itself; `go`: where it then goes.
pub(crate) fn layout(title: &str, body: &str, refresh: Option<(u32, &str)>) -> String {
    let meta = refresh.map_or_else(String::new, |(s, url)| {
        format!(
            "<meta http-equiv=\"refresh\" content=\"{s}; url={}\">",
            esc(url)
        )
    });
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{meta}\
<title>{}</title><link rel=\"stylesheet\" href=\"/assets/page.css\"></head>\
<body><main>{body}</main><script src=\"/assets/page.js\"></script></body></html>\n",
        esc(title)
    )
}

fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", esc(p)))
        .collect()
}

fn keys_help(page: &PageSettings) -> String {
    let mut s = String::from(
        "<ul class=\"keys\"><li><kbd>1</kbd> or <kbd>&larr;</kbd>: the left (or upper) item</li>\
<li><kbd>2</kbd> or <kbd>&rarr;</kbd>: the right (or lower) item</li>",
    );
    if let Some(t) = &page.tie_label {
        let _ = write!(s, "<li><kbd>3</kbd> or <kbd>&darr;</kbd>: {}</li>", esc(t));
    }
    s.push_str("</ul>");
    s
}

/// The instructions screen, with the button that starts.
pub(crate) fn instructions(
    page: &PageSettings,
    csrf: &str,
    quota: Option<usize>,
    preview: bool,
) -> String {
    let mut body = format!(
        "<section class=\"card\" id=\"instructions\"><h1>{}</h1>{}",
        esc(&page.title),
        paragraphs(&page.instructions)
    );
    let _ = write!(
        body,
        "<p class=\"question-preview\">The question: <strong>{}</strong></p>",
        esc(&page.question)
    );
    if let Some(q) = quota {
        let _ = write!(body, "<p>You will see at most {q} pairs.</p>");
    }
    body.push_str("<h2>Keys</h2>");
    body.push_str(&keys_help(page));
    body.push_str("<p>On a phone, tap the item you choose.</p>");
    if preview {
        body.push_str("<p class=\"notice\">Accept the task to begin.</p></section>");
    } else {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/start\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">\
<button type=\"submit\" id=\"start\" class=\"primary\" data-key=\"Enter\">Start</button></form></section>",
            esc(csrf)
        );
    }
    layout(&page.title, &body, None)
}

/// One item as shown.
#[derive(Debug, Clone)]
pub(crate) struct Shown<'a> {
    pub(crate) label: String,
    pub(crate) first: &'a str,
    pub(crate) second: &'a str,
    pub(crate) answered: usize,
    pub(crate) quota: Option<usize>,
}

fn progress(answered: usize, quota: Option<usize>) -> String {
    match quota {
        Some(q) => format!(
            "<div class=\"progress\"><progress max=\"{q}\" value=\"{answered}\"></progress>\
<span id=\"count\">{answered} of {q} done</span></div>"
        ),
        None => format!("<div class=\"progress\"><span id=\"count\">{answered} done</span></div>"),
    }
}

/// The task screen.
pub(crate) fn task(page: &PageSettings, csrf: &str, t: &Shown<'_>) -> String {
    let mut body = progress(t.answered, t.quota);
    let _ = write!(
        body,
        "<h1 class=\"question\">{}</h1>\
<form method=\"post\" action=\"/answer\" id=\"answer\">\
<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"task\" value=\"{}\">\
<div class=\"pair\">\
<button type=\"submit\" name=\"choice\" value=\"first\" class=\"item\" id=\"first\" data-key=\"1 ArrowLeft\">\
<span class=\"text\">{}</span><span class=\"key\">1</span></button>\
<button type=\"submit\" name=\"choice\" value=\"second\" class=\"item\" id=\"second\" data-key=\"2 ArrowRight\">\
<span class=\"text\">{}</span><span class=\"key\">2</span></button></div>",
        esc(&page.question),
        esc(csrf),
        esc(&t.label),
        esc(t.first),
        esc(t.second)
    );
    if let Some(tie) = &page.tie_label {
        let _ = write!(
            body,
            "<button type=\"submit\" name=\"choice\" value=\"tie\" class=\"same\" id=\"tie\" data-key=\"3 ArrowDown\">\
{}<span class=\"key\">3</span></button>",
            esc(tie)
        );
    }
    body.push_str("</form>");
    body.push_str(&finish_form(csrf, t.answered));
    layout(&page.title, &body, None)
}

fn finish_form(csrf: &str, answered: usize) -> String {
    if answered == 0 {
        return String::new();
    }
    format!(
        "<form method=\"post\" action=\"/finish\" class=\"finish\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">\
<button type=\"submit\" class=\"link\" id=\"finish\">I want to stop here</button></form>",
        esc(csrf)
    )
}

/// "Come back in a moment": reloads itself.
pub(crate) fn wait(
    page: &PageSettings,
    csrf: &str,
    transition: bool,
    answered: usize,
    quota: Option<usize>,
) -> String {
    let why = if transition {
        "The next round of pairs is being prepared."
    } else {
        "Every remaining pair is being answered by someone else right now."
    };
    let body = format!(
        "{}<section class=\"card\" id=\"wait\"><h1>Please wait a moment</h1><p>{why}</p>\
<p>This page reloads by itself.</p>{}</section>",
        progress(answered, quota),
        finish_form(csrf, answered)
    );
    layout(&page.title, &body, Some((5, "/task")))
}

/// The end screen: the completion code, or the redirect to the
/// completion URL; for partial work (stopped under the quota), the partial
/// code and URL, if any.
pub(crate) fn done(page: &PageSettings, answered: usize, partial: bool) -> String {
    let mut body = format!(
        "<section class=\"card\" id=\"done\"><h1>Thank you!</h1><p>You answered {answered} pair{}.</p>",
        if answered == 1 { "" } else { "s" }
    );
    let code = completion_code(page, partial);
    if let Some(code) = code {
        let _ = write!(
            body,
            "<p>Your completion code:</p><p class=\"code\" id=\"code\">{}</p>",
            esc(code)
        );
    } else if partial {
        body.push_str(
            "<p id=\"partial\">You stopped before the end of the study, so there is no \
             completion code. The researchers can see how many answers you gave.</p>",
        );
    }
    let url = completion_url(page, partial);
    if let Some(u) = &url {
        let _ = write!(
            body,
            "<p><a class=\"primary button\" id=\"complete\" href=\"{}\">Complete the study</a></p>\
<p>You will be taken there in a few seconds.</p>",
            esc(u)
        );
    } else if code.is_none() {
        body.push_str("<p>You can close this page.</p>");
    }
    body.push_str("</section>");
    layout(&page.title, &body, url.as_deref().map(|u| (3, u)))
}

/// The code the end screen shows: the completion code, or for partial work
/// the partial completion code.
pub(crate) fn completion_code(page: &PageSettings, partial: bool) -> Option<&str> {
    if partial {
        page.partial_completion_code.as_deref()
    } else {
        page.completion_code.as_deref()
    }
}

/// The completion URL (for partial work, the partial one) with `{code}`
/// replaced, when it is an http(s) URL.
pub(crate) fn completion_url(page: &PageSettings, partial: bool) -> Option<String> {
    let u = if partial {
        page.partial_completion_url.as_ref()?
    } else {
        page.completion_url.as_ref()?
    };
    let code = completion_code(page, partial).unwrap_or("");
    let u = u.replace("{code}", code);
    (u.starts_with("https://") || u.starts_with("http://")).then_some(u)
}

/// "Too many people are starting": reloads `again` after `seconds`.
pub(crate) fn busy(seconds: u64, again: &str) -> String {
    let body = format!(
        "<section class=\"card\" id=\"busy\"><h1>Please wait a moment</h1>\
<p>Many participants are starting the study right now. This page tries again by itself in \
{seconds} second{}.</p></section>",
        if seconds == 1 { "" } else { "s" }
    );
    layout(
        "Please wait a moment",
        &body,
        Some((seconds.min(600) as u32, again)),
    )
}

/// A page that says what went wrong and how to go on.
pub(crate) fn message(title: &str, text: &str, link: Option<(&str, &str)>) -> String {
    let mut body = format!(
        "<section class=\"card\" id=\"message\"><h1>{}</h1><p>{}</p>",
        esc(title),
        esc(text)
    );
    if let Some((href, label)) = link {
        let _ = write!(
            body,
            "<p><a class=\"button\" href=\"{}\">{}</a></p>",
            esc(href),
            esc(label)
        );
    }
    body.push_str("</section>");
    layout(title, &body, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_that_matters() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        let page = PageSettings {
            question: "<script>alert(1)</script>".into(),
            ..PageSettings::default()
        };
        let t = Shown {
            label: "abc-b1-0".into(),
            first: "<b>x</b>",
            second: "y\"z",
            answered: 0,
            quota: Some(3),
        };
        let html = task(&page, "tok", &t);
        assert!(!html.contains("<script>alert"));
        assert!(!html.contains("<b>x"));
        assert!(html.contains("y&quot;z"));
    }

    #[test]
    fn completion_url_takes_http_only() {
        let mut p = PageSettings {
            completion_code: Some("C0DE".into()),
            completion_url: Some("https://app.example/complete?cc={code}".into()),
            ..PageSettings::default()
        };
        assert_eq!(
            completion_url(&p, false).as_deref(),
            Some("https://app.example/complete?cc=C0DE")
        );
        // Partial work: no partial URL, no redirect.
        assert_eq!(completion_url(&p, true), None);
        p.partial_completion_code = Some("PART".into());
        p.partial_completion_url = Some("https://app.example/complete?cc={code}".into());
        assert_eq!(
            completion_url(&p, true).as_deref(),
            Some("https://app.example/complete?cc=PART")
        );
        p.completion_url = Some("javascript:alert(1)".into());
        assert_eq!(completion_url(&p, false), None);
    }
}
