//! The researcher's dashboard, rendered from the typed [`Status`]: what a
//! researcher running a paid study checks every few minutes: progress
//! against the budget and the time, who is active, who fails the control
//! pairs, what each participant did (for payment), the downloads, and the
//! actions (each confirmed on a page of its own).

use maud::{Markup, html};

use super::layout;
use crate::status::{CloseInfo, FittedInfo, RankedItem, RankingInfo, Status, WorkerRow};

/// Workers listed per page of the table.
pub(crate) const WORKERS_PER_PAGE: usize = 50;

/// How the researcher looks at the dashboard: the worker table's order and
/// page, and whether the page reloads itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct View {
    /// `worker`, `answers`, `accuracy`, `last` or `arrived` (default).
    pub(crate) sort: String,
    /// 1-based.
    pub(crate) page: usize,
    /// No reload every minute.
    pub(crate) still: bool,
}

/// A time, to the minute, in UTC.
pub(crate) fn when(ms: Option<u64>) -> String {
    ms.map_or_else(
        || "–".to_owned(),
        |ms| {
            let t = crate::log::rfc3339(ms);
            format!("{} {} UTC", &t[..10], &t[11..16])
        },
    )
}

fn opt3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_owned(), |x| format!("{x:.3}"))
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "–".to_owned(), |x| x.to_string())
}

/// An amount of money, to the cent (the study's currency).
fn money(x: f64) -> String {
    format!("{x:.2}")
}

fn duration(seconds: f64) -> String {
    let m = (seconds / 60.0).round() as u64;
    if m < 60 {
        format!("{m} min")
    } else {
        format!("{} h {:02} min", m / 60, m % 60)
    }
}

fn param(w: &WorkerRow, name: &str) -> String {
    w.params
        .get(name)
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_owned()
}

/// The worker rows in the view's order.
pub(crate) fn sorted<'a>(st: &'a Status, sort: &str) -> Vec<&'a WorkerRow> {
    let mut rows: Vec<&WorkerRow> = st.workers.iter().collect();
    match sort {
        "worker" => rows.sort_by(|a, b| a.stats.worker.cmp(&b.stats.worker)),
        "answers" => rows.sort_by_key(|w| std::cmp::Reverse(w.answers)),
        "accuracy" => rows.sort_by(|a, b| {
            let k = |w: &WorkerRow| w.stats.accuracy.unwrap_or(f64::INFINITY);
            k(a).total_cmp(&k(b))
        }),
        "last" => rows.sort_by_key(|w| std::cmp::Reverse(w.last_answer_ms)),
        _ => rows.sort_by_key(|w| w.arrived_ms),
    }
    rows
}

/// The cells a row of the ranking and of the fit begin with: rank, id,
/// text, score.
fn item_cells(i: &RankedItem) -> Markup {
    html! {
        td.num { (i.rank) } td { (i.id) } td { (i.text) } td.num { (format!("{:.3}", i.score)) }
    }
}

fn sort_link(view: &View, key: &str, label: &str) -> Markup {
    html! {
        @if view.sort == key || (key == "arrived" && view.sort.is_empty()) {
            strong { (label) }
        } @else {
            a href={ "/admin?sort=" (key) @if view.still { "&refresh=off" } } { (label) }
        }
    }
}

