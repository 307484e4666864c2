//! `cutlab`: a UCI chess engine for forward-pruning research, and its experiments.
//!
//! With no arguments (or `uci`) it speaks UCI on standard input and output.

mod bench;
mod depth;
mod fit;
mod generate;
mod matches;
mod merge;
mod options;
mod oracle;
mod parallel;
mod positions;
mod profile;
mod regress;
mod reproduce;
mod results;
mod trace;
mod uci;
mod uci_client;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// cutlab: what does a forward-pruning method buy a game-tree search, and what does it cost?
#[derive(Parser)]
#[command(name = "cutlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default with no subcommand).
    Uci,
    /// Search the built-in positions to a fixed depth; the node total is a deterministic
    /// signature (`<N> nodes <M> nps` on the last line).
    Bench(bench::BenchArgs),
    /// Count leaf nodes of the legal move tree (move-generator check).
    Perft(bench::PerftArgs),
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
    /// Play games between variants and UCI engines: Elo, LOS, pentanomial, SPRT, PGN.
    Match(matches::MatchArgs),
    /// Jiang and Buro (2003) end to end, with our additions: regression, depth, threshold
    /// sweeps, matches, oracle regret, false cuts; writes DIR/report.md with tables and figures.
    Reproduce(reproduce::ReproduceArgs),
    /// Sample a variant's search with pprof: flamegraph SVG and pprof protobuf.
    Profile(profile::ProfileArgs),
    /// Concatenate result CSVs (e.g. shards) checking that their headers agree.
    Merge(merge::MergeArgs),
    /// Position suites.
    #[command(subcommand)]
    Suite(SuiteCommand),
    /// List the variant parts that can be joined with `+` into a variant name.
    Variants,
}

#[derive(Subcommand)]
enum SuiteCommand {
    /// Generate positions from self-play games.
    Generate(generate::GenerateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None | Some(Command::Uci) => {
            uci::run();
            Ok(())
        }
        Some(Command::Bench(args)) => bench::run_bench(&args),
        Some(Command::Perft(args)) => bench::run_perft(&args),
        Some(Command::Trace(args)) => trace::run(&args),
        Some(Command::Regress(args)) => regress::run(&args),
        Some(Command::Depth(args)) => depth::run(&args),
        Some(Command::Merge(args)) => merge::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Oracle(args)) => oracle::run(&args),
        Some(Command::Fit(args)) => fit::run(&args),
        Some(Command::Reproduce(args)) => reproduce::run(&args),
        Some(Command::Profile(args)) => profile::run(&args),
        Some(Command::Suite(SuiteCommand::Generate(args))) => generate::run(&args),
        Some(Command::Variants) => {
            for (name, what) in cutlab_search::config::PRESET_PARTS {
                println!("{name:<14} {what}");
            }
            println!("\ndefault: {}", cutlab_search::DEFAULT_VARIANT);
            Ok(())
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("cutlab: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A variant (preset or TOML file) with ProbCut models from `params` and the prob-ab
/// confidence when given.
fn resolve_config(
    variant: &str,
    params: Option<&std::path::Path>,
    confidence: Option<f64>,
) -> Result<cutlab_search::SearchConfig, String> {
    let mut config = cutlab_search::SearchConfig::resolve(variant).map_err(|e| e.to_string())?;
    if let Some(path) = params {
        let fitted = cutlab_search::fit_params::FitParams::load(path)?;
        config.apply_params(&fitted).map_err(|e| e.to_string())?;
    }
    // Applies to the variants that have prob-ab (a list may mix them with others).
    if let Some(p) = confidence
        && config.prob_ab.is_some()
    {
        config.set_confidence(p).map_err(|e| e.to_string())?;
    }
    Ok(config)
}

/// The suite at `path`, or the built-in one.
fn load_suite(
    path: Option<&std::path::Path>,
    skip_invalid: bool,
) -> Result<cutlab_suites::Suite, String> {
    let suite = match path {
        Some(p) => cutlab_suites::load(p, skip_invalid).map_err(|e| e.to_string())?,
        None => cutlab_suites::builtin(),
    };
    if suite.skipped > 0 {
        eprintln!(
            "skipped {} malformed lines of {}",
            suite.skipped, suite.source
        );
    }
    Ok(suite)
}

/// The `K/N` slice of `items` (K from 1): every N-th item from the K-th, a stable partition.
fn shard<'a, T>(items: &'a [T], spec: Option<&str>) -> Result<Vec<&'a T>, String> {
    let Some(spec) = spec else {
        return Ok(items.iter().collect());
    };
    let bad = || format!("--shard: expected 'K/N' with 1 <= K <= N, got '{spec}'");
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.parse::<usize>().map_err(|_| bad())?,
        n.parse::<usize>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok(items.iter().skip(k - 1).step_by(n).collect())
}

/// Writes `<out stem>.config.toml`: command, arguments, version, suite and search configuration.
fn write_config<A: serde::Serialize>(
    out: &std::path::Path,
    command: &str,
    args: &A,
    config: &cutlab_search::SearchConfig,
    suite: &cutlab_suites::Suite,
) -> Result<(), String> {
    #[derive(serde::Serialize)]
    struct Written<'a, A> {
        cutlab_version: &'a str,
        command: &'a str,
        suite_source: &'a str,
        positions: usize,
        args: &'a A,
        search: &'a cutlab_search::SearchConfig,
    }
    let text = toml::to_string(&Written {
        cutlab_version: env!("CARGO_PKG_VERSION"),
        command,
        suite_source: &suite.source,
        positions: suite.positions.len(),
        args,
        search: config,
    })
    .map_err(|e| format!("configuration: {e}"))?;
    let path = out.with_extension("config.toml");
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

mod progress {
    //! Progress bars on stderr (hidden when stderr is not a terminal).

    use indicatif::{ProgressBar, ProgressStyle};

    /// A bar over `len` items named `what`, with elapsed time and ETA.
    pub fn bar(len: u64, what: &str) -> ProgressBar {
        let template =
            format!("{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}");
        ProgressBar::new(len).with_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shards_partition_the_suite() {
        let items: Vec<u32> = (0..10).collect();
        let mut all: Vec<u32> = (1..=3)
            .flat_map(|k| super::shard(&items, Some(&format!("{k}/3"))).unwrap())
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, items);
        assert!(super::shard(&items, Some("0/3")).is_err());
        assert!(super::shard(&items, Some("4/3")).is_err());
    }
}
