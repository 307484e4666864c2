//! `cutlab replay`: an ablation's rows that its stopping rule decided early, each match played
//! again with another seed at a fixed number of games.
//!
//! A match stopped at an early look because its interval excluded 0 reads larger than its
//! true worth: among the matches a rule stops there, those that happened to run high stop
//! first (the ablation's report adjusts each such size for that, `sequential::stage_adjusted`).
//! A replay at a fixed size has no such selection, so its estimate is unbiased, and the two
//! side by side say how far the stop inflated the row. The replay plays the ablation's own
//! match command (`plan.toml`: the same engines, nodes, book and adjudication), with only its
//! rule (`--games N` instead of the looks), its seed (other openings in another order) and its
//! files changed; `--openings` can give it a held-out book. The source's rows are copied into
//! the replay's manifest as its report stated them, so the replay's report reads nothing else.

mod report;
mod trend;

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use cutlab_analysis::stats::Estimate;
use serde::{Deserialize, Serialize};

use super::ablate;
use crate::common::pipeline::{
    Layout, Step, load_plan,
    steps::Builder,
    study::{self, Context, Header, Sample, Study, StudyKind, StudyOptions, resumed_otherwise},
};

/// Options of `cutlab replay`.
#[derive(Args, Debug, Serialize)]
pub struct ReplayArgs {
    /// The ablation whose early-decided rows are played again: a run's directory (it reads its
    /// `manifest.toml`, `plan.toml` and `ablate.csv`) or a published study (`results/...`).
    #[arg(long)]
    of: PathBuf,
    /// Games of each replay, a fixed number (even: game pairs).
    #[arg(long, default_value_t = 800, value_parser = crate::common::options::count_up_to::<u64>(1_000_000))]
    games: u64,
    /// Which rows: those decided at their match's first look, or at any look before the last.
    #[arg(long, value_enum, default_value_t = Rows::FirstLook)]
    rows: Rows,
    /// Openings of the replays: EPD/FEN or PGN (default: the ablation's, in the order of this
    /// run's --seed), e.g. a book held out of the ablation's.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Directory of the replays' games, the report and `replays.csv`.
    #[arg(long, default_value = "replay")]
    out: PathBuf,
    /// The options every study takes (--seed must differ from the ablation's).
    #[command(flatten)]
    study: StudyOptions,
}

/// The rows a replay plays again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Rows {
    /// Decided at their match's first look.
    #[default]
    FirstLook,
    /// Decided at any look before their match's last.
    Early,
}

impl Rows {
    /// Whether a row stopped after `games` with `verdict` is replayed, under `looks`.
    fn takes(self, verdict: &str, games: u64, looks: &[u64]) -> bool {
        let before = match self {
            Rows::FirstLook => looks.first(),
            Rows::Early => looks.len().checked_sub(2).and_then(|k| looks.get(k)),
        };
        verdict == "decided" && before.is_some_and(|&last| games <= last)
    }
}

/// A row of the ablation as its report stated it: which comparison, the games its rule
/// stopped it at, its Elo with the rule's interval (none for a rout), its size adjusted for
/// that look and its verdict (`ablate.csv`'s word; absent from rows copied before it was kept).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SourceRow {
    pub direction: ablate::Direction,
    pub method: String,
    pub effort_nodes: u64,
    pub games: u64,
    pub elo: Option<Estimate>,
    pub adjusted_elo: Option<f64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub verdict: String,
}

impl SourceRow {
    fn of(row: &ablate::CsvRow) -> SourceRow {
        SourceRow {
            direction: row.direction,
            method: row.method.clone(),
            effort_nodes: row.effort_nodes,
            games: row.games as u64,
            elo: row
                .delta_elo
                .zip(row.delta_elo_low.zip(row.delta_elo_high))
                .map(|(value, (low, high))| Estimate { value, low, high }),
            adjusted_elo: row.delta_elo_adjusted,
            verdict: row.verdict.clone(),
        }
    }

    /// Whether `other` is a row of the same comparison.
    fn same_comparison(&self, other: &SourceRow) -> bool {
        (self.direction, &self.method) == (other.direction, &other.method)
    }

    /// The comparison's name in files and steps, e.g. `without-rfp` (the ablation's).
    fn name(&self) -> String {
        ablate::comparison::name(self.direction.name(), &self.method)
    }

    /// The name of the replay's step.
    fn step(&self) -> String {
        format!("replay-{}-{}", self.effort_nodes, self.name())
    }

    /// The match's games, relative to the run (the ablation's and the replay's alike).
    fn games_file(&self) -> String {
        ablate::MatchKey::new(self.effort_nodes, self.name()).games_file()
    }
}

