//! Monte-Carlo null moments (Γ̄, V, V_ℓ) of ρ_w and τ_w for the standardised
//! scale, to a standard error the caller sets, with control variates.

use super::{Threads, UncertaintyError, engine};
use crate::correlation::error::CorrelationError;
use crate::correlation::standardised::kernel::{CONTROLS, Item, NullKernel, Sample};
use crate::correlation::standardised::{
    Coefficient, GammaMoments, MomentSource, StandardisedError, StandardisedRho, StandardisedTau,
    Standardiser,
};
use crate::correlation::weighted::TopWeighted;
use crate::weigh::Weigher;
use num_traits::Float;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

/// Permutations per replicate stream (one block of the engine).
const BLOCK: usize = 256;
/// Blocks of the pilot round.
const PILOT_BLOCKS: usize = 16;

serde_mirror! {
    /// Monte-Carlo estimates of the null moments Γ̄, V, V_ℓ of ρ_w or τ_w
    /// ([`GammaMoments`]) for the standardised scale ([`Standardiser`]), for
    /// any weigher and scheme, and for data with ties (the permutation null
    /// that permutes the second input's values and keeps both tie patterns).
    ///
    /// ```text
    /// Γ̄   = c + ȳ − β̂·x̄            y = Γ − c,  x = S − E[S]: 9 linear permutation statistics
    ///                                 S_k = Σ_i w_i x_k(a_i) y_k(b_π(i)) with known means (control variates)
    /// SE(Γ̄)² = s²·(1/m + x̄ᵀ S_xx⁻¹ x̄),   s² = residual variance of y on x
    /// V   = (1/m) Σ (Γ − Γ̄)²,                      SE² = (m₄ − V²)/m
    /// V_ℓ = (1/m) Σ (Γ − Γ̄)² 1{Γ < Γ̄},              SE² = (E[q²] − V_ℓ²)/m + (2 E[(Γ − Γ̄)1{Γ<Γ̄}])² SE(Γ̄)²
    /// ```
    ///
    /// The controls are the sums ρ_w is built from (weight, weighted ranks and
    /// their squares and cross product) and three sums of signed weight ranks;
    /// their exact means under a uniform permutation are single sums. With the
    /// regression coefficient β̂ estimated from the same permutations the
    /// estimator is the classical control-variate estimator (bias O(1/m));
    /// it is unbiased for any β, so the controls only remove variance: the
    /// needed number of permutations drops by 1/(1 − R²): about 50× for the
    /// paper's additive ρ_w, 10× for additive τ_w, 1.5–7× with multiplicative
    /// weights (measured at n = 300–1000). The variance and left variance
    /// are plain sample moments (c is the pilot estimate; values near it are
    /// kept so that V_ℓ is exact about the final Γ̄).
    ///
    /// Permutations run in blocks of 256, block i drawing from its own ChaCha8
    /// stream (seed, i): a pilot of 4096 permutations, then rounds sized from
    /// the measured residual variance until the standard error of Γ̄ is at most
    /// the target (default 10⁻⁴) or `max_permutations` is reached. Results are
    /// combined in block order, so a seeded call gives the same moments
    /// whatever the number of threads.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
    /// use adaptive_comp_metrics::{Coefficient, Standardiser, TopWeighted};
    /// use rand::SeedableRng;
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    /// let paper = TopWeighted::new();
    /// let m = GammaMonteCarlo::new()
    ///     .standard_error(1e-3)
    ///     .moments(&paper, Coefficient::Rho, 500, &mut rng)?;
    /// assert!(m.mean.standard_error <= 1e-3);
    /// assert!((m.mean.value + 0.58).abs() < 0.03);
    /// let g = Standardiser::new(m)?;
    /// assert!(g.standardised(m.mean.value)?.abs() < 0.05); // chance lands near 0
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    ///
    /// # References
    /// P. Glasserman (2004). *Monte Carlo methods in financial engineering*,
    /// §4.1 (control variates). P. Lombardo (2025), arXiv:2504.08428.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct GammaMonteCarlo {
        standard_error: f64,
        max_permutations: usize,
        threads: Threads,
    }
    // The unvalidated mirror of [`GammaMonteCarlo`] that serde reads: the
    // target is checked as a run checks it (positive and finite).
    mirror GammaMonteCarloRepr, StandardisedError, |r| {
        if !(r.standard_error > 0.0 && r.standard_error.is_finite()) {
            return Err(StandardisedError::InvalidAccuracy {
                target: r.standard_error,
            });
        }
        Ok(Self::new()
            .standard_error(r.standard_error)
            .max_permutations(r.max_permutations)
            .threads(r.threads))
    }
}

