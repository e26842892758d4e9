//! SemEval-2007 measures and the revised measures over the sample files in
//! `tests/data/lexsub/`, with every expected value worked out by hand in
//! the comments, and one test per edge-case policy.
//!
//! Gold (`gold.txt`):
//!
//! ```text
//! 1 bright.a  intelligent 3; clever 2; smart 1                 |H|=6  mode intelligent
//! 2 bright.a  luminous 2; shining 2; vivid 1                   |H|=5  no mode
//! 3 bright.a  cheerful 1         (dropped by Semeval2007: one response, one annotator)
//! 4 match.n   game 4; contest 1; fixture 1                     |H|=6  mode game
//! 5 match.n   counterpart 2; equal 1; peer 1; well-matched 1   |H|=5  mode counterpart
//! 6 happy.a   glad 3; merry 3; sunny 2; jovial 1; cheerful 1   |H|=10 no mode
//! ```

// Exact comparisons are only made with 0, 1 and dyadic fractions (0.5, 0.75),
// which the measures produce exactly.
#![allow(clippy::float_cmp)]

use std::fs::File;
use std::io::BufReader;
use std::num::NonZeroUsize;

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, GoldItem, LexsubError, Measure, Mode, Outcome, Penalty, Percent, Profile, Side,
    SystemAnswer, Totals, gap, read_gold, read_system, revised, semeval,
};

use crate::system_answers;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lexsub/");

fn gold() -> Vec<GoldItem> {
    let f = BufReader::new(File::open(format!("{DIR}gold.txt")).unwrap());
    read_gold(f, Mode::Strict).unwrap().items
}

fn system(name: &str, format: Format) -> Vec<SystemAnswer> {
    let f = BufReader::new(File::open(format!("{DIR}{name}")).unwrap());
    read_system(f, format, Mode::Strict).unwrap().items
}

/// The bundled gold file paired with the bundled system file `name`.
fn bundled(name: &str, format: Format, profile: Profile) -> Corpus {
    Corpus::new(&gold(), &system(name, format), profile).unwrap()
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-12)
}

