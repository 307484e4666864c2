//! `cutlab ablate`: what each forward-pruning method of a stack buys and costs. For each
//! method m, two variants: the stack without m (leave one out, against the stack) and the
//! baseline with m (add one in, against the baseline). Each pair is measured on the same
//! positions and openings: depth at fixed time, tree size at fixed depth, m's false-cut rate
//! and share of cuts, oracle regret, and Elo from a match. The steps are ordinary `cutlab`
//! commands (logs in `logs/`), resumable, and their shards (`--shard K/N`) fill one
//! directory; `report.md` and `ablate.csv` hold one row per method and direction, and
//! `forest-*.svg` the Elo differences with their intervals.

mod report;

use std::path::PathBuf;

use clap::Args;
use cutlab_search::SearchConfig;
use serde::{Deserialize, Serialize};

use crate::common::{
    options::SuiteOptions,
    pipeline::{
        Layout, Step, StepRecord, environment, finished_steps, load_manifest, run_and_record,
        save_manifest, save_plan, step_record, write_position_files,
    },
    speed,
};

/// Options of `cutlab ablate`.
#[derive(Args, Debug, Serialize)]
pub struct AblateArgs {
    /// The stack whose methods are measured: a preset (e.g. `modern`) or parts joined by `+`.
    #[arg(long, default_value = "modern")]
    stack: String,
    /// Methods (preset parts) to measure, comma-separated (default: every part of the stack
    /// not in the baseline).
    #[arg(long, value_delimiter = ',')]
    methods: Vec<String>,
    /// The baseline each method is added to.
    #[arg(long, default_value = "null-move+lmr")]
    baseline: String,
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: SuiteOptions,
    /// Match openings: EPD/FEN or PGN (default: early positions of the built-in suite).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// The oracle of the regret comparison, a UCI engine: a command, `auto` (stockfish on PATH
    /// or /usr/games/stockfish), or `none` (our own full-width search).
    #[arg(long, default_value = "auto")]
    engine: String,
    /// About 25 minutes on 2 cores, wide intervals (default: the decisive scale).
    #[arg(long)]
    quick: bool,
    /// Positions sampled from the suite (default: the scale's).
    #[arg(long)]
    positions: Option<usize>,
    /// Time per search of the depth and regret comparisons, milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Depth of the tree-size searches and the traces.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Games per match.
    #[arg(long)]
    games: Option<usize>,
    /// Time control of the matches, `SECONDS+INCREMENT`.
    #[arg(long, value_parser = crate::common::speed::time_control)]
    tc: Option<String>,
    /// Multiply the scale's time limits (not a `--time-ms` or `--tc` you give) by this
    /// (default: the reference speed over this machine's, measured by a 2-second bench; a
    /// resumed run keeps its factor).
    #[arg(long)]
    time_factor: Option<f64>,
    /// `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`: each match stops when its GSPRT decides.
    #[arg(long)]
    sprt: Option<String>,
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
    /// Run the K-th of N shares of the steps (K from 1); the run whose steps are all done
    /// writes the report.
    #[arg(long)]
    shard: Option<String>,
}

/// The size of a run.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Scale {
    /// `quick` or `decisive`.
    pub name: &'static str,
    positions: usize,
    oracle_positions: usize,
    trace_positions: usize,
    time_ms: u64,
    depth: i32,
    games: usize,
    tc: &'static str,
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
        games: 16,
        tc: "2+0.02",
        verify_rate: 0.1,
        oracle_depth: 5,
        engine_oracle_depth: 12,
    };
    /// Sized for decisions: 400 games per match at 10+0.1 (about ±25 Elo at a 95% interval
    /// when games are balanced), the whole built-in suite at 1 s.
    const DECISIVE: Scale = Scale {
        name: "decisive",
        positions: 400,
        oracle_positions: 100,
        trace_positions: 20,
        time_ms: 1000,
        depth: 9,
        games: 400,
        tc: "10+0.1",
        verify_rate: 0.05,
        oracle_depth: 7,
        engine_oracle_depth: 16,
    };
}

/// One measured method: its part and the two variants built around it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Ablation {
    /// The preset part.
    pub method: String,
    /// The stack without it.
    pub without: String,
    /// The baseline with it.
    pub with: String,
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
    /// The methods, with their variants.
    pub ablations: Vec<Ablation>,
    /// Positions, seed, and the versions and machine.
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

