//! The measures of [`evaluate_trec`](super::evaluate_trec), named as
//! `trec_eval` names them.

mod selection;

pub use selection::{MeasureSelection, MeasureSyntax, SelectionNote};

use super::error::{RelevanceError, Result};
use core::fmt;
use core::str::FromStr;

/// One retrieval measure, with `trec_eval`'s name.
///
/// | measure | `trec_eval` name | per query |
/// |---|---|---|
/// | [`Measure::AveragePrecision`] | `map` | Σ_{relevant d retrieved} P@rank(d) / R |
/// | [`Measure::GeometricMap`] | `gm_map` | ln(max(AP, 10⁻⁵)); the summary is exp of the mean |
/// | [`Measure::Precision`]`(k)` | `P_k` | #relevant in the top k / k |
/// | [`Measure::RPrecision`] | `Rprec` | #relevant in the top R / R |
/// | [`Measure::Bpref`] | `bpref` | (1/R) Σ_{relevant d retrieved} (1 − min(n_d, R) / min(N, R)) |
/// | [`Measure::ReciprocalRank`] | `recip_rank` | 1 / rank of the first relevant document |
/// | [`Measure::InterpolatedPrecision`]`(p)` | `iprec_at_recall_0.pp` | max precision at recall ≥ p/100 |
/// | [`Measure::Recall`]`(k)` | `recall_k` | #relevant in the top k / R |
/// | [`Measure::Success`]`(k)` | `success_k` | 1 if a relevant document is in the top k, else 0 |
/// | [`Measure::MapCut`]`(k)` | `map_cut_k` | Σ_{relevant d in the top k} P@rank(d) / R |
/// | [`Measure::NdcgCut`]`(k)` | `ndcg_cut_k` | DCG@k / ideal DCG@k |
/// | [`Measure::Ndcg`] | `ndcg` | DCG / ideal DCG over the whole ranking |
/// | [`Measure::Queries`] | `num_q` | 1 (the summary counts the queries) |
/// | [`Measure::Retrieved`] | `num_ret` | number of documents ranked |
/// | [`Measure::Relevant`] | `num_rel` | R, the number of relevant documents judged |
/// | [`Measure::RelevantRetrieved`] | `num_rel_ret` | number of relevant documents ranked |
/// | [`Measure::JudgedNonrelevantRetrieved`] | `num_nonrel_judged_ret` | number of judged non-relevant documents ranked |
/// | [`Measure::SetPrecision`] | `set_P` | #relevant ranked / #ranked |
/// | [`Measure::SetRecall`] | `set_recall` | #relevant ranked / R |
/// | [`Measure::SetRelativePrecision`] | `set_relative_P` | #relevant ranked / min(#ranked, R) |
/// | [`Measure::SetMap`] | `set_map` | set_P · set_recall |
/// | [`Measure::SetF`] | `set_F` | 2 · set_P · set_recall / (set_P + set_recall) |
/// | [`Measure::Utility`] | `utility` | #relevant ranked − #non-relevant ranked |
/// | [`Measure::GeometricBpref`] | `gm_bpref` | ln(max(bpref, 10⁻⁵)); the summary is exp of the mean |
/// | [`Measure::RelativePrecision`]`(k)` | `relative_P_k` | #relevant in the top k / min(k, R) |
/// | [`Measure::RPrecisionMultiple`]`(m)` | `Rprec_mult_m.mm` | P@c, c = ⌊(m/100)·R + 0.9⌋ |
/// | [`Measure::ElevenPointAverage`] | `11pt_avg` | mean of `iprec_at_recall` at 0.0, 0.1, …, 1.0 (9.0.x rounding) |
/// | [`Measure::InferredAp`] | `infAP` | (1/R) Σ_{relevant d retrieved} inferred precision above d |
/// | [`Measure::BinaryG`] | `binG` | (1/R) Σ_{relevant d retrieved} 1 / log₂(2 + #non-relevant above d) |
/// | [`Measure::G`] | `G` | Σᵢ gainᵢ / log₂(2 + ideal cost to i − gain to i), over the ideal gain |
/// | [`Measure::NdcgRel`] | `ndcg_rel` | nDCG at each document of positive gain, averaged over them |
/// | [`Measure::Rndcg`] | `Rndcg` | nDCG averaged at the ranks where the ideal gain changes |
///
/// with DCG = Σᵢ gainᵢ / log₂(i + 1) over ranks i ≥ 1; for `bpref`, N is
/// the number of judged non-relevant documents (grade ≥ 0 and below the
/// relevance level) and n_d the number of them ranked above d (Buckley &
/// Voorhees 2004, as `trec_eval` computes it); for `iprec_at_recall`, the
/// precision at every rank from the ⌊p·R⌉-th relevant document on (see
/// [`TrecEvalVersion`](super::TrecEvalVersion) for the rounding of p·R).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::Measure;
/// assert_eq!("P_5".parse::<Measure>()?, Measure::Precision(5));
/// assert_eq!(Measure::NdcgCut(10).to_string(), "ndcg_cut_10");
/// assert_eq!(Measure::InterpolatedPrecision(10).to_string(), "iprec_at_recall_0.10");
/// // trec_eval's -m syntax: a family and its cut-offs.
/// assert_eq!(Measure::parse_list("P.5,10")?, [Measure::Precision(5), Measure::Precision(10)]);
/// assert_eq!(Measure::parse_list("success")?.len(), 3); // success_1, _5, _10
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Measure {
    /// Average precision (`map`; its mean over queries is MAP).
    AveragePrecision,
    /// Precision at cut-off k (`P_k`).
    Precision(usize),
    /// R-precision (`Rprec`).
    RPrecision,
    /// Reciprocal rank of the first relevant document (`recip_rank`).
    ReciprocalRank,
    /// nDCG at cut-off k (`ndcg_cut_k`).
    NdcgCut(usize),
    /// nDCG of the whole ranking (`ndcg`).
    Ndcg,
    /// Documents retrieved (`num_ret`).
    Retrieved,
    /// Relevant documents judged (`num_rel`).
    Relevant,
    /// Relevant documents retrieved (`num_rel_ret`).
    RelevantRetrieved,
    /// Geometric mean average precision (`gm_map`): per query
    /// ln(max(AP, 10⁻⁵)), as `trec_eval` computes it (and `pytrec_eval`
    /// returns it); the summary is the exponential of their mean, the
    /// geometric mean of the APs with each floored at 10⁻⁵ (Robertson
    /// 2006, "On GMAP").
    GeometricMap,
    /// Binary preference (`bpref`; Buckley & Voorhees 2004, "Retrieval
    /// evaluation with incomplete information", SIGIR), as `trec_eval`
    /// computes it: unjudged documents and negative grades are skipped.
    Bpref,
    /// Interpolated precision at recall p/100 (`iprec_at_recall_0.pp`,
    /// p = 0 … 100): the largest precision at or after the rank of the
    /// c-th relevant document, c = p·R rounded ([`TrecEvalVersion`]); 0
    /// when fewer than c relevant documents are retrieved.
    ///
    /// [`TrecEvalVersion`]: super::TrecEvalVersion
    InterpolatedPrecision(u32),
    /// Recall at cut-off k (`recall_k`): relevant documents in the top k / R.
    Recall(usize),
    /// Success at cut-off k (`success_k`): 1 if a relevant document is in
    /// the top k.
    Success(usize),
    /// Average precision over the top k (`map_cut_k`): the precisions at
    /// the relevant documents of the top k, summed and divided by R.
    MapCut(usize),
    /// Queries scored (`num_q`): 1 per query; the summary is their number.
    Queries,
    /// Judged non-relevant documents retrieved (`num_nonrel_judged_ret`):
    /// grade ≥ 0 and below the relevance level; a count.
    JudgedNonrelevantRetrieved,
    /// Set precision (`set_P`): relevant retrieved / retrieved, the
    /// precision of the whole ranking as a set (0 when nothing is ranked).
    SetPrecision,
    /// Set recall (`set_recall`): relevant retrieved / R.
    SetRecall,
    /// Relative set precision (`set_relative_P`): relevant retrieved /
    /// min(retrieved, R), the share of the best possible.
    SetRelativePrecision,
    /// Set map (`set_map`): relevant retrieved² / (retrieved · R), set
    /// precision times set recall.
    SetMap,
    /// Set F (`set_F`, `trec_eval`'s default weight x = 1): (x + 1)·P·R /
    /// (x·P + R) with P, R the set precision and recall; 0 when no relevant
    /// document is retrieved.
    SetF,
    /// Utility (`utility`, `trec_eval`'s default coefficients 1, −1, 0, 0):
    /// relevant retrieved − non-relevant (or unjudged) retrieved.
    Utility,
    /// Geometric bpref (`gm_bpref`): per query ln(max(bpref, 10⁻⁵)), the
    /// summary the exponential of their mean, as `gm_map` is for AP.
    GeometricBpref,
    /// Relative precision at cut-off k (`relative_P_k`): relevant documents
    /// in the top k / min(k, R), precision up to R and recall after.
    RelativePrecision(usize),
    /// Precision at a multiple m/100 of R (`Rprec_mult_m.mm`, m = 1 …
    /// 10000): P@c with c = ⌊(m/100)·R + 0.9⌋, `trec_eval`'s rounding (a
    /// cut-off past the ranking counts the missing places as non-relevant).
    RPrecisionMultiple(u32),
    /// Interpolated precision averaged over the 11 recall levels 0.0, 0.1,
    /// …, 1.0 (`11pt_avg`), each level's cut-off rounded as `trec_eval`
    /// 9.0.x rounds (⌊p·R + 0.9⌋) whatever the version; undefined for an
    /// empty ranking (`trec_eval` computes 0/0 there, `NaN`).
    ElevenPointAverage,
    /// Inferred AP (`infAP`; Yilmaz & Aslam 2006, "Estimating average
    /// precision with incomplete and imperfect judgments", CIKM), as
    /// `trec_eval` computes it: documents nobody judged are skipped,
    /// negative grades are in the pool but unjudged.
    InferredAp,
    /// Binary G (`binG`, `trec_eval`'s experimental measure): the mean over
    /// the R relevant documents of 1 / log₂(2 + non-relevant ranked above),
    /// 0 for those not ranked.
    BinaryG,
    /// Normalised gain G (`G`, `trec_eval`'s experimental measure): each
    /// ranked document of gain g at rank i adds g / log₂(2 + cost(i) −
    /// gain(1..i)), cost(i) the ideal gain to i (at least 1 a rank), over
    /// the ideal ranking's total gain. Gains from the options' mapping.
    G,
    /// nDCG averaged at the documents of positive gain (`ndcg_rel`,
    /// `trec_eval`'s experimental measure); those not ranked take the
    /// nDCG of the whole ranking.
    NdcgRel,
    /// nDCG averaged at the R levels (`Rndcg`, `trec_eval`'s experimental
    /// measure): at each rank where the ideal ranking's gain changes, and
    /// at the end of the ranking.
    Rndcg,
}

