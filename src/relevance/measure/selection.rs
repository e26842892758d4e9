//! [`MeasureSelection`]: lists of measure names read as `trec_eval`'s `-m`
//! options or `pytrec_eval`'s measure sets.

use super::{
    Entry, Measure, NICKNAMES, TABLE, cut_text, entry, family_cutoffs, family_defaults, nickname,
};
use crate::relevance::error::{RelevanceError, Result};
use crate::relevance::evaluate::Ties;
use core::fmt;

/// How a list of measure names is read: as `trec_eval`'s `-m` options or
/// as `pytrec_eval`'s measure sets. Both take `trec_eval`'s names
/// (`map`, `P`, `ndcg_cut`, …), families with cut-offs (`P.5,10`) and
/// nicknames of sets (`official`, `set`, `all_trec`); they differ where
/// one family is named several times, and in the default.
///
/// | | [`TrecEval`](Self::TrecEval) | [`PytrecEval`](Self::PytrecEval) |
/// |---|---|---|
/// | no name given | the `official` set | no measure |
/// | a family named twice (`P.5`, `P.10`) | the first cut-offs count (`P_5`; the rest noted) | the union of all cut-offs (`P_5`, `P_10`); a family alone (`P`) counts only where no cut-off of it is given |
/// | `P_5`, `ndcg_cut_20,4` | `P_5` (one measure's name); a list after `_` is an error | a family and its cut-offs, as `P.5`, `ndcg_cut.20,4` |
/// | a repeated cut-off (`P.5,5`) | an error (`trec_eval`: "duplicate cutoffs") | counted once |
/// | parameters of a measure without cut-offs (`map.5`) | ignored | ignored |
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Measure, MeasureSelection, MeasureSyntax, Ties};
/// let trec_eval = MeasureSelection::parse(&["P.10", "P.5"], MeasureSyntax::TrecEval, Ties::TrecEval)?;
/// assert_eq!(trec_eval.measures(), [Measure::Precision(10)]);
/// let pytrec_eval = MeasureSelection::parse(&["P.10", "P_5"], MeasureSyntax::PytrecEval, Ties::TrecEval)?;
/// assert_eq!(pytrec_eval.measures(), [Measure::Precision(5), Measure::Precision(10)]);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeasureSyntax {
    /// `trec_eval`'s `-m` options (and `acm trec`'s).
    #[default]
    TrecEval,
    /// `pytrec_eval`'s measure sets (`RelevanceEvaluator(qrels, measures)`).
    PytrecEval,
}

/// Something a [`MeasureSelection`] left out of what it was asked for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SelectionNote {
    /// A nickname's set has measures this crate does not compute; the
    /// others are selected.
    NotComputed {
        /// The nickname (`"set"`, `"all_trec"`).
        nickname: &'static str,
        /// The measures left out, in the nickname's order.
        measures: Vec<&'static str>,
    },
    /// A family's cut-offs given after its first ones, which `trec_eval`
    /// ignores ([`MeasureSyntax::TrecEval`]).
    CutoffsIgnored {
        /// The specification ignored (`"P.10"`).
        spec: String,
        /// The family (`"P"`).
        family: &'static str,
        /// The cut-offs that count, as given (`"5"`).
        first: String,
    },
    /// Measures a nickname brings in that have no tie-aware expectation,
    /// left out under [`Ties::Expected`].
    NoExpectation {
        /// Their `trec_eval` names (families: the family's name).
        measures: Vec<&'static str>,
    },
}

impl fmt::Display for SelectionNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotComputed { nickname, measures } => write!(
                f,
                "trec_eval's {nickname} set also has {}: not computed here",
                measures.join(", ")
            ),
            Self::CutoffsIgnored {
                spec,
                family,
                first,
            } => write!(
                f,
                "{spec} ignored: as in trec_eval, the first cut-offs given for {family} count \
                 ({family}.{first})"
            ),
            Self::NoExpectation { measures } => write!(
                f,
                "{} left out: no tie-aware expectation",
                measures.join(", ")
            ),
        }
    }
}

