//! Numerical building blocks behind the p-values and coefficients:
//! double-word arithmetic, the complementary error function and the normal
//! tail, the Student t tail.

pub(crate) mod dd;
pub(crate) mod erf;
pub(crate) mod student;

#[cfg(test)]
mod reference;

/// The relative error of `got` against `want` (the absolute error where
/// `want` is 0), for the tests of the numerical routines.
#[cfg(test)]
pub(crate) fn rel(got: f64, want: f64) -> f64 {
    if want == 0.0 {
        got.abs()
    } else {
        ((got - want) / want).abs()
    }
}
