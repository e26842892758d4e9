//! The large-n coefficients give the same bits on any number of threads, and
//! the same bits as before they used threads:
//!
//! * every coefficient of `tests/common/fingerprint.rs` (weighted τ with every
//!   rank, combination and NaN policy, its sums, τ-b with its counts and
//!   p-value, Spearman's ρ with its p-value, ρ_w, τ_w) on data sets that
//!   straddle the threshold, with and without ties, equals the values pinned
//!   in `tests/data/parallel/fingerprint.txt` (computed by the crate before
//!   it used threads: `tests/data/parallel/gen_fingerprint.sh`), on 1, 2 and
//!   7 threads;
//! * on random data of sizes around the threshold (ties, NaN, negative
//!   scores, ranks), 1, 2, 3, 4 and 7 threads agree bit for bit;
//! * `ACM_THREADS` sets what `Threads::Available` means.

use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_tau_stats,
};
use adaptive_comp_metrics::threads::PARALLEL_FROM;
use adaptive_comp_metrics::{
    Alternative, Order, Threads, Ties, TopWeighted, kendall_tau_b, rho_w, spearman, tau_w,
    with_threads,
};
use proptest::prelude::*;
use std::num::NonZeroUsize;

#[path = "../common/fingerprint.rs"]
mod fingerprint;

fn threads(t: usize) -> Threads {
    Threads::Fixed(NonZeroUsize::new(t).unwrap())
}

#[test]
fn every_coefficient_keeps_its_pinned_bits_on_1_2_and_7_threads() {
    let pinned = include_str!("../data/parallel/fingerprint.txt");
    let pinned: Vec<(&str, u64)> = pinned
        .lines()
        .map(|l| {
            let mut f = l.split(' ');
            let name = f.next().unwrap();
            (name, u64::from_str_radix(f.next().unwrap(), 16).unwrap())
        })
        .collect();
    assert_eq!(pinned.len(), 208);
    let sets = fingerprint::data_sets();
    for t in [1, 2, 7] {
        let got: Vec<(String, f64)> = with_threads(threads(t), || {
            sets.iter()
                .flat_map(|(name, x, y)| fingerprint::fingerprint(name, x, y))
                .collect()
        });
        assert_eq!(got.len(), pinned.len());
        for ((name, v), (want_name, want)) in got.iter().zip(&pinned) {
            assert_eq!(name, want_name);
            assert_eq!(
                v.to_bits(),
                *want,
                "{name} on {t} threads: {v:?}, pinned {:?}",
                f64::from_bits(*want)
            );
        }
    }
}

/// Everything the coefficients return on (x, y), as bits.
fn all_bits(x: &[f64], y: &[f64], nan: bool) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    let put = |out: &mut Vec<u64>, v: f64| out.push(v.to_bits());
    let policy = if nan {
        NanPolicy::Smallest
    } else {
        NanPolicy::Error
    };
    let given: Vec<f64> = (0..x.len()).map(|i| ((i * 7919) % 1013) as f64).collect();
    for rank in [
        Rank::Symmetric,
        Rank::ByYX,
        Rank::Index,
        Rank::Given(&given),
    ] {
        for combine in [Combine::Additive, Combine::Multiplicative] {
            let o = WeightedTauOptions::default()
                .rank(rank)
                .combine(combine)
                .nan(policy);
            match weighted_tau_stats(x, y, &o) {
                Ok(s) => {
                    put(&mut out, s.tau);
                    for st in [Some(s.stats), s.stats_yx].into_iter().flatten() {
                        for v in [st.total, st.tied_x, st.tied_y, st.tied_xy] {
                            put(&mut out, v);
                        }
                        for v in [st.concordant, st.discordant, st.tau] {
                            put(&mut out, v);
                        }
                    }
                }
                Err(e) => out.push(e.to_string().len() as u64),
            }
        }
    }
    if nan {
        return out;
    }
    let u: Vec<f64> = (0..x.len()).map(|i| 1.0 / (i as f64 + 2.0)).collect();
    for combine in [Combine::Additive, Combine::Multiplicative] {
        let s = weighted_kendall(x, y, &u, combine).unwrap();
        for v in [s.total, s.tied_x, s.tied_y, s.tied_xy, s.concordant, s.tau] {
            put(&mut out, v);
        }
    }
    let k = kendall_tau_b(x, y).unwrap();
    for v in [k.tau, k.z, k.p_value(Alternative::TwoSided)] {
        put(&mut out, v);
    }
    out.extend([k.concordant, k.discordant, k.ties_x, k.ties_y, k.ties_xy]);
    let r = spearman(x, y).unwrap();
    for v in [r.rho, r.statistic, r.p_value(Alternative::Less)] {
        put(&mut out, v);
    }
    put(&mut out, rho_w(x, y).unwrap().rho);
    let t = tau_w(x, y).unwrap();
    for v in [t.tau, t.concordant, t.discordant] {
        put(&mut out, v);
    }
    for ties in [Ties::Min, Ties::Dense, Ties::Ordinal] {
        let tw = TopWeighted::new()
            .ties(ties)
            .orders(Order::SmallerIsBetter, Order::LargerIsBetter);
        put(&mut out, tw.rho(x, y).unwrap().rho);
        put(&mut out, tw.tau(x, y).unwrap().tau);
    }
    out
}

