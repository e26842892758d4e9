//! The measures of [`evaluate_trec`](super::evaluate_trec), named as
//! `trec_eval` names them.

use super::error::{RelevanceError, Result};
use core::fmt;
use core::str::FromStr;

/// One retrieval measure, with `trec_eval`'s name.
///
/// | measure | `trec_eval` name | per query |
/// |---|---|---|
/// | [`Measure::AveragePrecision`] | `map` | Σ_{relevant d retrieved} P@rank(d) / R |
/// | [`Measure::Precision`]`(k)` | `P_k` | #relevant in the top k / k |
/// | [`Measure::RPrecision`] | `Rprec` | #relevant in the top R / R |
/// | [`Measure::ReciprocalRank`] | `recip_rank` | 1 / rank of the first relevant document |
/// | [`Measure::NdcgCut`]`(k)` | `ndcg_cut_k` | DCG@k / ideal DCG@k |
/// | [`Measure::Ndcg`] | `ndcg` | DCG / ideal DCG over the whole ranking |
/// | [`Measure::Retrieved`] | `num_ret` | number of documents ranked |
/// | [`Measure::Relevant`] | `num_rel` | R, the number of relevant documents judged |
/// | [`Measure::RelevantRetrieved`] | `num_rel_ret` | number of relevant documents ranked |
///
/// with DCG = Σᵢ gainᵢ / log₂(i + 1) over ranks i ≥ 1.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::Measure;
/// assert_eq!("P_5".parse::<Measure>()?, Measure::Precision(5));
/// assert_eq!(Measure::NdcgCut(10).to_string(), "ndcg_cut_10");
/// // trec_eval's -m syntax: a family and its cut-offs.
/// assert_eq!(Measure::parse_list("P.5,10")?, [Measure::Precision(5), Measure::Precision(10)]);
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

    /// Whether the measure is a count, which `trec_eval` sums over queries
    /// instead of averaging.
    #[must_use]
    pub fn is_count(self) -> bool {
        matches!(
            self,
            Self::Retrieved | Self::Relevant | Self::RelevantRetrieved
        )
    }

    /// The cut-off of `P_k` and `ndcg_cut_k`.
    #[must_use]
    pub fn cutoff(self) -> Option<usize> {
        match self {
            Self::Precision(k) | Self::NdcgCut(k) => Some(k),
            _ => None,
        }
    }

    /// Parses a `trec_eval -m` argument: a measure name (`map`, `P_5`,
    /// `ndcg_cut_10`, …) or a family with comma-separated cut-offs
    /// (`P.5,10,20`, `ndcg_cut.10`); `P` alone and `ndcg_cut` alone give
    /// `trec_eval`'s default cut-offs (5, 10, 15, 20, 30, 100, 200, 500,
    /// 1000).
    ///
    /// # Errors
    /// [`RelevanceError::UnknownMeasure`] for a name this crate does not
    /// compute or a cut-off that is not an integer ≥ 1.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::Measure;
    /// assert_eq!(Measure::parse_list("ndcg_cut.10")?, [Measure::NdcgCut(10)]);
    /// assert_eq!(Measure::parse_list("map")?, [Measure::AveragePrecision]);
    /// assert!(Measure::parse_list("bpref").is_err());
    /// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
    /// ```
    pub fn parse_list(spec: &str) -> Result<Vec<Self>> {
        const DEFAULT_CUTS: [usize; 9] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
        let unknown = || RelevanceError::UnknownMeasure {
            name: spec.chars().take(40).collect(),
        };
        let family = |name: &str| -> Option<fn(usize) -> Self> {
            match name {
                "P" => Some(Self::Precision),
                "ndcg_cut" => Some(Self::NdcgCut),
                _ => None,
            }
        };
        if let Some((name, cuts)) = spec.split_once('.') {
            let make = family(name).ok_or_else(unknown)?;
            return cuts
                .split(',')
                .map(|c| {
                    c.parse::<usize>()
                        .ok()
                        .filter(|&k| k >= 1)
                        .map(make)
                        .ok_or_else(unknown)
                })
                .collect();
        }
        if let Some(make) = family(spec) {
            return Ok(DEFAULT_CUTS.iter().map(|&k| make(k)).collect());
        }
        spec.parse().map(|m| vec![m])
    }
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
        }
    }
}

impl FromStr for Measure {
    type Err = RelevanceError;

    /// Parses one `trec_eval` measure name (`map`, `P_5`, `Rprec`,
    /// `recip_rank`, `ndcg_cut_10`, `ndcg`, `num_ret`, `num_rel`,
    /// `num_rel_ret`).
    fn from_str(s: &str) -> Result<Self> {
        let unknown = || RelevanceError::UnknownMeasure {
            name: s.chars().take(40).collect(),
        };
        let cut = |rest: &str| rest.parse::<usize>().ok().filter(|&k| k >= 1);
        Ok(match s {
            "map" => Self::AveragePrecision,
            "Rprec" => Self::RPrecision,
            "recip_rank" => Self::ReciprocalRank,
            "ndcg" => Self::Ndcg,
            "num_ret" => Self::Retrieved,
            "num_rel" => Self::Relevant,
            "num_rel_ret" => Self::RelevantRetrieved,
            _ => {
                if let Some(k) = s.strip_prefix("ndcg_cut_").and_then(cut) {
                    Self::NdcgCut(k)
                } else if let Some(k) = s.strip_prefix("P_").and_then(cut) {
                    Self::Precision(k)
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
        let all = [
            Measure::AveragePrecision,
            Measure::Precision(7),
            Measure::RPrecision,
            Measure::ReciprocalRank,
            Measure::NdcgCut(3),
            Measure::Ndcg,
            Measure::Retrieved,
            Measure::Relevant,
            Measure::RelevantRetrieved,
        ];
        for m in all {
            assert_eq!(m.to_string().parse::<Measure>()?, m);
        }
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
        ] {
            assert!(Measure::parse_list(bad).is_err(), "{bad}");
        }
        assert_eq!(Measure::parse_list("P")?.len(), 9);
        Ok(())
    }
}
