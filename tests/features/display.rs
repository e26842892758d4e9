//! The text results print for a person: the exact `Display` output of
//! representative result types, with the numbers from SciPy or worked out by
//! hand (each says which), at the default 4 decimals and at the formatter's
//! precision.
//!
//! Values that depend on random draws (permutation tests, bootstrap
//! intervals, simulations) are read from JSON (feature `serde`) so that the
//! text is pinned exactly.

use adaptive_comp_metrics::lexsub::Totals;
use adaptive_comp_metrics::relevance::{
    Ids, Measure, TrecOptions, evaluate_trec, rbo, read_trec_qrels, read_trec_run,
};
use adaptive_comp_metrics::triplet::Tally;
use adaptive_comp_metrics::{Alternative, kendall_tau_b, pearson, rho_w, spearman};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// x and y of SciPy's examples below.
const X: [f64; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];
const Y: [f64; 5] = [5.0, 6.0, 7.0, 8.0, 7.0];

#[test]
fn spearman_names_the_coefficient_and_its_test() -> TestResult {
    // scipy.stats.spearmanr(X, Y): statistic 0.8207826816681233, pvalue
    // 0.08858700531354384; t = ρ·√(3/(1 − ρ²)) = 2.488684067353021.
    let r = spearman(&X, &Y)?;
    assert_eq!(
        r.to_string(),
        "Spearman's ρ = 0.8208 (n = 5, t = 2.4887, two-sided p = 0.0886)"
    );
    assert_eq!(
        format!("{r:.2}"),
        "Spearman's ρ = 0.82 (n = 5, t = 2.49, two-sided p = 0.09)"
    );
    // A perfect correlation: t is infinite and the p-value 0, as SciPy gives.
    let perfect = spearman(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 6.0, 8.0])?;
    assert_eq!(
        perfect.to_string(),
        "Spearman's ρ = 1.0000 (n = 4, t = inf, two-sided p = 0.0000)"
    );
    Ok(())
}

#[test]
fn kendall_lists_its_pair_counts() -> TestResult {
    // By hand: of the 10 pairs, (4, 5) is discordant and (3, 5) tied in y
    // (7 = 7); τ-b = 7/√(10·9). scipy.stats.kendalltau: statistic
    // 0.7378647873726218, pvalue 0.07697417298126674 (normal approximation,
    // z = Φ⁻¹(1 − p/2) = 1.7685190342396901).
    let k = kendall_tau_b(&X, &Y)?;
    assert_eq!(
        k.to_string(),
        "Kendall's τ-b = 0.7379 (n = 5; pairs: 8 concordant, 1 discordant, 0 tied in x only, \
         1 tied in y only, 0 tied in both; z = 1.7685, two-sided p = 0.0770)"
    );
    Ok(())
}

#[test]
fn pearson_and_its_interval() -> TestResult {
    // scipy.stats.pearsonr(X, Y): statistic 0.8320502943378436, pvalue
    // 0.0805095732984986, t = 2.5980762113533156; confidence_interval(0.95):
    // (-0.18884637201382123, 0.9885972938541849).
    let r = pearson(&X, &Y)?;
    assert_eq!(
        r.to_string(),
        "Pearson's r = 0.8321 (n = 5, t = 2.5981, two-sided p = 0.0805)"
    );
    let ci = r.confidence_interval(0.95, Alternative::TwoSided)?;
    assert_eq!(ci.to_string(), "[-0.1888, 0.9886]");
    assert_eq!(format!("{ci:.1}"), "[-0.2, 1.0]");
    Ok(())
}

#[test]
fn rho_w_says_how_many_items_the_weighting_is_worth() -> TestResult {
    // Identical rankings of 4 items: ρ_w = 1. Additive weights f(a) + f(b)
    // = 2/(i + 2)², normalised; Kish's effective n = (Σ f)²/Σ f² with
    // f = 1/9, 1/16, 1/25, 1/36: 3.128761481763831 (exact fractions).
    let s = [4.0, 3.0, 2.0, 1.0];
    let r = rho_w(&s, &s)?;
    assert_eq!(r.to_string(), "ρ_w = 1.0000 (n = 4, effective n = 3.1)");
    assert_eq!(format!("{r:.1}"), "ρ_w = 1.0 (n = 4, effective n = 3.1)");
    // The README's example prints this (the text is quoted there).
    let human = [0.95, 0.80, 0.61, 0.40, 0.12];
    let model = [0.91, 0.62, 0.83, 0.35, 0.20];
    assert_eq!(
        rho_w(&human, &model)?.to_string(),
        "ρ_w = 0.8848 (n = 5, effective n = 3.6)"
    );
    Ok(())
}

