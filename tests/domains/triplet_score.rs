//! Scoring goldens (Avraham & Goldberg 2016, Table 1 and §4.2), tie policies,
//! skip accounting, errors, and proptest invariants against an oracle.
#![allow(clippy::float_cmp)] // goldens below are exact binary fractions or checked with a tolerance

use adaptive_comp_metrics::triplet::{
    Comparison, ComparisonKind, ComparisonKind::*, Tally, TiePolicy, TripletError, TripletScore,
    score, score_by, score_where,
};
use proptest::prelude::*;

/// The paper's Table 1: binary comparisons for the target word "singer".
fn table1() -> Vec<Comparison> {
    vec![
        Comparison::new("singer", "person", "musician", 0.1, Positive),
        Comparison::new("singer", "artist", "person", 0.8, Positive),
        Comparison::new("singer", "musician", "performer", 0.6, Positive),
        Comparison::new("singer", "musician", "song", 1.0, Distractor),
        Comparison::new("singer", "musician", "laptop", 1.0, Random),
    ]
}

/// A model that ignores the target and looks the candidate up in `table`.
fn model(table: &'static [(&'static str, f64)]) -> impl Fn(&str, &str) -> Option<f64> {
    move |_t: &str, w: &str| table.iter().find(|(k, _)| *k == w).map(|&(_, v)| v)
}

/// The score of a lookup-table model on Table 1, default tie policy.
fn table1_score(table: &'static [(&'static str, f64)]) -> TripletScore {
    score(&table1(), &model(table), TiePolicy::default()).unwrap()
}

const CLOSE: f64 = 1e-12;

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < CLOSE)
}

#[test]
fn table1_model_agreeing_with_every_majority_scores_one() {
    // §4.1's example ranking musician > performer > artist > person, negatives last.
    let s = table1_score(&[
        ("musician", 0.9),
        ("performer", 0.8),
        ("artist", 0.7),
        ("person", 0.4),
        ("song", 0.3),
        ("laptop", 0.1),
    ]);
    // s per row: 0.8, 0.6, 0.2, 1, 1 — all positive.
    assert!(close(s.overall.score(), 1.0));
    assert!((s.overall.weight - 3.6).abs() < CLOSE);
    assert_eq!(
        (s.overall.scored, s.overall.unknown, s.overall.ties),
        (5, 0, 0)
    );
    assert_eq!(
        (s.positive.scored, s.distractor.scored, s.random.scored),
        (3, 1, 1)
    );
}

#[test]
fn table1_model_preferring_person() {
    // person is now the most similar candidate.
    let s = table1_score(&[
        ("person", 0.95),
        ("musician", 0.9),
        ("performer", 0.8),
        ("artist", 0.7),
        ("song", 0.3),
        ("laptop", 0.1),
    ]);
    // By hand: row 1 (person > musician, R = 0.1): δ = +1, s = 2·0.1 − 1 = −0.8
    //          row 2 (artist < person, R = 0.8): δ = −1, s = −(1.6 − 1) = −0.6
    //          row 3 (musician > performer, R = 0.6): δ = +1, s = 0.2
    //          rows 4, 5: δ = +1, s = 1, 1
    // credit = 0.2 + 1 + 1 = 2.2, weight = 0.8 + 0.6 + 0.2 + 1 + 1 = 3.6 → 11/18
    assert!(close(s.overall.score(), 11.0 / 18.0));
    assert!((s.overall.credit - 2.2).abs() < CLOSE);
    // Positive only: 0.2 / 1.6 = 0.125.
    assert!(close(s.positive.score(), 0.125));
    assert_eq!(s.distractor.score(), Some(1.0));
    assert_eq!(s.random.score(), Some(1.0));
    assert_eq!(s.kind(Positive), &s.positive);
}

/// musician and person tie; otherwise the §4.1 ranking.
fn tie_model() -> impl Fn(&str, &str) -> Option<f64> {
    model(&[
        ("musician", 0.9),
        ("person", 0.9),
        ("performer", 0.8),
        ("artist", 0.7),
        ("song", 0.3),
        ("laptop", 0.1),
    ])
}

