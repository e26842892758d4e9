//! Graded relevance judgements and top-rank retrieval metrics, after the
//! PhraseRel dataset design (Milajevs, *PhraseRel: An IR-inspired evaluation
//! dataset*, thesis chapter).
//!
//! Several annotators judge query–document pairs on a declared integer scale
//! (PhraseRel: −3 … 3). This module
//!
//! - aggregates the raw judgements per pair (count, mean, sample SD) and
//!   classifies pairs as *strictly relevant* (every judgement ≥ 0 and at least
//!   one at the top grade) or *loosely relevant* (every judgement ≥ 0), and
//!   queries as *diverse* (≥ 4 loosely relevant documents), with the
//!   thresholds as parameters ([`Judgements`], [`Thresholds`], [`Assessments`]);
//! - scores a model's ranking of each query's documents against those labels
//!   with average precision (MAP), precision@k, R-precision, reciprocal rank
//!   and nDCG@k with graded gains, ties in model scores resolved as the
//!   expectation over all tie orders ([`evaluate_query`], [`evaluate_run`]);
//! - compares two rankings (a model's and the humans', or two models') with
//!   rank-biased overlap, its lower bound, residual and extrapolation,
//!   accepting ties ([`rbo`], [`rbo_tied`]; Webber, Moffat & Zobel 2010);
//! - reads judgement and model score files in CSV with caller-given column
//!   names, streaming, with line-numbered errors ([`read_judgements`],
//!   [`judgement_records`], [`read_run`]);
//! - reads TREC qrels and runs, streaming, with line-numbered errors, into a
//!   flat layout for large evaluations — ids interned once in string tables
//!   ([`Ids`]), judgements and runs as integer arrays grouped by query
//!   ([`Qrels`], [`TrecRun`]) — and scores them with `trec_eval`'s measures
//!   and conventions (of `trec_eval` 10.0 or 9.0.x), or with the tie-aware
//!   expectations ([`read_trec_qrels`], [`read_trec_run`],
//!   [`evaluate_trec`]).
//!
//! # Agreement with `trec_eval`
//! [`evaluate_trec`] with the default [`TrecOptions`] reproduces
//! `trec_eval` 10.0, the current release, value for value: every per-query
//! value is `trec_eval`'s to the last bit (the same operations in the same
//! order), and `acm trec` prints its output byte for byte (checked against
//! both releases' binaries on generated files). The measures: `trec_eval`'s
//! `official` set (`num_q`, `num_ret`, `num_rel`, `num_rel_ret`, `map`,
//! `gm_map`, `Rprec`, `bpref`, `recip_rank`, `iprec_at_recall_0.00` …
//! `_1.00`, `P_5` … `P_1000`; [`Measure::OFFICIAL`]), and `recall`,
//! `success`, `map_cut`, `ndcg` and `ndcg_cut` at any cut-offs.
//!
//! Its conventions: documents with equal scores are ranked by decreasing
//! document id ([`Ties::TrecEval`]); a query without relevant documents
//! scores 0 and counts in the means ([`NoRelevant::Zero`], also the default
//! of [`evaluate_run`]); a grade counts as relevant from 1 on, negative
//! grades never (and bpref skips them, as unjudged), and gains are the
//! grades; judged queries the run lacks are left out unless
//! [`TrecOptions::complete`] (`-c`).
//!
//! Where the releases differ, [`TrecOptions::version`] chooses:
//! [`TrecEvalVersion::V10`] (the default) compares run scores as C
//! `double`s, [`TrecEvalVersion::V9`] reproduces `trec_eval` 9.0.x **and
//! `pytrec_eval`** (which builds on 9's code): scores stored as C `float`s,
//! so that 0.3 and 0.30000000000000004 tie (the larger document id first;
//! 10.0 and 9 give MAP 0.5 and 1.0 on such a pair), and
//! `iprec_at_recall`'s cut-offs rounded as ⌊p·R + 0.9⌋ instead of p·R
//! rounded. `trec_eval` 10.0 also stops ("result qid … not found in
//! qrels", exit 4) when the qrels judge a query the run lacks and `-c` is
//! not given; 9.0.x and this crate leave the query out.
//!
//! Reading: both releases and `pytrec_eval` refuse a blank line in qrels;
//! [`read_trec_qrels_with`] with [`TrecSyntax::TrecEval`] does too (an
//! error naming line and column), and reads runs as `trec_eval` 10.0 does
//! (blank lines skipped, fields after the tag ignored, `#` lines comments).
//! [`read_trec_qrels`] and [`read_trec_run`] read leniently: blank lines
//! skipped in both files, exactly 6 fields a run line (see [`TrecSyntax`]).
//! Both refuse what `trec_eval` reads as garbage (a grade `1.5`, a score
//! `x`).
//!
//! [`Ties::Expected`] replaces the name-dependent tie order by the
//! expectation over all tie orders, the convention of [`evaluate_query`]
//! and [`evaluate_run`], for every measure but `gm_map` and
//! `iprec_at_recall` (an expected logarithm and an expected maximum, with
//! no closed form here: asking for them is an error).
//!
//! # Reading speed and threads
//!
//! The TREC readers ([`read_trec_qrels`], [`read_trec_run`] and their
//! `_with` forms) take any [`BufRead`](std::io::BufRead) and read it in
//! blocks of whole lines (up to 1 MiB), cut into chunks of about 64 KiB at
//! line ends. A chunk is parsed on its own: a line of up to 63 bytes is
//! found and split into fields in one pass, 8 bytes at a time (a mask of
//! its white space, one bit a byte, gives every field's ends at once),
//! integers and decimal scores are parsed without allocating (a score is
//! the same `f64`, bit for bit, as [`str::parse::<f64>`] gives; forms the
//! fast path does not cover go to it), ids checked as UTF-8 and hashed.
//! The parsed lines are then interned and stored in file order, one block
//! at a time. The first MiB is read, parsed and stored on the caller's
//! thread alone (a smaller file never starts a thread: starting helpers
//! cost a 1 KB file 30 times its reading time); from there on, with two or
//! more threads ([`crate::current_threads`]: set with
//! [`crate::with_threads`] or the environment variable `ACM_THREADS`)
//! three blocks are in flight: the caller stores block k while helper
//! threads parse the chunks of blocks k + 1 and k + 2, which the caller
//! has read (the reader stays on the caller's thread: it need not be
//! `Send`) and posted as soon as read; the caller then parses the chunks of
//! block k + 1 still unclaimed. Storing is the longer task, so the helpers
//! run ahead rather than wait for it. Before the documents of a run's query
//! are looked up, the caller reads that query's index and judged names in
//! one sweep, so that their cache misses come together rather than one
//! after another. The helper threads are started once per file, not once
//! per block, and spin for 200 µs when idle before they sleep (waking a
//! sleeping core costs tens of microseconds a block). Blocks and chunks are
//! cut the same way whatever the number of threads, and ids are numbered,
//! entries stored and the first bad line found exactly as a line-by-line
//! reading does: the result (ids, their order, every score) and the error
//! (its line and column) are the same, bit for bit, on any number of
//! threads. Memory beyond the result is three blocks and the parsed lines
//! of three (32 bytes a run line, 28 a qrels line), so a file need not fit
//! in memory twice; a line must end within the first 4 GiB of its block
//! (the parsed lines hold 32-bit offsets).
//!
//! Interning hashes ids with a fast keyed hash (one 64-bit multiplication
//! per 8 bytes). Ids come from files anyone may have written, and strings
//! chosen to collide under a fixed hash would make reading quadratic
//! ("hash flooding"), so the key is drawn at random once per process; it
//! changes only where ids sit in the index, never an id, an order or a
//! result.
//!
//! # Example
//! ```
//! use adaptive_comp_metrics::relevance::{evaluate_run, Judgements, Options, Run, Scale, Thresholds};
//! let mut j = Judgements::new(Scale::default());
//! for (doc, grades) in [("d1", [3, 2, 3]), ("d2", [1, 0, 2]), ("d3", [-2, 0, 1])] {
//!     for (annotator, g) in ["a", "b", "c"].iter().zip(grades) {
//!         j.add("q1", doc, annotator, g)?;
//!     }
//! }
//! let assessments = j.summarize(&Thresholds::default())?;
//! let q = assessments.query("q1").ok_or("no query")?;
//! assert_eq!((q.strictly_relevant, q.loosely_relevant, q.diverse), (1, 2, false));
//!
//! let mut run = Run::new();
//! for (doc, score) in [("d1", 0.9), ("d2", 0.7), ("d3", 0.8)] {
//!     run.add("q1", doc, score)?;
//! }
//! let report = evaluate_run(&assessments, &run, &Options::default())?;
//! // Relevant (loosely): d1 at rank 1, d2 at rank 3 → AP = (1/1 + 2/3)/2.
//! let map = report.mean.map.value.ok_or("no MAP")?;
//! assert!((map - 5.0 / 6.0).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod csv;
mod display;
mod error;
mod evaluate;
mod flat;
mod intern;
mod judgements;
mod keys;
mod measure;
mod metrics;
mod options;
mod rbo;
mod report;
mod scan;
mod trec;

