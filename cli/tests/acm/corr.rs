//! `acm corr` (was the `evaluate` example): the report, the CSV reading,
//! and every bad file the example's tests covered.

use acm_cli::input::parse_columns;

use crate::common::{FILE, Scratch, data, fails, ok, refuses, says};

fn columns(text: &[u8]) -> Result<acm_cli::input::Columns, acm_cli::Failure> {
    parse_columns(text, &["human", "model"], b',')
}

#[test]
fn reads_a_byte_order_mark_and_quoted_fields() {
    // Issue 17: `no column human in "\u{feff}human,model"`.
    let c = columns(b"\xEF\xBB\xBFhuman,model\n1,2\n2,1\n").unwrap();
    assert_eq!(c.values, vec![vec![1.0, 2.0], vec![2.0, 1.0]]);
    // Issue 17: `"p,1",1,0.5` was split at the comma inside the quotes.
    let c = columns(b"word,human,model\n\"p,1\",1,0.5\n\"q \"\"x\"\"\",\"2\", 0.25 \r\n").unwrap();
    assert_eq!(c.values, vec![vec![1.0, 2.0], vec![0.5, 0.25]]);
    // Blank lines are skipped; the cells keep their own lines and columns.
    let c = columns(b"human,model\n\n 1 ,2\n").unwrap();
    let cell = c.cells[0][0];
    assert_eq!((cell.line, cell.column), (3, 2));
    // Tab-separated.
    let c = parse_columns(
        b"w\thuman\tmodel\na b\t1\t2\nc\t3\t 4\n",
        &["human", "model"],
        b'\t',
    )
    .unwrap();
    assert_eq!(c.values, vec![vec![1.0, 3.0], vec![2.0, 4.0]]);
}

#[test]
fn names_the_line_and_column_of_a_bad_cell() {
    let at = |text: &[u8]| {
        let f = columns(text).unwrap_err();
        (f.line, f.column, f.message.clone())
    };
    assert_eq!(
        at(b"human,model\n1,NaN\n2,3\n"),
        (
            Some(2),
            Some(3),
            "column \"model\": \"NaN\" is not a finite number".to_owned()
        )
    );
    assert_eq!(
        at(b"human,model\n1,2\n2,x\n"),
        (
            Some(3),
            Some(3),
            "column \"model\": \"x\" is not a number".to_owned()
        )
    );
    // A record spanning two lines: the cell is on the second, after a
    // quoted line break; `é` is one character.
    let (line, column, _) = at("w,human,model\n\"é\n\",  inf,1\n".as_bytes());
    assert_eq!((line, column), (Some(3), Some(5)));
    assert_eq!(
        at(b"human,model\n1,2\n3\n"),
        (
            Some(3),
            None,
            "missing field \"model\" (field 2 of the header): the line has 1 field".to_owned()
        )
    );
    assert_eq!(at(b"human,model\n1,\n").1, Some(3));
    assert_eq!(
        at(b"human,model,human\n1,2,3\n"),
        (
            Some(1),
            Some(13),
            "the header names column \"human\" twice: which one to use is ambiguous".to_owned()
        )
    );
    assert_eq!(
        at(b"a,b\n1,2\n"),
        (
            Some(1),
            None,
            "no column \"human\" in the header (its columns: \"a\", \"b\")".to_owned()
        )
    );
    // Issue 39: a header of a million columns is not listed whole.
    let wide = format!("{}\n1\n", vec!["abcdefgh"; 1_000_000].join(","));
    let (_, _, message) = at(wide.as_bytes());
    assert!(message.len() < 200, "{} bytes", message.len());
    assert!(message.ends_with(", … (1000000 in all))"), "{message}");
    // A quote left open at the end of the file: the line and column where it opens.
    let (line, column, message) = at(b"human,model\n1,2\n\"3,4\n5,6\n");
    assert_eq!((line, column), (Some(3), Some(1)));
    says(&message, "not closed by the end of the file");
    assert!(columns(b"human,model\n\"1\",\"2\"\"\"\n").is_err());
    // A quote inside an unquoted field is kept as it is (then not a number).
    let (_, _, message) = at(b"human,model\n1,2\"\n");
    says(&message, "is not a number");
}

