//! `cutlab bench`: the node-count signature over the built-in positions, and the speed
//! ([`crate::common::bench`] measures both).

use clap::{Args, ValueEnum};
use cutlab_instrument::{Counters, CsvSink, NodeFilter, NoopObserver};
use cutlab_search::DEFAULT_VARIANT;

use crate::common::bench::{BENCH_DEPTH, Bench};

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
///
/// # Errors
/// A bad variant or models, or a file that cannot be written.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let config = args.models.config(&args.variant)?;
    let bench = Bench {
        depth: args.depth,
        every: args.every,
        hash_mb: args.hash_mb,
    };
    match args.observer {
        BenchObserver::Noop => bench.run(config, NoopObserver, true).map(drop),
        BenchObserver::Counters => {
            let counters = bench.run(config, Counters::default(), true)?.observer;
            eprintln!("{}", counters.summary());
            Ok(())
        }
        BenchObserver::Csv => {
            let path =
                std::env::temp_dir().join(format!("cutlab-bench-{}.csv", std::process::id()));
            let sink = CsvSink::create(&path, NodeFilter::default()).map_err(|e| e.to_string())?;
            let sink = bench.run(config, sink, true)?.observer;
            let stats = sink.finish().map_err(|e| e.to_string())?;
            eprintln!("{} node rows written (file deleted)", stats.node_rows);
            let _ = std::fs::remove_file(cutlab_instrument::csv_sink::tests_path(&path));
            let _ = std::fs::remove_file(&path);
            Ok(())
        }
    }
}
