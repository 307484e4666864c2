//! One runner for every study. A study (`ablate`, `reproduce`, the next one) is its plan and
//! its report; [`run`] owns the rest of a run's life, the same for all:
//!
//! 1. refuse a bad option, or a resume that asks for another run than the one on disk,
//!    naming the option, before anything is written;
//! 2. lock the directory (one process per directory, or per shard of it);
//! 3. write the position files (a seeded sample of the suite, never replaced by another);
//! 4. keep or measure the time factor;
//! 5. the header every manifest shares, then the study's plan and its own fields;
//! 6. check the finished steps against the plan, save the plan;
//! 7. submit the plan to Slurm (`--slurm`), or run this process's steps here (`--shard K/N`:
//!    every N-th step from the K-th; `pipeline::local`), the manifest saved and the report
//!    written after each;
//! 8. once every step is done, the report and its summary.

use std::{path::Path, time::Instant};

use clap::Args;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{
    Layout, Step, StepRecord, check_finished_commands, environment, finished_steps, idle_wait,
    load_manifest, local, record_step, save_manifest, save_plan, write_position_files,
};
use crate::common::{
    options::SuiteOptions,
    shard::Shard,
    slurm::{SlurmOptions, describe, submit_plan},
    speed,
};

/// The kind of a study, as its manifest names it (`kind`): what `cutlab report` reads it as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StudyKind {
    /// `cutlab ablate`: each method left out of a stack, added to a baseline or to the stack.
    Ablate,
    /// `cutlab reproduce`: Jiang and Buro (2003) end to end.
    Reproduce,
    /// `cutlab replay`: an ablation's rows decided early, played again at a fixed size.
    Replay,
    /// Sections of text, each with a table of matches read from their games.
    Matches,
    /// Fits of a model to measured rows.
    Fits,
    /// Two ablations contrasted.
    Ablations,
}

impl StudyKind {
    /// The kind as manifests spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            StudyKind::Ablate => "ablate",
            StudyKind::Reproduce => "reproduce",
            StudyKind::Replay => "replay",
            StudyKind::Matches => "matches",
            StudyKind::Fits => "fits",
            StudyKind::Ablations => "ablations",
        }
    }
}

/// The options every study takes: its positions, its parallelism and where its steps run.
#[derive(Args, Debug, Serialize)]
pub struct StudyOptions {
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    pub suite: SuiteOptions,
    /// Positions sampled from the suite (default: the scale's; a resumed run keeps its sample).
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1_000_000))]
    pub positions: Option<usize>,
    /// Worker threads (searches, game pairs, or steps of one core such as traces at once).
    #[arg(long, default_value_t = 2, value_parser = crate::common::options::threads)]
    pub threads: usize,
    /// Seed of the position sample, the opening order and the cut sampling.
    #[arg(long, default_value_t = 2003)]
    pub seed: u64,
    /// Multiply the scale's time limits by this (default: the reference speed over this
    /// machine's, measured by a 2-second bench, so that a scale means the same search effort on
    /// any machine; a resumed run keeps its factor).
    #[arg(long)]
    pub time_factor: Option<f64>,
    /// Continue an interrupted run (or the other shards' work) in `--out`: finished steps are
    /// skipped, and the step that was interrupted continues where it stopped.
    #[arg(long)]
    pub resume: bool,
    /// Minutes a step that measures time (searches at fixed time, timed matches) waits for an
    /// idle machine (other processes below half a core busy) before it runs anyway; every
    /// step's record, and the report, say how busy others kept the machine.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    pub idle_wait: u64,
    /// Run the K-th of N shares of the steps (K from 1) into the same directory, in as many
    /// processes or machines; the run that finds every step done writes the report.
    #[arg(long, conflicts_with = "slurm")]
    pub shard: Option<Shard>,
    /// Submit the steps as Slurm jobs (job arrays for the steps that split, merge jobs after
    /// them, `--dependency=afterok` between steps) instead of running them here; the last job
    /// writes the report.
    #[arg(long)]
    pub slurm: bool,
    /// Slurm jobs: array size, partition, time, memory.
    #[command(flatten)]
    #[serde(skip)]
    pub slurm_options: SlurmOptions,
}

