//! The `cutlab` binary driven as a user or a GUI would, one test binary in modules by
//! concern (one binary keeps link time down).

mod common;
mod inputs;
mod instruments;
mod matches;
mod network;
mod pipelines;
mod studies;
mod uci;
