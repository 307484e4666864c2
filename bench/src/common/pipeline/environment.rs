//! The versions and machine a run is done with, for its report.

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
        ("rustc".into(), output_of("rustc", &["--version"])),
        (
            "machine".into(),
            format!(
                "{cpu}, {cores} cores, {} {}",
                std::env::consts::OS,
                std::env::consts::ARCH
            ),
        ),
        (
            "date (UTC)".into(),
            output_of("date", &["-u", "+%Y-%m-%d %H:%M"]),
        ),
    ]
}