fn answer(id: &str, target: &str, answers: &[&str]) -> SystemAnswer {
    SystemAnswer {
        id: id.into(),
        target: target.into(),
        answers: answers.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn best_file_semeval_profile() {
    let c = bundled("system.best", Format::Best, Profile::Semeval2007);
    assert_eq!(c.dropped(), ["3"]);
    assert!(c.unmatched().is_empty());
    let s = semeval::best_scores(&c);
    // item 1: {clever, intelligent}: (2 + 3)/(6·2) = 5/12
    // item 2: empty line: not attempted, 0 (score.pl would add item 1's credit)
    // item 4: {game, game} → {game}: 4/(6·1) = 2/3 (score.pl: 8/12 too, by luck of |A|)
    // item 5: no line: not attempted
    // item 6: {glad}: 3/10
    // Σ = 5/12 + 2/3 + 3/10 = 83/60; attempted 3, items 5
    let sum = 83.0 / 60.0;
    assert_eq!((s.best.attempted, s.best.items), (3, 5));
    assert!(close(s.best.precision(), sum / 3.0)); // 0.461111
    assert!(close(s.best.recall(), sum / 5.0)); // 0.276667
    assert_eq!(Percent(s.best.precision()).to_string(), "46.11");
    assert_eq!(Percent(s.best.recall()).to_string(), "27.67");
    // mode-best: items with a unique mode are 1, 4, 5; attempted 1 and 4.
    // item 1 first answer clever ≠ intelligent → 0; item 4 game → 1.
    assert_eq!((s.mode.attempted, s.mode.items), (2, 3));
    assert!(close(s.mode.precision(), 0.5));
    assert!(close(s.mode.recall(), 1.0 / 3.0));
}

#[test]
fn best_file_strict_profile_keeps_the_lone_item() {
    let c = bundled("system.best", Format::Best, Profile::Strict);
    assert!(c.dropped().is_empty());
    let s = semeval::best_scores(&c);
    // item 3 now counts: {cheerful}: 1/(1·1) = 1. Σ = 83/60 + 1 = 143/60.
    assert_eq!((s.best.attempted, s.best.items), (4, 6));
    assert!(close(s.best.precision(), 143.0 / 60.0 / 4.0));
    assert!(close(s.best.recall(), 143.0 / 60.0 / 6.0));
    // item 3 has mode cheerful and answers it: mode items 1, 3, 4, 5 → 2 hits
    assert_eq!((s.mode.attempted, s.mode.items), (3, 4));
    assert!(close(s.mode.precision(), 2.0 / 3.0));
}

#[test]
fn best_file_revised_measures() {
    let c = bundled("system.best", Format::Best, Profile::Semeval2007);
    let r = revised::revised_scores(&c, Penalty::ONE);
    // attempted: 1, 4, 6 (item 2's line is empty); items 5
    // new best: 1: 5/(3·2) = 5/6; 4: 4/(4·1) = 1; 6: 3/(3·1) = 1 → Σ 17/6
    assert!(close(r.new_best.precision(), 17.0 / 6.0 / 3.0));
    assert!(close(r.new_best.recall(), 17.0 / 6.0 / 5.0));
    // best-1: 1: clever 2/3; 4: 1; 6: 1 → Σ 8/3
    assert!(close(r.best1.precision(), 8.0 / 3.0 / 3.0));
    assert!(close(r.best1.recall(), 8.0 / 3.0 / 5.0));
    // weighted P (k = 1): 1: 5/5; 4: 4/4; 6: 3/3 → Σ 3 over 3 attempted
    assert!(close(r.precision.precision(), 1.0));
    // weighted R: 1: 5/6; 4: 4/6; 6: 3/10 → Σ 1.8 over 5 items
    assert!(close(r.recall.recall(), 1.8 / 5.0));
}

#[test]
fn oot_file_semeval_profile() {
    let c = bundled("system.oot", Format::Oot, Profile::Semeval2007);
    assert_eq!(c.unmatched(), ["99"]);
    let s = semeval::oot_scores(&c);
    // 1: clever 2 + intelligent 3 + smart 1 = 6/6 = 1
    // 2: vivid 1 + luminous 2 + shining 2 = 5/5 = 1
    // 4: {contest, game} (game ten times counts once) = 5/6
    //    (score.pl credits each copy: 1/6 + 10·4/6 = 41/6 ≈ 683 %)
    // 5: equal 1 + "well matched" 1 (gold well-matched, hyphen → space) + peer 1 = 3/5
    // 6: first 10 distinct: content joyful pleased elated blissful glad merry sunny
    //    jovial happy → 3 + 3 + 2 + 1 = 9/10; cheerful is the 11th, not counted
    // Σ = 1 + 1 + 5/6 + 3/5 + 9/10 = 13/3; attempted 5, items 5
    assert_eq!((s.oot.attempted, s.oot.items), (5, 5));
    assert!(close(s.oot.precision(), 13.0 / 15.0));
    assert!(close(s.oot.recall(), 13.0 / 15.0));
    assert_eq!(Percent(s.oot.recall()).to_string(), "86.67");
    // mode-oot: 1 intelligent ∈ → 1; 4 game ∈ → 1; 5 counterpart ∉ → 0
    assert!(close(s.mode.precision(), 2.0 / 3.0));
    // revised recall has no limit of 10: item 6 gets 10/10
    let r = revised::revised_scores(&c, Penalty::ONE);
    assert!(close(
        r.recall.recall(),
        (1.0 + 1.0 + 5.0 / 6.0 + 0.6 + 1.0) / 5.0
    ));
}

#[test]
fn oot_file_strict_profile_keeps_hyphens() {
    let c = Corpus::new(&gold(), &system("system.oot", Format::Oot), Profile::Strict).unwrap();
    let s = semeval::oot_scores(&c);
    // item 5: "well matched" no longer matches "well-matched": 2/5
    // Σ = 1 + 1 + 5/6 + 2/5 + 9/10 = 62/15; attempted 5, items 6 (item 3 kept)
    assert!(close(s.oot.precision(), 62.0 / 15.0 / 5.0));
    assert!(close(s.oot.recall(), 62.0 / 15.0 / 6.0));
}

#[test]
fn gap_on_the_oot_file() {
    let c = bundled("system.oot", Format::Oot, Profile::Semeval2007);
    let scores = c.item_scores(Measure::Gap);
    // item 1: x = (2, 3, 1, 0, 0): p̄ = 2, 5/2, 2 → 6.5; y = (3, 2, 1): ȳ = 3, 5/2, 2 → 7.5
    assert_eq!(scores[0].id, "1");
    match scores[0].outcome {
        Outcome::Scored(v) => assert!((v - 6.5 / 7.5).abs() < 1e-12),
        other => panic!("{other:?}"),
    }
    // item 4: x = (1, 4): p̄ = 1, 5/2 → 3.5; y = (4, 1, 1): ȳ = 4, 5/2, 2 → 8.5
    match scores[2].outcome {
        Outcome::Scored(v) => assert!((v - 3.5 / 8.5).abs() < 1e-12),
        other => panic!("{other:?}"),
    }
}

#[test]
fn precision_and_recall_at_k_macro_and_micro() {
    let gold = [
        GoldItem::new("1", "w.n", [("a", 1), ("b", 1)]).unwrap(),
        GoldItem::new("2", "w.n", [("c", 1), ("d", 1), ("e", 1), ("f", 1)]).unwrap(),
        GoldItem::new("3", "w.n", [("g", 1), ("h", 1), ("i", 1)]).unwrap(),
    ];
    let sys = [
        answer("1", "w.n", &["a", "x", "b"]),
        answer("2", "w.n", &["d", "c", "e"]),
    ];
    let c = Corpus::new(&gold, &sys, Profile::Strict).unwrap();
    let k = NonZeroUsize::new(2).unwrap();
    // hits@2: item 1 → 1, item 2 → 2, item 3 not attempted
    // macro P = (1/2 + 2/2)/2 = 0.75; macro R = (1/2 + 2/4 + 0)/3 = 1/3
    let m = gap::at_k(&c, k, gap::Averaging::Macro);
    assert!(close(m.precision, 0.75));
    assert!(close(m.recall, 1.0 / 3.0));
    // micro P = 3/(2·2) = 0.75; micro R = 3/(2 + 4 + 3) = 1/3 … choose k = 3 to separate:
    let k3 = NonZeroUsize::new(3).unwrap();
    // hits@3: 2 and 3. macro R = (2/2 + 3/4 + 0)/3 = 7/12; micro R = 5/9
    let ma = gap::at_k(&c, k3, gap::Averaging::Macro);
    let mi = gap::at_k(&c, k3, gap::Averaging::Micro);
    assert!(close(ma.recall, 7.0 / 12.0));
    assert!(close(mi.recall, 5.0 / 9.0));
    assert!(close(ma.precision, 5.0 / 6.0)); // (2/3 + 3/3)/2
    assert!(close(mi.precision, 5.0 / 6.0)); // 5/(3·2)
}

// ---- edge-case policies ----

fn bright() -> GoldItem {
    GoldItem::new(
        "1",
        "bright.a",
        [("intelligent", 3), ("clever", 2), ("smart", 1)],
    )
    .unwrap()
}

/// The corpus of item 1 of `bright()` answered with `answers`.
fn bright_answered(answers: &[&str], profile: Profile) -> Corpus {
    Corpus::new(&[bright()], &[answer("1", "bright.a", answers)], profile).unwrap()
}

#[test]
fn policy_empty_answer_list_scores_zero_and_is_not_attempted() {
    let c = bright_answered(&[], Profile::Semeval2007);
    for m in [
        Measure::Best,
        Measure::Oot,
        Measure::NewBest,
        Measure::Best1,
        Measure::Rank,
        Measure::Gap,
    ] {
        let t = c.totals(m);
        assert_eq!(
            t,
            Totals {
                credit: 0.0,
                attempted: 0,
                items: 1
            },
            "{m:?}"
        );
    }
    assert_eq!(c.totals(Measure::ModeBest).precision(), None);
    assert_eq!(c.totals(Measure::ModeBest).recall(), Some(0.0));
    assert_eq!(c.totals(Measure::Precision(Penalty::ONE)).precision(), None);
    assert_eq!(
        c.item_scores(Measure::Best)[0].outcome,
        Outcome::NotAttempted
    );
    // the per-item functions score an empty list 0, never NaN
    let none: [&str; 0] = [];
    for m in [
        Measure::Best,
        Measure::Oot,
        Measure::NewBest,
        Measure::Best1,
        Measure::Recall,
        Measure::Precision(Penalty::ONE),
        Measure::Rank,
        Measure::Gap,
    ] {
        assert_eq!(m.score(&bright(), &none), Some(0.0), "{m:?}");
    }
    assert_eq!(semeval::mode_best(&bright(), &none), Some(0.0));
    // answers that normalise to nothing are an empty answer too
    let c = bright_answered(&["  ", "\t"], Profile::Strict);
    assert_eq!(c.items()[0].answers(), None);
}

#[test]
fn policy_empty_line_never_borrows_the_previous_answers() {
    let text = "bright.a 1 :: intelligent\nbright.a 2 ::\n";
    let sys = system_answers(text, Format::Best);
    let g2 = GoldItem::new("2", "bright.a", [("intelligent", 2), ("vivid", 1)]).unwrap();
    let c = Corpus::new(&[bright(), g2], &sys, Profile::Semeval2007).unwrap();
    let s = c.item_scores(Measure::Best);
    assert_eq!(s[1].outcome, Outcome::NotAttempted);
    // item 1: 3/6; item 2 gets nothing (score.pl would add 2/3 from item 1's answer)
    let t = c.totals(Measure::Best);
    assert_eq!((t.credit, t.attempted, t.items), (0.5, 1, 2));
}

#[test]
fn policy_duplicates_removed_before_scoring() {
    let g = bright();
    // ten copies of the mode: oot 3/6, not 10·3/6
    let ten = ["intelligent"; 10];
    assert!((semeval::oot(&g, &ten) - 0.5).abs() < 1e-12);
    assert_eq!(
        semeval::best(&g, &["intelligent", "intelligent"]),
        semeval::best(&g, &["intelligent"])
    );
    // duplicates created by normalisation (hyphen, whitespace) count once as well
    let c = bright_answered(&["clever", " clever ", "smart"], Profile::Strict);
    assert_eq!(
        c.items()[0].answers(),
        Some(&["clever".to_string(), "smart".to_string()][..])
    );
    // best = (2 + 1)/(6·2) = 1/4, not (2 + 2 + 1)/(6·3)
    assert!(close(c.totals(Measure::Best).precision(), 0.25));
}

#[test]
fn policy_missing_items_count_in_recall_only() {
    let g2 = GoldItem::new("2", "bright.a", [("vivid", 1), ("shining", 1)]).unwrap();
    let c = Corpus::new(
        &[bright(), g2],
        &[answer("1", "bright.a", &["intelligent"])],
        Profile::Strict,
    )
    .unwrap();
    let t = c.totals(Measure::Best); // 3/6 on item 1
    assert_eq!((t.attempted, t.items), (1, 2));
    assert!(close(t.precision(), 0.5));
    assert!(close(t.recall(), 0.25));
    assert_eq!(
        c.item_scores(Measure::Best)[1].outcome,
        Outcome::NotAttempted
    );
}

#[test]
fn policy_nothing_attempted_is_undefined_not_a_panic() {
    let c = Corpus::new(&[bright()], &[], Profile::Semeval2007).unwrap();
    let s = semeval::best_scores(&c);
    assert_eq!(s.best.precision(), None);
    assert_eq!(s.best.recall(), Some(0.0));
    assert_eq!(Percent(s.best.precision()).to_string(), "n/a");
    // and an empty gold: nothing is defined
    let c = Corpus::new(
        &[],
        &[answer("1", "bright.a", &["x"])],
        Profile::Semeval2007,
    )
    .unwrap();
    assert_eq!(c.totals(Measure::Oot).recall(), None);
    assert_eq!(c.unmatched(), ["1"]);
}

#[test]
fn policy_items_without_unique_mode_leave_the_mode_measures() {
    let tied = GoldItem::new("2", "bright.a", [("vivid", 2), ("shining", 2)]).unwrap();
    let c = Corpus::new(
        &[bright(), tied],
        &[
            answer("1", "bright.a", &["intelligent"]),
            answer("2", "bright.a", &["vivid"]),
        ],
        Profile::Strict,
    )
    .unwrap();
    let t = c.totals(Measure::ModeBest);
    assert_eq!(
        t,
        Totals {
            credit: 1.0,
            attempted: 1,
            items: 1
        }
    );
    assert_eq!(
        c.item_scores(Measure::ModeOot)[1].outcome,
        Outcome::NotApplicable
    );
    // …but the revised best-1 still credits the tied top answer fully
    assert!(close(c.totals(Measure::Best1).precision(), 1.0));
}

#[test]
fn policy_fewer_than_ten_gold_substitutes() {
    // |H| = 3: cumH = 3 5 6 6 6 6 6 6 6 6. Answer (clever, smart):
    // cumA = 2 3 3 3 3 3 3 3 3 3 → rank = (2/3 + 3/5 + 8·3/6)/10 = 0.52667
    let r = revised::rank(&bright(), &["clever", "smart"]);
    assert!((r - (2.0 / 3.0 + 0.6 + 4.0) / 10.0).abs() < 1e-12);
    // the optimal list of 3 scores 1 though it is shorter than 10
    assert!((revised::rank(&bright(), &["intelligent", "clever", "smart"]) - 1.0).abs() < 1e-12);
    // more than 10 answers: oot and rank read the first 10 distinct, recall all
    let mut long: Vec<String> = (0..10).map(|i| format!("w{i}")).collect();
    long.push("intelligent".into());
    assert_eq!(semeval::oot(&bright(), &long), 0.0);
    assert_eq!(revised::rank(&bright(), &long), 0.0);
    assert!((revised::recall(&bright(), &long) - 0.5).abs() < 1e-12);
}

#[test]
fn policy_case_is_kept_whitespace_is_collapsed() {
    let c = bright_answered(&["Intelligent", "  smart  "], Profile::Semeval2007);
    // "Intelligent" ≠ "intelligent"; "  smart  " = "smart": best = 1/(6·2)
    assert!(close(c.totals(Measure::Best).precision(), 1.0 / 12.0));
    let multi = GoldItem::new("3", "cheer.v", [("cheer up", 2), ("gladden", 1)]).unwrap();
    let c = Corpus::new(
        &[multi],
        &[answer("3", "cheer.v", &["cheer \t up"])],
        Profile::Strict,
    )
    .unwrap();
    assert!(close(c.totals(Measure::Best).precision(), 2.0 / 3.0));
}

#[test]
fn policy_apostrophes_and_hyphens_semeval2007() {
    let g = GoldItem::new("4", "x.n", [("o'clock", 2), ("well-being", 1)]).unwrap();
    let c = Corpus::new(
        &[g],
        &[answer("4", "x.n", &["o'clock", "well being"])],
        Profile::Semeval2007,
    )
    .unwrap();
    // both sides lose the apostrophe and the hyphen: both answers match → 3/3
    assert!(close(c.totals(Measure::Oot).precision(), 1.0));
}

#[test]
fn errors_duplicate_ids_and_target_mismatch() {
    let err = Corpus::new(&[bright(), bright()], &[], Profile::Strict).unwrap_err();
    assert_eq!(
        err,
        LexsubError::DuplicateId {
            id: "1".into(),
            side: Side::Gold
        }
    );
    assert_eq!(err.to_string(), "duplicate item id 1 in the gold");
    let a = answer("1", "bright.a", &["x"]);
    let err = Corpus::new(&[bright()], &[a.clone(), a], Profile::Strict).unwrap_err();
    assert_eq!(
        err,
        LexsubError::DuplicateId {
            id: "1".into(),
            side: Side::System
        }
    );
    let err = Corpus::new(
        &[bright()],
        &[answer("1", "dim.a", &["x"])],
        Profile::Strict,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "item 1: target dim.a in the system output, bright.a in the gold"
    );
}

#[test]
fn errors_invalid_penalty() {
    for k in [-1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            Penalty::new(k),
            Err(LexsubError::InvalidParameter { .. })
        ));
    }
}

