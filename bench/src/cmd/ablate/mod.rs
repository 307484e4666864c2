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

mod report;

use std::path::PathBuf;

use clap::Args;
use cutlab_instrument::Method;
use cutlab_search::SearchConfig;
use serde::{Deserialize, Serialize};

use crate::common::{
    options::SuiteOptions,
    pipeline::{
        Layout, Step, StepRecord, check_finished_commands, environment, finished_steps, idle_wait,
        load_manifest, run_and_record, save_manifest, save_plan, step_record, write_position_files,
    },
    speed,
};

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
    /// stack), `with` (added to the baseline), `added` (each extra added to the stack).
    #[arg(long, value_delimiter = ',', default_value = "without,with,added",
          value_parser = ["without", "with", "added"])]
    directions: Vec<String>,
    /// The baseline each method is added to.
    #[arg(long, default_value = "null-move+lmr")]
    baseline: String,
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: SuiteOptions,
    /// Match openings: EPD/FEN or PGN (default: the built-in openings).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// The oracle of the regret comparison, a UCI engine: a command, `auto` (stockfish on PATH
    /// or /usr/games/stockfish), or `none` (our own full-width search).
    #[arg(long, default_value = "auto")]
    engine: String,
    /// About 20 minutes on 2 cores, wide intervals. Without it, the decisive scale: 64 matches
    /// at 5,000 and 20,000 nodes per move, each 200 to 3,200 games by its stopping rule, 3 to
    /// 44 hours on 2 cores at the reference speed (1.65 M nps), then about 3.7 hours of searches
    /// at fixed time (depth and regret, on an otherwise idle machine) beside the oracle's and
    /// the fixed-depth ones; the run prints its estimate first and resumes where it stopped.
    #[arg(long)]
    quick: bool,
    /// Positions sampled from the suite (default: the scale's).
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1_000_000))]
    positions: Option<usize>,
    /// Time per search of the depth and regret comparisons, milliseconds.
    #[arg(long, value_parser = crate::common::options::milliseconds)]
    time_ms: Option<u64>,
    /// Depth of the tree-size searches and the traces.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// The efforts of the matches, nodes per move, comma-separated, lowest first (the first
    /// plays every comparison, the others `without` and `added`).
    #[arg(long, value_delimiter = ',',
          value_parser = crate::common::options::count_up_to::<u64>(1 << 40))]
    nodes: Vec<u64>,
    /// The game counts at which each match is looked at (`cutlab match --looks`).
    #[arg(long, value_delimiter = ',',
          value_parser = crate::common::options::count_up_to::<u64>(2_000_000))]
    looks: Vec<u64>,
    /// The half-width (Elo) at which a look stops a match undecided but bounded.
    #[arg(long)]
    stop_within: Option<f64>,
    /// Multiply the scale's time limits (not a `--time-ms` you give) by this (default: the
    /// reference speed over this machine's, measured by a 2-second bench; a resumed run keeps
    /// its factor).
    #[arg(long)]
    time_factor: Option<f64>,
    /// Directory for the report, the CSVs, the figures and the logs.
    #[arg(long, default_value = "ablate")]
    out: PathBuf,
    /// Worker threads (searches and game pairs at once).
    #[arg(long, default_value_t = 2, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Seed of the position sample and the opening order.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
    /// Continue an interrupted run (or the other shards' work) in `--out`.
    #[arg(long)]
    resume: bool,
    /// Minutes a step that measures time (searches at fixed time, timed matches) waits for an
    /// idle machine (other processes below half a core busy) before it runs anyway; every
    /// step's record, and the report, say how busy others kept the machine.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    idle_wait: u64,
    /// Run the K-th of N shares of the steps (K from 1); the run whose steps are all done
    /// writes the report.
    #[arg(long)]
    shard: Option<crate::common::shard::Shard>,
}

/// The size of a run.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// `quick` or `decisive`.
    pub name: &'static str,
    positions: usize,
    oracle_positions: usize,
    trace_positions: usize,
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
        name: "quick",
        positions: 24,
        oracle_positions: 12,
        trace_positions: 4,
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
        name: "decisive",
        positions: 400,
        oracle_positions: 100,
        trace_positions: 20,
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

/// One comparison: a variant against its reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// `without` (the stack without the method), `with` (the baseline with it) or `added`
    /// (the stack with an extra method).
    pub direction: String,
    /// The method (preset part).
    pub method: String,
    /// The variant measured.
    pub variant: String,
}

