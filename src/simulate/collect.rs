//! TEMPORARY stand-in for the scheduler of issue 6 until it is merged: the
//! runner only needs "run a uniform / adaptive collection with these voters
//! and give me a score per item". To be replaced by calls into `ballot`.

use rand::Rng;
use rand::seq::SliceRandom;

use super::voter::{Choice, Crowd};

/// Parameters of the adaptive collection (mirror of the scheduler's config).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adaptive {
    pub m: usize,
    pub alpha: f64,
    pub n_ballots: usize,
    pub from_second: bool,
    pub select_on_x: bool,
    pub half_even: bool,
}

impl Adaptive {
    pub fn round(&self, v: f64) -> usize {
        (if self.half_even {
            v.round_ties_even()
        } else {
            v.round()
        }) as usize
    }
    pub fn sizes(&self, n: usize) -> Vec<usize> {
        let mut s = vec![n];
        for _ in 1..self.n_ballots {
            let last = *s.last().unwrap_or(&n);
            s.push(self.round(self.alpha * last as f64));
        }
        s
    }
}

/// Reused buffers.
#[derive(Debug, Default)]
pub struct Work {
    pairs: Vec<(u32, u32)>,
    voters: Vec<u32>,
    perm: Vec<u32>,
    wins: Vec<f64>,
    seen: Vec<u32>,
}

/// M random perfect matchings over `items` (even count) or the odd variant.
fn matchings<R: Rng + ?Sized>(items: &[u32], m: usize, rng: &mut R, w: &mut Work) {
    w.pairs.clear();
    let n = items.len();
    if n.is_multiple_of(2) {
        w.perm.clear();
        w.perm.extend_from_slice(items);
        for _ in 0..m {
            w.perm.shuffle(rng);
            for p in w.perm.chunks_exact(2) {
                w.pairs.push((p[0], p[1]));
            }
        }
    } else {
        // Priority pairing: M·N/2 pairs, each item M times.
        let mut pi = items.to_vec();
        pi.shuffle(rng);
        for r in 0..m {
            let left = r % n;
            w.perm.clear();
            w.perm.extend_from_slice(&pi[..left]);
            w.perm.extend_from_slice(&pi[left + 1..]);
            w.perm.shuffle(rng);
            for p in w.perm.chunks_exact(2) {
                w.pairs.push((p[0], p[1]));
            }
        }
        for j in 0..m / 2 {
            w.pairs.push((pi[(2 * j) % n], pi[(2 * j + 1) % n]));
        }
    }
}

fn assign_voters<R: Rng + ?Sized>(c: usize, v: usize, rng: &mut R, w: &mut Work) {
    w.voters.clear();
    let base = c / v;
    for voter in 0..v {
        for _ in 0..base {
            w.voters.push(voter as u32);
        }
    }
    for _ in 0..c - base * v {
        w.voters.push(rng.random_range(0..v) as u32);
    }
    w.voters.shuffle(rng);
}

/// One ballot over `items`; fills wins/seen (indexed by item).
fn ballot<R: Rng + ?Sized>(items: &[u32], m: usize, crowd: &Crowd, rng: &mut R, w: &mut Work) {
    matchings(items, m, rng, w);
    assign_voters(w.pairs.len(), crowd.n_voters(), rng, w);
    for &i in items {
        w.wins[i as usize] = 0.0;
        w.seen[i as usize] = 0;
    }
    for (&(a, b), &v) in w.pairs.iter().zip(&w.voters) {
        let (a, b) = (a as usize, b as usize);
        w.seen[a] += 1;
        w.seen[b] += 1;
        match crowd.vote_unchecked(v as usize, a, b, rng) {
            Choice::First => w.wins[a] += 1.0,
            Choice::Second => w.wins[b] += 1.0,
        }
    }
}

pub fn uniform<R: Rng + ?Sized>(m: usize, crowd: &Crowd, rng: &mut R, w: &mut Work) -> Vec<f64> {
    let n = crowd.n_items();
    w.wins.resize(n, 0.0);
    w.seen.resize(n, 0);
    let items: Vec<u32> = (0..n as u32).collect();
    ballot(&items, m, crowd, rng, w);
    (0..n).map(|i| w.wins[i] / f64::from(w.seen[i])).collect()
}

pub fn adaptive<R: Rng + ?Sized>(
    p: &Adaptive,
    crowd: &Crowd,
    rng: &mut R,
    w: &mut Work,
) -> Vec<f64> {
    let n = crowd.n_items();
    w.wins.resize(n, 0.0);
    w.seen.resize(n, 0);
    let mut items: Vec<u32> = (0..n as u32).collect();
    let mut ybar = vec![0.0; n];
    let mut x = vec![0.0; n];
    let sizes = p.sizes(n);
    for (k, &size) in sizes.iter().enumerate() {
        debug_assert_eq!(items.len(), size);
        ballot(&items, p.m, crowd, rng, w);
        for &i in &items {
            let i = i as usize;
            x[i] = w.wins[i] / f64::from(w.seen[i]);
        }
        if k == 0 {
            for &i in &items {
                ybar[i as usize] = x[i as usize];
            }
        } else {
            let (mut num, mut den) = (0.0, 0.0);
            for &i in &items {
                let i = i as usize;
                num += (1.0 - x[i]) * (1.0 - ybar[i]);
                den += (1.0 - x[i]) * (1.0 - x[i]);
            }
            let b = num / den;
            for &i in &items {
                let i = i as usize;
                let y = 1.0 - b + b * x[i];
                ybar[i] = if p.from_second {
                    ((k - 1) as f64 * ybar[i] + y) / k as f64
                } else {
                    (k as f64 * ybar[i] + y) / (k + 1) as f64
                };
            }
        }
        if k + 1 < sizes.len() {
            let keep = sizes[k + 1];
            items.shuffle(rng);
            let key = |i: &u32| {
                if p.select_on_x {
                    x[*i as usize]
                } else {
                    ybar[*i as usize]
                }
            };
            items.sort_by(|a, b| key(b).total_cmp(&key(a)));
            items.truncate(keep);
        }
    }
    ybar
}
