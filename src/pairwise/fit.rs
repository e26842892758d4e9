//! The Bradley–Terry model with Davidson's ties, fitted by maximum
//! likelihood (or maximum a posteriori under a Gaussian prior).

use super::data::Comparisons;
use super::davidson::{self, Curvature, Problem, Settings, Work};
use super::error::{PairwiseError, Result};
use super::graph::{self, Counts, PairIndex};
use super::information::Information;
use super::uncertainty::{self, Inference, Uncertainty};

/// Which model a [`Fit`] is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Model {
    /// [`BradleyTerry`].
    BradleyTerry,
    /// [`NoisyBradleyTerry`](super::NoisyBradleyTerry).
    NoisyBradleyTerry,
}

/// One worker's parameters in the noisy model.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorkerFit {
    /// The worker's name.
    pub name: String,
    /// The probability r that an answer follows the model (1 − r: a
    /// careless answer).
    pub reliability: f64,
    /// The probability that a careless answer picks the item shown first
    /// (`None` when the records do not say which was shown first: careless
    /// answers are then even between the two).
    pub bias: Option<f64>,
    /// The probability that a careless answer is a tie (`None` without
    /// ties).
    pub careless_ties: Option<f64>,
    /// The worker's comparisons.
    pub comparisons: usize,
}

/// A fitted model: each item's score, and how the fit went.
///
/// Scores are natural logarithms of Bradley–Terry strengths, centred
/// (mean 0): the odds that item i beats item j are e^(θᵢ − θⱼ), the
/// parameters choix returns.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fit {
    /// The model.
    pub model: Model,
    /// The items, by index.
    pub items: Vec<String>,
    /// θᵢ, centred.
    pub scores: Vec<f64>,
    /// Davidson's tie parameter ν (`None` when no comparison is a tie: ν = 0).
    pub tie: Option<f64>,
    /// The workers' parameters (noisy model only).
    pub workers: Vec<WorkerFit>,
    /// The log-likelihood at the fitted parameters.
    pub log_likelihood: f64,
    /// The prior's standard deviation σ (`None`: maximum likelihood).
    pub prior_sd: Option<f64>,
    /// Iterations run (Newton steps; EM steps for the noisy model).
    pub iterations: usize,
    /// The largest absolute component of the gradient of the objective at
    /// the end (at most the tolerance).
    pub gradient: f64,
    /// The number of comparisons.
    pub comparisons: usize,
}

