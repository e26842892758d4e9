//! Issue 17: a misuse harness over the core's public API. Every function is
//! called on empty, one-item, NaN, infinite, huge, subnormal, constant and
//! mismatched inputs; none may panic, and every `Ok` must hold numbers
//! (coefficients in [−1, 1], p-values in [0, 1], weights summing to 1).
//! Also the `weigh` cases of the issue and the benchmark example's checks.

use crate::harness::Harness;
use adaptive_comp_metrics::correlation::gamma::kendall_gamma;
use adaptive_comp_metrics::{
    Alternative, CorrelationError, Hyperbolic, Logarithmic, OffsetQuadratic, Order, Quadratic,
    Scheme, Ties, TopWeighted, Unweighted, WeightedTauOptions, first_rank_fraction, item_weights,
    kendall_tau_b, kendall_tau_b_naive, pearson, rank, rho_w, rho_w_with_weights, spearman,
    spearman_ranks, tau_w, tau_w_with_weights, validate_ranks, weighted_tau,
};

/// The benchmark example, compiled here so its size checks can be called
/// (it brings its own copy of the SplitMix64 module).
#[path = "../../examples/bench_weighted_tau.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod bench;

const TINY: f64 = f64::MIN_POSITIVE;

fn score_vectors() -> Vec<Vec<f64>> {
    vec![
        vec![],
        vec![1.0],
        vec![f64::NAN],
        vec![1.0, f64::NAN],
        vec![f64::INFINITY, 1.0],
        vec![1.0, f64::NEG_INFINITY, 2.0],
        vec![0.0, 0.0],
        vec![1.0, 2.0],
        vec![1.0, 2.0, 3.0],
        vec![3.0, 2.0, 1.0],
        vec![1.0, 1.0, 1.0],
        vec![f64::MAX, -f64::MAX, 0.0],
        vec![1e308, 1e-308, 5e-324],
        vec![-0.0, 0.0, 1.0],
        vec![TINY, 2.0 * TINY, 3.0 * TINY],
        vec![5e-324, 1e-323, 0.0],
        vec![1.0, 2.0, 2.0, 3.0, 1.0],
    ]
}

fn rank_vectors() -> Vec<Vec<f64>> {
    vec![
        vec![],
        vec![1.0],
        vec![0.0, 1.0],
        vec![1.0, 2.0],
        vec![2.0, 1.0],
        vec![1.5, 1.5],
        vec![f64::NAN, 1.0],
        vec![1.0, 3.0],
        vec![1.0, f64::INFINITY],
        vec![1.0, 2.0, 3.0],
        vec![2.0, 2.0, 2.0],
        vec![-1.0, 2.0, 3.0],
    ]
}

fn weight_vectors() -> Vec<Vec<f64>> {
    vec![
        vec![],
        vec![0.0, 0.0],
        vec![1.0, f64::NAN],
        vec![-1.0, 2.0],
        vec![f64::INFINITY, 1.0],
        vec![f64::MAX, f64::MAX],
        vec![5e-324, 5e-324],
        vec![0.5, 0.5],
        vec![1.0, 2.0, 3.0],
        vec![0.0, 0.0, 1.0],
        vec![5e-324, 0.0, 5e-324],
    ]
}

const ALTS: [Alternative; 3] = [
    Alternative::TwoSided,
    Alternative::Greater,
    Alternative::Less,
];
const INF: f64 = f64::INFINITY;

