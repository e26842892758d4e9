//! `acm triplets` (was the `triplets` example): results and bad inputs.

use crate::common::{Scratch, data, fails, ok};

#[test]
fn scores_the_sample_under_both_tie_policies() {
    let out = ok(&[
        "triplets",
        &data("tests/data/triplet/sample.txt"),
        &data("tests/data/triplet/sample.vec"),
    ]);
    assert!(out.starts_with("36 comparisons, 19 vectors"), "{out}");
    assert!(out.contains("ties: half credit (default)"), "{out}");
    assert!(
        out.contains("ties: count as choosing w2 (published evaluator)"),
        "{out}"
    );
    let csv = ok(&[
        "triplets",
        &data("tests/data/triplet/sample.txt"),
        &data("tests/data/triplet/sample.vec"),
        "--format",
        "csv",
    ]);
    assert!(
        csv.starts_with("ties,type,score,scored,skipped,ties_found\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 9);
}

#[test]
fn errors_name_file_line_and_column() {
    let dir = Scratch::new("triplets");
    let vectors = data("tests/data/triplet/sample.vec");
    let dataset = data("tests/data/triplet/sample.txt");
    // Issue 17: an empty dataset printed `undefined` everywhere, status 0.
    let empty = dir.file("empty.txt", b"");
    assert_eq!(
        fails(&["triplets", &empty, &vectors], 1),
        format!("error: {empty}: no comparisons: the dataset has no target block")
    );
    // `artist,0.80,person,x`: field 4 starts at column 20.
    let bad = dir.file("bad.txt", b"singer\nartist,0.80,person,x\n");
    assert_eq!(
        fails(&["triplets", &bad, &vectors], 1),
        format!("error: {bad}:2:20: field 4 is not a probability in [0, 1]")
    );
    // `b 1 zz`: component 2 starts at column 5.
    let vec = dir.file("bad.vec", b"2 2\na 1 2\nb 1 zz\n");
    assert_eq!(
        fails(&["triplets", &dataset, &vec], 1),
        format!("error: {vec}:3:5: component 2 is not a number")
    );
    // A byte-order mark before the vectors' header.
    let sample = std::fs::read(&vectors).unwrap();
    let bom = dir.file("bom.vec", [b"\xEF\xBB\xBF".as_slice(), &sample].concat());
    assert!(ok(&["triplets", &dataset, &bom]).starts_with("36 comparisons, 19 vectors"));
    let err = fails(&["triplets", "d", "v", "x"], 2);
    assert!(err.contains("unexpected argument 'x'"), "{err}");
    let err = fails(&["triplets", "d"], 2);
    assert!(err.contains("<VECTORS>"), "{err}");
}

#[test]
fn a_target_without_a_blank_line_is_read_with_lenient() {
    let vectors = data("tests/data/triplet/sample.vec");
    let missing = data("tests/data/triplet/missing_blank.txt");
    let err = fails(&["triplets", &missing, &vectors], 1);
    assert!(err.contains("--lenient reads it as one"), "{err}");
    let (code, _, err) = crate::common::run(&["triplets", &missing, &vectors, "--lenient"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: "), "{err}");
}