#[test]
fn lexsub_totals_say_na_when_undefined() {
    // precision = 1.5/2, recall = 1.5/4.
    let t = Totals {
        credit: 1.5,
        attempted: 2,
        items: 4,
    };
    assert_eq!(
        t.to_string(),
        "precision 0.7500, recall 0.3750 (credit 1.5000; 2 attempted of 4 items)"
    );
    let none = Totals {
        credit: 0.0,
        attempted: 0,
        items: 4,
    };
    assert_eq!(
        format!("{none:.2}"),
        "precision n/a, recall 0.00 (credit 0.00; 0 attempted of 4 items)"
    );
}

#[test]
fn rbo_shows_its_bounds() -> TestResult {
    // Identical prefixes of 3, p = 0.9 (Webber et al. 2010, Eqs. 11 and 30,
    // by hand): RBO_MIN = (1 − p)/p·(Σ_{d≤3} (d − 3)p^d/d − 3 ln(1 − p)) =
    // 0.5225283643313484, RBO_RES = p³ − (1 − p)/p·3·(ln 10 − Σ_{d≤3} p^d/d)
    // = 0.4774716356686516, RBO_EXT = 1.
    let r = rbo(&["a", "b", "c"], &["a", "b", "c"], 0.9)?;
    assert_eq!(
        r.to_string(),
        "RBO_EXT = 1.0000 (RBO_MIN 0.5225, RBO_MAX 1.0000, residual 0.4775)"
    );
    Ok(())
}

#[test]
fn trec_report_prints_trec_eval_summary_lines() -> TestResult {
    // q1 ranks its one relevant document first: AP 1, P@5 = 1/5, one
    // relevant retrieved. q2 is judged but not ranked (left out).
    let mut ids = Ids::new();
    let qrels = read_trec_qrels("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n".as_bytes(), &mut ids)?;
    let run = read_trec_run("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n".as_bytes(), &mut ids)?;
    let measures = [
        Measure::AveragePrecision,
        Measure::Precision(5),
        Measure::RelevantRetrieved,
    ];
    let report = evaluate_trec(&qrels, &run, &measures, &TrecOptions::default())?;
    assert_eq!(
        report.to_string(),
        "num_q        all  1\n\
         map          all  1.0000\n\
         P_5          all  0.2000\n\
         num_rel_ret  all  1\n\
         1 judged query the run does not rank"
    );
    Ok(())
}

#[test]
fn triplet_tally_names_its_counts() {
    // The doc example of Tally::score: 1/4.
    let t = Tally {
        credit: 1.0,
        weight: 4.0,
        scored: 3,
        ..Tally::default()
    };
    assert_eq!(
        t.to_string(),
        "score 0.2500 (credit 1.0000 of weight 4.0000; 3 comparisons scored, 0 of them ties, \
         0 skipped for unknown words, 0 ties skipped)"
    );
    assert!(Tally::default().to_string().starts_with("score n/a"));
}

#[cfg(feature = "scheduler")]
#[test]
fn ballot_plan_lists_its_ballots() -> TestResult {
    use adaptive_comp_metrics::ballot::{BallotConfig, UniformBudget, plan, uniform_plan};
    // The paper's Table 2 configuration (its plan is in the `plan` docs):
    // ⌈20·N⁽ᵏ⁾/2⌉ per ballot; Eq. 3's approximation (1 − 0.5⁷)/(2·0.5)·20·990
    // = 19645.3125; M_unif = 2·19660/990 = 39.71717…
    let c = BallotConfig::new(990, 20, 0.5, 7)?;
    assert_eq!(
        plan(&c).to_string(),
        "7 ballots, 19660 comparisons (Eq. 3 approximation 19645.3125); M_top = 140, \
         M_unif = 39.7172\n\
         ballot 1: 990 items, 9900 comparisons\n\
         ballot 2: 495 items, 4950 comparisons\n\
         ballot 3: 248 items, 2480 comparisons\n\
         ballot 4: 124 items, 1240 comparisons\n\
         ballot 5: 62 items, 620 comparisons\n\
         ballot 6: 31 items, 310 comparisons\n\
         ballot 7: 16 items, 160 comparisons"
    );
    // 2·19660 = 990·39 + 710 (the `uniform_plan` docs).
    let u = uniform_plan(&c, UniformBudget::SameComparisons)?;
    assert_eq!(
        u.to_string(),
        "19660 comparisons: 710 items appear 40 times, the others 39"
    );
    Ok(())
}