impl Comparison {
    /// The method whose cut events the comparison reads (every null-move form cuts as
    /// `null-move`).
    #[must_use]
    pub fn traced_method(&self) -> &str {
        if self.method.starts_with("null-move") {
            "null-move"
        } else {
            &self.method
        }
    }

    /// `stack` or `baseline`: what the variant is measured against.
    #[must_use]
    pub fn reference(&self) -> &'static str {
        if self.direction == "with" {
            "baseline"
        } else {
            "stack"
        }
    }

    /// The comparison's name in files and steps, e.g. `without-rfp`.
    #[must_use]
    pub fn name(&self) -> String {
        format!("{}-{}", self.direction, self.method)
    }
}

/// The refusal of a resume whose `option` asks for another run than the one on disk.
fn resumed_otherwise(option: &str, recorded: &str, given: &str) -> String {
    format!(
        "the run was started with {option} {recorded}, and this resume gives {option} {given}: \
         resume with the run's value (or leave {option} out), or start a new run with another \
         --out"
    )
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
    /// `quick` or `decisive`.
    pub scale: String,
    /// The stack, spelled out.
    pub stack: String,
    /// The baseline, spelled out.
    pub baseline: String,
    /// The comparisons.
    pub comparisons: Vec<Comparison>,
    /// Nodes per move of the matches, one effort each (the first plays every comparison).
    pub nodes: Vec<u64>,
    /// Game counts of the looks at each match.
    pub looks: Vec<u64>,
    /// Half-width at which a look stops a match, Elo.
    pub stop_within: f64,
    /// Positions.
    pub positions: usize,
    /// Seed.
    pub seed: u64,
    /// Versions and machine.
    pub environment: Vec<(String, String)>,
    /// This machine's bench speed, nodes per second (when measured).
    #[serde(default)]
    pub speed_nps: Option<u64>,
    /// Factor of the scale's time limits.
    #[serde(default = "one")]
    pub time_factor: f64,
    /// Finished steps.
    pub steps: Vec<StepRecord>,
}

impl Manifest {
    /// Whether comparison `c` is played at effort `k` (from 0): all at the first, the
    /// `without` and `added` ones at the others.
    #[must_use]
    pub fn played_at(c: &Comparison, k: usize) -> bool {
        k == 0 || c.direction != "with"
    }
}

/// The games file of comparison `c` at `nodes` per move, in the run's directory.
#[must_use]
pub fn games_file(c: &Comparison, nodes: u64) -> String {
    format!("matches/{nodes}/{}.csv", c.name())
}

/// A time factor of 1 (runs recorded before time factors).
const fn one() -> f64 {
    1.0
}

/// Joins preset parts into a variant name.
fn join(parts: &[String]) -> String {
    parts.join("+")
}

/// Whether two parts are of one family (one null-move rule at a time).
fn same_family(a: &str, b: &str) -> bool {
    a == b || (a.starts_with("null-move") && b.starts_with("null-move"))
}

/// Whether a part is the evaluation (`nnue`, `nnue@FILE`), not a forward-pruning method: it is
/// not measured unless named in `--methods`, and the baseline takes the stack's.
fn is_evaluation(part: &str) -> bool {
    part == "nnue" || part.starts_with("nnue@")
}

/// `parts` with `method` in place of its family's part (added when none is there).
fn with_method(parts: &[String], method: &str) -> String {
    let mut out: Vec<String> = parts
        .iter()
        .filter(|p| !same_family(p, method))
        .cloned()
        .collect();
    out.push(method.to_string());
    join(&out)
}

/// Canonical names of a comma-separated method list (`none` alone: no methods).
fn method_names(names: &[String], option: &str) -> Result<Vec<String>, String> {
    if names.len() == 1 && names[0].trim() == "none" {
        return Ok(Vec::new());
    }
    let names: Vec<String> = names
        .iter()
        .map(|m| SearchConfig::canonical_name(m.trim()))
        .collect();
    crate::common::options::no_repeats(option, &names)?;
    Ok(names)
}

/// The stack's parts, the baseline's parts, and the comparisons.
type Plan = (Vec<String>, Vec<String>, Vec<Comparison>);

