//! Golden values of `scipy.stats.weightedtau` for Vigna's weighted τ.

use adaptive_comp_metrics::correlation::vigna::{
    Combine, Rank, WeightedTauOptions, weighted_tau, weighted_tau_naive,
};
use adaptive_comp_metrics::{Error, Unweighted};

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs(),
        "got {got:e}, want {want:e}"
    );
}

/// The example of REFERENCES.md §1 (SciPy's `weightedtau` docstring).
const X: [f64; 5] = [12.0, 2.0, 1.0, 12.0, 2.0];
const Y: [f64; 5] = [1.0, 4.0, 7.0, 1.0, 0.0];

/// Every value published for the example (REFERENCES.md §1, from the SciPy
/// `weightedtau` documentation), through the fast and the naive routine.
#[test]
fn published_scipy_values() {
    let d = WeightedTauOptions::default();
    let mult = Combine::Multiplicative;
    let cases: [(&str, &[f64], &[f64], WeightedTauOptions<'_, _>, f64); 6] = [
        ("weightedtau(x, y)", &X, &Y, d, -0.566_949_681_536_827_2),
        (
            "additive=False",
            &X,
            &Y,
            d.combine(mult),
            -0.622_057_169_518_010_4,
        ),
        (
            "rank=None",
            &X,
            &Y,
            d.rank(Rank::ByXY),
            -0.415_765_230_103_751_6,
        ),
        (
            "(y, x) rank=None",
            &Y,
            &X,
            d.rank(Rank::ByXY),
            -0.718_134_132_969_902_8,
        ),
        (
            "rank=None additive=False",
            &X,
            &Y,
            d.rank(Rank::ByXY).combine(mult),
            -0.406_448_509_662_468_9,
        ),
        (
            "(y, x) rank=None additive=False",
            &Y,
            &X,
            d.rank(Rank::ByXY).combine(mult),
            -0.837_665_829_373_551_7,
        ),
    ];
    for (name, x, y, opts, want) in cases {
        eprintln!("{name}");
        close(weighted_tau(x, y, &opts).unwrap(), want);
        close(weighted_tau_naive(x, y, &opts).unwrap().tau, want);
    }
    let idx = d.rank(Rank::Index);
    close(
        weighted_tau(&X, &Y, &idx).unwrap(),
        -0.516_043_979_402_618_5,
    );
    close(
        weighted_tau_naive(&X, &Y, &idx).unwrap().tau,
        -0.516_043_979_402_618_5,
    );
    let one = d.weigher(Unweighted);
    close(
        weighted_tau(&X, &Y, &one).unwrap(),
        -0.471_404_520_791_031_73,
    );
    close(
        weighted_tau_naive(&X, &Y, &one).unwrap().tau,
        -0.471_404_520_791_031_73,
    );
    // ByYX on (x, y) is ByXY on (y, x).
    close(
        weighted_tau(&X, &Y, &d.rank(Rank::ByYX)).unwrap(),
        -0.718_134_132_969_902_8,
    );
    let _ = Error::ZeroWeights;
}