#[cfg(all(feature = "scheduler", feature = "serde"))]
#[test]
fn worker_stats_name_accuracy_and_agreement() -> TestResult {
    use adaptive_comp_metrics::ballot::WorkerStats;
    // Accuracy 9/10; agreement 66/(2·40) = 0.825.
    let w: WorkerStats = serde_json::from_str(
        r#"{"worker":"w7","votes":40,"controls":10,"correct":9,"discarded":0,
            "agreement_votes":40,"agreement_doubled":66,"excluded_at":2}"#,
    )?;
    assert_eq!(
        w.to_string(),
        "worker \"w7\": 40 votes, accuracy 0.9000 on 10 control answers, agreement 0.8250 \
         over 40 votes, 0 answers discarded, excluded at ballot 2"
    );
    Ok(())
}

#[cfg(feature = "simulator")]
#[test]
fn summary_is_mean_plus_minus_sd() -> TestResult {
    use adaptive_comp_metrics::simulate::Summary;
    // Values 1, 2, 3, 4: mean 2.5, SD √(5/3) = 1.2909944…, SE SD/2.
    let s = Summary::of(&[1.0, 2.0, 3.0, 4.0])?;
    assert_eq!(
        s.to_string(),
        "2.5000 ± 1.2910 (mean ± SD of 4 simulations, standard error 0.6455)"
    );
    Ok(())
}

#[cfg(all(feature = "simulator", feature = "serde"))]
#[test]
fn simulation_report_is_a_table() -> TestResult {
    use adaptive_comp_metrics::simulate::Report;
    // SD of 0.25, 0.75: √(2·0.25²/1) = 0.35355…; standard error SD/√2 = 0.25.
    let report: Report = serde_json::from_str(
        r#"{"simulations":2,"seed":7,"metrics":["rho_w","top-10 recall"],
            "uniform":[{"mean":0.5,"sd":0.3535533905932738,"se":0.25,"values":[0.25,0.75]},
                       {"mean":0.5,"sd":0.0,"se":0.0,"values":[0.5,0.5]}],
            "adaptive":[{"mean":0.75,"sd":0.0,"se":0.0,"values":[0.75,0.75]},
                        {"mean":1.0,"sd":0.0,"se":0.0,"values":[1.0,1.0]}],
            "uniform_comparisons":100,"adaptive_comparisons":98}"#,
    )?;
    assert_eq!(
        format!("{report:.2}"),
        "2 simulations (seed 7); comparisons per simulation: 100 uniform, 98 adaptive\n\
         metric         uniform (mean ± SD)  adaptive (mean ± SD)\n\
         rho_w          0.50 ± 0.35          0.75 ± 0.00\n\
         top-10 recall  0.50 ± 0.00          1.00 ± 0.00"
    );
    Ok(())
}

#[cfg(feature = "uncertainty")]
#[test]
fn exact_null_moments() -> TestResult {
    use adaptive_comp_metrics::uncertainty::spearman_null;
    // E[ρ] = 0, SD[ρ] = 1/√(n − 1) = 1/3 for n = 10 (Kendall 1948, ch. 5).
    assert_eq!(
        spearman_null(10)?.to_string(),
        "null mean 0.0000 (exact), null SD 0.3333 (exact)"
    );
    // The same moments as Spearman's closed form; a moment without one
    // prints as unknown.
    use adaptive_comp_metrics::uncertainty::{ExactNull, Spearman, Statistic};
    let x: Vec<f64> = (0..10).map(f64::from).collect();
    let prepared = Spearman.prepare(&x, &x)?;
    assert_eq!(
        Spearman.exact_null(&prepared).to_string(),
        "exact null mean 0.0000, exact null SD 0.3333"
    );
    let partial = ExactNull {
        mean: Some(0.0),
        sd: None,
    };
    assert_eq!(
        format!("{partial:.1}"),
        "exact null mean 0.0, exact null SD unknown"
    );
    Ok(())
}