#[test]
fn gap_sorts_the_gold_by_weight() {
    // Gold listed in ascending order; a GAP that forgets to sort would use
    // ȳ = 1, 3/2, 2 → 4.5 and give 4.5/4.5 = 1 for the list below.
    // Sorted: x = (1, 3, 0, 2): p̄ = 1, 2, 4/3, 3/2 → 1 + 2 + 3/2 = 4.5;
    // y = (3, 2, 1): ȳ = 3, 5/2, 2 → 7.5. GAP = 0.6.
    let g = GoldItem::new("1", "w.n", [("c", 1), ("b", 2), ("a", 3)]).unwrap();
    assert!((gap::gap(&g, &["c", "a", "x", "b"]) - 0.6).abs() < 1e-12);
    // the optimal order scores 1; repeats never push GAP above 1
    assert!((gap::gap(&g, &["a", "b", "c"]) - 1.0).abs() < 1e-12);
    assert!(gap::gap(&g, &["a", "a", "a", "b", "b", "c"]) <= 1.0);
    assert_eq!(gap::gap(&g, &[] as &[&str]), 0.0);
}

#[test]
fn official_numbers_on_well_formed_files() {
    // `score_pl_model.out` holds the numbers a model of score.pl
    // (`tests/data/lexsub/score_pl_model.py`, defects included) prints for
    // the well-formed sample files: P, R, mode P, mode R in percent.
    // Hand check of the best file: 1: (3+1)/(6·2) = 1/3; 2: 2/5; 4: 4/6;
    // 5: (1+1)/(5·3) = 2/15; 6: (3+1)/(10·3) = 2/15 → Σ = 5/3 over 5 = 33.33 %.
    let expected = std::fs::read_to_string(format!("{DIR}score_pl_model.out")).unwrap();
    let mut rows = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let format = if f[0].ends_with(".oot") {
            Format::Oot
        } else {
            Format::Best
        };
        let c = Corpus::new(&gold(), &system(f[0], format), Profile::Semeval2007).unwrap();
        let (main, mode) = match format {
            Format::Oot => (c.totals(Measure::Oot), c.totals(Measure::ModeOot)),
            Format::Best => (c.totals(Measure::Best), c.totals(Measure::ModeBest)),
        };
        let ours = [
            Percent(main.precision()).to_string(),
            Percent(main.recall()).to_string(),
            Percent(mode.precision()).to_string(),
            Percent(mode.recall()).to_string(),
        ];
        assert_eq!(ours, f[1..], "{}", f[0]);
        rows += 1;
    }
    assert_eq!(rows, 2);
}

