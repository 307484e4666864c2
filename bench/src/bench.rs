//! `cutlab bench` (the node-count signature) and `cutlab perft`.

use std::time::Instant;

use clap::Args;
use cutlab_search::{DEFAULT_VARIANT, Limits, Position, Search, SearchConfig};
use shakmaty::Position as _;

use crate::positions::BENCH;

/// Options of `cutlab bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Depth of every search (the default takes about 3-4 s on one core).
    #[arg(long, default_value_t = 9)]
    depth: i32,
    /// Variant (preset name or TOML file).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Transposition table size in MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    hash_mb: usize,
}

/// Runs the bench and prints one line per position and the summary line.
pub fn run_bench(args: &BenchArgs) -> Result<(), String> {
    let config = SearchConfig::resolve(&args.variant).map_err(|e| e.to_string())?;
    let mut search = Search::new(config, args.hash_mb);
    let start = Instant::now();
    let mut total = 0;
    for (fen, _source) in BENCH {
        let pos = Position::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
        search.clear();
        let result = search.go(&pos, &[], &Limits::depth(args.depth), &mut |_| {});
        total += result.nodes;
        println!("{fen} | {}", result.nodes);
    }
    let ms = u64::try_from(start.elapsed().as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    println!("{total} nodes {} nps", total * 1000 / ms);
    Ok(())
}

/// Options of `cutlab perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = 5)]
    depth: u32,
}

/// Prints the perft count per root move and the total.
pub fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let mut total = 0;
    if args.depth == 0 {
        total = 1;
    } else {
        for m in pos.chess().legal_moves() {
            let child = pos.play(m).chess().clone();
            let n = shakmaty::perft(&child, args.depth - 1);
            println!("{}: {n}", cutlab_search::position::uci(m));
            total += n;
        }
    }
    let ms = start.elapsed().as_millis().max(1);
    println!("\n{total} nodes {} ms", ms);
    Ok(())
}
