//! TREC qrels and runs: values against `pytrec_eval` (trec_eval's C code;
//! `tests/data/relevance/trec_expected.py`), the tie-aware mode against the
//! slice API, `trec_eval`'s conventions by hand, a brute-force oracle under
//! proptest, and line-numbered errors.

// Exact comparisons where the value is exact in binary or must be
// bit-identical to trec_eval's arithmetic.
#![allow(clippy::float_cmp)]

use adaptive_comp_metrics::relevance::{
    Ids, Judgements, Label, Location, Measure, NoRelevant, Options, Qrels, RelevanceError, Scale,
    Thresholds, Ties, TrecOptions, TrecReport, TrecRun, evaluate_query_with_missing, evaluate_run,
    evaluate_trec, read_trec_qrels, read_trec_run,
};
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;

use crate::top_k;
use crate::xorshift::xorshift64;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The file `name` of the relevance test data (`tests/data/relevance/`).
pub(crate) fn data_path(name: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "data",
        "relevance",
        name,
    ]
    .iter()
    .collect()
}

fn read_data(ids: &mut Ids) -> Result<(Qrels, TrecRun), Box<dyn std::error::Error>> {
    let qrels = read_trec_qrels(
        std::io::BufReader::new(std::fs::File::open(data_path("trec.qrels"))?),
        ids,
    )?;
    let run = read_trec_run(
        std::io::BufReader::new(std::fs::File::open(data_path("trec.run"))?),
        ids,
    )?;
    Ok((qrels, run))
}

/// The measures the slice API computes too (`trec_eval -m` names).
const ALL: &str = "map P.5,10 Rprec recip_rank ndcg_cut.5,10 ndcg num_ret num_rel num_rel_ret";

