//! Per-unit scores: each system's mean, each pair's mean difference with
//! its test, interval, effect sizes and win/tie/loss record.

use super::randomisation::{self, Counts};
use super::resample::{self, IntervalSpec};
use super::{
    Bounds, Compare, CompareError, Comparison, Effect, IntervalMethod, PValueMethod,
    PairComparison, ScoreTable, SystemSummary, Test, WilcoxonMethod, WinTieLoss, ttest, wilcoxon,
};
use crate::uncertainty::engine;
use crate::uncertainty::{Alternative, Interval, seeded_rng};
use rand::{Rng, RngExt};

impl Compare {
    /// Compares the systems of `table` on their per-unit scores: each
    /// system's mean, and each pair's mean difference with its test,
    /// interval, effect sizes and corrected decision. Draws one `u64` seed
    /// from `rng` for the test and one for the intervals.
    ///
    /// # Errors
    /// [`CompareError::TooFewSystems`] for k < 2;
    /// [`CompareError::TooFewUnits`] for n < 2 with the t-test, n < 1
    /// otherwise (with one unit, Student intervals are `None`); [`CompareError::InvalidAlpha`],
    /// [`UncertaintyError::InvalidLevel`](crate::uncertainty::UncertaintyError::InvalidLevel), too few or too many replicates
    /// ([`UncertaintyError::TooFewReplicates`](crate::uncertainty::UncertaintyError::TooFewReplicates),
    /// [`UncertaintyError::TooLarge`](crate::uncertainty::UncertaintyError::TooLarge)), an invalid baseline; the exact
    /// Wilcoxon distribution beyond [`Wilcoxon::MAX_EXACT`](super::Wilcoxon::MAX_EXACT) units.
    ///
    /// # Complexity
    /// O(k·n) for the means; per pair O(n) (t), O(n log n) (Wilcoxon
    /// normal; O(n³) exact), O(2^(n/2)·n) (exact randomisation); shared by
    /// all pairs O(m·n·k) for m random sign vectors or resamples, then
    /// O(m) a pair. Memory O(n·k + B·k) for B resamples.
    ///
    /// # Examples
    /// See the [module docs](super).
    pub fn units<R: Rng + ?Sized>(
        &self,
        table: &ScoreTable,
        rng: &mut R,
    ) -> Result<Comparison, CompareError> {
        let test_seed: u64 = rng.random();
        let interval_seed: u64 = rng.random();
        let settings = self.settings(true);
        let (k, n) = (table.systems(), table.units());
        let pairs = self.pair_list(k)?;
        self.check(&settings, k)?;
        let needed = if self.test == Test::PairedT { 2 } else { 1 };
        if n < needed {
            return Err(CompareError::TooFewUnits {
                method: if needed == 2 {
                    "the paired t-test"
                } else {
                    "a comparison"
                },
                needed,
                got: n,
            });
        }
        // The scores system by system: column a is columns[a·n..(a + 1)·n].
        let columns: Vec<f64> = (0..k).flat_map(|s| table.column(s)).collect();
        let column = |a: usize| &columns[a * n..(a + 1) * n];
        let means: Vec<f64> = (0..k)
            .map(|a| crate::sum::neumaier(column(a).iter().copied()) / n as f64)
            .collect();
        let abs_sums: Vec<f64> = (0..k)
            .map(|a| column(a).iter().map(|x| x.abs()).sum())
            .collect();
        let spec = IntervalSpec {
            level: self.level,
            interval: match settings.interval {
                IntervalMethod::Bootstrap(i) => i,
                IntervalMethod::Student => Interval::Percentile,
            },
            alternative: self.alternative,
        };
        // The bootstrap, shared: every system's mean on every resample.
        let resamples = self.replicates;
        let boot = (matches!(settings.interval, IntervalMethod::Bootstrap(_))
            || self.test == Test::Bootstrap)
            .then(|| {
                resample::matrix(n, k, resamples, interval_seed, self.threads, |idx, out| {
                    out.fill(0.0);
                    for &i in idx {
                        for (o, x) in out.iter_mut().zip(table.row(i)) {
                            *o += x;
                        }
                    }
                    out.iter_mut().for_each(|o| *o /= n as f64);
                })
            });
        let boot_of = |a: usize| {
            boot.as_deref()
                .map(|m| &m[a * resamples..(a + 1) * resamples])
        };
        let student = |x: &[f64]| {
            (n >= 2).then(|| Bounds::new(ttest::student_interval(x, self.level, self.alternative)))
        };
        let workers = self.threads.count();
        // Systems.
        let systems: Vec<SystemSummary> = crate::threads::map((0..k).collect(), workers, |s| {
            let interval = match (settings.interval, boot_of(s)) {
                (IntervalMethod::Bootstrap(_), Some(values)) => resample::summarise(
                    values.to_vec(),
                    means[s],
                    randomisation::tolerance(abs_sums[s] / n as f64),
                    spec,
                    || Ok(leave_one_out_means(column(s))),
                )
                .interval
                .ok()
                .map(Bounds::new),
                _ => student(column(s)),
            };
            SystemSummary {
                name: table.names()[s].clone(),
                estimate: means[s],
                interval,
            }
        });
        // Randomisation: exact per pair, or random sign vectors shared by all.
        let exact = n <= self.exact_up_to;
        let flips: Vec<Counts> = if self.test == Test::Randomisation && !exact {
            let tols: Vec<f64> = pairs
                .iter()
                .map(|&(a, b)| randomisation::tolerance(abs_sums[a] + abs_sums[b]))
                .collect();
            self.monte_carlo(&columns, n, k, &pairs, &tols, test_seed)
        } else {
            Vec::new()
        };
        let jobs: Vec<(usize, (usize, usize))> = pairs.iter().copied().enumerate().collect();
        let out = crate::threads::map(jobs, workers, |(i, (a, b))| {
            let d: Vec<f64> = column(a)
                .iter()
                .zip(column(b))
                .map(|(x, y)| x - y)
                .collect();
            let difference = means[a] - means[b];
            let boot_pair = match (boot_of(a), boot_of(b)) {
                (Some(va), Some(vb)) => Some(resample::summarise(
                    va.iter().zip(vb).map(|(x, y)| x - y).collect(),
                    difference,
                    randomisation::tolerance((abs_sums[a] + abs_sums[b]) / n as f64),
                    spec,
                    || Ok(leave_one_out_means(&d)),
                )),
                _ => None,
            };
            let interval = match settings.interval {
                IntervalMethod::Student => student(&d),
                IntervalMethod::Bootstrap(_) => {
                    boot_pair.and_then(|r| r.interval.ok()).map(Bounds::new)
                }
            };
            let (statistic, p_value, method) = match self.test {
                Test::PairedT => {
                    let t = ttest::paired_t(&d, self.alternative);
                    (t.t, t.p, PValueMethod::StudentT { df: t.df })
                }
                Test::Wilcoxon(options) => {
                    let w = wilcoxon::signed_rank(&d, options, self.alternative)?;
                    let statistic = if self.alternative == Alternative::TwoSided {
                        w.r_plus.min(w.r_minus)
                    } else {
                        w.r_plus
                    };
                    let z = (w.method == WilcoxonMethod::Asymptotic).then_some(w.z);
                    let method = PValueMethod::Wilcoxon {
                        method: w.method,
                        r_plus: w.r_plus,
                        r_minus: w.r_minus,
                        z,
                    };
                    (statistic, w.p, method)
                }
                Test::Randomisation => {
                    let counts = if exact {
                        let tol = randomisation::tolerance(abs_sums[a] + abs_sums[b]);
                        randomisation::exact_counts(&d, tol)
                    } else {
                        flips[i]
                    };
                    let (p, se) = randomisation::p_value(counts, exact, self.alternative);
                    let method = match se {
                        Some(standard_error) => PValueMethod::MonteCarlo {
                            replicates: counts.total,
                            standard_error,
                        },
                        None => PValueMethod::Exact {
                            assignments: counts.total,
                        },
                    };
                    (difference, p, method)
                }
                Test::Bootstrap => {
                    let counts = boot_pair.map_or(Counts::default(), |r| r.counts);
                    let (p, se) = randomisation::p_value(counts, false, self.alternative);
                    let method = PValueMethod::MonteCarlo {
                        replicates: counts.total,
                        standard_error: se.unwrap_or(0.0),
                    };
                    (difference, p, method)
                }
            };
            let (cohens_dz, hedges_gz) = ttest::effect_sizes(&d);
            let wins = d.iter().filter(|&&x| x > 0.0).count();
            let losses = d.iter().filter(|&&x| x < 0.0).count();
            Ok(PairComparison {
                a,
                b,
                difference,
                interval,
                effect: Some(Effect {
                    cohens_dz,
                    hedges_gz,
                }),
                record: Some(WinTieLoss {
                    wins,
                    ties: n - wins - losses,
                    losses,
                }),
                statistic,
                p_value,
                method,
                adjusted_p_value: p_value,
                reject: false,
            })
        })
        .into_iter()
        .collect::<Result<Vec<_>, CompareError>>()?;
        self.finish("mean", n, systems, out, settings)
    }

