//! Measure names of `acm compare trec`: trec_eval's (read by the library's
//! [`MeasureSelection`]) and ir_measures' (`nDCG@10`, `P(rel=2)@5`, `AP`,
//! `RR@10`, `Judged@10`, …), both mapped to the same computation.
//!
//! | ir_measures | computed as |
//! |---|---|
//! | `AP`, `MAP`; `AP@k` | `map`; `map_cut_k` |
//! | `P@k` | `P_k` |
//! | `R@k`, `Recall@k` | `recall_k` |
//! | `RR`, `MRR`; `RR@k` | `recip_rank`; 1/rank of the first relevant document in the top k (ir_measures' order: score, then id), else 0 |
//! | `nDCG`, `NDCG`; `nDCG@k` | `ndcg`; `ndcg_cut_k` |
//! | `Rprec`, `RPrec` | `Rprec` |
//! | `Bpref`, `BPref` | `bpref` |
//! | `Success@k` | `success_k` |
//! | `IPrec@r` | `iprec_at_recall_r` |
//! | `NumQ`, `NumRet`, `NumRel`, `NumRelRet` | `num_q`, `num_ret`, `num_rel`, `num_rel_ret` |
//! | `Judged@k` | judged documents among the top min(k, ranked) (ir_measures' order: score, then id) |
//!
//! `(rel=N)` sets the smallest relevant grade of one measure (trec_eval's
//! `-l` for that measure alone); other parameters are refused. An unknown
//! name is an error listing the nearest known names.

use adaptive_comp_metrics::relevance::{Measure, MeasureSelection, MeasureSyntax, Ties};

use crate::error::{Failure, Outcome, echo};

/// What one measure name asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The name as given (the column heading).
    pub name: String,
    /// What is computed.
    pub kind: Kind,
    /// The smallest relevant grade, when the name sets it.
    pub level: Option<i32>,
}

/// A measure of `evaluate_trec`, or one computed here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A library measure.
    Trec(Measure),
    /// Reciprocal rank cut at rank k.
    RrAt(usize),
    /// The share of judged documents in the top k.
    Judged(usize),
}

/// ir_measures' names (canonical and aliases) and what each family takes.
const IR_NAMES: [&str; 21] = [
    "AP",
    "MAP",
    "P",
    "R",
    "Recall",
    "RR",
    "MRR",
    "nDCG",
    "NDCG",
    "Rprec",
    "RPrec",
    "Bpref",
    "BPref",
    "Success",
    "IPrec",
    "NumQ",
    "NumRet",
    "NumRel",
    "NumRelRet",
    "Judged",
    "Precision",
];

/// Parses every `-m` name (none: `AP`, `nDCG@10`, `P@10`, `RR`).
///
/// # Errors
/// An unknown name (with the nearest known ones) or a bad parameter:
/// a command-line error (status 2).
pub fn parse_all(names: &[String]) -> Outcome<Vec<Spec>> {
    let defaults = ["AP", "nDCG@10", "P@10", "RR"].map(str::to_owned);
    let names = if names.is_empty() {
        &defaults[..]
    } else {
        names
    };
    let mut out: Vec<Spec> = Vec::new();
    for name in names {
        for spec in parse(name)? {
            if !out
                .iter()
                .any(|s| s.kind == spec.kind && s.level == spec.level)
            {
                out.push(spec);
            }
        }
    }
    Ok(out)
}

/// One name: an ir_measures name, or trec_eval's (which may stand for
/// several measures: `P.5,10`, `official`).
fn parse(name: &str) -> Outcome<Vec<Spec>> {
    if let Some(spec) = ir_measure(name)? {
        return Ok(vec![spec]);
    }
    match MeasureSelection::parse(&[name], MeasureSyntax::TrecEval, Ties::TrecEval) {
        Ok(s) => Ok(s
            .measures()
            .iter()
            .map(|&m| Spec {
                name: if s.measures().len() == 1 {
                    name.to_owned()
                } else {
                    m.to_string()
                },
                kind: Kind::Trec(m),
                level: None,
            })
            .collect()),
        Err(_) => Err(Failure::usage(format!(
            "-m {}: unknown measure; nearest known: {}",
            echo(name),
            nearest(name).join(", ")
        ))),
    }
}

