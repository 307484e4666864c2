//! Plumbing the commands share: external engines' processes, options flattened into their
//! arguments, result files that resume, the parallel runner, experiment pipelines and their
//! Slurm jobs, progress bars, shards, and time limits that follow the machine's speed.

pub mod engine_process;
pub mod options;
pub mod parallel;
pub mod pipeline;
pub mod progress;
pub mod results;
pub mod shard;
pub mod slurm;
pub mod speed;
