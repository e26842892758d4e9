//! Building a dataset from annotator rankings (Avraham & Goldberg 2016, §4.1
//! and §5): R_> per pair of positives, inter-rater agreement, and the
//! exclusion of annotators who agree little with the others.

use std::collections::HashMap;

use super::error::{AnnotationProblem, GroupProblem, TripletError};
use super::model::{Comparison, ComparisonKind, TargetGroup};
use crate::sum::neumaier;

/// One annotator's ranking of the positives of one target group, best first.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::Annotation;
/// let a = Annotation::new("ann1", "singer", ["musician", "performer", "artist", "person"]);
/// assert_eq!(a.ranking[0], "musician");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Annotation {
    /// Who ranked.
    pub annotator: String,
    /// The target word of the group.
    pub target: String,
    /// All positives of the group, most similar to the target first.
    pub ranking: Vec<String>,
}

impl Annotation {
    /// An annotation from its parts.
    #[must_use]
    pub fn new<I>(annotator: impl Into<String>, target: impl Into<String>, ranking: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self {
            annotator: annotator.into(),
            target: target.into(),
            ranking: ranking.into_iter().map(Into::into).collect(),
        }
    }
}

/// Which standard deviation the exclusion rule uses.
///
/// ```text
/// Sample      sd = √( Σ (Aₐ − Ā)² / (n − 1) )     (default; needs n ≥ 2)
/// Population  sd = √( Σ (Aₐ − Ā)² / n )
/// ```
///
/// The default is [`Sample`](Self::Sample): the annotators of a dataset are a
/// sample of the people whose judgement the dataset stands for, and the rule
/// asks how far an annotator lies from that population's spread, which the
/// n − 1 form estimates without bias (of the variance). It is also the
/// conservative choice: its threshold is never higher, so it never drops more
/// annotators than the population form. The paper does not say which one it
/// used; with its 18–20 annotators per group the two differ by a factor
/// √(n/(n − 1)) ≈ 1.03.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Deviation {
    /// The sample standard deviation (n − 1 in the denominator).
    #[default]
    Sample,
    /// The population standard deviation (n in the denominator).
    Population,
}

/// The agreement of one annotator with the others.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AnnotatorAgreement {
    /// The annotator.
    pub annotator: String,
    /// Aₐ: the mean of agree(a, b) over the partners b; `None` without partners.
    pub agreement: Option<f64>,
    /// The number of other annotators that ranked at least one common target
    /// group with two or more positives.
    pub partners: usize,
}

/// Inter-rater agreement of a set of annotations; see [`agreement`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Agreement {
    /// The mean of agree(a, b) over all annotator pairs with a common item
    /// pair; `None` if there is no such pair.
    pub overall: Option<f64>,
    /// The number of such annotator pairs.
    pub pairs: usize,
    /// Per annotator, in order of first appearance in the annotations.
    pub annotators: Vec<AnnotatorAgreement>,
}

/// The outcome of the exclusion rule; see [`exclude`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Exclusion {
    /// Ā, the mean of the defined per-annotator agreements.
    pub mean: Option<f64>,
    /// Their standard deviation, per the chosen [`Deviation`].
    pub sd: Option<f64>,
    /// `Ā − sd`: annotators strictly below it are dropped. `None` (nobody
    /// dropped) when the standard deviation is undefined.
    pub threshold: Option<f64>,
    /// The dropped annotators, with their agreement, in input order.
    pub dropped: Vec<(String, f64)>,
    /// The kept annotators, in input order (including those without partners,
    /// whom the rule cannot judge).
    pub kept: Vec<String>,
}

/// A dataset built from annotations; see [`build_dataset`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BuiltDataset {
    /// The binary comparisons, from the kept annotators only.
    pub comparisons: Vec<Comparison>,
    /// Agreement of all annotators (before exclusion).
    pub agreement: Agreement,
    /// Who was dropped, and why.
    pub exclusion: Exclusion,
    /// Agreement of the kept annotators.
    pub agreement_after: Agreement,
}

/// Annotations checked against the groups and turned into rank positions.
#[derive(Debug)]
struct Checked<'a> {
    /// Annotator names in order of first appearance.
    names: Vec<&'a str>,
    /// Per group: (annotator id, position of each positive: 0 = best).
    by_group: Vec<Vec<(usize, Vec<u32>)>>,
}

