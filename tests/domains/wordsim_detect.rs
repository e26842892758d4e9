//! Layout detection (`PairFormat::detect`, `Benchmark::read_detected`):
//! every public copy of every layout, mimicked with made-up pairs (exact
//! headers, separators and columns of the distributed files), read by
//! detection with and without the file name and by the layout's own
//! format (one format reads all copies); ties broken by the name, an
//! explicit layout winning, errors that say what was tried and how to
//! choose another; gensim's own copies of SimLex-999 and WordSim-353,
//! found at run time, against gensim's numbers.

use std::path::{Path, PathBuf};

use adaptive_comp_metrics::embedding::{Format, ReadOptions, Vectors, read_vectors};
use adaptive_comp_metrics::wordsim::{
    Benchmark, Chosen, DetectProblem, Detection, Evaluator, Header, Layout, PairFormat,
    PairProblem, Separator, Unknown, WordsimError, read_pairs,
};
use proptest::prelude::*;

/// The published copies of the datasets, as distributed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Copy {
    /// WordSim-353 `combined.csv`: comma, header `Word 1,Word 2,Human (mean)`.
    WsCombinedCsv,
    /// WordSim-353 `combined.tab`: the same with tabs.
    WsCombinedTab,
    /// WordSim-353 `set1.tab`: the header, then one column per rater (13).
    WsSet1,
    /// The similarity/relatedness splits (Agirre et al. 2009): tab, no header.
    WsSplit,
    /// gensim's `wordsim353.tsv`: two `#` lines, then tab-separated pairs.
    WsGensim,
    /// `SimLex-999.txt`: tab, the 10-column header, the score in column 4.
    SimLex,
    /// gensim's `simlex999.txt`: two `#` lines, three tab-separated columns.
    SimLexGensim,
    /// MEN's natural form: space-separated, no header.
    MenNatural,
    /// MEN's lemma form: words tagged `-n`, `-v`, `-j`.
    MenLemma,
    /// RG-65 with tabs.
    RgTab,
    /// RG-65 with semicolons.
    RgSemicolon,
    /// MC-30 with tabs.
    McTab,
    /// MTurk-287/771: comma, no header.
    MTurk,
    /// Stanford Rare Words `rw.txt`: tab, the mean and ten raters.
    RareWords,
    /// SimVerb-3500: tab, `word1 word2 POS score relation`.
    SimVerb,
    /// SimVerb-3500 without the relation column.
    SimVerb4,
}

const COPIES: [Copy; 16] = [
    Copy::WsCombinedCsv,
    Copy::WsCombinedTab,
    Copy::WsSet1,
    Copy::WsSplit,
    Copy::WsGensim,
    Copy::SimLex,
    Copy::SimLexGensim,
    Copy::MenNatural,
    Copy::MenLemma,
    Copy::RgTab,
    Copy::RgSemicolon,
    Copy::McTab,
    Copy::MTurk,
    Copy::RareWords,
    Copy::SimVerb,
    Copy::SimVerb4,
];

