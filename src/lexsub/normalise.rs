//! Normalisation profiles: how terms are cleaned before they are compared.

use super::error::Side;
use super::model::{GoldItem, distinct};

/// How gold substitutes and system answers are normalised before scoring.
///
/// Both profiles share these rules, which the measures' definitions leave
/// open:
///
/// - **Whitespace**: terms are trimmed and inner runs of whitespace become
///   one space (`"cheer  up "` → `"cheer up"`); a term that ends up empty is
///   dropped (an empty answer is no answer).
/// - **Case**: kept. `Glad` does not match `glad`, as in the official scorer;
///   lower-case both sides before building the items if you want otherwise.
/// - **Duplicates**: a repeated answer is removed (first occurrence kept)
///   *after* normalisation, so `well-being` and `well being` count once; a
///   gold term that appears twice after normalisation has its counts summed.
///
/// [`Profile::Semeval2007`] adds the rules of the SemEval-2007 scorer
/// `score.pl` (McCarthy & Navigli 2007; the scorer is distributed with the
/// SemEval-2007 Task 10 data):
///
/// | rule | gold | system |
/// |---|---|---|
/// | entry containing `pn` (proper-noun marker) dropped | ✓ | |
/// | first apostrophe removed | ✓ | ✓ |
/// | one-character substitutes dropped | ✓ | |
/// | `non-x` and `non x` joined to `nonx` | ✓ | ✓ |
/// | `-` replaced by a space | ✓ | ✓ |
/// | item dropped when its only response came from one annotator (after the `pn` rule, `Σ counts ≤ 1`) | ✓ | |
///
/// The official scorer gives a hyphenated gold substitute a second,
/// space-separated key for the credit but compares the mode with its
/// hyphen, so a hyphenated mode can never match; it joins `non-` only in
/// system answers. Here both sides get the same rules, which gives the
/// scorer's credit on well-formed input and lets hyphenated modes match.
/// Where two gold variants meet (`well-being 2; well being 1`) the scorer's
/// result depends on hash order; here their counts are summed. The `pn`
/// rule is the scorer's substring test: it also drops a term such as
/// `hypnotic`. There is no American/British spelling map: the scorer's is
/// dead code, so leaving it out keeps its numbers.
///
/// [`Profile::Strict`] applies only the shared rules: nothing is dropped
/// except empty terms.
///
/// Both profiles correct `score.pl` where it is fragile (spaces before a
/// count, `\r` line endings, empty answers, repeated answers, the mode taken
/// as the first listed substitute, …). To reproduce `score.pl`'s published
/// numbers, quirks included, score the files with
/// [`score_pl::score`](super::score_pl::score): its documentation has a
/// table of every case, with what `score.pl` and each profile do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Profile {
    /// The official SemEval-2007 scorer's normalisation (default).
    #[default]
    Semeval2007,
    /// Only whitespace clean-up and duplicate removal.
    Strict,
}

impl Profile {
    /// Normalises one term from the given side; `None` when the profile drops
    /// it.
    ///
    /// # Complexity
    /// O(length of the term).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{Profile, Side};
    /// assert_eq!(Profile::Semeval2007.term(" well-being ", Side::System).as_deref(), Some("well being"));
    /// assert_eq!(Profile::Semeval2007.term("x", Side::Gold), None);
    /// assert_eq!(Profile::Strict.term("x", Side::Gold).as_deref(), Some("x"));
    /// ```
    pub fn term(self, raw: &str, side: Side) -> Option<String> {
        let cleaned = match self {
            Profile::Strict => collapse(raw),
            Profile::Semeval2007 => {
                if side == Side::Gold && raw.contains("pn") {
                    return None;
                }
                let joined = join_non_prefix(raw.trim());
                let no_apostrophe = joined.replacen('\'', "", 1);
                collapse(&no_apostrophe.replace('-', " "))
            }
        };
        if cleaned.is_empty() {
            return None;
        }
        if self == Profile::Semeval2007 && side == Side::Gold && cleaned.chars().count() == 1 {
            return None;
        }
        Some(cleaned)
    }

    /// Normalises a gold item; `None` when the profile drops it (no
    /// substitute left, or, for [`Profile::Semeval2007`], a single response
    /// from a single annotator).
    ///
    /// # Complexity
    /// O(n²) in the number of substitutes (merging), O(total text length).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::{GoldItem, Profile};
    /// # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    /// let lone = GoldItem::new("3", "bright.a", [("smart", 1)])?;
    /// assert!(Profile::Semeval2007.gold(&lone).is_none());
    /// assert!(Profile::Strict.gold(&lone).is_some());
    /// # Ok(()) }
    /// ```
    pub fn gold(self, item: &GoldItem) -> Option<GoldItem> {
        if self == Profile::Semeval2007 {
            // score.pl counts responses after removing `pn` entries and
            // before ignoring one-character ones.
            let responses: u64 = item
                .substitutes()
                .iter()
                .filter(|s| !s.term.contains("pn"))
                .map(|s| u64::from(s.count))
                .sum();
            if responses <= 1 {
                return None;
            }
        }
        let subs = item
            .substitutes()
            .iter()
            .filter_map(|s| self.term(&s.term, Side::Gold).map(|t| (t, s.count)));
        GoldItem::new(item.id(), item.target(), subs).ok()
    }

