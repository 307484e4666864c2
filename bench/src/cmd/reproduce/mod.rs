//! `cutlab reproduce`: Jiang and Buro (2003), "First Experimental Results of ProbCut Applied
//! to Chess", end to end, plus our additions, in one command. Each step is an ordinary `cutlab`
//! command run as a child process (its output in `logs/`, its command line in the report), so
//! any step can be rerun by hand; finished steps are marked and skipped by `--resume`.

mod limit;
mod power;
mod report;
mod scale;

use std::path::PathBuf;

use clap::Args;
use serde::{Deserialize, Serialize};

use limit::MatchLimit;
use scale::Scale;

use crate::common::durations;
use crate::common::pipeline::{
    Layout, Rerun, Step,
    steps::{Builder, oracle_spec},
    study::{self, Context, Header, Study, StudyKind, StudyOptions},
};

/// Options of `cutlab reproduce`.
#[derive(Args, Debug, Serialize)]
pub struct ReproduceArgs {
    /// The default scale.
    #[arg(long, conflicts_with_all = ["full", "smoke", "standard"],
          help = format!("The default scale: {}.", durations::REPRODUCE_QUICK))]
    quick: bool,
    /// Sized by a power calculation the report prints.
    #[arg(long, conflicts_with_all = ["full", "smoke"],
          help = format!("Sized by a power calculation the report prints, the headline \
                          MPC-against-null-move match under a GSPRT: {}.",
                         durations::REPRODUCE_STANDARD))]
    standard: bool,
    /// The paper's scale.
    #[arg(long, conflicts_with = "smoke",
          help = format!("The paper's scale: its position count, 30 s per position, 64-game \
                          matches at its time controls; {} (--games and --tc cut it down).",
                         durations::REPRODUCE_FULL))]
    full: bool,
    /// Every step on a handful of positions.
    #[arg(long, help = format!("Every step on a handful of positions, {} (CI and the \
                                notebooks' test data).", durations::REPRODUCE_SMOKE))]
    smoke: bool,
    /// Directory for the report, the CSVs, the figures and the logs.
    #[arg(long, default_value = "reproduce")]
    out: PathBuf,
    /// External UCI engine for Table 4 and the oracle: a command, `auto` (stockfish on PATH or
    /// /usr/games/stockfish), or `none`.
    #[arg(long, default_value = "auto", value_parser = crate::common::engine_process::engine_spec)]
    engine: String,
    /// Strength of the external engine (UCI_LimitStrength, UCI_Elo); it stands in for Yace.
    #[arg(long, default_value_t = 2200)]
    engine_elo: u32,
    /// Games per match (default: the scale's).
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1_000_000))]
    games: Option<usize>,
    /// Time control of every match, `SECONDS+INCREMENT` (default: the scale's).
    #[arg(long, value_parser = crate::common::speed::time_control)]
    tc: Option<String>,
    /// Fixed depth and nodes instead of time (the depth step at the scale's trace depth; the
    /// oracle's choices and each match's moves in the nodes their time costs at the reference
    /// speed, 825,000 a choice and 74,000 a move at 2+0.02): every row repeats exactly, on any
    /// machine and in any split over processes.
    #[arg(long)]
    deterministic: bool,
    /// Positions, parallelism, resumption and where the steps run.
    #[command(flatten)]
    #[serde(flatten)]
    study: StudyOptions,
}

/// What the run did, step by step: written to `manifest.toml` as it goes, read by the report.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// What every study's manifest holds.
    #[serde(flatten)]
    pub header: Header,
    /// Parameter file the searches used, if not the built-in fit.
    pub params: Option<String>,
    /// External engine command and its `id name`, if one was used.
    pub engine: Option<(String, String)>,
    /// External engine's UCI_Elo.
    pub engine_elo: u32,
    /// The power statement (Markdown): what each experiment is sized to decide.
    #[serde(default)]
    pub power: String,
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

/// What the steps of a run are made of: the options, the scale, the time factor, the shared
/// step builder and the run's own fit (when the searches use it).
struct Planned<'a> {
    args: &'a ReproduceArgs,
    scale: &'a Scale,
    factor: f64,
    build: Builder<'a>,
    params: Option<String>,
}

