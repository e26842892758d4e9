//! Judgement aggregation, PhraseRel classes and tie-aware retrieval metrics:
//! hand-computed values and proptest invariants against a brute-force oracle.

// Exact comparisons only where the value is exact in binary (0, 1/2, 1/4).
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::relevance::{
    Class, Exponential, Judgements, Label, Level, Linear, NoRelevant, Options, QueryMetrics,
    RelevanceError, Run, Scale, Thresholds, classify, evaluate_query, evaluate_query_with_missing,
    evaluate_run, grade_stats, mean_metrics,
};
use approx::assert_abs_diff_eq;
use proptest::prelude::*;

use crate::top_k;

type R = Result<(), RelevanceError>;

fn lbl(relevant: bool, grade: f64) -> Label {
    Label::new(relevant, grade)
}

// ---------------------------------------------------------------- classes

#[test]
fn classes_follow_the_chapter_definitions() -> R {
    let t = Thresholds::default();
    // Chapter: strict ⇔ all ≥ 0 and at least one 3; loose ⇔ all ≥ 0.
    assert_eq!(classify(&[3, 0, 1], &t)?, Class::StrictlyRelevant);
    assert_eq!(classify(&[3, 3, 3], &t)?, Class::StrictlyRelevant);
    assert_eq!(classify(&[0, 0, 0], &t)?, Class::LooselyRelevant);
    assert_eq!(classify(&[2, 1, 2], &t)?, Class::LooselyRelevant);
    assert_eq!(classify(&[3, 3, -1], &t)?, Class::NotRelevant);
    assert_eq!(classify(&[-3, -3, -3], &t)?, Class::NotRelevant);
    assert!(Class::StrictlyRelevant.is_loosely_relevant());
    assert!(!Class::LooselyRelevant.is_strictly_relevant());
    assert!(Class::StrictlyRelevant.is_relevant_at(Level::Strict));
    assert!(!Class::LooselyRelevant.is_relevant_at(Level::Strict));
    assert!(Class::LooselyRelevant.is_relevant_at(Level::Loose));
    // Other thresholds: relevant from 1, strict from 2.
    let t2 = Thresholds {
        floor: 1,
        top: 2,
        diverse_min_loose: 2,
    };
    assert_eq!(classify(&[2, 1], &t2)?, Class::StrictlyRelevant);
    assert_eq!(classify(&[1, 1], &t2)?, Class::LooselyRelevant);
    assert_eq!(classify(&[0, 3], &t2)?, Class::NotRelevant);
    Ok(())
}

#[test]
fn grade_stats_by_hand() -> R {
    // [0, 3, 3]: mean 2; squared deviations 4 + 1 + 1 = 6; sample SD √(6/2) = √3.
    let s = grade_stats(&[0, 3, 3])?;
    assert_eq!((s.count, s.min, s.max), (3, 0, 3));
    assert_abs_diff_eq!(s.mean, 2.0);
    assert_abs_diff_eq!(s.sd.unwrap_or(f64::NAN), 3.0_f64.sqrt(), epsilon = 1e-15);
    // [-3, 2]: mean −0.5; deviations 2.5², 2.5² → sample SD √12.5.
    let s = grade_stats(&[-3, 2])?;
    assert_abs_diff_eq!(s.mean, -0.5);
    assert_abs_diff_eq!(s.sd.unwrap_or(f64::NAN), 12.5_f64.sqrt(), epsilon = 1e-15);
    assert_eq!(grade_stats(&[1])?.sd, None);
    assert!(matches!(
        grade_stats(&[]),
        Err(RelevanceError::InvalidParameter { name: "grades", .. })
    ));
    Ok(())
}