#[cfg(all(feature = "uncertainty", feature = "serde"))]
#[test]
fn tests_and_intervals_name_every_number() -> TestResult {
    use adaptive_comp_metrics::uncertainty::{ConfidenceInterval, PermutationTest};
    let t: PermutationTest = serde_json::from_str(
        r#"{"statistic":0.5,"p_value":0.012,"standard_error":0.0034,"alternative":"TwoSided",
            "permutations":999,"at_least":5,"at_most":990,"null_mean":0.001,"null_sd":0.1}"#,
    )?;
    assert_eq!(
        t.to_string(),
        "statistic 0.5000, two-sided p = 0.0120 (Monte-Carlo SE 0.0034; 999 permutations, \
         null mean 0.0010, null SD 0.1000)"
    );
    // p = 1/(m + 1) for m = 99999: below 10⁻⁴, so in scientific notation.
    let tiny: PermutationTest = serde_json::from_str(
        r#"{"statistic":0.9,"p_value":1e-5,"standard_error":1e-5,"alternative":"Greater",
            "permutations":99999,"at_least":0,"at_most":99999,"null_mean":0.0,"null_sd":0.1}"#,
    )?;
    assert!(
        tiny.to_string().starts_with(
            "statistic 0.9000, one-sided (greater) p = 1.00e-5 (Monte-Carlo SE 1.00e-5;"
        ),
        "{tiny}"
    );
    let ci: ConfidenceInterval = serde_json::from_str(
        r#"{"estimate":0.41,"lower":0.21,"upper":0.6,"level":0.95,"interval":"Bca",
            "resamples":2000,"failed":3,"standard_error":0.1,"bias_correction":0.05,
            "acceleration":-0.01}"#,
    )?;
    assert_eq!(
        format!("{ci:.2}"),
        "estimate 0.41, 95% BCa interval [0.21, 0.60] (bootstrap SE 0.10; 2000 resamples, \
         3 failed; bias correction z₀ = 0.05, acceleration a = -0.01)"
    );
    Ok(())
}

/// A word-similarity model given by a table of similarities; `None` = unknown.
struct Table(Vec<(&'static str, &'static str, f64)>);

impl adaptive_comp_metrics::embedding::Similarity for Table {
    fn similarity(&self, a: &str, b: &str) -> Option<f64> {
        self.0
            .iter()
            .find(|(x, y, _)| (*x, *y) == (a, b) || (*y, *x) == (a, b))
            .map(|t| t.2)
    }
}

/// Pairs (a, b), (a, c), (b, c) scored 3, 2, 1, and optionally (a, x) 5.
fn toy_benchmark(with_unknown: bool) -> adaptive_comp_metrics::wordsim::Benchmark {
    use adaptive_comp_metrics::wordsim::{Benchmark, WordPair};
    let mut pairs = vec![
        WordPair::new("a", "b", 3.0),
        WordPair::new("a", "c", 2.0),
        WordPair::new("b", "c", 1.0),
    ];
    if with_unknown {
        pairs.push(WordPair::new("a", "x", 5.0));
    }
    Benchmark::new("toy", pairs).unwrap()
}

