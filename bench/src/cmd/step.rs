//! `cutlab step DIR NAME`: runs one step of a run's plan (`DIR/plan.toml`, written by
//! `reproduce`, `ablate` and `slurm`), whole, as one shard, or by merging its finished shards;
//! writes the step's record. This is what each Slurm job runs.

use std::path::PathBuf;

use clap::Args;

use crate::common::pipeline::{
    Layout, idle_wait, load_plan, merge_shards, run_and_record, step_record,
};

/// Options of `cutlab step`.
#[derive(Args, Debug)]
pub struct StepArgs {
    /// The run's directory (holding `plan.toml`).
    dir: PathBuf,
    /// The step's name, as in the plan.
    name: String,
    /// Run only this shard of the step, `K/N`.
    #[arg(long, conflicts_with = "merge")]
    shard: Option<crate::common::shard::Shard>,
    /// Merge the step's N finished shards.
    #[arg(long)]
    merge: Option<usize>,
    /// Minutes a step that measures time (searches at fixed time, timed matches) waits for an
    /// idle machine (other processes below half a core busy) before it runs anyway; every
    /// step's record, and the report, say how busy others kept the machine.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    idle_wait: u64,
}

/// Runs the step.
pub fn run(args: &StepArgs) -> Result<(), String> {
    let layout = Layout {
        dir: args.dir.clone(),
    };
    let plan = load_plan(&layout)?;
    let step = plan.iter().find(|s| s.name == args.name).ok_or_else(|| {
        format!(
            "{}: no step '{}' (steps: {})",
            layout.file("plan.toml").display(),
            args.name,
            plan.iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let record = match (&args.shard, args.merge) {
        // A merged step's shards are gone: merging again would find none.
        (_, Some(_)) if step_record(&layout, &step.name).is_some() => {
            eprintln!("{}: done earlier", step.name);
            return Ok(());
        }
        (_, Some(n)) => merge_shards(&layout, step, n)?,
        (Some(crate::common::shard::Shard { k, n }), None) => {
            let shard = step.shard(*k, *n);
            if step_record(&layout, &shard.name).is_some() {
                eprintln!("{}: done earlier", shard.name);
                return Ok(());
            }
            run_and_record(&layout, &shard, idle_wait(args.idle_wait))?
        }
        (None, None) => run_and_record(&layout, step, idle_wait(args.idle_wait))?,
    };
    eprintln!("{}: done in {:.0} s", record.name, record.seconds);
    Ok(())
}
