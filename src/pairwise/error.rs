//! The error type of the pairwise models.

use thiserror::Error;

/// Everything that can go wrong when building a list of comparisons or
/// fitting a model to it.
///
/// Every variant says *what* was wrong and *where*: the 0-based record (the
/// comparison's position in the order the records were added), the item or
/// worker by name. Messages are lowercase without a trailing period. New
/// variants may be added in minor releases.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum PairwiseError {
    /// The comparison list holds no comparison.
    #[error("the comparison list is empty")]
    Empty,
    /// A record names an item that the list's fixed catalogue does not hold.
    #[error("record {record}: unknown item {item:?}")]
    UnknownItem {
        /// The record (0-based).
        record: usize,
        /// The item's name as given.
        item: String,
    },
    /// A record names a worker that the list's fixed catalogue does not hold.
    #[error("record {record}: unknown worker {worker:?}")]
    UnknownWorker {
        /// The record (0-based).
        record: usize,
        /// The worker's name as given.
        worker: String,
    },
    /// A record compares an item with itself.
    #[error("record {record}: item {item:?} is compared with itself")]
    SelfComparison {
        /// The record (0-based).
        record: usize,
        /// The item.
        item: String,
    },
    /// An item or worker index past the end of its catalogue.
    #[error("record {record}: {what} index {index} is out of range (the list has {len})")]
    OutOfRange {
        /// The record (0-based).
        record: usize,
        /// `"item"` or `"worker"`.
        what: &'static str,
        /// The index given.
        index: usize,
        /// The size of the catalogue.
        len: usize,
    },
    /// The same name appears twice in a catalogue.
    #[error("{what} {name:?} appears twice in the catalogue")]
    DuplicateName {
        /// `"item"` or `"worker"`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// Without a prior, the scores of items in different components of the
    /// comparison graph are not comparable.
    #[error(
        "the comparison graph is disconnected ({components} components): {} share no chain of comparisons with item {anchor:?}; give a prior (prior_sd) or compare them",
        list(items, *unconnected)
    )]
    Disconnected {
        /// The number of connected components (an item never compared is
        /// one).
        components: usize,
        /// An item of the largest component.
        anchor: String,
        /// Up to five items outside it.
        items: Vec<String>,
        /// How many items are outside it.
        unconnected: usize,
    },
    /// Without a prior, the maximum likelihood is not finite: a group of
    /// items never lost (or never won) a comparison with an item outside
    /// it, so its scores grow without bound (Ford 1957; Hunter 2004,
    /// Assumption 1).
    #[error(
        "no finite maximum likelihood: {} never {} a comparison with an item outside the group; give a prior (prior_sd)",
        list(items, *size),
        if *lost { "lost" } else { "won" }
    )]
    NoFiniteMaximum {
        /// Up to five items of the group.
        items: Vec<String>,
        /// The size of the group.
        size: usize,
        /// `true`: the group never lost (its scores go to +∞); `false`: it
        /// never won (−∞).
        lost: bool,
    },
    /// Without a prior, the noisy model's fit left items whose comparisons
    /// carry no information: their results are explained as careless
    /// answers, and their scores drift without bound.
    #[error(
        "no finite maximum likelihood: the noisy model explains every result of {} as careless answers; give a prior (prior_sd)",
        list(items, *size)
    )]
    Uninformed {
        /// Up to five of the items.
        items: Vec<String>,
        /// How many.
        size: usize,
    },
    /// Every comparison is a tie: the tie parameter ν of Davidson's model
    /// has no finite estimate.
    #[error("every comparison is a tie: the tie parameter has no finite estimate")]
    OnlyTies,
    /// A parameter is outside its domain.
    #[error("invalid parameter {name}: {expected}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What was expected of it.
        expected: &'static str,
    },
    /// A size over its limit, refused before anything is allocated.
    #[error("too large: {requested} {quantity} requested, at most {limit}")]
    TooLarge {
        /// What is counted.
        quantity: &'static str,
        /// The number asked for.
        requested: u64,
        /// The limit.
        limit: u64,
    },
    /// The fit stopped before the gradient met the tolerance.
    #[error(
        "no convergence after {iterations} iterations: the gradient's largest component is {gradient:e}, the tolerance {tolerance:e}"
    )]
    NotConverged {
        /// Iterations run.
        iterations: usize,
        /// The largest absolute component of the gradient at the end.
        gradient: f64,
        /// The tolerance asked for.
        tolerance: f64,
    },
    /// The observed information is not positive definite at the fitted
    /// parameters (a saddle point or a flat direction): no standard errors.
    #[error("the observed information is not positive definite ({what}): no standard errors")]
    Singular {
        /// Where it showed.
        what: &'static str,
    },
    /// A fit used with comparisons other than those it was fitted to.
    #[error(
        "the fit is of {fit_items} items and {fit_comparisons} comparisons, the list has {items} and {comparisons}"
    )]
    Mismatch {
        /// Items of the fit.
        fit_items: usize,
        /// Comparisons of the fit.
        fit_comparisons: usize,
        /// Items of the list.
        items: usize,
        /// Comparisons of the list.
        comparisons: usize,
    },
    /// Every bootstrap replicate failed (see the replicates' error).
    #[error("all {replicates} bootstrap replicates failed, the first with: {first}")]
    AllReplicatesFailed {
        /// Replicates drawn.
        replicates: usize,
        /// The first replicate's error message.
        first: String,
    },
}

/// `"a", "b" and 3 more` for an error message.
fn list(items: &[String], total: usize) -> String {
    let mut s = String::new();
    for (k, it) in items.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!("{it:?}"));
    }
    let shown = items.len();
    let word = if total == 1 { "item" } else { "items" };
    if total > shown {
        format!("{word} {s} and {} more", total - shown)
    } else {
        format!("{word} {s}")
    }
}

/// Results of this module.
pub type Result<T, E = PairwiseError> = core::result::Result<T, E>;

/// [`PairwiseError::TooLarge`] (`quantity`) when `requested > limit`.
pub(crate) fn check_limit(quantity: &'static str, requested: usize, limit: usize) -> Result<()> {
    if requested <= limit {
        return Ok(());
    }
    Err(PairwiseError::TooLarge {
        quantity,
        requested: requested as u64,
        limit: limit as u64,
    })
}

/// A count of draws or replicates: at least 2
/// ([`PairwiseError::InvalidParameter`] `name`), at most `limit`
/// ([`check_limit`] `quantity`).
pub(crate) fn check_count(
    name: &'static str,
    quantity: &'static str,
    n: usize,
    limit: usize,
) -> Result<()> {
    if n < 2 {
        return Err(PairwiseError::InvalidParameter {
            name,
            expected: "at least 2",
        });
    }
    check_limit(quantity, n, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_record_and_the_items() {
        let e = PairwiseError::UnknownItem {
            record: 3,
            item: "zebra".into(),
        };
        assert_eq!(e.to_string(), "record 3: unknown item \"zebra\"");
        let e = PairwiseError::Disconnected {
            components: 3,
            anchor: "a".into(),
            items: vec!["x".into(), "y".into()],
            unconnected: 7,
        };
        assert_eq!(
            e.to_string(),
            "the comparison graph is disconnected (3 components): items \"x\", \"y\" and 5 more share no chain of comparisons with item \"a\"; give a prior (prior_sd) or compare them"
        );
        let e = PairwiseError::NoFiniteMaximum {
            items: vec!["a".into()],
            size: 1,
            lost: true,
        };
        assert_eq!(
            e.to_string(),
            "no finite maximum likelihood: item \"a\" never lost a comparison with an item outside the group; give a prior (prior_sd)"
        );
    }
}
