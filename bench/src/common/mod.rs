//! The libraries the commands share: the bench and its signatures, inputs hashed by content, CSV
//! merging, the training-data record, packed games and their move text, external engines'
//! processes, children that die with their parent and outputs locked while written, options
//! flattened into their arguments, the English of generated sentences, result files that resume,
//! the parallel runner, the study runner and its Slurm jobs, progress bars, shards, self-play's
//! random streams and adjudication, and time limits that follow the machine's speed. Nothing here
//! calls a command.

pub mod adjudication;
pub mod bench;
pub mod configs;
pub mod content_hash;
pub mod csv_merge;
pub mod dataformat;
pub mod durations;
pub mod engine_process;
pub mod match_report;
pub mod options;
pub mod packed_games;
pub mod parallel;
pub mod pipeline;
pub mod process;
pub mod progress;
pub mod prose;
pub mod results;
pub mod self_play;
pub mod shard;
pub mod slurm;
pub mod speed;

/// A fresh directory for a unit test, `cutlab-NAME-PID` under the system's temporary one
/// (emptied if an earlier run left it).
#[cfg(test)]
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutlab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}
