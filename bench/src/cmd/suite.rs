//! `cutlab suite generate`: positions from games the engine plays against itself. Each game
//! opens with seeded random legal moves, then both sides search a fixed number of nodes; the
//! positions between two plies are sampled (seeded per game), skipping checks and duplicates.
//! With `--results` every game is played out and its positions carry its result (`c9`), the
//! data `cutlab tune-eval` fits the evaluation to. Each game's sample is appended to
//! `<out>.games.csv` as it ends, so `--resume` continues an interrupted run; the suite is
//! written from it when every game is in.

use std::{collections::HashSet, fmt::Write as _, path::PathBuf};

use clap::Args;
use cutlab_search::{Limits, Position, Search, SearchConfig};
use serde::{Deserialize, Serialize};
use shakmaty::{Color, Position as _};

use crate::common::{
    parallel, progress, results,
    self_play::{Adjudication, GameRng},
};

/// Options of `cutlab suite generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Number of self-play games.
    #[arg(long, default_value_t = 100, value_parser = crate::common::options::count_up_to::<u32>(10_000_000))]
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
    /// Last ply sampled (without `--results` games also stop here).
    #[arg(long, default_value_t = 140)]
    max_ply: u32,
    /// Play every game out (to mate, a draw by rule, or adjudication: both sides scoring
    /// beyond ±1000 cp for 8 plies; games past 400 plies are dropped) and give each position
    /// its game's result as `c9`.
    #[arg(long)]
    results: bool,
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
    /// Games played at once (one engine each).
    #[arg(long, default_value_t = 1, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Continue an interrupted run from `<out>.games.csv`.
    #[arg(long)]
    resume: bool,
    /// EPD file to write.
    #[arg(long)]
    out: PathBuf,
    /// Replace `--out` when it exists.
    #[arg(long)]
    force: bool,
}

/// Plies past which a played-out game is dropped as unfinished.
const MAX_GAME_PLIES: u32 = 400;
/// Adjudication: a score beyond this for one side in both sides' searches, for 8 plies.
const DECIDED_CP: i32 = 1000;

/// One game: the positions that may be sampled and, when played out, its result.
struct Game {
    index: u32,
    candidates: Vec<(u32, String)>,
    result: Option<&'static str>,
}

/// A row of `<out>.games.csv`: one sampled position of a finished game, or (empty `fen`) a
/// game that gave none.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct SampleRow {
    game: u32,
    /// `1-0`, `0-1`, `1/2-1/2`, or empty when the game was not played out.
    result: String,
    ply: u32,
    fen: String,
}

impl Game {
    /// The game's seeded sample, as rows (one empty row when there is nothing to keep).
    fn sample(mut self, args: &GenerateArgs) -> Vec<SampleRow> {
        let result = self.result.unwrap_or_default().to_string();
        let mut rows = Vec::new();
        if !(args.results && self.result.is_none()) {
            let mut rng = GameRng::new(args.seed ^ 0x5A3F, self.index);
            for _ in 0..args.per_game.min(self.candidates.len()) {
                let (ply, fen) = self
                    .candidates
                    .swap_remove(rng.below(self.candidates.len()));
                rows.push(SampleRow {
                    game: self.index,
                    result: result.clone(),
                    ply,
                    fen,
                });
            }
        }
        if rows.is_empty() {
            rows.push(SampleRow {
                game: self.index,
                result,
                ply: 0,
                fen: String::new(),
            });
        }
        rows
    }
}

/// The result string of a win for `color`.
fn win(color: Color) -> &'static str {
    match color {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// Plays game `index` with `search`.
fn play(args: &GenerateArgs, search: &mut Search, index: u32) -> Game {
    let mut rng = GameRng::new(args.seed, index);
    search.clear();
    let wanted = |pos: &Position| {
        args.stage
            .as_deref()
            .is_none_or(|s| pos.stage().name() == s)
    };
    let last_ply = if args.results {
        MAX_GAME_PLIES
    } else {
        args.max_ply
    };
    let mut pos = Position::startpos();
    let mut keys = Vec::new();
    let mut game = Game {
        index,
        candidates: Vec::new(),
        result: None,
    };
    let mut adjudication = Adjudication::new(DECIDED_CP);
    for ply in 0..last_ply {
        let moves = pos.chess().legal_moves();
        if moves.is_empty() {
            game.result = Some(if pos.in_check() {
                win(!pos.turn())
            } else {
                "1/2-1/2"
            });
            break;
        }
        if pos.insufficient_material() || pos.halfmoves() >= 100 {
            game.result = Some("1/2-1/2");
            break;
        }
        let sampled =
            (args.min_ply..=args.max_ply).contains(&ply) && !pos.in_check() && wanted(&pos);
        let m = if ply < args.random_plies {
            if sampled && args.max_score_cp.is_none() {
                game.candidates.push((ply, pos.fen()));
            }
            moves[rng.below(moves.len())]
        } else {
            let result = search.go(&pos, &keys, &Limits::nodes(args.nodes), &mut |_| {});
            if sampled && args.max_score_cp.is_none_or(|cp| result.score.abs() <= cp) {
                game.candidates.push((ply, pos.fen()));
            }
            if let Some(side) = adjudication.after_search(pos.turn(), result.score)
                && args.results
            {
                game.result = Some(win(side));
                break;
            }
            match result.best_move {
                Some(m) => m,
                None => break,
            }
        };
        keys.push(pos.key());
        pos = pos.play(m);
        // A threefold repetition ends the game drawn.
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            game.result = Some("1/2-1/2");
            break;
        }
    }
    game
}

