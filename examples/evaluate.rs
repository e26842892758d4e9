//! Evaluates a model's scores against human scores from a CSV file, with the
//! focus on top ranks: ρ_w and τ_w (Lombardo et al. 2020), raw and on the
//! standardised scale (Lombardo 2025), beside the plain Spearman ρ and
//! Kendall τ-b with their p-values.
//!
//! ```text
//! cargo run --example evaluate                      # the bundled sample
//! cargo run --example evaluate -- FILE.csv [HUMAN_COLUMN [MODEL_COLUMN]]
//! ```
//!
//! The CSV file has a header line; the columns named `human` and `model`
//! (or the names given) hold the scores, larger = more related; other
//! columns are ignored. Fields may be quoted (`"p,1"`), a UTF-8 byte-order
//! mark is skipped. The bundled `examples/data/word-pairs.csv` pairs the 990
//! real word2vec similarities of Lombardo et al. (2020) with synthetic human
//! ratings (see `examples/data/gen_sample.py` for how they were drawn).
//!
//! Errors print `error: FILE:LINE:COLUMN: message` and exit with status 1 (a
//! wrong command line: the usage line, status 2); a closed output pipe ends
//! the program quietly.

#[path = "common/cli.rs"]
pub mod cli;
#[path = "common/columns.rs"]
pub mod columns;

use adaptive_comp_metrics::{
    Alternative, Error, Hyperbolic, OffsetQuadratic, Scheme, TopWeighted, first_rank_fraction,
    kendall_tau_b, spearman,
};
use cli::{Failure, Out};
use columns::Columns;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: evaluate [FILE.csv [HUMAN_COLUMN [MODEL_COLUMN]]]";

fn main() -> ExitCode {
    cli::main(USAGE, run)
}

/// The command line: the file and the two columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// The CSV file.
    pub path: PathBuf,
    /// Header name of the human scores.
    pub human: String,
    /// Header name of the model's scores.
    pub model: String,
}

/// `[FILE.csv [HUMAN_COLUMN [MODEL_COLUMN]]]`; no file: the bundled sample.
pub fn parse_args(args: &[String]) -> Result<Args, Failure> {
    if let Some(option) = args.iter().find(|a| a.starts_with('-') && a.len() > 1) {
        return Err(Failure::usage(format!("unknown option {option:?}")));
    }
    if let Some(extra) = args.get(3) {
        return Err(Failure::usage(format!(
            "unexpected argument {extra:?}: at most FILE.csv, HUMAN_COLUMN and MODEL_COLUMN"
        )));
    }
    let path = args.first().map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/word-pairs.csv"),
        PathBuf::from,
    );
    Ok(Args {
        path,
        human: args.get(1).map_or("human", String::as_str).to_owned(),
        model: args.get(2).map_or("model", String::as_str).to_owned(),
    })
}

/// Reads the file and prints the report.
pub fn run(args: &[String], out: &mut Out) -> Result<(), Failure> {
    let a = parse_args(args)?;
    let data = columns::read(&a.path, &[&a.human, &a.model])?;
    let [human, model] = data.values.as_slice() else {
        return Err(Failure::new("two columns expected"));
    };
    report(&a, human, model, out).map_err(|f| locate(f, &a, &data))
}

/// A coefficient's error said in the file's terms: the column names
/// instead of `x` and `y`, the line and column of the value instead of its
/// 0-based index.
fn locate(f: Failure, a: &Args, data: &Columns) -> Failure {
    let Some(&e) = f.source::<Error>() else {
        return f;
    };
    let column = |input: &str| {
        if input == "y" {
            (&a.model, 1)
        } else {
            (&a.human, 0)
        }
    };
    let cell = |input: &str, index: usize| {
        let (_, k) = column(input);
        data.cells.get(k).and_then(|c| c.get(index)).copied()
    };
    let failure = |message: String| Failure::new(message).file(&a.path);
    match e {
        Error::NaN { input, index } | Error::Infinite { input, index } => {
            let what = if matches!(e, Error::NaN { .. }) {
                "NaN"
            } else {
                "infinite"
            };
            let at = cell(input, index);
            failure(format!("column {:?}: the value is {what}", column(input).0))
                .at(at.map(|c| c.line), at.map(|c| c.column))
        }
        Error::Constant { input } => failure(format!(
            "column {:?} is constant: the coefficient is undefined",
            column(input).0
        )),
        _ => f.file(&a.path),
    }
}

