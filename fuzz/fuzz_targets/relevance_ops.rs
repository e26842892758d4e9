//! Arbitrary sequences of calls into the relevance module's in-memory API:
//! rank-biased overlap (`rbo`, `rbo_tied`, `tie_groups`), per-query metrics
//! (`evaluate_query`, `evaluate_query_with_missing`) and their means
//! (`mean_metrics`), judgement statistics (`grade_stats`, `classify`) and the
//! streaming CSV reader (`judgement_records`). The cut-off k is drawn from the
//! whole `usize` range. Never a panic; every value a number in its range.
#![no_main]

use adaptive_comp_metrics::relevance::{
    Class, Exponential, JudgementColumns, Label, Level, Linear, NoRelevant, Options, QueryMetrics,
    Thresholds, classify, evaluate_query, evaluate_query_with_missing, grade_stats,
    judgement_records, mean_metrics, rbo, rbo_tied, tie_groups,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "support.rs"]
mod support;
use support::{Float, Size, floats, in_precision, within};

#[derive(Debug, Arbitrary)]
struct LabelIn {
    relevant: bool,
    grade: Option<Float>,
}

#[derive(Debug, Arbitrary)]
enum GainIn {
    Linear,
    Exponential,
    /// A closure gain that may return anything (negative, NaN, ∞).
    Scaled(Float),
}

#[derive(Debug, Arbitrary)]
enum Op {
    /// Items are small numbers so the rankings overlap (and repeat).
    Rbo {
        s: Vec<u8>,
        t: Vec<u8>,
        p: Float,
    },
    RboTied {
        s: Vec<Vec<u8>>,
        t: Vec<Vec<u8>>,
        p: Float,
    },
    TieGroups {
        items: Vec<u8>,
        scores: Vec<Float>,
        single: bool,
    },
    Evaluate {
        scores: Vec<Float>,
        labels: Vec<LabelIn>,
        missing: Vec<LabelIn>,
        k: Size,
        gain: GainIn,
        single: bool,
    },
    Mean {
        skip: bool,
    },
    Grades {
        grades: Vec<i32>,
        floor: i32,
        top: i32,
    },
    Records {
        header: u8,
        body: Vec<u8>,
        columns: [u8; 4],
    },
}

fn check_rbo(r: &adaptive_comp_metrics::relevance::Rbo) {
    within(r.min, 0.0, 1.0, "rbo min");
    within(r.residual, 0.0, 1.0, "rbo residual");
    within(r.ext, 0.0, 1.0, "rbo ext");
    within(r.max(), 0.0, 1.0, "rbo max");
    assert!(r.min <= r.ext && r.ext <= r.max(), "{r:?}");
}

fn check_metrics(m: &QueryMetrics, n: usize) {
    assert_eq!(m.ranked, n);
    within(m.precision_at_k, 0.0, 1.0, "P@k");
    for (v, what) in [
        (m.average_precision, "AP"),
        (m.r_precision, "R-precision"),
        (m.reciprocal_rank, "RR"),
        (m.ndcg_at_k, "nDCG@k"),
    ] {
        if let Some(v) = v {
            within(v, 0.0, 1.0, what);
        }
    }
    let defined = m.relevant > 0;
    assert_eq!(m.average_precision.is_some(), defined);
    assert_eq!(m.r_precision.is_some(), defined);
    assert_eq!(m.reciprocal_rank.is_some(), defined);
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9,
        (a, b) => a == b,
    }
}

const NAMES: [&str; 6] = ["query", "document", "annotator", "grade", "q", ""];

fn evaluate<G: adaptive_comp_metrics::relevance::Gain>(
    scores: &[f64],
    labels: &[Label],
    missing: &[Label],
    options: &Options<G>,
    single: bool,
) -> Option<QueryMetrics> {
    let m = in_precision!(single, scores, |s| {
        evaluate_query_with_missing(s, labels, missing, options)
    })
    .ok()?;
    check_metrics(&m, scores.len());
    let relevant = labels.iter().chain(missing).filter(|l| l.relevant).count();
    assert_eq!(m.relevant, relevant);
    if missing.is_empty() && !single {
        assert_eq!(evaluate_query(scores, labels, options).ok(), Some(m));
    }
    // Input order never matters (up to the last bits of compensated sums).
    if !single {
        let rs: Vec<f64> = scores.iter().rev().copied().collect();
        let rl: Vec<Label> = labels.iter().rev().copied().collect();
        let r = evaluate_query_with_missing(&rs, &rl, missing, options)
            .expect("a permutation of valid input is valid");
        assert!(
            close(r.average_precision, m.average_precision)
                && close(Some(r.precision_at_k), Some(m.precision_at_k))
                && close(r.r_precision, m.r_precision)
                && close(r.reciprocal_rank, m.reciprocal_rank)
                && close(r.ndcg_at_k, m.ndcg_at_k),
            "{m:?} vs reversed {r:?}"
        );
    }
    Some(m)
}

