//! Planning, pairing and a full simulated collection with the adaptive-ballot
//! scheduler.

use std::hint::black_box;

use adaptive_comp_metrics::ballot::{
    BallotConfig, Scheduler, Unvoted, Vote, plan, random_matchings,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The planner: sizes, exact counts, M_top, M_unif, before any vote.
fn planning(c: &mut Criterion) {
    let mut g = c.benchmark_group("ballot_plan");
    for n in [990usize, 1_000_000] {
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let config = BallotConfig::new(black_box(n), 20, 0.5, 7).unwrap();
                black_box(plan(&config).total_comparisons)
            });
        });
    }
    g.finish();
}

/// Issuing the comparisons of every planned ballot (N⁽ᵏ⁾ items, M = 20).
fn pairing(c: &mut Criterion) {
    let mut g = c.benchmark_group("ballot_pairing_all_ballots");
    g.sample_size(10);
    for n in [990usize, 100_000, 1_000_000] {
        let config = BallotConfig::new(n, 20, 0.5, 7).unwrap();
        let p = plan(&config);
        g.throughput(Throughput::Elements(p.total_comparisons));
        g.bench_with_input(BenchmarkId::from_parameter(n), &p.sizes, |b, sizes| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            b.iter(|| {
                let mut total = 0;
                for &size in sizes {
                    let items: Vec<usize> = (0..size).collect();
                    total += random_matchings(&items, 20, &mut rng).unwrap().len();
                }
                black_box(total)
            });
        });
    }
    g.finish();
}

/// One whole collection of the paper's setting (N = 990, M = 20, α = 0.5,
/// n_b = 7: 19 660 votes), votes by ticket or by pair.
fn collection(c: &mut Criterion) {
    let mut g = c.benchmark_group("ballot_collection_990");
    let config = BallotConfig::new(990, 20, 0.5, 7).unwrap();
    g.throughput(Throughput::Elements(plan(&config).total_comparisons));
    for by_pair in [false, true] {
        let name = if by_pair {
            "record_win"
        } else {
            "record_ticket"
        };
        g.bench_function(name, |b| {
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            b.iter(|| {
                let mut s = Scheduler::new(config);
                while let Ok(comparisons) = s.open_ballot(&mut rng) {
                    let comparisons = comparisons.to_vec();
                    for (t, cmp) in comparisons.iter().enumerate() {
                        let first_wins = (cmp.first < cmp.second) ^ (rng.random::<f64>() < 0.2);
                        if by_pair {
                            let (w, l) = if first_wins {
                                (cmp.first, cmp.second)
                            } else {
                                (cmp.second, cmp.first)
                            };
                            s.record_win(w, l).unwrap();
                        } else {
                            let v = if first_wins {
                                Vote::First
                            } else {
                                Vote::Second
                            };
                            s.record(t, v).unwrap();
                        }
                    }
                    s.close_ballot(Unvoted::Reject).unwrap();
                }
                black_box(s.ranking(&mut rng).unwrap().entries.len())
            });
        });
    }
    g.finish();
}

criterion_group!(benches, planning, pairing, collection);
criterion_main!(benches);
