//! `cutlab datagen`: training positions for the network from self-play (issue 35). Each game
//! opens with 8 to 12 seeded random legal moves (the count seeded too), then both sides
//! search a fixed number of nodes; every position the engine moved from is kept with its
//! search score and, once the game ends, the game's result, except positions in check and
//! positions whose best move is a capture or a promotion (their static value is not their
//! value). A game ends by mate, a draw by rule (stalemate, insufficient material, 50 moves,
//! threefold repetition), or adjudication: both sides scoring the same side beyond
//! `--win-cp` for 8 plies; games past 400 plies are dropped.
//!
//! The positions are written in bulletformat's `ChessBoard` layout (32 bytes each, the side
//! to move's view: bullet and our trainer read it), a game's records at once to
//! `DIR/data.bin`, then its line to `DIR/games.csv` (game, positions, result, end offset): a
//! resumed run truncates `data.bin` to the last game recorded and plays the rest. Games are
//! seeded by their number, so `--shard K/N` (games K, K+N, ...) into separate directories
//! gives the same positions as one run.
//!
//! `--from-games` labels games already played instead (a study's packed `games.moves.csv.xz`,
//! which the repository keeps while generated data does not outlive its machine): every
//! position of each game is searched with `--nodes` for its score and kept by the same rule,
//! with the game's result; games are numbered across the files in order (in a file, by PGN
//! name, then each PGN's order), and unfinished ones (`*`) are dropped.

use std::{
    collections::HashSet,
    fs::OpenOptions,
    io::Write as _,
    path::{Path, PathBuf},
};

use bulletformat::{BulletFormat, ChessBoard};
use clap::Args;
use cutlab_search::{Limits, Position, Search, movegen::is_tactical, score::MATE_BOUND};
use serde::{Deserialize, Serialize};
use shakmaty::{Board, Color, Move, Position as _};

use crate::common::{
    configs, dataformat,
    packed_games::GameMoves,
    parallel, progress, results,
    self_play::{Adjudication, GameRng},
};

/// Options of `cutlab datagen`.
#[derive(Args, Debug, Serialize)]
pub struct DatagenArgs {
    /// Self-play games (numbered from 0; a shard plays its share).
    #[arg(long, required_unless_present = "from_games", conflicts_with = "from_games",
          value_parser = crate::common::options::count_up_to::<u32>(1_000_000_000))]
    games: Option<u32>,
    /// Label the positions of games already played instead: packed games files (`cutlab
    /// games pack`, e.g. `results/STUDY/matches/80000/games.moves.csv.xz`), comma-separated or
    /// repeated; every position is searched with `--nodes` for its score.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    from_games: Vec<PathBuf>,
    /// Nodes per move (per position with `--from-games`).
    #[arg(long, default_value_t = 5000, value_parser = crate::common::options::count_up_to::<u64>(1 << 32))]
    nodes: u64,
    /// The variant that plays (its evaluation labels the data).
    #[arg(long, default_value = "modern", value_parser = crate::common::options::variant)]
    variant: String,
    /// Fewest and most random opening plies, `MIN..MAX`.
    #[arg(long, default_value = "8..12")]
    random_plies: String,
    /// Adjudication: a score beyond this (centipawns) for one side, in both sides' searches,
    /// for 8 plies wins the game.
    #[arg(long, default_value_t = 2000, value_parser = crate::common::options::count_up_to::<i32>(30_000))]
    win_cp: i32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
    /// Games played at once (one engine each).
    #[arg(long, default_value_t = 1, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Only games K, K+N, K+2N, ... (`K/N`, K from 1).
    #[arg(long)]
    shard: Option<crate::common::shard::Shard>,
    /// Directory for `data.bin`, `games.csv` and `datagen.config.toml`.
    #[arg(long)]
    out: PathBuf,
    /// Continue an interrupted run in `--out`.
    #[arg(long)]
    resume: bool,
}

/// Plies past which a game is dropped as unfinished.
const MAX_GAME_PLIES: u32 = 400;
/// Bytes per record ([`dataformat::RECORD_BYTES`]).
const RECORD_BYTES: u64 = dataformat::RECORD_BYTES as u64;

/// A row of `games.csv`: one finished game.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct GameRow {
    game: u32,
    positions: u64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: String,
    /// Byte offset in `data.bin` just past this game's records.
    end_byte: u64,
}

/// A kept position: the board, the side to move, the score from white's view.
struct Kept {
    board: Board,
    turn: Color,
    white_score: i16,
}

impl Kept {
    /// `pos` with the score of a search whose best move is `best`, if the rule keeps it: not
    /// in check, a quiet best move, no mate score (the static value of the others is not
    /// their value).
    fn of_search(pos: &Position, best: Move, score: i32) -> Option<Kept> {
        (!pos.in_check() && !is_tactical(best) && score.abs() < MATE_BOUND)
            .then(|| Kept::new(pos, score))
    }

