//! Byte-level scanning for the TREC readers: white-space field splitting
//! and allocation-free number parsing that accepts exactly what the
//! standard library's `str::parse` accepts and returns bit-identical values.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that is C white space (9–13 or 32),
/// exactly: no carry crosses a byte.
#[inline]
fn space_bits(w: u64) -> u64 {
    let low = w & !HIGH;
    let from_9 = low + ONES * (0x80 - 9);
    let from_14 = low + ONES * (0x80 - 14);
    let other = low ^ (ONES * 0x20);
    let blank = !(other + ONES * 0x7f);
    ((from_9 & !from_14) | blank) & !w & HIGH
}

/// Splits `line` into white-space separated fields, storing the first `N`
/// in `out`; returns the number of fields (which may exceed `N`).
///
/// Eight bytes at a time: the bytes that start or end a field are where
/// the white-space bits of a word differ from those of the byte before.
#[inline]
pub(super) fn split<'a, const N: usize>(line: &'a [u8], out: &mut [&'a [u8]; N]) -> usize {
    let mut count = 0;
    let mut start = 0;
    // Whether the byte before the current word is inside a field (as its
    // high bit).
    let mut inside: u64 = 0;
    let mut base = 0;
    let mut words = line.chunks_exact(8);
    let mut emit = |start: usize, end: usize, count: &mut usize| {
        if let (Some(slot), Some(field)) = (out.get_mut(*count), line.get(start..end)) {
            *slot = field;
        }
        *count += 1;
    };
    let mut word = |w: u64, base: usize, inside: &mut u64, start: &mut usize, count: &mut usize| {
        let field = !space_bits(w) & HIGH;
        let mut edges = field ^ ((field << 8) | *inside);
        while edges != 0 {
            let at = base + (edges.trailing_zeros() / 8) as usize;
            if (field >> ((at - base) * 8)) & 0x80 != 0 {
                *start = at;
            } else {
                emit(*start, at, count);
            }
            edges &= edges - 1;
        }
        *inside = field >> 56;
    };
    for c in &mut words {
        let mut b = [0_u8; 8];
        b.copy_from_slice(c);
        word(
            u64::from_le_bytes(b),
            base,
            &mut inside,
            &mut start,
            &mut count,
        );
        base += 8;
    }
    // The rest, padded with spaces (which end a last field at the end).
    let rest = words.remainder();
    let spaces = ONES * u64::from(b' ');
    let last = match line.len().checked_sub(8).and_then(|s| line.get(s..)) {
        Some(tail) if !rest.is_empty() => {
            // The last 8 bytes, shifted so that the rest comes first.
            let mut b = [0_u8; 8];
            b.copy_from_slice(tail);
            let shift = 8 * (8 - rest.len()) as u32;
            (u64::from_le_bytes(b) >> shift) | (spaces << (64 - shift))
        }
        _ => {
            let mut b = [b' '; 8];
            for (d, &s) in b.iter_mut().zip(rest) {
                *d = s;
            }
            u64::from_le_bytes(b)
        }
    };
    word(last, base, &mut inside, &mut start, &mut count);
    count
}

