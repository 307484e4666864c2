//! The versions, bench signature and machine a run is done with, for its report.

use std::process::Command;

/// First line a command prints, or `unknown`.
fn output_of(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8(o.stdout)
                .ok()
                .and_then(|s| s.lines().next().map(str::to_string))
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The time now, UTC, to the minute (`YYYY-MM-DD HH:MM`).
#[must_use]
pub fn now_utc() -> String {
    output_of("date", &["-u", "+%Y-%m-%d %H:%M"])
}

/// The binary's bench signature (`cutlab bench`: the default variant at its depth).
fn bench_signature() -> String {
    use crate::common::bench::{BENCH_DEPTH, remembered_nodes};
    let config = cutlab_search::SearchConfig::resolve(cutlab_search::DEFAULT_VARIANT);
    match config
        .map_err(|e| e.to_string())
        .and_then(|c| remembered_nodes(&c, BENCH_DEPTH, 1))
    {
        Ok(n) => format!(
            "{n} nodes ({}, depth {BENCH_DEPTH})",
            cutlab_search::DEFAULT_VARIANT
        ),
        Err(e) => format!("unknown ({e})"),
    }
}

/// The versions and machine a run is done with, for its report.
#[must_use]
pub fn environment() -> Vec<(String, String)> {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string());
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    vec![
        ("cutlab".into(), env!("CARGO_PKG_VERSION").into()),
        // The binary's own commit (bench/build.rs), not the working directory's.
        ("git commit".into(), env!("CUTLAB_COMMIT").into()),
        // The processor it is built for and whether a profile guided it (bench/build.rs).
        ("build".into(), env!("CUTLAB_BUILD").into()),
        ("bench".into(), bench_signature()),
        ("rustc".into(), output_of("rustc", &["--version"])),
        (
            "machine".into(),
            format!(
                "{cpu}, {cores} cores, {} {}",
                std::env::consts::OS,
                std::env::consts::ARCH
            ),
        ),
        ("date (UTC)".into(), now_utc()),
    ]
}
