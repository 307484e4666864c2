//! Joining a step's shards: their outputs merged into the step's own (the shards' files then
//! removed), the command's summary printed, and the step recorded.

use std::path::{Path, PathBuf};

use super::{Layout, Ran, Rerun, Sharding, Step, StepRecord, finish, run_step, step_record};

/// Joins the `n` shards of a finished sharded step: their CSVs (and PGNs) into the step's
/// own outputs.
/// Writes the step's record, its seconds the sum of its shards', its others' load the most
/// any shard saw, its speed the slowest shard's machine's, its rows before the shards' sum.
///
/// # Errors
/// A shard without its record or outputs, or files that cannot be merged or written.
pub fn merge_shards(layout: &Layout, step: &Step, n: usize) -> Result<StepRecord, String> {
    let mut seconds = 0.0;
    let mut other_cores_busy = None::<f64>;
    let mut speed_nps = None::<u64>;
    let mut rows_before = None::<usize>;
    for k in 1..=n {
        let shard = step.shard(k, n);
        let record = step_record(layout, &shard.name)
            .ok_or_else(|| format!("step {}: shard {k}/{n} has not finished", step.name))?;
        seconds += record.seconds;
        if let Some(c) = record.other_cores_busy {
            other_cores_busy = Some(other_cores_busy.map_or(c, |o| o.max(c)));
        }
        if let Some(s) = record.speed_nps {
            speed_nps = Some(speed_nps.map_or(s, |o| o.min(s)));
        }
        if let Some(r) = record.rows_before {
            rows_before = Some(rows_before.unwrap_or(0) + r);
        }
    }
    // The merge's own runs find the work done: they measure nothing and never wait.
    match step.sharding {
        Sharding::Whole => return Err(format!("step {} is not sharded", step.name)),
        Sharding::OutFile => {
            // One merge per stem: a match's `--out` and `--pgn` usually share one, and its
            // shards' files (CSV, PGN, configuration) are all merged by it.
            let mut outputs: Vec<&Path> = ["--out", "--pgn"]
                .iter()
                .filter_map(|o| step.option(o))
                .map(Path::new)
                .collect();
            outputs.dedup_by_key(|p| p.with_extension(""));
            let mut merged = Vec::new();
            for output in outputs {
                merged.extend(merge_outputs(output, n)?);
            }
            // A resumable command run again on its merged output finds everything done and
            // prints its summary (the depth table, the match report) into the step's log.
            if step.rerun == Rerun::Resume {
                run_step(layout, step)?;
                let log = layout.file(&format!("logs/{}.log", step.name));
                if let Ok(text) = std::fs::read_to_string(&log) {
                    print!("{text}");
                }
            }
            for shard in merged {
                std::fs::remove_file(&shard).map_err(|e| format!("{}: {e}", shard.display()))?;
            }
        }
    }
    finish(
        layout,
        step,
        &Ran {
            seconds,
            other_cores_busy,
            speed_nps,
            rows_before,
        },
    )
}

/// Joins what `n` shards wrote in place of `path` (`dir/stem.ext`): every `dir/stem.shardK.rest`
/// (the output itself and the files named after it: oracle scores, test tables, variant
/// configurations) into `dir/stem.rest`, CSVs row by row under one header, PGNs one after
/// another, anything else (the same in every shard) from the first shard. Returns the shards'
/// files, to remove once the step's summary is written.
fn merge_outputs(path: &Path, n: usize) -> Result<Vec<PathBuf>, String> {
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
    let mut shard_files = Vec::new();
    for rest in rests {
        let shards: Vec<PathBuf> = (1..=n)
            .map(|k| dir.join(format!("{stem}.shard{k}.{rest}")))
            .collect();
        let merged = dir.join(format!("{stem}.{rest}"));
        let dotted = format!(".{rest}");
        if dotted.ends_with(".csv") {
            crate::common::csv_merge::merge_csv(&merged, &shards)?;
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
        println!("{}: {} shards merged", merged.display(), shards.len());
        shard_files.extend(shards);
    }
    Ok(shard_files)
}
