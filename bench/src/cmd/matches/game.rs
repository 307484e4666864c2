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

/// A game being played: its start (as the engines are told it), its positions from the start,
/// its moves (UCI and SAN), the movers' scores, the clocks and the engines' restarts so far.
struct Game<'a> {
    setting: &'a PairSetting<'a>,
    game_no: usize,
    start_fen: String,
    /// Which of `players` plays White.
    white_index: usize,
    positions: Vec<Position>,
    moves: Vec<String>,
    sans: Vec<String>,
    scores: Vec<ScoreRow>,
    clocks: [u64; 2],
    restarts: u32,
}

impl Game<'_> {
    /// The position to move in.
    fn position(&self) -> Position {
        self.positions.last().cloned().unwrap_or_default()
    }

    /// One turn in `pos`, the last position: the side to move is asked for its move, which is
    /// played; the game's end where the answer ends it (resignation, failure, time, an
    /// illegal move, adjudication on the mover's score). An engine that failed and was
    /// started again has not moved: the turn is asked again.
    fn turn(
        &mut self,
        pos: &Position,
        players: &mut [Player; 2],
        adjudicator: &mut Adjudicator,
    ) -> Option<(&'static str, Ending)> {
        let setting = self.setting;
        let side = if pos.turn() == Color::White { 0 } else { 1 };
        let mover = if side == 0 {
            self.white_index
        } else {
            1 - self.white_index
        };
        let loss = if side == 0 { "0-1" } else { "1-0" };
        let clocked = matches!(setting.control, Control::Clock { .. });
        let (_, inc) = setting.control.clock_ms();
        let started = Instant::now();
        let reply = players[mover].play(
            &self.start_fen,
            &self.moves,
            &self.positions,
            self.clocks,
            setting.control_of(mover),
            inc,
        );
        let used = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (text, score) = match reply {
            Ok(Answer::Move(text, score)) => (text, score),
            Ok(Answer::Resign) => return Some((loss, Ending::Resignation)),
            Err(e) => {
                let in_time = !clocked || used < self.clocks[side];
                let allowed = in_time && self.restarts < setting.restarts;
                if !restarted(players, setting, (mover, self.game_no), (&e, allowed)) {
                    return Some((loss, Ending::EngineFailure));
                }
                self.restarts += 1;
                if clocked {
                    self.clocks[side] -= used;
                }
                return None;
            }
        };
        if clocked {
            if used > self.clocks[side] {
                return Some((loss, Ending::TimeForfeit));
            }
            self.clocks[side] = self.clocks[side] - used + inc;
        }
        let Ok(m) = pos.parse_uci(&text) else {
            eprintln!(
                "game {}: {} played illegal move '{text}'",
                self.game_no, setting.names[mover]
            );
            return Some((loss, Ending::IllegalMove));
        };
        self.sans
            .push(SanPlus::from_move(pos.chess().clone(), m).to_string());
        self.moves.push(text);
        self.positions.push(pos.play(m));
        self.scores.push(ScoreRow {
            game: self.game_no,
            ply: self.moves.len(),
            mover: pos.turn().fold_wb("white", "black").to_string(),
            score_cp: score,
        });
        // Adjudication on the movers' own scores.
        adjudicator.after_move(self.moves.len(), pos.turn(), score)
    }
}

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
    let (opening_id, fen) = opening;
    let start = Position::from_fen(fen).map_err(|e| format!("opening {opening_id}: {e}"))?;
    let (base, _) = setting.control.clock_ms();
    let mut game = Game {
        setting,
        game_no,
        // players[0] is the first engine; map colours.
        white_index: if first_is_white { 0 } else { 1 },
        start_fen: start.fen(),
        positions: vec![start.clone()],
        moves: Vec::new(),
        sans: Vec::new(),
        scores: Vec::new(),
        clocks: [base, base],
        restarts: 0,
    };
    let mut adjudicator = Adjudicator::new(*setting.adjudication);
    let (result, termination) = loop {
        let pos = game.position();
        if let Some(end) = rule_ending(&pos, &game.positions) {
            break end;
        }
        if let Some(end) = adjudicator.before_move(game.moves.len()) {
            break end;
        }
        if let Some(end) = game.turn(&pos, players, &mut adjudicator) {
            break end;
        }
    };
    let white_name = setting.names[game.white_index];
    let black_name = setting.names[1 - game.white_index];
    let first_engine_score =
        cutlab_analysis::rows::first_engine_points(result, first_is_white).unwrap_or(0.0);
    let pgn = pgn(
        &Headers {
            round: pair_no,
            players: [white_name, black_name],
            result,
            start: &start,
            opening: opening_id,
            control: setting.control,
            termination,
            restarts: game.restarts,
        },
        &game.sans,
    );
    Ok(GameRow {
        game: game_no,
        pair: pair_no,
        opening: opening_id.clone(),
        white: white_name.to_string(),
        black: black_name.to_string(),
        result: result.to_string(),
        termination: termination.name().to_string(),
        plies: game.moves.len(),
        first_engine_score,
        restarts: game.restarts,
        pgn,
        scores: game.scores,
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