#[test]
fn tie_policies_on_table1() {
    // Row 1 is a tie (weight 0.8, majority prefers w2 = musician).
    // Row 2: artist 0.7 < person 0.9, R = 0.8 → s = −0.6, credit 0.
    // Row 3: credit 0.2; rows 4, 5: credit 1 each. Other weights 0.6 + 0.2 + 1 + 1.
    let c = table1();
    let m = tie_model();
    let half = score(&c, &m, TiePolicy::HalfCredit).unwrap().overall;
    // credit = 0.4 + 0 + 0.2 + 1 + 1 = 2.6, weight 3.6 → 13/18
    assert!(close(half.score(), 13.0 / 18.0));
    assert_eq!((half.scored, half.ties, half.skipped_ties), (5, 1, 0));
    let second = score(&c, &m, TiePolicy::ChooseSecond).unwrap().overall;
    // the tie counts as choosing musician: s = −(0.2 − 1) = 0.8 → credit 3.0 → 5/6
    assert!(close(second.score(), 5.0 / 6.0));
    assert_eq!((second.scored, second.ties), (5, 1));
    let skip = score(&c, &m, TiePolicy::Skip).unwrap().overall;
    // row 1 leaves both sums: credit 2.2, weight 2.8 → 11/14
    assert!(close(skip.score(), 11.0 / 14.0));
    assert_eq!((skip.scored, skip.ties, skip.skipped_ties), (4, 0, 1));
    assert_eq!((skip.total(), skip.skipped()), (5, 1));
}

#[test]
fn constant_model_under_each_tie_policy() {
    let c = table1();
    let constant = |_: &str, _: &str| Some(0.5);
    // Published evaluator: δ = −1 everywhere. s = 0.8, −0.6, −0.2, −1, −1:
    // credit 0.8 / weight 3.6 = 2/9; positives 0.8/1.6 = 0.5; D and R get 0.
    let s = score(&c, &constant, TiePolicy::ChooseSecond).unwrap();
    assert!(close(s.overall.score(), 2.0 / 9.0));
    assert!(close(s.positive.score(), 0.5));
    assert_eq!(s.distractor.score(), Some(0.0));
    assert_eq!(s.random.score(), Some(0.0));
    // Half credit: chance, 0.5 everywhere.
    let s = score(&c, &constant, TiePolicy::HalfCredit).unwrap();
    for t in [s.overall, s.positive, s.distractor, s.random] {
        assert!(close(t.score(), 0.5));
    }
    // Skip: nothing is scored, the score is undefined, every tie is counted.
    let s = score(&c, &constant, TiePolicy::Skip).unwrap();
    assert_eq!(s.overall.score(), None);
    assert_eq!((s.overall.scored, s.overall.skipped_ties), (0, 5));
}

#[test]
fn default_tie_policy_is_half_credit() {
    assert_eq!(TiePolicy::default(), TiePolicy::HalfCredit);
}

#[test]
fn unknown_words_are_skipped_from_both_sums_and_counted() {
    // performer and laptop unknown: rows 3 and 5 are skipped.
    let s = table1_score(&[
        ("musician", 0.9),
        ("artist", 0.7),
        ("person", 0.4),
        ("song", 0.3),
    ]);
    // credit = weight = 0.8 + 0.6 + 1 = 2.4
    assert!(close(s.overall.score(), 1.0));
    assert!((s.overall.weight - 2.4).abs() < CLOSE);
    assert_eq!((s.overall.scored, s.overall.unknown), (3, 2));
    assert_eq!((s.positive.scored, s.positive.unknown), (2, 1));
    assert_eq!((s.random.scored, s.random.unknown), (0, 1));
    assert_eq!(s.random.score(), None);
    // An unknown target skips everything.
    let none = |_: &str, _: &str| None;
    let s = score(&table1(), &none, TiePolicy::default()).unwrap();
    assert_eq!((s.overall.score(), s.overall.unknown), (None, 5));
}

