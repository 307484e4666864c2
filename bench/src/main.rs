//! `cutlab`: a UCI chess engine for forward-pruning research, and its experiments.
//!
//! With no arguments (or `uci`) it speaks UCI on standard input and output.

mod bench;
mod positions;
mod trace;
mod uci;

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
    /// List the variant parts that can be joined with `+` into a variant name.
    Variants,
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
