//! Progress on stderr: a bar on a terminal; elsewhere (a step's log, a Slurm job's log) a
//! plain line at a steady interval, `what: done/total (pct), rate, elapsed, ETA`, so that a
//! four-hour job shows it is alive and how far it is.

use std::{
    io::IsTerminal as _,
    sync::Mutex,
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressStyle};

/// Seconds between two plain lines (`CUTLAB_PROGRESS_SECONDS` sets another interval).
const PLAIN_INTERVAL_S: u64 = 30;

/// Progress over a known number of items.
pub struct Progress {
    bar: ProgressBar,
    plain: Option<Mutex<Plain>>,
}

/// The state of plain progress lines.
struct Plain {
    what: String,
    len: u64,
    done: u64,
    start: Instant,
    last: Instant,
    every: Duration,
    /// The count the last line printed.
    printed: u64,
}

impl Plain {
    #[expect(clippy::cast_precision_loss, reason = "counts and seconds")]
    fn line(&self) -> String {
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = self.done as f64 / elapsed.max(1e-9);
        let eta = if self.done > 0 {
            format!(
                "ETA {:.0} s",
                (self.len - self.done.min(self.len)) as f64 / rate
            )
        } else {
            "ETA unknown".to_string()
        };
        format!(
            "{}: {}/{} ({:.0}%), {rate:.2}/s, {elapsed:.0} s elapsed, {eta}",
            self.what,
            self.done,
            self.len,
            100.0 * self.done as f64 / self.len.max(1) as f64
        )
    }
}

/// Progress over `len` items named `what`: a bar with elapsed time and ETA on a terminal,
/// plain lines otherwise.
pub fn bar(len: u64, what: &str) -> Progress {
    let template = format!("{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}");
    let bar = ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let plain = (!std::io::stderr().is_terminal()).then(|| {
        let seconds = std::env::var("CUTLAB_PROGRESS_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(PLAIN_INTERVAL_S);
        let now = Instant::now();
        Mutex::new(Plain {
            what: what.to_string(),
            len,
            done: 0,
            start: now,
            last: now,
            every: Duration::from_secs(seconds),
            printed: 0,
        })
    });
    Progress { bar, plain }
}

impl Progress {
    /// `n` more items done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if let Some(plain) = &self.plain
            && let Ok(mut p) = plain.lock()
        {
            p.done += n;
            if p.last.elapsed() >= p.every {
                p.last = Instant::now();
                p.printed = p.done;
                eprintln!("{}", p.line());
            }
        }
    }

    /// A line on stderr (a skipped item), above the bar on a terminal.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    /// The end: the bar is cleared; plain progress says the last count and rate.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
        if let Some(plain) = &self.plain
            && let Ok(p) = plain.lock()
            && p.done > p.printed
        {
            eprintln!("{}", p.line());
        }
    }
}
