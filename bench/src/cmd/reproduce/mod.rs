//! `cutlab reproduce`: Jiang and Buro (2003), "First Experimental Results of ProbCut Applied
//! to Chess", end to end, plus our additions, in one command. Each step is an ordinary `cutlab`
//! command run as a child process (its output in `logs/`, its command line in the report), so
//! any step can be rerun by hand; finished steps are marked and skipped by `--resume`.

mod report;
mod scale;

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use clap::Args;
use serde::{Deserialize, Serialize};

use scale::Scale;

use crate::common::pipeline::{
    Layout, Step, StepRecord, environment, load_manifest, run_step, save_manifest,
    write_position_files,
};

/// Options of `cutlab reproduce`.
#[derive(Args, Debug, Serialize)]
pub struct ReproduceArgs {
    /// About 8 minutes on 2 cores (the default scale).
    #[arg(long, conflicts_with_all = ["full", "smoke"])]
    quick: bool,
    /// The paper's scale: its position count, 30 s per position, 64-game matches at its time
    /// controls (weeks on 2 cores; --games and --tc cut it down).
    #[arg(long, conflicts_with = "smoke")]
    full: bool,
    /// Under a minute: every step on a handful of positions (CI and the notebooks' test data).
    #[arg(long)]
    smoke: bool,
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: crate::common::options::SuiteOptions,
    /// Directory for the report, the CSVs, the figures and the logs.
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Worker threads (searches and game pairs at once).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the position sample, the opening order and the cut sampling.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
    /// External UCI engine for Table 4 and the oracle: a command, `auto` (stockfish on PATH or
    /// /usr/games/stockfish), or `none`.
    #[arg(long, default_value = "auto")]
    engine: String,
    /// Strength of the external engine (UCI_LimitStrength, UCI_Elo); it stands in for Yace.
    #[arg(long, default_value_t = 2200)]
    engine_elo: u32,
    /// Positions sampled from the suite (default: the scale's).
    #[arg(long)]
    positions: Option<usize>,
    /// Games per match (default: the scale's).
    #[arg(long)]
    games: Option<usize>,
    /// Time control of every match, `SECONDS+INCREMENT` (default: the scale's).
    #[arg(long)]
    tc: Option<String>,
    /// Continue an interrupted run in `--out`: finished steps are skipped, experiments resume.
    #[arg(long)]
    resume: bool,
}

/// What the run did, step by step: written to `manifest.toml` as it goes, read by the report.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// `smoke`, `quick` or `full`.
    pub scale: String,
    /// Suite the positions were sampled from.
    pub suite: String,
    /// Positions in the sample.
    pub positions: usize,
    /// Seed.
    pub seed: u64,
    /// Threads.
    pub threads: usize,
    /// Parameter file the searches used, if not the built-in fit.
    pub params: Option<String>,
    /// External engine command and its `id name`, if one was used.
    pub engine: Option<(String, String)>,
    /// External engine's UCI_Elo.
    pub engine_elo: u32,
    /// Versions: cutlab, git commit, rustc; and the machine.
    pub environment: Vec<(String, String)>,
    /// Finished steps.
    pub steps: Vec<StepRecord>,
}

/// The external engine's command: given, found, or none.
fn find_engine(spec: &str) -> Option<String> {
    match spec {
        "none" => None,
        "auto" => std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .chain([PathBuf::from("/usr/games")])
            .map(|d| d.join("stockfish"))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string()),
        command => Some(command.to_string()),
    }
}

/// The engine's `id name`, or an error when it does not answer as a UCI engine.
fn engine_name(command: &str) -> Result<String, String> {
    let engine = crate::uci::client::UciEngine::start(command)?;
    Ok(engine.id_name().to_string())
}

