//! Word vectors: cosine similarity, the word2vec text reader and its errors,
//! and the end-to-end golden on the bundled sample files.

use adaptive_comp_metrics::embedding::EmbeddingError;
use adaptive_comp_metrics::triplet::{
    Similarity, TiePolicy, TripletError, VectorProblem, Vectors, read_dataset, read_word2vec, score,
};
use proptest::prelude::*;

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/triplet")
        .join(name)
}

fn open(name: &str) -> std::io::BufReader<std::fs::File> {
    std::io::BufReader::new(std::fs::File::open(data(name)).unwrap())
}

/// Checks the crate against `sample_scores.txt` (from `gen_sample_scores.py`).
fn check_sample<M: Similarity>(dtype: &str, model: &M) {
    let comparisons = read_dataset(open("sample.txt")).unwrap();
    let expected = std::fs::read_to_string(data("sample_scores.txt")).unwrap();
    let mut checked = 0;
    for line in expected.lines().filter(|l| l.starts_with(dtype)) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let policy = match f[1] {
            "half" => TiePolicy::HalfCredit,
            "second" => TiePolicy::ChooseSecond,
            _ => TiePolicy::Skip,
        };
        let s = score(&comparisons, model, policy).unwrap();
        let t = match f[2] {
            "all" => s.overall,
            "positive" => s.positive,
            "distractor" => s.distractor,
            _ => s.random,
        };
        match f[3] {
            "undefined" => assert_eq!(t.score(), None),
            v => {
                let want: f64 = v.parse().unwrap();
                assert!((t.score().unwrap() - want).abs() < 1e-12, "{line}: {t:?}");
            }
        }
        let counts: Vec<usize> = f[4..].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(
            vec![t.scored, t.unknown, t.ties, t.skipped_ties],
            counts,
            "{line}"
        );
        checked += 1;
    }
    assert_eq!(checked, 12);
}

#[test]
fn sample_files_match_the_numpy_reference() {
    let v64 = read_word2vec::<f64, _>(open("sample.vec")).unwrap();
    assert_eq!((v64.len(), v64.dim()), (19, 5));
    check_sample("f64", &v64);
    let v32 = read_word2vec::<f32, _>(open("sample.vec")).unwrap();
    check_sample("f32", &v32);
}

#[test]
fn cosine_by_hand() {
    let v = Vectors::from_pairs(
        2,
        [
            ("a", [3.0f64, 4.0]),
            ("b", [4.0, 3.0]),
            ("c", [-6.0, -8.0]),
            ("z", [0.0, 0.0]),
        ],
    )
    .unwrap();
    // (3·4 + 4·3)/(5·5) = 24/25
    assert!((v.cosine("a", "b").unwrap() - 0.96).abs() < 1e-15);
    assert!((v.cosine("a", "c").unwrap() + 1.0).abs() < 1e-15);
    assert!((v.cosine("a", "a").unwrap() - 1.0).abs() < 1e-15);
    // A zero vector has no direction; an unknown word has no vector.
    assert_eq!(v.cosine("a", "z"), None);
    assert_eq!(v.cosine("a", "nope"), None);
    assert_eq!(v.similarity("nope", "a"), None);
    assert!(v.contains("z") && !v.is_empty());
    assert_eq!(v.get("c"), Some(&[-6.0, -8.0][..]));
}

#[test]
fn dimensions_not_multiple_of_four() {
    // The dot product runs four lanes plus a tail: check every tail length.
    for dim in 1..=9 {
        let a: Vec<f32> = (0..dim).map(|i| i as f32 + 1.0).collect();
        let b: Vec<f32> = (0..dim).map(|i| (dim - i) as f32).collect();
        let v = Vectors::from_pairs(dim, [("a", &a), ("b", &b)]).unwrap();
        let dot: f64 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| f64::from(*x) * f64::from(*y))
            .sum();
        let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        let nb: f64 = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        assert!((v.cosine("a", "b").unwrap() - dot / (na * nb)).abs() < 1e-14);
    }
}

