//! `acm triplets` (was the `triplets` example): results and bad inputs.

use crate::common::{FILE, Scratch, data, fails, ok, refuses, says};

#[test]
fn scores_the_sample_under_both_tie_policies() {
    let out = ok(&[
        "triplets",
        &data("tests/data/triplet/sample.txt"),
        &data("tests/data/triplet/sample.vec"),
    ]);
    assert!(out.starts_with("36 comparisons, 19 vectors"), "{out}");
    says(&out, "ties: half credit (default)");
    says(&out, "ties: count as choosing w2 (published evaluator)");
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
    refuses(
        &dir,
        &["triplets", FILE, &vectors],
        &[
            // Issue 17: an empty dataset printed `undefined` everywhere, status 0.
            (
                "empty.txt",
                b"",
                ": no comparisons: the dataset has no target block",
            ),
            // `artist,0.80,person,x`: field 4 starts at column 20.
            (
                "bad.txt",
                b"singer\nartist,0.80,person,x\n",
                ":2:20: field 4 is not a probability in [0, 1]",
            ),
        ],
    );
    // `b 1 zz`: component 2 starts at column 5.
    refuses(
        &dir,
        &["triplets", &dataset, FILE],
        &[(
            "bad.vec",
            b"2 2\na 1 2\nb 1 zz\n",
            ":3:5: component 2 is not a number",
        )],
    );
    // A byte-order mark before the vectors' header.
    let sample = std::fs::read(&vectors).unwrap();
    let bom = dir.file("bom.vec", [b"\xEF\xBB\xBF".as_slice(), &sample].concat());
    assert!(ok(&["triplets", &dataset, &bom]).starts_with("36 comparisons, 19 vectors"));
    let err = fails(&["triplets", "d", "v", "x"], 2);
    says(&err, "unexpected argument 'x'");
    let err = fails(&["triplets", "d"], 2);
    says(&err, "<VECTORS>");
}

#[test]
fn a_target_without_a_blank_line_is_read_with_lenient() {
    let vectors = data("tests/data/triplet/sample.vec");
    let missing = data("tests/data/triplet/missing_blank.txt");
    let err = fails(&["triplets", &missing, &vectors], 1);
    says(&err, "--lenient reads it as one");
    let (code, _, err) = crate::common::run(&["triplets", &missing, &vectors, "--lenient"]);
    assert_eq!(code, 0, "{err}");
    says(&err, "warning: ");
}