impl Copy {
    fn file_name(self) -> &'static str {
        match self {
            Self::WsCombinedCsv => "combined.csv",
            Self::WsCombinedTab => "combined.tab",
            Self::WsSet1 => "wordsim353/set1.tab",
            Self::WsSplit => "wordsim_similarity_goldstandard.txt",
            Self::WsGensim => "wordsim353.tsv",
            Self::SimLex => "SimLex-999/SimLex-999.txt",
            Self::SimLexGensim => "simlex999.txt",
            Self::MenNatural => "MEN/MEN_dataset_natural_form_full",
            Self::MenLemma => "MEN/MEN_dataset_lemma_form_full",
            Self::RgTab => "EN-RG-65.txt",
            Self::RgSemicolon => "rg65.csv",
            Self::McTab => "EN-MC-30.txt",
            Self::MTurk => "MTURK-771.csv",
            Self::RareWords => "rw/rw.txt",
            Self::SimVerb => "SimVerb-3500.txt",
            Self::SimVerb4 => "SimVerb-500-dev.txt",
        }
    }

    fn layout(self) -> Layout {
        match self {
            Self::WsCombinedCsv
            | Self::WsCombinedTab
            | Self::WsSet1
            | Self::WsSplit
            | Self::WsGensim => Layout::WordSim353,
            Self::SimLex | Self::SimLexGensim => Layout::SimLex999,
            Self::MenNatural | Self::MenLemma => Layout::Men,
            Self::RgTab | Self::RgSemicolon => Layout::Rg65,
            Self::McTab => Layout::Mc30,
            Self::MTurk => Layout::MTurk,
            Self::RareWords => Layout::RareWords,
            Self::SimVerb | Self::SimVerb4 => Layout::SimVerb3500,
        }
    }

    /// Whether the content alone names the layout (a header, MEN's tags,
    /// the columns of Rare Words and SimVerb-3500); else the name does.
    fn content_names_it(self) -> bool {
        matches!(
            self,
            Self::WsCombinedCsv
                | Self::WsCombinedTab
                | Self::WsSet1
                | Self::SimLex
                | Self::MenLemma
                | Self::RareWords
                | Self::SimVerb
        )
    }

    /// The file for these pairs (lines joined with `eol`).
    fn render(self, rows: &[(String, String, f64)], eol: &str) -> String {
        let mut lines: Vec<String> = Vec::new();
        match self {
            Self::WsCombinedCsv => lines.push("Word 1,Word 2,Human (mean)".into()),
            Self::WsCombinedTab => lines.push("Word 1\tWord 2\tHuman (mean)".into()),
            Self::WsSet1 => lines.push(format!(
                "Word 1\tWord 2\tHuman (mean)\t{}",
                (1..=13)
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join("\t")
            )),
            Self::WsGensim => {
                lines.push("# The WordSimilarity-353 Test Collection (a made-up copy)".into());
                lines.push("# Word 1\tWord 2\tHuman (mean)".into());
            }
            Self::SimLex => lines.push(
                "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\t\
                 SimAssoc333\tSD(SimLex)"
                    .into(),
            ),
            Self::SimLexGensim => {
                lines.push("# The SimLex-999 Test data (a made-up copy)".into());
                lines.push("# Word 1\tWord 2\tHuman (mean)".into());
            }
            _ => {}
        }
        let tags = ["-n", "-v", "-j"];
        for (k, (a, b, s)) in rows.iter().enumerate() {
            let s = format!("{s:.2}");
            lines.push(match self {
                Self::WsCombinedCsv | Self::MTurk => format!("{a},{b},{s}"),
                Self::WsCombinedTab
                | Self::WsSplit
                | Self::WsGensim
                | Self::SimLexGensim
                | Self::RgTab
                | Self::McTab => format!("{a}\t{b}\t{s}"),
                Self::WsSet1 => {
                    let raters: Vec<String> = (0..13).map(|r| ((k + r) % 11).to_string()).collect();
                    format!("{a}\t{b}\t{s}\t{}", raters.join("\t"))
                }
                Self::SimLex => format!(
                    "{a}\t{b}\t{}\t{s}\t4.{k}\t3.5\t2\t0.{k}\t{}\t1.{k}",
                    ["A", "N", "V"][k % 3],
                    k % 2
                ),
                Self::MenNatural => format!("{a} {b} {s}"),
                Self::MenLemma => format!("{a}{} {b}{} {s}", tags[k % 3], tags[(k + 1) % 3]),
                Self::RgSemicolon => format!("{a};{b};{s}"),
                Self::RareWords => {
                    let raters: Vec<String> = (0..10).map(|r| ((k + r) % 11).to_string()).collect();
                    format!("{a}\t{b}\t{s}\t{}", raters.join("\t"))
                }
                Self::SimVerb => format!(
                    "{a}\t{b}\tV\t{s}\t{}",
                    [
                        "SYNONYMS",
                        "ANTONYMS",
                        "HYPER/HYPONYMS",
                        "COHYPONYMS",
                        "NONE"
                    ][k % 5]
                ),
                Self::SimVerb4 => format!("{a}\t{b}\tV\t{s}"),
            });
        }
        let mut text = lines.join(eol);
        text.push_str(eol);
        text
    }
}