#[test]
fn wordsim_report_is_a_block_of_coefficients() -> TestResult {
    use adaptive_comp_metrics::wordsim::{Evaluator, Unknown};
    // Human 3, 2, 1 against 0.75, 0.5, 0.25 (x unknown, dropped): exactly
    // linear, so r = ρ = τ-b = ρ_w = τ_w = 1 and the t statistics are
    // infinite (SciPy's pearsonr leaves a 2e-16 residue: 0.9999999999999998).
    // Kendall: z = S/√(n(n−1)(2n+5)/18) = 3/√(11/3) = 1.5667; without ties
    // the p-value is exact, 2·(1/3!) = 1/3 (scipy.stats.kendalltau:
    // 0.3333333333333333).
    // Weights 2/(i + 2)², i = 1, 2, 3, normalised: Kish's effective n
    // 2.5560098720181887; pair weights w_i·w_j sum to 0.3043826021668659
    // (numpy, by the formula). Standardised: g(±1) = ±1; the exact null
    // means of 3 items, averaging over the 3! permutations in numpy, are
    // −0.03027621258524099 for ρ_w (Lombardo 2025 publishes
    // −0.03027621258524162) and −0.03661179887187219 for τ_w.
    let model = Table(vec![("a", "b", 0.75), ("a", "c", 0.5), ("b", "c", 0.25)]);
    let report = Evaluator::new().evaluate(&model, &toy_benchmark(true))?;
    assert_eq!(
        report.to_string(),
        "\"toy\": 4 pairs, 3 found (OOV ratio 0.2500); unknown pairs dropped; 3 scored\n\
         Pearson's r = 1.0000 (n = 3, t = inf, two-sided p = 0.0000)\n\
         Spearman's ρ = 1.0000 (n = 3, t = inf, two-sided p = 0.0000)\n\
         Kendall's τ-b = 1.0000 (n = 3; pairs: 3 concordant, 0 discordant, 0 tied in x only, \
         0 tied in y only, 0 tied in both; z = 1.5667, two-sided p = 0.3333)\n\
         ρ_w = 1.0000 (n = 3, effective n = 2.6)\n\
         τ_w = 1.0000 (n = 3, effective n = 2.6; pair weights: 0.3044 concordant, 0.0000 \
         discordant, 0.0000 tied in a, 0.0000 tied in b, of 0.3044)\n\
         standardised ρ_w = 1.0000 (0 = what unrelated rankings give on average; raw ρ_w = \
         1.0000, n = 3, null mean -0.0303 (exact))\n\
         standardised τ_w = 1.0000 (0 = what unrelated rankings give on average; raw τ_w = \
         1.0000, n = 3, null mean -0.0366 (exact))"
    );
    // A constant model: every coefficient undefined, with the reason. Under
    // Mean the unknown pair gets the mean similarity 0.5.
    let flat = Table(vec![("a", "b", 0.5), ("a", "c", 0.5), ("b", "c", 0.5)]);
    let report = Evaluator::new()
        .unknown(Unknown::Mean)
        .evaluate(&flat, &toy_benchmark(true))?;
    assert_eq!(
        format!("{report:.2}"),
        "\"toy\": 4 pairs, 3 found (OOV ratio 0.25); unknown pairs scored with the mean \
         similarity 0.50; 4 scored\n\
         Pearson's r: undefined (y is constant: the coefficient is undefined)\n\
         Spearman's ρ: undefined (y is constant: the coefficient is undefined)\n\
         Kendall's τ-b: undefined (y is constant: the coefficient is undefined)\n\
         ρ_w: undefined (y is constant: the coefficient is undefined)\n\
         τ_w: undefined (y is constant: the coefficient is undefined)\n\
         standardised ρ_w: undefined (y is constant: the coefficient is undefined)\n\
         standardised τ_w: undefined (y is constant: the coefficient is undefined)"
    );
    Ok(())
}

#[test]
fn wordsim_comparison_is_an_aligned_table() -> TestResult {
    use adaptive_comp_metrics::embedding::Similarity;
    use adaptive_comp_metrics::wordsim::Evaluator;
    // Exactly linear in the human scores (3, 2, 1), reversed, and constant:
    // every coefficient is 1, −1, or undefined (n/a); g(±1) = ±1.
    let good = Table(vec![("a", "b", 0.75), ("a", "c", 0.5), ("b", "c", 0.25)]);
    let reversed = Table(vec![("a", "b", 0.25), ("a", "c", 0.5), ("b", "c", 0.75)]);
    let constant = Table(vec![("a", "b", 0.5), ("a", "c", 0.5), ("b", "c", 0.5)]);
    let models: [(&str, &(dyn Similarity + Sync)); 3] = [
        ("good", &good),
        ("reversed", &reversed),
        ("constant", &constant),
    ];
    let table = Evaluator::new().compare(&models, &[toy_benchmark(false)])?;
    assert_eq!(
        format!("{table:.2}"),
        "model     benchmark  found/pairs  r      ρ      τ-b    ρ_w    τ_w    g(ρ_w)  g(τ_w)\n\
         good      toy        3/3          1.00   1.00   1.00   1.00   1.00   1.00    1.00\n\
         reversed  toy        3/3          -1.00  -1.00  -1.00  -1.00  -1.00  -1.00   -1.00\n\
         constant  toy        3/3          n/a    n/a    n/a    n/a    n/a    n/a     n/a"
    );
    Ok(())
}