#[test]
fn refuses_an_empty_file_or_one_without_rows() {
    // Issue 17: an empty dataset exited 0 with nothing computed.
    assert_eq!(
        columns(b"").unwrap_err().message.clone(),
        "the file is empty: expected a header line naming the columns \"human\" and \"model\""
    );
    assert_eq!(
        columns(b"\n \n").unwrap_err().message,
        columns(b"").unwrap_err().message
    );
    assert_eq!(
        columns(b"human,model\r\n\r\n").unwrap_err().message,
        "no data: the file has a header (line 1) but no rows"
    );
    let dir = Scratch::new("corr_empty");
    let path = dir.file("empty.csv", b"");
    assert_eq!(
        fails(&["corr", &path], 1),
        format!(
            "error: {path}: the file is empty: expected a header line naming the columns \
             \"human\" and \"model\""
        )
    );
}

#[test]
fn runs_end_to_end_with_file_names_in_errors() {
    let dir = Scratch::new("corr_run");
    refuses(
        &dir,
        &["corr", FILE],
        &[
            (
                "nan.csv",
                b"\xEF\xBB\xBFhuman,model\n1,2\n2,NaN\n",
                ":3:3: column \"model\": \"NaN\" is not a finite number",
            ),
            // A constant column: the library's `x` becomes the column's name.
            (
                "constant.csv",
                b"human,model\n1,2\n1,3\n1,4\n",
                ": column \"human\" is constant: the coefficient is undefined",
            ),
        ],
    );
    let missing = dir.p("missing.csv");
    assert!(fails(&["corr", &missing], 1).starts_with(&format!("error: {missing}: cannot read")));
    // Other column names, and quoted fields, on the whole way.
    let named = dir.file(
        "named.csv",
        b"pair,gold,sys\n\"a,b\",1,1\n\"c,d\",2,3\n\"e,f\",3,2\n",
    );
    let out = ok(&["corr", &named, "gold", "sys"]);
    says(&out, ": 3 items, human = `gold`, model = `sys`");
    let err = fails(&["corr", "f.csv", "h", "m", "x"], 2);
    says(&err, "unexpected argument 'x'");
}

#[test]
fn explains_its_output_on_the_bundled_sample() {
    let out = ok(&["corr", &data("examples/data/word-pairs.csv")]);
    says(&out, "990 items");
    // R(2) = 1/(9 ψ⁽¹⁾(3)) = 0.2813 (first_rank_fraction's doctest).
    says(
        &out,
        "R(2) = 0.281: the share of all the weight that rank 1 alone carries",
    );
    says(&out, "disagreements near the top count most");
}

#[test]
fn the_three_formats_give_the_same_numbers_as_the_library() {
    use adaptive_comp_metrics::{kendall_tau_b, rho_w, spearman, tau_w};
    let path = data("examples/data/word-pairs.csv");
    let c = acm_cli::input::read_columns(std::path::Path::new(&path), &["human", "model"], b',')
        .unwrap();
    let (h, m) = (&c.values[0], &c.values[1]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["corr", &path, "--format", "json"])).unwrap();
    assert_eq!(json["n"], 990);
    assert_eq!(
        json["rho_w"]["rho"].as_f64().unwrap(),
        rho_w(h, m).unwrap().rho
    );
    assert_eq!(
        json["tau_w"]["tau"].as_f64().unwrap(),
        tau_w(h, m).unwrap().tau
    );
    assert_eq!(
        json["spearman"]["rho"].as_f64().unwrap(),
        spearman(h, m).unwrap().rho
    );
    let csv = ok(&["corr", &path, "--format", "csv"]);
    let tau_b = kendall_tau_b(h, m).unwrap().tau;
    assert!(
        csv.starts_with("coefficient,value,standardised,p_two_sided,p_greater"),
        "{csv}"
    );
    says(&csv, &format!("kendall_tau_b,{tau_b},"));
    let table = ok(&["corr", &path]);
    says(&table, &format!("ρ_w = {:+.4}", rho_w(h, m).unwrap().rho));
}

