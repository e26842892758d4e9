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

fn finite(chart: &'static str, what: &'static str, values: &[f64]) -> Result<(), PlotError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(PlotError::NotFinite { chart, what, index }),
        None => Ok(()),
    }
}

fn check_interval(chart: &'static str, i: usize, iv: Option<(f64, f64)>) -> Result<(), PlotError> {
    if let Some((lo, hi)) = iv
        && !(lo.is_finite() && hi.is_finite() && lo <= hi)
    {
        return Err(PlotError::BadInterval { chart, index: i });
    }
    Ok(())
}

fn too_many(
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

/// A histogram of replicates (a null distribution or a bootstrap
/// distribution) with the observed value, its p-value and an interval
/// marked. Bars carry `data-lower`, `data-upper`, `data-count`; the
/// observed line `data-value`; the interval band `data-lower`/`data-upper`.
///
/// # Errors
/// [`PlotError::TooLarge`] beyond [`MAX_BARS`] bins, [`PlotError::NotFinite`]
/// for a non-finite mark, [`PlotError::BadInterval`] for an interval with
/// its ends out of order.
///
/// # Complexity
/// O(bins).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::Histogram;
/// use adaptive_comp_metrics_plot::{HistogramMarks, Labels, histogram};
/// let h = Histogram::of(&[-0.2, 0.0, 0.1, 0.1, 0.3], 4)?;
/// let marks = HistogramMarks { observed: Some(0.35), p_value: Some(0.2), interval: None };
/// let svg = histogram(&h, &marks, &Labels::new("ρ_w: null distribution", "ρ_w", "permutations")).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains(r#"data-value="0.35""#));
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
pub fn histogram(
    h: &Histogram,
    marks: &HistogramMarks,
    labels: &Labels,
) -> Result<String, PlotError> {
    const CHART: &str = "histogram";
    too_many(CHART, "bins", h.bins(), MAX_BARS)?;
    if h.bins() == 0 || h.edges.len() != h.bins() + 1 {
        return Err(PlotError::Empty { chart: CHART });
    }
    finite(CHART, "bin edges", &h.edges)?;
    finite(
        CHART,
        "observed value",
        &marks.observed.into_iter().collect::<Vec<_>>(),
    )?;
    check_interval(CHART, 0, marks.interval)?;
    let mut lo = h.edges[0];
    let mut hi = h.edges[h.bins()];
    for v in marks
        .observed
        .into_iter()
        .chain(marks.interval.into_iter().flat_map(|(a, b)| [a, b]))
    {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let mut legend = vec![LegendEntry {
        label: "replicates".into(),
        colour: PALETTE[0],
        mark: Mark::Band,
    }];
    if let Some(v) = marks.observed {
        let mut label = format!("observed {}", number(v));
        if let Some(p) = marks.p_value {
            let _ = write!(label, " (p = {})", number(p));
        }
        legend.push(LegendEntry {
            label,
            colour: PALETTE[3],
            mark: Mark::Line(""),
        });
    }
    if let Some((a, b)) = marks.interval {
        legend.push(LegendEntry {
            label: format!("interval [{}, {}]", number(a), number(b)),
            colour: PALETTE[1],
            mark: Mark::Band,
        });
    }
    let frame = Frame {
        left: 78.0,
        top: labels.top(),
        width: 560.0,
        height: 300.0,
    };
    let width = frame.right() + 24.0 + legend_width(&legend) + 12.0;
    let mut c = Canvas::new(
        width,
        frame.bottom() + 50.0,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(lo, hi, frame.left, frame.right(), true);
    let top = h.counts.iter().copied().max().unwrap_or(0) as f64;
    let ys = Scale::nice(0.0, (top * 1.05).max(1.0), frame.bottom(), frame.top, false);
    c.y_axis(&frame, &ys, &labels.y);
    c.x_axis(&frame, &xs, &labels.x, false);
    if let Some((a, b)) = marks.interval {
        c.rect(
            xs.at(a),
            frame.top,
            xs.at(b) - xs.at(a),
            frame.height,
            PALETTE[1],
            &format!(
                r#"fill-opacity="0.25" class="interval" data-lower="{}" data-upper="{}""#,
                exact(a),
                exact(b)
            ),
        );
        for v in [a, b] {
            c.line(
                xs.at(v),
                frame.top,
                xs.at(v),
                frame.bottom(),
                PALETTE[1],
                r#"stroke-width="2" stroke-dasharray="6 3""#,
            );
        }
    }
    c.raw(r#"<g class="bins">"#);
    for (k, &n) in h.counts.iter().enumerate() {
        let (a, b) = (h.edges[k], h.edges[k + 1]);
        let y = ys.at(n as f64);
        c.rect(
            xs.at(a),
            y,
            xs.at(b) - xs.at(a),
            frame.bottom() - y,
            PALETTE[0],
            &format!(
                r##"fill-opacity="0.7" stroke="#ffffff" stroke-width="0.5" data-lower="{}" data-upper="{}" data-count="{n}""##,
                exact(a),
                exact(b)
            ),
        );
    }
    c.raw("</g>");
    if let Some(v) = marks.observed {
        c.line(
            xs.at(v),
            frame.top,
            xs.at(v),
            frame.bottom(),
            PALETTE[3],
            &format!(
                r#"stroke-width="2.5" class="observed" data-value="{}""#,
                exact(v)
            ),
        );
    }
    c.legend(frame.right() + 24.0, frame.top + 8.0, &legend);
    Ok(c.finish())
}

/// One estimate with its interval, for [`dot_whisker`].
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The row it is drawn on (a benchmark, a system).
    pub row: String,
    /// The series it belongs to (a model): its colour and marker.
    pub series: String,
    /// The estimate.
    pub value: f64,
    /// Its interval, if any.
    pub interval: Option<(f64, f64)>,
}

/// The distinct names in order of first appearance.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A dot-and-whisker chart: rows (benchmarks) down the side, each series
/// (model) a colour and a marker, nudged apart within its row, each
/// estimate a dot with its interval as a whisker. Marks carry `data-row`,
/// `data-series`, `data-value` and, with an interval, `data-lower` and
/// `data-upper`.
///
/// # Errors
/// [`PlotError::Empty`] for no estimates, [`PlotError::TooLarge`] beyond
/// [`MAX_ROWS`] rows or 40 series, [`PlotError::NotFinite`],
/// [`PlotError::BadInterval`].
///
/// # Complexity
/// O(estimates · series) (the series are looked up by name).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Estimate, Labels, dot_whisker};
/// let e = |row: &str, series: &str, value| Estimate {
///     row: row.into(), series: series.into(), value, interval: Some((value - 0.1, value + 0.1)),
/// };
/// let svg = dot_whisker(
///     &[e("SimLex-999", "glove", 0.37), e("SimLex-999", "fasttext", 0.44), e("MEN", "glove", 0.74)],
///     &Labels::new("Spearman's ρ per benchmark", "ρ", "benchmark"),
/// ).unwrap();
/// assert!(svg.contains(r#"data-value="0.44""#));
/// ```
pub fn dot_whisker(estimates: &[Estimate], labels: &Labels) -> Result<String, PlotError> {
    const CHART: &str = "dot-and-whisker";
    if estimates.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    let values: Vec<f64> = estimates.iter().map(|e| e.value).collect();
    finite(CHART, "estimates", &values)?;
    for (i, e) in estimates.iter().enumerate() {
        check_interval(CHART, i, e.interval)?;
    }
    let rows = distinct(estimates.iter().map(|e| e.row.as_str()));
    let series = distinct(estimates.iter().map(|e| e.series.as_str()));
    too_many(CHART, "rows", rows.len(), MAX_ROWS)?;
    too_many(CHART, "series", series.len(), 40)?;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for e in estimates {
        let (a, b) = e.interval.unwrap_or((e.value, e.value));
        lo = lo.min(a.min(e.value));
        hi = hi.max(b.max(e.value));
    }
    let step = 9.0;
    let band = (12.0 + step * series.len() as f64).max(24.0);
    let legend: Vec<LegendEntry> = series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry {
            label: (*s).to_string(),
            colour: PALETTE[i % PALETTE.len()],
            mark: Mark::Marker(i, true),
        })
        .collect();
    let left = row_label_width(&rows) + 24.0;
    let frame = Frame {
        left,
        top: labels.top() + 4.0,
        width: 480.0,
        height: band * rows.len() as f64,
    };
    let height = frame.bottom().max(frame.top + legend.len() as f64 * 18.0) + 50.0;
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(&legend) + 12.0,
        height,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(lo, hi, frame.left, frame.right(), true);
    c.x_axis(&frame, &xs, &labels.x, true);
    let centres: Vec<(String, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| ((*r).to_string(), frame.top + band * (i as f64 + 0.5)))
        .collect();
    c.y_categories(&frame, &centres);
    if !labels.y.is_empty() {
        c.text_rotated(
            14.0,
            frame.top + frame.height / 2.0,
            &labels.y,
            "middle",
            -90.0,
        );
    }
    for (i, _) in rows.iter().enumerate().skip(1) {
        let y = frame.top + band * i as f64;
        c.line(frame.left, y, frame.right(), y, "#f0f0f0", "");
    }
    c.raw(r#"<g class="estimates">"#);
    let offset = |s: usize| (s as f64 - (series.len() as f64 - 1.0) / 2.0) * step;
    for e in estimates {
        let r = rows.iter().position(|r| *r == e.row).unwrap_or(0);
        let s = series.iter().position(|s| *s == e.series).unwrap_or(0);
        let y = centres[r].1 + offset(s);
        let colour = PALETTE[s % PALETTE.len()];
        let mut data = format!(
            r#"data-row="{}" data-series="{}" data-value="{}""#,
            crate::svg::escape(&e.row),
            crate::svg::escape(&e.series),
            exact(e.value)
        );
        if let Some((a, b)) = e.interval {
            let _ = write!(
                data,
                r#" data-lower="{}" data-upper="{}""#,
                exact(a),
                exact(b)
            );
            c.line(
                xs.at(a),
                y,
                xs.at(b),
                y,
                colour,
                &format!(
                    r#"stroke-width="1.8" stroke-dasharray="{}""#,
                    DASHES[s % DASHES.len()]
                ),
            );
        }
        c.marker(s, xs.at(e.value), y, 4.0, colour, true, &data);
    }
    c.raw("</g>");
    c.legend(frame.right() + 24.0, frame.top + 8.0, &legend);
    Ok(c.finish())
}

fn row_label_width(rows: &[&str]) -> f64 {
    rows.iter()
        .map(|r| text_width(&shorten(r, LABEL_CHARS), FONT))
        .fold(40.0, f64::max)
}

/// One point of a [`scatter`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Horizontal value.
    pub x: f64,
    /// Vertical value.
    pub y: f64,
    /// Drawn larger and in colour (e.g. a top rank by the weigher).
    pub emphasised: bool,
}

/// A scatter of points, the emphasised ones (top ranks) as large filled
/// triangles over small open circles. Marks carry `data-x`, `data-y`.
///
/// `emphasis` names the emphasised points in the legend (e.g. `"top 10 by
/// human score"`), `rest` the others.
///
/// # Errors
/// [`PlotError::Empty`], [`PlotError::TooLarge`] beyond [`MAX_POINTS`],
/// [`PlotError::NotFinite`].
///
/// # Complexity
/// O(points).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Labels, Point, scatter};
/// let p = |x, y, emphasised| Point { x, y, emphasised };
/// let svg = scatter(&[p(9.5, 0.8, true), p(2.0, 0.1, false)], "top 1", "others",
///     &Labels::new("human against model", "human score", "model cosine")).unwrap();
/// assert!(svg.contains(r#"data-x="9.5""#));
/// ```
pub fn scatter(
    points: &[Point],
    emphasis: &str,
    rest: &str,
    labels: &Labels,
) -> Result<String, PlotError> {
    const CHART: &str = "scatter";
    if points.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    too_many(CHART, "points", points.len(), MAX_POINTS)?;
    let xv: Vec<f64> = points.iter().map(|p| p.x).collect();
    let yv: Vec<f64> = points.iter().map(|p| p.y).collect();
    finite(CHART, "x values", &xv)?;
    finite(CHART, "y values", &yv)?;
    let bounds = |v: &[f64]| {
        v.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            })
    };
    let ((x0, x1), (y0, y1)) = (bounds(&xv), bounds(&yv));
    let legend = vec![
        LegendEntry {
            label: emphasis.to_string(),
            colour: PALETTE[3],
            mark: Mark::Marker(2, true),
        },
        LegendEntry {
            label: rest.to_string(),
            colour: PALETTE[0],
            mark: Mark::Marker(0, false),
        },
    ];
    let frame = Frame {
        left: 78.0,
        top: labels.top(),
        width: 440.0,
        height: 400.0,
    };
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(&legend) + 12.0,
        frame.bottom() + 50.0,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(x0, x1, frame.left, frame.right(), true);
    let ys = Scale::nice(y0, y1, frame.bottom(), frame.top, true);
    c.y_axis(&frame, &ys, &labels.y);
    c.x_axis(&frame, &xs, &labels.x, true);
    for pass in [false, true] {
        c.raw(if pass {
            r#"<g class="emphasised">"#
        } else {
            r#"<g class="points">"#
        });
        for p in points.iter().filter(|p| p.emphasised == pass) {
            let data = format!(r#"data-x="{}" data-y="{}""#, exact(p.x), exact(p.y));
            if pass {
                c.marker(2, xs.at(p.x), ys.at(p.y), 5.0, PALETTE[3], true, &data);
            } else {
                c.marker(0, xs.at(p.x), ys.at(p.y), 2.5, PALETTE[0], false, &data);
            }
        }
        c.raw("</g>");
    }
    c.legend(frame.right() + 24.0, frame.top + 8.0, &legend);
    Ok(c.finish())
}

/// One row of an [`intervals`] chart.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalRow {
    /// The row's label.
    pub label: String,
    /// The estimate.
    pub value: f64,
    /// Its interval, if any.
    pub interval: Option<(f64, f64)>,
    /// A reference value drawn beside it (e.g. a published figure).
    pub reference: Option<f64>,
    /// Drawn filled (e.g. significant after correction); open otherwise.
    pub emphasised: bool,
}

