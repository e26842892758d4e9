//! Arbitrary bytes as the inputs of `acm campaign` (issue 39: they lived in
//! the CLI, out of the fuzz crate's reach): an items table (`init
//! --items`), a platform's answers (`import --answers`), a columns file
//! (`input::parse_columns`, `acm corr`'s), and a campaign state file. Never
//! a panic; every error names the file and is short (echoed input cut); a
//! table read is consistent (one id, one text, the extra cells a row); a
//! state read writes back and reads again as the same state.
#![no_main]

use acm_cli::commands::campaign::{parse_columns, parse_table};
use adaptive_comp_metrics_campaign::CampaignFile;
use libfuzzer_sys::fuzz_target;

/// A failure as `acm` prints it: short, about the file.
fn short(f: &acm_cli::Failure) {
    let text = f.render().unwrap_or_default();
    assert!(text.len() < 4096, "{} bytes", text.len());
    assert!(text.starts_with("error: in.csv"), "{text}");
}

fuzz_target!(|data: &[u8]| {
    match parse_table("in.csv", data.to_vec(), "id", "text") {
        Ok(t) => {
            assert_eq!(t.ids.len(), t.texts.len());
            assert_eq!(t.ids.len(), t.extra.len());
            for row in &t.extra {
                assert_eq!(row.len(), t.extra_columns.len());
            }
            for (i, id) in t.ids.iter().enumerate() {
                assert!(!id.is_empty() && !t.ids[..i].contains(id), "{id:?}");
            }
        }
        Err(errors) => errors.iter().for_each(short),
    }
    match parse_columns("in.csv", data.to_vec(), &["task", "worker", "choice"]) {
        Ok((rows, errors)) => {
            assert!(rows.iter().all(|(_, cells)| cells.len() == 3));
            errors.iter().for_each(short);
        }
        Err(f) => short(&f),
    }
    for delimiter in [b',', b'\t'] {
        let _ = acm_cli::input::parse_columns(data, &["human", "model"], delimiter);
    }
    if let Ok(state) = CampaignFile::from_json(data) {
        let bytes = state.to_json().expect("a state read writes back");
        let again = CampaignFile::from_json(&bytes).expect("what was written reads back");
        assert_eq!(again.to_json().ok(), Some(bytes));
    }
});
