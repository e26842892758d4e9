//! Charts of estimates: dots and whiskers, scatters, interval rows (forest plots).

use super::*;

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
pub(crate) fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
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
    let (mut c, frame, xs, centres) = row_canvas(CHART, labels, &rows, band, (lo, hi), &legend);
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
            whisker(
                &mut c,
                &mut data,
                &xs,
                y,
                (a, b),
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

/// An interval's whisker at height `y` (a line from `a` to `b`) and its
/// ends in the mark's `data-lower` / `data-upper`.
fn whisker(
    c: &mut Canvas,
    data: &mut String,
    xs: &Scale,
    y: f64,
    (a, b): (f64, f64),
    colour: &str,
    stroke: &str,
) {
    let _ = write!(
        data,
        r#" data-lower="{}" data-upper="{}""#,
        exact(a),
        exact(b)
    );
    c.line(xs.at(a), y, xs.at(b), y, colour, stroke);
}

pub(crate) fn row_label_width(rows: &[&str]) -> f64 {
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
    count_within(CHART, "points", points.len(), MAX_POINTS)?;
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
    let (mut c, frame, xs, ys) =
        xy_canvas(CHART, labels, &legend, (440.0, 400.0), (x0, x1), (y0, y1));
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
    count_within(CHART, "rows", rows.len(), MAX_ROWS)?;
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
    let (mut c, frame, xs, centres) = row_canvas(CHART, labels, &names, band, (lo, hi), &legend);
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
            let stroke = r#"stroke-width="2""#;
            whisker(&mut c, &mut data, &xs, *y, (a, b), PALETTE[0], stroke);
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

/// The canvas of a chart with one horizontal band per row (dot-and-whisker,
/// interval rows): the frame, the title, the legend's room, the value axis
/// over `lo..hi`, the row labels and the vertical axis label; with the
/// rows' centre lines.
fn row_canvas(
    chart: &str,
    labels: &Labels,
    rows: &[&str],
    band: f64,
    (lo, hi): (f64, f64),
    legend: &[LegendEntry],
) -> (Canvas, Frame, Scale, Vec<(String, f64)>) {
    let frame = Frame {
        left: row_label_width(rows) + 24.0,
        top: labels.top() + 4.0,
        width: 480.0,
        height: band * rows.len() as f64,
    };
    let height = frame.bottom().max(frame.top + legend.len() as f64 * 18.0) + 50.0;
    let mut c = Canvas::new(
        frame.right() + 24.0 + legend_width(legend) + 12.0,
        height,
        chart,
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
    y_label(&mut c, &frame, labels);
    (c, frame, xs, centres)
}
