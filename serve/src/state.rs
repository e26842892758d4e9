//! The campaign state: the JSON document that `acm campaign init` writes and
//! the file workflow (`export`, `import`, `close`, `rank`) reads and
//! rewrites, one type with it (crate `adaptive-comp-metrics-campaign`). The
//! server reads the same document, keeps it in its store and gives it back,
//! brought up to date, to any reader ([`crate::Store::state_json`]): a served
//! campaign and a campaign run through files are one format.
//!
//! [`PageSettings`] is what the annotator's page shows: the state's [`Page`]
//! texts, with the server's defaults for those not given.

use serde::{Deserialize, Serialize};

pub use adaptive_comp_metrics_campaign::{
    BALLOT_STREAM, CampaignFile, CampaignStatus, Echo, FORMAT, LAYOUT_STREAM, Page, RngState,
    StateError, Table, TaskIdError, VERSION, WorkerSummary,
};

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
            instructions: "Each screen shows two short texts side by side, and a question \
                           about them. Choose the one that fits the question better: click or \
                           tap it, or press its key.\n\nThere are no right or wrong answers: go \
                           with your first impression, there is no need to think long. A few \
                           screens have an obvious answer: they check that the answers are \
                           given with care."
                .to_owned(),
            tie_label: None,
            completion_code: None,
            completion_url: None,
            partial_completion_code: None,
            partial_completion_url: None,
        }
    }
}

impl PageSettings {
    /// The settings of a state's page texts: those given, and the defaults
    /// for the others.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics_serve::{Page, PageSettings};
    /// let p = Page { question: Some("Which is older?".into()), ..Page::default() };
    /// let s = PageSettings::resolve(Some(&p));
    /// assert_eq!(s.question, "Which is older?");
    /// assert_eq!(s.title, PageSettings::default().title);
    /// ```
    #[must_use]
    pub fn resolve(page: Option<&Page>) -> Self {
        let d = Self::default();
        let Some(p) = page.cloned() else { return d };
        Self {
            title: p.title.unwrap_or(d.title),
            question: p.question.unwrap_or(d.question),
            instructions: p.instructions.unwrap_or(d.instructions),
            tie_label: p.tie_label,
            completion_code: p.completion_code,
            completion_url: p.completion_url,
            partial_completion_code: p.partial_completion_code,
            partial_completion_url: p.partial_completion_url,
        }
    }
}

impl From<PageSettings> for Page {
    /// Every text given (the state then shows these, whatever the defaults
    /// become).
    fn from(s: PageSettings) -> Self {
        Self {
            completion_code: s.completion_code,
            completion_url: s.completion_url,
            instructions: Some(s.instructions),
            partial_completion_code: s.partial_completion_code,
            partial_completion_url: s.partial_completion_url,
            question: Some(s.question),
            tie_label: s.tie_label,
            title: Some(s.title),
        }
    }
}