#[test]
fn aggregation_counts_and_diverse_queries() -> R {
    let mut j = Judgements::new(Scale::default());
    // q1: five documents, four loosely relevant (two strictly) → diverse.
    let q1 = [
        ("a", [3, 2, 1]),  // strict
        ("b", [0, 3, 0]),  // strict
        ("c", [1, 1, 2]),  // loose
        ("d", [0, 0, 0]),  // loose
        ("e", [3, 3, -1]), // not relevant
    ];
    for (doc, grades) in q1 {
        for (ann, g) in ["w1", "w2", "w3"].iter().zip(grades) {
            j.add("q1", doc, ann, i64::from(g))?;
        }
    }
    // q2: three loosely relevant → not diverse.
    for doc in ["x", "y", "z"] {
        j.add("q2", doc, "w1", 1)?;
    }
    assert_eq!(j.len(), 18);
    assert_eq!(j.pair_count(), 8);
    let a = j.summarize(&Thresholds::default())?;
    let q = a.query("q1").ok_or(RelevanceError::NoHeader)?;
    assert_eq!(
        (q.judged, q.strictly_relevant, q.loosely_relevant, q.diverse),
        (5, 2, 4, true)
    );
    let q = a.query("q2").ok_or(RelevanceError::NoHeader)?;
    assert_eq!((q.loosely_relevant, q.diverse), (3, false));
    let p = a.pair("q1", "b").ok_or(RelevanceError::NoHeader)?;
    assert_eq!(p.class, Class::StrictlyRelevant);
    assert_abs_diff_eq!(p.stats.mean, 1.0);
    assert_abs_diff_eq!(
        p.stats.sd.unwrap_or(f64::NAN),
        3.0_f64.sqrt(),
        epsilon = 1e-15
    );
    let docs: Vec<&str> = a.documents("q1").map(|p| p.document.as_str()).collect();
    assert_eq!(docs, ["a", "b", "c", "d", "e"]);
    assert_eq!(a.documents("nope").count(), 0);
    // With the diverse threshold at 3, q2 is diverse too.
    let a3 = j.summarize(&Thresholds {
        diverse_min_loose: 3,
        ..Thresholds::default()
    })?;
    assert!(a3.queries().iter().all(|q| q.diverse));
    Ok(())
}

#[test]
fn judgement_errors() -> R {
    let mut j = Judgements::new(Scale::default());
    j.add("q", "d", "w", 2)?;
    assert!(matches!(
        j.add("q", "d", "w", 1),
        Err(RelevanceError::DuplicateJudgement { at, first, .. })
            if at == adaptive_comp_metrics::relevance::Location::Record(2)
            && first == adaptive_comp_metrics::relevance::Location::Record(1)
    ));
    assert!(matches!(
        j.add("q", "d2", "w", 4),
        Err(RelevanceError::GradeOffScale {
            grade: 4,
            min: -3,
            max: 3,
            ..
        })
    ));
    assert!(j.add("q", "d2", "w", i64::MIN).is_err());
    assert_eq!(j.len(), 1);
    assert!(Scale::new(3, 3).is_err());
    let bad = Thresholds {
        top: 4,
        ..Thresholds::default()
    };
    assert!(j.summarize(&bad).is_err());
    let bad = Thresholds {
        floor: 2,
        top: 1,
        ..Thresholds::default()
    };
    assert!(j.summarize(&bad).is_err());
    assert_eq!(
        Thresholds::for_scale(Scale::new(1, 5)?),
        Thresholds {
            floor: 1,
            top: 5,
            diverse_min_loose: 4
        }
    );
    Ok(())
}

// ---------------------------------------------------------------- metrics by hand