/// The measures asked for by a list of names, as `trec_eval` (its `-m`
/// options) or `pytrec_eval` (its measure sets) read such a list: the one
/// reading of measure names that `acm trec` and the Python
/// `RelevanceEvaluator` share.
///
/// The measures come in `trec_eval`'s order (the order of its measure
/// table, then by cut-off: `num_q`, `num_ret`, `num_rel`, `num_rel_ret`,
/// `map`, `gm_map`, `Rprec`, `bpref`, `recip_rank`, `iprec_at_recall`, `P`,
/// `recall`, `ndcg`, `ndcg_cut`, `map_cut`, `success`), each once, whatever
/// the order of the names. `runid` (the run's name, not a value) is
/// [`MeasureSelection::runid`], `relstring` (a string of grades, not a
/// value) [`MeasureSelection::relstring`]. A nickname selects the part of its set
/// that this crate computes (`official`: all of it, [`Measure::OFFICIAL`];
/// `set` and `all_trec`: see [`MeasureSelection::nickname`]) and notes the
/// rest ([`SelectionNote::NotComputed`]). Under [`Ties::Expected`], a
/// measure without an expectation ([`Measure::has_expectation`]) named
/// itself is an error, and one a nickname brings in is left out with a
/// note. See [`MeasureSyntax`] for where the two readings differ.
///
/// # Errors
/// - [`RelevanceError::UnknownMeasure`]: a name this crate does not compute
///   (`unj`, `rbp`: `trec_eval` 10.0's measures not computed here) or no
///   name at all;
/// - [`RelevanceError::NoCutoffs`]: a family with nothing after its `.`
///   (`P.`, [`MeasureSyntax::TrecEval`]);
/// - [`RelevanceError::MeasureParameters`]: `ndcg`, `set_F`, `utility`,
///   `11pt_avg`, `G`, `ndcg_rel` or `Rndcg` with parameters (computed with
///   `trec_eval`'s defaults: for the gain measures, the options' gains,
///   by default equal to the grades);
/// - [`RelevanceError::BadCutoffs`]: a rank cut-off that is not an integer
///   ≥ 1, or a recall level that is not a number in \[0, 1\] with at most
///   two decimals;
/// - [`RelevanceError::RepeatedCutoff`]: a cut-off given twice in one list
///   ([`MeasureSyntax::TrecEval`]);
/// - [`RelevanceError::NoExpectation`]: under [`Ties::Expected`], `gm_map`
///   or `iprec_at_recall` named itself.
///
/// # Complexity
/// O(n log n) for n measures selected.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::{Measure, MeasureSelection, MeasureSyntax, Ties};
/// // trec_eval's order, whatever the order of the names.
/// let s = MeasureSelection::parse(&["P.10,5", "map", "num_q"], MeasureSyntax::TrecEval, Ties::TrecEval)?;
/// assert_eq!(
///     s.measures(),
///     [Measure::Queries, Measure::AveragePrecision, Measure::Precision(5), Measure::Precision(10)]
/// );
/// // No name: trec_eval's default, the official set with its runid.
/// let none: [&str; 0] = [];
/// let official = MeasureSelection::parse(&none, MeasureSyntax::TrecEval, Ties::TrecEval)?;
/// assert!(official.runid());
/// assert_eq!(official.measures(), Measure::OFFICIAL);
/// // pytrec_eval's spelling of a family with cut-offs.
/// let s = MeasureSelection::parse(&["ndcg_cut_20,4"], MeasureSyntax::PytrecEval, Ties::TrecEval)?;
/// assert_eq!(s.measures(), [Measure::NdcgCut(4), Measure::NdcgCut(20)]);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasureSelection {
    runid: bool,
    relstring: bool,
    measures: Vec<Measure>,
    notes: Vec<SelectionNote>,
}

