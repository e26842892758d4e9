//! The state file read and written back, byte for byte; each refusal; the
//! status as `acm campaign status` reads it.

use adaptive_comp_metrics::ballot::{
    BallotConfig, Campaign, ControlPair, LayoutOptions, Scheduler, TaskId, Vote,
};
use adaptive_comp_metrics_campaign::{CampaignFile, Page, StateError, Table, TaskIdError};

fn file(page: Option<Page>) -> CampaignFile {
    let n = 8;
    let config = BallotConfig::new(n, 2, 0.5, 2).unwrap();
    let controls = vec![ControlPair::new(0, n, Vote::First).unwrap()];
    let layout = LayoutOptions::new(0.25, None).unwrap();
    let campaign = Campaign::new(Scheduler::new(config), controls, layout).unwrap();
    let table = |k: usize, prefix: &str| Table {
        extra_columns: vec!["pos".into()],
        ids: (0..k).map(|i| format!("{prefix}{i}")).collect(),
        texts: (0..k).map(|i| format!("text {i} \"quoted\" – é")).collect(),
        extra: (0..k).map(|i| vec![format!("{}", i % 3)]).collect(),
    };
    CampaignFile {
        price: Some(0.05),
        page,
        ..CampaignFile::open("1a2b3c4d".into(), 5, table(n, "p"), table(1, "c"), campaign).unwrap()
    }
}

#[test]
fn written_and_read_back_byte_for_byte() {
    for page in [
        None,
        Some(Page {
            question: Some("Which is older?".into()),
            partial_completion_code: Some("PART".into()),
            ..Page::default()
        }),
    ] {
        let f = file(page);
        let bytes = f.to_json().unwrap();
        assert_eq!(bytes.last(), Some(&b'\n'));
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        let back = CampaignFile::from_json(&bytes).unwrap();
        assert_eq!(back.to_json().unwrap(), bytes);
        assert_eq!(back.page, f.page);
    }
    // The page keeps only the keys given.
    let text = String::from_utf8(file(Some(Page::default())).to_json().unwrap()).unwrap();
    assert!(text.ends_with(",\"page\":{}}\n"), "{text}");
    let text = String::from_utf8(file(None).to_json().unwrap()).unwrap();
    assert!(!text.contains("\"page\""));
}

#[test]
fn each_problem_is_refused_with_its_reason() {
    let good = file(None);
    let mutate = |f: &dyn Fn(&mut CampaignFile)| {
        let mut s = good.clone();
        f(&mut s);
        CampaignFile::from_json(&s.to_json().unwrap()).unwrap_err()
    };
    assert_eq!(mutate(&|s| s.version = 2), StateError::Version);
    assert_eq!(mutate(&|s| s.format = "other".into()), StateError::Version);
    assert_eq!(
        mutate(&|s| {
            s.items.ids.pop();
        }),
        StateError::Inconsistent
    );
    assert_eq!(
        mutate(&|s| s.items.extra[3].clear()),
        StateError::Inconsistent
    );
    assert_eq!(
        mutate(&|s| {
            s.control_items = Table::default();
        }),
        StateError::Inconsistent
    );
    assert_eq!(mutate(&|s| s.tag = "1a-2b".into()), StateError::Tag);
    assert_eq!(mutate(&|s| s.tag = String::new()), StateError::Tag);
    assert_eq!(
        mutate(&|s| s.layout_rng.word_pos = "x".into()),
        StateError::Generator
    );
    match CampaignFile::from_json(b"{\n  \"format\": [") {
        // serde_json's place: the line, and a column on it.
        Err(StateError::Json { line, column, .. }) => {
            assert!(line == 2 && (1..=13).contains(&column))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        StateError::Inconsistent.to_string(),
        "items and collection disagree"
    );
}

#[test]
fn task_ids_round_trip_and_refusals_quote_the_id() {
    let f = file(None);
    let id = TaskId {
        ballot: 1,
        position: 3,
    };
    let label = f.task_label(id);
    assert_eq!(label, "1a2b3c4d-b1-3");
    assert_eq!(f.parse_task(&label), Ok(id));
    let e = f.parse_task("ffff-b1-3").unwrap_err();
    assert!(matches!(e, TaskIdError::OtherCampaign { .. }));
    assert_eq!(
        e.to_string(),
        "task id \"ffff-b1-3\" belongs to another campaign (this one's ids start with 1a2b3c4d-)"
    );
    assert_eq!(
        f.parse_task("garbage").unwrap_err().to_string(),
        "malformed task id \"garbage\""
    );
    assert_eq!(
        f.parse_task("1a2b3c4d-b1").unwrap_err().to_string(),
        "malformed task id \"1a2b3c4d-b1\""
    );
    let long = format!("1a2b3c4d-{}", "9".repeat(200));
    assert!(
        f.parse_task(&long)
            .unwrap_err()
            .to_string()
            .ends_with("… (209 characters, cut to 80)")
    );
}

#[test]
fn things_and_the_status() {
    let mut f = file(None);
    assert_eq!(
        f.thing(2),
        ("p2", "text 2 \"quoted\" – é", &["2".to_owned()][..])
    );
    assert_eq!(f.thing(8).0, "c0");
    assert_eq!(f.thing(99), ("", "", &[][..]));
    let tasks: Vec<_> = f.campaign.tasks().collect();
    for (k, t) in tasks.iter().enumerate() {
        let worker = if k % 2 == 0 { "zed" } else { "amy" };
        f.campaign.answer(t.id, worker, Vote::First).unwrap();
    }
    let st = f.status();
    assert_eq!(
        (st.items, st.m, st.n_ballots, st.control_pairs),
        (8, 2, 2, 1)
    );
    assert_eq!(st.open_ballot, Some(1));
    // Workers by id, as `acm campaign status` lists them.
    let names: Vec<&str> = st.workers.iter().map(|w| w.worker.as_str()).collect();
    assert_eq!(names, ["amy", "zed"]);
    let stats = f.campaign.worker_stats();
    for w in &st.workers {
        let s = stats.iter().find(|s| s.worker == w.worker).unwrap();
        assert_eq!(
            (w.votes, w.controls, w.correct),
            (s.votes, s.controls, s.correct)
        );
        assert_eq!((w.accuracy, w.agreement), (s.accuracy(), s.agreement()));
    }
    assert_eq!(st.ballots, f.campaign.ballot_status());
    // As JSON: the keys `status --format json` has, no more.
    let v = serde_json::to_value(&st).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "alpha",
            "ballots",
            "control_pairs",
            "items",
            "m",
            "n_ballots",
            "open_ballot",
            "tag",
            "workers"
        ]
    );
}
