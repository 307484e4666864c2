//! How long each scale of a study runs on the reference machine (2 cores), measured and
//! written here once: the help texts read these, and a test checks that the README,
//! CONTRIBUTING and docs/commands.md quote them as they stand.
//!
//! `reproduce --quick` on the dev profile and the tests after it were timed from a fresh clone
//! (2026-12-04, 2-core AMD EPYC VM whose release build benches at 2.37 M nps against the
//! reference 1.65 M): the main job's build 118 s and its run 197 s, the tests 142 s, 49 of
//! them building; times 1.44 at the reference speed (notes/build-time.md);
//! `--standard` and `ablate`'s decisive scale are the budgets their runs print first.

/// `reproduce --smoke`.
pub const REPRODUCE_SMOKE: &str = "under a minute";
/// `reproduce --quick`, the README's main job.
pub const REPRODUCE_QUICK: &str = "about 5 minutes on 2 cores, 8 with its first build";
/// `reproduce --standard`.
pub const REPRODUCE_STANDARD: &str =
    "one night on 2 cores, at most 6.6 hours by its printed budget";
/// `reproduce --full`.
pub const REPRODUCE_FULL: &str = "weeks on 2 cores, 636 hours by its printed budget";
/// `ablate --quick`.
pub const ABLATE_QUICK: &str = "about 20 minutes on 2 cores";
/// `ablate` at its decisive scale, its matches then its searches at fixed time.
pub const ABLATE_DECISIVE: &str = "3 to 44 hours on 2 cores at the reference speed, then about 3.7 hours of searches at fixed time";

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's test command after the main job (no help text reads it).
    const TESTS: &str = "about 4 minutes on 2 cores";

    /// The front door and the reference quote each duration as written here.
    #[test]
    fn the_documents_quote_the_measured_durations() {
        let readme = include_str!("../../../README.md");
        let contributing = include_str!("../../../CONTRIBUTING.md");
        let commands = include_str!("../../../docs/commands.md");
        for (text, name, quoted) in [
            (readme, "README.md", &[REPRODUCE_QUICK, TESTS][..]),
            (contributing, "CONTRIBUTING.md", &[TESTS]),
            (
                commands,
                "docs/commands.md",
                &[
                    REPRODUCE_QUICK,
                    REPRODUCE_STANDARD,
                    REPRODUCE_FULL,
                    ABLATE_DECISIVE,
                ],
            ),
        ] {
            for duration in quoted {
                assert!(
                    text.contains(duration),
                    "{name} does not say \"{duration}\""
                );
            }
        }
    }
}
