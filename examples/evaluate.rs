//! Evaluates a model's scores against human scores from a CSV file, with the
//! focus on top ranks: ρ_w and τ_w (Lombardo et al. 2020), raw and on the
//! standardised scale (Lombardo 2025), beside the plain Spearman ρ and
//! Kendall τ-b with their p-values.
//!
//! ```text
//! cargo run --example evaluate                      # the bundled sample
//! cargo run --example evaluate -- FILE.csv [HUMAN_COLUMN MODEL_COLUMN]
//! ```
//!
//! The CSV file has a header line; the columns named `human` and `model`
//! (or the two names given) hold the scores, larger = more related. The
//! bundled `examples/data/word-pairs.csv` pairs the 990 real word2vec
//! similarities of Lombardo et al. (2020) with synthetic human ratings (see
//! `examples/data/gen_sample.py` for how they were drawn).

use adaptive_comp_metrics::{
    Alternative, Hyperbolic, OffsetQuadratic, Scheme, TopWeighted, first_rank_fraction,
    kendall_tau_b, spearman,
};
use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/word-pairs.csv"),
        PathBuf::from,
    );
    let human_col = args.get(1).map_or("human", String::as_str);
    let model_col = args.get(2).map_or("model", String::as_str);
    let (human, model) = read_columns(&path, human_col, model_col)?;
    println!(
        "{}: {} items, human = `{human_col}`, model = `{model_col}`\n",
        path.display(),
        human.len()
    );

    let paper = TopWeighted::new();
    let rho_w = paper.rho(&human, &model)?;
    let tau_w = paper.tau(&human, &model)?;
    println!(
        "top-weighted (f(n) = 1/(n + 2)², additive weights, Eq. 8–9; R(2) = {:.3})",
        first_rank_fraction(2.0)?
    );
    println!("  ρ_w = {:+.4}", rho_w.rho);
    println!("  τ_w = {:+.4}", tau_w.tau);
    // The standardised scale (Lombardo 2025): the null moments come from the
    // crate's built-in table (untied rankings of this many items).
    let rho_s = paper.rho_standardised(&human, &model)?;
    let tau_s = paper.tau_standardised(&human, &model)?;
    println!(
        "  standardised (0 = what unrelated rankings give on average, ±1 = identical/reversed):"
    );
    println!(
        "    ρ_w → {:+.4}   (unrelated rankings average ρ_w = {:+.3})",
        rho_s.value, rho_s.moments.mean.value
    );
    println!(
        "    τ_w → {:+.4}   (unrelated rankings average τ_w = {:+.3})",
        tau_s.value, tau_s.moments.mean.value
    );
    println!(
        "  effective number of items 1/Σw² = {:.1}\n",
        rho_w.effective_n
    );

    let rho = spearman(&human, &model)?;
    let tau = kendall_tau_b(&human, &model)?;
    println!("plain coefficients (every rank counts the same)");
    println!(
        "  Spearman ρ  = {:+.4}   p (two-sided) = {}   p (ρ > 0) = {}",
        rho.rho,
        fmt_p(rho.p_value(Alternative::TwoSided)),
        fmt_p(rho.p_value(Alternative::Greater))
    );
    println!(
        "  Kendall τ-b = {:+.4}   p (two-sided) = {}   p (τ > 0) = {}",
        tau.tau,
        fmt_p(tau.p_value(Alternative::TwoSided)),
        fmt_p(tau.p_value(Alternative::Greater))
    );
    println!(
        "  pairs: {} concordant, {} discordant, {} tied in human only, {} in model only, {} in both\n",
        tau.concordant, tau.discordant, tau.ties_x, tau.ties_y, tau.ties_xy
    );

    println!("other weightings of the same data");
    let n0_0 = paper.weigher(OffsetQuadratic::new(0.0)?);
    println!(
        "  n0 = 0 (R(0) = {:.2}):      ρ_w = {:+.4}  τ_w = {:+.4}",
        first_rank_fraction(0.0)?,
        n0_0.rho(&human, &model)?.rho,
        n0_0.tau(&human, &model)?.tau
    );
    let gold_only = paper.scheme(Scheme::First);
    println!(
        "  weights from human ranks:  ρ_w = {:+.4}  τ_w = {:+.4}",
        gold_only.rho(&human, &model)?.rho,
        gold_only.tau(&human, &model)?.tau
    );
    let vigna = paper.weigher(Hyperbolic);
    println!(
        "  hyperbolic 1/n:            ρ_w = {:+.4}  τ_w = {:+.4}",
        vigna.rho(&human, &model)?.rho,
        vigna.tau(&human, &model)?.tau
    );
    Ok(())
}

/// A p-value for printing: below the smallest positive f64 it underflows to 0.
fn fmt_p(p: f64) -> String {
    if p == 0.0 {
        "< 1e-308".to_string()
    } else {
        format!("{p:.3e}")
    }
}

/// Reads two numeric columns (by header name) of a simple CSV file.
fn read_columns(
    path: &PathBuf,
    human: &str,
    model: &str,
) -> Result<(Vec<f64>, Vec<f64>), Box<dyn Error>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or("empty file")?;
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |name: &str| {
        names
            .iter()
            .position(|&c| c == name)
            .ok_or_else(|| format!("no column `{name}` in header {header:?}"))
    };
    let (hi, mi) = (col(human)?, col(model)?);
    let (mut h, mut m) = (Vec::new(), Vec::new());
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let get = |k: usize| -> Result<f64, String> {
            let f = fields
                .get(k)
                .ok_or_else(|| format!("line {}: missing field {}", i + 1, k + 1))?;
            f.parse()
                .map_err(|e| format!("line {}: {f:?} is not a number: {e}", i + 1))
        };
        h.push(get(hi)?);
        m.push(get(mi)?);
    }
    Ok((h, m))
}
