//! The steps of an ablation: its settings (the scale's, with the options given in their
//! place), the commands that make each comparison's match, searches and trace, and the cost
//! the run prints before it starts.

use cutlab_instrument::Method;

use super::{
    AblateArgs, Comparison, Direction, Manifest, MatchKey, Only, Reference, Scale,
    comparison::{check_only, comparisons, plays},
    list,
};
use crate::common::pipeline::{
    Layout, Step, StepRecord, is_finished,
    steps::{Builder, oracle_spec},
    study::resumed_otherwise,
};

/// The settings of a run: the scale's, with the options given in their place.
pub(super) struct Settings {
    pub(super) depth: String,
    pub(super) nodes: Vec<u64>,
    /// Efforts that play only some comparisons.
    pub(super) only: Vec<Only>,
    pub(super) looks: Vec<u64>,
    pub(super) stop_within: f64,
}

impl Settings {
    /// The settings, checked before anything runs. A resumed run (`run`: its manifest) keeps
    /// its efforts, looks, bound and `--only` where they are left out, and refuses others: its
    /// matches were played under them, and a match under others would be mixed in or left
    /// unreported. It may add efforts above its last (the ladder's next rung), and an `--only`
    /// for each.
    pub(super) fn new(
        args: &AblateArgs,
        scale: &Scale,
        run: Option<&Manifest>,
    ) -> Result<Settings, String> {
        // A resume keeps what was recorded; the efforts alone may grow above the last.
        let pick = |option: &str, given: &[u64], recorded: Option<&[u64]>, default: &[u64]| {
            let grows = option == "--nodes";
            match (given, recorded) {
                ([], Some(r)) => Ok(r.to_vec()),
                ([], None) => Ok(default.to_vec()),
                (g, Some(r)) if g != r && !(grows && g.starts_with(r)) => {
                    Err(resumed_otherwise(option, &list(r), &list(g)))
                }
                (g, _) => Ok(g.to_vec()),
            }
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
            only: Vec::new(),
        };
        crate::common::options::no_repeats("--nodes", &settings.nodes)?;
        if settings.nodes.windows(2).any(|w| w[0] >= w[1]) {
            return Err("--nodes: give the efforts lowest first".into());
        }
        let only = resumed_only(&args.only, run)?;
        check_only(&only, &settings.nodes, &comparisons(args)?.2)?;
        let settings = Settings { only, ..settings };
        // The match's own rule checks the looks and the bound before any step runs.
        cutlab_analysis::elo::Looks::new(settings.looks.clone(), settings.stop_within)?;
        Ok(settings)
    }
}

/// The run's `--only`: a resume's own, with those `given` for the efforts it adds; `given`
/// alone for a new run. A resume may widen an effort's `--only` (every comparison the run
/// plays there still named: its finished matches stay what they are, and the rung grows to
/// the whole effort as its matches are added), never narrow it or restrict an effort the run
/// plays in full.
///
/// # Errors
/// A resume whose `given` leaves out a comparison the run plays at an effort it has.
fn resumed_only(given: &[Only], run: Option<&Manifest>) -> Result<Vec<Only>, String> {
    let Some(run) = run.filter(|_| !given.is_empty()) else {
        return Ok(run.map_or_else(|| given.to_vec(), |r| r.only.clone()));
    };
    let at = |only: &[Only], nodes: u64| only.iter().find(|o| o.nodes == nodes).cloned();
    let widens = run
        .nodes
        .iter()
        .all(|&nodes| match (at(&run.only, nodes), at(given, nodes)) {
            (Some(own), Some(wider)) => own
                .comparisons
                .iter()
                .all(|c| wider.comparisons.contains(c)),
            (Some(_), None) => false,
            (None, restricted) => restricted.is_none(),
        });
    if !widens {
        let spelled = |only: &[Only]| {
            only.iter()
                .filter(|o| run.nodes.contains(&o.nodes))
                .map(Only::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Err(resumed_otherwise(
            "--only",
            &spelled(&run.only),
            &spelled(given),
        ));
    }
    Ok(given.to_vec())
}

/// Time per search of the depth and regret comparisons: `--time-ms`, else the scale's times
/// `factor`.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "milliseconds"
)]
pub(super) fn time_ms(args: &AblateArgs, scale: &Scale, factor: f64) -> u64 {
    args.time_ms
        .unwrap_or_else(|| (scale.time_ms as f64 * factor).round().max(1.0) as u64)
}

