//! `acm simulate table2 --plot`: block (a) of Table 2 as points with
//! error bars against the paper's values; `acm simulate sweep --plot`: the
//! sweep as a heat map.

use std::path::Path;

use adaptive_comp_metrics::simulate::SweepPoint;
use adaptive_comp_metrics_plot::{
    IntervalKey, IntervalRow, Labels, PlotError, heat_map, intervals, number, stack,
};

use super::{Cell, METRICS};
use crate::error::Outcome;

/// How a metric of Table 2 is named on a chart.
fn metric_label(m: &str) -> &str {
    match m {
        "rho_w" => "ρ_w",
        "tau_w" => "τ_w",
        "rho" => "Spearman's ρ",
        "tau" => "Kendall's τ",
        other => other,
    }
}

/// Block (a) of Table 2, a panel per metric: each distribution and
/// approach a row, this crate's mean with ± 1 SD as error bars (filled
/// when within 3σ of the paper), the paper's mean as a diamond.
pub(super) fn table2(path: &Path, cells: &[Cell], simulations: usize) -> Outcome {
    let draw = || -> Result<String, PlotError> {
        let mut panels = Vec::new();
        for metric in METRICS {
            let rows: Vec<IntervalRow> = cells
                .iter()
                .filter(|c| c.metric == metric)
                .map(|c| IntervalRow {
                    label: format!("{}, {}", c.distribution, c.approach),
                    value: c.ours.0,
                    interval: Some((c.ours.0 - c.ours.1, c.ours.0 + c.ours.1)),
                    reference: Some(c.paper.0),
                    emphasised: c.z.is_some_and(|z| z.abs() <= 3.0),
                })
                .collect();
            if rows.is_empty() {
                continue;
            }
            let key = IntervalKey {
                emphasised: "ours, within 3σ of the paper".into(),
                plain: "ours, outside 3σ".into(),
                reference: "the paper's mean".into(),
                guide: None,
            };
            let name = metric_label(metric);
            let labels = Labels::new(
                format!("Table 2, {name}: this crate against the paper"),
                format!("{name} of the collected ranking (mean ± 1 SD)"),
                "",
            )
            .subtitle(format!(
                "as published: {simulations} simulations a row here, 50 in the paper"
            ));
            panels.push(intervals(&rows, &key, &labels)?);
        }
        stack(
            &panels,
            "Table 2 of Lombardo et al. (2020) reproduced (block a)",
        )
    };
    crate::plot::write(path, draw())
}

/// A sweep as a heat map: α down, n_b across, each cell the metric's mean
/// (empty where the point was skipped).
pub(super) fn sweep(
    path: &Path,
    alphas: &[f64],
    ballots: &[u32],
    points: &[SweepPoint],
    metric: &str,
    budget: u64,
    simulations: u32,
) -> Outcome {
    let rows: Vec<String> = alphas.iter().map(|a| format!("α = {a}")).collect();
    let columns: Vec<String> = ballots.iter().map(|b| format!("n_b = {b}")).collect();
    let mut values = Vec::with_capacity(rows.len() * columns.len());
    for &a in alphas {
        for &b in ballots {
            values.push(
                points
                    .iter()
                    .find(|p| p.alpha == a && p.n_ballots == b as usize)
                    .map(|p| p.summary.mean),
            );
        }
    }
    let name = metric_label(metric);
    let labels = Labels::new(
        format!("{name} of the adaptive collection over α × n_b"),
        "ballots per item n_b",
        "carry-over share α",
    )
    .subtitle(format!(
        "budget {} comparisons, mean over {simulations} simulations; empty: the point does not fit",
        number(budget as f64)
    ));
    crate::plot::write(path, heat_map(&rows, &columns, &values, &labels))
}
