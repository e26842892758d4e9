//! Replicates run in parallel, reproducibly: replicate `i` draws from its own
//! ChaCha8 stream `(seed, i)`, and results are combined in index order, so
//! the output does not depend on the number of threads.

use super::Threads;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The random stream of replicate `index` for a run seeded with `seed`.
pub(crate) fn replicate_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

/// Runs `job(state, i, rng_i)` for `i` in `0..count` over contiguous chunks
/// of indices, one per thread, each thread with its own `init()` state
/// (scratch buffers), and returns the results in index order.
///
/// A panic in `job` is propagated to the caller.
pub(crate) fn run<S, T, I, J>(count: usize, seed: u64, threads: Threads, init: I, job: J) -> Vec<T>
where
    T: Send,
    I: Fn() -> S + Sync,
    J: Fn(&mut S, usize, &mut ChaCha8Rng) -> T + Sync,
{
    let workers = threads.count().min(count).max(1);
    let chunk = count.div_ceil(workers);
    let run_chunk = |start: usize, end: usize| -> Vec<T> {
        let mut state = init();
        (start..end)
            .map(|i| job(&mut state, i, &mut replicate_rng(seed, i)))
            .collect()
    };
    if workers == 1 {
        return run_chunk(0, count);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (start, end) = ((w * chunk).min(count), ((w + 1) * chunk).min(count));
                let run_chunk = &run_chunk;
                scope.spawn(move || run_chunk(start, end))
            })
            .collect();
        let mut out = Vec::with_capacity(count);
        for handle in handles {
            match handle.join() {
                Ok(part) => out.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::num::NonZeroUsize;
    use rand::Rng;

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let draw = |t: Threads| {
            run(
                101,
                7,
                t,
                || 0usize,
                |calls, i, rng| {
                    *calls += 1;
                    (i, rng.random::<u64>())
                },
            )
        };
        let one = draw(Threads::Fixed(NonZeroUsize::MIN));
        assert_eq!(one.len(), 101);
        assert!(one.iter().enumerate().all(|(i, &(j, _))| i == j));
        for t in [2, 3, 8, 200] {
            assert_eq!(draw(Threads::Fixed(NonZeroUsize::new(t).unwrap())), one);
        }
        assert_eq!(draw(Threads::Available), one);
        // Streams differ between replicates and between seeds.
        assert_ne!(one[0].1, one[1].1);
        assert_ne!(replicate_rng(8, 0).random::<u64>(), one[0].1);
    }

    #[test]
    fn zero_replicates_give_nothing() {
        let out: Vec<u8> = run(0, 1, Threads::Available, || (), |_, _, _| 0);
        assert!(out.is_empty());
    }
}
