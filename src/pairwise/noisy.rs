//! The noisy Bradley–Terry model: each worker answers by the model with a
//! probability (their reliability) and carelessly otherwise, so careless
//! workers weigh less without a hard exclusion.

use super::data::{Comparisons, NO_WORKER, Record};
use super::davidson::{self, Problem, Settings, Work, max_abs, probabilities};
use super::error::{PairwiseError, Result};
use super::fit::{Fit, Model, WorkerFit, precision};
use super::graph::{self, Counts, PairIndex};
use crate::ballot::Vote;

mod information;
pub(crate) use information::information;

/// The noisy Bradley–Terry model of Crowd-Kit's `NoisyBradleyTerry`, with
/// Davidson's ties.
///
/// ```text
/// P(answer of worker w on (a, b)) = r_w·P_D(answer | θ_a − θ_b, ν) + (1 − r_w)·C_w(answer)
/// C_w(first) = (1 − κ_w)·β_w,  C_w(second) = (1 − κ_w)·(1 − β_w),  C_w(tie) = κ_w
/// ```
///
/// P_D is the Davidson–Bradley–Terry model of [`BradleyTerry`]; r_w is the
/// worker's reliability, β_w their careless leaning towards the item shown
/// first (½, not estimated, when the records do not say which was shown
/// first: [`Comparisons::shown_in_order`]), κ_w their careless share of
/// ties (estimated only when there are ties). Records without a worker
/// follow the model (r = 1). Without ties and with positions this is
/// Crowd-Kit's model, P = r·σ(±(s_a − s_b)) + (1 − r)·σ(±q), r = σ(γ),
/// β = σ(q).
///
/// # Fitting
/// Expectation–maximisation (Dempster, Laird & Rubin 1977): the E-step
/// gives each answer the posterior probability that it followed the model;
/// the M-step sets each worker's r, β, κ in closed form and moves (θ, ln ν)
/// by Newton steps on the Bradley–Terry likelihood with the answers so
/// weighted (an ECM step, Meng & Rubin 1993), then (without positions
/// and ties, where r is a worker's only parameter) sets each worker's
/// reliability to the likelihood's maximum over it given the rest (ECME,
/// Liu & Rubin 1994; EM's own update approaches a reliability of 0, a
/// worker answering at random, by a factor near 1 a step): every
/// iteration raises the likelihood; SQUAREM (Varadhan & Roland 2008)
/// extrapolates the iterations. It stops when the largest component of the projected
/// gradient of the log-posterior (each of r, β, κ kept in [0, 1]) is at
/// most the tolerance (default 10⁻⁶): a reliability may converge to 1 (a
/// worker the model explains fully) or 0. Like Crowd-Kit's, the likelihood
/// may have several local maxima; the fit starts from the plain
/// Bradley–Terry scores with every reliability 0.9.
///
/// Crowd-Kit's `NoisyBradleyTerry` (1.4.2) minimises with L-BFGS-B a
/// gradient that does not match its objective (the bias derivative is
/// written one slot off, and assigned rather than summed over a worker's
/// answers; its regularisation enters objective and gradient with opposite
/// signs), so it stops short of its optimum: on the crate's reference sets
/// its log-likelihood is hundreds of units below the maximum. The tests
/// compare with its model's maximum found by an independent optimiser
/// (tests/data/bt), and check that the likelihood here is never below
/// Crowd-Kit's.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::ballot::Vote;
/// use adaptive_comp_metrics::pairwise::{Comparisons, NoisyBradleyTerry};
/// let mut c = Comparisons::new().shown_in_order(true);
/// // "ann" orders a > b > c; "spam" always picks the item shown first.
/// for (first, second) in [("a", "b"), ("b", "c"), ("a", "c"), ("c", "a"), ("b", "a"), ("c", "b")] {
///     let ann = if first < second { Vote::First } else { Vote::Second };
///     for _ in 0..5 {
///         c.add_named(first, second, ann, Some("ann"))?;
///         c.add_named(first, second, Vote::First, Some("spam"))?;
///     }
/// }
/// // A weak prior: ann's answers alone have no finite maximum.
/// let fit = NoisyBradleyTerry::new().prior_sd(3.0)?.fit(&c)?;
/// assert_eq!(fit.order(), [0, 1, 2]);
/// let (ann, spam) = (&fit.workers[0], &fit.workers[1]);
/// assert!(ann.reliability > 0.9 && spam.reliability < 0.6);
/// assert!(spam.bias.unwrap() > 0.9);
/// # Ok::<(), adaptive_comp_metrics::pairwise::PairwiseError>(())
/// ```
///
/// # Complexity
/// O(m) per EM iteration for m comparisons, plus the Newton steps of the
/// M-step (O(distinct pairs) per conjugate-gradient step).
///
/// # References
/// - A. P. Dempster, N. M. Laird, D. B. Rubin (1977). Maximum likelihood from
///   incomplete data via the EM algorithm. *JRSS B* 39(1), 1–38.
/// - X.-L. Meng, D. B. Rubin (1993). Maximum likelihood estimation via the ECM
///   algorithm. *Biometrika* 80(2), 267–278.
/// - C. Liu, D. B. Rubin (1994). The ECME algorithm: a simple extension of
///   EM and ECM with faster monotone convergence. *Biometrika* 81(4),
///   633–648.
/// - R. Varadhan, C. Roland (2008). Simple and globally convergent methods
///   for accelerating the convergence of any EM algorithm. *Scand. J.
///   Statist.* 35(2), 335–353.
/// - X. Chen, P. N. Bennett, K. Collins-Thompson, E. Horvitz (2013).
///   Pairwise ranking aggregation in a crowdsourced setting. *WSDM 2013*
///   (workers' reliability in pairwise comparisons).
/// - Crowd-Kit, `crowdkit.aggregation.NoisyBradleyTerry` (Toloka).
///
/// [`BradleyTerry`]: super::BradleyTerry
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NoisyBradleyTerry {
    prior_sd: Option<f64>,
    tolerance: f64,
    max_iterations: usize,
}