/// Writes a variant's whole configuration (models included) as TOML, so a match engine
/// searches with the run's parameter file.
fn variant_file(layout: &Layout, variant: &str, params: Option<&Path>) -> Result<String, String> {
    let config = crate::common::options::resolve_config(variant, params, None)?;
    let name = format!(
        "variants/{}.toml",
        variant.replace(['+', '/', ':', '@'], "_")
    );
    let path = layout.file(&name);
    std::fs::write(&path, config.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// Name of the match of `variant` against the external engine at time control `k` (from 1).
fn table4_match(k: usize, variant: &str) -> String {
    format!("table4-tc{k}-{}", variant.replace(['+', ':', '@'], "_"))
}

/// The steps of a run, in order.
#[expect(
    clippy::too_many_lines,
    reason = "the experiment plan, one step after another"
)]
fn plan(
    args: &ReproduceArgs,
    scale: &Scale,
    layout: &Layout,
    engine: Option<&str>,
) -> Result<(Vec<Step>, Option<String>), String> {
    let threads = args.threads.to_string();
    let seed = args.seed.to_string();
    let suite = layout.path("positions.epd");
    let mut steps = Vec::new();

    // Table 1: the regression of deep on shallow values.
    steps.push(Step::new(
        "regress",
        &[
            "regress",
            "--suite",
            &suite,
            "--depths",
            &format!("1..{}", scale.regress_depth),
            "--threads",
            &threads,
            "--out",
            &layout.path("samples.csv"),
        ],
    ));
    let pairs: Vec<String> = scale::PAIRS
        .iter()
        .filter(|(_, deep)| *deep <= scale.regress_depth)
        .map(|(s, d)| format!("{s}:{d}"))
        .collect();
    steps.push(Step::new(
        "fit",
        &[
            "fit",
            &layout.path("samples.csv"),
            "--pairs",
            &pairs.join(","),
            "--out",
            &layout.path("params.toml"),
            "--plot",
            &layout.path("fit.svg"),
        ],
    ));
    // The searches use the run's own fit when it covers every MPC pair, else the built-in one.
    let params = scale.own_fit.then(|| layout.path("params.toml"));
    let with_params = |step: Step| match &params {
        Some(p) => step.arg("--params").arg(p.clone()),
        None => step,
    };

    // Sections 3-4 and the Multi-Cut family: depth reached in fixed time.
    steps.push(with_params(Step::new(
        "depth",
        &[
            "depth",
            "--suite",
            &suite,
            "--variants",
            &scale::DEPTH_VARIANTS.join(","),
            "--time-ms",
            &scale.depth_time_ms.to_string(),
            "--threads",
            &threads,
            "--out",
            &layout.path("depth.csv"),
        ],
    )));

    // Oracle regret, probabilistic alpha-beta included.
    let oracle = match engine {
        Some(cmd) => format!("uci:{cmd},depth={}", scale.engine_oracle_depth),
        None => format!("internal:depth={}", scale.internal_oracle_depth),
    };
    steps.push(with_params(Step::new(
        "oracle",
        &[
            "oracle",
            "--suite",
            &layout.path("oracle-positions.epd"),
            "--variants",
            &scale::ORACLE_VARIANTS.join(","),
            "--time-ms",
            &scale.oracle_time_ms.to_string(),
            "--oracle",
            &oracle,
            "--out",
            &layout.path("regret.csv"),
        ],
    )));

    // Cut decisions of each method alone: counts, and sampled cuts verified full-width.
    for (method, verify) in scale::TRACED {
        steps.push(with_params(Step::new(
            format!("trace-{method}"),
            &[
                "trace",
                "--suite",
                &layout.path("trace-positions.epd"),
                "--variant",
                method,
                "--depth",
                &scale.trace_depth.to_string(),
                "--only-cut-tests",
                "--verify-cuts",
                &verify.to_string(),
                "--seed",
                &seed,
                "--out",
                &layout.path(&format!("traces/{method}.csv")),
            ],
        )));
    }

    // Tables 2-4: matches. Engines are variant files carrying the run's models.
    let games = args.games.unwrap_or(scale.games).to_string();
    let baseline = variant_file(layout, "null-move", params.as_deref().map(Path::new))?;
    let mut game_step =
        |name: String, (first, file): (&str, &str), second: Vec<String>, tc: &str| {
            let mut step = Step::new(
                name.clone(),
                &[
                    "match",
                    "--engine",
                    &format!("variant={file}"),
                    &format!("name={first}"),
                    "--engine",
                ],
            );
            for word in second {
                step = step.arg(word);
            }
            step = step
                .arg("--games")
                .arg(games.clone())
                .arg("--tc")
                .arg(args.tc.clone().unwrap_or_else(|| tc.to_string()))
                .arg("--concurrency")
                .arg(threads.clone())
                .arg("--order")
                .arg("random")
                .arg("--seed")
                .arg(seed.clone())
                .arg("--out")
                .arg(layout.path(&format!("matches/{name}.csv")))
                .arg("--pgn")
                .arg(layout.path(&format!("matches/{name}.pgn")));
            steps.push(step);
        };
    let versus_baseline = || vec![format!("variant={baseline}"), "name=null-move".to_string()];
    for &t in scale.t_end {
        let v = format!("null-move+mpc@1:{t}");
        let file = variant_file(layout, &v, params.as_deref().map(Path::new))?;
        game_step(
            format!("table2-tend-{t}"),
            (&v, &file),
            versus_baseline(),
            scale.tc_table2,
        );
    }
    for &t in scale
        .t_mid
        .iter()
        .filter(|&&t| t != 1.0 || !scale.t_end.contains(&1.0))
    {
        let v = format!("null-move+mpc@{t}:1");
        let file = variant_file(layout, &v, params.as_deref().map(Path::new))?;
        game_step(
            format!("table3-tmid-{t}"),
            (&v, &file),
            versus_baseline(),
            scale.tc_table3,
        );
    }
    let mut engine_name = None;
    if let Some(cmd) = engine {
        let id = self::engine_name(cmd)?;
        engine_name = Some(id);
        for (k, tc) in scale.tc_table4.iter().enumerate() {
            for (v, ..) in report::PAPER_TABLE4 {
                let file = variant_file(layout, v, params.as_deref().map(Path::new))?;
                let opponent = vec![
                    format!("uci={cmd}"),
                    "option.UCI_LimitStrength=true".to_string(),
                    format!("option.UCI_Elo={}", args.engine_elo),
                    format!("name=stockfish-{}", args.engine_elo),
                ];
                game_step(table4_match(k + 1, v), (v, &file), opponent, tc);
            }
        }
    }
    Ok((steps, engine_name))
}