#[test]
fn untied_metrics_by_hand() -> R {
    // Ranking (by decreasing score): R N R N N, grades 3, 0, 1, -1, 2
    // (the last is graded 2 but not relevant, to separate nDCG from AP).
    let scores = [5.0, 4.0, 3.0, 2.0, 1.0];
    let labels = [
        lbl(true, 3.0),
        lbl(false, 0.0),
        lbl(true, 1.0),
        lbl(false, -1.0),
        lbl(false, 2.0),
    ];
    let m = evaluate_query(&scores, &labels, &top_k(3))?;
    // AP = (1/1 + 2/3) / 2 = 5/6.
    assert_abs_diff_eq!(
        m.average_precision.unwrap_or(f64::NAN),
        5.0 / 6.0,
        epsilon = 1e-15
    );
    // P@3 = 2/3; R = 2 → R-precision = P@2 = 1/2; first relevant at rank 1.
    assert_abs_diff_eq!(m.precision_at_k, 2.0 / 3.0, epsilon = 1e-15);
    assert_abs_diff_eq!(m.r_precision.unwrap_or(f64::NAN), 0.5, epsilon = 1e-15);
    assert_eq!(m.reciprocal_rank, Some(1.0));
    // Linear gains 3, 0, 1, 0, 2. DCG@3 = 3/log2(2) + 0 + 1/log2(4) = 3.5.
    // Ideal gains 3, 2, 1: IDCG@3 = 3 + 2/log2(3) + 1/2.
    let idcg = 3.0 + 2.0 / 3.0_f64.log2() + 0.5;
    assert_abs_diff_eq!(m.ndcg_at_k.unwrap_or(f64::NAN), 3.5 / idcg, epsilon = 1e-15);
    // Exponential gains 7, 0, 1, 0, 3: DCG@3 = 7 + 1/2, IDCG@3 = 7 + 3/log2(3) + 1/2.
    let e = evaluate_query(&scores, &labels, &top_k(3).with_gain(Exponential))?;
    let idcg = 7.0 + 3.0 / 3.0_f64.log2() + 0.5;
    assert_abs_diff_eq!(e.ndcg_at_k.unwrap_or(f64::NAN), 7.5 / idcg, epsilon = 1e-15);
    // A closure gain: 1 for any positive mean grade (binary nDCG).
    let b = evaluate_query(
        &scores,
        &labels,
        &top_k(3).with_gain(|g: f64| if g > 0.0 { 1.0 } else { 0.0 }),
    )?;
    // Gains 1,0,1,0,1: DCG@3 = 1 + 1/2, IDCG@3 = 1 + 1/log2(3) + 1/2.
    let idcg = 1.5 + 1.0 / 3.0_f64.log2();
    assert_abs_diff_eq!(b.ndcg_at_k.unwrap_or(f64::NAN), 1.5 / idcg, epsilon = 1e-15);
    // k beyond the list: P@10 = 2/10.
    let m10 = evaluate_query(&scores, &labels, &Options::default())?;
    assert_abs_diff_eq!(m10.precision_at_k, 0.2, epsilon = 1e-15);
    Ok(())
}

#[test]
fn reciprocal_rank_and_missing_documents_by_hand() -> R {
    // N N R: RR = 1/3.
    let labels = [lbl(false, 0.0), lbl(false, 0.0), lbl(true, 2.0)];
    let m = evaluate_query(&[3.0, 2.0, 1.0], &labels, &Options::default())?;
    assert_abs_diff_eq!(
        m.reciprocal_rank.unwrap_or(f64::NAN),
        1.0 / 3.0,
        epsilon = 1e-15
    );
    // One more relevant document the model did not rank: R = 2.
    // AP = (1/3)/2 = 1/6; R-precision = P@2 = 0; nDCG@10 = (2/log2 4)/(2 + 2/log2 3).
    let missing = [lbl(true, 2.0)];
    let m = evaluate_query_with_missing(&[3.0, 2.0, 1.0], &labels, &missing, &Options::default())?;
    assert_eq!(m.relevant, 2);
    assert_abs_diff_eq!(
        m.average_precision.unwrap_or(f64::NAN),
        1.0 / 6.0,
        epsilon = 1e-15
    );
    assert_eq!(m.r_precision, Some(0.0));
    let ndcg = 1.0 / (2.0 + 2.0 / 3.0_f64.log2());
    assert_abs_diff_eq!(m.ndcg_at_k.unwrap_or(f64::NAN), ndcg, epsilon = 1e-15);
    // Nothing ranked, one relevant missing: AP = RR = 0.
    let m = evaluate_query_with_missing::<f64, _>(&[], &[], &missing, &Options::default())?;
    assert_eq!(
        (m.average_precision, m.reciprocal_rank),
        (Some(0.0), Some(0.0))
    );
    Ok(())
}

