//! Experiments as pipelines of ordinary `cutlab` commands: each step a child process with
//! its output in `logs/<step>.log` and its command line recorded, so that any step can be
//! rerun by hand and an interrupted run resumes where it stopped (`reproduce`, `ablate`).
//!
//! A run writes its plan (`plan.toml`: every step's command line and the steps it needs) and
//! one record per finished step (`steps/<name>.toml`, written whole or not at all), so steps
//! can run in any process: one after another here, or as Slurm jobs (`common::slurm`).

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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Step name (also its log file's stem).
    pub name: String,
    /// The arguments after `cutlab`.
    pub args: Vec<String>,
    /// Steps whose outputs this one reads (it starts after they end).
    #[serde(default)]
    pub after: Vec<String>,
}

/// How a step splits over several processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharding {
    /// One process.
    Whole,
    /// `--shard K/N` writes `<out>.K.csv`; the shards' CSVs (and PGNs) are merged after.
    OutFile,
    /// `--shard K/N` runs into the same directory; the whole command run again with
    /// `--resume` finds everything done and writes the summary.
    InPlace,
}

impl Step {
    /// A step running `cutlab ARGS`.
    #[must_use]
    pub fn new(name: impl Into<String>, args: &[&str]) -> Step {
        Step {
            name: name.into(),
            args: args.iter().map(|s| (*s).to_string()).collect(),
            after: Vec::new(),
        }
    }

    /// The step, starting after step `name`.
    #[must_use]
    pub fn after(mut self, name: &str) -> Step {
        self.after.push(name.to_string());
        self
    }

    /// How the step's command splits over processes.
    #[must_use]
    pub fn sharding(&self) -> Sharding {
        match self.args.first().map(String::as_str) {
            Some("regress" | "depth" | "oracle" | "trace" | "match") => Sharding::OutFile,
            Some("ablate") => Sharding::InPlace,
            _ => Sharding::Whole,
        }
    }

    /// The value of option `--name`, if given.
    #[must_use]
    pub fn option(&self, name: &str) -> Option<&str> {
        let i = self.args.iter().position(|a| a == name)?;
        self.args.get(i + 1).map(String::as_str)
    }

