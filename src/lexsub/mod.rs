//! Lexical-substitution evaluation: the SemEval-2007 measures and the
//! revised measures of Jabbari, Hepple & Guthrie (2010), plus GAP and P@k.
//!
//! A lexical-substitution system proposes, for a target word in context,
//! words that could replace it. A gold standard lists the substitutes that
//! annotators proposed, each with the number of annotators who proposed it.
//! This module reads both from the SemEval-2007 file formats (or takes them
//! from memory), pairs them and scores them:
//!
//! | module | measures |
//! |---|---|
//! | [`semeval`] | best, mode-best, oot, mode-oot: precision and recall (McCarthy & Navigli 2007) |
//! | [`revised`] | new best, best-1, oot, weighted recall and precision with penalty `k`, rank (Jabbari et al. 2010) |
//! | [`gap`] | GAP (Kishida 2005), P@k and R@k with macro or micro averaging |
//! | [`score_pl`] | best, mode-best, oot, mode-oot exactly as the official `score.pl` computes them, quirks included |
//!
//! Every per-item function takes a [`GoldItem`] and the answers as a slice
//! of strings; [`Corpus`] pairs whole files under a normalisation
//! [`Profile`] and [`Corpus::totals`] aggregates any [`Measure`]. Scores are
//! fractions in `[0, 1]`; [`Percent`] prints them as the official scorer
//! does. Undefined ratios (nothing attempted) are `None`, never NaN.
//!
//! Edge-case policies, each documented where it applies and tested:
//! empty answer lists score 0 and count as not attempted; repeated answers are removed
//! before scoring; gold items missing from the system output are not
//! attempted; items without a unique mode are left out of the mode measures;
//! lists shorter than 10 stop adding credit; case is kept and whitespace
//! collapsed ([`Profile`]). These are corrections of the official scorer
//! `score.pl`; to reproduce its published numbers, quirks included, use
//! [`score_pl::score`] (its documentation lists every difference).
//!
//! # Examples
//! ```
//! use adaptive_comp_metrics::lexsub::{Corpus, Format, Mode, Percent, Profile, read_gold, read_system, semeval};
//! # fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
//! let gold = read_gold("bright.a 1 :: intelligent 3;clever 2;smart 1;\n".as_bytes(), Mode::Strict)?;
//! let best = read_system("bright.a 1 :: intelligent;clever\n".as_bytes(), Format::Best, Mode::Strict)?;
//! let corpus = Corpus::new(&gold.items, &best.items, Profile::Semeval2007)?;
//! let s = semeval::best_scores(&corpus);
//! // (3 + 2) / (6 · 2) = 0.41667
//! assert_eq!(Percent(s.best.precision()).to_string(), "41.67");
//! # Ok(()) }
//! ```
//!
//! # References
//! - D. McCarthy, R. Navigli (2007). SemEval-2007 Task 10: English Lexical
//!   Substitution Task. SemEval-2007.
//! - S. Jabbari, M. Hepple, L. Guthrie (2010). Evaluating Lexical
//!   Substitution: Analysis and New Measures. LREC 2010.
//! - K. Kishida (2005). Property of average precision and its generalization.
//!   NII Technical Report.

mod corpus;
mod display;
mod error;
pub mod gap;
mod model;
mod normalise;
mod read;
pub mod revised;
pub mod score_pl;
pub mod semeval;

pub use corpus::{Corpus, Measure, Paired};
pub use error::{LexsubError, Side};
pub use model::{GoldItem, ItemScore, Outcome, Percent, Substitute, SystemAnswer, Totals};
pub use normalise::Profile;
pub use read::{Format, GoldLines, Mode, Parsed, SystemLines, read_gold, read_system};
pub use revised::Penalty;
pub use score_pl::ScorePlScores;
