//! The measures of `trec_eval` 9.0.8 that work on the ranking's relevance
//! list: `Rprec_mult`, `11pt_avg`, `infAP`, `binG`, `G`, `ndcg_rel` and
//! `Rndcg`, each with the operations of its source file in its order (so bit
//! for bit).

use super::*;

/// `Rprec_mult` at m hundredths of R (R > 0), as `trec_eval`'s
/// m_Rprec_mult.c: the precision at c = ⌊(m/100)·R + 0.9⌋, counting the
/// places past the ranking as non-relevant (its backward pass stops at the
/// first relevant document, below which the precision is 0, as here).
pub(super) fn rprec_mult(s: &Scratch, m: u32, r: usize) -> f64 {
    let cut = (f64::from(m) / 100.0 * r as f64 + 0.9) as usize;
    if cut == 0 {
        return 0.0;
    }
    let hits = s
        .rels
        .iter()
        .take(cut)
        .filter(|rel| matches!(rel, TrecRel::Grade(g) if *g >= s.relevance_level))
        .count();
    hits as f64 / cut as f64
}

/// `11pt_avg` (R ≥ 0, a non-empty ranking) from the interpolated
/// precisions at the relevant documents retrieved, as `trec_eval`'s
/// m_11pt_avg.c: at each level p = 1.0, 0.9, …, 0.0 (its order of
/// summation) the largest precision from the c-th relevant document on, c
/// = ⌊p·R + 0.9⌋ (the first for c = 0), 0 past the relevant documents
/// retrieved; the sum over 11. With no relevant document retrieved every
/// level takes the precision of the whole ranking, 0.
pub(super) fn eleven_point(s: &Scratch, r: usize) -> f64 {
    let p = &s.precision_at_rel;
    let mut sum = 0.0;
    for level in RECALL_LEVELS.iter().rev() {
        let c = recall_cutoff(*level, r, TrecEvalVersion::V9);
        if c <= p.len() {
            sum += p.get(c.max(1) - 1).copied().unwrap_or(0.0);
        }
    }
    sum / RECALL_LEVELS.len() as f64
}

/// `trec_eval`'s default recall levels (hundredths) of `11pt_avg`.
const RECALL_LEVELS: [u32; 11] = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/// `trec_eval`'s `INFAP_EPSILON`.
const INFAP_EPSILON: f64 = 0.00001;