/// What the steps of a run are made of: the options, the scale's settings, the time per
/// search, and the stack and baseline spelled out.
pub(super) struct Planned<'a> {
    pub(super) args: &'a AblateArgs,
    pub(super) scale: &'a Scale,
    pub(super) settings: &'a Settings,
    pub(super) time_ms: String,
    pub(super) stack: &'a str,
    pub(super) baseline: &'a str,
}

impl Planned<'_> {
    /// The variant a comparison is measured against.
    fn reference_of(&self, c: &Comparison) -> &str {
        match c.reference() {
            Reference::Stack => self.stack,
            Reference::Baseline => self.baseline,
        }
    }

    /// The variant lists of the searches, `stack` and `baseline`: each reference, then every
    /// variant compared with it.
    fn lists(&self, comparisons: &[Comparison]) -> Vec<(&'static str, String)> {
        [
            (Reference::Stack, self.stack),
            (Reference::Baseline, self.baseline),
        ]
        .into_iter()
        .map(|(reference, variant)| {
            let variants: Vec<&str> = std::iter::once(variant)
                .chain(
                    comparisons
                        .iter()
                        .filter(|c| c.reference() == reference && c.searches_a_tree())
                        .map(|c| c.variant.as_str()),
                )
                .collect();
            (reference.name(), variants.join(","))
        })
        .collect()
    }

    /// Elo: each variant against its reference, at each effort, stopped by the looks.
    fn matches(&self, build: &Builder, comparisons: &[Comparison]) -> Vec<Step> {
        let settings = self.settings;
        let looks = list(&settings.looks);
        let mut steps = Vec::new();
        for (k, nodes) in settings.nodes.iter().enumerate() {
            for c in comparisons
                .iter()
                .filter(|c| plays(c.direction, &c.name(), (k, *nodes), &settings.only))
            {
                let mut rule = vec![
                    "--nodes".to_string(),
                    nodes.to_string(),
                    "--looks".to_string(),
                    looks.clone(),
                    "--stop-within".to_string(),
                    settings.stop_within.to_string(),
                ];
                if let Some(openings) = &self.args.openings {
                    rule.extend(["--openings".to_string(), openings.display().to_string()]);
                }
                for (option, value) in
                    [("--draw", &self.args.draw), ("--resign", &self.args.resign)]
                {
                    if let Some(value) = value {
                        rule.extend([option.to_string(), value.clone()]);
                    }
                }
                let mut variant = vec![
                    format!("variant={}", c.variant),
                    format!("name={}", c.name()),
                ];
                if c.direction == Direction::Doubled {
                    variant.push(format!("nodes={}", 2 * nodes));
                }
                let reference = [
                    format!("variant={}", self.reference_of(c)),
                    format!("name={}", c.reference().name()),
                ];
                let key = MatchKey::of(c, *nodes);
                let file = key.games_file();
                steps.push(build.game_match(
                    key.step(),
                    [&variant, &reference],
                    &rule,
                    file.trim_end_matches(".csv"),
                ));
            }
        }
        steps
    }

    /// False cuts and shares of cuts: the stack (every method of it verified at the scale's
    /// share, quiescence futility at the trace's share of others), and every variant that adds
    /// a method (that method at the scale's share, the baseline's at the share of others).
    fn traces(&self, build: &Builder, comparisons: &[Comparison]) -> Vec<Step> {
        let rate = self.scale.verify_rate;
        let others = crate::common::pipeline::steps::VERIFY_OTHERS;
        let suite = build.layout.path("trace-positions.epd");
        std::iter::once((
            "stack".to_string(),
            self.stack.to_string(),
            format!("{rate},qsearch-futility={others}"),
        ))
        .chain(
            comparisons
                .iter()
                .filter(|c| c.direction != Direction::Without && c.searches_a_tree())
                .map(|c| {
                    let rates = match Method::from_name(c.traced_method()) {
                        Some(m) => format!("{others},{}={rate}", m.name()),
                        None => rate.to_string(),
                    };
                    (c.name(), c.variant.clone(), rates)
                }),
        )
        .map(|(name, variant, rates)| {
            build.trace(
                format!("trace-{name}"),
                [&suite, &variant],
                &self.settings.depth,
                &rates,
                &format!("traces/{name}.csv"),
            )
        })
        .collect()
    }

    /// Tree size at fixed depth, then depth at fixed time and the oracle's regret (judged by
    /// Stockfish when it is there, else by our own full-width search).
    fn searches(&self, build: &Builder, comparisons: &[Comparison]) -> Vec<Step> {
        let positions = build.layout.path("positions.epd");
        let lists = self.lists(comparisons);
        let mut steps: Vec<Step> = lists
            .iter()
            .map(|(name, list)| {
                build
                    .depth(
                        format!("size-{name}"),
                        [&positions, list],
                        &format!("size-{name}.csv"),
                    )
                    .args(&["--depth", &self.settings.depth])
            })
            .collect();
        steps.extend(self.traces(build, comparisons));
        let engine = crate::common::engine_process::find_engine(&self.args.engine);
        let oracle = oracle_spec(
            engine.as_deref(),
            self.scale.engine_oracle_depth,
            self.scale.oracle_depth,
        );
        let oracle_positions = build.layout.path("oracle-positions.epd");
        for (name, list) in &lists {
            steps.push(
                build
                    .depth(
                        format!("depth-{name}"),
                        [&positions, list],
                        &format!("depth-{name}.csv"),
                    )
                    .args(&["--time-ms", &self.time_ms]),
            );
            steps.push(
                build
                    .oracle(
                        format!("regret-{name}"),
                        [&oracle_positions, list, &oracle],
                        &format!("regret-{name}.csv"),
                    )
                    .args(&["--time-ms", &self.time_ms]),
            );
        }
        steps
    }

    /// The steps of a run, in order: the matches first (fixed nodes: any load on the machine
    /// leaves them unchanged), then the searches at fixed depth, then those at fixed time.
    pub(super) fn steps(&self, layout: &Layout, comparisons: &[Comparison]) -> Vec<Step> {
        let build = Builder {
            layout,
            threads: self.args.study.threads.to_string(),
            seed: self.args.study.seed.to_string(),
        };
        let mut steps = self.matches(&build, comparisons);
        steps.extend(self.searches(&build, comparisons));
        steps
    }
}

