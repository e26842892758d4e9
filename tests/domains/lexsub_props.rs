//! Property tests of the lexical-substitution measures: every score in
//! `[0, 1]`, agreement with slow definitional oracles, invariance under
//! reordering items, and repeated answers never raising a score.

// The oracles hold annotator counts (small integers) in f64, where equality is exact.
#![allow(clippy::float_cmp)]

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroUsize;

use adaptive_comp_metrics::lexsub::{
    Corpus, GoldItem, Measure, Penalty, Profile, SystemAnswer, Totals, gap, revised, semeval,
};
use proptest::prelude::*;

const VOCAB: [&str; 12] = [
    "glad",
    "merry",
    "sunny",
    "jovial",
    "cheerful",
    "content",
    "x",
    "y",
    "z",
    "well-being",
    "well being",
    "Glad",
];

fn gold_item(id: usize) -> impl Strategy<Value = GoldItem> {
    prop::collection::btree_map(0..VOCAB.len(), 1u32..6, 1..8).prop_map(move |m| {
        GoldItem::new(
            id.to_string(),
            "happy.a",
            m.into_iter().map(|(t, c)| (VOCAB[t], c)),
        )
        .unwrap()
    })
}

fn answers() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            (0..VOCAB.len()).prop_map(|i| VOCAB[i].to_string()),
            "[a-c]{1,2}".prop_map(|s| s),
        ],
        0..15,
    )
}

/// Every measure the module has, with k = 1 and k = 3.
fn measures() -> Vec<Measure> {
    let k = |n| NonZeroUsize::new(n).unwrap();
    let mut all = Measure::all(Penalty::ONE, k(1)).to_vec();
    all.extend([
        Measure::Precision(Penalty::new(0.0).unwrap()),
        Measure::Precision(Penalty::new(2.5).unwrap()),
        Measure::PrecisionAt(k(3)),
        Measure::RecallAt(k(3)),
    ]);
    all
}

// ---- slow oracles, written from the definitions with sets and maps ----

fn freq_map(g: &GoldItem) -> BTreeMap<String, f64> {
    g.substitutes()
        .iter()
        .map(|s| (s.term.clone(), f64::from(s.count)))
        .collect()
}

/// The answer *set* in first-seen order.
fn as_set(a: &[String]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    a.iter()
        .filter(|t| seen.insert((*t).clone()))
        .cloned()
        .collect()
}

fn oracle(m: Measure, g: &GoldItem, a: &[String]) -> Option<f64> {
    let f = freq_map(g);
    let freq = |t: &String| f.get(t).copied().unwrap_or(0.0);
    let h: f64 = f.values().sum();
    let maxf = f.values().copied().fold(0.0, f64::max);
    let set = as_set(a);
    let n = set.len() as f64;
    let covered = |s: &[String]| s.iter().map(freq).sum::<f64>();
    let top: Vec<&String> = f
        .iter()
        .filter(|(_, c)| **c == maxf)
        .map(|(t, _)| t)
        .collect();
    let mode = (top.len() == 1).then(|| top[0].clone());
    let ten = &set[..set.len().min(10)];
    let ratio = |x: f64, y: f64| if y == 0.0 { 0.0 } else { x / y };
    Some(match m {
        Measure::Best => ratio(covered(&set), h * n),
        Measure::ModeBest => f64::from(u8::from(set.first() == Some(&mode?))),
        Measure::Oot => covered(ten) / h,
        Measure::ModeOot => f64::from(u8::from(ten.contains(&mode?))),
        Measure::NewBest => ratio(covered(&set), maxf * n),
        Measure::Best1 => set.first().map_or(0.0, |t| freq(t) / maxf),
        Measure::Recall => covered(&set) / h,
        Measure::Precision(k) => {
            let wrong = set.iter().filter(|t| !f.contains_key(*t)).count() as f64;
            ratio(covered(&set), covered(&set) + k.value() * wrong)
        }
        Measure::Rank => {
            let mut opt: Vec<f64> = f.values().copied().collect();
            opt.sort_by(|a, b| b.total_cmp(a));
            (1..=10)
                .map(|j| {
                    let ca: f64 = set.iter().take(j).map(freq).sum();
                    let ch: f64 = opt.iter().take(j).sum();
                    ca / ch
                })
                .sum::<f64>()
                / 10.0
        }
        Measure::Gap => {
            let x: Vec<f64> = set.iter().map(freq).collect();
            let mut y: Vec<f64> = f.values().copied().collect();
            y.sort_by(|a, b| b.total_cmp(a));
            let avg = |v: &[f64], i: usize| v[..=i].iter().sum::<f64>() / (i + 1) as f64;
            let num: f64 = (0..x.len())
                .filter(|&i| x[i] > 0.0)
                .map(|i| avg(&x, i))
                .sum();
            let den: f64 = (0..y.len()).map(|i| avg(&y, i)).sum();
            num / den
        }
        Measure::PrecisionAt(k) | Measure::RecallAt(k) => {
            let hits = set.iter().take(k.get()).filter(|t| f.contains_key(*t));
            let of = if matches!(m, Measure::PrecisionAt(_)) {
                k.get()
            } else {
                f.len()
            };
            hits.count() as f64 / of as f64
        }
        _ => unreachable!("a new measure needs an oracle"),
    })
}