impl Default for NoisyBradleyTerry {
    fn default() -> Self {
        Self::new()
    }
}

/// How close to 0 or 1 a probability may get: at exactly 0 or 1 an EM
/// step could not move it again (r = 1 makes every answer the model's).
const EDGE: f64 = 1e-10;

/// Reliabilities, leanings and careless ties closer than this to 0 or 1
/// count as on the bound (fixed) in the information.
const BOUND: f64 = 1e-7;

super::fit::fit_settings!(
    NoisyBradleyTerry,
    gradient: "component of the projected gradient",
    steps: "EM iterations"
);

impl NoisyBradleyTerry {
    /// Maximum likelihood, tolerance 10⁻⁶ on the projected gradient, at
    /// most 100 000 EM iterations.
    #[must_use]
    pub fn new() -> Self {
        Self {
            prior_sd: None,
            tolerance: 1e-6,
            max_iterations: 100_000,
        }
    }

    /// Fits the model.
    ///
    /// # Errors
    /// As [`BradleyTerry::fit`](super::BradleyTerry::fit);
    /// [`PairwiseError::NotConverged`].
    pub fn fit(&self, data: &Comparisons) -> Result<Fit> {
        if data.is_empty() {
            return Err(PairwiseError::Empty);
        }
        let weights = vec![1.0; data.len()];
        self.fit_weighted(data, &PairIndex::new(data), &weights, None)
    }

