//! Building datasets from annotator rankings: R_> (Avraham & Goldberg 2016,
//! §4.1 and Table 1), agreement and the exclusion rule (§5), all by hand.
#![allow(clippy::float_cmp)] // shares k/n below are correctly rounded divisions, compared with the same division

use adaptive_comp_metrics::triplet::{
    Agreement, Annotation, AnnotationProblem, AnnotatorAgreement, ComparisonKind, Deviation,
    GroupProblem, TargetGroup, TripletError, agreement, build_dataset, comparisons, exclude,
};
use proptest::prelude::*;

const NONE: [&str; 0] = [];

fn singer() -> TargetGroup {
    TargetGroup::new(
        "singer",
        ["artist", "person", "musician", "performer"],
        ["dancer", "song"],
        ["laptop"],
    )
}

/// Ten rankings chosen so that the shares are Table 1's R values.
fn table1_annotations() -> Vec<Annotation> {
    let mut a = Vec::new();
    let mut add = |k: usize, ranking: [&str; 4]| {
        for _ in 0..k {
            let id = format!("ann{}", a.len());
            a.push(Annotation::new(id, "singer", ranking));
        }
    };
    add(6, ["musician", "performer", "artist", "person"]);
    add(2, ["performer", "musician", "artist", "person"]);
    add(1, ["performer", "musician", "person", "artist"]);
    add(1, ["person", "performer", "artist", "musician"]);
    a
}

fn r_of(c: &[adaptive_comp_metrics::triplet::Comparison], w1: &str, w2: &str) -> f64 {
    c.iter()
        .find(|x| x.w1 == w1 && x.w2 == w2)
        .map(|x| x.reliability)
        .unwrap()
}

#[test]
fn reliabilities_from_rankings_reproduce_table1() {
    let c = comparisons(&[singer()], &table1_annotations()).unwrap();
    // 6 positive pairs, 4 × 2 distractor and 4 × 1 random comparisons.
    assert_eq!(c.len(), 6 + 8 + 4);
    // Table 1: person above musician in 1 of 10 rankings (the last one) → 0.1;
    // artist above person in 6 + 2 = 8 → 0.8; musician above performer in 6 → 0.6.
    assert_eq!(r_of(&c, "person", "musician"), 0.1);
    assert_eq!(r_of(&c, "artist", "person"), 0.8);
    assert_eq!(r_of(&c, "musician", "performer"), 0.6);
    // The other pairs: artist above musician only in the last (1/10);
    // artist never above performer (0); person above performer only in the last (1/10).
    assert_eq!(r_of(&c, "artist", "musician"), 0.1);
    assert_eq!(r_of(&c, "artist", "performer"), 0.0);
    assert_eq!(r_of(&c, "person", "performer"), 0.1);
    // Table 1's D and R rows: R = 1 for every positive against every negative.
    assert_eq!(r_of(&c, "musician", "song"), 1.0);
    assert_eq!(r_of(&c, "musician", "laptop"), 1.0);
    let kinds: Vec<ComparisonKind> = c.iter().map(|x| x.kind).collect();
    assert!(kinds[..6].iter().all(|&k| k == ComparisonKind::Positive));
    assert!(
        kinds[6..14]
            .iter()
            .all(|&k| k == ComparisonKind::Distractor)
    );
    assert!(kinds[14..].iter().all(|&k| k == ComparisonKind::Random));
    // Positive pairs in the group's order: (artist, person) first.
    assert_eq!((c[0].w1.as_str(), c[0].w2.as_str()), ("artist", "person"));
}

fn xyz() -> TargetGroup {
    TargetGroup::new("t", ["x", "y", "z"], ["d"], NONE)
}

/// A, B: x > y > z; C: y > x > z; D: z > y > x.
fn four() -> Vec<Annotation> {
    vec![
        Annotation::new("A", "t", ["x", "y", "z"]),
        Annotation::new("B", "t", ["x", "y", "z"]),
        Annotation::new("C", "t", ["y", "x", "z"]),
        Annotation::new("D", "t", ["z", "y", "x"]),
    ]
}

