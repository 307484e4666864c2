//! A run's plan as Slurm jobs: each step a job (a sharded step a job array and a merge job
//! after it), started in the plan's order of dependencies with `sbatch --dependency=afterok`,
//! and a last job that writes the summary. Every job runs `cutlab step DIR NAME`, the same
//! step a local run runs; the batch scripts stay in `DIR/slurm/` to read or resubmit.

use std::{collections::HashMap, fmt::Write as _, path::Path, process::Command};

use clap::Args;
use serde::Serialize;

use super::pipeline::{Layout, Sharding, Step};

/// Where and how big the jobs are.
#[derive(Args, Clone, Debug, Serialize)]
pub struct SlurmOptions {
    /// Array tasks per step that splits (regress, depth, oracle, trace, a match without
    /// looks or SPRT).
    #[arg(long, default_value_t = 8)]
    pub slurm_array: usize,
    /// Partition to submit to (default: the cluster's default partition).
    #[arg(long)]
    pub slurm_partition: Option<String>,
    /// Time limit of each task, `HH:MM:SS` (Slurm's `--time`).
    #[arg(long, default_value = "04:00:00", value_parser = super::options::slurm_time)]
    pub slurm_time: String,
    /// Memory per task (Slurm's `--mem`).
    #[arg(long, default_value = "2G")]
    pub slurm_mem: String,
    /// Another `sbatch` option for every job, e.g. `--account=chess` (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub slurm_arg: Vec<String>,
    /// Write the batch scripts to DIR/slurm/ without submitting them.
    #[arg(long)]
    pub slurm_dry_run: bool,
}

impl SlurmOptions {
    /// The arguments of `cutlab` that are these options (and `--slurm`): dropped from a
    /// command line that is run again inside a job.
    #[must_use]
    pub fn strip(args: &[String]) -> Vec<String> {
        let mut kept = Vec::new();
        let mut skip_value = false;
        for a in args {
            if std::mem::take(&mut skip_value) {
                continue;
            }
            if a == "--slurm" || a == "--slurm-dry-run" {
                continue;
            }
            if a.starts_with("--slurm-") {
                skip_value = !a.contains('=');
                continue;
            }
            kept.push(a.clone());
        }
        kept
    }
}

/// One job to submit.
struct Job {
    /// Name (`cutlab-<step>`), the stem of its script.
    name: String,
    /// Array size, if an array.
    array: Option<usize>,
    /// The command the job (or each task) runs.
    command: String,
    /// Job ids it waits for.
    after: Vec<String>,
    /// CPUs per task.
    cpus: usize,
    /// Whether it measures time and so has its node to itself (`--exclusive`).
    exclusive: bool,
}

/// A word for a shell script, quoted where it must be.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// CPUs a step's command uses: its `--threads` or `--concurrency`, else one.
fn cpus(step: &Step) -> usize {
    ["--threads", "--concurrency"]
        .iter()
        .find_map(|o| step.option(o).and_then(|v| v.parse().ok()))
        .unwrap_or(1)
}

