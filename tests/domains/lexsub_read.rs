//! The SemEval-2007 file readers: accepted variations and every kind of
//! malformed line, with its line number.

use std::io::{BufRead, BufReader, Read};

use adaptive_comp_metrics::lexsub::{
    Format, GoldItem, GoldLines, LexsubError, Mode, SystemLines, read_gold, read_system,
};

use crate::system_answers;

fn syntax(line: usize, expected: &'static str) -> LexsubError {
    LexsubError::Syntax { line, expected }
}

fn gold_err(text: &str) -> LexsubError {
    read_gold(text.as_bytes(), Mode::Strict).unwrap_err()
}

#[test]
fn gold_accepts_crlf_bom_blank_lines_trailing_semicolon_multiword() {
    let text = "\u{feff}bright.a 1 :: intelligent 3;clever 2;smart 1;\r\n\r\n  \n\
                cheer.v 7   ::  cheer up 2 ; gladden 1 ;; \r\n";
    let g = read_gold(text.as_bytes(), Mode::Strict).unwrap();
    assert!(g.skipped.is_empty());
    assert_eq!(
        g.items,
        [
            GoldItem::new(
                "1",
                "bright.a",
                [("intelligent", 3), ("clever", 2), ("smart", 1)]
            )
            .unwrap(),
            GoldItem::new("7", "cheer.v", [("cheer up", 2), ("gladden", 1)]).unwrap(),
        ]
    );
    // no final newline
    let g = read_gold("x.n 1 :: y 2".as_bytes(), Mode::Strict).unwrap();
    assert_eq!(g.items[0].freq("y"), 2);
}

#[test]
fn system_accepts_crlf_and_empty_answers() {
    let best = "bright.a 1 :: clever;intelligent;\r\nbright.a 2 ::\r\nbright.a 3 :: ; ;\n";
    let s = system_answers(best, Format::Best);
    assert_eq!(s[0].answers, ["clever", "intelligent"]); // CRLF does not stick to the last answer
    assert!(s[1].answers.is_empty());
    assert!(s[2].answers.is_empty());
    let oot = "bright.a 1 ::: clever; well being ;smart\r\n";
    let s = system_answers(oot, Format::Oot);
    assert_eq!(s[0].answers, ["clever", "well being", "smart"]);
    assert_eq!((s[0].id.as_str(), s[0].target.as_str()), ("1", "bright.a"));
}

#[test]
fn gold_malformed_lines_name_line_and_expectation() {
    let ok = "bright.a 1 :: clever 2\n";
    assert_eq!(
        gold_err(&format!("{ok}bright.a 2 clever 2\n")),
        syntax(2, "'lemma.pos ID ::' before the substitutes")
    );
    assert_eq!(
        gold_err(&format!("{ok}\nbright.a 3 :: clever two\n")),
        syntax(
            3,
            "an annotator count (a positive integer) after each substitute"
        )
    );
    assert_eq!(
        gold_err("bright.a 1 :: clever 0\n"),
        syntax(
            1,
            "an annotator count (a positive integer) after each substitute"
        )
    );
    assert_eq!(
        gold_err("bright.a 1 :: clever -1\n"),
        syntax(
            1,
            "an annotator count (a positive integer) after each substitute"
        )
    );
    assert_eq!(
        gold_err("bright.a 1 :: clever\n"),
        syntax(1, "'substitute count' entries separated by ';'")
    );
    assert_eq!(
        gold_err("bright.a 1 ::\n"),
        syntax(1, "at least one 'substitute count' entry after '::'")
    );
    assert_eq!(
        gold_err("bright.a 1 ::: clever 2\n"),
        syntax(1, "'::' after the item id, found ':::' (oot format)")
    );
    assert_eq!(
        gold_err("bright.a :: clever 2\n"),
        syntax(1, "exactly two fields, 'lemma.pos ID', before '::'")
    );
    assert_eq!(
        gold_err("bright.a 1 extra :: clever 2\n"),
        syntax(1, "exactly two fields, 'lemma.pos ID', before '::'")
    );
    assert_eq!(
        gold_err("bright 1 :: clever 2\n"),
        syntax(1, "a target of the form lemma.pos")
    );
    // a positive integer too large for u32 is not "expected a positive
    // integer": it overflows (issue 17).
    assert_eq!(
        gold_err("bright.a 1 :: clever 99999999999\n").to_string(),
        "line 1, column 22: annotator count overflows (at most 4294967295)"
    );
}

