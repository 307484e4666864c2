//! `cutlab`: a UCI chess engine for forward-pruning research, and its experiments.
//!
//! With no arguments (or `uci`) it speaks UCI on standard input and output.

mod cmd;
mod common;
mod uci;

use std::process::ExitCode;

use clap::Parser;

/// cutlab: what does a forward-pruning method buy a game-tree search, and what does it cost?
#[derive(Parser)]
#[command(name = "cutlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<cmd::Command>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => {
            uci::server::run();
            Ok(())
        }
        Some(command) => command.run(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // The style of clap's own errors (a bad option's value, an unknown flag), so that
            // every error reads alike.
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
