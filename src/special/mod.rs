//! Numerical building blocks behind the p-values and coefficients:
//! double-word arithmetic, the complementary error function and the normal
//! tail, the Student t tail.

pub(crate) mod dd;
pub(crate) mod erf;
pub(crate) mod student;

#[cfg(test)]
mod reference;
