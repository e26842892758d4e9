//! The voter model of Eq. 11 against its closed form and a high-precision
//! numeric integral, within Monte-Carlo error; perfect voters.
#![cfg(feature = "simulator")]

use adaptive_comp_metrics::simulate::{
    Choice, EqualOpinions, Judgement, Noise, Nonconformity, Underlying, VoterModel,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, Normal};

fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// P(o₂ < t) for o₂ = |F(z₂ + a₂η)|, 0 < t ≤ 1: P(−t < X₂ < t).
fn below(z: f64, a: f64, t: f64) -> f64 {
    phi((t - z) / a) - phi((-t - z) / a)
}

/// Composite Simpson rule of f over [lo, hi] with `n` (even) intervals.
fn simpson(f: impl Fn(f64) -> f64, lo: f64, hi: f64, n: usize) -> f64 {
    let h = (hi - lo) / n as f64;
    let mut s = f(lo) + f(hi);
    for k in 1..n {
        s += f(lo + k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0
}

/// Exact probability that the item shown first wins, relatedness-driven,
/// fresh η per comparison, coin flip on equal opinions:
///
/// ```text
/// X_k = z_k + a_k·η_k,  o_k = |F(X_k)|,  p_k = P(|X_k| ≥ 1)   (the atom at o = 1)
/// P(o₁ > o₂) = ∫_{−1}^{1} φ(x; z₁, a₁)·P(|X₂| < |x|) dx + p₁·P(|X₂| < 1)
/// P(o₁ = o₂) = p₁·p₂
/// P(first) = (1 − ε)·[P(o₁ > o₂) + ½P(o₁ = o₂)] + ε·[P(o₁ < o₂) + ½P(o₁ = o₂)]
/// ```
fn exact_first_wins(z1: f64, a1: f64, z2: f64, a2: f64, eps: f64) -> f64 {
    let density = |x: f64| {
        (-(x - z1).powi(2) / (2.0 * a1 * a1)).exp() / (a1 * (2.0 * std::f64::consts::PI).sqrt())
    };
    let integrand = |x: f64| density(x) * below(z2, a2, x.abs());
    // Split at the kink of |x|; 2·10⁵ intervals: Simpson error ≪ 1e-9 here.
    let cont = simpson(integrand, -1.0, 0.0, 200_000) + simpson(integrand, 0.0, 1.0, 200_000);
    let p1 = 1.0 - below(z1, a1, 1.0);
    let p2 = 1.0 - below(z2, a2, 1.0);
    let greater = cont + p1 * (1.0 - p2);
    let equal = p1 * p2;
    let less = 1.0 - greater - equal;
    (1.0 - eps) * (greater + 0.5 * equal) + eps * (less + 0.5 * equal)
}

/// Voters with fixed σ* and ε, η drawn afresh for every vote.
fn fixed(model: VoterModel, sigma: f64, eps: f64) -> VoterModel {
    model
        .sigma_range(sigma, sigma)
        .unwrap()
        .epsilon_range(eps, eps)
        .unwrap()
        .noise(Noise::PerComparison)
}

/// Frequency of a first-item win over `votes` votes of one voter, against
/// its exact probability: within 4.5 standard errors.
fn check_frequency(model: &VoterModel, z1: f64, z2: f64, exact: f64, seed: u64) {
    let z = Underlying::new(&[z1, z2]).unwrap();
    let votes = 400_000;
    let freq = frequency_first(model, &z, votes, seed);
    let se = (exact * (1.0 - exact) / votes as f64).sqrt();
    assert!(
        (freq - exact).abs() < 4.5 * se,
        "frequency {freq}, exact {exact}, se {se}"
    );
}

fn frequency_first(model: &VoterModel, z: &Underlying, votes: usize, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let crowd = model.draw(z, 1, &mut rng).unwrap();
    let mut first = 0usize;
    for _ in 0..votes {
        if crowd.vote(0, 0, 1, &mut rng).unwrap() == Choice::First {
            first += 1;
        }
    }
    first as f64 / votes as f64
}

#[test]
fn relatedness_win_probability_matches_numeric_integral() {
    // z₁ = 0.3 and z₂ = −0.35: relatedness 0.30 against 0.35; σ* = 0.5 makes
    // clipping (the atom at o = 1, P ≈ 0.06) and the absolute value matter.
    let (z1, z2, sigma, eps) = (0.3, -0.35, 0.5, 0.04);
    let a1 = sigma * (1.0 - z1 * z1);
    let a2 = sigma * (1.0 - z2 * z2);
    let exact = exact_first_wins(z1, a1, z2, a2, eps);
    let model = fixed(VoterModel::paper(), sigma, eps).equal_opinions(EqualOpinions::CoinFlip);
    check_frequency(&model, z1, z2, exact, 11);
    // The model is not trivial here: neither 0, ½ nor 1.
    assert!(exact > 0.45 && exact < 0.495, "{exact}");
}

#[test]
fn similarity_win_probability_matches_closed_form() {
    // No clipping (σ* = 0.05 keeps |X| < 1 except with probability < 1e-40):
    // P(o₁ > o₂) = Φ((z₁ − z₂)/√(a₁² + a₂²)), then the oversight mixes in ε.
    let (z1, z2, sigma, eps): (f64, f64, f64, f64) = (0.42, 0.45, 0.05, 0.02);
    let a1 = sigma * (1.0 - z1 * z1);
    let a2 = sigma * (1.0 - z2 * z2);
    let p = phi((z1 - z2) / (a1 * a1 + a2 * a2).sqrt());
    let exact = (1.0 - eps) * p + eps * (1.0 - p);
    let model = fixed(VoterModel::paper(), sigma, eps).judgement(Judgement::Similarity);
    check_frequency(&model, z1, z2, exact, 12);
    // The numeric integral agrees with the closed form where both apply
    // (similarity = relatedness for positive z far from clipping).
    let integral = exact_first_wins(z1, a1, z2, a2, eps);
    assert!((integral - exact).abs() < 1e-9, "{integral} vs {exact}");
}

#[test]
fn per_item_noise_has_the_same_marginal_over_crowds() {
    // η fixed per (voter, item): one voter's votes on a pair repeat, but over
    // fresh crowds the first item's win frequency is the same probability.
    // Published profile σ*·z(1 − z): a_k = σ*·z_k(1 − z_k).
    let (z1, z2, sigma, eps): (f64, f64, f64, f64) = (0.5, 0.55, 0.4, 0.03);
    let a1 = sigma * z1 * (1.0 - z1);
    let a2 = sigma * z2 * (1.0 - z2);
    // No clipping here (|X| < 1 up to ~9σ): closed form.
    let p = phi((z1 - z2) / (a1 * a1 + a2 * a2).sqrt());
    let exact = (1.0 - eps) * p + eps * (1.0 - p);
    let model = VoterModel::published()
        .sigma_range(sigma, sigma)
        .unwrap()
        .epsilon_range(eps, eps)
        .unwrap();
    let z = Underlying::new(&[z1, z2]).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let crowds = 40_000;
    let mut first = 0usize;
    for _ in 0..crowds {
        let crowd = model.draw(&z, 1, &mut rng).unwrap();
        if crowd.vote(0, 0, 1, &mut rng).unwrap() == Choice::First {
            first += 1;
        }
    }
    let freq = first as f64 / crowds as f64;
    let se = (exact * (1.0 - exact) / crowds as f64).sqrt();
    assert!(
        (freq - exact).abs() < 4.5 * se,
        "frequency {freq}, exact {exact}"
    );
}

#[test]
fn perfect_voters_always_pick_the_truly_better_item() {
    let z = Underlying::exponential(60).unwrap(); // z from 1 down to 2/e − 1 < 0
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for judgement in [Judgement::Relatedness, Judgement::Similarity] {
        for noise in [Noise::PerItem, Noise::PerComparison] {
            for profile in [Nonconformity::Paper, Nonconformity::Published] {
                let model = VoterModel::paper()
                    .sigma_range(0.0, 0.0)
                    .unwrap()
                    .epsilon_range(0.0, 0.0)
                    .unwrap()
                    .judgement(judgement)
                    .noise(noise)
                    .nonconformity(profile);
                let crowd = model.draw(&z, 3, &mut rng).unwrap();
                for i in 0..60 {
                    for j in 0..60 {
                        let (ti, tj) = (judgement.truth(z.z()[i]), judgement.truth(z.z()[j]));
                        if ti == tj {
                            continue;
                        }
                        let want = if ti > tj {
                            Choice::First
                        } else {
                            Choice::Second
                        };
                        assert_eq!(crowd.vote(i % 3, i, j, &mut rng).unwrap(), want);
                    }
                }
            }
        }
    }
}

#[test]
fn oversight_only_voters_flip_at_rate_epsilon() {
    // σ* = 0, ε = 0.2: the better item loses exactly with probability 0.2.
    let model = VoterModel::paper()
        .sigma_range(0.0, 0.0)
        .unwrap()
        .epsilon_range(0.2, 0.2)
        .unwrap();
    let z = Underlying::new(&[0.9, 0.1]).unwrap();
    let votes = 100_000;
    let freq = frequency_first(&model, &z, votes, 15);
    let se = (0.8_f64 * 0.2 / votes as f64).sqrt();
    assert!((freq - 0.8).abs() < 4.5 * se, "{freq}");
}