    /// `pos` with `score`, the side to move's.
    fn new(pos: &Position, score: i32) -> Kept {
        let white = if pos.turn() == Color::White {
            score
        } else {
            -score
        };
        Kept {
            board: pos.chess().board().clone(),
            turn: pos.turn(),
            white_score: i16::try_from(white.clamp(-32_000, 32_000)).unwrap_or(0),
        }
    }
}

/// A played game: its kept positions and result (white's score: 1, 0.5, 0), or `None` when
/// it was dropped.
type Played = (u32, Option<(Vec<Kept>, f32)>);

fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--random-plies: expected MIN..MAX, got '{text}'");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b) = (
        a.trim().parse::<u32>().map_err(|_| bad())?,
        b.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if a > b || b > 100 {
        return Err(format!(
            "--random-plies: {a}..{b} is not a range within 0..100"
        ));
    }
    Ok((a, b))
}

/// Plays game `index`.
fn play(args: &DatagenArgs, plies: (u32, u32), search: &mut Search, index: u32) -> Played {
    let mut rng = GameRng::new(args.seed, index);
    let random_plies =
        plies.0 + u32::try_from(rng.below((plies.1 - plies.0 + 1) as usize)).unwrap_or(0);
    search.clear();
    let mut pos = Position::startpos();
    let mut keys: Vec<u64> = Vec::new();
    let mut kept = Vec::new();
    let mut adjudication = Adjudication::new(args.win_cp);
    let white_win = |c: Color| if c == Color::White { 1.0 } else { 0.0 };
    for ply in 0..MAX_GAME_PLIES {
        let moves = pos.chess().legal_moves();
        if moves.is_empty() {
            let result = if pos.in_check() {
                white_win(!pos.turn())
            } else {
                0.5
            };
            return (index, Some((kept, result)));
        }
        if pos.insufficient_material() || pos.halfmoves() >= 100 {
            return (index, Some((kept, 0.5)));
        }
        let m = if ply < random_plies {
            moves[rng.below(moves.len())]
        } else {
            let result = search.go(&pos, &keys, &Limits::nodes(args.nodes), &mut |_| {});
            let Some(m) = result.best_move else {
                return (index, None);
            };
            kept.extend(Kept::of_search(&pos, m, result.score));
            if let Some(side) = adjudication.after_search(pos.turn(), result.score) {
                return (index, Some((kept, white_win(side))));
            }
            m
        };
        keys.push(pos.key());
        pos = pos.play(m);
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            return (index, Some((kept, 0.5)));
        }
    }
    (index, None)
}

/// Labels game `index`, played before: each position it passed through, searched with
/// `--nodes` for its score and kept by [`play`]'s rule, with the game's result (`None` for an
/// unfinished game).
fn label(args: &DatagenArgs, search: &mut Search, index: u32, game: &GameMoves) -> Played {
    let result = match game.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return (index, None),
    };
    search.clear();
    let mut pos = Position::from_chess(game.start.clone());
    let mut keys: Vec<u64> = Vec::new();
    let mut kept = Vec::new();
    for &m in &game.moves {
        if !pos.in_check() {
            let found = search.go(&pos, &keys, &Limits::nodes(args.nodes), &mut |_| {});
            if let Some(best) = found.best_move {
                kept.extend(Kept::of_search(&pos, best, found.score));
            }
        }
        keys.push(pos.key());
        pos = pos.play(m);
    }
    (index, Some((kept, result)))
}

/// The games already in `dir` (and `data.bin` cut back to the last of them).
fn resume(dir: &Path, resume: bool) -> Result<Vec<GameRow>, String> {
    let games_path = dir.join("games.csv");
    let rows: Vec<GameRow> = results::resume_rows(&games_path, resume)?;
    let end = rows.iter().map(|r| r.end_byte).max().unwrap_or(0);
    let data = dir.join("data.bin");
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&data)
        .map_err(|e| format!("{}: {e}", data.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("{}: {e}", data.display()))?
        .len();
    if len < end {
        return Err(format!(
            "{}: {len} bytes, but games.csv records games up to byte {end}",
            data.display()
        ));
    }
    if len > end {
        eprintln!(
            "datagen: {}: dropped {} records of a game cut off before its line in games.csv",
            data.display(),
            (len - end) / RECORD_BYTES
        );
        file.set_len(end)
            .map_err(|e| format!("{}: {e}", data.display()))?;
    }
    Ok(rows)
}

/// Where a run's positions and games go as they come: `data.bin` (records appended a game
/// at a time) and `games.csv` (a game's row once its records are written), with the counts.
struct Written {
    data: std::fs::File,
    data_path: PathBuf,
    games: csv::Writer<std::fs::File>,
    games_path: PathBuf,
    end_byte: u64,
    positions: u64,
    dropped: u64,
}

impl Written {
    /// The outputs of the run in `dir`, which holds the games `done` already.
    fn open(dir: &Path, done: &[GameRow]) -> Result<Written, String> {
        let data_path = dir.join("data.bin");
        let games_path = dir.join("games.csv");
        Ok(Written {
            data: OpenOptions::new()
                .append(true)
                .open(&data_path)
                .map_err(|e| format!("{}: {e}", data_path.display()))?,
            games: results::appender::<GameRow>(&games_path)?,
            data_path,
            games_path,
            end_byte: done.iter().map(|r| r.end_byte).max().unwrap_or(0),
            positions: 0,
            dropped: 0,
        })
    }

