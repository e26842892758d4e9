//! `acm compare --plot FILE.svg` (a forest plot of the corrected
//! differences, a panel per measure) and `--plot-cd FILE.svg` (Demšar's
//! critical-difference diagram, a panel per Friedman test).

use std::path::Path;

use adaptive_comp_metrics_plot::{PlotError, critical_difference_of, forest, stack};

use super::{Results, Source};
use crate::error::Outcome;

/// Checks `--plot` and `--plot-cd` before any work: their paths, and that
/// the source ranks systems over several benchmarks when a
/// critical-difference diagram is asked for.
pub fn check(source: &Source) -> Outcome {
    let (options, friedman) = match source {
        Source::Trec(a) => (&a.options, false),
        Source::Lexsub(a) => (&a.options, false),
        Source::Wordsim(a) => (&a.options, a.datasets.len() >= 2),
        Source::Table(a) => (&a.options, true),
    };
    if let Some(path) = &options.plot {
        crate::plot::check(path)?;
    }
    if let Some(path) = &options.plot_cd {
        crate::plot::check(path)?;
        if !friedman {
            return Err(crate::plot::nothing_to_draw(
                "compare",
                "Friedman's test: --plot-cd needs several benchmarks (`acm compare table`, or \
                 `acm compare wordsim` on two or more datasets)",
            ));
        }
    }
    Ok(())
}

/// `--plot`: a forest plot per comparison; `--plot-cd`: a
/// critical-difference diagram per Friedman test; several panels stacked
/// in one file.
pub fn draw(results: &Results) -> Outcome {
    if let Some(path) = &results.options.plot {
        stacked(
            path,
            &results.comparisons,
            "differences between systems",
            forest,
        )?;
    }
    if let Some(path) = &results.options.plot_cd {
        stacked(
            path,
            &results.friedman,
            "critical differences",
            critical_difference_of,
        )?;
    }
    Ok(())
}

/// A panel per measure of `measures`, stacked in one file at `path` under
/// the title `what: N panels`.
fn stacked<T>(
    path: &Path,
    measures: &[(String, T)],
    what: &str,
    panel: impl Fn(&T, &str) -> Result<String, PlotError>,
) -> Outcome {
    let panels: Result<Vec<String>, PlotError> =
        measures.iter().map(|(m, x)| panel(x, m)).collect();
    let title = format!("{what}: {} panels", measures.len());
    crate::plot::write(path, panels.and_then(|p| stack(&p, &title)))
}
