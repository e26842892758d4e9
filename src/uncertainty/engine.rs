//! Replicates run in parallel, reproducibly and in bounded memory: replicate
//! `i` draws from its own ChaCha8 stream `(seed, i)`, replicates are computed
//! in blocks of [`BLOCK`] indices (the block boundaries do not depend on the
//! number of threads) and each block's results are handed to the caller in
//! index order, so the output does not depend on the number of threads and
//! memory does not grow with the number of replicates.

use super::{Threads, UncertaintyError};
use crate::correlation::error::CorrelationError;
use crate::sum::Neumaier;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Replicates computed before their results are handed on: the transient
/// memory of a run is `BLOCK` results, whatever the number of replicates.
pub(crate) const BLOCK: usize = 1 << 16;

/// The most threads a block uses, whatever [`Threads`] asks: each holds
/// O(n) scratch memory, and results do not depend on the count.
pub(crate) const MAX_THREADS: usize = 256;

/// Values kept by [`Moments`] for the exact two-pass standard deviation.
pub(crate) const KEEP: usize = 1 << 20;

/// The random stream of replicate `index` for a run seeded with `seed`.
pub(crate) fn replicate_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

/// Checks `needed ≤ got ≤ limit` for a number of replicates: the limit is
/// checked before anything is allocated or run.
pub(crate) fn check_count(
    what: &'static str,
    needed: usize,
    got: usize,
    limit: usize,
) -> Result<(), UncertaintyError> {
    if got < needed {
        return Err(UncertaintyError::TooFewReplicates { what, needed, got });
    }
    if got > limit {
        return Err(UncertaintyError::TooLarge {
            quantity: what,
            requested: got as u64,
            limit: limit as u64,
        });
    }
    Ok(())
}

/// Checks that `values` holds one value per replicate of a run of `count`
/// (`what`): [`CorrelationError::LengthMismatch`] otherwise.
pub(crate) fn check_values(
    values: &[f64],
    what: &'static str,
    count: usize,
) -> Result<(), UncertaintyError> {
    if values.len() == count {
        return Ok(());
    }
    Err(CorrelationError::LengthMismatch {
        left: "values",
        left_len: values.len(),
        right: what,
        right_len: count,
    }
    .into())
}

/// Runs `job(state, i, rng_i)` for `i` in `range` and hands every result
/// to `sink(i, result)` in index order; the first error of `sink` stops the
/// run (no later block is computed) and is returned. Replicate `i` gets its
/// own stream whatever the range, so a run split into ranges (on several
/// processes or machines) and put back together in index order is the run
/// over `0..count` itself.
///
/// Within a block the indices are split into contiguous chunks, one per
/// thread (at most [`MAX_THREADS`]), each thread with its own `init()` state
/// (scratch buffers whose content must not influence the result); a chunk
/// whose thread cannot be spawned runs on the caller's thread. A panic in
/// `job` is propagated.
pub(crate) fn for_each<S, T, I, J, K, E>(
    range: core::ops::Range<usize>,
    seed: u64,
    threads: Threads,
    init: I,
    job: J,
    mut sink: K,
) -> Result<(), E>
where
    T: Send,
    I: Fn() -> S + Sync,
    J: Fn(&mut S, usize, &mut ChaCha8Rng) -> T + Sync,
    K: FnMut(usize, T) -> Result<(), E>,
{
    let threads = threads.count();
    if threads <= 1 || range.len() <= 1 {
        let mut state = init();
        for i in range {
            sink(i, job(&mut state, i, &mut replicate_rng(seed, i)))?;
        }
        return Ok(());
    }
    let count = range.end;
    // The replicates already use every thread: each one's coefficient runs
    // on its own thread (`with_threads`), rather than starting more.
    let run_chunk = |start: usize, end: usize| -> Vec<T> {
        crate::threads::with_threads(Threads::ONE, || {
            let mut state = init();
            (start..end)
                .map(|i| job(&mut state, i, &mut replicate_rng(seed, i)))
                .collect()
        })
    };
    let mut block_start = range.start;
    while block_start < count {
        let block_end = block_start + (count - block_start).min(BLOCK);
        let len = block_end - block_start;
        let workers = threads.min(len).min(MAX_THREADS);
        let chunk = len.div_ceil(workers);
        let chunks: Vec<(usize, usize)> = (0..workers)
            .map(|w| {
                let start = (block_start + w * chunk).min(block_end);
                (start, (start + chunk).min(block_end))
            })
            .collect();
        let parts = crate::threads::map(chunks, workers, |(start, end)| run_chunk(start, end));
        let mut index = block_start;
        for part in parts {
            for result in part {
                sink(index, result)?;
                index += 1;
            }
        }
        block_start = block_end;
    }
    Ok(())
}

/// Mean and sample standard deviation (m − 1 denominator) of a stream of
/// values taken in index order, in bounded memory.
///
/// ```text
/// mean = (Σ_k t_k)/m                                   (compensated sum)
/// m ≤ KEEP:  s² = Σ_k (t_k − mean)²/(m − 1)             (two passes over the kept values)
/// m > KEEP:  s² = (Σ_k d_k² − (Σ_k d_k)²/m)/(m − 1),  d_k = t_k − t_0   (one pass)
/// ```
///
/// The one-pass form, shifted by the first value and with compensated sums,
/// agrees with the two-pass one to a few units in the last place; it is only
/// used beyond [`KEEP`] values, so that the first `KEEP` values are the only
/// ones ever held.
#[derive(Debug, Clone)]
pub(crate) struct Moments {
    count: usize,
    sum: Neumaier,
    kept: Vec<f64>,
    keep: usize,
    streaming: bool,
    shift: f64,
    d1: Neumaier,
    d2: Neumaier,
}

