//! The statistic abstraction and the ready-made coefficients.

use crate::correlation::error::Result;
use crate::correlation::kendall::kendall_tau_b;
use crate::correlation::spearman::{spearman, spearman_ranks};
use crate::correlation::vigna::{WeightedTauOptions, weighted_tau};
use crate::correlation::weighted::TopWeighted;
use crate::rank::{Order, Ties, rank_unchecked};
use crate::weigh::{Hyperbolic, OffsetQuadratic, Scheme, Weigher, item_weights};

/// Scores after [`Statistic::prepare`] (usually ranks).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Prepared {
    /// The first input, item by item.
    pub x: Vec<f64>,
    /// The second input, item by item.
    pub y: Vec<f64>,
}

/// What is known exactly about a statistic's distribution under random
/// permutations of the second input (`None`: estimate it by Monte Carlo).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExactNull {
    /// The exact null mean.
    pub mean: Option<f64>,
    /// The exact null standard deviation.
    pub sd: Option<f64>,
}

/// A statistic of two paired score vectors `x`, `y` (item `i` has scores
/// `x[i]`, `y[i]`), such as a rank correlation.
///
/// Only [`value`](Self::value) is required; closures
/// `Fn(&[f64], &[f64]) -> Result<f64, CorrelationError>` are statistics. The other
/// methods let a permutation test rank the data once instead of per
/// permutation, and let [`null_moments`](super::null_moments) use closed
/// forms.
///
/// ```text
/// value_prepared(prepare(x, y)) = value(x, y)
/// value_prepared(a, b∘π) has the distribution of value(x, y∘π) for a random permutation π
/// ```
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{Statistic, Spearman};
/// use adaptive_comp_metrics::CorrelationError;
/// // Any closure is a statistic: here the plain Pearson correlation.
/// let pearson = |x: &[f64], y: &[f64]| -> Result<f64, CorrelationError> {
///     let n = x.len() as f64;
///     let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
///     let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
///     let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
///     let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
///     Ok(sxy / (sxx * syy).sqrt())
/// };
/// let (x, y) = ([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0]);
/// assert!((pearson.value(&x, &y)? - 0.8).abs() < 1e-15);
/// assert!((Spearman.value(&x, &y)? - 0.8).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
pub trait Statistic: Sync {
    /// The statistic of the paired scores.
    ///
    /// # Errors
    /// Whatever the statistic reports (e.g. a constant input).
    fn value(&self, x: &[f64], y: &[f64]) -> Result<f64>;

    /// Converts the scores once, before a permutation test, to a form on
    /// which [`value_prepared`](Self::value_prepared) is cheaper (e.g.
    /// ranks). Default: unchanged.
    ///
    /// # Errors
    /// As [`value`](Self::value).
    fn prepare(&self, x: &[f64], y: &[f64]) -> Result<Prepared> {
        Ok(Prepared {
            x: x.to_vec(),
            y: y.to_vec(),
        })
    }

    /// The statistic of prepared inputs (or of a permutation of the
    /// prepared second input). Default: [`value`](Self::value).
    ///
    /// # Errors
    /// As [`value`](Self::value).
    fn value_prepared(&self, a: &[f64], b: &[f64]) -> Result<f64> {
        self.value(a, b)
    }

    /// The exact mean and standard deviation under random permutations of
    /// the second input, where a closed form is known. Default: unknown.
    fn exact_null(&self, _prepared: &Prepared) -> ExactNull {
        ExactNull::default()
    }
}

impl<T> Statistic for T
where
    T: Fn(&[f64], &[f64]) -> Result<f64> + Sync,
{
    fn value(&self, x: &[f64], y: &[f64]) -> Result<f64> {
        self(x, y)
    }
}

/// Average ranks in ascending order of the scores (as [`spearman`] ranks).
fn average_ranks(x: &[f64], y: &[f64]) -> Prepared {
    Prepared {
        x: rank_unchecked(x, Order::SmallerIsBetter, Ties::Average),
        y: rank_unchecked(y, Order::SmallerIsBetter, Ties::Average),
    }
}

