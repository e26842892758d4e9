//! The researcher's dashboard: progress of every ballot, votes per worker,
//! accuracy on control pairs, agreement with the majority, exclusions, the
//! current ranking; as a page and as JSON.

use std::fmt::Write as _;

use serde_json::Value;

use crate::pages::{esc, layout};
use crate::state::PageSettings;

fn fmt_num(v: &Value) -> String {
    match v {
        Value::Null => "–".to_owned(),
        Value::Number(n) => n.as_f64().map_or_else(
            || n.to_string(),
            |x| {
                if n.is_f64() {
                    format!("{x:.3}")
                } else {
                    n.to_string()
                }
            },
        ),
        Value::String(s) => esc(s),
        other => esc(&other.to_string()),
    }
}

fn table(head: &[&str], rows: &[Vec<String>], numeric_from: usize) -> String {
    let mut s = String::from("<table><thead><tr>");
    for (i, h) in head.iter().enumerate() {
        let class = if i >= numeric_from {
            " class=\"num\""
        } else {
            ""
        };
        let _ = write!(s, "<th{class}>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for (i, cell) in r.iter().enumerate() {
            let class = if i >= numeric_from {
                " class=\"num\""
            } else {
                ""
            };
            let _ = write!(s, "<td{class}>{cell}</td>");
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}

/// The dashboard page (cells are escaped by [`fmt_num`] or explicitly).
pub(crate) fn page(st: &Value, csrf: &str, notice: Option<&str>, p: &PageSettings) -> String {
    let c = &st["campaign"];
    let mut body = format!(
        "<h1>Campaign {} — dashboard</h1><p>{} items, M = {}, α = {}, {} ballots, {} control pair(s); \
         {} votes so far. State: <strong>{}</strong>{}.</p>",
        fmt_num(&c["tag"]),
        fmt_num(&c["items"]),
        fmt_num(&c["m"]),
        fmt_num(&c["alpha"]),
        fmt_num(&c["ballots"]),
        fmt_num(&c["control_pairs"]),
        fmt_num(&c["votes"]),
        fmt_num(&c["phase"]),
        match c["open_ballot"].as_u64() {
            Some(k) => format!(
                ", ballot {k} open, {} live lease(s)",
                fmt_num(&st["live_leases"])
            ),
            None => String::new(),
        }
    );
    if let Some(n) = notice {
        let _ = write!(body, "<p class=\"notice\">Done: {}.</p>", esc(n));
    }
    body.push_str("<h2>Ballots</h2>");
    let rows: Vec<Vec<String>> = st["ballots"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            let state = if b["closed"].as_bool() == Some(true) {
                "closed"
            } else {
                "open"
            };
            vec![
                fmt_num(&b["ballot"]),
                state.to_owned(),
                fmt_num(&b["items"]),
                fmt_num(&b["comparisons"]),
                fmt_num(&b["votes"]),
                fmt_num(&b["missing"]),
                fmt_num(&b["control_tasks"]),
                fmt_num(&b["control_answers"]),
                fmt_num(&b["discarded"]),
            ]
        })
        .collect();
    body.push_str(&table(
        &[
            "ballot",
            "state",
            "items",
            "comparisons",
            "votes",
            "missing",
            "control tasks",
            "control answers",
            "discarded",
        ],
        &rows,
        2,
    ));
    body.push_str("<h2>Workers</h2>");
    let rows: Vec<Vec<String>> = st["workers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|w| {
            let name = w["worker"].as_str().unwrap_or("");
            let action = if w["excluded_at"].is_null() && c["open_ballot"].is_u64() {
                format!(
                    "<form method=\"post\" action=\"/admin/exclude\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">\
<input type=\"hidden\" name=\"worker\" value=\"{}\"><button class=\"link\" type=\"submit\">exclude</button></form>",
                    esc(csrf),
                    esc(name)
                )
            } else {
                String::new()
            };
            vec![
                esc(name),
                fmt_num(&w["source"]),
                fmt_num(&w["votes"]),
                fmt_num(&w["controls"]),
                fmt_num(&w["correct"]),
                fmt_num(&w["accuracy"]),
                fmt_num(&w["agreement"]),
                fmt_num(&w["discarded"]),
                fmt_num(&w["excluded_at"]),
                action,
            ]
        })
        .collect();
    body.push_str(&table(
        &[
            "worker",
            "source",
            "votes",
            "controls",
            "correct",
            "accuracy",
            "agreement",
            "discarded",
            "excluded at",
            "",
        ],
        &rows,
        2,
    ));
    body.push_str("<h2>Ranking</h2>");
    match st["ranking"]["items"].as_array() {
        Some(items) => {
            let _ = write!(
                body,
                "<p>After {} closed ballot(s); the first {} of {} items (all of them in <a href=\"/admin/status.json?top=all\">JSON</a>).</p>",
                fmt_num(&st["ranking"]["closed_ballots"]),
                items.len(),
                fmt_num(&st["ranking"]["total"])
            );
            let rows: Vec<Vec<String>> = items
                .iter()
                .map(|i| {
                    vec![
                        fmt_num(&i["id"]),
                        fmt_num(&i["text"]),
                        fmt_num(&i["rank"]),
                        fmt_num(&i["score"]),
                        fmt_num(&i["last_ballot"]),
                    ]
                })
                .collect();
            body.push_str(&table(
                &["id", "text", "rank", "score", "last ballot"],
                &rows,
                2,
            ));
        }
        None => body.push_str("<p>No ballot is closed yet.</p>"),
    }
    body.push_str("<h2>Actions</h2><div class=\"actions\">");
    if c["open_ballot"].is_u64() {
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/admin/close\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">\
<button type=\"submit\" class=\"button\">Close the open ballot now (unanswered pairs withdrawn)</button></form>",
            esc(csrf)
        );
    }
    let _ = write!(
        body,
        "<form method=\"post\" action=\"/admin/invite\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">\
<label>Invitations: <input name=\"count\" size=\"4\" inputmode=\"numeric\"></label> \
<button type=\"submit\" class=\"button\">Create</button></form></div>\
<p><a href=\"/admin/status.json\">The status as JSON</a>.</p>",
        esc(csrf)
    );
    let rows: Vec<Vec<String>> = st["invitations"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            vec![
                fmt_num(&i["worker"]),
                format!("<code>{}</code>", fmt_num(&i["path"])),
            ]
        })
        .collect();
    if !rows.is_empty() {
        body.push_str("<h2>Invitations</h2>");
        body.push_str(&table(
            &["annotator", "link (after this server's address)"],
            &rows,
            2,
        ));
    }
    layout(&format!("{} — dashboard", p.title), &body, None)
}