/// The dashboard page.
pub(crate) fn dashboard(st: &Status, csrf: &str, notice: Option<&str>, view: &View) -> String {
    let c = &st.campaign;
    let rows = sorted(st, &view.sort);
    let pages = rows.len().div_ceil(WORKERS_PER_PAGE).max(1);
    let page = view.page.clamp(1, pages);
    let shown = rows
        .iter()
        .skip((page - 1) * WORKERS_PER_PAGE)
        .take(WORKERS_PER_PAGE);
    let answered = st.workers.iter().filter(|w| w.answers > 0).count();
    let failing = st.workers.iter().filter(|w| w.failing_controls).count();
    let partial = st
        .workers
        .iter()
        .filter(|w| w.completion == Some("partial"))
        .count();
    let here = format!(
        "/admin?sort={}&page={page}{}",
        view.sort,
        if view.still { "&refresh=off" } else { "" }
    );
    let body = html! {
        header.dash {
            h1 { (c.title) }
            p.sub {
                "Dashboard · campaign " code { (c.tag) } " · " strong #phase { (c.phase) }
                @if c.closing { " · closing ballot " (opt(c.open_ballot)) "…" }
                " · " (when(Some(st.now_ms)))
                " · "
                @if view.still {
                    a href="/admin" { "reload every minute" }
                } @else {
                    "reloads every minute ("
                    a href="/admin?refresh=off" { "stop" } ")"
                }
            }
        }
        @if let Some(n) = notice {
            p.notice { "Done: " (n) "." }
        }
        section #progress {
            h2 { "Progress" }
            p {
                progress max=(c.budget) value=(c.votes) {}
                " " strong { (c.votes) } " of " (c.budget) " comparisons voted"
                @if let Some(k) = c.open_ballot { "; ballot " (k) " of " (c.ballots) " open" }
                "."
            }
            ul.figures {
                @if let (Some(p), Some(spent), Some(cost)) = (c.price, c.spent, c.cost_budget) {
                    li #spent { "Spent: " strong { (money(spent)) } " of " (money(cost)) " (" (c.tasks_budget) " tasks at " (p) ")" }
                }
                li { "Started: " (when(c.started_ms)) }
                li { "Pace: " (c.votes_per_hour.map_or_else(|| "–".to_owned(), |r| format!("{r:.0} votes an hour"))) }
                li { "At this pace, done in: " (c.eta_seconds.map_or_else(|| "–".to_owned(), duration)) }
                li { "Active now: " strong #active { (c.active_workers) } " participant(s), " (st.live_leases) " pair(s) handed out" }
                li { "Participants: " (st.workers.len()) " came, " (answered) " answered, " (failing) " failing the control pairs, " (partial) " stopped early" }
            }
        }
        // Charts drawn from the same status: inline SVG, no script or font.
        section #charts .charts {
            @for svg in super::charts::charts(st) {
                figure { (maud::PreEscaped(svg)) }
            }
        }
        section #ballots {
            h2 { "Ballots" }
            table {
                thead { tr {
                    th { "ballot" } th { "state" } th { "opened" } th { "closed" } th.num { "items" }
                    th.num { "comparisons" } th.num { "votes" } th.num { "missing" }
                    th.num { "control tasks" } th.num { "control answers" } th.num { "discarded" }
                } }
                tbody { @for b in &st.ballots { tr {
                    td { (b.status.ballot) } td { @if b.status.closed { "closed" } @else { "open" } }
                    td { (when(b.opened_ms)) } td { (when(b.closed_ms)) }
                    td.num { (b.status.items) } td.num { (b.status.comparisons) }
                    td.num { (b.status.votes) } td.num { (b.status.missing) }
                    td.num { (b.status.control_tasks) } td.num { (b.status.control_answers) }
                    td.num { (b.status.discarded) }
                } } }
            }
            @if let Some(k) = &st.close { (close_section(k)) }
        }
        section #workers {
            h2 { "Participants" }
            p {
                "Order: " (sort_link(view, "arrived", "arrival")) " · " (sort_link(view, "last", "last answer"))
                " · " (sort_link(view, "answers", "answers")) " · " (sort_link(view, "accuracy", "accuracy (worst first)"))
                " · " (sort_link(view, "worker", "id"))
                " — page " (page) " of " (pages)
                @if page > 1 { " · " a href={ "/admin?sort=" (view.sort) "&page=" (page - 1) } { "previous" } }
                @if page < pages { " · " a href={ "/admin?sort=" (view.sort) "&page=" (page + 1) } { "next" } }
            }
            table #worker-table {
                thead { tr {
                    th { "participant" } th { "source" } th { "STUDY_ID" } th { "SESSION_ID" }
                    th { "came" } th { "first answer" } th { "last answer" } th.num { "answers" }
                    @if c.price.is_some() { th.num { "earned" } }
                    th.num { "votes" }
                    th.num { "controls" } th.num { "accuracy" } th.num { "agreement (votes counted)" }
                    th { "end" } th.num { "excluded at" } th {}
                } }
                tbody { @for w in shown { tr.active[w.active].failing[w.failing_controls] {
                    td { (w.stats.worker) @if w.active { " " span.dot title="active" { "●" } } }
                    td { (w.source) } td { (param(w, "STUDY_ID")) } td { (param(w, "SESSION_ID")) }
                    td { (when(w.arrived_ms)) } td { (when(w.first_answer_ms)) } td { (when(w.last_answer_ms)) }
                    td.num { (w.answers) }
                    @if let Some(e) = w.earned { td.num { (money(e)) } }
                    td.num { (w.stats.votes) } td.num { (w.stats.controls) }
                    td.num { (opt3(w.stats.accuracy)) @if w.failing_controls { " ⚠" } }
                    td.num { (opt3(w.stats.agreement)) " (" (w.agreement_votes) ")" }
                    td { (w.completion.unwrap_or("–")) }
                    td.num { (opt(w.stats.excluded_at)) }
                    td {
                        @if w.stats.excluded_at.is_none() && c.open_ballot.is_some() && w.answers > 0 {
                            a href={ "/admin/exclude?worker=" (crate::parse::percent_encode(&w.stats.worker)) } { "exclude…" }
                        }
                    }
                } } }
            }
            dl.defs {
                dt { "answers" } dd { "Every answer the participant gave through this server, control pairs and answers later discarded included: the work done, for payment." }
                @if let Some(p) = c.price {
                    dt { "earned" } dd { "Answers × the price of a task given at init (" (p) "): what the participant's work comes to, before any bonus." }
                }
                dt { "votes" } dd { "Answers to comparisons that count (not discarded)." }
                dt { "accuracy" } dd { "Correct answers on control pairs (pairs whose answer is known) over control answers; ⚠ under the exclusion threshold." }
                dt { "agreement" } dd { "How often the participant's vote goes the way the rest of the crowd orders the same two items in that ballot (their scores without the participant's votes; a tie or an even order counts one half); a vote counts only when both items have other votes, so few votes give few counted: their number is in brackets. Computed again at most every 30 s (last: " (when(Some(st.agreement_ms))) ")." }
                dt { "end" } dd { "What the end screen gave: full (the completion code), partial (stopped before the quota: the partial code, if any), excluded, or – (still going, or gone)." }
            }
        }
        section #downloads {
            h2 { "Downloads" }
            ul {
                li { a href="/admin/workers.csv" download { "Participants (CSV)" } ": one line each, with the answers to pay for" }
                li { a href="/admin/votes.csv" download { "Votes (CSV)" } ": every answer, counted or discarded" }
                li { a href="/admin/status.json?top=all" { "The whole status (JSON)" } }
            }
        }
        section #ranking {
            h2 { "Ranking" }
            @match &st.ranking {
                Some(RankingInfo::Ranked { closed_ballots, total, items }) => {
                    p { "After " (closed_ballots) " closed ballot(s); the first " (items.len()) " of " (total) " items." }
                    table {
                        thead { tr { th.num { "rank" } th { "id" } th { "text" } th.num { "score" } th.num { "last ballot" } } }
                        tbody { @for i in items { tr { (item_cells(&i.item)) td.num { (i.last_ballot) } } } }
                    }
                }
                Some(RankingInfo::Failed { error }) => p { "The ranking failed: " (error) }
                None => p { "No ballot is closed yet." }
            }
        }
        section #fitted {
            h2 { "Bradley–Terry ranking of the votes so far" }
            @match &st.fitted {
                Some(FittedInfo::Ranked { votes, fitted_ms, took_ms, prior_sd, level, total, items, settled }) => {
                    p {
                        "Fitted to " (votes) " vote(s) (the open ballot's so far included) at " (when(Some(*fitted_ms)))
                        " in " (took_ms) " ms; scores are log-strengths under a Gaussian prior of SD " (prior_sd)
                        ", with " (format!("{:.0}", 100.0 * level)) " % intervals on scores and ranks. The first "
                        (items.len()) " of " (total) " items."
                    }
                    p #settled {
                        @if settled.settled {
                            "The top " (settled.k) " is settled: P(the same " (settled.k) " items) = "
                            (format!("{:.3}", settled.probability)) " ≥ " (settled.target) "."
                        } @else {
                            "The top " (settled.k) " is not settled yet: P(the same " (settled.k) " items) = "
                            (format!("{:.3}", settled.probability)) " < " (settled.target) "; "
                            @match settled.further_comparisons {
                                Some(m) => { "about " (m) " further comparisons would settle it" }
                                None => { "two items at its boundary have equal scores" }
                            }
                            "; the largest settled top k is " (settled.largest_settled) "."
                        }
                    }
                    table {
                        thead { tr {
                            th.num { "rank" } th { "id" } th { "text" } th.num { "score" }
                            th.num { "interval" } th.num { "rank interval" } th.num { "P(top " (settled.k) ")" }
                        } }
                        tbody { @for i in items { tr {
                            (item_cells(&i.item))
                            td.num { (format!("{:.3} – {:.3}", i.low, i.high)) }
                            td.num { (i.rank_low) "–" (i.rank_high) }
                            td.num { (format!("{:.3}", i.p_top_k)) }
                        } } }
                    }
                }
                Some(FittedInfo::Failed { error }) => p { "The fit failed: " (error) }
                Some(FittedInfo::Underway { .. }) => p { "The first fit of the votes is underway: reload the page in a moment." }
                None => p { "No vote yet." }
            }
        }
        section #invitations {
            h2 { "Invitations" }
            form method="post" action="/admin/invite" {
                input type="hidden" name="csrf" value=(csrf);
                label { "New invitation links: " input name="count" size="4" inputmode="numeric"; }
                " "
                button.button type="submit" { "Create" }
            }
            @if !st.invitations.is_empty() {
                table {
                    thead { tr { th { "annotator" } th { "link (after this server's address)" } } }
                    tbody { @for i in &st.invitations { tr { td { (i.worker) } td { code { (i.path) } } } } }
                }
            }
        }
    };
    let refresh = (!view.still).then_some((60, here.as_str()));
    layout(&format!("{} — dashboard", c.title), &body, refresh)
}

