//! The comparison graph: records aggregated into distinct pairs, and the
//! two conditions under which the maximum likelihood is finite without a
//! prior (connected; strongly connected as a graph of wins, a tie counting
//! both ways).

use super::data::{Comparisons, Record};
use super::error::{PairwiseError, Result};
use crate::ballot::Vote;

/// The distinct unordered pairs of a list (a < b), and for each record its
/// pair and whether it lists the pair's items in reverse.
#[derive(Debug, Clone, Default)]
pub(crate) struct PairIndex {
    pub(crate) n_items: usize,
    pub(crate) a: Vec<u32>,
    pub(crate) b: Vec<u32>,
    /// Per record: its pair's index, shifted left by one, the low bit set
    /// when the record's first item is the pair's `b`.
    pub(crate) of_record: Vec<u32>,
}

/// Counts of one aggregation: wins of a, wins of b, ties, per pair (sums of
/// record weights).
#[derive(Debug, Clone, Default)]
pub(crate) struct Counts {
    pub(crate) wa: Vec<f64>,
    pub(crate) wb: Vec<f64>,
    pub(crate) t: Vec<f64>,
}

impl Counts {
    pub(crate) fn zeros(pairs: usize) -> Self {
        Self {
            wa: vec![0.0; pairs],
            wb: vec![0.0; pairs],
            t: vec![0.0; pairs],
        }
    }