/// The manifest of a replay (`manifest.toml`).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// What every study's manifest holds.
    #[serde(flatten)]
    pub header: Header,
    /// The ablation replayed, as `--of` gave it.
    pub of: String,
    /// The ablation's seed.
    pub source_seed: u64,
    /// The game counts of the ablation's looks.
    pub source_looks: Vec<u64>,
    /// The ablation's half-width bound, Elo.
    pub source_stop_within: f64,
    /// Games of each replay.
    pub games: u64,
    /// Which rows were taken.
    pub rows: Rows,
    /// The replays' openings, where not the ablation's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// The rows replayed, as the ablation stated them.
    pub replayed: Vec<SourceRow>,
    /// The ablation's efforts, nodes per move.
    #[serde(default)]
    pub source_efforts: Vec<u64>,
    /// The ablation's efforts that play only some comparisons (`ablate --only`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_only: Vec<ablate::Only>,
    /// Every row the ablation has stopped of each replayed comparison, at any effort, as it
    /// stated them when the replay was last planned: the trends read with the replays.
    #[serde(default)]
    pub compared: Vec<SourceRow>,
}

impl AsMut<Header> for Manifest {
    fn as_mut(&mut self) -> &mut Header {
        &mut self.header
    }
}

/// The ablation a replay reads: its manifest, its match commands and its rows.
struct Source {
    manifest: ablate::Manifest,
    plan: Vec<Step>,
    rows: Vec<ablate::CsvRow>,
}

impl Source {
    fn read(dir: &std::path::Path) -> Result<Source, String> {
        let layout = Layout {
            dir: dir.to_path_buf(),
        };
        let manifest = crate::common::pipeline::load_manifest(&layout, true)?.ok_or_else(|| {
            format!(
                "--of {}: no manifest.toml (an ablate run or study)",
                dir.display()
            )
        })?;
        let path = layout.file("ablate.csv");
        let mut reader =
            csv::Reader::from_path(&path).map_err(|e| format!("--of: {}: {e}", path.display()))?;
        let rows = reader
            .deserialize()
            .collect::<Result<Vec<ablate::CsvRow>, _>>()
            .map_err(|e| format!("--of: {}: {e}", path.display()))?;
        Ok(Source {
            manifest,
            plan: load_plan(&layout).map_err(|e| format!("--of: {e}"))?,
            rows,
        })
    }

    /// The ablation's match step of `row`.
    fn step_of(&self, row: &SourceRow) -> Result<&Step, String> {
        let name = ablate::MatchKey::new(row.effort_nodes, row.name()).step();
        self.plan
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("--of: its plan.toml has no step {name}"))
    }
}

/// The options of an ablation's match that a replay keeps: its effort and its games' rules.
const KEPT: [&str; 4] = ["--nodes", "--openings", "--draw", "--resign"];

/// A match command's two engines (the words after each `--engine`) and the options of
/// [`KEPT`] with their values.
fn engines_and_rule(args: &[String]) -> ([Vec<String>; 2], Vec<String>) {
    let (mut engines, mut rule) = (Vec::<Vec<String>>::new(), Vec::new());
    let mut words = args.iter().skip(1).peekable();
    while let Some(word) = words.next() {
        if word == "--engine" {
            let mut engine = Vec::new();
            while let Some(w) = words.next_if(|w| !w.starts_with("--")) {
                engine.push(w.clone());
            }
            engines.push(engine);
        } else if KEPT.contains(&word.as_str())
            && let Some(value) = words.next()
        {
            rule.extend([word.clone(), value.clone()]);
        }
    }
    let second = engines.pop().unwrap_or_default();
    let first = engines.pop().unwrap_or_default();
    ([first, second], rule)
}

impl ReplayArgs {
    /// A replay's scale: it plays games alone, from no positions of a suite.
    fn sample() -> Sample {
        Sample {
            name: "replay",
            positions: 0,
            oracle_positions: 0,
            trace_positions: 0,
        }
    }

    /// The replay of the ablation's match `step`: its engines and effort, this run's rule.
    fn replay_step(&self, build: &Builder, step: &Step, row: &SourceRow) -> Step {
        let ([first, second], mut rule) = engines_and_rule(&step.args);
        if let Some(openings) = &self.openings {
            match rule.iter().position(|w| w == "--openings") {
                Some(k) => rule[k + 1] = openings.display().to_string(),
                None => rule.extend(["--openings".into(), openings.display().to_string()]),
            }
        }
        rule.extend(["--games".into(), self.games.to_string()]);
        let file = row.games_file();
        build.game_match(
            row.step(),
            [&first, &second],
            &rule,
            file.trim_end_matches(".csv"),
        )
    }
}

impl Study for ReplayArgs {
    type Manifest = Manifest;
    const KIND: StudyKind = StudyKind::Replay;
    const POSITIONS: bool = false;
    const REPORT: fn(&Layout, &Manifest) -> Result<String, String> = report::write;

    fn deterministic(&self) -> bool {
        true
    }

    fn check_options(&self) -> Result<(), String> {
        if let Some(option) = [
            self.study.suite.suite.is_some().then_some("--suite"),
            self.study.positions.is_some().then_some("--positions"),
        ]
        .into_iter()
        .flatten()
        .next()
        {
            return Err(format!(
                "{option}: a replay plays games alone, from no positions (its openings are the \
                 ablation's, or --openings)"
            ));
        }
        if self.games % 2 == 1 {
            return Err(format!(
                "--games {}: an even number (game pairs)",
                self.games
            ));
        }
        if let Some(path) = &self.openings {
            cutlab_suites::load(path, false).map_err(|e| format!("--openings: {e}"))?;
        }
        let source = Source::read(&self.of)?;
        if source.manifest.header.seed == self.study.seed {
            return Err(format!(
                "--seed {}: the ablation's own seed plays its games again; give another",
                self.study.seed
            ));
        }
        Ok(())
    }