/// What every study's manifest holds first (`manifest.toml`, written as the run goes).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Header {
    /// What the study is (absent in runs of `ablate` from before kinds were written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<StudyKind>,
    /// The scale's name (`quick`, `decisive`, ...).
    pub scale: String,
    /// Suite the positions were sampled from (empty in runs of `ablate` from before).
    #[serde(default)]
    pub suite: String,
    /// Positions in the sample.
    pub positions: usize,
    /// Seed.
    pub seed: u64,
    /// Threads (0 in runs of `ablate` from before).
    #[serde(default)]
    pub threads: usize,
    /// This machine's bench speed as the run started, nodes per second (when measured).
    #[serde(default)]
    pub speed_nps: Option<u64>,
    /// Factor of every time limit of the scale.
    #[serde(default = "one")]
    pub time_factor: f64,
    /// Versions: cutlab, git commit, rustc; and the machine.
    pub environment: Vec<(String, String)>,
    /// Finished steps.
    pub steps: Vec<StepRecord>,
}

/// A time factor of 1 (runs recorded before time factors).
const fn one() -> f64 {
    1.0
}

/// A scale's name and the positions its steps take.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The scale's name (`quick`, `decisive`, ...).
    pub name: &'static str,
    /// Positions sampled from the suite (0: all of it).
    pub positions: usize,
    /// Of them, the first that the oracle judges.
    pub oracle_positions: usize,
    /// Of them, the first that the traces take.
    pub trace_positions: usize,
}

/// What a study's plan is made with.
pub struct Context<'a> {
    /// The run's directory.
    pub layout: &'a Layout,
    /// The factor of the scale's time limits.
    pub factor: f64,
    /// Whether the directory held this run already (its manifest is the recorded one).
    pub resumed: bool,
}

/// A study: its scale, its plan and its report. The rest of its life is [`run`]'s.
pub trait Study {
    /// The study's manifest: the [`Header`] (flattened into it), then its own fields.
    type Manifest: Serialize + DeserializeOwned + Default + AsMut<Header>;
    /// Its kind.
    const KIND: StudyKind;
    /// Whether its steps read the run's positions (a sample of `--suite`); a study of games
    /// alone (`replay`) writes none.
    const POSITIONS: bool = true;

    /// Whether every limit is fixed depth or nodes (no time factor to measure).
    fn deterministic(&self) -> bool {
        false
    }
    /// Checks the study's own options before anything is written (a bad one leaves no run
    /// behind).
    ///
    /// # Errors
    /// The first bad option, named.
    fn check_options(&self) -> Result<(), String> {
        Ok(())
    }
    /// Fills the study's own fields of the manifest and returns its steps, in order; says on
    /// standard error what the run will cost.
    ///
    /// # Errors
    /// A bad option, or a resume whose options ask for another run than `manifest`'s.
    fn plan(&self, manifest: &mut Self::Manifest, context: &Context) -> Result<Vec<Step>, String>;
    /// Writes the report from the run's files and returns the terminal summary; its errors
    /// are an unreadable result file, or a file that cannot be written.
    const REPORT: fn(&Layout, &Self::Manifest) -> Result<String, String>;
}

/// The refusal of a resume whose `option` asks for another run than the one on disk.
#[must_use]
pub fn resumed_otherwise(option: &str, recorded: &str, given: &str) -> String {
    format!(
        "the run was started with {option} {recorded}, and this resume gives {option} {given}: \
         resume with the run's value (or leave {option} out), or start a new run with another \
         --out"
    )
}

