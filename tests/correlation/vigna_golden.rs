//! Golden values of `scipy.stats.weightedtau` (Vigna's weighted τ) and
//! `scipy.stats.kendalltau`: the published ones of REFERENCES.md §1 and the
//! ones of `tests/data/vigna/gen_scipy.py` on SplitMix64 data.

use crate::splitmix;

use adaptive_comp_metrics::correlation::vigna::{
    Combine, NanPolicy, Rank, WeightedTauOptions, weighted_kendall, weighted_tau,
    weighted_tau_naive,
};
use adaptive_comp_metrics::{Hyperbolic, Logarithmic, Quadratic, Unweighted, Weigher};

/// Relative agreement with SciPy.
const REL: f64 = 1e-12;

fn assert_close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= REL * want.abs(),
        "{what}: got {got:e}, want {want:e}, relative error {:e}",
        ((got - want) / want).abs()
    );
}

/// The example of SciPy's `weightedtau` documentation (REFERENCES.md §1).
const X: [f64; 5] = [12.0, 2.0, 1.0, 12.0, 2.0];
const Y: [f64; 5] = [1.0, 4.0, 7.0, 1.0, 0.0];

/// One published value: swap x and y?, options, SciPy's value.
struct Published {
    call: &'static str,
    swap: bool,
    rank: Rank<'static>,
    combine: Combine,
    tau: f64,
}

/// Every value REFERENCES.md §1 quotes from the SciPy documentation
/// (hyperbolic weigher unless said otherwise), fast and naive.
#[test]
fn published_scipy_values() {
    use Combine::{Additive, Multiplicative};
    let cases = [
        Published {
            call: "weightedtau(x, y)",
            swap: false,
            rank: Rank::Symmetric,
            combine: Additive,
            tau: -0.566_949_681_536_827_2,
        },
        Published {
            call: "additive=False",
            swap: false,
            rank: Rank::Symmetric,
            combine: Multiplicative,
            tau: -0.622_057_169_518_010_4,
        },
        Published {
            call: "rank=None",
            swap: false,
            rank: Rank::ByXY,
            combine: Additive,
            tau: -0.415_765_230_103_751_6,
        },
        Published {
            call: "(y, x), rank=None",
            swap: true,
            rank: Rank::ByXY,
            combine: Additive,
            tau: -0.718_134_132_969_902_8,
        },
        Published {
            call: "rank=None, additive=False",
            swap: false,
            rank: Rank::ByXY,
            combine: Multiplicative,
            tau: -0.406_448_509_662_468_9,
        },
        Published {
            call: "(y, x), rank=None, additive=False",
            swap: true,
            rank: Rank::ByXY,
            combine: Multiplicative,
            tau: -0.837_665_829_373_551_7,
        },
        Published {
            call: "rank=False",
            swap: false,
            rank: Rank::Index,
            combine: Additive,
            tau: -0.516_043_979_402_618_5,
        },
        // ByYX on (x, y) is rank=None on (y, x).
        Published {
            call: "ByYX = (y, x), rank=None",
            swap: false,
            rank: Rank::ByYX,
            combine: Additive,
            tau: -0.718_134_132_969_902_8,
        },
    ];
    for c in cases {
        let (x, y) = if c.swap { (&Y, &X) } else { (&X, &Y) };
        let opts = WeightedTauOptions::default()
            .rank(c.rank)
            .combine(c.combine);
        assert_close(weighted_tau(x, y, &opts).unwrap(), c.tau, c.call);
        assert_close(weighted_tau_naive(x, y, &opts).unwrap().tau, c.tau, c.call);
    }
    // weigher=lambda x: 1: Kendall's τ-b. By hand: of the 10 pairs, 1 is tied
    // in both (items 0, 3), 1 tied in x only (1, 4); concordant 2, discordant
    // 6; untied in x 8, in y 9: τ = −4/sqrt(72) = −0.47140452079103173.
    let one = WeightedTauOptions::default().weigher(Unweighted);
    assert_close(
        weighted_tau(&X, &Y, &one).unwrap(),
        -0.471_404_520_791_031_73,
        "weigher=1",
    );
    assert_close(-4.0 / 72f64.sqrt(), -0.471_404_520_791_031_73, "by hand");
    let s = weighted_kendall(&X, &Y, &[1.0; 5], Combine::Additive).unwrap();
    assert_eq!(
        (
            s.total,
            s.tied_x,
            s.tied_y,
            s.tied_xy,
            s.concordant,
            s.discordant
        ),
        (20.0, 4.0, 2.0, 2.0, 4.0, 12.0),
        "additive unit weights: every pair weighs 2"
    );
}