impl Moments {
    /// An empty stream that keeps at most `keep` values.
    pub(crate) fn new(keep: usize) -> Self {
        Self {
            count: 0,
            sum: Neumaier::default(),
            kept: Vec::new(),
            keep,
            streaming: false,
            shift: 0.0,
            d1: Neumaier::default(),
            d2: Neumaier::default(),
        }
    }

    /// Adds the next value.
    pub(crate) fn push(&mut self, v: f64) {
        self.count += 1;
        self.sum.add(v);
        if !self.streaming {
            if self.kept.len() < self.keep {
                self.kept.push(v);
                return;
            }
            // Switch to the one-pass form: fold in what was kept.
            self.streaming = true;
            let kept = core::mem::take(&mut self.kept);
            self.shift = kept.first().copied().unwrap_or(v);
            for k in kept {
                self.fold(k);
            }
        }
        self.fold(v);
    }

    fn fold(&mut self, v: f64) {
        let d = v - self.shift;
        self.d1.add(d);
        self.d2.add(d * d);
    }

    /// Number of values.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The mean (NaN for no value).
    pub(crate) fn mean(&self) -> f64 {
        self.sum.value() / self.count as f64
    }

    /// The sample standard deviation (0 for fewer than 2 values).
    pub(crate) fn sd(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let m = self.count as f64;
        let ss = if !self.streaming {
            let mean = self.mean();
            crate::sum::neumaier(self.kept.iter().map(|v| (v - mean) * (v - mean)))
        } else {
            let d1 = self.d1.value();
            (self.d2.value() - d1 * d1 / m).max(0.0)
        };
        (ss / (m - 1.0)).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::num::NonZeroUsize;
    use rand::RngExt;

    fn draw(count: usize, t: Threads) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        let calls = for_each(
            0..count,
            7,
            t,
            || 0usize,
            |calls, i, rng| {
                *calls += 1;
                (i, rng.random::<u64>())
            },
            |i, (j, r)| {
                assert_eq!(i, j, "results arrive in index order");
                out.push((i, r));
                Ok::<(), ()>(())
            },
        );
        assert_eq!(calls, Ok(()));
        out
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        // 101 replicates (one block) and BLOCK + 3 (two blocks).
        for count in [101, BLOCK + 3] {
            let one = draw(count, Threads::Fixed(NonZeroUsize::MIN));
            assert_eq!(one.len(), count);
            assert!(one.iter().enumerate().all(|(i, &(j, _))| i == j));
            for t in [2, 3, 8, 200, 100_000] {
                assert_eq!(
                    draw(count, Threads::Fixed(NonZeroUsize::new(t).unwrap())),
                    one
                );
            }
            assert_eq!(draw(count, Threads::Available), one);
            // Streams differ between replicates and between seeds.
            assert_ne!(one[0].1, one[1].1);
            assert_ne!(replicate_rng(8, 0).random::<u64>(), one[0].1);
        }
    }

    #[test]
    fn the_sink_stops_the_run_at_its_first_error() {
        for t in [1, 4] {
            let mut seen = 0;
            let r = for_each(
                0..3 * BLOCK,
                1,
                Threads::Fixed(NonZeroUsize::new(t).unwrap()),
                || (),
                |_, i, _| i,
                |i, _| {
                    seen += 1;
                    if i == 5 { Err(i) } else { Ok(()) }
                },
            );
            assert_eq!(r, Err(5));
            assert_eq!(seen, 6, "no result after the error reaches the sink");
        }
    }

    #[test]
    fn zero_replicates_give_nothing() {
        let mut n = 0;
        for_each(
            0..0,
            1,
            Threads::Available,
            || (),
            |_, _, _| 0u8,
            |_, _| {
                n += 1;
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(n, 0);
    }

    #[test]
    fn moments_two_pass_and_one_pass_agree() {
        // Values 0.5, 0.7, 0.9: mean 0.7, SD 0.2 (by hand).
        let values: Vec<f64> = (0..10_000)
            .map(|i| 0.7 + 0.2 * f64::from(i % 3 - 1))
            .collect();
        let mut kept = Moments::new(usize::MAX);
        let mut streamed = Moments::new(100);
        for &v in &values {
            kept.push(v);
            streamed.push(v);
        }
        assert_eq!(kept.count(), 10_000);
        assert_eq!(kept.mean().to_bits(), streamed.mean().to_bits());
        let (a, b) = (kept.sd(), streamed.sd());
        assert!((a - b).abs() <= 1e-14 * a, "{a} vs {b}");
        // 3334 values of 0.5, 3333 of 0.7, 3333 of 0.9 (i % 3 = 0, 1, 2):
        // mean = 0.7 − 0.2/10 000·1, checked against the two-pass value.
        let mean = (3334.0 * 0.5 + 3333.0 * 0.7 + 3333.0 * 0.9) / 10_000.0;
        assert!((kept.mean() - mean).abs() < 1e-15);
        let one = {
            let mut m = Moments::new(0);
            m.push(3.0);
            m
        };
        assert_eq!((one.mean(), one.sd()), (3.0, 0.0));
    }
}