#[test]
fn defect_fixed_hyphenated_mode_can_match() {
    // score.pl compares the mode with its hyphen but the answer without:
    // a hyphenated mode never matches there. Here both sides lose the hyphen.
    let g = GoldItem::new("8", "fit.a", [("well-suited", 3), ("apt", 1)]).unwrap();
    for answer_text in ["well-suited", "well suited"] {
        let c = Corpus::new(
            std::slice::from_ref(&g),
            &[answer("8", "fit.a", &[answer_text])],
            Profile::Semeval2007,
        )
        .unwrap();
        assert_eq!(c.totals(Measure::ModeBest).precision(), Some(1.0));
        assert_eq!(c.totals(Measure::ModeOot).precision(), Some(1.0));
    }
}

#[test]
fn defect_fixed_crlf_does_not_hide_the_last_answer() {
    // system.oot has CRLF endings; item 5's last answer "peer" still earns
    // its credit (1/5), which score.pl would miss ("peer\r").
    let c = bundled("system.oot", Format::Oot, Profile::Semeval2007);
    let five = c.items().iter().find(|p| p.gold().id() == "5").unwrap();
    assert_eq!(
        five.answers().unwrap().last().map(String::as_str),
        Some("peer")
    );
    let s = Measure::Oot.score(five.gold(), five.answers().unwrap());
    assert!(close(s, 0.6));
}
