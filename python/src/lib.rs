//! `adaptive_comp_metrics._core`: the Rust side of the Python package
//! `adaptive_comp_metrics`, thin over the library's public API.
//!
//! Every entry point validates its input through the library, raises
//! `ValueError` (bad values, with the library's message) or `TypeError`
//! (wrong types), and runs inside `convert::guard`, so a Rust panic
//! surfaces as a `RuntimeError`, never as PyO3's `PanicException` (a
//! `BaseException`). The Python package (`adaptive_comp_metrics/`) gives
//! these functions their SciPy-, pytrec_eval- and gensim-compatible
//! signatures, result objects and docstrings.

mod compare;
mod convert;
mod correlation;
mod dicts;
mod named;
mod pairwise;
mod relevance;
mod scoring;
mod uncertainty;
mod weigher;
mod wordsim;

use pyo3::prelude::*;

/// The extension's allocator. Its Rust allocations (the scratch of a large
/// call: about 40 bytes an item for `weightedtau`) are kept by mimalloc for
/// the next call instead of going back to the system after each one, as
/// glibc's malloc does once other libraries have shaped the heap; Python's
/// own objects and numpy's arrays keep their allocators.
///
/// Chosen by measuring both (`python/benches/bench_alloc.py`, CPU time and
/// page faults a call, at load average 10): with the system allocator
/// `spearmanr`, `kendalltau` and `weightedtau` at n = 10⁶ fault in their
/// 30 to 45 MB of scratch on every call (8 000 to 11 700 faults; mimalloc:
/// none back to back, about 1 000 after a pause) and take 10 to 30 % more
/// CPU; at n ≤ 10³ and for `pearsonr` the two are the same. The TREC dict
/// path was the one call the system allocator served better (about 10 %
/// less CPU, measured while each query's table of documents was an
/// allocation of its own; they are now one block, which took a third of
/// mimalloc's page faults of that call away). The cost:
/// mimalloc keeps freed memory for about a second (its purge delay) before
/// giving it back, so a call after a pause faults its scratch in again;
/// keeping it for the life of the process (`MIMALLOC_PURGE_DELAY=-1`) would
/// hold the peak of the largest call for good, so it is left to the user.
///
/// Built without transparent huge pages (the crate's `no_thp`: mimalloc
/// does not `madvise(MADV_HUGEPAGE)` the memory it maps). Where THP is
/// `madvise` (the kernel's setting on many distributions), a fault of that
/// memory zeroes a whole 2 MiB page and can stall in the kernel's
/// compaction: the TREC dict path at 10⁴ queries × 100 documents, timed
/// between `pytrec_eval` calls (after mimalloc's purge), had rounds of 0.1
/// to 0.4 s of system time on top of about 0.25 s of user time; with 4 KiB
/// pages it faults 5 to 7× as often (about 15 000 faults a call) but its system
/// time stays at 0.01 to 0.07 s. The correlations at n = 10⁶ after a pause
/// fault 3 to 10× as often, at the same CPU time within the noise (±10 %);
/// back to back and at n ≤ 10³ nothing changes. Where THP is `always` the
/// kernel still uses huge pages.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The extension module.
#[pymodule]
mod _core {
    #[pymodule_export]
    use crate::compare::{
        CompareCore, compare_coefficients, compare_keyed, compare_matrices, friedman, multipletests,
    };
    #[pymodule_export]
    use crate::convert::_panic_for_tests;
    #[pymodule_export]
    use crate::correlation::{
        gamma_null_moments, kendalltau, pearsonr, pearsonr_ci, spearmanr, standardise_with,
        standardised, top_weighted, weightedtau,
    };
    #[pymodule_export]
    use crate::pairwise::pairwise_fit;
    #[pymodule_export]
    use crate::relevance::{
        TrecEvaluator, parse_qrel, parse_run, supported_measures, supported_nicknames,
    };
    #[pymodule_export]
    use crate::scoring::{
        TripletDataset, lexsub_score, lexsub_score_pl, triplet_score_file, triplet_score_vectors,
    };
    #[pymodule_export]
    use crate::uncertainty::{
        paired_comparison, plan_finish, plan_replicates, plan_run, standardise,
    };
    #[pymodule_export]
    use crate::wordsim::{PairsBenchmark, evaluate_file, evaluate_vectors};
}
