//! `trec_eval`'s official measures and the others it prints (`gm_map`,
//! `bpref`, `iprec_at_recall`, `recall`, `success`, `map_cut`, `num_q`),
//! both releases' score precision, and the readers' `trec_eval` syntax:
//! values worked out by hand from `trec_eval`'s definitions, a by-the-book
//! oracle of both releases under proptest, and a brute force over every tie
//! order for the tie-aware expectations.

// Exact comparisons where the value is exact in binary or must be
// bit-identical to trec_eval's arithmetic.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::relevance::{
    Ids, Measure, NoRelevant, RelevanceError, Ties, TrecEvalVersion, TrecOptions, TrecSyntax,
    evaluate_trec, read_trec_qrels_with, read_trec_run, read_trec_run_with,
};
use proptest::prelude::*;
use std::collections::HashMap;

use super::relevance_trec::{at_level, build, eval, first_row, measures};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const V9: TrecOptions = TrecOptions {
    relevance_level: 1,
    ties: Ties::TrecEval,
    no_relevant: NoRelevant::Zero,
    complete: false,
    gain: adaptive_comp_metrics::relevance::Linear,
    version: TrecEvalVersion::V9,
};

#[test]
fn scores_as_c_floats_or_doubles() -> TestResult {
    // Issue 24 item 4: 0.3 and 0.30000000000000004 are one C float. trec_eval
    // 10.0 (doubles) ranks x first: AP 1/2. trec_eval 9.0.8 and pytrec_eval
    // (floats) see a tie, broken by decreasing id: y first, AP 1 (both
    // binaries print these values on these files).
    let qrels = "a 0 x 0\na 0 y 1\n";
    let run = "a Q0 x 1 0.30000000000000004 r\na Q0 y 2 0.3 r\n";
    let m = [Measure::AveragePrecision];
    assert_eq!(
        eval(qrels, run, &m, &TrecOptions::default())?.summary[0].value,
        Some(0.5)
    );
    assert_eq!(eval(qrels, run, &m, &V9)?.summary[0].value, Some(1.0));
    // Scores distinct as floats keep their order in both.
    let far = "a Q0 x 1 0.31 r\na Q0 y 2 0.3 r\n";
    assert_eq!(eval(qrels, far, &m, &V9)?.summary[0].value, Some(0.5));
    // A float tie among other documents: only the tied run is reordered.
    // 1 + 1e-9 and 1 are one float; "b" > "a" so b goes first in 9.
    let qrels = "q 0 a 1\nq 0 b 0\nq 0 c 1\n";
    let run = "q Q0 c 1 2 r\nq Q0 a 2 1.000000001 r\nq Q0 b 3 1 r\nq Q0 z 4 0.5 r\n";
    let ap10 = (1.0 + 2.0 / 2.0) / 2.0; // c, a (rel), b, z
    let ap9 = (1.0 + 2.0 / 3.0) / 2.0; // c, b, a (rel), z
    assert_eq!(
        first_row(&eval(qrels, run, &m, &TrecOptions::default())?),
        [ap10]
    );
    assert_eq!(first_row(&eval(qrels, run, &m, &V9)?), [ap9]);
    // Under Ties::Expected, 9 groups by float: a and b form one tie group.
    let ex9 = TrecOptions {
        ties: Ties::Expected,
        ..V9
    };
    let ex10 = TrecOptions {
        ties: Ties::Expected,
        ..TrecOptions::default()
    };
    assert_eq!(first_row(&eval(qrels, run, &m, &ex10)?), [ap10]);
    let mean = (ap10 + ap9) / 2.0;
    assert!((first_row(&eval(qrels, run, &m, &ex9)?)[0] - mean).abs() < 1e-15);
    Ok(())
}

