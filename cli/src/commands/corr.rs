//! `acm corr`: two score columns of a CSV or TSV file, compared with the
//! focus on top ranks.

use std::path::{Path, PathBuf};

use adaptive_comp_metrics::uncertainty::{
    Bootstrap, ConfidenceInterval, Histogram, Permutations, TopWeightedRho, TopWeightedTau,
    UncertaintyError,
};
use adaptive_comp_metrics::{
    Alternative, CorrelationError, Hyperbolic, OffsetQuadratic, Scheme, TopWeighted, Weigher,
    first_rank_fraction, kendall_tau_b, pearson, spearman, weighted_tau,
};
use rand::SeedableRng;
use serde_json::json;

use crate::error::{Failure, Outcome};
use crate::input::{self, Columns};
use crate::output::{Ctx, Format, FormatArg, Out, Table};
use crate::plot::BINS;
use crate::progress::Progress;

const AFTER: &str = "\
The file has a header line; the two columns named (default `human` and `model`) hold the scores,
larger = more related; other columns are ignored. Fields may be quoted (\"p,1\"); a file ending in
.tsv or .tab is tab-separated (or give --delimiter). ρ_w and τ_w weigh an item f(n) = 1/(n + 2)² at
its human rank n plus the same at its model rank (Lombardo et al. 2020, Eq. 8–9); their
standardised values put what unrelated rankings give on average at 0 (Lombardo 2025).

Examples:
  acm corr examples/data/word-pairs.csv
  acm corr pairs.tsv gold system --format json
  acm corr pairs.csv human model --permutations 9999 --bootstrap 2000 --seed 7
  acm corr pairs.csv --permutations 9999 --plot null.svg";

/// Correlations of two score columns: ρ_w, τ_w (raw and standardised), Spearman ρ, Kendall τ-b,
/// Pearson r and Vigna's weighted τ, with p-values.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The CSV or TSV file.
    pub file: PathBuf,
    /// Header name of the human (reference) scores.
    #[arg(default_value = "human")]
    pub human: String,
    /// Header name of the model's scores.
    #[arg(default_value = "model")]
    pub model: String,
    /// Field separator (one ASCII character; `\t` for a tab). Default: tab for .tsv/.tab, else comma.
    #[arg(long, value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
    /// Permutation test of ρ_w and τ_w with this many permutations (H1: positive association).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
    pub permutations: Option<u32>,
    /// 95 % BCa bootstrap intervals of ρ_w and τ_w from this many resamples.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=100_000_000))]
    pub bootstrap: Option<u32>,
    /// Seed of the permutations and resamples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw ρ_w's permutation null (with --permutations; else its bootstrap distribution, with
    /// --bootstrap) as an SVG histogram, the observed value, p-value and interval marked.
    /// Example: --permutations 9999 --plot null.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub output: FormatArg,
}

/// A one-character field separator.
pub fn parse_delimiter(s: &str) -> Result<u8, String> {
    match s {
        "\\t" | "\t" | "tab" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() && s != "\"" && s != "\n" && s != "\r" => {
            Ok(s.as_bytes()[0])
        }
        _ => Err(format!(
            "expected one ASCII character other than a quote or a line break (or `\\t`), got {s:?}"
        )),
    }
}

/// The separator of `path`: `explicit`, else tab for `.tsv`/`.tab`, else comma.
pub fn delimiter_of(path: &Path, explicit: Option<u8>) -> u8 {
    explicit.unwrap_or_else(|| {
        match path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
        {
            Some(e) if e == "tsv" || e == "tab" => b'\t',
            _ => b',',
        }
    })
}

/// Reads the file and prints the report.
///
/// # Errors
/// An unreadable file, a bad cell (with its line and column), a constant
/// column.
pub fn run(a: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    if let Some(path) = &a.plot {
        crate::plot::check(path)?;
        if a.permutations.is_none() && a.bootstrap.is_none() {
            return Err(crate::plot::nothing_to_draw(
                "corr",
                "--permutations or --bootstrap",
            ));
        }
    }
    let delimiter = delimiter_of(&a.file, a.delimiter);
    let data = input::read_columns(&a.file, &[&a.human, &a.model], delimiter)?;
    let [human, model] = data.values.as_slice() else {
        return Err(Failure::new("two columns expected"));
    };
    report(a, ctx, human, model, out).map_err(|f| locate(f, a, &data))
}

