//! `--plot FILE.svg`: the checks every command's plot option shares and
//! the atomic write of the chart (drawn by `adaptive-comp-metrics-plot`).
//!
//! Only SVG is written: PNG would need a bundled font and a rasteriser
//! crate, which would lengthen `cargo install` of the CLI; any browser or
//! `rsvg-convert` turns the SVG into a PNG.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use adaptive_comp_metrics_plot::PlotError;

use crate::commands::campaign::files::temp_path;
use crate::error::{Failure, Outcome};

/// Bins of a histogram of replicates: enough for the shape of 10⁴
/// replicates, few enough to stay legible.
pub const BINS: usize = 40;

/// Checks `--plot PATH` before any work: an `.svg` name (a command-line
/// error, status 2, otherwise) in a directory that exists (status 1).
///
/// # Errors
/// As above.
pub fn check(path: &Path) -> Outcome {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => {}
        Some("png") => {
            return Err(Failure::usage(format!(
                "--plot {}: PNG is not offered (it would need a bundled font and a rasteriser); \
                 write an .svg and convert it with a browser or rsvg-convert",
                path.display()
            )));
        }
        _ => {
            return Err(Failure::usage(format!(
                "--plot {}: unknown extension, expected a file name ending in .svg",
                path.display()
            )));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(Failure::about(
            path,
            "cannot write the plot: its directory does not exist",
        ));
    }
    if path.is_dir() {
        return Err(Failure::about(
            path,
            "cannot write the plot: it is a directory",
        ));
    }
    Ok(())
}

/// `--plot` given to a command run without what the chart shows.
#[must_use]
pub fn nothing_to_draw(command: &str, needs: &str) -> Failure {
    Failure::usage(format!(
        "acm {command} --plot: nothing to draw without {needs}"
    ))
}

/// Writes the chart to `path` atomically: a temporary file beside it
/// (created new, so concurrent writers never share one), synced, renamed
/// over `path`; a reader sees the old file or the whole new one.
///
/// # Errors
/// The chart could not be drawn (status 1, with the reason); any I/O error,
/// with the file named.
pub fn write(path: &Path, svg: Result<String, PlotError>) -> Outcome {
    let svg = svg.map_err(|e| Failure::about(path, format!("cannot draw the plot: {e}")))?;
    let io = |e: std::io::Error| Failure::about(path, format!("cannot write the plot: {e}"));
    let tmp = temp_path(path);
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(io)?;
    let done = f
        .write_all(svg.as_bytes())
        .and_then(|()| f.sync_all())
        .and_then(|()| fs::rename(&tmp, path));
    if let Err(e) = done {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(d)
    {
        let _ = d.sync_all();
    }
    Ok(())
}