fn close_section(k: &CloseInfo) -> Markup {
    html! {
        div #close .card {
            h3 { "Ballot " (k.ballot) ": " (k.comparisons - k.without_vote) " of " (k.comparisons) " comparisons voted" }
            p { "It closes by itself once every comparison has its vote." }
            @if k.can_close_now {
                p { a.button href="/admin/close" { "Close it now…" } " (the " (k.without_vote) " comparisons without a vote are withdrawn)" }
            } @else {
                p {
                    "Closing it now is not possible yet: " (k.unvoted_items) " of its " (k.items)
                    " items have no vote (" (k.unvoted_examples.join(", "))
                    @if k.unvoted_items > k.unvoted_examples.len() { ", …" }
                    "), and withdrawing the comparisons without a vote needs a vote for every item."
                }
            }
        }
    }
}

/// "Exclude this participant?": what it does, and the button that does it.
pub(crate) fn confirm_exclude(w: &WorkerRow, csrf: &str, open_ballot: Option<usize>) -> String {
    let body = html! {
        section.card #confirm {
            h1 { "Exclude " (w.stats.worker) "?" }
            p {
                "Their answers of the open ballot" @if let Some(k) = open_ballot { " (" (k) ")" }
                " are discarded and their pairs go back to others; they see the end screen from now on. "
                "Closed ballots keep their votes. This cannot be undone."
            }
            p { (w.answers) " answer(s) so far; accuracy on control pairs " (opt3(w.stats.accuracy)) "." }
            form method="post" action="/admin/exclude" {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="worker" value=(w.stats.worker);
                button.button.danger type="submit" #confirm-exclude { "Exclude " (w.stats.worker) }
                " "
                a href="/admin" { "Cancel" }
            }
        }
    };
    layout("Exclude a participant", &body, None)
}

/// "Close the ballot now?": what is missing, or the button that closes.
pub(crate) fn confirm_close(k: Option<&CloseInfo>, csrf: &str) -> String {
    let body = html! {
        section.card #confirm {
            @match k {
                None => { h1 { "No ballot is open" } p { a href="/admin" { "Back to the dashboard" } } }
                Some(k) if !k.can_close_now => {
                    h1 { "Ballot " (k.ballot) " cannot be closed yet" }
                    (close_section(k))
                    p { a href="/admin" { "Back to the dashboard" } }
                }
                Some(k) => {
                    h1 { "Close ballot " (k.ballot) " now?" }
                    p {
                        "The " (k.without_vote) " of " (k.comparisons) " comparisons without a vote are withdrawn "
                        "(as acm campaign close --unvoted withdraw): each item's score counts only the "
                        "comparisons voted on. The next ballot opens at once. This cannot be undone."
                    }
                    form method="post" action="/admin/close" {
                        input type="hidden" name="csrf" value=(csrf);
                        button.button.danger type="submit" #confirm-close { "Close ballot " (k.ballot) " now" }
                        " "
                        a href="/admin" { "Cancel" }
                    }
                }
            }
        }
    };
    layout("Close the ballot now", &body, None)
}
