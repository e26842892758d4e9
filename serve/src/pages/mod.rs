//! The annotator's pages and the dashboard's ([`dashboard`]), with their
//! style sheet and script: all compiled into the binary (no external
//! script, font or CDN). The pages are maud templates: every value from the
//! campaign or a request is HTML-escaped unless marked otherwise.

mod charts;
mod dashboard;

pub(crate) use dashboard::{View, confirm_close, confirm_exclude, dashboard};

use maud::{DOCTYPE, Markup, html};

use crate::state::PageSettings;

/// The style sheet.
pub(crate) const CSS: &str = include_str!("assets/page.css");
/// The script: keyboard shortcuts, one submission per task, the copy
/// button, the countdown, the note of a lease that ran out.
pub(crate) const JS: &str = include_str!("assets/page.js");

/// A whole page around `body`. `refresh`: seconds before the page reloads
/// itself, and where it then goes.
pub(crate) fn layout(title: &str, body: &Markup, refresh: Option<(u32, &str)>) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                @if let Some((s, url)) = refresh {
                    meta http-equiv="refresh" content={ (s) "; url=" (url) };
                }
                title { (title) }
                link rel="stylesheet" href="/assets/page.css";
            }
            body {
                main { (body) }
                script src="/assets/page.js" {}
            }
        }
    }
    .into_string()
}

fn paragraphs(text: &str) -> Markup {
    html! {
        @for p in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
            p { (p) }
        }
    }
}

fn keys_help(page: &PageSettings) -> Markup {
    html! {
        ul.keys {
            li { kbd { "1" } " or " kbd { "←" } ": the left (or upper) item" }
            li { kbd { "2" } " or " kbd { "→" } ": the right (or lower) item" }
            @if let Some(t) = &page.tie_label {
                li { kbd { "3" } " or " kbd { "↓" } ": " (t) }
            }
        }
    }
}

/// Seconds a pair takes a participant, about (reading two short texts and
/// choosing), for the time the instructions announce.
pub(crate) const SECONDS_PER_PAIR: usize = 6;

/// What the instructions say of the time it takes.
fn estimate(quota: Option<usize>) -> String {
    match quota {
        Some(q) => {
            let minutes = (q * SECONDS_PER_PAIR).div_ceil(60).max(1);
            format!(
                "You will see at most {q} pair{}: about {minutes} minute{} in all. You can stop \
                 earlier.",
                if q == 1 { "" } else { "s" },
                if minutes == 1 { "" } else { "s" }
            )
        }
        None => format!(
            "Each pair takes a few seconds (about {SECONDS_PER_PAIR}); you can stop whenever you \
             like."
        ),
    }
}

fn csrf_input(csrf: &str) -> Markup {
    html! { input type="hidden" name="csrf" value=(csrf); }
}

/// The instructions screen, with the button that starts.
pub(crate) fn instructions(
    page: &PageSettings,
    csrf: &str,
    quota: Option<usize>,
    preview: bool,
) -> String {
    let body = html! {
        section.card #instructions {
            h1 { (page.title) }
            (paragraphs(&page.instructions))
            p.question-preview { "The question: " strong { (page.question) } }
            p.estimate #estimate { (estimate(quota)) }
            h2 { "Keys" }
            (keys_help(page))
            p { "On a phone, tap the item you choose." }
            @if preview {
                p.notice { "Accept the task to begin." }
            } @else {
                form method="post" action="/start" {
                    (csrf_input(csrf))
                    button type="submit" #start .primary data-key="Enter" { "Start" }
                }
            }
        }
    };
    layout(&page.title, &body, None)
}

/// One pair as shown.
#[derive(Debug, Clone)]
pub(crate) struct Shown<'a> {
    pub(crate) label: String,
    pub(crate) first: &'a str,
    pub(crate) second: &'a str,
    pub(crate) answered: usize,
    pub(crate) quota: Option<usize>,
    /// Seconds left of the worker's lease on the pair: then the page says
    /// that it may go to someone else.
    pub(crate) lease_seconds: u64,
}

fn progress(answered: usize, quota: Option<usize>) -> Markup {
    html! {
        div.progress {
            @if let Some(q) = quota {
                progress max=(q) value=(answered) {}
                span #count { (answered) " of " (q) " done" }
            } @else {
                span #count { (answered) " done" }
            }
        }
    }
}

/// The task screen.
pub(crate) fn task(page: &PageSettings, csrf: &str, t: &Shown<'_>) -> String {
    let body = html! {
        (progress(t.answered, t.quota))
        h1.question { (page.question) }
        p.notice #lease-note hidden {
            "You have had this pair for a long time: it may now be given to someone else. "
            "Your answer still counts if nobody has taken it; otherwise you get a new pair."
        }
        form method="post" action="/answer" #answer data-lease-seconds=(t.lease_seconds) {
            (csrf_input(csrf))
            input type="hidden" name="task" value=(t.label);
            div.pair {
                button type="submit" name="choice" value="first" .item #first data-key="1 ArrowLeft" {
                    span.text { (t.first) } span.key { "1" }
                }
                button type="submit" name="choice" value="second" .item #second data-key="2 ArrowRight" {
                    span.text { (t.second) } span.key { "2" }
                }
            }
            @if let Some(tie) = &page.tie_label {
                button type="submit" name="choice" value="tie" .same #tie data-key="3 ArrowDown" {
                    (tie) span.key { "3" }
                }
            }
        }
        (finish_form(csrf, t.answered))
    };
    layout(&page.title, &body, None)
}

