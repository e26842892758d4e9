//! Every large-n coefficient of the crate on a few fixed data sets, as
//! (name, value) pairs: the values that `tests/correlation/parallel.rs`
//! pins bit for bit on 1, 2 and more threads. Uses the public API only, so
//! the same file computes the pinned values on another commit (see the
//! `fingerprint` example), through `cargo run --example fingerprint`.

use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_tau,
    weighted_tau_stats,
};
use adaptive_comp_metrics::{
    Alternative, Hyperbolic, Order, Quadratic, Ties, TopWeighted, Unweighted, kendall_tau_b, rho_w,
    spearman, tau_w,
};

/// SplitMix64 (the shared generator of the goldens).
fn stream(seed: u64, len: usize) -> Vec<f64> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
        })
        .collect()
}

/// The data sets: (name, x, y, NaN in x). Sizes straddle the crate's
/// threshold for threads (2^16 items) and reach 3·10^5.
pub fn data_sets() -> Vec<(&'static str, Vec<f64>, Vec<f64>)> {
    let split = |v: Vec<f64>| {
        let n = v.len() / 2;
        let (a, b) = v.split_at(n);
        (a.to_vec(), b.to_vec())
    };
    let mut sets = Vec::new();
    // Distinct scores, 3·10^5 items.
    let (x, y) = split(stream(42, 600_000));
    sets.push(("distinct_300000", x, y));
    // Heavy ties (100 levels), 2^16 + 1000 items.
    let (x, y) = split(stream(7, 2 * 66_536));
    let t = |v: Vec<f64>| v.into_iter().map(|u| (u * 100.0).floor()).collect();
    sets.push(("ties_66536", t(x), t(y)));
    // Just below the threshold, some ties, and negative scores.
    let (x, y) = split(stream(9, 2 * 65_535));
    let t = |v: Vec<f64>| {
        v.into_iter()
            .map(|u| (u * 5000.0).floor() - 2500.0)
            .collect()
    };
    sets.push(("ties_65535", t(x), t(y)));
    // Ranks with ties (multiples of ½ in [1, n]): the counting-sort path.
    let (x, y) = split(stream(11, 2 * 100_003));
    let r = |v: Vec<f64>| {
        let coarse: Vec<f64> = v.into_iter().map(|u| (u * 20_000.0).floor()).collect();
        adaptive_comp_metrics::rank(&coarse, Order::SmallerIsBetter, Ties::Average).unwrap()
    };
    sets.push(("ranks_100003", r(x), r(y)));
    sets
}

/// Every coefficient on one data set.
pub fn fingerprint(name: &str, x: &[f64], y: &[f64]) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    let mut put = |what: &str, v: f64| out.push((format!("{name}/{what}"), v));
    let n = x.len();
    let scipy = WeightedTauOptions::default();
    let s = weighted_tau_stats(x, y, &scipy).unwrap();
    put("weighted_tau", s.tau);
    for (half, st) in [("xy", s.stats), ("yx", s.stats_yx.unwrap())] {
        put(&format!("stats_{half}.total"), st.total);
        put(&format!("stats_{half}.tied_x"), st.tied_x);
        put(&format!("stats_{half}.tied_y"), st.tied_y);
        put(&format!("stats_{half}.tied_xy"), st.tied_xy);
        put(&format!("stats_{half}.concordant"), st.concordant);
        put(&format!("stats_{half}.discordant"), st.discordant);
        put(&format!("stats_{half}.tau"), st.tau);
    }
    let given: Vec<f64> = y.iter().map(|v| -v).collect();
    for (label, rank) in [
        ("by_xy", Rank::ByXY),
        ("by_yx", Rank::ByYX),
        ("index", Rank::Index),
        ("given", Rank::Given(&given)),
        ("symmetric", Rank::Symmetric),
    ] {
        for (c, combine) in [("add", Combine::Additive), ("mul", Combine::Multiplicative)] {
            let o = scipy.rank(rank).combine(combine);
            put(
                &format!("weighted_tau_{label}_{c}"),
                weighted_tau(x, y, &o).unwrap(),
            );
        }
    }
    let o = scipy.rank(Rank::ByXY).weigher(Unweighted);
    put("weighted_tau_unweighted", weighted_tau(x, y, &o).unwrap());
    let o = scipy.weigher(Quadratic).combine(Combine::Multiplicative);
    put(
        "weighted_tau_quadratic_mul",
        weighted_tau(x, y, &o).unwrap(),
    );
    // NaN as the smallest score, every 97th x.
    let xn: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 97 == 3 { f64::NAN } else { v })
        .collect();
    for (c, combine) in [("add", Combine::Additive), ("mul", Combine::Multiplicative)] {
        let o = scipy.nan(NanPolicy::Smallest).combine(combine);
        put(
            &format!("weighted_tau_nan_{c}"),
            weighted_tau(&xn, y, &o).unwrap(),
        );
    }
    let u: Vec<f64> = (0..n).map(|i| 1.0 / (i as f64 + 1.0)).collect();
    for (c, combine) in [("add", Combine::Additive), ("mul", Combine::Multiplicative)] {
        let st = weighted_kendall(x, y, &u, combine).unwrap();
        put(&format!("weighted_kendall_{c}.tau"), st.tau);
        put(&format!("weighted_kendall_{c}.concordant"), st.concordant);
        put(&format!("weighted_kendall_{c}.discordant"), st.discordant);
        put(&format!("weighted_kendall_{c}.tied_xy"), st.tied_xy);
    }
    let k = kendall_tau_b(x, y).unwrap();
    put("kendall.tau", k.tau);
    put("kendall.z", k.z);
    put("kendall.concordant", k.concordant as f64);
    put("kendall.discordant", k.discordant as f64);
    put("kendall.ties_x", k.ties_x as f64);
    put("kendall.ties_y", k.ties_y as f64);
    put("kendall.ties_xy", k.ties_xy as f64);
    put("kendall.p", k.p_value(Alternative::TwoSided));
    let r = spearman(x, y).unwrap();
    put("spearman.rho", r.rho);
    put("spearman.statistic", r.statistic);
    put("spearman.p", r.p_value(Alternative::Greater));
    put("rho_w", rho_w(x, y).unwrap().rho);
    put("tau_w", tau_w(x, y).unwrap().tau);
    let tw = TopWeighted::new()
        .weigher(Hyperbolic)
        .ties(Ties::Min)
        .orders(Order::LargerIsBetter, Order::SmallerIsBetter);
    put("top_weighted_min.rho", tw.rho(x, y).unwrap().rho);
    put("top_weighted_min.tau", tw.tau(x, y).unwrap().tau);
    out
}
