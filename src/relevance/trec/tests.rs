//! The readers against the line-by-line readers they replace (kept here
//! as the oracle), with chunks of 64 bytes and blocks of at most 512 (so
//! that small inputs cross many), on 1, 2 and 3 threads, from readers
//! that hand out a few bytes at a time and may fail.
use super::parse::{Parsed, Record, bad_number, not_utf8, parse_qrels};
use super::pipeline::{MAX_OFFSET, Sizes, read_blocks};
use super::store::Sink;
use super::*;
use crate::relevance::error::{Location, RelevanceError};
use crate::threads::refusing_threads;
use crate::{Threads, with_threads};
use proptest::prelude::*;
use std::io::ErrorKind;
use std::io::{BufRead, Read};
use std::num::NonZeroUsize;
use std::time::Duration;

/// Physical lines of a byte stream, numbered from 1 (the old reader).
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
}

impl<R: BufRead> Lines<R> {
    fn advance(&mut self) -> Result<bool> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| RelevanceError::Io {
                line: self.line + 1,
                kind: e.kind(),
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(true)
    }
}

/// A record an oracle stored: query, document, line.
type Stored = (Vec<u8>, Vec<u8>, usize);

/// The first (query, document) given twice: (its line, the first line).
fn duplicate(seen: &[Stored]) -> Option<(usize, usize, String, String)> {
    for (i, (q, d, line)) in seen.iter().enumerate() {
        if let Some(first) = seen[..i].iter().find(|x| &x.0 == q && &x.1 == d) {
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            return Some((*line, first.2, text(q), text(d)));
        }
    }
    None
}

/// The old readers' loop: the fields of each line but comments (empty
/// for a blank line), with the line's number, handed to `record`.
fn oracle_lines<R: BufRead>(
    reader: R,
    mut record: impl FnMut(usize, &[&[u8]]) -> Result<()>,
) -> Result<()> {
    let mut lines = Lines {
        reader,
        buf: Vec::new(),
        line: 0,
    };
    while lines.advance()? {
        let raw = lines.buf.as_slice();
        if raw.first() == Some(&b'#') {
            continue;
        }
        let fields: Vec<&[u8]> = raw
            .split(|b| b" \t\n\r\x0b\x0c".contains(b))
            .filter(|f| !f.is_empty())
            .collect();
        record(lines.line, &fields)?;
    }
    Ok(())
}

/// The old readers' storing of a record, remembered in `seen`.
fn oracle_store<V, S: Sink<V>>(
    sink: &mut S,
    (qf, df, value): (&[u8], &[u8], V),
    line: usize,
    seen: &mut Vec<Stored>,
) -> Result<()> {
    let (qt, dt) = sink.tables();
    let q = qt.intern(not_utf8(qf, line)?)?;
    let d = dt.intern(q, not_utf8(df, line)?)?;
    seen.push((qf.to_vec(), df.to_vec(), line));
    sink.push(q, d, value, line)
}

/// The old qrels reader, and the records it stored.
fn oracle_qrels(input: &Input, ids: &mut Ids, seen: &mut Vec<Stored>) -> Result<Qrels> {
    let mut builder = Qrels::line_builder(ids);
    oracle_lines(input.pieces(), |line, fields| {
        if fields.is_empty() {
            if input.syntax == TrecSyntax::TrecEval {
                return Err(RelevanceError::BlankLine {
                    line,
                    column: 1,
                    format: QRELS_FORMAT,
                });
            }
            return Ok(());
        }
        if fields.len() != 4 {
            return Err(RelevanceError::FieldCount {
                line,
                format: QRELS_FORMAT,
                expected: 4,
                found: fields.len(),
            });
        }
        let rf = fields[3];
        let grade = std::str::from_utf8(rf)
            .ok()
            .and_then(|t| t.parse::<i32>().ok())
            .ok_or_else(|| bad_number(line, "rel", "an integer grade", rf))?;
        oracle_store(&mut builder, (fields[0], fields[2], grade), line, seen)
    })?;
    builder.finish()
}

