//! Arbitrary calls into the triplet module's in-memory API: datasets built
//! from annotator rankings (`build_dataset`, `comparisons`, `agreement`,
//! `exclude`), scoring (`score`, `score_where`, `score_by`) with word vectors
//! (`Vectors::from_pairs`, dimension from the whole `usize` range) or a
//! closure model, and groups large enough to need the `TooLarge` refusal.
//! Never a panic; every score in [0, 1]; the tallies add up.
#![no_main]

use adaptive_comp_metrics::triplet::{Agreement, AnnotatorAgreement, Tally};
use adaptive_comp_metrics::triplet::{
    Annotation, Comparison, ComparisonKind, Deviation, MAX_COMPARISONS, Similarity, TargetGroup,
    TiePolicy, TripletError, TripletScore, Vectors, agreement, build_dataset, comparisons, exclude,
    score, score_by, score_where,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "support.rs"]
mod support;
use support::{Float, Plan, Size, SplitMix, Unit, floats, plan, within};

/// Comparisons built, and O(m²p²) agreement work, that one input may ask for.
const WORK: u128 = 20_000;

/// Words from a small alphabet so groups share and repeat them; 255 is the
/// empty word (an error everywhere).
fn word(n: u8) -> String {
    if n == 255 {
        String::new()
    } else {
        format!("w{}", n % 48)
    }
}

#[derive(Debug, Arbitrary)]
struct GroupIn {
    target: u8,
    positives: Vec<u8>,
    distractors: Vec<u8>,
    randoms: Vec<u8>,
}

#[derive(Debug, Arbitrary)]
enum AnnIn {
    /// A valid ranking of group `group`'s positives (shuffled by `seed`).
    Valid { annotator: u8, group: u8, seed: u64 },
    /// Anything.
    Raw {
        annotator: u8,
        target: u8,
        ranking: Vec<u8>,
    },
}

#[derive(Debug, Arbitrary)]
enum Model {
    /// Cosines of word vectors of dimension `dim` (the words w0…w47).
    Vectors {
        dim: Size,
        single: bool,
        rows: Vec<(u8, Vec<Float>)>,
    },
    /// sim(a, b) from a table indexed by both words (a function, as the
    /// Similarity contract asks); `None` entries are unknown words.
    Table(Vec<Option<Float>>),
}

#[derive(Debug, Arbitrary)]
struct ComparisonIn {
    target: u8,
    w1: u8,
    w2: u8,
    reliability: Unit,
    raw_reliability: Option<Float>,
    kind: u8,
}

#[derive(Debug, Arbitrary)]
enum Op {
    Build {
        groups: Vec<GroupIn>,
        annotations: Vec<AnnIn>,
        population: bool,
    },
    /// One group of p positives, d distractors and r randoms (sizes from
    /// the whole range; the words are generated, so they are capped).
    Big {
        positives: Size,
        distractors: Size,
        randoms: Size,
        annotators: u8,
        seed: u64,
    },
    Exclude {
        agreements: Vec<(Option<Unit>, u8)>,
        population: bool,
    },
    Score {
        comparisons: Vec<ComparisonIn>,
        model: Model,
        ties: u8,
    },
}

/// Words generated for one group at most: enough for p(p − 1)/2 (p = 6000)
/// or p·(d + r) (p = d + r = 4500) to pass `MAX_COMPARISONS` = 2²⁴.
const MAX_WORDS: usize = 9000;

fn shuffled(v: &[String], seed: u64) -> Vec<String> {
    use rand::seq::SliceRandom;
    let mut v = v.to_vec();
    v.shuffle(&mut SplitMix(seed));
    v
}

fn annotations(groups: &[TargetGroup], input: &[AnnIn]) -> Vec<Annotation> {
    input
        .iter()
        .map(|a| match a {
            AnnIn::Valid {
                annotator,
                group,
                seed,
            } => {
                let g = &groups[usize::from(*group) % groups.len().max(1)..];
                match g.first() {
                    Some(g) => Annotation::new(
                        format!("a{}", annotator % 8),
                        g.target.clone(),
                        shuffled(&g.positives, *seed),
                    ),
                    None => Annotation::new("a", "t", Vec::<String>::new()),
                }
            }
            AnnIn::Raw {
                annotator,
                target,
                ranking,
            } => Annotation::new(
                format!("a{}", annotator % 8),
                word(*target),
                ranking.iter().map(|&w| word(w)),
            ),
        })
        .collect()
}

/// Σ p(p − 1)/2 + p(d + r), the comparisons `comparisons` builds.
fn total(groups: &[TargetGroup]) -> u128 {
    groups
        .iter()
        .map(|g| {
            let p = g.positives.len() as u128;
            p * p.saturating_sub(1) / 2 + p * (g.distractors.len() + g.randoms.len()) as u128
        })
        .sum()
}

