//! The vector readers and writers: round trips bit for bit in every format,
//! buffer boundaries, the vocabulary filter, case folding, the row limit,
//! line-numbered (text) and offset-numbered (binary) errors, and format
//! detection.

use std::io::BufReader;

use adaptive_comp_metrics::embedding::{
    EmbeddingError, Format, ReadOptions, VectorProblem, Vectors, read_glove, read_vectors,
    read_word2vec, read_word2vec_binary, write_vectors,
};
use proptest::prelude::*;

const FORMATS: [Format; 3] = [Format::Word2VecText, Format::Glove, Format::Word2VecBinary];

fn bits<F: num_traits::Float + Into<f64>>(v: &Vectors<F>) -> Vec<(String, Vec<u64>)> {
    v.iter()
        .map(|(w, x)| {
            (
                w.to_owned(),
                x.iter().map(|&c| c.into().to_bits()).collect(),
            )
        })
        .collect()
}

fn write(v: &Vectors<f32>, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    write_vectors(&mut out, v, format).unwrap();
    out
}

/// Reads with a tiny buffer too, so rows straddle buffer fills.
fn read_all(
    bytes: &[u8],
    format: Format,
    opts: &ReadOptions,
) -> Result<Vectors<f32>, EmbeddingError> {
    let big = read_vectors::<f32, _>(bytes, format, opts);
    for cap in [1, 3, 7, 64] {
        let small = read_vectors::<f32, _>(BufReader::with_capacity(cap, bytes), format, opts);
        match (&big, &small) {
            (Ok(a), Ok(b)) => assert_eq!(bits(a), bits(b), "capacity {cap}"),
            (a, b) => assert_eq!(a.as_ref().err(), b.as_ref().err(), "capacity {cap}"),
        }
    }
    big
}

fn sample() -> Vectors<f32> {
    Vectors::from_pairs(
        3,
        [
            ("cat", [1.0f32, -0.0, 0.1]),
            ("Dog", [f32::MIN_POSITIVE, f32::MAX, -1e-30]),
            ("κόσμε", [3.5, 1.0 / 3.0, 1e-45]), // 1e-45 is the smallest subnormal
            ("x", [0.0, 0.0, 0.0]),
        ],
    )
    .unwrap()
}

#[test]
fn every_format_round_trips_bit_for_bit() {
    let v = sample();
    for format in FORMATS {
        let bytes = write(&v, format);
        let back = read_all(&bytes, format, &ReadOptions::new()).unwrap();
        assert_eq!(bits(&back), bits(&v), "{format:?}");
        assert_eq!(Format::detect(&bytes), format);
    }
}

#[test]
fn f64_stores_round_trip_in_text_and_refuse_lossy_binary() {
    let v = Vectors::from_pairs(2, [("a", [0.1f64, 1e-300]), ("b", [-2.5, 1e150])]).unwrap();
    for format in [Format::Word2VecText, Format::Glove] {
        let mut out = Vec::new();
        write_vectors(&mut out, &v, format).unwrap();
        let back = read_vectors::<f64, _>(&out[..], format, &ReadOptions::new()).unwrap();
        assert_eq!(bits(&back), bits(&v));
    }
    let e = write_vectors(&mut Vec::new(), &v, Format::Word2VecBinary).unwrap_err();
    assert_eq!(
        e,
        EmbeddingError::Vector {
            entry: 0,
            problem: VectorProblem::NotRepresentable { column: 1 }
        }
    );
    // f32 values held in f64 are written exactly.
    let w = Vectors::from_pairs(1, [("a", [0.5f64])]).unwrap();
    let mut out = Vec::new();
    write_vectors(&mut out, &w, Format::Word2VecBinary).unwrap();
    let back = read_word2vec_binary::<f64, _>(&out[..]).unwrap();
    assert_eq!(back.get("a"), Some(&[0.5][..]));
}