/// The measures of `trec_eval`'s relevance list, each with the operations
/// of its source file in its order (so bit for bit): `infAP` (m_infap.c),
/// `binG` (m_binG.c), `G` (m_G.c), `ndcg_rel` (m_ndcg_rel.c), `Rndcg`
/// (m_Rndcg.c); the list is kept for `Rprec_mult`. The gains are the
/// options' (`trec_eval`'s default: the grade), of grades ≥ 0; the ideal
/// ranking holds the judged documents by decreasing gain.
pub(super) fn rel_list_measures<G: Gain>(
    s: &mut Scratch,
    jg: &[i32],
    docs: &[u32],
    options: &TrecOptions<G>,
    level: i32,
    c: &mut Core,
) -> Result<()> {
    s.rels.clear();
    for &d in docs {
        let g = s.grade_of.get(d.wrapping_sub(s.base) as usize).copied();
        s.rels.push(match g {
            None | Some(UNJUDGED) => TrecRel::NotInPool,
            Some(g) if g < 0 => TrecRel::Unjudged,
            Some(g) => TrecRel::Grade(g),
        });
    }
    s.relevance_level = level;
    let rels = &s.rels;
    let r = c.relevant;
    let is_rel = |x: TrecRel| matches!(x, TrecRel::Grade(g) if g >= level);
    let gain = |x: TrecRel| match x {
        TrecRel::Grade(g) => gain_of(&options.gain, g),
        _ => Ok(0.0),
    };
    // infAP.
    let (mut rel_so_far, mut nonrel_so_far, mut pool_unjudged) = (0_i64, 0_i64, 0_i64);
    let mut inf_ap = 0.0_f64;
    for (j, &x) in rels.iter().enumerate() {
        match x {
            TrecRel::NotInPool => continue,
            TrecRel::Unjudged => pool_unjudged += 1,
            TrecRel::Grade(g) if g < level => nonrel_so_far += 1,
            TrecRel::Grade(_) => {
                rel_so_far += 1;
                if j == 0 {
                    inf_ap += 1.0;
                } else {
                    let fj = j as f64;
                    inf_ap += 1.0 / (fj + 1.0)
                        + (fj / (fj + 1.0))
                            * ((rel_so_far - 1 + nonrel_so_far + pool_unjudged) as f64 / fj)
                            * (((rel_so_far - 1) as f64 + INFAP_EPSILON)
                                / ((rel_so_far - 1 + nonrel_so_far) as f64 + 2.0 * INFAP_EPSILON));
                }
            }
        }
    }
    c.inf_ap = (r > 0).then(|| inf_ap / r as f64);
    // binG.
    let mut rel_so_far = 0_usize;
    let mut sum = 0.0_f64;
    for (i, &x) in rels.iter().enumerate() {
        if is_rel(x) {
            rel_so_far += 1;
            sum += 1.0 / ((3 + i - rel_so_far) as f64).log2();
        }
    }
    c.bin_g = (r > 0).then(|| if rel_so_far > 0 { sum / r as f64 } else { 0.0 });
    // The levels of gain, by decreasing gain: (gain, judged documents).
    s.levels_of_gain.clear();
    let mut last = None;
    for &g in jg.iter().filter(|&&g| g >= 0) {
        if last == Some(g) {
            if let Some(l) = s.levels_of_gain.last_mut() {
                l.1 += 1;
            }
        } else {
            last = Some(g);
            s.levels_of_gain.push((gain_of(&options.gain, g)?, 1));
        }
    }
    s.levels_of_gain.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ideal = IdealGains::new(&s.levels_of_gain);
    c.g = g_measure(rels, ideal.clone(), &gain)?;
    c.ndcg_rel = ndcg_rel(rels, ideal.clone(), &gain)?;
    c.rndcg = if r > 0 {
        rndcg(rels, ideal, &gain)?
    } else {
        None
    };
    Ok(())
}

/// The gains of the ideal ranking, rank by rank, as `trec_eval`'s
/// `setup_gains` and its loops over `rel_gains` give them: the levels by
/// decreasing gain, each as many times as it has judged documents; 0 once
/// they are used up.
#[derive(Clone)]
struct IdealGains<'a> {
    levels: &'a [(f64, usize)],
    /// The level in use and the documents of it used so far.
    cur: usize,
    used: usize,
    /// The current ideal gain (`trec_eval`'s `ideal_gain`).
    gain: f64,
}

impl<'a> IdealGains<'a> {
    fn new(levels: &'a [(f64, usize)]) -> Self {
        Self {
            levels,
            cur: 0,
            used: 0,
            gain: levels.first().map_or(0.0, |l| l.0),
        }
    }

    /// The ideal gain of the next rank (`num_at_level++` and the levels
    /// passed over).
    fn advance(&mut self) -> f64 {
        self.used += 1;
        while let Some(&(_, n)) = self.levels.get(self.cur) {
            if self.used <= n {
                break;
            }
            self.used = 1;
            self.cur += 1;
            self.gain = self.levels.get(self.cur).map_or(0.0, |l| l.0);
        }
        self.gain
    }
}