#[test]
fn agreement_by_hand() {
    // Item pairs {x,y}, {x,z}, {y,z}. agree: AB 3/3, AC 2/3, AD 0/3, BC 2/3, BD 0/3,
    // CD 1/3 (C and D agree on y above x only).
    let ag = agreement(&[xyz()], &four()).unwrap();
    assert_eq!(ag.pairs, 6);
    // overall = (1 + 2/3 + 0 + 2/3 + 0 + 1/3)/6 = 4/9
    assert!((ag.overall.unwrap() - 4.0 / 9.0).abs() < 1e-15);
    // A = (1 + 2/3 + 0)/3 = 5/9, B = 5/9, C = (2/3 + 2/3 + 1/3)/3 = 5/9, D = (0 + 0 + 1/3)/3 = 1/9
    let per: Vec<f64> = ag.annotators.iter().map(|a| a.agreement.unwrap()).collect();
    for (got, want) in per.iter().zip([5.0 / 9.0, 5.0 / 9.0, 5.0 / 9.0, 1.0 / 9.0]) {
        assert!((got - want).abs() < 1e-15, "{got} vs {want}");
    }
    assert!(ag.annotators.iter().all(|a| a.partners == 3));
    assert_eq!(ag.annotators[3].annotator, "D");
}

#[test]
fn agreement_pools_item_pairs_across_groups() {
    // A and B agree on all 3 item pairs of t and disagree on the single pair of u:
    // pooled 3/4 (a mean of per-group shares would give 1/2).
    let groups = [xyz(), TargetGroup::new("u", ["p", "q"], NONE, NONE)];
    let ann = [
        Annotation::new("A", "t", ["x", "y", "z"]),
        Annotation::new("B", "t", ["x", "y", "z"]),
        Annotation::new("A", "u", ["p", "q"]),
        Annotation::new("B", "u", ["q", "p"]),
    ];
    let ag = agreement(&groups, &ann).unwrap();
    assert_eq!(ag.overall, Some(0.75));
    assert_eq!(ag.annotators[0].agreement, Some(0.75));
}

#[test]
fn agreement_without_partners_is_undefined() {
    let groups = [xyz(), TargetGroup::new("u", ["p"], ["q"], NONE)];
    // A alone on t; B and C on u, which has a single positive (no item pair).
    let ann = [
        Annotation::new("A", "t", ["x", "y", "z"]),
        Annotation::new("B", "u", ["p"]),
        Annotation::new("C", "u", ["p"]),
    ];
    let ag = agreement(&groups, &ann).unwrap();
    assert_eq!((ag.overall, ag.pairs), (None, 0));
    assert!(
        ag.annotators
            .iter()
            .all(|a| a.agreement.is_none() && a.partners == 0)
    );
    let ex = exclude(&ag, Deviation::Sample);
    assert_eq!((ex.mean, ex.sd, ex.threshold), (None, None, None));
    assert_eq!(ex.kept, ["A", "B", "C"]);
    assert!(agreement(&[], &[]).unwrap().annotators.is_empty());
}

#[test]
fn exclusion_by_hand_on_four_annotators() {
    let ag = agreement(&[xyz()], &four()).unwrap();
    // Ā = 4/9. Deviations 1/9, 1/9, 1/9, −3/9: Σ² = 12/81.
    // Sample: sd = √(12/81/3) = 2/9, threshold 2/9; D (1/9) is dropped.
    let ex = exclude(&ag, Deviation::Sample);
    assert!((ex.sd.unwrap() - 2.0 / 9.0).abs() < 1e-15);
    assert!((ex.threshold.unwrap() - 2.0 / 9.0).abs() < 1e-15);
    assert_eq!(ex.dropped.len(), 1);
    assert_eq!(ex.dropped[0].0, "D");
    assert_eq!(ex.kept, ["A", "B", "C"]);
    // Population: sd = √(12/81/4) = √3/9.
    let ex = exclude(&ag, Deviation::Population);
    assert!((ex.sd.unwrap() - 3f64.sqrt() / 9.0).abs() < 1e-15);
    assert_eq!(ex.dropped.len(), 1);
}

fn crafted(values: &[f64]) -> Agreement {
    Agreement {
        overall: None,
        pairs: 0,
        annotators: values
            .iter()
            .enumerate()
            .map(|(i, &v)| AnnotatorAgreement {
                annotator: format!("a{i}"),
                agreement: Some(v),
                partners: 1,
            })
            .collect(),
    }
}

