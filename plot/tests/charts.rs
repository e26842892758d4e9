//! Every chart is well-formed XML (parsed by roxmltree) that a renderer
//! draws (resvg: a non-empty canvas with painted pixels), its marks carry
//! exactly the input numbers, and the marks' positions are the numbers
//! mapped linearly (read back from the SVG: two marks fix the map, every
//! other mark must lie on it). Labels of 30 rows do not overlap.

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::Histogram;
use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable, friedman};
use adaptive_comp_metrics_plot::{
    Estimate, HistogramMarks, IntervalKey, IntervalRow, Labels, PlotError, Point, Series, bars,
    critical_difference, critical_difference_of, dot_whisker, forest, heat_map, histogram,
    intervals, lines, scatter, stack,
};
use roxmltree::{Document, Node};

fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    render(svg);
    doc
}

/// The `x,y x,y …` pairs of a node's attribute `attr`.
fn point_list(node: Node<'_, '_>, attr: &str) -> Vec<(f64, f64)> {
    node.attribute(attr)
        .unwrap()
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Renders `svg` with resvg: it must be a valid SVG document of positive
/// size on which something is drawn (at least two colours: marks on the
/// background).
fn render(svg: &str) {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("resvg cannot read it: {e}\n{svg}"));
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .unwrap_or_else(|| panic!("an empty canvas: {size:?}"));
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let pixels = pixmap.pixels();
    let first = pixels[0];
    assert!(
        pixels.iter().any(|p| *p != first),
        "nothing is drawn (one colour):\n{svg}"
    );
}

#[test]
#[should_panic(expected = "nothing is drawn")]
fn the_render_check_fails_on_a_blank_canvas() {
    render(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="white"/></svg>"#,
    );
}

fn num(n: &Node, attr: &str) -> f64 {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("no {attr} on {n:?}"))
        .parse()
        .unwrap()
}

fn marked<'a>(doc: &'a Document<'a>, attr: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_attribute(attr))
        .collect()
}

/// Pixel positions `p` of values `v` lie on one line p = a + b·v.
fn linear(v: &[f64], p: &[f64]) {
    assert!(v.len() >= 2 && v.len() == p.len());
    let (i, j) = (0..v.len())
        .flat_map(|i| (0..v.len()).map(move |j| (i, j)))
        .max_by(|a, b| (v[a.0] - v[a.1]).abs().total_cmp(&(v[b.0] - v[b.1]).abs()))
        .unwrap();
    let b = (p[j] - p[i]) / (v[j] - v[i]);
    for k in 0..v.len() {
        let expected = p[i] + b * (v[k] - v[i]);
        // Coordinates are written with two decimals.
        assert!(
            (p[k] - expected).abs() < 0.02,
            "value {} at {} but the map puts it at {expected}",
            v[k],
            p[k]
        );
    }
}

fn text_of(doc: &Document) -> String {
    doc.descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn a_histogram_draws_each_bin_where_its_edges_and_count_say() {
    let values: Vec<f64> = (0..999)
        .map(|i| ((i * 37 % 101) as f64 / 101.0 - 0.5) * 0.6)
        .collect();
    let h = Histogram::of(&values, 30).unwrap();
    let marks = HistogramMarks {
        observed: Some(0.41),
        p_value: Some(0.001),
        interval: Some((-0.2, 0.25)),
    };
    let svg = histogram(
        &h,
        &marks,
        &Labels::new("ρ_w <null> & observed", "ρ_w", "permutations (count)"),
    )
    .unwrap();
    let doc = parse(&svg);
    let bins = marked(&doc, "data-count");
    assert_eq!(bins.len(), 30);
    let counts: Vec<u64> = bins.iter().map(|n| num(n, "data-count") as u64).collect();
    assert_eq!(counts, h.counts);
    let lowers: Vec<f64> = bins.iter().map(|n| num(n, "data-lower")).collect();
    assert_eq!(lowers, h.edges[..30]);
    // x of each bar is its lower edge mapped; heights are the counts mapped.
    linear(
        &lowers,
        &bins.iter().map(|n| num(n, "x")).collect::<Vec<_>>(),
    );
    let heights: Vec<f64> = bins.iter().map(|n| num(n, "height")).collect();
    let c: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    linear(&c, &heights);
    let observed = marked(&doc, "data-value");
    assert_eq!(observed.len(), 1);
    assert_eq!(num(&observed[0], "data-value"), 0.41);
    let band = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("interval"))
        .unwrap();
    assert_eq!(
        (num(&band, "data-lower"), num(&band, "data-upper")),
        (-0.2, 0.25)
    );
    // The observed line sits on the bins' map.
    let mut xs = lowers.clone();
    xs.push(0.41);
    let mut ps: Vec<f64> = bins.iter().map(|n| num(n, "x")).collect();
    ps.push(num(&observed[0], "x1"));
    linear(&xs, &ps);
    let text = text_of(&doc);
    assert!(
        text.contains("ρ_w <null> & observed"),
        "title escaped and read back"
    );
    assert!(text.contains("observed 0.41 (p = 0.001)"));
    assert!(text.contains("interval [−0.2, 0.25]"));
}

