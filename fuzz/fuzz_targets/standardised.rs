//! The standardised scale with arbitrary sizes, weighers and moments:
//! `TopWeighted::null_exact`, `null_distribution_exact`, `null_table` and
//! `standardiser` (n from the whole `usize` range), `Standardiser`
//! (`from_moments`, `new`, `standardised`, `inverse`) and
//! `uncertainty::GammaMonteCarlo` (`moments` with n from the whole `usize`
//! range, `moments_of`, `rho_standardised`, `tau_standardised`). Never a
//! panic; n over `GammaMonteCarlo::MAX_ITEMS` refused with `TooLarge`
//! before allocating; moments valid (|Γ̄| < 1, V > 0, 0 ≤ V_ℓ ≤ V); maps
//! with g(±1) = ±1, values in [−1, 1], increasing, and `inverse` undoing
//! `standardised`.
#![no_main]

use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads, UncertaintyError};
use adaptive_comp_metrics::{
    Coefficient, GammaMoments, Scheme, Standardiser, TopWeighted, Weigher,
};
use arbitrary::Arbitrary;
use core::num::NonZeroUsize;
use libfuzzer_sys::fuzz_target;

#[path = "support.rs"]
mod support;
use support::{Float, Size, SplitMix, floats, within};

/// Items a Monte-Carlo call may have (its pilot draws 4096 permutations).
const MC_ITEMS: usize = 40;

#[derive(Debug, Clone, Copy, Arbitrary)]
enum W {
    /// The tabulated weighers: 1/(r + n0)² for n0 = tag % 4 (3 is not
    /// tabulated), or 1/r.
    Table(u8),
    /// 1/r^p, any p (NaN, ∞ and negative weights included).
    Power(Float),
    /// A tabulated weigher up to rank k, then another value.
    Clipped(u8, Float),
}

impl Weigher for W {
    fn weight(&self, r: f64) -> f64 {
        match *self {
            W::Table(t) if t % 5 == 4 => 1.0 / r,
            W::Table(t) => 1.0 / (r + f64::from(t % 5)).powi(2),
            W::Power(p) => r.powf(-p.0),
            W::Clipped(k, v) => {
                if r <= f64::from(k) {
                    1.0 / r
                } else {
                    v.0
                }
            }
        }
    }
}

#[derive(Debug, Arbitrary)]
struct Config {
    weigher: W,
    scheme: u8,
    tau: bool,
}

impl Config {
    fn top_weighted(&self) -> TopWeighted<W> {
        let scheme = [
            Scheme::Additive,
            Scheme::Multiplicative,
            Scheme::First,
            Scheme::Second,
        ][usize::from(self.scheme % 4)];
        TopWeighted::new().weigher(self.weigher).scheme(scheme)
    }

    fn coefficient(&self) -> Coefficient {
        if self.tau {
            Coefficient::Tau
        } else {
            Coefficient::Rho
        }
    }
}

#[derive(Debug, Arbitrary)]
enum Op {
    Exact(Config, Size),
    Distribution(Config, Size),
    Table(Config, Size),
    Map(Float, Float, Float, Vec<Float>),
    MonteCarlo(Config, Size, Float, Size, u64),
    MonteCarloOf(Config, Vec<Float>, Vec<Float>, Float, u64),
}

fn check_moments(m: &GammaMoments) {
    within(m.mean.value, -1.0, 1.0, "mean");
    assert!(m.mean.value.abs() < 1.0);
    assert!(m.variance.value > 0.0 && m.variance.value.is_finite(), "{m:?}");
    within(m.left_variance.value, 0.0, m.variance.value, "left variance");
    for e in [m.mean, m.variance, m.left_variance] {
        assert!(e.standard_error >= 0.0 && e.standard_error.is_finite(), "{m:?}");
    }
}

fn check_map(g: &Standardiser, xs: &[f64]) {
    assert_eq!(g.standardised(1.0).unwrap(), 1.0);
    assert_eq!(g.standardised(-1.0).unwrap(), -1.0);
    let mut previous: Option<(f64, f64)> = None;
    let mut sorted: Vec<f64> = xs.iter().copied().filter(|x| x.abs() <= 1.0).collect();
    sorted.sort_by(f64::total_cmp);
    for &x in &sorted {
        let y = g.standardised(x).unwrap();
        within(y, -1.0, 1.0, "g(x)");
        if let Some((px, py)) = previous {
            assert!(y >= py, "g decreases: g({px}) = {py} > g({x}) = {y}");
        }
        previous = Some((x, y));
        let back = g.inverse(y).unwrap();
        within(back, -1.0, 1.0, "g⁻¹(g(x))");
        // g may be flat at the mean (g₁ = 0): then x is recovered only
        // up to the flat part; elsewhere to rounding.
        if g.coefficients().g1 > 1e-6 {
            assert!((back - x).abs() < 1e-6, "g⁻¹(g({x})) = {back}");
        }
    }
    for &x in xs.iter().filter(|x| !(x.abs() <= 1.0)) {
        assert!(g.standardised(x).is_err());
    }
}