    /// The fit with each record weighted (bootstrap replicates), from
    /// `start` when given.
    pub(crate) fn fit_weighted(
        &self,
        data: &Comparisons,
        pairs: &PairIndex,
        weights: &[f64],
        start: Option<&Fit>,
    ) -> Result<Fit> {
        let records = data.records();
        let mut all = Counts::zeros(pairs.len());
        pairs.count_into(records, &mut all, |r| weights[r]);
        let (ties, total) = all.totals();
        if ties > 0.0 && ties >= total {
            return Err(PairwiseError::OnlyTies);
        }
        if self.prior_sd.is_none() {
            graph::check_finite(pairs, &all, data.items())?;
        }
        let layout = Layout::of(data, ties > 0.0);
        let precision = precision(self.prior_sd);
        let mut state = match start {
            Some(f) => State::from_fit(f, &layout),
            None => {
                let problem = Problem {
                    pairs,
                    counts: &all,
                    precision,
                    ties: layout.ties,
                };
                let mut x = davidson::start(&problem);
                let mut work = Work::default();
                davidson::newton(
                    &problem,
                    &mut x,
                    Settings {
                        tolerance: 1e-6,
                        max_iterations: 50,
                        gradient_merit: true,
                    },
                    &mut work,
                );
                State::initial(x, &layout, records, weights)
            }
        };
        let mut em = Em {
            layout: &layout,
            records,
            weights,
            pairs,
            precision,
            work: Work::default(),
            counts: Counts::zeros(pairs.len()),
            q: vec![0.0; records.len()],
            grad: Vec::new(),
            dc: Vec::new(),
        };
        let mut iterations = 0;
        loop {
            let g = state.gradient(
                &layout,
                records,
                weights,
                precision,
                &mut em.q,
                &mut em.grad,
            );
            if g <= self.tolerance {
                if self.prior_sd.is_none() {
                    check_informed(&state, &layout, records, weights, &em.q, data)?;
                }
                return Ok(state.into_fit(
                    data,
                    &layout,
                    self.prior_sd,
                    iterations,
                    g,
                    records,
                    weights,
                ));
            }
            if iterations >= self.max_iterations || !g.is_finite() {
                return Err(PairwiseError::NotConverged {
                    iterations,
                    gradient: g,
                    tolerance: self.tolerance,
                });
            }
            // One SQUAREM cycle (Varadhan & Roland 2008, scheme S3): two
            // EM steps p₁ = F(p₀), p₂ = F(p₁), the extrapolation
            // p₀ − 2αr + α²v (r = p₁ − p₀, v = p₂ − 2p₁ + p₀,
            // α = −‖r‖/‖v‖ ≤ −1) kept in bounds, one more EM step from it;
            // p₂ when that does not raise the log-posterior.
            let before = em.log_posterior(&state);
            let p0 = state.clone();
            em.step(&mut state, true);
            let p1 = state.clone();
            em.step(&mut state, false);
            iterations += 2;
            let p2 = state.clone();
            let (r, v) = (p1.minus(&p0), p2.minus(&p1).minus(&r_of(&p1, &p0)));
            let (rn, vn) = (r.norm(), v.norm());
            if vn > 0.0 && rn > 0.0 {
                let alpha = (-rn / vn).min(-1.0);
                let mut jump = p0.clone();
                jump.axpy(-2.0 * alpha, &r);
                jump.axpy(alpha * alpha, &v);
                jump.clamp(&layout);
                em.step(&mut jump, false);
                iterations += 1;
                let after = em.log_posterior(&jump);
                if after.is_finite() && after >= before {
                    state = jump;
                    continue;
                }
            }
            state = p2;
        }
    }
}

/// Without a prior, the noisy likelihood can rise without bound as an
/// item's score goes to ±∞ even when the plain model's maximum is finite:
/// the careless answers absorb the results it does not fit. The fit then
/// stops where the item's comparisons carry no information. Refuses a fit
/// in which an item's information, Σ q·curvature over its comparisons, is
/// below 10⁻⁶ of its comparisons.
fn check_informed(
    state: &State,
    layout: &Layout,
    records: &[Record],
    weights: &[f64],
    q: &[f64],
    data: &Comparisons,
) -> Result<()> {
    let n = layout.n;
    let mut info = vec![0.0; n];
    let mut count = vec![0.0; n];
    for (k, rec) in records.iter().enumerate() {
        let (_, _, _, pa, pb, pt) = record_terms(&state.x, n, layout.ties, rec);
        let c = weights[k] * q[k] * 0.25 * ((pa + pb) * pt + 4.0 * pa * pb);
        for i in [rec.first as usize, rec.second as usize] {
            info[i] += c;
            count[i] += weights[k];
        }
    }
    let drifted: Vec<usize> = (0..n)
        .filter(|&i| count[i] > 0.0 && info[i] < 1e-6 * count[i])
        .collect();
    if drifted.is_empty() {
        return Ok(());
    }
    Err(PairwiseError::Uninformed {
        items: drifted
            .iter()
            .take(5)
            .map(|&i| data.items()[i].clone())
            .collect(),
        size: drifted.len(),
    })
}