#[test]
fn tied_metrics_by_hand() -> R {
    // Scores 0.9, 0.9, 0.1 with labels R, N, R. Two orders of the tie:
    //   R N R: AP = (1 + 2/3)/2 = 5/6,  RR = 1,   P@1 = 1, P@2 = 1/2
    //   N R R: AP = (1/2 + 2/3)/2 = 7/12, RR = 1/2, P@1 = 0, P@2 = 1/2
    // Expectations: AP = 17/24, RR = 3/4, P@1 = 1/2, R-precision = P@2 = 1/2.
    let labels = [lbl(true, 3.0), lbl(false, -1.0), lbl(true, 1.0)];
    let m = evaluate_query(&[0.9, 0.9, 0.1], &labels, &top_k(1))?;
    assert_abs_diff_eq!(
        m.average_precision.unwrap_or(f64::NAN),
        17.0 / 24.0,
        epsilon = 1e-15
    );
    assert_abs_diff_eq!(m.reciprocal_rank.unwrap_or(f64::NAN), 0.75, epsilon = 1e-15);
    assert_abs_diff_eq!(m.precision_at_k, 0.5, epsilon = 1e-15);
    assert_abs_diff_eq!(m.r_precision.unwrap_or(f64::NAN), 0.5, epsilon = 1e-15);
    // nDCG@2, linear gains 3, 0, 1. Orders: DCG@2 = 3 or 0 + 3/log2 3; mean
    // (3 + 3/log2 3)/2. Ideal: 3 + 1/log2 3.
    let m = evaluate_query(&[0.9, 0.9, 0.1], &labels, &top_k(2))?;
    let expected = (3.0 + 3.0 / 3.0_f64.log2()) / 2.0 / (3.0 + 1.0 / 3.0_f64.log2());
    assert_abs_diff_eq!(m.ndcg_at_k.unwrap_or(f64::NAN), expected, epsilon = 1e-15);
    // All tied, 1 relevant of 4: RR = (1 + 1/2 + 1/3 + 1/4)/4 = 25/48; AP the same.
    let labels = [
        lbl(false, 0.0),
        lbl(false, 0.0),
        lbl(true, 3.0),
        lbl(false, 0.0),
    ];
    let m = evaluate_query(&[1.0; 4], &labels, &Options::default())?;
    assert_abs_diff_eq!(
        m.reciprocal_rank.unwrap_or(f64::NAN),
        25.0 / 48.0,
        epsilon = 1e-15
    );
    assert_abs_diff_eq!(
        m.average_precision.unwrap_or(f64::NAN),
        25.0 / 48.0,
        epsilon = 1e-15
    );
    Ok(())
}

#[test]
fn queries_without_relevant_documents() -> R {
    let labels = [lbl(false, -2.0), lbl(false, 0.0)];
    let m = evaluate_query(&[1.0, 0.0], &labels, &Options::default())?;
    assert_eq!(m.average_precision, None);
    assert_eq!(m.r_precision, None);
    assert_eq!(m.reciprocal_rank, None);
    assert_eq!(m.ndcg_at_k, None);
    assert_eq!(m.precision_at_k, 0.0);
    let good = evaluate_query(
        &[1.0, 0.0],
        &[lbl(true, 3.0), lbl(false, 0.0)],
        &Options::default(),
    )?;
    let skip = mean_metrics(&[m, good], NoRelevant::Skip);
    assert_eq!((skip.map.value, skip.map.queries), (Some(1.0), 1));
    assert_eq!((skip.precision_at_k.queries), 2);
    let zero = mean_metrics(&[m, good], NoRelevant::Zero);
    assert_eq!(
        (zero.map.value, zero.mrr.value, zero.ndcg_at_k.queries),
        (Some(0.5), Some(0.5), 2)
    );
    assert_eq!(mean_metrics(&[], NoRelevant::Skip).map.value, None);
    Ok(())
}

