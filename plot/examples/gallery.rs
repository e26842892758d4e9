//! Writes one of each chart into the directory given (default `gallery/`),
//! from made-up numbers: `cargo run -p adaptive-comp-metrics-plot --example gallery -- DIR`.

use adaptive_comp_metrics::Order;
use adaptive_comp_metrics::uncertainty::Histogram;
use adaptive_comp_metrics::uncertainty::compare::{Compare, ScoreTable, friedman};
use adaptive_comp_metrics_plot as plot;
use plot::{Estimate, HistogramMarks, IntervalKey, IntervalRow, Labels, Point, Series};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "gallery".into());
    std::fs::create_dir_all(&dir)?;
    let write = |name: &str, svg: String| std::fs::write(format!("{dir}/{name}.svg"), svg);

    let null: Vec<f64> = (0..9_999)
        .map(|i| {
            ((i * 7919 % 10_007) as f64 / 10_007.0 - 0.5) * 0.5
                + ((i * 31 % 97) as f64 / 97.0 - 0.5) * 0.3
        })
        .collect();
    let h = Histogram::of(&null, 40)?;
    let marks = HistogramMarks {
        observed: Some(0.37),
        p_value: Some(0.0004),
        interval: None,
    };
    write(
        "histogram",
        plot::histogram(
            &h,
            &marks,
            &Labels::new(
                "ρ_w of glove against SimLex-999: permutation null",
                "ρ_w",
                "permutations (count)",
            )
            .subtitle("9 999 permutations, one-sided"),
        )?,
    )?;

    let mut est = Vec::new();
    for (b, bench) in [
        "SimLex-999",
        "WordSim-353",
        "MEN",
        "RG-65",
        "MC-30",
        "SimVerb-3500",
        "RW",
        "MTurk-771",
    ]
    .iter()
    .enumerate()
    {
        for (m, model) in ["glove.6B.300d", "fasttext-wiki", "word2vec-gnews"]
            .iter()
            .enumerate()
        {
            let v = 0.3 + 0.05 * b as f64 + 0.07 * m as f64 - 0.02 * (b * m % 3) as f64;
            est.push(Estimate {
                row: (*bench).into(),
                series: (*model).into(),
                value: v,
                interval: Some((v - 0.06, v + 0.05)),
            });
        }
    }
    write(
        "dot_whisker",
        plot::dot_whisker(
            &est,
            &Labels::new(
                "Spearman's ρ of three models on eight benchmarks",
                "Spearman's ρ (95% bootstrap interval)",
                "benchmark",
            ),
        )?,
    )?;

    let pts: Vec<Point> = (0..300)
        .map(|i| {
            let x = f64::from(i) / 30.0;
            Point {
                x,
                y: 0.08 * x + 0.15 * (f64::from(i) * 1.7).sin(),
                emphasised: i >= 270,
            }
        })
        .collect();
    write(
        "scatter",
        plot::scatter(
            &pts,
            "top 30 by human score",
            "other pairs",
            &Labels::new(
                "SimLex-999: human against glove",
                "human similarity (0–10)",
                "cosine similarity",
            ),
        )?,
    )?;

    let table = ScoreTable::from_columns(&[
        ("bm25", [0.31, 0.45, 0.12, 0.60, 0.25, 0.33, 0.48, 0.05]),
        ("dense", [0.52, 0.61, 0.30, 0.71, 0.41, 0.55, 0.66, 0.20]),
        ("hybrid", [0.50, 0.63, 0.29, 0.75, 0.44, 0.52, 0.70, 0.22]),
        ("splade", [0.45, 0.58, 0.25, 0.69, 0.39, 0.49, 0.61, 0.18]),
    ])?;
    write(
        "forest",
        plot::forest(&Compare::new().units_seeded(&table, 7)?, "AP")?,
    )?;
    let cols: Vec<(String, Vec<f64>)> = (0..12)
        .map(|s| {
            (
                format!("system-{s}"),
                (0..20)
                    .map(|b| f64::from(s) * 0.03 + f64::from((b * 7 + s * 3) % 11) * 0.02)
                    .collect(),
            )
        })
        .collect();
    let f = friedman(
        &ScoreTable::from_columns(&cols)?,
        Order::LargerIsBetter,
        0.05,
    )?;
    write(
        "critical_difference",
        plot::critical_difference_of(&f, "accuracy")?,
    )?;

    let series: Vec<Series> = [10, 30, 100]
        .iter()
        .map(|&n| Series {
            name: format!("n = {n}"),
            points: (0..=40)
                .map(|k| {
                    let r = f64::from(k) / 20.0 - 1.0;
                    (r, r.signum() * r.abs().powf(1.0 + 3.0 / f64::from(n)))
                })
                .collect(),
        })
        .collect();
    write(
        "lines",
        plot::lines(
            &series,
            true,
            &Labels::new(
                "the standardising map of ρ_w",
                "raw ρ_w",
                "standardised ρ_w",
            ),
        )?,
    )?;

    let rows: Vec<IntervalRow> = (0..12)
        .map(|i| {
            let v = 0.4 + 0.04 * f64::from(i);
            IntervalRow {
                label: format!("n = {}, p = 0.{}", 10 * (i / 3 + 1), 6 + i % 3),
                value: v,
                interval: Some((v - 0.03, v + 0.03)),
                reference: Some(v + 0.01 * f64::from(i % 3) - 0.01),
                emphasised: false,
            }
        })
        .collect();
    write(
        "error_bars",
        plot::intervals(
            &rows,
            &IntervalKey {
                plain: "simulated (95% interval)".into(),
                reference: "Lombardo et al. 2020, Table 2".into(),
                ..IntervalKey::default()
            },
            &Labels::new("Table 2: simulated against published", "ρ_w", ""),
        )?,
    )?;

    let r: Vec<String> = (0..6)
        .map(|i| format!("accuracy {}", 0.5 + 0.1 * f64::from(i)))
        .collect();
    let c: Vec<String> = (1..=8).map(|j| format!("{}", 25 * j)).collect();
    let v: Vec<Option<f64>> = (0..48)
        .map(|k| Some(f64::from(k % 8) * 0.1 + f64::from(k / 8) * 0.05))
        .collect();
    write(
        "heat_map",
        plot::heat_map(
            &r,
            &c,
            &v,
            &Labels::new(
                "ρ_w reached over a sweep",
                "ballots per item",
                "voter accuracy",
            ),
        )?,
    )?;

    let b: Vec<(String, f64)> = (0..12)
        .map(|i| (format!("worker-{i:02}"), 0.5 + f64::from(i * 7 % 12) / 24.0))
        .collect();
    write(
        "bars",
        plot::bars(
            &b,
            &Labels::new(
                "worker accuracy on control ballots",
                "share correct",
                "worker",
            ),
        )?,
    )?;
    Ok(())
}