fn weigh(name: &str) -> Box<dyn Fn(f64) -> f64> {
    match name {
        "hyperbolic" => Box::new(|n| Hyperbolic.weight(n)),
        "quadratic" => Box::new(|n| Quadratic.weight(n)),
        "logarithmic" => Box::new(|n| Logarithmic.weight(n)),
        "unweighted" => Box::new(|n| Unweighted.weight(n)),
        other => panic!("unknown weigher {other}"),
    }
}

fn golden_file() -> serde_json::Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vigna/scipy_values.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// SciPy on random data with and without ties, every rank option, four
/// weighers, additive and multiplicative, NaN as the smallest value
/// (tests/data/vigna/gen_scipy.py → scipy_values.json).
#[test]
fn scipy_values_on_splitmix_data() {
    let file = golden_file();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() > 250);
    for c in cases {
        let seed = c["seed"].as_u64().unwrap();
        let n = c["n"].as_u64().unwrap() as usize;
        let levels = c["levels"].as_u64().unwrap() as u32;
        let every = c["nan_every"].as_u64().unwrap() as usize;
        let (mut x, mut y) = splitmix::data(seed, n, levels);
        if every > 0 {
            for i in 0..n {
                if i % every == 0 {
                    x[i] = f64::NAN;
                }
                if i % every == 1 {
                    y[i] = f64::NAN;
                }
            }
        }
        let given: Vec<f64> = splitmix::data(seed + 1000, n, 7).0;
        let rank = match c["rank"].as_str().unwrap() {
            "symmetric" => Rank::Symmetric,
            "by_xy" => Rank::ByXY,
            "by_yx" => Rank::ByYX,
            "index" => Rank::Index,
            "given" => Rank::Given(&given),
            other => panic!("unknown rank {other}"),
        };
        let combine = if c["additive"].as_bool().unwrap() {
            Combine::Additive
        } else {
            Combine::Multiplicative
        };
        let opts = WeightedTauOptions::default()
            .rank(rank)
            .combine(combine)
            .nan(NanPolicy::Smallest)
            .weigher(weigh(c["weigher"].as_str().unwrap()));
        let scipy = c["tau"].as_f64().unwrap();
        let exact = c["exact"].as_f64().unwrap();
        let what = format!("{c}");
        let fast = weighted_tau(&x, &y, &opts).unwrap();
        check_against_scipy(fast, scipy, exact, &what);
        if n <= 1000 {
            let naive = weighted_tau_naive(&x, &y, &opts).unwrap().tau;
            check_against_scipy(naive, scipy, exact, &what);
        }
    }
}

/// `got` is within 1e-12 relative of the extended-precision definition
/// (for |τ| < 0.01: within 1e-14 absolute, since the numerator C − D of a τ
/// near 0 loses log10(1/|τ|) digits to cancellation in any f64 algorithm),
/// and within 1e-12 relative of SciPy unless SciPy itself is further from the
/// definition than `got` is (up to the f64 noise floor 1e-15) (SciPy's sums lose more: e.g. seed 8, n = 5000,
/// given rank, logarithmic, multiplicative, τ = 2.0e-4, where SciPy is 6e-10
/// relative off and this crate 6e-12).
fn check_against_scipy(got: f64, scipy: f64, exact: f64, what: &str) {
    assert!(
        (got - exact).abs() <= REL * exact.abs().max(0.01),
        "{what}: got {got:e}, definition {exact:e}"
    );
    if (got - scipy).abs() > REL * scipy.abs() {
        // 1e-15: the f64 noise floor of a τ computed from sums of order 1.
        assert!(
            (got - exact).abs() <= (scipy - exact).abs() + 1e-15,
            "{what}: got {got:e}, scipy {scipy:e}, definition {exact:e}"
        );
    }
}

/// The unweighted kernel is Kendall's τ-b: `scipy.stats.kendalltau`.
#[test]
fn unweighted_is_scipy_kendalltau() {
    let file = golden_file();
    for c in file["kendall"].as_array().unwrap() {
        let (x, y) = splitmix::data(
            c["seed"].as_u64().unwrap(),
            c["n"].as_u64().unwrap() as usize,
            c["levels"].as_u64().unwrap() as u32,
        );
        let want = c["tau"].as_f64().unwrap();
        let u = vec![1.0; x.len()];
        for combine in [Combine::Additive, Combine::Multiplicative] {
            let got = weighted_kendall(&x, &y, &u, combine).unwrap().tau;
            assert_close(got, want, &format!("{c}"));
        }
        let opts = WeightedTauOptions::default().weigher(Unweighted);
        assert_close(weighted_tau(&x, &y, &opts).unwrap(), want, &format!("{c}"));
    }
}
