//! The end-to-end evaluation against gensim 4.4's `evaluate_word_pairs` on
//! the bundled sample and the generated files (`tests/data/wordsim/`,
//! expected values from `gensim_expected.py`): Pearson r, Spearman ρ and
//! the OOV ratio agree to 1e-6 in both unknown-word modes (gensim computes
//! cosines in f32, the crate from the same f32 vectors in f64).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use adaptive_comp_metrics::Alternative;
use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors};
use adaptive_comp_metrics::wordsim::{Benchmark, Evaluator, Layout, PairFormat, Unknown};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/wordsim")
        .join(name)
}

pub(crate) fn benchmark(name: &str) -> Benchmark {
    let layout = if name.starts_with("simlex") {
        PairFormat::layout(Layout::SimLex999)
    } else if name.starts_with("men") {
        PairFormat::layout(Layout::Men)
    } else {
        PairFormat::new()
    };
    let file = BufReader::new(File::open(data(name)).unwrap());
    Benchmark::read(name, file, &layout).unwrap()
}

fn vectors(name: &str, options: &ReadOptions) -> Vectors<f32> {
    let format = if name.ends_with(".bin") {
        Format::Word2VecBinary
    } else {
        Format::Word2VecText
    };
    let file = BufReader::new(File::open(data(name)).unwrap());
    read_vectors(file, format, options).unwrap()
}

#[test]
fn pearson_spearman_and_oov_match_gensim() {
    let expected = std::fs::read_to_string(data("gensim_expected.txt")).unwrap();
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        let num = |i: usize| f[i].parse::<f64>().unwrap();
        let (vec, bench, unknown, case, restrict) = (f[0], f[1], f[2], f[3], f[4]);
        let b = benchmark(bench);
        let mut options = ReadOptions::new().fold_case(case == "fold");
        if restrict != "0" {
            options = options.limit(restrict.parse().unwrap());
        }
        // Keeping only the benchmark's words must not change anything.
        let keep = options.clone().keep(b.words());
        let unknown = if unknown == "zero" {
            Unknown::Zero
        } else {
            Unknown::Drop
        };
        let ev = Evaluator::new().unknown(unknown);
        let full = ev.evaluate(&vectors(vec, &options), &b).unwrap();
        let kept = ev.evaluate(&vectors(vec, &keep), &b).unwrap();
        assert_eq!(full, kept, "{line}");
        let r = full.pearson.as_ref().unwrap();
        let rho = full.spearman.as_ref().unwrap();
        assert!((r.r - num(5)).abs() < 1e-6, "{line}: r = {}", r.r);
        assert!((rho.rho - num(7)).abs() < 1e-6, "{line}: ρ = {}", rho.rho);
        assert!((100.0 * full.oov_ratio() - num(9)).abs() < 1e-9, "{line}");
        // p-values: same formulas (t with n − 2 df), from r and ρ that differ in
        // the 7th digit, so only a loose relative agreement is expected.
        for (p, want) in [
            (r.p_value(Alternative::TwoSided), num(6)),
            (rho.p_value(Alternative::TwoSided), num(8)),
        ] {
            assert!((p - want).abs() <= 1e-3 * want, "{line}: p = {p} vs {want}");
        }
        checked += 1;
    }
    assert_eq!(checked, 24);
}