fuzz_target!(|ops: Vec<Op>| {
    let mut per_query: Vec<QueryMetrics> = Vec::new();
    for op in ops.into_iter().take(64) {
        match op {
            Op::Rbo { s, t, p } => {
                let a = rbo(&s, &t, p.0);
                if let Ok(r) = &a {
                    check_rbo(r);
                    assert!(p.0 > 0.0 && p.0 < 1.0);
                }
                // Symmetric, and the singleton-group case of rbo_tied.
                let b = rbo(&t, &s, p.0);
                assert_eq!(a.as_ref().ok(), b.as_ref().ok(), "rbo(s, t) vs rbo(t, s)");
                let sg: Vec<[u8; 1]> = s.iter().map(|&v| [v]).collect();
                let tg: Vec<[u8; 1]> = t.iter().map(|&v| [v]).collect();
                assert_eq!(a, rbo_tied(&sg, &tg, p.0));
            }
            Op::RboTied { s, t, p } => {
                if let Ok(r) = rbo_tied(&s, &t, p.0) {
                    check_rbo(&r);
                    assert_eq!(rbo_tied(&t, &s, p.0).ok(), Some(r));
                }
            }
            Op::TieGroups {
                items,
                scores,
                single,
            } => {
                let scores = floats(&scores);
                let groups = in_precision!(single, scores, |s| tie_groups(&items, s));
                if let Ok(groups) = groups {
                    assert!(groups.iter().all(|g| !g.is_empty()));
                    let mut flat: Vec<u8> = groups.concat();
                    let mut sorted = items.clone();
                    flat.sort_unstable();
                    sorted.sort_unstable();
                    assert_eq!(flat, sorted, "groups are a partition of the items");
                }
            }
            Op::Evaluate {
                scores,
                labels,
                missing,
                k,
                gain,
                single,
            } => {
                let scores = floats(&scores);
                let to_label = |l: &LabelIn| Label {
                    relevant: l.relevant,
                    grade: l.grade.map(|g| g.0),
                };
                let labels: Vec<Label> = labels.iter().map(to_label).collect();
                let missing: Vec<Label> = missing.iter().map(to_label).collect();
                let base = Options {
                    k: k.0,
                    ..Options::default()
                };
                let m = match gain {
                    GainIn::Linear => {
                        evaluate(&scores, &labels, &missing, &base.with_gain(Linear), single)
                    }
                    GainIn::Exponential => evaluate(
                        &scores,
                        &labels,
                        &missing,
                        &base.with_gain(Exponential),
                        single,
                    ),
                    GainIn::Scaled(c) => {
                        let g = move |v: f64| v * c.0;
                        evaluate(&scores, &labels, &missing, &base.with_gain(g), single)
                    }
                };
                if k.0 == 0 {
                    assert!(m.is_none(), "k = 0 is refused");
                }
                per_query.extend(m);
            }
            Op::Mean { skip } => {
                let policy = if skip {
                    NoRelevant::Skip
                } else {
                    NoRelevant::Zero
                };
                let mm = mean_metrics(&per_query, policy);
                for (mean, values) in [
                    (
                        mm.map,
                        per_query
                            .iter()
                            .map(|m| m.average_precision)
                            .collect::<Vec<_>>(),
                    ),
                    (
                        mm.precision_at_k,
                        per_query.iter().map(|m| Some(m.precision_at_k)).collect(),
                    ),
                    (
                        mm.r_precision,
                        per_query.iter().map(|m| m.r_precision).collect(),
                    ),
                    (
                        mm.mrr,
                        per_query.iter().map(|m| m.reciprocal_rank).collect(),
                    ),
                    (
                        mm.ndcg_at_k,
                        per_query.iter().map(|m| m.ndcg_at_k).collect(),
                    ),
                ] {
                    let counted = if skip {
                        values.iter().flatten().count()
                    } else {
                        values.len()
                    };
                    assert_eq!(mean.queries, counted);
                    assert_eq!(mean.value.is_some(), counted > 0);
                    if let Some(v) = mean.value {
                        within(v, 0.0, 1.0 + 1e-12, "mean metric");
                    }
                }
            }
            Op::Grades { grades, floor, top } => {
                let t = Thresholds {
                    floor,
                    top,
                    ..Thresholds::default()
                };
                let (s, c) = (grade_stats(&grades), classify(&grades, &t));
                assert_eq!(s.is_ok(), !grades.is_empty());
                assert_eq!(c.is_ok(), !grades.is_empty());
                if let (Ok(s), Ok(c)) = (s, c) {
                    assert_eq!(s.count, grades.len());
                    assert_eq!(Some(&s.min), grades.iter().min());
                    assert_eq!(Some(&s.max), grades.iter().max());
                    within(s.mean, f64::from(s.min), f64::from(s.max), "mean grade");
                    assert_eq!(s.sd.is_some(), grades.len() >= 2);
                    if let Some(sd) = s.sd {
                        // The sample SD of values in [min, max] is at most
                        // (max − min)·√(n/(n − 1))/2 ≤ (max − min)/√2.
                        let range = f64::from(s.max) - f64::from(s.min);
                        within(sd, 0.0, range * 0.7072, "grade sd");
                    }
                    let expected = if s.min < floor {
                        Class::NotRelevant
                    } else if s.max >= top {
                        Class::StrictlyRelevant
                    } else {
                        Class::LooselyRelevant
                    };
                    assert_eq!(c, expected);
                    assert!(c.is_relevant_at(Level::Strict) <= c.is_relevant_at(Level::Loose));
                }
            }
            Op::Records {
                header,
                body,
                columns,
            } => {
                let name = |i: u8| NAMES[usize::from(i) % NAMES.len()];
                let cols = JudgementColumns {
                    query: name(columns[0]),
                    document: name(columns[1]),
                    annotator: name(columns[2]),
                    grade: name(columns[3]),
                };
                let text = if header & 1 == 1 {
                    [b"query,document,annotator,grade\n".as_slice(), &body].concat()
                } else {
                    body
                };
                let Ok(records) = judgement_records(text.as_slice(), &cols) else {
                    continue;
                };
                // Lines count `\n` (documented): records after a lone `\r`
                // share their line, so lines never decrease.
                let mut last = 2;
                for r in records.take(10_000) {
                    let Ok(r) = r else { continue };
                    assert!(r.line >= last, "record lines: {} after {last}", r.line);
                    last = r.line;
                }
            }
        }
    }
});
