//! Numerical building blocks behind the p-values and coefficients:
//! double-word arithmetic.

pub(crate) mod dd;
