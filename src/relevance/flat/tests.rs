//! Unit tests of the flat layout's builders.

use super::*;

#[test]
fn ranking_of_a_query_the_run_lacks_is_none() -> Result<()> {
    let mut ids = Ids::new();
    let qrels =
        super::super::read_trec_qrels("q1 0 a 1\nq2 0 a 1\nq3 0 b 0\n".as_bytes(), &mut ids)?;
    let run = super::super::read_trec_run("q3 Q0 b 1 0.5 r\n".as_bytes(), &mut ids)?;
    let id = |q: &str| {
        ids.queries()
            .get(q)
            .ok_or(RelevanceError::InvalidParameter {
                name: "query",
                expected: "a known query",
            })
    };
    // q1 and q2 have ids below q3's: they were once reported ranked,
    // with no documents.
    assert_eq!(run.ranking(id("q1")?), None);
    assert_eq!(run.ranking(id("q2")?), None);
    assert_eq!(run.ranking(id("q3")?).map(|(d, _)| d.len()), Some(1));
    assert!(qrels.judgements(id("q1")?).is_some());
    Ok(())
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The builders' orders against one comparison sort each: rankings
    /// by decreasing score, ties by decreasing name (`-0` and `0`
    /// equal); judgements by decreasing grade, then increasing id.
    #[test]
    fn rows_are_sorted_as_one_comparison_sort_does(
        entries in proptest::collection::vec(
            (0_usize..3, 0_usize..40, prop_oneof![
                Just(0.5), Just(-0.0), Just(0.0), Just(1.0), Just(1.0 + 1e-12), Just(-2.0)
            ], -2_i32..4),
            0..200,
        ),
    ) {
        let mut ids = Ids::new();
        let mut seen = std::collections::HashSet::new();
        let entries: Vec<_> = entries.into_iter().filter(|e| seen.insert((e.0, e.1))).collect();
        let name = |d: usize| format!("d{}", (d * 7919) % 40);
        let mut rb = TrecRun::builder(&mut ids);
        for &(q, d, score, _) in &entries {
            let added = rb.add(&format!("q{}", q), &name(d), score);
            prop_assert!(added.is_ok());
        }
        let run = rb.finish();
        prop_assert!(run.is_ok());
        let run = run.unwrap_or_else(|_| unreachable!());
        let mut qb = Qrels::builder(&mut ids);
        for &(q, d, _, grade) in &entries {
            let added = qb.add(&format!("q{}", q), &name(d), grade);
            prop_assert!(added.is_ok());
        }
        let qrels = qb.finish();
        prop_assert!(qrels.is_ok());
        let qrels = qrels.unwrap_or_else(|_| unreachable!());
        for q in 0..3 {
            let Some(qid) = ids.queries().get(&format!("q{q}")) else { continue };
            let mut want: Vec<(f64, String)> = entries
                .iter()
                .filter(|e| e.0 == q)
                .map(|e| (e.2, name(e.1)))
                .collect();
            want.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then_with(|| b.1.cmp(&a.1)));
            let (docs, scores) = run.ranking(qid).unwrap_or_default();
            let got: Vec<(f64, String)> = docs
                .iter()
                .zip(scores)
                .map(|(&d, &s)| (s, ids.documents().name(d).unwrap_or("?").to_owned()))
                .collect();
            prop_assert_eq!(&got, &want);
            let mut want: Vec<(i32, u32)> = entries
                .iter()
                .filter(|e| e.0 == q)
                .filter_map(|e| Some((e.3, ids.documents().get(qid, &name(e.1))?)))
                .collect();
            want.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let (docs, grades) = qrels.judgements(qid).unwrap_or_default();
            let got: Vec<(i32, u32)> = grades.iter().copied().zip(docs.iter().copied()).collect();
            prop_assert_eq!(got, want);
        }
    }
}

/// `reserve` is a hint: builders given one (smaller, equal to or larger
/// than what follows, before and between queries) build what builders
/// without one build, ids and their order included.
#[test]
fn reserve_changes_nothing_built() -> Result<()> {
    let judged = [
        ("q1", "d3", 2),
        ("q1", "d1", 0),
        ("q2", "d1", 1),
        ("q2", "x", -1),
    ];
    let ranked = [("q1", "d1", 0.5), ("q1", "d9", 0.5), ("q2", "y", 0.25)];
    let build = |hint: Option<usize>| -> Result<_> {
        let mut ids = Ids::new();
        let mut b = Qrels::builder(&mut ids);
        for (i, &(q, d, g)) in judged.iter().enumerate() {
            if let Some(h) = hint.filter(|_| i % 2 == 0) {
                b.reserve(h);
            }
            let q = b.query(q)?;
            if let Some(h) = hint {
                b.reserve_query(q, h)?;
            }
            b.add_to(q, d, g)?;
        }
        let qrels = b.finish()?;
        let mut b = TrecRun::builder(&mut ids);
        if let Some(h) = hint {
            b.reserve(h);
            let q2 = b.query("q2")?;
            b.reserve_query(q2, h)?;
        }
        for &(q, d, s) in &ranked {
            b.add(q, d, s)?;
        }
        let run = b.finish()?;
        let names: Vec<String> = (0..ids.documents().len() as u32)
            .filter_map(|d| ids.documents().name(d).map(str::to_owned))
            .collect();
        Ok((qrels.docs, qrels.grades, run.docs, run.scores, names))
    };
    let plain = build(None)?;
    for hint in [0, 1, 4, 1000] {
        assert_eq!(build(Some(hint))?, plain, "reserve({hint})");
    }
    assert_eq!(plain.4, ["d3", "d1", "d1", "x", "d9", "y"]);
    // A query id the builder did not give.
    let mut ids = Ids::new();
    let mut b = TrecRun::builder(&mut ids);
    assert!(b.reserve_query(0, 1).is_err());
    let q = b.query("q")?;
    assert!(b.reserve_query(q + 1, 1).is_err());
    Ok(())
}
