//! The input of a comparison: k systems scored on the same n units.

use super::error::CompareError;
use std::collections::HashMap;

/// What to do with a unit that some systems score and others do not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Missing {
    /// Refuse the table ([`CompareError::MissingUnit`], naming the system
    /// and the unit). The default: a silently dropped or zero-filled unit
    /// changes every mean.
    #[default]
    Error,
    /// Keep the units every system scores (in the first system's order).
    Common,
}

/// Scores of k systems on the same n units (queries of a TREC run,
/// instances of a lexical-substitution gold, benchmarks of a leaderboard),
/// with the systems' names and the units' names.
///
/// Scores are finite; the table is stored unit by unit (all systems'
/// scores of unit 0, then of unit 1, …), the layout the resampling reads.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::compare::{Missing, ScoreTable};
/// let t = ScoreTable::from_columns(&[("bm25", [0.5, 0.25, 1.0]), ("dense", [0.75, 0.5, 1.0])])?;
/// assert_eq!((t.units(), t.systems()), (3, 2));
/// assert_eq!(t.column(1), [0.75, 0.5, 1.0]);
///
/// // Scores keyed by unit: a unit one run lacks is an error unless asked otherwise.
/// let a = [("q1", 0.5), ("q2", 0.25), ("q3", 1.0)];
/// let b = [("q2", 0.5), ("q1", 0.75)];
/// let e = ScoreTable::from_keyed(&[("bm25", &a[..]), ("dense", &b[..])], Missing::Error);
/// assert_eq!(e.unwrap_err().to_string(), "system \"dense\" has no score for unit \"q3\" (which \
///     \"bm25\" has): compare on the units every system has, or score the missing units (trec_eval's -c)");
/// let t = ScoreTable::from_keyed(&[("bm25", &a[..]), ("dense", &b[..])], Missing::Common)?;
/// assert_eq!(t.unit_names(), ["q1", "q2"]);
/// assert_eq!(t.column(1), [0.75, 0.5]);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoreTable {
    names: Vec<String>,
    unit_names: Vec<String>,
    /// `scores[unit * systems + system]`.
    scores: Vec<f64>,
}

impl ScoreTable {
    /// A table from one column of scores per system, units in the order
    /// given and named `0`, `1`, ….
    ///
    /// # Errors
    /// [`CompareError::LengthMismatch`] when the columns differ in length,
    /// [`CompareError::NotFinite`] for a NaN or infinite score,
    /// [`CompareError::DuplicateSystem`] for a name given twice.
    ///
    /// # Complexity
    /// O(n·k).
    pub fn from_columns<S: AsRef<str>, V: AsRef<[f64]>>(
        columns: &[(S, V)],
    ) -> Result<Self, CompareError> {
        let n = columns.first().map_or(0, |c| c.1.as_ref().len());
        let names = names_of(columns.iter().map(|c| c.0.as_ref()))?;
        for (name, col) in columns {
            let len = col.as_ref().len();
            if len != n {
                return Err(CompareError::LengthMismatch {
                    system: name.as_ref().to_owned(),
                    len,
                    expected: n,
                });
            }
        }
        let k = columns.len();
        let mut scores = vec![0.0; n * k];
        for (s, (name, col)) in columns.iter().enumerate() {
            for (u, &v) in col.as_ref().iter().enumerate() {
                if !v.is_finite() {
                    return Err(CompareError::NotFinite {
                        system: name.as_ref().to_owned(),
                        unit: u.to_string(),
                        value: v,
                    });
                }
                scores[u * k + s] = v;
            }
        }
        Ok(Self {
            names,
            unit_names: (0..n).map(|u| u.to_string()).collect(),
            scores,
        })
    }

