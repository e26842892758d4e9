//! Rank-biased overlap: hand-computed values, the closed forms of Webber,
//! Moffat & Zobel (2010) (Eqs. 11, 30, 32) and a slow oracle that builds the
//! extreme continuations of the rankings explicitly.

use adaptive_comp_metrics::relevance::{RelevanceError, rbo, rbo_tied, tie_groups};
use approx::assert_abs_diff_eq;
use proptest::prelude::*;
use std::collections::HashSet;

type R = Result<(), RelevanceError>;

#[test]
fn equal_lengths_by_hand() -> R {
    // S = a b c, T = b a d, p = 1/2: X = 0, 2, 2.
    // Eq. 11: MIN = (Σ (X_d − X_3) p^d/d − X_3 ln(1 − p)) = −1 + 2 ln 2.
    // EXT = X_3/3 · p³ + Σ X_d/d p^d = 1/12 + (1/4 + 1/12) = 5/12.
    // MAX: f = 3 + 3 − 2 = 4, A_4 = (8 − 6 + 2)/4 = 1 → 1/3 + p⁴/(1 − p) = 11/24.
    let r = rbo(&["a", "b", "c"], &["b", "a", "d"], 0.5)?;
    assert_abs_diff_eq!(r.min, 2.0 * 2f64.ln() - 1.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.ext, 5.0 / 12.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.max(), 11.0 / 24.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.residual, 35.0 / 24.0 - 2.0 * 2f64.ln(), epsilon = 1e-15);
    Ok(())
}

#[test]
fn uneven_lengths_by_hand() -> R {
    // S = a b (s = 2), L = b c a d (l = 4), p = 1/2: X = 0, 1, 2, 2; X_s = 1, X_l = 2.
    // Σ_{d≤4} X_d/d p^d = 1/8 + 1/12 + 1/32 = 23/96; Σ_{d≤4} p^d/d = 131/192.
    // MIN = 23/96 + 2 (ln 2 − 131/192) = 2 ln 2 − 9/8.
    // EXT (Eq. 32) = 23/96 + [1·1/(2·3)·1/8 + 1·2/(2·4)·1/16] + (1/4 + 1/2)/16 = 31/96.
    // MAX: A_3 = (2 + 1)/3 = 1, A_4 = (2 + 2)/4 = 1, f = 4 → 1/8 + 1/4 = 3/8.
    let r = rbo(&["a", "b"], &["b", "c", "a", "d"], 0.5)?;
    assert_abs_diff_eq!(r.min, 2.0 * 2f64.ln() - 9.0 / 8.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.ext, 31.0 / 96.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.max(), 3.0 / 8.0, epsilon = 1e-15);
    // Symmetric in its arguments.
    assert_eq!(r, rbo(&["b", "c", "a", "d"], &["a", "b"], 0.5)?);
    Ok(())
}

#[test]
fn ties_by_hand() -> R {
    // S = (a b) c, T = a c b, p = 1/2. Tied a, b both seen from depth 1.
    // d=1: |S|=2, |T|=1, X=1 → A = 2/3; d=2: |S|=2, |T|=2, X=1 → 1/2; d=3: A = 1.
    // Σ A_d p^d = 1/3 + 1/8 + 1/8 = 7/12.
    // MIN = 7/12 + 3 (ln 2 − 2/3) = 3 ln 2 − 17/12; EXT = MAX = 7/12 + p³ = 17/24.
    let s: [&[&str]; 2] = [&["a", "b"], &["c"]];
    let t: [&[&str]; 3] = [&["a"], &["c"], &["b"]];
    let r = rbo_tied(&s, &t, 0.5)?;
    assert_abs_diff_eq!(r.min, 3.0 * 2f64.ln() - 17.0 / 12.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.ext, 17.0 / 24.0, epsilon = 1e-15);
    assert_abs_diff_eq!(r.max(), 17.0 / 24.0, epsilon = 1e-15);
    // Singleton groups give the untied values.
    let s1: [&[&str]; 3] = [&["a"], &["b"], &["c"]];
    let t1: [&[&str]; 3] = [&["b"], &["a"], &["d"]];
    assert_eq!(
        rbo_tied(&s1, &t1, 0.5)?,
        rbo(&["a", "b", "c"], &["b", "a", "d"], 0.5)?
    );
    Ok(())
}

