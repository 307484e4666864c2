//! `cutlab ablate`: what each forward-pruning method buys and costs, both ways. Three kinds
//! of comparison, each a variant against its reference:
//! - `without`: the stack without one of its methods, against the stack (leave one out);
//! - `with`: the baseline with one method (a stack's or an extra), against the baseline;
//! - `added`: the stack with one extra method (the seeds' methods), against the stack: does
//!   it still pay on top of a current engine's stack?
//!
//! Each comparison is measured on the same positions and openings: Elo from a match at a fixed
//! number of nodes per move (at each effort; the higher efforts play the `without` and `added`
//! comparisons), stopped by a rule that holds under repeated looks ([`Looks`]); tree size at
//! fixed depth; the method's false-cut rate and share of cuts; depth at fixed time and oracle
//! regret (the per-node cost that fixed-node games do not see). The steps are ordinary
//! `cutlab` commands (logs in `logs/`), resumable, and their shards (`--shard K/N`) fill one
//! directory; `report.md` and `ablate.csv` hold one row per comparison and effort, and
//! `forest-*.svg` the Elo differences with their intervals.
//!
//! [`Looks`]: cutlab_analysis::elo::Looks

mod ablate_csv;
mod budget;
pub mod comparison;
mod effort;
mod equal_time;
mod notes;
mod plan;
mod played;
mod report;
mod row;
mod rule;
mod searched;

use std::path::PathBuf;

pub use ablate_csv::CsvRow;
pub use comparison::{Comparison, Direction, MatchKey, Only, Reference, plays};
use comparison::{comparisons, join};
pub use effort::{stated_reading, worth};
pub use row::AblationRow;

use clap::Args;
use serde::{Deserialize, Serialize};

use plan::{Planned, Settings, cost, searches_left, time_ms, timed_hours};

use crate::common::{
    durations,
    pipeline::{
        Layout, Step, finished_steps,
        study::{self, Context, Header, Sample, Study, StudyKind, StudyOptions},
    },
    speed,
};

/// The "method" of the `doubled` comparison.
const DOUBLED: &str = "twice-the-nodes";

/// The seeds' methods, the default `--extras`: Jiang and Buro's ProbCut and MPC, the
/// Multi-Cut family, the null-move rules, probabilistic alpha-beta.
const SEED_METHODS: &str = "probcut,mpc,multicut,multicut-all,multicut-tt,null-move,\
                            null-move-r3,null-move-adaptive,null-move-verified,prob-ab";

