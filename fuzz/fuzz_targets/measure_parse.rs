//! Arbitrary text as measure names (issue 39: `acm trec -m`, the Python
//! `RelevanceEvaluator`'s measure sets): `Measure::parse_list`, a single
//! name, and `MeasureSelection` under both syntaxes and both tie modes
//! never panic; every measure they give prints a name that reads back as
//! itself; a selection holds each measure once, and under the tie-aware
//! mode only measures that have an expectation.
#![no_main]

use adaptive_comp_metrics::relevance::{Measure, MeasureSelection, MeasureSyntax, Ties};
use libfuzzer_sys::fuzz_target;

fn round_trips(m: Measure) {
    assert_eq!(m.to_string().parse::<Measure>(), Ok(m), "{m}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(list) = Measure::parse_list(text) {
        list.into_iter().for_each(round_trips);
    }
    if let Ok(m) = text.parse::<Measure>() {
        round_trips(m);
    }
    let specs: Vec<&str> = text.split(['\n', ' ']).collect();
    for syntax in [MeasureSyntax::TrecEval, MeasureSyntax::PytrecEval] {
        for ties in [Ties::TrecEval, Ties::Expected] {
            let Ok(selection) = MeasureSelection::parse(&specs, syntax, ties) else {
                continue;
            };
            let measures = selection.measures();
            for (i, &m) in measures.iter().enumerate() {
                round_trips(m);
                assert!(!measures[..i].contains(&m), "{m} twice");
                assert!(ties == Ties::TrecEval || m.has_expectation(), "{m}");
            }
            for note in selection.notes() {
                let _ = note.to_string();
            }
        }
    }
});
