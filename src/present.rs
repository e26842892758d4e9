//! How results present themselves: the shared rules of their `Display`
//! implementations, and the serde helper for numbers that may be infinite.
//!
//! Every result type prints one line (a short block for reports) that says
//! what each number is. Real numbers use the formatter's precision when one
//! is given (`format!("{r:.2}")`) and [`DEFAULT_PRECISION`] decimals
//! otherwise; counts print in full.

use core::fmt;

/// Decimals of a real number when the formatter gives no precision.
pub(crate) const DEFAULT_PRECISION: usize = 4;

/// The formatter's precision, or [`DEFAULT_PRECISION`].
pub(crate) fn precision(f: &fmt::Formatter<'_>) -> usize {
    f.precision().unwrap_or(DEFAULT_PRECISION)
}

/// `n` and a noun, in the singular for 1: `1 item`, `3 items`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Count(pub(crate) u64, pub(crate) &'static str);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}

/// An optional real number: the value with `.1` decimals, or `n/a`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Maybe(pub(crate) Option<f64>, pub(crate) usize);

impl fmt::Display for Maybe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{:.*}", self.1, v),
            None => f.write_str("n/a"),
        }
    }
}

/// A probability (p-value) with `.1` decimals; below `10^−decimals`, where
/// fixed notation would print only zeros, in scientific notation with
/// `decimals − 2` (at least 1) decimals: `0.0886`, `3.20e-7`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prob(pub(crate) f64, pub(crate) usize);

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, d) = (self.0, self.1);
        let exponent = i32::try_from(d).unwrap_or(i32::MAX);
        if p > 0.0 && p < 10f64.powi(-exponent) {
            write!(f, "{:.*e}", d.saturating_sub(2).max(1), p)
        } else {
            write!(f, "{p:.d$}")
        }
    }
}

/// A fraction such as a confidence level as a percentage, without trailing
/// zeros: `0.95` prints `95`, `0.999` prints `99.9`.
#[cfg(feature = "uncertainty")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Percentage(pub(crate) f64);

#[cfg(feature = "uncertainty")]
impl fmt::Display for Percentage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Ten decimals hide the binary representation error
        // of 100·level (0.95 · 100 = 95.00000000000001).
        let text = format!("{:.10}", self.0 * 100.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(text)
    }
}

/// The words for a test's alternative hypothesis.
#[cfg(feature = "uncertainty")]
pub(crate) fn alternative(a: crate::correlation::pvalue::Alternative) -> &'static str {
    use crate::correlation::pvalue::Alternative;
    match a {
        Alternative::TwoSided => "two-sided",
        Alternative::Greater => "one-sided (greater)",
        Alternative::Less => "one-sided (less)",
    }
}

/// Serde for an `f64` that may be infinite or NaN (a t statistic at
/// |ρ| = 1, for instance): finite values are plain numbers, the others the
/// strings `"inf"`, `"-inf"` and `"NaN"` (JSON has no number for them, and
/// serde_json would write `null`, which it cannot read back as a number).
#[cfg(feature = "serde")]
pub(crate) mod extended_float {
    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::Serializer;

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's `with` signature
    pub(crate) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else if v.is_nan() {
            s.serialize_str("NaN")
        } else if *v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = f64;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(r#"a number, "inf", "-inf" or "NaN""#)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
                Ok(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
                Ok(v as f64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
                Ok(v as f64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
                match v {
                    "inf" => Ok(f64::INFINITY),
                    "-inf" => Ok(f64::NEG_INFINITY),
                    "NaN" => Ok(f64::NAN),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_switch_to_scientific_below_the_last_decimal() {
        assert_eq!(Prob(0.0886, 4).to_string(), "0.0886");
        assert_eq!(Prob(3.2e-7, 4).to_string(), "3.20e-7");
        assert_eq!(Prob(0.0, 4).to_string(), "0.0000");
        assert_eq!(Prob(1.0, 2).to_string(), "1.00");
        assert_eq!(Prob(0.001, 2).to_string(), "1.0e-3");
    }

    #[cfg(feature = "uncertainty")]
    #[test]
    fn percentages_drop_representation_error_and_trailing_zeros() {
        assert_eq!(Percentage(0.95).to_string(), "95");
        assert_eq!(Percentage(0.999).to_string(), "99.9");
        assert_eq!(Percentage(0.5).to_string(), "50");
    }
}