fn triples(b: &Benchmark) -> Vec<(String, String, f64)> {
    b.pairs()
        .iter()
        .map(|p| (p.word1.clone(), p.word2.clone(), p.score))
        .collect()
}

fn made_up_rows() -> Vec<(String, String, f64)> {
    [
        ("kettle", "teapot", 7.1),
        ("lantern", "torch", 6.45),
        ("pebble", "boulder", 4.0),
        ("violin", "cello", 8.25),
        ("meadow", "glacier", 0.9),
    ]
    .iter()
    .map(|(a, b, s)| ((*a).to_owned(), (*b).to_owned(), *s))
    .collect()
}

/// Every copy: detection with and without its name, and the layout's own
/// format, read the same pairs; the content or the name names the layout.
fn check_copy(copy: Copy, rows: &[(String, String, f64)], eol: &str) -> Result<(), TestCaseError> {
    let text = copy.render(rows, eol);
    let name = copy.file_name();
    let (b, d) = Benchmark::read_detected(name, text.as_bytes(), Some(name))
        .map_err(|e| TestCaseError::fail(format!("{copy:?}: {e}\n{text}")))?;
    prop_assert_eq!(&triples(&b), rows, "{:?}", copy);
    prop_assert_eq!(d.layout, Some(copy.layout()), "{:?}", copy);
    prop_assert_eq!(d.chosen, Chosen::Content, "{:?}", copy);
    let (nameless, d2) = Benchmark::read_detected(name, text.as_bytes(), None).unwrap();
    prop_assert_eq!(&triples(&nameless), rows, "{:?}", copy);
    prop_assert_eq!(d2.format, d.format, "{:?}", copy);
    prop_assert_eq!(
        d2.layout,
        copy.content_names_it().then_some(copy.layout()),
        "{:?}",
        copy
    );
    // One format reads all copies of a dataset (the Layout docs' promise).
    let own = Benchmark::read(name, text.as_bytes(), &PairFormat::layout(copy.layout()))
        .map_err(|e| TestCaseError::fail(format!("{copy:?} by its layout: {e}")))?;
    prop_assert_eq!(&triples(&own), rows, "{:?}", copy);
    // The detected format, stored, reads the file alone too.
    prop_assert_eq!(
        &triples(&Benchmark::read(name, text.as_bytes(), &d.format).unwrap()),
        rows
    );
    Ok(())
}

#[test]
fn every_public_copy_of_every_layout() {
    for copy in COPIES {
        for eol in ["\n", "\r\n"] {
            check_copy(copy, &made_up_rows(), eol).unwrap();
        }
    }
    // Every layout has a copy here.
    for layout in Layout::ALL {
        assert!(COPIES.iter().any(|c| c.layout() == layout), "{layout:?}");
    }
}