#[test]
fn a_dot_whisker_chart_carries_every_estimate_and_interval() {
    let mut est = Vec::new();
    for b in 0..20 {
        for m in 0..3 {
            let v = 0.1 + 0.04 * b as f64 + 0.05 * m as f64;
            est.push(Estimate {
                row: format!("benchmark number {b} with a long name"),
                series: format!("model-{m}"),
                value: v,
                interval: Some((v - 0.05, v + 0.03)),
            });
        }
    }
    let svg = dot_whisker(
        &est,
        &Labels::new("ρ per benchmark", "Spearman's ρ", "benchmark"),
    )
    .unwrap();
    let doc = parse(&svg);
    let dots = marked(&doc, "data-series");
    assert_eq!(dots.len(), 60);
    for (d, e) in dots.iter().zip(&est) {
        assert_eq!(num(d, "data-value"), e.value);
        assert_eq!(
            (num(d, "data-lower"), num(d, "data-upper")),
            e.interval.unwrap()
        );
        assert_eq!(d.attribute("data-row"), Some(e.row.as_str()));
    }
    // Circles (model-0) are placed by a single map.
    let circles: Vec<&Node> = dots
        .iter()
        .filter(|d| d.tag_name().name() == "circle")
        .collect();
    assert_eq!(circles.len(), 20);
    linear(
        &circles
            .iter()
            .map(|d| num(d, "data-value"))
            .collect::<Vec<_>>(),
        &circles.iter().map(|d| num(d, "cx")).collect::<Vec<_>>(),
    );
    no_overlapping_row_labels(&doc);
}

/// Row labels (`text-anchor="end"` with a `<title>` child) are at least a
/// text height apart.
fn no_overlapping_row_labels(doc: &Document) {
    let mut ys: Vec<f64> = doc
        .descendants()
        .filter(|n| {
            n.tag_name().name() == "text" && n.children().any(|c| c.tag_name().name() == "title")
        })
        .map(|n| num(&n, "y"))
        .collect();
    assert!(ys.len() >= 2);
    ys.sort_by(f64::total_cmp);
    assert!(ys.windows(2).all(|w| w[1] - w[0] >= 14.0), "{ys:?}");
}

#[test]
fn a_scatter_places_every_point_and_emphasises_the_top() {
    let pts: Vec<Point> = (0..200)
        .map(|i| Point {
            x: f64::from(i) / 20.0,
            y: (f64::from(i) * 0.7).sin(),
            emphasised: i >= 190,
        })
        .collect();
    let svg = scatter(
        &pts,
        "top 10 by human score",
        "others",
        &Labels::new("SimLex: human vs model", "human (0–10)", "cosine"),
    )
    .unwrap();
    let doc = parse(&svg);
    let marks = marked(&doc, "data-x");
    assert_eq!(marks.len(), 200);
    let top = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("emphasised"))
        .unwrap();
    assert_eq!(
        top.children().filter(|n| n.has_attribute("data-x")).count(),
        10
    );
    let circles: Vec<&Node> = marks
        .iter()
        .filter(|n| n.tag_name().name() == "circle")
        .collect();
    linear(
        &circles.iter().map(|n| num(n, "data-x")).collect::<Vec<_>>(),
        &circles.iter().map(|n| num(n, "cx")).collect::<Vec<_>>(),
    );
    linear(
        &circles.iter().map(|n| num(n, "data-y")).collect::<Vec<_>>(),
        &circles.iter().map(|n| num(n, "cy")).collect::<Vec<_>>(),
    );
    let mut back: Vec<(f64, f64)> = marks
        .iter()
        .map(|n| (num(n, "data-x"), num(n, "data-y")))
        .collect();
    let mut given: Vec<(f64, f64)> = pts.iter().map(|p| (p.x, p.y)).collect();
    back.sort_by(|a, b| a.0.total_cmp(&b.0));
    given.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(back, given);
}