/// The measures of white-space-separated `trec_eval -m` arguments (`map
/// P.5,10 ndcg_cut.10`), in their order (shared with
/// `relevance_trec_official`).
pub(crate) fn measures(spec: &str) -> Vec<Measure> {
    spec.split_whitespace()
        .flat_map(|m| Measure::parse_list(m).unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect()
}

/// Every per-query value and every summary of `report` as (measure, qid).
fn by_name(report: &TrecReport, ids: &Ids) -> HashMap<(String, String), f64> {
    let mut out = HashMap::new();
    for (q, row) in report.rows() {
        let qid = ids.queries().name(q).unwrap_or("?").to_owned();
        for (m, v) in report.measures.iter().zip(row) {
            // trec_eval prints an undefined value as 0 (gm_map: ln 1e-5).
            out.insert(
                (m.to_string(), qid.clone()),
                v.unwrap_or_else(|| m.value_if_undefined()),
            );
        }
    }
    for (m, s) in report.measures.iter().zip(&report.summary) {
        out.insert((m.to_string(), "all".into()), s.value.unwrap_or(f64::NAN));
    }
    out
}

#[test]
fn generated_files_match_pytrec_eval() -> TestResult {
    let mut ids = Ids::new();
    let (qrels, run) = read_data(&mut ids)?;
    let expected = std::fs::read_to_string(data_path("trec_expected.tsv"))?;
    let mut checked = 0;
    for level in [1, 2] {
        // pytrec_eval builds on trec_eval 9 (iprec_at_recall's cut-offs).
        let options = TrecOptions {
            relevance_level: level,
            version: adaptive_comp_metrics::relevance::TrecEvalVersion::V9,
            ..TrecOptions::default()
        };
        let measures = measures(&format!(
            "{ALL} gm_map bpref num_q iprec_at_recall.0,0.1,0.3,0.7,1 recall.5,30 success.1,10 \
             map_cut.5,100 P.1000 gm_bpref relative_P.5,20 Rprec_mult.0.2,1,2 11pt_avg infAP \
             binG G ndcg_rel Rndcg"
        ));
        let report = evaluate_trec(&qrels, &run, &measures, &options)?;
        // pytrec_eval scores the 34 queries both judged and ranked.
        assert_eq!(report.queries.len(), 34);
        let names = |v: &[u32]| -> Vec<String> {
            v.iter()
                .filter_map(|&q| ids.queries().name(q).map(str::to_owned))
                .collect()
        };
        assert_eq!(names(&report.unjudged_queries), ["q7", "q18", "q99"]);
        assert_eq!(names(&report.unranked_queries), ["q3", "q13", "q23", "q33"]);
        let got = by_name(&report, &ids);
        for line in expected.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            let [lv, m, q, v] = f.as_slice() else {
                return Err(format!("bad line {line:?}").into());
            };
            if lv.parse::<i32>()? != level {
                continue;
            }
            let want: f64 = v.parse()?;
            let have = *got
                .get(&((*m).to_owned(), (*q).to_owned()))
                .ok_or_else(|| format!("no value for {m} {q}"))?;
            // Per query: the same arithmetic in the same order as trec_eval,
            // so the same bits. Means: numpy's pairwise sum against the
            // crate's compensated sum (gm_map: and an exponential).
            let tol = if *q == "all" { 1e-14 } else { 0.0 };
            assert!(
                (have - want).abs() <= tol,
                "level {level} {m} {q}: crate {have:?}, pytrec_eval {want:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 1820 + 2 * 12 * 35);
    Ok(())
}

#[test]
fn tie_aware_mode_matches_the_slice_api() -> TestResult {
    // Ties::Expected on the flat layout against evaluate_query_with_missing
    // (tested against a brute force over all tie orders in relevance.rs).
    let mut ids = Ids::new();
    let (qrels, run) = read_data(&mut ids)?;
    let options = TrecOptions {
        ties: Ties::Expected,
        complete: true,
        ..TrecOptions::default()
    };
    let report = evaluate_trec(&qrels, &run, &measures(ALL), &options)?;
    assert_eq!(report.queries.len(), 38);
    for (q, row) in report.rows() {
        let (jd, jg) = qrels.judgements(q).ok_or("judged")?;
        let grade: HashMap<u32, i32> = jd.iter().copied().zip(jg.iter().copied()).collect();
        let (docs, scores) = run.ranking(q).unwrap_or((&[], &[]));
        let label = |g: Option<i32>| match g {
            Some(g) if g >= 0 => Label::new(g >= 1, f64::from(g)),
            _ => Label::unjudged(),
        };
        let labels: Vec<Label> = docs.iter().map(|d| label(grade.get(d).copied())).collect();
        let missing: Vec<Label> = jd
            .iter()
            .zip(jg)
            .filter(|(d, _)| !docs.contains(d))
            .map(|(_, &g)| label(Some(g)))
            .collect();
        for (m, v) in report.measures.iter().zip(row) {
            let k = match m {
                Measure::Ndcg => usize::MAX,
                other => other.cutoff().unwrap_or(10),
            };
            let o = top_k(k);
            let want = evaluate_query_with_missing(scores, &labels, &missing, &o)?;
            let w = match m {
                Measure::AveragePrecision => want.average_precision,
                Measure::Precision(_) => Some(want.precision_at_k),
                Measure::RPrecision => want.r_precision,
                Measure::ReciprocalRank => want.reciprocal_rank,
                Measure::NdcgCut(_) | Measure::Ndcg => want.ndcg_at_k,
                Measure::Retrieved => Some(want.ranked as f64),
                Measure::Relevant => Some(want.relevant as f64),
                _ => continue,
            };
            match (v, w) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-13, "{m} {q}: {a} vs {b}"),
                (a, b) => assert_eq!(*a, b, "{m} {q}"),
            }
        }
    }
    Ok(())
}

/// The first row's values, undefined as NaN.
pub(crate) fn first_row(r: &TrecReport) -> Vec<f64> {
    r.row(0)
        .unwrap_or(&[])
        .iter()
        .map(|v| v.unwrap_or(f64::NAN))
        .collect()
}

/// The default options at the relevance level `level`.
pub(crate) fn at_level(level: i32) -> TrecOptions {
    TrecOptions {
        relevance_level: level,
        ..TrecOptions::default()
    }
}

/// Reads qrels and a run from text into fresh ids and evaluates them (shared
/// with `relevance_trec_official`).
pub(crate) fn eval(
    qrels: &str,
    run: &str,
    m: &[Measure],
    o: &TrecOptions,
) -> Result<TrecReport, RelevanceError> {
    let mut ids = Ids::new();
    let q = read_trec_qrels(qrels.as_bytes(), &mut ids)?;
    let r = read_trec_run(run.as_bytes(), &mut ids)?;
    evaluate_trec(&q, &r, m, o)
}

#[test]
fn queries_without_relevant_documents_count_as_zero() -> TestResult {
    // Issue 15: two queries, one without relevant documents: trec_eval's
    // MAP is 0.5 (pytrec_eval gives map 1.0 and 0.0 for the two queries).
    let qrels = "a 0 d1 1\nb 0 d2 0\n";
    let run = "a Q0 d1 1 1 r\nb Q0 d2 1 1 r\n";
    let m = [Measure::AveragePrecision, Measure::Ndcg];
    let r = eval(qrels, run, &m, &TrecOptions::default())?;
    assert_eq!(r.summary[0].value, Some(0.5));
    assert_eq!((r.summary[1].value, r.summary[1].queries), (Some(0.5), 2));
    assert_eq!(r.row(1), Some(&[None, None][..]));
    let skip = TrecOptions {
        no_relevant: NoRelevant::Skip,
        ..TrecOptions::default()
    };
    let r = eval(qrels, run, &m, &skip)?;
    assert_eq!((r.summary[0].value, r.summary[0].queries), (Some(1.0), 1));

    // The same through the PhraseRel API: the default is now trec_eval's.
    let mut j = Judgements::new(Scale::default());
    j.add("a", "d1", "w", 3)?;
    j.add("b", "d2", "w", -3)?;
    let a = j.summarize(&Thresholds::default())?;
    let mut run = adaptive_comp_metrics::relevance::Run::new();
    run.add("a", "d1", 1.0)?;
    run.add("b", "d2", 1.0)?;
    let report = evaluate_run(&a, &run, &Options::default())?;
    assert_eq!(report.mean.map.value, Some(0.5));
    assert_eq!(report.mean.map.queries, 2);

    // Only negative grades (trec_eval and pytrec_eval crash on such a query:
    // see trec_expected.py): no relevant document, every value 0, counted.
    let r = eval(
        "a 0 d1 1\nc 0 d3 -1\nc 0 d4 -2\n",
        "a Q0 d1 1 1 r\nc Q0 d3 1 1 r\n",
        &m,
        &TrecOptions::default(),
    )?;
    assert_eq!(r.summary[0].value, Some(0.5));
    Ok(())
}

#[test]
fn trec_eval_conventions_by_hand() -> TestResult {
    // q: d10 (grade 2), d9 (grade 1), d1 (grade 0), d5 (grade -1), dx unjudged.
    // Scores tie d10, d9 and dx at 0.5; trec_eval orders the tie by
    // decreasing id as text: "dx" > "d9" > "d10". Ranking:
    //   1 d5 (0.9, grade −1)  2 dx  3 d9 (rel)  4 d10 (rel)  5 d1 (0.1)
    let qrels = "q 0 d10 2\nq 0 d9 1\nq 0 d1 0\nq 0 d5 -1\n";
    let run =
        "q Q0 d10 1 0.5 r\nq Q0 dx 2 0.5 r\nq Q0 d9 3 0.5 r\nq Q0 d5 4 0.9 r\nq Q0 d1 5 0.1 r\n";
    let r = eval(qrels, run, &measures(ALL), &TrecOptions::default())?;
    let v = first_row(&r);
    // AP = (1/3 + 2/4)/2; P@5 = 2/5; P@10 = 2/10; R = 2: R-prec = 0/2; RR = 1/3.
    assert_eq!(v[0], (1.0 / 3.0 + 2.0 / 4.0) / 2.0);
    assert_eq!((v[1], v[2], v[3], v[4]), (0.4, 0.2, 0.0, 1.0 / 3.0));
    // Gains are the grades: DCG = 1/log2(4) + 2/log2(5); ideal 2 + 1/log2(3).
    let ndcg = (1.0 / 4f64.log2() + 2.0 / 5f64.log2()) / (2.0 + 1.0 / 3f64.log2());
    assert!(
        (v[5] - ndcg).abs() < 1e-15 && (v[6] - ndcg).abs() < 1e-15 && (v[7] - ndcg).abs() < 1e-15
    );
    assert_eq!((v[8], v[9], v[10]), (5.0, 2.0, 2.0));
    // Relevance level 2: only d10 relevant, at rank 4.
    let r = eval(qrels, run, &[Measure::AveragePrecision], &at_level(2))?;
    assert_eq!(r.summary[0].value, Some(0.25));
    // Tie-aware: d10, d9, dx tied at ranks 2–4 with two relevant of three.
    // E[AP] = (1/R)(r/n) Σ_{t=1..3} (1 + (t−1)/2)/(1 + t), R = r = 2, n = 3:
    // (1/2)(2/3)(1/2 + 1.5/3 + 2/4) = 1/2.
    let ex = TrecOptions {
        ties: Ties::Expected,
        ..TrecOptions::default()
    };
    let r = eval(qrels, run, &[Measure::AveragePrecision], &ex)?;
    let want = 2.0 / 3.0 * (0.5 + 0.5 + 0.5) / 2.0;
    assert!((r.summary[0].value.ok_or("ap")? - want).abs() < 1e-15);
    // -c: a judged query the run lacks scores 0 and counts.
    let qrels2 = format!("{qrels}z 0 d1 1\n");
    let c = TrecOptions {
        complete: true,
        ..TrecOptions::default()
    };
    let r = eval(&qrels2, run, &[Measure::AveragePrecision], &c)?;
    assert_eq!(r.queries.len(), 2);
    assert_eq!(r.summary[0].value, Some((1.0 / 3.0 + 2.0 / 4.0) / 4.0));
    let r = eval(
        &qrels2,
        run,
        &[Measure::AveragePrecision],
        &TrecOptions::default(),
    )?;
    assert_eq!((r.queries.len(), r.unranked_queries.len()), (1, 1));
    Ok(())
}

#[test]
fn reader_errors_name_the_line() {
    let q = |t: &str| read_trec_qrels(t.as_bytes(), &mut Ids::new()).map(|q| q.len());
    let r = |t: &str| read_trec_run(t.as_bytes(), &mut Ids::new()).map(|r| r.len());
    // BOM, comments, blank lines, tabs and CRLF are accepted.
    assert_eq!(q("\u{feff}# c\n\nq\t0 d 1\r\n  \nq 0 e -3\n"), Ok(2));
    assert_eq!(r("# c\nq Q0 d 1 -1.5e-3 tag\r\n\nq Q0 e 9 1 tag"), Ok(2));
    assert_eq!(
        q("q 0 d 1\nq 0 e\n"),
        Err(RelevanceError::FieldCount {
            line: 2,
            format: "qid iter docno rel",
            expected: 4,
            found: 3
        })
    );
    assert!(matches!(
        r("q Q0 d 1 0.5 t extra\n"),
        Err(RelevanceError::FieldCount {
            line: 1,
            found: 7,
            ..
        })
    ));
    for bad in ["1.5", "x", "99999999999", ""] {
        let text = format!("q 0 d1 1\nq 0 d {bad} \n");
        let got = q(&text);
        if bad.is_empty() {
            assert!(matches!(
                got,
                Err(RelevanceError::FieldCount { line: 2, .. })
            ));
        } else {
            assert!(
                matches!(&got, Err(RelevanceError::BadNumber { at: Location::Line(2), column, .. }) if column == "rel"),
                "{bad}: {got:?}"
            );
        }
    }
    for bad in ["NaN", "inf", "-inf", "1e999", "abc"] {
        let got = r(&format!("q Q0 d 1 {bad} t\n"));
        assert!(
            matches!(&got, Err(RelevanceError::BadNumber { at: Location::Line(1), column, .. }) if column == "score"),
            "{bad}: {got:?}"
        );
    }
    assert_eq!(
        read_trec_qrels(&b"q 0 d 1\nq 0 \xff 1\n"[..], &mut Ids::new()).map(|q| q.len()),
        Err(RelevanceError::NotUtf8 { line: 2 })
    );
    // Duplicates: the earliest repeat, with both lines, after other queries.
    assert_eq!(
        r("a Q0 x 1 1 t\nb Q0 y 1 1 t\nb Q0 z 1 1 t\na Q0 w 1 1 t\nb Q0 y 2 0 t\na Q0 x 2 0 t\n"),
        Err(RelevanceError::DuplicateScore {
            at: Location::Line(5),
            first: Location::Line(2),
            query: "b".into(),
            document: "y".into()
        })
    );
    assert_eq!(
        q("a 0 x 1\nb 0 x 0\na 0 x 0\n"),
        Err(RelevanceError::DuplicateQrel {
            at: Location::Line(3),
            first: Location::Line(1),
            query: "a".into(),
            document: "x".into()
        })
    );
    assert_eq!(RelevanceError::NotUtf8 { line: 7 }.line(), Some(7));
}

#[test]
fn parameters_are_checked() -> TestResult {
    let mut a = Ids::new();
    let mut b = Ids::new();
    let qrels = read_trec_qrels("q 0 d 1\n".as_bytes(), &mut a)?;
    let run = read_trec_run("q Q0 d 1 1 t\n".as_bytes(), &mut b)?;
    assert!(matches!(
        evaluate_trec(&qrels, &run, &measures(ALL), &TrecOptions::default()),
        Err(RelevanceError::InvalidParameter { name: "ids", .. })
    ));
    let run = read_trec_run("q Q0 d 1 1 t\n".as_bytes(), &mut a)?;
    let bad = TrecOptions {
        relevance_level: -1,
        ..TrecOptions::default()
    };
    assert!(matches!(
        evaluate_trec(&qrels, &run, &measures(ALL), &bad),
        Err(RelevanceError::InvalidParameter {
            name: "relevance_level",
            ..
        })
    ));
    assert!(matches!(
        evaluate_trec(
            &qrels,
            &run,
            &[Measure::Precision(0)],
            &TrecOptions::default()
        ),
        Err(RelevanceError::InvalidParameter { name: "k", .. })
    ));
    let neg = TrecOptions::default().with_gain(|g: f64| g - 2.0);
    assert!(matches!(
        evaluate_trec(&qrels, &run, &measures(ALL), &neg),
        Err(RelevanceError::InvalidGain { .. })
    ));
    // An empty qrels and run: no query, means undefined, sums 0.
    let mut c = Ids::new();
    let q0 = read_trec_qrels("".as_bytes(), &mut c)?;
    let r0 = read_trec_run("".as_bytes(), &mut c)?;
    let rep = evaluate_trec(&q0, &r0, &measures(ALL), &TrecOptions::default())?;
    assert_eq!(
        (rep.summary[0].value, rep.summary[8].value),
        (None, Some(0.0))
    );
    Ok(())
}

// ---------------------------------------------------------------- oracle

/// trec_eval by the book: sort by (score desc, name desc), then textbook
/// definitions; undefined values are 0.
fn oracle(judged: &[(String, i32)], ranked: &[(String, f64)], level: i32) -> Vec<f64> {
    let grade: HashMap<&str, i32> = judged.iter().map(|(d, g)| (d.as_str(), *g)).collect();
    let mut order: Vec<&(String, f64)> = ranked.iter().collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    let g: Vec<i32> = order
        .iter()
        .map(|(d, _)| grade.get(d.as_str()).copied().unwrap_or(-1))
        .collect();
    let rel = |x: i32| x >= level && x >= 0;
    let r = judged.iter().filter(|(_, x)| rel(*x)).count();
    let mut hits = 0;
    let (mut ap, mut rr) = (0.0, 0.0);
    for (i, &x) in g.iter().enumerate() {
        if rel(x) {
            hits += 1;
            ap += f64::from(hits) / (i + 1) as f64;
            if rr == 0.0 {
                rr = 1.0 / (i + 1) as f64;
            }
        }
    }
    let top = |k: usize| g.iter().take(k).filter(|&&x| rel(x)).count() as f64;
    let dcg = |gs: &[i32], k: usize| -> f64 {
        gs.iter()
            .take(k)
            .enumerate()
            .map(|(i, &x)| f64::from(x.max(0)) / ((i + 2) as f64).log2())
            .sum()
    };
    let mut ideal: Vec<i32> = judged.iter().map(|(_, x)| *x).collect();
    ideal.sort_by(|a, b| b.cmp(a));
    let ndcg = |k: usize| {
        let i = dcg(&ideal, k);
        if i > 0.0 { dcg(&g, k) / i } else { 0.0 }
    };
    let rf = r as f64;
    vec![
        if r > 0 { ap / rf } else { 0.0 },
        top(5) / 5.0,
        top(10) / 10.0,
        if r > 0 { top(r) / rf } else { 0.0 },
        rr,
        ndcg(5),
        ndcg(10),
        ndcg(usize::MAX),
        g.len() as f64,
        rf,
        f64::from(hits),
    ]
}

/// The qrels and the run of one query `q`: its `judged` documents (name,
/// grade) and its `ranked` ones (name, score); shared with
/// `relevance_trec_official`.
pub(crate) fn build(
    judged: &[(String, i32)],
    ranked: &[(String, f64)],
) -> Result<(Qrels, TrecRun), TestCaseError> {
    let fail = |e: RelevanceError| TestCaseError::fail(e.to_string());
    let mut ids = Ids::new();
    let mut qb = Qrels::builder(&mut ids);
    for (d, g) in judged {
        qb.add("q", d, *g).map_err(fail)?;
    }
    let qrels = qb.finish().map_err(fail)?;
    let mut rb = TrecRun::builder(&mut ids);
    for (d, s) in ranked {
        rb.add("q", d, *s).map_err(fail)?;
    }
    Ok((qrels, rb.finish().map_err(fail)?))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random qrels and runs (ties, unjudged and negative grades, names
    /// whose text order differs from their numeric order) against the
    /// by-the-book oracle.
    #[test]
    fn trec_eval_mode_equals_the_oracle(
        judged in prop::collection::btree_map(0..25_u32, -2..=3_i32, 1..15),
        ranked in prop::collection::btree_map(0..25_u32, 0..6_u32, 0..20),
        level in 0..3_i32,
    ) {
        let judged: Vec<(String, i32)> = judged.into_iter().map(|(d, g)| (format!("d{d}"), g)).collect();
        let ranked: Vec<(String, f64)> = ranked.into_iter().map(|(d, s)| (format!("d{d}"), f64::from(s) / 2.0)).collect();
        let (qrels, run) = build(&judged, &ranked)?;
        let o = TrecOptions { relevance_level: level, complete: true, ..TrecOptions::default() };
        let rep = evaluate_trec(&qrels, &run, &measures(ALL), &o).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want = oracle(&judged, &ranked, level);
        let got = rep.row(0).ok_or_else(|| TestCaseError::fail("no row"))?;
        for ((m, g), w) in measures(ALL).iter().zip(got).zip(&want) {
            let g = g.unwrap_or(0.0);
            prop_assert!((g - w).abs() < 1e-12, "{} {} vs {}", m, g, w);
        }
    }
}

// ------------------------------------------------- trec_eval's own output

/// The library's values against trec_eval's printed ones on the files of
/// `tests/data/relevance/trec_eval_golden.py` (trec_eval 10.0 and 9.0.8):
/// every per-query value prints as trec_eval prints it (`%6.4f`), every
/// summary is within half a unit of the 4th decimal (trec_eval adds in
/// query order, the library with compensation).
#[test]
fn values_match_trec_evals_output() -> TestResult {
    use adaptive_comp_metrics::relevance::{
        MeasureSelection, MeasureSyntax, Ties, TrecEvalVersion, TrecSyntax, read_trec_qrels_with,
        read_trec_run_with,
    };
    let dir = data_path("trec_eval_golden");
    let mut ids = Ids::new();
    let open = |name: &str| -> Result<std::io::BufReader<std::fs::File>, std::io::Error> {
        Ok(std::io::BufReader::new(std::fs::File::open(
            dir.join(name),
        )?))
    };
    let qrels = read_trec_qrels_with(open("golden.qrels")?, &mut ids, TrecSyntax::TrecEval)?;
    let run = read_trec_run_with(open("golden.run")?, &mut ids, TrecSyntax::TrecEval)?;
    let cases = std::fs::read_to_string(dir.join("cases.tsv"))?;
    let mut checked = 0;
    for line in cases.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, "golden.qrels", "golden.run", args, out10, out9] = f.as_slice() else {
            continue;
        };
        if name.starts_with("max5") || *name == "first_cutoffs" {
            continue; // -M truncates the file (acm trec's part); first-cut-off rules are the CLI's
        }
        let words: Vec<&str> = args.split_whitespace().collect();
        let mut options = TrecOptions {
            complete: words.contains(&"-c"),
            ..TrecOptions::default()
        };
        if let Some(i) = words.iter().position(|w| *w == "-l") {
            options.relevance_level = words.get(i + 1).ok_or("level")?.parse()?;
        }
        // The -m options as trec_eval reads them (the library's reading,
        // which acm trec uses: nicknames, defaults, official when none).
        let specs: Vec<&str> = words
            .iter()
            .enumerate()
            .filter(|(i, _)| *i > 0 && words.get(i - 1) == Some(&"-m"))
            .map(|(_, w)| *w)
            .collect();
        let selection = MeasureSelection::parse(&specs, MeasureSyntax::TrecEval, Ties::TrecEval)?;
        let mut measures: Vec<Measure> = selection.measures().to_vec();
        if measures.is_empty() {
            measures.push(Measure::Queries); // runid alone
        }
        for (version, file) in [(TrecEvalVersion::V10, out10), (TrecEvalVersion::V9, out9)] {
            let o = TrecOptions { version, ..options };
            let report = evaluate_trec(&qrels, &run, &measures, &o)?;
            let got = by_name(&report, &ids);
            for printed in std::fs::read_to_string(dir.join(file))?.lines() {
                let p: Vec<&str> = printed.split('\t').collect();
                let [m, q, v] = p.as_slice() else {
                    return Err(format!("{file}: {printed:?}").into());
                };
                let m = m.trim_end();
                if m == "runid" || (m == "num_rel" && o.complete && *q == "all") {
                    continue; // a name; trec_eval's -c num_rel counts grades > 0 (acm trec's part)
                }
                let mut have = *got
                    .get(&(m.to_owned(), (*q).to_owned()))
                    .ok_or_else(|| format!("{name}: no {m} {q}"))?;
                if m == "gm_map" && *q != "all" {
                    continue; // trec_eval prints no per-query gm_map
                }
                if have.is_nan() {
                    have = 0.0;
                }
                let want: f64 = v.parse()?;
                if *q == "all" {
                    assert!(
                        (have - want).abs() <= 5e-5 + 1e-12,
                        "{name} {version:?} {m} all: library {have}, trec_eval {v}"
                    );
                } else {
                    let shown = if m.starts_with("num_") {
                        format!("{have:.0}")
                    } else {
                        format!("{have:6.4}")
                    };
                    assert_eq!(shown, *v, "{name} {version:?} {m} {q}: library {have}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "{checked}");
    Ok(())
}

/// Generated files of a few megabytes (many blocks of the readers, each cut
/// in chunks): a pseudo-random qrels and run, ids of varying length, blank
/// lines, comments, CRLF, tabs, ties and scores of many digits.
fn large_files() -> (String, String) {
    let mut next = xorshift64(0x9e37_79b9_7f4a_7c15);
    let (mut qrels, mut run) = (String::new(), String::new());
    for q in 0..600 {
        let qid = format!("Q{q:04}{}", "x".repeat(q % 3));
        for d in 0..60_u64 {
            let r = next();
            let end = if r.is_multiple_of(50) { "\r\n" } else { "\n" };
            qrels.push_str(&format!(
                "{qid} 0 DOC{:06}{} {}{end}",
                d * 7 + q as u64 % 5,
                "y".repeat((r % 4) as usize),
                r % 5
            ));
            if r.is_multiple_of(97) {
                qrels.push_str("\n# a comment line\n");
            }
        }
        for d in 0..120_u64 {
            let r = next();
            let score = match r % 4 {
                0 => format!("{:.4}", (r % 1000) as f64 / 100.0),
                1 => format!("{}", (r >> 11) as f64 / (1_u64 << 53) as f64),
                2 => format!("{:e}", (r % 100_000) as f64 * 1.5e-7),
                _ => format!("{}", r % 7),
            };
            run.push_str(&format!(
                "{qid}\tQ0 DOC{:06}{} {} {score} run{}\n",
                d * 5 + q as u64 % 7,
                "y".repeat((r % 4) as usize),
                d + 1,
                q / 300
            ));
        }
    }
    (qrels, run)
}

#[test]
fn large_files_read_the_same_on_one_and_two_threads() -> TestResult {
    use adaptive_comp_metrics::{Threads, with_threads};
    use std::num::NonZeroUsize;
    let (qrels_text, run_text) = large_files();
    assert!(qrels_text.len() + run_text.len() > 3_000_000);
    let read = |threads: Threads| -> Result<(Ids, Qrels, TrecRun, TrecReport), RelevanceError> {
        with_threads(threads, || {
            let mut ids = Ids::new();
            let qrels = read_trec_qrels(qrels_text.as_bytes(), &mut ids)?;
            let run = read_trec_run(run_text.as_bytes(), &mut ids)?;
            let report = evaluate_trec(&qrels, &run, &measures(ALL), &TrecOptions::default())?;
            Ok((ids, qrels, run, report))
        })
    };
    let (ids1, qrels1, run1, report1) = read(Threads::ONE)?;
    let two = Threads::Fixed(NonZeroUsize::new(2).ok_or("2")?);
    let (ids2, qrels2, run2, report2) = read(two)?;
    assert_eq!(qrels1.len(), 36_000);
    assert_eq!(run1.len(), 72_000);
    let names = |ids: &Ids| -> (Vec<String>, Vec<(String, Option<u32>)>) {
        (
            ids.queries().iter().map(str::to_owned).collect(),
            (0..ids.documents().len() as u32)
                .map(|d| {
                    (
                        ids.documents().name(d).unwrap_or("?").to_owned(),
                        ids.documents().query(d),
                    )
                })
                .collect(),
        )
    };
    assert_eq!(names(&ids1), names(&ids2));
    assert_eq!(qrels1.queries(), qrels2.queries());
    assert_eq!(run1.queries(), run2.queries());
    assert_eq!(run1.name(), Some("run1"));
    assert_eq!(run1.name(), run2.name());
    for &q in qrels1.queries() {
        assert_eq!(qrels1.judgements(q), qrels2.judgements(q));
    }
    for &q in run1.queries() {
        let ((d1, s1), (d2, s2)) = (run1.ranking(q).ok_or("q")?, run2.ranking(q).ok_or("q")?);
        assert_eq!(d1, d2);
        let bits = |s: &[f64]| s.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(s1), bits(s2));
    }
    assert_eq!(report1.queries, report2.queries);
    for ((_, a), (_, b)) in report1.rows().zip(report2.rows()) {
        let bits = |v: &[Option<f64>]| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>();
        assert_eq!(bits(a), bits(b));
    }
    // The values against the std parser's, line by line.
    let mut want: HashMap<(String, String), f64> = HashMap::new();
    for line in run_text.lines() {
        let f: Vec<&str> = line.split_ascii_whitespace().collect();
        want.insert(
            (f[0].to_owned(), f[2].to_owned()),
            f[4].parse::<f64>()? + 0.0,
        );
    }
    for &q in run1.queries() {
        let (docs, scores) = run1.ranking(q).ok_or("q")?;
        for (&d, &s) in docs.iter().zip(scores) {
            let key = (
                ids1.queries().name(q).ok_or("q")?.to_owned(),
                ids1.documents().name(d).ok_or("d")?.to_owned(),
            );
            assert_eq!(
                want.get(&key).map(|x| x.to_bits()),
                Some(s.to_bits()),
                "{key:?}"
            );
        }
    }
    // An error deep in the file: the same, named by its line, on both.
    let mut lines: Vec<&str> = run_text.lines().collect();
    lines[51_234] = "Q0001 Q0 DOC1 1 0.5";
    lines[61_000] = "Q0001 Q0 DOC1 1 x run";
    let bad = lines.join("\n");
    for threads in [Threads::ONE, two] {
        let got = with_threads(threads, || read_trec_run(bad.as_bytes(), &mut Ids::new()));
        assert!(
            matches!(
                got,
                Err(RelevanceError::FieldCount {
                    line: 51_235,
                    found: 5,
                    ..
                })
            ),
            "{threads:?}: {:?}",
            got.map(|r| r.len())
        );
    }
    Ok(())
}

#[test]
fn evaluation_is_the_same_on_one_and_two_threads_whatever_the_gain() -> TestResult {
    use adaptive_comp_metrics::relevance::TrecEvalVersion;
    use adaptive_comp_metrics::{Threads, with_threads};
    use std::cell::Cell;
    use std::num::NonZeroUsize;
    let (qrels_text, run_text) = large_files();
    let mut ids = Ids::new();
    let qrels = read_trec_qrels(qrels_text.as_bytes(), &mut ids)?;
    let run = read_trec_run(run_text.as_bytes(), &mut ids)?;
    // Enough entries for evaluate_trec to split the queries over threads.
    assert!(qrels.len() + run.len() >= adaptive_comp_metrics::threads::PARALLEL_FROM);
    let two = Threads::Fixed(NonZeroUsize::new(2).ok_or("2")?);
    let bits = |r: &TrecReport| -> Vec<Vec<Option<u64>>> {
        r.rows()
            .map(|(_, v)| v.iter().map(|x| x.map(f64::to_bits)).collect())
            .collect()
    };
    let measures = [
        Measure::AveragePrecision,
        Measure::Ndcg,
        Measure::NdcgCut(10),
        Measure::Bpref,
        Measure::Precision(5),
    ];
    for ties in [Ties::TrecEval, Ties::Expected] {
        for version in [TrecEvalVersion::V10, TrecEvalVersion::V9] {
            for complete in [false, true] {
                // A gain that is not `Sync` (it counts its calls in a Cell).
                let calls = Cell::new(0_u64);
                let gain = |g: f64| {
                    calls.set(calls.get() + 1);
                    g * g + 0.5
                };
                let options = TrecOptions {
                    ties,
                    version,
                    complete,
                    relevance_level: 2,
                    ..TrecOptions::default()
                }
                .with_gain(gain);
                let one = with_threads(Threads::ONE, || {
                    evaluate_trec(&qrels, &run, &measures, &options)
                })?;
                let both = with_threads(two, || evaluate_trec(&qrels, &run, &measures, &options))?;
                assert!(calls.get() > 0);
                assert_eq!(one.queries, both.queries);
                assert_eq!(one.unranked_queries, both.unranked_queries);
                assert_eq!(bits(&one), bits(&both), "{ties:?} {version:?} {complete}");
                let sums = |r: &TrecReport| {
                    r.summary
                        .iter()
                        .map(|m| m.value.map(f64::to_bits))
                        .collect::<Vec<_>>()
                };
                assert_eq!(sums(&one), sums(&both));
            }
        }
    }
    // A gain that is not a gain for grade 3: the same error on both.
    let bad = TrecOptions::default().with_gain(|g: f64| if g == 3.0 { f64::NAN } else { g });
    let one = with_threads(Threads::ONE, || {
        evaluate_trec(&qrels, &run, &measures, &bad)
    });
    let both = with_threads(two, || evaluate_trec(&qrels, &run, &measures, &bad));
    assert!(
        matches!(one, Err(RelevanceError::InvalidGain { .. })),
        "{one:?}"
    );
    assert_eq!(one, both);
    Ok(())
}
