//! The published script's metrics as rebuilt in the reproduce_table2
//! example: against the crate's ρ_w/τ_w on untied vectors, against the
//! misalignment figures of REFERENCES §2 item 11, and statistically against
//! the script's first ten simulations (REFERENCES §2 table).
#![cfg(feature = "simulator")]

use crate::script;

use adaptive_comp_metrics::ballot::{BallotConfig, Options, UniformBudget};
use adaptive_comp_metrics::simulate::{Arm, Estimate, Metric, Simulation, Underlying, VoterModel};
use adaptive_comp_metrics::{TopWeighted, spearman_ranks};
use proptest::prelude::*;
use script::{script_rho_w, script_tau_w, script_vectors};

/// True ranking by |z| (ties by index), as the runner builds it.
fn true_ranking(z: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let truth: Vec<f64> = z.iter().map(|v| v.abs()).collect();
    let mut order: Vec<usize> = (0..z.len()).collect();
    order.sort_by(|&a, &b| truth[b].total_cmp(&truth[a]).then(a.cmp(&b)));
    (truth, order)
}

fn perfect(z: &Underlying) -> (f64, f64, f64) {
    let (truth, order) = true_ranking(z.z());
    let e = Estimate::new(&truth, &order, &truth, &order);
    let (a, b) = script_vectors(&e);
    let rho = spearman_ranks(&b, &a).unwrap().rho;
    (script_rho_w(&a, &b), script_tau_w(&a, &b), rho)
}

#[test]
fn a_perfect_estimate_scores_what_references_item_11_says() {
    // REFERENCES §2 item 11: for a perfect ranking the script reports
    // ρ_w = 0.9686 (exponential) and 0.9367 (same-area), ρ = 0.84 and 0.75.
    let (rw, _, rho) = perfect(&Underlying::exponential(990).unwrap());
    assert!((rw - 0.9686).abs() < 5e-5, "{rw}");
    assert!((rho - 0.84).abs() < 5e-3, "{rho}");
    let (rw, _, rho) = perfect(&Underlying::same_area().unwrap());
    assert!((rw - 0.9367).abs() < 5e-5, "{rw}");
    assert!((rho - 0.75).abs() < 5e-3, "{rho}");
    // The power law is ranked by the identity: aligned, so exactly 1.
    let (rw, tw, rho) = perfect(
        &Underlying::power_law(990, adaptive_comp_metrics::simulate::PowerLaw::Published).unwrap(),
    );
    assert!((rw - 1.0).abs() < 1e-12 && (tw - 1.0).abs() < 1e-12 && (rho - 1.0).abs() < 1e-12);
}

#[test]
fn script_tau_w_by_hand() {
    // a = (1, 2, 3), b = (1, 3, 2): w = 1/9 + 1/9, 1/16 + 1/25, 1/25 + 1/16.
    // Pairs (0,1), (0,2) concordant, (1,2) discordant:
    // τ_w = (w0w1 + w0w2 − w1w2)/(w0w1 + w0w2 + w1w2).
    let w0 = 2.0 / 9.0;
    let w1 = 1.0 / 16.0 + 1.0 / 25.0;
    let want = (2.0 * w0 * w1 - w1 * w1) / (2.0 * w0 * w1 + w1 * w1);
    let got = script_tau_w(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]);
    assert!((got - want).abs() < 1e-15, "{got} vs {want}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Without ties the script's formulas are the paper's Eq. 8 with
    /// f(n) = 1/(n + 2)² additive weights (τ_w's tie correction is void).
    #[test]
    fn script_metrics_equal_the_crates_on_permutations(
        perm in Just((1..=40).map(f64::from).collect::<Vec<f64>>()).prop_shuffle(),
        other in Just((1..=40).map(f64::from).collect::<Vec<f64>>()).prop_shuffle(),
    ) {
        let rho = TopWeighted::new().rho_ranks(&perm, &other).unwrap().rho;
        let tau = TopWeighted::new().tau_ranks(&perm, &other).unwrap().tau;
        prop_assert!((script_rho_w(&perm, &other) - rho).abs() < 1e-12);
        prop_assert!((script_tau_w(&perm, &other) - tau).abs() < 1e-12);
    }
}