#[test]
fn a_forest_plot_shows_each_pair_of_a_comparison() {
    let table = ScoreTable::from_columns(&[
        ("bm25", [0.31, 0.45, 0.12, 0.60, 0.25, 0.33, 0.48, 0.05]),
        ("dense", [0.52, 0.61, 0.30, 0.71, 0.41, 0.55, 0.66, 0.20]),
        ("hybrid", [0.50, 0.63, 0.29, 0.75, 0.44, 0.52, 0.70, 0.22]),
    ])
    .unwrap();
    let c = Compare::new().units_seeded(&table, 7).unwrap();
    let svg = forest(&c, "AP").unwrap();
    let doc = parse(&svg);
    let rows = marked(&doc, "data-label");
    assert_eq!(rows.len(), c.pairs.len());
    for (r, p) in rows.iter().zip(&c.pairs) {
        assert_eq!(num(r, "data-value"), p.difference);
        let b = p.interval.unwrap();
        assert_eq!(
            (num(r, "data-lower"), num(r, "data-upper")),
            (b.lower, b.upper)
        );
        // Filled (significant) or open.
        let filled = r.attribute("fill") != Some("#ffffff");
        assert_eq!(filled, p.reject);
    }
    assert_eq!(rows[0].attribute("data-label"), Some("bm25 − dense"));
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("guide"))
    );
}

#[test]
fn references_and_error_bars_read_back() {
    let rows: Vec<IntervalRow> = (0..30)
        .map(|i| IntervalRow {
            label: format!("cell {i}"),
            value: f64::from(i) / 30.0,
            interval: Some((f64::from(i) / 30.0 - 0.02, f64::from(i) / 30.0 + 0.02)),
            reference: Some(f64::from(i) / 30.0 + 0.01),
            emphasised: false,
        })
        .collect();
    let key = IntervalKey {
        plain: "simulated".into(),
        reference: "paper".into(),
        ..IntervalKey::default()
    };
    let svg = intervals(&rows, &key, &Labels::new("Table 2", "ρ_w", "")).unwrap();
    let doc = parse(&svg);
    let refs: Vec<f64> = marked(&doc, "data-reference")
        .iter()
        .map(|n| num(n, "data-reference"))
        .collect();
    assert_eq!(
        refs,
        rows.iter()
            .map(|r| r.reference.unwrap())
            .collect::<Vec<_>>()
    );
    no_overlapping_row_labels(&doc);
}

#[test]
fn a_critical_difference_diagram_places_systems_by_average_rank() {
    let table = ScoreTable::from_columns(&[
        ("a", [0.9, 0.8, 0.7, 0.9, 0.8, 0.85]),
        ("b", [0.5, 0.6, 0.4, 0.3, 0.55, 0.5]),
        ("c", [0.1, 0.2, 0.5, 0.2, 0.3, 0.15]),
        ("d", [0.45, 0.65, 0.35, 0.5, 0.5, 0.52]),
    ])
    .unwrap();
    let f = friedman(&table, Order::LargerIsBetter, 0.05).unwrap();
    let svg = critical_difference_of(&f, "accuracy").unwrap();
    let doc = parse(&svg);
    let systems = marked(&doc, "data-rank");
    assert_eq!(systems.len(), 4);
    let mut ranks = Vec::new();
    let mut xs = Vec::new();
    for s in &systems {
        let i = f
            .systems
            .iter()
            .position(|n| Some(n.as_str()) == s.attribute("data-system"))
            .unwrap();
        assert_eq!(num(s, "data-rank"), f.average_ranks[i]);
        ranks.push(f.average_ranks[i]);
        // The first child is the drop line from the axis at the rank.
        xs.push(num(&s.first_element_child().unwrap(), "x1"));
    }
    linear(&ranks, &xs);
    let cd = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("cd"))
        .unwrap();
    assert_eq!(num(&cd, "data-cd"), f.critical_difference);
    // The CD bar is as long as cd ranks on the same map.
    let per_rank = (xs[1] - xs[0]) / (ranks[1] - ranks[0]);
    assert!(((num(&cd, "x2") - num(&cd, "x1")) - per_rank * f.critical_difference).abs() < 0.05);
    let groups = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("group"))
        .count();
    assert_eq!(groups, f.groups.iter().filter(|g| g.len() > 1).count());
}

