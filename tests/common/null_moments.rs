//! The null moments of every value a coefficient takes over the
//! permutations, as the standardised scale defines them (Lombardo 2025,
//! §2): the mean Γ̄, the variance V and the left variance V_ℓ, population
//! moments (divided by the number of values). The oracle of the tests that
//! enumerate every permutation.

/// `[Γ̄, V, V_ℓ]` of `values`.
pub fn moments_of(values: &[f64]) -> [f64; 3] {
    let m = values.len() as f64;
    let mean = values.iter().sum::<f64>() / m;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / m;
    let left = values
        .iter()
        .filter(|&&v| v < mean)
        .map(|v| (v - mean).powi(2))
        .sum::<f64>()
        / m;
    [mean, var, left]
}
