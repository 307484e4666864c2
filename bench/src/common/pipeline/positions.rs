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
    write_text(path, &epd(positions))
}

/// Positions as EPD text, a line each.
fn epd(positions: &[&cutlab_suites::SuitePosition]) -> String {
    positions.iter().map(|p| p.to_epd() + "\n").collect()
}

/// Writes `text` to `path`, the error naming it.
fn write_text(path: &Path, text: &str) -> Result<(), String> {
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
    // A resumed run's steps searched the positions it wrote: a sample of another content (the
    // suite's file changed under the same name, another suite) would be mixed in with them.
    let path = layout.file("positions.epd");
    let now = epd(&positions);
    if let Ok(earlier) = std::fs::read_to_string(&path)
        && earlier != now
    {
        return Err(format!(
            "{}: the run's positions are not the sample of {} now ({} and {} positions, or \
             the same number with other content): the suite changed, or another --suite, \
             --positions or --seed was given; resume with the run's suite and options, or \
             start a new run with another --out",
            path.display(),
            suite.source,
            earlier.lines().count(),
            positions.len()
        ));
    }
    write_text(&path, &now)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's positions are its own: the sample of a suite whose content changed under the
    /// same name is refused, not written over the positions its steps searched.
    #[test]
    fn a_sample_of_other_content_is_not_written_over_a_runs_positions() {
        let dir = crate::common::scratch_dir("positions");
        let layout = Layout { dir: dir.clone() };
        let suite = |fens: &[&str]| {
            let text: String = fens
                .iter()
                .map(|f| format!("{f} id \"{}\";\n", &f[..2]))
                .collect();
            let path = dir.join("suite.epd");
            std::fs::write(&path, text).unwrap();
            cutlab_suites::load(&path, false).unwrap()
        };
        let a = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
        let b = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
        let c = "8/8/8/4k3/8/8/4K3/4R3 w - -";
        assert_eq!(
            write_position_files(&layout, &suite(&[a, b]), (0, 1), [1, 1]),
            Ok(2)
        );
        // The same suite again: the same sample, accepted.
        assert_eq!(
            write_position_files(&layout, &suite(&[a, b]), (0, 1), [1, 1]),
            Ok(2)
        );
        let e = write_position_files(&layout, &suite(&[a, c]), (0, 1), [1, 1]).unwrap_err();
        assert!(e.contains("the suite changed"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