/// One bit a byte: bit `i` of the result is the high bit of byte `i` of
/// `high` (whose other bits are zero).
#[inline]
fn gather(high: u64) -> u64 {
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The first line of `bytes` (up to its first `\n`, or the end) split as
/// [`split`] splits it, in one pass over its bytes: `Some((length, fields))`
/// when the line is at most 63 bytes long, `None` for a longer one (then
/// use [`find_newline`] and [`split`]).
///
/// Eight bytes at a time, it makes a mask of the line's white space, one
/// bit a byte, and stops at the first line break; every field's first
/// and last byte then come from the mask at once.
#[inline]
pub(super) fn split_line<'a, const N: usize>(
    bytes: &'a [u8],
    out: &mut [&'a [u8]; N],
) -> Option<(usize, usize)> {
    const NEWLINES: u64 = ONES * b'\n' as u64;
    let mut space: u64 = 0;
    let mut len = None;
    for k in 0..8 {
        let mut b = [b'\n'; 8];
        match bytes.get(8 * k..8 * k + 8) {
            Some(c) => b.copy_from_slice(c),
            None => {
                for (d, &s) in b.iter_mut().zip(bytes.get(8 * k..).unwrap_or_default()) {
                    *d = s;
                }
            }
        }
        let w = u64::from_le_bytes(b);
        space |= gather(space_bits(w)) << (8 * k);
        let x = w ^ NEWLINES;
        // The high bit of each zero byte of x, and maybe of bytes above the
        // first one (borrows): the lowest set bit is exact.
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            len = Some(8 * k + (zero.trailing_zeros() / 8) as usize);
            break;
        }
    }
    let len = len.filter(|&l| l < 64)?;
    let field = !space & ((1_u64 << len) - 1);
    let mut starts = field & !(field << 1);
    let mut lasts = field & !(field >> 1);
    let mut count = 0;
    for slot in out.iter_mut() {
        if starts == 0 {
            break;
        }
        let (first, last) = (starts.trailing_zeros(), lasts.trailing_zeros());
        if let Some(f) = bytes.get(first as usize..last as usize + 1) {
            *slot = f;
        }
        starts &= starts - 1;
        lasts &= lasts - 1;
        count += 1;
    }
    // Fields past the N-th (rare): counted only then.
    if starts != 0 {
        count += starts.count_ones() as usize;
    }
    Some((len, count))
}

/// The position of the first `\n` in `bytes`: the first 64 bytes eight at
/// a time inline (TREC lines are short, and a call to `memchr` costs more
/// than the search), then `memchr`.
#[inline]
pub(super) fn find_newline(bytes: &[u8]) -> Option<usize> {
    const NEWLINES: u64 = ONES * b'\n' as u64;
    let mut at = 0;
    let mut words = bytes.chunks_exact(8);
    for c in words.by_ref().take(8) {
        let mut b = [0_u8; 8];
        b.copy_from_slice(c);
        let x = u64::from_le_bytes(b) ^ NEWLINES;
        // The high bit of each zero byte of x, and maybe of bytes above the
        // first one (borrows): the lowest set bit is exact.
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes
        .get(at..)
        .and_then(|rest| memchr::memchr(b'\n', rest))
        .map(|p| at + p)
}

/// `field` as text: `str::from_utf8` with a fast path for ASCII.
#[inline]
pub(super) fn text(field: &[u8]) -> Option<&str> {
    std::str::from_utf8(field).ok()
}

/// `s.parse::<i32>()` of the UTF-8 text `s`, without the UTF-8 check (a
/// byte outside `0`–`9` fails either way): an optional `+` or `-`, then
/// one or more ASCII digits, in range.
#[inline]
pub(super) fn parse_i32(s: &[u8]) -> Option<i32> {
    let (negative, digits) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    // Magnitudes up to 2^31 fit; past it the value only grows.
    let limit = 1_i64 << 31;
    let mut value: i64 = 0;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value * 10 + i64::from(d);
        if value > limit {
            return None;
        }
    }
    let signed = if negative { -value } else { value };
    i32::try_from(signed).ok()
}

/// Exact powers of ten as `f64` (10²² is the largest exact one).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `s.parse::<f64>()`: the same accepted syntax and the same, correctly
/// rounded, value.
///
/// Plain decimals (`[+-]digits[.digits]`, no exponent) with at most 19
/// digits whose integer value is at most 2⁵³ and at most 22 after the
/// point are computed as one exact integer divided by an exact power of
/// ten, which IEEE 754 rounds correctly (Clinger's fast path, the one the
/// standard library takes too); everything else (exponents, long
/// mantissas, `inf`, `nan`, garbage) goes to the standard library's parser.
#[inline]
pub(super) fn parse_f64(s: &[u8]) -> Option<f64> {
    if let Some(x) = fast_decimal(s) {
        return Some(x);
    }
    text(s)?.parse::<f64>().ok()
}

