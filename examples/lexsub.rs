//! SemEval-2007 lexical substitution measures of a system against a gold
//! file (read here from strings). `cargo run --example lexsub`.
//!
//! The command-line tool scores files: `acm lexsub GOLD SYSTEM`.

use adaptive_comp_metrics::lexsub::{
    Corpus, Format, Measure, Mode, Percent, Profile, read_gold, read_system,
};

fn main() -> Result<(), adaptive_comp_metrics::lexsub::LexsubError> {
    let gold = read_gold(
        "bright.a 1 :: intelligent 3;clever 2;smart 1;\nbright.a 2 :: shining 4;luminous 1;\n"
            .as_bytes(),
        Mode::Strict,
    )?;
    let system = read_system(
        "bright.a 1 :: intelligent;clever\nbright.a 2 :: vivid\n".as_bytes(),
        Format::Best,
        Mode::Strict,
    )?;
    let corpus = Corpus::new(&gold.items, &system.items, Profile::Semeval2007)?;
    for (name, m) in [
        ("best", Measure::Best),
        ("oot", Measure::Oot),
        ("GAP", Measure::Gap),
    ] {
        let t = corpus.totals(m);
        println!(
            "{name:<5} P = {:>6} %  R = {:>6} %",
            Percent(t.precision()).to_string(),
            Percent(t.recall()).to_string()
        );
    }
    Ok(())
}