/// The way out: a link to the page that asks once ([`confirm_stop`]).
fn finish_form(_csrf: &str, answered: usize) -> Markup {
    html! {
        @if answered > 0 {
            p.finish { a #finish href="/finish" { "I want to stop here (this ends the study)" } }
        }
    }
}

/// "Stop the study now?": asked once, before the end screen.
pub(crate) fn confirm_stop(
    page: &PageSettings,
    csrf: &str,
    answered: usize,
    quota: Option<usize>,
    partial_code: bool,
) -> String {
    let under = quota.is_some_and(|q| answered < q);
    let body = html! {
        section.card #confirm-stop {
            h1 { "Stop the study now?" }
            p {
                "You answered " (answered) " pair" @if answered != 1 { "s" }
                @if let Some(q) = quota { " of " (q) }
                ". Stopping ends the study for you: you cannot come back to it."
            }
            @if under {
                p {
                    @if partial_code {
                        "As you stop before the end, you get the code for part of the study."
                    } @else {
                        "As you stop before the end, there is no completion code; the researchers can see how many answers you gave."
                    }
                }
            }
            form method="post" action="/finish" {
                (csrf_input(csrf))
                button type="submit" .button.primary #stop { "Yes, stop here" }
                " "
                a.button href="/task" #go-on { "No, go on" }
            }
        }
    };
    layout(&page.title, &body, None)
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
    let body = html! {
        (progress(answered, quota))
        section.card #wait {
            h1 { "Please wait a moment" }
            p { (why) }
            p { "This page reloads by itself." }
            (finish_form(csrf, answered))
        }
    };
    layout(&page.title, &body, Some((5, "/task")))
}

/// The end screen: the completion code, or the redirect to the
/// completion URL; for partial work (stopped under the quota), the partial
/// code and URL, if any.
pub(crate) fn done(page: &PageSettings, answered: usize, partial: bool) -> String {
    let code = completion_code(page, partial);
    let url = completion_url(page, partial);
    let body = html! {
        section.card #done {
            h1 { "Thank you!" }
            p { "You answered " (answered) " pair" @if answered != 1 { "s" } "." }
            @if let Some(code) = code {
                p { "Your completion code:" }
                div.codebox {
                    span.code #code { (code) }
                    button.button type="button" #copy hidden { "Copy" }
                }
            } @else if partial {
                p #partial {
                    "You stopped before the end of the study, so there is no completion code. \
                     The researchers can see how many answers you gave."
                }
            }
            @if let Some(u) = &url {
                p { a.primary.button #complete href=(u) { "Complete the study" } }
                p.countdown #countdown {
                    "Or wait: you will be taken there in " span #seconds { (REDIRECT_SECONDS) } " seconds."
                }
            } @else if code.is_none() {
                p { "You can close this page." }
            }
        }
    };
    layout(
        &page.title,
        &body,
        url.as_deref().map(|u| (REDIRECT_SECONDS, u)),
    )
}

/// Seconds the end screen waits before it sends the participant to the
/// completion URL (time to copy the code; a click goes at once).
pub(crate) const REDIRECT_SECONDS: u32 = 30;

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
    let body = html! {
        section.card #busy {
            h1 { "Please wait a moment" }
            p {
                "Many participants are starting the study right now. This page tries again by \
                 itself in " (seconds) " second" @if seconds != 1 { "s" } "."
            }
        }
    };
    layout(
        "Please wait a moment",
        &body,
        Some((seconds.min(600) as u32, again)),
    )
}

/// A page that says what went wrong and how to go on.
pub(crate) fn message(title: &str, text: &str, link: Option<(&str, &str)>) -> String {
    let body = html! {
        section.card #message {
            h1 { (title) }
            p { (text) }
            @if let Some((href, label)) = link {
                p { a.button href=(href) { (label) } }
            }
        }
    };
    layout(title, &body, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_that_matters() {
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
            lease_seconds: 600,
        };
        let html = task(&page, "tok\"><script>", &t);
        assert!(!html.contains("<script>alert"));
        assert!(!html.contains("<b>x"));
        assert!(!html.contains("tok\"><script>"));
        assert!(html.contains("y&quot;z"));
        assert!(html.contains("data-lease-seconds=\"600\""));
        assert!(html.contains("id=\"lease-note\" hidden"));
        assert!(html.contains("name=\"csrf\" value=\"tok&quot;&gt;&lt;script&gt;\""));
        let m = message("<i>", "a & b", Some(("/x\"y", "<go>")));
        assert!(m.contains("&lt;i&gt;") && m.contains("a &amp; b") && m.contains("/x&quot;y"));
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