    /// Normalises a system answer list: each answer cleaned, dropped answers
    /// removed, repeats removed (first occurrence kept).
    ///
    /// # Complexity
    /// O(total text length) expected (hashing for long lists).
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::lexsub::Profile;
    /// let a = Profile::Semeval2007.answers(&["well-being", " ", "well being", "health"]);
    /// assert_eq!(a, ["well being", "health"]);
    /// ```
    pub fn answers<S: AsRef<str>>(self, answers: &[S]) -> Vec<String> {
        let cleaned: Vec<String> = answers
            .iter()
            .filter_map(|a| self.term(a.as_ref(), Side::System))
            .collect();
        distinct(&cleaned).into_iter().map(str::to_owned).collect()
    }
}

/// `non-violent` and `non violent` become `nonviolent` (score.pl's rule).
fn join_non_prefix(term: &str) -> std::borrow::Cow<'_, str> {
    if let Some(rest) = term.strip_prefix("non")
        && let Some(sep) = rest.chars().next()
        && (sep == '-' || sep.is_whitespace())
    {
        return format!("non{}", rest.get(sep.len_utf8()..).unwrap_or_default()).into();
    }
    term.into()
}

/// Trims and collapses inner whitespace runs to one space.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semeval_gold_rules() {
        let p = Profile::Semeval2007;
        assert_eq!(p.term("john pn", Side::Gold), None);
        assert_eq!(p.term("hypnotic", Side::Gold), None);
        assert_eq!(
            p.term("hypnotic", Side::System).as_deref(),
            Some("hypnotic")
        );
        assert_eq!(p.term("a", Side::Gold), None);
        assert_eq!(p.term("a", Side::System).as_deref(), Some("a"));
        assert_eq!(p.term("o'clock's", Side::Gold).as_deref(), Some("oclock's"));
        assert_eq!(p.term("'s", Side::Gold), None); // one character after the apostrophe goes
        assert_eq!(
            p.term("  cheer \t up ", Side::System).as_deref(),
            Some("cheer up")
        );
        assert_eq!(
            p.term("non-violent", Side::System).as_deref(),
            Some("nonviolent")
        );
        assert_eq!(
            p.term("non violent", Side::Gold).as_deref(),
            Some("nonviolent")
        );
        assert_eq!(p.term("none", Side::Gold).as_deref(), Some("none"));
        assert_eq!(p.term("non", Side::Gold).as_deref(), Some("non"));
    }

    #[test]
    fn strict_keeps_everything_but_whitespace() {
        let p = Profile::Strict;
        assert_eq!(p.term("hypnotic", Side::Gold).as_deref(), Some("hypnotic"));
        assert_eq!(
            p.term("well-being", Side::Gold).as_deref(),
            Some("well-being")
        );
        assert_eq!(p.term("don't", Side::System).as_deref(), Some("don't"));
        assert_eq!(p.term(" \t", Side::System), None);
        assert_eq!(p.term("Glad", Side::System).as_deref(), Some("Glad"));
    }

    #[test]
    fn gold_variants_merge_and_lone_responses_drop() {
        let g = GoldItem::new(
            "1",
            "w.n",
            [("well-being", 2), ("well being", 1), ("health", 1)],
        )
        .unwrap();
        let n = Profile::Semeval2007.gold(&g).unwrap();
        assert_eq!(n.freq("well being"), 3);
        assert_eq!(n.total(), 4);
        // only one-character or pn entries: nothing left
        let g = GoldItem::new("2", "w.n", [("x", 3), ("pn", 2)]).unwrap();
        assert!(Profile::Semeval2007.gold(&g).is_none());
        // a one-character response still counts as a response (as in score.pl):
        // the item is kept with the other substitute only
        let g = GoldItem::new("4", "w.n", [("x", 1), ("glad", 1)]).unwrap();
        assert_eq!(Profile::Semeval2007.gold(&g).unwrap().total(), 1);
        // but a pn response does not
        let g = GoldItem::new("5", "w.n", [("john pn", 1), ("glad", 1)]).unwrap();
        assert!(Profile::Semeval2007.gold(&g).is_none());
        // one response from two annotators: kept
        let g = GoldItem::new("6", "w.n", [("glad", 2)]).unwrap();
        assert!(Profile::Semeval2007.gold(&g).is_some());
        // two annotators, one response each: kept (Σ = 2)
        let g = GoldItem::new("3", "w.n", [("a1", 1), ("b1", 1)]).unwrap();
        assert!(Profile::Semeval2007.gold(&g).is_some());
    }
}
