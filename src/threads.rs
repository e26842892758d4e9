//! How many threads the crate's large computations use, and the scoped-thread
//! machinery behind them.
//!
//! This module is the only place in the crate that starts threads. The
//! work that runs on several cores:
//!
//! * the O(n log n) coefficients at large n: Vigna's weighted τ
//!   ([`weighted_tau`](crate::weighted_tau), [`weighted_kendall`](crate::weighted_kendall)),
//!   τ_w ([`tau_w`](crate::tau_w)), τ-b ([`kendall_tau_b`](crate::kendall_tau_b)),
//!   Spearman's ρ ([`spearman`](crate::spearman)) and ρ_w ([`rho_w`](crate::rho_w)):
//!   their sorts, counting sweeps and sums are split over the threads from
//!   [`PARALLEL_FROM`] items on (below it they run on the caller's thread,
//!   so small inputs pay nothing);
//! * the replicates of the `uncertainty` module (permutations, resamples,
//!   Monte Carlo draws), whose count is their option `threads(…)`;
//! * the Hessian-vector products of one Bradley–Terry fit without ties
//!   (`pairwise`), item by item, from [`PARALLEL_FROM`] pairs on;
//! * the simulations of `simulate` (`Simulation::run`, sweeps), the
//!   (model, benchmark) pairs of [`wordsim::Evaluator::compare`](crate::wordsim::Evaluator::compare),
//!   the branches of the exact standardisation, and the queries of
//!   [`relevance::evaluate_trec`](crate::relevance::evaluate_trec);
//! * the TREC readers ([`relevance::read_trec_qrels`](crate::relevance::read_trec_qrels),
//!   [`relevance::read_trec_run`](crate::relevance::read_trec_run)), which
//!   read the first MiB of a file on the caller's thread alone and start
//!   helper threads only for what follows (small files, the common case of
//!   a training loop's validation or a unit test, pay nothing).
//!
//! # One contract
//! - *How many:* [`Threads::count`] decides for everyone: [`with_threads`]
//!   on the calling thread, else `ACM_THREADS`, else
//!   [`std::thread::available_parallelism`] (the only call of it in the
//!   crate). An explicit option (`uncertainty`'s `threads(…)`,
//!   `Simulation::run_with_threads`) is a [`Threads`] or a number given
//!   the same way.
//! - *A thread that cannot be started* (a target without threads, a
//!   process at its limit) is no error and no panic: its work falls to the
//!   threads that did start, the caller's among them, with the same result.
//! - *A panic* in work run on another thread is raised again on the
//!   caller's thread with its own payload, as it would have been on one
//!   thread; it is never turned into an error here. (The simulator, as a
//!   caller, documents that a simulation whose user closure panics is
//!   `SimulateError::ThreadPanicked`: it catches that itself, on any
//!   number of threads.)
//!
//! # Choosing the number
//! [`Threads::Available`], the default, means the environment variable
//! `ACM_THREADS` when it holds a positive integer, otherwise
//! [`std::thread::available_parallelism`] (1 if unknown). Set `ACM_THREADS=1`
//! to keep a program on one core. Within a program, [`with_threads`] sets
//! the number for the coefficients computed inside a closure, on the calling
//! thread:
//!
//! ```
//! use adaptive_comp_metrics::{kendall_tau_b, with_threads, Threads};
//! use std::num::NonZeroUsize;
//! let x: Vec<f64> = (0..200_000u64).map(|i| ((i * 7919) % 200_003) as f64).collect();
//! let y: Vec<f64> = (0..200_000u64).map(|i| ((i * 104_729) % 200_003) as f64).collect();
//! let one = with_threads(Threads::Fixed(NonZeroUsize::MIN), || kendall_tau_b(&x, &y))?;
//! let all = kendall_tau_b(&x, &y)?; // every core
//! assert_eq!(one, all); // bit for bit
//! # Ok::<(), adaptive_comp_metrics::CorrelationError>(())
//! ```
//!
//! # Determinism
//! Results never depend on the number of threads: bit for bit the same on 1,
//! 2 or 64. The work is cut into pieces whose boundaries depend on the input
//! only (never on the thread count): the buckets of a sort come from a fixed
//! sample of the input, the chunks of a counting sweep and of a sum have
//! sizes fixed by n. Each piece's result is exact (a sorted run, an integer
//! count, an exact fixed-point sum) and combined with the others in index
//! order, so which thread computed which piece cannot show. (Floating-point
//! sums whose value depends on their order, such as Spearman's compensated
//! sums, are formed on one thread, in one order.)
//!
//! # Why scoped threads and not rayon
//! The parallel steps are a few coarse fork–joins per call (a sort's
//! classification, scatter and bucket sorts; a counting sweep cut in
//! chunks; the chunks of a sum), each worth milliseconds at the sizes where
//! they run. [`std::thread::scope`] starts and joins a thread in 30–60 µs
//! (measured on the 2-core machine of the benchmarks), negligible there,
//! and so a work-stealing pool would not make these steps faster on few
//! cores; it would add a dependency (rayon and its
//! crossbeam crates) to a library that keeps its dependencies few, a global
//! pool that outlives the call, and a second way of counting threads next to
//! the one `uncertainty` already has. Scoped threads borrow the caller's
//! slices without `unsafe` (which the crate allows only in its SIMD
//! kernels), a thread that cannot be started (a target without threads, a
//! process at its limit) leaves its work to the caller's thread with the
//! same result, and a panic inside reaches the caller. So no cargo feature is needed to build without
//! threads either: with one thread nothing is spawned.