/// An ir_measures name `Family(param=value,…)@cutoff`, if `name` is one.
fn ir_measure(name: &str) -> Outcome<Option<Spec>> {
    let bad = |why: &str| Failure::usage(format!("measure {} (-m): {why}", echo(name)));
    let (head, cutoff) = match name.rsplit_once('@') {
        Some((h, c)) => (h, Some(c)),
        None => (name, None),
    };
    let (family, params) = match head.split_once('(') {
        Some((f, rest)) => {
            let Some(p) = rest.strip_suffix(')') else {
                return Err(bad("a parameter list must end with ')'"));
            };
            (f, Some(p))
        }
        None => (head, None),
    };
    if !IR_NAMES.contains(&family) {
        return Ok(None);
    }
    let mut level = None;
    for p in params.into_iter().flat_map(|p| p.split(',')) {
        match p.trim().split_once('=') {
            Some(("rel", v)) => {
                level = Some(
                    v.trim()
                        .parse::<i32>()
                        .ok()
                        .filter(|&l| l >= 0)
                        .ok_or_else(|| bad("rel must be an integer ≥ 0"))?,
                );
            }
            _ => {
                return Err(bad(
                    "the only parameter computed here is rel=N (the smallest relevant grade)",
                ));
            }
        }
    }
    let k = match cutoff {
        Some(_) if family == "IPrec" => None,
        Some(c) => Some(
            c.parse::<usize>()
                .ok()
                .filter(|&k| k >= 1)
                .ok_or_else(|| bad("the cut-off after @ must be an integer ≥ 1"))?,
        ),
        None => None,
    };
    let need_k = |k: Option<usize>| k.ok_or_else(|| bad("this measure needs a cut-off (@k)"));
    let no_k = |k: Option<usize>| match k {
        Some(_) => Err(bad("this measure takes no cut-off")),
        None => Ok(()),
    };
    let kind = match family {
        "AP" | "MAP" => Kind::Trec(k.map_or(Measure::AveragePrecision, Measure::MapCut)),
        "P" | "Precision" => Kind::Trec(Measure::Precision(need_k(k)?)),
        "R" | "Recall" => Kind::Trec(Measure::Recall(need_k(k)?)),
        "RR" | "MRR" => k.map_or(Kind::Trec(Measure::ReciprocalRank), Kind::RrAt),
        "nDCG" | "NDCG" => Kind::Trec(k.map_or(Measure::Ndcg, Measure::NdcgCut)),
        "Rprec" | "RPrec" => {
            no_k(k)?;
            Kind::Trec(Measure::RPrecision)
        }
        "Bpref" | "BPref" => {
            no_k(k)?;
            Kind::Trec(Measure::Bpref)
        }
        "Success" => Kind::Trec(Measure::Success(need_k(k)?)),
        "IPrec" => {
            let Some(text) = cutoff else {
                return Err(bad("IPrec needs a recall level (IPrec@0.5)"));
            };
            let spec = format!("iprec_at_recall.{text}");
            let s = MeasureSelection::parse(&[spec], MeasureSyntax::TrecEval, Ties::TrecEval)
                .map_err(|_| bad("the recall level must be in [0, 1] with at most two decimals"))?;
            Kind::Trec(s.measures()[0])
        }
        "NumQ" => Kind::Trec(Measure::Queries),
        "NumRet" => Kind::Trec(Measure::Retrieved),
        "NumRel" => Kind::Trec(Measure::Relevant),
        "NumRelRet" => Kind::Trec(Measure::RelevantRetrieved),
        "Judged" => Kind::Judged(need_k(k)?),
        _ => return Ok(None),
    };
    if matches!(family, "NumQ" | "NumRet" | "NumRel" | "NumRelRet") {
        no_k(k)?;
    }
    if level.is_some()
        && matches!(
            kind,
            Kind::Judged(_) | Kind::Trec(Measure::Ndcg | Measure::NdcgCut(_))
        )
    {
        return Err(bad(
            "rel= applies to binary measures only (nDCG uses the grades)",
        ));
    }
    Ok(Some(Spec {
        name: name.to_owned(),
        kind,
        level,
    }))
}

/// The known names nearest to `name` (Levenshtein distance, case-blind).
fn nearest(name: &str) -> Vec<String> {
    let mut known: Vec<String> = IR_NAMES.iter().map(|s| (*s).to_owned()).collect();
    known.extend(["nDCG@10", "P@10", "AP@100", "R@100", "RR@10", "Judged@10"].map(str::to_owned));
    known.extend(MeasureSelection::supported_measures().map(str::to_owned));
    known.extend(MeasureSelection::nicknames().map(str::to_owned));
    let target = name.to_lowercase();
    let mut scored: Vec<(usize, String)> = known
        .into_iter()
        .map(|k| (distance(&target, &k.to_lowercase()), k))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(name: &str) -> Spec {
        parse_all(&[name.to_owned()]).unwrap().remove(0)
    }

    #[test]
    fn both_namings_map_to_one_computation() {
        assert_eq!(one("nDCG@10").kind, one("ndcg_cut_10").kind);
        assert_eq!(one("P@5").kind, one("P_5").kind);
        assert_eq!(one("AP").kind, one("map").kind);
        assert_eq!(one("AP@100").kind, one("map_cut.100").kind);
        assert_eq!(one("RR").kind, one("recip_rank").kind);
        assert_eq!(one("R@100").kind, one("recall_100").kind);
        assert_eq!(one("Rprec").kind, one("Rprec").kind);
        assert_eq!(one("IPrec@0.5").kind, one("iprec_at_recall_0.50").kind);
        let p = one("P(rel=2)@5");
        assert_eq!(
            (p.kind, p.level),
            (Kind::Trec(Measure::Precision(5)), Some(2))
        );
        assert_eq!(one("AP(rel=2)").level, Some(2));
        assert_eq!(one("Judged@10").kind, Kind::Judged(10));
        assert_eq!(one("RR@10").kind, Kind::RrAt(10));
        assert_eq!(parse_all(&["P.5,10".to_owned()]).unwrap().len(), 2);
        assert_eq!(parse_all(&[]).unwrap().len(), 4);
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let e = parse_all(&["nDGC@10".to_owned()]).unwrap_err();
        assert!(
            e.message.contains("nearest known: nDCG@10"),
            "{}",
            e.message
        );
        let e = parse_all(&["recip_rnak".to_owned()]).unwrap_err();
        assert!(e.message.contains("recip_rank"), "{}", e.message);
        for bad in [
            "P",
            "P@0",
            "nDCG(rel=2)@10",
            "AP(gains=x)",
            "Rprec@5",
            "P(rel=2@5",
        ] {
            assert!(parse_all(&[bad.to_owned()]).is_err(), "{bad}");
        }
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