/// `trec_eval`'s G (m_G.c); `None` when the ideal gain is 0.
fn g_measure(
    rels: &[TrecRel],
    mut ideal: IdealGains<'_>,
    gain: &impl Fn(TrecRel) -> Result<f64>,
) -> Result<Option<f64>> {
    let (mut results_g, mut sum_results, mut sum_ideal, mut sum_cost) = (0.0, 0.0, 0.0, 0.0);
    let min_cost = 1.0;
    let mut i = 0;
    while i < rels.len() && ideal.gain > 0.0 {
        let results_gain = gain(rels.get(i).copied().unwrap_or(TrecRel::NotInPool))?;
        sum_results += results_gain;
        let ideal_gain = ideal.advance();
        if ideal_gain > 0.0 {
            sum_ideal += ideal_gain;
        }
        if ideal_gain >= min_cost {
            sum_cost += ideal_gain;
        } else {
            sum_cost += min_cost;
        }
        if results_gain != 0.0 {
            results_g += results_gain / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while let Some(&x) = rels.get(i) {
        let results_gain = gain(x)?;
        sum_results += results_gain;
        sum_cost += min_cost;
        if results_gain != 0.0 {
            results_g += results_gain / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        let ideal_gain = ideal.advance();
        if ideal_gain > 0.0 {
            sum_ideal += ideal_gain;
        }
    }
    Ok((sum_ideal > 0.0).then(|| results_g / sum_ideal))
}

/// `trec_eval`'s `ndcg_rel` (m_ndcg_rel.c); `None` when the ideal DCG is 0.
fn ndcg_rel(
    rels: &[TrecRel],
    mut ideal: IdealGains<'_>,
    gain: &impl Fn(TrecRel) -> Result<f64>,
) -> Result<Option<f64>> {
    let (mut results_dcg, mut ideal_dcg, mut sum) = (0.0_f64, 0.0_f64, 0.0_f64);
    let (mut num_rel_ret, mut num_rel) = (0_i64, 0_i64);
    let mut i = 0;
    while i < rels.len() && ideal.gain > 0.0 {
        let results_gain = gain(rels.get(i).copied().unwrap_or(TrecRel::NotInPool))?;
        if results_gain != 0.0 {
            results_dcg += results_gain / ((i + 2) as f64).log2();
        }
        let ideal_gain = ideal.advance();
        if ideal_gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal_gain / ((i + 2) as f64).log2();
        }
        if results_gain > 0.0 {
            sum += results_dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while let Some(&x) = rels.get(i) {
        let results_gain = gain(x)?;
        if results_gain != 0.0 {
            results_dcg += results_gain / ((i + 2) as f64).log2();
        }
        if results_gain > 0.0 {
            sum += results_dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        let ideal_gain = ideal.advance();
        if ideal_gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal_gain / ((i + 2) as f64).log2();
        }
        i += 1;
    }
    if ideal_dcg <= 0.0 {
        return Ok(None);
    }
    sum += (num_rel - num_rel_ret) as f64 * results_dcg / ideal_dcg;
    Ok(Some(if sum > 0.0 { sum / num_rel as f64 } else { 0.0 }))
}

/// `trec_eval`'s `Rndcg` (m_Rndcg.c), for a query with relevant documents;
/// `None` when no rank has a positive ideal DCG (`trec_eval`: 0/0).
fn rndcg(
    rels: &[TrecRel],
    mut ideal: IdealGains<'_>,
    gain: &impl Fn(TrecRel) -> Result<f64>,
) -> Result<Option<f64>> {
    let (mut results_dcg, mut ideal_dcg, mut sum) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut old_ideal_gain = ideal.gain;
    let mut changes = 0_i64;
    let mut i = 0;
    while i < rels.len() && ideal.gain > 0.0 {
        let results_gain = gain(rels.get(i).copied().unwrap_or(TrecRel::NotInPool))?;
        let ideal_gain = ideal.advance();
        #[allow(clippy::float_cmp)] // trec_eval compares the gains exactly
        if old_ideal_gain != ideal_gain {
            if ideal_dcg > 0.0 {
                sum += results_dcg / ideal_dcg;
                changes += 1;
            }
            old_ideal_gain = ideal_gain;
        }
        if results_gain != 0.0 {
            results_dcg += results_gain / ((i + 2) as f64).log2();
        }
        if ideal_gain > 0.0 {
            ideal_dcg += ideal_gain / ((i + 2) as f64).log2();
        }
        i += 1;
    }
    if i < rels.len() {
        while let Some(&x) = rels.get(i) {
            let results_gain = gain(x)?;
            if results_gain != 0.0 {
                results_dcg += results_gain / ((i + 2) as f64).log2();
            }
            i += 1;
        }
        if ideal_dcg > 0.0 {
            sum += results_dcg / ideal_dcg;
            changes += 1;
        }
    }
    while ideal.gain > 0.0 {
        let ideal_gain = ideal.advance();
        #[allow(clippy::float_cmp)]
        if old_ideal_gain != ideal_gain {
            if ideal_dcg > 0.0 {
                sum += results_dcg / ideal_dcg;
                changes += 1;
            }
            old_ideal_gain = ideal_gain;
        }
        if ideal_gain > 0.0 {
            ideal_dcg += ideal_gain / ((i + 2) as f64).log2();
        }
        i += 1;
    }
    Ok((changes > 0).then(|| sum / changes as f64))
}
