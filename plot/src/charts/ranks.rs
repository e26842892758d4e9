//! Demšar's critical-difference diagram.

use super::*;

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