impl Fit {
    /// Item indices by decreasing score (equal scores by index).
    #[must_use]
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.scores.len()).collect();
        order.sort_by(|&a, &b| self.scores[b].total_cmp(&self.scores[a]).then(a.cmp(&b)));
        order
    }

    /// The probability that item `i` beats item `j` (Davidson: ties
    /// excluded from neither side; `P(i) + P(j) + P(tie) = 1`).
    #[must_use]
    pub fn win_probability(&self, i: usize, j: usize) -> f64 {
        let h = 0.5 * (self.scores[i] - self.scores[j]);
        match self.tie {
            Some(nu) => davidson::probabilities(h, nu.ln(), true).1,
            None => davidson::probabilities(h, 0.0, false).1,
        }
    }

    /// Standard errors, intervals on scores and ranks, P(top k) and the
    /// settled top k from the observed information at the fit (the
    /// normal approximation to the posterior, or to the sampling
    /// distribution without a prior): [`Method::Exact`] up to
    /// [`Inference::exact_up_to`] parameters, [`Method::Approximate`]
    /// above. `data` must be the comparisons the model was fitted to.
    ///
    /// The observed information is the negative Hessian of the
    /// log-posterior at the fit, with respect to every parameter (the
    /// scores, ln ν, and the noisy model's worker parameters), so the
    /// scores' standard errors account for the other parameters being
    /// estimated too.
    ///
    /// # Errors
    /// [`PairwiseError::Mismatch`] for other data;
    /// [`PairwiseError::Singular`] when the information is not positive
    /// definite; [`PairwiseError::TooLarge`] for more draws × items than
    /// [`Inference::MAX_DRAW_CELLS`].
    ///
    /// # Complexity
    /// Exact: (n + p)³/3 multiply–adds for p other parameters, plus
    /// (n + p)²/2 per draw; approximate: O(pairs) plus O(n) per draw; and
    /// O(n log n) per draw for the ranks.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons, Inference, Method};
    /// let mut c = Comparisons::new();
    /// for (w, l, times) in [("a", "b", 8), ("b", "a", 2), ("b", "c", 7), ("c", "b", 3), ("c", "a", 1), ("a", "c", 9)] {
    ///     for _ in 0..times {
    ///         c.add_result(w, l, false, None)?;
    ///     }
    /// }
    /// let fit = BradleyTerry::new().fit(&c)?;
    /// let u = fit.uncertainty(&c, &Inference::new().top_k(1)?.seed(7))?;
    /// assert_eq!(u.method, Method::Exact);
    /// let [lo, hi] = u.intervals[0];
    /// assert!(lo < fit.scores[0] && fit.scores[0] < hi);
    /// assert!(u.top_k_probability[0] > 0.9); // a is the best, almost surely
    /// assert_eq!(u.rank_intervals[0], [1, 1]);
    /// # Ok::<(), adaptive_comp_metrics::pairwise::PairwiseError>(())
    /// ```
    ///
    /// [`Method::Exact`]: super::Method::Exact
    /// [`Method::Approximate`]: super::Method::Approximate
    pub fn uncertainty(&self, data: &Comparisons, opts: &Inference) -> Result<Uncertainty> {
        let info = self.observed_information(data)?;
        uncertainty::from_information(self, &info, data, opts)
    }

    /// The standard errors of the centred scores and the Wald intervals
    /// θᵢ ± z·SEᵢ at `opts`' level (z the standard-normal quantile) alone,
    /// from the observed information at the fit: the same numbers as
    /// [`uncertainty`](Self::uncertainty)'s `standard_errors` and
    /// `intervals` (of `opts` only `level`, `exact_up_to` and `threads`
    /// matter), without its draws of the scores (rank intervals, P(top k),
    /// the settled top k), which cost more than the standard errors: at
    /// 1000 items, 1000 draws are a product of a 1000 × 1000 matrix with a
    /// triangular one, on top of the factorisation.
    ///
    /// # Errors
    /// As [`uncertainty`](Self::uncertainty), except the limit on draws.
    ///
    /// # Complexity
    /// Exact: (n + p)³/3 multiply–adds; approximate: O(pairs).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons, Inference};
    /// let mut c = Comparisons::new();
    /// for (w, l) in [("a", "b"), ("a", "b"), ("b", "a"), ("b", "c"), ("c", "b"), ("c", "a"), ("a", "c")] {
    ///     c.add_result(w, l, false, None)?;
    /// }
    /// let fit = BradleyTerry::new().fit(&c)?;
    /// let opts = Inference::new();
    /// let (se, intervals) = fit.standard_errors(&c, &opts)?;
    /// let u = fit.uncertainty(&c, &opts)?;
    /// assert_eq!((se, intervals), (u.standard_errors, u.intervals));
    /// # Ok::<(), adaptive_comp_metrics::pairwise::PairwiseError>(())
    /// ```
    pub fn standard_errors(
        &self,
        data: &Comparisons,
        opts: &Inference,
    ) -> Result<(Vec<f64>, Vec<[f64; 2]>)> {
        let info = self.observed_information(data)?;
        let se = uncertainty::standard_errors(&info, opts)?.1;
        let intervals = uncertainty::wald(&self.scores, &se, opts.level);
        Ok((se, intervals))
    }

    /// The observed information of the fit of either model.
    fn observed_information(&self, data: &Comparisons) -> Result<Information> {
        self.check_data(data)?;
        match self.model {
            Model::BradleyTerry => Ok(self.information(data)),
            Model::NoisyBradleyTerry => super::noisy::information(self, data),
        }
    }

    /// The observed information of a Bradley–Terry fit.
    fn information(&self, data: &Comparisons) -> Information {
        let pairs = data.pair_index();
        let counts = pairs.counts(data.records());
        let problem = Problem {
            pairs,
            counts: &counts,
            precision: precision(self.prior_sd),
            ties: self.tie.is_some(),
        };
        let x = self.parameters();
        let mut g = vec![0.0; x.len()];
        let mut curv = Curvature::default();
        problem.gradient(&x, &mut g, Some(&mut curv));
        let n = self.scores.len();
        let mut info = Information {
            n,
            extra: usize::from(problem.ties),
            precision: problem.precision,
            pairs: (0..pairs.len())
                .map(|p| (pairs.a[p], pairs.b[p], curv.c[p]))
                .collect(),
            ..Information::default()
        };
        if problem.ties {
            let mut cross = vec![0.0; n];
            for p in 0..pairs.len() {
                cross[pairs.a[p] as usize] += curv.u[p];
                cross[pairs.b[p] as usize] -= curv.u[p];
            }
            info.cross = cross
                .iter()
                .enumerate()
                .filter(|(_, u)| **u != 0.0)
                .map(|(i, u)| (i as u32, 0, *u))
                .collect();
            info.extra_block = vec![(0, 0, curv.ll)];
        }
        info
    }

    pub(crate) fn check_data(&self, data: &Comparisons) -> Result<()> {
        if data.n_items() != self.items.len() || data.len() != self.comparisons {
            return Err(PairwiseError::Mismatch {
                fit_items: self.items.len(),
                fit_comparisons: self.comparisons,
                items: data.n_items(),
                comparisons: data.len(),
            });
        }
        Ok(())
    }

    /// The parameter vector (θ, then λ = ln ν with ties).
    pub(crate) fn parameters(&self) -> Vec<f64> {
        let mut x = self.scores.clone();
        if let Some(nu) = self.tie {
            x.push(nu.ln());
        }
        x
    }
}

