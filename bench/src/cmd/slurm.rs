//! `cutlab slurm -- COMMAND ...`: one experiment on a Slurm cluster. The command's items are
//! split over a job array (`--shard K/N`, each task writing `<out>.K.csv`, resumable), and a
//! merge job after the array joins the shards into `--out` (for `ablate`, which shards its
//! steps in place, the merge job runs the whole command again with `--resume` and writes the
//! report).

use std::path::PathBuf;

use clap::Args;

use crate::common::{
    pipeline::{Layout, Sharding, Step, save_plan},
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
    /// The experiment: a cutlab command line (regress, depth, oracle, trace, match, ablate)
    /// with its `--out`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Submits the experiment.
pub fn run(args: &SlurmArgs) -> Result<(), String> {
    let name = args.command[0].clone();
    let step = Step {
        name: name.clone(),
        args: args.command.clone(),
        after: Vec::new(),
    };
    if step.sharding() == Sharding::Whole {
        return Err(format!(
            "cutlab slurm: '{name}' does not split into shards (regress, depth, oracle, trace, \
             match and ablate do)"
        ));
    }
    let out = step
        .option("--out")
        .ok_or_else(|| format!("cutlab slurm: '{name}' needs --out"))?;
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
