//! A run's positions: a seeded sample of the suite, written as EPD files for its steps.

use std::path::Path;

use cutlab_instrument::csv_sink::splitmix64;

use super::Layout;

/// `n` positions of the suite, a seeded sample in suite order (all when `n` is 0 or more).
#[must_use]
pub fn sample(
    suite: &cutlab_suites::Suite,
    n: usize,
    seed: u64,
) -> Vec<&cutlab_suites::SuitePosition> {
    let mut keyed: Vec<(u64, usize)> = (0..suite.positions.len())
        .map(|i| (splitmix64(seed ^ splitmix64(i as u64)), i))
        .collect();
    keyed.sort_unstable();
    let mut chosen: Vec<usize> = keyed
        .into_iter()
        .take(if n == 0 { usize::MAX } else { n })
        .map(|(_, i)| i)
        .collect();
    chosen.sort_unstable();
    chosen.iter().map(|&i| &suite.positions[i]).collect()
}

/// Writes positions as EPD.
///
/// # Errors
/// The file cannot be written.
pub fn write_epd(path: &Path, positions: &[&cutlab_suites::SuitePosition]) -> Result<(), String> {
    let text: String = positions.iter().map(|p| p.to_epd() + "\n").collect();
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Samples `n` positions of the suite with `seed` (all when `n` is 0) and writes them as
/// `positions.epd`, with their first `oracle` and `trace` positions as `oracle-positions.epd`
/// and `trace-positions.epd`; returns how many were sampled.
///
/// # Errors
/// An empty sample, or a file that cannot be written.
pub fn write_position_files(
    layout: &Layout,
    suite: &cutlab_suites::Suite,
    (n, seed): (usize, u64),
    [oracle, trace]: [usize; 2],
) -> Result<usize, String> {
    let positions = sample(suite, n, seed);
    if positions.is_empty() {
        return Err(format!("{}: no positions", suite.source));
    }
    write_epd(&layout.file("positions.epd"), &positions)?;
    write_epd(
        &layout.file("oracle-positions.epd"),
        &positions[..oracle.min(positions.len())],
    )?;
    write_epd(
        &layout.file("trace-positions.epd"),
        &positions[..trace.min(positions.len())],
    )?;
    Ok(positions.len())
}
