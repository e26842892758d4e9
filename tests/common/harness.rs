//! The misuse harness shared by the test binaries (issue 17): calls a
//! function, records a panic or an `Ok` value outside its range.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Collects what went wrong: a panic, or an `Ok` that is not a number in
/// its range.
#[derive(Default)]
pub struct Harness {
    failures: Vec<String>,
    calls: usize,
}

impl Harness {
    /// Runs `f`; on `Ok(values)`, checks each `(name, value, lo, hi)`.
    pub fn call<E: std::fmt::Debug>(
        &mut self,
        what: String,
        f: impl FnOnce() -> Result<Vec<(&'static str, f64, f64, f64)>, E>,
    ) {
        self.calls += 1;
        match catch_unwind(AssertUnwindSafe(f)) {
            Err(_) => self.failures.push(format!("{what}: panicked")),
            Ok(Err(_)) => {}
            Ok(Ok(values)) => {
                for (name, v, lo, hi) in values {
                    if !(v >= lo && v <= hi) {
                        self.failures
                            .push(format!("{what}: {name} = {v} not in [{lo}, {hi}]"));
                    }
                }
            }
        }
    }

    pub fn finish(self, at_least: usize) {
        assert!(self.calls >= at_least, "only {} calls", self.calls);
        assert!(
            self.failures.is_empty(),
            "{} of {} calls misbehaved:\n{}",
            self.failures.len(),
            self.calls,
            self.failures.join("\n")
        );
    }
}
