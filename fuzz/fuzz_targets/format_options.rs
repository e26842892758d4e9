//! The reading options no other target reached (issue 39): a word-pair
//! benchmark with chosen columns (`PairFormat::columns`, 0 to 5, zero and
//! repeated columns included) and part-of-speech tags stripped
//! (`strip_pos_suffixes`), a layout from a file name
//! (`Layout::from_file_name`), and the lenient reading of a triplet
//! dataset. Never a panic; every pair read has two words and a finite
//! score; the lenient reading reads what the strict one reads, the same
//! comparisons, with no warning.
//!
//! Input: byte 0 = word columns, byte 1 = score column, separator and
//! options, the rest = the file (and, as text, the file name).
#![no_main]

use adaptive_comp_metrics::triplet::{ReadMode, read_dataset, read_dataset_with};
use adaptive_comp_metrics::wordsim::{Benchmark, Layout, PairFormat, Separator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, file @ ..] = data else { return };
    if let Ok(name) = std::str::from_utf8(file) {
        if let Some(layout) = Layout::from_file_name(name) {
            assert!(Layout::ALL.contains(&layout));
        }
    }
    let separator = [
        Separator::Auto,
        Separator::Tab,
        Separator::Comma,
        Separator::Semicolon,
        Separator::Whitespace,
    ][usize::from(b / 8 % 5)];
    let format = PairFormat::new()
        .columns(usize::from(a % 6), usize::from(a / 6 % 6), usize::from(b % 6))
        .strip_pos_suffixes(b & 64 != 0)
        .separator(separator)
        .comments(b & 128 == 0);
    if let Ok(bench) = Benchmark::read("fuzz", file, &format) {
        for p in bench.pairs() {
            assert!(!p.word1.is_empty() && !p.word2.is_empty() && p.score.is_finite());
        }
    }
    if let Ok(strict) = read_dataset(file) {
        let lenient = read_dataset_with(file, ReadMode::Lenient)
            .expect("the lenient reading reads what the strict one reads");
        assert_eq!(lenient.comparisons, strict);
        assert!(lenient.warnings.is_empty());
    }
    let _ = read_dataset_with(file, ReadMode::Strict);
});
