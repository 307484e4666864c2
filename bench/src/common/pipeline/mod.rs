//! Studies as pipelines of ordinary `cutlab` commands: each step a child process with its
//! output in `logs/<step>.log` and its command line recorded, so that any step can be rerun by
//! hand and an interrupted run resumes where it stopped. One runner ([`study::run`]) owns the
//! life of every study (`reproduce`, `ablate`); the steps they share are built in [`steps`].
//!
//! A run writes its plan (`plan.toml`: every step's command line and the steps it needs) and
//! one record per finished step (`steps/<name>.toml`, written whole or not at all), so steps
//! can run in any process: here, in plan order (`local`), or as Slurm jobs (`common::slurm`).

mod environment;
pub mod load;
mod local;
mod positions;
mod records;
mod report;
mod shards;
pub mod steps;
pub mod study;

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use crate::common::speed;

pub use environment::environment;
pub use positions::write_position_files;
pub use records::{
    OutputSeal, StepRecord, check_finished_commands, damaged_output, finished_or_listed,
    finished_steps, is_finished, load_manifest, load_plan, record_step, rows_of_finished,
    save_manifest, save_plan, step_record, unfinished_steps,
};
pub use report::{busy_machine_note, environment_table, speed_note, steps_table, write_report};
pub use shards::merge_shards;

/// One step: a `cutlab` command line, and what it does with more processes or an earlier
/// run's outputs (the step says so itself: its builder in [`steps`] knows its command).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Step name (also its log file's stem).
    pub name: String,
    /// The arguments after `cutlab`.
    pub args: Vec<String>,
    /// Steps whose outputs this one reads (it starts after they end).
    #[serde(default)]
    pub after: Vec<String>,
    /// How the command splits over several processes.
    #[serde(default)]
    pub sharding: Sharding,
    /// What the command does with the outputs of an interrupted run of it.
    #[serde(default)]
    pub rerun: Rerun,
}

/// How a step splits over several processes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sharding {
    /// One process.
    #[default]
    Whole,
    /// `--shard K/N` writes `<out>.shardK.csv`; the shards' CSVs (and PGNs) are merged after.
    OutFile,
}

/// What a step's command does with the outputs that an interrupted run of it left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rerun {
    /// Nothing of its own: it runs as written.
    #[default]
    AsWritten,
    /// `--resume` continues them (rows appended; what is there is checked, never redone).
    Resume,
    /// `--force` writes them anew (a step whose outputs are written whole: a trace, a fit).
    Force,
}

impl Step {
    /// A step running `cutlab ARGS` whole, as written.
    #[must_use]
    pub fn new(name: impl Into<String>, args: &[&str]) -> Step {
        Step {
            name: name.into(),
            args: args.iter().map(|s| (*s).to_string()).collect(),
            after: Vec::new(),
            sharding: Sharding::Whole,
            rerun: Rerun::AsWritten,
        }
    }

    /// The step, starting after step `name`.
    #[must_use]
    pub fn after(mut self, name: &str) -> Step {
        self.after.push(name.to_string());
        self
    }

    /// The step, split over processes as `sharding` says.
    #[must_use]
    pub fn sharding(mut self, sharding: Sharding) -> Step {
        self.sharding = sharding;
        self
    }

    /// The step, run again as `rerun` says.
    #[must_use]
    pub fn rerun(mut self, rerun: Rerun) -> Step {
        self.rerun = rerun;
        self
    }

    /// Whether the step measures time (a search or a match limited by the clock): its
    /// results depend on the speed the machine gives it, so it runs on an idle one.
    #[must_use]
    pub fn measures_time(&self) -> bool {
        measures_time(&self.args)
    }