    fn plan(&self, manifest: &mut Manifest, context: &Context) -> Result<Vec<Step>, String> {
        let source = Source::read(&self.of)?;
        let looks = &source.manifest.looks;
        if context.resumed {
            let recorded = (manifest.games, manifest.rows);
            if recorded != (self.games, self.rows) {
                return Err(resumed_otherwise(
                    "--games/--rows",
                    &format!("{} {:?}", recorded.0, recorded.1),
                    &format!("{} {:?}", self.games, self.rows),
                ));
            }
        }
        // A resumed replay keeps the rows it took, and takes those the ablation has decided
        // since (a running ablation) after them.
        let taken: Vec<SourceRow> = source
            .rows
            .iter()
            .filter(|r| self.rows.takes(&r.verdict, r.games as u64, looks))
            .map(SourceRow::of)
            .filter(|r| {
                !manifest
                    .replayed
                    .iter()
                    .any(|m| m.same_comparison(r) && m.effort_nodes == r.effort_nodes)
            })
            .collect();
        manifest.replayed.extend(taken);
        manifest.compared = source
            .rows
            .iter()
            .map(SourceRow::of)
            .filter(|r| manifest.replayed.iter().any(|m| m.same_comparison(r)))
            .collect();
        manifest.source_efforts.clone_from(&source.manifest.nodes);
        manifest.source_only.clone_from(&source.manifest.only);
        manifest.of = self.of.display().to_string();
        manifest.source_seed = source.manifest.header.seed;
        manifest.source_looks.clone_from(looks);
        manifest.source_stop_within = source.manifest.stop_within;
        manifest.games = self.games;
        manifest.rows = self.rows;
        manifest.openings = self.openings.as_ref().map(|p| p.display().to_string());
        let efforts: std::collections::BTreeSet<u64> =
            manifest.replayed.iter().map(|r| r.effort_nodes).collect();
        let folders: Vec<String> = efforts.iter().map(|n| format!("matches/{n}")).collect();
        context.layout.create_folders(&folders)?;
        let build = Builder {
            layout: context.layout,
            threads: self.study.threads.to_string(),
            seed: self.study.seed.to_string(),
        };
        let steps = manifest
            .replayed
            .iter()
            .map(|row| Ok(self.replay_step(&build, source.step_of(row)?, row)))
            .collect::<Result<Vec<Step>, String>>()?;
        eprintln!(
            "replay: {} rows of {} decided {} played again, {} games each ({} games in all)",
            steps.len(),
            self.of.display(),
            match self.rows {
                Rows::FirstLook => "at their first look",
                Rows::Early => "before their last look",
            },
            self.games,
            self.games * steps.len() as u64
        );
        Ok(steps)
    }
}

/// Writes a replay's report again from its files (`cutlab report`).
///
/// # Errors
/// Unreadable games, or a file that cannot be written.
pub fn write_report(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    report::write(layout, manifest)
}

/// Runs `cutlab replay`.
///
/// # Errors
/// A bad option, an unreadable ablation, or a failing match (its log named).
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    study::run(args, &ReplayArgs::sample(), &args.study, &args.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match command splits into its two engines and the options a replay keeps; its rule,
    /// seed and files are dropped.
    #[test]
    fn a_match_command_keeps_its_engines_and_effort() {
        let args: Vec<String> = "match --engine variant=a name=x --engine variant=b name=y \
                                 --nodes 5000 --looks 800,1600 --stop-within 15 --openings o.epd \
                                 --draw movenumber=34 --concurrency 2 --seed 2003 --out m.csv"
            .split(' ')
            .map(String::from)
            .collect();
        let ([a, b], rule) = engines_and_rule(&args);
        assert_eq!(a, ["variant=a", "name=x"]);
        assert_eq!(b, ["variant=b", "name=y"]);
        assert_eq!(
            rule,
            [
                "--nodes",
                "5000",
                "--openings",
                "o.epd",
                "--draw",
                "movenumber=34"
            ]
        );
    }

    /// First-look rows are those decided at the first look's games or fewer; early ones before
    /// the last look; never a row the rule did not decide.
    #[test]
    fn the_rows_taken_are_those_decided_early() {
        let looks = [200, 400, 800];
        assert!(Rows::FirstLook.takes("decided", 200, &looks));
        assert!(!Rows::FirstLook.takes("decided", 400, &looks));
        assert!(Rows::Early.takes("decided", 400, &looks));
        assert!(!Rows::Early.takes("decided", 800, &looks));
        assert!(!Rows::FirstLook.takes("equivalent", 200, &looks));
        assert!(!Rows::Early.takes("decided", 200, &[200]));
    }
}
