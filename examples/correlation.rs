//! Top-weighted rank correlations of a model against human scores: ρ_w and
//! τ_w (Lombardo et al. 2020), their standardised values (Lombardo 2025),
//! and the plain coefficients. `cargo run --example correlation`.
//!
//! The command-line tool does the same on a CSV file: `acm corr FILE.csv`.

use adaptive_comp_metrics::{
    Alternative, Hyperbolic, Scheme, TopWeighted, kendall_tau_b, rho_w, spearman, tau_w,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let human = [0.95, 0.80, 0.61, 0.40, 0.12, 0.33, 0.71, 0.05, 0.52, 0.27];
    let model = [0.91, 0.62, 0.83, 0.35, 0.20, 0.30, 0.60, 0.10, 0.41, 0.33];
    // The paper's defaults: f(n) = 1/(n + 2)², additive weights (Eq. 9).
    println!("{}", rho_w(&human, &model)?);
    println!("{}", tau_w(&human, &model)?);
    // On the standardised scale 0 is what unrelated rankings give on average.
    let s = TopWeighted::new().rho_standardised(&human, &model)?;
    println!(
        "g(ρ_w) = {:+.4} (unrelated rankings average ρ_w = {:+.3})",
        s.value, s.moments.mean.value
    );
    // Other weightings: 1/n from the human ranking only.
    let gold = TopWeighted::new().weigher(Hyperbolic).scheme(Scheme::First);
    println!(
        "ρ_w, weights 1/n of the human ranks = {:+.4}",
        gold.rho(&human, &model)?.rho
    );
    let rho = spearman(&human, &model)?;
    let tau = kendall_tau_b(&human, &model)?;
    println!(
        "Spearman ρ = {:+.4} (p = {:.3}), Kendall τ-b = {:+.4} (p = {:.3})",
        rho.rho,
        rho.p_value(Alternative::TwoSided),
        tau.tau,
        tau.p_value(Alternative::TwoSided)
    );
    Ok(())
}