#[test]
fn undefined_when_nothing_is_scored_or_all_weights_zero() {
    let empty: Vec<Comparison> = Vec::new();
    let m = |_: &str, _: &str| Some(1.0);
    let s = score(&empty, &m, TiePolicy::default()).unwrap();
    assert_eq!(s.overall, Tally::default());
    assert_eq!(s.overall.score(), None);
    // Only R = 0.5: scored, but Σ|s| = 0.
    let c = vec![Comparison::new("t", "a", "b", 0.5, Positive)];
    let s = score(
        &c,
        &|_: &str, w: &str| Some(w.len() as f64),
        TiePolicy::default(),
    )
    .unwrap();
    assert_eq!((s.overall.scored, s.overall.score()), (1, None));
}

#[test]
fn invalid_reliability_is_reported_with_its_index() {
    let m = |_: &str, _: &str| Some(1.0);
    for bad in [f64::NAN, -0.1, 1.5, f64::INFINITY] {
        let mut c = table1();
        c[3].reliability = bad;
        let e = score(&c, &m, TiePolicy::default()).unwrap_err();
        assert!(matches!(
            e,
            TripletError::InvalidReliability { index: 3, .. }
        ));
        assert!(e.to_string().starts_with("comparison 3: reliability"));
        assert!(score_where(&c, &m, TiePolicy::default(), |_| false).is_err());
        assert!(score_by(&c, &m, TiePolicy::default(), |_| Some(())).is_err());
    }
}

#[test]
fn nan_similarity_is_an_error() {
    let m = |_: &str, w: &str| Some(if w == "performer" { f64::NAN } else { 1.0 });
    let e = score(&table1(), &m, TiePolicy::default()).unwrap_err();
    assert_eq!(e, TripletError::NanSimilarity { index: 2 });
    assert_eq!(e.to_string(), "comparison 2: the model's similarity is NaN");
}

#[test]
fn user_filters_and_groups() {
    let mut c = table1();
    c.push(Comparison::new("cab", "taxi", "car", 0.9, Positive));
    let m = model(&[
        ("person", 0.95),
        ("musician", 0.9),
        ("performer", 0.8),
        ("artist", 0.7),
        ("song", 0.3),
        ("laptop", 0.1),
        ("taxi", 0.2),
        ("car", 0.6),
    ]);
    let per = score_by(&c, &m, TiePolicy::default(), |c| Some(c.target.clone())).unwrap();
    assert_eq!(per.len(), 2);
    assert!(close(per["singer"].score(), 11.0 / 18.0)); // as in table1_model_preferring_person
    assert_eq!(per["cab"].score(), Some(0.0)); // taxi < car against R = 0.9
    let reliable = score_where(&c, &m, TiePolicy::default(), |c| {
        (2.0 * c.reliability - 1.0).abs() >= 0.6
    })
    .unwrap();
    // rows 1, 2, 4, 5 and cab: credit 0 + 0 + 1 + 1 + 0, weight 0.8 + 0.6 + 1 + 1 + 0.8
    assert!(close(reliable.score(), 2.0 / 4.2));
    assert_eq!(reliable.scored, 5);
    // The overall tally equals the tally of the "keep everything" filter.
    let all = score_where(&c, &m, TiePolicy::default(), |_| true).unwrap();
    assert_eq!(all, score(&c, &m, TiePolicy::default()).unwrap().overall);
}

#[test]
fn borrowed_words_score_like_owned_ones() {
    let owned = table1();
    let borrowed: Vec<Comparison<&str>> = owned.iter().map(Comparison::as_str).collect();
    let m = tie_model();
    assert_eq!(
        score(&owned, &m, TiePolicy::default()).unwrap(),
        score(&borrowed, &m, TiePolicy::default()).unwrap()
    );
}