    /// [`units`](Self::units) with a seed in place of the generator: the
    /// same result for a seed on any number of threads and in every release.
    ///
    /// # Errors
    /// As [`units`](Self::units).
    ///
    /// # Complexity
    /// As [`units`](Self::units).
    ///
    /// # Examples
    /// See the [module docs](super).
    pub fn units_seeded(&self, table: &ScoreTable, seed: u64) -> Result<Comparison, CompareError> {
        self.units(table, &mut seeded_rng(seed))
    }

    /// The Monte-Carlo counts of every pair from shared random sign
    /// vectors (`columns`: k columns of n scores, one after another).
    fn monte_carlo(
        &self,
        columns: &[f64],
        n: usize,
        k: usize,
        pairs: &[(usize, usize)],
        tols: &[f64],
        seed: u64,
    ) -> Vec<Counts> {
        let mut observed = vec![0.0; k];
        randomisation::signed_sums(columns, &vec![1.0; n], &mut observed);
        let mut counts = vec![
            Counts {
                total: self.replicates as u64,
                ..Counts::default()
            };
            pairs.len()
        ];
        let Ok(()) = engine::for_each(
            0..self.replicates,
            seed,
            self.threads,
            || vec![0.0; n],
            |signs, _, rng| {
                let mut sums = vec![0.0; k];
                randomisation::random_sums(columns, rng, signs, &mut sums);
                sums
            },
            |_, sums| {
                for ((c, &(a, b)), &tol) in counts.iter_mut().zip(pairs).zip(tols) {
                    let t = sums[a] - sums[b];
                    let obs = observed[a] - observed[b];
                    c.at_least += u64::from(t >= obs - tol);
                    c.at_most += u64::from(t <= obs + tol);
                }
                Ok::<(), core::convert::Infallible>(())
            },
        );
        counts
    }
}

/// The leave-one-out means of `x` (x̄ without item i), for BCa.
fn leave_one_out_means(x: &[f64]) -> Vec<f64> {
    let total = crate::sum::neumaier(x.iter().copied());
    let m = (x.len() as f64 - 1.0).max(1.0);
    x.iter().map(|v| (total - v) / m).collect()
}
