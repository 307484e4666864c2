//! `cutlab slurm -- COMMAND ...`: one command on a Slurm cluster. The command's items are
//! split over a job array (`--shard K/N`, each task writing `<out>.shardK.csv`, resumable), and
//! a merge job after the array joins the shards into `--out`. Which commands split, and how
//! they continue, is read off the command's own options (`--shard`, `--resume`, `--force`);
//! a study (`ablate`, `reproduce`) submits its own steps with `--slurm`.

use std::path::{Path, PathBuf};

use clap::{Args, Parser};

use crate::common::{
    pipeline::{Layout, Rerun, Sharding, Step, save_plan},
    slurm::{SlurmOptions, describe, submit_plan},
};

/// Options of `cutlab slurm`.
#[derive(Args, Debug)]
pub struct SlurmArgs {
    /// Directory for the plan, batch scripts, logs and step records (default: `<out>.slurm`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Jobs: array size, partition, time, memory.
    #[command(flatten)]
    slurm: SlurmOptions,
    /// The experiment: a cutlab command line that splits (regress, depth, oracle, trace, match)
    /// with its `--out`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// The command as `cutlab` reads it.
#[derive(Parser)]
#[command(name = "cutlab")]
struct Submitted {
    #[command(subcommand)]
    command: super::Command,
}

/// Checks the command before anything is written or submitted: it parses as `cutlab` would
/// parse it as an array task (no unknown flag, no bad value, nothing that refuses `--shard`,
/// such as a match's `--looks`), its files are there and its variants exist. A job array for
/// a missing suite or a misspelt variant once failed on the cluster only.
fn check(step: &Step) -> Result<(), String> {
    let words = std::iter::once("cutlab".to_string())
        .chain(step.args.iter().cloned())
        .chain(["--shard".to_string(), "1/2".to_string()]);
    if let Err(e) = Submitted::try_parse_from(words) {
        return Err(format!(
            "the command to submit does not parse: {}",
            e.render().to_string().trim()
        ));
    }
    for option in ["--suite", "--openings", "--params"] {
        if let Some(path) = step.option(option)
            && !Path::new(path).is_file()
        {
            return Err(format!(
                "the command to submit: {option} {path}: no such file"
            ));
        }
    }
    let variants = ["--variants", "--variant", "--stack", "--baseline"]
        .iter()
        .filter_map(|o| step.option(o))
        .flat_map(|list| list.split(','));
    for variant in variants {
        crate::common::options::resolve_config(variant.trim(), None, None)
            .map_err(|e| format!("the command to submit: {e}"))?;
    }
    Ok(())
}

/// The step that runs `command` (its words after `cutlab`), as the command's own options
/// say it splits and continues: refused when it has no `--shard`, or is a study.
fn step_of(command: &[String]) -> Result<Step, String> {
    let name = command[0].clone();
    let cli = <Submitted as clap::CommandFactory>::command();
    let sub = cli
        .find_subcommand(&name)
        .ok_or_else(|| format!("cutlab slurm: '{name}' is not a cutlab command"))?;
    let has = |id: &str| sub.get_arguments().any(|a| a.get_id() == id);
    if has("slurm") {
        return Err(format!(
            "cutlab slurm: '{name}' is a study; submit its steps with `cutlab {name} --slurm`"
        ));
    }
    if !has("shard") {
        return Err(format!(
            "cutlab slurm: '{name}' does not split into shards (regress, depth, oracle, trace \
             and match do)"
        ));
    }
    let rerun = if has("resume") {
        Rerun::Resume
    } else if has("force") {
        Rerun::Force
    } else {
        Rerun::AsWritten
    };
    let mut step = Step::new(name, &[])
        .sharding(Sharding::OutFile)
        .rerun(rerun);
    step.args = command.to_vec();
    Ok(step)
}

/// Submits the experiment.
pub fn run(args: &SlurmArgs) -> Result<(), String> {
    let step = step_of(&args.command)?;
    let name = step.name.clone();
    // The array gives each task its `--shard K/N`: a shard of the command's own would be
    // sharded again and every job would fail.
    if step.option("--shard").is_some() {
        return Err(format!(
            "cutlab slurm: the command to submit has --shard; leave it out (the job array \
             shards '{name}' over --slurm-array tasks)"
        ));
    }
    let out = step
        .option("--out")
        .ok_or_else(|| format!("cutlab slurm: '{name}' needs --out"))?;
    check(&step)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.slurm", out.trim_end_matches('/'))));
    for sub in ["logs", "slurm"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let layout = Layout { dir };
    let steps = [step];
    save_plan(&layout, &steps)?;
    let jobs = submit_plan(&layout, &steps, None, &args.slurm)?;
    println!("{}", describe(&layout, &jobs, args.slurm.slurm_dry_run));
    Ok(())
}
