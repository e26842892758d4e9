//! What the annotation server parses from a request, and what it reads from
//! files: the study URL's query string and participant ids (kept as bytes,
//! refused when not UTF-8, invisible or not printable ASCII), invitation
//! names, cookies, the same-origin check, the forms the pages post (answer,
//! CSRF, exclude, invite), task ids, a campaign state document, a stored
//! event row (the exclusion rule's JSON among them). Never panics; an id
//! accepted is printable ASCII of at most 128 characters; a state accepted
//! writes back to a document read as the same.
#![no_main]

use adaptive_comp_metrics_campaign::CampaignFile;
use adaptive_comp_metrics_serve::fuzzing;
use adaptive_comp_metrics_serve::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    match selector % 6 {
        0 => {
            for (name, value) in parse::query_pairs(&text) {
                let _ = parse::first(&[(name, value.clone())], "PROLIFIC_PID");
                if let Ok(id) = parse::participant_id(&value) {
                    assert!(!id.is_empty() && id.chars().count() <= parse::MAX_ID_CHARS);
                    assert!(id.bytes().all(|b| b.is_ascii_graphic()));
                    assert_eq!(parse::participant_id(id.as_bytes()), Ok(id.clone()));
                }
            }
            let _ = parse::percent_decode(&text);
        }
        1 => {
            let _ = parse::invitation_name(&text);
            let mut parts = text.splitn(3, '\n');
            let (a, b, c) = (parts.next(), parts.next(), parts.next());
            let _ = parse::cookie(a.into_iter(), "acm_session");
            let _ = parse::cross_site(a, b, c);
        }
        2 => fuzzing::forms(rest),
        3 => {
            if let Ok(f) = CampaignFile::from_json(rest) {
                let bytes = f.to_json().expect("an accepted state encodes");
                let again = CampaignFile::from_json(&bytes).expect("its bytes read back");
                assert_eq!(again.to_json().unwrap(), bytes);
                for label in text.split_whitespace().take(16) {
                    if let Ok(id) = f.parse_task(label) {
                        assert_eq!(f.parse_task(&f.task_label(id)), Ok(id));
                    }
                }
                let _ = f.status();
            }
        }
        4 => {
            // A task id of a small campaign's tag.
            let f = CampaignFile::from_json(SMALL).expect("the seed state");
            if let Ok(id) = f.parse_task(&text) {
                assert_eq!(f.parse_task(&f.task_label(id)), Ok(id));
            }
        }
        _ => {
            let mut b = rest.iter().copied();
            let mut n = |k: usize| -> i64 {
                (0..k).fold(0i64, |acc, _| acc << 8 | i64::from(b.next().unwrap_or(0)))
            };
            let (seq, at, kind, ballot, position, worker, vote) =
                (n(2), n(4), n(1) % 6, n(2) - 2, n(2) - 2, n(1) as u32, n(1) - 1);
            let data: String = text.chars().skip(15).collect();
            let opt = |v: i64| (v >= -1).then_some(v);
            let _ = fuzzing::decode_stored_event(
                seq,
                at,
                kind,
                opt(ballot),
                opt(position),
                (worker < 200).then_some(worker),
                opt(vote),
                (!data.is_empty()).then_some(data),
            );
        }
    }
});

/// A valid state (8 items, M = 2, 2 ballots, ballot 1 open), so that task
/// ids are parsed against a real tag.
const SMALL: &[u8] = include_bytes!("serve_small_state.json");