/// The comparisons: each method of the stack left out of it and added to the baseline (where
/// the baseline lacks it), each extra added to the stack and to the baseline.
fn comparisons(args: &AblateArgs) -> Result<Plan, String> {
    let stack = SearchConfig::parts(&args.stack).map_err(|e| format!("--stack: {e}"))?;
    let mut baseline =
        SearchConfig::parts(&args.baseline).map_err(|e| format!("--baseline: {e}"))?;
    // Everything is measured under the stack's evaluation: the baseline takes it too.
    if !baseline.iter().any(|p| is_evaluation(p)) {
        baseline.extend(stack.iter().filter(|p| is_evaluation(p)).cloned());
    }
    let methods = if args.methods.is_empty() {
        stack
            .iter()
            .filter(|p| !is_evaluation(p))
            .cloned()
            .collect()
    } else {
        method_names(&args.methods, "--methods")?
    };
    let extras = method_names(&args.extras, "--extras")?;
    crate::common::options::no_repeats("--directions", &args.directions)?;
    let mut out = Vec::new();
    let mut push = |direction: &str, method: &str, variant: String| -> Result<(), String> {
        SearchConfig::preset(&variant).map_err(|e| format!("method '{method}': {e}"))?;
        if !args.directions.iter().any(|d| d == direction) {
            return Ok(());
        }
        out.push(Comparison {
            direction: direction.to_string(),
            method: method.to_string(),
            variant,
        });
        Ok(())
    };
    for m in &methods {
        if !stack.contains(m) {
            return Err(format!("--methods: '{m}' is not a part of the stack"));
        }
        let without: Vec<String> = stack.iter().filter(|p| *p != m).cloned().collect();
        push("without", m, join(&without))?;
        if !baseline.contains(m) {
            push("with", m, with_method(&baseline, m))?;
        }
    }
    for x in &extras {
        if stack.contains(x) {
            return Err(format!(
                "--extras: '{x}' is a part of the stack (give it in --methods)"
            ));
        }
        push("added", x, with_method(&stack, x))?;
        if !baseline.contains(x) {
            push("with", x, with_method(&baseline, x))?;
        }
    }
    if out.is_empty() {
        return Err(
            "no comparisons to make (--methods, --extras and --directions leave none)".into(),
        );
    }
    Ok((stack, baseline, out))
}

/// The settings of a run: the scale's, with the options given in their place.
struct Settings {
    depth: String,
    nodes: Vec<u64>,
    looks: Vec<u64>,
    stop_within: f64,
}

impl Settings {
    /// The settings, checked before anything runs. A resumed run (`run`: its manifest) keeps
    /// its efforts, looks and bound where they are left out, and refuses others: its matches
    /// were played under them, and a match under others would be mixed in or left unreported.
    fn new(args: &AblateArgs, scale: &Scale, run: Option<&Manifest>) -> Result<Settings, String> {
        let pick = |option: &str, given: &[u64], recorded: Option<&[u64]>, default: &[u64]| match (
            given, recorded,
        ) {
            ([], Some(r)) => Ok(r.to_vec()),
            ([], None) => Ok(default.to_vec()),
            (g, Some(r)) if g != r => Err(resumed_otherwise(option, &list(r), &list(g))),
            (g, _) => Ok(g.to_vec()),
        };
        let stop_within = match (args.stop_within, run.map(|m| m.stop_within)) {
            (Some(given), Some(r)) if (given - r).abs() > f64::EPSILON => {
                return Err(resumed_otherwise(
                    "--stop-within",
                    &r.to_string(),
                    &given.to_string(),
                ));
            }
            (given, r) => given.or(r).unwrap_or(scale.stop_within),
        };
        let settings = Settings {
            depth: args.depth.unwrap_or(scale.depth).to_string(),
            nodes: pick(
                "--nodes",
                &args.nodes,
                run.map(|m| &m.nodes[..]),
                scale.nodes,
            )?,
            looks: pick(
                "--looks",
                &args.looks,
                run.map(|m| &m.looks[..]),
                scale.looks,
            )?,
            stop_within,
        };
        crate::common::options::no_repeats("--nodes", &settings.nodes)?;
        if settings.nodes.windows(2).any(|w| w[0] >= w[1]) {
            return Err("--nodes: give the efforts lowest first".into());
        }
        // The match's own rule checks the looks and the bound before any step runs.
        cutlab_analysis::elo::Looks::new(settings.looks.clone(), settings.stop_within)?;
        Ok(settings)
    }
}

