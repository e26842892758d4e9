//! Rank-biased overlap (RBO) of two rankings, after Webber, Moffat & Zobel
//! (2010), "A similarity measure for indefinite rankings", ACM TOIS 28(4).
//!
//! Only a prefix of each (conceptually infinite) ranking is seen. RBO is the
//! expected overlap agreement a user with persistence `p` sees:
//!
//! ```text
//! RBO(S, T, p) = (1 − p) Σ_{d≥1} p^{d−1} A_d,     A_d = X_d / d,   X_d = |S_{:d} ∩ T_{:d}|
//! ```
//!
//! From the seen prefixes follow a lower bound RBO_MIN (no unseen item ever
//! matches), a residual RBO_RES (the most the unseen parts can add), and a
//! point estimate RBO_EXT (agreement at the end of the shorter prefix is
//! extrapolated), with RBO_MIN ≤ RBO_EXT ≤ RBO_MIN + RBO_RES.

use super::error::{RelevanceError, Result, check_finite};
use crate::sum::Neumaier;
use num_traits::Float;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;

/// Rank-biased overlap of two seen prefixes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rbo {
    /// Lower bound RBO_MIN: no item beyond the seen prefixes matches.
    pub min: f64,
    /// Residual RBO_RES: the largest amount the unseen items can add.
    pub residual: f64,
    /// Extrapolated point estimate RBO_EXT.
    pub ext: f64,
}

impl Rbo {
    /// Upper bound RBO_MAX = RBO_MIN + RBO_RES.
    #[must_use]
    pub fn max(&self) -> f64 {
        (self.min + self.residual).min(1.0)
    }
}

/// Rank-biased overlap of two rankings without ties, with its lower bound,
/// residual and extrapolation (Webber, Moffat & Zobel 2010).
///
/// Let S be the shorter prefix (s items), L the longer (l items), and X_d the
/// overlap of S and L at depth d counting seen items only. Then, with the
/// paper's equations:
///
/// ```text
/// RBO_MIN = (1 − p)/p · ( Σ_{d=1..l} (X_d − X_l) p^d / d − X_l ln(1 − p) )          (Eq. 11, k = l)
/// RBO_RES = p^s + p^l − p^f − (1 − p)/p · ( s Σ_{d=s+1..f} p^d/d + l Σ_{d=l+1..f} p^d/d
///           + X_l ( ln(1/(1 − p)) − Σ_{d=1..f} p^d/d ) ),      f = l + s − X_l          (Eq. 30)
/// RBO_EXT = (1 − p)/p · ( Σ_{d=1..l} (X_d/d) p^d + Σ_{d=s+1..l} X_s (d − s)/(s d) p^d )
///           + ( (X_l − X_s)/l + X_s/s ) p^l                                             (Eq. 32)
/// ```
///
/// For equal lengths (s = l = k) RBO_EXT is X_k/k · p^k + (1 − p)/p Σ_{d≤k} X_d/d p^d.
/// The sums are evaluated depth by depth (see [`rbo_tied`], of which this is
/// the case of singleton tie groups), not through the closed forms.
///
/// # Errors
/// [`RelevanceError::InvalidParameter`] unless 0 < p < 1;
/// [`RelevanceError::EmptyRanking`] if a ranking is empty;
/// [`RelevanceError::DuplicateItem`] if an item occurs twice in one ranking.
///
/// # Complexity
/// O(s + l) expected time and memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::rbo;
/// // X = 0, 2, 2 at depths 1..3; p = 1/2.
/// let r = rbo(&["a", "b", "c"], &["b", "a", "d"], 0.5)?;
/// assert!((r.min - (2.0 * 2f64.ln() - 1.0)).abs() < 1e-15);
/// assert!((r.ext - 5.0 / 12.0).abs() < 1e-15);
/// assert!((r.max() - 11.0 / 24.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn rbo<T: Eq + Hash>(s: &[T], t: &[T], p: f64) -> Result<Rbo> {
    check_p(p)?;
    let a = flatten("s", s.iter().map(core::slice::from_ref))?;
    let b = flatten("t", t.iter().map(core::slice::from_ref))?;
    compute(&a, &b, p)
}