fn check_groups(groups: &[TargetGroup]) -> Result<(), TripletError> {
    let mut targets: HashMap<&str, usize> = HashMap::with_capacity(groups.len());
    for (group, g) in groups.iter().enumerate() {
        let err = |problem| TripletError::InvalidGroup { group, problem };
        if let Some(&first) = targets.get(g.target.as_str()) {
            return Err(err(GroupProblem::DuplicateTarget { first }));
        }
        targets.insert(&g.target, group);
        let candidates = g.positives.iter().chain(&g.distractors).chain(&g.randoms);
        let mut seen = std::collections::HashSet::new();
        if g.target.is_empty() {
            return Err(err(GroupProblem::EmptyWord));
        }
        for w in candidates {
            if w.is_empty() {
                return Err(err(GroupProblem::EmptyWord));
            }
            if *w == g.target {
                return Err(err(GroupProblem::CandidateIsTarget));
            }
            if !seen.insert(w.as_str()) {
                return Err(err(GroupProblem::DuplicateCandidate));
            }
        }
    }
    Ok(())
}

fn check<'a>(
    groups: &[TargetGroup],
    annotations: &'a [Annotation],
) -> Result<Checked<'a>, TripletError> {
    check_groups(groups)?;
    let targets: HashMap<&str, usize> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.target.as_str(), i))
        .collect();
    let positives: Vec<HashMap<&str, usize>> = groups
        .iter()
        .map(|g| {
            g.positives
                .iter()
                .enumerate()
                .map(|(i, w)| (w.as_str(), i))
                .collect()
        })
        .collect();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut names = Vec::new();
    let mut by_group: Vec<Vec<(usize, Vec<u32>)>> = vec![Vec::new(); groups.len()];
    let mut first_of: HashMap<(usize, usize), usize> = HashMap::new();
    for (index, a) in annotations.iter().enumerate() {
        let err = |problem| TripletError::InvalidAnnotation { index, problem };
        let &g = targets
            .get(a.target.as_str())
            .ok_or_else(|| err(AnnotationProblem::UnknownTarget))?;
        let (Some(pos_of), Some(list)) = (positives.get(g), by_group.get_mut(g)) else {
            return Err(err(AnnotationProblem::UnknownTarget));
        };
        if a.ranking.len() != pos_of.len() {
            return Err(err(AnnotationProblem::WrongLength {
                expected: pos_of.len(),
                found: a.ranking.len(),
            }));
        }
        let mut positions = vec![u32::MAX; pos_of.len()];
        for (position, w) in a.ranking.iter().enumerate() {
            let slot = pos_of
                .get(w.as_str())
                .and_then(|&i| positions.get_mut(i))
                .ok_or_else(|| err(AnnotationProblem::NotAPositive { position }))?;
            if *slot != u32::MAX {
                return Err(err(AnnotationProblem::Repeated { position }));
            }
            *slot = position as u32;
        }
        let n = ids.len();
        let id = *ids.entry(a.annotator.as_str()).or_insert(n);
        if id == names.len() {
            names.push(a.annotator.as_str());
        }
        if let Some(&first) = first_of.get(&(id, g)) {
            return Err(err(AnnotationProblem::Duplicate { first }));
        }
        first_of.insert((id, g), index);
        list.push((id, positions));
    }
    Ok(Checked { names, by_group })
}

/// The most comparisons [`comparisons`] and [`build_dataset`] build: 2²⁴ ≈
/// 1.7·10⁷ (each holds three words, about 100 bytes with their text). A group
/// of p positives gives p(p − 1)/2 + p·(d + r) of them, so one group with
/// 10⁵ positives would ask for 5·10⁹; datasets such as Avraham & Goldberg's
/// have a few thousand.
pub const MAX_COMPARISONS: usize = 1 << 24;

/// Σ over groups of p(p − 1)/2 + p·(d + r), in checked arithmetic, refused
/// above [`MAX_COMPARISONS`].
fn comparison_total(groups: &[TargetGroup]) -> Result<usize, TripletError> {
    let total = groups.iter().try_fold(0u64, |acc, g| {
        let p = g.positives.len() as u64;
        let others = (g.distractors.len() as u64).checked_add(g.randoms.len() as u64)?;
        let pairs =
            (p.checked_mul(p.saturating_sub(1))? / 2).checked_add(p.checked_mul(others)?)?;
        acc.checked_add(pairs)
    });
    match total {
        Some(t) if t <= MAX_COMPARISONS as u64 => Ok(t as usize),
        _ => Err(TripletError::TooLarge {
            quantity: "comparisons",
            requested: total.unwrap_or(u64::MAX),
            limit: MAX_COMPARISONS as u64,
        }),
    }
}

