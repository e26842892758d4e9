//! The standardised scale through serde (Lombardo 2025): null moments,
//! maps and standardised values made by the library; moments that are not
//! moments of a variable on [−1, 1], a map that is not its moments' map
//! and a value that is not the map of its raw coefficient are refused.

use super::*;
use adaptive_comp_metrics::{
    Coefficient, GammaMoments, Hyperbolic, MomentEstimate, MomentSource, Scheme, StandardisedRho,
    StandardisedTau, Standardiser, TopWeighted,
};

#[test]
fn moments_maps_and_values() -> TestResult {
    let paper = TopWeighted::new();
    let exact = paper.null_exact(Coefficient::Tau, 6)?;
    let table = paper.null_table(Coefficient::Rho, 500)?;
    assert_eq!(table.mean.source, MomentSource::Table);
    let given = GammaMoments::given(
        -0.07584266073281484,
        0.2824562853238909,
        0.12817678208868818,
    )?;
    for m in [exact, table, given] {
        result(&m);
        result(&m.mean);
        same(&m.mean.source);
        let g = Standardiser::new(m)?;
        result(&g);
        result(&g.coefficients());
        same(&g.coefficients().branch);
        // Read back, the map maps as the original does.
        let back = round_trip(&g);
        assert_eq!(back.standardised(0.3)?, g.standardised(0.3)?);
    }
    let human: Vec<f64> = (0..40).map(|i| f64::from(40 - i)).collect();
    let model: Vec<f64> = human.iter().map(|v| (v * 0.37).sin() + v / 40.0).collect();
    for config in [paper, paper.scheme(Scheme::Multiplicative)] {
        result(&config.rho_standardised(&human, &model)?);
        result(&config.tau_standardised(&human, &model)?);
    }
    let hyperbolic = TopWeighted::new().weigher(Hyperbolic);
    result(&hyperbolic.rho_standardised(&human, &model)?);
    result(&hyperbolic.tau_standardised(&human, &model)?);
    let tied = [3.0, 3.0, 2.0, 1.0, 0.5];
    let s = paper.rho_standardised(&tied, &[0.1, 0.9, 0.3, 0.4, 0.2])?;
    assert!(s.ties);
    result(&s);
    for c in [Coefficient::Rho, Coefficient::Tau] {
        same(&c);
    }
    same(&MomentSource::MonteCarlo {
        permutations: 20_000,
    });
    Ok(())
}

#[test]
fn invalid_data_is_refused() -> TestResult {
    let paper = TopWeighted::new();
    let m = paper.null_exact(Coefficient::Rho, 5)?;
    let mut v = serde_json::to_value(m)?;
    v["left_variance"]["value"] = 0.5.into(); // V_ℓ > V
    assert!(refused::<GammaMoments>(&v.to_string()).contains("left variance"));
    let mut v = serde_json::to_value(m)?;
    v["mean"]["value"] = 1.0.into();
    assert!(refused::<GammaMoments>(&v.to_string()).contains("mean"));
    assert!(
        refused::<MomentEstimate>(r#"{"value":0.1,"standard_error":-1.0,"source":"Given"}"#)
            .contains("standard error")
    );
    let g = Standardiser::new(m)?;
    let mut v = serde_json::to_value(g)?;
    v["map"]["g1"] = 2.0.into();
    assert!(refused::<Standardiser>(&v.to_string()).contains("map"));
    let human = [5.0, 4.0, 3.0, 2.0, 1.0, 0.0];
    let model = [0.5, 0.9, 0.1, 0.3, 0.2, 0.0];
    let s = paper.rho_standardised(&human, &model)?;
    let mut v = serde_json::to_value(s)?;
    v["value"] = (s.value + 0.1).into();
    assert!(refused::<StandardisedRho>(&v.to_string()).contains("value"));
    let t = paper.tau_standardised(&human, &model)?;
    let mut v = serde_json::to_value(t)?;
    v["tau"]["tau"] = (t.tau.tau - 0.2).into();
    assert!(refused::<StandardisedTau>(&v.to_string()).contains("value"));
    let mut v = serde_json::to_value(t)?;
    v["moments"]["variance"]["value"] = 0.0.into();
    assert!(refused::<StandardisedTau>(&v.to_string()).contains("variance"));
    Ok(())
}

#[cfg(feature = "uncertainty")]
#[test]
fn monte_carlo_moments_and_options() -> TestResult {
    use adaptive_comp_metrics::uncertainty::{GammaMonteCarlo, Threads};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::num::NonZeroUsize;
    let mc = GammaMonteCarlo::new()
        .standard_error(1e-2)
        .max_permutations(50_000)
        .threads(Threads::Fixed(NonZeroUsize::MIN));
    same(&mc);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let m = mc.moments(&TopWeighted::new(), Coefficient::Rho, 30, &mut rng)?;
    assert!(matches!(m.mean.source, MomentSource::MonteCarlo { .. }));
    result(&m);
    result(&Standardiser::new(m)?);
    let mut v = serde_json::to_value(mc)?;
    v["standard_error"] = 0.0.into();
    assert!(refused::<GammaMonteCarlo>(&v.to_string()).contains("accuracy"));
    Ok(())
}
