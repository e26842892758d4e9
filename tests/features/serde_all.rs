//! Every public result, option and configuration type round-trips through
//! serde (feature `serde`), each with a value the library produced; types
//! with invariants refuse invalid serialised data.
//!
//! Each value goes through serde's data model twice: as a
//! `serde_json::Value` tree, which keeps every `f64` exactly (the value read
//! back must equal the original), and as JSON text, which must read back to
//! the same tree up to one ulp per number (serde_json's default float parser
//! reads some 17-digit numbers one ulp off; `ballot_serde` shows such
//! numbers).
#![cfg(feature = "serde")]

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt::{Debug, Display};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Whether two value trees are equal, numbers within one ulp.
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                x == y || (x - y).abs() <= f64::EPSILON * x.abs().max(y.abs())
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

/// Serialises `value`, reads it back through a value tree and through text,
/// and checks that nothing changed; returns the value read from the tree.
fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
    let name = std::any::type_name::<T>();
    let tree = serde_json::to_value(value).unwrap_or_else(|e| panic!("{name}: serialise: {e}"));
    let back: T = serde_json::from_value(tree.clone())
        .unwrap_or_else(|e| panic!("{name}: deserialise {tree}: {e}"));
    let again = serde_json::to_value(&back).unwrap();
    assert_eq!(again, tree, "{name}: the value tree changed");
    let text = serde_json::to_string(value).unwrap();
    let from_text: T =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: read {text}: {e}"));
    let from_text = serde_json::to_value(&from_text).unwrap();
    assert!(
        close(&from_text, &tree),
        "{name}: {text} read back as {from_text}"
    );
    back
}

/// [`round_trip`] for a type with `PartialEq`: the value read back equals
/// the original.
fn same<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    assert_eq!(&round_trip(value), value, "{}", std::any::type_name::<T>());
}

/// [`same`] for a result type, which also prints for a person: some text,
/// not its `Debug` form.
fn result<T: Serialize + DeserializeOwned + PartialEq + Debug + Display>(value: &T) {
    same(value);
    let text = value.to_string();
    assert!(
        !text.is_empty() && text != format!("{value:?}"),
        "{}: {text}",
        std::any::type_name::<T>()
    );
}

/// The error message of reading `json` as a `T`.
fn refused<T: DeserializeOwned + Debug>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(v) => panic!("{} accepted {json} as {v:?}", std::any::type_name::<T>()),
        Err(e) => e.to_string(),
    }
}

/// Scores with a tie (0.7 twice) and an inversion.
const HUMAN: [f64; 8] = [0.95, 0.80, 0.70, 0.70, 0.40, 0.33, 0.20, 0.05];
const MODEL: [f64; 8] = [0.91, 0.62, 0.83, 0.55, 0.35, 0.20, 0.30, 0.01];
/// A second model, for the paired comparison (feature `uncertainty`).
#[cfg(feature = "uncertainty")]
const MODEL_B: [f64; 8] = [0.10, 0.62, 0.30, 0.55, 0.85, 0.20, 0.90, 0.01];

mod core {
    use super::*;
    use adaptive_comp_metrics::correlation::vigna::{
        Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_tau_stats,
    };
    use adaptive_comp_metrics::{
        Alternative, Hyperbolic, Logarithmic, OffsetQuadratic, Order, Quadratic, Scheme, Ties,
        TopWeighted, Unweighted, kendall_tau_b, pearson, rho_w, spearman, tau_w,
    };

    #[test]
    fn coefficients() -> TestResult {
        result(&spearman(&HUMAN, &MODEL)?);
        result(&kendall_tau_b(&HUMAN, &MODEL)?);
        let r = pearson(&HUMAN, &MODEL)?;
        result(&r);
        result(&r.confidence_interval(0.9, Alternative::Greater)?);
        result(&rho_w(&HUMAN, &MODEL)?);
        result(&tau_w(&HUMAN, &MODEL)?);
        let ranks: Vec<f64> = (0..8).map(f64::from).collect();
        let opts = WeightedTauOptions::default().rank(Rank::Given(&ranks));
        result(&weighted_tau_stats(&HUMAN, &MODEL, &opts)?);
        result(&weighted_tau_stats(
            &HUMAN,
            &MODEL,
            &WeightedTauOptions::default(),
        )?);
        result(&weighted_kendall(
            &HUMAN,
            &MODEL,
            &[1.0; 8],
            Combine::Multiplicative,
        )?);
        Ok(())
    }

