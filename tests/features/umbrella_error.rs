//! Issue 24 item 9: one error type for the whole crate. Every module error
//! converts into `Error` with `?`; its `Display` and `source()` are the
//! module error's; matching on the variant gives the module error back. The
//! parts about feature-gated modules are compiled only with their feature.

use std::error::Error as StdError;

use adaptive_comp_metrics::embedding::{EmbeddingError, VectorProblem, read_word2vec};
use adaptive_comp_metrics::lexsub::{
    Corpus, Format, LexsubError, Mode, Profile, read_gold, read_system,
};
use adaptive_comp_metrics::relevance::{Ids, read_trec_qrels};
use adaptive_comp_metrics::triplet::{FormatProblem, TripletError, read_dataset};
use adaptive_comp_metrics::wordsim::{Benchmark, PairFormat, PairProblem, WordsimError};
use adaptive_comp_metrics::{CorrelationError, Error, StandardisedError, TopWeighted, tau_w};

/// `?` from `E` into `Error`: the conversion a user's code relies on.
fn lift<T, E>(r: Result<T, E>) -> Result<T, Error>
where
    Error: From<E>,
{
    Ok(r?)
}

/// The core error below a module error `e` once wrapped, if any.
#[cfg(any(feature = "uncertainty", feature = "simulator"))]
fn correlation_source<E>(e: E) -> Option<CorrelationError>
where
    Error: From<E>,
{
    let any = Error::from(e);
    any.source()
        .and_then(|s| s.downcast_ref::<CorrelationError>())
        .cloned()
}

/// Everything the wrapper promises about a module error `module` that a
/// real call returned: `?` converts it into the variant `variant` selects,
/// which holds it unchanged; `Display` is the module error's message,
/// `expected`; `source()` is the module error's `source()`;
/// `module_error()` is the module error.
fn check_wrapped<E>(module: E, expected: &str, variant: fn(&Error) -> Option<&E>)
where
    E: StdError + Clone + PartialEq + Send + Sync + 'static,
    Error: From<E>,
{
    assert_eq!(module.to_string(), expected, "the module error's message");
    let any = lift(Err::<(), E>(module.clone())).unwrap_err();
    assert_eq!(any, Error::from(module.clone()));
    assert_eq!(
        variant(&any),
        Some(&module),
        "matching gives the module error back"
    );
    assert_eq!(any.to_string(), expected, "Display is the module error's");
    assert_eq!(
        any.module_error().downcast_ref::<E>(),
        Some(&module),
        "module_error() is the module error"
    );
    // source(): the module error's own source, the very same object.
    let inner = variant(&any).unwrap();
    match (any.source(), inner.source()) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            assert!(core::ptr::addr_eq(a, b), "source() is the module error's");
            assert_eq!(a.to_string(), b.to_string());
        }
        (a, b) => panic!("source() differs: {a:?} against {b:?}"),
    }
    assert_eq!(
        any.source().map(ToString::to_string),
        module.source().map(ToString::to_string)
    );
    // The debug form names the variant and the module error.
    let debug = format!("{any:?}");
    assert!(debug.contains(&format!("{module:?}")), "{debug}");
}

#[test]
fn the_core_error_converts() {
    let e = tau_w(&[1.0, 1.0, 1.0], &[0.9, 0.5, 0.1]).unwrap_err();
    assert_eq!(e, CorrelationError::Constant { input: "x" });
    check_wrapped(
        e,
        "x is constant: the coefficient is undefined",
        |a| match a {
            Error::Correlation(e) => Some(e),
            _ => None,
        },
    );
}

#[test]
fn a_standardised_error_converts() {
    let e = TopWeighted::new()
        .rho_standardised(&[1.0, 2.0], &[2.0, 1.0])
        .unwrap_err();
    assert_eq!(e, StandardisedError::TooFewItems { needed: 3, got: 2 });
    check_wrapped(e, "too few items: 3 needed, got 2", |a| match a {
        Error::Standardised(e) => Some(e),
        _ => None,
    });
}

#[test]
fn a_lexsub_error_converts() {
    let gold = read_gold("bright.a 1 :: clever 1;\n".as_bytes(), Mode::Strict).unwrap();
    let system = read_system("dark.a 1 :: dim\n".as_bytes(), Format::Best, Mode::Strict).unwrap();
    let e = Corpus::new(&gold.items, &system.items, Profile::Semeval2007).unwrap_err();
    assert_eq!(
        e,
        LexsubError::TargetMismatch {
            id: "1".into(),
            gold: "bright.a".into(),
            system: "dark.a".into(),
        }
    );
    check_wrapped(
        e,
        "item 1: target dark.a in the system output, bright.a in the gold",
        |a| match a {
            Error::Lexsub(e) => Some(e),
            _ => None,
        },
    );
}

