//! The SVG document: escaping, compact numbers, scales and the frame every
//! chart draws in.

use std::fmt::Write as _;

/// The Okabe–Ito palette (Okabe & Ito 2008) without its yellow (too pale
/// for thin lines on white), black last: distinguishable under the common
/// colour-vision deficiencies. Marks also differ by shape or dash so that
/// greyscale prints survive.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000",
];

/// Dash patterns paired with [`PALETTE`] for lines.
pub(crate) const DASHES: [&str; 6] = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4"];

/// Default text size in pixels.
pub(crate) const FONT: f64 = 13.0;

/// Text escaped for SVG character data and attribute values.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A number for a reader: at most 4 significant digits, no trailing zeros,
/// scientific notation below 10⁻³ and from 10⁶ (`0.4123`, `12`, `1.5e-5`,
/// `−0.25` with a true minus sign).
#[must_use]
pub fn number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "−∞" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    let s = if !(1e-3..1e6).contains(&a) {
        let s = format!("{a:.3e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        format!("{}e{e}", trim(m))
    } else {
        let digits = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        trim(&format!("{a:.digits$}")).to_string()
    };
    if v < 0.0 && s != "0" {
        format!("−{s}")
    } else {
        s
    }
}

fn trim(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// A coordinate: two decimals, trailing zeros cut.
pub(crate) fn px(v: f64) -> String {
    trim(&format!("{v:.2}")).to_string()
}

/// An input value stored exactly in a `data-*` attribute (Rust's
/// round-trip formatting: parsing it gives the same `f64`).
pub(crate) fn exact(v: f64) -> String {
    format!("{v:?}")
}

/// The estimated width of `s` at `size` pixels (sans-serif averages about
/// 0.6 em a character).
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

/// `s` cut to `max` characters with an ellipsis.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// A linear map from a domain to pixels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    pub lo: f64,
    pub hi: f64,
    pub from: f64,
    pub to: f64,
}

impl Scale {
    /// `domain` widened to a nice range (and to a unit when empty), mapped
    /// onto `from..to` pixels.
    pub fn nice(lo: f64, hi: f64, from: f64, to: f64, pad: bool) -> Self {
        let (mut lo, mut hi) = (lo, hi);
        if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
            let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
            lo -= d;
            hi += d;
        } else if pad {
            let d = (hi - lo) * 0.04;
            lo -= d;
            hi += d;
        }
        Self { lo, hi, from, to }
    }

    pub fn at(&self, v: f64) -> f64 {
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// About `n` round tick values inside the domain (steps 1, 2, 5 × 10ᵏ).
    pub fn ticks(&self, n: usize) -> Vec<f64> {
        let span = self.hi - self.lo;
        let raw = span / n.max(1) as f64;
        let mag = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * mag);
        let first = (self.lo / step).ceil();
        let mut out = Vec::new();
        let mut k = first;
        while k * step <= self.hi + step * 1e-9 && out.len() < 50 {
            let t = k * step;
            // Kill -0 and rounding dust such as 0.30000000000000004.
            let t = if t.abs() < step * 1e-9 { 0.0 } else { t };
            out.push(t);
            k += 1.0;
        }
        out
    }
}

/// The plot area inside the margins.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Frame {
    pub fn right(&self) -> f64 {
        self.left + self.width
    }
    pub fn bottom(&self) -> f64 {
        self.top + self.height
    }
}

/// An SVG document being written.
#[derive(Debug)]
pub(crate) struct Canvas {
    out: String,
}