/// The old run reader, and the records it stored.
fn oracle_run(input: &Input, ids: &mut Ids, seen: &mut Vec<Stored>) -> Result<TrecRun> {
    let mut builder = TrecRun::line_builder(ids);
    let mut tag: Vec<u8> = Vec::new();
    let mut tag_line = 0;
    let trec_eval = input.syntax == TrecSyntax::TrecEval;
    oracle_lines(input.pieces(), |line, fields| {
        if fields.is_empty() || trec_eval && fields[0].first() == Some(&b'#') {
            return Ok(());
        }
        let found = fields.len();
        if found != 6 && !(trec_eval && found > 6) {
            return Err(RelevanceError::FieldCount {
                line,
                format: RUN_FORMAT,
                expected: 6,
                found,
            });
        }
        let (sf, tf) = (fields[4], fields[5]);
        let score = std::str::from_utf8(sf)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|s| s.is_finite())
            .ok_or_else(|| bad_number(line, "score", "a finite score", sf))?;
        if tag.as_slice() != tf {
            tag = tf.to_vec();
            tag_line = line;
        }
        oracle_store(&mut builder, (fields[0], fields[2], score), line, seen)
    })?;
    if tag_line > 0 {
        builder.set_name(not_utf8(&tag, tag_line)?);
    }
    builder.finish()
}

/// A reader handing out `data` in pieces of the given sizes (cycled),
/// failing at byte `fail` if given.
struct Pieces<'a> {
    data: &'a [u8],
    at: usize,
    sizes: Vec<usize>,
    next: usize,
    fail: Option<usize>,
}

impl<'a> Pieces<'a> {
    fn new(data: &'a [u8], sizes: &[usize], fail: Option<usize>) -> Self {
        Self {
            data,
            at: 0,
            sizes: sizes.iter().map(|&s| s.max(1)).collect(),
            next: 0,
            fail,
        }
    }

    fn piece(&mut self) -> std::io::Result<&'a [u8]> {
        if self.fail.is_some_and(|f| self.at >= f) {
            return Err(std::io::Error::new(ErrorKind::InvalidData, "broken"));
        }
        let size = self.sizes[self.next % self.sizes.len()];
        let end = (self.at + size)
            .min(self.data.len())
            .min(self.fail.unwrap_or(usize::MAX).max(self.at + 1));
        Ok(&self.data[self.at.min(self.data.len())..end.max(self.at.min(self.data.len()))])
    }
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let piece = self.piece()?;
        let n = piece.len().min(buf.len());
        buf[..n].copy_from_slice(&piece[..n]);
        self.at += n;
        self.next += 1;
        Ok(n)
    }
}

impl BufRead for Pieces<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.piece()
    }
    fn consume(&mut self, n: usize) {
        self.at += n;
        self.next += 1;
    }
}

/// Everything a reading gives, by names: the query and document tables
/// in id order, then what `entries` says of what was read.
fn digest<T>(r: &Result<T>, ids: &Ids, entries: impl FnOnce(&T) -> String) -> String {
    match r {
        Err(e) => format!("error {e:?}"),
        Ok(read) => {
            let docs: Vec<_> = (0..ids.documents().len() as u32)
                .map(|d| (ids.documents().name(d), ids.documents().query(d)))
                .collect();
            format!(
                "{:?} {docs:?} {}",
                ids.queries().iter().collect::<Vec<_>>(),
                entries(read)
            )
        }
    }
}

/// A qrels reading's [`digest`]: each query's judgements.
fn qrels_digest(r: &Result<Qrels>, ids: &Ids) -> String {
    digest(r, ids, |q| {
        let rows: Vec<_> = q.queries().iter().map(|&x| (x, q.judgements(x))).collect();
        format!("{rows:?}")
    })
}