#[test]
fn a_triplet_error_converts() {
    let e = read_dataset("singer\nperson,0.1,musician\n".as_bytes()).unwrap_err();
    assert_eq!(
        e,
        TripletError::Format {
            line: 2,
            problem: FormatProblem::FieldCount { found: 3 }
        }
    );
    check_wrapped(
        e,
        "dataset line 2: expected 4 comma-separated fields w1,p1,w2,p2, found 3",
        |a| match a {
            Error::Triplet(e) => Some(e),
            _ => None,
        },
    );
}

#[test]
fn an_embedding_error_converts() {
    let e = read_word2vec::<f32, _>(&b"1 2\ncat 1\n"[..]).unwrap_err();
    assert_eq!(
        e,
        EmbeddingError::Line {
            line: 2,
            problem: VectorProblem::WrongDimension {
                expected: 2,
                found: 1
            }
        }
    );
    check_wrapped(
        e,
        "vectors line 2: expected 2 components, found 1",
        |a| match a {
            Error::Embedding(e) => Some(e),
            _ => None,
        },
    );
}

#[test]
fn a_wordsim_error_converts() {
    let e = Benchmark::read("b", &b"a b 1\nc d x\n"[..], &PairFormat::new()).unwrap_err();
    assert_eq!(
        e,
        WordsimError::Line {
            line: 2,
            problem: PairProblem::InvalidScore { column: 3 }
        }
    );
    check_wrapped(
        e,
        "benchmark line 2: field 3 is not a number",
        |a| match a {
            Error::Wordsim(e) => Some(e),
            _ => None,
        },
    );
}

#[test]
fn a_relevance_error_converts() {
    let e = read_trec_qrels("q1 0 d1 1\nq1 0 d2\n".as_bytes(), &mut Ids::new()).unwrap_err();
    assert_eq!(e.line(), Some(2));
    check_wrapped(
        e,
        "line 2: expected 4 fields (qid iter docno rel), found 3",
        |a| match a {
            Error::Relevance(e) => Some(e),
            _ => None,
        },
    );
}

/// A module error that wraps another keeps it: the variant names the module
/// whose call failed, not the innermost error.
#[test]
fn a_wrapping_module_error_is_kept_whole() {
    let core = CorrelationError::Constant { input: "y" };
    let any = Error::from(WordsimError::from(core));
    assert!(matches!(&any, Error::Wordsim(w) if **w == WordsimError::Correlation(core)));
    assert_eq!(
        any.to_string(),
        "y is constant: the coefficient is undefined"
    );
    let any = Error::from(TripletError::from(EmbeddingError::InvalidParameter {
        name: "dim",
        expected: "at least 1",
    }));
    assert!(matches!(&any, Error::Triplet(t) if matches!(**t, TripletError::Vectors(_))));
    assert_eq!(any.to_string(), "invalid parameter dim: at least 1");
    let any = Error::from(StandardisedError::from(core));
    assert!(matches!(&any, Error::Standardised(_)));
}

#[test]
fn it_is_send_sync_static_clone_and_two_words() {
    fn send_sync_static<T: Send + Sync + 'static>() {}
    send_sync_static::<Error>();
    assert_eq!(
        core::mem::size_of::<Error>(),
        2 * core::mem::size_of::<usize>()
    );
    // Into the usual boxed trait object and back, across a thread.
    let handle = std::thread::spawn(|| -> Result<(), Box<dyn StdError + Send + Sync>> {
        lift(tau_w(&[1.0, 2.0], &[1.0, 2.0, 3.0]))?;
        Ok(())
    });
    let boxed = handle.join().unwrap().unwrap_err();
    let any = boxed.downcast_ref::<Error>().unwrap();
    assert_eq!(any.to_string(), "length mismatch: x has 2 values, y has 3");
    assert_eq!(any.clone(), *any);
}

