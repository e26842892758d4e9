//! Progress bars on stderr for work that can take more than a second
//! (simulations, sweeps, Monte Carlo moments, table generation, reading
//! large files): hidden when stderr is not a terminal and with `--quiet`.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::Ctx;

/// A progress bar, or nothing when hidden.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar of `len` steps named `what`, with the time left estimated from
    /// the steps done so far; a spinner with the elapsed time when there is
    /// at most one step (a bar at 0/1 would promise "about 0s left" for the
    /// whole of the work).
    pub fn new(ctx: &Ctx, len: u64, what: &str) -> Self {
        if !ctx.shows_progress() {
            return Self { bar: None };
        }
        if len <= 1 {
            return Self::spinner(ctx, what);
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} ({elapsed} elapsed, about {eta} left)",
        )
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(what.to_owned());
        bar.enable_steady_tick(Duration::from_millis(250));
        Self { bar: Some(bar) }
    }

    /// A spinner for work of unknown length (reading a file).
    pub fn spinner(ctx: &Ctx, what: &str) -> Self {
        if !ctx.shows_progress() {
            return Self { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(what.to_owned());
        bar.enable_steady_tick(Duration::from_millis(120));
        Self { bar: Some(bar) }
    }

    /// Whether the bar is drawn.
    pub fn visible(&self) -> bool {
        self.bar.is_some()
    }

    /// `n` more steps done.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }

    /// Changes the bar's message.
    pub fn message(&self, what: impl Into<String>) {
        if let Some(b) = &self.bar {
            b.set_message(what.into());
        }
    }

    /// A line above the bar (or on stderr when the bar is hidden, unless
    /// `quiet`).
    pub fn println(&self, ctx: &Ctx, line: impl AsRef<str>) {
        match &self.bar {
            Some(b) => b.println(line),
            None if !ctx.quiet => eprintln!("{}", line.as_ref()),
            None => {}
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
