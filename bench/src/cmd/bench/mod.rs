//! `cutlab bench`: the node-count signature over the built-in positions, and the speed.

mod positions;

use std::time::Instant;

use clap::{Args, ValueEnum};
use cutlab_instrument::{Counters, CsvSink, NodeFilter, NoopObserver, Observer};
use cutlab_search::{DEFAULT_VARIANT, Limits, Position, Search, SearchConfig};

use positions::BENCH;

/// Depth of the bench signature.
pub const BENCH_DEPTH: i32 = 9;

/// Options of `cutlab bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Depth of every search (the default takes about 3-4 s on one core).
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: i32,
    /// Models and confidence.
    #[command(flatten)]
    models: crate::common::options::ModelOptions,
    /// Variant (preset name or TOML file).
    #[arg(long, default_value = DEFAULT_VARIANT, value_parser = crate::common::options::variant)]
    variant: String,
    /// Search only every N-th bench position, from the first (`--depth 6 --every 4` is the
    /// search signature recorded beside every result).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    every: u16,
    /// Transposition table size in MiB (cleared before each position).
    #[arg(long, default_value_t = 16, value_parser = crate::common::options::hash_mib)]
    hash_mb: usize,
    /// Observer attached to the search (to measure instrumentation overhead; the node count
    /// must not change).
    #[arg(long, value_enum, default_value_t = BenchObserver::Noop)]
    observer: BenchObserver,
}

/// Observers `bench` can attach.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BenchObserver {
    /// None: the uninstrumented engine.
    Noop,
    /// Cut-test counters per method, depth and node type.
    Counters,
    /// Full per-node CSV, written to a temporary file and deleted.
    Csv,
}

/// Runs the bench and prints one line per position and the summary line.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let config = args.models.config(&args.variant)?;
    match args.observer {
        BenchObserver::Noop => bench_with(args, config, NoopObserver, true).map(drop),
        BenchObserver::Counters => {
            let (counters, ..) = bench_with(args, config, Counters::default(), true)?;
            eprintln!("{}", counters.summary());
            Ok(())
        }
        BenchObserver::Csv => {
            let path =
                std::env::temp_dir().join(format!("cutlab-bench-{}.csv", std::process::id()));
            let sink = CsvSink::create(&path, NodeFilter::default()).map_err(|e| e.to_string())?;
            let (sink, ..) = bench_with(args, config, sink, true)?;
            let stats = sink.finish().map_err(|e| e.to_string())?;
            eprintln!("{} node rows written (file deleted)", stats.node_rows);
            let _ = std::fs::remove_file(cutlab_instrument::csv_sink::tests_path(&path));
            let _ = std::fs::remove_file(&path);
            Ok(())
        }
    }
}

/// The default variant's speed over the bench positions at `depth`, nodes per second (what
/// `reproduce` scales its time limits by).
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn speed(depth: i32) -> Result<u64, String> {
    let config = crate::common::options::ModelOptions::default().config(DEFAULT_VARIANT)?;
    measure(&config, depth, 1).map(|(_, nps)| nps)
}

/// Depth of [`signature`]: deep enough that every method of `modern` is tried in its tree.
pub const SIGNATURE_DEPTH: i32 = 6;

/// Positions of [`signature`]: every fourth bench position (middlegames to endgames), so that
/// it costs well under a second (0.2 s for `null-move+lmr`, 0.7 s for `plain`).
pub const SIGNATURE_EVERY: u16 = 4;

/// The search signature of `config`: its node count over every [`SIGNATURE_EVERY`]-th bench
/// position at [`SIGNATURE_DEPTH`], `cutlab bench --depth 6 --every 4`. Recorded beside every
/// result a search makes, so that a resume with a search that behaves otherwise (a changed
/// method, the evaluation, a network) is refused instead of mixing two engines' rows.
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn signature(config: &SearchConfig) -> Result<u64, String> {
    nodes(config, SIGNATURE_DEPTH, SIGNATURE_EVERY)
}

/// The node count of `config` over every `every`-th bench position at `depth` (the default
/// variant's over all of them at [`BENCH_DEPTH`] is the bench signature).
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn nodes(config: &SearchConfig, depth: i32, every: u16) -> Result<u64, String> {
    measure(config, depth, every).map(|(nodes, _)| nodes)
}

/// The node count and speed of `config` over every `every`-th bench position at `depth`,
/// quietly, with a 16 MiB table and no observer.
fn measure(config: &SearchConfig, depth: i32, every: u16) -> Result<(u64, u64), String> {
    let args = BenchArgs {
        depth,
        every,
        models: crate::common::options::ModelOptions::default(),
        variant: String::new(),
        hash_mb: 16,
        observer: BenchObserver::Noop,
    };
    bench_with(&args, config.clone(), NoopObserver, false).map(|(_, nodes, nps)| (nodes, nps))
}

/// Searches every `every`-th bench position to the bench's depth, printing each node count
/// and the total (when `print`); returns the observer, the total and the speed, nodes per
/// second.
fn bench_with<O: Observer>(
    args: &BenchArgs,
    config: SearchConfig,
    observer: O,
    print: bool,
) -> Result<(O, u64, u64), String> {
    let mut search = Search::with_observer(config, args.hash_mb, observer);
    let start = Instant::now();
    let mut total = 0;
    for (fen, _source) in BENCH.iter().step_by(usize::from(args.every)) {
        let pos = Position::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
        search.clear();
        let result = search.go(&pos, &[], &Limits::depth(args.depth), &mut |_| {});
        total += result.nodes;
        if print {
            println!("{fen} | {}", result.nodes);
        }
    }
    let ms = u64::try_from(start.elapsed().as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    let nps = total * 1000 / ms;
    if print {
        println!("{total} nodes {nps} nps");
    }
    Ok((search.observer, total, nps))
}
