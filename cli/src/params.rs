//! Value parsers for numeric options: an out-of-range value is a
//! command-line error (exit status 2) that says the range.

/// A finite number.
fn number(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("expected a finite number, got {s:?}")),
    }
}

/// A number in the open interval (0, 1).
///
/// # Errors
/// Anything else.
pub fn open_unit(s: &str) -> Result<f64, String> {
    let x = number(s)?;
    if x > 0.0 && x < 1.0 {
        Ok(x)
    } else {
        Err(format!("expected a number in (0, 1), got {x}"))
    }
}

/// A number in [0, 1].
///
/// # Errors
/// Anything else.
pub fn unit(s: &str) -> Result<f64, String> {
    let x = number(s)?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("expected a number in [0, 1], got {x}"))
    }
}

/// A share in [0, 1).
///
/// # Errors
/// Anything else.
pub fn share(s: &str) -> Result<f64, String> {
    let x = number(s)?;
    if (0.0..1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("expected a share in [0, 1), got {x}"))
    }
}

/// A finite number ≥ 0.
///
/// # Errors
/// Anything else.
pub fn non_negative(s: &str) -> Result<f64, String> {
    let x = number(s)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("expected a finite number ≥ 0, got {x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_enforced() {
        assert_eq!(open_unit("0.5"), Ok(0.5));
        assert!(open_unit("1").is_err() && open_unit("0").is_err() && open_unit("x").is_err());
        assert!(unit("1").is_ok() && unit("1.01").is_err() && unit("NaN").is_err());
        assert!(share("0").is_ok() && share("1").is_err());
        assert!(non_negative("0").is_ok() && non_negative("-1").is_err());
        assert!(non_negative("inf").is_err());
    }
}