#[test]
fn identical_and_disjoint() -> R {
    let x: Vec<u32> = (0..20).collect();
    let r = rbo(&x, &x, 0.9)?;
    assert_abs_diff_eq!(r.ext, 1.0, epsilon = 1e-14);
    assert_abs_diff_eq!(r.max(), 1.0, epsilon = 1e-14);
    // MIN of identical prefixes: 1 − p^k + k Σ_{d>k} p^d/d … strictly below 1.
    assert!(r.min < 1.0 && r.min > 0.8);
    let y: Vec<u32> = (100..120).collect();
    let r = rbo(&x, &y, 0.9)?;
    assert_eq!((r.min, r.ext), (0.0, 0.0));
    assert!(r.residual > 0.0);
    Ok(())
}

#[test]
fn rbo_errors() {
    assert!(matches!(
        rbo(&[1], &[1], 1.0),
        Err(RelevanceError::InvalidParameter { name: "p", .. })
    ));
    assert!(rbo(&[1], &[1], 0.0).is_err());
    assert!(rbo(&[1], &[1], f64::NAN).is_err());
    assert_eq!(
        rbo::<u8>(&[], &[1], 0.5),
        Err(RelevanceError::EmptyRanking { ranking: "s" })
    );
    assert_eq!(
        rbo(&[1, 2, 1], &[1], 0.5),
        Err(RelevanceError::DuplicateItem {
            ranking: "s",
            index: 2
        })
    );
    let s: [&[u8]; 2] = [&[1], &[]];
    assert_eq!(
        rbo_tied(&s, &s, 0.5),
        Err(RelevanceError::EmptyGroup {
            ranking: "s",
            group: 1
        })
    );
    let t: [&[u8]; 2] = [&[1, 2], &[2]];
    assert_eq!(
        rbo_tied(&t, &t, 0.5),
        Err(RelevanceError::DuplicateItem {
            ranking: "s",
            index: 2
        })
    );
}

#[test]
fn tie_groups_from_scores() -> R {
    let g = tie_groups(&[1, 2, 3, 4, 5], &[0.2, 0.7, 0.2, 0.7, -1.0])?;
    assert_eq!(g, vec![vec![2, 4], vec![1, 3], vec![5]]);
    assert!(tie_groups::<u8, f64>(&[], &[])?.is_empty());
    assert!(matches!(
        tie_groups(&[1], &[0.1, 0.2]),
        Err(RelevanceError::LengthMismatch { .. })
    ));
    assert_eq!(
        tie_groups(&[1, 2], &[0.1, f64::NAN]),
        Err(RelevanceError::NaN {
            input: "scores",
            index: 1
        })
    );
    // Model ranking against the humans' mean grades, both with ties.
    let docs = ["a", "b", "c", "d"];
    let model = tie_groups(&docs, &[0.9, 0.9, 0.5, 0.1])?;
    let human = tie_groups(&docs, &[3.0, 2.0, 2.0, -1.0])?;
    // d=1: |M|=2 {a,b}, |H|=1 {a}, X=1 → 2/3; d=2: |M|=2, |H|=3 {a,b,c}, X=2 → 4/5;
    // d=3: 3, 3, X=3 → 1; d=4: 1. EXT = Σ A_d p^d (1−p)/p + A_4 p^4 with p = 1/2:
    // 2/3·1/2 + 4/5·1/4 + 1/8 + 1/16 + 1/16 = 1/3 + 1/5 + 1/4 = 47/60.
    let r = rbo_tied(&model, &human, 0.5)?;
    assert_abs_diff_eq!(r.ext, 47.0 / 60.0, epsilon = 1e-15);
    Ok(())
}

