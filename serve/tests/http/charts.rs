//! The dashboard's `#charts`: inline SVG (no script, no external file)
//! whose marks carry the status's numbers: votes per ballot, accuracy on
//! the control pairs, the fitted ranking with its intervals.

use super::*;

use roxmltree::Document;

/// The `<svg>` documents inside the page's charts section.
fn charts(page: &str) -> Vec<String> {
    let start = page.find("id=\"charts\"").expect("a charts section");
    let end = start + page[start..].find("</section>").unwrap();
    let section = &page[start..end];
    assert!(!section.contains("<script") && !section.contains("href="));
    let mut out = Vec::new();
    let mut rest = section;
    while let Some(i) = rest.find("<figure><svg") {
        let body = &rest[i + "<figure>".len()..];
        let j = body.find("</svg>\n</figure>").expect("a whole svg");
        out.push(body[..j + "</svg>".len()].to_owned());
        rest = &body[j..];
    }
    out
}

/// Field `key` of every row of a status array, as numbers.
fn numbers(rows: &serde_json::Value, key: &str) -> Vec<f64> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r[key].as_f64().unwrap())
        .collect()
}

/// Attribute `attr` of every mark of a chart that has it, as numbers.
fn values(doc: &Document, attr: &str) -> Vec<f64> {
    doc.descendants()
        .filter_map(|n| n.attribute(attr))
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn the_dashboard_draws_votes_accuracy_and_the_fitted_ranking() {
    let served = serve("charts", state(8, 2, 0.5, 2, 0.3, 77, Some(page())));
    let addr = served.server.local_addr();
    let mut admin = Client::new(addr);
    admin.get("/admin?token=admin-token-0123456789");
    // No vote yet: the votes per ballot only.
    let before = charts(&admin.get("/admin").body);
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(super::fitted::answer(addr, 12) >= 8);
    let st = status(addr);
    let page = admin.get("/admin").body;
    let svgs = charts(&page);
    let docs: Vec<Document> = svgs
        .iter()
        .map(|s| Document::parse(s).unwrap_or_else(|e| panic!("{e}: {s}")))
        .collect();
    let kinds: Vec<&str> = docs
        .iter()
        .map(|d| d.root_element().attribute("data-chart").unwrap())
        .collect();
    let workers = st["workers"].as_array().unwrap();
    let has_accuracy = workers.iter().any(|w| w["accuracy"].is_number());
    assert_eq!(
        kinds,
        if has_accuracy {
            vec!["bars", "bars", "intervals"]
        } else {
            vec!["bars", "intervals"]
        }
    );
    // Votes per ballot: the status's.
    assert_eq!(
        values(&docs[0], "data-value"),
        numbers(&st["ballots"], "votes")
    );
    if has_accuracy {
        let mut want: Vec<f64> = workers
            .iter()
            .filter_map(|w| w["accuracy"].as_f64())
            .collect();
        want.sort_by(f64::total_cmp);
        assert_eq!(values(&docs[1], "data-value"), want);
    }
    // The fitted ranking: each item's score and interval, best first.
    let items = st["fitted"]["items"].as_array().unwrap();
    let ranking = docs.last().unwrap();
    let col = |k: &str| numbers(&st["fitted"]["items"], k);
    assert_eq!(values(ranking, "data-value"), col("score"));
    assert_eq!(values(ranking, "data-lower"), col("low"));
    assert_eq!(values(ranking, "data-upper"), col("high"));
    let labels: Vec<String> = ranking
        .descendants()
        .filter_map(|n| n.attribute("data-label"))
        .map(str::to_owned)
        .collect();
    let want: Vec<String> = items
        .iter()
        .map(|i| format!("{}. {}", i["rank"], i["id"].as_str().unwrap()))
        .collect();
    assert_eq!(labels, want);
}