/// Scores of `n` items: continuous (negative too), few levels (heavy ties),
/// or ranks with ties (multiples of ½ in [1, n], the counting-sort path).
fn scores(n: usize, kind: u8, seed: u64) -> Vec<f64> {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    match kind {
        0 => (0..n).map(|_| 2.0 * next() - 1.0).collect(),
        1 => (0..n).map(|_| (next() * 7.0).floor()).collect(),
        2 => (0..n).map(|_| (next() * 3000.0).floor() - 1000.0).collect(),
        _ => {
            let coarse: Vec<f64> = (0..n).map(|_| (next() * n as f64 / 3.0).floor()).collect();
            adaptive_comp_metrics::rank(&coarse, Order::LargerIsBetter, Ties::Average).unwrap()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn one_and_many_threads_give_the_same_bits(
        below in any::<bool>(),
        offset in 0usize..3000,
        kind_x in 0u8..4,
        kind_y in 0u8..4,
        nan in any::<bool>(),
        seed in any::<u64>(),
    ) {
        // Sizes straddling the threshold.
        let n = if below { PARALLEL_FROM - 1 - offset % 64 } else { PARALLEL_FROM + offset };
        let x = scores(n, kind_x, seed);
        let mut y = scores(n, kind_y, seed ^ 0x5555);
        if nan {
            for i in (seed as usize % 50..n).step_by(131) {
                y[i] = f64::NAN;
            }
        }
        let one = with_threads(Threads::ONE, || all_bits(&x, &y, nan));
        for t in [2, 3, 4, 7] {
            let many = with_threads(threads(t), || all_bits(&x, &y, nan));
            prop_assert!(one == many, "{} threads differ from 1 (n = {})", t, n);
        }
    }
}

/// With `ACM_THREADS_EXPECT` set (by the test below, in a child process),
/// checks that `Threads::Available` follows `ACM_THREADS`; a no-op
/// otherwise.
#[test]
fn child_available_threads_follow_the_environment() {
    if let Ok(want) = std::env::var("ACM_THREADS_EXPECT") {
        let want: usize = want.parse().unwrap();
        assert_eq!(Threads::Available.count(), want);
        assert_eq!(adaptive_comp_metrics::current_threads(), Threads::Available);
    }
}

#[test]
fn acm_threads_sets_the_available_threads() {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    // A positive integer is taken (surrounding spaces too); anything else is
    // ignored in favour of the machine's cores.
    for (value, want) in [
        ("1", 1),
        (" 3 ", 3),
        ("0", cores),
        ("two", cores),
        ("", cores),
    ] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "parallel::child_available_threads_follow_the_environment",
                "--exact",
                "--test-threads=1",
            ])
            .env("ACM_THREADS", value)
            .env("ACM_THREADS_EXPECT", want.to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "ACM_THREADS={value:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn with_threads_nests_and_restores() {
    let two = threads(2);
    assert_eq!(adaptive_comp_metrics::current_threads(), Threads::Available);
    with_threads(two, || {
        assert_eq!(adaptive_comp_metrics::current_threads(), two);
        with_threads(Threads::ONE, || {
            assert_eq!(adaptive_comp_metrics::current_threads(), Threads::ONE);
        });
        assert_eq!(adaptive_comp_metrics::current_threads(), two);
        // A panic inside restores the choice too.
        let caught = std::panic::catch_unwind(|| with_threads(Threads::ONE, || panic!("inside")));
        assert!(caught.is_err());
        assert_eq!(adaptive_comp_metrics::current_threads(), two);
    });
    assert_eq!(adaptive_comp_metrics::current_threads(), Threads::Available);
}

#[test]
fn wide_weights_and_many_limbs_give_the_same_bits_on_any_number_of_threads() {
    // Weights from 1e-300 to 1e300 need the widest fixed-point sums (34
    // limbs); 1e-20 … 1e20 the middle ones. Ties in both inputs.
    let n = PARALLEL_FROM + 321;
    let x = scores(n, 2, 5);
    let y = scores(n, 1, 6);
    for span in [20.0, 300.0] {
        let u: Vec<f64> = (0..n)
            .map(|i| 10f64.powf(span * (((i * 7919) % 2001) as f64 / 1000.0 - 1.0)))
            .collect();
        for combine in [Combine::Additive, Combine::Multiplicative] {
            let run = |t: usize| {
                with_threads(threads(t), || weighted_kendall(&x, &y, &u, combine)).map(|s| {
                    [s.total, s.tied_x, s.tied_y, s.tied_xy, s.concordant, s.tau].map(f64::to_bits)
                })
            };
            let one = run(1);
            for t in [2, 3] {
                assert_eq!(run(t), one, "span 1e±{span}, {combine:?}, {t} threads");
            }
        }
    }
}