/// A table row asked for while reading a list.
struct Marked {
    row: usize,
    /// Whether a name of the list named it (not only a nickname).
    named: bool,
    /// Its cut-offs as given, each with the specification it came from.
    cuts: Vec<(String, String)>,
}

impl MeasureSelection {
    /// Reads a list of measure names; see [`MeasureSelection`].
    ///
    /// # Errors
    /// See [`MeasureSelection`].
    pub fn parse<S: AsRef<str>>(specs: &[S], syntax: MeasureSyntax, ties: Ties) -> Result<Self> {
        let official = ["official"];
        let specs: Vec<&str> = if specs.is_empty() && syntax == MeasureSyntax::TrecEval {
            official.to_vec()
        } else {
            specs.iter().map(AsRef::as_ref).collect()
        };
        let mut marked: Vec<Marked> = Vec::new();
        let mut extra: Vec<Measure> = Vec::new();
        let mut nicknames: Vec<&'static str> = Vec::new();
        for spec in specs {
            let unknown = || RelevanceError::UnknownMeasure {
                name: cut_text(spec),
            };
            let (name, cuts) = split_spec(spec, syntax).ok_or_else(unknown)?;
            if let Some((nick, names)) = nickname(name) {
                if !nicknames.contains(&nick) {
                    nicknames.push(nick);
                }
                for n in names {
                    if let Some((row, _)) = entry(n) {
                        mark(&mut marked, row, false);
                    }
                }
                continue;
            }
            match entry(name) {
                Some((row, e)) if !matches!(e, Entry::Absent) => {
                    if cuts == Some("") {
                        return Err(RelevanceError::NoCutoffs {
                            spec: cut_text(spec),
                        });
                    }
                    let parameterised = matches!(
                        e,
                        Entry::One(
                            Measure::Ndcg
                                | Measure::SetF
                                | Measure::Utility
                                | Measure::ElevenPointAverage
                                | Measure::G
                                | Measure::NdcgRel
                                | Measure::Rndcg
                        )
                    );
                    if parameterised && cuts.is_some() {
                        return Err(RelevanceError::MeasureParameters {
                            spec: cut_text(spec),
                        });
                    }
                    let m = mark(&mut marked, row, true);
                    if let (Some(cuts), Entry::Cut(..) | Entry::Levels(..)) = (cuts, e) {
                        m.cuts.push((spec.to_owned(), cuts.to_owned()));
                    }
                }
                _ => match spec.parse::<Measure>() {
                    // One measure by its full name (`P_5`), an extension of
                    // trec_eval's -m.
                    Ok(m) if syntax == MeasureSyntax::TrecEval => extra.push(m),
                    _ => return Err(unknown()),
                },
            }
        }
        marked.sort_by_key(|m| m.row);
        let mut out = Self {
            runid: false,
            relstring: false,
            measures: Vec::new(),
            notes: Vec::new(),
        };
        let mut dropped = Vec::new();
        let mut absent: Vec<&'static str> = Vec::new();
        for m in &marked {
            let Some(&(name, e)) = TABLE.get(m.row) else {
                continue;
            };
            let measures = match e {
                Entry::Runid => {
                    out.runid = true;
                    continue;
                }
                Entry::Relstring => {
                    out.relstring = true;
                    continue;
                }
                Entry::Absent => {
                    absent.push(name);
                    continue;
                }
                Entry::One(measure) => vec![measure],
                Entry::Cut(..) | Entry::Levels(..) => {
                    cutoffs(name, e, &m.cuts, syntax, &mut out.notes)?
                }
            };
            if ties == Ties::Expected && measures.iter().any(|m| !m.has_expectation()) {
                if m.named {
                    return Err(RelevanceError::NoExpectation {
                        measure: name.to_owned(),
                    });
                }
                dropped.push(name);
                continue;
            }
            out.measures.extend(measures);
        }
        for m in extra {
            if ties == Ties::Expected && !m.has_expectation() {
                return Err(RelevanceError::NoExpectation {
                    measure: m.to_string(),
                });
            }
            out.measures.push(m);
        }
        for n in nicknames {
            let missing: Vec<&'static str> = nickname(n)
                .map_or(&[][..], |(_, names)| names)
                .iter()
                .copied()
                .filter(|name| absent.contains(name))
                .collect();
            if !missing.is_empty() {
                out.notes.push(SelectionNote::NotComputed {
                    nickname: n,
                    measures: missing,
                });
            }
        }
        if !dropped.is_empty() {
            out.notes
                .push(SelectionNote::NoExpectation { measures: dropped });
        }
        out.measures.sort_by_key(|m| m.position());
        out.measures.dedup();
        Ok(out)
    }