#[test]
fn sample_and_population_deviation_drop_different_annotators() {
    // Aₐ = 0.8 ×4, 0.7, 0.66. Ā = 4.56/6 = 0.76. Deviations 0.04 ×4, −0.06, −0.10:
    // Σ² = 4·0.0016 + 0.0036 + 0.01 = 0.02.
    // Population sd = √(0.02/6) = 0.057735, threshold 0.702265: drops 0.7 and 0.66.
    // Sample sd = √(0.02/5) = 0.063246, threshold 0.696754: drops 0.66 only.
    let ag = crafted(&[0.8, 0.8, 0.8, 0.8, 0.7, 0.66]);
    let pop = exclude(&ag, Deviation::Population);
    assert!((pop.threshold.unwrap() - (0.76 - (0.02f64 / 6.0).sqrt())).abs() < 1e-12);
    assert_eq!(
        pop.dropped,
        vec![("a4".to_string(), 0.7), ("a5".to_string(), 0.66)]
    );
    let sample = exclude(&ag, Deviation::Sample);
    assert!((sample.threshold.unwrap() - (0.76 - (0.02f64 / 5.0).sqrt())).abs() < 1e-12);
    assert_eq!(sample.dropped, vec![("a5".to_string(), 0.66)]);
    assert_eq!(Deviation::default(), Deviation::Sample);
}

#[test]
fn exclusion_edge_cases() {
    // Equal agreements: sd = 0, nobody is strictly below the mean.
    assert!(
        exclude(&crafted(&[0.6; 5]), Deviation::Sample)
            .dropped
            .is_empty()
    );
    // One annotator: the sample sd is undefined, the population sd is 0.
    let one = crafted(&[0.4]);
    assert_eq!(exclude(&one, Deviation::Sample).threshold, None);
    assert_eq!(exclude(&one, Deviation::Population).threshold, Some(0.4));
    assert!(exclude(&one, Deviation::Population).dropped.is_empty());
    assert_eq!(
        exclude(&crafted(&[]), Deviation::Population),
        Default::default()
    );
}

#[test]
fn build_dataset_drops_then_recomputes() {
    let built = build_dataset(&[xyz()], &four(), Deviation::Sample).unwrap();
    assert_eq!(built.exclusion.dropped.len(), 1);
    // Without D: x above y for A, B not C → 2/3; x above z and y above z for all → 1.
    let c = &built.comparisons;
    assert_eq!(r_of(c, "x", "y"), 2.0 / 3.0);
    assert_eq!(r_of(c, "x", "z"), 1.0);
    assert_eq!(r_of(c, "y", "z"), 1.0);
    assert_eq!(r_of(c, "x", "d"), 1.0);
    // With D (plain comparisons): 2/4, 3/4, 3/4.
    let all = comparisons(&[xyz()], &four()).unwrap();
    assert_eq!(
        [
            r_of(&all, "x", "y"),
            r_of(&all, "x", "z"),
            r_of(&all, "y", "z")
        ],
        [0.5, 0.75, 0.75]
    );
    // Agreement after: AB 1, AC 2/3, BC 2/3 → 7/9.
    assert!((built.agreement_after.overall.unwrap() - 7.0 / 9.0).abs() < 1e-15);
    assert_eq!(built.agreement_after.annotators.len(), 3);
    assert!((built.agreement.overall.unwrap() - 4.0 / 9.0).abs() < 1e-15);
}

#[test]
fn a_group_whose_only_annotator_is_dropped_is_an_error() {
    let groups = [xyz(), TargetGroup::new("u", ["p", "q"], NONE, NONE)];
    let mut ann = four();
    ann.push(Annotation::new("D", "u", ["p", "q"]));
    let e = build_dataset(&groups, &ann, Deviation::Sample).unwrap_err();
    assert_eq!(e, TripletError::NoAnnotations { group: 1 });
}

