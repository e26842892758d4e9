//! `acm wordsim`: word-embedding models evaluated on word-similarity
//! benchmarks (the models × benchmarks table of gensim's
//! `evaluate_word_pairs`, with ρ_w, τ_w and their standardised values).

use std::io::Read;
use std::path::{Path, PathBuf};

use adaptive_comp_metrics::Alternative;
use adaptive_comp_metrics::embedding::EmbeddingError;
use adaptive_comp_metrics::embedding::{
    Format as VectorFormat, ReadOptions, Vectors, read_vectors,
};
use adaptive_comp_metrics::uncertainty::{
    Bootstrap, ConfidenceInterval, Spearman, UncertaintyError,
};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Chosen, Comparison, Detection, Evaluator, Intervals, Layout, PairFormat, Report,
    Unknown, WordsimError, paired_test,
};
use rand::SeedableRng;

use crate::error::{Failure, Outcome};
use crate::input;
use crate::output::{Ctx, Format, Out};
use crate::progress::Progress;

/// How out-of-vocabulary pairs are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UnknownArg {
    /// Dropped (gensim's default).
    Drop,
    /// Scored 0 (gensim's dummy4unknown).
    Zero,
    /// Scored with the mean similarity.
    Mean,
}

/// Evaluates word-embedding models on word-similarity benchmarks: pairs found, OOV ratio, r, ρ,
/// τ-b with p-values, ρ_w and τ_w raw and standardised.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Vector files are word2vec text (.vec), GloVe text or word2vec binary (.bin), detected from their
first bytes. The datasets are read first, then each vector file is streamed once, keeping only the
words the datasets need. A dataset's layout (wordsim353, simlex999, men, rg65, mc30, mturk, rw,
simverb3500, plain) is detected from its first 64 KiB (header line, separator, which columns hold
numbers, MEN's -n/-v/-j tags), the file name breaking ties, unless --layout is given; when a file
cannot be read the error says which layout was tried and how it was chosen.

--fold-case lowercases words (Unicode lower case) in the vectors and the datasets. gensim's
case_insensitive upper-cases instead, which differs on a few letters: German ß (gensim: straße =
STRASSE = strasse; here straße ≠ strasse), Turkish dotless ı (gensim: kıta = kita; here not) and
Greek final ς (gensim: ς = σ; here not), the ligatures (ﬁ) and long s (ſ); the Kelvin and ohm
signs fold here and not in gensim.

Examples:
  acm wordsim --vectors glove.6B.300d.txt --vectors w2v.bin SimLex-999.txt wordsim353.tsv
  acm wordsim --vectors a.vec --vectors b.vec MEN.txt --bootstrap 1000 --seed 7
  acm wordsim --vectors a.vec pairs.tsv --layout plain --unknown zero --format json
  acm wordsim --vectors a.vec --vectors b.vec MEN.txt RW.txt --bootstrap 1000 --plot models.svg")]
pub struct Args {
    /// A model's vector file (repeatable).
    #[arg(long = "vectors", value_name = "FILE", required = true)]
    pub vectors: Vec<PathBuf>,
    /// The benchmark files.
    #[arg(required = true, value_name = "DATASET")]
    pub datasets: Vec<PathBuf>,
    /// Layout of every dataset (default: detected from each file's content).
    #[arg(long, value_parser = parse_layout)]
    pub layout: Option<LayoutArg>,
    /// Out-of-vocabulary pairs.
    #[arg(long, value_enum, default_value_t = UnknownArg::Drop)]
    pub unknown: UnknownArg,
    /// Compare words case-insensitively, by Unicode lower case (gensim upper-cases: they differ
    /// on ß, dotless ı, final ς; see below).
    #[arg(long)]
    pub fold_case: bool,
    /// Read only the first N rows of each vector file (gensim's restrict_vocab).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// 95 % BCa intervals of every coefficient from N resamples, and paired tests of each model
    /// against the first.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub bootstrap: Option<u32>,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Draw models × benchmarks as SVG: a panel per coefficient (r, ρ, τ-b, ρ_w, τ_w), each model's
    /// value on each benchmark a dot, with its bootstrap interval as a whisker when --bootstrap is
    /// given. Example: --bootstrap 1000 --plot models.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Draw the human scores against the model's similarities as SVG, a panel per model and
    /// benchmark, the 10 pairs humans rank highest (the weighted coefficients' top) emphasised.
    /// Example: --plot-scatter pairs.svg
    #[arg(long, value_name = "FILE.svg")]
    pub plot_scatter: Option<PathBuf>,
}

/// A dataset layout: a named one or `plain` (two words and a score).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutArg(pub Option<Layout>);

pub(crate) fn parse_layout(s: &str) -> Result<LayoutArg, String> {
    if s == "plain" {
        return Ok(LayoutArg(None));
    }
    Layout::from_name(s)
        .map(|l| LayoutArg(Some(l)))
        .ok_or_else(|| format!("unknown layout {s:?}: expected one of {LAYOUTS}"))
}

/// The layout names `--layout` takes.
const LAYOUTS: &str = "wordsim353, simlex999, men, rg65, mc30, mturk, rw, simverb3500, plain";

/// Reads a dataset with the layout given, or detected from its content.
pub(crate) fn read_benchmark(path: &Path, layout: Option<LayoutArg>) -> Outcome<Benchmark> {
    let name = name_of(path);
    let read = match layout {
        Some(LayoutArg(l)) => {
            let format = l.map_or_else(PairFormat::new, PairFormat::layout);
            Detection::explicit(format, l).read(name.as_str(), input::open(path)?)
        }
        None => Benchmark::read_detected(name.as_str(), input::open(path)?, Some(name.as_str()))
            .map(|(b, _)| b),
    };
    read.map_err(|e| benchmark_failure(path, &e))
}

/// The error of reading a dataset, saying which layout was tried, how it
/// was chosen and how to choose another.
fn benchmark_failure(path: &Path, e: &WordsimError) -> Failure {
    match e {
        WordsimError::Format { detection, error } => {
            let how = match detection.chosen {
                Chosen::Explicit => "choose another with --layout, or leave it out to detect it",
                _ => "choose another with --layout",
            };
            let inner = Failure::in_file(path, error.as_ref());
            let message = format!("{} (read as {detection}; {how}: {LAYOUTS})", inner.message);
            Failure::new(message).file(path).at(error.line(), None)
        }
        WordsimError::Undetected { line, problem } => Failure::new(format!(
            "{problem}, so the layout cannot be detected; choose one with --layout: {LAYOUTS}"
        ))
        .file(path)
        .at(Some(*line), None),
        other => Failure::in_file(path, other),
    }
}

pub(crate) fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn vectors_failure(path: &Path, e: &EmbeddingError) -> Failure {
    match e {
        EmbeddingError::Binary {
            row,
            offset,
            problem,
        } => Failure::new(format!("row {row} (byte {offset}): {problem}")).file(path),
        other => Failure::in_file(path, other),
    }
}

pub(crate) fn load_vectors(path: &Path, options: &ReadOptions, ctx: &Ctx) -> Outcome<Vectors<f32>> {
    let mut head = Vec::with_capacity(1 << 16);
    input::open(path)?
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(|e| Failure::new(format!("cannot read: {e}")).file(path))?;
    let format = VectorFormat::detect(&head);
    let _spin = Progress::spinner(ctx, &format!("reading {}", path.display()));
    read_vectors(input::open(path)?, format, options).map_err(|e| vectors_failure(path, &e))
}

/// Reads the datasets and the vectors and prints the table.
///
/// # Errors
/// A malformed file (with its line), a failed evaluation.
pub fn run(args: &Args, ctx: &Ctx, out: &mut Out) -> Outcome {
    for path in [&args.plot, &args.plot_scatter].into_iter().flatten() {
        crate::plot::check(path)?;
    }
    let mut benchmarks = Vec::new();
    for path in &args.datasets {
        benchmarks.push(read_benchmark(path, args.layout)?);
    }
    let needed: std::collections::BTreeSet<&str> =
        benchmarks.iter().flat_map(Benchmark::words).collect();
    let mut options = ReadOptions::new().keep(needed).fold_case(args.fold_case);
    if let Some(n) = args.limit {
        options = options.limit(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let mut models = Vec::new();
    for path in &args.vectors {
        models.push((name_of(path), load_vectors(path, &options, ctx)?));
    }
    let named: Vec<(&str, &Vectors<f32>)> = models.iter().map(|(n, v)| (n.as_str(), v)).collect();
    let unknown = match args.unknown {
        UnknownArg::Drop => Unknown::Drop,
        UnknownArg::Zero => Unknown::Zero,
        UnknownArg::Mean => Unknown::Mean,
    };
    let evaluator = Evaluator::new().unknown(unknown);
    let table = evaluator.compare(&named, &benchmarks)?;
    let extra = uncertainty_extra(args, ctx, &evaluator, &named, &benchmarks, &table)?;
    if let Some(path) = &args.plot {
        crate::plot::write(path, plot_estimates(&table, &extra, args.bootstrap))?;
    }
    if let Some(path) = &args.plot_scatter {
        crate::plot::write(path, plot_scatter(&table))?;
    }
    let text = match args.format {
        Format::Table => render_table(&table, &extra),
        Format::Csv => render_csv(&table),
        Format::Json => render_json(&table, &extra),
    };
    out.bytes(text.as_bytes())
}

/// Bootstrap intervals and paired tests (feature `uncertainty`), as lines
/// of text and JSON values.
#[derive(Default)]
struct Extra {
    lines: Vec<String>,
    json: Vec<serde_json::Value>,
    /// The intervals of every report, in the table's row order.
    intervals: Vec<Intervals>,
}

fn uncertainty_extra(
    args: &Args,
    ctx: &Ctx,
    evaluator: &Evaluator,
    models: &[(&str, &Vectors<f32>)],
    benchmarks: &[Benchmark],
    table: &Comparison,
) -> Outcome<Extra> {
    let mut extra = Extra::default();
    let Some(resamples) = args.bootstrap.map(|b| b as usize) else {
        return Ok(extra);
    };
    let bar = Progress::new(
        ctx,
        (models.len() * benchmarks.len() * 2) as u64,
        "bootstrap",
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let boot = Bootstrap::new(resamples);
    let fmt = |c: &Result<ConfidenceInterval, UncertaintyError>| match c {
        Ok(c) => format!("[{:+.3}, {:+.3}]", c.lower, c.upper),
        Err(e) => format!("({e})"),
    };
    extra.lines.push(format!(
        "\n95 % BCa bootstrap intervals ({resamples} resamples, seed {})",
        args.seed
    ));
    for (name, v) in models {
        for b in benchmarks {
            bar.message(format!("bootstrap: {name} on {}", b.name()));
            let r = evaluator.evaluate_with_intervals(*v, b, &boot, &mut rng)?;
            bar.inc(1);
            let Some(iv) = r.intervals else {
                return Err(Failure::new("no intervals computed"));
            };
            extra.lines.push(format!(
                "  {name} on {}: r {}  ρ {}  τ-b {}  ρ_w {}  τ_w {}",
                b.name(),
                fmt(&iv.pearson),
                fmt(&iv.spearman),
                fmt(&iv.kendall),
                fmt(&iv.rho_w),
                fmt(&iv.tau_w)
            ));
            let j = |c: &Result<ConfidenceInterval, UncertaintyError>| match c {
                Ok(c) => serde_json::json!([c.lower, c.upper]),
                Err(e) => serde_json::json!(e.to_string()),
            };
            extra.json.push(serde_json::json!({
                "model": name, "benchmark": b.name(), "level": 0.95, "resamples": resamples,
                "pearson": j(&iv.pearson), "spearman": j(&iv.spearman), "kendall": j(&iv.kendall),
                "rho_w": j(&iv.rho_w), "tau_w": j(&iv.tau_w),
            }));
            extra.intervals.push(iv);
        }
    }
    if models.len() > 1 {
        extra.lines.push(format!(
            "\npaired tests of Spearman ρ against {} (pairs both cover)",
            models[0].0
        ));
        for m in 1..models.len() {
            for (bi, b) in benchmarks.iter().enumerate() {
                let (first, other) = (table.report(0, bi), table.report(m, bi));
                bar.message(format!("paired test on {}", b.name()));
                let tested = paired_test(first, other, &Spearman, resamples, &mut rng);
                bar.inc(1);
                let text = match tested {
                    Ok(t) => {
                        let c = t.comparison;
                        extra.json.push(serde_json::json!({
                            "model_a": models[0].0, "model_b": models[m].0, "benchmark": b.name(),
                            "common": t.common, "difference": c.difference,
                            "interval": [c.interval.lower, c.interval.upper], "p_value": c.test.p_value,
                        }));
                        format!(
                            "  {} − {} on {}: Δρ = {:+.4}  [{:+.3}, {:+.3}]  p = {:.4}  ({} pairs)",
                            models[0].0,
                            models[m].0,
                            b.name(),
                            c.difference,
                            c.interval.lower,
                            c.interval.upper,
                            c.test.p_value,
                            t.common
                        )
                    }
                    Err(e) => format!("  {} − {} on {}: {e}", models[0].0, models[m].0, b.name()),
                };
                extra.lines.push(text);
            }
        }
    }
    Ok(extra)
}

fn coefficient<T>(
    r: &Result<T, adaptive_comp_metrics::CorrelationError>,
    value: impl Fn(&T) -> f64,
    p: impl Fn(&T) -> Option<f64>,
) -> String {
    match r {
        Ok(t) => match p(t) {
            Some(p) => format!("{:+.4} ({})", value(t), fmt_p(p)),
            None => format!("{:+.4}", value(t)),
        },
        Err(_) => "-".to_owned(),
    }
}

fn fmt_p(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

fn cells(r: &Report) -> [String; 7] {
    let two = Alternative::TwoSided;
    let g = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:+.4}"));
    [
        coefficient(&r.pearson, |t| t.r, |t| Some(t.p_value(two))),
        coefficient(&r.spearman, |t| t.rho, |t| Some(t.p_value(two))),
        coefficient(&r.kendall, |t| t.tau, |t| Some(t.p_value(two))),
        coefficient(&r.rho_w, |t| t.rho, |_| None),
        g(r.rho_w_standardised.as_ref().ok().map(|s| s.value)),
        coefficient(&r.tau_w, |t| t.tau, |_| None),
        g(r.tau_w_standardised.as_ref().ok().map(|s| s.value)),
    ]
}

fn render_table(table: &Comparison, extra: &Extra) -> String {
    let header = [
        "model",
        "benchmark",
        "pairs",
        "found",
        "OOV %",
        "r (p)",
        "ρ (p)",
        "τ-b (p)",
        "ρ_w",
        "g(ρ_w)",
        "τ_w",
        "g(τ_w)",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| (*s).to_owned()).collect()];
    for (m, b, r) in table.rows() {
        let mut row = vec![
            m.to_owned(),
            b.to_owned(),
            r.pairs.to_string(),
            r.found.to_string(),
            format!("{:.1}", 100.0 * r.oov_ratio()),
        ];
        row.extend(cells(r));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                let pad = " ".repeat(w - cell.chars().count());
                if c < 2 {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    let unknown = table.rows().next().map(|(_, _, r)| r.unknown);
    out.push_str(&format!(
        "\nunknown pairs: {}; p-values two-sided; ρ_w, τ_w: f(n) = 1/(n + 2)², additive weights\n\
         g(ρ_w), g(τ_w): the same on a scale where 0 is what unrelated rankings give on average\n\
         (raw ρ_w and τ_w of unrelated rankings are well below 0) and ±1 stay identical/reversed\n",
        match unknown {
            Some(Unknown::Zero) => "scored 0",
            Some(Unknown::Mean) => "scored with the mean similarity",
            _ => "dropped",
        }
    ));
    for l in &extra.lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

fn render_csv(table: &Comparison) -> String {
    let mut out = String::from(
        "model,benchmark,pairs,found,oov_ratio,pearson,pearson_p,spearman,spearman_p,kendall,kendall_p,rho_w,tau_w,rho_w_standardised,tau_w_standardised\n",
    );
    let two = Alternative::TwoSided;
    let num = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:?}"));
    for (m, b, r) in table.rows() {
        let q = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_owned()
            }
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            q(m),
            q(b),
            r.pairs,
            r.found,
            r.oov_ratio(),
            num(r.pearson.as_ref().ok().map(|t| t.r)),
            num(r.pearson.as_ref().ok().map(|t| t.p_value(two))),
            num(r.spearman.as_ref().ok().map(|t| t.rho)),
            num(r.spearman.as_ref().ok().map(|t| t.p_value(two))),
            num(r.kendall.as_ref().ok().map(|t| t.tau)),
            num(r.kendall.as_ref().ok().map(|t| t.p_value(two))),
            num(r.rho_w.as_ref().ok().map(|t| t.rho)),
            num(r.tau_w.as_ref().ok().map(|t| t.tau)),
            num(r.rho_w_standardised.as_ref().ok().map(|s| s.value)),
            num(r.tau_w_standardised.as_ref().ok().map(|s| s.value)),
        ));
    }
    out
}

fn render_json(table: &Comparison, extra: &Extra) -> String {
    use serde_json::json;
    let two = Alternative::TwoSided;
    let err = |e: &adaptive_comp_metrics::CorrelationError| json!({ "error": e.to_string() });
    let err_s = |e: &adaptive_comp_metrics::StandardisedError| json!({ "error": e.to_string() });
    let rows: Vec<serde_json::Value> = table
        .rows()
        .map(|(m, b, r)| {
            json!({
                "model": m, "benchmark": b, "pairs": r.pairs, "found": r.found,
                "oov_ratio": r.oov_ratio(), "scored": r.scored(),
                "pearson": r.pearson.as_ref().map_or_else(err, |t| json!({"r": t.r, "p_value": t.p_value(two)})),
                "spearman": r.spearman.as_ref().map_or_else(err, |t| json!({"rho": t.rho, "p_value": t.p_value(two)})),
                "kendall": r.kendall.as_ref().map_or_else(err, |t| json!({"tau_b": t.tau, "p_value": t.p_value(two)})),
                "rho_w": r.rho_w.as_ref().map_or_else(err, |t| json!({"rho_w": t.rho, "effective_n": t.effective_n})),
                "tau_w": r.tau_w.as_ref().map_or_else(err, |t| json!({"tau_w": t.tau, "effective_n": t.effective_n})),
                "rho_w_standardised": r.rho_w_standardised.as_ref().map_or_else(err_s, |s| json!({"value": s.value, "null_mean": s.moments.mean.value, "ties": s.ties})),
                "tau_w_standardised": r.tau_w_standardised.as_ref().map_or_else(err_s, |s| json!({"value": s.value, "null_mean": s.moments.mean.value, "ties": s.ties})),
            })
        })
        .collect();
    let value = json!({ "reports": rows, "uncertainty": extra.json });
    let mut s = serde_json::to_string_pretty(&value).unwrap_or_default();
    s.push('\n');
    s
}

/// A coefficient of a report as `--plot` draws it: its name, its value and
/// its bootstrap interval.
type Drawn = (
    &'static str,
    fn(&Report) -> Option<f64>,
    fn(&Intervals) -> Option<(f64, f64)>,
);

/// A [`Drawn`] coefficient: its name, its field in [`Report`] and
/// [`Intervals`], and the value's field in the report's result.
macro_rules! drawn {
    ($name:literal, $field:ident . $value:ident) => {
        (
            $name,
            |r| r.$field.as_ref().ok().map(|t| t.$value),
            |i| i.$field.as_ref().ok().map(|c| (c.lower, c.upper)),
        )
    };
}

/// The coefficients of `--plot`, in the table's order.
const DRAWN: [Drawn; 5] = [
    drawn!("Pearson's r", pearson.r),
    drawn!("Spearman's ρ", spearman.rho),
    drawn!("Kendall's τ-b", kendall.tau),
    drawn!("ρ_w", rho_w.rho),
    drawn!("τ_w", tau_w.tau),
];

/// `--plot`: a dot-and-whisker panel per coefficient, benchmarks as rows,
/// models as series, the bootstrap intervals as whiskers.
fn plot_estimates(
    table: &Comparison,
    extra: &Extra,
    bootstrap: Option<u32>,
) -> Result<String, adaptive_comp_metrics_plot::PlotError> {
    use adaptive_comp_metrics_plot::{Estimate, Labels, dot_whisker, stack};
    let subtitle = match bootstrap {
        Some(n) => format!("95 % BCa bootstrap intervals from {n} resamples"),
        None => "no intervals (ask for them with --bootstrap N)".to_owned(),
    };
    let mut panels = Vec::new();
    for (name, value, interval) in DRAWN {
        let estimates: Vec<Estimate> = table
            .rows()
            .enumerate()
            .filter_map(|(i, (m, b, r))| {
                Some(Estimate {
                    row: b.to_owned(),
                    series: m.to_owned(),
                    value: value(r)?,
                    interval: extra.intervals.get(i).and_then(interval),
                })
            })
            .collect();
        if estimates.is_empty() {
            continue;
        }
        let labels = Labels::new(
            format!("{name} of each model on each benchmark"),
            format!("{name} against the human scores (−1 to 1)"),
            "benchmark",
        )
        .subtitle(subtitle.clone());
        panels.push(dot_whisker(&estimates, &labels)?);
    }
    stack(&panels, "word-similarity models against human judgements")
}

/// The pairs `--plot-scatter` emphasises: the 10 humans rank highest.
const TOP: usize = 10;

/// `--plot-scatter`: human scores against model similarities, a panel per
/// model and benchmark, the top [`TOP`] pairs by human score emphasised.
fn plot_scatter(table: &Comparison) -> Result<String, adaptive_comp_metrics_plot::PlotError> {
    use adaptive_comp_metrics_plot::{Labels, Point, scatter, stack};
    let mut panels = Vec::new();
    for (m, b, r) in table.rows() {
        if r.human.is_empty() {
            continue;
        }
        let mut order: Vec<usize> = (0..r.human.len()).collect();
        order.sort_by(|&i, &j| r.human[j].total_cmp(&r.human[i]).then(i.cmp(&j)));
        let mut top = vec![false; r.human.len()];
        for &i in order.iter().take(TOP) {
            top[i] = true;
        }
        let points: Vec<Point> = r
            .human
            .iter()
            .zip(&r.model)
            .zip(&top)
            .map(|((&x, &y), &emphasised)| Point { x, y, emphasised })
            .collect();
        let labels = Labels::new(
            format!("{m} on {b}: human against model scores"),
            "human score (the benchmark's scale)",
            "model cosine similarity",
        )
        .subtitle(format!("{} pairs scored of {}", r.scored(), r.pairs));
        panels.push(scatter(
            &points,
            &format!("top {} by human score", TOP.min(points.len())),
            "other pairs",
            &labels,
        )?);
    }
    stack(&panels, "human scores against model similarities")
}
