//! `acm lexsub` (was the `lexsub` example): results and bad inputs.

use crate::common::{FILE, Scratch, data, fails, ok, refuses, says};

#[test]
fn errors_name_file_line_and_column() {
    let dir = Scratch::new("lexsub");
    let system = data("tests/data/lexsub/system.best");
    let run = |gold: &str| fails(&["lexsub", gold, &system], 1);
    // Issue 17: an empty gold printed an all-`n/a` table and exited 0.
    let empty = dir.file("empty.txt", b"\n");
    assert_eq!(
        run(&empty),
        format!("error: {empty}: no gold items: the file has no item line")
    );
    assert_eq!(
        fails(&["lexsub", &empty, &system, "--profile", "score-pl"], 1),
        format!("error: {empty}: no gold items: the file has no item line")
    );
    refuses(
        &dir,
        &["lexsub", FILE, &system],
        &[
            // The count starts at column 17 of `bright.a 1 :: a 99999999999999999999999;`.
            (
                "overflow.txt",
                b"bright.a 1 :: a 99999999999999999999999;\n",
                ":1:17: annotator count overflows (at most 4294967295)",
            ),
            // An item named twice: the second naming, at the id (column 10).
            (
                "twice.txt",
                b"bright.a 1 :: a 3;\nbright.a 1 :: b 2;\n",
                ":2:10: duplicate item id 1 in the gold",
            ),
        ],
    );
    let syntax = dir.file("syntax.txt", b"bright.a 1 :: a 3;\nnonsense\n");
    let err = run(&syntax);
    assert!(
        err.starts_with(&format!("error: {syntax}:2: expected ")),
        "{err}"
    );
}

#[test]
fn reads_a_byte_order_mark_and_refuses_extra_arguments() {
    let dir = Scratch::new("lexsub_bom");
    let gold = std::fs::read(data("tests/data/lexsub/gold.txt")).unwrap();
    let system = data("tests/data/lexsub/system.best");
    let plain = ok(&["lexsub", &data("tests/data/lexsub/gold.txt"), &system]);
    let with_bom = dir.file("gold.txt", [b"\xEF\xBB\xBF".as_slice(), &gold].concat());
    assert_eq!(ok(&["lexsub", &with_bom, &system]), plain);
    assert!(plain.starts_with("gold items scored: 5"), "{plain}");
    let err = fails(&["lexsub", "g", "s", "x"], 2);
    says(&err, "unexpected argument 'x'");
}

#[test]
fn best_oot_and_score_pl_outputs() {
    let gold = data("tests/data/lexsub/gold.txt");
    let best = ok(&["lexsub", &gold, &data("tests/data/lexsub/system.best")]);
    says(&best, "best                         46.11     27.67");
    let oot = ok(&[
        "lexsub",
        &gold,
        &data("tests/data/lexsub/system.oot"),
        "-t",
        "oot",
    ]);
    assert!(oot.lines().any(|l| l.starts_with("oot ")), "{oot}");
    assert!(!oot.contains("oot (= Jabbari oot)"), "{oot}");
    let pl = ok(&[
        "lexsub",
        &gold,
        &data("tests/data/lexsub/wellformed.best"),
        "--profile",
        "score-pl",
    ]);
    assert!(!pl.contains("gold items scored"), "{pl}");
    let csv = ok(&[
        "lexsub",
        &gold,
        &data("tests/data/lexsub/system.best"),
        "--format",
        "csv",
    ]);
    assert!(
        csv.starts_with("measure,precision,recall,attempted,items\n"),
        "{csv}"
    );
    says(&csv, "\nbest,0.4611");
}