/// A run reading's [`digest`]: each query's ranking, the float patches and
/// the name.
fn run_digest(r: &Result<TrecRun>, ids: &Ids) -> String {
    digest(r, ids, |run| {
        let rows: Vec<_> = run
            .queries()
            .iter()
            .map(|&x| {
                let (d, s) = run.ranking(x).unwrap_or_default();
                (x, d, s.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
            })
            .collect();
        let patches: Vec<_> = (0..run.queries().len())
            .map(|r| run.float_patches(r).collect::<Vec<_>>())
            .collect();
        format!("{rows:?} {patches:?} {:?}", run.name())
    })
}

/// Checks the oracle's duplicate against the brute force one.
fn check_duplicate<T>(r: &Result<T>, seen: &[Stored]) {
    let want = duplicate(seen);
    match r {
        Err(
            RelevanceError::DuplicateQrel {
                at,
                first,
                query,
                document,
            }
            | RelevanceError::DuplicateScore {
                at,
                first,
                query,
                document,
            },
        ) => assert_eq!(
            Some((*at, *first, query.clone(), document.clone())),
            want.map(|(a, f, q, d)| (Location::Line(a), Location::Line(f), q, d))
        ),
        Ok(_) => assert_eq!(want, None),
        Err(_) => {}
    }
}

fn threads(n: usize) -> Threads {
    Threads::Fixed(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
}

fn field(pieces: &[&'static str]) -> impl Strategy<Value = &'static str> + use<> {
    proptest::sample::select(pieces.to_vec())
}

fn sep() -> impl Strategy<Value = &'static str> {
    field(&[" ", " ", " ", "\t", "  ", " \x0b", "\x0c"])
}

fn qrels_line() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (field(&["q1", "q2", "q3", "é", "q\u{a0}"]), sep(), field(&["0", "Q0"]), sep(),
               field(&["d1", "d2", "d3", "d4", "d5", "DOC0000001x", "d1"]), sep(),
               field(&["0", "1", "2", "-1", "+3", "0", "1"]), field(&["", "", " ", "\r"]))
            .prop_map(|(q, a, i, b, d, c, g, e)| format!("{q}{a}{i}{b}{d}{c}{g}{e}")),
        1 => field(&["", " ", "\t\r", "# comment", " # indented", "q1 0 d1", "q1 0 d1 1 x",
                     "q1 0 d1 1.5", "q1 0 d1 x", "q1 0 d1 99999999999", "\u{feff}q1 0 d9 1"])
            .prop_map(str::to_owned),
    ]
}

fn run_line() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (field(&["q1", "q2", "q3", "é"]), sep(), field(&["Q0"]), sep(),
               field(&["d1", "d2", "d3", "d4", "d5", "d6", "DOC0000001x"]), sep(),
               field(&["1", "2"]), sep(),
               field(&["0.5", "1", "-1.5e-3", "3.1860", "0.30000000000000004", "0.3", "-0",
                       "1e-320", "2", "0.5", "16777217", "16777216"]),
               sep(), field(&["t", "t", "u", "b\u{1}", "b\u{1}"]), field(&["", "", " x", "\r"]))
            .prop_map(|(q, a, z, b, d, c, r, e, s, f, t, g)| {
                format!("{q}{a}{z}{b}{d}{c}{r}{e}{s}{f}{t}{g}")
            }),
        1 => field(&["", " ", "# c", " # x y z a b", "#q Q0 d 1 1 t", "q1 Q0 d1 1 0.5",
                     "q1 Q0 d1 1 NaN t", "q1 Q0 d1 1 inf t", "q1 Q0 d1 1 abc t"])
            .prop_map(str::to_owned),
    ]
}

/// A file of `lines`, with non-UTF-8 bytes spliced in where asked, a
/// byte-order mark, and maybe no final line break.
fn file(lines: &[String], bom: bool, last_break: bool, bad: &[(usize, usize)]) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(b"\xEF\xBB\xBF");
    }
    for (i, l) in lines.iter().enumerate() {
        // U+0001 stands for a byte that is not UTF-8.
        let mut bytes: Vec<u8> = l.bytes().map(|b| if b == 1 { 0xff } else { b }).collect();
        for &(line, at) in bad {
            if line == i {
                bytes.insert(at % (bytes.len() + 1), 0xff);
            }
        }
        out.extend_from_slice(&bytes);
        if i + 1 < lines.len() || last_break {
            out.push(b'\n');
        }
    }
    out
}

/// A file read in pieces: its bytes, the sizes of the pieces (cycled),
/// the byte at which reading fails (if it does), and the syntax.
#[derive(Debug)]
struct Input {
    data: Vec<u8>,
    sizes: Vec<usize>,
    fail: Option<usize>,
    syntax: TrecSyntax,
}