#[test]
fn reversing_comparisons_changes_only_choose_second() {
    let c = table1();
    let rev: Vec<Comparison> = c.iter().cloned().map(Comparison::reversed).collect();
    let m = tie_model();
    for ties in [TiePolicy::HalfCredit, TiePolicy::Skip] {
        let a = score(&c, &m, ties).unwrap().overall.score().unwrap();
        let b = score(&rev, &m, ties).unwrap().overall.score().unwrap();
        assert!((a - b).abs() < CLOSE);
    }
    // ChooseSecond: the tie now counts as choosing w2 = person, against the majority
    // (reversed row 1 has R = 0.9): credit 0 + 0 + 0.2 + 1 + 1 = 2.2 of 3.6.
    let b = score(&rev, &m, TiePolicy::ChooseSecond)
        .unwrap()
        .overall
        .score();
    assert!(close(b, 11.0 / 18.0));
}

// ---------------------------------------------------------------------------
// proptest

/// The definition, computed naively: (credit, weight, scored, unknown, ties, skipped).
fn oracle(
    c: &[Comparison],
    sims: &[Option<f64>],
    ties: TiePolicy,
) -> (f64, f64, usize, usize, usize, usize) {
    let sim = |w: &str| sims[w.parse::<usize>().unwrap()];
    let (mut credit, mut weight) = (0.0, 0.0);
    let (mut scored, mut unknown, mut tied, mut skipped) = (0, 0, 0, 0);
    for x in c {
        let (Some(a), Some(b)) = (sim(&x.w1), sim(&x.w2)) else {
            unknown += 1;
            continue;
        };
        let r = x.reliability;
        let s = if a > b {
            2.0 * r - 1.0
        } else if a < b {
            -(2.0 * r - 1.0)
        } else {
            match ties {
                TiePolicy::Skip => {
                    skipped += 1;
                    continue;
                }
                TiePolicy::ChooseSecond => {
                    tied += 1;
                    -(2.0 * r - 1.0)
                }
                _ => {
                    tied += 1;
                    scored += 1;
                    credit += (2.0 * r - 1.0).abs() / 2.0;
                    weight += (2.0 * r - 1.0).abs();
                    continue;
                }
            }
        };
        scored += 1;
        credit += s.max(0.0);
        weight += s.abs();
    }
    (credit, weight, scored, unknown, tied, skipped)
}

fn reliability() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(0.5),
        Just(1.0),
        (0u32..=20).prop_map(|k| f64::from(k) / 20.0),
        0.0..=1.0f64,
    ]
}

fn kind() -> impl Strategy<Value = ComparisonKind> {
    prop_oneof![Just(Positive), Just(Distractor), Just(Random)]
}

fn policy() -> impl Strategy<Value = TiePolicy> {
    prop_oneof![
        Just(TiePolicy::HalfCredit),
        Just(TiePolicy::ChooseSecond),
        Just(TiePolicy::Skip)
    ]
}