/// The legend and guide line of an [`intervals`] chart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IntervalKey {
    /// What a filled mark means (`"significant at α = 0.05"`).
    pub emphasised: String,
    /// What an open mark means.
    pub plain: String,
    /// What a reference diamond means (`"the paper's value"`).
    pub reference: String,
    /// A vertical guide line (0 for differences).
    pub guide: Option<f64>,
}

/// Estimates with intervals, one row each (a forest plot, or measured
/// values with error bars against reference values). Marks carry
/// `data-label`, `data-value`, `data-lower`, `data-upper` and references
/// `data-reference`.
///
/// # Errors
/// [`PlotError::Empty`], [`PlotError::TooLarge`] beyond [`MAX_ROWS`] rows,
/// [`PlotError::NotFinite`], [`PlotError::BadInterval`].
///
/// # Complexity
/// O(rows).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{IntervalKey, IntervalRow, Labels, intervals};
/// let row = IntervalRow { label: "n = 100".into(), value: 0.52, interval: Some((0.48, 0.56)),
///     reference: Some(0.5), emphasised: false };
/// let key = IntervalKey { reference: "paper".into(), plain: "simulated".into(), ..Default::default() };
/// let svg = intervals(&[row], &key, &Labels::new("Table 2", "ρ_w", "")).unwrap();
/// assert!(svg.contains(r#"data-reference="0.5""#));
/// ```
pub fn intervals(
    rows: &[IntervalRow],
    key: &IntervalKey,
    labels: &Labels,
) -> Result<String, PlotError> {
    const CHART: &str = "intervals";
    if rows.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    too_many(CHART, "rows", rows.len(), MAX_ROWS)?;
    let values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    finite(CHART, "estimates", &values)?;
    let refs: Vec<f64> = rows.iter().filter_map(|r| r.reference).collect();
    finite(CHART, "reference values", &refs)?;
    for (i, r) in rows.iter().enumerate() {
        check_interval(CHART, i, r.interval)?;
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for r in rows {
        let (a, b) = r.interval.unwrap_or((r.value, r.value));
        for v in [a, b, r.value]
            .into_iter()
            .chain(r.reference)
            .chain(key.guide)
        {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    let mut legend = Vec::new();
    if rows.iter().any(|r| r.emphasised) && !key.emphasised.is_empty() {
        legend.push(LegendEntry {
            label: key.emphasised.clone(),
            colour: PALETTE[0],
            mark: Mark::Marker(1, true),
        });
    }
    if rows.iter().any(|r| !r.emphasised) && !key.plain.is_empty() {
        legend.push(LegendEntry {
            label: key.plain.clone(),
            colour: PALETTE[0],
            mark: Mark::Marker(1, false),
        });
    }
    if !refs.is_empty() {
        legend.push(LegendEntry {
            label: key.reference.clone(),
            colour: PALETTE[3],
            mark: Mark::Marker(3, false),
        });
    }
    let names: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
    let band = 24.0;
    let frame = Frame {
        left: row_label_width(&names) + 24.0,
        top: labels.top() + 4.0,
        width: 480.0,
        height: band * rows.len() as f64,
    };
    let height = frame.bottom().max(frame.top + legend.len() as f64 * 18.0) + 50.0;
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(&legend) + 12.0,
        height,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(lo, hi, frame.left, frame.right(), true);
    c.x_axis(&frame, &xs, &labels.x, true);
    let centres: Vec<(String, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.label.clone(), frame.top + band * (i as f64 + 0.5)))
        .collect();
    c.y_categories(&frame, &centres);
    if !labels.y.is_empty() {
        c.text_rotated(
            14.0,
            frame.top + frame.height / 2.0,
            &labels.y,
            "middle",
            -90.0,
        );
    }
    if let Some(g) = key.guide {
        c.line(
            xs.at(g),
            frame.top,
            xs.at(g),
            frame.bottom(),
            "#555555",
            r#"stroke-dasharray="4 3" class="guide""#,
        );
    }
    c.raw(r#"<g class="rows">"#);
    for (r, (_, y)) in rows.iter().zip(&centres) {
        let mut data = format!(
            r#"data-label="{}" data-value="{}""#,
            crate::svg::escape(&r.label),
            exact(r.value)
        );
        if let Some((a, b)) = r.interval {
            let _ = write!(
                data,
                r#" data-lower="{}" data-upper="{}""#,
                exact(a),
                exact(b)
            );
            c.line(
                xs.at(a),
                *y,
                xs.at(b),
                *y,
                PALETTE[0],
                r#"stroke-width="2""#,
            );
            for v in [a, b] {
                c.line(
                    xs.at(v),
                    y - 5.0,
                    xs.at(v),
                    y + 5.0,
                    PALETTE[0],
                    r#"stroke-width="2""#,
                );
            }
        }
        if let Some(v) = r.reference {
            c.marker(
                3,
                xs.at(v),
                *y,
                5.0,
                PALETTE[3],
                false,
                &format!(r#"data-reference="{}""#, exact(v)),
            );
        }
        c.marker(1, xs.at(r.value), *y, 4.5, PALETTE[0], r.emphasised, &data);
    }
    c.raw("</g>");
    c.legend(frame.right() + 24.0, frame.top + 8.0, &legend);
    Ok(c.finish())
}

/// A named polyline of a [`lines`] chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// Its points, drawn in order.
    pub points: Vec<(f64, f64)>,
}

/// Lines (e.g. the map from raw to standardised values), each a colour and
/// a dash pattern, with the identity line y = x dotted grey when
/// `identity`. Each polyline carries `data-name` and `data-points`
/// (`x,y` pairs separated by spaces, exact).
///
/// # Errors
/// [`PlotError::Empty`] when no series has a point, [`PlotError::TooLarge`]
/// beyond [`MAX_POINTS`] points in all or 7 series, [`PlotError::NotFinite`].
///
/// # Complexity
/// O(points).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Labels, Series, lines};
/// let s = Series { name: "n = 10".into(), points: vec![(-1.0, -1.0), (0.0, 0.1), (1.0, 1.0)] };
/// let svg = lines(&[s], true, &Labels::new("the standardising map", "raw ρ_w", "standardised")).unwrap();
/// assert!(svg.contains(r#"data-points="-1.0,-1.0 0.0,0.1 1.0,1.0""#));
/// ```
pub fn lines(series: &[Series], identity: bool, labels: &Labels) -> Result<String, PlotError> {
    const CHART: &str = "lines";
    let total: usize = series.iter().map(|s| s.points.len()).sum();
    if total == 0 {
        return Err(PlotError::Empty { chart: CHART });
    }
    too_many(CHART, "points", total, MAX_POINTS)?;
    too_many(CHART, "series", series.len(), PALETTE.len())?;
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in series {
        let flat: Vec<f64> = s.points.iter().flat_map(|&(x, y)| [x, y]).collect();
        finite(CHART, "points", &flat)?;
        for &(x, y) in &s.points {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
    }
    let legend: Vec<LegendEntry> = series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry {
            label: s.name.clone(),
            colour: PALETTE[i],
            mark: Mark::Line(DASHES[i % DASHES.len()]),
        })
        .collect();
    let frame = Frame {
        left: 78.0,
        top: labels.top(),
        width: 460.0,
        height: 360.0,
    };
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(&legend) + 12.0,
        frame.bottom() + 50.0,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(x0, x1, frame.left, frame.right(), true);
    let ys = Scale::nice(y0, y1, frame.bottom(), frame.top, true);
    c.y_axis(&frame, &ys, &labels.y);
    c.x_axis(&frame, &xs, &labels.x, true);
    if identity {
        let (a, b) = (xs.lo.max(ys.lo), xs.hi.min(ys.hi));
        if a < b {
            c.line(
                xs.at(a),
                ys.at(a),
                xs.at(b),
                ys.at(b),
                "#999999",
                r#"stroke-dasharray="2 4" class="identity""#,
            );
        }
    }
    for (i, s) in series.iter().enumerate() {
        let mut pts = String::new();
        let mut data = String::new();
        for (k, &(x, y)) in s.points.iter().enumerate() {
            let sep = if k == 0 { "" } else { " " };
            let _ = write!(pts, "{sep}{},{}", px(xs.at(x)), px(ys.at(y)));
            let _ = write!(data, "{sep}{},{}", exact(x), exact(y));
        }
        let _ = write!(
            c_raw(&mut c),
            r#"<polyline points="{pts}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="{}" data-name="{}" data-points="{data}"/>"#,
            PALETTE[i],
            DASHES[i % DASHES.len()],
            crate::svg::escape(&s.name)
        );
    }
    c.legend(frame.right() + 24.0, frame.top + 8.0, &legend);
    Ok(c.finish())
}

/// A writer into the canvas (for the one chart that formats long runs).
fn c_raw(c: &mut Canvas) -> RawWriter<'_> {
    RawWriter(c)
}

struct RawWriter<'a>(&'a mut Canvas);

impl std::fmt::Write for RawWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.raw(s);
        Ok(())
    }
}