#[test]
fn push_errors_name_the_entry() {
    let mut v = Vectors::<f32>::new(2).unwrap();
    v.push("a", &[1.0, 0.0]).unwrap();
    let e = |problem| EmbeddingError::Vector { entry: 1, problem };
    assert_eq!(
        v.push("b", &[1.0]),
        Err(e(VectorProblem::WrongDimension {
            expected: 2,
            found: 1
        }))
    );
    assert_eq!(
        v.push("b", &[1.0, f32::INFINITY]),
        Err(e(VectorProblem::NonFinite { column: 2 }))
    );
    assert_eq!(
        v.push("a", &[0.0, 1.0]),
        Err(e(VectorProblem::DuplicateWord))
    );
    assert_eq!(v.push("", &[0.0, 1.0]), Err(e(VectorProblem::EmptyWord)));
    assert_eq!(v.len(), 1, "failed pushes leave the store unchanged");
    let mut w = Vectors::<f64>::new(2).unwrap();
    assert_eq!(
        w.push("big", &[1e200, 1e200]),
        Err(EmbeddingError::Vector {
            entry: 0,
            problem: VectorProblem::NormOverflow
        })
    );
    assert!(Vectors::<f32>::new(0).is_err());
}

fn vec_err<F>(text: &[u8]) -> (usize, VectorProblem)
where
    F: num_traits::Float + Into<f64> + std::str::FromStr + std::fmt::Debug,
{
    match read_word2vec::<F, _>(text) {
        Err(TripletError::Vectors(EmbeddingError::Line { line, problem })) => (line, problem),
        other => panic!("expected a vector file error, got {other:?}"),
    }
}

#[test]
fn reader_errors_are_line_numbered() {
    use VectorProblem as P;
    let e = vec_err::<f32>;
    assert_eq!(e(b""), (1, P::MissingHeader));
    assert_eq!(e(b"3\n"), (1, P::BadHeader));
    assert_eq!(e(b"3 2 1\n"), (1, P::BadHeader));
    assert_eq!(e(b"x 2\n"), (1, P::BadHeader));
    assert_eq!(e(b"-1 2\n"), (1, P::BadHeader));
    assert_eq!(e(b"1 0\n"), (1, P::ZeroDimension));
    assert_eq!(e(b"\xff 2\n"), (1, P::InvalidUtf8));
    assert_eq!(e(b"2 2\na 1 2\n\xff 1 2\n"), (3, P::InvalidUtf8));
    assert_eq!(
        e(b"2 3\na 1 2 3\nb 1 2\n"),
        (
            3,
            P::WrongDimension {
                expected: 3,
                found: 2
            }
        )
    );
    assert_eq!(
        e(b"1 2\na 1 2 3 4 5\n"),
        (
            2,
            P::WrongDimension {
                expected: 2,
                found: 5
            }
        )
    );
    assert_eq!(
        e(b"1 2\na\n"),
        (
            2,
            P::WrongDimension {
                expected: 2,
                found: 0
            }
        )
    );
    assert_eq!(e(b"1 2\na 1 x\n"), (2, P::InvalidValue { column: 2 }));
    assert_eq!(e(b"1 2\na 1 NaN\n"), (2, P::NonFinite { column: 2 }));
    assert_eq!(e(b"1 2\na inf 1\n"), (2, P::NonFinite { column: 1 }));
    // 1e39 overflows f32 but not f64.
    assert_eq!(e(b"1 2\na 1e39 1\n"), (2, P::NonFinite { column: 1 }));
    assert!(read_word2vec::<f64, _>(&b"1 2\na 1e39 1\n"[..]).is_ok());
    assert_eq!(vec_err::<f64>(b"1 2\na 1e200 1\n"), (2, P::NormOverflow));
    assert_eq!(e(b"2 1\na 1\na 2\n"), (3, P::DuplicateWord));
    assert_eq!(
        e(b"1 1\na 1\nb 2\n"),
        (3, P::TooManyVectors { expected: 1 })
    );
    assert_eq!(
        e(b"3 1\na 1\nb 2\n"),
        (
            3,
            P::TooFewVectors {
                expected: 3,
                found: 2
            }
        )
    );
    assert_eq!(
        e(b"1 1\n"),
        (
            1,
            P::TooFewVectors {
                expected: 1,
                found: 0
            }
        )
    );
    assert_eq!(
        read_word2vec::<f32, _>(&b"1 2\na 1 x\n"[..])
            .unwrap_err()
            .to_string(),
        "vectors line 2: component 2 is not a number"
    );
}