/// The suite's first line: the command that wrote it, as a comment.
fn command_line(args: &GenerateArgs) -> String {
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
    if args.results {
        text.push_str(" --results");
    }
    if let Some(stage) = &args.stage {
        let _ = write!(text, " --stage {stage}");
    }
    if let Some(cp) = args.max_score_cp {
        let _ = write!(text, " --max-score-cp {cp}");
    }
    let _ = writeln!(text, " --id-prefix {}", args.id_prefix);
    text
}

/// Appends the sampled positions of `rows` to `text` as EPD, each once (by its first four
/// FEN fields), with its game's result (`c9`, with `--results`) and an id naming its game and
/// ply; returns how many.
fn write_positions(text: &mut String, rows: &[SampleRow], args: &GenerateArgs) -> usize {
    let mut seen = HashSet::new();
    let mut count = 0;
    for row in rows.iter().filter(|r| !r.fen.is_empty()) {
        let key: String = row
            .fen
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        if seen.insert(key.clone()) {
            let _ = write!(text, "{key}");
            if args.results {
                let _ = write!(text, " c9 \"{}\";", row.result);
            }
            let _ = writeln!(
                text,
                " id \"{}.g{:04}.p{:03}\";",
                args.id_prefix, row.game, row.ply
            );
            count += 1;
        }
    }
    count
}

/// Plays the games and writes the suite.
pub fn run(args: &GenerateArgs) -> Result<(), String> {
    if args.min_ply > args.max_ply {
        return Err(format!(
            "--min-ply {} is above --max-ply {}: no ply to sample",
            args.min_ply, args.max_ply
        ));
    }
    let progress_path = PathBuf::from(format!("{}.games.csv", args.out.display()));
    // The suite is written whole (renamed into place) as the run's last act: a resumed run
    // that finds it is finished.
    if args.resume && args.out.is_file() {
        eprintln!(
            "{}: written by the run resumed; nothing left to do",
            args.out.display()
        );
        return Ok(());
    }
    crate::common::results::new_output(&args.out, "--out", args.force, &[])?;
    let mut text = command_line(args);
    let mut rows: Vec<SampleRow> = results::resume_rows(&progress_path, args.resume)?;
    let done: HashSet<u32> = rows.iter().map(|r| r.game).collect();
    let indices: Vec<u32> = (0..args.games).filter(|g| !done.contains(g)).collect();
    let bar = progress::bar(u64::from(args.games), "games");
    bar.inc(done.len() as u64);
    let mut appender = results::appender::<SampleRow>(&progress_path)?;
    parallel::run(
        &indices,
        args.threads,
        || Search::new(SearchConfig::default(), 8),
        |search, &index| play(args, search, index).sample(args),
        |game_rows| {
            bar.inc(1);
            results::write_rows(&mut appender, &progress_path, &game_rows)?;
            rows.extend(game_rows);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    rows.sort_by_key(|r| r.game);

    let unfinished = rows
        .iter()
        .filter(|r| args.results && r.result.is_empty())
        .map(|r| r.game)
        .collect::<HashSet<u32>>()
        .len();
    let count = write_positions(&mut text, &rows, args);
    results::write_whole(&args.out, text)?;
    std::fs::remove_file(&progress_path)
        .map_err(|e| format!("{}: {e}", progress_path.display()))?;
    eprintln!(
        "wrote {count} positions from {} games to {}{}",
        args.games,
        args.out.display(),
        if args.results {
            format!(" ({unfinished} unfinished games dropped)")
        } else {
            String::new()
        }
    );
    Ok(())
}
