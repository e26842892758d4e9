//! Arbitrary bytes through the word2vec binary reader with arbitrary
//! options: no panics, no allocation driven by the header alone; a file read
//! whole also reads with a vocabulary filter, giving exactly its kept rows;
//! what is read is written and read back bit for bit.
//!
//! Input: byte 0 = options (bit 0 fold case, bit 1 limit, bits 2–7 which
//! rows to keep), the rest = the file.
#![no_main]

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors, write_vectors};
use libfuzzer_sys::fuzz_target;

fn bits(v: &Vectors<f32>) -> Vec<(String, Vec<u32>)> {
    v.iter().map(|(w, x)| (w.to_owned(), x.iter().map(|c| c.to_bits()).collect())).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else { return };
    let mut opts = ReadOptions::new().fold_case(flags & 1 == 1);
    if flags & 2 == 2 {
        opts = opts.limit(usize::from(flags >> 2));
    }
    let _ = Format::detect(file);
    let Ok(full) = read_vectors::<f32, _>(file, Format::Word2VecBinary, &opts) else { return };
    let wide = read_vectors::<f64, _>(file, Format::Word2VecBinary, &opts).expect("f64 reads what f32 reads");
    assert_eq!(wide.len(), full.len());
    let mask = flags >> 2;
    let kept: Vec<String> = full
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> (i % 6) & 1 == 1)
        .map(|(_, (w, _))| w.to_owned())
        .collect();
    let filtered = read_vectors::<f32, _>(file, Format::Word2VecBinary, &opts.clone().keep(&kept))
        .expect("a file that reads whole reads with a filter");
    let oracle: Vec<_> = bits(&full).into_iter().filter(|(w, _)| kept.contains(w)).collect();
    assert_eq!(bits(&filtered), oracle);
    let mut out = Vec::new();
    write_vectors(&mut out, &full, Format::Word2VecBinary).expect("read words have no whitespace");
    let back = read_vectors::<f32, _>(&out[..], Format::Word2VecBinary, &ReadOptions::new().fold_case(flags & 1 == 1))
        .expect("written vectors read back");
    assert_eq!(bits(&back), bits(&full));
});