#[test]
fn new_measures_by_hand() -> TestResult {
    // Judged: r1 r2 r3 relevant (grades 2, 1, 1), n1 n2 non-relevant (0),
    // u1 "in the pool, unjudged" (−1). Ranking (scores strictly decreasing):
    //   1 n1  2 r1  3 x (not judged)  4 u1  5 n2  6 r2    (r3 not retrieved)
    let qrels = "q 0 r1 2\nq 0 r2 1\nq 0 r3 1\nq 0 n1 0\nq 0 n2 0\nq 0 u1 -1\n";
    let run =
        "q Q0 n1 1 6 t\nq Q0 r1 2 5 t\nq Q0 x 3 4 t\nq Q0 u1 4 3 t\nq Q0 n2 5 2 t\nq Q0 r2 6 1 t\n";
    let m = measures(
        "bpref gm_map recall.2,6 success.1,2 map_cut.2,10 num_q \
         iprec_at_recall.0,0.3,0.4,0.5,0.6,0.7,1",
    );
    let v = first_row(&eval(qrels, run, &m, &TrecOptions::default())?);
    // R = 3, N = 2 judged non-relevant, min(N, R) = 2. r1 has n1 above it:
    // 1 − 1/2; r2 has n1 and n2 (u1 and x are skipped): 1 − 2/2.
    assert_eq!(v[0], (0.5 + 0.0) / 3.0);
    // AP = (1/2 + 2/6)/3; gm_map's per-query value is its logarithm.
    let ap: f64 = (1.0 / 2.0 + 2.0 / 6.0) / 3.0;
    assert_eq!(v[1], ap.ln());
    assert_eq!((v[2], v[3]), (1.0 / 3.0, 2.0 / 3.0));
    assert_eq!((v[4], v[5]), (0.0, 1.0));
    assert_eq!((v[6], v[7]), (0.5 / 3.0, ap));
    assert_eq!(v[8], 1.0);
    // Precision at the relevant documents: 1/2 (rank 2), 2/6 (rank 6).
    // Recall level p needs c = round(3p) relevant documents (trec_eval 10):
    // p = 0, 0.3 (c = 0.9 → 1), 0.4 (1.2 → 1): max(1/2, 1/3) = 1/2;
    // 0.5 (1.5 → 2), 0.6 (1.8 → 2): 1/3; 0.7 (2.1 → 2): 1/3; 1 (3): 0.
    assert_eq!(
        &v[9..],
        [0.5, 0.5, 0.5, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0]
    );
    // trec_eval 9: c = ⌊3p + 0.9⌋ in doubles: p = 0.3 → 1, 0.4 → 2 (2.1),
    // 0.5 → 2, 0.6 → 2 (2.7), 0.7 → 2 (0.7·3 = 2.0999999999999996, so
    // 2.9999999999999996), 1 → 3. Both binaries print these values.
    let v9 = first_row(&eval(qrels, run, &m, &V9)?);
    assert_eq!(&v9[..9], &v[..9]);
    assert_eq!(
        &v9[9..],
        [0.5, 0.5, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0]
    );
    Ok(())
}

#[test]
fn geometric_map_summary_and_undefined_queries() -> TestResult {
    // a: AP 1; b: AP 1/4 (relevant at rank 4 of 4); c: no relevant document
    // (AP 0, floored at 1e-5). gm_map = exp((ln 1 + ln 1/4 + ln 1e-5)/3).
    let qrels = "a 0 a1 1\nb 0 b4 1\nc 0 c1 0\n";
    let run = "a Q0 a1 1 1 r\nb Q0 b1 1 4 r\nb Q0 b2 2 3 r\nb Q0 b3 3 2 r\nb Q0 b4 4 1 r\nc Q0 c1 1 1 r\n";
    let m = [Measure::GeometricMap, Measure::AveragePrecision];
    let r = eval(qrels, run, &m, &TrecOptions::default())?;
    let want = ((1.0_f64.ln() + 0.25_f64.ln() + 1e-5_f64.ln()) / 3.0).exp();
    let got = r.summary[0].value.ok_or("gm_map")?;
    assert!((got - want).abs() < 1e-15, "{got} {want}");
    assert_eq!(r.row(2).ok_or("row")?[0], None);
    // Skip leaves c out: exp((0 + ln 1/4)/2) = 1/2.
    let skip = TrecOptions {
        no_relevant: NoRelevant::Skip,
        ..TrecOptions::default()
    };
    let r = eval(qrels, run, &m, &skip)?;
    assert!((r.summary[0].value.ok_or("gm_map")? - 0.5).abs() < 1e-15);
    // -c: a judged query the run lacks counts as AP 0 (floored).
    let c = TrecOptions {
        complete: true,
        ..TrecOptions::default()
    };
    let r = eval(&format!("{qrels}d 0 d1 1\n"), run, &m, &c)?;
    let want = ((0.25_f64.ln() + 2.0 * 1e-5_f64.ln()) / 4.0).exp();
    assert!((r.summary[0].value.ok_or("gm_map")? - want).abs() < 1e-15);
    Ok(())
}

