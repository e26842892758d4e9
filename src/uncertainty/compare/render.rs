//! Comparisons as tables of text: aligned text, Markdown, LaTeX, or the
//! cells themselves (for CSV or a data frame).
//!
//! Two tables: the systems (each with its estimate, interval and the
//! letters of the systems it is significantly better than after the
//! correction, as ranx prints its reports) and the pairs (difference,
//! interval, effect sizes, test, raw and adjusted p-values, decision).
//! [`Cells::report`] puts several comparisons (measures) side by side.

use super::result::{Bounds, Comparison, PValueMethod};
use crate::present::Prob;

/// A table of text cells: a header and rows of the same length.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cells {
    /// Column names.
    pub header: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// How many leading columns are text (aligned left; the others right).
    pub left: usize,
    /// A line under the table saying what the marks mean (may be empty).
    pub note: String,
}

/// The label of system `i` among `k`: a, b, … for up to 26 systems, 1, 2, …
/// beyond.
fn label(i: usize, k: usize) -> String {
    if k <= 26 {
        char::from(b'a' + i as u8).to_string()
    } else {
        (i + 1).to_string()
    }
}

/// A label as Unicode superscript characters (ranx's marks); `q`, which has
/// none, stays as it is.
fn superscript(label: &str) -> String {
    label
        .chars()
        .map(|c| match c {
            'a' => 'ᵃ',
            'b' => 'ᵇ',
            'c' => 'ᶜ',
            'd' => 'ᵈ',
            'e' => 'ᵉ',
            'f' => 'ᶠ',
            'g' => 'ᵍ',
            'h' => 'ʰ',
            'i' => 'ⁱ',
            'j' => 'ʲ',
            'k' => 'ᵏ',
            'l' => 'ˡ',
            'm' => 'ᵐ',
            'n' => 'ⁿ',
            'o' => 'ᵒ',
            'p' => 'ᵖ',
            'r' => 'ʳ',
            's' => 'ˢ',
            't' => 'ᵗ',
            'u' => 'ᵘ',
            'v' => 'ᵛ',
            'w' => 'ʷ',
            'x' => 'ˣ',
            'y' => 'ʸ',
            'z' => 'ᶻ',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            '9' => '⁹',
            ',' => '˒',
            other => other,
        })
        .collect()
}

fn fixed(x: f64, d: usize) -> String {
    if x == f64::INFINITY {
        "∞".to_owned()
    } else if x == f64::NEG_INFINITY {
        "−∞".to_owned()
    } else {
        format!("{x:.d$}")
    }
}

fn bounds(b: Option<Bounds>, d: usize) -> String {
    b.map_or_else(String::new, |b| {
        format!("[{}, {}]", fixed(b.lower, d), fixed(b.upper, d))
    })
}

fn maybe(x: Option<f64>, d: usize) -> String {
    x.map_or_else(String::new, |x| fixed(x, d))
}

/// The marks of system `s`: the labels of the systems it beats, as a
/// comma-free run for letters and comma-separated for numbers.
fn marks(c: &Comparison, s: usize) -> String {
    let k = c.systems.len();
    let sep = if k <= 26 { "" } else { "," };
    c.better_than(s)
        .iter()
        .map(|&o| label(o, k))
        .collect::<Vec<_>>()
        .join(sep)
}

impl Cells {
    /// A table whose first two columns are text, with the note of
    /// comparison `c` under it.
    fn noted(header: Vec<String>, rows: Vec<Vec<String>>, c: &Comparison) -> Self {
        Self {
            header,
            rows,
            left: 2,
            note: note(c),
        }
    }