impl Planned<'_> {
    /// `step` reading the run's own fit, after the fit step, when the searches use it.
    fn with_params(&self, step: Step) -> Step {
        match &self.params {
            Some(p) => step.arg("--params").arg(p.clone()).after("fit"),
            None => step,
        }
    }

    /// A scale's time, multiplied by the time factor.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "milliseconds"
    )]
    fn scaled_ms(&self, ms: u64) -> String {
        ((ms as f64 * self.factor).round().max(1.0) as u64).to_string()
    }

    /// Table 1: the regression of deep on shallow values, on the sample and (at the scales
    /// that generate them) on balanced endgames from self-play, so that it has points near 0;
    /// then the fit of every MPC pair.
    fn regression(&self) -> Vec<Step> {
        let (layout, scale) = (self.build.layout, self.scale);
        let depths = format!("1..{}", scale.regress_depth);
        let regress = |name: &str, suite: &str, out: &str| {
            Step::new(name, &["regress", "--suite", suite, "--depths", &depths])
                .args(&["--threads", &self.build.threads, "--out", out])
                .sharding(crate::common::pipeline::Sharding::OutFile)
                .rerun(Rerun::Resume)
        };
        let mut samples = vec![layout.path("samples.csv")];
        let mut steps = vec![regress(
            "regress",
            &layout.path("positions.epd"),
            &samples[0],
        )];
        let mut fit = Step::new("fit", &["fit"]).after("regress");
        if scale.endgame_games > 0 {
            steps.push(
                Step::new("endgames", &["suite", "generate"])
                    .args(&["--games", &scale.endgame_games.to_string()])
                    .args(&["--seed", &self.build.seed, "--min-ply", "40"])
                    .args(&["--stage", "endgame", "--max-score-cp", "300"])
                    .args(&["--id-prefix", "endgame"])
                    .args(&["--out", &layout.path("endgames.epd")])
                    .rerun(Rerun::Resume),
            );
            samples.push(layout.path("samples-endgames.csv"));
            steps.push(
                regress(
                    "regress-endgames",
                    &layout.path("endgames.epd"),
                    &samples[1],
                )
                .after("endgames"),
            );
            fit = fit.after("regress-endgames");
        }
        let pairs: Vec<String> = scale::PAIRS
            .iter()
            .filter(|(_, deep)| *deep <= scale.regress_depth)
            .map(|(s, d)| format!("{s}:{d}"))
            .collect();
        for file in samples {
            fit = fit.arg(file);
        }
        steps.push(
            fit.args(&["--pairs", &pairs.join(",")])
                .args(&["--out", &layout.path("params.toml")])
                .args(&["--plot", &layout.path("fit.svg")])
                .rerun(Rerun::Force),
        );
        steps
    }

    /// Sections 3-4 and the Multi-Cut family: depth reached in fixed time (or, under
    /// `--deterministic`, the tree to the scale's trace depth); the oracle's regret,
    /// probabilistic alpha-beta included (in a fixed time, or the nodes that time costs at the
    /// reference speed); each method's cuts alone, counted and sampled cuts verified.
    fn searches(&self, engine: Option<&str>) -> Vec<Step> {
        let (layout, scale) = (self.build.layout, self.scale);
        let deterministic = self.args.deterministic;
        let depth = self.build.depth(
            "depth",
            [
                &layout.path("positions.epd"),
                &scale::DEPTH_VARIANTS.join(","),
            ],
            "depth.csv",
        );
        let mut steps = vec![self.with_params(if deterministic {
            depth.args(&["--depth", &scale.trace_depth.unsigned_abs().to_string()])
        } else {
            depth.args(&["--time-ms", &self.scaled_ms(scale.depth_time_ms)])
        })];
        let oracle = oracle_spec(
            engine,
            scale.engine_oracle_depth,
            scale.internal_oracle_depth,
        );
        let oracle_step = self
            .build
            .oracle(
                "oracle",
                [
                    &layout.path("oracle-positions.epd"),
                    &scale::ORACLE_VARIANTS.join(","),
                    &oracle,
                ],
                "regret.csv",
            )
            .args(&["--threads", &self.build.threads]);
        steps.push(self.with_params(if deterministic {
            oracle_step.args(&["--nodes", &scale.oracle_nodes().to_string()])
        } else {
            oracle_step.args(&["--time-ms", &self.scaled_ms(scale.oracle_time_ms)])
        }));
        let suite = layout.path("trace-positions.epd");
        for (method, verify) in scale::TRACED {
            let rates = format!(
                "{},{method}={verify}",
                crate::common::pipeline::steps::VERIFY_OTHERS
            );
            steps.push(self.with_params(self.build.trace(
                format!("trace-{method}"),
                [&suite, method],
                &scale.trace_depth.to_string(),
                &rates,
                &format!("traces/{method}.csv"),
            )));
        }
        steps
    }

    /// A match engine's words for `variant`: with the built-in fit its whole configuration,
    /// written to `variants/` and played from there; with the run's own fit, which exists only
    /// once the fit step has run, the variant reading it (`params=`).
    fn engine_words(&self, variant: &str, name: &str) -> Result<Vec<String>, String> {
        let mut words = match &self.params {
            Some(p) => vec![format!("variant={variant}"), format!("params={p}")],
            None => vec![format!(
                "variant={}",
                variant_file(self.build.layout, variant)?
            )],
        };
        words.push(format!("name={name}"));
        Ok(words)
    }

    /// One match of a table: `first` against `second` at the scale's time control `tc` (or
    /// the nodes it stands for), `games` games, stopped early by `sprt` if given.
    fn game_match(
        &self,
        name: String,
        [first, second]: [&[String]; 2],
        (tc, games, sprt): (&str, usize, Option<String>),
    ) -> Result<Step, String> {
        let limit = MatchLimit::new(
            tc,
            self.args.tc.as_deref(),
            self.factor,
            self.args.deterministic,
        )?;
        let mut rule = limit.args();
        if let Some(sprt) = sprt {
            rule.extend(["--sprt".to_string(), sprt]);
        }
        rule.extend(["--games".to_string(), games.to_string()]);
        let file = format!("matches/{name}");
        let step = self.build.game_match(name, [first, second], &rule, &file);
        Ok(if self.params.is_some() {
            step.after("fit")
        } else {
            step
        })
    }

    /// Tables 2-4: MPC at each end and middle threshold against null move, the headline
    /// (MPC against null move until the GSPRT decides or the cap), and Table 4's variants
    /// against the external engine at each time control.
    fn matches(&self, engine: Option<(&str, &str)>) -> Result<Vec<Step>, String> {
        let scale = self.scale;
        let games = self.args.games.unwrap_or(scale.games);
        let baseline = self.engine_words("null-move", "null-move")?;
        let mut steps = Vec::new();
        for &t in scale.t_end {
            let v = format!("null-move+mpc@1:{t}");
            steps.push(self.game_match(
                format!("table2-tend-{t}"),
                [&self.engine_words(&v, &v)?, &baseline],
                (scale.tc_table2, games, None),
            )?);
        }
        for &t in scale
            .t_mid
            .iter()
            .filter(|&&t| t != 1.0 || !scale.t_end.contains(&1.0))
        {
            let v = format!("null-move+mpc@{t}:1");
            steps.push(self.game_match(
                format!("table3-tmid-{t}"),
                [&self.engine_words(&v, &v)?, &baseline],
                (scale.tc_table3, games, None),
            )?);
        }
        if let Some(h) = &scale.headline {
            let sprt = format!("elo0={},elo1={},alpha=0.05,beta=0.05", h.elo.0, h.elo.1);
            steps.push(self.game_match(
                HEADLINE.to_string(),
                [&self.engine_words(h.variant, h.variant)?, &baseline],
                (h.tc, h.max_games, Some(sprt)),
            )?);
        }
        if let Some((command, _)) = engine {
            let elo = self.args.engine_elo;
            let opponent = [
                format!("uci={command}"),
                "option.UCI_LimitStrength=true".to_string(),
                format!("option.UCI_Elo={elo}"),
                format!("name=stockfish-{elo}"),
            ];
            for (k, tc) in scale.tc_table4.iter().enumerate() {
                for (v, ..) in report::PAPER_TABLE4 {
                    steps.push(self.game_match(
                        table4_match(k + 1, v),
                        [&self.engine_words(v, v)?, &opponent],
                        (tc, games, None),
                    )?);
                }
            }
        }
        Ok(steps)
    }
}

