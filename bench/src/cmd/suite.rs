//! `cutlab suite generate`: positions from games the engine plays against itself. Each game
//! opens with seeded random legal moves, then both sides search a fixed number of nodes; the
//! positions between two plies are sampled (seeded), skipping checks and duplicates.

use std::{collections::HashSet, fmt::Write as _, path::PathBuf};

use clap::Args;
use cutlab_instrument::csv_sink::splitmix64;
use cutlab_search::{Limits, Position, Search, SearchConfig};
use shakmaty::Position as _;

use crate::common::progress;

/// Options of `cutlab suite generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Number of self-play games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the random openings and of the sampling.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
    /// Random opening plies before the engine plays.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Positions sampled per game (at most).
    #[arg(long, default_value_t = 4)]
    per_game: usize,
    /// First ply sampled.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// Last ply sampled (games also stop here).
    #[arg(long, default_value_t = 140)]
    max_ply: u32,
    /// Keep only positions of this stage (Jiang and Buro's: endgame when both sides have
    /// less than 15 points of non-pawn material).
    #[arg(long, value_parser = ["middlegame", "endgame"])]
    stage: Option<String>,
    /// Keep only positions the engine scored within ±N centipawns when it moved from them
    /// (balanced positions, where a regression on shallow values has points).
    #[arg(long)]
    max_score_cp: Option<i32>,
    /// First word of the position ids (`<prefix>.gGAME.pPLY`), to tell suites apart.
    #[arg(long, default_value = "gen")]
    id_prefix: String,
    /// EPD file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Plays the games and writes the suite.
pub fn run(args: &GenerateArgs) -> Result<(), String> {
    let mut search = Search::new(SearchConfig::default(), 8);
    let mut rng = splitmix64(args.seed);
    let mut next = || {
        rng = splitmix64(rng);
        rng
    };
    let mut seen = HashSet::new();
    let mut text = format!(
        "# cutlab suite generate --games {} --seed {} --random-plies {} --nodes {} --per-game {} --min-ply {} --max-ply {}",
        args.games,
        args.seed,
        args.random_plies,
        args.nodes,
        args.per_game,
        args.min_ply,
        args.max_ply
    );
    if let Some(stage) = &args.stage {
        let _ = write!(text, " --stage {stage}");
    }
    if let Some(cp) = args.max_score_cp {
        let _ = write!(text, " --max-score-cp {cp}");
    }
    let _ = writeln!(text, " --id-prefix {}", args.id_prefix);
    let wanted = |pos: &Position| {
        args.stage
            .as_deref()
            .is_none_or(|s| pos.stage().name() == s)
    };
    let bar = progress::bar(u64::from(args.games), "games");
    let mut count = 0;
    for game in 0..args.games {
        search.clear();
        let mut pos = Position::startpos();
        let mut keys = Vec::new();
        let mut candidates = Vec::new();
        for ply in 0..args.max_ply {
            let moves = pos.chess().legal_moves();
            if moves.is_empty() || pos.insufficient_material() || pos.halfmoves() >= 100 {
                break;
            }
            let sampled = ply >= args.min_ply && !pos.in_check() && wanted(&pos);
            let m = if ply < args.random_plies {
                if sampled && args.max_score_cp.is_none() {
                    candidates.push((ply, pos.fen()));
                }
                let index = usize::try_from(next() % moves.len() as u64).unwrap_or(0);
                moves[index]
            } else {
                let result = search.go(&pos, &keys, &Limits::nodes(args.nodes), &mut |_| {});
                if sampled && args.max_score_cp.is_none_or(|cp| result.score.abs() <= cp) {
                    candidates.push((ply, pos.fen()));
                }
                match result.best_move {
                    Some(m) => m,
                    None => break,
                }
            };
            keys.push(pos.key());
            pos = pos.play(m);
            // Stop at a threefold repetition.
            if keys.iter().filter(|&&k| k == pos.key()).count() >= 2 {
                break;
            }
        }
        for _ in 0..args.per_game.min(candidates.len()) {
            let index = usize::try_from(next() % candidates.len() as u64).unwrap_or(0);
            let (ply, fen) = candidates.swap_remove(index);
            let key: String = fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            if seen.insert(key.clone()) {
                let _ = writeln!(
                    text,
                    "{key} id \"{}.g{game:04}.p{ply:03}\";",
                    args.id_prefix
                );
                count += 1;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "wrote {count} positions from {} games to {}",
        args.games,
        args.out.display()
    );
    Ok(())
}