    pub(crate) fn clear(&mut self) {
        for v in [&mut self.wa, &mut self.wb, &mut self.t] {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
    }

    /// Total ties and total comparisons.
    pub(crate) fn totals(&self) -> (f64, f64) {
        let t: f64 = self.t.iter().sum();
        let w: f64 = self.wa.iter().chain(&self.wb).sum();
        (t, t + w)
    }
}

impl PairIndex {
    /// Aggregates the records of `data`: pairs in increasing (a, b) order.
    ///
    /// A counting sort of the records by their lower item, then each lower
    /// item's records by (higher item, record): every pair of a lower item
    /// together, in order.
    ///
    /// # Complexity
    /// O(n + m + Σ mₐ log mₐ) for n items, m records and mₐ records of
    /// lower item a (O(n + m) for bounded degrees).
    pub(crate) fn new(data: &Comparisons) -> Self {
        let records = data.records();
        let n = data.n_items();
        let mut start = vec![0u32; n + 1];
        for rec in records {
            start[ordered(rec).0 as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        // (higher item, record) of each record, grouped by lower item.
        let mut fill = start.clone();
        let mut keys = vec![0u64; records.len()];
        for (r, rec) in records.iter().enumerate() {
            let (lo, hi) = ordered(rec);
            let at = &mut fill[lo as usize];
            keys[*at as usize] = (u64::from(hi) << 32) | r as u64;
            *at += 1;
        }
        let mut a = Vec::new();
        let mut b = Vec::new();
        let mut of_record = vec![0u32; records.len()];
        for lo in 0..n {
            let group = &mut keys[start[lo] as usize..start[lo + 1] as usize];
            group.sort_unstable();
            let mut last = u32::MAX;
            for &k in group.iter() {
                let hi = (k >> 32) as u32;
                let r = (k as u32) as usize;
                if hi != last {
                    a.push(lo as u32);
                    b.push(hi);
                    last = hi;
                }
                let p = (a.len() - 1) as u32;
                let flip = u32::from(records[r].first > records[r].second);
                of_record[r] = (p << 1) | flip;
            }
        }
        Self {
            n_items: n,
            a,
            b,
            of_record,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.a.len()
    }

    /// Adds `weight` for each record (`weight(r)`) to its pair's counts.
    pub(crate) fn count_into(
        &self,
        records: &[Record],
        counts: &mut Counts,
        weight: impl Fn(usize) -> f64,
    ) {
        for (r, (rec, &code)) in records.iter().zip(&self.of_record).enumerate() {
            let w = weight(r);
            if w == 0.0 {
                continue;
            }
            let p = (code >> 1) as usize;
            match slot(rec, code) {
                Slot::WinA => counts.wa[p] += w,
                Slot::WinB => counts.wb[p] += w,
                Slot::Tie => counts.t[p] += w,
            }
        }
    }

    /// Every record counted once.
    pub(crate) fn counts(&self, records: &[Record]) -> Counts {
        let mut c = Counts::zeros(self.len());
        self.count_into(records, &mut c, |_| 1.0);
        c
    }
}

/// Which count of its pair a record adds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Slot {
    /// A win of the pair's `a`.
    WinA = 0,
    /// A win of the pair's `b`.
    WinB = 1,
    /// A tie.
    Tie = 2,
}

/// The count of its pair that record `rec` adds to, `code` its entry in
/// [`PairIndex::of_record`].
pub(crate) fn slot(rec: &Record, code: u32) -> Slot {
    match (rec.vote, code & 1 == 1) {
        (Vote::Tie, _) => Slot::Tie,
        (Vote::First, false) | (Vote::Second, true) => Slot::WinA,
        (Vote::First, true) | (Vote::Second, false) => Slot::WinB,
    }
}

fn ordered(r: &Record) -> (u32, u32) {
    if r.first < r.second {
        (r.first, r.second)
    } else {
        (r.second, r.first)
    }
}

/// Checks that the maximum likelihood is finite without a prior: every
/// item in one connected component, and the graph of wins (a → b when a
/// beat b; a tie both ways) strongly connected.
///
/// # Errors
/// [`PairwiseError::Disconnected`], [`PairwiseError::NoFiniteMaximum`].
///
/// # Complexity
/// O(n + pairs).
pub(crate) fn check_finite(pairs: &PairIndex, counts: &Counts, names: &[String]) -> Result<()> {
    // The usual case (every bootstrap replicate checks): the graph of wins
    // is strongly connected, which two searches tell; the errors need the
    // components, found only when it is not.
    if wins_strongly_connected(pairs, counts) {
        return Ok(());
    }
    diagnose(pairs, counts, names)
}

/// Whether every item reaches item 0 and is reached from it in the graph
/// of wins (a → b when a beat b; a tie both ways): breadth-first searches
/// along the edges and against them.
///
/// # Complexity
/// O(n + pairs).
fn wins_strongly_connected(pairs: &PairIndex, counts: &Counts) -> bool {
    let n = pairs.n_items;
    if n <= 1 {
        return true;
    }
    reach_by_sweeps(pairs, counts, SWEEPS).unwrap_or_else(|| reach_by_searches(pairs, counts))
}

/// [`wins_strongly_connected`] by breadth-first searches along the edges
/// and against them, from adjacency lists.
///
/// # Complexity
/// O(n + pairs).
fn reach_by_searches(pairs: &PairIndex, counts: &Counts) -> bool {
    let n = pairs.n_items;
    // Adjacency in both directions, compressed rows.
    let (mut fwd, mut back) = (vec![0u32; n + 1], vec![0u32; n + 1]);
    let edge = |p: usize| -> [Option<(usize, usize)>; 2] {
        let (a, b) = (pairs.a[p] as usize, pairs.b[p] as usize);
        let tie = counts.t[p] > 0.0;
        [
            (counts.wa[p] > 0.0 || tie).then_some((a, b)),
            (counts.wb[p] > 0.0 || tie).then_some((b, a)),
        ]
    };
    for p in 0..pairs.len() {
        for (from, to) in edge(p).into_iter().flatten() {
            fwd[from + 1] += 1;
            back[to + 1] += 1;
        }
    }
    for i in 0..n {
        fwd[i + 1] += fwd[i];
        back[i + 1] += back[i];
    }
    let mut to_of = vec![0u32; fwd[n] as usize];
    let mut from_of = vec![0u32; back[n] as usize];
    let (mut at_f, mut at_b) = (fwd.clone(), back.clone());
    for p in 0..pairs.len() {
        for (from, to) in edge(p).into_iter().flatten() {
            to_of[at_f[from] as usize] = to as u32;
            at_f[from] += 1;
            from_of[at_b[to] as usize] = from as u32;
            at_b[to] += 1;
        }
    }
    let mut seen = vec![false; n];
    let mut queue = Vec::with_capacity(n);
    [(&fwd, &to_of), (&back, &from_of)]
        .into_iter()
        .all(|(start, next)| {
            seen.iter_mut().for_each(|v| *v = false);
            queue.clear();
            queue.push(0u32);
            seen[0] = true;
            let mut head = 0;
            while let Some(&v) = queue.get(head) {
                head += 1;
                let v = v as usize;
                for &w in &next[start[v] as usize..start[v + 1] as usize] {
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        queue.push(w);
                    }
                }
            }
            queue.len() == n
        })
}

/// The sweeps [`reach_by_sweeps`] makes before the searches take over.
const SWEEPS: usize = 4;

/// Whether every item reaches item 0 and is reached from it in the graph
/// of wins, by sweeps over the pairs in their order that mark an item
/// reached from 0 when an edge leads to it from a marked one (and reaching
/// 0 when an edge leads from it to a marked one): `Some` once every item
/// is marked both ways (true) or a sweep marks nothing new (the marks are
/// then the reachable sets: false unless all), `None` when `sweeps` sweeps
/// settle neither. The pairs come sorted by their first item, so on a
/// well-connected graph (a bootstrap replicate's) one or two sweeps
/// settle it, streaming through the counts instead of building the
/// adjacency lists of the searches.
///
/// # Complexity
/// O(n + pairs) per sweep.
fn reach_by_sweeps(pairs: &PairIndex, counts: &Counts, sweeps: usize) -> Option<bool> {
    let n = pairs.n_items;
    // Bit 0: reached from item 0; bit 1: reaches item 0.
    let mut mark = vec![0u8; n];
    mark[0] = 3;
    for _ in 0..sweeps {
        let mut changed = 0u8;
        for p in 0..pairs.len() {
            let (a, b) = (pairs.a[p] as usize, pairs.b[p] as usize);
            let tie = counts.t[p] > 0.0;
            // a → b (a beat b) carries "reached" from a to b and "reaches"
            // from b to a; b → a the other way round.
            let ab = u8::from(counts.wa[p] > 0.0 || tie);
            let ba = u8::from(counts.wb[p] > 0.0 || tie);
            let (ma, mb) = (mark[a], mark[b]);
            let new_b = mb | (ma & ab) | (ma & (ba << 1));
            let new_a = ma | (mb & ba) | (mb & (ab << 1));
            changed |= (new_a ^ ma) | (new_b ^ mb);
            mark[a] = new_a;
            mark[b] = new_b;
        }
        let all = mark.iter().all(|&m| m == 3);
        if all || changed == 0 {
            return Some(all);
        }
    }
    None
}

/// The error of a graph of wins that is not strongly connected (Ok if it
/// is): items outside the largest connected component, else a group that
/// never lost to an outsider.
fn diagnose(pairs: &PairIndex, counts: &Counts, names: &[String]) -> Result<()> {
    let n = pairs.n_items;
    // Connected components by union-find.
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    for p in 0..pairs.len() {
        if counts.wa[p] + counts.wb[p] + counts.t[p] <= 0.0 {
            continue;
        }
        let (x, y) = (find(&mut parent, pairs.a[p]), find(&mut parent, pairs.b[p]));
        if x != y {
            parent[x.max(y) as usize] = x.min(y);
        }
    }
    let roots: Vec<u32> = (0..n as u32).map(|i| find(&mut parent, i)).collect();
    let mut size = vec![0usize; n];
    for &r in &roots {
        size[r as usize] += 1;
    }
    let components = size.iter().filter(|&&s| s > 0).count();
    if components > 1 {
        let big = (0..n)
            .max_by_key(|&i| (size[i], core::cmp::Reverse(i)))
            .unwrap_or(0);
        let outside: Vec<usize> = (0..n).filter(|&i| roots[i] as usize != big).collect();
        return Err(PairwiseError::Disconnected {
            components,
            anchor: names[big].clone(),
            items: outside.iter().take(5).map(|&i| names[i].clone()).collect(),
            unconnected: outside.len(),
        });
    }
    // Strong connectivity of the graph of wins.
    let mut degree = vec![0u32; n + 1];
    let mut edges = Vec::with_capacity(2 * pairs.len());
    for p in 0..pairs.len() {
        let (a, b) = (pairs.a[p], pairs.b[p]);
        if counts.wa[p] > 0.0 || counts.t[p] > 0.0 {
            edges.push((a, b));
        }
        if counts.wb[p] > 0.0 || counts.t[p] > 0.0 {
            edges.push((b, a));
        }
    }
    for &(from, _) in &edges {
        degree[from as usize + 1] += 1;
    }
    for i in 0..n {
        degree[i + 1] += degree[i];
    }
    let mut targets = vec![0u32; edges.len()];
    let mut at = degree.clone();
    for &(from, to) in &edges {
        targets[at[from as usize] as usize] = to;
        at[from as usize] += 1;
    }
    let component = strong_components(n, &degree, &targets);
    let count = component
        .iter()
        .copied()
        .max()
        .map_or(0, |c| c as usize + 1);
    if count <= 1 {
        return Ok(());
    }
    // A group with no win into it from outside never lost to an outsider.
    let mut beaten = vec![false; count];
    for &(from, to) in &edges {
        let (cf, ct) = (component[from as usize], component[to as usize]);
        if cf != ct {
            beaten[ct as usize] = true;
        }
    }
    let group = (0..count).find(|&c| !beaten[c]).unwrap_or(0) as u32;
    let members: Vec<usize> = (0..n).filter(|&i| component[i] == group).collect();
    Err(PairwiseError::NoFiniteMaximum {
        items: members.iter().take(5).map(|&i| names[i].clone()).collect(),
        size: members.len(),
        lost: true,
    })
}

/// Tarjan's strongly connected components (iterative): the component of
/// each node, numbered from 0.
fn strong_components(n: usize, start: &[u32], targets: &[u32]) -> Vec<u32> {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut call: Vec<(u32, u32)> = Vec::new(); // (node, next edge)
    let mut next_index = 0u32;
    let mut next_component = 0u32;
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        call.push((root, start[root as usize]));
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&(v, e)) = call.last() {
            let vi = v as usize;
            if e < start[vi + 1] {
                let w = targets[e as usize];
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                let wi = w as usize;
                if index[wi] == UNSEEN {
                    index[wi] = next_index;
                    low[wi] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    call.push((w, start[wi]));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    let p = parent as usize;
                    low[p] = low[p].min(low[vi]);
                }
                if low[vi] == index[vi] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        component[w as usize] = next_component;
                        if w == v {
                            break;
                        }
                    }
                    next_component += 1;
                }
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records written `a>b` (a beat b), `a<b` (b beat a) or `a=b` (a tie),
    /// separated by spaces.
    fn data(records: &str) -> Comparisons {
        let mut c = Comparisons::new();
        for record in records.split_whitespace() {
            let at = record.find(['>', '<', '=']).unwrap();
            let vote = match &record[at..=at] {
                ">" => Vote::First,
                "<" => Vote::Second,
                _ => Vote::Tie,
            };
            c.add_named(&record[..at], &record[at + 1..], vote, None)
                .unwrap();
        }
        c
    }