/// Options of `cutlab ablate`.
#[derive(Args, Debug, Serialize)]
pub struct AblateArgs {
    /// The stack whose methods are measured: a preset (e.g. `modern`) or parts joined by `+`.
    #[arg(long, default_value = "modern")]
    stack: String,
    /// The stack's methods (preset parts) to measure, comma-separated (default: every part of
    /// the stack).
    #[arg(long, value_delimiter = ',')]
    methods: Vec<String>,
    /// Methods outside the stack to add to it and to the baseline, comma-separated (`none` for
    /// none).
    #[arg(long, value_delimiter = ',', default_value = SEED_METHODS)]
    extras: Vec<String>,
    /// The kinds of comparison, comma-separated: `without` (each method left out of the
    /// stack), `with` (added to the baseline), `added` (each extra added to the stack),
    /// `doubled` (the stack at twice the nodes per move against itself: a doubling's Elo).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "without,with,added"
    )]
    directions: Vec<Direction>,
    /// The baseline each method is added to.
    #[arg(long, default_value = "null-move+lmr")]
    baseline: String,
    /// Match openings: EPD/FEN or PGN (default: the built-in openings).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Draw adjudication of every match (`cutlab match --draw`), e.g. fishtest's
    /// `movenumber=34,movecount=8,score=20`.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication of every match (`cutlab match --resign`), e.g. fishtest's
    /// `movecount=3,score=600`.
    #[arg(long)]
    resign: Option<String>,
    /// The oracle of the regret comparison, a UCI engine: a command, `auto` (stockfish on PATH
    /// or /usr/games/stockfish), or `none` (our own full-width search).
    #[arg(long, default_value = "auto", value_parser = crate::common::engine_process::engine_spec)]
    engine: String,
    /// A quick scale; without it, the decisive one.
    #[arg(long, help = format!("A quick scale, {}, wide intervals. Without it, the decisive scale: 64 \
        matches at 5,000 and 20,000 nodes per move, each 200 to 3,200 games by its stopping \
        rule, {} (depth and regret, on an otherwise idle machine) beside the oracle's and the \
        fixed-depth ones; the run prints its estimate first and resumes where it stopped.",
        durations::ABLATE_QUICK, durations::ABLATE_DECISIVE))]
    quick: bool,
    /// Time per search of the depth and regret comparisons, milliseconds.
    #[arg(long, value_parser = crate::common::options::milliseconds)]
    time_ms: Option<u64>,
    /// Depth of the tree-size searches and the traces.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// The efforts of the matches, nodes per move, comma-separated, lowest first (the first
    /// plays every comparison, the others all but `with`; see --only).
    #[arg(long, value_delimiter = ',',
          value_parser = crate::common::options::count_up_to::<u64>(1 << 40))]
    nodes: Vec<u64>,
    /// An effort that plays only some comparisons, `NODES=NAME,...` with the names of the
    /// match files (`320000=without-lmp,doubled-twice-the-nodes`), once per effort: a rung
    /// of the ladder for a few methods. Each must be played at every effort below. A resumed
    /// run keeps its own, may widen it (naming every comparison it played there, and more)
    /// and may add one for an effort it adds to --nodes.
    #[arg(long, value_name = "NODES=NAMES")]
    only: Vec<Only>,
    /// The game counts at which each match is looked at (`cutlab match --looks`).
    #[arg(long, value_delimiter = ',',
          value_parser = crate::common::options::count_up_to::<u64>(2_000_000))]
    looks: Vec<u64>,
    /// The half-width (Elo) at which a look stops a match not decided (its verdict is still its
    /// interval's: equivalent only when the whole interval lies inside ±this bound).
    #[arg(long)]
    stop_within: Option<f64>,
    /// Directory for the report, the CSVs, the figures and the logs.
    #[arg(long, default_value = "ablate")]
    out: PathBuf,
    /// Positions, parallelism, resumption and where the steps run.
    #[command(flatten)]
    #[serde(flatten)]
    study: StudyOptions,
}

/// The size of a run.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// `quick` or `decisive`, and its positions.
    sample: Sample,
    time_ms: u64,
    depth: i32,
    /// Nodes per move of the matches, one effort each.
    nodes: &'static [u64],
    /// Game counts of the looks at each match.
    looks: &'static [u64],
    /// Half-width at which a look stops a match, Elo.
    stop_within: f64,
    verify_rate: f64,
    /// Depth of the internal oracle.
    oracle_depth: i32,
    /// Depth of an external engine's oracle (Stockfish's depth, as in `reproduce`).
    engine_oracle_depth: i32,
}

impl Scale {
    const QUICK: Scale = Scale {
        sample: Sample {
            name: "quick",
            positions: 24,
            oracle_positions: 12,
            trace_positions: 4,
        },
        time_ms: 200,
        depth: 7,
        nodes: &[5_000],
        looks: &[40],
        stop_within: 15.0,
        verify_rate: 0.1,
        oracle_depth: 5,
        engine_oracle_depth: 12,
    };
    /// Sized for decisions: matches at 5,000 and 20,000 nodes per move (depth about 7 and 9
    /// in a middlegame; 5,000 is also the effort of the network's studies), looked at after
    /// 200, 400, 800, 1600 and 3200 games (99% intervals): a difference of 100 Elo stops at
    /// 200 games, and at 3,200 games the interval is within ±15 Elo (±13.4 at a leave-one-out
    /// match at 10,000 nodes, draw ratio 27%; at 2,400 it was ±15.5).
    const DECISIVE: Scale = Scale {
        sample: Sample {
            name: "decisive",
            positions: 400,
            oracle_positions: 100,
            trace_positions: 20,
        },
        time_ms: 1000,
        depth: 9,
        nodes: &[5_000, 20_000],
        looks: &[200, 400, 800, 1600, 3200],
        stop_within: 15.0,
        verify_rate: 0.05,
        oracle_depth: 7,
        engine_oracle_depth: 16,
    };
}