impl Input {
    fn pieces(&self) -> Pieces<'_> {
        Pieces::new(&self.data, &self.sizes, self.fail)
    }
}

/// Up to 120 lines drawn from `line` as a [`file`], read in pieces that
/// fail at a byte below `fail_below` one time in five, in either syntax.
fn input(line: impl Strategy<Value = String>, fail_below: usize) -> impl Strategy<Value = Input> {
    (
        proptest::collection::vec(line, 0..120),
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec((0_usize..150, 0_usize..40), 0..3),
        proptest::collection::vec(1_usize..300, 1..4),
        proptest::option::weighted(0.2, 0..fail_below),
        any::<bool>(),
    )
        .prop_map(|(lines, bom, last_break, bad, sizes, fail, strict)| Input {
            data: file(&lines, bom, last_break, &bad),
            sizes,
            fail,
            syntax: if strict {
                TrecSyntax::TrecEval
            } else {
                TrecSyntax::Lenient
            },
        })
}

/// New ids, holding those of the qrels `before` if given.
fn ids_after(before: Option<&str>) -> std::result::Result<Ids, TestCaseError> {
    let mut ids = Ids::new();
    if let Some(qrels) = before {
        prop_assert!(read_trec_qrels(qrels.as_bytes(), &mut ids).is_ok());
    }
    Ok(ids)
}

/// `read` (the digest of a reading into new ids) on 1, 2 and 3 threads,
/// and with 3 asked for that cannot start (the caller reads alone): each
/// `want`.
fn read_alike_on_any_threads(
    want: &str,
    read: impl Fn() -> std::result::Result<String, TestCaseError>,
) -> std::result::Result<(), TestCaseError> {
    for n in [1, 2, 3] {
        prop_assert_eq!(with_threads(threads(n), &read)?, want, "{} threads", n);
    }
    let got = refusing_threads(|| with_threads(threads(3), &read))?;
    prop_assert_eq!(got, want, "no thread started");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn qrels_read_as_the_line_by_line_reader_does(input in input(qrels_line(), 4000)) {
        let mut ids = Ids::new();
        let mut seen = Vec::new();
        let want = oracle_qrels(&input, &mut ids, &mut seen);
        check_duplicate(&want, &seen);
        let want = qrels_digest(&want, &ids);
        read_alike_on_any_threads(&want, || {
            let mut ids = Ids::new();
            let got = read_trec_qrels_with(input.pieces(), &mut ids, input.syntax);
            Ok(qrels_digest(&got, &ids))
        })?;
    }

    /// Files without a pair judged twice (the other proptest's long files
    /// almost all end in `DuplicateQrel`), grouped by query or not,
    /// read into new ids or into ids that already hold some of their
    /// queries and documents: the same ids, names and judgements as
    /// the line-by-line reader on any number of threads.
    #[test]
    fn qrels_of_distinct_pairs_read_as_the_line_by_line_reader_does(
        pairs in proptest::collection::btree_map((0_u8..6, 0_u16..60), -1_i32..3, 0..200),
        order in proptest::collection::vec(any::<proptest::sample::Index>(), 0..200),
        grouped in any::<bool>(),
        known in any::<bool>(),
        sizes in proptest::collection::vec(1_usize..300, 1..4),
    ) {
        let mut lines: Vec<String> = pairs
            .iter()
            .map(|(&(q, d), &g)| format!("q{q} 0 d{d} {g}"))
            .collect();
        if !grouped {
            for (i, k) in order.iter().enumerate().take(lines.len()) {
                let j = k.index(lines.len());
                lines.swap(i, j);
            }
        }
        let input = Input {
            data: file(&lines, false, true, &[]),
            sizes,
            fail: None,
            syntax: TrecSyntax::Lenient,
        };
        // q1's d3 may be judged again by the file (its id is then
        // reused); d70 never is (documents are d0–d59).
        let before = known.then_some("q1 0 d3 1\nq4 0 d70 0\n");
        let mut ids = ids_after(before)?;
        let mut seen = Vec::new();
        let want = oracle_qrels(&input, &mut ids, &mut seen);
        prop_assert!(want.is_ok());
        let want = qrels_digest(&want, &ids);
        read_alike_on_any_threads(&want, || {
            let mut ids = ids_after(before)?;
            let got = read_trec_qrels(input.pieces(), &mut ids);
            Ok(qrels_digest(&got, &ids))
        })?;
    }

    #[test]
    fn runs_read_as_the_line_by_line_reader_does(
        input in input(run_line(), 6000),
        qrels_first in any::<bool>(),
    ) {
        let qrels = qrels_first.then_some("q2 0 d3 1\nq1 0 d6 0\nq1 0 d1 2\n");
        let mut ids = ids_after(qrels)?;
        let mut seen = Vec::new();
        let want = oracle_run(&input, &mut ids, &mut seen);
        check_duplicate(&want, &seen);
        let want = run_digest(&want, &ids);
        read_alike_on_any_threads(&want, || {
            let mut ids = ids_after(qrels)?;
            let got = read_trec_run_with(input.pieces(), &mut ids, input.syntax);
            Ok(run_digest(&got, &ids))
        })?;
    }
}