impl Default for GammaMonteCarlo {
    fn default() -> Self {
        Self::new()
    }
}

/// A standardised coefficient of [`GammaMonteCarlo`] and its seeded twin:
/// `raw` of the data's ranks and weights, on the standardised scale of the
/// permutation null of the data themselves (the second input's ranks
/// permuted, both tie patterns kept). ρ_w and τ_w are defined alike.
macro_rules! standardised {
    (
        $(#[$doc:meta])*
        pub fn $name:ident -> $out:ident = $coefficient:ident, $raw:path;
        $(#[$seeded_doc:meta])*
        pub fn $seeded:ident;
    ) => {
        $(#[$doc])*
        pub fn $name<W: Weigher + Sync, F: Float, R: Rng + ?Sized>(
            &self,
            config: &TopWeighted<W>,
            x: &[F],
            y: &[F],
            rng: &mut R,
        ) -> Result<$out, UncertaintyError> {
            self.check()?;
            let (a, b, w) = config.ranks_and_weights(x, y)?;
            let value = $raw(&a, &b, &w)?;
            let kernel = null_kernel(config, Coefficient::$coefficient, &a, &b)?;
            let map = Standardiser::new(self.run(&kernel, rng.random())?)?;
            let ties = crate::correlation::standardised::has_ties(&a)
                || crate::correlation::standardised::has_ties(&b);
            Ok($out::new(value, &map, ties)?)
        }

        seeded! {
            $(#[$seeded_doc])*
            pub fn $seeded<W, F>(&self, config: &TopWeighted<W>, x: &[F], y: &[F])
                -> $out = Self::$name
                where { W: Weigher + Sync, F: Float }
        }
    };
}

impl GammaMonteCarlo {
    /// The default target: standard error of Γ̄ at most 10⁻⁴.
    pub const DEFAULT_STANDARD_ERROR: f64 = 1e-4;
    /// The default cap on the number of permutations.
    pub const DEFAULT_MAX_PERMUTATIONS: usize = 100_000_000;
    /// The most items [`moments`](Self::moments) accepts, 2²⁶: a run holds
    /// about 100 bytes per item, plus 40 per item and thread (7 GiB at the
    /// limit on one thread). Larger n is refused with
    /// [`UncertaintyError::TooLarge`] before anything is allocated.
    pub const MAX_ITEMS: usize = 1 << 26;

    /// Target 10⁻⁴, at most 10⁸ permutations, all cores.
    #[must_use]
    pub fn new() -> Self {
        Self {
            standard_error: Self::DEFAULT_STANDARD_ERROR,
            max_permutations: Self::DEFAULT_MAX_PERMUTATIONS,
            threads: Threads::Available,
        }
    }

    /// Sets the target standard error of Γ̄ (validated when run: finite and
    /// positive).
    #[must_use]
    pub fn standard_error(mut self, target: f64) -> Self {
        self.standard_error = target;
        self
    }

    /// Caps the number of permutations (at least the 4096 of the pilot are
    /// drawn). When the cap stops the run first, the moments carry the
    /// standard error reached.
    #[must_use]
    pub fn max_permutations(mut self, max: usize) -> Self {
        self.max_permutations = max;
        self
    }

    /// Sets the number of threads (results do not depend on it).
    #[must_use]
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// The null moments for two untied rankings of `n` items.
    ///
    /// # Errors
    /// [`StandardisedError::InvalidAccuracy`] for a target that is not a
    /// positive finite number; [`StandardisedError::TooFewItems`] for
    /// n < 3 (both as [`UncertaintyError::Standardised`]);
    /// [`UncertaintyError::TooLarge`] (quantity `"items"`) for
    /// n > [`MAX_ITEMS`](Self::MAX_ITEMS), before anything is allocated; a bad weigher
    /// ([`UncertaintyError::Statistic`]); a permutation whose coefficient is
    /// undefined ([`UncertaintyError::Replicate`]).
    ///
    /// # Complexity
    /// O(m·n) for ρ_w, O(m·n log n) for τ_w, m the number of permutations
    /// (about 20 000 for the paper's ρ_w at n = 1000 and the default
    /// target; 0.1 s); memory O(n·threads) plus the values near Γ̄
    /// (a few per cent of m).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
    /// use adaptive_comp_metrics::{Coefficient, Scheme, TopWeighted};
    /// use rand::SeedableRng;
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let gold = TopWeighted::new().scheme(Scheme::First);
    /// let m = GammaMonteCarlo::new().standard_error(2e-3).moments(&gold, Coefficient::Tau, 60, &mut rng)?;
    /// assert!(m.mean.value.abs() < 0.01); // one-sided weights: mean 0 by symmetry
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn moments<W: Weigher + Sync, R: Rng + ?Sized>(
        &self,
        config: &TopWeighted<W>,
        coefficient: Coefficient,
        n: usize,
        rng: &mut R,
    ) -> Result<GammaMoments, UncertaintyError> {
        self.check()?;
        if n > Self::MAX_ITEMS {
            return Err(UncertaintyError::TooLarge {
                quantity: "items",
                requested: n as u64,
                limit: Self::MAX_ITEMS as u64,
            });
        }
        let ranks: Vec<f64> = (1..=n).map(|r| r as f64).collect();
        let kernel = null_kernel(config, coefficient, &ranks, &ranks)?;
        self.run(&kernel, rng.random())
    }

    /// The permutation null of these data: the second input's ranks are
    /// permuted, both tie patterns are kept.
    ///
    /// # Errors
    /// As [`moments`](Self::moments), and invalid scores as in
    /// [`TopWeighted::rho`] ([`UncertaintyError::Statistic`]).
    ///
    /// # Complexity
    /// As [`moments`](Self::moments), plus ranking (O(n log n)).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
    /// use adaptive_comp_metrics::{Coefficient, TopWeighted};
    /// use rand::SeedableRng;
    /// let human = [5.0, 5.0, 4.0, 3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 0.0];
    /// let model = [0.9, 0.7, 0.8, 0.1, 0.4, 0.3, 0.5, 0.2, 0.0, 0.6];
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    /// let m = GammaMonteCarlo::new().standard_error(1e-3)
    ///     .moments_of(&TopWeighted::new(), Coefficient::Rho, &human, &model, &mut rng)?;
    /// assert!(m.mean.value < 0.0);
    /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
    /// ```
    pub fn moments_of<W: Weigher + Sync, F: Float, R: Rng + ?Sized>(
        &self,
        config: &TopWeighted<W>,
        coefficient: Coefficient,
        x: &[F],
        y: &[F],
        rng: &mut R,
    ) -> Result<GammaMoments, UncertaintyError> {
        self.check()?;
        let (a, b, _) = config.ranks_and_weights(x, y)?;
        let kernel = null_kernel(config, coefficient, &a, &b)?;
        self.run(&kernel, rng.random())
    }

    standardised! {
        /// ρ_w on the standardised scale against the permutation null of the
        /// data themselves (ties kept), by Monte Carlo.
        ///
        /// # Errors
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Complexity
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::TopWeighted;
        /// use rand::SeedableRng;
        /// let human = [5.0, 5.0, 4.0, 3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 0.0];
        /// let model = [0.9, 0.7, 0.8, 0.1, 0.4, 0.3, 0.5, 0.2, 0.0, 0.6];
        /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        /// let s = GammaMonteCarlo::new().standard_error(1e-3)
        ///     .rho_standardised(&TopWeighted::new(), &human, &model, &mut rng)?;
        /// assert!(s.ties && s.value > 0.0);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn rho_standardised -> StandardisedRho = Rho, crate::correlation::weighted::rho_w_normalised;
        /// [`rho_standardised`](Self::rho_standardised) with a seed in place of
        /// the generator, as [`moments_seeded`](Self::moments_seeded).
        ///
        /// # Errors
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Complexity
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::TopWeighted;
        /// let human = [5.0, 5.0, 4.0, 3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 0.0];
        /// let model = [0.9, 0.7, 0.8, 0.1, 0.4, 0.3, 0.5, 0.2, 0.0, 0.6];
        /// let s = GammaMonteCarlo::new().standard_error(1e-3)
        ///     .rho_standardised_seeded(&TopWeighted::new(), &human, &model, 2)?;
        /// assert!(s.ties && s.value > 0.0);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn rho_standardised_seeded;
    }

    standardised! {
        /// τ_w on the standardised scale against the permutation null of the
        /// data themselves; see [`rho_standardised`](Self::rho_standardised).
        ///
        /// # Errors
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Complexity
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::TopWeighted;
        /// use rand::SeedableRng;
        /// let x: Vec<f64> = (0..40).map(f64::from).collect();
        /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        /// let s = GammaMonteCarlo::new().standard_error(1e-3)
        ///     .tau_standardised(&TopWeighted::new(), &x, &x, &mut rng)?;
        /// assert_eq!(s.value, 1.0);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn tau_standardised -> StandardisedTau = Tau, crate::correlation::weighted::tau_w_normalised;
        /// [`tau_standardised`](Self::tau_standardised) with a seed in place of
        /// the generator, as [`moments_seeded`](Self::moments_seeded).
        ///
        /// # Errors
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Complexity
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::TopWeighted;
        /// let x: Vec<f64> = (0..40).map(f64::from).collect();
        /// let s = GammaMonteCarlo::new().standard_error(1e-3)
        ///     .tau_standardised_seeded(&TopWeighted::new(), &x, &x, 3)?;
        /// assert_eq!(s.value, 1.0);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn tau_standardised_seeded;
    }

    seeded! {
        /// [`moments`](Self::moments) with a seed in place of the generator:
        /// the permutations come from a ChaCha8 generator seeded by `seed`, the
        /// same in every release and on any number of threads (see [Random
        /// numbers and seeds](crate#random-numbers-and-seeds)).
        ///
        /// # Errors
        /// As [`moments`](Self::moments).
        ///
        /// # Complexity
        /// As [`moments`](Self::moments).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::{Coefficient, Scheme, TopWeighted};
        /// let gold = TopWeighted::new().scheme(Scheme::First);
        /// let m = GammaMonteCarlo::new().standard_error(2e-3).moments_seeded(&gold, Coefficient::Tau, 60, 1)?;
        /// assert!(m.mean.value.abs() < 0.01); // one-sided weights: mean 0 by symmetry
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn moments_seeded<W>(&self, config: &TopWeighted<W>, coefficient: Coefficient, n: usize)
            -> GammaMoments = Self::moments
            where { W: Weigher + Sync }
    }

    seeded! {
        /// [`moments_of`](Self::moments_of) with a seed in place of the
        /// generator, as [`moments_seeded`](Self::moments_seeded).
        ///
        /// # Errors
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Complexity
        /// As [`moments_of`](Self::moments_of).
        ///
        /// # Examples
        /// ```
        /// use adaptive_comp_metrics::uncertainty::GammaMonteCarlo;
        /// use adaptive_comp_metrics::{Coefficient, TopWeighted};
        /// let human = [5.0, 5.0, 4.0, 3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 0.0];
        /// let model = [0.9, 0.7, 0.8, 0.1, 0.4, 0.3, 0.5, 0.2, 0.0, 0.6];
        /// let m = GammaMonteCarlo::new().standard_error(1e-3)
        ///     .moments_of_seeded(&TopWeighted::new(), Coefficient::Rho, &human, &model, 2)?;
        /// assert!(m.mean.value < 0.0);
        /// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
        /// ```
        pub fn moments_of_seeded<W, F>(
            &self,
            config: &TopWeighted<W>,
            coefficient: Coefficient,
            x: &[F],
            y: &[F],
        )
            -> GammaMoments = Self::moments_of
            where { W: Weigher + Sync, F: Float }
    }

    fn check(&self) -> Result<(), StandardisedError> {
        if self.standard_error.is_finite() && self.standard_error > 0.0 {
            Ok(())
        } else {
            Err(StandardisedError::InvalidAccuracy {
                target: self.standard_error,
            })
        }
    }

    /// The sequential run: pilot, then rounds until the target or the cap.
    fn run(&self, kernel: &NullKernel, seed: u64) -> Result<GammaMoments, UncertaintyError> {
        // Pilot: keep the samples, then centre on their control-variate mean.
        let mut pilot: Vec<Sample> = Vec::with_capacity(PILOT_BLOCKS * BLOCK);
        self.blocks(
            kernel,
            seed,
            0,
            PILOT_BLOCKS,
            |samples: &mut Vec<Sample>, s| samples.push(s),
            Vec::new,
            |part| pilot.extend(part),
        )?;
        let rough = {
            let mut acc = Acc::new(0.0, 0.0);
            pilot.iter().for_each(|s| acc.push(s));
            acc.estimate()?
        };
        // Keep individually the values within 5 pilot standard errors of the
        // centre: the final mean lies there (V_ℓ needs the values below it).
        let centre = rough.mean;
        let band = 5.0 * rough.se_mean.max(1e-12);
        let mut acc = Acc::new(centre, band);
        pilot.iter().for_each(|s| acc.push(s));
        let mut next_block = PILOT_BLOCKS;
        let max_blocks = self.max_permutations.div_ceil(BLOCK).max(PILOT_BLOCKS);
        let mut est = acc.estimate()?;
        while est.se_mean > self.standard_error && next_block < max_blocks {
            let ratio = est.se_mean / self.standard_error;
            let wanted = (acc.count * ratio * ratio * 1.05).ceil() as usize;
            let more = wanted
                .saturating_sub(next_block * BLOCK)
                .div_ceil(BLOCK)
                .clamp(1, max_blocks - next_block);
            self.blocks(
                kernel,
                seed,
                next_block,
                more,
                |part: &mut Acc, s| part.push(&s),
                || Acc::new(centre, band),
                |part| acc.merge(&part),
            )?;
            next_block += more;
            est = acc.estimate()?;
        }
        let permutations = next_block * BLOCK;
        Ok(GammaMoments::from_parts(
            est.mean,
            est.variance,
            est.left_variance,
            [est.se_mean, est.se_variance, est.se_left_variance],
            MomentSource::MonteCarlo { permutations },
        )?)
    }

    /// Runs blocks `first..first + count` on the engine, folding each
    /// block's samples into a fresh `init()` with `fold`, and hands the
    /// blocks to `take` in block order (memory does not grow with the
    /// number of blocks).
    #[allow(clippy::too_many_arguments)]
    fn blocks<T: Send>(
        &self,
        kernel: &NullKernel,
        seed: u64,
        first: usize,
        count: usize,
        fold: impl Fn(&mut T, Sample) + Sync,
        init: impl Fn() -> T + Sync,
        mut take: impl FnMut(T),
    ) -> Result<(), UncertaintyError> {
        engine::for_each(
            0..count,
            seed,
            self.threads,
            || (kernel.b_items().to_vec(), kernel.scratch()),
            |(b, scratch): &mut (Vec<Item>, _), i, _| -> Result<T, (usize, CorrelationError)> {
                let block = first + i;
                let mut rng = engine::replicate_rng(seed, block);
                b.copy_from_slice(kernel.b_items());
                let mut out = init();
                for k in 0..BLOCK {
                    b.shuffle(&mut rng);
                    let sample = kernel
                        .evaluate(b, scratch)
                        .map_err(|e| (block * BLOCK + k, e))?;
                    fold(&mut out, sample);
                }
                Ok(out)
            },
            |_, result| match result {
                Ok(part) => {
                    take(part);
                    Ok(())
                }
                Err((index, source)) => Err(UncertaintyError::Replicate {
                    kind: "permutation",
                    index,
                    source,
                }),
            },
        )
    }
}

/// The permutation null of the ranks `a` (kept) and `b` (permuted) under
/// `config`'s weights: [`StandardisedError::TooFewItems`] for fewer than 3
/// items.
fn null_kernel<W: Weigher>(
    config: &TopWeighted<W>,
    coefficient: Coefficient,
    a: &[f64],
    b: &[f64],
) -> Result<NullKernel, UncertaintyError> {
    if a.len() < 3 {
        return Err(StandardisedError::TooFewItems {
            needed: 3,
            got: a.len(),
        }
        .into());
    }
    Ok(NullKernel::new(
        a,
        b,
        config.weighting_function(),
        config.weighting_scheme(),
        coefficient,
    )?)
}

/// Running sums of one Monte-Carlo run, about a centre c, with values
/// within `band` of c kept individually.
#[derive(Debug, Clone)]
struct Acc {
    centre: f64,
    band: f64,
    count: f64,
    /// Σ y^k, k = 1..4, y = Γ − c.
    power: [f64; 4],
    /// Σ y^k over y ≤ −band, k = 0..4.
    outer_left: [f64; 5],
    /// The y with |y| < band.
    near: Vec<f64>,
    x: [f64; CONTROLS],
    xx: [[f64; CONTROLS]; CONTROLS],
    xy: [f64; CONTROLS],
}

/// The estimates and standard errors.
#[derive(Debug, Clone, Copy)]
struct Estimate {
    mean: f64,
    se_mean: f64,
    variance: f64,
    se_variance: f64,
    left_variance: f64,
    se_left_variance: f64,
}

impl Acc {
    fn new(centre: f64, band: f64) -> Self {
        Self {
            centre,
            band,
            count: 0.0,
            power: [0.0; 4],
            outer_left: [0.0; 5],
            near: Vec::new(),
            x: [0.0; CONTROLS],
            xx: [[0.0; CONTROLS]; CONTROLS],
            xy: [0.0; CONTROLS],
        }
    }

    fn push(&mut self, s: &Sample) {
        let y = s.gamma - self.centre;
        self.count += 1.0;
        let y2 = y * y;
        let p = [y, y2, y2 * y, y2 * y2];
        for (acc, v) in self.power.iter_mut().zip(p) {
            *acc += v;
        }
        if y <= -self.band {
            self.outer_left[0] += 1.0;
            for (acc, v) in self.outer_left[1..].iter_mut().zip(p) {
                *acc += v;
            }
        } else if y < self.band {
            self.near.push(y);
        }
        let x = &s.controls;
        for k in 0..CONTROLS {
            self.x[k] += x[k];
            self.xy[k] += x[k] * y;
            for l in k..CONTROLS {
                self.xx[k][l] += x[k] * x[l];
            }
        }
    }

    fn merge(&mut self, o: &Self) {
        self.count += o.count;
        add(&mut self.power, &o.power);
        add(&mut self.outer_left, &o.outer_left);
        self.near.extend_from_slice(&o.near);
        add(&mut self.x, &o.x);
        add(&mut self.xy, &o.xy);
        for (row, other) in self.xx.iter_mut().zip(&o.xx) {
            add(row, other);
        }
    }

    fn estimate(&self) -> Result<Estimate, UncertaintyError> {
        let m = self.count;
        let y_bar = self.power[0] / m;
        let x_bar = self.x.map(|v| v / m);
        let mut sxx = [[0.0; CONTROLS]; CONTROLS];
        for k in 0..CONTROLS {
            for l in k..CONTROLS {
                let v = self.xx[k][l] - m * x_bar[k] * x_bar[l];
                sxx[k][l] = v;
                sxx[l][k] = v;
            }
        }
        let sxy: [f64; CONTROLS] = core::array::from_fn(|k| self.xy[k] - m * x_bar[k] * y_bar);
        let syy = self.power[1] - m * y_bar * y_bar;
        let fit = Regression::fit(&sxx, &sxy, m);
        let explained: f64 = fit.beta.iter().zip(&sxy).map(|(b, s)| b * s).sum();
        let used = fit.used as f64;
        let residual = ((syy - explained) / (m - used - 1.0)).max(0.0);
        let shift: f64 = fit.beta.iter().zip(&x_bar).map(|(b, x)| b * x).sum();
        let mean_y = y_bar - shift;
        let se_mean = (residual * (1.0 / m + fit.quadratic_form(&x_bar))).sqrt();
        let mean = self.centre + mean_y;
        // Moments about the final mean: d = Γ̄ − c.
        let d = mean_y;
        let e = self.power.map(|v| v / m);
        let variance = e[1] - 2.0 * d * e[0] + d * d;
        let m4 = e[3] - 4.0 * d * e[2] + 6.0 * d * d * e[1] - 4.0 * d * d * d * e[0] + d.powi(4);
        let se_variance = ((m4 - variance * variance).max(0.0) / m).sqrt();
        // Left of Γ̄: the outer left sums expanded about d, plus the kept values below d.
        // Exact when the final mean lies inside the kept band (|d| < band,
        // all but a > 5σ miss of the pilot); otherwise the values between
        // the band's edge and d are misplaced and the standard error is
        // widened by the bound d².
        let o = &self.outer_left;
        let mut left = o[2] - 2.0 * d * o[1] + d * d * o[0];
        let mut left1 = o[1] - d * o[0];
        let mut left2 =
            o[4] - 4.0 * d * o[3] + 6.0 * d * d * o[2] - 4.0 * d * d * d * o[1] + d.powi(4) * o[0];
        for &y in self.near.iter().filter(|&&y| y < d) {
            let q = (y - d) * (y - d);
            left += q;
            left2 += q * q;
            left1 += y - d;
        }
        let left_variance = left / m;
        let q2 = left2 / m;
        let slope = 2.0 * left1 / m;
        let mut se_left_variance = ((q2 - left_variance * left_variance).max(0.0) / m
            + slope * slope * se_mean * se_mean)
            .sqrt();
        if d.abs() >= self.band {
            se_left_variance += d * d;
        }
        if !(mean.is_finite() && variance.is_finite() && left_variance.is_finite()) {
            return Err(CorrelationError::Undefined {
                reason: "the Monte-Carlo moments are not finite",
            }
            .into());
        }
        Ok(Estimate {
            mean,
            se_mean,
            variance,
            se_variance,
            left_variance,
            se_left_variance,
        })
    }
}

fn add<const K: usize>(a: &mut [f64; K], b: &[f64; K]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Least squares on the controls: Cholesky of their correlation matrix,
/// skipping controls that are constant or (nearly) combinations of earlier
/// ones.
struct Regression {
    /// Indices of the controls used.
    index: Vec<usize>,
    /// Their scales √S_kk.
    scale: Vec<f64>,
    /// Cholesky factor of the correlation matrix of the used controls.
    l: Vec<Vec<f64>>,
    beta: [f64; CONTROLS],
    used: usize,
}

impl Regression {
    fn fit(sxx: &[[f64; CONTROLS]; CONTROLS], sxy: &[f64; CONTROLS], m: f64) -> Self {
        let mut r = Self {
            index: Vec::new(),
            scale: Vec::new(),
            l: Vec::new(),
            beta: [0.0; CONTROLS],
            used: 0,
        };
        for (k, sxx_k) in sxx.iter().enumerate() {
            // Controls are O(1) sums; a standard deviation below 10⁻¹¹ is rounding.
            if !(sxx_k[k] > 0.0 && (sxx_k[k] / m).sqrt() > 1e-11) {
                continue;
            }
            let sk = sxx_k[k].sqrt();
            let mut row = Vec::with_capacity(r.index.len() + 1);
            for (t, (&j, &sj)) in r.index.iter().zip(&r.scale).enumerate() {
                let mut v = sxx_k[j] / (sk * sj);
                for (u, lu) in row.iter().enumerate() {
                    v -= lu * r.l[t][u];
                }
                row.push(v / r.l[t][t]);
            }
            let d = 1.0 - row.iter().map(|v| v * v).sum::<f64>();
            if d < 1e-10 {
                continue;
            }
            row.push(d.sqrt());
            r.l.push(row);
            r.index.push(k);
            r.scale.push(sk);
        }
        r.used = r.index.len();
        let z = r.forward(&r.scaled(sxy));
        let b = r.backward(&z);
        for ((&k, s), bk) in r.index.iter().zip(&r.scale).zip(b) {
            r.beta[k] = bk / s;
        }
        r
    }

    fn forward(&self, rhs: &[f64]) -> Vec<f64> {
        let mut z = Vec::with_capacity(rhs.len());
        for (t, row) in self.l.iter().enumerate() {
            let s: f64 = row[..t].iter().zip(&z).map(|(a, b)| a * b).sum();
            z.push((rhs[t] - s) / row[t]);
        }
        z
    }

    fn backward(&self, z: &[f64]) -> Vec<f64> {
        let p = z.len();
        let mut b = vec![0.0; p];
        for t in (0..p).rev() {
            let s: f64 = ((t + 1)..p).map(|u| self.l[u][t] * b[u]).sum();
            b[t] = (z[t] - s) / self.l[t][t];
        }
        b
    }

    /// The used controls' components of `v`, each over its scale √S_kk.
    fn scaled(&self, v: &[f64; CONTROLS]) -> Vec<f64> {
        self.index
            .iter()
            .zip(&self.scale)
            .map(|(&k, s)| v[k] / s)
            .collect()
    }

    /// vᵀ S_xx⁻¹ v over the used controls.
    fn quadratic_form(&self, v: &[f64; CONTROLS]) -> f64 {
        self.forward(&self.scaled(v)).iter().map(|z| z * z).sum()
    }
}
