//! The pairwise models against their references (tests/data/bt/, made by
//! make_expected.py there): choix's ilsr_pairwise, mm_pairwise and
//! opt_pairwise, Crowd-Kit's BradleyTerry and NoisyBradleyTerry, and an
//! independent SciPy optimiser of each model's likelihood, with standard
//! errors from a finite-difference Hessian.
#![cfg(feature = "scheduler")]

use adaptive_comp_metrics::ballot::Vote;
use adaptive_comp_metrics::pairwise::{
    BradleyTerry, Comparisons, Inference, Method, NoisyBradleyTerry, PairwiseError,
};
use serde_json::Value;

fn expected() -> Value {
    let text = include_str!("../data/bt/expected.json");
    serde_json::from_str(text).expect("expected.json parses")
}

fn num(v: &Value) -> f64 {
    v.as_str()
        .expect("a number as a string")
        .parse()
        .expect("a double")
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().expect("a list").iter().map(num).collect()
}

/// The comparisons of one reference set.
fn comparisons(set: &Value) -> Comparisons {
    let items: Vec<&str> = set["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let workers: Vec<&str> = set["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut c = Comparisons::with_items(items)
        .unwrap()
        .fix_workers(workers)
        .unwrap()
        .shown_in_order(set["shown_in_order"].as_bool().unwrap());
    for r in set["records"].as_array().unwrap() {
        let r: Vec<usize> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let vote = [Vote::First, Vote::Second, Vote::Tie][r[2]];
        c.add(r[0], r[1], vote, Some(r[3])).unwrap();
    }
    c
}

fn sets() -> Vec<Value> {
    expected()["sets"].as_array().unwrap().clone()
}

fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "{what}[{i}]: {g} against {w}"
        );
    }
}

#[test]
fn maximum_likelihood_equals_choix_and_the_independent_optimiser() {
    let mut seen = 0;
    for set in sets() {
        let name = set["name"].as_str().unwrap();
        let Some(ml) = set.get("ml") else { continue };
        let data = comparisons(&set);
        let fit = BradleyTerry::new()
            .fit(&data)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        close(&fit.scores, &nums(&ml["scores"]), 1e-7, name);
        assert!(
            (fit.log_likelihood - num(&ml["loglik"])).abs() < 1e-8,
            "{name}: loglik"
        );
        assert!(fit.gradient <= 1e-9);
        if let Some(nu) = ml.get("tie") {
            assert!((fit.tie.unwrap() - num(nu)).abs() < 1e-7, "{name}: ν");
        } else {
            assert_eq!(fit.tie, None);
        }
        for reference in ["choix_ilsr", "choix_mm"] {
            if let Some(v) = set.get(reference) {
                close(&fit.scores, &nums(v), 1e-6, &format!("{name} {reference}"));
                seen += 1;
            }
        }
    }
    assert!(seen >= 6);
}

#[test]
fn a_gaussian_prior_equals_choix_opt_pairwise() {
    let mut seen = 0;
    for set in sets() {
        let name = set["name"].as_str().unwrap();
        let Some(map) = set.get("map") else { continue };
        let sd = num(&set["prior_sd"]);
        let data = comparisons(&set);
        let fit = BradleyTerry::new()
            .prior_sd(sd)
            .unwrap()
            .fit(&data)
            .unwrap();
        close(&fit.scores, &nums(&map["scores"]), 1e-7, name);
        if let Some(v) = set.get("choix_opt") {
            close(&fit.scores, &nums(v), 1e-6, &format!("{name} choix_opt"));
            seen += 1;
        }
        if let Some(nu) = map.get("tie") {
            assert!((fit.tie.unwrap() - num(nu)).abs() < 1e-7, "{name}: ν");
        }
    }
    assert_eq!(seen, 3);
}

#[test]
fn standard_errors_equal_the_inverse_of_the_finite_difference_hessian() {
    let mut seen = 0;
    for set in sets() {
        let name = set["name"].as_str().unwrap();
        let data = comparisons(&set);
        for (key, model) in [
            ("ml", BradleyTerry::new()),
            (
                "map",
                BradleyTerry::new()
                    .prior_sd(set.get("prior_sd").map_or(1.0, num))
                    .unwrap(),
            ),
        ] {
            let Some(reference) = set.get(key) else {
                continue;
            };
            let fit = model.fit(&data).unwrap();
            let u = fit
                .uncertainty(&data, &Inference::new().draws(200).unwrap())
                .unwrap();
            assert_eq!(u.method, Method::Exact);
            close(
                &u.standard_errors,
                &nums(&reference["se"]),
                1e-6,
                &format!("{name} {key} se"),
            );
            seen += 1;
        }
    }
    assert!(seen >= 12, "{seen}");
}

#[test]
fn crowdkit_bradley_terry_never_has_a_higher_likelihood() {
    for set in sets() {
        let name = set["name"].as_str().unwrap();
        let (Some(ck), Some(ml)) = (set.get("crowdkit_bt"), set.get("ml")) else {
            continue;
        };
        let data = comparisons(&set);
        let fit = BradleyTerry::new().fit(&data).unwrap();
        let theirs = num(&ck["loglik"]);
        assert!(fit.log_likelihood >= theirs - 1e-12, "{name}");
        if ck["converged"].as_bool() == Some(true) {
            close(&fit.scores, &nums(&ck["scores"]), 1e-6, name);
        } else {
            // Stopped after two updates: short of the optimum.
            assert!(fit.log_likelihood > theirs + 1e-3, "{name}");
        }
        let _ = ml;
    }
}