/// The Bradley–Terry model (Bradley & Terry 1952) with Davidson's (1970)
/// ties, fitted by maximum likelihood, or by maximum a posteriori under a
/// Gaussian prior θᵢ ~ N(0, σ²) (ℓ2 regularisation with penalty
/// Σθᵢ²/(2σ²)).
///
/// ```text
/// P(i beats j) = πᵢ/(πᵢ + πⱼ + ν√(πᵢπⱼ)),   P(tie) = ν√(πᵢπⱼ)/(πᵢ + πⱼ + ν√(πᵢπⱼ)),   θ = ln π
/// ```
///
/// # Why Davidson's ties
/// A campaign records a tie as half a win for each item (Lombardo et al.
/// 2020, footnote 4). Davidson's model is the Bradley–Terry extension in
/// which exactly that count, wins + ties/2, is each item's sufficient
/// statistic, so the model ranks on the information the paper's Borda
/// score uses; the odds of i winning against j winning stay e^(θᵢ−θⱼ), as
/// without ties; and the tie probability is largest for equal items and
/// falls as they move apart. Rao & Kupper's (1967) model instead counts a
/// tie as a full win for both items and changes the win odds. Without any
/// tie in the data ν = 0 and the model is the plain Bradley–Terry model.
///
/// # Fitting
/// Newton's method on (θ, ln ν), each step solved by conjugate gradients
/// on the sparse Hessian (O(distinct pairs) per product), with a line
/// search; it stops when the largest component of the gradient is at most
/// the tolerance (default 10⁻⁹): a rule on the gradient, not on the step,
/// so a slow step never passes for convergence. Without a prior the
/// likelihood has a finite maximum only when the comparison graph is
/// connected and every group of items has lost at least once to an item
/// outside it (Ford 1957; Hunter 2004): otherwise the fit is refused with
/// [`PairwiseError::Disconnected`] or [`PairwiseError::NoFiniteMaximum`]
/// naming the items. A prior makes every score finite (an item that won
/// every comparison included) and lets items never compared sit at 0.
///
/// The maximum-likelihood scores equal choix's `ilsr_pairwise` and
/// `mm_pairwise` at α = 0, and the prior's equal choix's `opt_pairwise`
/// with α = 1/(2σ²) (its penalty α·Σθᵢ²), to 10⁻⁶ (tests/data/bt).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::pairwise::{BradleyTerry, Comparisons};
/// let mut c = Comparisons::new();
/// for (w, l) in [("a", "b"), ("a", "b"), ("b", "a"), ("b", "c"), ("c", "a")] {
///     c.add_result(w, l, false, None)?;
/// }
/// let fit = BradleyTerry::new().fit(&c)?;
/// assert_eq!(fit.order(), [0, 1, 2]); // a, b, c
/// assert!(fit.scores.iter().sum::<f64>().abs() < 1e-12); // centred
///
/// // One more item that won its only comparison: no finite maximum
/// // without a prior, a finite score with one.
/// c.add_result("d", "a", false, None)?;
/// assert!(BradleyTerry::new().fit(&c).is_err());
/// let fit = BradleyTerry::new().prior_sd(2.0)?.fit(&c)?;
/// assert_eq!(fit.order()[0], 3);
/// # Ok::<(), adaptive_comp_metrics::pairwise::PairwiseError>(())
/// ```
///
/// # Complexity
/// O(m log m) to aggregate m comparisons into P distinct pairs, then
/// O(P) per conjugate-gradient step; a few Newton steps of tens of CG steps
/// each on well-connected data.
///
/// # References
/// - R. A. Bradley, M. E. Terry (1952). Rank analysis of incomplete block
///   designs: I. The method of paired comparisons. *Biometrika* 39, 324–345.
/// - R. R. Davidson (1970). On extending the Bradley–Terry model to
///   accommodate ties in paired comparison experiments. *JASA* 65, 317–328.
/// - L. R. Ford (1957). Solution of a ranking problem from binary
///   comparisons. *Amer. Math. Monthly* 64(8), 28–33.
/// - D. R. Hunter (2004). MM algorithms for generalized Bradley–Terry
///   models. *Ann. Statist.* 32(1), 384–406.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BradleyTerry {
    pub(crate) prior_sd: Option<f64>,
    pub(crate) tolerance: f64,
    pub(crate) max_iterations: usize,
}