/// `fn main() -> Result<(), Error>` over several modules with `?` and
/// no `map_err`: lexsub, relevance, wordsim, the correlation core and,
/// with the feature `scheduler`, a ballot campaign.
mod mixed {
    use super::*;
    #[cfg(feature = "scheduler")]
    use adaptive_comp_metrics::ballot::{
        AnswerError, BallotConfig, BallotError, Campaign, LayoutOptions, Outcome, Scheduler,
        TaskId, Vote,
    };
    #[cfg(feature = "scheduler")]
    use rand::SeedableRng;
    #[cfg(feature = "scheduler")]
    use rand_chacha::ChaCha8Rng;

    #[derive(Debug, Clone, Copy)]
    struct Inputs<'a> {
        gold: &'a str,
        qrels: &'a str,
        pairs: &'a str,
        human: &'a [f64],
        model: &'a [f64],
        n_items: usize,
        worker: &'a str,
    }

    const GOOD: Inputs<'static> = Inputs {
        gold: "bright.a 1 :: intelligent 3;clever 2;\nbright.a 2 :: smart 1;\n",
        qrels: "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n",
        pairs: "tiger cat 7.35\nbook paper 7.46\n",
        human: &[3.0, 2.0, 1.0],
        model: &[0.1, 0.5, 0.9],
        n_items: 4,
        worker: "ann",
    };

    #[derive(Debug, PartialEq)]
    struct Summary {
        gold_items: usize,
        judgements: usize,
        pairs: usize,
        tau: f64,
        #[cfg(feature = "scheduler")]
        answer: Outcome,
    }

    fn run(i: Inputs<'_>) -> Result<Summary, Error> {
        let gold = read_gold(i.gold.as_bytes(), Mode::Strict)?;
        let qrels = read_trec_qrels(i.qrels.as_bytes(), &mut Ids::new())?;
        let benchmark = Benchmark::read("toy", i.pairs.as_bytes(), &PairFormat::new())?;
        let tau = tau_w(i.human, i.model)?;
        #[cfg(feature = "scheduler")]
        let answer = {
            let config = BallotConfig::new(i.n_items, 2, 0.5, 2)?;
            let mut c = Campaign::new(Scheduler::new(config), vec![], LayoutOptions::plain())?;
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            c.open_ballot(&mut rng, &mut ChaCha8Rng::seed_from_u64(2))?;
            let task = TaskId {
                ballot: 1,
                position: 0,
            };
            c.answer(task, i.worker, Vote::First)?
        };
        #[cfg(not(feature = "scheduler"))]
        let _ = (i.n_items, i.worker);
        Ok(Summary {
            gold_items: gold.items.len(),
            judgements: qrels.len(),
            pairs: benchmark.len(),
            tau: tau.tau,
            #[cfg(feature = "scheduler")]
            answer,
        })
    }

    #[test]
    fn good_inputs_go_through() {
        let s = run(GOOD).unwrap();
        // Two gold items, three judgements, two pairs; the model reverses
        // the human order exactly, so τ_w = −1.
        assert_eq!(
            s,
            Summary {
                gold_items: 2,
                judgements: 3,
                pairs: 2,
                tau: -1.0,
                #[cfg(feature = "scheduler")]
                answer: Outcome::Recorded,
            }
        );
    }

    #[test]
    fn each_module_failure_arrives_as_its_variant() {
        let e = run(Inputs {
            gold: "bright.a 1 intelligent 3\n",
            ..GOOD
        })
        .unwrap_err();
        assert!(
            matches!(&e, Error::Lexsub(l) if matches!(**l, LexsubError::Syntax { line: 1, .. })),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "line 1: expected 'lemma.pos ID ::' before the substitutes"
        );

        let e = run(Inputs {
            qrels: "q1 0 d1 1\nq1 0 d1 2\n",
            ..GOOD
        })
        .unwrap_err();
        let Error::Relevance(r) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(r.line(), Some(2));
        assert_eq!(
            e.to_string(),
            "line 2: document \"d1\" of query \"q1\" is judged twice (first at line 1)"
        );

        let e = run(Inputs {
            pairs: "tiger cat 7.35\nbook  7.46\n",
            ..GOOD
        })
        .unwrap_err();
        assert!(
            matches!(&e, Error::Wordsim(w) if w.line() == Some(2)),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "benchmark line 2: expected at least 3 fields, found 2"
        );

        let e = run(Inputs {
            model: &[0.1, f64::NAN, 0.9],
            ..GOOD
        })
        .unwrap_err();
        assert_eq!(
            e,
            Error::from(CorrelationError::NaN {
                input: "y",
                index: 1
            })
        );
        assert_eq!(e.to_string(), "y[1] is NaN");
    }

    #[cfg(feature = "scheduler")]
    #[test]
    fn ballot_and_answer_failures_arrive_as_their_variants() {
        let e = run(Inputs { n_items: 1, ..GOOD }).unwrap_err();
        let Error::Ballot(b) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(**b, BallotError::TooFewItems { needed: 2, got: 1 });
        assert_eq!(e.to_string(), "too few items: 2 needed, got 1");

        let e = run(Inputs { worker: "", ..GOOD }).unwrap_err();
        assert_eq!(e, Error::from(AnswerError::EmptyWorker));
        assert_eq!(e.to_string(), "the worker id is empty");
        assert!(e.source().is_none());
    }
}