#[test]
fn crowdkit_fixture_abc_has_no_finite_maximum_without_a_prior() {
    let set = sets()
        .into_iter()
        .find(|s| s["name"] == "crowdkit_abc")
        .unwrap();
    let data = comparisons(&set);
    assert_eq!(
        BradleyTerry::new().fit(&data).unwrap_err(),
        PairwiseError::NoFiniteMaximum {
            items: vec!["a".into()],
            size: 1,
            lost: true
        }
    );
}

/// One noisy fit against its reference: log-likelihood (never below, and
/// within 1e-7 above), scores, reliabilities, leanings.
fn noisy_close(name: &str, fit: &adaptive_comp_metrics::pairwise::Fit, reference: &Value) {
    let want = num(&reference["loglik"]);
    assert!(
        fit.log_likelihood >= want - 1e-7,
        "{name}: {} < {want}",
        fit.log_likelihood
    );
    assert!(
        fit.log_likelihood <= want + 1e-7,
        "{name}: above the reference's maximum"
    );
    close(
        &fit.scores,
        &nums(&reference["scores"]),
        1e-5,
        &format!("{name} scores"),
    );
    let r: Vec<f64> = fit.workers.iter().map(|w| w.reliability).collect();
    close(
        &r,
        &nums(&reference["reliability"]),
        1e-5,
        &format!("{name} reliability"),
    );
    let b: Vec<f64> = fit.workers.iter().map(|w| w.bias.unwrap()).collect();
    close(&b, &nums(&reference["bias"]), 1e-5, &format!("{name} bias"));
}

/// The standard errors of a noisy fit against the reference's.
fn noisy_se(
    name: &str,
    data: &Comparisons,
    fit: &adaptive_comp_metrics::pairwise::Fit,
    reference: &Value,
) {
    let u = fit
        .uncertainty(data, &Inference::new().draws(100).unwrap())
        .unwrap();
    assert_eq!(u.method, Method::Exact);
    close(
        &u.standard_errors,
        &nums(&reference["se"]),
        1e-5,
        &format!("{name} se"),
    );
}

#[test]
fn the_noisy_model_reaches_the_independent_optimum_and_beats_crowdkit() {
    let mut seen = 0;
    for set in sets() {
        let name = set["name"].as_str().unwrap();
        let (Some(ml), Some(map)) = (set.get("noisy_ml"), set.get("noisy_map")) else {
            continue;
        };
        let data = comparisons(&set);
        let model = NoisyBradleyTerry::new().tolerance(1e-9).unwrap();
        let interior = nums(&ml["scores"]).iter().all(|s| s.abs() < 10.0);
        match model.fit(&data) {
            Ok(fit) => {
                assert!(interior, "{name}: the reference's maximum is at infinity");
                noisy_close(name, &fit, ml);
                noisy_se(name, &data, &fit, ml);
                // Crowd-Kit stops short: its likelihood is far below.
                let ck = &set["crowdkit_noisy"];
                assert!(fit.log_likelihood > num(&ck["loglik"]) + 1.0, "{name}");
                assert!(
                    num(&ck["gradient_error"]) > 1.0,
                    "{name}: Crowd-Kit's gradient is right"
                );
            }
            Err(e) => {
                assert!(!interior, "{name}: {e}");
                assert!(matches!(e, PairwiseError::Uninformed { .. }), "{name}: {e}");
            }
        }
        let sd = num(&set["prior_sd"]);
        let fit = model.prior_sd(sd).unwrap().fit(&data).unwrap();
        noisy_close(&format!("{name} (prior)"), &fit, map);
        noisy_se(&format!("{name} (prior)"), &data, &fit, map);
        seen += 1;
    }
    assert_eq!(seen, 2);
}

/// Crowd-Kit's fixture "equal" (a cycle, every answer the item shown
/// first): the careless leaning explains every answer, so no score is
/// informed without a prior; with one, never below Crowd-Kit's
/// likelihood. "abc" (a chain): no finite maximum without a prior, as for
/// the plain model.
#[test]
fn the_noisy_model_on_crowdkits_fixtures() {
    let set = sets()
        .into_iter()
        .find(|s| s["name"] == "crowdkit_equal")
        .unwrap();
    let data = comparisons(&set);
    assert!(matches!(
        NoisyBradleyTerry::new().fit(&data),
        Err(PairwiseError::Uninformed { size: 3, .. })
    ));
    let fit = NoisyBradleyTerry::new()
        .prior_sd(1.0)
        .unwrap()
        .fit(&data)
        .unwrap();
    let theirs = num(&set["crowdkit_noisy"]["loglik"]);
    assert!(
        fit.log_likelihood >= theirs - 1e-9,
        "{} < {theirs}",
        fit.log_likelihood
    );
    // Every answer is the first item: the careless leaning explains them all.
    assert!(fit.log_likelihood > -1e-6, "{}", fit.log_likelihood);
    let set = sets()
        .into_iter()
        .find(|s| s["name"] == "crowdkit_abc")
        .unwrap();
    let data = comparisons(&set);
    assert!(matches!(
        NoisyBradleyTerry::new().fit(&data),
        Err(PairwiseError::NoFiniteMaximum { .. })
    ));
}
