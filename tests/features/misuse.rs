//! Issue 17: a misuse harness over the optional features' public API
//! (scheduler, simulator, uncertainty). Every function is called with zero,
//! one, huge and `usize::MAX` sizes, NaN and infinite parameters, empty and
//! mismatched inputs; none may panic, and every `Ok` must hold finite
//! numbers in their range. Sizes that would need terabytes are among the
//! inputs, so a run that passes refused them before allocating.

#[allow(unused_imports)] // every test below needs one of the optional features
use crate::harness::Harness;

#[allow(dead_code)]
const SIZES: [usize; 8] = [0, 1, 2, 3, 990, 1 << 24, 1 << 40, usize::MAX];
#[allow(dead_code)]
const REALS: [f64; 9] = [
    f64::NAN,
    f64::NEG_INFINITY,
    -1.0,
    0.0,
    0.5,
    1.0,
    1e308,
    f64::INFINITY,
    5e-324,
];
#[allow(dead_code)]
const INF: f64 = f64::INFINITY;

#[cfg(feature = "scheduler")]
#[test]
fn ballot_planning_and_scores_never_panic() {
    use adaptive_comp_metrics::ballot::{
        BallotConfig, Rounding, Scheduler, Unvoted, Vote, alpha_bounds, approx_total_comparisons,
        ballot_sizes, borda_score, comparisons_for_m_top, expected_cost, m_for_budget,
        m_from_comparisons, m_top, m_top_from_uniform, plan, random_matchings, rescaling_slope,
        select_top, spread_over_voters,
    };
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut h = Harness::default();
    let fin = |name, v: f64| (name, v, -INF, INF);
    for &n in &SIZES {
        for &m in &SIZES {
            // m = 2²⁴ on ≤ 6 items and V = 2²⁴ voters are within the
            // limits but would allocate hundreds of MB: not here.
            let within_but_big = m == 1 << 24;
            h.call(format!("random_matchings(0..min(n, 6), {m})"), || {
                if within_but_big {
                    return Ok(Vec::new());
                }
                let items: Vec<usize> = (0..n.min(6)).collect();
                random_matchings(&items, m, &mut rng).map(|_| Vec::new())
            });
            h.call(format!("spread_over_voters({n}, {m})"), || {
                if within_but_big {
                    return Ok(Vec::new());
                }
                spread_over_voters(n.min(1 << 20), m, &mut rng).map(|_| Vec::new())
            });
            h.call(format!("spread_over_voters(huge {n}, {m})"), || {
                spread_over_voters(n, m.max(1 << 25), &mut rng).map(|_| Vec::new())
            });
            h.call(format!("m_top({n}, {m})"), || {
                m_top(n, m).map(|v| vec![fin("m_top", v as f64)])
            });
            for &alpha in &REALS {
                for nb in [0, 1, 2, 7, 1000, 1001, usize::MAX] {
                    let what = format!("(n {n}, m {m}, α {alpha}, n_b {nb})");
                    h.call(format!("BallotConfig::new{what}"), || {
                        BallotConfig::new(n, m, alpha, nb).map(|c| {
                            let p = plan(&c);
                            let mut out = vec![fin("approx", p.approx_total_comparisons)];
                            out.push(fin("m_unif", p.m_unif));
                            out
                        })
                    });
                    h.call(format!("approx_total_comparisons{what}"), || {
                        approx_total_comparisons(n, m, alpha, nb).map(|v| vec![fin("approx", v)])
                    });
                    if m == 0 {
                        h.call(format!("ballot_sizes{what}"), || {
                            ballot_sizes(n, alpha, nb, Rounding::HalfToEven).map(|_| Vec::new())
                        });
                        h.call(format!("alpha_bounds{what}"), || {
                            alpha_bounds(n, nb, alpha).map(|_| Vec::new())
                        });
                        h.call(format!("m_for_budget{what}"), || {
                            m_for_budget(n, alpha, nb, Rounding::HalfAwayFromZero, u64::MAX)
                                .map(|_| Vec::new())
                        });
                    }
                    for &r in &REALS {
                        if m == 0 && nb == 7 {
                            h.call(format!("comparisons_for_m_top{what} {r}"), || {
                                comparisons_for_m_top(n, alpha, nb, r).map(|v| vec![fin("c", v)])
                            });
                            h.call(format!("m_from_comparisons{what} {r}"), || {
                                m_from_comparisons(r, n, alpha, nb).map(|v| vec![fin("m", v)])
                            });
                            h.call(format!("m_top_from_uniform{what} {r}"), || {
                                m_top_from_uniform(r, alpha, nb).map(|v| vec![fin("m", v)])
                            });
                        }
                    }
                }
            }
        }
    }
    for &t in &REALS {
        for c in [0, 1, u64::MAX] {
            h.call(format!("expected_cost({t}, {c})"), || {
                expected_cost(t, c).map(|v| vec![(("cost"), v, 0.0, INF)])
            });
        }
    }
    for (w, t, a) in [
        (0, 0, 0),
        (1, 0, 1),
        (2, 0, 1),
        (u64::MAX, u64::MAX, u64::MAX),
        (0, 1, 0),
    ] {
        h.call(format!("borda_score({w}, {t}, {a})"), || {
            borda_score(w, t, a).map(|v| vec![("x", v, 0.0, 1.0)])
        });
    }
    let keys: [&[f64]; 5] = [
        &[],
        &[f64::NAN],
        &[0.5, 0.5],
        &[1e308, -1e308],
        &[0.1, 0.9, 0.5],
    ];
    for x in keys {
        for y in keys {
            h.call(format!("rescaling_slope({x:?}, {y:?})"), || {
                rescaling_slope(x, y).map(|v| vec![fin("b", v)])
            });
        }
        for &count in &SIZES {
            h.call(format!("select_top({x:?}, {count})"), || {
                select_top(x, count, &mut rng).map(|_| Vec::new())
            });
        }
    }
    // A scheduler driven out of order.
    let mut s = Scheduler::new(BallotConfig::new(6, 2, 0.5, 2).unwrap());
    for ticket in [0, usize::MAX] {
        h.call(format!("record({ticket}) before opening"), || {
            s.record(ticket, Vote::First).map(|()| Vec::new())
        });
    }
    h.call("close before opening".into(), || {
        s.close_ballot(Unvoted::Reject).map(|_| Vec::new())
    });
    h.call("ranking before closing".into(), || {
        s.ranking(&mut rng).map(|_| Vec::new())
    });
    let _ = s.open_ballot(&mut rng).unwrap();
    for (a, b) in [(0, 0), (0, usize::MAX), (usize::MAX, usize::MAX)] {
        h.call(format!("record_win({a}, {b})"), || {
            s.record_win(a, b).map(|_| Vec::new())
        });
        h.call(format!("record_tie({a}, {b})"), || {
            s.record_tie(a, b).map(|_| Vec::new())
        });
    }
    h.call("record(usize::MAX)".into(), || {
        s.record(usize::MAX, Vote::Tie).map(|()| Vec::new())
    });
    h.call("close with no vote".into(), || {
        s.close_ballot(Unvoted::Withdraw).map(|_| Vec::new())
    });
    h.finish(10_000);
}