#[test]
fn writers_refuse_words_with_whitespace() {
    let v = Vectors::from_pairs(1, [("ok", [1.0f32]), ("new york", [2.0])]).unwrap();
    for format in FORMATS {
        assert_eq!(
            write_vectors(&mut Vec::new(), &v, format),
            Err(EmbeddingError::Vector {
                entry: 1,
                problem: VectorProblem::WhitespaceInWord
            })
        );
    }
}

#[test]
fn a_first_glove_word_cannot_start_with_a_byte_order_mark() {
    // Found by fuzzing: it would be dropped as a BOM when read back.
    let v = Vectors::from_pairs(1, [("\u{feff}3", [22.0f32])]).unwrap();
    assert_eq!(
        write_vectors(&mut Vec::new(), &v, Format::Glove),
        Err(EmbeddingError::Vector {
            entry: 0,
            problem: VectorProblem::LeadingByteOrderMark
        })
    );
    // After a header it is harmless.
    let back = read_all(
        &write(&v, Format::Word2VecText),
        Format::Word2VecText,
        &ReadOptions::new(),
    )
    .unwrap();
    assert!(back.contains("\u{feff}3"));
}

#[test]
fn text_values_are_written_plainly_or_in_exponent_form() {
    let v = Vectors::from_pairs(4, [("a", [0.25f32, 1e-5, 9.5e-6, 1e16])]).unwrap();
    let text = String::from_utf8(write(&v, Format::Glove)).unwrap();
    // Written by hand: 1e-5 and above plain, below and ≥ 1e16 with an exponent.
    assert_eq!(text, "a 0.25 0.00001 9.5e-6 1e16\n");
}

#[test]
fn byte_order_mark_is_skipped_in_every_format() {
    // Issue 15: read_word2vec used to reject a BOM before the header.
    let v = sample();
    for format in FORMATS {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(write(&v, format));
        let back = read_all(&bytes, format, &ReadOptions::new()).unwrap();
        assert_eq!(bits(&back), bits(&v), "{format:?}");
        assert_eq!(Format::detect(&bytes), format);
    }
    let v = read_word2vec::<f32, _>(&b"\xEF\xBB\xBF1 2\ncat 1 2\n"[..]).unwrap();
    assert_eq!(v.get("cat"), Some(&[1.0f32, 2.0][..]));
}

#[test]
fn keep_parses_only_the_wanted_rows() {
    // Rows not kept are not validated: the bad number in `bad` goes unnoticed,
    // but the row count is still checked against the header.
    let file = b"4 2\nthe 1 0\nbad 1 x\ncat 0 1\ndog 2 2\n";
    let v = read_all(
        file,
        Format::Word2VecText,
        &ReadOptions::new().keep(["cat", "dog", "yak"]),
    )
    .unwrap();
    assert_eq!(v.iter().map(|(w, _)| w).collect::<Vec<_>>(), ["cat", "dog"]);
    assert_eq!(v.get("dog"), Some(&[2.0f32, 2.0][..]));
    let e = read_all(
        file,
        Format::Word2VecText,
        &ReadOptions::new().keep(["bad"]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        EmbeddingError::Line {
            line: 3,
            problem: VectorProblem::InvalidValue { column: 2 }
        }
    );
    let short = b"5 2\nthe 1 0\ncat 0 1\n";
    assert_eq!(
        read_all(
            short,
            Format::Word2VecText,
            &ReadOptions::new().keep(["cat"])
        )
        .unwrap_err(),
        EmbeddingError::Line {
            line: 3,
            problem: VectorProblem::TooFewVectors {
                expected: 5,
                found: 2
            }
        }
    );
    // The same in binary, and in GloVe.
    let v = sample();
    for format in FORMATS {
        let bytes = write(&v, format);
        let kept = read_all(
            &bytes,
            format,
            &ReadOptions::new().keep(["x", "Dog", "nope"]),
        )
        .unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept.get("Dog"), v.get("Dog"));
        assert!(!kept.contains("cat"));
    }
}

