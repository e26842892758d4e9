//! The campaign state file of the adaptive vote collection of Lombardo et
//! al. (2020, §2.4–2.7): the JSON document that `acm campaign init` writes,
//! that the file workflow (`export`, `import`, `close`, `exclude`, `rank`)
//! reads and rewrites, and that the annotation server (`acm campaign
//! serve`) keeps in its store and gives back brought up to date. One type,
//! [`CampaignFile`], for every front end, so that a served campaign and a
//! campaign run through files are one format; and [`CampaignStatus`], the
//! figures `acm campaign status` prints.
//!
//! ```text
//! {"format": "adaptive-comp-metrics campaign", "version": 1,
//!  "tag": "<8 hex digits: FNV-1a of the seed and the items file>",
//!  "seed": <u64>,
//!  "ballot_rng": {"stream": 0, "word_pos": "<u128 in decimal>"},
//!  "layout_rng": {"stream": 1, "word_pos": "<u128 in decimal>"},
//!  "price": <number or null>, "id_column": "id", "text_column": "text",
//!  "items": {"extra_columns": [...], "ids": [...], "texts": [...], "extra": [[...], ...]},
//!  "control_items": { same layout },
//!  "campaign": <the library's ballot::Campaign in its serde form>,
//!  "page": {"completion_code", "completion_url", "instructions", "partial_completion_code",
//!           "partial_completion_url", "question", "tie_label", "title"}
//!                                  (optional, and only the keys given: what the annotator's page shows)}
//! ```
//!
//! Item i of the collection is row i of `items`; control item N + j is row
//! j of `control_items`. The generators are ChaCha8 seeded with
//! `seed_from_u64(seed)`, on the streams [`BALLOT_STREAM`] and
//! [`LAYOUT_STREAM`]. Task ids in files and pages are `TAG-b<ballot>-<position>`.
//!
//! # Example
//! ```
//! use adaptive_comp_metrics_campaign::{CampaignFile, StateError};
//! assert!(matches!(
//!     CampaignFile::from_json(b"{\"format\": 1}"),
//!     Err(StateError::Json { line: 1, .. })
//! ));
//! ```

mod status;

pub use status::{CampaignStatus, WorkerSummary};

use adaptive_comp_metrics::ballot::{BallotError, Campaign, TaskId};
use adaptive_comp_metrics::rand::SeedableRng;
use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What a campaign state file says it is.
pub const FORMAT: &str = "adaptive-comp-metrics campaign";
/// The state layout version this crate reads and writes.
pub const VERSION: u32 = 1;
/// The stream of the generator that draws ballots (and breaks ties in the
/// ranking): the same sequence as an in-memory `Scheduler` driven with
/// `ChaCha8Rng::seed_from_u64(seed)`.
pub const BALLOT_STREAM: u64 = 0;
/// The stream of the generator that places control tasks.
pub const LAYOUT_STREAM: u64 = 1;

/// Why a state document is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// Not JSON, or not the layout of a state.
    #[error("not a valid campaign state (line {line}, column {column}): {message}")]
    Json {
        /// The 1-based line.
        line: usize,
        /// The 1-based column.
        column: usize,
        /// The JSON reader's message.
        message: String,
    },
    /// Another format or version.
    #[error("not a campaign state of this version")]
    Version,
    /// The items do not match the collection.
    #[error("items and collection disagree")]
    Inconsistent,
    /// The tag is empty or not alphanumeric (it prefixes ids in files and
    /// pages).
    #[error("the campaign tag is not alphanumeric")]
    Tag,
    /// A generator position that is not a number.
    #[error("a generator position is not a number")]
    Generator,
    /// The state could not be encoded (never in practice).
    #[error("cannot encode the state: {message}")]
    Encode {
        /// The JSON writer's message.
        message: String,
    },
}

/// A ChaCha8 generator's position: stream and word position (a `u128`
/// written in decimal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// The stream.
    pub stream: u64,
    /// The word position, in decimal.
    pub word_pos: String,
}

