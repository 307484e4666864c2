//! Plumbing the commands share: external engines' processes, children that die with their
//! parent and outputs locked while written, options flattened into their
//! arguments, result files that resume, the parallel runner, experiment pipelines and their
//! Slurm jobs, progress bars, shards, self-play's random streams and adjudication, and time
//! limits that follow the machine's speed.

pub mod engine_process;
pub mod options;
pub mod parallel;
pub mod pipeline;
pub mod process;
pub mod progress;
pub mod results;
pub mod self_play;
pub mod shard;
pub mod slurm;
pub mod speed;