    /// Writes a game's records, then its row; a game dropped is counted.
    fn game(&mut self, (game, played): Played) -> Result<(), String> {
        let Some((kept, result)) = played else {
            self.dropped += 1;
            return Ok(());
        };
        let records: Vec<ChessBoard> = kept
            .iter()
            .map(|k| dataformat::record(&k.board, k.turn, k.white_score, result))
            .collect::<Result<_, _>>()?;
        self.data
            .write_all(ChessBoard::as_bytes_slice(&records))
            .and_then(|()| self.data.flush())
            .map_err(|e| format!("{}: {e}", self.data_path.display()))?;
        self.end_byte += records.len() as u64 * RECORD_BYTES;
        self.positions += records.len() as u64;
        let result = match result {
            r if r > 0.75 => "1-0",
            r if r < 0.25 => "0-1",
            _ => "1/2-1/2",
        };
        let row = GameRow {
            game,
            positions: records.len() as u64,
            result: result.into(),
            end_byte: self.end_byte,
        };
        results::write_rows(&mut self.games, &self.games_path, [row])
    }
}

/// The games of `--from-games`, numbered across the files in order.
fn played_games(args: &DatagenArgs) -> Result<Vec<GameMoves>, String> {
    crate::common::results::distinct_inputs(&args.from_games, "--from-games")?;
    Ok(args
        .from_games
        .iter()
        .map(|path| crate::common::packed_games::read_games(path))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect())
}

/// Records what the data comes from: the environment (versions and commit, for the networks
/// trained on it) in a new run, and the options beside the games (a resume with others is
/// refused).
fn record_run(
    args: &DatagenArgs,
    config: &cutlab_search::SearchConfig,
    resumed: bool,
) -> Result<(), String> {
    if !resumed {
        let text: String = crate::common::pipeline::environment()
            .iter()
            .map(|(k, v)| format!("{k:?} = {v:?}\n"))
            .collect();
        let path = args.out.join("environment.toml");
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    configs::write_args_config(
        &args.out.join("datagen.csv"),
        "datagen",
        args,
        &[("variant", config)],
        resumed,
    )
}

/// Plays the games (or labels the given ones) and writes the data.
///
/// # Errors
/// Bad options, an existing run without `--resume`, or files that cannot be written.
pub fn run(args: &DatagenArgs) -> Result<(), String> {
    let plies = parse_range(&args.random_plies)?;
    let played = played_games(args)?;
    let config = cutlab_search::SearchConfig::resolve(&args.variant).map_err(|e| e.to_string())?;
    let count = match args.games {
        Some(games) => games,
        None => u32::try_from(played.len()).map_err(|_| "--from-games: too many games")?,
    };
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let _lock = crate::common::process::lock_dir(&args.out, None)?;
    let done_rows = resume(&args.out, args.resume)?;
    record_run(args, &config, !done_rows.is_empty())?;
    let all: Vec<u32> = (0..count).collect();
    let mine = crate::common::shard::shard(&all, args.shard);
    let done: HashSet<u32> = done_rows.iter().map(|r| r.game).collect();
    let todo: Vec<u32> = mine
        .into_iter()
        .copied()
        .filter(|g| !done.contains(g))
        .collect();
    // Searches to run: 150 a self-play game, a played game's moves. The words of the messages.
    let (searches, (verb, done_verb, dropped_why)): (usize, _) = if played.is_empty() {
        (
            todo.len() * 150,
            ("play", "played", format!("past {MAX_GAME_PLIES} plies")),
        )
    } else {
        (
            todo.iter().map(|&g| played[g as usize].moves.len()).sum(),
            ("label", "labelled", "as unfinished".to_string()),
        )
    };
    #[expect(clippy::cast_precision_loss, reason = "an estimate")]
    let hours = searches as f64 * args.nodes as f64 / 2.5e6 / args.threads as f64 / 3600.0;
    eprintln!(
        "datagen: {} games to {} ({} done), {} nodes a search: about {hours:.1} h on {} \
         threads ({searches} searches at 2.5 M nps a thread)",
        todo.len(),
        verb,
        done.len(),
        args.nodes,
        args.threads
    );
    let mut written = Written::open(&args.out, &done_rows)?;
    let bar = progress::bar(todo.len() as u64, "games");
    parallel::run(
        &todo,
        args.threads,
        || Search::new(config.clone(), 16),
        |search, &g| match played.get(g as usize) {
            Some(game) => label(args, search, g, game),
            None => play(args, plies, search, g),
        },
        |played| {
            bar.inc(1);
            written.game(played)
        },
    )?;
    bar.finish_and_clear();
    println!(
        "datagen: {} games {done_verb} ({} dropped {dropped_why}), {} positions written; {} \
         in all in {}",
        todo.len(),
        written.dropped,
        written.positions,
        written.end_byte / RECORD_BYTES,
        written.data_path.display()
    );
    Ok(())
}
