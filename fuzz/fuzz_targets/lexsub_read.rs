//! Arbitrary bytes through every lexical-substitution reader and scorer:
//! no panics, every score in [0, 1], precision/recall undefined only when
//! their denominators are 0.
#![no_main]

use std::num::NonZeroUsize;

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, GoldLines, Measure, Mode, Penalty, Profile, SystemLines, gap, read_gold,
    read_system,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    gold: &'a [u8],
    system: &'a [u8],
    oot: bool,
    lenient: bool,
    strict_profile: bool,
    penalty: f64,
    k: u8,
}

fn in_unit(v: f64) -> bool {
    (0.0..=1.0).contains(&v)
}

fuzz_target!(|input: Input<'_>| {
    let format = if input.oot { Format::Oot } else { Format::Best };
    let mode = if input.lenient {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let profile = if input.strict_profile {
        Profile::Strict
    } else {
        Profile::Semeval2007
    };

    // The streaming iterators never panic and end.
    for r in GoldLines::new(input.gold) {
        if let Ok(g) = r {
            assert!(g.total() >= 1 && g.max_freq() >= 1);
        }
    }
    for r in SystemLines::new(input.system, format) {
        let _ = r;
    }

    let (Ok(gold), Ok(system)) = (
        read_gold(input.gold, mode),
        read_system(input.system, format, mode),
    ) else {
        return;
    };
    if mode == Mode::Strict {
        assert!(gold.skipped.is_empty() && system.skipped.is_empty());
    }
    let Ok(corpus) = Corpus::new(&gold.items, &system.items, profile) else {
        return;
    };
    let k = NonZeroUsize::new(usize::from(input.k).max(1)).unwrap_or(NonZeroUsize::MIN);
    let penalty = Penalty::new(input.penalty).unwrap_or(Penalty::ONE);
    let measures = Measure::all(penalty, k);
    for m in measures {
        let t = corpus.totals(m);
        assert!(t.attempted <= t.items);
        assert_eq!(t.precision().is_some(), t.attempted > 0);
        assert_eq!(t.recall().is_some(), t.items > 0);
        if let Some(p) = t.precision() {
            assert!(in_unit(p), "{m:?} precision {p}");
        }
        if let Some(r) = t.recall() {
            assert!(in_unit(r), "{m:?} recall {r}");
        }
        for p in corpus.items() {
            // raw (un-normalised) answers straight into the per-item functions
            if let Some(v) = m.score(p.gold(), p.answers().unwrap_or_default()) {
                assert!(in_unit(v), "{m:?} item {v}");
            }
        }
    }
    for av in [gap::Averaging::Macro, gap::Averaging::Micro] {
        let r = gap::at_k(&corpus, k, av);
        assert!(r.precision.is_none_or(in_unit) && r.recall.is_none_or(in_unit));
    }
    // Per-item scores straight from the parsed (unnormalised) data.
    for (g, s) in gold.items.iter().zip(&system.items) {
        for m in measures {
            if let Some(v) = m.score(g, &s.answers) {
                assert!(in_unit(v), "{m:?} raw item {v}");
            }
        }
    }
});