/// r = p₁ − p₀ (for v = (p₂ − p₁) − (p₁ − p₀)).
fn r_of(p1: &State, p0: &State) -> State {
    p1.minus(p0)
}

/// The EM map's inputs and scratch space.
struct Em<'a> {
    layout: &'a Layout,
    records: &'a [Record],
    weights: &'a [f64],
    pairs: &'a PairIndex,
    precision: f64,
    work: Work,
    counts: Counts,
    q: Vec<f64>,
    grad: Vec<f64>,
    /// Per record: the model's and the careless probability of its answer.
    dc: Vec<(f64, f64)>,
}

impl Em<'_> {
    /// One EM step: the E-step (unless `q` already holds it), the
    /// workers' M-step, one Newton step on the weighted scores.
    fn step(&mut self, state: &mut State, have_q: bool) {
        if !have_q {
            state.gradient(
                self.layout,
                self.records,
                self.weights,
                self.precision,
                &mut self.q,
                &mut self.grad,
            );
        }
        state.m_step(self.layout, self.records, self.weights, &self.q);
        self.counts.clear();
        let (q, w) = (&self.q, self.weights);
        self.pairs
            .count_into(self.records, &mut self.counts, |r| w[r] * q[r]);
        let problem = Problem {
            pairs: self.pairs,
            counts: &self.counts,
            precision: self.precision,
            ties: self.layout.ties,
        };
        davidson::newton(
            &problem,
            &mut state.x,
            Settings {
                tolerance: 0.0,
                max_iterations: 1,
                gradient_merit: false,
            },
            &mut self.work,
        );
        // With a leaning or careless ties to estimate too, the reliability
        // alone at its conditional maximum left the fit stalling just
        // above a tolerance of 10⁻¹⁰ (tests/features/pairwise.rs): there
        // EM's own update stays.
        if !self.layout.positions && !self.layout.ties {
            state.maximise_reliabilities(self.layout, self.records, self.weights, &mut self.dc);
        }
    }

    /// The log-posterior (up to a constant).
    fn log_posterior(&self, state: &State) -> f64 {
        let n = self.layout.n;
        let mut ll = 0.0;
        for (k, rec) in self.records.iter().enumerate() {
            ll += self.weights[k] * state.record_log_p(self.layout, rec);
        }
        ll - 0.5 * self.precision * state.x[..n].iter().map(|t| t * t).sum::<f64>()
    }
}

/// Which parameters the model has.
#[derive(Debug, Clone)]
struct Layout {
    n: usize,
    workers: usize,
    ties: bool,
    positions: bool,
}

impl Layout {
    fn of(data: &Comparisons, ties: bool) -> Self {
        Self {
            n: data.n_items(),
            workers: data.n_workers(),
            ties,
            positions: data.is_shown_in_order(),
        }
    }
}

/// The parameters: x = (θ, ln ν), and per worker r, β, κ.
#[derive(Debug, Clone)]
struct State {
    x: Vec<f64>,
    r: Vec<f64>,
    beta: Vec<f64>,
    kappa: Vec<f64>,
}

/// One record's model and careless probabilities, and the model's
/// d ln P_D/dh and d ln P_D/dλ.
#[inline]
fn record_terms(x: &[f64], n: usize, ties: bool, rec: &Record) -> (f64, f64, f64, f64, f64, f64) {
    let h = 0.5 * (x[rec.first as usize] - x[rec.second as usize]);
    let lambda = if ties { x[n] } else { f64::NEG_INFINITY };
    let (_, pa, pb, pt) = probabilities(h, lambda, ties);
    let (d, dh, dl) = match rec.vote {
        Vote::First => (pa, 1.0 - (pa - pb), -pt),
        Vote::Second => (pb, -1.0 - (pa - pb), -pt),
        Vote::Tie => (pt, -(pa - pb), 1.0 - pt),
    };
    (d, dh, dl, pa, pb, pt)
}