/// The resampling runs' options: permutations, bootstrap, seed.
const RESAMPLING: [&str; 6] = ["--permutations", "999", "--bootstrap", "200", "--seed", "3"];

/// `d.csv` in `dir`: 30 rows of human `i` and model `i + 7i mod 5`, for
/// the resampling runs.
fn thirty_rows(dir: &Scratch) -> String {
    let mut text = String::from("human,model\n");
    for i in 0..30 {
        text.push_str(&format!("{i},{}\n", i + (i * 7) % 5));
    }
    dir.file("d.csv", text)
}

#[test]
fn permutations_and_bootstrap_on_request() {
    let dir = Scratch::new("corr_resample");
    let path = thirty_rows(&dir);
    let args = [&["corr", &path][..], &RESAMPLING].concat();
    let out = ok(&args);
    says(&out, "permutation test, 999 permutations");
    says(&out, "95 % BCa bootstrap intervals, 200 resamples");
    // Seeded: the same numbers twice.
    assert_eq!(ok(&args), out);
}

/// The numbers in `attr="…"` attributes of an SVG.
fn attrs(svg: &str, attr: &str) -> Vec<f64> {
    let key = format!(" {attr}=\"");
    svg.match_indices(&key)
        .map(|(i, _)| {
            let rest = &svg[i + key.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn plot_draws_the_null_with_the_runs_own_numbers() {
    let dir = Scratch::new("corr_plot");
    let path = thirty_rows(&dir);
    let svg_path = dir.p("null.svg");
    let base = [&["corr", &path][..], &RESAMPLING].concat();
    let plain = ok(&[&base[..], &["--format", "json"]].concat());
    let with_plot = ok(&[&base[..], &["--format", "json", "--plot", &svg_path]].concat());
    // The plot changes no number of the report.
    assert_eq!(plain, with_plot);
    let doc: serde_json::Value = serde_json::from_str(&plain).unwrap();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // Every permutation is in a bin; the observed line is ρ_w; the band is
    // the bootstrap interval of the report.
    assert_eq!(attrs(&svg, "data-count").iter().sum::<f64>(), 999.0);
    assert_eq!(
        attrs(&svg, "data-value"),
        [doc["rho_w"]["rho"].as_f64().unwrap()]
    );
    let ci = &doc["bootstrap_95"]["rho_w"];
    let band: Vec<f64> = attrs(&svg, "data-upper");
    assert!(band.contains(&ci[1].as_f64().unwrap()), "{band:?}");
    let p = doc["permutation_p_greater"]["rho_w"][0].as_f64().unwrap();
    says(
        &svg,
        &format!("(p = {})", adaptive_comp_metrics_plot::number(p)),
    );

    // Only a bootstrap: its distribution is drawn.
    let boot = dir.p("boot.svg");
    ok(&["corr", &path, "--bootstrap", "300", "--plot", &boot]);
    let svg = std::fs::read_to_string(&boot).unwrap();
    assert_eq!(attrs(&svg, "data-count").iter().sum::<f64>(), 300.0);
    assert!(svg.contains("bootstrap distribution"));
}

#[test]
fn plot_errors_write_nothing() {
    let (dir, [path]) = Scratch::with([("d.csv", "human,model\n1,2\n2,1\n3,3\n4,5\n")]);
    let err = fails(&["corr", &path, "--plot", &dir.p("x.svg")], 2);
    says(
        &err,
        "nothing to draw without --permutations or --bootstrap",
    );
    for (file, status, message) in [
        ("x.png", 2, "PNG is not offered"),
        ("x.pdf", 2, "unknown extension"),
        ("no/such/dir/x.svg", 1, "its directory does not exist"),
    ] {
        let plot = dir.p(file);
        let err = fails(
            &["corr", &path, "--permutations", "9", "--plot", &plot],
            status,
        );
        assert!(err.contains(message), "{file}: {err}");
    }
    // Nothing written, not even a temporary file.
    let left: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [std::ffi::OsString::from("d.csv")]);
}