/// Records hold 32-bit offsets: a line ending past them in its block
/// (4 GiB; 4 KiB in the unit tests) is refused, on any number of
/// threads, and a line ending within them is read.
#[test]
fn a_line_past_the_offset_limit_is_refused() {
    let long = format!("q1 0 {} 1", "d".repeat(MAX_OFFSET));
    for n in [1, 2] {
        with_threads(threads(n), || {
            let mut ids = Ids::new();
            let qrels = format!("q1 0 d1 1\n{long}\nq1 0 d2 0\n");
            let got = read_trec_qrels(qrels.as_bytes(), &mut ids);
            assert!(
                matches!(got, Err(RelevanceError::TooLarge { quantity: "bytes in a line", requested, limit })
                    if requested == long.len() as u64 && limit == MAX_OFFSET as u64),
                "{n} threads: {got:?}"
            );
            let run = format!("q1 Q0 d1 1 0.5 t\n{long} 0.5 t\n");
            let got = read_trec_run(run.as_bytes(), &mut ids);
            assert!(
                matches!(
                    got,
                    Err(RelevanceError::TooLarge {
                        quantity: "bytes in a line",
                        ..
                    })
                ),
                "{n} threads: {got:?}"
            );
            // A line ending within the limit is read.
            let fits = format!("q1 0 {} 1\n", "d".repeat(MAX_OFFSET - 10));
            let got = read_trec_qrels(fits.as_bytes(), &mut Ids::new());
            assert_eq!(got.map(|q| q.len()).ok(), Some(1), "{n} threads");
        });
    }
}

#[test]
fn io_errors_name_the_line_being_read() {
    let data = b"q 0 d 1\nq 0 e 1\nq 0 f";
    for (fail, line) in [(0, 1), (5, 1), (8, 2), (12, 2), (16, 3), (19, 3)] {
        for n in [1, 2] {
            let got = with_threads(threads(n), || {
                read_trec_qrels(Pieces::new(data, &[3], Some(fail)), &mut Ids::new())
            });
            assert_eq!(
                got.map(|q| q.len()),
                Err(RelevanceError::Io {
                    line,
                    kind: ErrorKind::InvalidData
                }),
                "{fail}"
            );
        }
    }
    // An earlier bad line is reported first.
    let got = read_trec_qrels(
        Pieces::new(b"q 0 d\nq 0 e 1\n", &[4], Some(9)),
        &mut Ids::new(),
    );
    assert!(matches!(
        got,
        Err(RelevanceError::FieldCount { line: 1, .. })
    ));
}