#[test]
fn bpref_counts_only_judged_documents() -> TestResult {
    // More non-relevant documents than relevant: min(N, R) caps both the
    // count above and the denominator. R = 2, N = 3: denominator 2.
    //   1 n1  2 n2  3 n3  4 r1  5 r2
    let qrels = "q 0 r1 1\nq 0 r2 1\nq 0 n1 0\nq 0 n2 0\nq 0 n3 0\n";
    let run = "q Q0 n1 1 5 t\nq Q0 n2 2 4 t\nq Q0 n3 3 3 t\nq Q0 r1 4 2 t\nq Q0 r2 5 1 t\n";
    let b = [Measure::Bpref];
    // Each relevant document has 3 non-relevant above: min(3, 2)/2 = 1.
    assert_eq!(
        first_row(&eval(qrels, run, &b, &TrecOptions::default())?),
        [0.0]
    );
    // Level 2: nothing relevant: undefined (trec_eval prints 0).
    assert!(first_row(&eval(qrels, run, &b, &at_level(2))?)[0].is_nan());
    // Level 0: every judged document is relevant, none non-relevant (N = 0):
    // bpref = relevant retrieved / R = 5/5.
    assert_eq!(first_row(&eval(qrels, run, &b, &at_level(0))?), [1.0]);
    // No judged non-relevant document at level 1: every relevant one
    // retrieved scores 1; r2 not retrieved: 1/2.
    let r = eval(
        "q 0 r1 1\nq 0 r2 1\n",
        "q Q0 x 1 2 t\nq Q0 r1 2 1 t\n",
        &b,
        &TrecOptions::default(),
    )?;
    assert_eq!(first_row(&r), [0.5]);
    Ok(())
}

#[test]
fn tie_aware_values_by_hand() -> TestResult {
    // One tie group of 4: r1, r2 relevant, n1 judged non-relevant, x not
    // judged. R = 2, N = 1.
    let qrels = "q 0 r1 1\nq 0 r2 1\nq 0 n1 0\n";
    let run = "q Q0 r1 1 1 t\nq Q0 r2 2 1 t\nq Q0 n1 3 1 t\nq Q0 x 4 1 t\n";
    let m = measures("bpref success.1,2 recall.1 map_cut.1,4");
    let o = TrecOptions {
        ties: Ties::Expected,
        ..TrecOptions::default()
    };
    let v = first_row(&eval(qrels, run, &m, &o)?);
    // bpref: each relevant document has n1 above it with probability 1/2:
    // E[1 − min(X, 2)/1] = 1/2.
    assert!((v[0] - 0.5).abs() < 1e-15);
    // success_1 = P(first is relevant) = 2/4; success_2 = 1 − C(2,2)/C(4,2) = 5/6.
    assert!((v[1] - 0.5).abs() < 1e-15 && (v[2] - 5.0 / 6.0).abs() < 1e-15);
    // recall_1 = E[relevant in the top 1]/R = (1/2)/2.
    assert!((v[3] - 0.25).abs() < 1e-15);
    // map_cut_1 = P(rank 1 relevant) · 1 / R = 1/4.
    assert!((v[4] - 0.25).abs() < 1e-15);
    // map_cut_4 = E[AP] = (1/R)(r/n) Σ_{t=1..4} (1 + (t−1)/3)/t
    let sum: f64 = (1..=4)
        .map(|t| (1.0 + f64::from(t - 1) / 3.0) / f64::from(t))
        .sum();
    assert!((v[5] - 0.5 * 0.5 * sum).abs() < 1e-15);
    // gm_map and iprec_at_recall have no expectation here.
    for bad in [Measure::GeometricMap, Measure::InterpolatedPrecision(50)] {
        let err = eval(qrels, run, &[Measure::AveragePrecision, bad], &o);
        assert_eq!(
            err.err(),
            Some(RelevanceError::NoExpectation {
                measure: bad.to_string()
            })
        );
    }
    Ok(())
}

