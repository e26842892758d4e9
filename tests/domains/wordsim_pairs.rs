//! Word-pair benchmark files: the layouts of the published datasets (rows
//! made up here in the same layouts, the datasets are not shipped), the
//! bundled samples, header/separator detection and line-numbered errors.

use adaptive_comp_metrics::wordsim::{
    Benchmark, Header, Layout, PairFormat, PairProblem, Separator, WordPair, WordsimError,
    read_pairs,
};

fn read(text: &str, format: PairFormat) -> Vec<(String, String, f64, usize)> {
    read_pairs(text.as_bytes(), &format)
        .unwrap()
        .into_iter()
        .map(|p| (p.word1, p.word2, p.score, p.line))
        .collect()
}

fn row(a: &str, b: &str, s: f64, line: usize) -> (String, String, f64, usize) {
    (a.to_owned(), b.to_owned(), s, line)
}

#[test]
fn layouts_of_the_published_datasets() {
    let l = PairFormat::layout;
    // WordSim-353 combined.csv: comma, header.
    assert_eq!(
        read(
            "Word 1,Word 2,Human (mean)\nlove,sex,6.77\n",
            l(Layout::WordSim353)
        ),
        [row("love", "sex", 6.77, 2)]
    );
    // combined.tab and set1/set2: tab, header, rater columns after the mean.
    assert_eq!(
        read(
            "Word 1\tWord 2\tHuman (mean)\t1\t2\nlove\tsex\t6.77\t9\t6\n",
            l(Layout::WordSim353)
        ),
        [row("love", "sex", 6.77, 2)]
    );
    // SimLex-999: tab, header, score in column 4 of 10.
    let simlex = "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n\
                  old\tnew\tA\t1.58\t2.72\t2.81\t2\t7.25\t1\t0.41\n";
    assert_eq!(
        read(simlex, l(Layout::SimLex999)),
        [row("old", "new", 1.58, 2)]
    );
    // MEN lemma form: space-separated, POS tags; natural form untouched.
    assert_eq!(
        read(
            "sun-n sunlight-n 50.000000\nwalk-v run-v 41.000000\nhot-j cold-j 30.000000\n",
            l(Layout::Men)
        ),
        [
            row("sun", "sunlight", 50.0, 1),
            row("walk", "run", 41.0, 2),
            row("hot", "cold", 30.0, 3)
        ]
    );
    assert_eq!(
        read("sun sunlight 50.000000\n", l(Layout::Men)),
        [row("sun", "sunlight", 50.0, 1)]
    );
    // RG-65 / MC-30: tab, or semicolons in some copies.
    assert_eq!(
        read("cord\tsmile\t0.02\n", l(Layout::Rg65)),
        [row("cord", "smile", 0.02, 1)]
    );
    assert_eq!(
        read("cord;smile;0.02\n", l(Layout::Mc30)),
        [row("cord", "smile", 0.02, 1)]
    );
    // MTurk-287/771: comma, no header.
    assert_eq!(
        read("access,gateway,3.0\n", l(Layout::MTurk)),
        [row("access", "gateway", 3.0, 1)]
    );
    // Rare Words: tab, then ten raters.
    assert_eq!(
        read(
            "squishing\tsquirt\t5.88\t7\t7\t6\t1\t3\t6\t7\t8\t6\t8\n",
            l(Layout::RareWords)
        ),
        [row("squishing", "squirt", 5.88, 1)]
    );
    // SimVerb-3500: tab, no header, word1 word2 POS score relation.
    assert_eq!(
        read("take\tremove\tV\t6.81\tSYNONYMS\n", l(Layout::SimVerb3500)),
        [row("take", "remove", 6.81, 1)]
    );
    for layout in Layout::ALL {
        assert_eq!(Layout::from_name(layout.name()), Some(layout));
    }
    assert_eq!(Layout::from_name("SIMVERB_3500"), Some(Layout::SimVerb3500));
}

#[test]
fn bundled_samples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wordsim");
    let open = |n: &str| std::io::BufReader::new(std::fs::File::open(dir.join(n)).unwrap());
    let ws = Benchmark::read("ws", open("ws-sample.tsv"), &PairFormat::new()).unwrap();
    let simlex = Benchmark::read(
        "sl",
        open("simlex-sample.txt"),
        &PairFormat::layout(Layout::SimLex999),
    )
    .unwrap();
    let men = Benchmark::read(
        "men",
        open("men-sample.txt"),
        &PairFormat::layout(Layout::Men),
    )
    .unwrap();
    let mturk = Benchmark::read(
        "mt",
        open("mturk-sample.csv"),
        &PairFormat::layout(Layout::MTurk),
    )
    .unwrap();
    // Pair counts from gen_sample.py: 80, 60, 70, 50.
    assert_eq!(
        [ws.len(), simlex.len(), men.len(), mturk.len()],
        [80, 60, 70, 50]
    );
    assert_eq!(ws.pairs()[0].line, 2); // after the comment line
    assert!(
        men.pairs()
            .iter()
            .all(|p| !p.word1.contains('-') && (0.0..=50.0).contains(&p.score))
    );
    assert!(
        simlex
            .pairs()
            .iter()
            .all(|p| (0.0..=10.0).contains(&p.score))
    );
}

