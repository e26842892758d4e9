//! The crate's tie-aware measures: each an expectation over the orders of
//! the tie groups of the run's scores, in closed form.

use super::*;

/// The measures as expectations over the orders of each tie group (the
/// closed forms of `evaluate_query`, and those of [`evaluate_trec`] for
/// bpref, success and `map_cut`).
pub(super) fn expected<G: Gain>(
    s: &mut Scratch,
    docs: &[u32],
    scores: &[f64],
    options: &TrecOptions<G>,
    level: i32,
    c: &mut Core,
) -> Result<()> {
    let n = docs.len();
    let r_total = c.relevant;
    let bpref_den = c.nonrelevant.min(r_total) as f64;
    // Totals over the tie groups above: AP numerator, DCG, bpref numerator.
    let mut ap = Neumaier::default();
    let mut dcg = Neumaier::default();
    let mut bpref = Neumaier::default();
    let mut rr: Option<f64> = None;
    let (mut above, mut rel_above, mut nonrel_above) = (0_usize, 0_usize, 0_usize);
    let mut top_r = 0.0;
    let mut next = 0;
    while above < n {
        let score = scores.get(above).copied().unwrap_or(0.0);
        let len = scores
            .get(above..)
            .map_or(1, |rest| rest.iter().take_while(|&&x| x == score).count())
            .max(1);
        let (mut r, mut b) = (0_usize, 0_usize);
        let mut gain_sum = Neumaier::default();
        for &d in docs.get(above..above + len).unwrap_or(&[]) {
            let g = s.grade(d);
            if g >= level {
                r += 1;
            } else if g >= 0 {
                b += 1;
            }
            if g >= 0 {
                gain_sum.add(gain_of(&options.gain, g)?);
            }
        }
        let (nf, rf) = (len as f64, r as f64);
        let mean_gain = gain_sum.value() / nf;
        // Within the group, after t of its places: expected relevant
        // documents, AP numerator, discount sum, and the probability that
        // none is relevant.
        let within = if len > 1 {
            (rf - 1.0) / (nf - 1.0)
        } else {
            0.0
        };
        let (mut ap_part, mut disc_part, mut none_part) = (0.0, 0.0, 1.0);
        // Place t + 1 of the group (rank above + t + 1): its share of the
        // AP numerator, its discount.
        let ap_term = |t: usize| {
            rf / nf * (rel_above as f64 + 1.0 + t as f64 * within) / (above + t + 1) as f64
        };
        if s.cuts.get(next).is_some_and(|&k| k < above + len) {
            // A cut-off falls inside the group: place by place.
            for t in 0..len {
                while let Some(&k) = s.cuts.get(next) {
                    if k != above + t {
                        break;
                    }
                    let hit = if rel_above > 0 { 1.0 } else { 1.0 - none_part };
                    record_expected(
                        s,
                        next,
                        rel_above as f64 + rf * t as f64 / nf,
                        dcg.value() + mean_gain * disc_part,
                        ap.value() + ap_part,
                        hit,
                    );
                    next += 1;
                }
                if r > 0 {
                    ap_part += ap_term(t);
                }
                disc_part += 1.0 / log2_at(&s.log2, above + t);
                let tf = t as f64;
                none_part *= if len - t > r {
                    (nf - rf - tf) / (nf - tf)
                } else {
                    0.0
                };
            }
        } else {
            // Only the group's totals.
            if r > 0 {
                ap_part = (0..len).map(ap_term).sum();
            }
            if mean_gain > 0.0 {
                disc_part = (above..above + len)
                    .map(|i| 1.0 / log2_at(&s.log2, i))
                    .sum();
            }
        }
        top_r += rf * r_total.saturating_sub(above).min(len) as f64 / nf;
        if r > 0 {
            ap.add(ap_part);
            if rr.is_none() {
                rr = Some(expected_reciprocal_rank(above, len, r));
            }
            if s.bpref && bpref_den > 0.0 {
                // E[min(A + X, R)], X uniform on 0..=b.
                let capped: f64 = (0..=b)
                    .map(|x| (nonrel_above + x).min(r_total) as f64)
                    .sum::<f64>()
                    / (b + 1) as f64;
                bpref.add(rf * (1.0 - capped / bpref_den));
            } else if s.bpref {
                bpref.add(rf);
            }
        }
        if mean_gain > 0.0 {
            dcg.add(mean_gain * disc_part);
        }
        above += len;
        rel_above += r;
        nonrel_above += b;
    }
    while next < s.cuts.len() {
        record(s, next, rel_above, dcg.value(), ap.value());
        next += 1;
    }
    c.ap_sum = ap.value();
    c.rel_at_r = top_r;
    c.rr = rr.unwrap_or(0.0);
    c.relevant_retrieved = rel_above as f64;
    c.dcg = dcg.value();
    c.bpref = bpref.value();
    Ok(())
}