    #[test]
    fn infinite_statistics_survive_json() -> TestResult {
        // |ρ| = 1: the t statistic is infinite, which JSON has no number for.
        let s = spearman(&HUMAN, &HUMAN)?;
        assert_eq!(s.statistic, f64::INFINITY);
        same(&s);
        assert!(serde_json::to_string(&s)?.contains(r#""statistic":"inf""#));
        let p = pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0])?;
        assert_eq!(p.statistic, f64::NEG_INFINITY);
        same(&p);
        Ok(())
    }

    #[test]
    fn options() -> TestResult {
        same(&TopWeighted::new());
        let custom = TopWeighted::new()
            .weigher(OffsetQuadratic::new(3.5)?)
            .scheme(Scheme::First)
            .ties(Ties::Min)
            .orders(Order::LargerIsBetter, Order::SmallerIsBetter);
        same(&custom);
        assert_eq!(
            round_trip(&custom).rho(&HUMAN, &MODEL)?,
            custom.rho(&HUMAN, &MODEL)?
        );
        same(&TopWeighted::new().weigher(Hyperbolic));
        same(&TopWeighted::new().weigher(Quadratic));
        same(&TopWeighted::new().weigher(Logarithmic));
        same(&TopWeighted::new().weigher(Unweighted));
        for s in [
            Scheme::Additive,
            Scheme::Multiplicative,
            Scheme::First,
            Scheme::Second,
        ] {
            same(&s);
        }
        for t in [
            Ties::Average,
            Ties::Min,
            Ties::Max,
            Ties::Dense,
            Ties::Ordinal,
        ] {
            same(&t);
        }
        same(&Order::SmallerIsBetter);
        for a in [
            Alternative::TwoSided,
            Alternative::Greater,
            Alternative::Less,
        ] {
            same(&a);
        }
        same(&NanPolicy::Smallest);
        same(&Combine::Multiplicative);
        for rank in [Rank::Symmetric, Rank::ByXY, Rank::ByYX, Rank::Index] {
            same(&rank);
            same(
                &WeightedTauOptions::default()
                    .rank(rank)
                    .weigher(Quadratic)
                    .combine(Combine::Multiplicative)
                    .nan(NanPolicy::Smallest),
            );
        }
        Ok(())
    }