#[test]
fn trec_eval_syntax_of_the_readers() -> TestResult {
    let q = |t: &str, s| read_trec_qrels_with(t.as_bytes(), &mut Ids::new(), s).map(|q| q.len());
    let r = |t: &str, s| read_trec_run_with(t.as_bytes(), &mut Ids::new(), s).map(|r| r.len());
    let (lenient, strict) = (TrecSyntax::Lenient, TrecSyntax::TrecEval);
    // Blank, white-space-only and CRLF-blank lines of qrels: trec_eval (9.0.8
    // and 10.0) stops with "Malformed line"; so does the trec_eval syntax.
    for (text, line) in [
        ("a 0 x 1\n\na 0 y 0\n", 2),
        ("a 0 x 1\n  \t\na 0 y 0\n", 2),
        ("a 0 x 1\r\n\r\na 0 y 0\r\n", 2),
        ("a 0 x 1\na 0 y 0\n\n", 3),
        ("\na 0 x 1\n", 1),
    ] {
        assert_eq!(
            q(text, lenient)?,
            text.lines().filter(|l| !l.trim().is_empty()).count()
        );
        assert_eq!(
            q(text, strict),
            Err(RelevanceError::BlankLine {
                line,
                column: 1,
                format: "qid iter docno rel"
            }),
            "{text:?}"
        );
    }
    // What trec_eval reads in qrels, both syntaxes read: CRLF, tabs,
    // trailing and leading white space, a comment, no final newline.
    let ok = "# c\n  a\t0 x 1  \r\na 0 y 0\t\na 0 z 2";
    assert_eq!((q(ok, lenient)?, q(ok, strict)?), (3, 3));
    // Runs: blank lines skipped by both (trec_eval skips them too); the
    // trec_eval syntax ignores fields after the tag and skips lines whose
    // first field starts with '#', as trec_eval 10.0 does.
    let blank = "a Q0 x 1 0.5 r\n\n \t\r\na Q0 y 2 0.4 r\r\n";
    assert_eq!((r(blank, lenient)?, r(blank, strict)?), (2, 2));
    let extra = "a Q0 x 1 0.5 r extra fields\na Q0 y 2 0.4 r\n";
    assert_eq!(r(extra, strict)?, 2);
    assert!(matches!(
        r(extra, lenient),
        Err(RelevanceError::FieldCount {
            line: 1,
            found: 8,
            ..
        })
    ));
    let comments = "# c\n  # indented\n#Q0 x 1 0.5 r t\na Q0 x 1 0.5 r\n";
    assert_eq!(r(comments, strict)?, 1);
    assert!(r(comments, lenient).is_err());
    assert!(matches!(
        r("a Q0 x 1 0.5\n", strict),
        Err(RelevanceError::FieldCount {
            line: 1,
            found: 5,
            ..
        })
    ));
    // The run's name is the tag of its last line (trec_eval's runid).
    let run = read_trec_run(
        "a Q0 x 1 1 first\n\nb Q0 y 1 1 second\n".as_bytes(),
        &mut Ids::new(),
    )?;
    assert_eq!(run.name(), Some("second"));
    assert_eq!(
        read_trec_run(&b"a Q0 x 1 1 first\nb Q0 y 1 1 \xff\n"[..], &mut Ids::new()).err(),
        Some(RelevanceError::NotUtf8 { line: 2 })
    );
    Ok(())
}

// ------------------------------------------------------------ oracles

/// The measures the oracles know (`trec_eval -m` names).
const MEASURES: &str = "num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank \
    iprec_at_recall.0,0.1,0.3,0.5,0.7,1 P.1,3 recall.2,5 success.1,3 map_cut.2,4 ndcg_cut.3 ndcg";