#[test]
fn case_folding_keeps_the_first_spelling_and_rejects_true_duplicates() {
    let file = b"4 1\nApple 1\nPEAR 2\napple 3\nPear 4\n";
    let opts = ReadOptions::new().fold_case(true);
    let v = read_all(file, Format::Word2VecText, &opts).unwrap();
    assert!(v.folds_case());
    assert_eq!(v.len(), 2);
    assert_eq!(v.get("APPLE"), Some(&[1.0f32][..]));
    assert_eq!(v.get("pear"), Some(&[2.0f32][..]));
    let kept = read_all(file, Format::Word2VecText, &opts.clone().keep(["APPLE"])).unwrap();
    assert_eq!(kept.get("apple"), Some(&[1.0f32][..]));
    assert_eq!(kept.len(), 1);
    // The same spelling twice is a duplicate, folded or not.
    let dup = b"2 1\nApple 1\nApple 2\n";
    for o in [ReadOptions::new(), ReadOptions::new().fold_case(true)] {
        assert_eq!(
            read_all(dup, Format::Word2VecText, &o).unwrap_err(),
            EmbeddingError::Line {
                line: 3,
                problem: VectorProblem::DuplicateWord
            }
        );
    }
    // Unicode folding: Σ and σ, Ä and ä.
    let v = read_all(
        "2 1\nΣΟΦΊΑ 1\nÄpfel 2\n".as_bytes(),
        Format::Word2VecText,
        &opts.keep(["σοφία", "äpfel"]),
    )
    .unwrap();
    assert_eq!(v.len(), 2);
    assert!(v.contains("ÄPFEL"));
}

#[test]
fn limit_reads_the_first_rows_only() {
    let file = b"3 1\na 1\nb 2\nc x\n";
    let v = read_all(file, Format::Word2VecText, &ReadOptions::new().limit(2)).unwrap();
    assert_eq!(v.len(), 2);
    let v = read_all(
        b"a 1\nb 2\nc x\n",
        Format::Glove,
        &ReadOptions::new().limit(1),
    )
    .unwrap();
    assert_eq!(v.len(), 1);
    let bytes = write(&sample(), Format::Word2VecBinary);
    let v = read_all(
        &bytes[..40],
        Format::Word2VecBinary,
        &ReadOptions::new().limit(1),
    )
    .unwrap();
    assert_eq!(v.iter().map(|(w, _)| w).collect::<Vec<_>>(), ["cat"]);
}

#[test]
fn glove_errors_are_line_numbered() {
    let e = |t: &[u8]| read_glove::<f32, _>(t).unwrap_err();
    assert_eq!(
        e(b""),
        EmbeddingError::Line {
            line: 1,
            problem: VectorProblem::NoRows
        }
    );
    assert_eq!(
        e(b"\n\n"),
        EmbeddingError::Line {
            line: 1,
            problem: VectorProblem::NoRows
        }
    );
    assert_eq!(
        e(b"\nword\n"),
        EmbeddingError::Line {
            line: 2,
            problem: VectorProblem::ZeroDimension
        }
    );
    assert_eq!(
        e(b"a 1 2\nb 1\n"),
        EmbeddingError::Line {
            line: 2,
            problem: VectorProblem::WrongDimension {
                expected: 2,
                found: 1
            }
        }
    );
    assert_eq!(
        e(b"a 1 2\na 1 2\n"),
        EmbeddingError::Line {
            line: 2,
            problem: VectorProblem::DuplicateWord
        }
    );
    assert_eq!(
        e(b"a 1 nan\n"),
        EmbeddingError::Line {
            line: 1,
            problem: VectorProblem::NonFinite { column: 2 }
        }
    );
    assert_eq!(
        e(b"a 1 2\n\xff 1 2\n"),
        EmbeddingError::Line {
            line: 2,
            problem: VectorProblem::InvalidUtf8
        }
    );
    // A form feed separates fields too (found by fuzzing: the word search
    // and the row parser disagreed), with and without a vocabulary filter.
    let ff = b"a 1\nb\x0c2\n";
    for opts in [ReadOptions::new(), ReadOptions::new().keep(["b"])] {
        let v = read_vectors::<f32, _>(&ff[..], Format::Glove, &opts).unwrap();
        assert_eq!(v.get("b"), Some(&[2.0f32][..]));
    }
    // CRLF, tabs, trailing spaces (fastText writes one) and blank lines are fine.
    let v = read_glove::<f32, _>(&b"a 1 2 \r\n\r\nb\t3\t4\r\n"[..]).unwrap();
    assert_eq!(v.get("b"), Some(&[3.0f32, 4.0][..]));
}

