//! The campaign state: the JSON document that `acm campaign init` writes and
//! the file workflow (`export`, `import`, `close`, `rank`) reads and
//! rewrites. The server reads the same document, keeps it in its store and
//! gives it back, brought up to date, to any reader ([`crate::Store::state_json`]):
//! a served campaign and a campaign run through files are one format.
//!
//! ```text
//! { "format": "adaptive-comp-metrics campaign", "version": 1, "tag": "1a2b3c4d", "seed": 7,
//!   "ballot_rng": {"stream": 0, "word_pos": "…"}, "layout_rng": {"stream": 1, "word_pos": "…"},
//!   "price": null, "id_column": "id", "text_column": "text",
//!   "items": {…}, "control_items": {…}, "campaign": {…},
//!   "page": {…}                                   (optional: what the annotator's page shows)
//! }
//! ```

use adaptive_comp_metrics::ballot::{Campaign, TaskId};
use adaptive_comp_metrics::rand::SeedableRng;
use adaptive_comp_metrics::rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::error::ServeError;

/// What a campaign state file says it is.
pub const FORMAT: &str = "adaptive-comp-metrics campaign";
/// The state layout version this crate reads and writes.
pub const VERSION: u32 = 1;

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
    /// [`ServeError::Corrupt`] when the word position is not a number.
    pub fn generator(&self, seed: u64) -> Result<ChaCha8Rng, ServeError> {
        let pos: u128 = self
            .word_pos
            .parse()
            .map_err(|_| ServeError::corrupt("a generator position is not a number"))?;
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

/// What the annotator's page shows, set when the campaign is created
/// (`acm campaign init --question … --tie-label … --completion-code …`)
/// or when it is served. Every field has a default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PageSettings {
    /// The page's title.
    pub title: String,
    /// The question above the two items.
    pub question: String,
    /// The instructions screen, in paragraphs separated by blank lines
    /// (plain text).
    pub instructions: String,
    /// The label of the "same" choice; `None`: no tie choice.
    pub tie_label: Option<String>,
    /// The completion code shown on the end screen.
    pub completion_code: Option<String>,
    /// Where the end screen sends the annotator (Prolific's completion URL,
    /// for instance); `{code}` is replaced by the completion code.
    pub completion_url: Option<String>,
    /// The code shown to an annotator who stops under the quota ("I want
    /// to stop here" before the last task); `None`: no code for partial
    /// work (the dashboard lists what each annotator did, for payment).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_completion_code: Option<String>,
    /// Where the end screen sends an annotator who stops under the quota;
    /// `{code}` is replaced by the partial completion code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_completion_url: Option<String>,
}

impl Default for PageSettings {
    fn default() -> Self {
        Self {
            title: "Which is more related?".to_owned(),
            question: "Which of the two is more closely related?".to_owned(),
            instructions: "Each screen shows two items side by side. Choose the one that \
                           answers the question better.\n\nThere are no right or wrong answers: \
                           go with your first impression. A few screens check attention."
                .to_owned(),
            tie_label: None,
            completion_code: None,
            completion_url: None,
            partial_completion_code: None,
            partial_completion_url: None,
        }
    }
}

/// The whole state of a campaign, as the file workflow writes it.
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
    /// What the annotator's page shows (absent: the defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageSettings>,
}

impl CampaignFile {
    /// Reads and checks a state document.
    ///
    /// # Errors
    /// [`ServeError::Corrupt`] for a document that is not a campaign state
    /// of this version or is inconsistent (the library checks the
    /// collection itself as it reads it).
    pub fn from_json(bytes: &[u8]) -> Result<Self, ServeError> {
        let s: Self = serde_json::from_slice(bytes).map_err(|e| {
            ServeError::corrupt(format!(
                "not a valid campaign state (line {}, column {}): {e}",
                e.line(),
                e.column()
            ))
        })?;
        if s.format != FORMAT || s.version != VERSION {
            return Err(ServeError::corrupt("not a campaign state of this version"));
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
            return Err(ServeError::corrupt("items and collection disagree"));
        }
        if s.tag.is_empty() || !s.tag.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ServeError::corrupt("the campaign tag is not alphanumeric"));
        }
        s.ballot_rng.generator(s.seed)?;
        s.layout_rng.generator(s.seed)?;
        Ok(s)
    }

    /// The state as JSON, one line and a newline, as the file workflow
    /// writes it.
    ///
    /// # Errors
    /// [`ServeError::Corrupt`] if the state cannot be encoded (never in
    /// practice).
    pub fn to_json(&self) -> Result<Vec<u8>, ServeError> {
        let mut v = serde_json::to_vec(self)
            .map_err(|e| ServeError::corrupt(format!("cannot encode the state: {e}")))?;
        v.push(b'\n');
        Ok(v)
    }

    /// The id and text of thing `i` (an item, or a control item past the
    /// items).
    #[must_use]
    pub fn thing(&self, i: usize) -> (&str, &str) {
        let n = self.items.len();
        let (t, j) = if i < n {
            (&self.items, i)
        } else {
            (&self.control_items, i - n)
        };
        match (t.ids.get(j), t.texts.get(j)) {
            (Some(id), Some(text)) => (id, text),
            _ => ("", ""),
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
    /// A message for a malformed id or one of another campaign.
    pub fn parse_task(&self, label: &str) -> Result<TaskId, String> {
        let cut: String = label.chars().take(40).collect();
        let Some((tag, rest)) = label.split_once('-') else {
            return Err(format!("malformed task id {cut:?}"));
        };
        if tag != self.tag {
            return Err(format!("task id {cut:?} belongs to another campaign"));
        }
        rest.parse()
            .map_err(|_| format!("malformed task id {cut:?}"))
    }

    /// The page settings in force.
    #[must_use]
    pub fn page(&self) -> PageSettings {
        self.page.clone().unwrap_or_default()
    }
}