fuzz_target!(|op: Op| {
    match op {
        Op::Exact(c, n) => {
            // n ≤ 8 runs (n = 11 takes seconds); larger n must be refused.
            if (9..=11).contains(&n.0) {
                return;
            }
            if let Ok(m) = c.top_weighted().null_exact(c.coefficient(), n.0) {
                assert!((3..=8).contains(&n.0));
                check_moments(&m);
            }
        }
        Op::Distribution(c, n) => {
            if (8..=10).contains(&n.0) {
                return;
            }
            if let Ok(values) = c.top_weighted().null_distribution_exact(c.coefficient(), n.0) {
                assert_eq!(values.len(), (1..=n.0).product::<usize>());
                for v in values {
                    within(v, -1.0, 1.0, "Γ");
                }
            }
        }
        Op::Table(c, n) => {
            // Recognising the weigher costs up to 10⁷ evaluations: small n and
            // the extremes run, the rest is skipped.
            if n.0 > 1 << 16 && n.0 < 1 << 60 {
                return;
            }
            let config = c.top_weighted();
            if let Ok(m) = config.null_table(c.coefficient(), n.0) {
                check_moments(&m);
                let g = config.standardiser(c.coefficient(), n.0).unwrap();
                check_map(&g, &[-1.0, -0.5, m.mean.value, 0.0, 0.5, 1.0]);
            }
        }
        Op::Map(m, v, l, xs) => {
            if let Ok(g) = Standardiser::from_moments(m.0, v.0, l.0) {
                check_moments(g.moments());
                check_map(&g, &floats(&xs));
                let again = Standardiser::new(*g.moments()).unwrap();
                assert_eq!(again.coefficients(), g.coefficients());
            } else if let Ok(given) = GammaMoments::given(m.0, v.0, l.0) {
                // Valid moments without an increasing map: `new` agrees.
                assert!(Standardiser::new(given).is_err());
            }
        }
        Op::MonteCarlo(c, n, target, cap, seed) => {
            let mc = GammaMonteCarlo::new()
                .standard_error(target.0)
                .max_permutations(cap.0)
                .threads(Threads::Fixed(NonZeroUsize::MIN));
            let mut rng = SplitMix(seed);
            if n.0 > GammaMonteCarlo::MAX_ITEMS {
                let valid_target = target.0 > 0.0 && target.0.is_finite();
                let e = mc.moments(&c.top_weighted(), c.coefficient(), n.0, &mut rng);
                if valid_target {
                    assert_eq!(
                        e,
                        Err(UncertaintyError::TooLarge {
                            quantity: "items",
                            requested: n.0 as u64,
                            limit: GammaMonteCarlo::MAX_ITEMS as u64,
                        })
                    );
                } else {
                    assert!(e.is_err());
                }
                return;
            }
            // Cheap runs only: few items, and a capped number of permutations.
            if n.0 > MC_ITEMS || cap.0 > 8192 {
                return;
            }
            if let Ok(m) = mc.moments(&c.top_weighted(), c.coefficient(), n.0, &mut rng) {
                check_moments(&m);
            }
        }
        Op::MonteCarloOf(c, x, y, target, seed) => {
            let (x, y) = (floats(&x), floats(&y));
            if x.len() > MC_ITEMS {
                return;
            }
            let mc = GammaMonteCarlo::new()
                .standard_error(target.0)
                .max_permutations(4096)
                .threads(Threads::Fixed(NonZeroUsize::MIN));
            let config = c.top_weighted();
            let mut rng = SplitMix(seed);
            if let Ok(m) = mc.moments_of(&config, c.coefficient(), &x, &y, &mut rng) {
                check_moments(&m);
            }
            let s = if c.tau {
                mc.tau_standardised(&config, &x, &y, &mut rng).map(|s| s.value)
            } else {
                mc.rho_standardised(&config, &x, &y, &mut rng).map(|s| s.value)
            };
            if let Ok(v) = s {
                within(v, -1.0, 1.0, "standardised value");
            }
        }
    }
});