impl Study for ReproduceArgs {
    type Manifest = Manifest;
    const KIND: StudyKind = StudyKind::Reproduce;
    const REPORT: fn(&Layout, &Manifest) -> Result<String, String> = report::write;

    fn deterministic(&self) -> bool {
        self.deterministic
    }

    fn plan(&self, manifest: &mut Manifest, context: &Context) -> Result<Vec<Step>, String> {
        let (args, scale, layout) = (self, &self.scale(), context.layout);
        layout.create_folders(&["traces", "matches", "variants"])?;
        let engine = crate::common::engine_process::find_engine(&args.engine);
        manifest.engine = match &engine {
            Some(command) => Some((command.clone(), engine_name(command)?)),
            None => None,
        };
        let planned = Planned {
            args,
            scale,
            factor: context.factor,
            build: Builder {
                layout,
                threads: args.study.threads.to_string(),
                seed: args.study.seed.to_string(),
            },
            params: scale.own_fit.then(|| layout.path("params.toml")),
        };
        let mut steps = planned.regression();
        steps.extend(planned.searches(engine.as_deref()));
        let engine = manifest.engine.as_ref();
        steps.extend(planned.matches(engine.map(|(c, n)| (c.as_str(), n.as_str())))?);
        manifest.params.clone_from(&planned.params);
        manifest.engine_elo = args.engine_elo;
        let header = &manifest.header;
        manifest.power = power::statement(&power::Sizes {
            scale,
            factor: context.factor,
            speed_nps: header.speed_nps,
            threads: args.study.threads,
            positions: header.positions,
            games: args.games.unwrap_or(scale.games),
            tc: args.tc.as_deref(),
            table4: manifest.engine.is_some(),
            deterministic: args.deterministic,
        })?;
        eprintln!("{}", manifest.power);
        if manifest.engine.is_none() {
            eprintln!(
                "no external engine (--engine {}): Table 4 is skipped",
                args.engine
            );
        }
        Ok(steps)
    }
}

impl ReproduceArgs {
    /// The run's scale: `--full`, `--smoke`, `--standard`, else the quick one.
    fn scale(&self) -> Scale {
        if self.full {
            Scale::FULL
        } else if self.smoke {
            Scale::SMOKE
        } else if self.standard {
            Scale::STANDARD
        } else {
            Scale::QUICK
        }
    }
}

/// Runs `cutlab reproduce`.
///
/// # Errors
/// A bad option, an unreadable suite, an existing run without `--resume`, or a failing step.
pub fn run(args: &ReproduceArgs) -> Result<(), String> {
    study::run(args, &args.scale().sample, &args.study, &args.out)
}
