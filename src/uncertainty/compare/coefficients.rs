//! Coefficients over all items: k models scored against the same human
//! scores, compared by the paired permutation test or the paired bootstrap.

use super::randomisation;
use super::resample::{self, IntervalSpec};
use super::{
    Bounds, Compare, CompareError, Comparison, IntervalMethod, PValueMethod, PairComparison,
    ScoreTable, SystemSummary, Test,
};
use crate::uncertainty::engine::replicate_rng;
use crate::uncertainty::permutation::{Permutations, finite};
use crate::uncertainty::statistic::Statistic;
use crate::uncertainty::{Interval, UncertaintyError, seeded_rng};
use rand::{Rng, RngExt};

impl Compare {
    /// Compares k models by a coefficient `statistic` of each model's
    /// scores (a column of `models`, one row per item) against the same
    /// `human` scores: each model's coefficient with its bootstrap
    /// interval, and each pair's difference of coefficients with the paired
    /// permutation test ([`Test::Randomisation`]) or the paired bootstrap
    /// test ([`Test::Bootstrap`]) and the paired bootstrap interval, items
    /// resampled jointly. Draws one `u64` seed from `rng` for the tests and
    /// one for the intervals.
    ///
    /// # Errors
    /// [`CompareError::NotApplicable`] for the t-test, Wilcoxon's test or
    /// Student intervals (per-unit methods);
    /// [`CompareError::LengthMismatch`] when `human` and `models` differ in
    /// items; [`UncertaintyError::TooFewItems`] for n < 3; NaN or infinite
    /// human scores; a coefficient undefined on the observed data; as
    /// [`units`](Self::units) for the options.
    ///
    /// # Complexity
    /// k(B + n) evaluations of the statistic (n for BCa), plus 2(m + 1) a
    /// pair for the permutation test.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable};
    /// use adaptive_comp_metrics::uncertainty::Spearman;
    /// let human: Vec<f64> = (0..40).map(f64::from).collect();
    /// let noisy = |amp: f64| -> Vec<f64> { human.iter().map(|h| h + amp * (h * 1.7).sin()).collect() };
    /// let models = ScoreTable::from_columns(&[("good", noisy(2.0)), ("poor", noisy(40.0))])?;
    /// let c = Compare::new().replicates(999).coefficients_seeded(&Spearman, &human, &models, 3)?;
    /// let p = &c.pairs[0];
    /// assert!(p.difference > 0.0 && p.reject && p.interval.unwrap().lower > 0.0);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::compare::CompareError>(())
    /// ```
    pub fn coefficients<S, R>(
        &self,
        statistic: &S,
        human: &[f64],
        models: &ScoreTable,
        rng: &mut R,
    ) -> Result<Comparison, CompareError>
    where
        S: Statistic + ?Sized,
        R: Rng + ?Sized,
    {
        let test_seed: u64 = rng.random();
        let interval_seed: u64 = rng.random();
        let settings = self.settings(false);
        match (self.test, settings.interval) {
            (Test::PairedT | Test::Wilcoxon(_), _) => {
                return Err(CompareError::NotApplicable {
                    what: "a per-unit test",
                    reason: "a coefficient over all items has no per-unit scores: use the \
                             randomisation (paired permutation) or the bootstrap test",
                });
            }
            (_, IntervalMethod::Student) => {
                return Err(CompareError::NotApplicable {
                    what: "a Student interval",
                    reason: "a coefficient over all items is not a mean: use a bootstrap interval",
                });
            }
            _ => {}
        }
        let (k, n) = (models.systems(), models.units());
        let pairs = self.pair_list(k)?;
        self.check(&settings, k)?;
        if human.len() != n {
            return Err(CompareError::LengthMismatch {
                system: "human".to_owned(),
                len: human.len(),
                expected: n,
            });
        }
        crate::uncertainty::check_len(n)?;
        crate::correlation::error::check_finite("human", human)?;
        let columns: Vec<Vec<f64>> = (0..k).map(|s| models.column(s)).collect();
        let values: Vec<f64> = columns
            .iter()
            .map(|c| finite(statistic.value(human, c)))
            .collect::<Result<_, _>>()?;
        let IntervalMethod::Bootstrap(kind) = settings.interval else {
            unreachable!("Student intervals are refused above");
        };
        let spec = IntervalSpec {
            level: self.level,
            interval: kind,
            alternative: self.alternative,
        };
        let on = |idx: &[usize], a: usize| -> f64 {
            let h: Vec<f64> = idx.iter().map(|&i| human[i]).collect();
            let m: Vec<f64> = idx.iter().map(|&i| columns[a][i]).collect();
            finite(statistic.value(&h, &m)).unwrap_or(f64::NAN)
        };
        let boot = resample::matrix(
            n,
            k,
            self.replicates,
            interval_seed,
            self.threads,
            |idx, out| {
                for (a, o) in out.iter_mut().enumerate() {
                    *o = on(idx, a);
                }
            },
        );
        // Leave-one-out coefficients of every model, computed once, for BCa.
        let jack: Option<Vec<f64>> = (kind == Interval::Bca).then(|| {
            resample::matrix_jackknife(n, k, self.threads, |idx, out| {
                for (a, o) in out.iter_mut().enumerate() {
                    *o = on(idx, a);
                }
            })
        });
        let tol = |v: f64| 1e-12 * v.abs().max(1.0);
        let systems: Vec<SystemSummary> = (0..k)
            .map(|s| {
                let column = boot[s * self.replicates..(s + 1) * self.replicates].to_vec();
                let r = resample::summarise(column, values[s], tol(values[s]), spec, || {
                    jackknife_of(jack.as_deref(), k, |r| r[s])
                });
                SystemSummary {
                    name: models.names()[s].clone(),
                    estimate: values[s],
                    interval: r.interval.ok().map(Bounds::new),
                }
            })
            .collect();
        let mut out = Vec::with_capacity(pairs.len());
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let difference = values[a] - values[b];
            let (va, vb) = (
                &boot[a * self.replicates..(a + 1) * self.replicates],
                &boot[b * self.replicates..(b + 1) * self.replicates],
            );
            let column: Vec<f64> = va.iter().zip(vb).map(|(x, y)| x - y).collect();
            let r = resample::summarise(column, difference, tol(difference), spec, || {
                jackknife_of(jack.as_deref(), k, |r| r[a] - r[b])
            });
            let interval = r.interval.ok().map(Bounds::new);
            let (p_value, method) = match self.test {
                Test::Bootstrap => {
                    let (p, se) = randomisation::p_value(r.counts, false, self.alternative);
                    (
                        p,
                        PValueMethod::MonteCarlo {
                            replicates: r.counts.total,
                            standard_error: se.unwrap_or(0.0),
                        },
                    )
                }
                _ => {
                    let t = Permutations::new(self.replicates)
                        .alternative(self.alternative)
                        .exchange(self.exchange)
                        .threads(self.threads)
                        .max_replicates(self.max_replicates)
                        .paired(
                            statistic,
                            human,
                            &columns[a],
                            &columns[b],
                            &mut replicate_rng(test_seed, i),
                        )?;
                    (
                        t.p_value,
                        PValueMethod::MonteCarlo {
                            replicates: t.permutations as u64,
                            standard_error: t.standard_error,
                        },
                    )
                }
            };
            out.push(PairComparison {
                a,
                b,
                difference,
                interval,
                effect: None,
                record: None,
                statistic: difference,
                p_value,
                method,
                adjusted_p_value: p_value,
                reject: false,
            });
        }
        self.finish("coefficient", n, systems, out, settings)
    }

    /// [`coefficients`](Self::coefficients) with a seed in place of the
    /// generator.
    ///
    /// # Errors
    /// As [`coefficients`](Self::coefficients).
    ///
    /// # Complexity
    /// As [`coefficients`](Self::coefficients).
    ///
    /// # Examples
    /// See [`coefficients`](Self::coefficients).
    pub fn coefficients_seeded<S: Statistic + ?Sized>(
        &self,
        statistic: &S,
        human: &[f64],
        models: &ScoreTable,
        seed: u64,
    ) -> Result<Comparison, CompareError> {
        self.coefficients(statistic, human, models, &mut seeded_rng(seed))
    }
}

/// The leave-one-out values `f(row)` of a jackknife matrix (n rows of k).
fn jackknife_of(
    jack: Option<&[f64]>,
    k: usize,
    f: impl Fn(&[f64]) -> f64,
) -> Result<Vec<f64>, UncertaintyError> {
    let theta: Vec<f64> = jack.unwrap_or_default().chunks_exact(k).map(f).collect();
    if let Some(left_out) = theta.iter().position(|t| t.is_nan()) {
        return Err(UncertaintyError::Jackknife {
            left_out,
            source: crate::correlation::CorrelationError::Undefined {
                reason: "the statistic is undefined without this item",
            },
        });
    }
    Ok(theta)
}