use core::cell::Cell;
use core::num::NonZeroUsize;
use std::sync::Mutex;

/// The number of items from which the coefficients split their work over
/// threads (when more than one is allowed). Below it, starting threads
/// costs about as much as it saves: on two cores, with the threshold
/// lowered for the measurement, weighted τ took 2.1 ms on one thread and
/// 2.1 ms on two at n = 2¹⁵, 3.7 ms and 2.9 ms at n = 2¹⁶
/// (`examples/bench_weighted_tau.rs`); τ-b and Spearman's ρ cross over at
/// about the same size.
pub const PARALLEL_FROM: usize = 1 << 16;

/// The environment variable read by [`Threads::Available`].
pub const THREADS_ENV: &str = "ACM_THREADS";

/// How many threads a computation uses. Results do not depend on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Threads {
    /// The environment variable `ACM_THREADS` when it is a positive integer,
    /// otherwise as many as [`std::thread::available_parallelism`] reports
    /// (1 if unknown).
    #[default]
    Available,
    /// Exactly this many (in `uncertainty`, capped by the number of
    /// replicates and at 256, since each thread holds O(n) scratch memory;
    /// in the coefficients, by the number of pieces of work).
    Fixed(NonZeroUsize),
}

impl Threads {
    /// The number of threads this choice means on this machine.
    ///
    /// # Examples
    /// ```
    /// use adaptive_comp_metrics::Threads;
    /// use std::num::NonZeroUsize;
    /// assert_eq!(Threads::Fixed(NonZeroUsize::new(3).unwrap()).count(), 3);
    /// assert!(Threads::Available.count() >= 1);
    /// ```
    #[must_use]
    pub fn count(self) -> usize {
        match self {
            Self::Available => from_env().unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
            }),
            Self::Fixed(n) => n.get(),
        }
    }

    /// One thread: the caller's.
    pub const ONE: Self = Self::Fixed(NonZeroUsize::MIN);
}

/// `ACM_THREADS` as a positive integer, if it is one.
fn from_env() -> Option<usize> {
    let v = std::env::var_os(THREADS_ENV)?;
    v.to_str()?
        .trim()
        .parse::<NonZeroUsize>()
        .ok()
        .map(NonZeroUsize::get)
}

thread_local! {
    /// The choice of [`with_threads`] on this thread, if any.
    static CURRENT: Cell<Option<Threads>> = const { Cell::new(None) };
}

