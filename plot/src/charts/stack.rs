//! Several charts in one document, one under the other.

use super::*;

/// The `width` and `height` of a chart's root element.
fn size_of(chart: &str) -> Option<(f64, f64)> {
    let head = &chart[..chart.find('>')?];
    let attr = |name: &str| -> Option<f64> {
        let key = format!(" {name}=\"");
        let start = head.find(&key)? + key.len();
        head[start..start + head[start..].find('"')?].parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

/// Charts drawn by this crate stacked into one SVG document, one under the
/// other (each a nested `<svg>` keeping its marks and `data-*`
/// attributes), under `title` when it is not empty. A command that has
/// several panels to show (a forest plot per measure, a critical-difference
/// diagram per coefficient, votes and accuracies) writes them as one file.
///
/// # Errors
/// [`PlotError::Empty`] for no charts; [`PlotError::Mismatch`] when a
/// chart is not a document of this crate (its root `<svg>` has no width and
/// height).
///
/// # Complexity
/// O(total length of the charts).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_plot::{Labels, bars, stack};
/// let a = bars(&[("w1".into(), 0.9)], &Labels::new("accuracy", "accuracy", "worker")).unwrap();
/// let b = bars(&[("b1".into(), 3.0)], &Labels::new("votes", "votes", "ballot")).unwrap();
/// let svg = stack(&[a, b], "a campaign").unwrap();
/// assert_eq!(svg.matches("<svg").count(), 3);
/// ```
pub fn stack(charts: &[String], title: &str) -> Result<String, PlotError> {
    const CHART: &str = "stack";
    if charts.is_empty() {
        return Err(PlotError::Empty { chart: CHART });
    }
    if let [one] = charts {
        return Ok(one.clone());
    }
    let mut sizes = Vec::with_capacity(charts.len());
    for (i, c) in charts.iter().enumerate() {
        match size_of(c) {
            Some(s) if c.starts_with("<svg") => sizes.push(s),
            _ => {
                return Err(PlotError::Mismatch {
                    chart: CHART,
                    what: "charts with a size",
                    expected: charts.len(),
                    got: i,
                });
            }
        }
    }
    let top = if title.is_empty() { 0.0 } else { 36.0 };
    let width = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let height = top + sizes.iter().map(|s| s.1).sum::<f64>();
    let mut c = Canvas::new(width, height, CHART, title, "");
    let mut y = top;
    for (chart, (_, h)) in charts.iter().zip(&sizes) {
        let body = chart.trim_end();
        c.raw(&format!(r#"<svg x="0" y="{}""#, crate::svg::px(y)));
        c.raw(&body["<svg".len()..]);
        y += h;
    }
    Ok(c.finish())
}