#[cfg(feature = "simulator")]
#[test]
fn simulator_setters_and_runs_never_panic() {
    use adaptive_comp_metrics::ballot::BallotConfig;
    use adaptive_comp_metrics::simulate::{
        Metric, PowerLaw, Simulation, Summary, Underlying, VoterModel, sweep,
    };
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut h = Harness::default();
    for &n in &SIZES {
        h.call(format!("exponential({n})"), || {
            Underlying::exponential(n).map(|_| Vec::new())
        });
        h.call(format!("power_law({n})"), || {
            Underlying::power_law(n, PowerLaw::Published).map(|_| Vec::new())
        });
    }
    let zs: [&[f64]; 5] = [
        &[],
        &[0.5],
        &[0.5, f64::NAN],
        &[2.0, 0.0],
        &[1.0, -1.0, 0.0],
    ];
    for z in zs {
        h.call(format!("Underlying::new({z:?})"), || {
            Underlying::new(z).map(|_| Vec::new())
        });
    }
    for &lo in &REALS {
        for &hi in &REALS {
            h.call(format!("sigma_range({lo}, {hi})"), || {
                VoterModel::paper().sigma_range(lo, hi).map(|_| Vec::new())
            });
            h.call(format!("epsilon_range({lo}, {hi})"), || {
                VoterModel::paper()
                    .epsilon_range(lo, hi)
                    .map(|_| Vec::new())
            });
        }
    }
    let z = Underlying::exponential(20).unwrap();
    for &v in &SIZES {
        h.call(format!("draw({v} voters)"), || {
            VoterModel::paper()
                .draw(&z, v, &mut rng)
                .map(|_| Vec::new())
        });
    }
    let sim = Simulation::new(z.clone(), BallotConfig::new(20, 2, 0.5, 2).unwrap())
        .unwrap()
        .n_voters(3)
        .unwrap();
    let summary = |s: &Summary| {
        vec![
            ("mean", s.mean, -INF, INF),
            ("sd", s.sd, 0.0, INF),
            ("se", s.se, 0.0, INF),
        ]
    };
    for &s in &[0, 1, 2, 1 << 21, usize::MAX] {
        h.call(format!("run({s})"), || {
            sim.run(s, 1).map(|r| {
                r.uniform
                    .iter()
                    .chain(&r.adaptive)
                    .flat_map(summary)
                    .collect()
            })
        });
        h.call(format!("run_with_threads({s}, 0)"), || {
            sim.run_with_threads(s, 1, 0).map(|_| Vec::new())
        });
        h.call(format!("simulate(1, {s})"), || {
            sim.simulate(1, s).map(|_| Vec::new())
        });
        h.call(format!("sweep({s})"), || {
            sweep(&sim, 200, &[0.5, f64::NAN], &[2, 0], &Metric::rho(), s, 1)
                .map(|w| w.points.iter().flat_map(|p| summary(&p.summary)).collect())
        });
        h.call(format!("n_voters({s})"), || {
            sim.clone().n_voters(s).map(|_| Vec::new())
        });
    }
    let values: [&[f64]; 5] = [
        &[],
        &[1.0],
        &[1.0, f64::NAN],
        &[-f64::MAX, f64::MAX],
        &[1.0, 2.0],
    ];
    for v in values {
        h.call(format!("Summary::of({v:?})"), || {
            Summary::of(v).map(|s| {
                let mut out = summary(&s);
                for &r in &REALS {
                    if let Some(z) = s.z_score(r, r, 3) {
                        out.push(("z", z, -INF, INF));
                    }
                }
                out
            })
        });
    }
    h.finish(150);
}