/// The same comparison done right (REFERENCES §2 "aligned" column): both
/// vectors indexed by item, a[i] = 1 + estimated rank of item i, b[i] = 1 +
/// true rank of item i.
fn aligned_vectors(e: &Estimate<'_>) -> (Vec<f64>, Vec<f64>) {
    let n = e.ranking.len();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    for (pos, (&est, &tru)) in e.ranking.iter().zip(e.true_ranking).enumerate() {
        if let (Some(x), Some(y)) = (a.get_mut(est), b.get_mut(tru)) {
            *x = (pos + 1) as f64;
            *y = (pos + 1) as f64;
        }
    }
    (a, b)
}

/// (metric, (mean, SD) uniform, (mean, SD) adaptive).
type Row = (&'static str, (f64, f64), (f64, f64));

/// REFERENCES §2 table: the script's first ten simulations (exponential),
/// mean ± sample SD, as printed (misaligned) and aligned: (uniform, adaptive).
const REF_SCRIPT: [Row; 4] = [
    ("rho_w", (0.7680, 0.0782), (0.9455, 0.0036)),
    ("tau_w", (-0.2000, 0.1400), (0.5999, 0.2003)),
    ("rho", (0.8129, 0.0113), (0.8039, 0.0114)),
    ("tau", (0.6300, 0.0110), (0.6352, 0.0134)),
];
const REF_ALIGNED: [Row; 4] = [
    ("rho_w", (0.7878, 0.0826), (0.9799, 0.0016)),
    ("tau_w", (-0.2000, 0.1400), (0.5999, 0.2003)),
    ("rho", (0.9716, 0.0019), (0.9630, 0.0014)),
    ("tau", (0.8499, 0.0052), (0.8404, 0.0029)),
];

fn aligned_metrics() -> Vec<Metric> {
    fn vectors(e: &Estimate<'_>) -> (Vec<f64>, Vec<f64>) {
        aligned_vectors(e)
    }
    vec![
        Metric::custom("rho_w", |e: &Estimate<'_>| {
            let (a, b) = vectors(e);
            Ok(script_rho_w(&a, &b))
        }),
        Metric::custom("tau_w", |e: &Estimate<'_>| {
            let (a, b) = vectors(e);
            Ok(script_tau_w(&a, &b))
        }),
        Metric::custom("rho", |e: &Estimate<'_>| {
            let (a, b) = vectors(e);
            Ok(spearman_ranks(&b, &a)?.rho)
        }),
        Metric::custom("tau", |e: &Estimate<'_>| {
            let (a, b) = vectors(e);
            Ok(adaptive_comp_metrics::kendall_tau_b(&b, &a)?.tau)
        }),
    ]
}

#[test]
fn published_profile_matches_the_scripts_first_ten_simulations() {
    // The whole pipeline (voters, scheduler with the published options,
    // script metrics) against REFERENCES §2's ten-simulation table for the
    // exponential distribution, misaligned and aligned: every cell within
    // 4 combined standard errors (10 reference runs, 24 here).
    let published = BallotConfig::with_options(990, 20, 0.5, 7, Options::published()).unwrap();
    let base = Simulation::new(Underlying::exponential(990).unwrap(), published)
        .unwrap()
        .voters(VoterModel::published())
        .uniform_budget(UniformBudget::RoundedAppearances);
    for (metrics, reference) in [
        (script::script_metrics(), REF_SCRIPT),
        (aligned_metrics(), REF_ALIGNED),
    ] {
        let report = base.clone().metrics(metrics).run(24, 77).unwrap();
        for (name, uniform, adaptive) in reference {
            for (arm, (mean, sd)) in [(Arm::Uniform, uniform), (Arm::Adaptive, adaptive)] {
                let z = report
                    .get(arm, name)
                    .unwrap()
                    .z_score(mean, sd, 10)
                    .unwrap();
                assert!(z.abs() < 4.0, "{name} {arm:?}: z = {z}");
            }
        }
    }
}
