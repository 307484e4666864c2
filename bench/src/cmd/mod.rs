//! The subcommands, one file (or folder) each.

mod ablate;
mod adjudicate;
pub(crate) mod bench;
mod datagen;
mod depth;
mod fit;
mod games;
mod match_report;
mod matches;
pub(crate) mod merge;
pub(crate) mod oracle;
mod perft;
pub(crate) mod predict;
mod profile;
mod regress;
mod replay;
mod report;
mod reproduce;
mod slurm;
mod step;
mod suite;
mod trace;
mod train;
mod tune_eval;
mod variants;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Command {
    /// Speak UCI on stdin/stdout (the default with no subcommand).
    Uci,
    /// Search the built-in positions to a fixed depth; the node total is a deterministic
    /// signature (`<N> nodes <M> nps` on the last line).
    Bench(bench::BenchArgs),
    /// Count leaf nodes of the legal move tree (move-generator check).
    Perft(perft::PerftArgs),
    /// Search positions recording every node and cut test: per-node CSV, counters,
    /// distributions, and optional verification of sampled cuts.
    Trace(trace::TraceArgs),
    /// Search every position to each depth and record (position, depth, value) rows: the
    /// data ProbCut's model is fitted on.
    Regress(regress::RegressArgs),
    /// Fit v (deep) = a v' (shallow) + b per depth pair and stage; write the parameter file
    /// and the scatter plot.
    Fit(fit::FitArgs),
    /// Fixed-time depth comparison of variants (Jiang and Buro, sections 3-4), or time and
    /// nodes to a fixed depth; parallel, resumable, with paired differences.
    Depth(depth::DepthArgs),
    /// Regret of each variant's chosen move, judged by a deeper full-width search or an
    /// external UCI engine scoring every root move.
    Oracle(oracle::OracleArgs),
    /// Training positions for the network from self-play, or from games already played
    /// (`--from-games`): bulletformat records with search scores and game results;
    /// resumable, shardable.
    Datagen(datagen::DatagenArgs),
    /// Play games between variants and UCI engines: Elo, LOS, pentanomial, SPRT, PGN.
    Match(matches::MatchArgs),
    /// Adjudication rules replayed on games played to their end (`match --scores`): the
    /// results they would change, with an interval, and the moves they would save.
    Adjudicate(adjudicate::AdjudicateArgs),
    /// The summary of one match from its games CSVs (resumed runs, shards): Elo, LOS,
    /// pentanomial, SPRT state.
    MatchReport(match_report::MatchReportArgs),
    /// Jiang and Buro (2003) end to end, with our additions: regression, depth, threshold
    /// sweeps, matches, oracle regret, false cuts; writes DIR/report.md with tables and figures.
    Reproduce(reproduce::ReproduceArgs),
    /// Sample a variant's search with pprof: flamegraph SVG and pprof protobuf.
    Profile(profile::ProfileArgs),
    /// Concatenate result CSVs (e.g. shards) checking that their headers agree.
    Merge(merge::MergeArgs),
    /// What each forward-pruning method of a stack buys and costs: leave one out of the stack
    /// and add one in to a baseline; depth, tree size, false cuts, regret and Elo per method.
    Ablate(Box<ablate::AblateArgs>),
    /// Play an ablation's rows that its stopping rule decided early again, with another seed
    /// at a fixed number of games: how much the stop inflated each size.
    Replay(replay::ReplayArgs),
    /// Before an effort's games, each comparison's worth there predicted from the efforts
    /// an ablation has played, written once into RUN/predictions-N.csv for its matches to score.
    Predict(predict::PredictArgs),
    /// Write a study's report.md again from its data alone (a run of `ablate`, `replay` or
    /// `reproduce`, a set of matches, regression fits, or two ablations contrasted); `--check`
    /// fails when the committed report differs.
    Report(report::ReportArgs),
    /// Run one step of a run's plan (DIR/plan.toml): whole, one shard, or merging its shards;
    /// what each Slurm job of `reproduce --slurm` and `cutlab slurm` runs.
    Step(step::StepArgs),
    /// Submit one experiment (regress, depth, oracle, trace, match, ablate) to Slurm as a job
    /// array of shards and a merge job after it.
    Slurm(slurm::SlurmArgs),
    /// Fit the evaluation's weights to game results (Texel's method) from positions with
    /// results (EPD `c9`, or PGN games); writes the engine's weights file.
    TuneEval(tune_eval::TuneEvalArgs),
    /// Train the network on `datagen`'s positions and quantise it into the engine's layout.
    Train(train::TrainArgs),
    /// Position suites.
    #[command(subcommand)]
    Suite(SuiteCommand),
    /// PGNs packed into about a fifth of their gzipped size (a study's games in the
    /// repository), and back byte for byte.
    #[command(subcommand)]
    Games(games::GamesCommand),
    /// List the variant parts that can be joined with `+` into a variant name.
    Variants,
}

#[derive(Subcommand)]
pub enum SuiteCommand {
    /// Generate positions from self-play games.
    Generate(suite::GenerateArgs),
}

impl Command {
    /// Runs the subcommand.
    pub fn run(self) -> Result<(), String> {
        if matches!(
            self,
            Command::Depth(_)
                | Command::Oracle(_)
                | Command::Regress(_)
                | Command::Match(_)
                | Command::Reproduce(_)
                | Command::Ablate(_)
                | Command::Replay(_)
                | Command::Suite(_)
                | Command::Datagen(_)
        ) {
            crate::common::process::say_resume_on_interrupt();
        }
        match self {
            Command::Uci => {
                crate::uci::server::run();
                Ok(())
            }
            Command::Bench(args) => bench::run(&args),
            Command::Perft(args) => perft::run(&args),
            Command::Trace(args) => trace::run(&args),
            Command::Regress(args) => regress::run(&args),
            Command::Depth(args) => depth::run(&args),
            Command::Datagen(args) => datagen::run(&args),
            Command::Merge(args) => merge::run(&args),
            Command::Match(args) => matches::run(&args),
            Command::MatchReport(args) => match_report::run(&args),
            Command::Adjudicate(args) => adjudicate::run(&args),
            Command::Oracle(args) => oracle::run(&args),
            Command::Fit(args) => fit::run(&args),
            Command::Reproduce(args) => reproduce::run(&args),
            Command::Ablate(args) => ablate::run(&args),
            Command::Replay(args) => replay::run(&args),
            Command::Predict(args) => predict::run(&args),
            Command::Report(args) => report::run(&args),
            Command::Step(args) => step::run(&args),
            Command::Slurm(args) => slurm::run(&args),
            Command::Profile(args) => profile::run(&args),
            Command::Suite(SuiteCommand::Generate(args)) => suite::run(&args),
            Command::Games(command) => games::run(&command),
            Command::TuneEval(args) => tune_eval::run(&args),
            Command::Train(args) => train::run(&args),
            Command::Variants => variants::run(),
        }
    }
}
