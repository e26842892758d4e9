//! Sort keys: a grade and a document, or a score, as one `u64` whose
//! increasing order is the order trec_eval ranks them in (a leaf module:
//! both the stored judgements and runs and the measures sort by them).

/// A u64 whose increasing order is that of decreasing grade, then
/// increasing document id.
#[inline]
pub(crate) fn judgement_key(grade: i32, doc: u32) -> u64 {
    let ascending = (grade as u32) ^ (1 << 31);
    (u64::from(!ascending) << 32) | u64::from(doc)
}

/// The inverse of [`judgement_key`].
#[inline]
pub(crate) fn from_judgement_key(key: u64) -> (i32, u32) {
    let ascending = !((key >> 32) as u32);
    ((ascending ^ (1 << 31)) as i32, key as u32)
}

/// A u64 whose increasing order is the decreasing order of finite `x`
/// (−0 and +0 share a key).
#[inline]
pub(crate) fn descending_key(x: f64) -> u64 {
    let bits = (x + 0.0).to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    !ascending
}

/// The inverse of [`descending_key`] (−0 comes back as +0).
#[inline]
pub(crate) fn from_descending_key(key: u64) -> f64 {
    let ascending = !key;
    let bits = if ascending >> 63 == 1 {
        ascending & !(1 << 63)
    } else {
        !ascending
    };
    f64::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descending_key_round_trips() {
        for x in [0.0, -0.0, 1.5, -2.25, f64::MAX, f64::MIN, 1e-310, -1e-310] {
            let y = from_descending_key(descending_key(x));
            assert_eq!(y.to_bits(), (x + 0.0).to_bits(), "{x}");
        }
        assert!(descending_key(2.0) < descending_key(1.0));
        for (g, d) in [
            (0, 0),
            (-1, 7),
            (i32::MIN, u32::MAX),
            (i32::MAX, 0),
            (3, 12),
        ] {
            assert_eq!(from_judgement_key(judgement_key(g, d)), (g, d));
        }
        // Decreasing grade first, then increasing document.
        assert!(judgement_key(2, 9) < judgement_key(1, 0));
        assert!(judgement_key(0, 9) < judgement_key(-1, 0));
        assert!(judgement_key(i32::MAX, 5) < judgement_key(i32::MIN, 0));
        assert!(judgement_key(1, 3) < judgement_key(1, 4));
        assert!(descending_key(-1.0) > descending_key(-0.5));
    }
}