#[test]
fn scores_in_every_shape_never_panic_and_never_give_nan() {
    let mut h = Harness::default();
    let vs = score_vectors();
    for x in &vs {
        for ties in [
            Ties::Average,
            Ties::Min,
            Ties::Max,
            Ties::Dense,
            Ties::Ordinal,
        ] {
            h.call(format!("rank({x:?}, {ties:?})"), || {
                rank(x, Order::LargerIsBetter, ties).map(|r| {
                    let n = x.len() as f64;
                    r.iter().map(|&v| ("rank", v, 1.0, n)).collect()
                })
            });
        }
        for y in &vs {
            let c = format!("({x:?}, {y:?})");
            h.call(format!("spearman{c}"), || {
                spearman(x, y).map(|r| {
                    let mut out = vec![("rho", r.rho, -1.0, 1.0), ("t", r.statistic, -INF, INF)];
                    out.extend(ALTS.map(|a| ("p", r.p_value(a), 0.0, 1.0)));
                    out
                })
            });
            h.call(format!("pearson{c}"), || {
                pearson(x, y).map(|r| {
                    let mut out = vec![("r", r.r, -1.0, 1.0), ("t", r.statistic, -INF, INF)];
                    out.extend(ALTS.map(|a| ("p", r.p_value(a), 0.0, 1.0)));
                    for level in [f64::NAN, 0.0, 0.5, 0.95, 1.0] {
                        for a in ALTS {
                            if let Ok(ci) = r.confidence_interval(level, a) {
                                out.push(("lower", ci.lower, -1.0, 1.0));
                                out.push(("upper", ci.upper, -1.0, 1.0));
                            }
                        }
                    }
                    out
                })
            });
            for (name, k) in [
                ("kendall_tau_b", kendall_tau_b(x, y)),
                ("kendall_tau_b_naive", kendall_tau_b_naive(x, y)),
            ] {
                h.call(format!("{name}{c}"), || {
                    k.map(|r| {
                        let mut out = vec![("tau", r.tau, -1.0, 1.0), ("z", r.z, -INF, INF)];
                        out.extend(ALTS.map(|a| ("p", r.p_value(a), 0.0, 1.0)));
                        out.extend(ALTS.map(|a| ("p_asym", r.p_value_asymptotic(a), 0.0, 1.0)));
                        out
                    })
                });
            }
            h.call(format!("rho_w{c}"), || {
                rho_w(x, y).map(|r| {
                    vec![
                        ("rho", r.rho, -1.0, 1.0),
                        ("effective_n", r.effective_n, 0.0, INF),
                    ]
                })
            });
            h.call(format!("tau_w{c}"), || {
                tau_w(x, y).map(|r| vec![("tau", r.tau, -1.0, 1.0)])
            });
            for scheme in [
                Scheme::Additive,
                Scheme::Multiplicative,
                Scheme::First,
                Scheme::Second,
            ] {
                let tw = TopWeighted::new().weigher(Hyperbolic).scheme(scheme);
                h.call(format!("TopWeighted {scheme:?} rho{c}"), || {
                    tw.rho(x, y).map(|r| vec![("rho", r.rho, -1.0, 1.0)])
                });
                h.call(format!("TopWeighted {scheme:?} tau{c}"), || {
                    tw.tau(x, y).map(|r| vec![("tau", r.tau, -1.0, 1.0)])
                });
            }
            h.call(format!("weighted_tau{c}"), || {
                weighted_tau(x, y, &WeightedTauOptions::default())
                    .map(|t| vec![("tau", t, -1.0, 1.0)])
            });
            let (xc, yc) = (x.clone(), y.clone());
            let n = x.len().min(y.len());
            h.call(format!("kendall_gamma{c}"), || {
                kendall_gamma(n, |i, j| xc[j] - xc[i], |i, j| yc[j] - yc[i])
                    .map(|g| vec![("gamma", g, -1.0, 1.0)])
            });
        }
    }
    h.finish(4_000);
}

#[test]
fn ranks_and_weights_in_every_shape_never_panic_and_never_give_nan() {
    let mut h = Harness::default();
    let rs = rank_vectors();
    for a in &rs {
        h.call(format!("validate_ranks({a:?})"), || {
            validate_ranks("a", a).map(|()| Vec::new())
        });
        for b in &rs {
            let c = format!("({a:?}, {b:?})");
            h.call(format!("spearman_ranks{c}"), || {
                spearman_ranks(a, b).map(|r| vec![("rho", r.rho, -1.0, 1.0)])
            });
            let tw = TopWeighted::new();
            h.call(format!("rho_ranks{c}"), || {
                tw.rho_ranks(a, b).map(|r| vec![("rho", r.rho, -1.0, 1.0)])
            });
            h.call(format!("tau_ranks{c}"), || {
                tw.tau_ranks(a, b).map(|r| vec![("tau", r.tau, -1.0, 1.0)])
            });
            for scheme in [
                Scheme::Additive,
                Scheme::Multiplicative,
                Scheme::First,
                Scheme::Second,
            ] {
                let weighers: [(&str, &dyn adaptive_comp_metrics::Weigher); 5] = [
                    ("hyperbolic", &Hyperbolic),
                    ("quadratic", &Quadratic),
                    ("logarithmic", &Logarithmic),
                    ("unweighted", &Unweighted),
                    ("offset", &OffsetQuadratic::default()),
                ];
                for (name, w) in weighers {
                    h.call(format!("item_weights {name} {scheme:?}{c}"), || {
                        item_weights(a, b, w, scheme).map(|w| {
                            let sum: f64 = w.iter().sum();
                            let mut out: Vec<_> = w.iter().map(|&v| ("w", v, 0.0, 1.0)).collect();
                            out.push(("Σw", sum, 1.0 - 1e-12, 1.0 + 1e-12));
                            out
                        })
                    });
                }
            }
            for w in weight_vectors() {
                let c = format!("({a:?}, {b:?}, {w:?})");
                h.call(format!("rho_w_with_weights{c}"), || {
                    rho_w_with_weights(a, b, &w).map(|r| vec![("rho", r.rho, -1.0, 1.0)])
                });
                h.call(format!("tau_w_with_weights{c}"), || {
                    tau_w_with_weights(a, b, &w).map(|r| vec![("tau", r.tau, -1.0, 1.0)])
                });
            }
        }
    }
    for n0 in [
        f64::NAN,
        -1.0,
        -0.0,
        0.0,
        1e-300,
        2.0,
        1e76,
        1e77,
        1e308,
        f64::MAX,
        INF,
    ] {
        h.call(format!("first_rank_fraction({n0})"), || {
            first_rank_fraction(n0).map(|r| vec![("R", r, f64::MIN_POSITIVE, 1.0)])
        });
        h.call(format!("OffsetQuadratic({n0}) weights"), || {
            OffsetQuadratic::new(n0).and_then(|f| {
                item_weights(
                    &[1.0, 2.0, 3.0],
                    &[3.0, 2.0, 1.0],
                    &f,
                    Scheme::Multiplicative,
                )
                .map(|w| {
                    w.iter()
                        .map(|&v| ("w", v, f64::MIN_POSITIVE, 1.0))
                        .collect()
                })
            })
        });
    }
    h.finish(2_000);
}

