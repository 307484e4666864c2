//! The steps that studies share, each built in one place: its command, its files, and what it
//! does with more processes or with an earlier run's outputs.

use super::{Layout, Rerun, Sharding, Step};

/// The share that the studies (`reproduce`, `ablate`) verify of the cuts of the methods a
/// trace is not about: quiescence futility, in every preset, prunes about a thousand times as
/// often as ProbCut cuts (96,838 against 69 in one position at depth 10), and at ProbCut's
/// share its rows, not ProbCut's, would fill the trace's verified cuts.
pub const VERIFY_OTHERS: f64 = 0.002;

/// What every step of a run shares: where its files go, its threads and its seed.
pub struct Builder<'a> {
    /// The run's directory.
    pub layout: &'a Layout,
    /// `--threads` (`--concurrency` of a match).
    pub threads: String,
    /// `--seed`.
    pub seed: String,
}

impl Builder<'_> {
    /// A match of two engines (the `--engine` words of each, `name=` among them) with
    /// `rule` (the effort per move and the games: `--nodes 5000 --looks 200,400`, or
    /// `--tc 2+0.02 --games 64`), its games in `FILE.csv` and `FILE.pgn` (`FILE` in the run's
    /// directory, without extension). A match stopped by looks or an SPRT plays in one
    /// process, since its rule reads every game in order; any other shards by game pairs.
    #[must_use]
    pub fn game_match(
        &self,
        name: impl Into<String>,
        engines: [&[String]; 2],
        rule: &[String],
        file: &str,
    ) -> Step {
        let mut step = Step::new(name, &["match"]);
        for words in engines {
            step = step.arg("--engine");
            step.args.extend(words.iter().cloned());
        }
        step.args.extend(rule.iter().cloned());
        let sequential = rule.iter().any(|a| a == "--looks" || a == "--sprt");
        step.args(&["--concurrency", &self.threads])
            .args(&["--order", "random", "--seed", &self.seed])
            .args(&["--out", &self.layout.path(&format!("{file}.csv"))])
            .args(&["--pgn", &self.layout.path(&format!("{file}.pgn"))])
            .sharding(if sequential {
                Sharding::Whole
            } else {
                Sharding::OutFile
            })
            .rerun(Rerun::Resume)
    }

    /// A trace of `variant`'s cut tests at fixed `depth` on `suite`, the cuts of each method
    /// verified at `rates` (`--verify-cuts`), into `FILE` (a CSV in the run's directory).
    #[must_use]
    pub fn trace(
        &self,
        name: impl Into<String>,
        [suite, variant]: [&str; 2],
        depth: &str,
        rates: &str,
        file: &str,
    ) -> Step {
        Step::new(name, &["trace", "--suite", suite, "--variant", variant])
            .args(&["--depth", depth, "--only-cut-tests", "--verify-cuts", rates])
            .args(&["--seed", &self.seed, "--out", &self.layout.path(file)])
            .sharding(Sharding::OutFile)
            .rerun(Rerun::Force)
    }

    /// Searches of every one of `variants` (comma-separated) on every position of `suite`
    /// into `FILE` (a CSV in the run's directory); the caller adds the limit (`--depth`,
    /// `--time-ms`).
    #[must_use]
    pub fn depth(&self, name: impl Into<String>, [suite, variants]: [&str; 2], file: &str) -> Step {
        Step::new(name, &["depth", "--suite", suite, "--variants", variants])
            .args(&["--threads", &self.threads, "--out", &self.layout.path(file)])
            .sharding(Sharding::OutFile)
            .rerun(Rerun::Resume)
    }

    /// The regret of every one of `variants` against `oracle` (an [`oracle_spec`]) on every
    /// position of `suite`, into `FILE`; the caller adds the limit (`--time-ms`, `--nodes`).
    #[must_use]
    pub fn oracle(
        &self,
        name: impl Into<String>,
        [suite, variants, oracle]: [&str; 3],
        file: &str,
    ) -> Step {
        Step::new(name, &["oracle", "--suite", suite, "--variants", variants])
            .args(&["--oracle", oracle, "--out", &self.layout.path(file)])
            .sharding(Sharding::OutFile)
            .rerun(Rerun::Resume)
    }
}

/// The oracle of a regret comparison: the external engine at `engine_depth` when there is one
/// (`uci:COMMAND,depth=D`), else our own full-width search at `internal_depth`.
#[must_use]
pub fn oracle_spec(
    engine: Option<&str>,
    engine_depth: impl std::fmt::Display,
    internal_depth: impl std::fmt::Display,
) -> String {
    match engine {
        Some(command) => format!("uci:{command},depth={engine_depth}"),
        None => format!("internal:depth={internal_depth}"),
    }
}
