//! What the fuzz targets drive (cargo feature `fuzzing`; not for other use):
//! the engine run on a sequence of requests against an in-memory store, and
//! the decoding of a stored event. The pure parsers are [`crate::parse`]'s,
//! the state's and task ids' are the campaign crate's.

use adaptive_comp_metrics::ballot::{BallotConfig, ExclusionRule};

pub use crate::testing::{Ran, Step};

use crate::engine::Policy;
use crate::store::{EventColumns, decode_event};

/// Runs `steps` on a small campaign (`seed`; controls at a fifth of the
/// tasks) with a quota of `quota` (0: none) and, when `rule`, the exclusion
/// rule 75 % over 2 control answers, checking the engine's invariants after
/// each step (see the engine's tests).
///
/// # Errors
/// The first invariant broken.
pub fn run_engine(seed: u64, quota: u8, rule: bool, steps: &[Step]) -> Result<Ran, String> {
    let Ok(config) = BallotConfig::new(10, 2, 0.5, 3) else {
        return Ok(Ran::default());
    };
    let Some(file) = crate::testing::campaign(config, 0.2, seed) else {
        return Ok(Ran::default());
    };
    let policy = Policy {
        quota: (quota > 0).then_some(usize::from(quota)),
        lease_ms: 20_000,
        rule: rule.then(|| ExclusionRule::new(0.75, 2).ok()).flatten(),
    };
    crate::testing::drive(file, policy, steps)
}

/// Decodes a stored event row: `Some(description)` of what it holds, or
/// `None` for a row this version does not read (never a panic).
#[must_use]
#[allow(clippy::too_many_arguments)]
pub fn decode_stored_event(
    seq: i64,
    at_ms: i64,
    kind: i64,
    ballot: Option<i64>,
    position: Option<i64>,
    worker: Option<u32>,
    vote: Option<i64>,
    data: Option<String>,
) -> Option<String> {
    decode_event(&EventColumns {
        seq,
        at_ms,
        kind,
        ballot,
        position,
        worker,
        vote,
        data,
    })
    .map(|e| format!("{e:?}"))
}

/// Reads `body` as each form the pages post, as axum's `Form` does, and
/// takes each through what the server does with it: the choice, the
/// invitation names. Never panics.
pub fn forms(body: &[u8]) {
    use crate::parse::{self, forms};
    let _ = serde_urlencoded::from_bytes::<forms::Csrf>(body);
    if let Ok(a) = serde_urlencoded::from_bytes::<forms::Answer>(body) {
        let _ = parse::choice(a.choice.as_deref(), true);
        let _ = parse::choice(a.choice.as_deref(), false);
    }
    let _ = serde_urlencoded::from_bytes::<forms::Exclude>(body);
    if let Ok(i) = serde_urlencoded::from_bytes::<forms::Invite>(body)
        && let Ok(names) = parse::invitation_names(i.names.as_deref(), i.count.as_deref(), 7)
    {
        assert!(names.len() <= parse::MAX_INVITATIONS + body.len());
        assert!(names.iter().all(|n| parse::invitation_name(n).is_ok()));
    }
}