fn check_agreement(a: &Agreement) {
    if let Some(v) = a.overall {
        within(v, 0.0, 1.0, "overall agreement");
    }
    for x in &a.annotators {
        assert_eq!(x.agreement.is_some(), x.partners > 0);
        if let Some(v) = x.agreement {
            within(v, 0.0, 1.0, "annotator agreement");
        }
    }
}

fn check_built(groups: &[TargetGroup], anns: &[Annotation], deviation: Deviation) {
    let requested = total(groups);
    let p = plan(requested, WORK, MAX_COMPARISONS as u128);
    let agreement_work: u128 = groups
        .iter()
        .map(|g| (g.positives.len() as u128).pow(2))
        .sum::<u128>()
        * (anns.len() as u128).pow(2);
    if p == Plan::Skip || (p == Plan::Run && agreement_work > 50 * WORK) {
        return;
    }
    let built = build_dataset(groups, anns, deviation);
    let plain = comparisons(groups, anns);
    if p == Plan::Refuse {
        // Refused unless the groups or annotations are invalid (checked first).
        for r in [built.as_ref().err(), plain.as_ref().err()] {
            assert!(
                matches!(
                    r,
                    Some(
                        TripletError::TooLarge { .. }
                            | TripletError::InvalidGroup { .. }
                            | TripletError::InvalidAnnotation { .. }
                    )
                ),
                "{r:?}"
            );
        }
        return;
    }
    if let Ok(c) = &plain {
        assert_eq!(c.len() as u128, requested);
        assert!(c.iter().all(|c| (0.0..=1.0).contains(&c.reliability)));
    }
    let ag = agreement(groups, anns);
    if let Ok(ag) = &ag {
        check_agreement(ag);
        let ex = exclude(ag, deviation);
        assert_eq!(ex.kept.len() + ex.dropped.len(), ag.annotators.len());
    }
    if let Ok(b) = &built {
        assert!(b.comparisons.len() as u128 == requested);
        assert!(
            b.comparisons
                .iter()
                .all(|c| (0.0..=1.0).contains(&c.reliability))
        );
        check_agreement(&b.agreement);
        check_agreement(&b.agreement_after);
        assert_eq!(Some(&b.agreement), ag.as_ref().ok());
        if b.exclusion.dropped.is_empty() {
            assert_eq!(Ok(&b.comparisons), plain.as_ref());
        }
    } else if plain.is_ok() {
        // Only dropping every annotator of a group makes the pipeline fail
        // where the plain comparisons succeed.
        assert!(
            matches!(built, Err(TripletError::NoAnnotations { .. })),
            "{built:?}"
        );
    }
}

fn check_tally(t: &Tally) {
    if let Some(s) = t.score() {
        within(s, 0.0, 1.0, "score");
    }
    assert!(
        t.credit >= 0.0 && t.credit <= t.weight * (1.0 + 1e-12) + 1e-300,
        "{t:?}"
    );
    assert!(t.ties <= t.scored);
}

fn check_scores<M: Similarity + ?Sized>(c: &[Comparison], model: &M, ties: TiePolicy) {
    let s: Result<TripletScore, _> = score(c, model, ties);
    let Ok(s) = s else {
        assert!(score_where(c, model, ties, |_| true).is_err());
        return;
    };
    for t in [s.overall, s.positive, s.distractor, s.random] {
        check_tally(&t);
    }
    assert_eq!(s.overall.total(), c.len());
    assert_eq!(
        s.positive.total() + s.distractor.total() + s.random.total(),
        c.len()
    );
    // The same tallies through the other two entry points.
    let all = score_where(c, model, ties, |_| true).expect("as score");
    assert_eq!(all, s.overall);
    for kind in ComparisonKind::ALL {
        let one = score_where(c, model, ties, |x| x.kind == kind).expect("as score");
        assert_eq!(&one, s.kind(kind));
    }
    let by = score_by(c, model, ties, |x| Some(x.kind as u8)).expect("as score");
    for (k, t) in &by {
        assert_eq!(t, s.kind(ComparisonKind::ALL[usize::from(*k)]));
    }
    let by_target =
        score_by(c, model, ties, |x| (x.w1 != x.w2).then(|| x.target.clone())).expect("as score");
    let counted: usize = by_target.values().map(Tally::total).sum();
    assert_eq!(counted, c.iter().filter(|x| x.w1 != x.w2).count());
}

fn score_with<M: Similarity + ?Sized>(c: &[Comparison], model: &M, ties: u8) {
    let ties = [
        TiePolicy::HalfCredit,
        TiePolicy::ChooseSecond,
        TiePolicy::Skip,
    ][usize::from(ties) % 3];
    check_scores(c, model, ties);
}