// ---------------------------------------------------------------- closed forms

fn overlap(s: &[u32], t: &[u32], d: usize) -> f64 {
    let a: HashSet<_> = s.iter().take(d).collect();
    t.iter().take(d).filter(|x| a.contains(x)).count() as f64
}

/// Eq. 11 with k = l (no ties): the lower bound.
fn eq11_min(s: &[u32], l: &[u32], p: f64) -> f64 {
    let k = l.len();
    let xk = overlap(s, l, k);
    let sum: f64 = (1..=k)
        .map(|d| (overlap(s, l, d) - xk) * p.powi(d as i32) / d as f64)
        .sum();
    (1.0 - p) / p * (sum - xk * (1.0 - p).ln())
}

/// Eq. 30 (no ties): the residual for uneven lists.
fn eq30_res(s: &[u32], l: &[u32], p: f64) -> f64 {
    let (sn, ln) = (s.len(), l.len());
    let xl = overlap(s, l, ln);
    let f = ln + sn - xl as usize;
    let h = |a: usize, b: usize| -> f64 { (a..=b).map(|d| p.powi(d as i32) / d as f64).sum() };
    p.powi(sn as i32) + p.powi(ln as i32)
        - p.powi(f as i32)
        - (1.0 - p) / p
            * (sn as f64 * h(sn + 1, f)
                + ln as f64 * h(ln + 1, f)
                + xl * ((1.0 / (1.0 - p)).ln() - h(1, f)))
}

/// Eq. 32 (no ties): the extrapolation for uneven lists.
fn eq32_ext(s: &[u32], l: &[u32], p: f64) -> f64 {
    let (sn, ln) = (s.len(), l.len());
    let (xs, xl) = (overlap(s, l, sn), overlap(s, l, ln));
    let a: f64 = (1..=ln)
        .map(|d| overlap(s, l, d) / d as f64 * p.powi(d as i32))
        .sum();
    let b: f64 = (sn + 1..=ln)
        .map(|d| xs * (d - sn) as f64 / (sn * d) as f64 * p.powi(d as i32))
        .sum();
    (1.0 - p) / p * (a + b) + ((xl - xs) / ln as f64 + xs / sn as f64) * p.powi(ln as i32)
}

// ---------------------------------------------------------------- slow oracle

/// A ranking as tie groups.
type Ranking = Vec<Vec<u32>>;

/// RBO of two explicit rankings (tie groups) truncated at `depth`, straight
/// from the definition (1 − p) Σ p^{d−1} 2X_d/(|S_:d| + |T_:d|).
fn rbo_truncated(s: &[Vec<u32>], t: &[Vec<u32>], p: f64, depth: usize) -> f64 {
    let prefix = |r: &[Vec<u32>], d: usize| -> HashSet<u32> {
        let mut out = HashSet::new();
        let mut start = 1;
        for g in r {
            if start > d {
                break;
            }
            out.extend(g.iter().copied());
            start += g.len();
        }
        out
    };
    (1..=depth)
        .map(|d| {
            let (a, b) = (prefix(s, d), prefix(t, d));
            let x = a.intersection(&b).count() as f64;
            (1.0 - p) * p.powi(d as i32 - 1) * 2.0 * x / (a.len() + b.len()) as f64
        })
        .sum()
}