/// Prints the report: top-weighted coefficients, plain ones, other
/// weightings.
fn report(a: &Args, human: &[f64], model: &[f64], out: &mut Out) -> Result<(), Failure> {
    writeln!(
        out,
        "{}: {} items, human = `{}`, model = `{}`\n",
        a.path.display(),
        human.len(),
        a.human,
        a.model
    )?;

    let paper = TopWeighted::new();
    let rho_w = paper.rho(human, model)?;
    let tau_w = paper.tau(human, model)?;
    writeln!(
        out,
        "top-weighted (Lombardo et al. 2020, Eq. 8–9): disagreements near the top count most"
    )?;
    writeln!(
        out,
        "  an item weighs f(n) = 1/(n + 2)² at its human rank n, plus the same at its model rank"
    )?;
    writeln!(
        out,
        "  R(2) = {:.3}: the share of all the weight that rank 1 alone carries (in a long ranking)",
        first_rank_fraction(2.0)?
    )?;
    writeln!(out, "  ρ_w = {:+.4}", rho_w.rho)?;
    writeln!(out, "  τ_w = {:+.4}", tau_w.tau)?;
    // The standardised scale (Lombardo 2025): the null moments come from the
    // crate's built-in table (untied rankings of this many items).
    // The raw values above stand even where the table has no entry (more
    // than its largest n): then the line says why instead of a value.
    writeln!(
        out,
        "  standardised (0 = what unrelated rankings give on average, ±1 = identical/reversed):"
    )?;
    let mut ties = false;
    match paper.rho_standardised(human, model) {
        Ok(s) => {
            writeln!(
                out,
                "    ρ_w → {:+.4}   (unrelated rankings average ρ_w = {:+.3})",
                s.value, s.moments.mean.value
            )?;
            ties = s.ties;
        }
        Err(e) => writeln!(out, "    ρ_w → n/a: {e}")?,
    }
    match paper.tau_standardised(human, model) {
        Ok(s) => writeln!(
            out,
            "    τ_w → {:+.4}   (unrelated rankings average τ_w = {:+.3})",
            s.value, s.moments.mean.value
        )?,
        Err(e) => writeln!(out, "    τ_w → n/a: {e}")?,
    }
    if ties {
        writeln!(
            out,
            "    (the scores have ties: the chance level used is that of untied rankings, close but not exact)"
        )?;
    }
    writeln!(
        out,
        "  effective number of items 1/Σw² = {:.1}\n",
        rho_w.effective_n
    )?;

    let rho = spearman(human, model)?;
    let tau = kendall_tau_b(human, model)?;
    writeln!(out, "plain coefficients (every rank counts the same)")?;
    writeln!(
        out,
        "  Spearman ρ  = {:+.4}   p (two-sided) = {}   p (ρ > 0) = {}",
        rho.rho,
        fmt_p(rho.p_value(Alternative::TwoSided)),
        fmt_p(rho.p_value(Alternative::Greater))
    )?;
    writeln!(
        out,
        "  Kendall τ-b = {:+.4}   p (two-sided) = {}   p (τ > 0) = {}",
        tau.tau,
        fmt_p(tau.p_value(Alternative::TwoSided)),
        fmt_p(tau.p_value(Alternative::Greater))
    )?;
    writeln!(
        out,
        "  pairs: {} concordant, {} discordant, {} tied in human only, {} in model only, {} in both\n",
        tau.concordant, tau.discordant, tau.ties_x, tau.ties_y, tau.ties_xy
    )?;

    writeln!(out, "other weightings of the same data")?;
    let n0_0 = paper.weigher(OffsetQuadratic::new(0.0)?);
    writeln!(
        out,
        "  n0 = 0 (R(0) = {:.2}):      ρ_w = {:+.4}  τ_w = {:+.4}",
        first_rank_fraction(0.0)?,
        n0_0.rho(human, model)?.rho,
        n0_0.tau(human, model)?.tau
    )?;
    let gold_only = paper.scheme(Scheme::First);
    writeln!(
        out,
        "  weights from human ranks:  ρ_w = {:+.4}  τ_w = {:+.4}",
        gold_only.rho(human, model)?.rho,
        gold_only.tau(human, model)?.tau
    )?;
    let vigna = paper.weigher(Hyperbolic);
    writeln!(
        out,
        "  hyperbolic 1/n:            ρ_w = {:+.4}  τ_w = {:+.4}",
        vigna.rho(human, model)?.rho,
        vigna.tau(human, model)?.tau
    )?;
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
