//! The vector reader's options through serde: read back, they read the
//! same vectors.

use super::*;
use adaptive_comp_metrics::embedding::{Format, ReadOptions, read_vectors};

#[test]
fn formats_and_read_options() -> TestResult {
    for f in [Format::Word2VecText, Format::Glove, Format::Word2VecBinary] {
        same(&f);
    }
    let file = "4 2\nThe 1 0\ncat 0 1\nthe 5 5\ndog 2 2\n";
    for options in [
        ReadOptions::new(),
        ReadOptions::new().keep(["the", "dog"]).fold_case(true),
        ReadOptions::new().limit(2),
    ] {
        let back = round_trip(&options);
        assert_eq!(back, options);
        let read = |o: &ReadOptions| {
            read_vectors::<f32, _>(file.as_bytes(), Format::Word2VecText, o).map(|v| {
                v.iter()
                    .map(|(w, x)| (w.to_owned(), x.to_vec()))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(read(&back)?, read(&options)?);
    }
    assert_eq!(
        serde_json::to_string(&ReadOptions::new().limit(3))?,
        r#"{"keep":null,"fold_case":false,"limit":3}"#
    );
    assert!(!refused::<ReadOptions>(r#"{"keep":null,"fold_case":0,"limit":3}"#).is_empty());
    Ok(())
}
