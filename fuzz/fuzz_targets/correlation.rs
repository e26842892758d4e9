//! Arbitrary scores, weights and options through every public correlation
//! function of the core: no panic, and every Ok coefficient in [−1, 1].
#![no_main]

use adaptive_comp_metrics::correlation::gamma::{rho_w_naive, tau_w_naive};
use adaptive_comp_metrics::{
    Hyperbolic, Logarithmic, OffsetQuadratic, Order, Quadratic, Scheme, Ties, TopWeighted,
    Unweighted, first_rank_fraction, item_weights, rank, rho_w_with_weights, tau_w_with_weights,
    validate_ranks,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    x: Vec<f64>,
    y: Vec<f64>,
    x32: Vec<f32>,
    w: Vec<f64>,
    weigher: u8,
    n0: f64,
    scheme: u8,
    ties: u8,
    smaller_x: bool,
}

fn check(v: f64) {
    assert!((-1.0..=1.0).contains(&v), "coefficient {v} out of range");
}

fn run<W: adaptive_comp_metrics::Weigher + Copy>(tw: TopWeighted<W>, input: &Input) {
    let weigher_ok = |r: &Result<f64, adaptive_comp_metrics::CorrelationError>| {
        if let Ok(v) = r {
            check(*v)
        }
    };
    weigher_ok(&tw.rho(&input.x, &input.y).map(|r| r.rho));
    weigher_ok(&tw.tau(&input.x, &input.y).map(|r| r.tau));
    let y32: Vec<f32> = input.y.iter().map(|&v| v as f32).collect();
    weigher_ok(&tw.rho(&input.x32, &y32).map(|r| r.rho));
    weigher_ok(&tw.rho_ranks(&input.x, &input.y).map(|r| r.rho));
    weigher_ok(&tw.tau_ranks(&input.x, &input.y).map(|r| r.tau));
}

fuzz_target!(|input: Input| {
    // Keep the O(n²) paths cheap.
    if input.x.len() > 300 || input.y.len() > 300 || input.w.len() > 300 {
        return;
    }
    let ties = [Ties::Average, Ties::Min, Ties::Max, Ties::Dense, Ties::Ordinal]
        [usize::from(input.ties) % 5];
    let scheme = [Scheme::Additive, Scheme::Multiplicative, Scheme::First, Scheme::Second]
        [usize::from(input.scheme) % 4];
    let order = if input.smaller_x { Order::SmallerIsBetter } else { Order::LargerIsBetter };
    let _ = first_rank_fraction(input.n0);
    let _ = validate_ranks("x", &input.x);
    if let Ok(r) = rank(&input.x, order, ties) {
        assert_eq!(r.len(), input.x.len());
        assert!(r.iter().all(|&v| v >= 1.0 && v <= input.x.len() as f64));
    }
    let _ = item_weights(&input.x, &input.y, &Hyperbolic, scheme);
    let base = TopWeighted::new().scheme(scheme).ties(ties).orders(order, Order::LargerIsBetter);
    match input.weigher % 6 {
        0 => {
            if let Ok(f) = OffsetQuadratic::new(input.n0) {
                run(base.weigher(f), &input)
            }
        }
        1 => run(base.weigher(Hyperbolic), &input),
        2 => run(base.weigher(Quadratic), &input),
        3 => run(base.weigher(Logarithmic), &input),
        4 => run(base.weigher(Unweighted), &input),
        _ => run(base.weigher(|n: f64| 1.0 / n.sqrt()), &input),
    }
    for r in [
        rho_w_with_weights(&input.x, &input.y, &input.w).map(|r| r.rho),
        tau_w_with_weights(&input.x, &input.y, &input.w).map(|r| r.tau),
        rho_w_naive(&input.x, &input.y, &input.w),
        tau_w_naive(&input.x, &input.y, &input.w),
    ] {
        if let Ok(v) = r {
            check(v)
        }
    }
});