/// Runs `study` in `out` as `options` say: the whole lifecycle, steps 1 to 8 of the module.
///
/// # Errors
/// A bad option, an existing run without `--resume`, a resume that asks for another run, or a
/// failing step (its log named).
pub fn run<S: Study>(
    study: &S,
    sample: &Sample,
    options: &StudyOptions,
    out: &Path,
) -> Result<(), String> {
    refuse_slurm_options_alone(options)?;
    let layout = Layout {
        dir: out.to_path_buf(),
    };
    // 1. The run on disk, if any, and what this resume asks of it.
    refuse_other_kind::<S>(&layout)?;
    let recorded: Option<S::Manifest> =
        load_manifest(&layout, options.resume || options.shard.is_some())?;
    let resumed = recorded.is_some();
    let mut manifest = recorded.unwrap_or_default();
    check_resume(sample, options, &layout, manifest.as_mut(), resumed)?;
    study.check_options()?;
    // 2. One process per directory (per shard of it): a second would run the same steps.
    let _lock = crate::common::process::lock_dir(&layout.dir, options.shard)?;
    layout.create_folders(&["logs"])?;
    // 3. The positions.
    let header = manifest.as_mut();
    let (source, sampled) = if S::POSITIONS {
        let recorded = resumed.then_some(header.positions);
        write_positions(&layout, sample, options, recorded)?
    } else {
        (String::new(), 0)
    };
    // 4. The time factor: a resumed run keeps the one it started with.
    let kept = resumed.then_some((header.time_factor, header.speed_nps));
    let (factor, speed_nps) = speed::time_factor(options.time_factor, kept, study.deterministic())?;
    // 5. The header, then the study's plan and fields.
    *header = Header {
        kind: Some(S::KIND),
        scale: sample.name.to_string(),
        suite: source,
        positions: sampled,
        seed: options.seed,
        threads: options.threads,
        speed_nps,
        time_factor: factor,
        environment: environment(),
        steps: std::mem::take(&mut header.steps),
    };
    let context = Context {
        layout: &layout,
        factor,
        resumed,
    };
    let steps = study.plan(&mut manifest, &context)?;
    save_manifest(&layout, &manifest)?;
    // 6. Runs recorded before steps had record files of their own (no `steps/`) keep what
    // they finished; later, the records alone say what has finished.
    if !layout.file("steps").is_dir() {
        for done in &manifest.as_mut().steps {
            record_step(&layout, done)?;
        }
    }
    check_finished_commands(&layout, &steps)?;
    save_plan(&layout, &steps)?;
    // 7. The steps: as Slurm jobs, or here.
    if options.slurm {
        return submit(&layout, &steps, &options.slurm_options);
    }
    let started = Instant::now();
    run_here::<S>(&layout, &steps, &mut manifest, options)?;
    // 8. The report, once every step is done.
    report::<S>(&layout, sample, &mut manifest, steps.len(), started)
}

/// The job options mean nothing without `--slurm` (they were silently ignored): refused,
/// naming the first.
fn refuse_slurm_options_alone(options: &StudyOptions) -> Result<(), String> {
    match std::env::args().find(|a| a.starts_with("--slurm-")) {
        Some(option) if !options.slurm => Err(format!(
            "{}: a Slurm option, given without --slurm",
            option.split('=').next().unwrap_or(&option)
        )),
        _ => Ok(()),
    }
}

/// Step 3: the seeded sample of the suite, as many positions as `--positions`, the resumed
/// run's (`recorded`) or the scale's say; returns the suite's name and the positions written.
fn write_positions(
    layout: &Layout,
    sample: &Sample,
    options: &StudyOptions,
    recorded: Option<usize>,
) -> Result<(String, usize), String> {
    let suite = options.suite.load()?;
    let positions = options.positions.or(recorded).unwrap_or(sample.positions);
    let shares = [sample.oracle_positions, sample.trace_positions];
    let sampled = write_position_files(layout, &suite, (positions, options.seed), shares)?;
    Ok((suite.source, sampled))
}