    /// Whether `runid` (the run's name) was asked for.
    #[must_use]
    pub fn runid(&self) -> bool {
        self.runid
    }

    /// Whether `relstring` (the grades of the first ranks as a string,
    /// which `trec_eval` prints per query only) was asked for; the crate
    /// computes no value for it (`pytrec_eval` reports 0).
    #[must_use]
    pub fn relstring(&self) -> bool {
        self.relstring
    }

    /// The measures, in `trec_eval`'s order, each once.
    #[must_use]
    pub fn measures(&self) -> &[Measure] {
        &self.measures
    }

    /// What was left out of what the names asked for, with why.
    #[must_use]
    pub fn notes(&self) -> &[SelectionNote] {
        &self.notes
    }

    /// The names of `trec_eval`'s measure table that this crate computes,
    /// in its order: `runid`, `num_q`, `num_ret`, `num_rel`, `num_rel_ret`,
    /// `map`, `gm_map`, `Rprec`, `bpref`, `recip_rank`, `iprec_at_recall`,
    /// `P`, `relstring`, `recall`, `infAP`, `gm_bpref`, `Rprec_mult`,
    /// `utility`, `11pt_avg`, `binG`, `G`, `ndcg`, `ndcg_rel`, `Rndcg`,
    /// `ndcg_cut`, `map_cut`, `relative_P`, `success`, the set measures and
    /// `num_nonrel_judged_ret`: `pytrec_eval`'s `supported_measures` (of
    /// 10.0's table, `dcg`, `ideal_dcg`, `rbp`, `rbp_resid` and `unj` are
    /// not computed).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::MeasureSelection;
    /// let names: Vec<&str> = MeasureSelection::supported_measures().collect();
    /// assert_eq!(names[..3], ["runid", "num_q", "num_ret"]);
    /// assert!(names.contains(&"ndcg_cut") && names.contains(&"infAP"));
    /// assert!(!names.contains(&"rbp"));
    /// ```
    pub fn supported_measures() -> impl Iterator<Item = &'static str> {
        TABLE
            .iter()
            .filter(|(_, e)| !matches!(e, Entry::Absent))
            .map(|&(n, _)| n)
    }

    /// `trec_eval`'s nicknames of measure sets: `official`, `set`,
    /// `all_trec`.
    pub fn nicknames() -> impl Iterator<Item = &'static str> {
        NICKNAMES.iter().map(|&(n, _)| n)
    }

    /// The names of a nickname's set that this crate computes, in
    /// `trec_eval`'s order (`pytrec_eval`'s `supported_nicknames`), or
    /// `None` for a name that is not a nickname. `official` and `set` are
    /// computed whole; `all_trec` lacks `unj`, `rbp` and `rbp_resid`
    /// (`trec_eval` 10.0's additions: `pytrec_eval`'s `all_trec` is
    /// whole).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::relevance::MeasureSelection;
    /// let official: Vec<&str> = MeasureSelection::nickname("official").into_iter().flatten().collect();
    /// assert_eq!(official.len(), 12);
    /// assert!(MeasureSelection::nickname("map").is_none());
    /// ```
    pub fn nickname(name: &str) -> Option<impl Iterator<Item = &'static str>> {
        nickname(name).map(|(_, names)| {
            names
                .iter()
                .copied()
                .filter(|n| entry(n).is_some_and(|(_, e)| !matches!(e, Entry::Absent)))
        })
    }
}