/// Time per search of the depth and regret comparisons: `--time-ms`, else the scale's times
/// `factor`.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "milliseconds"
)]
fn time_ms(args: &AblateArgs, scale: &Scale, factor: f64) -> u64 {
    args.time_ms
        .unwrap_or_else(|| (scale.time_ms as f64 * factor).round().max(1.0) as u64)
}

/// The steps of a run, in order: the matches first (fixed nodes: any load on the machine
/// leaves them unchanged), then the searches at fixed depth, then those at fixed time (the
/// scale's time multiplied by `factor`).
fn plan(
    args: &AblateArgs,
    (scale, settings, factor): (&Scale, &Settings, f64),
    layout: &Layout,
    (stack, baseline): (&str, &str),
    comparisons: &[Comparison],
) -> Vec<Step> {
    let threads = args.threads.to_string();
    let time_ms = time_ms(args, scale, factor).to_string();
    let reference_of = |c: &Comparison| {
        if c.reference() == "stack" {
            stack
        } else {
            baseline
        }
    };
    let mut steps = Vec::new();
    // Elo: each variant against its reference, at each effort.
    let looks: Vec<String> = settings.looks.iter().map(u64::to_string).collect();
    let looks = looks.join(",");
    for (k, nodes) in settings.nodes.iter().enumerate() {
        for c in comparisons.iter().filter(|c| Manifest::played_at(c, k)) {
            let file = games_file(c, *nodes);
            let mut step = Step::new(format!("match-{nodes}-{}", c.name()), &["match"])
                .arg("--engine")
                .arg(format!("variant={}", c.variant))
                .arg(format!("name={}", c.name()))
                .arg("--engine")
                .arg(format!("variant={}", reference_of(c)))
                .arg(format!("name={}", c.reference()))
                .args(&["--nodes", &nodes.to_string(), "--looks", &looks])
                .args(&["--stop-within", &settings.stop_within.to_string()])
                .args(&["--concurrency", &threads])
                .args(&["--order", "random", "--seed", &args.seed.to_string()]);
            if let Some(openings) = &args.openings {
                step = step.arg("--openings").arg(openings.display().to_string());
            }
            steps.push(
                step.arg("--pgn")
                    .arg(layout.path(&file.replace(".csv", ".pgn")))
                    .arg("--out")
                    .arg(layout.path(&file)),
            );
        }
    }
    let positions = layout.path("positions.epd");
    let lists: Vec<(&str, String)> = [("stack", stack), ("baseline", baseline)]
        .into_iter()
        .map(|(name, reference)| {
            let variants: Vec<&str> = std::iter::once(reference)
                .chain(
                    comparisons
                        .iter()
                        .filter(|c| c.reference() == name)
                        .map(|c| c.variant.as_str()),
                )
                .collect();
            (name, variants.join(","))
        })
        .collect();
    for (name, list) in &lists {
        steps.push(
            Step::new(format!("size-{name}"), &["depth"])
                .args(&["--suite", &positions, "--variants", list])
                .args(&["--threads", &threads, "--depth", &settings.depth, "--out"])
                .arg(layout.path(&format!("size-{name}.csv"))),
        );
    }
    // False cuts and shares of cuts: the stack (every method of it verified at the scale's
    // share, quiescence futility at the trace's share of others), and every variant that adds
    // a method (that method at the scale's share, the baseline's at the share of others).
    let rate = scale.verify_rate;
    let others = crate::cmd::trace::VERIFY_OTHERS;
    let traced = std::iter::once((
        "stack".to_string(),
        stack.to_string(),
        format!("{rate},qsearch-futility={others}"),
    ))
    .chain(
        comparisons
            .iter()
            .filter(|c| c.direction != "without")
            .map(|c| {
                let rates = match Method::from_name(c.traced_method()) {
                    Some(m) => format!("{others},{}={rate}", m.name()),
                    None => rate.to_string(),
                };
                (c.name(), c.variant.clone(), rates)
            }),
    );
    for (name, variant, rates) in traced {
        steps.push(
            Step::new(format!("trace-{name}"), &["trace"])
                .args(&["--suite", &layout.path("trace-positions.epd")])
                .args(&["--variant", &variant, "--depth", &settings.depth])
                .args(&["--only-cut-tests", "--verify-cuts", &rates])
                .args(&["--seed", &args.seed.to_string(), "--out"])
                .arg(layout.path(&format!("traces/{name}.csv"))),
        );
    }
    // Regret is judged by Stockfish when it is there, else by our own full-width search.
    let oracle = match crate::common::engine_process::find_engine(&args.engine) {
        Some(command) => format!("uci:{command},depth={}", scale.engine_oracle_depth),
        None => format!("internal:depth={}", scale.oracle_depth),
    };
    for (name, list) in &lists {
        steps.push(
            Step::new(format!("depth-{name}"), &["depth"])
                .args(&["--suite", &positions, "--variants", list])
                .args(&["--threads", &threads, "--time-ms", &time_ms])
                .arg("--out")
                .arg(layout.path(&format!("depth-{name}.csv"))),
        );
        steps.push(
            Step::new(format!("regret-{name}"), &["oracle"])
                .args(&["--suite", &layout.path("oracle-positions.epd")])
                .args(&["--variants", list, "--time-ms", &time_ms])
                .arg("--oracle")
                .arg(&oracle)
                .arg("--out")
                .arg(layout.path(&format!("regret-{name}.csv"))),
        );
    }
    steps
}