/// `trec_eval`'s default cut-offs of `P`, `recall`, `map_cut` and `ndcg_cut`.
const DEFAULT_CUTS: [usize; 9] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
/// `trec_eval`'s default cut-offs of `success`.
const SUCCESS_CUTS: [usize; 3] = [1, 5, 10];
/// `trec_eval`'s default recall levels of `iprec_at_recall`, in hundredths.
const RECALL_LEVELS: [u32; 11] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
/// `trec_eval`'s default multiples of R of `Rprec_mult`, in hundredths.
const R_MULTIPLES: [u32; 10] = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200];

/// A measure of a family from its cut-off.
type Make = fn(usize) -> Measure;
/// A measure of a family from its level in hundredths.
type MakeLevel = fn(u32) -> Measure;

/// What a name of `trec_eval`'s measure table stands for here.
#[derive(Clone, Copy)]
enum Entry {
    /// `runid`: the run's name, not a value.
    Runid,
    /// `relstring`: the grades of the first ranks as a string, not a value.
    Relstring,
    /// A measure with one value.
    One(Measure),
    /// A family with rank cut-offs, and its default cut-offs.
    Cut(Make, &'static [usize]),
    /// A family with levels in hundredths (`iprec_at_recall`'s recall
    /// levels, `Rprec_mult`'s multiples of R), their default and the
    /// largest level taken.
    Levels(MakeLevel, &'static [u32], u32),
    /// A measure of `trec_eval` this crate does not compute.
    Absent,
}

/// `trec_eval` 10.0's measure table (its `measures.c`) in its order, the
/// order of its output, without the measures of preference and
/// multiple-judgement qrels (which no nickname here names); `dcg` and
/// `ideal_dcg` are in the table but in no nickname.
const TABLE: [(&str, Entry); 39] = {
    use Entry::{Absent, Cut, Levels, One, Relstring, Runid};
    use Measure as M;
    [
        ("runid", Runid),
        ("num_q", One(M::Queries)),
        ("num_ret", One(M::Retrieved)),
        ("num_rel", One(M::Relevant)),
        ("num_rel_ret", One(M::RelevantRetrieved)),
        ("map", One(M::AveragePrecision)),
        ("gm_map", One(M::GeometricMap)),
        ("Rprec", One(M::RPrecision)),
        ("bpref", One(M::Bpref)),
        ("recip_rank", One(M::ReciprocalRank)),
        (
            "iprec_at_recall",
            Levels(M::InterpolatedPrecision, &RECALL_LEVELS, 100),
        ),
        ("P", Cut(M::Precision, &DEFAULT_CUTS)),
        ("relstring", Relstring),
        ("recall", Cut(M::Recall, &DEFAULT_CUTS)),
        ("infAP", One(M::InferredAp)),
        ("gm_bpref", One(M::GeometricBpref)),
        (
            "Rprec_mult",
            Levels(M::RPrecisionMultiple, &R_MULTIPLES, 10_000),
        ),
        ("utility", One(M::Utility)),
        ("11pt_avg", One(M::ElevenPointAverage)),
        ("binG", One(M::BinaryG)),
        ("G", One(M::G)),
        ("dcg", Absent),
        ("ideal_dcg", Absent),
        ("ndcg", One(M::Ndcg)),
        ("ndcg_rel", One(M::NdcgRel)),
        ("Rndcg", One(M::Rndcg)),
        ("ndcg_cut", Cut(M::NdcgCut, &DEFAULT_CUTS)),
        ("map_cut", Cut(M::MapCut, &DEFAULT_CUTS)),
        ("relative_P", Cut(M::RelativePrecision, &DEFAULT_CUTS)),
        ("success", Cut(M::Success, &SUCCESS_CUTS)),
        ("set_P", One(M::SetPrecision)),
        ("set_relative_P", One(M::SetRelativePrecision)),
        ("set_recall", One(M::SetRecall)),
        ("set_map", One(M::SetMap)),
        ("set_F", One(M::SetF)),
        ("num_nonrel_judged_ret", One(M::JudgedNonrelevantRetrieved)),
        ("rbp", Absent),
        ("rbp_resid", Absent),
        ("unj", Absent),
    ]
};

/// The entry of a table name.
fn entry(name: &str) -> Option<(usize, Entry)> {
    TABLE
        .iter()
        .position(|(n, _)| *n == name)
        .and_then(|i| TABLE.get(i).map(|&(_, e)| (i, e)))
}

/// `trec_eval`'s nicknames of measure sets (its `measures.c`), with their
/// names in its order. `all_trec` is 10.0's: 9.0.x and `pytrec_eval` lack
/// its `unj`, `rbp` and `rbp_resid`.
const NICKNAMES: [(&str, &[&str]); 3] = [
    (
        "official",
        &[
            "runid",
            "num_q",
            "num_ret",
            "num_rel",
            "num_rel_ret",
            "map",
            "gm_map",
            "Rprec",
            "bpref",
            "recip_rank",
            "iprec_at_recall",
            "P",
        ],
    ),
    (
        "set",
        &[
            "runid",
            "num_q",
            "num_ret",
            "num_rel",
            "num_rel_ret",
            "utility",
            "set_P",
            "set_recall",
            "set_relative_P",
            "set_map",
            "set_F",
        ],
    ),
    (
        "all_trec",
        &[
            "runid",
            "num_q",
            "num_ret",
            "num_rel",
            "num_rel_ret",
            "map",
            "gm_map",
            "Rprec",
            "bpref",
            "recip_rank",
            "iprec_at_recall",
            "P",
            "relstring",
            "recall",
            "unj",
            "rbp",
            "rbp_resid",
            "infAP",
            "gm_bpref",
            "utility",
            "11pt_avg",
            "ndcg",
            "relative_P",
            "Rprec_mult",
            "success",
            "map_cut",
            "ndcg_cut",
            "ndcg_rel",
            "Rndcg",
            "binG",
            "G",
            "set_P",
            "set_recall",
            "set_relative_P",
            "set_map",
            "set_F",
            "num_nonrel_judged_ret",
        ],
    ),
];

/// A nickname as `NICKNAMES` spells it, and the names of its set.
fn nickname(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    NICKNAMES.iter().find(|(n, _)| *n == name).copied()
}

impl Measure {
    /// The measures of the crate's speed comparison with `trec_eval`:
    /// `map P_5 P_10 Rprec recip_rank ndcg_cut_10 ndcg`.
    pub const STANDARD: [Self; 7] = [
        Self::AveragePrecision,
        Self::Precision(5),
        Self::Precision(10),
        Self::RPrecision,
        Self::ReciprocalRank,
        Self::NdcgCut(10),
        Self::Ndcg,
    ];

    /// `trec_eval`'s `official` set, what it prints without `-m`, but its
    /// `runid` line (a name, not a value), in its order: `num_q num_ret
    /// num_rel num_rel_ret map gm_map Rprec bpref recip_rank
    /// iprec_at_recall_0.00 … iprec_at_recall_1.00 P_5 … P_1000`.
    pub const OFFICIAL: [Self; 29] = [
        Self::Queries,
        Self::Retrieved,
        Self::Relevant,
        Self::RelevantRetrieved,
        Self::AveragePrecision,
        Self::GeometricMap,
        Self::RPrecision,
        Self::Bpref,
        Self::ReciprocalRank,
        Self::InterpolatedPrecision(0),
        Self::InterpolatedPrecision(10),
        Self::InterpolatedPrecision(20),
        Self::InterpolatedPrecision(30),
        Self::InterpolatedPrecision(40),
        Self::InterpolatedPrecision(50),
        Self::InterpolatedPrecision(60),
        Self::InterpolatedPrecision(70),
        Self::InterpolatedPrecision(80),
        Self::InterpolatedPrecision(90),
        Self::InterpolatedPrecision(100),
        Self::Precision(5),
        Self::Precision(10),
        Self::Precision(15),
        Self::Precision(20),
        Self::Precision(30),
        Self::Precision(100),
        Self::Precision(200),
        Self::Precision(500),
        Self::Precision(1000),
    ];

    /// Whether the measure is a count, which `trec_eval` sums over queries
    /// instead of averaging.
    #[must_use]
    pub fn is_count(self) -> bool {
        matches!(
            self,
            Self::Retrieved
                | Self::Relevant
                | Self::RelevantRetrieved
                | Self::Queries
                | Self::JudgedNonrelevantRetrieved
        )
    }

    /// The rank cut-off of `P_k`, `recall_k`, `success_k`, `map_cut_k` and
    /// `ndcg_cut_k`.
    #[must_use]
    pub fn cutoff(self) -> Option<usize> {
        match self {
            Self::Precision(k)
            | Self::NdcgCut(k)
            | Self::Recall(k)
            | Self::Success(k)
            | Self::MapCut(k)
            | Self::RelativePrecision(k) => Some(k),
            _ => None,
        }
    }

    /// The value `trec_eval` reports where this measure is undefined (a
    /// query without relevant documents, ideal DCG 0; `None` in a
    /// [`TrecReport`](super::TrecReport)): 0, and for `gm_map` ln 10⁻⁵,
    /// the logarithm of its floor (AP 0).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::Measure;
    /// assert_eq!(Measure::AveragePrecision.value_if_undefined(), 0.0);
    /// assert_eq!(Measure::GeometricMap.value_if_undefined(), 1e-5_f64.ln());
    /// ```
    #[must_use]
    pub fn value_if_undefined(self) -> f64 {
        if self.is_geometric() {
            1e-5_f64.ln()
        } else {
            0.0
        }
    }

    /// Whether [`Ties::Expected`](super::Ties::Expected) has a value for
    /// the measure: every measure but `gm_map` (an expected logarithm of
    /// AP) and `iprec_at_recall` (an expected maximum), whose expectations
    /// over tie orders have no closed form here.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::Measure;
    /// assert!(Measure::Bpref.has_expectation());
    /// assert!(!Measure::GeometricMap.has_expectation());
    /// let tie_aware = Measure::OFFICIAL.iter().filter(|m| m.has_expectation()).count();
    /// assert_eq!(tie_aware, 29 - 12); // not gm_map, nor the 11 iprec_at_recall
    /// ```
    #[must_use]
    pub fn has_expectation(self) -> bool {
        !matches!(
            self,
            Self::GeometricMap
                | Self::InterpolatedPrecision(_)
                | Self::GeometricBpref
                | Self::RPrecisionMultiple(_)
                | Self::ElevenPointAverage
                | Self::InferredAp
                | Self::BinaryG
                | Self::G
                | Self::NdcgRel
                | Self::Rndcg
        )
    }

    /// Whether the measure is a logarithm whose summary is the exponential
    /// of the mean, a geometric mean (`gm_map`, `gm_bpref`).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::Measure;
    /// assert!(Measure::GeometricBpref.is_geometric());
    /// assert!(!Measure::Bpref.is_geometric());
    /// ```
    #[must_use]
    pub fn is_geometric(self) -> bool {
        matches!(self, Self::GeometricMap | Self::GeometricBpref)
    }

    /// The measure's place in `trec_eval`'s output: the row of its table,
    /// then the cut-off or recall level.
    fn position(self) -> (usize, usize) {
        let row = |name: &str| entry(name).map_or(usize::MAX, |(i, _)| i);
        match self {
            Self::Precision(k) => (row("P"), k),
            Self::Recall(k) => (row("recall"), k),
            Self::Success(k) => (row("success"), k),
            Self::MapCut(k) => (row("map_cut"), k),
            Self::NdcgCut(k) => (row("ndcg_cut"), k),
            Self::RelativePrecision(k) => (row("relative_P"), k),
            Self::RPrecisionMultiple(m) => (row("Rprec_mult"), m as usize),
            Self::InterpolatedPrecision(p) => (row("iprec_at_recall"), p as usize),
            _ => (
                TABLE
                    .iter()
                    .position(|(_, e)| matches!(e, Entry::One(m) if *m == self))
                    .unwrap_or(usize::MAX),
                0,
            ),
        }
    }

    /// Parses a `trec_eval -m` argument: a measure name (`map`, `P_5`,
    /// `ndcg_cut_10`, `iprec_at_recall_0.20`, …) or a family with
    /// comma-separated cut-offs (`P.5,10,20`, `ndcg_cut.10`, `recall.100`,
    /// `success.1`, `map_cut.10`, `iprec_at_recall.0,0.5,1`). A family alone
    /// gives `trec_eval`'s default cut-offs: 5, 10, 15, 20, 30, 100, 200,
    /// 500, 1000 for `P`, `recall`, `map_cut` and `ndcg_cut`; 1, 5, 10 for
    /// `success`; 0.0, 0.1, …, 1.0 for `iprec_at_recall`. The measures come
    /// in the order given (`trec_eval` sorts the cut-offs and refuses a
    /// repeated one; its command line, `acm trec`, does too). Nicknames of
    /// sets (`official`) are not measures: see [`MeasureSelection`], which
    /// reads whole lists as `trec_eval` and `pytrec_eval` do.
    ///
    /// # Errors
    /// [`RelevanceError::UnknownMeasure`] for a name this crate does not
    /// compute, a rank cut-off that is not an integer ≥ 1, or a recall
    /// level that is not a number in \[0, 1\] with at most two decimals
    /// (`trec_eval` names its lines with two).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::Measure;
    /// assert_eq!(Measure::parse_list("ndcg_cut.10")?, [Measure::NdcgCut(10)]);
    /// assert_eq!(Measure::parse_list("map")?, [Measure::AveragePrecision]);
    /// assert_eq!(
    ///     Measure::parse_list("iprec_at_recall.0.25,1")?,
    ///     [Measure::InterpolatedPrecision(25), Measure::InterpolatedPrecision(100)]
    /// );
    /// assert_eq!(Measure::parse_list("infAP")?, [Measure::InferredAp]);
    /// assert_eq!(Measure::parse_list("Rprec_mult.0.5,2")?.len(), 2);
    /// assert!(Measure::parse_list("relstring").is_err());
    /// assert!(Measure::parse_list("iprec_at_recall.0.125").is_err());
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn parse_list(spec: &str) -> Result<Vec<Self>> {
        let unknown = || RelevanceError::UnknownMeasure {
            name: cut_text(spec),
        };
        if let Some((name, cuts)) = spec.split_once('.') {
            return match entry(name) {
                Some((_, e)) => family_cutoffs(e, cuts).ok_or_else(unknown),
                None => Err(unknown()),
            };
        }
        match entry(spec) {
            Some((_, e @ (Entry::Cut(..) | Entry::Levels(..)))) => Ok(family_defaults(e)),
            _ => spec.parse().map(|m| vec![m]),
        }
    }
}

/// A name as an error quotes it: cut to 40 characters.
fn cut_text(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A family's default measures (none for other entries).
fn family_defaults(e: Entry) -> Vec<Measure> {
    match e {
        Entry::Cut(make, cuts) => cuts.iter().map(|&k| make(k)).collect(),
        Entry::Levels(make, levels, _) => levels.iter().map(|&p| make(p)).collect(),
        _ => Vec::new(),
    }
}

/// A family's measures at comma-separated cut-offs (recall levels for
/// `iprec_at_recall`) in the order given; `None` if one does not parse or
/// the entry is not a family.
fn family_cutoffs(e: Entry, cuts: &str) -> Option<Vec<Measure>> {
    cuts.split(',')
        .map(|c| match e {
            Entry::Cut(make, _) => parse_cut(c).map(make),
            Entry::Levels(make, _, max) => parse_hundredths(c, max).map(make),
            _ => None,
        })
        .collect()
}

/// A rank cut-off: an integer ≥ 1.
fn parse_cut(text: &str) -> Option<usize> {
    text.parse::<usize>().ok().filter(|&k| k >= 1)
}

/// A recall level in \[0, 1\] with at most two decimals, as hundredths.
fn parse_recall_level(text: &str) -> Option<u32> {
    parse_hundredths(text, 100)
}

/// A number from 0 to `max` hundredths with at most two decimals, as
/// hundredths (`Rprec_mult`'s multiples of R: above 0).
fn parse_hundredths(text: &str, max: u32) -> Option<u32> {
    if !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') || text.is_empty() {
        return None;
    }
    let p: f64 = text.parse().ok()?;
    if !(0.0..=f64::from(max) / 100.0).contains(&p) || (max > 100 && p == 0.0) {
        return None;
    }
    let hundredths = (p * 100.0).round();
    // The same double as the text: 10/100 and "0.1" are both the double
    // nearest to 0.1.
    (hundredths / 100.0 == p).then_some(hundredths as u32)
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AveragePrecision => f.write_str("map"),
            Self::Precision(k) => write!(f, "P_{k}"),
            Self::RPrecision => f.write_str("Rprec"),
            Self::ReciprocalRank => f.write_str("recip_rank"),
            Self::NdcgCut(k) => write!(f, "ndcg_cut_{k}"),
            Self::Ndcg => f.write_str("ndcg"),
            Self::Retrieved => f.write_str("num_ret"),
            Self::Relevant => f.write_str("num_rel"),
            Self::RelevantRetrieved => f.write_str("num_rel_ret"),
            Self::GeometricMap => f.write_str("gm_map"),
            Self::Bpref => f.write_str("bpref"),
            Self::InterpolatedPrecision(p) => {
                write!(f, "iprec_at_recall_{}.{:02}", p / 100, p % 100)
            }
            Self::Recall(k) => write!(f, "recall_{k}"),
            Self::Success(k) => write!(f, "success_{k}"),
            Self::MapCut(k) => write!(f, "map_cut_{k}"),
            Self::Queries => f.write_str("num_q"),
            Self::JudgedNonrelevantRetrieved => f.write_str("num_nonrel_judged_ret"),
            Self::SetPrecision => f.write_str("set_P"),
            Self::SetRecall => f.write_str("set_recall"),
            Self::SetRelativePrecision => f.write_str("set_relative_P"),
            Self::SetMap => f.write_str("set_map"),
            Self::SetF => f.write_str("set_F"),
            Self::Utility => f.write_str("utility"),
            Self::GeometricBpref => f.write_str("gm_bpref"),
            Self::RelativePrecision(k) => write!(f, "relative_P_{k}"),
            Self::RPrecisionMultiple(m) => write!(f, "Rprec_mult_{}.{:02}", m / 100, m % 100),
            Self::ElevenPointAverage => f.write_str("11pt_avg"),
            Self::InferredAp => f.write_str("infAP"),
            Self::BinaryG => f.write_str("binG"),
            Self::G => f.write_str("G"),
            Self::NdcgRel => f.write_str("ndcg_rel"),
            Self::Rndcg => f.write_str("Rndcg"),
        }
    }
}