fn corpus_input() -> impl Strategy<Value = (Vec<GoldItem>, Vec<SystemAnswer>)> {
    (1usize..12)
        .prop_flat_map(|n| {
            let golds: Vec<_> = (0..n).map(gold_item).collect();
            (golds, prop::collection::vec(prop::option::of(answers()), n))
        })
        .prop_map(|(gold, ans)| {
            let sys = gold
                .iter()
                .zip(ans)
                .filter_map(|(g, a)| {
                    a.map(|answers| SystemAnswer {
                        id: g.id().to_string(),
                        target: g.target().to_string(),
                        answers,
                    })
                })
                .collect();
            (gold, sys)
        })
}

fn in_unit(t: &Totals) -> bool {
    let ok = |v: Option<f64>| v.is_none_or(|v| (0.0..=1.0).contains(&v));
    ok(t.precision()) && ok(t.recall()) && t.attempted <= t.items
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn per_item_scores_match_the_oracle_and_lie_in_unit_interval(g in gold_item(1), a in answers()) {
        for m in measures() {
            let got = m.score(&g, &a);
            let want = oracle(m, &g, &a);
            prop_assert_eq!(got.is_some(), want.is_some(), "{:?}", m);
            if let (Some(got), Some(want)) = (got, want) {
                prop_assert!((got - want).abs() < 1e-12, "{:?}: {} vs oracle {}", m, got, want);
                prop_assert!((0.0..=1.0).contains(&got), "{:?}: {}", m, got);
            }
        }
    }

    #[test]
    fn repeated_answers_never_raise_a_score(
        g in gold_item(1),
        a in answers(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..5),
    ) {
        prop_assume!(!a.is_empty());
        let mut with_dups = a.clone();
        for (src, dst) in picks {
            // insert a copy of an answer somewhere after its first occurrence
            let i = src.index(with_dups.len());
            let first = with_dups.iter().position(|t| *t == with_dups[i]).unwrap();
            let at = first + 1 + dst.index(with_dups.len() - first);
            let copy = with_dups[i].clone();
            with_dups.insert(at, copy);
        }
        for m in measures() {
            let (before, after) = (m.score(&g, &a), m.score(&g, &with_dups));
            if let (Some(b), Some(x)) = (before, after) {
                prop_assert!(x <= b + 1e-15, "{:?}: {} → {}", m, b, x);
            }
        }
    }

    #[test]
    fn corpus_totals_in_range_and_invariant_under_reordering(
        (gold, sys) in corpus_input(),
        seed in any::<u64>(),
        profile in prop_oneof![Just(Profile::Semeval2007), Just(Profile::Strict)],
    ) {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let c = Corpus::new(&gold, &sys, profile).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut g2, mut s2) = (gold.clone(), sys.clone());
        g2.shuffle(&mut rng);
        s2.shuffle(&mut rng);
        let c2 = Corpus::new(&g2, &s2, profile).unwrap();
        for m in measures() {
            let (t, t2) = (c.totals(m), c2.totals(m));
            prop_assert!(in_unit(&t), "{:?}: {:?}", m, t);
            prop_assert_eq!((t.attempted, t.items), (t2.attempted, t2.items));
            prop_assert!((t.credit - t2.credit).abs() < 1e-12, "{:?}", m);
        }
        for av in [gap::Averaging::Macro, gap::Averaging::Micro] {
            let r = gap::at_k(&c, NonZeroUsize::new(3).unwrap(), av);
            let ok = |v: Option<f64>| v.is_none_or(|v| (0.0..=1.0).contains(&v));
            prop_assert!(ok(r.precision) && ok(r.recall));
        }
    }

    #[test]
    fn the_optimal_answers_score_one(g in gold_item(1)) {
        let mut by_weight: Vec<&str> = g.substitutes().iter().map(|s| s.term.as_str()).collect();
        by_weight.sort_by_key(|t| std::cmp::Reverse(g.freq(t)));
        prop_assert!((revised::rank(&g, &by_weight) - 1.0).abs() < 1e-12);
        prop_assert!((gap::gap(&g, &by_weight) - 1.0).abs() < 1e-12);
        prop_assert!((revised::new_best(&g, &by_weight[..1]) - 1.0).abs() < 1e-12);
        prop_assert!((revised::best1(&g, &by_weight) - 1.0).abs() < 1e-12);
        prop_assert!((revised::recall(&g, &by_weight) - 1.0).abs() < 1e-12);
        prop_assert!((revised::precision(&g, &by_weight, Penalty::ONE) - 1.0).abs() < 1e-12);
        let ten = &by_weight[..by_weight.len().min(10)];
        prop_assert!((semeval::oot(&g, ten) - 1.0).abs() < 1e-12 || by_weight.len() > 10);
    }
}