/// Marks a table row, once; `named` is kept if any mark had it.
fn mark(marked: &mut Vec<Marked>, row: usize, named: bool) -> &mut Marked {
    let at = match marked.iter().position(|m| m.row == row) {
        Some(at) => at,
        None => {
            marked.push(Marked {
                row,
                named,
                cuts: Vec::new(),
            });
            marked.len() - 1
        }
    };
    let m = &mut marked[at];
    m.named |= named;
    m
}

/// A specification's table name and the text after its `.` (or, for
/// `pytrec_eval`, its `_` before a cut-off list); `None` if nothing
/// remains of the name.
fn split_spec(spec: &str, syntax: MeasureSyntax) -> Option<(&str, Option<&str>)> {
    if nickname(spec).is_some() || entry(spec).is_some() {
        return Some((spec, None));
    }
    if syntax == MeasureSyntax::PytrecEval {
        // pytrec_eval's `meas.p1,p2` or `meas_p1,p2`, for a name of the
        // table followed by a list of numbers.
        let list = |t: &str| {
            !t.is_empty()
                && t.split(',').all(|n| {
                    let (int, frac) = n.split_once('.').unwrap_or((n, "1"));
                    [int, frac]
                        .iter()
                        .all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                })
        };
        return TABLE.iter().find_map(|&(name, _)| {
            let rest = spec.strip_prefix(name)?;
            let cuts = rest.strip_prefix('.').or_else(|| rest.strip_prefix('_'))?;
            list(cuts).then_some((name, Some(cuts)))
        });
    }
    Some(match spec.split_once('.') {
        Some((name, cuts)) => (name, Some(cuts)),
        None => (spec, None),
    })
}

/// A family's measures from the cut-off lists given for it (its defaults
/// if none), sorted.
fn cutoffs(
    family: &'static str,
    e: Entry,
    given: &[(String, String)],
    syntax: MeasureSyntax,
    notes: &mut Vec<SelectionNote>,
) -> Result<Vec<Measure>> {
    let lists: &[(String, String)] = match (syntax, given) {
        (_, []) => return Ok(family_defaults(e)),
        (MeasureSyntax::TrecEval, [first, rest @ ..]) => {
            for (spec, _) in rest {
                notes.push(SelectionNote::CutoffsIgnored {
                    spec: spec.clone(),
                    family,
                    first: first.1.clone(),
                });
            }
            core::slice::from_ref(first)
        }
        _ => given,
    };
    let mut measures = Vec::new();
    for (_, cuts) in lists {
        let bad = || RelevanceError::BadCutoffs {
            family,
            cutoffs: cut_text(cuts),
        };
        let mut these = family_cutoffs(e, cuts).ok_or_else(bad)?;
        these.sort_by_key(|m| m.position());
        if syntax == MeasureSyntax::TrecEval && these.windows(2).any(|w| w[0] == w[1]) {
            return Err(RelevanceError::RepeatedCutoff {
                family,
                cutoffs: cut_text(cuts),
            });
        }
        measures.extend(these);
    }
    measures.sort_by_key(|m| m.position());
    measures.dedup();
    Ok(measures)
}

#[cfg(test)]
mod tests {
    use super::super::DEFAULT_CUTS;
    use super::*;

    fn select(specs: &[&str], syntax: MeasureSyntax) -> Result<MeasureSelection> {
        MeasureSelection::parse(specs, syntax, Ties::TrecEval)
    }