#[test]
fn wordsim_and_embedding_options_read_as_words() {
    use adaptive_comp_metrics::embedding::{Format, ReadOptions};
    use adaptive_comp_metrics::wordsim::{Header, Layout, PairFormat, Separator, Unknown};
    assert_eq!(Layout::SimLex999.to_string(), "simlex999");
    assert_eq!(Unknown::Zero.to_string(), "unknown pairs scored 0");
    assert_eq!(
        PairFormat::layout(Layout::SimLex999).to_string(),
        "words in columns 1 and 2, score in column 4, separator detected, header detected, \
         '#' lines are comments, or words and score in columns 1 to 3 in a file of three columns"
    );
    assert_eq!(
        PairFormat::layout(Layout::Men)
            .separator(Separator::Whitespace)
            .header(Header::Absent)
            .comments(false)
            .to_string(),
        "words in columns 1 and 2, score in column 3, separator whitespace, no header, \
         no comment lines, part-of-speech suffixes stripped"
    );
    assert_eq!(toy_benchmark(true).to_string(), "\"toy\": 4 word pairs");
    assert_eq!(Format::Word2VecBinary.to_string(), "word2vec binary");
    assert_eq!(
        ReadOptions::new().to_string(),
        "every word, case-sensitive, every row"
    );
    assert_eq!(
        ReadOptions::new()
            .keep(["cat", "dog", "ant"])
            .fold_case(true)
            .limit(1)
            .to_string(),
        "3 words kept, case folded, first 1 row"
    );
}

#[test]
fn standardised_scale_names_its_null() -> TestResult {
    use adaptive_comp_metrics::{Coefficient, Standardiser, TopWeighted};
    // Lombardo (2025) publishes the exact moments of additive ρ_w with
    // 1/(n + 2)² at n = 5: Γ̄ = −0.07584266073281484, V = 0.2824562853238909,
    // V_ℓ = 0.12817678208868818.
    let m = TopWeighted::new().null_exact(Coefficient::Rho, 5)?;
    assert_eq!(
        m.to_string(),
        "null mean Γ̄ = -0.0758, variance V = 0.2825, left variance V_ℓ = 0.1282 (exact)"
    );
    assert_eq!(format!("{:.2}", m.mean), "-0.08 (exact)");
    // A symmetric null (Γ̄ = 0, V_ℓ = V/2) gives the identity map: g₀ = 0,
    // g₁ = 1, g₂ = h₂ = 0, the degenerate branch (V_ℓ − V(1 + Γ̄)/2 = 0).
    let identity = Standardiser::from_moments(0.0, 0.25, 0.125)?;
    assert_eq!(
        format!("{:.1}", identity.coefficients()),
        "g₀ = 0.0, g₁ = 1.0, g₂ = 0.0, h₂ = 0.0 at Γ̄ = 0.0 (degenerate branch)"
    );
    assert_eq!(
        format!("{identity:.3}"),
        "map g₀ = 0.000, g₁ = 1.000, g₂ = 0.000, h₂ = 0.000 at Γ̄ = 0.000 (degenerate branch); \
         null mean Γ̄ = 0.000, variance V = 0.250, left variance V_ℓ = 0.125 (given)"
    );
    // Reversed rankings of 10 items with the same tie at the bottom of one
    // and the top of the other: ρ_w = −1 (mirrored ranks), g(−1) = −1
    // whatever the null; the null mean of ρ_w at n = 10 comes from the
    // table (exact there: −0.16255054077877876, issue 13's reference value).
    let human = [9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 1.0];
    let model = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.0];
    let s = TopWeighted::new().rho_standardised(&human, &model)?;
    assert!((s.rho.rho + 1.0).abs() < 1e-15);
    assert_eq!(
        s.to_string(),
        "standardised ρ_w = -1.0000 (0 = what unrelated rankings give on average; raw ρ_w = \
         -1.0000, n = 10, null mean -0.1626 (exact); the rankings have ties, which the untied \
         null approximates)"
    );
    assert_eq!(Coefficient::Tau.to_string(), "τ_w");
    Ok(())
}
