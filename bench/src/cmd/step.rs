//! `cutlab step DIR NAME`: runs one step of a run's plan (`DIR/plan.toml`, written by
//! `reproduce`, `ablate` and `slurm`), whole, as one shard, or by merging its finished shards;
//! writes the step's record. This is what each Slurm job runs. `cutlab step DIR` lists the
//! plan's steps, which have finished, and the file each writes.

use std::path::{Component, Path, PathBuf};

use clap::Args;

use crate::common::pipeline::{
    Layout, Step, finished_or_listed, idle_wait, is_finished, load_plan, merge_shards,
    run_and_record, step_record,
};

/// Options of `cutlab step`.
#[derive(Args, Debug)]
pub struct StepArgs {
    /// The run's directory (holding `plan.toml`).
    dir: PathBuf,
    /// The step's name, as in the plan; without it, the plan's steps are listed (tab-separated:
    /// step, finished or unfinished, its command, its `--out` file below DIR).
    name: Option<String>,
    /// Run only this shard of the step, `K/N`.
    #[arg(long, conflicts_with = "merge", requires = "name")]
    shard: Option<crate::common::shard::Shard>,
    /// Merge the step's N finished shards.
    #[arg(long, requires = "name")]
    merge: Option<usize>,
    /// Minutes a step that measures time (searches at fixed time, timed matches) waits for an
    /// idle machine (other processes below half a core busy) before it runs anyway; every
    /// step's record, and the report, say how busy others kept the machine.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    idle_wait: u64,
}

/// Runs the step, or lists the plan's steps.
pub fn run(args: &StepArgs) -> Result<(), String> {
    let layout = Layout {
        dir: args.dir.clone(),
    };
    let plan = load_plan(&layout)?;
    let Some(name) = &args.name else {
        return list(&layout, &plan);
    };
    let step = plan.iter().find(|s| &s.name == name).ok_or_else(|| {
        format!(
            "{}: no step '{name}' (steps: {})",
            layout.file("plan.toml").display(),
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

/// `cutlab step DIR`: the plan's steps in its order, one line each after a header, with
/// whether each has finished ([`finished_or_listed`]), its command and its `--out` file below
/// the run's folder (empty for a step without one, or with one elsewhere). `scripts/publish-run`
/// reads it to keep an interrupted step's rows apart.
fn list(layout: &Layout, plan: &[Step]) -> Result<(), String> {
    let finished = finished_or_listed(layout)?;
    println!("step\tstate\tcommand\tout");
    for step in plan {
        let state = if is_finished(&finished, &step.name) {
            "finished"
        } else {
            "unfinished"
        };
        let out = step
            .option("--out")
            .and_then(|path| below(&layout.dir, Path::new(path)))
            .map(|path| path.display().to_string())
            .unwrap_or_default();
        let command = step.args.first().map_or("", String::as_str);
        println!("{}\t{state}\t{command}\t{out}", step.name);
    }
    Ok(())
}

/// `path`, a file that a plan names, relative to the run's folder `dir`: as spelt, or else
/// the longest trailing part of it that is a file there (a plan spells the folder as the run
/// was started, and a run moved, restored elsewhere or resumed from another working
/// directory is spelt otherwise). `None` for a file found neither way.
fn below(dir: &Path, path: &Path) -> Option<PathBuf> {
    if let Ok(rest) = path.strip_prefix(dir) {
        return Some(rest.to_path_buf());
    }
    let parts: Vec<Component> = path
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    (0..parts.len())
        .map(|i| parts[i..].iter().collect::<PathBuf>())
        .find(|rest| dir.join(rest).is_file())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::below;

    /// A plan's file is found below the run's folder as spelt, or, for a run moved elsewhere,
    /// by the longest trailing part that is there: a file of the same name in the folder
    /// above is not taken for it.
    #[test]
    fn a_plans_file_is_found_below_the_run_moved_or_not() {
        let dir = crate::common::scratch_dir("step-below");
        std::fs::create_dir_all(dir.join("matches/5000")).unwrap();
        for file in ["depth.csv", "matches/5000/depth.csv"] {
            std::fs::write(dir.join(file), "").unwrap();
        }
        assert_eq!(
            below(&dir, &dir.join("later.csv")),
            Some(PathBuf::from("later.csv"))
        );
        let moved = Path::new("/elsewhere/run/matches/5000/depth.csv");
        assert_eq!(
            below(&dir, moved),
            Some(PathBuf::from("matches/5000/depth.csv"))
        );
        assert_eq!(below(&dir, Path::new("/elsewhere/run/later.csv")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