    #[test]
    fn trec_eval_reads_the_first_cut_offs_of_a_family() -> Result<()> {
        let s = select(&["P.5", "official", "P.10"], MeasureSyntax::TrecEval)?;
        assert!(s.runid());
        assert!(s.measures().contains(&Measure::Precision(5)));
        assert!(!s.measures().contains(&Measure::Precision(10)));
        assert_eq!(
            s.notes(),
            [SelectionNote::CutoffsIgnored {
                spec: "P.10".into(),
                family: "P",
                first: "5".into()
            }]
        );
        // In trec_eval's order, each once, whatever the order given.
        let s = select(&["P.10,5", "map", "num_q", "map"], MeasureSyntax::TrecEval)?;
        assert_eq!(
            s.measures(),
            [
                Measure::Queries,
                Measure::AveragePrecision,
                Measure::Precision(5),
                Measure::Precision(10)
            ]
        );
        assert!(!s.runid());
        // A full name is one measure; trec_eval's default is official.
        let s = select(&["iprec_at_recall_0.20", "P_7"], MeasureSyntax::TrecEval)?;
        assert_eq!(
            s.measures(),
            [Measure::InterpolatedPrecision(20), Measure::Precision(7)]
        );
        let none: [&str; 0] = [];
        let s = select(&none, MeasureSyntax::TrecEval)?;
        assert!(s.runid() && s.notes().is_empty());
        assert_eq!(s.measures(), Measure::OFFICIAL);
        assert_eq!(select(&none, MeasureSyntax::PytrecEval)?.measures(), []);
        Ok(())
    }

    #[test]
    fn pytrec_eval_joins_the_cut_offs_of_a_family() -> Result<()> {
        let py = MeasureSyntax::PytrecEval;
        // pytrec_eval's test_measure_params.
        let s = select(
            &[
                "ndcg_cut",
                "ndcg_cut.1,4",
                "ndcg_cut_20,4",
                "ndcg_cut_15",
                "recall.1000",
                "P",
            ],
            py,
        )?;
        let mut want: Vec<Measure> = [1, 4, 15, 20].map(Measure::NdcgCut).to_vec();
        want.insert(0, Measure::Recall(1000));
        want.splice(0..0, DEFAULT_CUTS.map(Measure::Precision));
        assert_eq!(s.measures(), want);
        // A nickname's P counts only without named cut-offs of P.
        let s = select(&["official", "P.7"], py)?;
        assert!(s.runid());
        let ps: Vec<_> = s
            .measures()
            .iter()
            .filter(|m| m.cutoff().is_some())
            .collect();
        assert_eq!(ps, [&Measure::Precision(7)]);
        assert_eq!(s.measures().len(), 29 - 9 + 1);
        // Repeated cut-offs count once; parameters of a measure without
        // cut-offs are ignored, as pytrec_eval does.
        assert_eq!(
            select(&["P.5,5", "P_05"], py)?.measures(),
            [Measure::Precision(5)]
        );
        assert_eq!(
            select(&["map.5"], py)?.measures(),
            [Measure::AveragePrecision]
        );
        assert_eq!(
            select(&["iprec_at_recall_0.25,1"], py)?.measures(),
            [25, 100].map(Measure::InterpolatedPrecision)
        );
        assert!(select(&["runid"], py)?.runid());
        Ok(())
    }

    #[test]
    fn nicknames_select_the_measures_computed_and_note_the_rest() -> Result<()> {
        for syntax in [MeasureSyntax::TrecEval, MeasureSyntax::PytrecEval] {
            let s = select(&["set"], syntax)?;
            assert!(s.runid());
            assert_eq!(
                s.measures(),
                [
                    Measure::Queries,
                    Measure::Retrieved,
                    Measure::Relevant,
                    Measure::RelevantRetrieved,
                    Measure::Utility,
                    Measure::SetPrecision,
                    Measure::SetRelativePrecision,
                    Measure::SetRecall,
                    Measure::SetMap,
                    Measure::SetF,
                ]
            );
            assert_eq!(s.notes(), []);
            let all = select(&["all_trec", "all_trec"], syntax)?;
            // official (29) + recall, map_cut, ndcg_cut, relative_P (9
            // each), ndcg, success (3), the set measures (6),
            // num_nonrel_judged_ret, Rprec_mult (10), infAP, gm_bpref,
            // 11pt_avg, ndcg_rel, Rndcg, binG, G.
            assert_eq!(all.measures().len(), 29 + 36 + 1 + 3 + 6 + 1 + 10 + 7);
            assert!(all.relstring() && all.runid());
            assert_eq!(all.notes().len(), 1);
            assert_eq!(
                all.notes()[0].to_string(),
                "trec_eval's all_trec set also has unj, rbp, rbp_resid: not computed here"
            );
        }
        let supported: Vec<&str> = MeasureSelection::supported_measures().collect();
        let official: Vec<&str> = MeasureSelection::nickname("official")
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(official, supported[..12]);
        let set: Vec<&str> = MeasureSelection::nickname("set")
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(set.len(), 11);
        // Every name a nickname computes is supported, and parses alone.
        for n in MeasureSelection::nicknames() {
            for name in MeasureSelection::nickname(n).into_iter().flatten() {
                assert!(supported.contains(&name), "{name}");
                select(&[name], MeasureSyntax::PytrecEval)?;
            }
        }
        Ok(())
    }