/// One query by the book: `grades` of the ranked documents in rank order
/// (`None`: not judged), every judged grade, the level and the release.
/// Undefined values are trec_eval's: 0 (gm_map: ln 1e-5).
fn by_the_book(
    ranked: &[Option<i32>],
    judged: &[i32],
    level: i32,
    version: TrecEvalVersion,
    m: Measure,
) -> f64 {
    let rel = |g: &Option<i32>| g.is_some_and(|g| g >= level);
    let r = judged.iter().filter(|&&g| g >= level).count();
    let n_judged_nonrel = judged.iter().filter(|&&g| g >= 0 && g < level).count();
    let rf = r as f64;
    let top = |k: usize| ranked.iter().take(k).filter(|g| rel(g)).count();
    let prec_at = |i: usize| top(i) as f64 / i as f64;
    let ap_to = |k: usize| -> f64 {
        let mut sum = 0.0;
        for i in 1..=k.min(ranked.len()) {
            if rel(&ranked[i - 1]) {
                sum += prec_at(i);
            }
        }
        if r > 0 { sum / rf } else { 0.0 }
    };
    let dcg = |gains: &[f64], k: usize| -> f64 {
        gains
            .iter()
            .take(k)
            .enumerate()
            .map(|(i, g)| g / ((i + 2) as f64).log2())
            .sum()
    };
    let ndcg = |k: usize| {
        let gains: Vec<f64> = ranked
            .iter()
            .map(|g| f64::from(g.unwrap_or(0).max(0)))
            .collect();
        let mut ideal: Vec<f64> = judged.iter().map(|&g| f64::from(g.max(0))).collect();
        ideal.sort_by(|a, b| b.total_cmp(a));
        let i = dcg(&ideal, k);
        if i > 0.0 { dcg(&gains, k) / i } else { 0.0 }
    };
    match m {
        Measure::Queries => 1.0,
        Measure::Retrieved => ranked.len() as f64,
        Measure::Relevant => rf,
        Measure::RelevantRetrieved => top(ranked.len()) as f64,
        Measure::AveragePrecision => ap_to(ranked.len()),
        Measure::GeometricMap => ap_to(ranked.len()).max(1e-5).ln(),
        Measure::RPrecision => {
            if r > 0 {
                top(r) as f64 / rf
            } else {
                0.0
            }
        }
        Measure::ReciprocalRank => ranked
            .iter()
            .position(&rel)
            .map_or(0.0, |i| 1.0 / (i + 1) as f64),
        Measure::Precision(k) => top(k) as f64 / k as f64,
        Measure::Recall(k) => {
            if r > 0 {
                top(k) as f64 / rf
            } else {
                0.0
            }
        }
        Measure::Success(k) => f64::from(u8::from(top(k) > 0)),
        Measure::MapCut(k) => ap_to(k),
        Measure::NdcgCut(k) => ndcg(k),
        Measure::Ndcg => ndcg(usize::MAX),
        Measure::Bpref => {
            // Buckley & Voorhees (2004) as trec_eval's m_bpref.c counts.
            let denominator = n_judged_nonrel.min(r) as f64;
            let mut nonrel_above = 0;
            let mut sum = 0.0;
            for g in ranked {
                match g {
                    Some(g) if *g >= level => {
                        sum += if nonrel_above > 0 {
                            1.0 - nonrel_above.min(r) as f64 / denominator
                        } else {
                            1.0
                        };
                    }
                    Some(g) if *g >= 0 => nonrel_above += 1,
                    _ => {}
                }
            }
            if r > 0 { sum / rf } else { 0.0 }
        }
        Measure::InterpolatedPrecision(p) => {
            // trec_eval's m_iprec_at_recall.c: walk back from the last rank,
            // keeping the largest precision seen; at the relevant document
            // that brings recall to the cut-off, that is the value.
            let x = f64::from(p) / 100.0 * rf;
            let cut = match version {
                TrecEvalVersion::V9 => (x + 0.9) as usize,
                _ => x.round() as usize,
            };
            let rel_ret = top(ranked.len());
            if r == 0 || ranked.is_empty() || cut > rel_ret {
                return 0.0;
            }
            let mut best = rel_ret as f64 / ranked.len() as f64;
            let mut so_far = rel_ret;
            let mut value = None;
            for i in (1..=ranked.len()).rev() {
                if so_far == 0 {
                    break;
                }
                best = best.max(so_far as f64 / i as f64);
                if rel(&ranked[i - 1]) {
                    if so_far == cut {
                        value = Some(best);
                    }
                    so_far -= 1;
                }
            }
            value.unwrap_or(best)
        }
        _ => f64::NAN,
    }
}

/// The ranking of `ranked` (name, score) in a release's order: decreasing
/// score (as f32 for 9), ties by decreasing name.
fn trec_order(ranked: &[(String, f64)], version: TrecEvalVersion) -> Vec<usize> {
    let key = |s: f64| match version {
        TrecEvalVersion::V9 => f64::from(s as f32),
        _ => s,
    };
    let mut order: Vec<usize> = (0..ranked.len()).collect();
    order.sort_by(|&a, &b| {
        key(ranked[b].1)
            .total_cmp(&key(ranked[a].1))
            .then(ranked[b].0.cmp(&ranked[a].0))
    });
    order
}