/// The stack's parts, the baseline's parts, and the methods with their two variants.
type Plan = (Vec<String>, Vec<String>, Vec<Ablation>);

/// The methods and their two variants.
fn ablations(args: &AblateArgs) -> Result<Plan, String> {
    let stack = SearchConfig::parts(&args.stack).map_err(|e| format!("--stack: {e}"))?;
    let baseline = SearchConfig::parts(&args.baseline).map_err(|e| format!("--baseline: {e}"))?;
    let methods: Vec<String> = if args.methods.is_empty() {
        stack
            .iter()
            .filter(|p| !baseline.contains(p))
            .cloned()
            .collect()
    } else {
        args.methods
            .iter()
            .map(|m| SearchConfig::canonical_name(m.trim()))
            .collect()
    };
    crate::common::options::no_repeats("--methods", &methods)?;
    if methods.is_empty() {
        return Err("no methods to measure: the stack adds nothing to the baseline".into());
    }
    let ablations = methods
        .iter()
        .map(|m| {
            if !stack.contains(m) {
                return Err(format!("--methods: '{m}' is not a part of the stack"));
            }
            let without: Vec<String> = stack.iter().filter(|p| *p != m).cloned().collect();
            let mut with: Vec<String> = baseline
                .iter()
                .filter(|p| !same_family(p, m))
                .cloned()
                .collect();
            with.push(m.clone());
            let (without, with) = (join(&without), join(&with));
            for v in [&without, &with] {
                SearchConfig::preset(v).map_err(|e| format!("method '{m}': {e}"))?;
            }
            Ok(Ablation {
                method: m.clone(),
                without,
                with,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((stack, baseline, ablations))
}

/// The steps of a run, in order.
fn plan(
    args: &AblateArgs,
    (scale, factor): (&Scale, f64),
    layout: &Layout,
    (stack, baseline): (&str, &str),
    ablations: &[Ablation],
) -> Result<Vec<Step>, String> {
    let threads = args.threads.to_string();
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "milliseconds"
    )]
    let time_ms = args
        .time_ms
        .unwrap_or_else(|| (scale.time_ms as f64 * factor).round().max(1.0) as u64)
        .to_string();
    let depth = args.depth.unwrap_or(scale.depth).to_string();
    // Regret is judged by Stockfish when it is there, else by our own full-width search.
    let oracle = match crate::common::engine_process::find_engine(&args.engine) {
        Some(command) => format!("uci:{command},depth={}", scale.engine_oracle_depth),
        None => format!("internal:depth={}", scale.oracle_depth),
    };
    let positions = layout.path("positions.epd");
    let mut steps = Vec::new();
    for (direction, reference) in [("without", stack), ("with", baseline)] {
        let variants: Vec<&str> = std::iter::once(reference)
            .chain(ablations.iter().map(|a| a.variant(direction)))
            .collect();
        let list = variants.join(",");
        let common = [
            "--suite",
            &positions,
            "--variants",
            &list,
            "--threads",
            &threads,
        ];
        steps.push(
            Step::new(format!("depth-{direction}"), &["depth"])
                .args(&common)
                .args(&["--time-ms", &time_ms, "--out"])
                .arg(layout.path(&format!("depth-{direction}.csv"))),
        );
        steps.push(
            Step::new(format!("size-{direction}"), &["depth"])
                .args(&common)
                .args(&["--depth", &depth, "--out"])
                .arg(layout.path(&format!("size-{direction}.csv"))),
        );
        steps.push(
            Step::new(format!("regret-{direction}"), &["oracle"])
                .args(&["--suite", &layout.path("oracle-positions.epd")])
                .args(&["--variants", &list, "--time-ms", &time_ms, "--oracle"])
                .arg(&oracle)
                .arg("--out")
                .arg(layout.path(&format!("regret-{direction}.csv"))),
        );
    }
    // False cuts and shares of cuts: the stack, and the baseline with each method.
    let traced = std::iter::once(("stack".to_string(), stack.to_string())).chain(
        ablations
            .iter()
            .map(|a| (format!("with-{}", a.method), a.with.clone())),
    );
    for (name, variant) in traced {
        steps.push(
            Step::new(format!("trace-{name}"), &["trace"])
                .args(&["--suite", &layout.path("trace-positions.epd")])
                .args(&["--variant", &variant, "--depth", &depth, "--only-cut-tests"])
                .args(&["--verify-cuts", &scale.verify_rate.to_string()])
                .args(&["--seed", &args.seed.to_string(), "--out"])
                .arg(layout.path(&format!("traces/{name}.csv"))),
        );
    }
    // Elo: each variant against its reference.
    let games = args.games.unwrap_or(scale.games).to_string();
    let tc = match &args.tc {
        Some(tc) => tc.clone(),
        None => speed::scaled_tc(scale.tc, factor)?,
    };
    for a in ablations {
        for (direction, reference, ref_name) in
            [("without", stack, "stack"), ("with", baseline, "baseline")]
        {
            let name = format!("{direction}-{}", a.method);
            let mut step = Step::new(format!("match-{name}"), &["match", "--engine"])
                .arg(format!("variant={}", a.variant(direction)))
                .arg(format!("name={name}"))
                .arg("--engine")
                .arg(format!("variant={reference}"))
                .arg(format!("name={ref_name}"))
                .args(&["--games", &games, "--tc", &tc, "--concurrency", &threads])
                .args(&["--order", "random", "--seed", &args.seed.to_string()]);
            if let Some(openings) = &args.openings {
                step = step.arg("--openings").arg(openings.display().to_string());
            }
            if let Some(sprt) = &args.sprt {
                step = step.arg("--sprt").arg(sprt.clone());
            }
            steps.push(
                step.arg("--out")
                    .arg(layout.path(&format!("matches/{name}.csv"))),
            );
        }
    }
    Ok(steps)
}

impl Ablation {
    /// The variant of a direction: `without` (the stack without the method) or `with`.
    fn variant(&self, direction: &str) -> &str {
        if direction == "without" {
            &self.without
        } else {
            &self.with
        }
    }
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
    let (stack, baseline, ablations) = ablations(args)?;
    let (stack, baseline) = (join(&stack), join(&baseline));
    let layout = Layout {
        dir: args.out.clone(),
    };
    for sub in ["logs", "traces", "matches"] {
        let d = layout.file(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut manifest: Manifest =
        load_manifest(&layout, args.resume || args.shard.is_some())?.unwrap_or_default();
    if !manifest.scale.is_empty() && manifest.scale != scale.name {
        return Err(format!(
            "{} holds a {} run; continue it at that scale",
            layout.dir.display(),
            manifest.scale
        ));
    }
    let suite = args.suite.load()?;
    let sampled = write_position_files(
        &layout,
        &suite,
        (args.positions.unwrap_or(scale.positions), args.seed),
        [scale.oracle_positions, scale.trace_positions],
    )?;
    manifest.scale = scale.name.to_string();
    manifest.stack.clone_from(&stack);
    manifest.baseline.clone_from(&baseline);
    manifest.ablations.clone_from(&ablations);
    manifest.positions = sampled;
    manifest.seed = args.seed;
    manifest.environment = environment();
    save_manifest(&layout, &manifest)?;
    // A resumed run keeps the factor it started with (a new manifest has none: 0).
    let kept = (manifest.time_factor > 0.0).then_some((manifest.time_factor, manifest.speed_nps));
    let (factor, speed_nps) = speed::time_factor(args.time_factor, kept, false)?;
    manifest.time_factor = factor;
    manifest.speed_nps = speed_nps;
    save_manifest(&layout, &manifest)?;
    let steps = plan(
        args,
        (&scale, factor),
        &layout,
        (&stack, &baseline),
        &ablations,
    )?;
    save_plan(&layout, &steps)?;
    let mine = crate::common::shard::shard(&steps, args.shard.as_deref())?;
    let total = steps.len();
    for step in mine {
        let k = steps.iter().position(|s| s.name == step.name).unwrap_or(0) + 1;
        if step_record(&layout, &step.name).is_some() {
            eprintln!("[{k}/{total}] {}: done earlier", step.name);
            continue;
        }
        eprintln!("[{k}/{total}] {}", step.command_line());
        run_and_record(&layout, step, true)?;
    }
    let mut done = manifest;
    done.steps = finished_steps(&layout, &steps);
    save_manifest(&layout, &done)?;
    if done.steps.len() < total {
        eprintln!(
            "{} of {total} steps done; the report is written when all are (run the other shards, \
             or again with --resume)",
            done.steps.len()
        );
        return Ok(());
    }
    let summary = report::write(&layout, &done)?;
    println!("{summary}");
    println!("report: {}", layout.file("report.md").display());
    Ok(())
}
