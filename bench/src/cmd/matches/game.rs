//! One game of a match: rule endings, clocks, adjudication, and its PGN and CSV row.

use std::{fmt::Write as _, time::Instant};

use cutlab_analysis::rows::{GameRow, ScoreRow};
use cutlab_search::Position;
use shakmaty::{Color, Position as _, san::SanPlus};

use super::{
    PairSetting,
    players::Player,
    turn::{Answer, Control},
};
use crate::common::adjudication::{Adjudicator, Ending};

/// Plays one game from `opening`; the first engine is `players[0]`. An engine that fails
/// before its clock runs out is started again and asked the same position, up to
/// `setting.restarts` times a game; then the failure loses the game.
pub fn play_game(
    players: &mut [Player; 2],
    setting: &PairSetting<'_>,
    first_is_white: bool,
    opening: &(String, String),
    game_no: usize,
    pair_no: usize,
) -> Result<GameRow, String> {
    let PairSetting {
        names,
        control,
        adjudication,
        ..
    } = *setting;
    let (opening_id, fen) = opening;
    let start = Position::from_fen(fen).map_err(|e| format!("opening {opening_id}: {e}"))?;
    // players[0] is the first engine; map colours.
    let white_index = if first_is_white { 0 } else { 1 };
    let (base, inc) = control.clock_ms();
    let mut clocks = [base, base];
    let mut game = vec![start.clone()];
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    let mut adjudicator = Adjudicator::new(*adjudication);
    let mut scores: Vec<ScoreRow> = Vec::new();
    let mut restarts = 0;
    let (result, termination) = loop {
        let pos = game.last().cloned().unwrap_or_default();
        if let Some(end) = rule_ending(&pos, &game) {
            break end;
        }
        if let Some(end) = adjudicator.before_move(moves.len()) {
            break end;
        }
        let side = if pos.turn() == Color::White { 0 } else { 1 };
        let mover = if side == 0 {
            white_index
        } else {
            1 - white_index
        };
        let loss = if side == 0 { "0-1" } else { "1-0" };
        let started = Instant::now();
        let limit = setting.control_of(mover);
        let reply = players[mover].play(&start.fen(), &moves, &game, clocks, limit, inc);
        let used = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (text, score) = match reply {
            Ok(Answer::Move(text, score)) => (text, score),
            Ok(Answer::Resign) => break (loss, Ending::Resignation),
            Err(e) => {
                let in_time = !matches!(control, Control::Clock { .. }) || used < clocks[side];
                let allowed = in_time && restarts < setting.restarts;
                if !restarted(players, setting, (mover, game_no), (&e, allowed)) {
                    break (loss, Ending::EngineFailure);
                }
                restarts += 1;
                if let Control::Clock { .. } = control {
                    clocks[side] -= used;
                }
                continue;
            }
        };
        if let Control::Clock { .. } = control {
            if used > clocks[side] {
                break (loss, Ending::TimeForfeit);
            }
            clocks[side] = clocks[side] - used + inc;
        }
        let Ok(m) = pos.parse_uci(&text) else {
            eprintln!(
                "game {game_no}: {} played illegal move '{text}'",
                names[mover]
            );
            break (loss, Ending::IllegalMove);
        };
        sans.push(SanPlus::from_move(pos.chess().clone(), m).to_string());
        moves.push(text);
        game.push(pos.play(m));
        scores.push(ScoreRow {
            game: game_no,
            ply: moves.len(),
            mover: pos.turn().fold_wb("white", "black").to_string(),
            score_cp: score,
        });
        // Adjudication on the movers' own scores.
        if let Some(end) = adjudicator.after_move(moves.len(), pos.turn(), score) {
            break end;
        }
    };
    let white_name = names[white_index];
    let black_name = names[1 - white_index];
    let first_engine_score =
        cutlab_analysis::rows::first_engine_points(result, first_is_white).unwrap_or(0.0);
    let pgn = pgn(
        &Headers {
            round: pair_no,
            players: [white_name, black_name],
            result,
            start: &start,
            opening: opening_id,
            control,
            termination,
            restarts,
        },
        &sans,
    );
    Ok(GameRow {
        game: game_no,
        pair: pair_no,
        opening: opening_id.clone(),
        white: white_name.to_string(),
        black: black_name.to_string(),
        result: result.to_string(),
        termination: termination.name().to_string(),
        plies: moves.len(),
        first_engine_score,
        restarts,
        pgn,
        scores,
    })
}