/// Spearman's ρ (Pearson correlation of average ranks, [`spearman`]) as a
/// [`Statistic`]; permutations use [`spearman_ranks`] on ranks computed once.
///
/// Its permutation null is known exactly for any scores, ties included:
///
/// ```text
/// E[ρ] = 0,   Var[ρ] = 1/(n − 1)
/// ```
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{Spearman, Statistic};
/// assert_eq!(Spearman.value(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0])?, -1.0);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// Kendall (1948), ch. 5; the variance holds for the Pearson correlation of
/// any fixed values under random permutation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Spearman;

impl Statistic for Spearman {
    fn value(&self, x: &[f64], y: &[f64]) -> Result<f64> {
        spearman(x, y).map(|r| r.rho)
    }
    fn prepare(&self, x: &[f64], y: &[f64]) -> Result<Prepared> {
        crate::correlation::error::check_pair_len("x", x, "y", y, 2)?;
        crate::correlation::error::check_finite("x", x)?;
        crate::correlation::error::check_finite("y", y)?;
        Ok(average_ranks(x, y))
    }
    fn value_prepared(&self, a: &[f64], b: &[f64]) -> Result<f64> {
        spearman_ranks(a, b).map(|r| r.rho)
    }
    fn exact_null(&self, p: &Prepared) -> ExactNull {
        let n = p.x.len() as f64;
        ExactNull {
            mean: Some(0.0),
            sd: Some((1.0 / (n - 1.0)).sqrt()),
        }
    }
}

/// Kendall's τ-b ([`kendall_tau_b`], O(n log n)) as a [`Statistic`], with
/// its exact permutation null
/// (ties included, [`kendall_tau_b_null`](super::kendall_tau_b_null)).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{KendallTauB, Statistic};
/// // 5 of the 6 pairs concordant, 1 discordant: τ = 4/6.
/// let t = KendallTauB.value(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 4.0, 3.0])?;
/// assert!((t - 4.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
/// ```
///
/// # References
/// Kendall (1948), ch. 4.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KendallTauB;

impl Statistic for KendallTauB {
    fn value(&self, x: &[f64], y: &[f64]) -> Result<f64> {
        kendall_tau_b(x, y).map(|t| t.tau)
    }
    fn prepare(&self, x: &[f64], y: &[f64]) -> Result<Prepared> {
        Spearman.prepare(x, y)
    }
    fn value_prepared(&self, a: &[f64], b: &[f64]) -> Result<f64> {
        kendall_tau_b(a, b).map(|t| t.tau)
    }
    fn exact_null(&self, p: &Prepared) -> ExactNull {
        match super::null::kendall_tau_b_null_of_ranks(&p.x, &p.y) {
            Some((mean, sd)) => ExactNull {
                mean: Some(mean),
                sd: Some(sd),
            },
            None => ExactNull::default(),
        }
    }
}

/// The exact null mean of ρ_w and τ_w is 0 when the weights come from one
/// ranking only and the *other* ranking has no ties: reversing the other
/// ranking (b ↦ n + 1 − b) keeps the weights, maps a random permutation to a
/// random permutation and flips the sign of the coefficient.
fn one_sided_zero_mean(scheme: Scheme, p: &Prepared) -> ExactNull {
    let other = match scheme {
        Scheme::First => &p.y,
        Scheme::Second => &p.x,
        _ => return ExactNull::default(),
    };
    ExactNull {
        mean: has_no_ties(other).then_some(0.0),
        sd: None,
    }
}

