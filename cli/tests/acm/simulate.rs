//! `acm simulate` (was the `reproduce_table2` example): Table 2 and sweeps.

use crate::common::{fails, ok, says};

#[test]
fn table2_prints_both_blocks_with_the_papers_values() {
    let out = ok(&["simulate", "table2", "--simulations", "2", "--seed", "5"]);
    assert!(out.starts_with("Table 2 of Lombardo et al. (2020): 2 simulations per row (seed 5)"));
    says(&out, "(a) as published");
    says(&out, "(b) corrected");
    says(&out, "cells within 3σ of the paper");
    // The paper's first cell, exponential uniform ρ_w.
    says(&out, "0.7780 ± 0.0580");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "simulate", "table2", "-s", "2", "--seed", "5", "--format", "json",
    ]))
    .unwrap();
    assert_eq!(json["cells"].as_array().unwrap().len(), 48);
    assert_eq!(json["uniform_comparisons"], 19800);
}

#[test]
fn table2_refuses_bad_arguments() {
    let err = fails(&["simulate", "table2", "--simulations", "1"], 2);
    says(&err, "1 is not in 2..=1000000");
    let err = fails(&["simulate", "table2", "--seed", "-1"], 2);
    says(&err, "'-1'");
    fails(&["simulate", "table2", "x"], 2);
    fails(&["simulate"], 2);
}

#[test]
fn a_sweep_gives_the_library_sweeps_values() {
    use adaptive_comp_metrics::ballot::BallotConfig;
    use adaptive_comp_metrics::simulate::{Metric, Simulation, Underlying, sweep};
    let args = [
        "simulate",
        "sweep",
        "--budget",
        "3000",
        "--alpha",
        "0.3,0.5",
        "--ballots",
        "2,4",
        "--items",
        "200",
        "--voters",
        "20",
        "--simulations",
        "3",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let json: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let base = Simulation::new(
        Underlying::exponential(200).unwrap(),
        BallotConfig::new(200, 1, 0.5, 2).unwrap(),
    )
    .unwrap()
    .n_voters(20)
    .unwrap();
    let s = sweep(&base, 3000, &[0.3, 0.5], &[2, 4], &Metric::rho_w(), 3, 7).unwrap();
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.len(), s.points.len());
    for (p, q) in points.iter().zip(&s.points) {
        assert_eq!(p["mean"].as_f64().unwrap(), q.summary.mean);
        assert_eq!(p["M"].as_u64().unwrap(), q.m as u64);
    }
    let table = ok(&args[..args.len() - 2]);
    says(&table, "best");
    fails(
        &[
            "simulate",
            "sweep",
            "--budget",
            "3000",
            "--alpha",
            "1.5",
            "--ballots",
            "2",
        ],
        2,
    );
}