#[test]
fn many_systems_in_a_cd_diagram_do_not_share_a_label_row() {
    let names: Vec<String> = (0..30).map(|i| format!("system-{i:02}")).collect();
    let ranks: Vec<f64> = (0..30).map(|i| 1.0 + f64::from(i) * 29.0 / 29.0).collect();
    let svg = critical_difference(&names, &ranks, 5.0, &[], "30 systems").unwrap();
    let doc = parse(&svg);
    let mut left = Vec::new();
    let mut right = Vec::new();
    for t in doc.descendants().filter(|n| {
        n.tag_name().name() == "text"
            && n.parent().and_then(|p| p.attribute("class")) == Some("system")
    }) {
        let y = num(&t, "y");
        if t.attribute("text-anchor") == Some("end") {
            left.push(y)
        } else {
            right.push(y)
        }
    }
    for mut side in [left, right] {
        side.sort_by(f64::total_cmp);
        assert_eq!(side.len(), 15);
        assert!(side.windows(2).all(|w| w[1] - w[0] >= 14.0));
    }
}

#[test]
fn lines_heat_maps_and_bars_carry_their_numbers() {
    let s = Series {
        name: "n = 10".into(),
        points: (0..=20)
            .map(|i| {
                (
                    f64::from(i) / 10.0 - 1.0,
                    (f64::from(i) / 10.0 - 1.0).powi(3),
                )
            })
            .collect(),
    };
    let svg = lines(
        std::slice::from_ref(&s),
        true,
        &Labels::new("map", "raw", "standardised"),
    )
    .unwrap();
    let doc = parse(&svg);
    let line = doc
        .descendants()
        .find(|n| n.tag_name().name() == "polyline")
        .unwrap();
    assert_eq!(point_list(line, "data-points"), s.points);
    let pix = point_list(line, "points");
    linear(
        &s.points.iter().map(|p| p.0).collect::<Vec<_>>(),
        &pix.iter().map(|p| p.0).collect::<Vec<_>>(),
    );
    linear(
        &s.points.iter().map(|p| p.1).collect::<Vec<_>>(),
        &pix.iter().map(|p| p.1).collect::<Vec<_>>(),
    );

    let rows: Vec<String> = (0..20).map(|i| format!("accuracy {i}")).collect();
    let cols: Vec<String> = (0..30).map(|j| format!("n = {}", 10 * (j + 1))).collect();
    let values: Vec<Option<f64>> = (0..600)
        .map(|k| {
            if k == 7 {
                None
            } else {
                Some(f64::from(k) / 600.0)
            }
        })
        .collect();
    let svg = heat_map(
        &rows,
        &cols,
        &values,
        &Labels::new("sweep", "items", "accuracy"),
    )
    .unwrap();
    let doc = parse(&svg);
    let cells = marked(&doc, "data-column");
    assert_eq!(cells.len(), 600);
    for (c, v) in cells.iter().zip(&values) {
        assert_eq!(
            c.attribute("data-value").map(|s| s.parse::<f64>().unwrap()),
            *v
        );
    }
    no_overlapping_row_labels(&doc);

    let b: Vec<(String, f64)> = (0..30)
        .map(|i| (format!("w{i}"), f64::from(i % 7) / 6.0))
        .collect();
    let svg = bars(&b, &Labels::new("accuracy", "share correct", "worker")).unwrap();
    let doc = parse(&svg);
    let marks = marked(&doc, "data-value");
    assert_eq!(
        marks
            .iter()
            .map(|n| num(n, "data-value"))
            .collect::<Vec<_>>(),
        b.iter().map(|x| x.1).collect::<Vec<_>>()
    );
    linear(
        &b.iter().map(|x| x.1).collect::<Vec<_>>(),
        &marks.iter().map(|n| num(n, "width")).collect::<Vec<_>>(),
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let l = Labels::default();
    assert_eq!(
        dot_whisker(&[], &l),
        Err(PlotError::Empty {
            chart: "dot-and-whisker"
        })
    );
    let p = Point {
        x: f64::NAN,
        y: 0.0,
        emphasised: false,
    };
    assert_eq!(
        scatter(&[p], "", "", &l).unwrap_err().to_string(),
        "scatter: x values 1 is not finite"
    );
    let row = IntervalRow {
        label: "r".into(),
        value: 0.0,
        interval: Some((1.0, -1.0)),
        reference: None,
        emphasised: false,
    };
    assert_eq!(
        intervals(&[row], &IntervalKey::default(), &l),
        Err(PlotError::BadInterval {
            chart: "intervals",
            index: 0
        })
    );
    assert!(matches!(
        heat_map(&["a".into()], &["b".into()], &[], &l),
        Err(PlotError::Mismatch {
            expected: 1,
            got: 0,
            ..
        })
    ));
    assert!(matches!(
        critical_difference(&["a".into(), "b".into()], &[1.0], 1.0, &[], ""),
        Err(PlotError::Mismatch { .. })
    ));
    let b: Vec<(String, f64)> = (0..501).map(|i| (i.to_string(), 1.0)).collect();
    assert!(matches!(
        bars(&b, &l),
        Err(PlotError::TooLarge {
            limit: 500,
            got: 501,
            ..
        })
    ));
}

#[test]
fn stacked_charts_keep_their_marks_one_under_the_other() {
    let a = bars(
        &[("w1".into(), 0.9)],
        &Labels::new("accuracy", "accuracy", ""),
    )
    .unwrap();
    let b = bars(
        &[("b1".into(), 3.0), ("b2".into(), 5.0)],
        &Labels::new("votes", "votes", ""),
    )
    .unwrap();
    // One chart is itself.
    assert_eq!(stack(std::slice::from_ref(&a), "t").unwrap(), a);
    let svg = stack(&[a.clone(), b.clone()], "a campaign").unwrap();
    let doc = parse(&svg);
    let panels: Vec<Node> = doc
        .root_element()
        .children()
        .filter(|n| n.tag_name().name() == "svg")
        .collect();
    assert_eq!(panels.len(), 2);
    assert_eq!(num(&panels[0], "y"), 36.0);
    assert_eq!(num(&panels[1], "y"), 36.0 + num(&panels[0], "height"));
    assert_eq!(
        num(&doc.root_element(), "height"),
        36.0 + num(&panels[0], "height") + num(&panels[1], "height")
    );
    assert_eq!(
        marked(&doc, "data-value")
            .iter()
            .map(|n| num(n, "data-value"))
            .collect::<Vec<_>>(),
        [0.9, 3.0, 5.0]
    );
    assert!(text_of(&doc).contains("a campaign"));
    assert_eq!(stack(&[], "t"), Err(PlotError::Empty { chart: "stack" }));
    assert!(matches!(
        stack(&[a, "<g/>".into()], ""),
        Err(PlotError::Mismatch { got: 1, .. })
    ));
}

#[test]
fn long_titles_widen_the_canvas_and_long_y_labels_stay_below_the_title() {
    let title = "a long title that says what is compared, wider than three cells";
    let subtitle = "and a subtitle with the settings, the sizes and the seed of the run";
    let y = "a vertical label longer than the grid is high";
    let svg = heat_map(
        &["r1".into(), "r2".into()],
        &["c1".into()],
        &[Some(0.1), Some(0.2)],
        &Labels::new(title, "x", y).subtitle(subtitle),
    )
    .unwrap();
    let doc = parse(&svg);
    // Text is about 0.6 em a character: the title (16 px) and subtitle fit.
    let width = num(&doc.root_element(), "width");
    assert!(
        width >= title.chars().count() as f64 * 16.0 * 0.6 + 32.0,
        "{width}"
    );
    assert!(
        width >= subtitle.chars().count() as f64 * 13.0 * 0.6 + 32.0,
        "{width}"
    );
    let label = doc
        .descendants()
        .find(|n| n.text() == Some(y))
        .expect("the y label");
    let first_cell = marked(&doc, "data-row")[0];
    let top = num(&first_cell, "y");
    let half = y.chars().count() as f64 * 13.0 * 0.6 / 2.0;
    assert!(num(&label, "y") - half >= top - 0.01, "{svg}");
}
