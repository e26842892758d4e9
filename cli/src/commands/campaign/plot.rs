//! `acm campaign status --plot` (votes per ballot, worker accuracy on the
//! control tasks, and the fitted ranking) and `acm campaign rank --plot`
//! (the fitted ranking with its intervals).

use adaptive_comp_metrics::pairwise::{Fit, Uncertainty};
use adaptive_comp_metrics_plot::{
    IntervalKey, IntervalRow, Labels, PlotError, bars, intervals, number, stack,
};

use super::state::CampaignStatus;

/// The items the ranking chart draws: the best `TOP_ITEMS` by score.
pub const TOP_ITEMS: usize = 30;

/// The fitted scores of the best [`TOP_ITEMS`] items with their intervals,
/// best first, the top k of the settled check filled.
///
/// # Errors
/// A score or interval that is not finite.
pub fn ranking(model: &str, fit: &Fit, u: &Uncertainty) -> Result<String, PlotError> {
    let order = fit.order();
    let rows: Vec<IntervalRow> = order
        .iter()
        .take(TOP_ITEMS)
        .enumerate()
        .map(|(r, &i)| {
            let [lo, hi] = u.intervals[i];
            IntervalRow {
                label: format!("{}. {}", r + 1, fit.items[i]),
                value: fit.scores[i],
                interval: Some((lo, hi)),
                reference: None,
                emphasised: u.settled.top.contains(&i),
            }
        })
        .collect();
    let key = IntervalKey {
        emphasised: format!("the top {}", u.settled.k),
        plain: "below it".into(),
        reference: String::new(),
        guide: None,
    };
    let shown = if order.len() > TOP_ITEMS {
        format!("the best {TOP_ITEMS} of {} items", order.len())
    } else {
        format!("{} items", order.len())
    };
    let labels = Labels::intervals(
        format!("{model}: the collected ranking with its intervals"),
        &format!("{model} score θ (log-odds scale)"),
        u.level,
    )
    .subtitle(format!(
        "{shown}, {} comparisons; P(the same top {}) = {}",
        fit.comparisons,
        u.settled.k,
        number(u.settled.probability)
    ));
    intervals(&rows, &key, &labels)
}

/// Votes per ballot, each worker's accuracy on the control tasks (when
/// any worker answered one), and the fitted ranking when there is one.
///
/// # Errors
/// As the charts.
pub fn status(
    st: &CampaignStatus,
    fitted: Option<(&str, &Fit, &Uncertainty)>,
) -> Result<String, PlotError> {
    let mut panels = Vec::new();
    let votes: Vec<(String, f64)> = st
        .ballots
        .iter()
        .map(|b| {
            let state = if b.closed { "closed" } else { "open" };
            (format!("ballot {} ({state})", b.ballot), b.votes as f64)
        })
        .collect();
    panels.push(bars(
        &votes,
        &Labels::new(
            format!("campaign {}: votes per ballot", st.tag),
            "votes (count)",
            "",
        )
        .subtitle(format!(
            "{} items, M = {}, α = {}, n_b = {}",
            st.items,
            st.m,
            number(st.alpha),
            st.n_ballots
        )),
    )?);
    let accuracy: Vec<(String, f64)> = st
        .workers
        .iter()
        .filter_map(|w| Some((w.worker.clone(), w.accuracy?)))
        .collect();
    if !accuracy.is_empty() {
        panels.push(bars(
            &accuracy,
            &Labels::new(
                format!("campaign {}: worker accuracy", st.tag),
                "share of control tasks answered correctly (0 to 1)",
                "",
            )
            .subtitle(format!(
                "{} of {} workers answered a control task",
                accuracy.len(),
                st.workers.len()
            )),
        )?);
    }
    if let Some((model, fit, u)) = fitted {
        panels.push(ranking(model, fit, u)?);
    }
    stack(&panels, &format!("campaign {}", st.tag))
}
