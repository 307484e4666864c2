//! `cutlab reproduce`: Jiang and Buro (2003), "First Experimental Results of ProbCut Applied
//! to Chess", end to end, plus our additions, in one command. Each step is an ordinary `cutlab`
//! command run as a child process (its output in `logs/`, its command line in the report), so
//! any step can be rerun by hand; finished steps are marked and skipped by `--resume`.

mod limit;
mod power;
mod report;
mod scale;

use std::{path::PathBuf, time::Instant};

use clap::Args;
use serde::{Deserialize, Serialize};

use limit::MatchLimit;
use scale::Scale;

use crate::common::{
    pipeline::{
        Layout, Step, StepRecord, check_finished_commands, environment, finished_steps, idle_wait,
        load_manifest, record_step, run_and_record, save_manifest, save_plan, step_record,
        write_position_files,
    },
    slurm::{SlurmOptions, describe, submit_plan},
    speed,
};

/// Options of `cutlab reproduce`.
#[derive(Args, Debug, Serialize)]
pub struct ReproduceArgs {
    /// About 8 minutes on 2 cores (the default scale).
    #[arg(long, conflicts_with_all = ["full", "smoke", "standard"])]
    quick: bool,
    /// One night on 2 cores (at most 8 hours): sized by a power calculation the report
    /// prints, the headline MPC-against-null-move match under a GSPRT.
    #[arg(long, conflicts_with_all = ["full", "smoke"])]
    standard: bool,
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
    #[arg(long, default_value = "reproduce")]
    out: PathBuf,
    /// Worker threads (searches and game pairs at once).
    #[arg(long, default_value_t = 2, value_parser = crate::common::options::threads)]
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
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1_000_000))]
    positions: Option<usize>,
    /// Games per match (default: the scale's).
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1_000_000))]
    games: Option<usize>,
    /// Time control of every match, `SECONDS+INCREMENT` (default: the scale's).
    #[arg(long, value_parser = crate::common::speed::time_control)]
    tc: Option<String>,
    /// Continue an interrupted run in `--out`: finished steps are skipped, experiments resume.
    #[arg(long)]
    resume: bool,
    /// Minutes a step that measures time (searches at fixed time, timed matches) waits for an
    /// idle machine (other processes below half a core busy) before it runs anyway; every
    /// step's record, and the report, say how busy others kept the machine.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    idle_wait: u64,
    /// Multiply the scale's time limits by this (default: the reference speed over this
    /// machine's, measured by a 2-second bench, so that a scale means the same search effort
    /// on any machine; a resumed run keeps its factor).
    #[arg(long)]
    time_factor: Option<f64>,
    /// Fixed depth and nodes instead of time (the depth step at the scale's trace depth; the
    /// oracle's choices and each match's moves in the nodes their time costs at the reference
    /// speed, 825,000 a choice and 74,000 a move at 2+0.02): every row repeats exactly, on any
    /// machine and in any split over processes.
    #[arg(long)]
    deterministic: bool,
    /// Submit the steps as Slurm jobs (job arrays for the long ones, merge jobs after them,
    /// `--dependency=afterok` between steps) instead of running them here; the last job
    /// writes the report.
    #[arg(long)]
    slurm: bool,
    /// Slurm jobs: array size, partition, time, memory.
    #[command(flatten)]
    #[serde(skip)]
    slurm_options: SlurmOptions,
}

/// What the run did, step by step: written to `manifest.toml` as it goes, read by the report.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// `reproduce`: what `cutlab report` reads the directory as.
    #[serde(default)]
    pub kind: String,
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
    /// This machine's bench speed, nodes per second (when measured).
    #[serde(default)]
    pub speed_nps: Option<u64>,
    /// Factor of every time limit of the scale.
    #[serde(default = "one")]
    pub time_factor: f64,
    /// The power statement (Markdown): what each experiment is sized to decide.
    #[serde(default)]
    pub power: String,
    /// Versions: cutlab, git commit, rustc; and the machine.
    pub environment: Vec<(String, String)>,
    /// Finished steps.
    pub steps: Vec<StepRecord>,
}

/// Writes the report of a run from its files (`cutlab report`); returns the terminal summary.
///
/// # Errors
/// An unreadable result file, or a file that cannot be written.
pub fn write_report(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    report::write(layout, manifest)
}

/// A time factor of 1 (runs recorded before time factors).
const fn one() -> f64 {
    1.0
}