    /// The systems of one comparison: label, name, estimate, interval,
    /// and the labels of the systems it is significantly better than.
    #[must_use]
    pub fn systems(c: &Comparison, decimals: usize) -> Self {
        let level = crate::present::Percentage(c.settings.level);
        let header = vec![
            String::new(),
            "system".to_owned(),
            c.statistic.clone(),
            format!("{level}% interval"),
            "better than".to_owned(),
        ];
        let k = c.systems.len();
        let rows = c
            .systems
            .iter()
            .enumerate()
            .map(|(i, s)| {
                vec![
                    label(i, k),
                    s.name.clone(),
                    fixed(s.estimate, decimals),
                    bounds(s.interval, decimals),
                    marks(c, i),
                ]
            })
            .collect();
        Self::noted(header, rows, c)
    }

    /// The pairs of one comparison: a, b, difference, interval, Cohen's
    /// d_z, Hedges' g_z, wins/ties/losses, statistic, p, adjusted p,
    /// decision.
    #[must_use]
    pub fn pairs(c: &Comparison, decimals: usize) -> Self {
        let level = crate::present::Percentage(c.settings.level);
        let header = [
            "a",
            "b",
            "difference",
            &format!("{level}% interval"),
            "d_z",
            "g_z",
            "W/T/L",
            "statistic",
            "p",
            "adjusted p",
            "reject",
        ]
        .map(str::to_owned)
        .to_vec();
        let rows = c
            .pairs
            .iter()
            .map(|p| {
                let effect = p.effect.map(|e| (e.cohens_dz, e.hedges_gz));
                vec![
                    c.systems[p.a].name.clone(),
                    c.systems[p.b].name.clone(),
                    fixed(p.difference, decimals),
                    bounds(p.interval, decimals),
                    maybe(effect.and_then(|e| e.0), decimals),
                    maybe(effect.and_then(|e| e.1), decimals),
                    p.record.map_or_else(String::new, |r| {
                        format!("{}/{}/{}", r.wins, r.ties, r.losses)
                    }),
                    fixed(p.statistic, decimals),
                    Prob(p.p_value, decimals).to_string(),
                    Prob(p.adjusted_p_value, decimals).to_string(),
                    if p.reject { "yes" } else { "no" }.to_owned(),
                ]
            })
            .collect();
        Self::noted(header, rows, c)
    }

    /// Several comparisons of the same systems side by side (one column per
    /// measure): each system's estimate with the marks of the systems it is
    /// significantly better than, as ranx's `compare` report, corrected.
    /// With `intervals`, each cell also holds the interval.
    ///
    /// # Panics
    /// If the comparisons do not have the same systems.
    #[must_use]
    pub fn report(measures: &[(&str, &Comparison)], decimals: usize, intervals: bool) -> Self {
        let Some((_, first)) = measures.first() else {
            return Self::default();
        };
        let k = first.systems.len();
        assert!(
            measures.iter().all(|(_, c)| c.systems.len() == k),
            "the comparisons have different systems"
        );
        let mut header = vec![String::new(), "system".to_owned()];
        header.extend(measures.iter().map(|(m, _)| (*m).to_owned()));
        let rows = (0..k)
            .map(|s| {
                let mut row = vec![label(s, k), first.systems[s].name.clone()];
                for (_, c) in measures {
                    let mut cell =
                        fixed(c.systems[s].estimate, decimals) + &superscript(&marks(c, s));
                    if intervals && let Some(b) = c.systems[s].interval {
                        cell.push(' ');
                        cell.push_str(&bounds(Some(b), decimals));
                    }
                    row.push(cell);
                }
                row
            })
            .collect();
        Self::noted(header, rows, first)
    }

