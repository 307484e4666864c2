//! `cutlab match`: games between our variants (in process, each side its own engine and TT)
//! and external UCI engines, in game pairs (each opening twice, colours swapped), with clocks,
//! rule endings and optional adjudication; W/D/L, Elo with interval, LOS, pentanomial counts,
//! normalized Elo and SPRT as fastchess reports them; PGN and per-game CSV.

use std::{
    fmt::Write as _,
    path::PathBuf,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use clap::Args;
use cutlab_analysis::elo::{MatchStats, Pentanomial, Sprt};
use cutlab_analysis::rows::GameRow;
use cutlab_search::{Limits, Position, Search, SearchConfig, position::uci};
use shakmaty::{Color, Position as _, san::SanPlus};

use crate::uci_client::UciEngine;

/// Options of `cutlab match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: `variant=NAME` or `uci=COMMAND`, then `option.NAME=VALUE` and `name=NAME`
    /// words. Give it twice; the first engine's view is reported.
    #[arg(long, num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// Openings: EPD/FEN or PGN (default: early positions of the built-in suite).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Opening order.
    #[arg(long, default_value = "sequential")]
    order: String,
    /// Seed of the random order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games to play (rounded up to pairs).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<usize>,
    /// Game pairs to play.
    #[arg(long)]
    rounds: Option<usize>,
    /// Time control `SECONDS+INCREMENT`, e.g. `10+0.1`.
    #[arg(long, conflicts_with_all = ["nodes", "movetime_ms"])]
    tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with = "movetime_ms")]
    nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    #[arg(long)]
    movetime_ms: Option<u64>,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`: stop when the test decides.
    #[arg(long)]
    sprt: Option<String>,
    /// PGN file to write.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Per-game CSV to write.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Draw adjudication `movenumber=40,movecount=8,score=10`.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication `movecount=3,score=600`.
    #[arg(long)]
    resign: Option<String>,
    /// Adjudicate a draw after this many moves (each side).
    #[arg(long)]
    maxmoves: Option<u32>,
}

/// How one side is played.
#[derive(Clone, Debug)]
struct EngineSpec {
    name: String,
    variant: Option<SearchConfig>,
    command: Option<String>,
    options: Vec<(String, String)>,
}

fn parse_engine(words: &[String]) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        name: String::new(),
        variant: None,
        command: None,
        options: Vec::new(),
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine: '{word}' is not key=value"))?;
        match key {
            "variant" => {
                spec.variant = Some(SearchConfig::resolve(value).map_err(|e| e.to_string())?);
                if spec.name.is_empty() {
                    spec.name = value.to_string();
                }
            }
            "uci" | "cmd" => {
                spec.command = Some(value.trim_matches('"').to_string());
                if spec.name.is_empty() {
                    spec.name = value.rsplit('/').next().unwrap_or(value).to_string();
                }
            }
            "name" => spec.name = value.to_string(),
            option if option.starts_with("option.") => {
                spec.options
                    .push((option["option.".len()..].to_string(), value.to_string()));
            }
            other => return Err(format!("--engine: unknown key '{other}'")),
        }
    }
    if spec.variant.is_some() == spec.command.is_some() {
        return Err("--engine needs exactly one of variant=NAME and uci=COMMAND".into());
    }
    Ok(spec)
}

fn parse_kv(text: &str, what: &str, keys: &[&str]) -> Result<Vec<f64>, String> {
    let mut values = vec![f64::NAN; keys.len()];
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--{what}: '{part}' is not key=value"))?;
        let i = keys
            .iter()
            .position(|&key| key == k)
            .ok_or_else(|| format!("--{what}: unknown key '{k}'"))?;
        values[i] = v
            .parse()
            .map_err(|_| format!("--{what}: '{v}' is not a number"))?;
    }
    if let Some(i) = values.iter().position(|v| v.is_nan()) {
        return Err(format!("--{what}: missing {}", keys[i]));
    }
    Ok(values)
}

/// What limits each move.
#[derive(Clone, Copy, Debug)]
enum Control {
    Clock { base_ms: u64, inc_ms: u64 },
    Nodes(u64),
    Movetime(u64),
}

impl std::fmt::Display for Control {
    #[expect(clippy::cast_precision_loss, reason = "milliseconds shown as seconds")]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Control::Clock { base_ms, inc_ms } => write!(
                f,
                "time control {}+{} s",
                *base_ms as f64 / 1000.0,
                *inc_ms as f64 / 1000.0
            ),
            Control::Nodes(n) => write!(f, "{n} nodes per move"),
            Control::Movetime(ms) => write!(f, "{ms} ms per move"),
        }
    }
}

/// A running player.
enum Player {
    Internal(Box<Search>),
    External(UciEngine),
}

/// A move and the mover's score (its own view), or why the game is lost.
type Reply = Result<(String, Option<i32>), String>;

impl Player {
    fn start(spec: &EngineSpec) -> Result<Player, String> {
        if let Some(config) = &spec.variant {
            return Ok(Player::Internal(Box::new(Search::new(config.clone(), 16))));
        }
        let command = spec.command.as_deref().unwrap_or_default();
        let mut engine = UciEngine::start(command)?;
        for (name, value) in &spec.options {
            engine.set_option(name, value)?;
        }
        engine.send("ucinewgame")?;
        engine.ready()?;
        Ok(Player::External(engine))
    }

    fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Internal(search) => {
                search.clear();
                Ok(())
            }
            Player::External(engine) => {
                engine.send("ucinewgame")?;
                engine.ready()
            }
        }
    }

    fn play(
        &mut self,
        start_fen: &str,
        moves: &[String],
        game: &[Position],
        clocks: [u64; 2],
        control: Control,
        inc: u64,
    ) -> Reply {
        let limits = match control {
            Control::Clock { .. } => Limits {
                wtime_ms: Some(clocks[0]),
                btime_ms: Some(clocks[1]),
                winc_ms: Some(inc),
                binc_ms: Some(inc),
                move_overhead_ms: 20,
                ..Limits::default()
            },
            Control::Nodes(n) => Limits::nodes(n),
            Control::Movetime(ms) => Limits::movetime(ms),
        };
        match self {
            Player::Internal(search) => {
                let Some((pos, before)) = game.split_last() else {
                    return Err("empty game".into());
                };
                let keys: Vec<u64> = before.iter().map(Position::key).collect();
                let result = search.go(pos, &keys, &limits, &mut |_| {});
                result
                    .best_move
                    .map(|m| (uci(m), Some(result.score)))
                    .ok_or_else(|| "no move".into())
            }
            Player::External(engine) => {
                let position = if moves.is_empty() {
                    format!("position fen {start_fen}")
                } else {
                    format!("position fen {start_fen} moves {}", moves.join(" "))
                };
                engine.send(&position)?;
                let go = match control {
                    Control::Clock { .. } => format!(
                        "go wtime {} btime {} winc {inc} binc {inc}",
                        clocks[0], clocks[1]
                    ),
                    Control::Nodes(n) => format!("go nodes {n}"),
                    Control::Movetime(ms) => format!("go movetime {ms}"),
                };
                engine.send(&go)?;
                let budget = match control {
                    Control::Clock { .. } => clocks[0].max(clocks[1]) + 5_000,
                    Control::Nodes(_) => 120_000,
                    Control::Movetime(ms) => ms + 5_000,
                };
                let lines = engine.wait_for("bestmove", Duration::from_millis(budget))?;
                let score = lines
                    .iter()
                    .rev()
                    .find_map(|l| crate::uci_client::parse_info(l))
                    .map(|(_, s)| s.score_cp);
                let best = lines
                    .last()
                    .and_then(|l| l.split_whitespace().nth(1))
                    .unwrap_or("0000")
                    .to_string();
                Ok((best, score))
            }
        }
    }
}

struct Adjudication {
    draw: Option<(u32, u32, i32)>,
    resign: Option<(u32, i32)>,
    maxmoves: Option<u32>,
}

#[expect(clippy::too_many_lines, reason = "one game from opening to result")]
#[expect(clippy::too_many_arguments, reason = "the game's setting")]
fn play_game(
    players: &mut [Player; 2],
    names: [&str; 2],
    first_is_white: bool,
    opening: &(String, String),
    control: Control,
    adjudication: &Adjudication,
    game_no: usize,
    pair_no: usize,
) -> Result<GameRow, String> {
    let (opening_id, fen) = opening;
    let start = Position::from_fen(fen).map_err(|e| format!("opening {opening_id}: {e}"))?;
    // players[0] is the first engine; map colours.
    let white_index = if first_is_white { 0 } else { 1 };
    let (base, inc) = match control {
        Control::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
        _ => (0, 0),
    };
    let mut clocks = [base, base];
    let mut game = vec![start.clone()];
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    let mut draw_run = 0;
    let mut resign_run = [0_u32; 2];
    let (result, termination) = loop {
        let pos = game.last().cloned().unwrap_or_default();
        // Rule endings.
        if pos.chess().legal_moves().is_empty() {
            break if pos.in_check() {
                (
                    if pos.turn() == Color::White {
                        "0-1"
                    } else {
                        "1-0"
                    },
                    "checkmate",
                )
            } else {
                ("1/2-1/2", "stalemate")
            };
        }
        if pos.insufficient_material() {
            break ("1/2-1/2", "insufficient material");
        }
        if pos.halfmoves() >= 100 {
            break ("1/2-1/2", "fifty-move rule");
        }
        if game.iter().filter(|p| p.key() == pos.key()).count() >= 3 {
            break ("1/2-1/2", "threefold repetition");
        }
        if adjudication
            .maxmoves
            .is_some_and(|m| moves.len() >= 2 * m as usize)
        {
            break ("1/2-1/2", "adjudication: max moves");
        }
        let side = if pos.turn() == Color::White { 0 } else { 1 };
        let mover = if side == 0 {
            white_index
        } else {
            1 - white_index
        };
        let loss = if side == 0 { "0-1" } else { "1-0" };
        let started = Instant::now();
        let reply = players[mover].play(&start.fen(), &moves, &game, clocks, control, inc);
        let used = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (text, score) = match reply {
            Ok(r) => r,
            Err(e) => {
                eprintln!("game {game_no}: {} failed: {e}", names[mover]);
                break (loss, "engine failure");
            }
        };
        if let Control::Clock { .. } = control {
            if used > clocks[side] {
                break (loss, "time forfeit");
            }
            clocks[side] = clocks[side] - used + inc;
        }
        let Ok(m) = pos.parse_uci(&text) else {
            eprintln!(
                "game {game_no}: {} played illegal move '{text}'",
                names[mover]
            );
            break (loss, "illegal move");
        };
        sans.push(SanPlus::from_move(pos.chess().clone(), m).to_string());
        moves.push(text);
        game.push(pos.play(m));
        // Adjudication on the movers' own scores.
        if let Some(score) = score {
            if let Some((count, limit)) = adjudication.resign {
                resign_run[side] = if score <= -limit {
                    resign_run[side] + 1
                } else {
                    0
                };
                if resign_run[side] >= count {
                    break (loss, "adjudication: resign");
                }
            }
            if let Some((from_move, count, limit)) = adjudication.draw {
                let move_number = u32::try_from(moves.len() / 2).unwrap_or(u32::MAX);
                draw_run = if move_number >= from_move && score.abs() <= limit {
                    draw_run + 1
                } else {
                    0
                };
                if draw_run >= 2 * count {
                    break ("1/2-1/2", "adjudication: draw");
                }
            }
        }
    };
    let white_name = names[white_index];
    let black_name = names[1 - white_index];
    let first_engine_score = match (result, first_is_white) {
        ("1/2-1/2", _) => 0.5,
        ("1-0", true) | ("0-1", false) => 1.0,
        _ => 0.0,
    };
    let mut pgn = String::new();
    let _ = writeln!(
        pgn,
        "[Event \"cutlab match\"]\n[Site \"cutlab\"]\n[Round \"{pair_no}\"]"
    );
    let _ = writeln!(
        pgn,
        "[White \"{white_name}\"]\n[Black \"{black_name}\"]\n[Result \"{result}\"]"
    );
    let _ = writeln!(
        pgn,
        "[FEN \"{}\"]\n[SetUp \"1\"]\n[Opening \"{opening_id}\"]",
        start.fen()
    );
    let tc = match control {
        Control::Clock { base_ms, inc_ms } => {
            format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
        }
        Control::Nodes(n) => format!("nodes={n}"),
        Control::Movetime(ms) => format!("movetime={ms}ms"),
    };
    let _ = writeln!(
        pgn,
        "[TimeControl \"{tc}\"]\n[Termination \"{termination}\"]\n"
    );
    let mut number = start.chess().fullmoves().get();
    let mut white_to_move = start.turn() == Color::White;
    for (i, san) in sans.iter().enumerate() {
        if white_to_move {
            let _ = write!(pgn, "{number}. ");
        } else if i == 0 {
            let _ = write!(pgn, "{number}... ");
        }
        let _ = write!(pgn, "{san} ");
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    let _ = writeln!(pgn, "{result}\n");
    Ok(GameRow {
        game: game_no,
        pair: pair_no,
        opening: opening_id.clone(),
        white: white_name.to_string(),
        black: black_name.to_string(),
        result: result.to_string(),
        termination: termination.to_string(),
        plies: moves.len(),
        first_engine_score,
        pgn,
    })
}

/// Runs the match.
#[expect(clippy::too_many_lines, reason = "setup, workers, report")]
pub fn run(args: &MatchArgs) -> Result<(), String> {
    // Each engine starts with its variant= or uci= word; the words after it belong to it.
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in &args.engine {
        let starts = ["variant=", "uci=", "cmd="]
            .iter()
            .any(|p| word.starts_with(p));
        match groups.last_mut() {
            Some(group) if !starts => group.push(word.clone()),
            _ => groups.push(vec![word.clone()]),
        }
    }
    let [first, second] = groups.as_slice() else {
        return Err(format!(
            "give exactly two engines (variant=... or uci=...), got {}",
            groups.len()
        ));
    };
    let specs = [parse_engine(first)?, parse_engine(second)?];
    let control = match (&args.tc, args.nodes, args.movetime_ms) {
        (Some(tc), _, _) => {
            let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
            let secs = |s: &str| {
                s.parse::<f64>()
                    .map_err(|_| format!("--tc: '{tc}' is not SECONDS+INCREMENT"))
            };
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "ms"
            )]
            Control::Clock {
                base_ms: (secs(base)? * 1000.0) as u64,
                inc_ms: (secs(inc)? * 1000.0) as u64,
            }
        }
        (None, Some(n), _) => Control::Nodes(n),
        (None, None, Some(ms)) => Control::Movetime(ms),
        (None, None, None) => return Err("give one of --tc, --nodes, --movetime-ms".into()),
    };
    let sprt = match &args.sprt {
        Some(text) => {
            let v = parse_kv(text, "sprt", &["elo0", "elo1", "alpha", "beta"])?;
            Some(Sprt::new(v[0], v[1], v[2], v[3])?)
        }
        None => None,
    };
    let adjudication = Adjudication {
        draw: match &args.draw {
            Some(t) => {
                let v = parse_kv(t, "draw", &["movenumber", "movecount", "score"])?;
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "small"
                )]
                Some((v[0] as u32, v[1] as u32, v[2] as i32))
            }
            None => None,
        },
        resign: match &args.resign {
            Some(t) => {
                let v = parse_kv(t, "resign", &["movecount", "score"])?;
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "small"
                )]
                Some((v[0] as u32, v[1] as i32))
            }
            None => None,
        },
        maxmoves: args.maxmoves,
    };
    let suite = match &args.openings {
        Some(path) => cutlab_suites::load(path, false).map_err(|e| e.to_string())?,
        None => {
            let mut s = cutlab_suites::builtin();
            s.positions
                .retain(|p| p.id.contains(".p01") || p.id.contains(".p02"));
            s
        }
    };
    let mut openings: Vec<(String, String)> = suite
        .positions
        .iter()
        .map(|p| (p.id.clone(), p.fen.clone()))
        .collect();
    match args.order.as_str() {
        "sequential" => {}
        "random" => {
            let mut state = args.seed;
            for i in (1..openings.len()).rev() {
                state = cutlab_instrument::csv_sink::splitmix64(state);
                openings.swap(i, usize::try_from(state % (i as u64 + 1)).unwrap_or(0));
            }
        }
        other => {
            return Err(format!(
                "--order: expected sequential or random, got '{other}'"
            ));
        }
    }
    let pairs = args
        .rounds
        .or(args.games.map(|g| g.div_ceil(2)))
        .unwrap_or(openings.len().min(32));
    let names = [specs[0].name.clone(), specs[1].name.clone()];
    eprintln!(
        "match: {} vs {}, {pairs} game pairs, {control}",
        names[0], names[1]
    );

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<GameRow>> = Mutex::new(Vec::new());
    let penta: Mutex<Pentanomial> = Mutex::new(Pentanomial::default());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let bar = crate::progress::bar(pairs as u64 * 2, "games");
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.max(1) {
            scope.spawn(|| {
                let players = specs
                    .iter()
                    .map(Player::start)
                    .collect::<Result<Vec<_>, _>>();
                let mut players: [Player; 2] = match players.map(<[Player; 2]>::try_from) {
                    Ok(Ok(p)) => p,
                    Ok(Err(_)) => return,
                    Err(e) => {
                        *failure
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                        return;
                    }
                };
                loop {
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let opening = &openings[pair % openings.len()];
                    let mut scores = [0.0; 2];
                    for (k, first_is_white) in [true, false].into_iter().enumerate() {
                        // A crashed engine is restarted for the next game.
                        for (player, spec) in players.iter_mut().zip(&specs) {
                            if player.new_game().is_err() {
                                match Player::start(spec) {
                                    Ok(fresh) => *player = fresh,
                                    Err(e) => {
                                        *failure
                                            .lock()
                                            .unwrap_or_else(std::sync::PoisonError::into_inner) =
                                            Some(e);
                                        stop.store(true, Ordering::Relaxed);
                                        return;
                                    }
                                }
                            }
                        }
                        let names = [names[0].as_str(), names[1].as_str()];
                        match play_game(
                            &mut players,
                            names,
                            first_is_white,
                            opening,
                            control,
                            &adjudication,
                            2 * pair + k + 1,
                            pair + 1,
                        ) {
                            Ok(row) => {
                                scores[k] = row.first_engine_score;
                                results
                                    .lock()
                                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                                    .push(row);
                            }
                            Err(e) => {
                                *failure
                                    .lock()
                                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                        }
                        bar.inc(1);
                    }
                    let mut p = penta
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    p.add(scores[0], scores[1]);
                    if let Some(sprt) = sprt
                        && sprt.decision(sprt.llr(&p)).is_some()
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Err(e);
    }
    let mut rows = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    rows.sort_by_key(|r| r.game);
    let penta = penta
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(path) = &args.pgn {
        let text: String = rows.iter().map(|r| r.pgn.as_str()).collect();
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.out {
        let mut w = csv::Writer::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for r in &rows {
            w.serialize(r)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        w.flush().map_err(|e| format!("{}: {e}", path.display()))?;
    }
    print!("{}", report(&names, &rows, &penta, sprt.as_ref()));
    Ok(())
}

fn report(
    names: &[String; 2],
    rows: &[GameRow],
    penta: &Pentanomial,
    sprt: Option<&Sprt>,
) -> String {
    let wins = rows.iter().filter(|r| r.first_engine_score == 1.0).count();
    let losses = rows.iter().filter(|r| r.first_engine_score == 0.0).count();
    let draws = rows.len() - wins - losses;
    let stats = MatchStats::from_pentanomial(penta);
    let forfeits = rows
        .iter()
        .filter(|r| r.termination == "time forfeit")
        .count();
    let illegal = rows
        .iter()
        .filter(|r| r.termination == "illegal move")
        .count();
    let failures = rows
        .iter()
        .filter(|r| r.termination == "engine failure")
        .count();
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let draw_ratio = 100.0 * draws as f64 / rows.len().max(1) as f64;
    let mut out = format!(
        "\nResults of {} vs {} ({} games):\nElo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}\nLOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}\nGames: {}, Wins: {wins}, Losses: {losses}, Draws: {draws}, Points: {:.1} ({:.2} %)\nPtnml(0-2): [{}, {}, {}, {}, {}]\n",
        names[0],
        names[1],
        rows.len(),
        stats.elo,
        stats.elo_error,
        stats.nelo,
        stats.nelo_error,
        100.0 * stats.los,
        draw_ratio,
        (penta.wd + penta.ww) as f64 / (penta.ld + penta.ll).max(1) as f64,
        rows.len(),
        wins as f64 + 0.5 * draws as f64,
        100.0 * stats.score,
        penta.ll,
        penta.ld,
        penta.wl_dd,
        penta.wd,
        penta.ww
    );
    if let Some(s) = sprt {
        let llr = s.llr(penta);
        let verdict = match s.decision(llr) {
            Some(true) => "H1 accepted",
            Some(false) => "H0 accepted",
            None => "continue",
        };
        out.push_str(&format!(
            "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {verdict}\n",
            s.lower, s.upper, s.elo0, s.elo1
        ));
    }
    out.push_str(&format!(
        "Time forfeits: {forfeits}, illegal moves: {illegal}, engine failures: {failures}\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let e = parse_engine(&w("variant=nmp+mpc name=mpc")).unwrap();
        assert_eq!(e.name, "mpc");
        assert!(e.variant.is_some());
        let e = parse_engine(&w("uci=/usr/games/stockfish option.UCI_Elo=2000")).unwrap();
        assert_eq!((e.name.as_str(), e.options.len()), ("stockfish", 1));
        assert!(parse_engine(&w("variant=nmp uci=x")).is_err());
        assert!(parse_engine(&w("speed=3")).is_err());
        assert!(
            parse_kv(
                "elo0=0,elo1=5,alpha=0.05",
                "sprt",
                &["elo0", "elo1", "alpha", "beta"]
            )
            .is_err()
        );
    }
}
