//! Issue 17, "Sizes and resources": the triplet dataset builders check the
//! number of comparisons before allocating them (crate docs, "Sizes and
//! memory").

use adaptive_comp_metrics::triplet::{
    Annotation, Deviation, MAX_COMPARISONS, TargetGroup, TripletError, build_dataset, comparisons,
};

/// One group of `p` positives and no other candidate: p(p − 1)/2 comparisons.
fn group(p: usize) -> TargetGroup {
    let positives: Vec<String> = (0..p).map(|i| format!("w{i}")).collect();
    TargetGroup::new("t", positives, Vec::<String>::new(), Vec::<String>::new())
}

#[test]
fn a_group_with_too_many_pairs_is_refused_before_allocating() {
    // 6000 positives: 6000·5999/2 = 17 997 000 > 2²⁴ = 16 777 216 comparisons
    // (about 1.8 GB of words had they been built).
    let groups = [group(6000)];
    let e = comparisons(&groups, &[]).unwrap_err();
    assert_eq!(
        e,
        TripletError::TooLarge {
            quantity: "comparisons",
            requested: 17_997_000,
            limit: MAX_COMPARISONS as u64
        }
    );
    assert_eq!(
        e.to_string(),
        "too large: 17997000 comparisons requested, at most 16777216"
    );
    let ranking: Vec<String> = (0..6000).map(|i| format!("w{i}")).collect();
    let ann = [Annotation::new("a", "t", ranking)];
    assert!(matches!(
        build_dataset(&groups, &ann, Deviation::default()),
        Err(TripletError::TooLarge { .. })
    ));
    // Within the limit: the group is only short of annotations.
    assert_eq!(
        comparisons(&[group(5000)], &[]).unwrap_err(),
        TripletError::NoAnnotations { group: 0 }
    );
}