#[test]
fn detected_formats_by_hand() {
    let d = |text: &str, name| PairFormat::detect(text.as_bytes(), name).unwrap();
    let simlex = Copy::SimLex.render(&made_up_rows(), "\n");
    assert_eq!(
        d(&simlex, None).format,
        PairFormat::new()
            .separator(Separator::Tab)
            .header(Header::Present)
            .columns(1, 2, 4)
    );
    assert_eq!(
        d(&Copy::MenLemma.render(&made_up_rows(), "\n"), None).format,
        PairFormat::new()
            .separator(Separator::Whitespace)
            .header(Header::Absent)
            .strip_pos_suffixes(true)
    );
    // gensim's copies: '#' lines skipped, no header, three columns.
    let gensim = Copy::SimLexGensim.render(&made_up_rows(), "\n");
    let g = d(&gensim, Some("simlex999.txt"));
    assert_eq!(
        g.format,
        PairFormat::new()
            .separator(Separator::Tab)
            .header(Header::Absent)
    );
    assert_eq!(
        g.to_string(),
        "simlex999 layout, detected from the content: words in columns 1 and 2, score in \
         column 3, separator tab, no header, '#' lines are comments"
    );
    // A header naming the score column wins over the first numeric one.
    let named = d(
        "w1\tw2\tid\tscore\ncat\tdog\t17\t7.5\nsun\tmoon\t18\t6\n",
        None,
    );
    assert_eq!(named.format.score_column(), 4);
    assert_eq!(named.layout, None);
    // Without a header: the first numeric column.
    assert_eq!(
        d("cat\tdog\t17\t7.5\nsun\tmoon\t18\t6\n", None)
            .format
            .score_column(),
        3
    );
    // A word pair, then a comma-separated one with quoted fields.
    let q = d("\"cat\",\"dog\",7.5\n\"sun\",\"moon\",6\n", None);
    assert_eq!(q.format.word_columns(), [1, 2]);
    assert_eq!(
        read_pairs(&b"\"cat\",\"dog\",7.5\n"[..], &q.format).unwrap()[0].word1,
        "cat"
    );
    // A BOM, blank lines and CRLF.
    let b = d("\u{feff}\r\n# c\r\ncat dog 7\r\n\r\nsun moon 6\r\n", None);
    assert_eq!(b.format.score_column(), 3);
    // The last line cut by the sample is left out: it would have 2 fields.
    assert!(PairFormat::detect(b"cat\tdog\t7\nsun\tmo", None).is_ok());
    // ... unless it is the only line.
    assert!(PairFormat::detect(b"cat\tdog\t7", None).is_ok());
    // A single line without a number in column 3 or later fits no format.
    assert_eq!(
        PairFormat::detect(b"word1\tword2\tscore\n", None),
        Err(WordsimError::Undetected {
            line: 1,
            problem: DetectProblem::NoScoreColumn
        })
    );
}

#[test]
fn the_file_name_breaks_ties_only() {
    // Columns 3 and 4 both numeric, no header: the first, unless the name's
    // layout has its score in the other.
    let text = "take\tgrab\t2\t6.81\nsee\tlook\t1\t7.20\n";
    let d = PairFormat::detect(text.as_bytes(), Some("SimVerb-3500.txt")).unwrap();
    assert_eq!(
        (d.format.score_column(), d.chosen, d.layout),
        (4, Chosen::FileName, Some(Layout::SimVerb3500))
    );
    let d = PairFormat::detect(text.as_bytes(), Some("pairs.txt")).unwrap();
    assert_eq!(
        (d.format.score_column(), d.chosen, d.layout),
        (3, Chosen::Content, None)
    );
    // A name that does not fit the content does not change it: gensim's
    // three-column simlex999.txt failed as "expected at least 4 fields".
    let gensim = Copy::SimLexGensim.render(&made_up_rows(), "\n");
    let d = PairFormat::detect(gensim.as_bytes(), Some("simlex999.txt")).unwrap();
    assert_eq!((d.format.score_column(), d.chosen), (3, Chosen::Content));
    // Some words tagged, some not: the MEN name says to remove the tags.
    let mixed = "kettle-n teapot 40\nbright-j dim 19\n";
    let men = PairFormat::detect(mixed.as_bytes(), Some("MEN_dataset_lemma_form.dev")).unwrap();
    assert_eq!(
        (men.chosen, men.layout),
        (Chosen::FileName, Some(Layout::Men))
    );
    assert_eq!(
        men.read("MEN", mixed.as_bytes()).unwrap().pairs()[0].word1,
        "kettle"
    );
    let plain = PairFormat::detect(mixed.as_bytes(), None).unwrap();
    assert_eq!(
        plain.read("x", mixed.as_bytes()).unwrap().pairs()[0].word1,
        "kettle-n"
    );
    // Tags in a tab-separated file are words as written (as gensim reads them).
    let tabbed = "kettle-n\tteapot-n\t40\n";
    assert_eq!(
        Benchmark::read_detected("x", tabbed.as_bytes(), None)
            .unwrap()
            .0
            .pairs()[0]
            .word1,
        "kettle-n"
    );
}

