//! Charts of functions and grids: lines (the standardising map) and heat maps.

use super::*;

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
    count_within(CHART, "points", total, MAX_POINTS)?;
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
    let (mut c, frame, xs, ys) =
        xy_canvas(CHART, labels, &legend, (460.0, 360.0), (x0, x1), (y0, y1));
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
pub(crate) fn c_raw(c: &mut Canvas) -> RawWriter<'_> {
    RawWriter(c)
}

pub(crate) struct RawWriter<'a>(&'a mut Canvas);

impl std::fmt::Write for RawWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.raw(s);
        Ok(())
    }
}

/// The colour of `t` in 0..=1 on a light-yellow → teal → dark-blue ramp
/// (lightness falls monotonically, so greyscale keeps the order).
pub(crate) fn ramp(t: f64) -> String {
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
    y_label(&mut c, &frame, labels);
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