/// The matches' cost: games and hours from every match stopping at its first look to every
/// match running to its last, at this machine's bench speed. A game costs about 250 moves'
/// worth of nodes at bench speed: games average about 130 plies, and a game's searches run
/// slower than `bench` (a cold table at every game, the match's own work). Measured: 0.66 s
/// a game per thread at 5,000 nodes and 1.86 M nps (`modern` without its null move against
/// `modern`), as estimated.
#[expect(clippy::cast_precision_loss, reason = "estimates")]
fn cost(settings: &Settings, comparisons: &[Comparison], threads: usize, nps: u64) -> String {
    let (first, last) = (
        settings.looks.first().copied().unwrap_or(0),
        settings.looks.last().copied().unwrap_or(0),
    );
    let mut matches = 0;
    let (mut low, mut high) = (0.0, 0.0);
    for (k, nodes) in settings.nodes.iter().enumerate() {
        let n = comparisons
            .iter()
            .filter(|c| Manifest::played_at(c, k))
            .count();
        matches += n;
        let game_s = 250.0 * *nodes as f64 / nps.max(1) as f64;
        low += (n as u64 * first) as f64 * game_s;
        high += (n as u64 * last) as f64 * game_s;
    }
    let hours = |s: f64| s / 3600.0 / threads as f64;
    format!(
        "{matches} matches of {first} to {last} games: {:.1} to {:.1} hours on {threads} \
         threads at {:.2} M nps (most stop between)",
        hours(low),
        hours(high),
        nps as f64 / 1e6
    )
}

/// The timed searches' cost in hours: the depth comparison searches each of `positions` once
/// per variant (the stack, the baseline and every compared variant), `threads` at once, and the
/// regret comparison each of `oracle_positions` once per variant, one at a time (the oracle's
/// own searches, and the fixed-depth size and trace searches, come on top).
#[expect(clippy::cast_precision_loss, reason = "estimates")]
fn timed_hours(
    comparisons: &[Comparison],
    [positions, oracle_positions]: [usize; 2],
    time_ms: u64,
    threads: usize,
) -> f64 {
    let variants = 2 + comparisons.len();
    let depth_s = (positions * variants) as f64 * time_ms as f64 / 1000.0 / threads.max(1) as f64;
    let regret_s = (oracle_positions * variants) as f64 * time_ms as f64 / 1000.0;
    (depth_s + regret_s) / 3600.0
}

/// Writes the report of a run from its files (`cutlab report`); returns the terminal summary.
///
/// # Errors
/// An unreadable result file, or a file that cannot be written.
pub fn write_report(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    report::write(layout, manifest)
}