#[test]
fn file_names() {
    // Each layout and the names it is known by (`None`: names of no layout).
    let cases: [(Option<Layout>, &[&str]); 9] = [
        (
            Some(Layout::SimLex999),
            &["SimLex-999.txt", "simlex999.txt"],
        ),
        (Some(Layout::SimVerb3500), &["SimVerb-3500.txt"]),
        (
            Some(Layout::Men),
            &["MEN_dataset_natural_form_full", "/data/men.txt"],
        ),
        (
            Some(Layout::WordSim353),
            &[
                "wordsim353.tsv",
                "wordsim_relatedness_goldstandard.txt",
                "WS-353.txt",
            ],
        ),
        (Some(Layout::Rg65), &["EN-RG-65.txt", "rg65.csv"]),
        (Some(Layout::Mc30), &["EN-MC-30.txt"]),
        (Some(Layout::MTurk), &["MTURK-771.csv"]),
        (Some(Layout::RareWords), &["rw.txt", "C:\\data\\rw.txt"]),
        (None, &["combined.csv", "comments.txt", "women.tsv", ""]),
    ];
    for (layout, names) in cases {
        for name in names {
            assert_eq!(Layout::from_file_name(name), layout, "{name}");
        }
    }
}

#[test]
fn an_explicit_layout_wins_and_errors_say_how_to_choose_another() {
    let simlex = Copy::SimLex.render(&made_up_rows(), "\n");
    // MEN's layout on SimLex-999: the header and every pair fail as MEN
    // (field 3 is the part of speech); it says it was given explicitly.
    let d = Detection::explicit(PairFormat::layout(Layout::Men), Some(Layout::Men));
    let e = d.read("x", simlex.as_bytes()).unwrap_err();
    let WordsimError::Format { detection, error } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(detection.chosen, Chosen::Explicit);
    assert_eq!(
        **error,
        WordsimError::Line {
            line: 2,
            problem: PairProblem::InvalidScore { column: 3 }
        }
    );
    assert_eq!(e.line(), Some(2));
    let msg = e.to_string();
    assert!(
        msg.starts_with("benchmark line 2: field 3 is not a number (read as men layout, given explicitly: words in columns 1 and 2, score in column 3,"),
        "{msg}"
    );
    assert!(msg.ends_with("to read it another way pass another PairFormat to Benchmark::read, or let Benchmark::read_detected detect it)"), "{msg}");
    // The detected format: a line past the sample that breaks it is named
    // with the format and that it was detected.
    let mut big = String::new();
    while big.len() <= adaptive_comp_metrics::wordsim::DETECTION_SAMPLE {
        big.push_str("cat\tdog\t7.5\n");
    }
    let bad_line = big.lines().count() + 1;
    big.push_str("cat\tdog\n");
    let e = Benchmark::read_detected("big", big.as_bytes(), Some("big.tsv")).unwrap_err();
    assert_eq!(e.line(), Some(bad_line));
    assert!(
        e.to_string().contains(
            "expected at least 3 fields, found 2 (read as plain layout, detected from the content: \
             words in columns 1 and 2, score in column 3, separator tab, no header"
        ),
        "{e}"
    );
    // Detection failures name the line.
    assert_eq!(
        PairFormat::detect(b"cat\tdog\t7\nsun\tmoon\n", None),
        Err(WordsimError::Undetected {
            line: 2,
            problem: DetectProblem::TooFewFields {
                separator: Separator::Auto,
                needed: 3,
                found: 2
            }
        })
    );
    let e = PairFormat::detect(b"cat dog seven\nsun moon six\n", None).unwrap_err();
    assert_eq!(e.line(), Some(2));
    assert_eq!(
        e.to_string(),
        "benchmark line 2: field 3 is not a number, and no column from the 3rd on holds a number \
         on every line, so the layout cannot be detected; choose one (PairFormat::layout or \
         PairFormat::columns with Benchmark::read)"
    );
    // A header shorter than the pairs' score column.
    assert_eq!(
        PairFormat::detect(b"w1\tw2\tPOS\nold\tnew\tA\t1.5\nfar\tnear\tA\t2\n", None),
        Err(WordsimError::Undetected {
            line: 1,
            problem: DetectProblem::TooFewFields {
                separator: Separator::Tab,
                needed: 4,
                found: 3
            }
        })
    );
    assert_eq!(
        PairFormat::detect(b"\n# only a comment\n", None),
        Err(WordsimError::Empty)
    );
}

