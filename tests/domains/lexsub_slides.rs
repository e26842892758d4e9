//! Every worked example of Jabbari, Hepple & Guthrie (2010), "Evaluating
//! Lexical Substitution: Analysis and New Measures" (slides,
//! `shared/seeds/jabbari2010-lexsub-measures.txt`), with the slide's number.
//!
//! The gold item of all examples is `happy (adj)` with
//! `H = {G:3, M:3, S:2, J:1, Ch:1}`. The slides print values truncated or
//! rounded to two decimals; each test checks the exact fraction and the
//! printed digits.

// Exact comparisons are only made with 0, 1 and dyadic fractions (0.5, 0.75),
// which the measures produce exactly.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::lexsub::{GoldItem, Measure, Penalty, revised, semeval};

fn happy() -> GoldItem {
    GoldItem::new(
        "1",
        "happy.a",
        [("G", 3), ("M", 3), ("S", 2), ("J", 1), ("Ch", 1)],
    )
    .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Rounds to two decimals as the slides print (half away from zero).
fn two(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Truncates to two decimals (the slides print 10/15 as 0.66).
fn trunc2(x: f64) -> f64 {
    (x * 100.0).floor() / 100.0
}

#[test]
fn notational_conventions_example() {
    // Slide "Notational Conventions": maxfreq = 3, |H|ⁱ = 10, no mode.
    let h = happy();
    assert_eq!(h.max_freq(), 3);
    assert_eq!(h.total(), 10);
    assert_eq!(h.mode(), None);
}

#[test]
fn old_best_optimal_answer_scores_0_3() {
    // Slide "Best Answer Measures", PROBLEM: A = {G} gets 3/10 = 0.3.
    assert!(close(semeval::best(&happy(), &["G"]), 0.3));
}

#[test]
fn new_best_optimal_answer_scores_1() {
    // Slide "(new) best": A = {G} gets 3/(3·1) = 1.
    assert!(close(revised::new_best(&happy(), &["G"]), 1.0));
}

#[test]
fn new_best_good_hedge_scores_0_83() {
    // A = {G, S}: (3 + 2)/(3·2) = 5/6 = 0.8333 → 0.83.
    let v = revised::new_best(&happy(), &["G", "S"]);
    assert!(close(v, 5.0 / 6.0));
    assert!(close(two(v), 0.83));
}

#[test]
fn new_best_good_bad_hedge_scores_0_5() {
    // A = {G, X}: (3 + 0)/(3·2) = 0.5.
    assert!(close(revised::new_best(&happy(), &["G", "X"]), 0.5));
}

#[test]
fn new_best_weak_correct_answer_scores_0_33() {
    // A = {J}: 1/(3·1) = 0.3333 → 0.33.
    let v = revised::new_best(&happy(), &["J"]);
    assert!(close(v, 1.0 / 3.0));
    assert!(close(two(v), 0.33));
}

#[test]
fn best1_full_and_lesser_credit() {
    // Slide "best-1": score 1 if freq(bg) = maxfreq, lesser credit otherwise
    // (no number on the slide; by the formula: M → 3/3, S → 2/3, X → 0/3).
    let h = happy();
    assert!(close(revised::best1(&h, &["M"]), 1.0));
    assert!(close(revised::best1(&h, &["S", "G"]), 2.0 / 3.0));
    assert!(close(revised::best1(&h, &["X", "G"]), 0.0));
    // the old mode measure gives no credit at all here: the item has no mode
    assert_eq!(semeval::mode_best(&h, &["G"]), None);
}

#[test]
fn coverage_all_and_only_correct_p_1_r_1() {
    // Slide "Measures of Coverage (contd)", k = 1: A = {G, M, S, J, Ch}.
    let a = ["G", "M", "S", "J", "Ch"];
    assert!(close(revised::precision(&happy(), &a, Penalty::ONE), 1.0));
    assert!(close(revised::recall(&happy(), &a), 1.0));
}

#[test]
fn coverage_all_correct_plus_five_wrong_p_0_66_r_1() {
    // A = {G, M, S, J, Ch, X, Y, Z, V, W}: R = 10/10, P = 10/(10 + 5) = 0.666…
    // (the slide truncates to 0.66).
    let a = ["G", "M", "S", "J", "Ch", "X", "Y", "Z", "V", "W"];
    let p = revised::precision(&happy(), &a, Penalty::ONE);
    assert!(close(p, 10.0 / 15.0));
    assert!(close(trunc2(p), 0.66));
    assert!(close(revised::recall(&happy(), &a), 1.0));
}

#[test]
fn coverage_three_of_five_plus_two_wrong_r_0_6_p_0_75() {
    // A = {G, S, J, X, Y}: R = (3 + 2 + 1)/10 = 0.6, P = 6/(6 + 2) = 0.75.
    let a = ["G", "S", "J", "X", "Y"];
    assert!(close(revised::recall(&happy(), &a), 0.6));
    assert!(close(revised::precision(&happy(), &a, Penalty::ONE), 0.75));
}

#[test]
fn coverage_penalty_changes_precision_only() {
    // Same answer with k = 0.5: P = 6/(6 + 0.5·2) = 6/7; R unchanged.
    let a = ["G", "S", "J", "X", "Y"];
    let k = Penalty::new(0.5).unwrap();
    assert!(close(revised::precision(&happy(), &a, k), 6.0 / 7.0));
    // k = 0: wrong answers cost nothing, P = 1 as soon as one is right.
    assert!(close(
        revised::precision(&happy(), &a, Penalty::new(0.0).unwrap()),
        1.0
    ));
}

#[test]
fn rank_first_example_0_87() {
    // Slide "Measures of Ranking": A = (S, Ch, M, J, G, X, Y, Z, V)
    // cumA = 2 3 6 7 10 10 10 10 10 10, cumH = 3 6 8 9 10 10 10 10 10 10.
    let v = revised::rank(&happy(), &["S", "Ch", "M", "J", "G", "X", "Y", "Z", "V"]);
    let exact = (2.0 / 3.0 + 3.0 / 6.0 + 6.0 / 8.0 + 7.0 / 9.0 + 6.0) / 10.0;
    assert!(close(v, exact));
    assert!(close(two(v), 0.87));
}

#[test]
fn rank_second_example_0_52() {
    // Slide "Measures of Ranking (contd)": A = (X, Y, S, Ch, M, Z, J, V, G)
    // cumA = 0 0 2 3 6 6 7 7 10 10.
    let v = revised::rank(&happy(), &["X", "Y", "S", "Ch", "M", "Z", "J", "V", "G"]);
    let exact = (0.0 + 0.0 + 2.0 / 8.0 + 3.0 / 9.0 + 0.6 + 0.6 + 0.7 + 0.7 + 1.0 + 1.0) / 10.0;
    assert!(close(v, exact));
    assert!(close(two(v), 0.52));
}

#[test]
fn slide_examples_through_the_measure_enum() {
    let h = happy();
    assert_eq!(Measure::Best.score(&h, &["G"]).map(two), Some(0.3));
    assert_eq!(Measure::NewBest.score(&h, &["G", "S"]).map(two), Some(0.83));
    assert_eq!(
        Measure::Rank
            .score(&h, &["S", "Ch", "M", "J", "G", "X", "Y", "Z", "V"])
            .map(two),
        Some(0.87)
    );
}