    /// Comparisons of n items (n drawn from `items`), with a number of
    /// records drawn from `records`, each of item x mod n against another
    /// (x below `items.end`) and a random vote.
    fn comparisons(
        items: core::ops::Range<usize>,
        records: core::ops::Range<usize>,
    ) -> impl proptest::strategy::Strategy<Value = Comparisons> {
        use proptest::strategy::Strategy;
        let max = items.end;
        let raw = proptest::collection::vec((0..max, 1..max, 0u8..3), records);
        (items, raw).prop_map(|(n, raw)| {
            let mut c = Comparisons::with_item_count(n).unwrap();
            for &(x, d, v) in raw.iter().filter(|_| n > 1) {
                let (x, y) = (x % n, (x + 1 + d % (n - 1)) % n);
                let vote = [Vote::First, Vote::Second, Vote::Tie][v as usize];
                c.add(x, y, vote, None).unwrap();
            }
            c
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Against the obvious aggregation: the distinct pairs (lower,
        /// higher) in increasing order, each record pointing at its pair
        /// with its own order of the two items.
        #[test]
        fn pairs_are_the_sorted_distinct_pairs(c in comparisons(2..30, 0..300)) {
            let n = c.items().len();
            let pairs: Vec<(u32, u32)> = c
                .records()
                .iter()
                .map(ordered)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let p = PairIndex::new(&c);
            proptest::prop_assert_eq!(p.n_items, n);
            let got: Vec<(u32, u32)> = p.a.iter().copied().zip(p.b.iter().copied()).collect();
            proptest::prop_assert_eq!(&got, &pairs);
            for (rec, &code) in c.records().iter().zip(&p.of_record) {
                let pair = pairs[(code >> 1) as usize];
                proptest::prop_assert_eq!(pair, ordered(rec));
                proptest::prop_assert_eq!(code & 1 == 1, rec.first > rec.second);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The two searches agree with the components (Tarjan's) on
        /// sparse random lists, which are often not strongly connected.
        #[test]
        fn the_quick_check_agrees_with_the_components(c in comparisons(1..12, 0..30)) {
            let n = c.items().len();
            let p = PairIndex::new(&c);
            let counts = p.counts(c.records());
            let quick = wins_strongly_connected(&p, &counts);
            let truth = diagnose(&p, &counts, c.items()).is_ok();
            proptest::prop_assert_eq!(quick, truth);
            if n > 1 {
                proptest::prop_assert_eq!(reach_by_searches(&p, &counts), truth);
                for sweeps in 1..=SWEEPS {
                    if let Some(answer) = reach_by_sweeps(&p, &counts, sweeps) {
                        proptest::prop_assert_eq!(answer, truth, "{} sweeps", sweeps);
                    }
                }
            }
        }
    }

    fn check(c: &Comparisons) -> Result<()> {
        let p = PairIndex::new(c);
        let counts = p.counts(c.records());
        check_finite(&p, &counts, c.items())
    }

    #[test]
    fn pairs_aggregate_both_orders() {
        let c = data("a>b b>a b=a c<a");
        let p = PairIndex::new(&c);
        assert_eq!(p.len(), 2);
        let k = p.counts(c.records());
        // Pair (a, b): a won once, b once, one tie; pair (a, c): a won.
        assert_eq!((k.wa[0], k.wb[0], k.t[0]), (1.0, 1.0, 1.0));
        assert_eq!((p.a[1], p.b[1], k.wa[1], k.wb[1]), (0, 2, 1.0, 0.0));
    }

    #[test]
    fn a_cycle_is_finite_a_chain_is_not() {
        let cycle = data("a>b b>c c>a");
        assert_eq!(check(&cycle), Ok(()));
        let chain = data("a>b b>c a>c");
        assert_eq!(
            check(&chain),
            Err(PairwiseError::NoFiniteMaximum {
                items: vec!["a".into()],
                size: 1,
                lost: true
            })
        );
        // A tie counts both ways: a–b tie plus b beats c, c beats a.
        let tie = data("a=b b>c c>a");
        assert_eq!(check(&tie), Ok(()));
    }

    /// A cycle whose edges run against the pairs' order (item k + 1 beat
    /// item k, and 0 beat the last) gains one item a sweep: the sweeps
    /// leave it undecided after fewer sweeps than items, and the searches
    /// decide; with the cycle broken neither says connected.
    #[test]
    fn a_long_cycle_needs_the_searches() {
        let n = 12;
        for broken in [false, true] {
            let mut c = Comparisons::with_item_count(n).unwrap();
            for k in 0..n - 1 {
                if !(broken && k == 5) {
                    c.add(k + 1, k, Vote::First, None).unwrap();
                }
            }
            c.add(0, n - 1, Vote::First, None).unwrap();
            let p = PairIndex::new(&c);
            let counts = p.counts(c.records());
            assert_eq!(
                reach_by_sweeps(&p, &counts, SWEEPS),
                None,
                "broken {broken}"
            );
            assert_eq!(reach_by_sweeps(&p, &counts, n), Some(!broken));
            assert_eq!(reach_by_searches(&p, &counts), !broken);
            assert_eq!(wins_strongly_connected(&p, &counts), !broken);
        }
    }

    #[test]
    fn disconnected_names_the_items_outside_the_largest_component() {
        let c = data("a=b b=c x=y");
        assert_eq!(
            check(&c),
            Err(PairwiseError::Disconnected {
                components: 2,
                anchor: "a".into(),
                items: vec!["x".into(), "y".into()],
                unconnected: 2
            })
        );
        let mut lonely = Comparisons::with_items(["a", "b", "z"]).unwrap();
        lonely.add_named("a", "b", Vote::Tie, None).unwrap();
        assert!(matches!(
            check(&lonely),
            Err(PairwiseError::Disconnected {
                components: 2,
                unconnected: 1,
                ..
            })
        ));
    }
}