/// Runs `f` with the coefficients computed on this thread using `threads`
/// threads (for instance [`Threads::ONE`], to keep a computation on the
/// caller's core), and restores the previous choice afterwards, also when
/// `f` panics. Calls nest; other threads are not affected.
///
/// The choice applies to the coefficients (see the [module docs](self)); the
/// `uncertainty` module's replicates have their own `threads(…)` option
/// (and run each replicate's coefficient on one thread when they use
/// several).
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{current_threads, with_threads, Threads};
/// use std::num::NonZeroUsize;
/// let two = Threads::Fixed(NonZeroUsize::new(2).unwrap());
/// assert_eq!(with_threads(two, current_threads), two);
/// assert_eq!(with_threads(Threads::ONE, || current_threads().count()), 1);
/// ```
pub fn with_threads<R>(threads: Threads, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Threads>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(Some(threads))));
    f()
}

/// The number of threads the coefficients use on this thread: the choice of
/// the innermost [`with_threads`], or [`Threads::Available`].
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::{current_threads, Threads};
/// assert_eq!(current_threads(), Threads::Available);
/// ```
#[must_use]
pub fn current_threads() -> Threads {
    CURRENT.with(Cell::get).unwrap_or_default()
}

/// The threads for a computation over `n` items: 1 below [`PARALLEL_FROM`]
/// (without reading the environment), otherwise [`current_threads`].
///
/// `#[inline]`, as are the one-thread paths of [`tabulate`], [`count`] and
/// [`sort`]: at n = 100 the calls they replaced were inline, and without it
/// `kendall_tau_b` took 12 % longer than before the threads came in (2.06
/// against 1.84 µs, `bench_weighted_tau 100 42 20000`), weighted τ 1.5 %.
#[inline]
pub(crate) fn workers_for(n: usize) -> usize {
    if n < PARALLEL_FROM {
        1
    } else {
        current_threads().count().max(1)
    }
}

/// Runs `task` on each item on up to `workers` threads (the caller's
/// included), and returns the results in the items' order. Items are taken
/// in order by whichever thread is free; a thread that cannot be started
/// leaves its share to the others, so the result is the same. A panic in a
/// task reaches the caller.
pub(crate) fn map<S: Send, T: Send>(
    items: Vec<S>,
    workers: usize,
    task: impl Fn(S) -> T + Sync,
) -> Vec<T> {
    map_init(items, workers, || (), |(), item| task(item))
}

/// [`map`] with a state each thread makes once with `init` and hands to
/// every task it runs (scratch buffers): `task(&mut state, item)`. The
/// results must not depend on which state a task gets (each thread's
/// tasks, and so its state's history, depend on timing).
pub(crate) fn map_init<S: Send, T: Send, W>(
    items: Vec<S>,
    workers: usize,
    init: impl Fn() -> W + Sync,
    task: impl Fn(&mut W, S) -> T + Sync,
) -> Vec<T> {
    let count = items.len();
    let workers = workers.min(count);
    if workers <= 1 {
        let mut state = init();
        return items
            .into_iter()
            .map(|item| task(&mut state, item))
            .collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let work = || {
        let mut state = init();
        let mut done = Vec::new();
        loop {
            // A poisoned lock means another task panicked: its panic is
            // re-raised below, so stop taking work.
            let Some((i, item)) = queue.lock().ok().and_then(|mut q| q.next()) else {
                return done;
            };
            done.push((i, task(&mut state, item)));
        }
    };
    let mut parts: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles = spawn(scope, workers - 1, &work);
        let mut all = work();
        for part in join_all(handles) {
            all.extend(part);
        }
        all
    });
    parts.sort_unstable_by_key(|p| p.0);
    debug_assert_eq!(parts.len(), count);
    parts.into_iter().map(|p| p.1).collect()
}

/// Runs `main` on the caller's thread while up to `helpers` more threads
/// run `help`, and returns what `main` returns once every helper has
/// returned. `help` must return when `main` tells it to (through what they
/// share), also when `main` fails or panics: a drop guard made first thing
/// in `main` does it. A helper that cannot be started is not there, so
/// `main` must not wait for one to do the work (it can do any of it
/// itself); a helper's panic is raised again on the caller's thread after
/// `main` returns.
pub(crate) fn with_helpers<R>(
    helpers: usize,
    help: impl Fn() + Sync,
    main: impl FnOnce() -> R,
) -> R {
    if helpers == 0 {
        return main();
    }
    std::thread::scope(|scope| {
        let handles = spawn(scope, helpers, &help);
        let r = main();
        join_all(handles);
        r
    })
}

