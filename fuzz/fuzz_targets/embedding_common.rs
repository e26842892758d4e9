//! The check shared by the vector reader fuzz targets: a file read whole
//! also reads with a vocabulary filter, giving exactly its kept rows; what is
//! read is written and read back bit for bit.
//!
//! `flags`: bit 0 fold case, bit 1 limit (to bits 2–7 as a number), bits 2–7
//! which rows to keep.

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors, write_vectors};

fn bits(v: &Vectors<f32>) -> Vec<(String, Vec<u32>)> {
    v.iter().map(|(w, x)| (w.to_owned(), x.iter().map(|c| c.to_bits()).collect())).collect()
}

/// The read options `flags` give.
pub fn options(flags: u8) -> ReadOptions {
    let opts = ReadOptions::new().fold_case(flags & 1 == 1);
    if flags & 2 == 2 { opts.limit(usize::from(flags >> 2)) } else { opts }
}

/// Reads `file` in `format`; if it reads, checks the filter and the round
/// trip (a binary file must write back; a text one may hold words that do
/// not, and an empty GloVe file has no dimension, so does not read back).
pub fn check(format: Format, flags: u8, file: &[u8]) {
    let opts = options(flags);
    let Ok(full) = read_vectors::<f32, _>(file, format, &opts) else { return };
    let mask = flags >> 2;
    let kept: Vec<String> = full
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> (i % 6) & 1 == 1)
        .map(|(_, (w, _))| w.to_owned())
        .collect();
    let filtered = read_vectors::<f32, _>(file, format, &opts.clone().keep(&kept))
        .expect("a file that reads whole reads with a filter");
    let oracle: Vec<_> = bits(&full).into_iter().filter(|(w, _)| kept.contains(w)).collect();
    assert_eq!(bits(&filtered), oracle);
    let mut out = Vec::new();
    let written = write_vectors(&mut out, &full, format);
    if format == Format::Word2VecBinary {
        written.as_ref().expect("read words have no whitespace");
    }
    let empty_glove = full.is_empty() && format == Format::Glove;
    if written.is_ok() && !empty_glove {
        let back = read_vectors::<f32, _>(&out[..], format, &ReadOptions::new().fold_case(flags & 1 == 1))
            .expect("written vectors read back");
        assert_eq!(bits(&back), bits(&full));
    }
}
