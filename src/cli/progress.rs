//! The indicatif wiring of `log`: commits walked of total on stderr, only when a person watches
//! (stderr is a terminal) and the output is for people.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that may be hidden; every method is a no-op then.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar over `total` commits, shown when `wanted` and stderr is a terminal.
    pub fn commits(total: usize, wanted: bool) -> Progress {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        // The template is a constant, so a failure here is a bug in it: fall back to the default.
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} commits {elapsed}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    pub fn set(&self, walked: usize) {
        if let Some(bar) = &self.0 {
            bar.set_position(walked as u64);
        }
    }

    /// Runs `f` (which prints to stdout) with the bar cleared, so lines and bar do not mix.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