/// The exact null SD of τ_w when the normalised weights `w` come from the
/// fixed ranking `a` only and the permuted ranking has no ties (then its
/// normaliser Z is fixed). With the antisymmetric C_ij = w_i w_j sgn(a_j − a_i),
/// N = Σ_{i<j} C_ij sgn(b_j − b_i) and r_i = Σ_j C_ij, the moments of signs
/// of a random permutation (E[s_ij²] = 1, ±1/3 for pairs sharing an item, 0
/// for disjoint pairs) give
///
/// ```text
/// Var[N] = ½ Σ_{i≠j} C_ij² + ⅓ Σ_i (r_i² − Σ_j C_ij²),   SD[τ_w] = √Var[N] / Z
/// Z² = Σ_{i<j, a_i≠a_j} w_i w_j · Σ_{i<j} w_i w_j
/// ```
///
/// With w ≡ 1/n this is Kendall's n(n−1)(2n+5)/18 for S. O(n log n).
fn one_sided_tau_w_null_sd(a: &[f64], w: &[f64]) -> Option<f64> {
    use crate::sum::neumaier;
    let mut idx: Vec<usize> = (0..a.len()).collect();
    idx.sort_by(|&i, &j| a[i].total_cmp(&a[j]));
    let total = neumaier(w.iter().copied());
    let w2 = neumaier(w.iter().map(|v| v * v));
    // Per tie group of a: weight below the group, in the group, Σ w² in it.
    let (mut below, mut row_sq, mut c2, mut za_tied) = (0.0, 0.0, 0.0, 0.0);
    let mut start = 0;
    while start < idx.len() {
        let end = start
            + idx[start..]
                .iter()
                .take_while(|&&i| a[i] == a[idx[start]])
                .count();
        let group = &idx[start..end];
        let g1 = neumaier(group.iter().map(|&i| w[i]));
        let g2 = neumaier(group.iter().map(|&i| w[i] * w[i]));
        let above = total - below - g1;
        for &i in group {
            let r = w[i] * (above - below);
            let c2_i = w[i] * w[i] * (w2 - g2);
            row_sq += r * r - c2_i;
            c2 += c2_i;
        }
        za_tied += (g1 * g1 - g2) / 2.0;
        below += g1;
        start = end;
    }
    let var_n = 0.5 * c2 + row_sq / 3.0;
    let all_pairs = (total * total - w2) / 2.0;
    let z2 = (all_pairs - za_tied) * all_pairs;
    (z2 > 0.0 && var_n >= 0.0).then(|| (var_n / z2).sqrt())
}

fn has_no_ties(v: &[f64]) -> bool {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.windows(2).all(|w| w[0] != w[1])
}

/// The fields of a serialised [`TopWeighted`], read back into a
/// [`TopWeightedRho`] or [`TopWeightedTau`] (whose configuration is private).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TopWeightedRepr<W> {
    weigher: W,
    scheme: Scheme,
    ties: Ties,
    order_x: Order,
    order_y: Order,
}