impl RngState {
    /// The generator of `seed` at this position.
    ///
    /// # Errors
    /// [`StateError::Generator`] when the word position is not a number.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::rand::SeedableRng;
    /// use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
    /// use adaptive_comp_metrics_campaign::RngState;
    /// let mut g = ChaCha8Rng::seed_from_u64(7);
    /// g.set_word_pos(12);
    /// let s = RngState::of(&g);
    /// assert_eq!(s.word_pos, "12");
    /// assert_eq!(s.generator(7)?, g);
    /// # Ok::<(), adaptive_comp_metrics_campaign::StateError>(())
    /// ```
    pub fn generator(&self, seed: u64) -> Result<ChaCha8Rng, StateError> {
        let pos: u128 = self.word_pos.parse().map_err(|_| StateError::Generator)?;
        let mut g = ChaCha8Rng::seed_from_u64(seed);
        g.set_stream(self.stream);
        g.set_word_pos(pos);
        Ok(g)
    }

    /// The position of `g`.
    #[must_use]
    pub fn of(g: &ChaCha8Rng) -> Self {
        Self {
            stream: g.get_stream(),
            word_pos: g.get_word_pos().to_string(),
        }
    }
}

/// Items (or control items): ids, texts and the other columns of the
/// items file, carried through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Table {
    /// Header of the extra columns, in file order.
    pub extra_columns: Vec<String>,
    /// Ids, in file order.
    pub ids: Vec<String>,
    /// Texts.
    pub texts: Vec<String>,
    /// Extra values, one row per item.
    pub extra: Vec<Vec<String>>,
}

impl Table {
    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// `true` without rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    fn consistent(&self) -> bool {
        self.texts.len() == self.len()
            && self.extra.len() == self.len()
            && self
                .extra
                .iter()
                .all(|r| r.len() == self.extra_columns.len())
    }
}

/// What the annotator's page of `acm campaign serve` shows, as the state
/// keeps it: the texts given to `init` (`--title`, `--question`, …), each
/// absent when not given (the server's defaults then). Written with only the
/// keys present, in this (alphabetical) order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Page {
    /// The completion code shown on the end screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_code: Option<String>,
    /// Where the end screen sends the annotator; `{code}` is replaced by the
    /// completion code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_url: Option<String>,
    /// The instructions screen, paragraphs separated by blank lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// The code shown to an annotator who stops under the quota.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_completion_code: Option<String>,
    /// Where the end screen sends an annotator who stops under the quota.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_completion_url: Option<String>,
    /// The question above the two items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The label of the "same" choice (none: no tie choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_label: Option<String>,
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Page {
    /// `true` when no text is given.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The whole state of a campaign, as every front end reads and writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CampaignFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Prefix of every task id: ties answers to this campaign.
    pub tag: String,
    /// The seed.
    pub seed: u64,
    /// The generator that draws ballots (and breaks ties in the ranking).
    pub ballot_rng: RngState,
    /// The generator that places control tasks.
    pub layout_rng: RngState,
    /// Price per task, for the plan.
    pub price: Option<f64>,
    /// Column name of the items' ids.
    pub id_column: String,
    /// Column name of the items' texts.
    pub text_column: String,
    /// The items: item i of the collection is row i.
    pub items: Table,
    /// Things shown only in control pairs: control id N + j is row j.
    pub control_items: Table,
    /// The collection.
    pub campaign: Campaign,
    /// What the annotator's page shows (absent: the server's defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<Page>,
}