#[test]
fn metric_errors() {
    let l = [lbl(true, 1.0), lbl(false, 0.0)];
    let o = Options::default();
    assert!(matches!(
        evaluate_query(&[1.0], &l, &o),
        Err(RelevanceError::LengthMismatch {
            left_len: 1,
            right_len: 2,
            ..
        })
    ));
    assert_eq!(
        evaluate_query(&[1.0, f64::NAN], &l, &o),
        Err(RelevanceError::NaN {
            input: "scores",
            index: 1
        })
    );
    assert_eq!(
        evaluate_query(&[f64::INFINITY, 1.0], &l, &o),
        Err(RelevanceError::Infinite {
            input: "scores",
            index: 0
        })
    );
    assert_eq!(
        evaluate_query(&[1.0, 0.0], &[lbl(true, f64::NAN), lbl(false, 0.0)], &o),
        Err(RelevanceError::NaN {
            input: "labels",
            index: 0
        })
    );
    assert!(matches!(
        evaluate_query(&[1.0, 0.0], &l, &Options { k: 0, ..o }),
        Err(RelevanceError::InvalidParameter { name: "k", .. })
    ));
    let negative = o.with_gain(|g: f64| g);
    assert!(matches!(
        evaluate_query(&[1.0, 0.0], &[lbl(true, 1.0), lbl(false, -1.0)], &negative),
        Err(RelevanceError::InvalidGain {
            input: "labels",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        evaluate_query_with_missing(&[1.0], &[lbl(true, 1.0)], &[lbl(true, f64::INFINITY)], &o),
        Err(RelevanceError::Infinite {
            input: "missing",
            index: 0
        })
    ));
    let mut run = Run::new();
    assert!(run.add("q", "d", f32::NAN).is_err());
    assert!(run.add("q", "d", 1.0_f32).is_ok());
    assert!(matches!(
        run.add("q", "d", 2.0),
        Err(RelevanceError::DuplicateScore { .. })
    ));
}

#[test]
fn f32_scores_work() -> R {
    let m = evaluate_query(
        &[0.5_f32, 0.25],
        &[lbl(false, 0.0), lbl(true, 3.0)],
        &Options::default(),
    )?;
    assert_eq!(m.average_precision, Some(0.5));
    Ok(())
}

#[test]
fn run_policies() -> R {
    let mut j = Judgements::new(Scale::default());
    j.add("q1", "a", "w", 3)?; // strict
    j.add("q1", "b", "w", 1)?; // loose
    j.add("q1", "c", "w", -3)?;
    j.add("q2", "x", "w", 2)?; // loose; q2 absent from the run
    let a = j.summarize(&Thresholds::default())?;
    let mut run = Run::new();
    run.add("q1", "c", 0.9)?;
    run.add("q1", "unjudged", 0.8)?;
    run.add("q1", "a", 0.7)?;
    run.add("q3", "z", 1.0)?; // nobody judged q3
    // Loose: a at rank 3, b missing → AP = (1/3)/2 = 1/6.
    let r = evaluate_run(&a, &run, &Options::default())?;
    assert_eq!(r.queries.len(), 2);
    assert_eq!(r.queries.first().map(|q| q.unjudged), Some(1));
    let q1 = r.queries.first().map(|q| q.metrics);
    assert_abs_diff_eq!(
        q1.and_then(|m| m.average_precision).unwrap_or(f64::NAN),
        1.0 / 6.0,
        epsilon = 1e-15
    );
    assert_eq!(r.unjudged_queries, ["q3"]);
    assert_eq!(r.unranked_queries, ["q2"]);
    // q2 unranked: AP 0. MAP = (1/6 + 0)/2.
    assert_abs_diff_eq!(
        r.mean.map.value.unwrap_or(f64::NAN),
        1.0 / 12.0,
        epsilon = 1e-15
    );
    // Strict: only a is relevant in q1 → AP = 1/3; q2 has no strict
    // document → AP 0, counted by default (trec_eval's convention).
    let strict = Options {
        level: Level::Strict,
        ..Options::default()
    };
    let r = evaluate_run(&a, &run, &strict)?;
    assert_abs_diff_eq!(
        r.mean.map.value.unwrap_or(f64::NAN),
        1.0 / 6.0,
        epsilon = 1e-15
    );
    assert_eq!(r.mean.map.queries, 2);
    // NoRelevant::Skip leaves q2 out.
    let r = evaluate_run(
        &a,
        &run,
        &Options {
            no_relevant: NoRelevant::Skip,
            ..strict
        },
    )?;
    assert_abs_diff_eq!(
        r.mean.map.value.unwrap_or(f64::NAN),
        1.0 / 3.0,
        epsilon = 1e-15
    );
    assert_eq!(r.mean.map.queries, 1);
    Ok(())
}

// ---------------------------------------------------------------- brute-force oracle

/// Untied metrics of labels in rank order (the textbook definitions).
fn plain_metrics(
    order: &[(bool, f64)],
    extra_relevant: usize,
    extra_gains: &[f64],
    k: usize,
) -> QueryMetrics {
    let r = order.iter().filter(|x| x.0).count() + extra_relevant;
    let mut hits = 0;
    let mut ap = 0.0;
    let mut rr = 0.0;
    for (i, &(rel, _)) in order.iter().enumerate() {
        if rel {
            hits += 1;
            ap += hits as f64 / (i + 1) as f64;
            if rr == 0.0 {
                rr = 1.0 / (i + 1) as f64;
            }
        }
    }
    let top = |c: usize| order.iter().take(c).filter(|x| x.0).count() as f64;
    let disc = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let gain = |g: f64| g.max(0.0);
    let dcg: f64 = order
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, x)| gain(x.1) * disc(i))
        .sum();
    let mut ideal: Vec<f64> = order
        .iter()
        .map(|x| gain(x.1))
        .chain(extra_gains.iter().map(|&g| gain(g)))
        .collect();
    ideal.sort_by(|a, b| b.total_cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, g)| g * disc(i))
        .sum();
    QueryMetrics {
        ranked: order.len(),
        relevant: r,
        average_precision: (r > 0).then(|| ap / r as f64),
        precision_at_k: top(k) / k as f64,
        r_precision: (r > 0).then(|| top(r) / r as f64),
        reciprocal_rank: (r > 0).then_some(rr),
        ndcg_at_k: (idcg > 0.0).then(|| dcg / idcg),
    }
}