/// A coefficient's error said in the file's terms: the column names instead
/// of `x` and `y`, the line and column of the value instead of its index.
fn locate(f: Failure, a: &Args, data: &Columns) -> Failure {
    let Some(&e) = f.source::<CorrelationError>() else {
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
    let failure = |message: String| Failure::new(message).file(&a.file);
    match e {
        CorrelationError::NaN { input, index } | CorrelationError::Infinite { input, index } => {
            let what = if matches!(e, CorrelationError::NaN { .. }) {
                "NaN"
            } else {
                "infinite"
            };
            let at = cell(input, index);
            failure(format!("column {:?}: the value is {what}", column(input).0))
                .at(at.map(|c| c.line), at.map(|c| c.column))
        }
        CorrelationError::Constant { input } => failure(format!(
            "column {:?} is constant: the coefficient is undefined",
            column(input).0
        )),
        _ => f.file(&a.file),
    }
}

/// Permutation p-values and bootstrap intervals, when asked for.
#[derive(Debug, Default)]
struct Resampled {
    p_rho: Option<(f64, f64)>,
    p_tau: Option<(f64, f64)>,
    ci_rho: Option<ConfidenceInterval>,
    ci_tau: Option<ConfidenceInterval>,
    /// ρ_w's permutation null, binned (with `--plot`).
    null_rho: Option<Histogram>,
    /// ρ_w's bootstrap distribution, binned (with `--plot`).
    boot_rho: Option<Histogram>,
}

fn resample(a: &Args, ctx: &Ctx, human: &[f64], model: &[f64]) -> Outcome<Resampled> {
    let mut r = Resampled::default();
    let steps = u64::from(a.permutations.is_some()) * 2 + u64::from(a.bootstrap.is_some()) * 2;
    if steps == 0 {
        return Ok(r);
    }
    let bar = Progress::new(ctx, steps, "resampling");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed);
    if let Some(n) = a.permutations {
        let p = Permutations::new(n as usize).alternative(Alternative::Greater);
        bar.message(format!("{n} permutations of ρ_w"));
        let t = binned_if(
            a.plot.is_some(),
            &mut r.null_rho,
            &mut rng,
            |rng| p.test(&TopWeightedRho::new(), human, model, rng),
            |rng| p.test_with_histogram(&TopWeightedRho::new(), human, model, BINS, rng),
        )?;
        r.p_rho = Some((t.p_value, t.standard_error));
        bar.inc(1);
        bar.message(format!("{n} permutations of τ_w"));
        let t = p.test(&TopWeightedTau::new(), human, model, &mut rng)?;
        r.p_tau = Some((t.p_value, t.standard_error));
        bar.inc(1);
    }
    if let Some(n) = a.bootstrap {
        let b = Bootstrap::new(n as usize);
        bar.message(format!("{n} bootstrap resamples of ρ_w"));
        r.ci_rho = Some(binned_if(
            a.plot.is_some(),
            &mut r.boot_rho,
            &mut rng,
            |rng| b.run(&TopWeightedRho::new(), human, model, rng),
            |rng| b.run_with_histogram(&TopWeightedRho::new(), human, model, BINS, rng),
        )?);
        bar.inc(1);
        bar.message(format!("{n} bootstrap resamples of τ_w"));
        r.ci_tau = Some(b.run(&TopWeightedTau::new(), human, model, &mut rng)?);
        bar.inc(1);
    }
    Ok(r)
}

/// ρ_w and τ_w of `human` and `model` with the weights of `w`.
fn both<W: Weigher>(w: &TopWeighted<W>, human: &[f64], model: &[f64]) -> Outcome<(f64, f64)> {
    Ok((w.rho(human, model)?.rho, w.tau(human, model)?.tau))
}

/// A resampling run: with `--plot` (`binned`) the variant that also bins
/// the resampled values into `histogram` (the result is bit for bit the
/// plain run's), else `plain`.
fn binned_if<T, R>(
    binned: bool,
    histogram: &mut Option<Histogram>,
    rng: &mut R,
    plain: impl FnOnce(&mut R) -> Result<T, UncertaintyError>,
    with_histogram: impl FnOnce(&mut R) -> Result<(T, Histogram), UncertaintyError>,
) -> Result<T, UncertaintyError> {
    if !binned {
        return plain(rng);
    }
    let (t, h) = with_histogram(rng)?;
    *histogram = Some(h);
    Ok(t)
}