impl Default for BradleyTerry {
    fn default() -> Self {
        Self::new()
    }
}

/// The setters of the three settings every maximum-likelihood model here
/// has (fields `prior_sd`, `tolerance`, `max_iterations`), checked alike:
/// `gradient` names what the tolerance bounds, `steps` what is counted.
macro_rules! fit_settings {
    ($model:ident, gradient: $gradient:literal, steps: $steps:literal) => {
        impl $model {
            /// A Gaussian prior N(0, σ²) on every score (σ = ∞: none).
            ///
            /// # Errors
            /// [`PairwiseError::InvalidParameter`](crate::pairwise::PairwiseError::InvalidParameter)
            /// unless σ > 0 (NaN refused).
            pub fn prior_sd(mut self, sd: f64) -> $crate::pairwise::error::Result<Self> {
                self.prior_sd = $crate::pairwise::fit::check_prior(sd)?;
                Ok(self)
            }

            #[doc = concat!("The largest ", $gradient, " at which the fit stops.")]
            ///
            /// # Errors
            /// [`PairwiseError::InvalidParameter`](crate::pairwise::PairwiseError::InvalidParameter)
            /// unless positive and finite.
            pub fn tolerance(mut self, tolerance: f64) -> $crate::pairwise::error::Result<Self> {
                self.tolerance = $crate::pairwise::fit::check_tolerance(tolerance)?;
                Ok(self)
            }

            #[doc = concat!("The most ", $steps, ".")]
            #[must_use]
            pub fn max_iterations(mut self, n: usize) -> Self {
                self.max_iterations = n;
                self
            }
        }
    };
}
pub(crate) use fit_settings;

fit_settings!(
    BradleyTerry,
    gradient: "absolute component of the gradient",
    steps: "Newton steps"
);

impl BradleyTerry {
    /// Maximum likelihood, tolerance 10⁻⁹ on the gradient, at most 200
    /// Newton steps.
    #[must_use]
    pub fn new() -> Self {
        Self {
            prior_sd: None,
            tolerance: 1e-9,
            max_iterations: 200,
        }
    }

    /// The prior's σ, if any.
    #[must_use]
    pub fn prior(&self) -> Option<f64> {
        self.prior_sd
    }