impl CampaignFile {
    /// A new campaign's state, as `acm campaign init` makes it: `campaign`
    /// with ballot 1 opened, its generators ChaCha8 seeded with
    /// `seed_from_u64(seed)` on [`BALLOT_STREAM`] and [`LAYOUT_STREAM`] and
    /// their positions recorded; no price, the columns `id` and `text`, no
    /// page texts (set those fields after, if others).
    ///
    /// # Errors
    /// The library's refusal to open ballot 1 (a ballot is open already).
    ///
    /// # Complexity
    /// That of [`Campaign::open_ballot`].
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::ballot::{BallotConfig, Campaign, LayoutOptions, Scheduler};
    /// use adaptive_comp_metrics_campaign::{CampaignFile, Table};
    /// let n = 4;
    /// let config = BallotConfig::new(n, 2, 0.5, 2).unwrap();
    /// let campaign = Campaign::new(Scheduler::new(config), vec![], LayoutOptions::plain()).unwrap();
    /// let items = Table {
    ///     ids: (0..n).map(|i| format!("p{i}")).collect(),
    ///     texts: (0..n).map(|i| format!("item {i}")).collect(),
    ///     extra: vec![vec![]; n],
    ///     ..Table::default()
    /// };
    /// let file = CampaignFile::open("abcd1234".into(), 7, items, Table::default(), campaign).unwrap();
    /// assert_eq!(file.campaign.open_ballot_number(), Some(1));
    /// assert_eq!(CampaignFile::from_json(&file.to_json().unwrap()).unwrap().seed, 7);
    /// ```
    pub fn open(
        tag: String,
        seed: u64,
        items: Table,
        control_items: Table,
        mut campaign: Campaign,
    ) -> Result<Self, BallotError> {
        let mut ballot_rng = ChaCha8Rng::seed_from_u64(seed);
        ballot_rng.set_stream(BALLOT_STREAM);
        let mut layout_rng = ChaCha8Rng::seed_from_u64(seed);
        layout_rng.set_stream(LAYOUT_STREAM);
        campaign.open_ballot(&mut ballot_rng, &mut layout_rng)?;
        Ok(Self {
            format: FORMAT.to_owned(),
            version: VERSION,
            tag,
            seed,
            ballot_rng: RngState::of(&ballot_rng),
            layout_rng: RngState::of(&layout_rng),
            price: None,
            id_column: "id".to_owned(),
            text_column: "text".to_owned(),
            items,
            control_items,
            campaign,
            page: None,
        })
    }

    /// Reads and checks a state document: its format and version, items
    /// that match the collection (the library checks the collection itself
    /// as it reads it), an alphanumeric tag, generator positions that are
    /// numbers.
    ///
    /// # Errors
    /// [`StateError`]: the first problem found.
    ///
    /// # Complexity
    /// O(size of the document).
    pub fn from_json(bytes: &[u8]) -> Result<Self, StateError> {
        let s: Self = serde_json::from_slice(bytes).map_err(|e| StateError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        if s.format != FORMAT || s.version != VERSION {
            return Err(StateError::Version);
        }
        let n = s.campaign.scheduler().config().n_items();
        let things = n + s.control_items.len();
        if s.items.len() != n
            || !s.items.consistent()
            || !s.control_items.consistent()
            || s.campaign
                .controls()
                .iter()
                .any(|c| c.first >= things || c.second >= things)
        {
            return Err(StateError::Inconsistent);
        }
        if s.tag.is_empty() || !s.tag.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(StateError::Tag);
        }
        s.ballot_rng.generator(s.seed)?;
        s.layout_rng.generator(s.seed)?;
        Ok(s)
    }

    /// The state as JSON, one line and a newline: the file's bytes.
    ///
    /// # Errors
    /// [`StateError::Encode`] (never in practice).
    pub fn to_json(&self) -> Result<Vec<u8>, StateError> {
        let mut v = serde_json::to_vec(self).map_err(|e| StateError::Encode {
            message: e.to_string(),
        })?;
        v.push(b'\n');
        Ok(v)
    }

