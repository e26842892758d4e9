//! The researcher's dashboard, rendered from the typed [`Status`].

use maud::{Markup, html};

use super::layout;
use crate::status::{RankingInfo, Status};

/// A number with three decimals, or a dash.
fn opt3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_owned(), |x| format!("{x:.3}"))
}

/// A count, or a dash.
fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "–".to_owned(), |x| x.to_string())
}

fn hidden_csrf(csrf: &str) -> Markup {
    html! { input type="hidden" name="csrf" value=(csrf); }
}

/// The dashboard page.
pub(crate) fn dashboard(st: &Status, csrf: &str, notice: Option<&str>) -> String {
    let c = &st.campaign;
    let body = html! {
        h1 { (c.title) " — dashboard" }
        p {
            "Campaign " code { (c.tag) } ": " (c.items) " items, M = " (c.m) ", α = " (c.alpha) ", "
            (c.ballots) " ballots, " (c.control_pairs) " control pair(s); " (c.votes) " votes so far. "
            "State: " strong { (c.phase) }
            @if let Some(k) = c.open_ballot {
                ", ballot " (k) " open, " (st.live_leases) " live lease(s)"
            }
            "."
        }
        @if let Some(n) = notice {
            p.notice { "Done: " (n) "." }
        }
        h2 { "Ballots" }
        table {
            thead { tr {
                th { "ballot" } th { "state" } th.num { "items" } th.num { "comparisons" }
                th.num { "votes" } th.num { "missing" } th.num { "control tasks" }
                th.num { "control answers" } th.num { "discarded" }
            } }
            tbody { @for b in &st.ballots { tr {
                td { (b.status.ballot) } td { @if b.status.closed { "closed" } @else { "open" } }
                td.num { (b.status.items) } td.num { (b.status.comparisons) }
                td.num { (b.status.votes) } td.num { (b.status.missing) }
                td.num { (b.status.control_tasks) } td.num { (b.status.control_answers) }
                td.num { (b.status.discarded) }
            } } }
        }
        h2 { "Workers" }
        table {
            thead { tr {
                th { "worker" } th { "source" } th.num { "votes" } th.num { "controls" }
                th.num { "correct" } th.num { "accuracy" } th.num { "agreement" }
                th.num { "discarded" } th.num { "excluded at" } th {}
            } }
            tbody { @for w in &st.workers { tr {
                td { (w.stats.worker) } td { (w.source) } td.num { (w.stats.votes) }
                td.num { (w.stats.controls) } td.num { (w.stats.correct) }
                td.num { (opt3(w.stats.accuracy)) } td.num { (opt3(w.stats.agreement)) }
                td.num { (w.stats.discarded) } td.num { (opt(w.stats.excluded_at)) }
                td {
                    @if w.stats.excluded_at.is_none() && c.open_ballot.is_some() {
                        form method="post" action="/admin/exclude" {
                            (hidden_csrf(csrf))
                            input type="hidden" name="worker" value=(w.stats.worker);
                            button.link type="submit" { "exclude" }
                        }
                    }
                }
            } } }
        }
        h2 { "Ranking" }
        @match &st.ranking {
            Some(RankingInfo::Ranked { closed_ballots, total, items }) => {
                p {
                    "After " (closed_ballots) " closed ballot(s); the first " (items.len()) " of "
                    (total) " items (all of them in " a href="/admin/status.json?top=all" { "JSON" } ")."
                }
                table {
                    thead { tr { th { "id" } th { "text" } th.num { "rank" } th.num { "score" } th.num { "last ballot" } } }
                    tbody { @for i in items { tr {
                        td { (i.id) } td { (i.text) } td.num { (i.rank) }
                        td.num { (format!("{:.3}", i.score)) } td.num { (i.last_ballot) }
                    } } }
                }
            }
            Some(RankingInfo::Failed { error }) => p { "The ranking failed: " (error) }
            None => p { "No ballot is closed yet." }
        }
        h2 { "Actions" }
        div.actions {
            @if c.open_ballot.is_some() {
                form method="post" action="/admin/close" {
                    (hidden_csrf(csrf))
                    button.button type="submit" { "Close the open ballot now (unanswered pairs withdrawn)" }
                }
            }
            form method="post" action="/admin/invite" {
                (hidden_csrf(csrf))
                label { "Invitations: " input name="count" size="4" inputmode="numeric"; }
                " "
                button.button type="submit" { "Create" }
            }
        }
        p { a href="/admin/status.json" { "The status as JSON" } "." }
        @if !st.invitations.is_empty() {
            h2 { "Invitations" }
            table {
                thead { tr { th { "annotator" } th { "link (after this server's address)" } } }
                tbody { @for i in &st.invitations { tr { td { (i.worker) } td { code { (i.path) } } } } }
            }
        }
    };
    layout(&format!("{} — dashboard", c.title), &body, None)
}
