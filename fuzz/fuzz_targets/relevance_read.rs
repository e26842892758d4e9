//! Arbitrary bytes through the relevance CSV readers: never a panic; whatever
//! parses aggregates to in-range statistics and scores to metrics in [0, 1].
#![no_main]

use adaptive_comp_metrics::relevance::{
    JudgementColumns, Options, Scale, ScoreColumns, Thresholds, evaluate_run, read_judgements,
    read_run,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the layout, so most inputs reach the record parser:
    // bit 0 prepends a valid header, bit 1 splits the rest into a judgement
    // part and a score part at the first NUL byte.
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (judged, scored) = match rest.iter().position(|&b| b == 0) {
        Some(i) if mode & 2 != 0 => (&rest[..i], &rest[i + 1..]),
        _ => (rest, rest),
    };
    let with = |header: &[u8], body: &[u8]| -> Vec<u8> {
        if mode & 1 != 0 {
            [header, body].concat()
        } else {
            body.to_vec()
        }
    };
    let j_bytes = with(b"query,document,annotator,grade\n", judged);
    let s_bytes = with(b"query,document,score\n", scored);
    let scale = Scale::default();
    let Ok(judgements) = read_judgements(&j_bytes[..], &JudgementColumns::default(), scale) else {
        let _ = read_run(&s_bytes[..], &ScoreColumns::default());
        return;
    };
    let Ok(assessments) = judgements.summarize(&Thresholds::default()) else {
        panic!("default thresholds fit the default scale");
    };
    let (lo, hi) = (f64::from(scale.min()), f64::from(scale.max()));
    let mut pairs = 0;
    for p in assessments.pairs() {
        let s = &p.stats;
        assert!(s.count >= 1);
        assert!(lo <= s.mean && s.mean <= hi, "{s:?}");
        assert!(s.sd.is_none_or(|sd| (0.0..=hi - lo).contains(&sd)), "{s:?}");
        assert_eq!(p.class.is_loosely_relevant(), s.min >= 0);
        pairs += 1;
    }
    assert_eq!(pairs, judgements.pair_count());
    for q in assessments.queries() {
        assert!(q.strictly_relevant <= q.loosely_relevant && q.loosely_relevant <= q.judged);
    }
    let Ok(run) = read_run(&s_bytes[..], &ScoreColumns::default()) else {
        return;
    };
    let Ok(report) = evaluate_run(&assessments, &run, &Options::default()) else {
        panic!("valid assessments and run always score");
    };
    for q in &report.queries {
        let m = q.metrics;
        for v in [
            m.average_precision,
            Some(m.precision_at_k),
            m.r_precision,
            m.reciprocal_rank,
            m.ndcg_at_k,
        ]
        .into_iter()
        .flatten()
        {
            assert!((0.0..=1.0).contains(&v), "{m:?}");
        }
    }
});