    /// The id, text and extra values of thing `i` (an item, or a control
    /// item past the items); empty for an index out of range.
    #[must_use]
    pub fn thing(&self, i: usize) -> (&str, &str, &[String]) {
        let n = self.items.len();
        let (t, j) = if i < n {
            (&self.items, i)
        } else {
            (&self.control_items, i - n)
        };
        match (t.ids.get(j), t.texts.get(j)) {
            (Some(id), Some(text)) => (id, text, t.extra.get(j).map_or(&[][..], Vec::as_slice)),
            _ => ("", "", &[]),
        }
    }

    /// The task id as written in files and pages: `TAG-b<ballot>-<position>`.
    #[must_use]
    pub fn task_label(&self, id: TaskId) -> String {
        format!("{}-{id}", self.tag)
    }

    /// Parses a task id written by [`CampaignFile::task_label`].
    ///
    /// # Errors
    /// [`TaskIdError`]: a malformed id, or one of another campaign.
    pub fn parse_task(&self, label: &str) -> Result<TaskId, TaskIdError> {
        let Some((tag, rest)) = label.split_once('-') else {
            return Err(TaskIdError::malformed(label));
        };
        if tag != self.tag {
            return Err(TaskIdError::OtherCampaign {
                label: Echo::of(label),
                tag: self.tag.clone(),
            });
        }
        rest.parse().map_err(|_| TaskIdError::malformed(label))
    }
}

/// The longest piece of input an error message quotes whole, in characters.
pub const ECHO_LIMIT: usize = 80;

/// A piece of input kept for an error message: its first [`ECHO_LIMIT`]
/// characters and its length. Shown quoted as Rust's `{:?}` does, its full
/// length named when it was cut (a 10 MB field is not copied into an error
/// line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Echo {
    head: String,
    chars: usize,
}

impl Echo {
    /// The piece of `text` an error keeps.
    #[must_use]
    pub fn of(text: &str) -> Self {
        Self {
            head: text.chars().take(ECHO_LIMIT).collect(),
            chars: text.chars().count(),
        }
    }
}

impl std::fmt::Display for Echo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.head)?;
        if self.chars > ECHO_LIMIT {
            write!(f, "… ({} characters, cut to {ECHO_LIMIT})", self.chars)?;
        }
        Ok(())
    }
}

/// Why a task id is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TaskIdError {
    /// Not `TAG-b<ballot>-<position>`.
    #[error("malformed task id {label}")]
    Malformed {
        /// The id (cut).
        label: Echo,
    },
    /// Another campaign's id.
    #[error("task id {label} belongs to another campaign (this one's ids start with {tag}-)")]
    OtherCampaign {
        /// The id (cut).
        label: Echo,
        /// This campaign's tag.
        tag: String,
    },
}

impl TaskIdError {
    fn malformed(label: &str) -> Self {
        Self::Malformed {
            label: Echo::of(label),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_cuts_long_input_and_names_its_length() {
        assert_eq!(Echo::of("a\"b").to_string(), r#""a\"b""#);
        let long = "x".repeat(100);
        assert_eq!(
            Echo::of(&long).to_string(),
            format!("{:?}… (100 characters, cut to 80)", "x".repeat(80))
        );
        assert_eq!(Echo::of(&"y".repeat(80)).to_string().len(), 82);
    }

    #[test]
    fn page_writes_only_the_keys_given_in_alphabetical_order() {
        let p = Page {
            title: Some("T".into()),
            completion_code: Some("C".into()),
            ..Page::default()
        };
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"completion_code":"C","title":"T"}"#
        );
        // As init wrote it before (a JSON object, whose keys serde_json sorts).
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"title":"T","completion_code":"C"}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            serde_json::to_string(&p).unwrap()
        );
        // The server's earlier stores wrote every key, absent ones as null.
        let full: Page = serde_json::from_str(
            r#"{"title":"T","question":"Q","instructions":"I","tie_label":null,
                "completion_code":null,"completion_url":null}"#,
        )
        .unwrap();
        assert_eq!(full.tie_label, None);
        assert_eq!(full.question.as_deref(), Some("Q"));
        assert!(Page::default().is_empty() && !full.is_empty());
    }
}
