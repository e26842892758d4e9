//! Arbitrary bytes through the word-pair benchmark reader with every
//! separator/header/layout choice, then an evaluation on a small model: no
//! panics; every pair has non-empty words and a finite score; the report's
//! counts add up and its coefficients lie in [−1, 1]; the report reads back
//! from JSON equal to itself (undefined coefficients included), and the
//! file read as a JSON report never panics.
//!
//! Input: byte 0 = format choice, the rest = the file.
#![no_main]

use adaptive_comp_metrics::embedding::Vectors;
use adaptive_comp_metrics::wordsim::{
    Benchmark, Evaluator, Header, Layout, PairFormat, Report, Separator, Unknown,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, file)) = data.split_first() else { return };
    let _ = serde_json::from_slice::<Report>(file);
    let separator = [Separator::Auto, Separator::Tab, Separator::Comma, Separator::Semicolon, Separator::Whitespace]
        [usize::from(choice % 5)];
    let header = [Header::Auto, Header::Present, Header::Absent][usize::from(choice / 5 % 3)];
    let layout = Layout::ALL[usize::from(choice / 15 % 8)];
    let format = PairFormat::layout(layout).separator(separator).header(header).comments(choice & 128 == 0);
    let Ok(b) = Benchmark::read("fuzz", file, &format) else { return };
    for p in b.pairs() {
        assert!(!p.word1.is_empty() && !p.word2.is_empty() && p.score.is_finite());
    }
    let words: Vec<&str> = b.words().into_iter().collect();
    let v = Vectors::from_pairs(
        2,
        words.iter().enumerate().filter(|(i, _)| i % 3 != 0).map(|(i, w)| (*w, [1.0f32, i as f32 * 0.37 % 1.0])),
    )
    .expect("distinct non-empty words");
    for unknown in [Unknown::Drop, Unknown::Zero, Unknown::Mean] {
        let r = Evaluator::new().unknown(unknown).evaluate(&v, &b).expect("cosines are finite");
        assert!(r.found <= r.pairs && r.scored() <= r.pairs);
        let json = serde_json::to_string(&r).expect("a report serialises");
        let back: Report = serde_json::from_str(&json).expect("a library-made report reads back");
        assert_eq!(back, r);
        for c in [
            r.pearson.map(|c| c.r),
            r.spearman.map(|c| c.rho),
            r.kendall.map(|c| c.tau),
            r.rho_w.map(|c| c.rho),
            r.tau_w.map(|c| c.tau),
        ]
        .into_iter()
        .flatten()
        {
            assert!((-1.0..=1.0).contains(&c), "{c}");
        }
    }
});