/// Step 8: the report and its summary once all `planned` steps are done, or a line saying
/// how many are. A resumed run's own time is not the run's: the steps' records are.
fn report<S: Study>(
    layout: &Layout,
    sample: &Sample,
    manifest: &mut S::Manifest,
    planned: usize,
    started: Instant,
) -> Result<(), String> {
    let finished = &manifest.as_mut().steps;
    if finished.len() < planned {
        eprintln!(
            "{} of {planned} steps done; the report is written when all are (run the other \
             shards, or again with --resume)",
            finished.len(),
        );
        return Ok(());
    }
    let steps_min = finished.iter().map(|s| s.seconds).sum::<f64>() / 60.0;
    let summary = (S::REPORT)(layout, manifest)?;
    println!("{summary}");
    println!(
        "{} ({} scale) finished: its steps took {steps_min:.1} min in all, {:.1} min in this \
         process; report: {}",
        S::KIND.name(),
        sample.name,
        started.elapsed().as_secs_f64() / 60.0,
        layout.file("report.md").display()
    );
    Ok(())
}

/// A directory that holds another study's run is refused, naming that study, before its
/// manifest is read as this study's (which would fail on a missing field).
fn refuse_other_kind<S: Study>(layout: &Layout) -> Result<(), String> {
    /// The kind alone of a manifest.
    #[derive(Deserialize)]
    struct Kind {
        kind: Option<StudyKind>,
    }
    let Ok(text) = std::fs::read_to_string(layout.file("manifest.toml")) else {
        return Ok(());
    };
    match toml::from_str::<Kind>(&text) {
        Ok(Kind { kind: Some(kind) }) if kind != S::KIND => Err(format!(
            "{} holds a run of `cutlab {}`; resume it with that command, or choose another \
             --out",
            layout.dir.display(),
            kind.name()
        )),
        _ => Ok(()),
    }
}

/// Step 1: a resume continues the run on disk at its scale, with its positions and seed.
fn check_resume(
    sample: &Sample,
    options: &StudyOptions,
    layout: &Layout,
    recorded: &Header,
    resumed: bool,
) -> Result<(), String> {
    if !resumed {
        return Ok(());
    }
    if recorded.scale != sample.name {
        return Err(format!(
            "{} holds a {} run; continue it at that scale (--{})",
            layout.dir.display(),
            recorded.scale,
            recorded.scale
        ));
    }
    if let Some(given) = options.positions.filter(|&p| p != recorded.positions) {
        return Err(resumed_otherwise(
            "--positions",
            &recorded.positions.to_string(),
            &given.to_string(),
        ));
    }
    if options.seed != recorded.seed {
        return Err(resumed_otherwise(
            "--seed",
            &recorded.seed.to_string(),
            &options.seed.to_string(),
        ));
    }
    Ok(())
}

/// Step 7 here: this process's share of the steps ([`local::run_steps`]), the manifest saved
/// after each (a copy of the directory taken between steps is described by it) and the report
/// of the run in progress written.
fn run_here<S: Study>(
    layout: &Layout,
    steps: &[Step],
    manifest: &mut S::Manifest,
    options: &StudyOptions,
) -> Result<(), String> {
    let here = local::Here {
        threads: options.threads,
        idle_wait: idle_wait(options.idle_wait),
        shard: options.shard,
    };
    local::run_steps(layout, steps, &here, || {
        manifest.as_mut().steps = finished_steps(layout, steps);
        save_manifest(layout, manifest)?;
        (S::REPORT)(layout, manifest).map(drop)
    })?;
    manifest.as_mut().steps = finished_steps(layout, steps);
    save_manifest(layout, manifest)
}

/// Step 7 on Slurm: every step a job (or an array and its merge), and a last job that runs
/// this command again with `--resume` to write the report.
fn submit(layout: &Layout, steps: &[Step], options: &SlurmOptions) -> Result<(), String> {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let mut finish = SlurmOptions::strip(&words);
    if !finish.iter().any(|w| w == "--resume") {
        finish.push("--resume".into());
    }
    let jobs = submit_plan(layout, steps, Some(&finish), options)?;
    println!("{}", describe(layout, &jobs, options.slurm_dry_run));
    Ok(())
}