#[cfg(feature = "scheduler")]
mod scheduler {
    use super::*;
    use adaptive_comp_metrics::ballot::{
        AnswerError, BallotConfig, BallotError, Campaign, LayoutOptions, Scheduler, TaskId, Vote,
    };
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_ballot_error_converts() {
        let e = BallotConfig::new(8, 2, 1.5, 2).unwrap_err();
        assert!(matches!(
            e,
            BallotError::InvalidParameter { name: "alpha", .. }
        ));
        let message = "invalid parameter alpha: a fraction of kept items strictly between 0 and 1";
        check_wrapped(e, message, |a| match a {
            Error::Ballot(e) => Some(e),
            _ => None,
        });
    }

    #[test]
    fn an_answer_error_converts() {
        let config = BallotConfig::new(6, 2, 0.5, 2).unwrap();
        let mut c = Campaign::new(Scheduler::new(config), vec![], LayoutOptions::plain()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        c.open_ballot(&mut rng, &mut ChaCha8Rng::seed_from_u64(2))
            .unwrap();
        let task = TaskId {
            ballot: 1,
            position: 999,
        };
        let e = c.answer(task, "ann", Vote::Tie).unwrap_err();
        assert_eq!(e, AnswerError::UnknownTask { task });
        check_wrapped(e, "unknown task b1-999", |a| match a {
            Error::Answer(e) => Some(e),
            _ => None,
        });
    }
}

#[cfg(feature = "uncertainty")]
mod uncertainty {
    use super::*;
    use adaptive_comp_metrics::uncertainty::{
        Alternative, Spearman, UncertaintyError, permutation_test_seeded,
    };

    fn variant(a: &Error) -> Option<&UncertaintyError> {
        match a {
            Error::Uncertainty(e) => Some(e),
            _ => None,
        }
    }

    #[test]
    fn an_uncertainty_error_converts() {
        let x = [1.0, 2.0];
        let e =
            permutation_test_seeded(&Spearman, &x, &x, 99, Alternative::Greater, 7).unwrap_err();
        assert_eq!(e, UncertaintyError::TooFewItems { needed: 3, got: 2 });
        let message = "too few items: 3 needed, got 2";
        check_wrapped(e, message, variant);
    }

    /// A module error with a source: `source()` of the wrapper is that
    /// source (the core error of the failing replicate), once.
    #[test]
    fn the_module_errors_source_is_the_source() {
        let inner = CorrelationError::Constant { input: "x" };
        let e = UncertaintyError::Replicate {
            kind: "permutation",
            index: 17,
            source: inner,
        };
        check_wrapped(
            e,
            "permutation 17: x is constant: the coefficient is undefined",
            variant,
        );
        assert_eq!(correlation_source(e), Some(inner));
        // A transparent module variant forwards too: no source below the
        // core error.
        let any = Error::from(UncertaintyError::from(inner));
        assert_eq!(
            any.to_string(),
            "x is constant: the coefficient is undefined"
        );
        assert!(any.source().is_none());
    }
}

#[cfg(feature = "simulator")]
mod simulator {
    use super::*;
    use adaptive_comp_metrics::ballot::{BallotConfig, BallotError};
    use adaptive_comp_metrics::simulate::{
        Estimate, Metric, SimulateError, Simulation, Underlying,
    };

    fn variant(a: &Error) -> Option<&SimulateError> {
        match a {
            Error::Simulate(e) => Some(e),
            _ => None,
        }
    }

