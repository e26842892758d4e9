//! Arbitrary bytes through the text vector readers (GloVe and word2vec
//! text, the latter with a BOM-free header too) with arbitrary options: no
//! panics; a file read whole also reads with a vocabulary filter, giving
//! exactly its kept rows; what is read is written and read back bit for bit.
//!
//! Input: byte 0 = options (bit 0 fold case, bit 1 limit, bits 2–7 which
//! rows to keep), the rest = the file.
#![no_main]

use adaptive_comp_metrics::embedding::Format;
use libfuzzer_sys::fuzz_target;

#[path = "embedding_common.rs"]
mod embedding_common;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else { return };
    for format in [Format::Glove, Format::Word2VecText] {
        embedding_common::check(format, flags, file);
    }
});
