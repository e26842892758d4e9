//! The campaign's state file: one JSON document holding the items, the
//! control items, the library's [`Campaign`] (ballots, tasks, answers,
//! workers, exclusions) and the two generators' positions. Written only
//! through `files::write_atomic`.

use std::fs;

use adaptive_comp_metrics::ballot::{Campaign, TaskId};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::files::{Table, write_atomic};
use super::{Env, Failure, Outcome};

/// What the file says it is.
pub const FORMAT: &str = "adaptive-comp-metrics campaign";
/// The state layout version.
pub const VERSION: u32 = 1;

/// The stream of the generator that draws ballots (and breaks ties in the
/// ranking): the same sequence as an in-memory `Scheduler` driven with
/// `ChaCha8Rng::seed_from_u64(seed)`.
pub const BALLOT_STREAM: u64 = 0;
/// The stream of the generator that places control tasks.
pub const LAYOUT_STREAM: u64 = 1;

/// A ChaCha8 generator's position: seed, stream, word position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// The stream.
    pub stream: u64,
    /// The word position, in decimal (a `u128`).
    pub word_pos: String,
}

impl RngState {
    /// The generator at this position.
    ///
    /// # Errors
    /// A word position that is not a number.
    pub fn generator(&self, seed: u64) -> Result<ChaCha8Rng, Failure> {
        let pos: u128 = self
            .word_pos
            .parse()
            .map_err(|_| Failure::new("corrupt state: a generator position is not a number"))?;
        let mut g = ChaCha8Rng::seed_from_u64(seed);
        g.set_stream(self.stream);
        g.set_word_pos(pos);
        Ok(g)
    }

    /// The position of `g`.
    pub fn of(g: &ChaCha8Rng) -> Self {
        Self {
            stream: g.get_stream(),
            word_pos: g.get_word_pos().to_string(),
        }
    }
}

/// The whole state of a campaign.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Prefix of every task id: ties answers to this campaign.
    pub tag: String,
    /// The seed.
    pub seed: u64,
    /// The ballot generator.
    pub ballot_rng: RngState,
    /// The layout generator.
    pub layout_rng: RngState,
    /// Price per task, for the plan.
    pub price: Option<f64>,
    /// Column names of the items file: id, text.
    pub id_column: String,
    /// See `id_column`.
    pub text_column: String,
    /// The items: item i of the collection is row i.
    pub items: Table,
    /// Things shown only in control pairs: control id N + j is row j.
    pub control_items: Table,
    /// The collection.
    pub campaign: Campaign,
    /// What `acm campaign serve`'s page shows (title, question,
    /// instructions, tie label, completion code and URL), set at `init`;
    /// carried through untouched by the other commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<serde_json::Value>,
}

impl State {
    /// Reads and checks a state file.
    ///
    /// # Errors
    /// Unreadable, not JSON, not a campaign, or inconsistent.
    pub fn load(path: &str) -> Result<Self, Failure> {
        let bytes = read_state(path)?;
        let s: Self = serde_json::from_slice(&bytes).map_err(|e| {
            Failure::at_line(
                path,
                e.line() as u64,
                format!("not a valid campaign state: {e}"),
            )
        })?;
        if s.format != FORMAT || s.version != VERSION {
            return Err(Failure::about(path, "not a campaign state of this version"));
        }
        let n = s.campaign.scheduler().config().n_items();
        let consistent = |t: &Table| {
            t.texts.len() == t.len()
                && t.extra.len() == t.len()
                && t.extra.iter().all(|r| r.len() == t.extra_columns.len())
        };
        let things = n + s.control_items.len();
        if s.items.len() != n
            || !consistent(&s.items)
            || !consistent(&s.control_items)
            || s.campaign
                .controls()
                .iter()
                .any(|c| c.first >= things || c.second >= things)
        {
            return Err(Failure::about(
                path,
                "corrupt state: items and collection disagree",
            ));
        }
        s.ballot_rng.generator(s.seed)?;
        s.layout_rng.generator(s.seed)?;
        Ok(s)
    }

    /// The bytes of the state file.
    ///
    /// # Errors
    /// Never in practice.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Failure> {
        let mut v = serde_json::to_vec(self)
            .map_err(|e| Failure::new(format!("cannot encode the state: {e}")))?;
        v.push(b'\n');
        Ok(v)
    }

    /// Writes the state atomically.
    ///
    /// # Errors
    /// I/O errors; a simulated crash.
    pub fn save(&self, path: &str, env: &mut Env<'_>) -> Outcome {
        let bytes = self.to_bytes()?;
        if is_store(path) {
            return replace_store_state(path, &bytes, env);
        }
        write_atomic(path, &bytes, env)
    }

    /// The id, text and extra values of thing `i` (item or control item).
    pub fn thing(&self, i: usize) -> (&str, &str, &[String]) {
        let n = self.items.len();
        let (t, j) = if i < n {
            (&self.items, i)
        } else {
            (&self.control_items, i - n)
        };
        (&t.ids[j], &t.texts[j], &t.extra[j])
    }

    /// The task id as written in files: `TAG-b<ballot>-<position>`.
    pub fn task_label(&self, id: TaskId) -> String {
        format!("{}-{id}", self.tag)
    }

    /// Parses a task id written by [`State::task_label`].
    ///
    /// # Errors
    /// A malformed id or one of another campaign.
    pub fn parse_task(&self, label: &str) -> Result<TaskId, String> {
        let Some((tag, rest)) = label.split_once('-') else {
            return Err(format!("malformed task id {}", crate::error::echo(label)));
        };
        if tag != self.tag {
            return Err(format!(
                "task id {} belongs to another campaign (this one's ids start with {}-)",
                crate::error::echo(label),
                self.tag
            ));
        }
        rest.parse()
            .map_err(|_| format!("malformed task id {}", crate::error::echo(label)))
    }
}

/// FNV-1a, 64 bits: the campaign tag from the seed and the items.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `true` when `path` is a served campaign's store (an SQLite file) rather
/// than a JSON state.
pub fn is_store(path: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// The bytes of a state: the JSON file, or a store's state brought up to
/// date (`acm campaign serve` keeps one SQLite file: the state `init`
/// wrote and every answer, exclusion and ballot since).
///
/// # Errors
/// An unreadable file; a store this `acm` cannot read.
pub fn read_state(path: &str) -> Result<Vec<u8>, Failure> {
    if is_store(path) {
        #[cfg(feature = "serve")]
        return adaptive_comp_metrics_serve::Store::state_json(std::path::Path::new(path))
            .map_err(|e| Failure::about(path, e.to_string()));
        #[cfg(not(feature = "serve"))]
        return Err(Failure::about(
            path,
            "a served campaign's store: this acm was built without the serve feature \
             (cargo install --path cli --features serve)",
        ));
    }
    fs::read(path).map_err(|e| Failure::about(path, format!("cannot read: {e}")))
}

/// Replaces a store's state (the caller holds the campaign's lock).
fn replace_store_state(path: &str, bytes: &[u8], env: &mut Env<'_>) -> Outcome {
    env.checkpoint()?;
    #[cfg(feature = "serve")]
    return adaptive_comp_metrics_serve::Store::replace_state(std::path::Path::new(path), bytes)
        .map_err(|e| Failure::about(path, e.to_string()));
    #[cfg(not(feature = "serve"))]
    {
        let _ = bytes;
        Err(Failure::about(path, "this acm was built without the serve feature").into())
    }
}
