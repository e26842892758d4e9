//! prototype
use adaptive_comp_metrics::simulate::{
    Arm, Estimate, Metric, PowerLaw, Simulation, Underlying, UniformBudget, VoterModel,
};
use adaptive_comp_metrics::{TopWeighted, Unweighted};

fn misaligned(e: &Estimate<'_>) -> (Vec<f64>, Vec<f64>) {
    let n = e.ranking.len();
    let mut true_rank = vec![0usize; n];
    for (pos, &item) in e.true_ranking.iter().enumerate() {
        true_rank[item] = pos;
    }
    let aa: Vec<f64> = e.ranking.iter().map(|&i| (i + 1) as f64).collect();
    let bb: Vec<f64> = true_rank.iter().map(|&r| (r + 1) as f64).collect();
    (aa, bb)
}

fn script_tau_w(aa: &[f64], bb: &[f64]) -> f64 {
    let w: Vec<f64> = aa
        .iter()
        .zip(bb)
        .map(|(a, b)| 1.0 / ((a + 2.0) * (a + 2.0)) + 1.0 / ((b + 2.0) * (b + 2.0)))
        .collect();
    let n = aa.len();
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        for j in i + 1..n {
            let p = w[i] * w[j];
            num += p * (aa[j] - aa[i]).signum() * (bb[j] - bb[i]).signum();
            den += p;
        }
    }
    num / den
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let script = vec![
        Metric::custom("rho_w", |e: &Estimate<'_>| {
            let (a, b) = misaligned(e);
            Ok(TopWeighted::new().rho_ranks(&a, &b)?.rho)
        }),
        Metric::custom("tau_w", |e: &Estimate<'_>| {
            let (a, b) = misaligned(e);
            Ok(script_tau_w(&a, &b))
        }),
        Metric::custom("rho", |e: &Estimate<'_>| {
            let (a, b) = misaligned(e);
            Ok(TopWeighted::new()
                .weigher(Unweighted)
                .rho_ranks(&a, &b)?
                .rho)
        }),
        Metric::custom("tau", |e: &Estimate<'_>| {
            let (a, b) = misaligned(e);
            Ok(TopWeighted::new()
                .weigher(Unweighted)
                .tau_ranks(&a, &b)?
                .tau)
        }),
    ];
    let t0 = std::time::Instant::now();
    for (name, u) in [
        ("exponential", Underlying::exponential(990)?),
        (
            "power law",
            Underlying::power_law(990, PowerLaw::Published)?,
        ),
        ("same-area", Underlying::same_area()?),
    ] {
        let sim = Simulation::new(u, 20, 0.5, 7)?
            .published_options()
            .voters(VoterModel::published())
            .uniform_budget(UniformBudget::PublishedRounding)
            .metrics(script.clone());
        let r = sim.run(50, 0)?;
        for arm in [Arm::Uniform, Arm::Adaptive] {
            print!("{name:12} {arm:?}");
            for m in ["rho_w", "tau_w", "rho", "tau"] {
                let s = r.get(arm, m).unwrap();
                print!("  {:.4} ± {:.4}", s.mean, s.sd);
            }
            println!();
        }
    }
    println!("{:?}", t0.elapsed());
    Ok(())
}