/// Comparisons over the words "0" … "7" (word "0" is the target).
fn comparisons() -> impl Strategy<Value = Vec<Comparison>> {
    prop::collection::vec((1usize..8, 1usize..8, reliability(), kind()), 0..60).prop_map(|v| {
        v.into_iter()
            .filter(|(a, b, _, _)| a != b)
            .map(|(a, b, r, k)| Comparison::new("0", a.to_string(), b.to_string(), r, k))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn score_matches_oracle_and_lies_in_unit_interval(
        c in comparisons(),
        // few distinct values, so ties are frequent; None = unknown word
        sims in prop::collection::vec(prop::option::weighted(0.85, (0i32..4).prop_map(f64::from)), 8),
        ties in policy(),
    ) {
        let m = |_: &str, w: &str| sims[w.parse::<usize>().unwrap()];
        let s = score(&c, &m, ties).unwrap();
        let t = s.overall;
        let (credit, weight, scored, unknown, tied, skipped) = oracle(&c, &sims, ties);
        prop_assert!((t.credit - credit).abs() < 1e-9 && (t.weight - weight).abs() < 1e-9);
        prop_assert_eq!((t.scored, t.unknown, t.ties, t.skipped_ties), (scored, unknown, tied, skipped));
        prop_assert_eq!(t.total(), c.len());
        for t in [s.overall, s.positive, s.distractor, s.random] {
            if let Some(v) = t.score() {
                prop_assert!((0.0..=1.0).contains(&v));
            } else {
                prop_assert!(t.weight == 0.0);
            }
        }
        // Per-kind tallies partition the overall one.
        prop_assert_eq!(s.positive.scored + s.distractor.scored + s.random.scored, t.scored);
        prop_assert_eq!(s.positive.total() + s.distractor.total() + s.random.total(), c.len());
    }

    #[test]
    fn model_agreeing_with_every_majority_scores_one(
        items in prop::collection::vec((reliability(), kind()), 1..50),
        ties in policy(),
    ) {
        // Every comparison has its own words, so a consistent model exists:
        // it prefers w1 exactly when R > 0.5 (any strict order when R = 0.5).
        let c: Vec<Comparison> = items.iter().enumerate()
            .map(|(i, &(r, k))| Comparison::new(format!("t{i}"), format!("a{i}"), format!("b{i}"), r, k))
            .collect();
        let m = |t: &str, w: &str| {
            let i: usize = t[1..].parse().ok()?;
            let first = w.starts_with('a');
            let prefers_first = items[i].0 >= 0.5;
            Some(if first == prefers_first { 1.0 } else { 0.0 })
        };
        let s = score(&c, &m, ties).unwrap().overall;
        if items.iter().any(|&(r, _)| r != 0.5) {
            prop_assert_eq!(s.score(), Some(1.0));
        } else {
            prop_assert_eq!(s.score(), None);
        }
    }

    #[test]
    fn flipping_every_decision_maps_s_to_one_minus_s(
        c in comparisons(),
        perm in Just((0..8).collect::<Vec<u32>>()).prop_shuffle(),
        ties in policy(),
    ) {
        // No R = 0.5 and an injective model (distinct values per word, w1 ≠ w2): no ties.
        let c: Vec<Comparison> = c.into_iter().filter(|x| x.reliability != 0.5).collect();
        let m = |_: &str, w: &str| Some(f64::from(perm[w.parse::<usize>().unwrap()]));
        let flipped = |t: &str, w: &str| m(t, w).map(|v| -v);
        let a = score(&c, &m, ties).unwrap().overall;
        let b = score(&c, &flipped, ties).unwrap().overall;
        prop_assert_eq!(a.ties + b.ties, 0);
        match (a.score(), b.score()) {
            (Some(x), Some(y)) => prop_assert!((x + y - 1.0).abs() < 1e-12),
            (x, y) => prop_assert!(x.is_none() && y.is_none() && c.is_empty()),
        }
    }
}

#[test]
fn the_model_is_asked_once_per_target_and_word() {
    use std::cell::Cell;
    let calls = Cell::new(0);
    let m = |_: &str, w: &str| {
        calls.set(calls.get() + 1);
        Some(w.len() as f64)
    };
    // Table 1 has 6 distinct candidates of one target: 6 calls for 5 comparisons.
    let once = score(&table1(), &m, TiePolicy::default()).unwrap();
    assert_eq!(calls.get(), 6);
    // A new target starts afresh: the same rows under two alternating targets
    // ask again every time the target changes.
    let mut c = table1();
    for (i, x) in c.iter_mut().enumerate() {
        if i % 2 == 1 {
            x.target = "other".into();
        }
    }
    calls.set(0);
    let _ = score(&c, &m, TiePolicy::default()).unwrap();
    assert_eq!(calls.get(), 10);
    // Same answers as without any reuse (each comparison on its own).
    let mut single = Tally::default();
    for x in table1() {
        let t = score(std::slice::from_ref(&x), &m, TiePolicy::default())
            .unwrap()
            .overall;
        single.credit += t.credit;
        single.weight += t.weight;
    }
    assert!((once.overall.credit - single.credit).abs() < CLOSE);
    assert!((once.overall.weight - single.weight).abs() < CLOSE);
}
