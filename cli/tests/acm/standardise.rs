//! `acm standardise`: null moments of one configuration, and the table
//! generator (was the `standardised_table` example).

use adaptive_comp_metrics::{Coefficient, Hyperbolic, Scheme, TopWeighted};

use crate::common::{Scratch, fails, ok, run, says};

#[test]
fn moments_equal_the_librarys() {
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "standardise",
        "moments",
        "--n",
        "5",
        "--source",
        "exact",
        "--format",
        "json",
    ]))
    .unwrap();
    let m = TopWeighted::new().null_exact(Coefficient::Rho, 5).unwrap();
    assert_eq!(json["mean"]["value"].as_f64().unwrap(), m.mean.value);
    // Published exact value (Lombardo 2025): additive 1/(n + 2)², ρ_w, n = 5.
    assert!((m.mean.value - -0.07584266073281484).abs() < 1e-15);
    let csv = ok(&[
        "standardise",
        "moments",
        "--n",
        "200",
        "--coefficient",
        "tau",
        "--weigher",
        "hyperbolic",
        "--scheme",
        "multiplicative",
        "--format",
        "csv",
    ]);
    let t = TopWeighted::new()
        .weigher(Hyperbolic)
        .scheme(Scheme::Multiplicative)
        .null_table(Coefficient::Tau, 200)
        .unwrap();
    says(&csv, &format!("mean,{},", t.mean.value));
    let text = ok(&["standardise", "moments", "--n", "50"]);
    says(&text, "null mean");
    let err = fails(
        &["standardise", "moments", "--n", "50", "--source", "exact"],
        1,
    );
    assert!(err.starts_with("error: "), "{err}");
    fails(&["standardise", "moments", "--n", "2"], 2);
    fails(&["standardise", "moments", "--n", "50", "--n0", "-1"], 2);
}

#[test]
fn the_table_generator_runs_on_a_small_grid() {
    let dir = Scratch::new("table");
    let out = dir.p("table_data.rs");
    let (code, _, err) = run(&[
        "standardise",
        "table",
        "--exact-max",
        "6",
        "--max-n",
        "12",
        "--budget",
        "0.0001",
        "--threads",
        "1",
        "--out",
        &out,
    ]);
    assert_eq!(code, 0, "{err}");
    let src = std::fs::read_to_string(&out).unwrap();
    assert!(
        src.contains("pub(crate) static GRIDS: [Grid; 16] = ["),
        "{}",
        &src[..400]
    );
    assert_eq!(src.matches("Entry { n: 12,").count(), 16);
    // The exact entries are the library's exact moments.
    let m = TopWeighted::new().null_exact(Coefficient::Rho, 5).unwrap();
    assert!(src.contains(&format!("Entry {{ n: 5, moments: [{:?},", m.mean.value)));
    // One log line per point on stderr (no terminal: no bar).
    assert_eq!(
        err.lines().filter(|l| l.contains(" n=")).count(),
        16 * 10,
        "{err}"
    );
    fails(&["standardise", "table", "--budget", "0"], 2);
}