/// Rank-biased overlap of two rankings given as sequences of tie groups,
/// with Webber, Moffat & Zobel's (2010) treatment of ties.
///
/// A group of t tied items occupying ranks d … d + t − 1 is seen, all of it,
/// from depth d on, and agreement divides the overlap by the mean size of the
/// two prefixes (the paper's tie-aware agreement of its section on ties,
/// Eqs. 28–29; "RBO^w" in Corsi & Urbano 2024):
///
/// ```text
/// A_d = 2 X_d / (|S_{:d}| + |L_{:d}|)
/// ```
///
/// With S the shorter prefix (s items, |S_{:d}| = d for d > s), L the longer
/// (l items) and X_d counted over seen items, the three values are the RBO
/// sums (1 − p)/p · Σ_{d≥1} A_d p^d of three agreement sequences:
///
/// ```text
///            d ≤ s        s < d ≤ l                              d > l
/// MIN        A_d          2 X_d / (d + |L_{:d}|)                 X_l / d
/// MAX        A_d          2 (X_d + d − s) / (d + |L_{:d}|)       min(1, (2d − l − s + X_l)/d)
/// EXT        A_d          2 (X_d + A_s (d − s)) / (d + |L_{:d}|)  (X_l + A_s (l − s)) / l
/// RES = MAX − MIN
/// ```
///
/// MAX lets S continue with L's unmatched items in L's order and L continue
/// with S's, then both with the same new items; EXT assumes the unseen part
/// of S agrees at rate A_s, and beyond depth l the agreement stays at its
/// depth-l value. Without ties these are exactly Eqs. 11, 30 and 32 (see
/// [`rbo`]). Tail sums use Σ_{d>l} p^d/d = −ln(1 − p) − Σ_{d≤l} p^d/d.
///
/// # Errors
/// As [`rbo`], plus [`RelevanceError::EmptyGroup`] for an empty tie group.
///
/// # Complexity
/// O(s + l) expected time and memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::rbo_tied;
/// // a and b tied at the top of S; T ranks a, c, b.
/// let s: [&[&str]; 2] = [&["a", "b"], &["c"]];
/// let t: [&[&str]; 3] = [&["a"], &["c"], &["b"]];
/// let r = rbo_tied(&s, &t, 0.5)?;
/// // A = 2/3, 1/2, 1 → EXT = 2/3·1/2 + 1/2·1/4 + 1/8 + 1/8 = 17/24.
/// assert!((r.ext - 17.0 / 24.0).abs() < 1e-15);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn rbo_tied<T: Eq + Hash, G: AsRef<[T]>>(s: &[G], t: &[G], p: f64) -> Result<Rbo> {
    check_p(p)?;
    let a = flatten("s", s.iter().map(AsRef::as_ref))?;
    let b = flatten("t", t.iter().map(AsRef::as_ref))?;
    compute(&a, &b, p)
}

/// Groups `items` into tie groups by decreasing score, for [`rbo_tied`]:
/// items with equal scores share a group; groups keep input order inside.
///
/// ```text
/// groups = [ {i : score_i = v₁}, {i : score_i = v₂}, … ],   v₁ > v₂ > …
/// ```
///
/// # Errors
/// [`RelevanceError::LengthMismatch`] if the slices differ in length;
/// [`RelevanceError::NaN`] / [`RelevanceError::Infinite`] (input `"scores"`)
/// for a bad score.
///
/// # Complexity
/// O(n log n) time, O(n) memory.
///
/// # Examples
/// ```
/// use adaptive_comp_metrics::relevance::tie_groups;
/// let g = tie_groups(&["a", "b", "c", "d"], &[0.5, 0.9, 0.5, 0.1])?;
/// assert_eq!(g, vec![vec!["b"], vec!["a", "c"], vec!["d"]]);
/// # Ok::<(), adaptive_comp_metrics::relevance::RelevanceError>(())
/// ```
pub fn tie_groups<T: Clone, F: Float>(items: &[T], scores: &[F]) -> Result<Vec<Vec<T>>> {
    same_length!(RelevanceError, items, scores);
    check_finite("scores", scores)?;
    let mut order: Vec<(F, &T)> = scores.iter().copied().zip(items).collect();
    // Stable, decreasing; scores are finite so partial_cmp never fails.
    order.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(core::cmp::Ordering::Equal));
    let mut groups: Vec<Vec<T>> = Vec::new();
    let mut last: Option<F> = None;
    for (score, item) in order {
        match groups.last_mut() {
            Some(g) if last == Some(score) => g.push(item.clone()),
            _ => groups.push(vec![item.clone()]),
        }
        last = Some(score);
    }
    Ok(groups)
}

fn check_p(p: f64) -> Result<()> {
    if p > 0.0 && p < 1.0 {
        Ok(())
    } else {
        Err(RelevanceError::InvalidParameter {
            name: "p",
            expected: "a persistence strictly between 0 and 1",
        })
    }
}

/// Items with the 1-based depth at which their tie group starts (duplicates
/// are caught by `compute`).
fn flatten<'a, T: Eq + Hash + 'a>(
    ranking: &'static str,
    groups: impl Iterator<Item = &'a [T]>,
) -> Result<Vec<(&'a T, usize)>> {
    let mut out = Vec::new();
    for (gi, group) in groups.enumerate() {
        if group.is_empty() {
            return Err(RelevanceError::EmptyGroup { ranking, group: gi });
        }
        let start = out.len() + 1;
        out.extend(group.iter().map(|item| (item, start)));
    }
    if out.is_empty() {
        return Err(RelevanceError::EmptyRanking { ranking });
    }
    Ok(out)
}

