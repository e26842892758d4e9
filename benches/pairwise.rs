//! Bradley–Terry fits at the size of issue 35's performance bars: 10⁵
//! comparisons among 10³ items by 200 workers. The bars (side by side with
//! the reference tools: `benches/pairwise_compare.py`): the fit with
//! standard errors at least 20× faster than Crowd-Kit's `BradleyTerry` and
//! 5× faster than choix's `ilsr_pairwise`, the noisy model 20× faster than
//! Crowd-Kit's `NoisyBradleyTerry`, 1000 bootstrap replicates in under 5 s
//! on 2 cores.
//!
//! `cargo bench -p adaptive-comp-metrics-benches --bench pairwise`

use adaptive_comp_metrics::pairwise::{BradleyTerry, Inference, NoisyBradleyTerry};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

#[path = "pairwise_data.rs"]
mod pairwise_data;

fn bench(c: &mut Criterion) {
    let data = pairwise_data::comparisons(1000, 100_000, 200, 7);
    let opts = Inference::new().seed(1);
    let mut g = c.benchmark_group("pairwise");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("bt_fit/n=1000,m=100000", |b| {
        b.iter(|| BradleyTerry::new().fit(black_box(&data)).unwrap())
    });
    g.bench_function("bt_fit_with_uncertainty/n=1000,m=100000", |b| {
        b.iter(|| {
            let fit = BradleyTerry::new().fit(black_box(&data)).unwrap();
            fit.uncertainty(&data, &opts).unwrap()
        })
    });
    g.bench_function("noisy_bt_fit_with_uncertainty/n=1000,m=100000", |b| {
        b.iter(|| {
            let fit = NoisyBradleyTerry::new().fit(black_box(&data)).unwrap();
            fit.uncertainty(&data, &opts).unwrap()
        })
    });
    g.bench_function("bt_bootstrap_1000/n=1000,m=100000", |b| {
        b.iter(|| {
            BradleyTerry::new()
                .bootstrap(black_box(&data), 1000, &opts)
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
