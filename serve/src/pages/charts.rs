//! The dashboard's `#charts` section: votes per ballot, the least accurate
//! participants on the control pairs, and the Bradley–Terry ranking so far
//! with its intervals, as inline SVG (drawn by
//! `adaptive-comp-metrics-plot`: no script, font or external file), drawn
//! from the same [`Status`] as the tables, so they refresh with the page.
//!
//! Their inputs do not grow with the number of items: a row per ballot, at
//! most [`WORKERS_DRAWN`] participants and the fitted ranking's first
//! entries (the status's `top`).

use adaptive_comp_metrics_plot::{
    IntervalKey, IntervalRow, Labels, PlotError, bars, intervals, number,
};

use crate::status::{FittedInfo, Status};

/// The participants the accuracy chart draws: the least accurate first.
pub(crate) const WORKERS_DRAWN: usize = 30;

/// The charts of the dashboard, each a whole `<svg>` document; a chart that
/// cannot be drawn is left out.
pub(crate) fn charts(st: &Status) -> Vec<String> {
    [votes(st), accuracy(st), fitted(st)]
        .into_iter()
        .filter_map(|c| c.ok().flatten())
        .collect()
}

fn votes(st: &Status) -> Result<Option<String>, PlotError> {
    let c = &st.campaign;
    let rows: Vec<(String, f64)> = st
        .ballots
        .iter()
        .map(|b| {
            let state = if b.status.closed { "closed" } else { "open" };
            (
                format!("ballot {} ({state})", b.status.ballot),
                b.status.votes as f64,
            )
        })
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let labels = Labels::new("Votes per ballot", "votes (count)", "").subtitle(format!(
        "{} of {} comparisons voted; {} items, M = {}, α = {}",
        c.votes,
        c.budget,
        c.items,
        c.m,
        number(c.alpha)
    ));
    bars(&rows, &labels).map(Some)
}

fn accuracy(st: &Status) -> Result<Option<String>, PlotError> {
    let mut rows: Vec<(String, f64)> = st
        .workers
        .iter()
        .filter_map(|w| Some((w.stats.worker.clone(), w.stats.accuracy?)))
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let with = rows.len();
    rows.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    rows.truncate(WORKERS_DRAWN);
    let shown = if with > rows.len() {
        format!("the {} least accurate of {with} participants", rows.len())
    } else {
        format!("{with} participant(s)")
    };
    let threshold = st
        .policy
        .min_accuracy
        .map_or_else(String::new, |a| format!("; excluded under {}", number(a)));
    let labels = Labels::new(
        "Accuracy on the control pairs",
        "share of control pairs answered correctly (0 to 1)",
        "",
    )
    .subtitle(format!("{shown}, least accurate first{threshold}"));
    bars(&rows, &labels).map(Some)
}

fn fitted(st: &Status) -> Result<Option<String>, PlotError> {
    let Some(FittedInfo::Ranked {
        votes,
        level,
        total,
        items,
        settled,
        ..
    }) = &st.fitted
    else {
        return Ok(None);
    };
    if items.is_empty() {
        return Ok(None);
    }
    let rows: Vec<IntervalRow> = items
        .iter()
        .map(|i| IntervalRow {
            label: format!("{}. {}", i.item.rank, i.item.id),
            value: i.item.score,
            interval: Some((i.low, i.high)),
            reference: None,
            emphasised: settled.top.contains(&i.item.id),
        })
        .collect();
    let key = IntervalKey {
        emphasised: format!("the top {}", settled.k),
        plain: "below it".into(),
        reference: String::new(),
        guide: None,
    };
    let labels = Labels::new(
        "Bradley–Terry ranking of the votes so far",
        format!("score (log-strength), {}% interval", number(100.0 * level)),
        "",
    )
    .subtitle(format!(
        "the first {} of {total} items, {votes} votes",
        items.len()
    ));
    intervals(&rows, &key, &labels).map(Some)
}