/// A list of numbers as an option takes it.
fn list(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// What the run is, written to `manifest.toml` as it goes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// What every study's manifest holds.
    #[serde(flatten)]
    pub header: Header,
    /// The stack, spelled out.
    pub stack: String,
    /// The baseline, spelled out.
    pub baseline: String,
    /// The comparisons.
    pub comparisons: Vec<Comparison>,
    /// Nodes per move of the matches, one effort each (the first plays every comparison).
    pub nodes: Vec<u64>,
    /// Efforts that play only some comparisons (absent: every effort plays all its
    /// directions').
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only: Vec<Only>,
    /// Game counts of the looks at each match.
    pub looks: Vec<u64>,
    /// Half-width at which a look stops a match, Elo.
    pub stop_within: f64,
    /// The matches' openings file (absent: the built-in openings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// The matches' draw adjudication, as `cutlab match --draw` takes it (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
    /// The matches' resign adjudication, as `cutlab match --resign` takes it (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<String>,
}

impl AsMut<Header> for Manifest {
    fn as_mut(&mut self) -> &mut Header {
        &mut self.header
    }
}

/// Writes the report of a run from its files (`cutlab report`); returns the terminal summary.
///
/// # Errors
/// An unreadable result file, or a file that cannot be written.
pub fn write_report(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    report::write(layout, manifest)
}

impl Study for AblateArgs {
    type Manifest = Manifest;
    const KIND: StudyKind = StudyKind::Ablate;
    const REPORT: fn(&Layout, &Manifest) -> Result<String, String> = report::write;

    fn check_options(&self) -> Result<(), String> {
        comparisons(self)?;
        crate::common::adjudication::Adjudication::parse(
            self.draw.as_deref(),
            self.resign.as_deref(),
            None,
        )?;
        if let Some(path) = &self.openings {
            cutlab_suites::load(path, false).map_err(|e| format!("--openings: {e}"))?;
        }
        Settings::new(self, &self.scale(), None).map(|_| ())
    }

    fn plan(&self, manifest: &mut Manifest, context: &Context) -> Result<Vec<Step>, String> {
        let (args, scale, layout) = (self, &self.scale(), context.layout);
        let (stack, baseline, comparisons) = comparisons(args)?;
        let (stack, baseline) = (join(&stack), join(&baseline));
        let settings = Settings::new(args, scale, context.resumed.then_some(&*manifest))?;
        let folders: Vec<String> = std::iter::once("traces".to_string())
            .chain(settings.nodes.iter().map(|n| format!("matches/{n}")))
            .collect();
        layout.create_folders(&folders)?;
        manifest.stack.clone_from(&stack);
        manifest.baseline.clone_from(&baseline);
        manifest.comparisons.clone_from(&comparisons);
        manifest.nodes.clone_from(&settings.nodes);
        manifest.only.clone_from(&settings.only);
        manifest.looks.clone_from(&settings.looks);
        manifest.stop_within = settings.stop_within;
        manifest.openings = args.openings.as_ref().map(|p| p.display().to_string());
        manifest.draw.clone_from(&args.draw);
        manifest.resign.clone_from(&args.resign);
        let time_ms = time_ms(args, scale, context.factor);
        let planned = Planned {
            args,
            scale,
            settings: &settings,
            time_ms: time_ms.to_string(),
            stack: &stack,
            baseline: &baseline,
        };
        let steps = planned.steps(layout, &comparisons);
        let header = &manifest.header;
        let nps = header.speed_nps.unwrap_or(speed::REFERENCE_NPS);
        let threads = args.study.threads;
        // A resumed run: what is left, its steps finished as the runner counts them.
        let done = finished_steps(layout, &steps);
        let matches: Vec<budget::Match> = steps
            .iter()
            .filter_map(|s| budget::Match::planned(s, &done))
            .collect();
        let search_hours = timed_hours(
            &comparisons,
            [
                header.positions,
                scale.sample.oracle_positions.min(header.positions),
            ],
            time_ms,
            threads,
        );
        eprintln!(
            "ablate: {} comparisons; {}; {}",
            comparisons.len(),
            budget::left(manifest, &matches).unwrap_or_else(|| cost(
                &settings,
                &comparisons,
                threads,
                nps
            )),
            searches_left(&steps, &done, search_hours, time_ms)
        );
        Ok(steps)
    }
}

impl AblateArgs {
    /// The run's scale: `--quick`, else the decisive one.
    fn scale(&self) -> Scale {
        if self.quick {
            Scale::QUICK
        } else {
            Scale::DECISIVE
        }
    }
}