/// The matches' cost: games and hours from every match stopping at its first look to every
/// match running to its last, at this machine's bench speed. A game costs about 250 moves'
/// worth of nodes at bench speed: games average about 130 plies, and a game's searches run
/// slower than `bench` (a cold table at every game, the match's own work). Measured: 0.66 s
/// a game per thread at 5,000 nodes and 1.86 M nps (`modern` without its null move against
/// `modern`), as estimated.
#[expect(clippy::cast_precision_loss, reason = "estimates")]
pub(super) fn cost(
    settings: &Settings,
    comparisons: &[Comparison],
    threads: usize,
    nps: u64,
) -> String {
    let (first, last) = (
        settings.looks.first().copied().unwrap_or(0),
        settings.looks.last().copied().unwrap_or(0),
    );
    let mut matches = 0;
    let (mut low, mut high) = (0.0, 0.0);
    for (k, nodes) in settings.nodes.iter().enumerate() {
        let n = comparisons
            .iter()
            .filter(|c| plays(c.direction, &c.name(), (k, *nodes), &settings.only))
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

/// The timed searches as the run's start prints them: their `hours` at `time_ms` a search,
/// or, once every one of `steps` that measures time is among the finished `done`, that they
/// have run.
pub(super) fn searches_left(
    steps: &[Step],
    done: &[StepRecord],
    hours: f64,
    time_ms: u64,
) -> String {
    let mut timed = steps.iter().filter(|s| s.measures_time()).peekable();
    if timed.peek().is_some() && timed.all(|s| is_finished(done, &s.name)) {
        return "the searches at fixed time have run".to_string();
    }
    format!(
        "then {hours:.1} hours of searches at {time_ms} ms (depth and regret; run them on an \
         otherwise idle machine) beside the oracle's and the fixed-depth ones"
    )
}

/// The timed searches' cost in hours: the depth comparison searches each of `positions` once
/// per variant (the stack, the baseline and every compared variant), `threads` at once, and the
/// regret comparison each of `oracle_positions` once per variant, one at a time (the oracle's
/// own searches, and the fixed-depth size and trace searches, come on top).
#[expect(clippy::cast_precision_loss, reason = "estimates")]
pub(super) fn timed_hours(
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