macro_rules! weighted_statistic {
    ($name:ident, $method:ident, $ranks:ident, $field:ident, $what:literal, $example:literal, $exact_sd:literal) => {
        #[doc = concat!("The top-weighted ", $what, " of Lombardo et al. (2020, Eq. 8) as a [`Statistic`].")]
        ///
        /// The choices of [`TopWeighted`] (weigher, [`Scheme`], tie method,
        /// orders), set with the same builder methods. The permutation test ranks the data
        /// once and permutes the ranks.
        ///
        /// ```text
        /// null mean = 0 exactly   for Scheme::First (Second) when the second (first)
        ///                         input has no ties (reflection argument)
        /// null SD of τ_w exact    in the same case (sign moments of a random permutation)
        /// otherwise               Monte Carlo; the paper's additive weights give a
        ///                         strongly negative null mean
        /// ```
        ///
        /// # Examples
        /// ```
        #[doc = concat!("use adaptive_comp_metrics::uncertainty::{Statistic, ", stringify!($name), "};")]
        /// use adaptive_comp_metrics::{Hyperbolic, Scheme};
        /// let (x, y) = ([5.0, 4.0, 3.0, 2.0, 1.0], [4.0, 5.0, 3.0, 2.0, 1.0]);
        #[doc = $example]
        #[doc = concat!("let gold_weighted = ", stringify!($name), "::new().weigher(Hyperbolic).scheme(Scheme::First);")]
        /// assert!(gold_weighted.value(&x, &y)? < 1.0);
        /// # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<W = OffsetQuadratic> {
            // The configuration, and the two choices it does not expose.
            config: TopWeighted<W>,
            weigher: W,
            scheme: Scheme,
        }

        /// Serialises as its [`TopWeighted`] configuration.
        #[cfg(feature = "serde")]
        impl<W: serde::Serialize> serde::Serialize for $name<W> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> core::result::Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&self.config, s)
            }
        }

        /// Deserialises from a [`TopWeighted`] configuration, rebuilt with
        /// the builder methods.
        #[cfg(feature = "serde")]
        impl<'de, W> serde::Deserialize<'de> for $name<W>
        where
            W: serde::Deserialize<'de> + Weigher + Clone,
        {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> core::result::Result<Self, D::Error> {
                let c = <TopWeightedRepr<W> as serde::Deserialize>::deserialize(d)?;
                Ok($name::new()
                    .weigher(c.weigher)
                    .scheme(c.scheme)
                    .ties(c.ties)
                    .orders(c.order_x, c.order_y))
            }
        }

        impl $name<OffsetQuadratic> {
            /// The paper's configuration: `f(n) = 1/(n + 2)²`, additive
            /// weights (Eq. 9), average ranks, larger score = better.
            #[must_use]
            pub fn new() -> Self {
                Self {
                    config: TopWeighted::new(),
                    weigher: OffsetQuadratic::default(),
                    scheme: Scheme::Additive,
                }
            }
        }

        impl Default for $name<OffsetQuadratic> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl<W: Weigher + Clone> $name<W> {
            /// Uses another weighting function (see [`TopWeighted::weigher`]).
            #[must_use]
            pub fn weigher<V: Weigher + Clone>(self, weigher: V) -> $name<V> {
                $name {
                    config: self.config.weigher(weigher.clone()),
                    weigher,
                    scheme: self.scheme,
                }
            }

            /// Sets the weighting scheme (see [`TopWeighted::scheme`]).
            #[must_use]
            pub fn scheme(self, scheme: Scheme) -> Self {
                Self {
                    config: self.config.scheme(scheme),
                    scheme,
                    ..self
                }
            }

            /// Sets the tie method (see [`TopWeighted::ties`]).
            #[must_use]
            pub fn ties(self, ties: Ties) -> Self {
                Self {
                    config: self.config.ties(ties),
                    ..self
                }
            }

            /// Sets which end of each input's scale is the top (see
            /// [`TopWeighted::orders`]).
            #[must_use]
            pub fn orders(self, x: Order, y: Order) -> Self {
                Self {
                    config: self.config.orders(x, y),
                    ..self
                }
            }

            /// The weighting scheme.
            #[must_use]
            pub fn weighting_scheme(&self) -> Scheme {
                self.scheme
            }

            /// The weighting function.
            #[must_use]
            pub fn weighting_function(&self) -> &W {
                &self.weigher
            }
        }

        impl<W: Weigher + Clone + Sync> Statistic for $name<W> {
            fn value(&self, x: &[f64], y: &[f64]) -> Result<f64> {
                self.config.$method(x, y).map(|r| r.$field)
            }
            fn prepare(&self, x: &[f64], y: &[f64]) -> Result<Prepared> {
                let (a, b, _) = self.config.ranks_and_weights(x, y)?;
                Ok(Prepared { x: a, y: b })
            }
            fn value_prepared(&self, a: &[f64], b: &[f64]) -> Result<f64> {
                self.config.$ranks(a, b).map(|r| r.$field)
            }
            fn exact_null(&self, p: &Prepared) -> ExactNull {
                let mut null = one_sided_zero_mean(self.scheme, p);
                if $exact_sd && null.mean.is_some() {
                    let weighting = if self.scheme == Scheme::First { &p.x } else { &p.y };
                    null.sd = item_weights(&p.x, &p.y, &self.weigher, self.scheme)
                        .ok()
                        .and_then(|w| one_sided_tau_w_null_sd(weighting, &w));
                }
                null
            }
        }
    };
}

weighted_statistic!(
    TopWeightedRho,
    rho,
    rho_ranks,
    rho,
    "ρ_w",
    "assert_eq!(TopWeightedRho::new().value(&x, &x)?, 1.0);",
    false
);
weighted_statistic!(
    TopWeightedTau,
    tau,
    tau_ranks,
    tau,
    "τ_w",
    "assert_eq!(TopWeightedTau::new().value(&x, &x)?, 1.0);",
    true
);