/// The engine's `id name`, or an error when it does not answer as a UCI engine.
fn engine_name(command: &str) -> Result<String, String> {
    let engine = crate::uci::client::UciEngine::start(command)?;
    Ok(engine.id_name().to_string())
}

/// Writes a variant's whole configuration (models included) as TOML, for a match engine to
/// play and a reader to see.
fn variant_file(layout: &Layout, variant: &str) -> Result<String, String> {
    let config = crate::common::options::resolve_config(variant, None, None)?;
    let name = format!(
        "variants/{}.toml",
        variant.replace(['+', '/', ':', '@'], "_")
    );
    let path = layout.file(&name);
    std::fs::write(&path, config.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

/// Name of the headline match (its CSV is `matches/headline.csv`).
pub const HEADLINE: &str = "headline";

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
    (scale, factor): (&Scale, f64),
    layout: &Layout,
    engine: Option<&str>,
) -> Result<(Vec<Step>, Option<String>), String> {
    let threads = args.threads.to_string();
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "milliseconds"
    )]
    let scaled_ms = |ms: u64| (ms as f64 * factor).round().max(1.0) as u64;
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
    // Balanced endgames from self-play, so that Table 1 has endgame points near 0.
    let mut samples = vec![layout.path("samples.csv")];
    if scale.endgame_games > 0 {
        steps.push(Step::new(
            "endgames",
            &[
                "suite",
                "generate",
                "--games",
                &scale.endgame_games.to_string(),
                "--seed",
                &seed,
                "--min-ply",
                "40",
                "--stage",
                "endgame",
                "--max-score-cp",
                "300",
                "--id-prefix",
                "endgame",
                "--out",
                &layout.path("endgames.epd"),
            ],
        ));
        steps.push(
            Step::new(
                "regress-endgames",
                &[
                    "regress",
                    "--suite",
                    &layout.path("endgames.epd"),
                    "--depths",
                    &format!("1..{}", scale.regress_depth),
                    "--threads",
                    &threads,
                    "--out",
                    &layout.path("samples-endgames.csv"),
                ],
            )
            .after("endgames"),
        );
        samples.push(layout.path("samples-endgames.csv"));
    }
    let pairs: Vec<String> = scale::PAIRS
        .iter()
        .filter(|(_, deep)| *deep <= scale.regress_depth)
        .map(|(s, d)| format!("{s}:{d}"))
        .collect();
    let mut fit = Step::new("fit", &["fit"]).after("regress");
    if scale.endgame_games > 0 {
        fit = fit.after("regress-endgames");
    }
    for file in &samples {
        fit = fit.arg(file.clone());
    }
    steps.push(fit.args(&[
        "--pairs",
        &pairs.join(","),
        "--out",
        &layout.path("params.toml"),
        "--plot",
        &layout.path("fit.svg"),
    ]));
    // The searches use the run's own fit when it covers every MPC pair, else the built-in one.
    let params = scale.own_fit.then(|| layout.path("params.toml"));
    let with_params = |step: Step| match &params {
        Some(p) => step.arg("--params").arg(p.clone()).after("fit"),
        None => step,
    };
    let after_fit = |step: Step| {
        if params.is_some() {
            step.after("fit")
        } else {
            step
        }
    };
    // Fixed time, or (--deterministic) the fixed depth that makes every row repeatable.
    let limited = |step: Step, time_ms: u64, depth: u32| {
        if args.deterministic {
            step.arg("--depth").arg(depth.to_string())
        } else {
            step.arg("--time-ms").arg(scaled_ms(time_ms).to_string())
        }
    };

    // Sections 3-4 and the Multi-Cut family: depth reached in fixed time.
    steps.push(with_params(limited(
        Step::new(
            "depth",
            &[
                "depth",
                "--suite",
                &suite,
                "--variants",
                &scale::DEPTH_VARIANTS.join(","),
                "--threads",
                &threads,
                "--out",
                &layout.path("depth.csv"),
            ],
        ),
        scale.depth_time_ms,
        scale.trace_depth.unsigned_abs(),
    )));

    // Oracle regret, probabilistic alpha-beta included: in a fixed time, or (--deterministic)
    // in the nodes that time costs at the reference speed.
    let oracle = match engine {
        Some(cmd) => format!("uci:{cmd},depth={}", scale.engine_oracle_depth),
        None => format!("internal:depth={}", scale.internal_oracle_depth),
    };
    let oracle_step = with_params(Step::new(
        "oracle",
        &[
            "oracle",
            "--suite",
            &layout.path("oracle-positions.epd"),
            "--variants",
            &scale::ORACLE_VARIANTS.join(","),
            "--oracle",
            &oracle,
            "--threads",
            &threads,
            "--out",
            &layout.path("regret.csv"),
        ],
    ));
    steps.push(if args.deterministic {
        oracle_step
            .arg("--nodes")
            .arg(scale.oracle_nodes().to_string())
    } else {
        oracle_step
            .arg("--time-ms")
            .arg(scaled_ms(scale.oracle_time_ms).to_string())
    });

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
                &format!("{},{method}={verify}", crate::cmd::trace::VERIFY_OTHERS),
                "--seed",
                &seed,
                "--out",
                &layout.path(&format!("traces/{method}.csv")),
            ],
        )));
    }

    // Tables 2-4: matches. With the built-in fit each variant's whole configuration is written
    // to variants/ and played from there; with the run's own fit, which exists only once the
    // fit step has run, the engines read it (`params=`).
    let games = args.games.unwrap_or(scale.games).to_string();
    let engine_words = |variant: &str| -> Result<Vec<String>, String> {
        Ok(match &params {
            Some(p) => vec![format!("variant={variant}"), format!("params={p}")],
            None => vec![format!("variant={}", variant_file(layout, variant)?)],
        })
    };
    let limit = |tc: &str| {
        MatchLimit::new(tc, args.tc.as_deref(), factor, args.deterministic).map(|l| l.args())
    };
    let mut game_step = |name: String,
                         first: (&str, Vec<String>),
                         second: Vec<String>,
                         (tc, games, sprt): (&str, &str, Option<String>)|
     -> Result<(), String> {
        let mut step = Step::new(name.clone(), &["match", "--engine"]);
        for word in first.1 {
            step = step.arg(word);
        }
        step = step.arg(format!("name={}", first.0)).arg("--engine");
        for word in second {
            step = step.arg(word);
        }
        step.args.extend(limit(tc)?);
        if let Some(sprt) = sprt {
            step = step.arg("--sprt").arg(sprt);
        }
        step = step
            .args(&["--games", games, "--concurrency", &threads])
            .args(&["--order", "random", "--seed", &seed])
            .arg("--out")
            .arg(layout.path(&format!("matches/{name}.csv")))
            .arg("--pgn")
            .arg(layout.path(&format!("matches/{name}.pgn")));
        steps.push(after_fit(step));
        Ok(())
    };
    let baseline = engine_words("null-move")?;
    let versus_baseline = || {
        let mut words = baseline.clone();
        words.push("name=null-move".to_string());
        words
    };
    for &t in scale.t_end {
        let v = format!("null-move+mpc@1:{t}");
        game_step(
            format!("table2-tend-{t}"),
            (&v, engine_words(&v)?),
            versus_baseline(),
            (scale.tc_table2, &games, None),
        )?;
    }
    for &t in scale
        .t_mid
        .iter()
        .filter(|&&t| t != 1.0 || !scale.t_end.contains(&1.0))
    {
        let v = format!("null-move+mpc@{t}:1");
        game_step(
            format!("table3-tmid-{t}"),
            (&v, engine_words(&v)?),
            versus_baseline(),
            (scale.tc_table3, &games, None),
        )?;
    }
    // The headline: MPC against null move, played until the GSPRT decides or the cap.
    if let Some(h) = &scale.headline {
        game_step(
            HEADLINE.to_string(),
            (h.variant, engine_words(h.variant)?),
            versus_baseline(),
            (
                h.tc,
                &h.max_games.to_string(),
                Some(format!(
                    "elo0={},elo1={},alpha=0.05,beta=0.05",
                    h.elo.0, h.elo.1
                )),
            ),
        )?;
    }
    let mut engine_name = None;
    if let Some(cmd) = engine {
        let id = self::engine_name(cmd)?;
        engine_name = Some(id);
        for (k, tc) in scale.tc_table4.iter().enumerate() {
            for (v, ..) in report::PAPER_TABLE4 {
                let opponent = vec![
                    format!("uci={cmd}"),
                    "option.UCI_LimitStrength=true".to_string(),
                    format!("option.UCI_Elo={}", args.engine_elo),
                    format!("name=stockfish-{}", args.engine_elo),
                ];
                game_step(
                    table4_match(k + 1, v),
                    (v, engine_words(v)?),
                    opponent,
                    (tc, &games, None),
                )?;
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
    // The job options mean nothing without --slurm (they were silently ignored).
    if !args.slurm
        && let Some(option) = std::env::args().find(|a| a.starts_with("--slurm-"))
    {
        return Err(format!(
            "{}: a Slurm option, given without --slurm",
            option.split('=').next().unwrap_or(&option)
        ));
    }
    let scale = if args.full {
        Scale::FULL
    } else if args.smoke {
        Scale::SMOKE
    } else if args.standard {
        Scale::STANDARD
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
    // One process per directory: a second would run the same steps and append twice.
    let _lock = crate::common::process::lock_dir(&layout.dir, None)?;
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
    let engine = crate::common::engine_process::find_engine(&args.engine);
    let kept = (args.resume && !manifest.scale.is_empty())
        .then_some((manifest.time_factor, manifest.speed_nps));
    let (factor, speed) = speed::time_factor(args.time_factor, kept, args.deterministic)?;
    let (steps, engine_id) = plan(args, (&scale, factor), &layout, engine.as_deref())?;
    manifest.time_factor = factor;
    manifest.speed_nps = speed;
    manifest.kind = "reproduce".to_string();
    manifest.scale = scale.name.to_string();
    manifest.suite.clone_from(&suite.source);
    manifest.positions = sampled;
    manifest.seed = args.seed;
    manifest.threads = args.threads;
    manifest.params = scale.own_fit.then(|| layout.path("params.toml"));
    manifest.engine = engine.clone().zip(engine_id);
    manifest.engine_elo = args.engine_elo;
    manifest.environment = environment();
    manifest.power = power::statement(&power::Sizes {
        scale: &scale,
        factor,
        speed_nps: speed,
        threads: args.threads,
        positions: sampled,
        games: args.games.unwrap_or(scale.games),
        tc: args.tc.as_deref(),
        table4: manifest.engine.is_some(),
        deterministic: args.deterministic,
    })?;
    eprintln!("{}", manifest.power);
    save_manifest(&layout, &manifest)?;
    if engine.is_none() {
        eprintln!(
            "no external engine (--engine {}): Table 4 is skipped",
            args.engine
        );
    }
    // Runs recorded before steps had record files of their own (no `steps/` at all) keep what
    // they finished; in a later run the records alone say what has finished, so removing
    // one runs its step again.
    if !layout.file("steps").is_dir() {
        for done in &manifest.steps {
            record_step(&layout, done)?;
        }
    }
    check_finished_commands(&layout, &steps)?;
    save_plan(&layout, &steps)?;
    if args.slurm {
        let words: Vec<String> = std::env::args().skip(1).collect();
        let mut finish = SlurmOptions::strip(&words);
        if !finish.iter().any(|w| w == "--resume") {
            finish.push("--resume".into());
        }
        let jobs = submit_plan(&layout, &steps, Some(&finish), &args.slurm_options)?;
        println!(
            "{}",
            describe(&layout, &jobs, args.slurm_options.slurm_dry_run)
        );
        return Ok(());
    }
    let total = Instant::now();
    for (k, step) in steps.iter().enumerate() {
        if step_record(&layout, &step.name).is_some() {
            eprintln!("[{}/{}] {}: done earlier", k + 1, steps.len(), step.name);
            continue;
        }
        eprintln!("[{}/{}] {}", k + 1, steps.len(), step.command_line());
        run_and_record(&layout, step, args.resume, idle_wait(args.idle_wait))?;
        manifest.steps = finished_steps(&layout, &steps);
        save_manifest(&layout, &manifest)?;
        report::write(&layout, &manifest)?;
    }
    manifest.steps = finished_steps(&layout, &steps);
    save_manifest(&layout, &manifest)?;
    let summary = report::write(&layout, &manifest)?;
    println!("{summary}");
    // A resumed run's own time is not the run's: the steps' recorded times are.
    let steps_min: f64 = manifest.steps.iter().map(|s| s.seconds).sum::<f64>() / 60.0;
    println!(
        "reproduce ({} scale) finished: its steps took {steps_min:.1} min in all, {:.1} min in \
         this process; report: {}",
        scale.name,
        total.elapsed().as_secs_f64() / 60.0,
        layout.file("report.md").display()
    );
    Ok(())
}