/// Starts up to `n` scoped threads running `f`, as many as the system
/// gives (a thread that cannot be started is left out: the crate's one
/// rule for start failure, under which the caller's thread does the work).
fn spawn<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    n: usize,
    f: &'scope (impl Fn() -> T + Sync),
) -> Vec<std::thread::ScopedJoinHandle<'scope, T>> {
    #[cfg(test)]
    if REFUSE_THREADS.with(Cell::get) {
        return Vec::new();
    }
    (0..n)
        .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, f).ok())
        .collect()
}

#[cfg(test)]
thread_local! {
    /// Set by [`refusing_threads`]: [`spawn`] starts nothing, as on a
    /// system that cannot start a thread.
    static REFUSE_THREADS: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` as on a system that refuses to start threads (tests of the
/// rule for a thread that cannot start: its work falls to the caller's
/// thread, with the same result).
#[cfg(test)]
pub(crate) fn refusing_threads<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            REFUSE_THREADS.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(REFUSE_THREADS.with(|c| c.replace(true)));
    f()
}

/// The results of the threads `handles`, in order; a thread's panic is
/// raised again here, on the caller's thread, with its own payload (the
/// crate's one rule for panics: they reach the caller as they would have
/// on one thread).
fn join_all<T>(handles: Vec<std::thread::ScopedJoinHandle<'_, T>>) -> Vec<T> {
    handles
        .into_iter()
        .map(|h| match h.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        })
        .collect()
}

/// Items per piece of [`tabulate`] and [`count`].
const PASS_CHUNK: usize = 1 << 16;

/// The vector of `f(i)` for i in 0 … n − 1, in pieces of [`PASS_CHUNK`]
/// items on up to `workers` threads. On one thread (or for a small n) it is
/// collected in one pass, without zeroing it first.
#[inline]
pub(crate) fn tabulate<T: Send + Copy + Default>(
    n: usize,
    workers: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    if workers <= 1 || n <= PASS_CHUNK {
        return (0..n).map(f).collect();
    }
    let mut out = vec![T::default(); n];
    let pieces: Vec<(usize, &mut [T])> = (0..)
        .step_by(PASS_CHUNK)
        .zip(out.chunks_mut(PASS_CHUNK))
        .collect();
    map(pieces, workers, |(start, piece)| {
        for (i, o) in (start..).zip(piece) {
            *o = f(i);
        }
    });
    out
}

/// The number of i in `range` with `pred(i)`, in pieces of [`PASS_CHUNK`]
/// on up to `workers` threads.
#[inline]
pub(crate) fn count(
    range: core::ops::Range<usize>,
    workers: usize,
    pred: impl Fn(usize) -> bool + Sync,
) -> usize {
    if workers <= 1 || range.len() <= PASS_CHUNK {
        return range.filter(|&i| pred(i)).count();
    }
    let pieces: Vec<core::ops::Range<usize>> = range
        .clone()
        .step_by(PASS_CHUNK)
        .map(|s| s..(s + PASS_CHUNK).min(range.end))
        .collect();
    map(pieces, workers, |r| r.filter(|&i| pred(i)).count())
        .into_iter()
        .sum()
}

/// Runs `a` and `b`, on two threads when `parallel` (`b` on the caller's),
/// and returns both results. When the second thread cannot be started, or
/// has not started `a` by the time `b` is done, `a` runs on the caller's
/// thread.
pub(crate) fn join<A: Send, B>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
) -> (A, B) {
    if !parallel {
        let ra = a();
        return (ra, b());
    }
    let slot = Mutex::new(Some(a));
    let take = || slot.lock().ok().and_then(|mut s| s.take());
    let run_a = || take().map(|a| a());
    std::thread::scope(|scope| {
        let handles = spawn(scope, 1, &run_a);
        let rb = b();
        let here = run_a();
        let there = join_all(handles).into_iter().flatten().next();
        match here.or(there) {
            Some(ra) => (ra, rb),
            // `a` is taken exactly once, here or by the thread.
            None => unreachable!("the first task of a join ran nowhere"),
        }
    })
}

/// Items of a sort below which [`sort`] sorts in place on one thread.
const SORT_SERIAL: usize = PARALLEL_FROM;

/// Target number of items per bucket of [`sort`]: a bucket of 16-byte items
/// fits the L2 cache.
const BUCKET_ITEMS: usize = 1 << 13;

/// Sample items per bucket.
const OVERSAMPLE: usize = 16;

/// Bins of the classification table of [`sort`].
const BIN_BITS: u32 = 12;

/// Items per block of the classification and scatter passes of [`sort`].
const SORT_BLOCK: usize = 1 << 16;

/// An item of [`sort`]: totally ordered, with a leading 64-bit part that
/// orders it first (`a.lead() < b.lead()` implies `a < b`).
pub(crate) trait Sortable: Ord + Copy + Send + Sync {
    /// Whether the leading part is the whole item.
    const LEAD_IS_ALL: bool = false;

    /// The item of all zero bits (a vector of them is allocated zeroed,
    /// without writing it).
    const ZERO: Self;

    /// The leading 64 bits of the order.
    fn lead(&self) -> u64;
}

impl Sortable for u64 {
    const LEAD_IS_ALL: bool = true;
    const ZERO: Self = 0;

    fn lead(&self) -> u64 {
        *self
    }
}

impl Sortable for u128 {
    const ZERO: Self = 0;
    fn lead(&self) -> u64 {
        (*self >> 64) as u64
    }
}

impl Sortable for (u64, u64) {
    const ZERO: Self = (0, 0);
    fn lead(&self) -> u64 {
        self.0
    }
}

impl Sortable for (u64, u64, u32) {
    const ZERO: Self = (0, 0, 0);
    fn lead(&self) -> u64 {
        self.0
    }
}

/// Sorts `v` on up to `workers` threads: the same result as
/// `v.sort_unstable()` (the order of `Ord` is total, so the sorted
/// sequence is unique).
///
/// A sample sort (Frazer & McKellar 1970) whose buckets are ranges of the
/// items' leading 64 bits ([`Sortable::lead`]): a sample of the input at
/// fixed positions gives the range between its 1/64 and 63/64 quantiles,
/// cut into 2^[`BIN_BITS`] bins; a table sends each bin to one of about
/// n/[`BUCKET_ITEMS`] buckets so that the buckets get equal shares of the
/// sample (items outside the range go to the end bins). Blocks of
/// [`SORT_BLOCK`] items (at most 256 blocks) are classified (a subtraction,
/// a shift, a table look-up) and scattered to their buckets in parallel,
/// and the buckets sorted in parallel (a counting sort by the high bits of
/// the bucket's own range, then a comparison sort of each bin that holds
/// more than one item). Every boundary depends on n and the
/// data only, never on `workers`. Items with one leading part share a
/// bucket, so skewed data make uneven buckets: slower, never wrong.
/// O(n log n) time, n extra items and 2 bytes an item of memory.
#[inline]
pub(crate) fn sort<T: Sortable>(mut v: Vec<T>, workers: usize) -> Vec<T> {
    let n = v.len();
    if workers <= 1 || n < SORT_SERIAL {
        sort_by_lead(&mut v);
        return v;
    }
    let buckets = (n / BUCKET_ITEMS).clamp(2, 1 << 12);
    let samples = buckets * OVERSAMPLE;
    let mut sample: Vec<u64> = (0..samples)
        .map(|i| v[(i as u64 * n as u64 / samples as u64) as usize].lead())
        .collect();
    sample.sort_unstable();
    let lo = sample[samples / 64];
    let hi = sample[samples - 1 - samples / 64];
    // Bins of 2^shift leading values from lo on, at most 2^BIN_BITS of them.
    let shift = (u64::BITS - (hi - lo).leading_zeros()).saturating_sub(BIN_BITS);
    let bins = 1usize << BIN_BITS;
    let bin = move |lead: u64| ((lead.saturating_sub(lo) >> shift) as usize).min(bins - 1);
    let mut per_bin = vec![0usize; bins];
    for &s in &sample {
        per_bin[bin(s)] += 1;
    }
    // Bucket of a bin: the share of the sample before it, times the buckets.
    let mut table = vec![0u16; bins];
    let mut before = 0usize;
    for (t, &c) in table.iter_mut().zip(&per_bin) {
        *t = (before * buckets / samples).min(buckets - 1) as u16;
        before += c;
    }
    // Memory for the workers comes from the caller's thread: a thread's own
    // allocations of this size are returned to the system when it ends,
    // and every call would fault them in again.
    let block = SORT_BLOCK.max(n.div_ceil(256));
    let mut ids = vec![0u16; n];
    let mut out = vec![T::ZERO; n];
    // Each block of the input (at most 256 of them) is classified, in
    // parallel.
    let jobs: Vec<(&[T], &mut [u16])> = v.chunks(block).zip(ids.chunks_mut(block)).collect();
    let counts: Vec<Vec<usize>> = map(jobs, workers, |(block, ids)| {
        let mut counts = vec![0usize; buckets];
        for (id, x) in ids.iter_mut().zip(block) {
            *id = table[bin(x.lead())];
            counts[usize::from(*id)] += 1;
        }
        counts
    });
    // The output, cut into one piece per (bucket, block), bucket-major; each
    // block scatters its items to its pieces, in parallel.
    let mut rest: &mut [T] = &mut out;
    let mut pieces: Vec<Vec<&mut [T]>> = counts.iter().map(|_| Vec::new()).collect();
    let mut bucket_lens = vec![0usize; buckets];
    for (b, len) in bucket_lens.iter_mut().enumerate() {
        for (to, c) in pieces.iter_mut().zip(&counts) {
            let (piece, tail) = rest.split_at_mut(c[b]);
            to.push(piece);
            *len += c[b];
            rest = tail;
        }
    }
    let jobs: Vec<_> = v.chunks(block).zip(ids.chunks(block)).zip(pieces).collect();
    map(jobs, workers, |((block, ids), mut to)| {
        let mut at = vec![0usize; buckets];
        for (x, &b) in block.iter().zip(ids) {
            let b = usize::from(b);
            to[b][at[b]] = *x;
            at[b] += 1;
        }
    });
    drop(ids);
    // The buckets, each sorted on its own, in parallel, into the input's
    // memory (free now): the sorted sequence ends up in `v`.
    let (mut rest, mut into): (&mut [T], &mut [T]) = (&mut out, &mut v);
    let mut parts = Vec::with_capacity(buckets);
    for &len in &bucket_lens {
        let (part, tail) = rest.split_at_mut(len);
        let (dest, dest_tail) = into.split_at_mut(len);
        parts.push((part, dest));
        (rest, into) = (tail, dest_tail);
    }
    map(parts, workers, |(part, dest)| radix_bucket(part, dest));
    v
}

/// Sorts the items of `from` into `to` (of the same length): a counting
/// sort by the leading parts' high bits (about one item per bin, from the
/// bucket's own range of leading parts), then [`sort_by_lead`] on each bin
/// of more than one item. O(len) for spread-out keys; skewed keys fall to
/// the comparison sort within their bin.
fn radix_bucket<T: Sortable>(from: &[T], to: &mut [T]) {
    let len = from.len();
    // (Bins count in u32.)
    if len < 64 || u32::try_from(len).is_err() {
        to.copy_from_slice(from);
        sort_by_lead(to);
        return;
    }
    let (lo, hi) = from.iter().fold((u64::MAX, 0), |(lo, hi), x| {
        (lo.min(x.lead()), hi.max(x.lead()))
    });
    // Bins of 2^shift leading values from lo: at most 2·len of them.
    let bits = u64::BITS - (hi - lo).leading_zeros();
    let shift = bits.saturating_sub(usize::BITS - len.leading_zeros());
    let bin = |x: &T| ((x.lead() - lo) >> shift) as usize;
    let mut start = vec![0u32; (((hi - lo) >> shift) as usize) + 2];
    for x in from {
        start[bin(x) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut at = start.clone();
    for x in from {
        let b = bin(x);
        to[at[b] as usize] = *x;
        at[b] += 1;
    }
    for w in start.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        if b - a > 1 {
            sort_by_lead(&mut to[a..b]);
        }
    }
}

/// Sorts `v` by the leading parts (one 64-bit comparison a step), then each
/// run of equal leading parts by the whole items: the order of `Ord`, with
/// cheaper comparisons (such runs are rare unless there are ties).
#[inline]
fn sort_by_lead<T: Sortable>(v: &mut [T]) {
    v.sort_unstable_by_key(Sortable::lead);
    if T::LEAD_IS_ALL {
        return;
    }
    let mut start = 0;
    while start < v.len() {
        let lead = v[start].lead();
        let len = v[start..].iter().take_while(|t| t.lead() == lead).count();
        if len > 1 {
            v[start..start + len].sort_unstable();
        }
        start += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Checks [`sort`] against `sort_unstable` on 1, 2, 3 and 7 workers.
    fn check<T: Sortable + core::fmt::Debug>(v: &[T], what: &str) {
        let mut want = v.to_vec();
        want.sort_unstable();
        for workers in [1, 2, 3, 7] {
            let got = sort(v.to_vec(), workers);
            assert!(got == want, "{what}, n = {}, {workers} workers", v.len());
        }
    }

    #[test]
    fn sort_equals_the_standard_sort_on_every_shape_of_data() {
        let mut g = ChaCha8Rng::seed_from_u64(1);
        for n in [SORT_SERIAL - 1, SORT_SERIAL, 3 * SORT_SERIAL + 17] {
            let uniform: Vec<u64> = (0..n).map(|_| g.random()).collect();
            check(&uniform, "uniform");
            let few: Vec<u64> = (0..n).map(|_| g.random_range(0..5u64)).collect();
            check(&few, "five distinct values");
            check(&vec![7u64; n], "all equal");
            let sorted: Vec<u64> = (0..n as u64).collect();
            check(&sorted, "sorted");
            let reversed: Vec<u64> = (0..n as u64).rev().collect();
            check(&reversed, "reversed");
            // Powers of two: most items in a few leading bins.
            let skewed: Vec<u64> = (0..n).map(|_| 1u64 << g.random_range(0..64u32)).collect();
            check(&skewed, "skewed");
            // One huge outlier among small keys, and keys that differ only
            // in their last bits.
            let mut outlier: Vec<u64> = (0..n).map(|_| g.random_range(0..1000u64)).collect();
            outlier[n / 3] = u64::MAX;
            check(&outlier, "outlier");
            let close: Vec<u64> = (0..n)
                .map(|_| (1 << 60) + g.random_range(0..64u64))
                .collect();
            check(&close, "close keys");
            // Tuples whose order is decided past the leading part.
            let pairs: Vec<(u64, u64)> = (0..n)
                .map(|_| (g.random_range(0..50u64), g.random()))
                .collect();
            check(&pairs, "pairs with tied leads");
            let triples: Vec<(u64, u64, u32)> = (0..n)
                .map(|i| (g.random_range(0..3u64), g.random_range(0..3u64), i as u32))
                .collect();
            check(&triples, "triples");
            let wide: Vec<u128> = (0..n)
                .map(|_| (u128::from(g.random_range(0..1000u64)) << 64) | g.random::<u128>() >> 64)
                .collect();
            check(&wide, "u128");
        }
    }

    #[test]
    fn map_keeps_the_order_of_the_items() {
        for workers in [1, 2, 5, 40] {
            let out = map((0..100u64).collect(), workers, |i| i * i);
            assert_eq!(out, (0..100u64).map(|i| i * i).collect::<Vec<_>>());
        }
        assert!(map(Vec::<u8>::new(), 4, |i| i).is_empty());
    }

    #[test]
    fn a_panic_in_a_task_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            map((0..64u32).collect(), 4, |i| assert!(i != 37, "task 37"));
        });
        assert!(caught.is_err());
        let caught = std::panic::catch_unwind(|| join(true, || panic!("first"), || 1));
        assert!(caught.is_err());
        let caught = std::panic::catch_unwind(|| join(true, || 1, || panic!("second")));
        assert!(caught.is_err());
    }

    #[test]
    fn a_panic_reaches_the_caller_with_its_own_payload() {
        let payload = |f: &dyn Fn()| {
            let e = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err();
            e.downcast_ref::<&str>().map(|s| (*s).to_owned())
        };
        let on_a_thread = || {
            map((0..64u32).collect(), 4, |i| {
                if i == 37 {
                    std::panic::panic_any("task 37");
                }
            });
        };
        assert_eq!(payload(&on_a_thread).as_deref(), Some("task 37"));
        let helper = || with_helpers(2, || std::panic::panic_any("helper"), || 1);
        assert_eq!(
            payload(&|| assert_eq!(helper(), 1)).as_deref(),
            Some("helper")
        );
        let both = || join(true, || std::panic::panic_any("a"), || 2);
        assert_eq!(payload(&|| assert_eq!(both().1, 2)).as_deref(), Some("a"));
    }

    #[test]
    fn map_init_gives_each_thread_one_state() {
        for workers in [1, 2, 3, 8] {
            let made = AtomicUsize::new(0);
            let out = map_init(
                (0..200u64).collect(),
                workers,
                || {
                    made.fetch_add(1, Ordering::Relaxed);
                    Vec::new()
                },
                |seen: &mut Vec<u64>, i| {
                    seen.push(i);
                    // A thread's items come in increasing order.
                    assert!(seen.windows(2).all(|w| w[0] < w[1]));
                    i * 3
                },
            );
            assert_eq!(out, (0..200u64).map(|i| i * 3).collect::<Vec<_>>());
            let made = made.into_inner();
            assert!(
                (1..=workers).contains(&made),
                "{made} states, {workers} workers"
            );
        }
    }

    #[test]
    fn with_helpers_returns_once_every_helper_has() {
        for helpers in [0, 1, 3] {
            let stop = AtomicBool::new(false);
            let ran = AtomicUsize::new(0);
            let r = with_helpers(
                helpers,
                || {
                    ran.fetch_add(1, Ordering::SeqCst);
                    while !stop.load(Ordering::SeqCst) {
                        std::thread::yield_now();
                    }
                },
                || {
                    stop.store(true, Ordering::SeqCst);
                    "main"
                },
            );
            assert_eq!(r, "main");
            // Every helper started has returned (none may start late).
            let ran = ran.into_inner();
            assert!(ran <= helpers, "{ran} of {helpers}");
        }
    }

    #[test]
    fn threads_that_cannot_start_leave_their_work_to_the_caller() {
        let caller = std::thread::current().id();
        refusing_threads(|| {
            let out = map((0..100u64).collect(), 4, |i| {
                assert_eq!(std::thread::current().id(), caller);
                i + 1
            });
            assert_eq!(out, (1..=100u64).collect::<Vec<_>>());
            let out = map_init((0..10u8).collect(), 4, || 7u8, |s, i| *s + i);
            assert_eq!(out, (7..17u8).collect::<Vec<_>>());
            let helped = AtomicUsize::new(0);
            let r = with_helpers(
                3,
                || {
                    helped.fetch_add(1, Ordering::SeqCst);
                },
                || 5,
            );
            assert_eq!((r, helped.into_inner()), (5, 0));
            assert_eq!(join(true, || 1, || 2), (1, 2));
            let v: Vec<u64> = (0..200_000u64).map(|i| (i * 7919) % 200_003).collect();
            let mut expected = v.clone();
            expected.sort_unstable();
            assert_eq!(sort(v, 4), expected);
        });
    }

    #[test]
    fn join_returns_both_results() {
        for parallel in [false, true] {
            let v = [1, 2, 3];
            let (a, b) = join(parallel, || v.iter().sum::<i32>(), || v.len());
            assert_eq!((a, b), (6, 3));
        }
    }

    #[test]
    fn small_inputs_stay_on_one_thread() {
        assert_eq!(workers_for(PARALLEL_FROM - 1), 1);
        assert_eq!(
            with_threads(Threads::Fixed(NonZeroUsize::new(3).unwrap()), || {
                workers_for(PARALLEL_FROM)
            }),
            3
        );
        assert_eq!(with_threads(Threads::ONE, || workers_for(1 << 30)), 1);
    }
}