    /// Whether the step runs beside others: it measures no time and has no parallelism of its
    /// own (`--threads`, `--concurrency`), so it keeps about one core busy, and another step
    /// beside it changes none of its outputs (a trace at fixed depth, a fit).
    #[must_use]
    pub fn runs_beside_others(&self) -> bool {
        !self.measures_time()
            && self.option("--threads").is_none()
            && self.option("--concurrency").is_none()
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
        if self.sharding == Sharding::OutFile {
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
            ..self.clone()
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

/// `--idle-wait`'s minutes as a duration.
#[must_use]
pub fn idle_wait(minutes: u64) -> Duration {
    Duration::from_secs(minutes.saturating_mul(60))
}

/// Whether `cutlab ARGS` measures time: it limits a search or a match by the clock.
fn measures_time<S: AsRef<str>>(args: &[S]) -> bool {
    args.iter()
        .any(|a| matches!(a.as_ref(), "--time-ms" | "--tc" | "--movetime-ms"))
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

    /// Makes the folders `subs` of the output directory (and their parents).
    ///
    /// # Errors
    /// A folder that cannot be made.
    pub fn create_folders<S: AsRef<str>>(&self, subs: &[S]) -> Result<(), String> {
        for sub in subs {
            let d = self.file(sub.as_ref());
            std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        Ok(())
    }

    /// A file in the output directory, as text for a command line.
    #[must_use]
    pub fn path(&self, name: &str) -> String {
        self.file(name).display().to_string()
    }
}

/// What a step's run measures of itself: its wall time and the cores others kept busy.
pub struct Ran {
    /// Wall time, seconds.
    pub seconds: f64,
    /// Cores that other processes kept busy while it ran (`None` where unmeasured).
    pub other_cores_busy: Option<f64>,
    /// This machine's bench speed as it started, for a step that measures time.
    pub speed_nps: Option<u64>,
    /// The rows its `--out` CSV held as it started, for a resumed step ([`rows_before`]).
    pub rows_before: Option<usize>,
}

/// `step`'s `--out` when it is a CSV file.
#[must_use]
pub fn csv_output(step: &Step) -> Option<PathBuf> {
    let out = Path::new(step.option("--out")?);
    (out.extension()? == "csv").then(|| out.to_path_buf())
}

/// The output a finished step is sealed by: the `--out` CSV of rows that a resume continues
/// (a match's games, a search's rows), which a run keeps and `publish-run` publishes whole.
/// A step whose files are written whole (a trace, whose node rows are left out of a published
/// study and written again by its command) has none.
#[must_use]
pub fn sealed_output(step: &Step) -> Option<PathBuf> {
    (step.rerun == Rerun::Resume)
        .then(|| csv_output(step))
        .flatten()
}

/// The rows `step`'s `--out` CSV holds now; `None` for a step whose output is not a CSV, or
/// is not there yet.
#[must_use]
pub fn output_rows(step: &Step) -> Option<usize> {
    Some(
        csv::Reader::from_path(csv_output(step)?)
            .ok()?
            .records()
            .count(),
    )
}

/// The rows a resumed step's `--out` CSV holds before it runs: the work of its earlier runs,
/// here or elsewhere, that its wall time leaves out. `None` for a step run afresh, one whose
/// output is not a CSV, or an empty one.
fn rows_before(step: &Step) -> Option<usize> {
    if step.rerun != Rerun::Resume {
        return None;
    }
    output_rows(step).filter(|&rows| rows > 0)
}

/// Runs one step as a child process, its standard output to `logs/<name>.log`.
///
/// # Errors
/// The child cannot start or fails (the message names its log).
pub fn run_step(layout: &Layout, step: &Step) -> Result<Ran, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cutlab executable: {e}"))?;
    let log_path = layout.file(&format!("logs/{}.log", step.name));
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let mut args = step.args.clone();
    match step.rerun {
        Rerun::AsWritten => {}
        Rerun::Resume => args.push("--resume".into()),
        Rerun::Force => args.push("--force".into()),
    }
    let rows_before = rows_before(step);
    let meter = load::Meter::start();
    let start = Instant::now();
    let mut command = Command::new(exe);
    command.args(&args).stdin(Stdio::null()).stdout(log);
    crate::common::process::die_with_parent(&mut command);
    let status = command
        .status()
        .map_err(|e| format!("step {}: {e}", step.name))?;
    if !status.success() {
        return Err(format!(
            "step '{}' failed ({status}); its output is in {}; to continue, run the same \
             study command again with --resume, or this step alone with `cutlab step {} {}`",
            step.name,
            log_path.display(),
            layout.dir.display(),
            step.name
        ));
    }
    Ok(Ran {
        seconds: start.elapsed().as_secs_f64(),
        other_cores_busy: meter.and_then(|m| m.other_cores()),
        speed_nps: None,
        rows_before,
    })
}

/// Runs one step here and writes its record. A step that measures time first waits for an
/// idle machine, at most `idle_wait`, and measures its bench speed for the record: a run
/// keeps the time limits of its start, so a step run on a faster or slower machine searches
/// with another effort ([`speed_note`]).
///
/// # Errors
/// As [`run_step`], or a record that cannot be written.
pub fn run_and_record(
    layout: &Layout,
    step: &Step,
    idle_wait: Duration,
) -> Result<StepRecord, String> {
    let speed_nps = if step.measures_time() {
        load::wait_for_idle(&step.name, idle_wait);
        Some(crate::common::bench::speed(speed::SPEED_DEPTH)?)
    } else {
        None
    };
    let ran = run_step(layout, step)?;
    finish(layout, step, &Ran { speed_nps, ..ran })
}

/// Writes the record of `step`, finished as `ran` says.
fn finish(layout: &Layout, step: &Step, ran: &Ran) -> Result<StepRecord, String> {
    let record = StepRecord {
        name: step.name.clone(),
        command: step.command_line(),
        seconds: ran.seconds,
        finished_utc: environment::now_utc(),
        other_cores_busy: ran.other_cores_busy,
        speed_nps: ran.speed_nps,
        rows_before: ran.rows_before,
        output: sealed_output(step).and_then(|out| OutputSeal::of(&out)),
    };
    record_step(layout, &record)?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::{Rerun, Sharding, Step, rows_before, shard_path};

    /// A resumed step's output rows are counted (a quoted field across lines is one row);
    /// a step run afresh, a missing output and an empty one count none.
    #[test]
    fn a_resumed_step_counts_the_rows_its_output_held() {
        let dir = std::env::temp_dir().join(format!("cutlab-rows-before-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("m.csv");
        let step = |rerun: Rerun| Step {
            rerun,
            ..Step::new("m", &["match", "--out", out.to_str().unwrap()])
        };
        assert_eq!(rows_before(&step(Rerun::Resume)), None);
        std::fs::write(&out, "game,result\n").unwrap();
        assert_eq!(rows_before(&step(Rerun::Resume)), None);
        std::fs::write(&out, "game,result\n1,1-0\n2,\"a\nb\"\n3,0-1\n").unwrap();
        assert_eq!(rows_before(&step(Rerun::Resume)), Some(3));
        assert_eq!(rows_before(&step(Rerun::Force)), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
        let step = Step::new("t", &["match", "--out", "a.csv", "--pgn", "a.pgn"])
            .sharding(Sharding::OutFile);
        let shard = step.shard(2, 4);
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
        // A step that does not split keeps its files.
        let whole = Step::new("f", &["fit", "--out", "p.toml"]).shard(1, 2);
        assert_eq!(whole.args, ["fit", "--out", "p.toml", "--shard", "1/2"]);
    }
}
