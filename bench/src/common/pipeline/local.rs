//! A plan's steps run here, in this process: in plan order, this shard's share of them, each
//! recorded as it ends; steps of one core that measure no time (traces, a fit) side by side on
//! the run's threads, every other step alone.

use std::time::Duration;

use super::{
    Layout, Ran, Step, StepRecord, damaged_output, finish, load, run_and_record, run_step,
    step_record,
};
use crate::common::shard::Shard;

/// How the steps run here: `--threads`, `--idle-wait` and `--shard`.
pub struct Here {
    /// Steps of one core at once.
    pub threads: usize,
    /// How long a step that measures time waits for an idle machine at most.
    pub idle_wait: Duration,
    /// This process's share of the steps (every N-th from the K-th), or all of them.
    pub shard: Option<Shard>,
}

/// Runs this process's share of `steps`, each recorded as it ends, and calls `done` after each
/// (the study saves its manifest and writes its report there). A step whose inputs come from
/// a step not yet finished (another shard's) is left for later. Steps that [run beside
/// others](Step::runs_beside_others) run side by side, up to `threads` at once
/// ([`next_batch`]); every other step runs alone.
///
/// # Errors
/// The first step that fails (its log named), or the first error of `done`.
pub fn run_steps(
    layout: &Layout,
    steps: &[Step],
    here: &Here,
    mut done: impl FnMut() -> Result<(), String>,
) -> Result<(), String> {
    let total = steps.len();
    // A finished step whose output is no longer the one it finished with (emptied, cut,
    // changed) is not done: its record goes, and it runs again, named.
    for (k, step) in steps.iter().enumerate() {
        if here.shard.is_some_and(|s| !s.takes(k)) {
            continue;
        }
        let damaged = step_record(layout, &step.name)
            .and_then(|record| damaged_output(&record, &super::sealed_output(step)?));
        if let Some(why) = damaged {
            eprintln!(
                "[{}/{total}] {}: its output was damaged after it finished ({why}); running \
                 it again",
                k + 1,
                step.name
            );
            let record = layout.file(&format!("steps/{}.toml", step.name));
            std::fs::remove_file(&record).map_err(|e| format!("{}: {e}", record.display()))?;
        }
    }
    let finished = |name: &str| step_record(layout, name).is_some();
    // This process's steps not yet done, with their numbers in the plan.
    let mut pending: Vec<(usize, &Step)> = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        if here.shard.is_some_and(|s| !s.takes(k)) {
            continue;
        }
        if finished(&step.name) {
            eprintln!("[{}/{total}] {}: done earlier", k + 1, step.name);
        } else {
            pending.push((k + 1, step));
        }
    }
    // Whether the step just run here watched the others leave the machine idle.
    let mut ended_idle = false;
    let mut rest = pending.as_slice();
    while let Some(&(k, step)) = rest.first() {
        if let Some(needed) = step.after.iter().find(|a| !finished(a)) {
            eprintln!(
                "[{k}/{total}] {}: waits for step {needed} (another shard's); run again with \
                 --resume once it is done",
                step.name
            );
            rest = &rest[1..];
            continue;
        }
        let next: Vec<&Step> = rest.iter().map(|&(_, s)| s).collect();
        let batch = &rest[..next_batch(&next, here.threads, finished)];
        rest = &rest[batch.len()..];
        let wait = if ended_idle {
            Duration::ZERO
        } else {
            here.idle_wait
        };
        let last = run_batch(layout, (batch, total), here.threads, wait, &mut done)?;
        // Steps side by side kept each other's cores busy: the next timed step looks again.
        ended_idle = batch.len() == 1
            && last.is_some_and(|r| load::watched_idle(r.seconds, r.other_cores_busy));
    }
    Ok(())
}

/// Runs `batch` (steps numbered in a plan of `total`) on `threads` workers, each recorded as
/// it ends and `done` called here after it; returns the last record. A step alone first waits
/// for an idle machine, at most `wait`; steps side by side leave the others' load unmeasured,
/// as a step that ends first would count as another's own and one still running as others.
fn run_batch(
    layout: &Layout,
    (batch, total): (&[(usize, &Step)], usize),
    threads: usize,
    wait: Duration,
    mut done: impl FnMut() -> Result<(), String>,
) -> Result<Option<StepRecord>, String> {
    let mut last = None;
    crate::common::parallel::run(
        batch,
        threads,
        || Ok(()),
        |_, &(k, step)| {
            eprintln!("[{k}/{total}] {}", step.command_line());
            if batch.len() == 1 {
                return run_and_record(layout, step, wait);
            }
            let ran = run_step(layout, step)?;
            let unmeasured = Ran {
                other_cores_busy: None,
                ..ran
            };
            finish(layout, step, &unmeasured)
        },
        |record| {
            last = Some(record?);
            done()
        },
    )?;
    Ok(last)
}

/// How many of `pending` (in plan order; the first one's inputs are ready) run as one batch,
/// `threads` at a time: the first alone, unless it [runs beside others](Step::runs_beside_others)
/// and there are threads to spare; then with it each step after it that does too and whose
/// inputs were `finished` before the batch, up to the first that is not.
fn next_batch(pending: &[&Step], threads: usize, finished: impl Fn(&str) -> bool) -> usize {
    if threads < 2 || !pending.first().is_some_and(|s| s.runs_beside_others()) {
        return pending.len().min(1);
    }
    1 + pending[1..]
        .iter()
        .take_while(|s| s.runs_beside_others() && s.after.iter().all(|a| finished(a)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps of one core that measure no time run together, up to the first that is not one
    /// or that needs a step of the batch; on one thread every step runs alone.
    #[test]
    fn traces_run_side_by_side_and_timed_or_parallel_steps_alone() {
        let trace = |name: &str| Step::new(name, &["trace", "--depth", "9"]);
        let plan = [
            trace("trace-a"),
            trace("trace-b"),
            Step::new("fit", &["fit"]).after("regress"),
            trace("trace-c").after("trace-a"),
            Step::new("depth", &["depth", "--threads", "2", "--depth", "9"]),
            Step::new("timed", &["trace", "--time-ms", "100"]),
            trace("trace-d"),
        ];
        let steps: Vec<&Step> = plan.iter().collect();
        let finished = |name: &str| name == "regress";
        assert_eq!(next_batch(&steps, 2, finished), 3);
        assert_eq!(next_batch(&steps, 1, finished), 1);
        assert_eq!(next_batch(&steps[3..], 2, |_| true), 1);
        assert_eq!(next_batch(&steps[4..], 2, finished), 1);
        assert_eq!(next_batch(&steps[5..], 2, finished), 1);
        assert_eq!(next_batch(&steps[6..], 2, finished), 1);
        assert_eq!(next_batch(&[], 2, finished), 0);
        assert!(!plan[4].runs_beside_others() && !plan[5].runs_beside_others());
    }
}