    /// A real failure with a source: a metric that fails, reported with
    /// its name and simulation, and the core error as source.
    #[test]
    fn a_sim_error_converts_with_its_source() {
        let config = BallotConfig::new(20, 4, 0.5, 2).unwrap();
        let failing = Metric::custom("picky", |_: &Estimate<'_>| {
            Err(CorrelationError::Undefined { reason: "always" })
        });
        let e = Simulation::new(Underlying::exponential(20).unwrap(), config)
            .unwrap()
            .n_voters(5)
            .unwrap()
            .metrics(vec![failing])
            .run_with_threads(2, 1, 1)
            .unwrap_err();
        assert_eq!(
            e,
            SimulateError::Metric {
                metric: "picky".into(),
                simulation: 0,
                source: CorrelationError::Undefined { reason: "always" },
            }
        );
        check_wrapped(
            e.clone(),
            "metric picky in simulation 0: the coefficient is undefined: always",
            variant,
        );
        assert_eq!(
            correlation_source(e),
            Some(CorrelationError::Undefined { reason: "always" })
        );
    }

    #[test]
    fn a_sim_error_wrapping_a_ballot_error_stays_a_sim_error() {
        let e = SimulateError::from(BallotError::NothingClosed);
        check_wrapped(e, "scheduler: no ballot has been closed yet", variant);
        let any = Error::from(SimulateError::from(BallotError::NothingClosed));
        assert_eq!(
            any.source().and_then(|s| s.downcast_ref::<BallotError>()),
            Some(&BallotError::NothingClosed)
        );
    }
}

/// Issue 38 item 5: every reader error says its line and column with
/// `line()` and `column()` (what `acm` prints as `FILE:LINE:COLUMN:`), and
/// the umbrella `Error` answers the same for any module; errors that are
/// not about a line of input answer `None`.
#[test]
fn reader_errors_and_the_umbrella_say_line_and_column() {
    use adaptive_comp_metrics::relevance::{TrecSyntax, read_trec_qrels_with};
    fn both<E: Clone + Into<Error>>(e: &E, line: Option<usize>, column: Option<usize>) {
        let any: Error = e.clone().into();
        assert_eq!((any.line(), any.column()), (line, column), "{any}");
    }
    // Lexical substitution: a count that overflows names its column.
    let e = read_gold("w.n 1 :: a 4294967296\n".as_bytes(), Mode::Strict).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(12)));
    both(&e, Some(1), Some(12));
    let e = read_gold(
        "ok.a 1 :: b 1;\nbright.a 1 intelligent 3\n".as_bytes(),
        Mode::Strict,
    )
    .unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), None));
    both(&e, Some(2), None);
    // TREC qrels: a blank line names column 1 under trec_eval's syntax.
    let e = read_trec_qrels_with(
        "a 0 x 1\n\na 0 y 0\n".as_bytes(),
        &mut Ids::new(),
        TrecSyntax::TrecEval,
    )
    .unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), Some(1)));
    both(&e, Some(2), Some(1));
    // Triplets, word vectors, word-similarity benchmarks: lines only.
    let e = read_dataset("singer\nperson,0.1,musician\n".as_bytes()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), None));
    both(&e, Some(2), None);
    let e = read_word2vec::<f32, _>("1 2\ncat 1\n".as_bytes()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), None));
    both(&e, Some(2), None);
    let e = Benchmark::read("b", "a b 1\nc d x\n".as_bytes(), &PairFormat::new()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), None));
    both(&e, Some(2), None);
    // A vector file read for triplets keeps its line.
    both(
        &TripletError::from(read_word2vec::<f32, _>("1 2\ncat 1\n".as_bytes()).unwrap_err()),
        Some(2),
        None,
    );
    // Not about a line of input.
    both(&tau_w(&[1.0, 1.0], &[1.0, 2.0]).unwrap_err(), None, None);
    both(
        &StandardisedError::from(CorrelationError::ZeroWeights),
        None,
        None,
    );
}

/// The names before 0.1.0 still compile, deprecated: `AnyError` is the
/// umbrella `Error`.
#[test]
#[allow(deprecated)]
fn the_old_umbrella_name_is_an_alias() {
    let e: adaptive_comp_metrics::AnyError = Error::from(CorrelationError::ZeroWeights);
    assert!(matches!(e, adaptive_comp_metrics::AnyError::Correlation(_)));
    // `SimError` is the simulator's `SimulateError`.
    #[cfg(feature = "simulator")]
    {
        let old: Option<adaptive_comp_metrics::simulate::SimError> = None;
        let _: Option<adaptive_comp_metrics::simulate::SimulateError> = old;
    }
}