#[test]
fn count_overflow_names_line_and_column() {
    let overflow = |line, column| LexsubError::CountOverflow {
        line,
        column,
        max: u64::from(u32::MAX),
    };
    // The value of issue 17; columns count characters from 1, "::" at 12.
    assert_eq!(
        gold_err("bright.a 1 :: glad 1;clever 99999999999999999999999\n"),
        overflow(1, 29)
    );
    // u32::MAX is accepted, one more overflows.
    let g = read_gold("w.n 1 :: a 4294967295\n".as_bytes(), Mode::Strict).unwrap();
    assert_eq!(g.items[0].freq("a"), u32::MAX);
    assert_eq!(gold_err("w.n 1 :: a 4294967296\n"), overflow(1, 12));
    // Columns after a BOM (not counted), leading blanks, multi-byte
    // characters and spaces around the entry, on a later line:
    // "  " 2 + "w.n 2 :: " 9 + "café 2;" 7 + "  naïve   " 10 = 28 characters.
    assert_eq!(
        gold_err("\u{feff}w.n 1 :: a 1\n\n  w.n 2 :: café 2;  naïve   4294967296 ;\n"),
        overflow(3, 29)
    );
    assert_eq!(gold_err("\u{feff}w.n 1 :: a 4294967296\n"), overflow(1, 12));
    // Not digits only: still the syntax error.
    assert_eq!(
        gold_err("w.n 1 :: a 4294967296x\n"),
        syntax(
            1,
            "an annotator count (a positive integer) after each substitute"
        )
    );
    // Lenient mode skips the line and reports the overflow.
    let g = read_gold(
        "w.n 1 :: a 99999999999999999999999\nw.n 2 :: b 2\n".as_bytes(),
        Mode::Lenient,
    )
    .unwrap();
    assert_eq!(g.items.len(), 1);
    assert_eq!(g.skipped, [overflow(1, 12)]);
}

#[test]
fn system_format_is_checked() {
    let err = read_system(
        "bright.a 1 :: clever\n".as_bytes(),
        Format::Oot,
        Mode::Strict,
    )
    .unwrap_err();
    assert_eq!(err, syntax(1, "':::' after the item id (oot format)"));
    let err = read_system(
        "bright.a 1 ::: clever\n".as_bytes(),
        Format::Best,
        Mode::Strict,
    )
    .unwrap_err();
    assert_eq!(
        err,
        syntax(1, "'::' after the item id, found ':::' (oot format)")
    );
}

#[test]
fn invalid_utf8_names_its_line() {
    let bytes = b"bright.a 1 :: clever 2\nbright.a 2 :: cl\xffver 2\n";
    assert_eq!(
        read_gold(&bytes[..], Mode::Strict).unwrap_err(),
        LexsubError::InvalidUtf8 { line: 2 }
    );
    let lenient = read_gold(&bytes[..], Mode::Lenient).unwrap();
    assert_eq!(lenient.items.len(), 1);
    assert_eq!(lenient.skipped, [LexsubError::InvalidUtf8 { line: 2 }]);
}

#[test]
fn lenient_mode_skips_and_reports_every_bad_line() {
    let text = "bright.a 1 :: clever 2\nnonsense\nbright.a 3 :: vivid x\nbright.a 4 :: vivid 1\n";
    let g = read_gold(text.as_bytes(), Mode::Lenient).unwrap();
    assert_eq!(
        g.items.iter().map(GoldItem::id).collect::<Vec<_>>(),
        ["1", "4"]
    );
    assert_eq!(
        g.skipped,
        [
            syntax(2, "'lemma.pos ID ::' before the substitutes"),
            syntax(
                3,
                "an annotator count (a positive integer) after each substitute"
            ),
        ]
    );
    let s = read_system(
        "a.n 1 ::: x\nb.n 2 :: y\n".as_bytes(),
        Format::Oot,
        Mode::Lenient,
    )
    .unwrap();
    assert_eq!(s.items.len(), 1);
    assert_eq!(
        s.skipped,
        [syntax(2, "':::' after the item id (oot format)")]
    );
}

/// A reader that yields one line, then fails.
struct Failing {
    sent: bool,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.sent {
            return Err(std::io::Error::other("disk on fire"));
        }
        self.sent = true;
        let line = b"bright.a 1 :: clever 2\n";
        buf[..line.len()].copy_from_slice(line);
        Ok(line.len())
    }
}

#[test]
fn io_errors_stop_reading_in_both_modes() {
    for mode in [Mode::Strict, Mode::Lenient] {
        let r = BufReader::with_capacity(64, Failing { sent: false });
        let err = read_gold(r, mode).unwrap_err();
        assert_eq!(
            err,
            LexsubError::Io {
                line: 2,
                kind: std::io::ErrorKind::Other
            }
        );
    }
    let mut it = GoldLines::new(BufReader::with_capacity(64, Failing { sent: false }));
    assert!(it.next().unwrap().is_ok());
    assert!(it.next().unwrap().is_err());
    assert!(it.next().is_none());
}

#[test]
fn streaming_iterators_yield_line_by_line() {
    let text = "a.n 1 ::: x;y\nbad\na.n 2 ::: z\n";
    let results: Vec<_> = SystemLines::new(text.as_bytes(), Format::Oot).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[1].is_err() && results[2].is_ok());
    // the reader borrows nothing beyond a line: chained readers work
    let chained = "a.n 1 :: x 1\n"
        .as_bytes()
        .chain("a.n 2 :: y 1\n".as_bytes());
    let n = GoldLines::new(chained).filter(Result::is_ok).count();
    assert_eq!(n, 2);
    fn assert_bufread<R: BufRead>(_: &R) {}
    assert_bufread(&text.as_bytes());
}