#[cfg(feature = "uncertainty")]
#[test]
fn uncertainty_on_bad_inputs_never_panics() {
    use adaptive_comp_metrics::uncertainty::{
        Alternative, Bootstrap, Interval, KendallTauB, Permutations, Spearman, TopWeightedRho,
        TopWeightedTau, kendall_tau_b_null, null_moments, paired_comparison, spearman_null,
        standardise,
    };
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut h = Harness::default();
    let inputs: [&[f64]; 7] = [
        &[],
        &[1.0, 2.0],
        &[1.0, 2.0, f64::NAN],
        &[1.0, 1.0, 1.0],
        &[1.0, 2.0, 3.0],
        &[3.0, 1.0, 2.0, 4.0],
        &[1e308, -1e308, 5e-324, 0.0],
    ];
    for &n in &SIZES {
        h.call(format!("spearman_null({n})"), || {
            spearman_null(n).map(|m| vec![("sd", m.sd.value, 0.0, 1.0)])
        });
    }
    for x in inputs {
        for y in inputs {
            let c = format!("({x:?}, {y:?})");
            h.call(format!("kendall_tau_b_null{c}"), || {
                kendall_tau_b_null(x, y).map(|m| vec![("sd", m.sd.value, 0.0, 1.0)])
            });
            for count in [0, 1, 2, 50, 1 << 40, usize::MAX] {
                let p = Permutations::new(count);
                h.call(format!("permutation test {count}{c}"), || {
                    p.alternative(Alternative::Less)
                        .test(&Spearman, x, y, &mut rng)
                        .map(|t| {
                            vec![
                                ("p", t.p_value, 0.0, 1.0),
                                ("mean", t.null_mean, -1.0, 1.0),
                                ("sd", t.null_sd, 0.0, 2.0),
                            ]
                        })
                });
                h.call(format!("null_moments τ_w {count}{c}"), || {
                    null_moments(&TopWeightedTau::new(), x, y, count, &mut rng).map(|m| {
                        vec![
                            ("mean", m.mean.value, -1.0, 1.0),
                            ("sd", m.sd.value, 0.0, 2.0),
                        ]
                    })
                });
                h.call(format!("standardise ρ_w {count}{c}"), || {
                    standardise(&TopWeightedRho::new(), x, y, count, &mut rng)
                        .map(|s| vec![("z", s.z, -INF, INF)])
                });
                h.call(format!("paired {count}{c}"), || {
                    paired_comparison(&KendallTauB, x, y, x, count, &mut rng).map(|p| {
                        vec![
                            ("d", p.difference, -2.0, 2.0),
                            ("p", p.test.p_value, 0.0, 1.0),
                        ]
                    })
                });
                for level in [f64::NAN, 0.0, 0.5, 0.95, 1.0, 2.0] {
                    for interval in [Interval::Bca, Interval::Percentile] {
                        h.call(format!("bootstrap {count} {level} {interval:?}{c}"), || {
                            Bootstrap::new(count)
                                .level(level)
                                .interval(interval)
                                .run(&Spearman, x, y, &mut rng)
                                .map(|ci| {
                                    vec![
                                        ("lower", ci.lower, -1.0, 1.0),
                                        ("upper", ci.upper, -1.0, 1.0),
                                        ("se", ci.standard_error, 0.0, 2.0),
                                    ]
                                })
                        });
                    }
                }
            }
        }
    }
    h.finish(3_000);
}