/// The three RBO sums; `a` (ranking s) and `b` (ranking t) are non-empty,
/// 0 < p < 1.
fn compute<T: Eq + Hash>(a: &[(&T, usize)], b: &[(&T, usize)], p: f64) -> Result<Rbo> {
    // Start depths of every item in a and b (0: absent), one hash per item;
    // a repeat within one ranking is an error.
    let mut starts: HashMap<&T, (usize, usize)> = HashMap::with_capacity(a.len() + b.len());
    for (index, &(item, d)) in a.iter().enumerate() {
        match starts.entry(item) {
            Entry::Occupied(_) => {
                return Err(RelevanceError::DuplicateItem {
                    ranking: "s",
                    index,
                });
            }
            Entry::Vacant(v) => {
                v.insert((d, 0));
            }
        }
    }
    for (index, &(item, d)) in b.iter().enumerate() {
        match starts.entry(item) {
            Entry::Occupied(mut o) if o.get().1 == 0 => o.get_mut().1 = d,
            Entry::Occupied(_) => {
                return Err(RelevanceError::DuplicateItem {
                    ranking: "t",
                    index,
                });
            }
            Entry::Vacant(v) => {
                v.insert((0, d));
            }
        }
    }
    let swap = a.len() > b.len();
    let (s, l) = if swap {
        (b.len(), a.len())
    } else {
        (a.len(), b.len())
    };
    // Per depth 1..=l (index d): items of S / L starting there, and common
    // items first seen in both prefixes there.
    let mut new_s = vec![0_usize; l + 1];
    let mut new_l = vec![0_usize; l + 1];
    let mut new_x = vec![0_usize; l + 1];
    for &(da, db) in starts.values() {
        let (ds, dl) = if swap { (db, da) } else { (da, db) };
        if let Some(c) = new_s.get_mut(ds).filter(|_| ds > 0) {
            *c += 1;
        }
        if let Some(c) = new_l.get_mut(dl).filter(|_| dl > 0) {
            *c += 1;
        }
        if ds > 0
            && dl > 0
            && let Some(c) = new_x.get_mut(ds.max(dl))
        {
            *c += 1;
        }
    }

    let (mut min, mut max, mut ext) = (
        Neumaier::default(),
        Neumaier::default(),
        Neumaier::default(),
    );
    // The sums are kept divided by p (a depth-d term carries p^(d−1), not
    // p^d) and scaled by (1 − p) at the end: the (1 − p)/p of the formulas
    // overflows for a subnormal p, where 0·∞ would be NaN.
    let mut log_partial = Neumaier::default(); // Σ_{d≤l} p^d/d
    let (mut seen_s, mut seen_l, mut x) = (0_usize, 0_usize, 0_usize);
    let mut a_s = 0.0;
    let mut pd = 1.0; // p^(d−1)
    for d in 1..=l {
        seen_s += new_s.get(d).copied().unwrap_or(0);
        seen_l += new_l.get(d).copied().unwrap_or(0);
        x += new_x.get(d).copied().unwrap_or(0);
        let df = d as f64;
        log_partial.add(pd * p / df);
        let xf = x as f64;
        if d <= s {
            let agreement = 2.0 * xf / (seen_s + seen_l) as f64;
            if d == s {
                a_s = agreement;
            }
            min.add(agreement * pd);
            max.add(agreement * pd);
            ext.add(agreement * pd);
        } else {
            let denominator = df + seen_l as f64;
            let unseen = (d - s) as f64;
            min.add(2.0 * xf / denominator * pd);
            max.add(2.0 * (xf + unseen) / denominator * pd);
            ext.add(2.0 * (xf + a_s * unseen) / denominator * pd);
        }
        pd *= p;
    }
    // Tails, d > l, divided by p. Here x = X_l and pd = p^l.
    let x_l = x as f64;
    let tail_log = (-(-p).ln_1p() - log_partial.value()).max(0.0); // Σ_{d>l} p^d/d
    min.add(x_l * (tail_log / p));
    let a_ext = (x_l + a_s * (l - s) as f64) / l as f64;
    ext.add(a_ext * pd / (1.0 - p));
    let f = l + s - x;
    let mut pe = pd;
    for e in (l + 1)..=f {
        let ef = e as f64;
        max.add((2.0 * ef - (l + s) as f64 + x_l) / ef * pe);
        pe *= p;
    }
    max.add(pe / (1.0 - p));

    let clamp = |v: f64| ((1.0 - p) * v).clamp(0.0, 1.0);
    let lo = clamp(min.value());
    let hi = clamp(max.value()).max(lo);
    Ok(Rbo {
        min: lo,
        residual: hi - lo,
        ext: clamp(ext.value()).clamp(lo, hi),
    })
}
