//! Evaluates word-embedding models on word-similarity benchmarks: a table of
//! models × benchmarks with the pairs found, the OOV ratio, Pearson's r,
//! Spearman's ρ and Kendall's τ-b with two-sided p-values, and the
//! top-weighted ρ_w and τ_w of Lombardo et al. (2020).
//!
//! ```text
//! cargo run --release --example wordsim -- --vectors A.vec --vectors B.bin DATASET...
//! cargo run --release --example wordsim                 # the bundled synthetic sample
//! cargo run --release --example wordsim --features uncertainty -- --bootstrap 1000 ...
//! ```
//!
//! Options (before or between the files):
//!
//! ```text
//! --vectors FILE      a model: word2vec text (.vec), GloVe text or word2vec binary (.bin), detected
//! --layout NAME       layout of the datasets that follow: wordsim353, simlex999, men, rg65, mc30,
//!                     mturk, rw, simverb3500, plain (default: guessed from each file name)
//! --unknown POLICY    drop (default, as gensim), zero (gensim's dummy4unknown) or mean
//! --fold-case         compare words case-insensitively
//! --limit N           read only the first N rows of each vector file (gensim's restrict_vocab)
//! --json | --csv      machine-readable output instead of the table
//! --bootstrap N       95 % BCa intervals of every coefficient, and paired tests of each model
//!                     against the first (feature `uncertainty`); --seed S sets the seed (default 1)
//! ```
//!
//! The datasets are read first, then each vector file is streamed once,
//! keeping only the words the datasets need. Errors are printed as
//! `error: FILE:LINE: message` with exit code 1.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use adaptive_comp_metrics::Alternative;
use adaptive_comp_metrics::embedding::{
    EmbeddingError, Format, ReadOptions, Vectors, read_vectors,
};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Comparison, Evaluator, Layout, PairFormat, Report, Unknown, WordsimError,
};

struct Args {
    vectors: Vec<PathBuf>,
    datasets: Vec<(PathBuf, Option<Layout>)>,
    unknown: Unknown,
    fold_case: bool,
    limit: Option<usize>,
    output: Output,
    bootstrap: Option<usize>,
    seed: u64,
}

#[derive(Clone, Copy, PartialEq)]
enum Output {
    Table,
    Json,
    Csv,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Quiet) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!(
                "error: {msg}\nusage: wordsim [--vectors FILE]... [--layout NAME] [--unknown drop|zero|mean] [--fold-case] [--limit N] [--json|--csv] [--bootstrap N] [DATASET...]"
            );
            ExitCode::from(2)
        }
        Err(Failure::Error(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    /// stdout was closed (e.g. `| head`): stop quietly.
    Quiet,
    Usage(String),
    Error(String),
}

fn parse_args() -> Result<Args, Failure> {
    let mut args = Args {
        vectors: Vec::new(),
        datasets: Vec::new(),
        unknown: Unknown::Drop,
        fold_case: false,
        limit: None,
        output: Output::Table,
        bootstrap: None,
        seed: 1,
    };
    let mut layout: Option<Option<Layout>> = None;
    let mut it = std::env::args().skip(1);
    let usage = |m: &str| Failure::Usage(m.to_owned());
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| usage(&format!("{name} needs a value")))
        };
        match a.as_str() {
            "--vectors" => args.vectors.push(PathBuf::from(value("--vectors")?)),
            "--layout" => {
                let v = value("--layout")?;
                layout = Some(if v == "plain" {
                    None
                } else {
                    Some(
                        Layout::from_name(&v)
                            .ok_or_else(|| usage(&format!("unknown layout {v}")))?,
                    )
                });
            }
            "--unknown" => {
                args.unknown = match value("--unknown")?.as_str() {
                    "drop" => Unknown::Drop,
                    "zero" => Unknown::Zero,
                    "mean" => Unknown::Mean,
                    other => return Err(usage(&format!("unknown policy {other}"))),
                }
            }
            "--fold-case" => args.fold_case = true,
            "--limit" => {
                let v = value("--limit")?;
                args.limit = Some(
                    v.parse()
                        .map_err(|_| usage(&format!("--limit {v} is not a count")))?,
                );
            }
            "--json" => args.output = Output::Json,
            "--csv" => args.output = Output::Csv,
            "--bootstrap" => {
                let v = value("--bootstrap")?;
                args.bootstrap = Some(
                    v.parse()
                        .map_err(|_| usage(&format!("--bootstrap {v} is not a count")))?,
                );
            }
            "--seed" => {
                let v = value("--seed")?;
                args.seed = v
                    .parse()
                    .map_err(|_| usage(&format!("--seed {v} is not an integer")))?;
            }
            "-h" | "--help" => return Err(usage("help")),
            flag if flag.starts_with("--") => return Err(usage(&format!("unknown option {flag}"))),
            path => {
                let p = PathBuf::from(path);
                let l = layout.unwrap_or_else(|| guess_layout(&p));
                args.datasets.push((p, l));
            }
        }
    }
    if args.vectors.is_empty() && args.datasets.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/wordsim");
        eprintln!(
            "no arguments: the bundled synthetic sample in {}",
            dir.display()
        );
        args.vectors = vec![dir.join("sample-a.vec"), dir.join("sample-b.bin")];
        for name in [
            "ws-sample.tsv",
            "simlex-sample.txt",
            "men-sample.txt",
            "mturk-sample.csv",
        ] {
            let p = dir.join(name);
            let l = guess_layout(&p);
            args.datasets.push((p, l));
        }
    }
    if args.vectors.is_empty() || args.datasets.is_empty() {
        return Err(usage("give at least one --vectors FILE and one DATASET"));
    }
    if args.bootstrap.is_some() && !cfg!(feature = "uncertainty") {
        return Err(usage("--bootstrap needs --features uncertainty"));
    }
    Ok(args)
}