fn bin(header: &str, rows: &[(&[u8], &[f32], bool)]) -> Vec<u8> {
    let mut out = header.as_bytes().to_vec();
    for (w, v, newline) in rows {
        out.extend_from_slice(w);
        out.push(b' ');
        for x in *v {
            out.extend(x.to_le_bytes());
        }
        if *newline {
            out.push(b'\n');
        }
    }
    out
}

#[test]
fn binary_rows_with_and_without_newlines() {
    // The C tool ends each row with a newline, gensim does not: both read.
    let with = bin(
        "2 2\n",
        &[(b"a", &[1.0, 2.0], true), (b"b", &[3.0, 4.0], true)],
    );
    let without = bin(
        "2 2\n",
        &[(b"a", &[1.0, 2.0], false), (b"b", &[3.0, 4.0], false)],
    );
    for bytes in [&with, &without] {
        let v = read_all(bytes, Format::Word2VecBinary, &ReadOptions::new()).unwrap();
        assert_eq!(v.get("b"), Some(&[3.0f32, 4.0][..]));
    }
}

#[test]
fn binary_errors_name_row_and_offset() {
    let e = |b: &[u8]| read_all(b, Format::Word2VecBinary, &ReadOptions::new()).unwrap_err();
    let at = |row, offset, problem| EmbeddingError::Binary {
        row,
        offset,
        problem,
    };
    use VectorProblem as P;
    assert_eq!(
        e(b""),
        EmbeddingError::Line {
            line: 1,
            problem: P::MissingHeader
        }
    );
    assert_eq!(
        e(b"2 x\n"),
        EmbeddingError::Line {
            line: 1,
            problem: P::BadHeader
        }
    );
    assert_eq!(
        e(b"1 0\n"),
        EmbeddingError::Line {
            line: 1,
            problem: P::ZeroDimension
        }
    );
    assert_eq!(
        e(b"1 4611686018427387904\n"),
        EmbeddingError::Line {
            line: 1,
            problem: P::TooLarge
        }
    );
    // Row 2 starts at byte 4 + 2 + 8 + 1 = 15, row 3 would at 26.
    let good = bin(
        "3 2\n",
        &[(b"a", &[1.0, 2.0], true), (b"b", &[3.0, 4.0], true)],
    );
    assert_eq!(
        e(&good),
        at(
            3,
            26,
            P::TooFewVectors {
                expected: 3,
                found: 2
            }
        )
    );
    assert_eq!(e(&good[..20]), at(2, 15, P::Truncated));
    let extra = bin(
        "1 2\n",
        &[(b"a", &[1.0, 2.0], true), (b"b", &[3.0, 4.0], true)],
    );
    assert_eq!(e(&extra), at(2, 15, P::TooManyVectors { expected: 1 }));
    let nan = bin("1 2\n", &[(b"a", &[1.0, f32::NAN], true)]);
    assert_eq!(e(&nan), at(1, 4, P::NonFinite { column: 2 }));
    let dup = bin("2 1\n", &[(b"a", &[1.0], true), (b"a", &[2.0], true)]);
    assert_eq!(e(&dup), at(2, 11, P::DuplicateWord));
    let utf = bin("1 1\n", &[(b"\xff", &[1.0], true)]);
    assert_eq!(e(&utf), at(1, 4, P::InvalidUtf8));
    let tab = bin("1 1\n", &[(b"a\tb", &[1.0], true)]);
    assert_eq!(e(&tab), at(1, 4, P::WhitespaceInWord));
    // A corrupt header does not make the reader allocate count·dim up front.
    assert_eq!(
        e(b"18446744073709551615 1000000000\n"),
        at(
            1,
            32,
            P::TooFewVectors {
                expected: usize::MAX,
                found: 0
            }
        )
    );
    let mut endless = b"1 1\n".to_vec();
    endless.extend(std::iter::repeat_n(b'a', 70_000));
    assert_eq!(e(&endless), at(1, 4, P::WordTooLong { max: 65_536 }));
    assert_eq!(
        e(&good[..20]).to_string(),
        "vectors row 2 (byte 15): the file ends inside the row"
    );
}