#[test]
fn header_separator_and_comments() {
    // Header::Present skips the first line even if it looks like a pair.
    let two = "a b 1\nc d 2\n";
    assert_eq!(
        read(two, PairFormat::new().header(Header::Present)),
        [row("c", "d", 2.0, 2)]
    );
    assert_eq!(read(two, PairFormat::new()).len(), 2);
    // Header::Absent makes a header line an error.
    let e = read_pairs(
        "w1 w2 score\na b 1\n".as_bytes(),
        &PairFormat::new().header(Header::Absent),
    );
    assert_eq!(
        e,
        Err(WordsimError::Line {
            line: 1,
            problem: PairProblem::InvalidScore { column: 3 }
        })
    );
    // BOM, CRLF, blank lines, comments, quoted CSV fields, spaces around fields.
    let text = "\u{feff}# comment\r\n\r\n\"tiger\", \"cat\" , 7.35\r\n";
    assert_eq!(
        read(text, PairFormat::new()),
        [row("tiger", "cat", 7.35, 3)]
    );
    // With comments off, '#' is part of a word.
    assert_eq!(
        read("#a b 1\n", PairFormat::new().comments(false)),
        [row("#a", "b", 1.0, 1)]
    );
    // An explicit separator: whitespace splits runs of spaces and tabs.
    assert_eq!(
        read(
            "a  \t b\t 3\n",
            PairFormat::new().separator(Separator::Whitespace)
        ),
        [row("a", "b", 3.0, 1)]
    );
    // Column choice: score first, words swapped.
    assert_eq!(
        read("9,x,y\n", PairFormat::new().columns(3, 2, 1)),
        [row("y", "x", 9.0, 1)]
    );
}

#[test]
fn errors_are_line_numbered() {
    let e = |t: &str| read_pairs(t.as_bytes(), &PairFormat::new()).unwrap_err();
    let at = |line, problem| WordsimError::Line { line, problem };
    assert_eq!(
        e("a\tb\t1\nc\td\n"),
        at(
            2,
            PairProblem::TooFewFields {
                needed: 3,
                found: 2
            }
        )
    );
    assert_eq!(e("a\t\t1\n"), at(1, PairProblem::EmptyWord { column: 2 }));
    assert_eq!(
        e("a b 1\nc d x\n"),
        at(2, PairProblem::InvalidScore { column: 3 })
    );
    assert_eq!(
        e("a b inf\n"),
        at(1, PairProblem::NonFiniteScore { column: 3 })
    );
    assert_eq!(
        read_pairs(&b"a b 1\n\xff b 1\n"[..], &PairFormat::new()),
        Err(at(2, PairProblem::InvalidUtf8))
    );
    assert_eq!(
        e("a b 1\nc d x\n").to_string(),
        "benchmark line 2: field 3 is not a number"
    );
    // A MEN tag alone is not stripped to an empty word.
    assert_eq!(
        read("-n b 1\n", PairFormat::layout(Layout::Men)),
        [row("-n", "b", 1.0, 1)]
    );
    for cols in [(0, 2, 3), (1, 1, 3), (1, 2, 2)] {
        assert!(matches!(
            read_pairs(
                "a b 1\n".as_bytes(),
                &PairFormat::new().columns(cols.0, cols.1, cols.2)
            ),
            Err(WordsimError::InvalidParameter {
                name: "columns",
                ..
            })
        ));
    }
    assert_eq!(
        Benchmark::read("x", "# nothing\n".as_bytes(), &PairFormat::new()),
        Err(WordsimError::Empty)
    );
    assert_eq!(Benchmark::new("x", vec![]), Err(WordsimError::Empty));
    assert_eq!(
        Benchmark::new(
            "x",
            vec![
                WordPair::new("a", "b", 1.0),
                WordPair::new("a", "b", f64::NAN)
            ]
        ),
        Err(WordsimError::Pair {
            index: 1,
            problem: PairProblem::NonFiniteScore { column: 3 }
        })
    );
}
