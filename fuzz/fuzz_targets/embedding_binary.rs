//! Arbitrary bytes through the word2vec binary reader with arbitrary
//! options: no panics, no allocation driven by the header alone; a file read
//! whole also reads with a vocabulary filter, giving exactly its kept rows;
//! what is read is written and read back bit for bit.
//!
//! Input: byte 0 = options (bit 0 fold case, bit 1 limit, bits 2–7 which
//! rows to keep), the rest = the file.
#![no_main]

use adaptive_comp_metrics::embedding::{Format, read_vectors};
use libfuzzer_sys::fuzz_target;

#[path = "embedding_common.rs"]
mod embedding_common;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else { return };
    let _ = Format::detect(file);
    let opts = embedding_common::options(flags);
    if let Ok(full) = read_vectors::<f32, _>(file, Format::Word2VecBinary, &opts) {
        let wide = read_vectors::<f64, _>(file, Format::Word2VecBinary, &opts).expect("f64 reads what f32 reads");
        assert_eq!(wide.len(), full.len());
    }
    embedding_common::check(Format::Word2VecBinary, flags, file);
});