/// Vigna's (2015) weighted τ ([`weighted_tau`]) as a [`Statistic`]: the
/// p-value and intervals SciPy's `weightedtau` does not give.
///
/// ```text
/// τ = ⟨x, y⟩_w / √(⟨x, x⟩_w ⟨y, y⟩_w),   ⟨x, y⟩_w = Σ_{i<j} w_ij sgn(x_i − x_j) sgn(y_i − y_j)
/// w_ij = f(ρ_i) + f(ρ_j)  (additive)  or  f(ρ_i) f(ρ_j),   ρ the importance rank
/// ```
///
/// The importance ranks depend on the data, so the null mean is not 0 in
/// general: estimate it with [`null_moments`](super::null_moments). With
/// [`Rank::Given`](crate::correlation::vigna::Rank::Given) the given ranks
/// belong to the items in input order: permutation tests are fine, but
/// bootstrap resamples have another length and fail.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::uncertainty::{permutation_test, Alternative, VignaTau};
/// use rand::SeedableRng;
/// let x: Vec<f64> = (0..30).map(f64::from).collect();
/// let y: Vec<f64> = x.iter().map(|v| v + 8.0 * (v * 2.1).sin()).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
/// let t = permutation_test(&VignaTau::default(), &x, &y, 999, Alternative::Greater, &mut rng)?;
/// assert!(t.statistic > 0.5 && t.p_value < 0.01);
/// # Ok::<(), adaptive_comp_metrics::uncertainty::UncertaintyError>(())
/// ```
///
/// # References
/// S. Vigna (2015), A weighted correlation index for rankings with ties, WWW.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VignaTau<'r, W = Hyperbolic> {
    options: WeightedTauOptions<'r, W>,
}

impl Default for VignaTau<'_, Hyperbolic> {
    fn default() -> Self {
        Self::new(WeightedTauOptions::default())
    }
}

impl<'r, W> VignaTau<'r, W> {
    /// Vigna's τ with these options (SciPy's defaults:
    /// `WeightedTauOptions::default()`).
    #[must_use]
    pub fn new(options: WeightedTauOptions<'r, W>) -> Self {
        Self { options }
    }
}

impl<W: Weigher + Sync> Statistic for VignaTau<'_, W> {
    fn value(&self, x: &[f64], y: &[f64]) -> Result<f64> {
        weighted_tau(x, y, &self.options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weigh::Hyperbolic;

    #[test]
    fn prepared_values_equal_direct_values() {
        let x = [0.3, 0.9, 0.1, 0.5, 0.5, 0.7];
        let y = [2.0, 1.0, 5.0, 3.0, 4.0, 4.0];
        let stats: [&dyn Statistic; 5] = [
            &Spearman,
            &KendallTauB,
            &TopWeightedRho::new(),
            &TopWeightedTau::new(),
            &TopWeightedRho::new()
                .weigher(Hyperbolic)
                .orders(Order::SmallerIsBetter, Order::SmallerIsBetter)
                .scheme(Scheme::First),
        ];
        for s in stats {
            let p = s.prepare(&x, &y).unwrap();
            assert_eq!(
                s.value_prepared(&p.x, &p.y).unwrap(),
                s.value(&x, &y).unwrap()
            );
        }
    }

    #[test]
    fn one_sided_tau_w_sd_with_equal_weights_is_kendalls() {
        // w ≡ 1: Var[τ] = 2(2n+5)/(9n(n−1)) (Kendall 1948).
        for n in [3usize, 7, 50] {
            let a: Vec<f64> = (1..=n).map(|i| i as f64).collect();
            let sd = one_sided_tau_w_null_sd(&a, &vec![1.0 / n as f64; n]).unwrap();
            let n = n as f64;
            let want = (2.0 * (2.0 * n + 5.0) / (9.0 * n * (n - 1.0))).sqrt();
            assert!((sd - want).abs() < 1e-14, "{sd} vs {want}");
        }
        // A constant weighting ranking has no defined τ_w.
        assert_eq!(one_sided_tau_w_null_sd(&[1.0; 4], &[0.25; 4]), None);
    }

    #[test]
    fn exact_mean_only_without_ties_in_the_unweighted_input() {
        let first = TopWeightedRho::new().scheme(Scheme::First);
        let p = first.prepare(&[1.0, 1.0, 2.0], &[3.0, 2.0, 1.0]).unwrap();
        assert_eq!(first.exact_null(&p).mean, Some(0.0));
        let p = first.prepare(&[3.0, 2.0, 1.0], &[1.0, 1.0, 2.0]).unwrap();
        assert_eq!(first.exact_null(&p).mean, None);
        let second = TopWeightedTau::new().scheme(Scheme::Second);
        let p = second.prepare(&[3.0, 2.0, 1.0], &[1.0, 1.0, 2.0]).unwrap();
        assert_eq!(second.exact_null(&p).mean, Some(0.0));
        assert_eq!(TopWeightedRho::new().exact_null(&p), ExactNull::default());
    }
}