impl FromStr for Measure {
    type Err = RelevanceError;

    /// Parses one `trec_eval` measure name as [`Display`](fmt::Display)
    /// prints it (`map`, `gm_map`, `P_5`, `Rprec`, `bpref`, `recip_rank`,
    /// `iprec_at_recall_0.20`, `recall_10`, `success_1`, `map_cut_10`,
    /// `ndcg_cut_10`, `ndcg`, `num_q`, `num_ret`, `num_rel`,
    /// `num_rel_ret`, `num_nonrel_judged_ret`, `set_P`, `set_recall`,
    /// `set_relative_P`, `set_map`, `set_F`, `utility`, `gm_bpref`,
    /// `relative_P_5`, `Rprec_mult_0.20`, `11pt_avg`, `infAP`, `binG`, `G`,
    /// `ndcg_rel`, `Rndcg`).
    fn from_str(s: &str) -> Result<Self> {
        let unknown = || RelevanceError::UnknownMeasure { name: cut_text(s) };
        let cut = parse_cut;
        Ok(match s {
            "map" => Self::AveragePrecision,
            "Rprec" => Self::RPrecision,
            "recip_rank" => Self::ReciprocalRank,
            "ndcg" => Self::Ndcg,
            "num_ret" => Self::Retrieved,
            "num_rel" => Self::Relevant,
            "num_rel_ret" => Self::RelevantRetrieved,
            "gm_map" => Self::GeometricMap,
            "bpref" => Self::Bpref,
            "num_q" => Self::Queries,
            "num_nonrel_judged_ret" => Self::JudgedNonrelevantRetrieved,
            "set_P" => Self::SetPrecision,
            "set_recall" => Self::SetRecall,
            "set_relative_P" => Self::SetRelativePrecision,
            "set_map" => Self::SetMap,
            "set_F" => Self::SetF,
            "utility" => Self::Utility,
            "gm_bpref" => Self::GeometricBpref,
            "11pt_avg" => Self::ElevenPointAverage,
            "infAP" => Self::InferredAp,
            "binG" => Self::BinaryG,
            "G" => Self::G,
            "ndcg_rel" => Self::NdcgRel,
            "Rndcg" => Self::Rndcg,
            _ => {
                let families: [(&str, Make); 6] = [
                    ("ndcg_cut_", Self::NdcgCut),
                    ("P_", Self::Precision),
                    ("recall_", Self::Recall),
                    ("success_", Self::Success),
                    ("map_cut_", Self::MapCut),
                    ("relative_P_", Self::RelativePrecision),
                ];
                if let Some(m) = families
                    .iter()
                    .find_map(|(prefix, make)| s.strip_prefix(prefix).and_then(cut).map(make))
                {
                    m
                } else if let Some(p) = s
                    .strip_prefix("iprec_at_recall_")
                    .and_then(parse_recall_level)
                {
                    Self::InterpolatedPrecision(p)
                } else if let Some(m) = s
                    .strip_prefix("Rprec_mult_")
                    .and_then(|t| parse_hundredths(t, 10_000))
                {
                    Self::RPrecisionMultiple(m)
                } else {
                    return Err(unknown());
                }
            }
        })
    }
}

