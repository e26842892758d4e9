//! `--plot` of every command: the SVG parses (roxmltree, as the plot
//! crate's own tests), its marks carry the numbers the command printed
//! (`data-*` attributes read back and compared with the JSON report), the
//! report is the same with and without the plot, and a bad path, an
//! unknown extension or a plot with nothing to draw is a clear error that
//! writes nothing. (`acm corr --plot` is tested in `corr.rs`.)

use roxmltree::{Document, Node};
use serde_json::Value;

use crate::common::{Scratch, data, fails, ok, says};

/// The SVG at `path`, its text and its document: well-formed, its root
/// `<svg>` (the text is kept for the rest of the test run).
fn read_svg(path: &str) -> (&'static str, Document<'static>) {
    let svg = String::leak(std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")));
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("{path}: not well-formed: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    (svg, doc)
}

/// The nodes under `node` that carry the attribute `attr`.
fn marked<'a>(node: Node<'a, 'a>, attr: &str) -> Vec<Node<'a, 'a>> {
    node.descendants()
        .filter(|n| n.has_attribute(attr))
        .collect()
}

fn num(n: &Node, attr: &str) -> f64 {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("no {attr} on {n:?}"))
        .parse()
        .unwrap()
}

/// Every labelled mark under `node`: its `data-label` and `data-value`.
fn labelled_values(node: Node) -> Vec<(String, f64)> {
    marked(node, "data-label")
        .into_iter()
        .map(|n| {
            (
                n.attribute("data-label").unwrap().to_owned(),
                num(&n, "data-value"),
            )
        })
        .collect()
}

/// The nested panels of a stacked document (none for a single chart).
fn panels<'a>(doc: &'a Document<'a>) -> Vec<Node<'a, 'a>> {
    doc.root_element()
        .children()
        .filter(|n| n.tag_name().name() == "svg")
        .collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The files left in a scratch directory, sorted.
fn left(dir: &Scratch) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `args` run twice as JSON, without and with `plot_args`: the reports
/// are the same; returns the report.
fn same_report(args: &[&str], plot_args: &[&str]) -> Value {
    let plain = ok(&[args, &["--format", "json"]].concat());
    let with_plot = ok(&[args, plot_args, &["--format", "json"]].concat());
    assert_eq!(plain, with_plot, "the plot changed the report");
    serde_json::from_str(&plain).unwrap()
}