/// `--plot`: ρ_w's permutation null (or, without permutations, its
/// bootstrap distribution) with the observed value, the permutation p-value
/// and the bootstrap interval marked.
fn plot(a: &Args, path: &Path, n: usize, rho_w: f64, r: &Resampled) -> Outcome {
    use adaptive_comp_metrics_plot::{HistogramMarks, Labels, histogram};
    let marks = HistogramMarks {
        observed: Some(rho_w),
        p_value: r.p_rho.map(|(p, _)| p),
        interval: r.ci_rho.as_ref().map(|c| (c.lower, c.upper)),
    };
    let (h, what, count) = match (&r.null_rho, &r.boot_rho) {
        (Some(h), _) => (
            h,
            "permutation null",
            format!(
                "{} permutations, one-sided (H1: positive association)",
                a.permutations.unwrap_or(0)
            ),
        ),
        (None, Some(h)) => (
            h,
            "bootstrap distribution",
            format!("{} resamples, 95 % BCa interval", a.bootstrap.unwrap_or(0)),
        ),
        (None, None) => {
            return Err(crate::plot::nothing_to_draw(
                "corr",
                "--permutations or --bootstrap",
            ));
        }
    };
    let labels = Labels::new(
        format!("ρ_w of {} against {}: {what}", a.model, a.human),
        "ρ_w (Lombardo et al. 2020)",
        if r.null_rho.is_some() {
            "permutations (count)"
        } else {
            "resamples (count)"
        },
    )
    .subtitle(format!("{n} items, {count}"));
    crate::plot::write(path, histogram(h, &marks, &labels))
}

/// A p-value for printing: below the smallest positive f64 it underflows to 0.
fn fmt_p(p: f64) -> String {
    if p == 0.0 {
        "< 1e-308".to_string()
    } else {
        format!("{p:.3e}")
    }
}