    #[test]
    fn bad_lists_are_typed_errors() {
        use MeasureSyntax::{PytrecEval, TrecEval};
        let err = |specs: &[&str], syntax| select(specs, syntax).err();
        assert_eq!(
            err(&["P."], TrecEval),
            Some(RelevanceError::NoCutoffs { spec: "P.".into() })
        );
        assert_eq!(
            err(&["P."], PytrecEval),
            Some(RelevanceError::UnknownMeasure { name: "P.".into() })
        );
        for syntax in [TrecEval, PytrecEval] {
            assert_eq!(
                err(&["ndcg.1"], syntax),
                Some(RelevanceError::MeasureParameters {
                    spec: "ndcg.1".into()
                })
            );
            assert_eq!(
                err(&["P.0"], syntax),
                Some(RelevanceError::BadCutoffs {
                    family: "P",
                    cutoffs: "0".into()
                })
            );
            assert_eq!(
                err(&["iprec_at_recall.0.125"], syntax),
                Some(RelevanceError::BadCutoffs {
                    family: "iprec_at_recall",
                    cutoffs: "0.125".into()
                })
            );
            for unknown in ["unj", "rbp", "bogus", "P-5", "", "rbp_resid"] {
                assert_eq!(
                    err(&["map", unknown], syntax),
                    Some(RelevanceError::UnknownMeasure {
                        name: unknown.into()
                    }),
                    "{unknown}"
                );
            }
        }
        assert_eq!(
            err(&["P.5,5"], TrecEval),
            Some(RelevanceError::RepeatedCutoff {
                family: "P",
                cutoffs: "5,5".into()
            })
        );
        // pytrec_eval reads a name in part (P_5x as P_5): refused here.
        assert!(err(&["P_5x"], PytrecEval).is_some());
        assert!(err(&["P_5,10"], TrecEval).is_some());
        // Long names are quoted cut to 40 characters.
        let long = "x".repeat(100);
        assert_eq!(
            err(&[&long], TrecEval),
            Some(RelevanceError::UnknownMeasure {
                name: "x".repeat(40)
            })
        );
    }

    #[test]
    fn expected_ties_refuse_named_measures_without_expectation() -> Result<()> {
        for syntax in [MeasureSyntax::TrecEval, MeasureSyntax::PytrecEval] {
            let s = MeasureSelection::parse(&["official"], syntax, Ties::Expected)?;
            assert!(!s.measures().contains(&Measure::GeometricMap));
            assert!(s.measures().iter().all(|m| m.has_expectation()));
            assert_eq!(
                s.notes(),
                [SelectionNote::NoExpectation {
                    measures: vec!["gm_map", "iprec_at_recall"]
                }]
            );
            for named in ["gm_map", "iprec_at_recall.0.5", "iprec_at_recall_0.50"] {
                let e = MeasureSelection::parse(&["official", named], syntax, Ties::Expected);
                assert!(
                    matches!(e, Err(RelevanceError::NoExpectation { .. })),
                    "{named}: {e:?}"
                );
            }
        }
        Ok(())
    }

