//! One simulation of Table 2's setting (N = 990, M = 20, α = 0.5, n_b = 7,
//! 100 voters; uniform + adaptive, 39 460 votes): collection only, and with
//! the four accuracy metrics; the crowd draw alone (100 × 990 opinions).

use adaptive_comp_metrics::ballot::BallotConfig;
use adaptive_comp_metrics::simulate::{Metric, Simulation, Underlying, VoterModel};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let z = Underlying::exponential(990).expect("valid distribution");
    let config = BallotConfig::new(990, 20, 0.5, 7).expect("valid configuration");
    let base = Simulation::new(z.clone(), config).expect("valid configuration");
    let run = base.simulate(0, 0).expect("a simulation");
    let votes = run.uniform.comparisons + run.adaptive.comparisons;

    let mut g = c.benchmark_group("simulate");
    g.throughput(Throughput::Elements(votes));
    for (name, metrics) in [
        ("collect", vec![]),
        ("collect+table2_metrics", Metric::table2()),
    ] {
        let sim = base.clone().metrics(metrics);
        let mut i = 0;
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                i += 1;
                sim.simulate(black_box(1), i)
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("crowd");
    g.throughput(Throughput::Elements(100 * 990));
    let model = VoterModel::published();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    g.bench_function("draw_100x990", |b| {
        b.iter(|| model.draw(black_box(&z), 100, &mut rng))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