    /// A table from each system's scores keyed by unit name: units in the
    /// first system's order, matched by name.
    ///
    /// # Errors
    /// As [`from_columns`](Self::from_columns);
    /// [`CompareError::DuplicateUnit`] for a unit a system scores twice;
    /// with [`Missing::Error`], [`CompareError::MissingUnit`] naming the
    /// first unit one system has and another lacks.
    ///
    /// # Complexity
    /// O(n·k) expected (hashing).
    pub fn from_keyed<S, U>(
        systems: &[(S, &[(U, f64)])],
        missing: Missing,
    ) -> Result<Self, CompareError>
    where
        S: AsRef<str>,
        U: AsRef<str>,
    {
        let names = names_of(systems.iter().map(|s| s.0.as_ref()))?;
        let k = systems.len();
        let mut maps: Vec<HashMap<&str, f64>> = Vec::with_capacity(k);
        for (name, scores) in systems {
            let mut map = HashMap::with_capacity(scores.len());
            for (unit, v) in scores.iter() {
                if !v.is_finite() {
                    return Err(CompareError::NotFinite {
                        system: name.as_ref().to_owned(),
                        unit: unit.as_ref().to_owned(),
                        value: *v,
                    });
                }
                if map.insert(unit.as_ref(), *v).is_some() {
                    return Err(CompareError::DuplicateUnit {
                        system: name.as_ref().to_owned(),
                        unit: unit.as_ref().to_owned(),
                    });
                }
            }
            maps.push(map);
        }
        if missing == Missing::Error {
            // Every system has the first system's units, and no other.
            let first = systems[0].0.as_ref();
            for (s, (name, scores)) in systems.iter().enumerate().skip(1) {
                let lacking = |units: &[(U, f64)], map: &HashMap<&str, f64>| {
                    units
                        .iter()
                        .find(|(u, _)| !map.contains_key(u.as_ref()))
                        .map(|(u, _)| u.as_ref().to_owned())
                };
                if let Some(unit) = lacking(systems[0].1, &maps[s]) {
                    return Err(CompareError::MissingUnit {
                        system: name.as_ref().to_owned(),
                        unit,
                        other: first.to_owned(),
                    });
                }
                if let Some(unit) = lacking(scores, &maps[0]) {
                    return Err(CompareError::MissingUnit {
                        system: first.to_owned(),
                        unit,
                        other: name.as_ref().to_owned(),
                    });
                }
            }
        }
        let first: &[(U, f64)] = systems.first().map_or(&[], |s| s.1);
        let kept: Vec<&str> = first
            .iter()
            .map(|(u, _)| u.as_ref())
            .filter(|u| maps.iter().all(|m| m.contains_key(u)))
            .collect();
        let mut scores = Vec::with_capacity(kept.len() * k);
        for u in &kept {
            scores.extend(maps.iter().map(|m| m[u]));
        }
        Ok(Self {
            names,
            unit_names: kept.into_iter().map(str::to_owned).collect(),
            scores,
        })
    }

    /// Names the units (queries, instances, benchmarks), in order.
    ///
    /// # Errors
    /// [`CompareError::LengthMismatch`] (system `"unit names"`) when there
    /// are not as many names as units.
    pub fn with_unit_names<U: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = U>,
    ) -> Result<Self, CompareError> {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.len() != self.units() {
            return Err(CompareError::LengthMismatch {
                system: "unit names".to_owned(),
                len: names.len(),
                expected: self.units(),
            });
        }
        self.unit_names = names;
        Ok(self)
    }

    /// Number of units n.
    #[must_use]
    pub fn units(&self) -> usize {
        self.unit_names.len()
    }

    /// Number of systems k.
    #[must_use]
    pub fn systems(&self) -> usize {
        self.names.len()
    }

    /// The systems' names.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The units' names.
    #[must_use]
    pub fn unit_names(&self) -> &[String] {
        &self.unit_names
    }

    /// The scores of unit `unit`, one per system.
    ///
    /// # Panics
    /// If `unit ≥ n`.
    #[must_use]
    pub fn row(&self, unit: usize) -> &[f64] {
        let k = self.systems();
        &self.scores[unit * k..(unit + 1) * k]
    }

    /// The scores of system `system`, one per unit.
    ///
    /// # Panics
    /// If `system ≥ k`.
    #[must_use]
    pub fn column(&self, system: usize) -> Vec<f64> {
        assert!(system < self.systems(), "system {system} out of range");
        let k = self.systems();
        self.scores
            .iter()
            .skip(system)
            .step_by(k)
            .copied()
            .collect()
    }

    /// All scores, unit by unit (`[unit * k + system]`).
    #[must_use]
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    /// The index of the system named `name`.
    ///
    /// # Errors
    /// [`CompareError::UnknownSystem`].
    pub fn index_of(&self, name: &str) -> Result<usize, CompareError> {
        self.names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| CompareError::UnknownSystem {
                name: name.to_owned(),
            })
    }
}

/// The names, checked for repeats.
fn names_of<'a>(names: impl Iterator<Item = &'a str>) -> Result<Vec<String>, CompareError> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if out.iter().any(|n| n == name) {
            return Err(CompareError::DuplicateSystem {
                name: name.to_owned(),
            });
        }
        out.push(name.to_owned());
    }
    Ok(out)
}