    /// pytrec_eval's reading of a measure set, as its Python code does
    /// it (`_expand_nicknames`, `_combine_measures`: sets of names, then
    /// of parameters by root name), with the measures computed here.
    fn pytrec_eval_oracle(specs: &[String]) -> Option<(bool, Vec<Measure>)> {
        use std::collections::{BTreeMap, BTreeSet};
        let mut expanded = BTreeSet::new();
        for spec in specs {
            match nickname(spec) {
                Some((_, names)) => expanded.extend(names.iter().map(|n| (*n).to_owned())),
                None => {
                    expanded.insert(spec.clone());
                }
            }
        }
        let number = |t: &str| {
            let (int, frac) = t.split_once('.').unwrap_or((t, "0"));
            !int.is_empty()
                && !frac.is_empty()
                && (int.to_owned() + frac).bytes().all(|b| b.is_ascii_digit())
        };
        let mut params: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for m in &expanded {
            if let Some((row, _)) = entry(m) {
                params.entry(TABLE[row].0).or_default();
                continue;
            }
            let (root, list) = TABLE.iter().find_map(|&(root, _)| {
                let rest = m.strip_prefix(root)?;
                let list = rest.strip_prefix(['.', '_'])?;
                list.split(',').all(number).then_some((root, list))
            })?;
            params.entry(root).or_default().extend(list.split(','));
        }
        let (mut runid, mut out) = (false, Vec::new());
        for (root, list) in params {
            let (_, e) = entry(root)?;
            match e {
                Entry::Runid => runid = true,
                Entry::Relstring => {}
                Entry::Absent => {
                    // Named itself: not computed here, an error; from a
                    // nickname: left out.
                    if specs.iter().any(|s| s.starts_with(root)) {
                        return None;
                    }
                }
                Entry::One(
                    Measure::Ndcg
                    | Measure::ElevenPointAverage
                    | Measure::G
                    | Measure::NdcgRel
                    | Measure::Rndcg,
                ) if !list.is_empty() => return None,
                Entry::One(m) => out.push(m),
                Entry::Cut(..) | Entry::Levels(..) if list.is_empty() => {
                    out.extend(family_defaults(e));
                }
                _ => {
                    for cut in list {
                        out.extend(family_cutoffs(e, cut)?);
                    }
                }
            }
        }
        out.sort_by_key(|m| m.position());
        out.dedup();
        Some((runid, out))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn pytrec_eval_syntax_reads_as_pytrec_eval(
            picks in proptest::collection::vec((0usize..20, 0usize..3, 0usize..64), 0..5)
        ) {
            const NAMES: [&str; 20] = [
                "map", "P", "recall", "ndcg_cut", "success", "iprec_at_recall", "num_q",
                "runid", "ndcg", "official", "set", "all_trec", "map_cut", "infAP", "bogus",
                "gm_map", "Rprec_mult", "relative_P", "rbp", "relstring",
            ];
            const CUTS: [&str; 8] = ["1", "5", "10", "0", "05", "0.5", "0.25", "0.125"];
            let specs: Vec<String> = picks
                .iter()
                .map(|&(name, sep, cuts)| {
                    let name = NAMES[name];
                    if sep == 0 {
                        return name.to_owned();
                    }
                    let list: Vec<&str> = (0..3)
                        .filter(|b| cuts >> (2 * b) & 3 != 0)
                        .map(|b| CUTS[(cuts >> (2 * b) & 7) % CUTS.len()])
                        .collect();
                    let list = if list.is_empty() { vec!["10"] } else { list };
                    format!("{name}{}{}", [".", "_"][sep - 1], list.join(","))
                })
                .collect();
            let got = MeasureSelection::parse(&specs, MeasureSyntax::PytrecEval, Ties::TrecEval)
                .ok()
                .map(|s| (s.runid(), s.measures().to_vec()));
            proptest::prop_assert_eq!(got, pytrec_eval_oracle(&specs), "{:?}", specs);
        }
    }
}