    /// Fits the model to `data`.
    ///
    /// # Errors
    /// [`PairwiseError::Empty`]; without a prior,
    /// [`PairwiseError::Disconnected`] and
    /// [`PairwiseError::NoFiniteMaximum`]; [`PairwiseError::OnlyTies`];
    /// [`PairwiseError::NotConverged`].
    pub fn fit(&self, data: &Comparisons) -> Result<Fit> {
        if data.is_empty() {
            return Err(PairwiseError::Empty);
        }
        let pairs = data.pair_index();
        let counts = pairs.counts(data.records());
        let threads = crate::threads::workers_for(pairs.len());
        self.fit_counts(data, pairs, &counts, None, &mut Work::with_threads(threads))
    }

    /// The fit of `counts` (weights per pair) from `start` (or the default
    /// start), with scratch space `work`.
    pub(crate) fn fit_counts(
        &self,
        data: &Comparisons,
        pairs: &PairIndex,
        counts: &Counts,
        start: Option<&[f64]>,
        work: &mut Work,
    ) -> Result<Fit> {
        let mut x = Vec::new();
        let (problem, outcome) =
            self.solve_counts(data.items(), pairs, counts, start, work, &mut x)?;
        let n = data.n_items();
        Ok(Fit {
            model: Model::BradleyTerry,
            items: data.items().to_vec(),
            scores: x[..n].to_vec(),
            tie: problem.ties.then(|| x[n].exp()),
            workers: Vec::new(),
            log_likelihood: problem.log_likelihood(&x),
            prior_sd: self.prior_sd,
            iterations: outcome.iterations,
            gradient: outcome.gradient,
            comparisons: data.len(),
        })
    }

    /// The parameters (θ, then λ with ties) fitted to `counts` into `x`,
    /// from `start` (or the default start): the fit without what only a
    /// [`Fit`] reports (a bootstrap replicate needs the scores alone, not
    /// the log-likelihood's logarithm a pair). `names` name the items in
    /// the errors.
    pub(crate) fn solve_counts<'a>(
        &self,
        names: &[String],
        pairs: &'a PairIndex,
        counts: &'a Counts,
        start: Option<&[f64]>,
        work: &mut Work,
        x: &mut Vec<f64>,
    ) -> Result<(Problem<'a>, davidson::Outcome)> {
        let (ties, total) = counts.totals();
        if ties > 0.0 && ties >= total {
            return Err(PairwiseError::OnlyTies);
        }
        if self.prior_sd.is_none() {
            graph::check_finite(pairs, counts, names)?;
        }
        let problem = Problem {
            pairs,
            counts,
            precision: precision(self.prior_sd),
            ties: ties > 0.0,
        };
        x.clear();
        match start {
            Some(s) if s.len() == problem.dim() => x.extend_from_slice(s),
            _ => x.extend(davidson::start(&problem)),
        }
        let outcome = davidson::newton(
            &problem,
            x,
            Settings {
                tolerance: self.tolerance,
                max_iterations: self.max_iterations,
                gradient_merit: true,
            },
            work,
        );
        if !outcome.converged {
            return Err(PairwiseError::NotConverged {
                iterations: outcome.iterations,
                gradient: outcome.gradient,
                tolerance: self.tolerance,
            });
        }
        Ok((problem, outcome))
    }
}

/// 1/σ², 0 without a prior.
pub(crate) fn precision(sd: Option<f64>) -> f64 {
    sd.map_or(0.0, |s| 1.0 / (s * s))
}

pub(crate) fn check_prior(sd: f64) -> Result<Option<f64>> {
    if sd.is_nan() || sd <= 0.0 {
        return Err(PairwiseError::InvalidParameter {
            name: "prior_sd",
            expected: "a positive standard deviation (infinity: no prior)",
        });
    }
    Ok(sd.is_finite().then_some(sd))
}

pub(crate) fn check_tolerance(t: f64) -> Result<f64> {
    if !(t > 0.0 && t.is_finite()) {
        return Err(PairwiseError::InvalidParameter {
            name: "tolerance",
            expected: "a positive finite number",
        });
    }
    Ok(t)
}
