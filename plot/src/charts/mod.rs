//! The charts: each takes the numbers it draws and returns a whole SVG
//! document. Every mark carries the input numbers it stands for in
//! `data-*` attributes (exact round-trip decimals), so a test or a script
//! can read the plotted values back.

use std::fmt::Write as _;

use crate::PlotError;
use crate::svg::{
    Canvas, DASHES, FONT, Frame, LABEL_CHARS, LegendEntry, Mark, PALETTE, Scale, exact,
    legend_width, number, px, shorten, text_width,
};
use adaptive_comp_metrics::uncertainty::Histogram;

/// What a chart says it shows: a title naming what is compared, an
/// optional subtitle, and the axis labels (with units).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Labels {
    /// The title, drawn at the top and as the SVG's `<title>`.
    pub title: String,
    /// A line under the title (settings, sizes); may be empty.
    pub subtitle: String,
    /// The horizontal axis label.
    pub x: String,
    /// The vertical axis label.
    pub y: String,
}

impl Labels {
    /// Labels with an empty subtitle.
    #[must_use]
    pub fn new(title: impl Into<String>, x: impl Into<String>, y: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            subtitle: String::new(),
            x: x.into(),
            y: y.into(),
        }
    }

    /// The labels of an [`intervals`](crate::intervals) chart: its horizontal axis is
    /// `quantity` with intervals at `level` (`"{quantity}, 95% interval"`),
    /// its vertical axis the rows' names, unlabelled.
    #[must_use]
    pub fn intervals(title: impl Into<String>, quantity: &str, level: f64) -> Self {
        let x = format!("{quantity}, {}% interval", number(100.0 * level));
        Self::new(title, x, "")
    }

    /// The same labels with a subtitle.
    #[must_use]
    pub fn subtitle(mut self, s: impl Into<String>) -> Self {
        self.subtitle = s.into();
        self
    }

    fn top(&self) -> f64 {
        if self.subtitle.is_empty() { 44.0 } else { 60.0 }
    }
}

/// What a histogram marks beside its bins.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HistogramMarks {
    /// The observed value (a vertical line).
    pub observed: Option<f64>,
    /// The p-value of the observed value (named in the legend).
    pub p_value: Option<f64>,
    /// An interval (a shaded band with its ends).
    pub interval: Option<(f64, f64)>,
}

pub(crate) fn finite(
    chart: &'static str,
    what: &'static str,
    values: &[f64],
) -> Result<(), PlotError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(PlotError::NotFinite { chart, what, index }),
        None => Ok(()),
    }
}

pub(crate) fn check_interval(
    chart: &'static str,
    i: usize,
    iv: Option<(f64, f64)>,
) -> Result<(), PlotError> {
    if let Some((lo, hi)) = iv
        && !(lo.is_finite() && hi.is_finite() && lo <= hi)
    {
        return Err(PlotError::BadInterval { chart, index: i });
    }
    Ok(())
}

/// [`PlotError::Empty`] for no `what` (`got` = 0), [`PlotError::TooLarge`]
/// for more than `limit`.
pub(crate) fn count_within(
    chart: &'static str,
    what: &'static str,
    got: usize,
    limit: usize,
) -> Result<(), PlotError> {
    if got == 0 {
        return Err(PlotError::Empty { chart });
    }
    too_many(chart, what, got, limit)
}

pub(crate) fn too_many(
    chart: &'static str,
    what: &'static str,
    got: usize,
    limit: usize,
) -> Result<(), PlotError> {
    if got > limit {
        Err(PlotError::TooLarge {
            chart,
            what,
            limit,
            got,
        })
    } else {
        Ok(())
    }
}

/// The most bins a histogram chart draws (its bars stay at least a pixel
/// wide), the most rows or columns of categories, and the most points.
pub const MAX_BARS: usize = 1_000;
/// The most category rows (systems, benchmarks, pairs) a chart draws.
pub const MAX_ROWS: usize = 500;
/// The most points a scatter or line chart draws.
pub const MAX_POINTS: usize = 200_000;

mod distribution;
mod estimates;
mod maps;
mod ranks;
mod stack;

pub use distribution::*;
pub use estimates::*;
pub use maps::*;
pub use ranks::*;
pub use stack::*;

/// The canvas of a chart on x and y axes: a frame of `width` × `height`
/// below the titles with room for `legend` on its right, "nice" scales
/// over `x` and `y` (lo, hi), both axes drawn with their labels.
pub(crate) fn xy_canvas(
    chart: &'static str,
    labels: &Labels,
    legend: &[LegendEntry],
    (width, height): (f64, f64),
    x: (f64, f64),
    y: (f64, f64),
) -> (Canvas, Frame, Scale, Scale) {
    let frame = Frame {
        left: 78.0,
        top: labels.top(),
        width,
        height,
    };
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(legend) + 12.0,
        frame.bottom() + 50.0,
        chart,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(x.0, x.1, frame.left, frame.right(), true);
    let ys = Scale::nice(y.0, y.1, frame.bottom(), frame.top, true);
    c.y_axis(&frame, &ys, &labels.y);
    c.x_axis(&frame, &xs, &labels.x, true);
    (c, frame, xs, ys)
}

/// The vertical axis label, rotated, beside the frame (none when empty):
/// centred on the frame, or, when it is longer than the frame is high,
/// starting at the frame's top (never up into the title).
pub(crate) fn y_label(c: &mut Canvas, frame: &Frame, labels: &Labels) {
    if !labels.y.is_empty() {
        let half = text_width(&labels.y, FONT) / 2.0;
        c.text_rotated(
            14.0,
            (frame.top + frame.height / 2.0).max(frame.top + half),
            &labels.y,
            "middle",
            -90.0,
        );
    }
}
