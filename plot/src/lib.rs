//! Charts of adaptive-comp-metrics results as self-contained SVG: the null
//! or bootstrap distribution of a coefficient, estimates with intervals, a
//! forest plot of differences, Demšar's critical-difference diagram, the
//! standardising map, heat maps and bars.
//!
//! The SVG is written by hand: no plotting crate, no system fonts, no C
//! library, so the `acm` command line and the annotation server build in
//! seconds more, not minutes. Text uses the viewer's `sans-serif`. PNG is
//! not offered: rasterising needs a font file and a renderer crate
//! (resvg/tiny-skia and a bundled font) that would lengthen `cargo install`
//! of the CLI; convert an SVG with any browser or `rsvg-convert`.
//!
//! Every chart returns a whole document (`<svg …>…</svg>`), escapes all
//! text, formats numbers compactly, uses the Okabe–Ito palette together
//! with distinct markers and dashes (readable in greyscale and under the
//! common colour-vision deficiencies), cuts category labels beyond 28
//! characters (the full text stays as a tooltip), and stores the numbers
//! each mark stands for in `data-*` attributes, exactly, so that tests and
//! scripts can read them back.
//!
//! | chart | function | from the library |
//! |---|---|---|
//! | null / bootstrap histogram with observed value, p-value, interval | [`histogram`] | [`Histogram`](adaptive_comp_metrics::uncertainty::Histogram) |
//! | models × benchmarks, each coefficient with its interval | [`dot_whisker`] | |
//! | human against model scores, top ranks emphasised | [`scatter`] | |
//! | differences with intervals (forest plot) | [`intervals`], [`forest`] | [`Comparison`] |
//! | critical-difference diagram (Demšar 2006) | [`critical_difference`], [`critical_difference_of`] | [`Friedman`] |
//! | the standardising map, any lines | [`lines`] | |
//! | values against reference values with error bars | [`intervals`] | |
//! | a sweep | [`heat_map`] | |
//! | counts, accuracies | [`bars`] | |
//! | several of the above in one file | [`stack`] | |
//!
//! ```
//! use adaptive_comp_metrics::uncertainty::Histogram;
//! use adaptive_comp_metrics_plot::{HistogramMarks, Labels, histogram};
//! let null = Histogram::of(&[-0.3, -0.1, 0.0, 0.05, 0.2, 0.1], 5)?;
//! let marks = HistogramMarks { observed: Some(0.42), p_value: Some(0.01), interval: None };
//! let svg = histogram(&null, &marks, &Labels::new("ρ_w against its permutation null", "ρ_w", "permutations"))
//!     .unwrap();
//! assert!(svg.ends_with("</svg>\n"));
//! # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
//! ```

mod charts;
mod svg;

pub use charts::{
    Estimate, HistogramMarks, IntervalKey, IntervalRow, Labels, MAX_BARS, MAX_POINTS, MAX_ROWS,
    Point, Series, bars, critical_difference, dot_whisker, heat_map, histogram, intervals, lines,
    scatter, stack,
};
pub use svg::{PALETTE, escape, number};

use adaptive_comp_metrics::uncertainty::compare::{Comparison, Friedman};

/// Why a chart cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlotError {
    /// Nothing to draw.
    Empty {
        /// The chart.
        chart: &'static str,
    },
    /// A value that is NaN or infinite.
    NotFinite {
        /// The chart.
        chart: &'static str,
        /// Which values.
        what: &'static str,
        /// Its position among them (0-based).
        index: usize,
    },
    /// An interval whose ends are not finite and ordered.
    BadInterval {
        /// The chart.
        chart: &'static str,
        /// The row (0-based).
        index: usize,
    },
    /// Inputs of different lengths.
    Mismatch {
        /// The chart.
        chart: &'static str,
        /// Which input.
        what: &'static str,
        /// The length expected.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// More than the chart can draw legibly.
    TooLarge {
        /// The chart.
        chart: &'static str,
        /// What there is too much of.
        what: &'static str,
        /// The most drawn.
        limit: usize,
        /// The number given.
        got: usize,
    },
}

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty { chart } => write!(f, "{chart}: nothing to draw"),
            Self::NotFinite { chart, what, index } => {
                write!(f, "{chart}: {what} {} is not finite", index + 1)
            }
            Self::BadInterval { chart, index } => write!(
                f,
                "{chart}: the interval of row {} is not finite with lower ≤ upper",
                index + 1
            ),
            Self::Mismatch {
                chart,
                what,
                expected,
                got,
            } => {
                write!(f, "{chart}: {got} {what} given, expected {expected}")
            }
            Self::TooLarge {
                chart,
                what,
                limit,
                got,
            } => {
                write!(
                    f,
                    "{chart}: {got} {what} given, at most {limit} can be drawn"
                )
            }
        }
    }
}

