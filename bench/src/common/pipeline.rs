//! Experiments as pipelines of ordinary `cutlab` commands: each step a child process with
//! its output in `logs/<step>.log` and its command line recorded, so that any step can be
//! rerun by hand and an interrupted run resumes where it stopped (`reproduce`, `ablate`).

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Instant,
};

use cutlab_instrument::csv_sink::splitmix64;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// One finished step.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StepRecord {
    /// Step name (also its log file's stem).
    pub name: String,
    /// The `cutlab` command line it ran.
    pub command: String,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// One step: a `cutlab` command line.
pub struct Step {
    /// Step name (also its log file's stem).
    pub name: String,
    /// The arguments after `cutlab`.
    pub args: Vec<String>,
}

impl Step {
    /// A step running `cutlab ARGS`.
    #[must_use]
    pub fn new(name: impl Into<String>, args: &[&str]) -> Step {
        Step {
            name: name.into(),
            args: args.iter().map(|s| (*s).to_string()).collect(),
        }
    }

    /// The step with more arguments.
    #[must_use]
    pub fn args(mut self, more: &[&str]) -> Step {
        self.args.extend(more.iter().map(|s| (*s).to_string()));
        self
    }

    /// The step with one more argument.
    #[must_use]
    pub fn arg(mut self, a: impl Into<String>) -> Step {
        self.args.push(a.into());
        self
    }

    /// The command line, quoted for a shell.
    #[must_use]
    pub fn command_line(&self) -> String {
        let quote = |a: &String| {
            if a.contains([' ', '"', '\'']) || a.is_empty() {
                format!("'{a}'")
            } else {
                a.clone()
            }
        };
        std::iter::once("cutlab".to_string())
            .chain(self.args.iter().map(quote))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The run's directory layout.
pub struct Layout {
    /// The output directory.
    pub dir: PathBuf,
}

impl Layout {
    /// A file in the output directory.
    #[must_use]
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A file in the output directory, as text for a command line.
    #[must_use]
    pub fn path(&self, name: &str) -> String {
        self.file(name).display().to_string()
    }
}

/// First line a command prints, or `unknown`.
fn output_of(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8(o.stdout)
                .ok()
                .and_then(|s| s.lines().next().map(str::to_string))
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The versions and machine a run is done with, for its report.
#[must_use]
pub fn environment() -> Vec<(String, String)> {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string());
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    vec![
        ("cutlab".into(), env!("CARGO_PKG_VERSION").into()),
        (
            "git commit".into(),
            output_of("git", &["rev-parse", "--short", "HEAD"]),
        ),
        ("rustc".into(), output_of("rustc", &["--version"])),
        (
            "machine".into(),
            format!(
                "{cpu}, {cores} cores, {} {}",
                std::env::consts::OS,
                std::env::consts::ARCH
            ),
        ),
        (
            "date (UTC)".into(),
            output_of("date", &["-u", "+%Y-%m-%d %H:%M"]),
        ),
    ]
}

/// `n` positions of the suite, a seeded sample in suite order (all when `n` is 0 or more).
#[must_use]
pub fn sample(
    suite: &cutlab_suites::Suite,
    n: usize,
    seed: u64,
) -> Vec<&cutlab_suites::SuitePosition> {
    let mut keyed: Vec<(u64, usize)> = (0..suite.positions.len())
        .map(|i| (splitmix64(seed ^ splitmix64(i as u64)), i))
        .collect();
    keyed.sort_unstable();
    let mut chosen: Vec<usize> = keyed
        .into_iter()
        .take(if n == 0 { usize::MAX } else { n })
        .map(|(_, i)| i)
        .collect();
    chosen.sort_unstable();
    chosen.iter().map(|&i| &suite.positions[i]).collect()
}

/// Writes positions as EPD.
///
/// # Errors
/// The file cannot be written.
pub fn write_epd(path: &Path, positions: &[&cutlab_suites::SuitePosition]) -> Result<(), String> {
    let text: String = positions.iter().map(|p| p.to_epd() + "\n").collect();
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs one step as a child process, its standard output to `logs/<name>.log`.
///
/// # Errors
/// The child cannot start or fails (the message names its log).
pub fn run_step(layout: &Layout, step: &Step, resume: bool) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cutlab executable: {e}"))?;
    let log_path = layout.file(&format!("logs/{}.log", step.name));
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let mut args = step.args.clone();
    let resumable = matches!(args[0].as_str(), "depth" | "oracle" | "match");
    if resume && resumable {
        args.push("--resume".into());
    }
    // Outputs a step rewrites from scratch (matches, traces, fits) are removed first.
    if !resumable
        && args[0] != "regress"
        && let Some(i) = args.iter().position(|a| a == "--out")
    {
        let _ = std::fs::remove_file(&args[i + 1]);
    }
    let start = Instant::now();
    let status = Command::new(exe)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(log)
        .status()
        .map_err(|e| format!("step {}: {e}", step.name))?;
    if !status.success() {
        return Err(format!(
            "step '{}' failed ({status}); its output is in {}; rerun with --resume to continue",
            step.name,
            log_path.display()
        ));
    }
    Ok(start.elapsed().as_secs_f64())
}

/// Samples `n` positions of the suite with `seed` (all when `n` is 0) and writes them as
/// `positions.epd`, with their first `oracle` and `trace` positions as `oracle-positions.epd`
/// and `trace-positions.epd`; returns how many were sampled.
///
/// # Errors
/// An empty sample, or a file that cannot be written.
pub fn write_position_files(
    layout: &Layout,
    suite: &cutlab_suites::Suite,
    (n, seed): (usize, u64),
    [oracle, trace]: [usize; 2],
) -> Result<usize, String> {
    let positions = sample(suite, n, seed);
    if positions.is_empty() {
        return Err(format!("{}: no positions", suite.source));
    }
    write_epd(&layout.file("positions.epd"), &positions)?;
    write_epd(
        &layout.file("oracle-positions.epd"),
        &positions[..oracle.min(positions.len())],
    )?;
    write_epd(
        &layout.file("trace-positions.epd"),
        &positions[..trace.min(positions.len())],
    )?;
    Ok(positions.len())
}

/// Writes a run's record to `manifest.toml`.
///
/// # Errors
/// The record cannot be written.
pub fn save_manifest<M: Serialize>(layout: &Layout, manifest: &M) -> Result<(), String> {
    let path = layout.file("manifest.toml");
    let text = toml::to_string(manifest).map_err(|e| format!("manifest: {e}"))?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The record of the run in the layout's directory, `None` when there is none. A run that is
/// there is read only with `resume`: an existing run is never mixed into silently.
///
/// # Errors
/// A run there without `resume`, or a record that cannot be read.
pub fn load_manifest<M: DeserializeOwned>(
    layout: &Layout,
    resume: bool,
) -> Result<Option<M>, String> {
    let path = layout.file("manifest.toml");
    if !path.is_file() {
        return Ok(None);
    }
    if !resume {
        return Err(format!(
            "{} holds a run: pass --resume to continue it, or choose another --out",
            layout.dir.display()
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}