#[test]
fn reader_accepts_crlf_tabs_blank_lines_and_unicode_words() {
    let text = "3 2\r\nsänger 1 0\r\n\r\nκαφές\t0.5  0.5 \r\nbig 1e38 1e38\r\n\r\n";
    let v = read_word2vec::<f32, _>(text.as_bytes()).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(v.get("καφές"), Some(&[0.5f32, 0.5][..]));
    // 1e38² overflows f32 but the norm is computed in f64.
    assert!((v.cosine("big", "καφές").unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(read_word2vec::<f32, _>(&b"0 3\n"[..]).unwrap().len(), 0);
}

#[test]
fn huge_header_count_does_not_allocate_up_front() {
    // A corrupt header must not make the reader reserve count·dim components.
    let e = vec_err::<f64>(b"18446744073709551615 1000000000\na 1\n");
    assert_eq!(e.0, 2);
    // Nor a huge dimension (found by fuzzing: the line buffer was sized by it).
    let e = vec_err::<f32>(b"1 9223372036854775807\na 1\n");
    assert_eq!(
        e,
        (
            2,
            VectorProblem::WrongDimension {
                expected: 9_223_372_036_854_775_807,
                found: 1
            }
        )
    );
}

#[test]
fn reader_streams_a_large_generated_file() {
    // 20 000 lines produced on the fly by a Read implementation: the reader
    // never needs the file as one string.
    struct Gen {
        next: usize,
        n: usize,
        pending: Vec<u8>,
    }
    impl std::io::Read for Gen {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() {
                if self.next > self.n {
                    return Ok(0);
                }
                self.pending = if self.next == 0 {
                    format!("{} 3\n", self.n).into_bytes()
                } else {
                    let i = self.next;
                    format!("w{i} {} {} 1\n", i % 7, i % 11).into_bytes()
                };
                self.next += 1;
            }
            let k = buf.len().min(self.pending.len());
            buf[..k].copy_from_slice(&self.pending[..k]);
            self.pending.drain(..k);
            Ok(k)
        }
    }
    let n = 20_000;
    let r = std::io::BufReader::new(Gen {
        next: 0,
        n,
        pending: Vec::new(),
    });
    let v = read_word2vec::<f32, _>(r).unwrap();
    assert_eq!(v.len(), n);
    assert_eq!(
        v.get("w12345"),
        Some(&[(12345 % 7) as f32, (12345 % 11) as f32, 1.0][..])
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn cosine_matches_the_definition(
        a in prop::collection::vec(-10.0f64..10.0, 1..40),
        seed in any::<u64>(),
    ) {
        let b: Vec<f64> = a.iter().enumerate()
            .map(|(i, x)| x * (((seed >> (i % 64)) & 3) as f64 - 1.5))
            .collect();
        let v = Vectors::from_pairs(a.len(), [("a", &a), ("b", &b)]).unwrap();
        let dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
        match v.cosine("a", "b") {
            None => prop_assert!(na == 0.0 || nb == 0.0),
            Some(c) => {
                prop_assert!((c - dot / (na * nb)).abs() < 1e-12);
                prop_assert!(c.abs() <= 1.0 + 1e-12);
                prop_assert_eq!(v.cosine("b", "a").unwrap().to_bits(), c.to_bits());
            }
        }
        // Written as text and read back (f64 Display round-trips exactly): same cosine.
        let text = format!(
            "2 {}\na {}\nb {}\n",
            a.len(),
            a.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
            b.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        );
        let w = read_word2vec::<f64, _>(text.as_bytes()).unwrap();
        prop_assert_eq!(w.cosine("a", "b"), v.cosine("a", "b"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn similarity_pair_equals_two_cosines_bit_for_bit(
        rows in prop::collection::vec(prop::collection::vec(-5.0f32..5.0, 7), 3),
    ) {
        let v = Vectors::from_pairs(7, [("t", &rows[0]), ("a", &rows[1]), ("b", &rows[2])]).unwrap();
        let pair = v.similarity_pair("t", "a", "b");
        let two = v.cosine("t", "a").zip(v.cosine("t", "b")).map(|(x, y)| [x, y]);
        prop_assert_eq!(pair.map(|p| p.map(f64::to_bits)), two.map(|p| p.map(f64::to_bits)));
        prop_assert_eq!(v.similarity_pair("t", "a", "zz"), None);
    }
}