/// Runs `cutlab reproduce`.
///
/// # Errors
/// A bad option, an unreadable suite, an existing run without `--resume`, or a failing step.
pub fn run(args: &ReproduceArgs) -> Result<(), String> {
    let scale = if args.full {
        Scale::FULL
    } else if args.smoke {
        Scale::SMOKE
    } else {
        Scale::QUICK
    };
    let layout = Layout {
        dir: args.out.clone(),
    };
    let mut manifest: Manifest = load_manifest(&layout, args.resume)?.unwrap_or_default();
    if args.resume && !manifest.scale.is_empty() && manifest.scale != scale.name {
        return Err(format!(
            "{} holds a {} run; resume it with --{}",
            layout.dir.display(),
            manifest.scale,
            manifest.scale
        ));
    }
    for sub in ["logs", "traces", "matches", "variants"] {
        let d = layout.file(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let suite = args.suite.load()?;
    let sampled = write_position_files(
        &layout,
        &suite,
        (args.positions.unwrap_or(scale.positions), args.seed),
        [scale.oracle_positions, scale.trace_positions],
    )?;
    let engine = find_engine(&args.engine);
    let (steps, engine_id) = plan(args, &scale, &layout, engine.as_deref())?;
    manifest.scale = scale.name.to_string();
    manifest.suite.clone_from(&suite.source);
    manifest.positions = sampled;
    manifest.seed = args.seed;
    manifest.threads = args.threads;
    manifest.params = scale.own_fit.then(|| layout.path("params.toml"));
    manifest.engine = engine.clone().zip(engine_id);
    manifest.engine_elo = args.engine_elo;
    manifest.environment = environment();
    save_manifest(&layout, &manifest)?;
    if engine.is_none() {
        eprintln!(
            "no external engine (--engine {}): Table 4 is skipped",
            args.engine
        );
    }
    let total = Instant::now();
    for (k, step) in steps.iter().enumerate() {
        if manifest.steps.iter().any(|s| s.name == step.name) {
            eprintln!("[{}/{}] {}: done earlier", k + 1, steps.len(), step.name);
            continue;
        }
        eprintln!("[{}/{}] {}", k + 1, steps.len(), step.command_line());
        let seconds = run_step(&layout, step, args.resume)?;
        manifest.steps.push(StepRecord {
            name: step.name.clone(),
            command: step.command_line(),
            seconds,
        });
        save_manifest(&layout, &manifest)?;
        report::write(&layout, &manifest)?;
    }
    let summary = report::write(&layout, &manifest)?;
    println!("{summary}");
    println!(
        "reproduce ({} scale) finished in {:.1} min; report: {}",
        scale.name,
        total.elapsed().as_secs_f64() / 60.0,
        layout.file("report.md").display()
    );
    Ok(())
}