    #[test]
    fn invalid_options_are_refused() {
        // A given rank array borrows the caller's data: it serialises, but
        // cannot be read back.
        let ranks = [2.0, 1.0];
        let json = serde_json::to_string(&Rank::Given(&ranks)).unwrap();
        assert_eq!(json, r#"{"Given":[2.0,1.0]}"#);
        assert!(refused::<Rank<'static>>(&json).contains("cannot be deserialised"));
        // The weigher of a configuration is validated as `new` validates it.
        let mut v = serde_json::to_value(TopWeighted::new()).unwrap();
        v["weigher"]["n0"] = (-1.0).into();
        assert!(refused::<TopWeighted>(&v.to_string()).contains("n0"));
        assert!(refused::<OffsetQuadratic>(r#"{"n0":1e300}"#).contains("n0"));
    }
}

mod lexsub {
    use super::*;
    use adaptive_comp_metrics::lexsub::{
        Corpus, Format, GoldItem, Measure, Mode, Penalty, Percent, Profile,
        gap::{self, Averaging},
        read_gold, read_system, revised, score_pl, semeval,
    };
    use std::num::NonZeroUsize;

    const GOLD: &str =
        "bright.a 1 :: clever 3;smart 1\nbright.a 2 :: shiny 2;vivid 2\nbright.a 3 :: sunny 1\n";
    const BEST: &str = "bright.a 1 :: clever;smart\nbright.a 2 :: dull\n";
    const OOT: &str = "bright.a 1 ::: smart;clever;clever\nbright.a 3 ::: sunny\n";

    #[test]
    fn results() -> TestResult {
        let gold = read_gold(GOLD.as_bytes(), Mode::Strict)?;
        let best = read_system(BEST.as_bytes(), Format::Best, Mode::Lenient)?;
        let oot = read_system(OOT.as_bytes(), Format::Oot, Mode::Strict)?;
        for g in &gold.items {
            same(g);
            for s in g.substitutes() {
                same(s);
            }
        }
        same(&best.items[0]);
        let corpus = Corpus::new(&gold.items, &best.items, Profile::Semeval2007)?;
        let oot_corpus = Corpus::new(&gold.items, &oot.items, Profile::Strict)?;
        let k = NonZeroUsize::new(2).ok_or("k = 0")?;
        let penalty = Penalty::new(0.5)?;
        for m in Measure::all(penalty, k) {
            same(&m);
            result(&corpus.totals(m));
            for item in corpus.item_scores(m) {
                result(&item);
                result(&item.outcome);
            }
        }
        result(&semeval::best_scores(&corpus));
        result(&semeval::oot_scores(&oot_corpus));
        result(&revised::revised_scores(&corpus, penalty));
        result(&gap::at_k(&corpus, k, Averaging::Micro));
        result(&Percent(corpus.totals(Measure::Best).recall()));
        same(&Percent(None));
        result(&score_pl::score(
            GOLD.as_bytes(),
            OOT.as_bytes(),
            Format::Oot,
        )?);
        Ok(())
    }

    #[test]
    fn options() -> TestResult {
        same(&Penalty::new(0.25)?);
        same(&Profile::Strict);
        same(&Format::Oot);
        same(&Mode::Lenient);
        same(&Averaging::Macro);
        Ok(())
    }

    #[test]
    fn invalid_data_is_refused() {
        assert!(refused::<Penalty>("-1.0").contains("penalty"));
        let zero = r#"{"id":"1","target":"a.n","substitutes":[{"term":"x","count":0}]}"#;
        assert!(!refused::<GoldItem>(zero).is_empty());
        let none = r#"{"id":"1","target":"a.n","substitutes":[]}"#;
        assert!(!refused::<GoldItem>(none).is_empty());
    }

    #[test]
    fn gold_items_keep_their_derived_counts() -> TestResult {
        let g = GoldItem::new("1", "happy.a", [("glad", 3), ("merry", 3), ("sunny", 2)])?;
        let json = serde_json::to_string(&g)?;
        assert!(!json.contains("total"), "{json}"); // recomputed, not stored
        let back: GoldItem = serde_json::from_str(&json)?;
        assert_eq!((back.total(), back.max_freq()), (8, 3));
        Ok(())
    }
}

mod relevance {
    use super::*;
    use adaptive_comp_metrics::relevance::{
        Class, Exponential, Ids, JudgementColumns, Judgements, Label, Level, Linear, Measure,
        NoRelevant, Options, Run, Scale, ScoreColumns, Thresholds, Ties, TrecEvalVersion,
        TrecOptions, TrecReport, TrecSyntax, classify, evaluate_query, evaluate_run, evaluate_trec,
        grade_stats, judgement_records, mean_metrics, rbo, read_trec_qrels, read_trec_run,
    };

    #[test]
    fn results() -> TestResult {
        let o = Options::default();
        let labels = [
            Label::new(false, 0.0),
            Label::new(true, 2.5),
            Label::unjudged(),
        ];
        let a = evaluate_query(&[2.0, 1.0, 1.0], &labels, &o)?;
        let b = evaluate_query(&[2.0, 1.0], &labels[..2], &o)?;
        let none = evaluate_query(&[1.0], &[Label::new(false, -1.0)], &o)?;
        for m in [a, b, none] {
            result(&m);
        }
        same(&labels[2]);
        let mean = mean_metrics(&[a, b, none], NoRelevant::Skip);
        result(&mean);
        result(&mean.map);

        let mut j = Judgements::new(Scale::default());
        for (q, d, who, g) in [
            ("q1", "d1", "a", 3),
            ("q1", "d1", "b", 2),
            ("q1", "d2", "a", -1),
            ("q2", "d3", "a", 1),
        ] {
            j.add(q, d, who, g)?;
        }
        let assessments = j.summarize(&Thresholds::default())?;
        for p in assessments.pairs() {
            result(p);
            result(&p.stats);
            result(&p.class);
        }
        for q in assessments.queries() {
            result(q);
        }
        let mut run = Run::new();
        run.add("q1", "d1", 0.2)?;
        run.add("q1", "d9", 0.9)?;
        run.add("q3", "d1", 0.5)?;
        let report = evaluate_run(&assessments, &run, &o.with_gain(Exponential))?;
        result(&report);
        result(&report.queries[0]);

        result(&grade_stats(&[3, 2, 2])?);
        result(&classify(&[-2, 3], &Thresholds::default())?);
        result(&rbo(&["a", "b", "c", "d"], &["b", "a", "e"], 0.9)?);

        let csv = "query,document,annotator,grade\nq1,d1,a,3\n";
        for r in judgement_records(csv.as_bytes(), &JudgementColumns::default())? {
            same(&r?);
        }
        Ok(())
    }

    #[test]
    fn trec_report() -> TestResult {
        let mut ids = Ids::new();
        let qrels = read_trec_qrels("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n".as_bytes(), &mut ids)?;
        let run = read_trec_run(
            "q1 Q0 d2 1 2.0 r\nq1 Q0 d1 2 1.0 r\nq3 Q0 d1 1 1.0 r\n".as_bytes(),
            &mut ids,
        )?;
        let options = TrecOptions {
            ties: Ties::Expected,
            complete: true,
            ..TrecOptions::default()
        };
        let report = evaluate_trec(&qrels, &run, &Measure::STANDARD, &options)?;
        result(&report);
        same(&options);
        same(&options.with_gain(Exponential));
        same(&TrecOptions {
            version: TrecEvalVersion::V9,
            ..options
        });
        same(&TrecSyntax::TrecEval);
        for m in Measure::STANDARD.iter().chain(&Measure::OFFICIAL) {
            same(m);
        }
        // Options written before `version` existed read as trec_eval 10.0's.
        let mut old = serde_json::to_value(options)?;
        old.as_object_mut().ok_or("object")?.remove("version");
        let read: TrecOptions = serde_json::from_value(old)?;
        assert_eq!(read.version, TrecEvalVersion::V10);
        assert_eq!(
            serde_json::to_string(&Measure::InterpolatedPrecision(10))?,
            r#""iprec_at_recall_0.10""#
        );
        // Measures read and write as their trec_eval names.
        assert_eq!(
            serde_json::to_string(&Measure::NdcgCut(10))?,
            r#""ndcg_cut_10""#
        );
        // The per-query values must fill the table.
        let mut v = serde_json::to_value(&report)?;
        v["values"].as_array_mut().ok_or("values")?.pop();
        assert!(refused::<TrecReport>(&v.to_string()).contains("one value per query"));
        assert!(!refused::<Measure>(r#""P_0""#).is_empty());
        Ok(())
    }

    #[test]
    fn options() -> TestResult {
        let scale = Scale::new(0, 4)?;
        same(&scale);
        same(&Thresholds::for_scale(scale));
        same(&Options {
            k: 5,
            level: Level::Strict,
            no_relevant: NoRelevant::Skip,
            ..Options::default()
        });
        same(&Linear);
        same(&Ties::TrecEval);
        same(&Class::LooselyRelevant);
        // Borrowed column names read back from text only.
        let c = JudgementColumns {
            annotator: "worker_id",
            ..JudgementColumns::default()
        };
        let json = serde_json::to_string(&c)?;
        assert_eq!(serde_json::from_str::<JudgementColumns<'_>>(&json)?, c);
        let s = ScoreColumns::default();
        let json = serde_json::to_string(&s)?;
        assert_eq!(serde_json::from_str::<ScoreColumns<'_>>(&json)?, s);
        assert!(refused::<Scale>(r#"{"min":3,"max":3}"#).contains("min < max"));
        Ok(())
    }
}

mod triplet {
    use super::*;
    use adaptive_comp_metrics::triplet::{
        Annotation, Comparison, ComparisonKind, Decimals, Deviation, ReadMode, TargetGroup,
        TiePolicy, build_dataset, read_dataset_with, score,
    };

    #[test]
    fn results_and_options() -> TestResult {
        let groups = [TargetGroup::new("t", ["x", "y", "z"], ["d"], ["r"])];
        let ann = [
            Annotation::new("a", "t", ["x", "y", "z"]),
            Annotation::new("b", "t", ["x", "y", "z"]),
            Annotation::new("c", "t", ["y", "x", "z"]),
            Annotation::new("d", "t", ["z", "y", "x"]),
        ];
        same(&groups[0]);
        same(&ann[0]);
        let built = build_dataset(&groups, &ann, Deviation::Population)?;
        result(&built);
        result(&built.agreement);
        result(&built.agreement.annotators[0]);
        result(&built.exclusion);
        same(&built.comparisons[0]);
        same(&Deviation::Sample);
        let model = |a: &str, b: &str| -> Option<f64> {
            (b != "r").then(|| f64::from(u8::try_from(a.len() + b.len()).unwrap_or(0)))
        };
        for ties in [
            TiePolicy::HalfCredit,
            TiePolicy::ChooseSecond,
            TiePolicy::Skip,
        ] {
            let s = score(&built.comparisons, &model, ties)?;
            result(&s);
            result(&s.overall);
            same(&ties);
        }
        let text = "t\nx,0.9,y,0.1\ncab\ncar,0.6,bus,0.4\n";
        let parsed = read_dataset_with(text.as_bytes(), ReadMode::Lenient)?;
        assert_eq!(parsed.warnings.len(), 1);
        result(&parsed);
        result(&parsed.warnings[0]);
        same(&ReadMode::Strict);
        same(&Decimals::Fixed(2));
        same(&ComparisonKind::Distractor);
        same(&Comparison::new(
            "t",
            "a",
            "b",
            0.25,
            ComparisonKind::Random,
        ));
        Ok(())
    }
}

#[cfg(feature = "uncertainty")]
mod uncertainty {
    use super::*;
    use adaptive_comp_metrics::correlation::vigna::{Rank, WeightedTauOptions};
    use adaptive_comp_metrics::uncertainty::{
        Alternative, Bootstrap, Exchange, Histogram, Interval, KendallTauB, Permutations, Spearman,
        Statistic, Threads, TopWeightedRho, TopWeightedTau, VignaTau, kendall_tau_b_null,
        paired_comparison, spearman_null, standardise,
    };
    use adaptive_comp_metrics::{Hyperbolic, Order, Scheme, Ties};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::num::NonZeroUsize;

    #[test]
    fn results() -> TestResult {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let one = Threads::Fixed(NonZeroUsize::MIN);
        let test = Permutations::new(199)
            .alternative(Alternative::Less)
            .threads(one)
            .test(&KendallTauB, &HUMAN, &MODEL, &mut rng)?;
        result(&test);
        let bca = Bootstrap::new(300)
            .threads(one)
            .run(&Spearman, &HUMAN, &MODEL, &mut rng)?;
        result(&bca);
        let pct = Bootstrap::new(300)
            .level(0.8)
            .interval(Interval::Percentile)
            .threads(one)
            .run(&Spearman, &HUMAN, &MODEL, &mut rng)?;
        result(&pct);
        let exact = spearman_null(8)?;
        result(&exact);
        result(&exact.sd);
        result(&kendall_tau_b_null(&HUMAN, &MODEL)?);
        let z = standardise(&TopWeightedRho::new(), &HUMAN, &MODEL, 200, &mut rng)?;
        result(&z);
        same(&z.null.mean.source);
        result(&paired_comparison(
            &Spearman, &HUMAN, &MODEL, &MODEL_B, 200, &mut rng,
        )?);
        let prepared = TopWeightedTau::new().prepare(&HUMAN, &MODEL)?;
        same(&prepared);
        result(&TopWeightedTau::new().exact_null(&prepared));
        result(&Spearman.exact_null(&prepared));
        let (_, null) = Permutations::new(199).threads(one).test_with_histogram(
            &KendallTauB,
            &HUMAN,
            &MODEL,
            12,
            &mut rng,
        )?;
        result(&null);
        assert!(refused::<Histogram>(r#"{"edges":[0.0],"counts":[]}"#).contains("one more edge"));
        assert!(refused::<Histogram>(r#"{"edges":[0.0,1.0],"counts":[1,2]}"#).contains("one more"));
        assert!(refused::<Histogram>(r#"{"edges":[1.0,1.0],"counts":[1]}"#).contains("increasing"));
        Ok(())
    }

    #[test]
    fn options() -> TestResult {
        let one = Threads::Fixed(NonZeroUsize::new(3).ok_or("0")?);
        same(
            &Bootstrap::new(500)
                .level(0.9)
                .interval(Interval::Percentile)
                .threads(one),
        );
        same(
            &Permutations::new(999)
                .alternative(Alternative::Greater)
                .exchange(Exchange::Scores)
                .threads(Threads::Available)
                .max_replicates(1000),
        );
        same(&Spearman);
        same(&KendallTauB);
        let rho = TopWeightedRho::new()
            .weigher(Hyperbolic)
            .scheme(Scheme::First)
            .ties(Ties::Max)
            .orders(Order::SmallerIsBetter, Order::LargerIsBetter);
        let back = round_trip(&rho);
        assert_eq!(back, rho);
        assert_eq!(back.value(&HUMAN, &MODEL)?, rho.value(&HUMAN, &MODEL)?);
        same(&TopWeightedTau::new());
        same(&VignaTau::new(
            WeightedTauOptions::default().rank(Rank::ByYX),
        ));
        same(&Exchange::Ranks);
        Ok(())
    }
}

#[cfg(feature = "simulator")]
mod simulate {
    use super::*;
    use adaptive_comp_metrics::ballot::{BallotConfig, UniformBudget};
    use adaptive_comp_metrics::simulate::{
        Arm, Choice, EqualOpinions, Judgement, Metric, Noise, Nonconformity, PowerLaw, Simulation,
        Summary, Underlying, VoterModel, sweep,
    };

    fn base() -> Result<Simulation, Box<dyn std::error::Error>> {
        Ok(Simulation::new(
            Underlying::power_law(60, PowerLaw::Published)?,
            BallotConfig::new(60, 4, 0.5, 3)?,
        )?
        .n_voters(10)?
        .voters(VoterModel::published().noise(Noise::PerComparison))
        .uniform_budget(UniformBudget::RoundedAppearances))
    }

    #[test]
    fn results() -> TestResult {
        let sim = base()?;
        let report = sim.run(3, 5)?;
        result(&report);
        result(&report.uniform[0]);
        let run = sim.simulate(5, 0)?;
        result(&run);
        result(&run.adaptive);
        let s = sweep(&sim, 300, &[0.5, 0.9], &[2, 40], &Metric::tau(), 2, 1)?;
        assert!(!s.points.is_empty() && !s.skipped.is_empty());
        result(&s);
        result(&s.points[0]);
        result(&s.skipped[0]);
        Ok(())
    }

    #[test]
    fn configurations() -> TestResult {
        let sim = base()?;
        let back = round_trip(&sim);
        // Same configuration, same simulation.
        assert_eq!(back.simulate(9, 1)?, sim.simulate(9, 1)?);
        same(&Underlying::exponential(5)?);
        let voters = VoterModel::paper()
            .sigma_range(0.1, 0.3)?
            .epsilon_range(0.0, 0.1)?
            .judgement(Judgement::Similarity)
            .equal_opinions(EqualOpinions::FirstShown);
        assert_eq!(
            serde_json::to_value(round_trip(&voters))?,
            serde_json::to_value(&voters)?
        );
        for arm in [Arm::Uniform, Arm::Adaptive] {
            same(&arm);
        }
        same(&Choice::Second);
        same(&PowerLaw::Paper);
        Ok(())
    }

    #[test]
    fn invalid_data_and_closures_are_refused() -> TestResult {
        // A summary is recomputed from its values and must agree with them.
        let s = Summary::of(&[0.25, 0.5, 1.0])?;
        let mut v = serde_json::to_value(&s)?;
        v["mean"] = 0.3.into();
        assert!(refused::<Summary>(&v.to_string()).contains("agree"));
        let one = r#"{"mean":0.5,"sd":0.0,"se":0.0,"values":[0.5]}"#;
        assert!(refused::<Summary>(one).contains("2"));
        assert!(!refused::<Underlying>(r#"{"z":[0.5,1.5]}"#).is_empty());
        let mut v = serde_json::to_value(VoterModel::paper())?;
        v["epsilon"] = serde_json::json!([0.2, 0.1]);
        assert!(refused::<VoterModel>(&v.to_string()).contains("epsilon"));
        let mut v = serde_json::to_value(base()?)?;
        v["n_voters"] = 0.into();
        assert!(!refused::<Simulation>(&v.to_string()).is_empty());
        assert!(refused::<Metric>(r#""top10""#).contains("unknown metric"));
        // Closures cannot be written down.
        let custom = Metric::custom("one", |_: &_| Ok(1.0));
        assert!(serde_json::to_string(&custom).is_err());
        let amplitude = Nonconformity::custom(|s, z| s * z.abs());
        assert!(serde_json::to_string(&amplitude).is_err());
        assert!(serde_json::to_string(&base()?.metrics(vec![custom])).is_err());
        Ok(())
    }
}

#[cfg(feature = "scheduler")]
mod ballot {
    use super::*;
    use adaptive_comp_metrics::ballot::{
        Answer, AverageFrom, BallotConfig, Campaign, ControlPair, Design, ExclusionRule,
        ImportMode, LayoutOptions, Options, RankBy, Rounding, Scheduler, SelectOn, UniformBudget,
        Unvoted, Vote, alpha_bounds, plan, uniform_plan,
    };
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn results_and_options() -> TestResult {
        let config = BallotConfig::with_options(12, 4, 0.5, 3, Options::published())?;
        same(&config);
        same(&Options::paper());
        result(&plan(&config));
        result(&alpha_bounds(990, 7, 0.1)?);
        result(&uniform_plan(&config, UniformBudget::SameComparisons)?);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut s = Scheduler::new(config);
        while s.open_ballot(&mut rng).is_ok() {
            let cs = s.comparisons().to_vec();
            same(&cs[0]);
            for (t, c) in cs.iter().enumerate() {
                let v = if c.first < c.second {
                    Vote::First
                } else {
                    Vote::Tie
                };
                s.record(t, v)?;
            }
            same(&s.phase());
            s.close_ballot(Unvoted::Reject)?;
        }
        same(&s.phase());
        for log in s.logs() {
            same(log);
        }
        for h in s.history() {
            result(h);
        }
        let ranking = s.ranking(&mut rng)?;
        result(&ranking);
        result(&ranking.entries[0]);
        same(&s.design());
        same(&Design::Uniform(UniformBudget::RoundedAppearances));
        same(&Vote::Second);
        same(&Unvoted::Withdraw);
        same(&AverageFrom::default());
        same(&SelectOn::default());
        same(&Rounding::default());
        same(&RankBy::default());
        Ok(())
    }

    #[test]
    fn campaign_results_and_options() -> TestResult {
        let n = 12;
        let controls = vec![
            ControlPair::new(0, n - 1, Vote::First)?,
            ControlPair::new(n - 2, 1, Vote::Second)?,
        ];
        let scheduler = Scheduler::new(BallotConfig::new(n, 3, 0.5, 2)?);
        let mut c = Campaign::new(scheduler, controls, LayoutOptions::new(0.2, Some(5))?)?;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        c.open_ballot(&mut rng, &mut ChaCha8Rng::seed_from_u64(6))?;
        let views: Vec<_> = c.tasks().collect();
        for v in &views {
            result(v);
            same(&v.task);
        }
        // "w1" answers every task First (wrong on one control pair); a
        // second batch repeats an answer, gives a task to "w2" and lists a
        // task twice: refused as a whole.
        let batch: Vec<Answer> = views
            .iter()
            .map(|v| Answer {
                task: v.id,
                worker: "w1".into(),
                vote: Vote::First,
            })
            .collect();
        same(&batch[0]);
        result(&c.import(&batch, ImportMode::SkipRefused));
        let again = vec![
            batch[0].clone(),
            Answer {
                worker: "w2".into(),
                ..batch[1].clone()
            },
            batch[0].clone(),
        ];
        let refused_batch = c.import(&again, ImportMode::AllOrNothing);
        assert!(!refused_batch.applied && refused_batch.refused.len() == 2);
        result(&refused_batch);
        result(&c.answer(batch[0].task, "w1", Vote::First)?);
        for w in c.worker_stats() {
            result(&w);
        }
        for b in c.ballot_status() {
            result(&b);
        }
        let rule = ExclusionRule::new(0.9, 1)?;
        same(&rule);
        same(&ImportMode::SkipRefused);
        let excluded = c.exclude_workers(&rule)?;
        assert_eq!(excluded.len(), 1); // accuracy 4/5 < 0.9
        result(&excluded[0]);
        assert!(
            refused::<ExclusionRule>(r#"{"min_accuracy":1.5,"min_controls":3}"#)
                .contains("min_accuracy")
        );
        Ok(())
    }
}

mod embedding;
mod standardised;
mod wordsim;
