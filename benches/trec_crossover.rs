//! Where the TREC readers gain from a second thread (issue 39): wall and
//! CPU time of `read_trec_qrels` and `read_trec_run` on one thread, on two
//! with helper threads from the first byte (the readers before issue 39),
//! and on two as the readers are (helpers from 1 MiB on), for inputs from
//! 1 KB to 60 MB, with short lines (ids of a few characters) and long ones
//! (ids of about 60), read from memory.
//!
//! ```text
//! cargo run --release -p adaptive-comp-metrics-benches --bin trec_crossover [MAX_BYTES]
//! ```
//!
//! Each cell repeats the reading until half a second has passed (at least
//! 3 times) and prints the median wall time of a reading and its CPU time
//! (the process's user + system time over all repetitions, from
//! `/proc/self/stat`, divided by their number; Linux only). The thread
//! count is set with `with_threads`, so `ACM_THREADS` plays no part.

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use adaptive_comp_metrics::relevance::fuzzing::{read_qrels_sized, read_run_sized};
use adaptive_comp_metrics::relevance::{Ids, TrecSyntax, read_trec_qrels, read_trec_run};
use adaptive_comp_metrics::{Threads, with_threads};

/// The readers' chunk and largest block, helpers from the first byte.
const FROM_START: (usize, usize, usize) = (1 << 16, 1 << 20, 0);

/// The process's user + system time so far, from `/proc/self/stat`
/// (fields 14 and 15, in clock ticks of 10 ms).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name (field 2) may hold spaces: count from its ')'.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<u64> = rest
        .split_ascii_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // Field 3 is the first after ')': utime is field 14, stime 15.
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// A qrels file and a run of about `bytes` bytes each: queries of 100
/// judged and 100 ranked documents, ids padded to `id_len` characters.
fn files(bytes: usize, id_len: usize) -> (String, String) {
    let pad = |prefix: &str, i: usize| format!("{prefix}{i:0>width$}", width = id_len.max(2) - 1);
    let (mut qrels, mut run) = (String::new(), String::new());
    let mut i = 0usize;
    while qrels.len() < bytes || run.len() < bytes {
        let (q, d) = (i / 100, i % 100);
        if qrels.len() < bytes {
            qrels.push_str(&format!(
                "{} 0 {} {}\n",
                pad("q", q),
                pad("d", d),
                (i * 7) % 3
            ));
        }
        if run.len() < bytes {
            run.push_str(&format!(
                "{} Q0 {} {} {:.4} run\n",
                pad("q", q),
                pad("d", (d * 37) % 100),
                d + 1,
                1.0 / (d + 1) as f64
            ));
        }
        i += 1;
    }
    (qrels, run)
}

/// Median wall time and mean CPU time of `read` on `threads` threads.
fn time(threads: usize, read: &dyn Fn()) -> (Duration, Duration) {
    let threads = Threads::Fixed(NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN));
    with_threads(threads, || {
        read(); // warm
        let (start, cpu0) = (Instant::now(), cpu_time());
        let mut walls = Vec::new();
        while walls.len() < 3 || start.elapsed() < Duration::from_millis(500) {
            let t = Instant::now();
            read();
            walls.push(t.elapsed());
        }
        let cpu = (cpu_time() - cpu0) / walls.len() as u32;
        walls.sort_unstable();
        (walls[walls.len() / 2], cpu)
    })
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(60_000_000);
    let sizes = [
        1_000, 4_000, 16_000, 64_000, 128_000, 256_000, 512_000, 1_000_000, 4_000_000, 16_000_000,
        60_000_000,
    ];
    println!(
        "file\tlines\tbytes\twall_1t_us\twall_2t_from0_us\twall_2t_us\tcpu_1t_us\tcpu_2t_from0_us\tcpu_2t_us"
    );
    for id_len in [4, 60] {
        let kind = if id_len < 10 { "short" } else { "long" };
        for &bytes in sizes.iter().filter(|&&b| b <= max) {
            let (qrels, run) = files(bytes, id_len);
            let read_qrels = || {
                let _ = read_trec_qrels(qrels.as_bytes(), &mut Ids::new());
            };
            let qrels_from0 = || {
                let (text, ids) = (qrels.as_bytes(), &mut Ids::new());
                let _ = read_qrels_sized(text, ids, TrecSyntax::Lenient, FROM_START, 2);
            };
            let read_run = || {
                let _ = read_trec_run(run.as_bytes(), &mut Ids::new());
            };
            let run_from0 = || {
                let (text, ids) = (run.as_bytes(), &mut Ids::new());
                let _ = read_run_sized(text, ids, TrecSyntax::Lenient, None, FROM_START, 2);
            };
            for (name, text, read, from0) in [
                (
                    "qrels",
                    &qrels,
                    &read_qrels as &dyn Fn(),
                    &qrels_from0 as &dyn Fn(),
                ),
                ("run", &run, &read_run as &dyn Fn(), &run_from0 as &dyn Fn()),
            ] {
                let (w1, c1) = time(1, read);
                let (w0, c0) = time(2, from0);
                let (w2, c2) = time(2, read);
                println!(
                    "{name}/{kind}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    text.lines().count(),
                    text.len(),
                    w1.as_micros(),
                    w0.as_micros(),
                    w2.as_micros(),
                    c1.as_micros(),
                    c0.as_micros(),
                    c2.as_micros()
                );
            }
        }
    }
}