/// R_> for every comparison of every group, from the annotators in `keep`.
fn comparisons_from(
    groups: &[TargetGroup],
    checked: &Checked<'_>,
    keep: &[bool],
) -> Result<Vec<Comparison>, TripletError> {
    let mut out = Vec::with_capacity(comparison_total(groups)?);
    for (group, (g, anns)) in groups.iter().zip(&checked.by_group).enumerate() {
        let anns: Vec<&Vec<u32>> = anns
            .iter()
            .filter(|(id, _)| keep.get(*id).copied().unwrap_or(false))
            .map(|(_, p)| p)
            .collect();
        let p = &g.positives;
        if p.len() >= 2 && anns.is_empty() {
            return Err(TripletError::NoAnnotations { group });
        }
        let n = anns.len() as f64;
        for (i, wi) in p.iter().enumerate() {
            for (j, wj) in p.iter().enumerate().skip(i + 1) {
                let above = anns.iter().filter(|pos| pos.get(i) < pos.get(j)).count();
                out.push(Comparison::new(
                    g.target.clone(),
                    wi.clone(),
                    wj.clone(),
                    above as f64 / n,
                    ComparisonKind::Positive,
                ));
            }
        }
        for (negatives, kind) in [
            (&g.distractors, ComparisonKind::Distractor),
            (&g.randoms, ComparisonKind::Random),
        ] {
            for wp in p {
                for wn in negatives {
                    out.push(Comparison::new(
                        g.target.clone(),
                        wp.clone(),
                        wn.clone(),
                        1.0,
                        kind,
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// The binary comparisons of target groups, from annotator rankings
/// (Avraham & Goldberg 2016, §4.1).
///
/// For positives pᵢ, pⱼ (i < j in the group's order) and negatives n:
///
/// ```text
/// R_>(pᵢ, pⱼ; w_t) = |{annotators ranking pᵢ above pⱼ}| / |{annotators of the group}|
/// R_>(p, n; w_t)   = 1            for every distractor and random n
/// ```
///
/// Comparisons come group by group: positive pairs, then positive ×
/// distractor, then positive × random (the order of the dataset format).
///
/// # Errors
/// [`TripletError::InvalidGroup`]: an empty word, a candidate equal to the
/// target, a candidate listed twice, two groups with one target.
/// [`TripletError::InvalidAnnotation`]: an unknown target, a ranking that is
/// not a permutation of the group's positives, an annotator ranking a target
/// twice. [`TripletError::NoAnnotations`]: a group with two or more positives
/// and no annotation. [`TripletError::TooLarge`]: more than
/// [`MAX_COMPARISONS`] comparisons (checked before they are allocated).
///
/// # Complexity
/// O(Σ_groups m·p² + p·(d + r)) for m annotations of p positives, d
/// distractors and r randoms.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{comparisons, Annotation, TargetGroup};
/// let groups = [TargetGroup::new("cab", ["taxi", "car"], ["driver"], Vec::<String>::new())];
/// let ann = [
///     Annotation::new("a", "cab", ["taxi", "car"]),
///     Annotation::new("b", "cab", ["taxi", "car"]),
///     Annotation::new("c", "cab", ["car", "taxi"]),
/// ];
/// let c = comparisons(&groups, &ann)?;
/// assert_eq!((c[0].w1.as_str(), c[0].w2.as_str(), c[0].reliability), ("taxi", "car", 2.0 / 3.0));
/// assert_eq!((c[1].w2.as_str(), c[1].reliability), ("driver", 1.0));
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn comparisons(
    groups: &[TargetGroup],
    annotations: &[Annotation],
) -> Result<Vec<Comparison>, TripletError> {
    let checked = check(groups, annotations)?;
    comparisons_from(groups, &checked, &vec![true; checked.names.len()])
}

/// Concordant and total item pairs of two position vectors.
fn concordance(a: &[u32], b: &[u32]) -> (u64, u64) {
    let (mut same, mut total) = (0u64, 0u64);
    for i in 0..a.len().min(b.len()) {
        for j in i + 1..a.len().min(b.len()) {
            let x = a.get(i) < a.get(j);
            let y = b.get(i) < b.get(j);
            same += u64::from(x == y);
            total += 1;
        }
    }
    (same, total)
}

fn agreement_of(checked: &Checked<'_>, keep: &[bool]) -> Agreement {
    // (same, total) item pairs per annotator pair (a < b), pooled over groups.
    let mut pair_counts: HashMap<(usize, usize), (u64, u64)> = HashMap::new();
    for anns in &checked.by_group {
        let anns: Vec<&(usize, Vec<u32>)> = anns
            .iter()
            .filter(|(id, _)| keep.get(*id).copied().unwrap_or(false))
            .collect();
        for (k, (a, pa)) in anns.iter().enumerate() {
            for (b, pb) in anns.iter().skip(k + 1) {
                let (same, total) = concordance(pa, pb);
                if total > 0 {
                    let e = pair_counts.entry((*a.min(b), *a.max(b))).or_default();
                    e.0 += same;
                    e.1 += total;
                }
            }
        }
    }
    let mut pairs: Vec<((usize, usize), f64)> = pair_counts
        .into_iter()
        .map(|(k, (same, total))| (k, same as f64 / total as f64))
        .collect();
    pairs.sort_unstable_by_key(|&(k, _)| k); // deterministic sums
    let n = checked.names.len();
    let mut per: Vec<Vec<f64>> = vec![Vec::new(); n];
    for &((a, b), v) in &pairs {
        for x in [a, b] {
            if let Some(list) = per.get_mut(x) {
                list.push(v);
            }
        }
    }
    let mean = |v: &[f64]| (!v.is_empty()).then(|| neumaier(v.iter().copied()) / v.len() as f64);
    let values: Vec<f64> = pairs.iter().map(|&(_, v)| v).collect();
    Agreement {
        overall: mean(&values),
        pairs: pairs.len(),
        annotators: checked
            .names
            .iter()
            .zip(&per)
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|((name, list), _)| AnnotatorAgreement {
                annotator: (*name).to_owned(),
                agreement: mean(list),
                partners: list.len(),
            })
            .collect(),
    }
}

/// Average pairwise inter-rater agreement (Avraham & Goldberg 2016, §5).
///
/// Two annotators a, b *agree* on an item pair {pᵢ, pⱼ} of a group both
/// ranked when they order pᵢ and pⱼ the same way. Pooling the item pairs of
/// every group both ranked:
///
/// ```text
/// agree(a, b) = |item pairs a and b order the same way| / |item pairs both ranked|
///             (= (τ + 1)/2 for a single group, τ Kendall's tau of the two rankings)
/// Aₐ          = mean of agree(a, b) over the partners b of a
/// overall     = mean of agree(a, b) over all annotator pairs with a common item pair
/// ```
///
/// 0.5 is chance, 1 full agreement. This is the quantity R_> aggregates (the
/// share of annotators ordering a pair one way), so agreement and
/// reliabilities speak the same language. The paper, following Hill et al.
/// (2015), reports an average pairwise agreement without its formula (0.646
/// and 0.659 in §5); if that was a Spearman ρ, its scale (chance = 0) is not
/// comparable with this one.
///
/// # Errors
/// As [`comparisons`], except [`TripletError::NoAnnotations`].
///
/// # Complexity
/// O(Σ_groups m²·p²) for m annotations of p positives per group.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{agreement, Annotation, TargetGroup};
/// let groups = [TargetGroup::new("t", ["x", "y", "z"], Vec::<String>::new(), Vec::<String>::new())];
/// let ann = [
///     Annotation::new("a", "t", ["x", "y", "z"]),
///     Annotation::new("b", "t", ["y", "x", "z"]), // differs from a on {x, y} only
/// ];
/// let ag = agreement(&groups, &ann)?;
/// assert_eq!(ag.overall, Some(2.0 / 3.0));
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn agreement(
    groups: &[TargetGroup],
    annotations: &[Annotation],
) -> Result<Agreement, TripletError> {
    let checked = check(groups, annotations)?;
    Ok(agreement_of(&checked, &vec![true; checked.names.len()]))
}

/// The paper's exclusion rule: drop every annotator whose agreement lies more
/// than one standard deviation below the mean (Avraham & Goldberg 2016, §5,
/// after Hill et al. 2015).
///
/// ```text
/// Ā = mean of the defined Aₐ,  sd per `deviation`
/// drop a  ⇔  Aₐ < Ā − sd
/// ```
///
/// Ā is the mean of the per-annotator agreements; when every annotator is
/// paired with every other (the paper's design) it equals
/// [`Agreement::overall`]. Annotators without partners (`Aₐ = None`) are kept.
/// Nobody is dropped when the standard deviation is undefined (fewer than two
/// defined agreements for `Sample`, none for `Population`).
///
/// # Complexity
/// O(n) for n annotators.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{exclude, Agreement, AnnotatorAgreement, Deviation};
/// let ann = |name: &str, a: f64| AnnotatorAgreement { annotator: name.into(), agreement: Some(a), partners: 3 };
/// let ag = Agreement { overall: None, pairs: 6, annotators: vec![
///     ann("a", 0.7), ann("b", 0.7), ann("c", 0.7), ann("d", 0.3),
/// ] };
/// // Ā = 0.6, sample sd = 0.2: d (0.3 < 0.4) is dropped.
/// let ex = exclude(&ag, Deviation::Sample);
/// assert_eq!(ex.dropped, vec![("d".to_string(), 0.3)]);
/// assert_eq!(ex.kept, ["a", "b", "c"]);
/// ```
#[must_use]
pub fn exclude(agreement: &Agreement, deviation: Deviation) -> Exclusion {
    let values: Vec<f64> = agreement
        .annotators
        .iter()
        .filter_map(|a| a.agreement)
        .collect();
    let n = values.len();
    let mean = (n > 0).then(|| neumaier(values.iter().copied()) / n as f64);
    let denominator = match deviation {
        Deviation::Sample => n.checked_sub(1).filter(|&d| d > 0),
        Deviation::Population => (n > 0).then_some(n),
    };
    let sd = mean
        .zip(denominator)
        .map(|(m, d)| (neumaier(values.iter().map(|v| (v - m) * (v - m))) / d as f64).sqrt());
    let threshold = mean.zip(sd).map(|(m, s)| m - s);
    let mut dropped = Vec::new();
    let mut kept = Vec::new();
    for a in &agreement.annotators {
        match (a.agreement, threshold) {
            (Some(v), Some(t)) if v < t => dropped.push((a.annotator.clone(), v)),
            _ => kept.push(a.annotator.clone()),
        }
    }
    Exclusion {
        mean,
        sd,
        threshold,
        dropped,
        kept,
    }
}

/// The whole §4.1/§5 pipeline: agreement of all annotators, the exclusion
/// rule, then the comparisons from the kept annotators and their agreement.
///
/// ```text
/// Aₐ, overall  ← agreement(all annotations)
/// dropped      ← {a : Aₐ < Ā − sd}
/// R_>          ← comparisons(annotations of kept annotators)
/// ```
///
/// # Errors
/// As [`comparisons`]; [`TripletError::NoAnnotations`] also when every
/// annotator of a group was dropped.
///
/// # Complexity
/// As [`agreement`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::triplet::{build_dataset, Annotation, Deviation, TargetGroup};
/// let groups = [TargetGroup::new("t", ["x", "y", "z"], ["d"], Vec::<String>::new())];
/// let ann = [
///     Annotation::new("a", "t", ["x", "y", "z"]),
///     Annotation::new("b", "t", ["x", "y", "z"]),
///     Annotation::new("c", "t", ["y", "x", "z"]),
///     Annotation::new("d", "t", ["z", "y", "x"]),
/// ];
/// let built = build_dataset(&groups, &ann, Deviation::Sample)?;
/// assert_eq!(built.exclusion.dropped.len(), 1); // "d" disagrees with everyone
/// assert_eq!(built.comparisons[0].reliability, 2.0 / 3.0); // x above y for a and b, not c
/// # Ok::<(), adaptive_comp_metrics::triplet::TripletError>(())
/// ```
pub fn build_dataset(
    groups: &[TargetGroup],
    annotations: &[Annotation],
    deviation: Deviation,
) -> Result<BuiltDataset, TripletError> {
    let checked = check(groups, annotations)?;
    // Refuse an oversized dataset before the O(m²·p²) agreement, too.
    comparison_total(groups)?;
    let all = vec![true; checked.names.len()];
    let agreement = agreement_of(&checked, &all);
    let exclusion = exclude(&agreement, deviation);
    let dropped: std::collections::HashSet<&str> =
        exclusion.dropped.iter().map(|(a, _)| a.as_str()).collect();
    let keep: Vec<bool> = checked.names.iter().map(|n| !dropped.contains(n)).collect();
    let comparisons = comparisons_from(groups, &checked, &keep)?;
    let agreement_after = agreement_of(&checked, &keep);
    Ok(BuiltDataset {
        comparisons,
        agreement,
        exclusion,
        agreement_after,
    })
}
