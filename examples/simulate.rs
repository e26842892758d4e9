//! The voter simulator (Lombardo et al. 2020, §4): uniform against adaptive
//! collection on 200 items. `cargo run --release --features simulator --example simulate`.
//!
//! Table 2 itself: `acm simulate table2`.

use adaptive_comp_metrics::ballot::BallotConfig;
use adaptive_comp_metrics::simulate::{Arm, Simulation, Underlying};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = BallotConfig::new(200, 10, 0.5, 4)?;
    let report = Simulation::new(Underlying::exponential(200)?, config)?
        .n_voters(30)?
        .run(8, 2020)?;
    for metric in ["rho_w", "tau_w"] {
        for arm in [Arm::Uniform, Arm::Adaptive] {
            if let Some(s) = report.get(arm, metric) {
                println!("{metric:<6} {arm:?}: {:.4} ± {:.4}", s.mean, s.sd);
            }
        }
    }
    Ok(())
}
