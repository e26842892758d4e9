//! Secrets: tokens from the operating system's generator, and their
//! comparison in constant time. Used by the routes (session, CSRF and admin
//! tokens) and by the engine (invitation tokens).

/// Compares two byte strings in time that depends on their lengths only.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics_serve::ct_eq;
/// assert!(ct_eq(b"secret", b"secret"));
/// assert!(!ct_eq(b"secret", b"secreT"));
/// assert!(!ct_eq(b"secret", b"secret!"));
/// ```
#[must_use]
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    std::hint::black_box(diff) == 0
}

/// `bytes` random bytes from the operating system, as lowercase hex.
pub(crate) fn random_token(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    // The operating system's generator does not fail on supported systems;
    // if it did, a token of zeros would be predictable, so stop instead.
    getrandom::fill(&mut b).expect("the operating system's random generator failed");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_hex_of_the_length_asked_and_differ() {
        let (a, b) = (random_token(16), random_token(16));
        assert_eq!(a.len(), 32);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_ne!(a, b);
        assert!(ct_eq(a.as_bytes(), a.clone().as_bytes()));
        assert!(!ct_eq(a.as_bytes(), b.as_bytes()));
        assert!(ct_eq(b"", b""));
    }
}