/// Made-up words: lowercase letters (never a number, never tagged).
fn word() -> impl Strategy<Value = String> {
    "[a-z]{1,9}".prop_filter("not a number", |w| w.parse::<f64>().is_err())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_copies_read_back(
        copy in prop::sample::select(COPIES.to_vec()),
        rows in prop::collection::vec((word(), word(), 0u32..1000), 1..25),
        crlf in any::<bool>(),
    ) {
        let rows: Vec<(String, String, f64)> =
            rows.into_iter().map(|(a, b, s)| (a, b, f64::from(s) / 100.0)).collect();
        check_copy(copy, &rows, if crlf { "\r\n" } else { "\n" })?;
    }

    #[test]
    fn detection_never_panics_and_its_format_reads_the_sample(
        raw in prop::collection::vec(
            prop::sample::select(b"ab1.5\t,; -#\n\r\"e".to_vec()), 0..200),
        (sep, eol, lines) in (
            prop::sample::select(vec!["\t", ",", ";", " ", "  "]),
            prop::sample::select(vec!["\n", "\r\n"]),
            (2usize..7).prop_flat_map(|width| {
                let token = || prop::sample::select(vec![
                    "cat", "dog", "1.5", "-2", "7", "sun-n", "run-v", "\"q\"", "", "#c", "1e9",
                    "nan", "inf", "x y", "POS", "score",
                ]);
                let word = || prop::sample::select(vec!["cat", "dog", "sun-n", "run-v", "x y", "V"]);
                let number = || prop::sample::select(vec!["1.5", "-2", "7", "0.25", "1e9"]);
                let row = (word(), word(), prop::collection::vec(number(), width - 2))
                    .prop_map(|(a, b, rest)| {
                        let mut f = vec![a, b];
                        f.extend(rest);
                        f
                    });
                prop::collection::vec(
                    prop_oneof![6 => row, 1 => prop::collection::vec(token(), 0..7)],
                    0..12,
                )
            }),
        ),
        name in prop::sample::select(vec![None, Some("MEN.txt"), Some("SimVerb-3500.txt"), Some("x.csv")]),
    ) {
        let mut text = String::new();
        for fields in &lines {
            text.push_str(&fields.join(sep));
            text.push_str(eol);
        }
        for bytes in [&raw[..], text.as_bytes()] {
            let Ok(d) = PairFormat::detect(bytes, name) else { continue };
            // A whole sample that is text with a final line end reads with
            // the detected format, except for an empty word (not the
            // layout's fault), and as read_detected reads it.
            if bytes.ends_with(b"\n") {
                match read_pairs(bytes, &d.format) {
                    Ok(pairs) => {
                        prop_assert!(!pairs.is_empty());
                        let (b, d2) = Benchmark::read_detected("x", bytes, name).unwrap();
                        prop_assert_eq!(b.pairs(), &pairs[..]);
                        prop_assert_eq!(d2, d);
                    }
                    Err(WordsimError::Line { problem: PairProblem::EmptyWord { .. }, .. }) => {}
                    Err(e) => prop_assert!(false, "{e} with {d}"),
                }
            }
        }
    }
}