#[test]
fn invalid_groups_are_reported() {
    for (g, problem) in [
        (
            TargetGroup::new("", ["a"], NONE, NONE),
            GroupProblem::EmptyWord,
        ),
        (
            TargetGroup::new("t", ["a", ""], NONE, NONE),
            GroupProblem::EmptyWord,
        ),
        (
            TargetGroup::new("t", ["a"], ["t"], NONE),
            GroupProblem::CandidateIsTarget,
        ),
        (
            TargetGroup::new("t", ["a", "b"], NONE, ["a"]),
            GroupProblem::DuplicateCandidate,
        ),
    ] {
        assert_eq!(
            comparisons(std::slice::from_ref(&g), &[]).unwrap_err(),
            TripletError::InvalidGroup { group: 0, problem }
        );
        // After a valid group, the index is 1.
        let u = TargetGroup::new("u", ["p"], NONE, NONE);
        assert_eq!(
            comparisons(&[u, g], &[]).unwrap_err(),
            TripletError::InvalidGroup { group: 1, problem }
        );
    }
    let e = comparisons(&[xyz(), xyz()], &[]).unwrap_err();
    assert_eq!(
        e,
        TripletError::InvalidGroup {
            group: 1,
            problem: GroupProblem::DuplicateTarget { first: 0 }
        }
    );
    assert_eq!(
        e.to_string(),
        "target group 1: the target word is also the target of group 0"
    );
    // A group of two positives needs annotations.
    assert_eq!(
        comparisons(&[xyz()], &[]).unwrap_err(),
        TripletError::NoAnnotations { group: 0 }
    );
    // One positive needs none: only R = 1 comparisons.
    let c = comparisons(&[TargetGroup::new("u", ["p"], ["q"], ["r"])], &[]).unwrap();
    assert_eq!(c.len(), 2);
}

#[test]
fn invalid_annotations_are_reported() {
    use AnnotationProblem as P;
    let cases: [(Annotation, P); 5] = [
        (
            Annotation::new("E", "nope", ["x", "y", "z"]),
            P::UnknownTarget,
        ),
        (
            Annotation::new("E", "t", ["x", "y"]),
            P::WrongLength {
                expected: 3,
                found: 2,
            },
        ),
        (
            Annotation::new("E", "t", ["x", "y", "d"]),
            P::NotAPositive { position: 2 },
        ),
        (
            Annotation::new("E", "t", ["x", "x", "z"]),
            P::Repeated { position: 1 },
        ),
        (
            Annotation::new("A", "t", ["x", "y", "z"]),
            P::Duplicate { first: 0 },
        ),
    ];
    for (bad, problem) in cases {
        let mut ann = four();
        ann.push(bad);
        let want = TripletError::InvalidAnnotation { index: 4, problem };
        assert_eq!(comparisons(&[xyz()], &ann).unwrap_err(), want);
        assert_eq!(agreement(&[xyz()], &ann).unwrap_err(), want);
        assert_eq!(
            build_dataset(&[xyz()], &ann, Deviation::Sample).unwrap_err(),
            want
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn reliabilities_and_agreement_match_their_definitions(
        perms in prop::collection::vec(Just(vec![0usize, 1, 2, 3]).prop_shuffle(), 1..8),
    ) {
        let words = ["a", "b", "c", "d"];
        let g = TargetGroup::new("t", words, ["n"], NONE);
        let ann: Vec<Annotation> = perms.iter().enumerate()
            .map(|(i, p)| Annotation::new(format!("r{i}"), "t", p.iter().map(|&k| words[k])))
            .collect();
        let c = comparisons(std::slice::from_ref(&g), &ann).unwrap();
        let pos = |p: &[usize], w: usize| p.iter().position(|&k| k == w).unwrap();
        for x in c.iter().filter(|x| x.kind == ComparisonKind::Positive) {
            let (i, j) = (words.iter().position(|w| *w == x.w1).unwrap(), words.iter().position(|w| *w == x.w2).unwrap());
            let above = perms.iter().filter(|p| pos(p, i) < pos(p, j)).count();
            prop_assert_eq!(x.reliability, above as f64 / perms.len() as f64);
        }
        // agreement: the mean over annotator pairs of the share of the 6 item pairs ordered alike.
        let ag = agreement(&[g], &ann).unwrap();
        let mut shares = Vec::new();
        for a in 0..perms.len() {
            for b in a + 1..perms.len() {
                let mut same = 0;
                for i in 0..4 { for j in i + 1..4 {
                    same += usize::from((pos(&perms[a], i) < pos(&perms[a], j)) == (pos(&perms[b], i) < pos(&perms[b], j)));
                }}
                shares.push(same as f64 / 6.0);
            }
        }
        if shares.is_empty() {
            prop_assert_eq!(ag.overall, None);
        } else {
            let mean = shares.iter().sum::<f64>() / shares.len() as f64;
            prop_assert!((ag.overall.unwrap() - mean).abs() < 1e-12);
        }
        // Nobody is dropped by the sample rule who is not dropped by the population rule.
        let s = exclude(&ag, Deviation::Sample);
        let p = exclude(&ag, Deviation::Population);
        prop_assert!(s.dropped.iter().all(|d| p.dropped.contains(d)));
    }
}