/// Runs `cutlab ablate`.
///
/// # Errors
/// A bad option, an unknown method, an existing run without `--resume`, or a failing step.
pub fn run(args: &AblateArgs) -> Result<(), String> {
    study::run(args, &args.scale().sample, &args.study, &args.out)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use plan::Settings;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: AblateArgs,
    }

    /// Under a network, the methods are measured, not the evaluation, and the baseline
    /// evaluates with the same network.
    #[test]
    fn a_stack_with_a_network_measures_its_methods_under_it() {
        let net = cutlab_search::nnue::Network::random(1);
        let path = std::env::temp_dir().join(format!("cutlab-ablate-{}.nnue", std::process::id()));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let nnue = format!("nnue@{}", path.display());
        let stack = format!("null-move+lmr+rfp+{nnue}");
        let cli = Cli::try_parse_from(["ablate", "--stack", &stack, "--extras", "none"]).unwrap();
        let (_, baseline, comparisons) = comparisons(&cli.args).unwrap();
        assert_eq!(baseline, ["null-move", "lmr", nnue.as_str()]);
        let measured: Vec<(&str, &str)> = comparisons
            .iter()
            .map(|c| (c.direction.name(), c.method.as_str()))
            .collect();
        assert_eq!(
            measured,
            [
                ("without", "null-move"),
                ("without", "lmr"),
                ("without", "rfp"),
                ("with", "rfp")
            ]
        );
        assert!(
            comparisons.iter().all(|c| c.variant.contains(&nnue)),
            "{comparisons:?}"
        );
        std::fs::remove_file(&path).ok();
    }

    /// The timed searches' estimate counts the depth comparison's searches over the threads
    /// and the regret comparison's one at a time: three comparisons and the two references on
    /// 400 and 100 positions at 1 s, 2 threads, are 400 × 5 / 2 + 100 × 5 = 1,500 s.
    #[test]
    fn the_timed_searches_cost_what_their_steps_search() {
        let argv = ["ablate", "--stack", "null-move+lmr+rfp", "--extras", "none"];
        let cli = Cli::try_parse_from(argv).unwrap();
        let made: Vec<Comparison> = comparisons(&cli.args)
            .unwrap()
            .2
            .into_iter()
            .take(3)
            .collect();
        let hours = timed_hours(&made, [400, 100], 1000, 2);
        assert!((hours - 1500.0 / 3600.0).abs() < 1e-9, "{hours}");
    }

    /// `--directions without` makes the leave-one-out comparisons alone.
    #[test]
    fn directions_choose_the_comparisons() {
        let parse = |extra: &[&str]| {
            let mut argv = vec!["ablate", "--stack", "null-move+lmr+rfp"];
            argv.extend_from_slice(extra);
            Cli::try_parse_from(argv)
        };
        let cli = parse(&["--directions", "without", "--extras", "probcut"]).unwrap();
        let (_, _, made) = comparisons(&cli.args).unwrap();
        let measured: Vec<String> = made.iter().map(Comparison::name).collect();
        assert_eq!(
            measured,
            ["without-null-move", "without-lmr", "without-rfp"]
        );
        let cli = parse(&["--directions", "added,with", "--extras", "probcut"]).unwrap();
        let (_, _, made) = comparisons(&cli.args).unwrap();
        let measured: Vec<String> = made.iter().map(Comparison::name).collect();
        assert_eq!(measured, ["with-rfp", "added-probcut", "with-probcut"]);
        assert!(parse(&["--directions", "sideways"]).is_err());
        let cli = parse(&["--directions", "added", "--extras", "none"]).unwrap();
        assert!(comparisons(&cli.args).is_err());
        let cli = parse(&["--directions", "with,with"]).unwrap();
        assert!(comparisons(&cli.args).is_err());
        // The stack against itself at twice the nodes: one comparison, the stack its variant.
        let cli = parse(&["--directions", "doubled", "--extras", "none"]).unwrap();
        let (_, _, made) = comparisons(&cli.args).unwrap();
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].name(), "doubled-twice-the-nodes");
        assert_eq!(made[0].variant, "null-move+lmr+rfp");
        assert!(!made[0].searches_a_tree());
    }

    /// `--only` plays a few comparisons at a higher effort: above the first, each named one a
    /// comparison played at every effort below; the plan's matches there are those alone. A
    /// resume may add an effort above its last with its own `--only`, or widen the run's, and
    /// keeps the run's efforts, looks and `--only` otherwise.
    #[test]
    fn only_plays_a_few_comparisons_at_an_effort_and_a_resume_may_add_a_rung() {
        let parse = |extra: &[&str]| {
            let mut argv = vec![
                "ablate",
                "--stack",
                "null-move+lmr+rfp",
                "--extras",
                "probcut",
                "--directions",
                "without,with,added,doubled",
            ];
            argv.extend_from_slice(extra);
            Cli::try_parse_from(argv).map_err(|e| e.to_string())
        };
        let settings = |extra: &[&str], run: Option<&Manifest>| {
            let cli = parse(extra)?;
            Settings::new(&cli.args, &Scale::DECISIVE, run)
        };
        let rung = [
            "--nodes",
            "5000,20000",
            "--only",
            "20000=without-lmr,doubled-twice-the-nodes",
        ];
        let planned = settings(&rung, None).unwrap();
        assert_eq!(
            planned.only[0].comparisons,
            ["without-lmr", "doubled-twice-the-nodes"]
        );
        let (_, _, made) = comparisons(&parse(&rung).unwrap().args).unwrap();
        let at = |k: usize| -> Vec<String> {
            made.iter()
                .filter(|c| plays(c.direction, &c.name(), (k, planned.nodes[k]), &planned.only))
                .map(Comparison::name)
                .collect()
        };
        assert_eq!(at(0).len(), made.len());
        assert_eq!(at(1), ["without-lmr", "doubled-twice-the-nodes"]);
        for (bad, why) in [
            ("5000=without-lmr", "the first effort"),
            ("80000=without-lmr", "not one of --nodes"),
            ("20000=without-iir", "not a comparison"),
            ("20000=with-rfp", "not played at 20000"),
        ] {
            let e = settings(&["--nodes", "5000,20000", "--only", bad], None)
                .err()
                .unwrap();
            assert!(e.contains(why) && e.contains(bad), "{bad}: {e}");
        }
        assert!(parse(&["--only", "20000"]).is_err());
        assert!(parse(&["--only", "20000=a,a"]).is_err());
        // A run at 5,000 and 20,000 nodes adds a rung at 80,000 playing one comparison.
        let run = Manifest {
            nodes: vec![5000, 20000],
            looks: vec![800, 1600],
            stop_within: 15.0,
            ..Manifest::default()
        };
        let added = ["--nodes", "5000,20000,80000", "--only", "80000=without-rfp"];
        let resumed = settings(&added, Some(&run)).unwrap();
        assert_eq!(resumed.nodes, [5000, 20000, 80000]);
        assert_eq!(resumed.looks, [800, 1600]);
        let run = Manifest {
            nodes: resumed.nodes.clone(),
            only: resumed.only.clone(),
            ..run
        };
        assert_eq!(settings(&[], Some(&run)).unwrap().only, run.only);
        assert!(settings(&added, Some(&run)).is_ok());
        // The manifest keeps it: written and read back.
        let mut written = run.clone();
        written.header.steps = vec![crate::common::pipeline::StepRecord::finished("size-stack")];
        written.openings = Some("book.epd".into());
        let text = toml::to_string(&written).unwrap();
        let back: Manifest = toml::from_str(&text).unwrap();
        assert_eq!(back.only, run.only, "{text}");
        assert_eq!(back.openings, written.openings, "{text}");
        for refused in [
            &["--nodes", "5000,40000"][..],
            &["--looks", "800,1600,3200"],
            &["--only", "80000=without-lmr"],
            &["--only", "20000=without-rfp"],
            &["--only", "80000=without-rfp", "--only", "20000=without-rfp"],
        ] {
            let e = settings(refused, Some(&run)).err().unwrap();
            assert!(e.contains("the run was started with"), "{refused:?}: {e}");
        }
        // A rung widened on a resume: its own comparison still named, others added.
        let wider = [
            "--only",
            "80000=without-rfp,without-lmr,doubled-twice-the-nodes",
        ];
        let widened = settings(&wider, Some(&run)).unwrap();
        assert_eq!(
            widened.only[0].comparisons,
            ["without-rfp", "without-lmr", "doubled-twice-the-nodes"]
        );
    }
}