/// Runs `cutlab ablate`.
///
/// # Errors
/// A bad option, an unknown method, an existing run without `--resume`, or a failing step.
pub fn run(args: &AblateArgs) -> Result<(), String> {
    let scale = if args.quick {
        Scale::QUICK
    } else {
        Scale::DECISIVE
    };
    let (stack, baseline, comparisons) = comparisons(args)?;
    let (stack, baseline) = (join(&stack), join(&baseline));
    if let Some(path) = &args.openings {
        cutlab_suites::load(path, false).map_err(|e| format!("--openings: {e}"))?;
    }
    let layout = Layout {
        dir: args.out.clone(),
    };
    let mut manifest: Manifest =
        load_manifest(&layout, args.resume || args.shard.is_some())?.unwrap_or_default();
    if !manifest.scale.is_empty() && manifest.scale != scale.name {
        return Err(format!(
            "{} holds a {} run; continue it at that scale",
            layout.dir.display(),
            manifest.scale
        ));
    }
    let resumed = (!manifest.scale.is_empty()).then_some(&manifest);
    let settings = Settings::new(args, &scale, resumed)?;
    if let Some(run) = resumed {
        if let Some(given) = args.positions.filter(|&p| p != run.positions) {
            return Err(resumed_otherwise(
                "--positions",
                &run.positions.to_string(),
                &given.to_string(),
            ));
        }
        if args.seed != run.seed {
            return Err(resumed_otherwise(
                "--seed",
                &run.seed.to_string(),
                &args.seed.to_string(),
            ));
        }
    }
    let positions = args
        .positions
        .or(resumed.map(|m| m.positions))
        .unwrap_or(scale.positions);
    // One process per directory (per shard of it): a second would run the same steps.
    let _lock = crate::common::process::lock_dir(&layout.dir, args.shard)?;
    let suite = args.suite.load()?;
    // A resumed run keeps the factor it started with (a new manifest has none: 0).
    let kept = (manifest.time_factor > 0.0).then_some((manifest.time_factor, manifest.speed_nps));
    let (factor, speed_nps) = speed::time_factor(args.time_factor, kept, false)?;
    for sub in ["logs", "traces"]
        .into_iter()
        .map(String::from)
        .chain(settings.nodes.iter().map(|n| format!("matches/{n}")))
    {
        let d = layout.file(&sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let sampled = write_position_files(
        &layout,
        &suite,
        (positions, args.seed),
        [scale.oracle_positions, scale.trace_positions],
    )?;
    manifest.scale = scale.name.to_string();
    manifest.stack.clone_from(&stack);
    manifest.baseline.clone_from(&baseline);
    manifest.comparisons.clone_from(&comparisons);
    manifest.nodes.clone_from(&settings.nodes);
    manifest.looks.clone_from(&settings.looks);
    manifest.stop_within = settings.stop_within;
    manifest.positions = sampled;
    manifest.seed = args.seed;
    manifest.environment = environment();
    manifest.time_factor = factor;
    manifest.speed_nps = speed_nps;
    save_manifest(&layout, &manifest)?;
    let steps = plan(
        args,
        (&scale, &settings, factor),
        &layout,
        (&stack, &baseline),
        &comparisons,
    );
    check_finished_commands(&layout, &steps)?;
    save_plan(&layout, &steps)?;
    let nps = speed_nps.unwrap_or(speed::REFERENCE_NPS);
    let time_ms = time_ms(args, &scale, factor);
    eprintln!(
        "ablate: {} comparisons; {}; then {:.1} hours of searches at {time_ms} ms (depth and \
         regret; run them on an otherwise idle machine) beside the oracle's and the fixed-depth \
         ones",
        comparisons.len(),
        cost(&settings, &comparisons, args.threads, nps),
        timed_hours(
            &comparisons,
            [sampled, scale.oracle_positions.min(sampled)],
            time_ms,
            args.threads
        )
    );
    let mine = crate::common::shard::shard(&steps, args.shard);
    let total = steps.len();
    // The manifest lists every finished step at all times: a copy of the directory taken
    // between steps (`cutlab report` of a run in progress) is described by it.
    let record = |manifest: &mut Manifest| {
        manifest.steps = finished_steps(&layout, &steps);
        save_manifest(&layout, manifest)
    };
    for step in mine {
        let k = steps.iter().position(|s| s.name == step.name).unwrap_or(0) + 1;
        if step_record(&layout, &step.name).is_some() {
            eprintln!("[{k}/{total}] {}: done earlier", step.name);
            continue;
        }
        eprintln!("[{k}/{total}] {}", step.command_line());
        run_and_record(&layout, step, true, idle_wait(args.idle_wait))?;
        record(&mut manifest)?;
    }
    record(&mut manifest)?;
    if manifest.steps.len() < total {
        eprintln!(
            "{} of {total} steps done; the report is written when all are (run the other shards, \
             or again with --resume)",
            manifest.steps.len()
        );
        return Ok(());
    }
    let summary = write_report(&layout, &manifest)?;
    println!("{summary}");
    println!("report: {}", layout.file("report.md").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

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
            .map(|c| (c.direction.as_str(), c.method.as_str()))
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
    }
}