/// Every order of the ranking that keeps the score order (tie groups by
/// the release's score precision) permuted every way.
fn all_tie_orders(ranked: &[(String, f64)], version: TrecEvalVersion) -> Vec<Vec<usize>> {
    let key = |s: f64| match version {
        TrecEvalVersion::V9 => f64::from(s as f32),
        _ => s,
    };
    let order = trec_order(ranked, version);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if key(ranked[g[0]].1) == key(ranked[i].1) => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut orders = vec![Vec::new()];
    for g in &groups {
        let mut next = Vec::new();
        for p in permutations(g) {
            for o in &orders {
                let mut o: Vec<usize> = o.clone();
                o.extend(&p);
                next.push(o);
            }
        }
        orders = next;
    }
    orders
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

#[derive(Debug, Clone)]
struct Case {
    judged: Vec<(String, i32)>,
    ranked: Vec<(String, f64)>,
}

fn grades_in(case: &Case, order: &[usize]) -> Vec<Option<i32>> {
    let grade: HashMap<&str, i32> = case.judged.iter().map(|(d, g)| (d.as_str(), *g)).collect();
    order
        .iter()
        .map(|&i| grade.get(case.ranked[i].0.as_str()).copied())
        .collect()
}

/// Scores drawn so that some are equal as f32 but not as f64 (1 and
/// 1 + 2⁻³⁰, 0.3 and 0.30000000000000004), and many are equal.
fn score() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        0.0,
        0.5,
        1.0,
        1.0 + 2f64.powi(-30),
        1.0 - 2f64.powi(-40),
        0.3,
        0.300_000_000_000_000_04,
        2.0,
    ])
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::btree_map(0..12_u32, -2..=3_i32, 1..10),
        prop::collection::btree_map(0..12_u32, score(), 0..8),
    )
        .prop_map(|(judged, ranked)| Case {
            judged: judged
                .into_iter()
                .map(|(d, g)| (format!("d{d}"), g))
                .collect(),
            ranked: ranked
                .into_iter()
                .map(|(d, s)| (format!("d{d}"), s))
                .collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Both releases' orders and values against the by-the-book oracle:
    /// equal to the last bit but for gm_map's logarithm and nDCG's sums.
    #[test]
    fn trec_eval_order_equals_the_oracle(c in case(), level in 0..3_i32, nine in any::<bool>()) {
        let version = if nine { TrecEvalVersion::V9 } else { TrecEvalVersion::V10 };
        let (qrels, run) = build(&c.judged, &c.ranked)?;
        let o = TrecOptions { relevance_level: level, complete: true, version, ..TrecOptions::default() };
        let all = measures(MEASURES);
        let rep = evaluate_trec(&qrels, &run, &all, &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let ranked = grades_in(&c, &trec_order(&c.ranked, version));
        let judged: Vec<i32> = c.judged.iter().map(|(_, g)| *g).collect();
        let row = rep.row(0).ok_or_else(|| TestCaseError::fail("no row"))?;
        for (&m, got) in all.iter().zip(row) {
            let want = by_the_book(&ranked, &judged, level, version, m);
            let got = got.unwrap_or(if m == Measure::GeometricMap { 1e-5_f64.ln() } else { 0.0 });
            prop_assert!((got - want).abs() <= 1e-12, "{} {:?}: {} vs {}", m, version, got, want);
        }
    }

    /// The tie-aware values equal the mean over every order of the ties
    /// of the by-the-book values (tie groups by f64, or by f32 for 9).
    #[test]
    fn tie_aware_values_equal_the_brute_force(c in case(), level in 0..3_i32, nine in any::<bool>()) {
        let version = if nine { TrecEvalVersion::V9 } else { TrecEvalVersion::V10 };
        let measures: Vec<Measure> = measures(MEASURES).into_iter().filter(|m| m.has_expectation()).collect();
        let (qrels, run) = build(&c.judged, &c.ranked)?;
        let o = TrecOptions { relevance_level: level, complete: true, ties: Ties::Expected, version, ..TrecOptions::default() };
        let rep = evaluate_trec(&qrels, &run, &measures, &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let judged: Vec<i32> = c.judged.iter().map(|(_, g)| *g).collect();
        let orders = all_tie_orders(&c.ranked, version);
        let row = rep.row(0).ok_or_else(|| TestCaseError::fail("no row"))?;
        for (&m, got) in measures.iter().zip(row) {
            let want = orders
                .iter()
                .map(|o| by_the_book(&grades_in(&c, o), &judged, level, version, m))
                .sum::<f64>()
                / orders.len() as f64;
            let got = got.unwrap_or(0.0);
            prop_assert!((got - want).abs() <= 1e-12, "{} {:?}: {} vs {}", m, version, got, want);
        }
    }
}