/// Writes a job's batch script to `DIR/slurm/<name>.sbatch` and submits it (unless a dry
/// run); returns its job id (the script's path in a dry run).
fn submit(layout: &Layout, job: &Job, options: &SlurmOptions) -> Result<String, String> {
    let dir = layout.file("slurm");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Absolute paths, and the submission's directory as the job's: a script resubmitted from
    // anywhere reads and writes the same files.
    let logs = std::path::absolute(layout.file("logs")).map_err(|e| format!("logs: {e}"))?;
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let mut script = String::from("#!/usr/bin/env bash\n");
    let _ = writeln!(script, "#SBATCH --job-name={}", job.name);
    let _ = writeln!(script, "#SBATCH --chdir={}", cwd.display());
    let _ = writeln!(script, "#SBATCH --cpus-per-task={}", job.cpus);
    let _ = writeln!(script, "#SBATCH --mem={}", options.slurm_mem);
    let _ = writeln!(script, "#SBATCH --time={}", options.slurm_time);
    let pattern = if job.array.is_some() { "%A_%a" } else { "%j" };
    let _ = writeln!(
        script,
        "#SBATCH --output={}/slurm-{}-{pattern}.out",
        logs.display(),
        job.name
    );
    if let Some(n) = job.array {
        let _ = writeln!(script, "#SBATCH --array=1-{n}");
    }
    if job.exclusive {
        let _ = writeln!(script, "#SBATCH --exclusive");
    }
    if let Some(p) = &options.slurm_partition {
        let _ = writeln!(script, "#SBATCH --partition={p}");
    }
    for a in &options.slurm_arg {
        let _ = writeln!(script, "#SBATCH {a}");
    }
    let _ = writeln!(script, "set -euo pipefail\nexec {}", job.command);
    let path = dir.join(format!("{}.sbatch", job.name));
    std::fs::write(&path, script).map_err(|e| format!("{}: {e}", path.display()))?;
    if options.slurm_dry_run {
        return Ok(path.display().to_string());
    }
    let mut sbatch = Command::new("sbatch");
    sbatch.args(["--parsable", "--kill-on-invalid-dep=yes"]);
    if !job.after.is_empty() {
        sbatch.arg(format!("--dependency=afterok:{}", job.after.join(":")));
    }
    let output = sbatch
        .arg(&path)
        .output()
        .map_err(|e| format!("sbatch: {e} (is Slurm installed and SLURM_CONF set?)"))?;
    if !output.status.success() {
        return Err(format!(
            "sbatch {}: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let id = String::from_utf8_lossy(&output.stdout);
    let id = id.trim().split(';').next().unwrap_or_default().to_string();
    if id.is_empty() {
        return Err(format!("sbatch {}: no job id", path.display()));
    }
    Ok(id)
}

/// Submits every step of a plan (already saved in the layout's `plan.toml`) and then, if
/// given, `cutlab FINISH...` after all of them; returns (job name, job id) in submission order, also
/// written to `DIR/slurm/jobs.tsv`.
///
/// # Errors
/// A step needing a step not before it in the plan, or a failed submission.
pub fn submit_plan(
    layout: &Layout,
    steps: &[Step],
    finish: Option<&[String]>,
    options: &SlurmOptions,
) -> Result<Vec<(String, String)>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cutlab executable: {e}"))?;
    let dir =
        std::path::absolute(&layout.dir).map_err(|e| format!("{}: {e}", layout.dir.display()))?;
    let cutlab = |words: &[String]| {
        std::iter::once(exe.display().to_string())
            .chain(words.iter().cloned())
            .map(|w| shell_word(&w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let step_command = |name: &str, extra: &[String]| {
        let mut words = vec![
            "step".to_string(),
            dir.display().to_string(),
            name.to_string(),
        ];
        words.extend(extra.iter().cloned());
        cutlab(&words)
    };
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut submitted = Vec::new();
    for step in steps {
        let after = step
            .after
            .iter()
            .map(|a| {
                ids.get(a.as_str())
                    .cloned()
                    .ok_or_else(|| format!("step {} needs {a}, which is not before it", step.name))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (jobs, id) = submit_step(layout, step, after, options, &step_command)?;
        submitted.extend(jobs);
        ids.insert(&step.name, id);
    }
    if let Some(finish) = finish {
        let last = Job {
            name: "cutlab-finish".to_string(),
            array: None,
            command: cutlab(finish),
            after: submitted.iter().map(|(_, id)| id.clone()).collect(),
            cpus: 1,
            exclusive: false,
        };
        let id = submit(layout, &last, options)?;
        submitted.push((last.name, id));
    }
    let table: String = submitted
        .iter()
        .map(|(name, id)| format!("{name}\t{id}\n"))
        .collect();
    let path = layout.file("slurm/jobs.tsv");
    std::fs::write(&path, table).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(submitted)
}

/// A step's jobs: one job, or an array of `--slurm-array` shards and the job that merges
/// them, each running `command(step name, extra arguments)`; the jobs submitted (name, id)
/// and the id that the steps after it wait on.
fn submit_step(
    layout: &Layout,
    step: &Step,
    after: Vec<String>,
    options: &SlurmOptions,
    command: &dyn Fn(&str, &[String]) -> String,
) -> Result<(Vec<(String, String)>, String), String> {
    let n = options.slurm_array.max(1);
    let name = format!("cutlab-{}", step.name);
    if step.sharding == Sharding::Whole || n == 1 {
        let job = Job {
            name,
            array: None,
            command: command(&step.name, &[]),
            after,
            cpus: cpus(step),
            exclusive: step.measures_time(),
        };
        let id = submit(layout, &job, options)?;
        return Ok((vec![(job.name, id.clone())], id));
    }
    let array = Job {
        name,
        array: Some(n),
        command: format!(
            "{} --shard \"$SLURM_ARRAY_TASK_ID/{n}\"",
            command(&step.name, &[])
        ),
        after,
        cpus: cpus(step),
        exclusive: step.measures_time(),
    };
    let array_id = submit(layout, &array, options)?;
    let merge = Job {
        name: format!("cutlab-{}-merge", step.name),
        array: None,
        command: command(&step.name, &["--merge".into(), n.to_string()]),
        after: vec![array_id.clone()],
        cpus: 1,
        exclusive: false,
    };
    let id = submit(layout, &merge, options)?;
    Ok((vec![(array.name, array_id), (merge.name, id.clone())], id))
}

/// Where a run's jobs went, for the user: job ids, how to watch them.
#[must_use]
pub fn describe(layout: &Layout, jobs: &[(String, String)], dry_run: bool) -> String {
    let scripts = layout.file("slurm");
    if dry_run {
        return format!(
            "wrote {} batch scripts to {} (not submitted: --slurm-dry-run)",
            jobs.len(),
            scripts.display()
        );
    }
    let last = jobs.last().map_or("", |(_, id)| id.as_str());
    format!(
        "submitted {} jobs (scripts in {}, ids in {}); the last is {last}.\n\
         Watch: squeue --me; logs: {}",
        jobs.len(),
        scripts.display(),
        Path::new(&scripts).join("jobs.tsv").display(),
        layout.file("logs").display()
    )
}

#[cfg(test)]
mod tests {
    use super::SlurmOptions;

    #[test]
    fn strip_drops_slurm_options_and_their_values() {
        let words: Vec<String> = [
            "reproduce",
            "--smoke",
            "--slurm",
            "--slurm-array",
            "4",
            "--slurm-partition=short",
            "--slurm-dry-run",
            "--out",
            "r",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        assert_eq!(
            SlurmOptions::strip(&words),
            ["reproduce", "--smoke", "--out", "r"]
        );
    }

    #[test]
    fn shell_words_are_quoted_when_they_must_be() {
        assert_eq!(super::shell_word("depth.csv"), "depth.csv");
        assert_eq!(super::shell_word("a b"), "'a b'");
        assert_eq!(super::shell_word("it's"), r"'it'\''s'");
    }
}