pub use csv::{
    JudgementColumns, JudgementRecord, JudgementRecords, ScoreColumns, judgement_records,
    read_judgements, read_run,
};
pub use error::{Location, RelevanceError, Result};
pub use evaluate::{Ties, TrecEvalVersion, TrecOptions, evaluate_trec};
pub use flat::{Qrels, QrelsBuilder, RunBuilder, TrecRun};
pub use intern::{Documents, Ids, StringTable};
pub use judgements::{
    Assessments, Class, GradeStats, Judgements, Level, PairSummary, QuerySummary, Scale,
    Thresholds, classify, grade_stats,
};
pub use measure::{Measure, MeasureSelection, MeasureSyntax, SelectionNote};
pub use metrics::{
    Exponential, Gain, Label, Linear, Mean, MeanMetrics, NoRelevant, Options, QueryMetrics,
    QueryReport, Run, RunReport, evaluate_query, evaluate_query_with_missing, evaluate_run,
    mean_metrics,
};
pub use rbo::{Rbo, rbo, rbo_tied, tie_groups};
pub use report::TrecReport;
pub use trec::fuzzing;
pub use trec::{
    TrecSyntax, read_trec_qrels, read_trec_qrels_with, read_trec_run, read_trec_run_top,
    read_trec_run_with,
};