/// Serialises as the `trec_eval` name (`"map"`, `"P_10"`, `"ndcg_cut_10"`,
/// …), as [`Display`](fmt::Display) prints it.
#[cfg(feature = "serde")]
impl serde::Serialize for Measure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Reads a `trec_eval` name as [`FromStr`] does (so cut-offs are ≥ 1).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Measure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() -> Result<()> {
        // Every measure of the table, at its family's default cut-offs and
        // at others: printed as the table names it, and read back.
        let mut checked = 0;
        for &(name, e) in &TABLE {
            let named: Vec<(Measure, String)> = match e {
                Entry::One(m) => vec![(m, name.to_owned())],
                Entry::Cut(make, cuts) => cuts
                    .iter()
                    .chain(&[1, 3, 7])
                    .map(|&k| (make(k), format!("{name}_{k}")))
                    .collect(),
                Entry::Levels(make, levels, max) => levels
                    .iter()
                    .chain(&[5, 7, max])
                    .map(|&p| (make(p), format!("{name}_{}.{:02}", p / 100, p % 100)))
                    .collect(),
                Entry::Runid | Entry::Relstring | Entry::Absent => Vec::new(),
            };
            for (m, text) in named {
                assert_eq!(m.to_string(), text);
                assert_eq!(text.parse::<Measure>()?, m);
                checked += 1;
            }
        }
        // 24 measures alone, 6 families of 9 or 3 default cut-offs and
        // 2 of 11 or 10 default levels, each with 3 more.
        assert_eq!(checked, 24 + (5 * 9 + 3 + 6 * 3) + (11 + 10 + 2 * 3));
        for bad in [
            "P_0",
            "P_",
            "P_x",
            "ndcg_cut_-1",
            "MAP",
            "",
            "P.0",
            "P.5,",
            "x.5",
            "iprec_at_recall.1.5",
            "iprec_at_recall.-0.1",
            "iprec_at_recall.0.125",
            "iprec_at_recall.",
            "iprec_at_recall_0.1x",
            "iprec_at_recall_1e-1",
            "success.0",
            "recall_0",
            "official",
            "relstring",
            "Rprec_mult_0",
            "Rprec_mult.0",
            "Rprec_mult.100.01",
            "relative_P_0",
        ] {
            assert!(Measure::parse_list(bad).is_err(), "{bad}");
        }
        assert_eq!(Measure::parse_list("P")?.len(), 9);
        assert_eq!(
            Measure::parse_list("iprec_at_recall")?,
            Measure::OFFICIAL[9..20]
        );
        assert_eq!(
            Measure::parse_list("iprec_at_recall.0,.1,1.0,0.50")?,
            [0, 10, 100, 50].map(Measure::InterpolatedPrecision)
        );
        assert_eq!(
            "iprec_at_recall_0.07".parse::<Measure>()?,
            Measure::InterpolatedPrecision(7)
        );
        assert_eq!(
            Measure::InterpolatedPrecision(7).to_string(),
            "iprec_at_recall_0.07"
        );
        // Every hundredth round-trips through its text.
        for p in 0..=100 {
            let m = Measure::InterpolatedPrecision(p);
            assert_eq!(m.to_string().parse::<Measure>()?, m);
        }
        assert_eq!(Measure::parse_list("map_cut")?.len(), 9);
        assert_eq!(
            Measure::parse_list("success")?,
            [1, 5, 10].map(Measure::Success)
        );
        Ok(())
    }
}