/// The layout from the file name (`SimLex-999.txt` → SimLex-999, …).
fn guess_layout(path: &Path) -> Option<Layout> {
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    [
        ("simlex", Layout::SimLex999),
        ("simverb", Layout::SimVerb3500),
        ("men", Layout::Men),
    ]
    .into_iter()
    .find(|(key, _)| name.starts_with(key) || name.contains(&format!("en{key}")))
    .map(|(_, l)| l)
}

fn open(path: &Path) -> Result<BufReader<File>, Failure> {
    File::open(path)
        .map(|f| BufReader::with_capacity(1 << 20, f))
        .map_err(|e| Failure::Error(format!("{}: {e}", path.display())))
}

/// `FILE:LINE: message` for errors with a line, `FILE: message` otherwise.
fn located(path: &Path, e: &WordsimError) -> Failure {
    let file = path.display();
    Failure::Error(match e {
        WordsimError::Line { line, problem } => format!("{file}:{line}: {problem}"),
        WordsimError::Vectors(v) => return located_vectors(path, v),
        other => format!("{file}: {other}"),
    })
}

fn located_vectors(path: &Path, e: &EmbeddingError) -> Failure {
    let file = path.display();
    Failure::Error(match e {
        EmbeddingError::Line { line, problem } => format!("{file}:{line}: {problem}"),
        EmbeddingError::Binary {
            row,
            offset,
            problem,
        } => {
            format!("{file}: row {row} (byte {offset}): {problem}")
        }
        other => format!("{file}: {other}"),
    })
}

fn load_vectors(path: &Path, options: &ReadOptions) -> Result<Vectors<f32>, Failure> {
    let mut head = Vec::with_capacity(1 << 16);
    open(path)?
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(|e| Failure::Error(format!("{}: {e}", path.display())))?;
    let format = Format::detect(&head);
    read_vectors(open(path)?, format, options).map_err(|e| located_vectors(path, &e))
}

fn run() -> Result<(), Failure> {
    let args = parse_args()?;
    let mut benchmarks = Vec::new();
    for (path, layout) in &args.datasets {
        let format = layout.map_or_else(PairFormat::new, PairFormat::layout);
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        benchmarks
            .push(Benchmark::read(name, open(path)?, &format).map_err(|e| located(path, &e))?);
    }
    let needed: std::collections::BTreeSet<&str> =
        benchmarks.iter().flat_map(Benchmark::words).collect();
    let mut options = ReadOptions::new().keep(needed).fold_case(args.fold_case);
    if let Some(n) = args.limit {
        options = options.limit(n);
    }
    let mut models = Vec::new();
    for path in &args.vectors {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        models.push((name, load_vectors(path, &options)?));
    }
    let named: Vec<(&str, &Vectors<f32>)> = models.iter().map(|(n, v)| (n.as_str(), v)).collect();
    let evaluator = Evaluator::new().unknown(args.unknown);
    let table = evaluator
        .compare(&named, &benchmarks)
        .map_err(|e| Failure::Error(e.to_string()))?;
    let extra = uncertainty_extra(&args, &evaluator, &named, &benchmarks, &table)?;
    let text = match args.output {
        Output::Table => render_table(&table, &extra),
        Output::Csv => render_csv(&table),
        Output::Json => render_json(&table, &extra),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::Quiet),
        Err(e) => Err(Failure::Error(format!("stdout: {e}"))),
    }
}

/// Bootstrap intervals and paired tests (feature `uncertainty`), as lines
/// of text and JSON values.
#[derive(Default)]
struct Extra {
    lines: Vec<String>,
    json: Vec<serde_json::Value>,
}

#[cfg(not(feature = "uncertainty"))]
fn uncertainty_extra(
    _: &Args,
    _: &Evaluator,
    _: &[(&str, &Vectors<f32>)],
    _: &[Benchmark],
    _: &Comparison,
) -> Result<Extra, Failure> {
    Ok(Extra::default())
}

#[cfg(feature = "uncertainty")]
fn uncertainty_extra(
    args: &Args,
    evaluator: &Evaluator,
    models: &[(&str, &Vectors<f32>)],
    benchmarks: &[Benchmark],
    table: &Comparison,
) -> Result<Extra, Failure> {
    use adaptive_comp_metrics::uncertainty::{
        Bootstrap, ConfidenceInterval, Spearman, UncertaintyError,
    };
    use adaptive_comp_metrics::wordsim::paired_test;
    use rand::SeedableRng;
    let mut extra = Extra::default();
    let Some(resamples) = args.bootstrap else {
        return Ok(extra);
    };
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
            let r = evaluator
                .evaluate_with_intervals(*v, b, &boot, &mut rng)
                .map_err(|e| Failure::Error(e.to_string()))?;
            let iv = r.intervals.as_ref().expect("asked for");
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
                let text = match paired_test(first, other, &Spearman, resamples, &mut rng) {
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
    r: &Result<T, adaptive_comp_metrics::Error>,
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
    let err = |e: &adaptive_comp_metrics::Error| json!({ "error": e.to_string() });
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