    /// Aligned text: columns two spaces apart, text left, numbers right;
    /// the note on its own line below.
    #[must_use]
    pub fn text(&self) -> String {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|c| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (c, (cell, w)) in row.iter().zip(&widths).enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let pad = " ".repeat(w - cell.chars().count());
                if c < self.left {
                    line.push_str(cell);
                    line.push_str(&pad);
                } else {
                    line.push_str(&pad);
                    line.push_str(cell);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if !self.note.is_empty() {
            out.push('\n');
            out.push_str(&self.note);
            out.push('\n');
        }
        out
    }

    /// A GitHub-flavoured Markdown table (`|` in cells escaped), the note
    /// below it.
    #[must_use]
    pub fn markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|");
        let line = |cells: &[String]| {
            let inner: Vec<String> = cells.iter().map(|c| esc(c)).collect();
            format!("| {} |\n", inner.join(" | "))
        };
        let mut out = line(&self.header);
        let rule: Vec<String> = (0..self.header.len())
            .map(|c| if c < self.left { ":--" } else { "--:" }.to_owned())
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        if !self.note.is_empty() {
            out.push('\n');
            out.push_str(&esc(&self.note));
            out.push('\n');
        }
        out
    }

    /// A LaTeX `tabular` (booktabs rules; special characters escaped, the
    /// superscript marks as `\textsuperscript`), the note as a footnote
    /// line.
    #[must_use]
    pub fn latex(&self) -> String {
        let spec: String = (0..self.header.len())
            .map(|c| if c < self.left { 'l' } else { 'r' })
            .collect();
        let mut out = format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n");
        let line = |cells: &[String]| {
            let inner: Vec<String> = cells.iter().map(|c| latex_escape(c)).collect();
            format!("{} \\\\\n", inner.join(" & "))
        };
        out.push_str(&line(&self.header));
        out.push_str("\\midrule\n");
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        if !self.note.is_empty() {
            out.push_str(&format!("% {}\n", self.note));
        }
        out
    }
}

/// The sentence under a table: the test, correction and α.
fn note(c: &Comparison) -> String {
    let s = c.settings;
    let how = match c.pairs.first().map(|p| p.method) {
        Some(PValueMethod::Exact { .. }) => " (exact)",
        Some(PValueMethod::MonteCarlo { .. }) if s.test.name() == "randomisation" => {
            " (Monte Carlo)"
        }
        _ => "",
    };
    format!(
        "{} test{how}, {} correction, alpha {}: letters mark the systems a system is \
         significantly better than",
        s.test.name(),
        s.correction,
        s.alpha
    )
}

/// LaTeX's special characters escaped; superscript marks, minus signs and
/// the infinity sign written as LaTeX.
fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut sup = String::new();
    let flush = |sup: &mut String, out: &mut String| {
        if !sup.is_empty() {
            out.push_str(&format!("\\textsuperscript{{{sup}}}"));
            sup.clear();
        }
    };
    for c in s.chars() {
        let plain = unsuperscript(c);
        if let Some(p) = plain {
            sup.push(p);
            continue;
        }
        flush(&mut sup, &mut out);
        match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '−' => out.push_str("$-$"),
            '∞' => out.push_str("$\\infty$"),
            _ => out.push(c),
        }
    }
    flush(&mut sup, &mut out);
    out
}

/// The plain character of a superscript mark.
fn unsuperscript(c: char) -> Option<char> {
    const PLAIN: &str = "abcdefghijklmnoprstuvwxyz0123456789,";
    PLAIN
        .chars()
        .find(|&p| superscript(&p.to_string()).starts_with(c) && p != c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_escapes() {
        assert_eq!(label(2, 3), "c");
        assert_eq!(label(2, 30), "3");
        assert_eq!(superscript("bc"), "ᵇᶜ");
        assert_eq!(latex_escape("0.32ᵇᶜ"), "0.32\\textsuperscript{bc}");
        assert_eq!(latex_escape("a_b & 5%"), "a\\_b \\& 5\\%");
        assert_eq!(latex_escape("[−∞, 0.5]"), "[$-$$\\infty$, 0.5]");
        let c = Cells {
            header: vec!["x".into(), "y".into()],
            rows: vec![vec!["a|b".into(), "1".into()]],
            left: 1,
            note: String::new(),
        };
        assert_eq!(c.markdown(), "| x | y |\n|:--|--:|\n| a\\|b | 1 |\n");
        assert_eq!(c.text(), "x    y\na|b  1\n");
    }
}