#[test]
fn item_weights_names_the_nan_rank_and_the_missing_items() {
    // Issue 17: "weight 0 is infinite" for a NaN rank; "all weights are
    // zero" for no item.
    let e = item_weights(&[0.0, f64::NAN], &[1.0, 2.0], &Hyperbolic, Scheme::Additive);
    assert_eq!(
        e,
        Err(CorrelationError::NaN {
            input: "a",
            index: 1
        })
    );
    assert_eq!(e.unwrap_err().to_string(), "a[1] is NaN");
    let e = item_weights(&[], &[], &Hyperbolic, Scheme::Additive).unwrap_err();
    assert_eq!(e.to_string(), "too few items: 1 needed, got 0");
    let e = item_weights(&[0.0, 1.0], &[1.0, 2.0], &Hyperbolic, Scheme::Additive).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a[0] is not a valid rank: ranks must be finite and lie in [1, 2]"
    );
}

#[test]
fn an_offset_whose_weights_underflow_is_refused_at_construction() {
    // Issue 17: OffsetQuadratic::new(1e308) was accepted and every later call
    // failed with "all weights are zero".
    let e = OffsetQuadratic::new(1e308).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid parameter n0: a finite offset 0 ≤ n0 ≤ 1e76 (beyond, the weights underflow to zero)"
    );
    assert_eq!(first_rank_fraction(1e308), Err(e));
    // The largest offset works with every scheme.
    let f = OffsetQuadratic::new(OffsetQuadratic::MAX_N0).unwrap();
    let r = TopWeighted::new()
        .weigher(f)
        .scheme(Scheme::Multiplicative)
        .rho(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 4.0, 3.0])
        .unwrap();
    // Equal weights: ρ_w is Spearman's ρ = 1 − 6·2/(4·15) = 0.8.
    assert!((r.rho - 0.8).abs() < 1e-12, "{}", r.rho);
}

#[cfg(feature = "serde")]
#[test]
fn a_deserialised_offset_is_validated_too() {
    let ok: OffsetQuadratic = serde_json::from_str(r#"{"n0": 3.0}"#).unwrap();
    assert_eq!(ok.n0(), 3.0);
    for bad in [r#"{"n0": 1e308}"#, r#"{"n0": -1.0}"#] {
        let e = serde_json::from_str::<OffsetQuadratic>(bad).unwrap_err();
        assert!(e.to_string().contains("invalid parameter n0"), "{e}");
    }
    let back: OffsetQuadratic = serde_json::from_str(&serde_json::to_string(&ok).unwrap()).unwrap();
    assert_eq!(back, ok);
}

#[test]
fn the_benchmark_example_refuses_sizes_before_allocating() {
    // Issue 17: `bench_weighted_tau 1000000000000 42 1` aborted and
    // `REPEATS = 0` printed `inf` into the JSON.
    assert_eq!(
        bench::check_size(1_000_000_000_000),
        Err(
            "N = 1000000000000 is too large: at 96 bytes per item the run needs more than \
             the 17179869184-byte limit of this benchmark (N ≤ 178956970)"
                .to_owned()
        )
    );
    assert!(bench::check_size(usize::MAX).is_err());
    assert!(bench::check_size(178_956_971).is_err());
    assert!(bench::check_size(178_956_970).is_ok());
    assert_eq!(
        bench::check_repeats(0),
        Err("REPEATS must be at least 1 (the best time of no run is undefined)".to_owned())
    );
    assert!(bench::check_repeats(1).is_ok());
}