/// gensim's test data: $GENSIM_TEST_DATA, else the gensim of the
/// workspace's `.venv` (made by `make python-dev`).
fn gensim_data() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GENSIM_TEST_DATA") {
        return Some(PathBuf::from(dir));
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/lib");
    std::fs::read_dir(lib)
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages/gensim/test/test_data"))
        .find(|p| p.join("simlex999.txt").is_file())
}

#[test]
fn gensims_own_benchmark_copies() {
    let Some(dir) = gensim_data() else {
        eprintln!(
            "gensims_own_benchmark_copies: gensim's test data not found (set GENSIM_TEST_DATA \
             or run `make python-dev`); skipped"
        );
        return;
    };
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
    for (file, layout, n) in [
        ("simlex999.txt", Layout::SimLex999, 999),
        ("wordsim353.tsv", Layout::WordSim353, 353),
    ] {
        let bytes = read(file);
        let (b, d) = Benchmark::read_detected(file, &bytes[..], Some(file)).unwrap();
        assert_eq!(b.len(), n, "{file}");
        assert_eq!(b.pairs()[0].line, 3, "{file}: two '#' lines first");
        assert_eq!((d.layout, d.chosen), (Some(layout), Chosen::Content));
        // The layout's own format (SimLex-999's: score in column 4, or 3 in
        // a three-column copy) reads the same pairs.
        let own = Benchmark::read(file, &bytes[..], &PairFormat::layout(layout)).unwrap();
        assert_eq!(own.pairs(), b.pairs(), "{file}");
        let strict = PairFormat::layout(layout).three_column_copies(false);
        if layout == Layout::SimLex999 {
            // What the CLI said before: simlex999.txt:3: expected at least 4 fields, found 3.
            assert_eq!(
                Benchmark::read(file, &bytes[..], &strict).unwrap_err(),
                WordsimError::Line {
                    line: 3,
                    problem: PairProblem::TooFewFields {
                        needed: 4,
                        found: 3
                    }
                }
            );
        }
    }
    // gensim's numbers (gensim_testdata.py).
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/wordsim/gensim_testdata_expected.txt"),
    )
    .unwrap();
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        let num = |i: usize| f[i].parse::<f64>().unwrap();
        let (vec, bench, unknown, case) = (f[0], f[1], f[2], f[3]);
        let bytes = read(bench);
        let (b, _) = Benchmark::read_detected(bench, &bytes[..], Some(bench)).unwrap();
        let data = read(vec);
        let options = ReadOptions::new().fold_case(case == "fold").keep(b.words());
        let v: Vectors<f32> = read_vectors(&data[..], Format::detect(&data), &options).unwrap();
        let unknown = if unknown == "zero" {
            Unknown::Zero
        } else {
            Unknown::Drop
        };
        let r = Evaluator::new().unknown(unknown).evaluate(&v, &b).unwrap();
        let (pr, rho) = (r.pearson.as_ref().unwrap(), r.spearman.as_ref().unwrap());
        assert!((pr.r - num(4)).abs() < 1e-6, "{line}: r = {}", pr.r);
        assert!((rho.rho - num(6)).abs() < 1e-6, "{line}: ρ = {}", rho.rho);
        assert!((100.0 * r.oov_ratio() - num(8)).abs() < 1e-9, "{line}");
        let two = adaptive_comp_metrics::Alternative::TwoSided;
        assert!((pr.p_value(two) - num(5)).abs() <= 1e-3 * num(5), "{line}");
        assert!((rho.p_value(two) - num(7)).abs() <= 1e-3 * num(7), "{line}");
        checked += 1;
    }
    assert_eq!(checked, 16);
}