impl std::error::Error for PlotError {}

/// A forest plot of a comparison's pairs: each difference θ(a) − θ(b) with
/// its interval, filled where the correction rejects "no difference", a
/// dashed line at 0. Rows are labelled `a − b`.
///
/// # Errors
/// As [`intervals`] (a comparison without pairs is [`PlotError::Empty`]).
///
/// # Complexity
/// O(pairs).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable};
/// let table = ScoreTable::from_columns(&[
///     ("bm25", [0.31, 0.52, 0.12, 0.40, 0.25]),
///     ("dense", [0.42, 0.50, 0.33, 0.61, 0.30]),
/// ])?;
/// let comparison = Compare::new().units_seeded(&table, 7)?;
/// let svg = adaptive_comp_metrics_plot::forest(&comparison, "nDCG@10").unwrap();
/// assert!(svg.contains("bm25 − dense"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn forest(comparison: &Comparison, measure: &str) -> Result<String, PlotError> {
    let name = |i: usize| {
        comparison
            .systems
            .get(i)
            .map_or_else(|| i.to_string(), |s| s.name.clone())
    };
    let rows: Vec<IntervalRow> = comparison
        .pairs
        .iter()
        .map(|p| IntervalRow {
            label: format!("{} − {}", name(p.a), name(p.b)),
            value: p.difference,
            interval: p.interval.map(|b| (b.lower, b.upper)),
            reference: None,
            emphasised: p.reject,
        })
        .collect();
    let s = &comparison.settings;
    let key = IntervalKey {
        emphasised: format!("differs ({}, α = {})", s.correction.name(), number(s.alpha)),
        plain: "no difference shown".into(),
        reference: String::new(),
        guide: Some(0.0),
    };
    let labels = Labels::intervals(
        format!("{measure}: differences between systems"),
        &format!("difference in {measure} (a − b)"),
        s.level,
    )
    .subtitle(format!(
        "{} units, {} test",
        comparison.units,
        s.test.name()
    ));
    intervals(&rows, &key, &labels)
}

/// [`critical_difference`] of a Friedman test: its average ranks, Nemenyi's
/// critical difference and its groups.
///
/// # Errors
/// As [`critical_difference`].
///
/// # Complexity
/// O(k log k + groups · k).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::Order;
/// use adaptive_comp_metrics::uncertainty::compare::{ScoreTable, friedman};
/// let table = ScoreTable::from_columns(&[
///     ("a", [0.9, 0.8, 0.7, 0.9]),
///     ("b", [0.5, 0.6, 0.4, 0.3]),
///     ("c", [0.1, 0.2, 0.5, 0.2]),
/// ])?;
/// let f = friedman(&table, Order::LargerIsBetter, 0.05)?;
/// let svg = adaptive_comp_metrics_plot::critical_difference_of(&f, "accuracy").unwrap();
/// assert!(svg.contains("CD = "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn critical_difference_of(f: &Friedman, measure: &str) -> Result<String, PlotError> {
    critical_difference(
        &f.systems,
        &f.average_ranks,
        f.critical_difference,
        &f.groups,
        &format!(
            "{measure}: {} systems ranked on {} benchmarks (Nemenyi, α = {})",
            f.systems.len(),
            f.units,
            number(f.alpha)
        ),
    )
}