/// The colour of `t` in 0..=1 on a light-yellow → teal → dark-blue ramp
/// (lightness falls monotonically, so greyscale keeps the order).
fn ramp(t: f64) -> String {
    const STOPS: [(f64, [f64; 3]); 3] = [
        (0.0, [255.0, 247.0, 188.0]),
        (0.5, [65.0, 182.0, 196.0]),
        (1.0, [37.0, 52.0, 148.0]),
    ];
    let t = t.clamp(0.0, 1.0);
    let k = usize::from(t > 0.5);
    let (t0, a) = STOPS[k];
    let (t1, b) = STOPS[k + 1];
    let u = (t - t0) / (t1 - t0);
    let c: Vec<u8> = (0..3)
        .map(|i| (a[i] + (b[i] - a[i]) * u).round() as u8)
        .collect();
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A heat map of `values` (row-major, `rows.len() × columns.len()`,
/// `None` for an empty cell), each cell coloured on a sequential ramp and
/// printed when it is wide enough, with a colour bar. Cells carry
/// `data-row`, `data-column`, `data-value`.
///
/// # Errors
/// [`PlotError::Empty`], [`PlotError::Mismatch`] when the values are not
/// rows × columns, [`PlotError::TooLarge`] beyond 200 rows or columns,
/// [`PlotError::NotFinite`].
///
/// # Complexity
/// O(rows · columns).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Labels, heat_map};
/// let svg = heat_map(&["p = 0.6".into()], &["n = 10".into(), "n = 20".into()],
///     &[Some(0.3), Some(0.5)], &Labels::new("ρ_w over the sweep", "items", "accuracy")).unwrap();
/// assert!(svg.contains(r#"data-value="0.5""#));
/// ```
pub fn heat_map(
    rows: &[String],
    columns: &[String],
    values: &[Option<f64>],
    labels: &Labels,
) -> Result<String, PlotError> {
    const CHART: &str = "heat map";
    if rows.is_empty() || columns.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    too_many(CHART, "rows", rows.len(), 200)?;
    too_many(CHART, "columns", columns.len(), 200)?;
    if values.len() != rows.len() * columns.len() {
        return Err(PlotError::Mismatch {
            chart: CHART,
            what: "values",
            expected: rows.len() * columns.len(),
            got: values.len(),
        });
    }
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    finite(CHART, "values", &present)?;
    let (lo, hi) = present
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let cw = (600.0 / columns.len() as f64).clamp(14.0, 64.0);
    let ch = (420.0 / rows.len() as f64).clamp(14.0, 36.0);
    let names: Vec<&str> = rows.iter().map(String::as_str).collect();
    let longest = columns
        .iter()
        .map(|s| text_width(&shorten(s, LABEL_CHARS), FONT))
        .fold(0.0, f64::max);
    let rotate = longest > cw - 4.0;
    let head = if rotate { longest * 0.72 + 12.0 } else { 22.0 };
    let frame = Frame {
        left: row_label_width(&names) + 24.0,
        top: labels.top() + head + 18.0,
        width: cw * columns.len() as f64,
        height: ch * rows.len() as f64,
    };
    let mut c = Canvas::new(
        frame.right() + 110.0,
        frame.bottom().max(frame.top + 200.0) + 30.0,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    c.text(
        frame.left + frame.width / 2.0,
        labels.top() + 14.0,
        &labels.x,
        "middle",
        "",
    );
    for (j, s) in columns.iter().enumerate() {
        let x = frame.left + cw * (j as f64 + 0.5);
        if rotate {
            c.text_rotated(x, frame.top - 6.0, &shorten(s, LABEL_CHARS), "start", -45.0);
        } else {
            c.text(x, frame.top - 6.0, s, "middle", "");
        }
    }
    let centres: Vec<(String, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.clone(), frame.top + ch * (i as f64 + 0.5)))
        .collect();
    c.y_categories(&frame, &centres);
    if !labels.y.is_empty() {
        c.text_rotated(
            14.0,
            frame.top + frame.height / 2.0,
            &labels.y,
            "middle",
            -90.0,
        );
    }
    let span = if hi > lo { hi - lo } else { 1.0 };
    let show = cw >= 40.0 && ch >= 16.0;
    c.raw(r#"<g class="cells">"#);
    for (i, r) in rows.iter().enumerate() {
        for (j, col) in columns.iter().enumerate() {
            let (x, y) = (frame.left + cw * j as f64, frame.top + ch * i as f64);
            let data = format!(
                r##"stroke="#ffffff" data-row="{}" data-column="{}""##,
                crate::svg::escape(r),
                crate::svg::escape(col)
            );
            match values[i * columns.len() + j] {
                Some(v) => {
                    let t = (v - lo) / span;
                    c.rect(
                        x,
                        y,
                        cw,
                        ch,
                        &ramp(t),
                        &format!(r#"{data} data-value="{}""#, exact(v)),
                    );
                    if show {
                        let ink = if t > 0.55 { "#ffffff" } else { "#000000" };
                        c.text(
                            x + cw / 2.0,
                            y + ch / 2.0 + 4.0,
                            &number(v),
                            "middle",
                            &format!(r#"fill="{ink}" font-size="11""#),
                        );
                    }
                }
                None => c.rect(x, y, cw, ch, "#dddddd", &data),
            }
        }
    }
    c.raw("</g>");
    // The colour bar.
    let (bx, by, bh) = (frame.right() + 20.0, frame.top, 160.0);
    for k in 0..32 {
        let t = 1.0 - f64::from(k) / 31.0;
        c.rect(
            bx,
            by + bh * f64::from(k) / 32.0,
            14.0,
            bh / 32.0 + 0.5,
            &ramp(t),
            "",
        );
    }
    c.text(bx + 20.0, by + 10.0, &number(hi), "start", "");
    c.text(bx + 20.0, by + bh, &number(lo), "start", "");
    Ok(c.finish())
}

/// Horizontal bars, one per label, from 0 to its value, the value printed
/// at the bar's end. Bars carry `data-label` and `data-value`.
///
/// # Errors
/// [`PlotError::Empty`], [`PlotError::TooLarge`] beyond [`MAX_ROWS`] bars,
/// [`PlotError::NotFinite`].
///
/// # Complexity
/// O(bars).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Labels, bars};
/// let svg = bars(&[("w1".into(), 0.9), ("w2".into(), 0.75)],
///     &Labels::new("worker accuracy on control ballots", "accuracy", "worker")).unwrap();
/// assert!(svg.contains(r#"data-value="0.75""#));
/// ```
pub fn bars(bars: &[(String, f64)], labels: &Labels) -> Result<String, PlotError> {
    const CHART: &str = "bars";
    if bars.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    too_many(CHART, "bars", bars.len(), MAX_ROWS)?;
    let values: Vec<f64> = bars.iter().map(|b| b.1).collect();
    finite(CHART, "values", &values)?;
    let (lo, hi) = values
        .iter()
        .fold((0.0f64, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    let names: Vec<&str> = bars.iter().map(|b| b.0.as_str()).collect();
    let band = 20.0;
    let frame = Frame {
        left: row_label_width(&names) + 24.0,
        top: labels.top() + 4.0,
        width: 420.0,
        height: band * bars.len() as f64,
    };
    let mut c = Canvas::new(
        frame.right() + 70.0,
        frame.bottom() + 50.0,
        CHART,
        &labels.title,
        &labels.subtitle,
    );
    let xs = Scale::nice(
        lo,
        if hi > lo { hi * 1.02 } else { hi },
        frame.left,
        frame.right(),
        false,
    );
    c.x_axis(&frame, &xs, &labels.x, true);
    let centres: Vec<(String, f64)> = bars
        .iter()
        .enumerate()
        .map(|(i, b)| (b.0.clone(), frame.top + band * (i as f64 + 0.5)))
        .collect();
    c.y_categories(&frame, &centres);
    if !labels.y.is_empty() {
        c.text_rotated(
            14.0,
            frame.top + frame.height / 2.0,
            &labels.y,
            "middle",
            -90.0,
        );
    }
    c.raw(r#"<g class="bars">"#);
    for ((label, v), (_, y)) in bars.iter().zip(&centres) {
        let (a, b) = (xs.at(0.0_f64.min(*v)), xs.at(0.0_f64.max(*v)));
        c.rect(
            a,
            y - band * 0.35,
            b - a,
            band * 0.7,
            PALETTE[0],
            &format!(
                r#"data-label="{}" data-value="{}""#,
                crate::svg::escape(label),
                exact(*v)
            ),
        );
        c.text(b + 4.0, y + 4.0, &number(*v), "start", r#"font-size="11""#);
    }
    c.raw("</g>");
    Ok(c.finish())
}

/// A critical-difference diagram (Demšar 2006, Fig. 1): the systems on an
/// axis of average ranks (1 = best, at the left), the best half labelled
/// on the left, the rest on the right, Nemenyi's critical difference as a
/// bar above the axis and each group of systems that cannot be told apart
/// joined by a thick bar. Systems carry `data-system`, `data-rank`; group
/// bars `data-members` (indices); the CD bar `data-cd`.
///
/// # Errors
/// [`PlotError::Empty`] for fewer than 2 systems, [`PlotError::Mismatch`]
/// when names and ranks differ in length, [`PlotError::TooLarge`] beyond
/// 100 systems, [`PlotError::NotFinite`] for a rank or the critical
/// difference.
///
/// # Complexity
/// O(k log k + groups · k).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::critical_difference;
/// let names = ["a".to_string(), "b".into(), "c".into()];
/// let svg = critical_difference(&names, &[1.2, 2.1, 2.7], 0.9, &[vec![0, 1], vec![1, 2]],
///     "3 systems on 10 benchmarks").unwrap();
/// assert!(svg.contains(r#"data-rank="2.1""#));
/// ```
pub fn critical_difference(
    names: &[String],
    ranks: &[f64],
    cd: f64,
    groups: &[Vec<usize>],
    title: &str,
) -> Result<String, PlotError> {
    const CHART: &str = "critical difference";
    if names.len() < 2 {
        return Err(PlotError::Empty { chart: CHART });
    }
    if ranks.len() != names.len() {
        return Err(PlotError::Mismatch {
            chart: CHART,
            what: "average ranks",
            expected: names.len(),
            got: ranks.len(),
        });
    }
    too_many(CHART, "systems", names.len(), 100)?;
    finite(CHART, "average ranks", ranks)?;
    finite(CHART, "critical difference", &[cd])?;
    let k = names.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| ranks[a].total_cmp(&ranks[b]).then(a.cmp(&b)));
    let half = k.div_ceil(2);
    let label = |i: usize| format!("{} ({})", shorten(&names[i], LABEL_CHARS), number(ranks[i]));
    let side_width = |ids: &[usize]| {
        ids.iter()
            .map(|&i| text_width(&label(i), FONT))
            .fold(40.0, f64::max)
    };
    let (left_ids, right_ids) = order.split_at(half);
    let frame = Frame {
        left: side_width(left_ids) + 40.0,
        top: 96.0,
        width: (60.0 * k as f64).clamp(300.0, 700.0),
        height: 0.0,
    };
    let shown: Vec<&Vec<usize>> = groups
        .iter()
        .filter(|g| g.len() > 1 && g.iter().all(|&i| i < k))
        .collect();
    let drop0 = 24.0 + 8.0 * shown.len() as f64;
    let rows = left_ids.len().max(right_ids.len()) as f64;
    let height = frame.top + drop0 + 20.0 * rows + 30.0;
    let mut c = Canvas::new(
        frame.right() + side_width(right_ids) + 40.0,
        height,
        "critical-difference",
        title,
        "",
    );
    let (lo, hi) = (
        1.0f64.min(ranks.iter().copied().fold(f64::INFINITY, f64::min)),
        (k as f64).max(ranks.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
    );
    let xs = Scale {
        lo,
        hi,
        from: frame.left,
        to: frame.right(),
    };
    let axis = frame.top;
    c.line(
        frame.left,
        axis,
        frame.right(),
        axis,
        "#000000",
        r#"stroke-width="1.5""#,
    );
    let every = k.div_ceil(15);
    for r in (1..=k).step_by(every) {
        let x = xs.at(r as f64);
        c.line(x, axis - 6.0, x, axis, "#000000", "");
        c.text(x, axis - 10.0, &r.to_string(), "middle", "");
    }
    c.text(
        frame.left + frame.width / 2.0,
        height - 10.0,
        "average rank (1 = best)",
        "middle",
        r##"fill="#444444""##,
    );
    // The critical difference bar, from rank 1.
    let cd_end = xs.at(lo + cd.min(hi - lo));
    c.line(
        xs.at(lo),
        60.0,
        cd_end,
        60.0,
        "#000000",
        &format!(r#"stroke-width="2" class="cd" data-cd="{}""#, exact(cd)),
    );
    for x in [xs.at(lo), cd_end] {
        c.line(x, 55.0, x, 65.0, "#000000", "");
    }
    c.text(
        cd_end + 6.0,
        64.0,
        &format!("CD = {}", number(cd)),
        "start",
        "",
    );
    for (j, g) in shown.iter().enumerate() {
        let a = g.iter().map(|&i| ranks[i]).fold(f64::INFINITY, f64::min);
        let b = g
            .iter()
            .map(|&i| ranks[i])
            .fold(f64::NEG_INFINITY, f64::max);
        let members: Vec<String> = g.iter().map(ToString::to_string).collect();
        let y = axis + 14.0 + 8.0 * j as f64;
        c.line(
            xs.at(a) - 4.0,
            y,
            xs.at(b) + 4.0,
            y,
            "#000000",
            &format!(
                r#"stroke-width="4" class="group" data-members="{}""#,
                members.join(" ")
            ),
        );
    }
    for (side, ids) in [
        (0, left_ids.to_vec()),
        (1, right_ids.iter().rev().copied().collect::<Vec<_>>()),
    ] {
        for (row, &i) in ids.iter().enumerate() {
            let x = xs.at(ranks[i]);
            let y = axis + drop0 + 20.0 * row as f64;
            let colour = PALETTE[i % PALETTE.len()];
            let end = if side == 0 {
                frame.left - 10.0
            } else {
                frame.right() + 10.0
            };
            c.raw(&format!(
                r#"<g class="system" data-system="{}" data-rank="{}">"#,
                crate::svg::escape(&names[i]),
                exact(ranks[i])
            ));
            c.line(x, axis, x, y, colour, r#"stroke-width="1.5""#);
            c.line(x, y, end, y, colour, r#"stroke-width="1.5""#);
            c.marker(i, x, axis, 3.5, colour, true, "");
            let anchor = if side == 0 { "end" } else { "start" };
            let tx = if side == 0 { end - 4.0 } else { end + 4.0 };
            c.text(tx, y + 4.0, &label(i), anchor, "");
            c.raw("</g>");
        }
    }
    Ok(c.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_darkens_monotonically() {
        let lum = |s: &str| {
            let v: Vec<f64> = (0..3)
                .map(|i| f64::from(u8::from_str_radix(&s[1 + 2 * i..3 + 2 * i], 16).unwrap()))
                .collect();
            0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
        };
        let l: Vec<f64> = (0..=20).map(|k| lum(&ramp(f64::from(k) / 20.0))).collect();
        assert!(l.windows(2).all(|w| w[1] < w[0]), "{l:?}");
        assert_eq!(ramp(0.0), "#fff7bc");
        assert_eq!(ramp(1.0), "#253494");
    }
}
