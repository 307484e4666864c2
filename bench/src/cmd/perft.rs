//! `cutlab perft`: leaf nodes of the legal move tree, per root move (a move-generator check).

use std::time::Instant;

use clap::Args;
use cutlab_search::Position;
use shakmaty::Position as _;

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
pub fn run(args: &PerftArgs) -> Result<(), String> {
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
