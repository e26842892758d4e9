//! CSV readers: the bundled sample files scored end to end against values
//! from `tests/data/relevance/expected.py` (an independent brute-force
//! Python oracle), and line-numbered errors for malformed input.

use adaptive_comp_metrics::relevance::{
    Class, JudgementColumns, Location, RelevanceError, Scale, ScoreColumns, Thresholds,
    evaluate_run, judgement_records, read_judgements, read_run,
};
use approx::assert_abs_diff_eq;
use std::fs::File;
use std::io::BufReader;

use crate::relevance_trec::data_path;

use crate::top_k;

fn data(name: &str) -> Result<BufReader<File>, Box<dyn std::error::Error>> {
    Ok(BufReader::new(File::open(data_path(name))?))
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn sample_files_match_the_python_oracle() -> TestResult {
    let j = read_judgements(
        data("judgements.csv")?,
        &JudgementColumns::default(),
        Scale::default(),
    )?;
    assert_eq!((j.len(), j.pair_count()), (42, 14));
    let a = j.summarize(&Thresholds::default())?;
    // expected.py: per-query counts.
    let counts: Vec<_> = a
        .queries()
        .iter()
        .map(|q| {
            (
                q.query.as_str(),
                q.strictly_relevant,
                q.loosely_relevant,
                q.diverse,
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("agent sell property", 2, 3, false),
            ("man waves hand", 1, 4, true),
            ("student read book", 0, 2, false),
        ]
    );
    // A quoted document name with a comma survives; mean 2/3, sd 0.577350269189626.
    let p = a
        .pair("student read book", "scholar, critic read novel")
        .ok_or("pair missing")?;
    assert_eq!(p.class, Class::LooselyRelevant);
    assert_abs_diff_eq!(p.stats.mean, 2.0 / 3.0, epsilon = 1e-15);
    assert_abs_diff_eq!(
        p.stats.sd.ok_or("no sd")?,
        0.577_350_269_189_626,
        epsilon = 1e-14
    );

    let run = read_run(data("model.csv")?, &ScoreColumns::default())?;
    assert_eq!(run.len(), 14);
    let report = evaluate_run(&a, &run, &top_k(3))?;
    // expected.py, per query: ap, P@3, R-precision, RR, nDCG@3.
    let want = [
        (
            0.588_888_888_888_889,
            0.666_666_666_666_667,
            0.666_666_666_666_667,
            0.5,
            0.383_060_766_444_084,
        ),
        (
            0.880_555_555_555_556,
            0.777_777_777_777_778,
            0.75,
            1.0,
            0.775_422_980_818_205,
        ),
        (0.25, 0.333_333_333_333_333, 0.5, 0.5, 0.444_122_866_448_798),
    ];
    assert_eq!(report.queries.len(), 3);
    for (q, w) in report.queries.iter().zip(want) {
        let m = q.metrics;
        assert_abs_diff_eq!(m.average_precision.ok_or("ap")?, w.0, epsilon = 1e-14);
        assert_abs_diff_eq!(m.precision_at_k, w.1, epsilon = 1e-14);
        assert_abs_diff_eq!(m.r_precision.ok_or("rp")?, w.2, epsilon = 1e-14);
        assert_abs_diff_eq!(m.reciprocal_rank.ok_or("rr")?, w.3, epsilon = 1e-14);
        assert_abs_diff_eq!(m.ndcg_at_k.ok_or("ndcg")?, w.4, epsilon = 1e-14);
    }
    assert_eq!(report.queries.first().map(|q| q.unjudged), Some(1));
    // expected.py means.
    assert_abs_diff_eq!(
        report.mean.map.value.ok_or("map")?,
        0.573_148_148_148_148,
        epsilon = 1e-14
    );
    assert_abs_diff_eq!(
        report.mean.ndcg_at_k.value.ok_or("ndcg")?,
        0.534_202_204_570_362,
        epsilon = 1e-14
    );
    assert_abs_diff_eq!(
        report.mean.mrr.value.ok_or("mrr")?,
        2.0 / 3.0,
        epsilon = 1e-14
    );
    Ok(())
}

fn judgements(text: &str) -> Result<usize, RelevanceError> {
    read_judgements(
        text.as_bytes(),
        &JudgementColumns::default(),
        Scale::default(),
    )
    .map(|j| j.len())
}

#[test]
fn judgement_file_errors_name_the_line() {
    let h = "query,document,annotator,grade\n";
    assert_eq!(judgements(""), Err(RelevanceError::NoHeader));
    assert_eq!(judgements("\n\n"), Err(RelevanceError::NoHeader));
    assert_eq!(
        judgements("query,document,grade\n"),
        Err(RelevanceError::MissingColumn {
            column: "annotator".into()
        })
    );
    assert_eq!(
        judgements("query,document,annotator,grade,grade\n"),
        Err(RelevanceError::DuplicateColumn {
            column: "grade".into()
        })
    );
    assert_eq!(
        judgements(&format!("{h}q,d,w,3\n\nq,d,w,4\n")),
        Err(RelevanceError::GradeOffScale {
            at: Location::Line(4),
            grade: 4,
            min: -3,
            max: 3
        })
    );
    assert!(matches!(
        judgements(&format!("{h}q,d,w,3\nq,e,w,1\nq,d,w,-1\n")),
        Err(RelevanceError::DuplicateJudgement {
            at: Location::Line(4),
            first: Location::Line(2),
            ..
        })
    ));
    assert_eq!(
        judgements(&format!("{h}q,d,,3\n")),
        Err(RelevanceError::MissingField {
            at: Location::Line(2),
            column: "annotator".into()
        })
    );
    assert_eq!(
        judgements(&format!("{h}q,d,w\n")),
        Err(RelevanceError::MissingField {
            at: Location::Line(2),
            column: "grade".into()
        })
    );
    assert!(matches!(
        judgements(&format!("{h}q,d,w,2.5\n")),
        Err(RelevanceError::BadNumber {
            at: Location::Line(2),
            ..
        })
    ));
    assert!(matches!(
        judgements(&format!("{h}q,d,w,99999999999999999999999\n")),
        Err(RelevanceError::BadNumber {
            at: Location::Line(2),
            ..
        })
    ));
    // A quote still open at the end of the input (the `csv` crate would
    // run the field to the end) is an error at the line of its record,
    // even where the fields before it are complete (issue 22).
    assert_eq!(
        judgements(&format!("{h}\"q,d,w,3\n")),
        Err(RelevanceError::MalformedQuote { line: 2, field: 1 })
    );
    assert_eq!(
        judgements(&format!("{h}q,d,w,3\nq,d,\"AWORK,3\n")),
        Err(RelevanceError::MalformedQuote { line: 3, field: 3 })
    );
    // Closed quotes, doubled quotes and a quote inside an unquoted field stay as they were.
    assert!(judgements(&format!("{h}\"q\"\"x\",d,w\"z,3\n\"q\",\"d\",w,\"3\"")).is_ok());
    // Blank lines and CRLF line ends do not shift the line numbers.
    assert!(matches!(
        judgements(&format!("{h}\r\nq,d,w,3\r\n\r\n\r\nq,d,w,9\r\n")),
        Err(RelevanceError::GradeOffScale {
            at: Location::Line(6),
            ..
        })
    ));
    // A multi-line quoted field: the next record's line number still counts lines.
    assert_eq!(
        judgements(&format!("{h}\"q\nq\",d,w,3\nq,d,w,7\n")),
        Err(RelevanceError::GradeOffScale {
            at: Location::Line(4),
            grade: 7,
            min: -3,
            max: 3
        })
    );
    // Whitespace around grades and CRLF line ends are accepted.
    assert_eq!(judgements(&format!("{h}q,d,w, -2 \r\nq,d,v,+3\r\n")), Ok(2));
}

#[test]
fn caller_given_columns_and_streaming() -> TestResult {
    let text = "hit,worker_id,relevance,extra,query_phrase,document_phrase\n\
                h1,w1,2,x,agent sell property,delegate buy land\n\
                h1,w2,-1,x,agent sell property,delegate buy land\n";
    let cols = JudgementColumns {
        query: "query_phrase",
        document: "document_phrase",
        annotator: "worker_id",
        grade: "relevance",
    };
    let mut it = judgement_records(text.as_bytes(), &cols)?;
    let first = it.next().ok_or("no record")??;
    assert_eq!(
        (first.line, first.annotator.as_str(), first.grade),
        (2, "w1", 2)
    );
    assert_eq!(it.next().ok_or("no record")??.grade, -1);
    assert!(it.next().is_none());
    // On a 1..=5 scale the same file is off the scale at line 3.
    let err = read_judgements(text.as_bytes(), &cols, Scale::new(1, 5)?);
    assert!(matches!(
        err,
        Err(RelevanceError::GradeOffScale {
            at: Location::Line(3),
            grade: -1,
            ..
        })
    ));
    Ok(())
}

#[test]
fn run_file_errors_name_the_line() {
    let cols = ScoreColumns::default();
    let run = |t: &str| read_run(t.as_bytes(), &cols).map(|r| r.len());
    let h = "query,document,score\n";
    assert_eq!(run(&format!("{h}q,d,1\nq,e,-2.5e-3\n")), Ok(2));
    assert!(matches!(
        run(&format!("{h}q,d,1\nq,d,2\n")),
        Err(RelevanceError::DuplicateScore {
            at: Location::Line(3),
            first: Location::Line(2),
            ..
        })
    ));
    for bad in ["NaN", "inf", "-inf", "abc", "1e999"] {
        assert!(
            matches!(
                run(&format!("{h}q,d,{bad}\n")),
                Err(RelevanceError::BadNumber {
                    at: Location::Line(2),
                    ..
                })
            ),
            "{bad}"
        );
    }
    assert_eq!(
        run(&format!("{h},d,1\n")),
        Err(RelevanceError::MissingField {
            at: Location::Line(2),
            column: "query".into()
        })
    );
    assert_eq!(
        run("query,score\n"),
        Err(RelevanceError::MissingColumn {
            column: "document".into()
        })
    );
}