/// How a game ends by the rules in `pos` (the last of `game`): mate, stalemate, insufficient
/// material, the fifty-move rule or threefold repetition; `None` while it goes on.
fn rule_ending(pos: &Position, game: &[Position]) -> Option<(&'static str, Ending)> {
    if pos.chess().legal_moves().is_empty() {
        return Some(if pos.in_check() {
            (
                if pos.turn() == Color::White {
                    "0-1"
                } else {
                    "1-0"
                },
                Ending::Checkmate,
            )
        } else {
            ("1/2-1/2", Ending::Stalemate)
        });
    }
    if pos.insufficient_material() {
        return Some(("1/2-1/2", Ending::InsufficientMaterial));
    }
    if pos.halfmoves() >= 100 {
        return Some(("1/2-1/2", Ending::FiftyMoveRule));
    }
    if game.iter().filter(|p| p.key() == pos.key()).count() >= 3 {
        return Some(("1/2-1/2", Ending::ThreefoldRepetition));
    }
    None
}

/// What a game's PGN headers say.
struct Headers<'a> {
    round: usize,
    players: [&'a str; 2],
    result: &'a str,
    start: &'a Position,
    opening: &'a str,
    control: Control,
    termination: Ending,
    restarts: u32,
}

/// A game as PGN: its headers, then its moves `sans` from its start.
#[expect(clippy::cast_precision_loss, reason = "milliseconds as seconds")]
fn pgn(h: &Headers<'_>, sans: &[String]) -> String {
    let mut pgn = String::new();
    let _ = writeln!(
        pgn,
        "[Event \"cutlab match\"]\n[Site \"cutlab\"]\n[Round \"{}\"]",
        h.round
    );
    let _ = writeln!(
        pgn,
        "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]",
        h.players[0], h.players[1], h.result
    );
    let _ = writeln!(
        pgn,
        "[FEN \"{}\"]\n[SetUp \"1\"]\n[Opening \"{}\"]",
        h.start.fen(),
        h.opening
    );
    let tc = match h.control {
        Control::Clock { base_ms, inc_ms } => {
            format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
        }
        Control::Nodes(n) => format!("nodes={n}"),
        Control::Movetime(ms) => format!("movetime={ms}ms"),
    };
    let _ = writeln!(
        pgn,
        "[TimeControl \"{tc}\"]\n[Termination \"{}\"]",
        h.termination.name()
    );
    if h.restarts > 0 {
        let _ = writeln!(pgn, "[EngineRestarts \"{}\"]", h.restarts);
    }
    pgn.push('\n');
    let _ = writeln!(
        pgn,
        "{}\n",
        crate::common::packed_games::movetext(h.start.chess(), sans, h.result)
    );
    pgn
}

/// After engine `mover` failed with `error` in game `game_no`: starts it again when `allowed`
/// (its clock not run out, restarts left); whether it runs again.
fn restarted(
    players: &mut [Player; 2],
    setting: &PairSetting<'_>,
    (mover, game_no): (usize, usize),
    (error, allowed): (&str, bool),
) -> bool {
    let name = setting.names[mover];
    eprintln!("game {game_no}: {name} failed: {error}");
    if !allowed {
        return false;
    }
    match Player::start(&setting.specs[mover]) {
        Ok(player) => players[mover] = player,
        Err(e) => {
            eprintln!("game {game_no}: {name} did not restart: {e}");
            return false;
        }
    }
    eprintln!("game {game_no}: {name} restarted and asked again");
    true
}