#[test]
fn detection_on_fasttext_and_glove_heads() {
    assert_eq!(
        Format::detect(b"2000000 300\n, -0.0282 0.0065\n"),
        Format::Word2VecText
    );
    assert_eq!(Format::detect(b"0 300\n"), Format::Word2VecText);
    assert_eq!(
        Format::detect(b"the 0.418 0.24968 -0.41242\n"),
        Format::Glove
    );
    assert_eq!(Format::detect(b"2 2\na inf nan\n"), Format::Word2VecText);
    assert_eq!(Format::detect(b""), Format::Glove);
}

#[test]
fn bundled_samples_read_in_their_formats() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wordsim");
    for (name, format, len, dim) in [
        ("sample-a.vec", Format::Word2VecText, 57, 16),
        ("sample-b.bin", Format::Word2VecBinary, 57, 12),
        ("gen-b.bin", Format::Word2VecBinary, 400, 24),
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(Format::detect(&bytes), format, "{name}");
        let v = read_all(&bytes, format, &ReadOptions::new()).unwrap();
        assert_eq!((v.len(), v.dim()), (len, dim), "{name}");
        // Written back and read again: the same bits.
        let again = read_all(&write(&v, format), format, &ReadOptions::new()).unwrap();
        assert_eq!(bits(&again), bits(&v));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_stores_round_trip_and_keep_matches_a_filter(
        rows in prop::collection::vec(
            (
                "[a-zA-Zß0-9_]{1,6}",
                prop::collection::vec(any::<u32>().prop_map(f32::from_bits).prop_filter("finite", |x| x.is_finite() && x.abs() < 1e18), 3),
            ),
            1..20,
        ),
        keep_mask in any::<u32>(),
        cap in 1usize..40,
    ) {
        let mut v = Vectors::<f32>::new(3).unwrap();
        for (w, x) in &rows {
            let _ = v.push(w.clone(), x); // duplicates are refused, that is fine
        }
        prop_assume!(!v.is_empty());
        let kept: Vec<String> = v.iter().enumerate()
            .filter(|(i, _)| keep_mask >> (i % 32) & 1 == 1)
            .map(|(_, (w, _))| w.to_owned())
            .collect();
        for format in FORMATS {
            let bytes = write(&v, format);
            let back = read_vectors::<f32, _>(BufReader::with_capacity(cap, &bytes[..]), format, &ReadOptions::new()).unwrap();
            prop_assert_eq!(bits(&back), bits(&v));
            let filtered = read_vectors::<f32, _>(BufReader::with_capacity(cap, &bytes[..]), format, &ReadOptions::new().keep(&kept)).unwrap();
            let oracle: Vec<_> = bits(&v).into_iter().filter(|(w, _)| kept.contains(w)).collect();
            prop_assert_eq!(bits(&filtered), oracle);
        }
    }
}