    /// The `k`-th of `n` shards of the step, `<name>.shard<k>` (`--shard k/n`; outputs to
    /// `<stem>.shard<k>.<ext>`).
    #[must_use]
    pub fn shard(&self, k: usize, n: usize) -> Step {
        let mut args = self.args.clone();
        if self.sharding() == Sharding::OutFile {
            for option in ["--out", "--pgn"] {
                if let Some(i) = args.iter().position(|a| a == option)
                    && let Some(path) = args.get_mut(i + 1)
                {
                    *path = shard_path(path, k);
                }
            }
        }
        args.extend(["--shard".to_string(), format!("{k}/{n}")]);
        Step {
            name: format!("{}.shard{k}", self.name),
            args,
            after: self.after.clone(),
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

/// `dir/stem.ext` as `dir/stem.shard<k>.ext`: the output of shard `k`.
#[must_use]
pub fn shard_path(path: &str, k: usize) -> String {
    let p = Path::new(path);
    match (p.file_stem(), p.extension()) {
        (Some(stem), Some(ext)) => p
            .with_file_name(format!(
                "{}.shard{k}.{}",
                stem.to_string_lossy(),
                ext.to_string_lossy()
            ))
            .display()
            .to_string(),
        _ => format!("{path}.shard{k}"),
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

/// Runs one step here and writes its record.
///
/// # Errors
/// As [`run_step`], or a record that cannot be written.
pub fn run_and_record(layout: &Layout, step: &Step, resume: bool) -> Result<StepRecord, String> {
    let seconds = run_step(layout, step, resume)?;
    finish(layout, step, seconds)
}

/// Writes the record of `step`, finished after `seconds`.
fn finish(layout: &Layout, step: &Step, seconds: f64) -> Result<StepRecord, String> {
    let record = StepRecord {
        name: step.name.clone(),
        command: step.command_line(),
        seconds,
    };
    record_step(layout, &record)?;
    Ok(record)
}

/// Joins the `n` shards of a finished sharded step: their CSVs (and PGNs) into the step's
/// own outputs, or, for a step sharded in place, the whole command again with `--resume`.
/// Writes the step's record, its seconds the sum of its shards'.
///
/// # Errors
/// A shard without its record or outputs, or files that cannot be merged or written.
pub fn merge_shards(layout: &Layout, step: &Step, n: usize) -> Result<StepRecord, String> {
    let mut seconds = 0.0;
    for k in 1..=n {
        let shard = step.shard(k, n);
        seconds += step_record(layout, &shard.name)
            .ok_or_else(|| format!("step {}: shard {k}/{n} has not finished", step.name))?
            .seconds;
    }
    match step.sharding() {
        Sharding::Whole => return Err(format!("step {} is not sharded", step.name)),
        Sharding::InPlace => {
            let start = Instant::now();
            run_step(layout, &step.clone().arg("--resume"), true)?;
            seconds += start.elapsed().as_secs_f64();
        }
        Sharding::OutFile => {
            for option in ["--out", "--pgn"] {
                if let Some(path) = step.option(option) {
                    merge_outputs(Path::new(path), n)?;
                }
            }
        }
    }
    finish(layout, step, seconds)
}

/// Joins what `n` shards wrote in place of `path` (`dir/stem.ext`): every `dir/stem.shardK.rest`
/// (the output itself and the files named after it: oracle scores, test tables, variant
/// configurations) into `dir/stem.rest`, CSVs row by row under one header, PGNs one after
/// another, anything else (the same in every shard) from the first shard.
fn merge_outputs(path: &Path, n: usize) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let first = format!("{stem}.shard1.");
    let listing = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut rests: Vec<String> = listing
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_prefix(&first).map(str::to_string))
        .collect();
    rests.sort();
    if rests.is_empty() {
        return Err(format!("{}: no shard outputs ({first}*)", dir.display()));
    }
    for rest in rests {
        let shards: Vec<PathBuf> = (1..=n)
            .map(|k| dir.join(format!("{stem}.shard{k}.{rest}")))
            .collect();
        let merged = dir.join(format!("{stem}.{rest}"));
        let dotted = format!(".{rest}");
        if dotted.ends_with(".csv") {
            crate::cmd::merge::merge_csv(&merged, &shards)?;
        } else if dotted.ends_with(".pgn") {
            let mut text = String::new();
            for shard in &shards {
                text += &std::fs::read_to_string(shard)
                    .map_err(|e| format!("{}: {e}", shard.display()))?;
            }
            std::fs::write(&merged, text).map_err(|e| format!("{}: {e}", merged.display()))?;
        } else {
            std::fs::copy(&shards[0], &merged).map_err(|e| format!("{}: {e}", merged.display()))?;
        }
    }
    Ok(())
}

/// The plan file's contents.
#[derive(Serialize, Deserialize)]
struct PlanFile {
    /// The steps, in the order they run here.
    steps: Vec<Step>,
}

/// Writes a run's plan, `plan.toml`.
///
/// # Errors
/// The file cannot be written.
pub fn save_plan(layout: &Layout, steps: &[Step]) -> Result<(), String> {
    let path = layout.file("plan.toml");
    let text = toml::to_string(&PlanFile {
        steps: steps.to_vec(),
    })
    .map_err(|e| format!("plan: {e}"))?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The plan of the run in the layout's directory.
///
/// # Errors
/// No plan there, or one that cannot be read.
pub fn load_plan(layout: &Layout) -> Result<Vec<Step>, String> {
    let path = layout.file("plan.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str::<PlanFile>(&text)
        .map(|p| p.steps)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a finished step's record, `steps/<name>.toml`: to a temporary file renamed into
/// place, so that a record is whole or absent and processes finishing together lose nothing.
///
/// # Errors
/// The record cannot be written.
pub fn record_step(layout: &Layout, record: &StepRecord) -> Result<(), String> {
    let dir = layout.file("steps");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{}.toml", record.name));
    let partial = dir.join(format!(".{}.{}.partial", record.name, std::process::id()));
    let text = toml::to_string(record).map_err(|e| format!("step record: {e}"))?;
    std::fs::write(&partial, text).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The record of step `name`, if it finished.
#[must_use]
pub fn step_record(layout: &Layout, name: &str) -> Option<StepRecord> {
    let path = layout.file(&format!("steps/{name}.toml"));
    toml::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The records of the finished steps of a plan, in its order.
#[must_use]
pub fn finished_steps(layout: &Layout, steps: &[Step]) -> Vec<StepRecord> {
    steps
        .iter()
        .filter_map(|s| step_record(layout, &s.name))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::{Sharding, Step, shard_path};

    #[test]
    fn shards_write_files_of_their_own_that_no_step_writes() {
        // Threshold 1.1 of one sweep must not be shard 1 of threshold 1.
        assert_eq!(
            shard_path("m/table2-tend-1.csv", 1),
            "m/table2-tend-1.shard1.csv"
        );
        assert_ne!(
            shard_path("m/table2-tend-1.csv", 1),
            "m/table2-tend-1.1.csv"
        );
        let step = Step::new("t", &["match", "--out", "a.csv", "--pgn", "a.pgn"]);
        let shard = step.shard(2, 4);
        assert_eq!(step.sharding(), Sharding::OutFile);
        assert_eq!(shard.name, "t.shard2");
        assert_eq!(
            shard.args,
            [
                "match",
                "--out",
                "a.shard2.csv",
                "--pgn",
                "a.shard2.pgn",
                "--shard",
                "2/4"
            ]
        );
        assert_eq!(Step::new("f", &["fit"]).sharding(), Sharding::Whole);
    }
}