/// The forest plot of `comparison` (JSON) in `panel`: one row per pair,
/// its difference, interval and rejection.
fn forest_matches(panel: Node, comparison: &Value) {
    let rows = marked(panel, "data-label");
    let pairs = comparison["pairs"].as_array().unwrap();
    assert_eq!(rows.len(), pairs.len());
    let systems = comparison["systems"].as_array().unwrap();
    for (row, p) in rows.iter().zip(pairs) {
        let name = |k: &str| {
            systems[p[k].as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap()
        };
        assert_eq!(
            row.attribute("data-label").unwrap(),
            format!("{} − {}", name("a"), name("b"))
        );
        assert_eq!(num(row, "data-value"), f(&p["difference"]));
        assert_eq!(num(row, "data-lower"), f(&p["interval"]["lower"]));
        assert_eq!(num(row, "data-upper"), f(&p["interval"]["upper"]));
        // Filled where the correction rejects, open otherwise.
        let filled = row.attribute("fill") != Some("#ffffff");
        assert_eq!(filled, p["reject"].as_bool().unwrap(), "{row:?}");
    }
}

/// The critical-difference diagram of `test` (JSON) in `panel`.
fn cd_matches(panel: Node, test: &Value) {
    let systems = marked(panel, "data-rank");
    let names = test["systems"].as_array().unwrap();
    let ranks = test["average_ranks"].as_array().unwrap();
    assert_eq!(systems.len(), names.len());
    for s in &systems {
        let i = names
            .iter()
            .position(|n| n.as_str() == s.attribute("data-system"))
            .unwrap();
        assert_eq!(num(s, "data-rank"), f(&ranks[i]));
    }
    let cd = marked(panel, "data-cd");
    assert_eq!(cd.len(), 1);
    assert_eq!(num(&cd[0], "data-cd"), f(&test["critical_difference"]));
}

#[test]
fn compare_table_draws_the_forest_and_the_critical_difference_diagram() {
    let s = Scratch::new("plot-compare-table");
    let csv = s.file(
        "board.csv",
        "task,m1,m2,m3\nt1,0.9,0.8,0.7\nt2,0.85,0.8,0.6\nt3,0.7,0.75,0.5\nt4,0.95,0.9,0.8\n\
         t5,0.6,0.5,0.4\nt6,0.8,0.7,0.75\n",
    );
    let (forest, cd) = (s.p("forest.svg"), s.p("cd.svg"));
    let args = ["compare", "table", &csv, "--unit", "task", "--test", "t"];
    let doc = same_report(&args, &["--plot", &forest, "--plot-cd", &cd]);
    let (svg, parsed) = read_svg(&forest);
    // One comparison: one chart, no panels.
    assert!(panels(&parsed).is_empty());
    assert_eq!(
        parsed.root_element().attribute("data-chart"),
        Some("intervals")
    );
    let comparison = &doc["comparisons"][0]["comparison"];
    forest_matches(parsed.root_element(), comparison);
    // Some pair differs after Holm and some does not: both marks appear.
    let rejects: Vec<bool> = comparison["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["reject"].as_bool().unwrap())
        .collect();
    assert!(rejects.contains(&true), "{rejects:?}");
    says(svg, "board.csv: differences between systems");
    assert!(svg.contains("difference in board.csv (a − b), 95% interval"));
    let (svg, parsed) = read_svg(&cd);
    cd_matches(parsed.root_element(), &doc["friedman"][0]["test"]);
    says(svg, "3 systems ranked on 6 benchmarks");
    assert_eq!(left(&s), ["board.csv", "cd.svg", "forest.svg"]);
}

#[test]
fn compare_trec_stacks_one_forest_per_measure() {
    let s = Scratch::new("plot-compare-trec");
    let q = data("tests/data/relevance/trec.qrels");
    let runs = [
        data("tests/data/relevance/trec.run"),
        data("tests/data/compare/cmp_b.run"),
        data("tests/data/compare/cmp_c.run"),
    ];
    let out = s.p("trec.svg");
    let args = [
        "compare", "trec", &q, &runs[0], &runs[1], &runs[2], "-m", "AP", "-m", "nDCG@10", "--test",
        "t",
    ];
    let doc = same_report(&args, &["--plot", &out]);
    let (svg, parsed) = read_svg(&out);
    let p = panels(&parsed);
    assert_eq!(p.len(), 2);
    for (panel, c) in p.iter().zip(doc["comparisons"].as_array().unwrap()) {
        forest_matches(*panel, &c["comparison"]);
        let measure = c["measure"].as_str().unwrap();
        assert!(
            panel
                .descendants()
                .any(|n| n.text() == Some(&format!("{measure}: differences between systems"))),
            "{measure}"
        );
    }
    // Panels are stacked, not drawn over each other.
    let y: Vec<f64> = p.iter().map(|n| num(n, "y")).collect();
    assert!(y[1] >= y[0] + num(&p[0], "height"), "{y:?}");
    assert!(svg.contains("differences between systems: 2 panels"));
    // No Friedman test over queries: a critical-difference diagram has
    // nothing to draw, said before any work, nothing written.
    let err = fails(&[&args[..], &["--plot-cd", &s.p("cd.svg")]].concat(), 2);
    says(
        &err,
        "acm compare --plot: nothing to draw without Friedman's test",
    );
    assert_eq!(left(&s), ["trec.svg"]);
}

#[test]
fn compare_wordsim_draws_a_cd_diagram_per_coefficient() {
    let s = Scratch::new("plot-compare-wordsim");
    let mut args = crate::compare::wordsim_args(&s);
    args.extend(["-k", "rho", "-k", "rho-w", "--replicates", "300"].map(String::from));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (forest, cd) = (s.p("forest.svg"), s.p("cd.svg"));
    let doc = same_report(&argv, &["--plot", &forest, "--plot-cd", &cd]);
    let (_, parsed) = read_svg(&cd);
    let p = panels(&parsed);
    assert_eq!(p.len(), 2);
    for (panel, fr) in p.iter().zip(doc["friedman"].as_array().unwrap()) {
        cd_matches(*panel, &fr["test"]);
    }
    let (_, parsed) = read_svg(&forest);
    let p = panels(&parsed);
    assert_eq!(p.len(), 6);
    for (panel, c) in p.iter().zip(doc["comparisons"].as_array().unwrap()) {
        forest_matches(*panel, &c["comparison"]);
    }
    // One benchmark: no Friedman test, nothing for --plot-cd to draw.
    let one: Vec<&str> = argv
        .iter()
        .copied()
        .filter(|a| !a.ends_with("bench1.tsv") && !a.ends_with("bench2.tsv"))
        .collect();
    let err = fails(&[&one[..], &["--plot-cd", &s.p("x.svg")]].concat(), 2);
    says(&err, "nothing to draw without Friedman's test");
    assert!(!left(&s).contains(&"x.svg".to_owned()));
}

#[test]
fn compare_plot_paths_are_checked_before_any_work() {
    let (s, [csv]) = Scratch::with([("board.csv", "m1,m2\n0.9,0.8\n0.85,0.8\n0.7,0.75\n")]);
    let base = ["compare", "table", &csv];
    let err = fails(&[&base[..], &["--plot", &s.p("x.png")]].concat(), 2);
    says(&err, "PNG is not offered");
    let err = fails(&[&base[..], &["--plot-cd", &s.p("x.pdf")]].concat(), 2);
    says(&err, "unknown extension");
    let err = fails(&[&base[..], &["--plot", &s.p("no/dir/x.svg")]].concat(), 1);
    says(&err, "its directory does not exist");
    // A dir where the file should be.
    let err = fails(
        &[&base[..], &["--plot", &s.0.to_string_lossy()]].concat(),
        2,
    );
    says(&err, "unknown extension");
    assert_eq!(left(&s), ["board.csv"]);
    // A bad table is reported as before, and no plot is written.
    let bad = s.file("bad.csv", "m1,m2\n0.9,x\n");
    fails(&["compare", "table", &bad, "--plot", &s.p("y.svg")], 1);
    assert_eq!(left(&s), ["bad.csv", "board.csv"]);
}

/// `acm wordsim` on the two sample models and two benchmarks, plus `extra`.
fn wordsim(extra: &[&str]) -> Vec<String> {
    let mut args = crate::wordsim::sample_of(2);
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

#[test]
fn wordsim_draws_each_coefficient_with_its_interval_and_the_scatter() {
    let s = Scratch::new("plot-wordsim");
    let (est, sc) = (s.p("models.svg"), s.p("pairs.svg"));
    let args = wordsim(&["--bootstrap", "200", "--seed", "5"]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let doc = same_report(&argv, &["--plot", &est, "--plot-scatter", &sc]);
    let reports = doc["reports"].as_array().unwrap();
    let intervals: Vec<&Value> = doc["uncertainty"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u.get("resamples").is_some())
        .collect();
    assert_eq!(reports.len(), 4);
    assert_eq!(intervals.len(), 4);
    let (_, parsed) = read_svg(&est);
    let p = panels(&parsed);
    assert_eq!(p.len(), 5);
    // Panel by panel (r, ρ, τ-b, ρ_w, τ_w), each model's dot on each
    // benchmark is the report's value and its whisker the interval.
    let keys = [
        ("pearson", "r"),
        ("spearman", "rho"),
        ("kendall", "tau_b"),
        ("rho_w", "rho_w"),
        ("tau_w", "tau_w"),
    ];
    for (panel, (key, field)) in p.iter().zip(keys) {
        let dots = marked(*panel, "data-series");
        assert_eq!(dots.len(), 4, "{key}");
        for dot in dots {
            let (model, bench) = (
                dot.attribute("data-series").unwrap(),
                dot.attribute("data-row").unwrap(),
            );
            let find = |rows: &[&Value]| -> Value {
                (*rows
                    .iter()
                    .find(|r| r["model"] == model && r["benchmark"] == bench)
                    .unwrap())
                .clone()
            };
            let report = find(&reports.iter().collect::<Vec<_>>());
            assert_eq!(num(&dot, "data-value"), f(&report[key][field]), "{key}");
            let iv = find(&intervals);
            assert_eq!(num(&dot, "data-lower"), f(&iv[key][0]), "{key}");
            assert_eq!(num(&dot, "data-upper"), f(&iv[key][1]), "{key}");
        }
    }
    // The scatter: a panel per model and benchmark, every scored pair a
    // point, the 10 with the highest human scores emphasised.
    let (_, parsed) = read_svg(&sc);
    let p = panels(&parsed);
    assert_eq!(p.len(), 4);
    for (panel, r) in p.iter().zip(reports) {
        let points = marked(*panel, "data-x");
        assert_eq!(points.len() as u64, r["scored"].as_u64().unwrap());
        let top: Vec<f64> = panel
            .descendants()
            .filter(|n| n.attribute("class") == Some("emphasised"))
            .flat_map(|g| g.children().map(|n| num(&n, "data-x")).collect::<Vec<_>>())
            .collect();
        assert_eq!(top.len(), 10);
        let mut xs: Vec<f64> = points.iter().map(|n| num(n, "data-x")).collect();
        xs.sort_by(|a, b| b.total_cmp(a));
        let (mut got, want) = (top.clone(), &xs[..10]);
        got.sort_by(|a, b| b.total_cmp(a));
        assert_eq!(got, want);
        let title = format!(
            "{} on {}: human against model scores",
            r["model"].as_str().unwrap(),
            r["benchmark"].as_str().unwrap()
        );
        assert!(
            panel.descendants().any(|n| n.text() == Some(&title)),
            "{title}"
        );
    }
    // Without --bootstrap the dots stand alone.
    let plain = s.p("plain.svg");
    let args = wordsim(&["--plot", &plain]);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (svg, _) = read_svg(&plain);
    assert!(!svg.contains("data-lower"));
    assert!(svg.contains("no intervals (ask for them with --bootstrap N)"));
    // Bad paths: nothing read, nothing written.
    for (flag, file, code, needle) in [
        ("--plot", "x.png", 2, "PNG is not offered"),
        ("--plot-scatter", "x.txt", 2, "unknown extension"),
        ("--plot", "no/dir/x.svg", 1, "its directory does not exist"),
    ] {
        let args = wordsim(&[flag, &s.p(file)]);
        let err = fails(&args.iter().map(String::as_str).collect::<Vec<_>>(), code);
        says(&err, needle);
    }
    assert_eq!(left(&s), ["models.svg", "pairs.svg", "plain.svg"]);
}

#[test]
fn standardise_draws_the_map_of_its_moments() {
    use adaptive_comp_metrics::Standardiser;
    let s = Scratch::new("plot-standardise");
    let map = s.p("map.svg");
    let args = [
        "standardise",
        "moments",
        "--n",
        "50",
        "--coefficient",
        "tau",
    ];
    let m = same_report(&args, &["--plot", &map]);
    let g = Standardiser::from_moments(
        f(&m["mean"]["value"]),
        f(&m["variance"]["value"]),
        f(&m["left_variance"]["value"]),
    )
    .unwrap();
    let (svg, parsed) = read_svg(&map);
    let lines = marked(parsed.root(), "data-points");
    assert_eq!(lines.len(), 1);
    let points: Vec<(f64, f64)> = lines[0]
        .attribute("data-points")
        .unwrap()
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    // 201 points 0.01 apart from −1 to 1, and the null mean where the
    // pieces join; each the library's g of its x.
    assert_eq!(points.len(), 202);
    assert_eq!(points[0], (-1.0, -1.0));
    assert_eq!(points[201], (1.0, 1.0));
    let mean = f(&m["mean"]["value"]);
    assert!(points.iter().any(|p| p.0 == mean));
    for w in points.windows(2) {
        assert!(w[0].0 < w[1].0 && w[0].1 <= w[1].1, "{w:?}");
    }
    for (x, y) in &points {
        assert_eq!(*y, g.standardised(*x).unwrap(), "g({x})");
    }
    assert!(svg.contains("τ_w: raw against standardised values for n = 50"));
    assert!(svg.contains(r#"class="identity""#));
    let err = fails(&[&args[..], &["--plot", &s.p("map.jpg")]].concat(), 2);
    says(&err, "unknown extension");
    assert_eq!(left(&s), ["map.svg"]);
}

#[test]
fn simulate_table2_draws_block_a_against_the_paper() {
    let s = Scratch::new("plot-table2");
    let out = s.p("table2.svg");
    let args = ["simulate", "table2", "--simulations", "2"];
    let doc = same_report(&args, &["--plot", &out]);
    let cells: Vec<&Value> = doc["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["block"] == "as_published")
        .collect();
    assert_eq!(cells.len(), 24);
    let (svg, parsed) = read_svg(&out);
    let p = panels(&parsed);
    assert_eq!(p.len(), 4);
    for (panel, metric) in p.iter().zip(["rho_w", "tau_w", "rho", "tau"]) {
        let rows = marked(*panel, "data-label");
        let refs: Vec<f64> = marked(*panel, "data-reference")
            .iter()
            .map(|n| num(n, "data-reference"))
            .collect();
        let want: Vec<&&Value> = cells.iter().filter(|c| c["metric"] == metric).collect();
        assert_eq!(rows.len(), 6, "{metric}");
        for ((row, c), r) in rows.iter().zip(&want).zip(&refs) {
            assert_eq!(
                row.attribute("data-label").unwrap(),
                format!(
                    "{}, {}",
                    c["distribution"].as_str().unwrap(),
                    c["approach"].as_str().unwrap()
                )
            );
            let (mean, sd) = (f(&c["mean"]), f(&c["sd"]));
            assert_eq!(num(row, "data-value"), mean);
            assert_eq!(num(row, "data-lower"), mean - sd);
            assert_eq!(num(row, "data-upper"), mean + sd);
            assert_eq!(*r, f(&c["paper_mean"]));
            let within = c["z"].as_f64().is_some_and(|z| z.abs() <= 3.0);
            assert_eq!(row.attribute("fill") != Some("#ffffff"), within);
        }
    }
    assert!(svg.contains("Table 2 of Lombardo et al. (2020) reproduced"));
    says(svg, ">the paper&apos;s mean<");
}

#[test]
fn simulate_sweep_draws_a_heat_map_with_skipped_points_empty() {
    let s = Scratch::new("plot-sweep");
    let out = s.p("sweep.svg");
    let args = [
        "simulate",
        "sweep",
        "--budget",
        "2000",
        "--alpha",
        "0.3,0.5",
        "--ballots",
        "3,5",
        "--items",
        "100",
        "--simulations",
        "2",
    ];
    let doc = same_report(&args, &["--plot", &out]);
    let (svg, parsed) = read_svg(&out);
    let cells = marked(parsed.root(), "data-column");
    assert_eq!(cells.len(), 4);
    let points = doc["points"].as_array().unwrap();
    let skipped = doc["skipped"].as_array().unwrap();
    assert_eq!(points.len() + skipped.len(), 4);
    assert!(!skipped.is_empty(), "the test wants a skipped point");
    for c in cells {
        let (row, column) = (
            c.attribute("data-row").unwrap(),
            c.attribute("data-column").unwrap(),
        );
        let point = points.iter().find(|p| {
            format!("α = {}", p["alpha"]) == row && format!("n_b = {}", p["n_b"]) == column
        });
        match point {
            Some(p) => assert_eq!(num(&c, "data-value"), f(&p["mean"])),
            None => {
                assert!(!c.has_attribute("data-value"), "{row} {column}");
                assert!(skipped.iter().any(|k| format!("α = {}", k["alpha"]) == row));
            }
        }
    }
    says(svg, "ρ_w of the adaptive collection over α × n_b");
    let err = fails(&[&args[..], &["--plot", &s.p("a/b.svg")]].concat(), 1);
    says(&err, "its directory does not exist");
    assert_eq!(left(&s), ["sweep.svg"]);
}

#[test]
fn campaign_status_and_rank_draw_votes_accuracy_and_the_fitted_ranking() {
    use adaptive_comp_metrics::pairwise::{BradleyTerry, CampaignVotes, Comparisons, Inference};

    use crate::campaign_inputs::{Fixture, answers_by, contains, fails as fails_in, ok as run_in};
    let fx = Fixture::new("plot-campaign");
    let state = fx.p("s.json");
    let who = |k: usize, _| Some(["alice", "bob", "spam"][k % 3]);
    fx.import(&answers_by(&fx.loaded(), who));
    run_in(&["close", "--state", &state]);
    fx.import(&answers_by(&fx.loaded(), who));
    let status_svg = fx.p("status.svg");
    run_in(&[
        "status",
        "--state",
        &state,
        "--prior-sd",
        "2",
        "--plot",
        &status_svg,
    ]);
    let json: Value = serde_json::from_str(&run_in(&[
        "status",
        "--state",
        &state,
        "--prior-sd",
        "2",
        "--format",
        "json",
    ]))
    .unwrap();
    let (_, parsed) = read_svg(&status_svg);
    let p = panels(&parsed);
    assert_eq!(p.len(), 3);
    // Votes per ballot: the status's counts.
    let votes = labelled_values(p[0]);
    let ballots = json["ballots"].as_array().unwrap();
    assert_eq!(votes.len(), ballots.len());
    for ((label, v), b) in votes.iter().zip(ballots) {
        assert!(
            label.starts_with(&format!("ballot {} (", b["ballot"])),
            "{label}"
        );
        assert_eq!(*v, f(&b["votes"]));
    }
    // Worker accuracy: each worker with an accuracy.
    let acc = labelled_values(p[1]);
    let want: Vec<(String, f64)> = json["workers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["accuracy"].is_number())
        .map(|w| (w["worker"].as_str().unwrap().to_owned(), f(&w["accuracy"])))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(acc, want);
    // The fitted ranking: the library's Bradley–Terry fit of the votes.
    let s = fx.loaded();
    let mut data = Comparisons::from_campaign(&s.campaign, CampaignVotes::default());
    data.rename_items(s.items.ids.iter()).unwrap();
    let fit = BradleyTerry::new()
        .prior_sd(2.0)
        .unwrap()
        .fit(&data)
        .unwrap();
    let u = fit.uncertainty(&data, &Inference::new()).unwrap();
    let rows = marked(p[2], "data-label");
    assert_eq!(rows.len(), 10);
    for ((row, i), r) in rows.iter().zip(fit.order()).zip(1..) {
        assert_eq!(
            row.attribute("data-label").unwrap(),
            format!("{r}. {}", fit.items[i])
        );
        assert_eq!(num(row, "data-value"), fit.scores[i]);
        assert_eq!(num(row, "data-lower"), u.intervals[i][0]);
        assert_eq!(num(row, "data-upper"), u.intervals[i][1]);
        let filled = row.attribute("fill") != Some("#ffffff");
        assert_eq!(filled, u.settled.top.contains(&i));
    }
    // rank --plot draws the same ranking chart alone.
    let rank_svg = fx.p("rank.svg");
    let out = fx.p("r.csv");
    run_in(&[
        "rank",
        "--state",
        &state,
        "--estimator",
        "bt",
        "--prior-sd",
        "2",
        "--out",
        &out,
        "--plot",
        &rank_svg,
    ]);
    let (alone, doc) = read_svg(&rank_svg);
    assert_eq!(
        doc.root_element().attribute("data-chart"),
        Some("intervals")
    );
    assert!(alone.contains("bt: the collected ranking with its intervals"));
    // The paper's ranking has no intervals: nothing to draw.
    let borda = fx.p("borda.svg");
    contains(
        &fails_in(&["rank", "--state", &state, "--out", &out, "--plot", &borda]),
        "nothing to draw without a fitted model: give --estimator bt or noisy-bt",
    );
    assert!(!std::path::Path::new(&borda).exists());
    contains(
        &fails_in(&["status", "--state", &state, "--plot", &fx.p("x.png")]),
        "PNG is not offered",
    );
}