fuzz_target!(|ops: Vec<Op>| {
    for op in ops.into_iter().take(16) {
        match op {
            Op::Build {
                groups,
                annotations: anns,
                population,
            } => {
                let groups: Vec<TargetGroup> = groups
                    .iter()
                    .take(32)
                    .map(|g| {
                        TargetGroup::new(
                            word(g.target),
                            g.positives.iter().take(64).map(|&w| word(w)),
                            g.distractors.iter().take(64).map(|&w| word(w)),
                            g.randoms.iter().take(64).map(|&w| word(w)),
                        )
                    })
                    .collect();
                let anns = annotations(&groups, &anns[..anns.len().min(64)]);
                let d = if population {
                    Deviation::Population
                } else {
                    Deviation::Sample
                };
                check_built(&groups, &anns, d);
            }
            Op::Big {
                positives,
                distractors,
                randoms,
                annotators,
                seed,
            } => {
                let cap = |s: Size| s.0.min(MAX_WORDS);
                let (p, d, r) = (cap(positives), cap(distractors), cap(randoms));
                if p + d + r > MAX_WORDS {
                    continue;
                }
                let names =
                    |prefix: &'static str, n: usize| (0..n).map(move |i| format!("{prefix}{i}"));
                let g = TargetGroup::new("t", names("p", p), names("d", d), names("r", r));
                let groups = [g];
                let anns: Vec<Annotation> = (0..annotators % 4)
                    .map(|a| {
                        Annotation::new(
                            format!("a{a}"),
                            "t",
                            shuffled(&groups[0].positives, seed ^ u64::from(a)),
                        )
                    })
                    .collect();
                check_built(&groups, &anns, Deviation::Sample);
            }
            Op::Exclude {
                agreements,
                population,
            } => {
                let ag = Agreement {
                    overall: None,
                    pairs: 0,
                    annotators: agreements
                        .iter()
                        .enumerate()
                        .map(|(i, (a, partners))| AnnotatorAgreement {
                            annotator: format!("a{i}"),
                            agreement: a.map(|u| u.0),
                            partners: usize::from(*partners),
                        })
                        .collect(),
                };
                let d = if population {
                    Deviation::Population
                } else {
                    Deviation::Sample
                };
                let ex = exclude(&ag, d);
                assert_eq!(ex.kept.len() + ex.dropped.len(), ag.annotators.len());
                for v in [ex.mean, ex.sd].into_iter().flatten() {
                    within(v, 0.0, 1.0, "exclusion mean or sd");
                }
                if let Some(t) = ex.threshold {
                    within(t, -1.0, 1.0, "exclusion threshold");
                }
            }
            Op::Score {
                comparisons: cs,
                model,
                ties,
            } => {
                let kinds = ComparisonKind::ALL;
                let c: Vec<Comparison> = cs
                    .iter()
                    .take(256)
                    .map(|c| {
                        Comparison::new(
                            word(c.target),
                            word(c.w1),
                            word(c.w2),
                            c.raw_reliability.map_or(c.reliability.0, |f| f.0),
                            kinds[usize::from(c.kind) % 3],
                        )
                    })
                    .collect();
                match model {
                    Model::Vectors { dim, single, rows } => {
                        macro_rules! with {
                            ($t:ty) => {{
                                let pairs = rows.iter().take(64).map(|(w, v)| {
                                    let v: Vec<$t> = floats(v).iter().map(|&x| x as $t).collect();
                                    (word(*w), v)
                                });
                                match Vectors::<$t>::from_pairs(dim.0, pairs) {
                                    Ok(v) => {
                                        assert!(dim.0 >= 1);
                                        for a in 0..48u8 {
                                            if let Some(x) = v.cosine(&word(a), &word(a / 2)) {
                                                within(x, -1.0, 1.0, "cosine");
                                            }
                                        }
                                        score_with(&c, &v, ties);
                                    }
                                    Err(_) => {}
                                }
                            }};
                        }
                        if single { with!(f32) } else { with!(f64) }
                    }
                    Model::Table(table) => {
                        let table: Vec<Option<f64>> =
                            table.iter().map(|t| t.map(|f| f.0)).collect();
                        let h = |s: &str| {
                            s.bytes().fold(7usize, |a, b| {
                                a.wrapping_mul(31).wrapping_add(usize::from(b))
                            })
                        };
                        let model = |a: &str, b: &str| -> Option<f64> {
                            if table.is_empty() {
                                return None;
                            }
                            *table.get(h(a).wrapping_add(h(b).wrapping_mul(3)) % table.len())?
                        };
                        score_with(&c, &model, ties);
                    }
                }
            }
        }
    }
});