/// Every permutation of `items` (Heap's algorithm).
fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    fn heap<T: Clone>(k: usize, a: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if k <= 1 {
            out.push(a.clone());
            return;
        }
        for i in 0..k - 1 {
            heap(k - 1, a, out);
            if k.is_multiple_of(2) {
                a.swap(i, k - 1);
            } else {
                a.swap(0, k - 1);
            }
        }
        heap(k - 1, a, out);
    }
    let mut out = Vec::new();
    heap(items.len(), &mut items.to_vec(), &mut out);
    out
}

/// The average of the untied metrics over every ordering of every tie group.
fn brute_force(
    scores: &[i32],
    labels: &[(bool, f64)],
    extra_rel: usize,
    extra_gains: &[f64],
    k: usize,
) -> QueryMetrics {
    let mut distinct: Vec<i32> = scores.to_vec();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let groups: Vec<Vec<(bool, f64)>> = distinct
        .iter()
        .map(|&s| {
            scores
                .iter()
                .zip(labels)
                .filter(|(x, _)| **x == s)
                .map(|(_, l)| *l)
                .collect()
        })
        .collect();
    let mut orders: Vec<Vec<(bool, f64)>> = vec![Vec::new()];
    for g in &groups {
        let perms = permutations(g);
        orders = orders
            .iter()
            .flat_map(|prefix| {
                perms.iter().map(move |p| {
                    let mut o = prefix.clone();
                    o.extend_from_slice(p);
                    o
                })
            })
            .collect();
    }
    let all: Vec<QueryMetrics> = orders
        .iter()
        .map(|o| plain_metrics(o, extra_rel, extra_gains, k))
        .collect();
    let n = all.len() as f64;
    let avg = |f: &dyn Fn(&QueryMetrics) -> Option<f64>| -> Option<f64> {
        let v: Option<Vec<f64>> = all.iter().map(f).collect();
        v.map(|v| v.iter().sum::<f64>() / n)
    };
    QueryMetrics {
        ranked: scores.len(),
        relevant: all.first().map_or(0, |m| m.relevant),
        average_precision: avg(&|m| m.average_precision),
        precision_at_k: all.iter().map(|m| m.precision_at_k).sum::<f64>() / n,
        r_precision: avg(&|m| m.r_precision),
        reciprocal_rank: avg(&|m| m.reciprocal_rank),
        ndcg_at_k: avg(&|m| m.ndcg_at_k),
    }
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => (x - y).abs() < 1e-12,
        (None, None) => true,
        _ => false,
    }
}