impl Canvas {
    /// A white canvas with the chart's title (drawn and as `<title>`) and
    /// an optional subtitle under it.
    /// The canvas is widened, when needed, so that the title and subtitle fit.
    pub fn new(width: f64, height: f64, kind: &str, title: &str, subtitle: &str) -> Self {
        let width = width
            .max(text_width(title, 16.0) + 32.0)
            .max(text_width(subtitle, FONT) + 32.0);
        let mut out = String::with_capacity(8192);
        let _ = write!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{FONT}" role="img" data-chart="{kind}"><title>{t}</title><rect width="100%" height="100%" fill="#ffffff"/>"##,
            w = px(width),
            h = px(height),
            t = escape(title),
        );
        let mut c = Self { out };
        c.text(
            width / 2.0,
            22.0,
            title,
            "middle",
            r#"font-size="16" font-weight="bold""#,
        );
        if !subtitle.is_empty() {
            c.text(width / 2.0, 40.0, subtitle, "middle", r##"fill="#444444""##);
        }
        c
    }

    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    pub fn text(&mut self, x: f64, y: f64, s: &str, anchor: &str, extra: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{}" y="{}" text-anchor="{anchor}" {extra}>{}</text>"#,
            px(x),
            px(y),
            escape(s)
        );
    }

    /// Text rotated by `deg` about its anchor point.
    pub fn text_rotated(&mut self, x: f64, y: f64, s: &str, anchor: &str, deg: f64) {
        let _ = write!(
            self.out,
            r#"<text x="{x}" y="{y}" text-anchor="{anchor}" transform="rotate({deg} {x} {y})">{}</text>"#,
            escape(s),
            x = px(x),
            y = px(y),
        );
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, extra: &str) {
        let [x1, y1, x2, y2] = [x1, y1, x2, y2].map(px);
        let _ = write!(
            self.out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" {extra}/>"#
        );
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, extra: &str) {
        let [x, y, w, h] = [x, y, w.max(0.0), h.max(0.0)].map(px);
        let _ = write!(
            self.out,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" {extra}/>"#
        );
    }

    /// A marker of shape `k` (circle, square, triangle, diamond, …) at
    /// (x, y), filled or open, with `data` attributes.
    #[allow(clippy::too_many_arguments)]
    pub fn marker(
        &mut self,
        k: usize,
        x: f64,
        y: f64,
        r: f64,
        colour: &str,
        filled: bool,
        data: &str,
    ) {
        let fill = if filled { colour } else { "#ffffff" };
        let style = format!(r#"fill="{fill}" stroke="{colour}" stroke-width="1.5" {data}"#);
        let (x_, y_) = (px(x), px(y));
        let _ = match k % 5 {
            0 => write!(
                self.out,
                r#"<circle cx="{x_}" cy="{y_}" r="{}" {style}/>"#,
                px(r)
            ),
            1 => write!(
                self.out,
                r#"<rect x="{}" y="{}" width="{w}" height="{w}" {style}/>"#,
                px(x - r * 0.9),
                px(y - r * 0.9),
                w = px(1.8 * r)
            ),
            2 => write!(
                self.out,
                r#"<polygon points="{},{} {},{} {},{}" {style}/>"#,
                px(x),
                px(y - r * 1.2),
                px(x - r * 1.1),
                px(y + r * 0.8),
                px(x + r * 1.1),
                px(y + r * 0.8)
            ),
            3 => write!(
                self.out,
                r#"<polygon points="{},{} {},{} {},{} {},{}" {style}/>"#,
                px(x),
                px(y - r * 1.25),
                px(x + r * 1.25),
                px(y),
                px(x),
                px(y + r * 1.25),
                px(x - r * 1.25),
                px(y)
            ),
            _ => write!(
                self.out,
                r#"<polygon points="{},{} {},{} {},{} {},{}" {style} transform="rotate(45 {x_} {y_})"/>"#,
                px(x - r),
                px(y - r * 0.35),
                px(x + r),
                px(y - r * 0.35),
                px(x + r),
                px(y + r * 0.35),
                px(x - r),
                px(y + r * 0.35)
            ),
        };
    }

    /// A horizontal value axis along the bottom of `frame`, with grid
    /// lines, tick labels and the axis label centred under it.
    pub fn x_axis(&mut self, frame: &Frame, scale: &Scale, label: &str, grid: bool) {
        let ticks = scale.ticks(((frame.width / 80.0) as usize).clamp(2, 10));
        for t in &ticks {
            let x = scale.at(*t);
            if grid {
                self.line(x, frame.top, x, frame.bottom(), "#e5e5e5", "");
            }
            self.line(x, frame.bottom(), x, frame.bottom() + 5.0, "#333333", "");
            self.text(x, frame.bottom() + 18.0, &number(*t), "middle", "");
        }
        self.line(
            frame.left,
            frame.bottom(),
            frame.right(),
            frame.bottom(),
            "#333333",
            "",
        );
        self.text(
            frame.left + frame.width / 2.0,
            frame.bottom() + 38.0,
            label,
            "middle",
            "",
        );
    }

    /// A vertical value axis along the left of `frame`.
    pub fn y_axis(&mut self, frame: &Frame, scale: &Scale, label: &str) {
        let ticks = scale.ticks(((frame.height / 50.0) as usize).clamp(2, 10));
        let mut widest: f64 = 0.0;
        for t in &ticks {
            let y = scale.at(*t);
            self.line(frame.left, y, frame.right(), y, "#e5e5e5", "");
            self.line(frame.left - 5.0, y, frame.left, y, "#333333", "");
            let s = number(*t);
            widest = widest.max(text_width(&s, FONT));
            self.text(frame.left - 8.0, y + 4.0, &s, "end", "");
        }
        self.left_rule(frame);
        let x = (frame.left - widest - 22.0).max(14.0);
        self.text_rotated(x, frame.top + frame.height / 2.0, label, "middle", -90.0);
    }

    /// The axis line along the left of `frame`.
    fn left_rule(&mut self, frame: &Frame) {
        let (x, top, bottom) = (frame.left, frame.top, frame.bottom());
        self.line(x, top, x, bottom, "#333333", "");
    }

    /// Category labels down the left of `frame`, one per row centre.
    pub fn y_categories(&mut self, frame: &Frame, labels: &[(String, f64)]) {
        for (s, y) in labels {
            let _ = write!(
                self.out,
                r#"<text x="{}" y="{}" text-anchor="end"><title>{}</title>{}</text>"#,
                px(frame.left - 8.0),
                px(y + 4.0),
                escape(s),
                escape(&shorten(s, LABEL_CHARS))
            );
        }
        self.left_rule(frame);
    }

    /// A legend: one entry per (label, marker kind, colour, dash) at
    /// (x, y), one per line.
    pub fn legend(&mut self, x: f64, y: f64, entries: &[LegendEntry]) {
        self.raw(r#"<g class="legend">"#);
        for (i, e) in entries.iter().enumerate() {
            let yy = y + i as f64 * 18.0;
            match e.mark {
                Mark::Marker(k, filled) => self.marker(k, x + 8.0, yy, 4.5, e.colour, filled, ""),
                Mark::Line(dash) => self.line(
                    x,
                    yy,
                    x + 18.0,
                    yy,
                    e.colour,
                    &format!(r#"stroke-width="2" stroke-dasharray="{dash}""#),
                ),
                Mark::Band => {
                    self.rect(x, yy - 6.0, 18.0, 12.0, e.colour, r#"fill-opacity="0.25""#)
                }
            }
            self.text(
                x + 24.0,
                yy + 4.0,
                &shorten(&e.label, LABEL_CHARS),
                "start",
                "",
            );
        }
        self.raw("</g>");
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Category labels longer than this are cut (the full text is the label's
/// `<title>` tooltip).
pub(crate) const LABEL_CHARS: usize = 28;

/// The width a legend needs.
pub(crate) fn legend_width(entries: &[LegendEntry]) -> f64 {
    entries
        .iter()
        .map(|e| 30.0 + text_width(&shorten(&e.label, LABEL_CHARS), FONT))
        .fold(0.0, f64::max)
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mark {
    Marker(usize, bool),
    Line(&'static str),
    Band,
}

/// One line of a legend.
#[derive(Debug, Clone)]
pub(crate) struct LegendEntry {
    pub label: String,
    pub colour: &'static str,
    pub mark: Mark,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        for (x, want) in [
            (0.412_345, "0.4123"),
            (12.0, "12"),
            (-0.25, "−0.25"),
            (1.5e-5, "1.5e-5"),
            (2_500_000.0, "2.5e6"),
            (1234.5678, "1235"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(number(x), want, "{x}");
        }
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r#"a<b & "c"'"#), "a&lt;b &amp; &quot;c&quot;&apos;");
        assert_eq!(escape("x\u{1}y"), "x\u{FFFD}y");
    }

    #[test]
    fn ticks_are_round_and_inside() {
        let s = Scale {
            lo: -0.13,
            hi: 0.87,
            from: 0.0,
            to: 100.0,
        };
        let t = s.ticks(5);
        assert!(t.iter().all(|v| (-0.13..=0.87).contains(v)));
        assert_eq!(
            t.iter().map(|v| number(*v)).collect::<Vec<_>>(),
            ["0", "0.2", "0.4", "0.6", "0.8"]
        );
        assert_eq!(s.at(-0.13), 0.0);
        assert!((s.at(0.87) - 100.0).abs() < 1e-12);
    }
}
