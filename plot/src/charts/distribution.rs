//! Charts of counts: the histogram of replicates and bar charts.

use super::*;

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
    count_within(CHART, "bars", bars.len(), MAX_ROWS)?;
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
    y_label(&mut c, &frame, labels);
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