#[allow(clippy::too_many_lines)]
fn report(a: &Args, ctx: &Ctx, human: &[f64], model: &[f64], out: &mut Out) -> Outcome {
    let paper = TopWeighted::new();
    let rho_w = paper.rho(human, model)?;
    let tau_w = paper.tau(human, model)?;
    let rho_s = paper.rho_standardised(human, model);
    let tau_s = paper.tau_standardised(human, model);
    let rho = spearman(human, model)?;
    let tau = kendall_tau_b(human, model)?;
    let r = pearson(human, model)?;
    let vigna = weighted_tau(
        human,
        model,
        &adaptive_comp_metrics::WeightedTauOptions::default(),
    )?;
    let extra = resample(a, ctx, human, model)?;
    if let Some(path) = &a.plot {
        plot(a, path, human.len(), rho_w.rho, &extra)?;
    }
    let two = Alternative::TwoSided;
    let greater = Alternative::Greater;
    match a.output.format {
        Format::Json => {
            let std_json = |v: Result<f64, String>| match v {
                Ok(v) => json!(v),
                Err(e) => json!({ "error": e }),
            };
            let doc = json!({
                "file": a.file.display().to_string(),
                "human": a.human,
                "model": a.model,
                "n": human.len(),
                "rho_w": rho_w,
                "tau_w": tau_w,
                "rho_w_standardised": std_json(rho_s.as_ref().map(|s| s.value).map_err(ToString::to_string)),
                "tau_w_standardised": std_json(tau_s.as_ref().map(|s| s.value).map_err(ToString::to_string)),
                "spearman": { "rho": rho.rho, "p_two_sided": rho.p_value(two), "p_greater": rho.p_value(greater) },
                "kendall_tau_b": { "tau": tau.tau, "p_two_sided": tau.p_value(two), "p_greater": tau.p_value(greater),
                    "concordant": tau.concordant, "discordant": tau.discordant },
                "pearson": { "r": r.r, "p_two_sided": r.p_value(two), "p_greater": r.p_value(greater) },
                "weighted_tau": vigna,
                "permutation_p_greater": extra.p_rho.map(|(p, se)| json!({
                    "permutations": a.permutations, "rho_w": [p, se],
                    "tau_w": extra.p_tau.map(|(p, se)| [p, se]) })),
                "bootstrap_95": extra.ci_rho.map(|c| json!({
                    "resamples": a.bootstrap, "rho_w": [c.lower, c.upper],
                    "tau_w": extra.ci_tau.map(|c| [c.lower, c.upper]) })),
            });
            out.json(&doc)
        }
        Format::Csv => {
            let mut t = Table::new(
                &[
                    "coefficient",
                    "value",
                    "standardised",
                    "p_two_sided",
                    "p_greater",
                    "ci_lower",
                    "ci_upper",
                ],
                1,
            );
            // A row: value, standardised, p two-sided and greater, interval.
            let mut row = |name: &str, cells: [Option<f64>; 6]| {
                let mut rec = vec![name.to_owned()];
                rec.extend(cells.map(|v| v.map_or_else(String::new, |v| v.to_string())));
                t.row(rec);
            };
            let rho_std = rho_s.as_ref().ok().map(|s| s.value);
            let tau_std = tau_s.as_ref().ok().map(|s| s.value);
            for (name, value, standardised, p, ci) in [
                ("rho_w", rho_w.rho, rho_std, extra.p_rho, extra.ci_rho),
                ("tau_w", tau_w.tau, tau_std, extra.p_tau, extra.ci_tau),
            ] {
                let (p, lower, upper) = (p.map(|p| p.0), ci.map(|c| c.lower), ci.map(|c| c.upper));
                row(name, [Some(value), standardised, None, p, lower, upper]);
            }
            for (name, value, p_two, p_greater) in [
                ("spearman", rho.rho, rho.p_value(two), rho.p_value(greater)),
                (
                    "kendall_tau_b",
                    tau.tau,
                    tau.p_value(two),
                    tau.p_value(greater),
                ),
                ("pearson", r.r, r.p_value(two), r.p_value(greater)),
            ] {
                let (p_two, p_greater) = (Some(p_two), Some(p_greater));
                row(name, [Some(value), None, p_two, p_greater, None, None]);
            }
            row("weighted_tau", [Some(vigna), None, None, None, None, None]);
            t.write(Format::Csv, out)
        }
        Format::Table => {
            writeln!(
                out,
                "{}: {} items, human = `{}`, model = `{}`\n",
                a.file.display(),
                human.len(),
                a.human,
                a.model
            )?;
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
            writeln!(
                out,
                "  standardised (0 = what unrelated rankings give on average, ±1 = identical/reversed):"
            )?;
            let mut ties = false;
            match &rho_s {
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
            match &tau_s {
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
                "  effective number of items 1/Σw² = {:.1}",
                rho_w.effective_n
            )?;
            if let (Some((p_rho, se_rho)), Some((p_tau, se_tau))) = (extra.p_rho, extra.p_tau) {
                let n = a.permutations.unwrap_or(0);
                writeln!(
                    out,
                    "  permutation test, {n} permutations (H1: positive association): p(ρ_w) = {p_rho:.4} ± {se_rho:.4}, p(τ_w) = {p_tau:.4} ± {se_tau:.4}"
                )?;
            }
            if let (Some(r), Some(t)) = (extra.ci_rho, extra.ci_tau) {
                let n = a.bootstrap.unwrap_or(0);
                let ([r_lo, r_hi], [t_lo, t_hi]) = ([r.lower, r.upper], [t.lower, t.upper]);
                writeln!(
                    out,
                    "  95 % BCa bootstrap intervals, {n} resamples: ρ_w [{r_lo:+.4}, {r_hi:+.4}], τ_w [{t_lo:+.4}, {t_hi:+.4}]"
                )?;
            }
            writeln!(out)?;
            writeln!(out, "plain coefficients (every rank counts the same)")?;
            for (name, symbol, v, p2, pg) in [
                (
                    "Spearman ρ ",
                    "ρ",
                    rho.rho,
                    rho.p_value(two),
                    rho.p_value(greater),
                ),
                (
                    "Kendall τ-b",
                    "τ",
                    tau.tau,
                    tau.p_value(two),
                    tau.p_value(greater),
                ),
                ("Pearson r  ", "r", r.r, r.p_value(two), r.p_value(greater)),
            ] {
                writeln!(
                    out,
                    "  {name} = {v:+.4}   p (two-sided) = {}   p ({symbol} > 0) = {}",
                    fmt_p(p2),
                    fmt_p(pg)
                )?;
            }
            writeln!(
                out,
                "  pairs: {} concordant, {} discordant, {} tied in human only, {} in model only, {} in both\n",
                tau.concordant, tau.discordant, tau.ties_x, tau.ties_y, tau.ties_xy
            )?;
            writeln!(out, "other weightings of the same data")?;
            let r0 = first_rank_fraction(0.0)?;
            for (label, (rho, tau)) in [
                (
                    format!("n0 = 0 (R(0) = {r0:.2}):"),
                    both(&paper.weigher(OffsetQuadratic::new(0.0)?), human, model)?,
                ),
                (
                    "weights from human ranks:".to_owned(),
                    both(&paper.scheme(Scheme::First), human, model)?,
                ),
                (
                    "hyperbolic 1/n:".to_owned(),
                    both(&paper.weigher(Hyperbolic), human, model)?,
                ),
            ] {
                writeln!(out, "  {label:<27}ρ_w = {rho:+.4}  τ_w = {tau:+.4}")?;
            }
            writeln!(
                out,
                "  Vigna's weighted τ (scipy.stats.weightedtau's default: hyperbolic, additive) = {vigna:+.4}"
            )?;
            Ok(())
        }
    }
}