impl State {
    fn minus(&self, o: &Self) -> Self {
        let d = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x - y).collect();
        Self {
            x: d(&self.x, &o.x),
            r: d(&self.r, &o.r),
            beta: d(&self.beta, &o.beta),
            kappa: d(&self.kappa, &o.kappa),
        }
    }

    fn norm(&self) -> f64 {
        [&self.x, &self.r, &self.beta, &self.kappa]
            .iter()
            .flat_map(|v| v.iter())
            .map(|v| v * v)
            .sum::<f64>()
            .sqrt()
    }

    fn axpy(&mut self, a: f64, o: &Self) {
        for (mine, theirs) in [
            (&mut self.x, &o.x),
            (&mut self.r, &o.r),
            (&mut self.beta, &o.beta),
            (&mut self.kappa, &o.kappa),
        ] {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += a * t;
            }
        }
    }

    fn clamp(&mut self, layout: &Layout) {
        for v in self
            .r
            .iter_mut()
            .chain(&mut self.beta)
            .chain(&mut self.kappa)
        {
            *v = v.clamp(EDGE, 1.0 - EDGE);
        }
        davidson::centre(&mut self.x[..layout.n]);
    }

    /// ln P(answer) of one record.
    fn record_log_p(&self, layout: &Layout, rec: &Record) -> f64 {
        let (d, ..) = record_terms(&self.x, layout.n, layout.ties, rec);
        let w = rec.worker_raw();
        let p = if w == NO_WORKER {
            d
        } else {
            let w = w as usize;
            let (c, ..) = self.careless(layout, w, rec.vote);
            self.r[w] * d + (1.0 - self.r[w]) * c
        };
        p.ln()
    }

    fn initial(x: Vec<f64>, layout: &Layout, records: &[Record], weights: &[f64]) -> Self {
        let w = layout.workers;
        let share = if layout.ties {
            let (mut t, mut all) = (0.0, 0.0);
            for (rec, wt) in records.iter().zip(weights) {
                all += wt;
                if rec.vote == Vote::Tie {
                    t += wt;
                }
            }
            (t / all).clamp(0.01, 0.99)
        } else {
            0.0
        };
        Self {
            x,
            r: vec![0.9; w],
            beta: vec![0.5; w],
            kappa: vec![share; w],
        }
    }

    fn from_fit(f: &Fit, layout: &Layout) -> Self {
        let mut x = f.parameters();
        if layout.ties && f.tie.is_none() {
            x.push((0.1f64).ln());
        }
        x.truncate(layout.n + usize::from(layout.ties));
        Self::with_workers(f, x, |r| r.clamp(0.01, 0.99), 0.1)
    }

    /// The scores `x` and the workers' parameters of `f`: each reliability
    /// through `reliability`, the leaning 0.5 and the careless ties
    /// `careless` where the fit has none.
    fn with_workers(f: &Fit, x: Vec<f64>, reliability: impl Fn(f64) -> f64, careless: f64) -> Self {
        Self {
            x,
            r: f.workers
                .iter()
                .map(|w| reliability(w.reliability))
                .collect(),
            beta: f.workers.iter().map(|w| w.bias.unwrap_or(0.5)).collect(),
            kappa: f
                .workers
                .iter()
                .map(|w| w.careless_ties.unwrap_or(careless))
                .collect(),
        }
    }

    /// The careless probability of a record's answer for worker w, and its
    /// derivatives in β and κ.
    #[inline]
    fn careless(&self, layout: &Layout, w: usize, vote: Vote) -> (f64, f64, f64) {
        let beta = if layout.positions { self.beta[w] } else { 0.5 };
        let kappa = if layout.ties { self.kappa[w] } else { 0.0 };
        match vote {
            Vote::First => ((1.0 - kappa) * beta, 1.0 - kappa, -beta),
            Vote::Second => ((1.0 - kappa) * (1.0 - beta), -(1.0 - kappa), -(1.0 - beta)),
            Vote::Tie => (kappa, 0.0, 1.0),
        }
    }

    /// The E-step's responsibilities into `q`, and the largest component of
    /// the projected gradient of the log-posterior (returned); the full
    /// gradient into `grad` (θ, λ, then r, β, κ per worker).
    fn gradient(
        &self,
        layout: &Layout,
        records: &[Record],
        weights: &[f64],
        precision: f64,
        q: &mut [f64],
        grad: &mut Vec<f64>,
    ) -> f64 {
        let (n, nw) = (layout.n, layout.workers);
        let dx = n + usize::from(layout.ties);
        grad.clear();
        grad.resize(dx + 3 * nw, 0.0);
        for (k, rec) in records.iter().enumerate() {
            let wt = weights[k];
            let (d, dh, dl, ..) = record_terms(&self.x, n, layout.ties, rec);
            let w = rec.worker_raw();
            let resp = if w == NO_WORKER {
                1.0
            } else {
                let w = w as usize;
                let (c, dbeta, dkappa) = self.careless(layout, w, rec.vote);
                let r = self.r[w];
                let p = r * d + (1.0 - r) * c;
                if wt != 0.0 && p > 0.0 {
                    grad[dx + w] += wt * (d - c) / p;
                    grad[dx + nw + w] += wt * (1.0 - r) * dbeta / p;
                    grad[dx + 2 * nw + w] += wt * (1.0 - r) * dkappa / p;
                }
                if p > 0.0 { r * d / p } else { 1.0 }
            };
            q[k] = resp;
            let s = wt * resp;
            grad[rec.first as usize] += 0.5 * s * dh;
            grad[rec.second as usize] -= 0.5 * s * dh;
            if layout.ties {
                grad[n] += s * dl;
            }
        }
        for (g, t) in grad[..n].iter_mut().zip(&self.x) {
            *g -= precision * t;
        }
        // Projected: each probability moved by its gradient, kept in [0, 1].
        let mut worst = max_abs(&grad[..dx]);
        for w in 0..nw {
            let mut check = |value: f64, g: f64| {
                let moved = (value + g).clamp(EDGE, 1.0 - EDGE) - value;
                worst = worst.max(moved.abs());
            };
            check(self.r[w], grad[dx + w]);
            if layout.positions {
                check(self.beta[w], grad[dx + nw + w]);
            }
            if layout.ties {
                check(self.kappa[w], grad[dx + 2 * nw + w]);
            }
        }
        worst
    }

    /// Sets each worker's reliability to the maximum of the likelihood
    /// over it, the other parameters fixed (an ECME step, Liu & Rubin
    /// 1994): Σₖ ln(r·dₖ + (1 − r)·cₖ) over the worker's answers is
    /// concave in r, maximised by Newton's method safeguarded by
    /// bisection in [EDGE, 1 − EDGE]. EM's own update of r crawls where r
    /// goes to 0 (a worker answering at random: each update multiplies r
    /// by about the mean of dₖ/cₖ, near 1); this step lands there at once.
    /// Run after the scores' step, so every EM iteration still raises the
    /// likelihood.
    fn maximise_reliabilities(
        &mut self,
        layout: &Layout,
        records: &[Record],
        weights: &[f64],
        dc: &mut Vec<(f64, f64)>,
    ) {
        let nw = layout.workers;
        if nw == 0 {
            return;
        }
        dc.clear();
        dc.extend(records.iter().map(|rec| {
            let w = rec.worker_raw();
            if w == NO_WORKER {
                return (1.0, 1.0);
            }
            let (d, ..) = record_terms(&self.x, layout.n, layout.ties, rec);
            let (c, ..) = self.careless(layout, w as usize, rec.vote);
            (d, c)
        }));
        let mut lo = vec![EDGE; nw];
        let mut hi = vec![1.0 - EDGE; nw];
        let mut done = vec![false; nw];
        let mut slope = vec![0.0; nw];
        let mut curve = vec![0.0; nw];
        for _ in 0..60 {
            slope.iter_mut().for_each(|v| *v = 0.0);
            curve.iter_mut().for_each(|v| *v = 0.0);
            for ((rec, &(d, c)), &wt) in records.iter().zip(dc.iter()).zip(weights) {
                let w = rec.worker_raw();
                if w == NO_WORKER || wt == 0.0 || done[w as usize] {
                    continue;
                }
                let w = w as usize;
                let p = self.r[w] * d + (1.0 - self.r[w]) * c;
                if p > 0.0 {
                    let e = (d - c) / p;
                    slope[w] += wt * e;
                    curve[w] += wt * e * e;
                }
            }
            let mut all = true;
            for w in 0..nw {
                if done[w] {
                    continue;
                }
                let (r, g) = (self.r[w], slope[w]);
                if g > 0.0 {
                    lo[w] = r;
                } else {
                    hi[w] = r;
                }
                let mut next = if curve[w] > 0.0 { r + g / curve[w] } else { r };
                if !(next > lo[w] && next < hi[w]) {
                    next = if g > 0.0 && r >= 1.0 - EDGE || g <= 0.0 && r <= EDGE {
                        r
                    } else {
                        0.5 * (lo[w] + hi[w])
                    };
                }
                if (next - r).abs() <= 1e-15 || hi[w] - lo[w] <= 1e-15 {
                    done[w] = true;
                } else {
                    all = false;
                }
                self.r[w] = next;
            }
            if all {
                break;
            }
        }
    }

    /// The workers' closed-form M-step from the responsibilities.
    fn m_step(&mut self, layout: &Layout, records: &[Record], weights: &[f64], q: &[f64]) {
        let nw = layout.workers;
        // (Σ wq, Σ w, careless first, careless first-or-second, careless ties)
        let mut acc = vec![[0.0f64; 5]; nw];
        for (k, rec) in records.iter().enumerate() {
            let w = rec.worker_raw();
            if w == NO_WORKER {
                continue;
            }
            let a = &mut acc[w as usize];
            let wt = weights[k];
            let careless = wt * (1.0 - q[k]);
            a[0] += wt * q[k];
            a[1] += wt;
            match rec.vote {
                Vote::First => {
                    a[2] += careless;
                    a[3] += careless;
                }
                Vote::Second => a[3] += careless,
                Vote::Tie => a[4] += careless,
            }
        }
        for (w, a) in acc.iter().enumerate() {
            if a[1] <= 0.0 {
                continue;
            }
            self.r[w] = (a[0] / a[1]).clamp(EDGE, 1.0 - EDGE);
            if layout.positions && a[3] > 0.0 {
                self.beta[w] = (a[2] / a[3]).clamp(EDGE, 1.0 - EDGE);
            }
            if layout.ties && a[3] + a[4] > 0.0 {
                self.kappa[w] = (a[4] / (a[3] + a[4])).clamp(EDGE, 1.0 - EDGE);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn into_fit(
        self,
        data: &Comparisons,
        layout: &Layout,
        prior_sd: Option<f64>,
        iterations: usize,
        gradient: f64,
        records: &[Record],
        weights: &[f64],
    ) -> Fit {
        let n = layout.n;
        let mut counts = vec![0usize; layout.workers];
        let mut ll = 0.0;
        for (k, rec) in records.iter().enumerate() {
            let (d, ..) = record_terms(&self.x, n, layout.ties, rec);
            let w = rec.worker_raw();
            let p = if w == NO_WORKER {
                d
            } else {
                let w = w as usize;
                counts[w] += 1;
                let (c, ..) = self.careless(layout, w, rec.vote);
                self.r[w] * d + (1.0 - self.r[w]) * c
            };
            ll += weights[k] * p.ln();
        }
        let workers = (0..layout.workers)
            .map(|w| WorkerFit {
                name: data.workers()[w].clone(),
                reliability: self.r[w],
                bias: layout.positions.then_some(self.beta[w]),
                careless_ties: layout.ties.then_some(self.kappa[w]),
                comparisons: counts[w],
            })
            .collect();
        Fit {
            model: Model::NoisyBradleyTerry,
            items: data.items().to_vec(),
            scores: self.x[..n].to_vec(),
            tie: layout.ties.then(|| self.x[n].exp()),
            workers,
            log_likelihood: ll,
            prior_sd,
            iterations,
            gradient,
            comparisons: data.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `n` items with spread scores, `m` comparisons by `workers` workers
    /// of whom the first `careless` answer at random.
    fn data(n: usize, m: usize, workers: usize, careless: usize, seed: u64) -> Comparisons {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let theta: Vec<f64> = (0..n).map(|i| 3.0 * i as f64 / n as f64 - 1.5).collect();
        let mut c = Comparisons::with_item_count(n).unwrap();
        for w in 0..workers {
            c.worker_index(&format!("w{w}")).unwrap();
        }
        for _ in 0..m {
            let a = rng.random_range(0..n);
            let b = (a + rng.random_range(1..n)) % n;
            let w = rng.random_range(0..workers);
            let p = if w < careless {
                0.5
            } else {
                1.0 / (1.0 + (theta[b] - theta[a]).exp())
            };
            let vote = if rng.random::<f64>() < p {
                Vote::First
            } else {
                Vote::Second
            };
            c.add(a, b, vote, Some(w)).unwrap();
        }
        c
    }

    /// The ECME step against a fine grid of the worker's own likelihood:
    /// no grid point is higher.
    #[test]
    fn each_reliability_is_the_maximum_given_the_rest() {
        let c = data(30, 3000, 8, 3, 1);
        let layout = Layout::of(&c, false);
        let x: Vec<f64> = (0..30).map(|i| 3.0 * i as f64 / 30.0 - 1.5).collect();
        let mut state = State::initial(x, &layout, c.records(), &vec![1.0; c.len()]);
        let weights = vec![1.0; c.len()];
        let mut dc = Vec::new();
        state.maximise_reliabilities(&layout, c.records(), &weights, &mut dc);
        let worker_ll = |w: usize, r: f64| -> f64 {
            c.records()
                .iter()
                .filter(|rec| rec.worker() == Some(w))
                .map(|rec| {
                    let (d, ..) = record_terms(&state.x, 30, false, rec);
                    (r * d + (1.0 - r) * 0.5).ln()
                })
                .sum()
        };
        for w in 0..8 {
            let best = worker_ll(w, state.r[w]);
            for g in 0..=1000 {
                let r = (g as f64 / 1000.0).clamp(EDGE, 1.0 - EDGE);
                assert!(
                    worker_ll(w, r) <= best + 1e-9,
                    "worker {w}: r {} below the grid's {r}",
                    state.r[w]
                );
            }
        }
        // The careless workers are at (or next to) 0, the others well above.
        assert!(state.r[..3].iter().all(|&r| r < 0.2), "{:?}", state.r);
        assert!(state.r[3..].iter().all(|&r| r > 0.8), "{:?}", state.r);
    }

    /// Workers answering at random drive their reliabilities to 0, which
    /// plain EM approached by a factor near 1 a step (1227 EM steps on the
    /// bench's 10⁵ comparisons); the ECME step gets there at once.
    #[test]
    fn careless_workers_do_not_slow_the_fit() {
        let c = data(40, 8000, 20, 4, 2);
        let fit = NoisyBradleyTerry::new().fit(&c).unwrap();
        assert!(fit.iterations <= 60, "{} EM steps", fit.iterations);
        assert!(fit.gradient <= 1e-6);
        for w in &fit.workers[..4] {
            assert!(w.reliability < 0.2, "{}: {}", w.name, w.reliability);
        }
        // Every step raised the likelihood: a fit from the plain model's
        // start is not below a fit that takes many more steps (tolerance
        // 10⁻¹⁰ on the gradient).
        let tight = NoisyBradleyTerry::new()
            .tolerance(1e-10)
            .unwrap()
            .fit(&c)
            .unwrap();
        assert!((tight.log_likelihood - fit.log_likelihood).abs() < 1e-6);
        for (a, b) in tight.scores.iter().zip(&fit.scores) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }
}