/// The continuations behind RBO_MIN (fresh, never-matching items) and RBO_MAX
/// (S continues with L's unmatched items in L's order, L with S's, then both
/// with the same fresh items), as explicit rankings of length ≥ `depth`.
fn continuations(s: &[Vec<u32>], l: &[Vec<u32>], depth: usize) -> [(Ranking, Ranking); 2] {
    let flat = |r: &[Vec<u32>]| -> Vec<u32> { r.iter().flatten().copied().collect() };
    let (fs, fl) = (flat(s), flat(l));
    let (ss, ls): (HashSet<u32>, HashSet<u32>) =
        (fs.iter().copied().collect(), fl.iter().copied().collect());
    let fresh = |from: u32| (from..).map(|x| vec![x]);
    let mut s_min = s.to_vec();
    s_min.extend(fresh(10_000).take(depth));
    let mut l_min = l.to_vec();
    l_min.extend(fresh(20_000).take(depth));
    let mut s_max = s.to_vec();
    s_max.extend(fl.iter().filter(|x| !ss.contains(x)).map(|&x| vec![x]));
    s_max.extend(fresh(30_000).take(depth));
    let mut l_max = l.to_vec();
    l_max.extend(fs.iter().filter(|x| !ls.contains(x)).map(|&x| vec![x]));
    l_max.extend(fresh(30_000).take(depth));
    [(s_min, l_min), (s_max, l_max)]
}

/// A ranking of distinct items from a small pool, cut into tie groups.
fn ranking(max_len: usize, ties: bool) -> impl Strategy<Value = Vec<Vec<u32>>> {
    prop::sample::subsequence((0..12u32).collect::<Vec<_>>(), 1..=max_len)
        .prop_flat_map(|items| {
            (
                Just(items).prop_shuffle(),
                prop::collection::vec(any::<bool>(), 12),
            )
        })
        .prop_map(move |(items, cuts)| {
            let mut groups: Vec<Vec<u32>> = Vec::new();
            for (i, x) in items.into_iter().enumerate() {
                let join = ties && i > 0 && cuts.get(i).copied().unwrap_or(false);
                match groups.last_mut() {
                    Some(g) if join => g.push(x),
                    _ => groups.push(vec![x]),
                }
            }
            groups
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Without ties the depth-by-depth values equal the paper's closed forms.
    #[test]
    fn matches_eqs_11_30_32(s in ranking(10, false), t in ranking(10, false), p in 0.05..0.98_f64) {
        let fs: Vec<u32> = s.iter().flatten().copied().collect();
        let ft: Vec<u32> = t.iter().flatten().copied().collect();
        let (short, long) = if fs.len() <= ft.len() { (&fs, &ft) } else { (&ft, &fs) };
        let r = rbo(&fs, &ft, p).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!((r.min - eq11_min(short, long, p)).abs() < 1e-12, "{:?}", r);
        prop_assert!((r.residual - eq30_res(short, long, p)).abs() < 1e-12, "{:?} {}", r, eq30_res(short, long, p));
        prop_assert!((r.ext - eq32_ext(short, long, p)).abs() < 1e-12, "{:?}", r);
    }

    /// With or without ties, MIN and MAX equal RBO of the explicit extreme
    /// continuations; MIN ≤ EXT ≤ MAX; the result is symmetric.
    #[test]
    fn bounds_match_explicit_continuations(s in ranking(9, true), t in ranking(9, true), p in 0.1..0.8_f64) {
        let r = rbo_tied(&s, &t, p).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (ns, nt) = (s.iter().map(Vec::len).sum::<usize>(), t.iter().map(Vec::len).sum::<usize>());
        let (short, long) = if ns <= nt { (&s, &t) } else { (&t, &s) };
        let depth = 200; // p^200 < 1e-19 for p < 0.8
        let [(s_min, l_min), (s_max, l_max)] = continuations(short, long, depth);
        let min = rbo_truncated(&s_min, &l_min, p, depth);
        let max = rbo_truncated(&s_max, &l_max, p, depth);
        prop_assert!((r.min - min).abs() < 1e-12, "{:?} vs {}", r, min);
        prop_assert!((r.max() - max).abs() < 1e-12, "{:?} vs {}", r, max);
        prop_assert!(r.min <= r.ext && r.ext <= r.max() + 1e-15);
        prop_assert_eq!(r, rbo_tied(&t, &s, p).map_err(|e| TestCaseError::fail(e.to_string()))?);
    }
}