/// The fast path of [`parse_f64`], `None` where it does not apply.
#[inline]
fn fast_decimal(s: &[u8]) -> Option<f64> {
    let (negative, body) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    };
    if body.is_empty() || body.len() > 20 {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut digits = 0_usize;
    let mut point: Option<usize> = None;
    for &b in body {
        let d = b.wrapping_sub(b'0');
        if d <= 9 {
            // Wraps only past 19 digits, refused below.
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            digits += 1;
        } else if b == b'.' && point.is_none() {
            point = Some(digits);
        } else {
            return None;
        }
    }
    // At least one digit; at most 19 (fits u64); value exact in f64.
    if digits == 0 || digits > 19 || mantissa > 1 << 53 {
        return None;
    }
    let fraction = point.map_or(0, |p| digits - p);
    let scale = *POW10.get(fraction)?;
    let value = mantissa as f64 / scale;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn newlines_past_the_inline_search() {
        for n in [0, 7, 8, 63, 64, 65, 200] {
            let mut line = vec![b'x'; n];
            assert_eq!(find_newline(&line), None, "{n}");
            line.extend_from_slice(b"\nq\n");
            assert_eq!(find_newline(&line), Some(n), "{n}");
        }
    }

    #[test]
    fn lines_split_in_one_pass_by_hand() {
        let mut out: [&[u8]; 4] = [&[]; 4];
        assert_eq!(
            split_line(b"q1 0 d1 1\nq2 0 d2 0\n", &mut out),
            Some((9, 4))
        );
        assert_eq!(out, [&b"q1"[..], b"0", b"d1", b"1"]);
        // The last line without its line break; white space only; empty.
        assert_eq!(split_line(b"\tq1  0 d1 1 x\r", &mut out), Some((14, 5)));
        assert_eq!(out, [&b"q1"[..], b"0", b"d1", b"1"]);
        assert_eq!(split_line(b" \x0b\x0c\r\nq", &mut out), Some((4, 0)));
        assert_eq!(split_line(b"", &mut out), Some((0, 0)));
        // 63 bytes and a line break: one pass; 64 bytes: left to `split`.
        let mut line = vec![b'x'; 63];
        line.push(b'\n');
        let mut one: [&[u8]; 1] = [&[]];
        assert_eq!(split_line(&line, &mut one), Some((63, 1)));
        assert_eq!(one[0].len(), 63);
        line.insert(0, b'y');
        assert_eq!(split_line(&line, &mut [&[]; 1]), None);
        line.truncate(64);
        assert_eq!(split_line(&line, &mut [&[]; 1]), None);
    }

    #[test]
    fn splits_on_c_white_space() {
        let mut out: [&[u8]; 4] = [&[]; 4];
        assert_eq!(split(b" a\tbb \x0b c\r\n", &mut out), 3);
        assert_eq!(out[..3], [&b"a"[..], b"bb", b"c"]);
        assert_eq!(split(b"1 2 3 4 5 6", &mut out), 6);
        assert_eq!(out, [&b"1"[..], b"2", b"3", b"4"]);
        assert_eq!(split(b"   \r\n", &mut out), 0);
        assert_eq!(split(b"", &mut out), 0);
        assert_eq!(split(b"\x0cx\x0c", &mut out), 1);
        assert_eq!(out[0], b"x");
        // Non-ASCII bytes are never white space (no-break space, NEL).
        assert_eq!(split("a\u{a0}b\u{85}c".as_bytes(), &mut out), 1);
    }

    #[test]
    fn numbers_by_hand() {
        for (s, v) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("+7", Some(7)),
            ("0007", Some(7)),
            ("2147483647", Some(i32::MAX)),
            ("-2147483648", Some(i32::MIN)),
            ("2147483648", None),
            ("-2147483649", None),
            ("99999999999999999999999", None),
            ("", None),
            ("-", None),
            ("+", None),
            ("+-1", None),
            ("1.5", None),
            (" 1", None),
            ("1e3", None),
        ] {
            assert_eq!(parse_i32(s.as_bytes()), v, "{s}");
            assert_eq!(parse_i32(s.as_bytes()), s.parse::<i32>().ok(), "{s}");
        }
        for s in [
            "0",
            "-0",
            "+0",
            "1.",
            ".5",
            "-.5",
            "3.1860",
            "0.1",
            "0.30000000000000004",
            "9007199254740992",
            "9007199254740993",
            "1e5",
            "1E-5",
            "inf",
            "-Infinity",
            "NaN",
            "nan",
            ".",
            "-",
            "+",
            "",
            "1..2",
            "1.2.3",
            "--1",
            "0x10",
            "1_0",
            "١",
            "12345678901234567890",
            "0.0000000000000000000001",
            "0.00000000000000000000001",
            "1e400",
            "4.9e-324",
        ] {
            let got = parse_f64(s.as_bytes()).map(f64::to_bits);
            assert_eq!(got, s.parse::<f64>().ok().map(f64::to_bits), "{s}");
        }
    }

    /// Number-like strings: signs, digits (many zeros and nines), points,
    /// exponents, and a sprinkle of other characters.
    fn numberish() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                8 => proptest::char::range('0', '9'),
                2 => Just('0'),
                2 => Just('9'),
                2 => Just('.'),
                1 => Just('-'),
                1 => Just('+'),
                1 => Just('e'),
                1 => Just('E'),
                1 => prop_oneof![Just('i'), Just('n'), Just('f'), Just('a'), Just(' '), Just('x'), Just('_')],
            ],
            0..28,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn f64_parsing_equals_the_standard_library(s in numberish()) {
            let got = parse_f64(s.as_bytes()).map(f64::to_bits);
            prop_assert_eq!(got, s.parse::<f64>().ok().map(f64::to_bits), "{:?}", s);
        }

        #[test]
        fn i32_parsing_equals_the_standard_library(s in numberish()) {
            prop_assert_eq!(parse_i32(s.as_bytes()), s.parse::<i32>().ok(), "{:?}", s);
        }

        #[test]
        fn decimals_equal_the_standard_library(
            negative in any::<bool>(),
            int in any::<u64>(),
            frac in any::<u64>(),
            int_digits in 0_u32..20,
            frac_digits in 0_u32..24,
        ) {
            let i = int % 10_u64.saturating_pow(int_digits).max(1);
            let f = frac % 10_u64.saturating_pow(frac_digits.min(19)).max(1);
            let s = format!(
                "{}{}.{:0width$}",
                if negative { "-" } else { "" },
                i,
                f,
                width = frac_digits as usize
            );
            let got = parse_f64(s.as_bytes()).map(f64::to_bits);
            prop_assert_eq!(got, s.parse::<f64>().ok().map(f64::to_bits), "{:?}", s);
        }

        #[test]
        fn newlines_are_found_as_memchr_finds_them(
            bytes in proptest::collection::vec(
                prop_oneof![4 => Just(b'a'), 1 => Just(b'\n'), 1 => Just(0x0b_u8), 1 => Just(0x8a_u8), 1 => any::<u8>()],
                0..200,
            ),
            start in 0_usize..200,
        ) {
            let part = bytes.get(start.min(bytes.len())..).unwrap_or_default();
            prop_assert_eq!(find_newline(part), memchr::memchr(b'\n', part));
        }

        #[test]
        fn lines_split_in_one_pass_equal_the_two_steps(bytes in proptest::collection::vec(
            prop_oneof![Just(b' '), Just(b'\t'), Just(b'\n'), Just(0x0b_u8), Just(0x0c_u8), Just(b'\r'), Just(b'a'), any::<u8>()],
            0..100,
        )) {
            let len = find_newline(&bytes).unwrap_or(bytes.len());
            let mut want: [&[u8]; 6] = [&[]; 6];
            let found = split(bytes.get(..len).unwrap_or_default(), &mut want);
            let mut got: [&[u8]; 6] = [&[]; 6];
            match split_line(&bytes, &mut got) {
                Some(line) => {
                    prop_assert!(len < 64);
                    prop_assert_eq!(line, (len, found));
                    prop_assert_eq!(got, want);
                }
                None => prop_assert!(len >= 64),
            }
        }

        #[test]
        fn splitting_equals_the_obvious_one(bytes in proptest::collection::vec(
            prop_oneof![Just(b' '), Just(b'\t'), Just(0x0b_u8), Just(0x0c_u8), Just(b'\r'), Just(b'a'), Just(b'#'), any::<u8>()],
            // Lines of many words, as long ids make them.
            0..200,
        )) {
            let want: Vec<&[u8]> = bytes
                .split(|&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
                .filter(|f| !f.is_empty())
                .collect();
            let mut out: [&[u8]; 6] = [&[]; 6];
            let n = split(&bytes, &mut out);
            prop_assert_eq!(n, want.len());
            for (got, want) in out.iter().zip(&want) {
                prop_assert_eq!(got, want);
            }
        }
    }
}
