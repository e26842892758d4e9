//! Checks shared by the TREC reader fuzz targets: whatever parses scores
//! without error, in range, consistently in both tie modes and both
//! trec_eval releases.

use adaptive_comp_metrics::relevance::{
    Ids, Measure, NoRelevant, Qrels, Ties, TrecEvalVersion, TrecOptions, TrecRun, evaluate_trec,
};

/// The measures scored, as `trec_eval -m` arguments (`num_ret`, `num_rel`
/// and `num_rel_ret` 9th to 11th).
const MEASURES: &str = "map P.1,5 Rprec recip_rank ndcg_cut.3,10 ndcg num_ret num_rel num_rel_ret \
    bpref recall.3 success.2 map_cut.4 num_q gm_map iprec_at_recall.0,0.5";

/// A small qrels or run over queries q0..q3 and documents d0..d9 (the names
/// the seed corpus uses), so fuzzed files meet judged and ranked documents.
pub fn companion(run: bool) -> String {
    let mut text = String::new();
    for q in 0..4 {
        for d in 0..10 {
            if (q + d) % 3 == 0 {
                continue;
            }
            if run {
                text.push_str(&format!("q{q} Q0 d{d} {d} {} r\n", (d * 7 + q) % 5));
            } else {
                text.push_str(&format!("q{q} 0 d{d} {}\n", (d + 2 * q) % 5 - 1));
            }
        }
    }
    text
}

/// The structure of what was read, then both tie modes at several levels.
pub fn check(ids: &Ids, qrels: &Qrels, run: &TrecRun) {
    for &q in qrels.queries() {
        let (docs, grades) = qrels.judgements(q).expect("listed queries are judged");
        assert_eq!(docs.len(), grades.len());
        assert!(grades.windows(2).all(|w| w[0] >= w[1]), "grades sorted");
        for &d in docs {
            assert_eq!(ids.documents().query(d), Some(q));
        }
    }
    for &q in run.queries() {
        let (docs, scores) = run.ranking(q).expect("listed queries are ranked");
        assert_eq!(docs.len(), scores.len());
        for i in 1..docs.len() {
            let (a, b) = (scores[i - 1], scores[i]);
            assert!(a > b || (a == b && ids.documents().name(docs[i - 1]) > ids.documents().name(docs[i])));
        }
    }
    for level in [0, 1, 2] {
        for ties in [Ties::TrecEval, Ties::Expected] {
            for complete in [false, true] {
                for version in [TrecEvalVersion::V10, TrecEvalVersion::V9] {
                    let o = TrecOptions {
                        relevance_level: level,
                        ties,
                        complete,
                        no_relevant: NoRelevant::Zero,
                        version,
                        ..TrecOptions::default()
                    };
                    let measures: Vec<Measure> = MEASURES
                        .split_whitespace()
                        .flat_map(|m| Measure::parse_list(m).expect("a measure"))
                        .filter(|m| ties == Ties::TrecEval || m.has_expectation())
                        .collect();
                    let r = evaluate_trec(qrels, run, &measures, &o).expect("valid inputs score");
                    for (_, row) in r.rows() {
                        for (m, v) in measures.iter().zip(row) {
                            let Some(v) = v else { continue };
                            if *m == Measure::GeometricMap {
                                assert!((1e-5_f64.ln()..=0.0).contains(v), "{m} {v}");
                                continue;
                            }
                            assert!(v.is_finite() && *v >= 0.0, "{m} {v}");
                            if !m.is_count() {
                                assert!(*v <= 1.0, "{m} {v}");
                            }
                        }
                        let (ret, rel, relret) = (row[8], row[9], row[10]);
                        assert!(relret <= ret && relret <= rel, "{row:?}");
                    }
                }
            }
        }
    }
}