fn query_strategy(max: usize) -> impl Strategy<Value = (Vec<i32>, Vec<(bool, f64)>)> {
    (1..=max).prop_flat_map(|n| {
        (
            prop::collection::vec(0..4_i32, n),
            prop::collection::vec((any::<bool>(), -3..=3_i32), n),
        )
            .prop_map(|(s, l)| {
                let labels = l
                    .into_iter()
                    .map(|(r, g)| {
                        (
                            r,
                            if r {
                                f64::from(g.abs())
                            } else {
                                f64::from(g) / 2.0
                            },
                        )
                    })
                    .collect();
                (s, labels)
            })
    })
}

fn to_labels(l: &[(bool, f64)]) -> Vec<Label> {
    l.iter().map(|&(r, g)| Label::new(r, g)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Tie-aware values equal the brute-force mean over all tie orders.
    #[test]
    fn tie_aware_equals_brute_force(
        (scores, labels) in query_strategy(7),
        k in 1..9_usize,
        extra in prop::collection::vec((any::<bool>(), 0..=3_i32), 0..3),
    ) {
        let fs: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
        let missing: Vec<Label> = extra.iter().map(|&(r, g)| Label::new(r, f64::from(g))).collect();
        let extra_rel = extra.iter().filter(|x| x.0).count();
        let extra_gains: Vec<f64> = extra.iter().map(|x| f64::from(x.1)).collect();
        let got = evaluate_query_with_missing(&fs, &to_labels(&labels), &missing, &top_k(k)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want = brute_force(&scores, &labels, extra_rel, &extra_gains, k);
        prop_assert_eq!(got.relevant, want.relevant);
        prop_assert!(close(got.average_precision, want.average_precision), "AP {:?} vs {:?}", got, want);
        prop_assert!((got.precision_at_k - want.precision_at_k).abs() < 1e-12, "P@k {:?} vs {:?}", got, want);
        prop_assert!(close(got.r_precision, want.r_precision), "RP {:?} vs {:?}", got, want);
        prop_assert!(close(got.reciprocal_rank, want.reciprocal_rank), "RR {:?} vs {:?}", got, want);
        prop_assert!(close(got.ndcg_at_k, want.ndcg_at_k), "nDCG {:?} vs {:?}", got, want);
    }

    /// Every metric lies in [0, 1]; input order does not matter.
    #[test]
    fn metrics_in_unit_interval_and_order_free((scores, labels) in query_strategy(40), k in 1..50_usize, rot in 0..40_usize) {
        let fs: Vec<f64> = scores.iter().map(|&s| f64::from(s) * 0.1).collect();
        let o = top_k(k).with_gain(Exponential);
        let m = evaluate_query(&fs, &to_labels(&labels), &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for v in [m.average_precision, Some(m.precision_at_k), m.r_precision, m.reciprocal_rank, m.ndcg_at_k].into_iter().flatten() {
            prop_assert!((0.0..=1.0).contains(&v), "{:?}", m);
        }
        let r = rot % fs.len();
        let (mut fs2, mut l2) = (fs.clone(), labels.clone());
        fs2.rotate_left(r);
        l2.rotate_left(r);
        let m2 = evaluate_query(&fs2, &to_labels(&l2), &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(close(m.average_precision, m2.average_precision));
        prop_assert!(close(m.ndcg_at_k, m2.ndcg_at_k));
        prop_assert!(close(m.reciprocal_rank, m2.reciprocal_rank));
    }

    /// A perfect ranking (relevant first, by decreasing gain) scores 1.
    #[test]
    fn perfect_ranking_scores_one(grades in prop::collection::vec(0..=3_i32, 1..30), n_irrelevant in 0..10_usize) {
        let mut g: Vec<f64> = grades.iter().map(|&g| f64::from(g)).collect();
        g.sort_by(|a, b| b.total_cmp(a));
        let mut labels: Vec<Label> = g.iter().map(|&x| Label::new(true, x)).collect();
        labels.extend(std::iter::repeat_n(Label::new(false, -1.0), n_irrelevant));
        let scores: Vec<f64> = (0..labels.len()).map(|i| -(i as f64)).collect();
        let r = g.len();
        let m = evaluate_query(&scores, &labels, &Options { k: r, ..Options::default() }).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(close(m.average_precision, Some(1.0)));
        prop_assert!(close(m.r_precision, Some(1.0)));
        prop_assert!(close(m.reciprocal_rank, Some(1.0)));
        prop_assert!((m.precision_at_k - 1.0).abs() < 1e-12);
        if g.iter().any(|&x| x > 0.0) {
            prop_assert!(close(m.ndcg_at_k, Some(1.0)), "{:?}", m);
        }
    }

    /// A non-relevant, zero-gain document scored below every relevant or
    /// positive-gain document changes nothing.
    #[test]
    fn irrelevant_document_below_changes_nothing((scores, labels) in query_strategy(12), k in 1..15_usize, below in 1..3_i32, grade in -3..=0_i32) {
        let fs: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
        let floor = scores.iter().zip(&labels).filter(|(_, l)| l.0 || l.1 > 0.0).map(|(s, _)| *s).min().unwrap_or(0);
        let mut fs2 = fs.clone();
        fs2.push(f64::from(floor - below));
        let mut l2 = to_labels(&labels);
        l2.push(Label::new(false, f64::from(grade)));
        let o = Options { k, ..Options::default() };
        let m = evaluate_query(&fs, &to_labels(&labels), &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let m2 = evaluate_query(&fs2, &l2, &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(close(m.average_precision, m2.average_precision));
        prop_assert!(close(m.r_precision, m2.r_precision));
        prop_assert!(close(m.reciprocal_rank, m2.reciprocal_rank));
        prop_assert!(close(m.ndcg_at_k, m2.ndcg_at_k));
        prop_assert!((m.precision_at_k - m2.precision_at_k).abs() < 1e-12);
    }
}

#[test]
fn linear_gain_is_the_default() {
    let o = Options::default();
    assert_eq!((o.k, o.gain), (10, Linear));
}