/// Many blocks of many chunks (the test sizes: 64-byte chunks, 512-byte
/// blocks).
fn many_lines() -> Vec<u8> {
    (0..400)
        .map(|i| format!("q{} 0 d{i} {}\n", i / 50, i % 3))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn a_panic_while_parsing_reaches_the_caller_on_any_number_of_threads() {
    let data = many_lines();
    for n in [1, 2, 3, 5] {
        let outcome = std::panic::catch_unwind(|| {
            with_threads(threads(n), || {
                read_blocks(
                    data.as_slice(),
                    Sizes::DEFAULT,
                    |bytes, offset, out: &mut Parsed<i32>| {
                        // The chunk of line 301, in a block past the first.
                        let bad = bytes.windows(5).any(|w| w == b"d300 ");
                        assert!(!bad, "parsing fails at line 301");
                        parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
                    },
                    |_, _| Ok(()),
                )
            })
        });
        let message = outcome
            .err()
            .and_then(|p| {
                p.downcast_ref::<&str>()
                    .map(|m| (*m).to_owned())
                    .or_else(|| p.downcast_ref::<String>().cloned())
            })
            .unwrap_or_default();
        assert_eq!(message, "parsing fails at line 301", "{n}");
    }
}

/// An error while storing an early line comes before a panic while
/// parsing a later one (parsed ahead on two threads or more), as when
/// reading line by line.
#[test]
fn an_error_while_storing_comes_before_a_later_panic_while_parsing() {
    let data = many_lines();
    for n in [1, 2, 3, 5] {
        let got = with_threads(threads(n), || {
            read_blocks(
                data.as_slice(),
                Sizes::DEFAULT,
                |bytes, offset, out: &mut Parsed<i32>| {
                    assert!(!bytes.windows(5).any(|w| w == b"d300 "), "line 301");
                    parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
                },
                |block, parsed| {
                    let doc = |r: &Record<i32>| block.get(r.doc.0 as usize..r.doc.1 as usize);
                    if parsed.records.iter().any(|r| doc(r) == Some(b"d240")) {
                        // Line 241 is in block 7, line 301 in block 9
                        // (blocks of 64, 128, 256, then 512 bytes), which
                        // helpers parse ahead: time to parse it.
                        std::thread::sleep(Duration::from_millis(20));
                        return Err(RelevanceError::NotUtf8 { line: 241 });
                    }
                    Ok(())
                },
            )
        });
        assert!(
            matches!(got, Err(RelevanceError::NotUtf8 { line: 241 })),
            "{n}"
        );
    }
}

/// Reads `data` as qrels chunks on `n` threads, with `store`.
fn read_qrels_on(
    n: usize,
    data: &[u8],
    store: impl FnMut(&[u8], &Parsed<i32>) -> Result<()> + Send,
) -> Result<()> {
    with_threads(threads(n), || {
        read_blocks(
            data,
            Sizes::DEFAULT,
            |bytes, offset, out: &mut Parsed<i32>| {
                parse_qrels(bytes, offset, TrecSyntax::Lenient, out);
            },
            store,
        )
    })
}

#[test]
fn a_panic_or_an_error_while_storing_stops_the_helpers() {
    let data = many_lines();
    for n in [1, 2, 3] {
        let mut stored = 0;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            read_qrels_on(n, &data, |_, parsed| {
                stored += parsed.records.len();
                assert!(stored < 200, "storing fails");
                Ok(())
            })
        }));
        assert!(outcome.is_err(), "{n}");
        // An error: returned once the helpers have stopped.
        let mut calls = 0;
        let got = read_qrels_on(n, &data, |_, _| {
            calls += 1;
            if calls == 5 {
                Err(RelevanceError::BlankLine {
                    line: 7,
                    column: 1,
                    format: QRELS_FORMAT,
                })
            } else {
                Ok(())
            }
        });
        assert!(
            matches!(got, Err(RelevanceError::BlankLine { line: 7, .. })),
            "{n}"
        );
        assert_eq!(calls, 5, "{n}");
    }
}

#[test]
fn every_chunk_is_stored_once_in_order_on_any_number_of_threads() {
    let data = many_lines();
    for n in [1, 2, 3, 4, 7] {
        let mut lines = Vec::new();
        read_qrels_on(n, &data, |block, parsed| {
            for r in &parsed.records {
                lines.push(
                    block
                        .get(r.doc.0 as usize..r.doc.1 as usize)
                        .unwrap_or_default()
                        .to_vec(),
                );
            }
            Ok(())
        })
        .unwrap();
        // The documents `many_lines` writes, in its order.
        let written: Vec<Vec<u8>> = (0..400).map(|i| format!("d{i}").into_bytes()).collect();
        assert_eq!(lines, written, "{n}");
    }
}
