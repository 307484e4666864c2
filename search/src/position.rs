//! A chess position with its Zobrist key, played by copy-make.

use std::fmt;

use cutlab_instrument::Stage;
use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Move, Position as _, fen::Fen, uci::UciMove,
    zobrist::Zobrist64,
};

/// Why a FEN or a move could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN text does not parse.
    BadFen(String),
    /// The FEN parses but describes an illegal position.
    IllegalPosition(String),
    /// A move is not written in UCI notation.
    BadMove(String),
    /// A move is well written but illegal in the position.
    IllegalMove(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadFen(why) => write!(f, "malformed FEN: {why}"),
            PositionError::IllegalPosition(why) => f.write_str(why),
            PositionError::BadMove(m) => write!(f, "malformed move '{m}'"),
            PositionError::IllegalMove(m) => write!(f, "illegal move '{m}'"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal chess position and its 64-bit Zobrist key (shakmaty's keys, legal en-passant mode).
#[derive(Clone, Debug)]
pub struct Position {
    chess: Chess,
    key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default())
    }
}

impl Position {
    /// The standard starting position.
    #[must_use]
    pub fn startpos() -> Position {
        Position::default()
    }

    /// Wraps a shakmaty position, computing its key.
    #[must_use]
    pub fn from_chess(chess: Chess) -> Position {
        let key = chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        Position { chess, key }
    }

    /// Parses a FEN (4 to 6 fields; missing counters default to `0 1`).
    ///
    /// # Errors
    /// [`PositionError::BadFen`] for text that is not FEN, [`PositionError::IllegalPosition`]
    /// for a position that breaks the rules (e.g. the side not to move is in check).
    pub fn from_fen(fen: &str) -> Result<Position, PositionError> {
        let fen: Fen = fen
            .trim()
            .parse()
            .map_err(|e| PositionError::BadFen(format!("{e}")))?;
        let chess: Chess = fen
            .into_position(CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .map_err(|e| PositionError::IllegalPosition(format!("{e}")))?;
        Ok(Position::from_chess(chess))
    }

    /// The position as a 6-field FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        Fen::from_position(&self.chess, EnPassantMode::Legal).to_string()
    }

    /// The underlying shakmaty position.
    #[must_use]
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// Zobrist key.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.chess.turn()
    }

    /// Side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.chess.is_check()
    }

    /// Plies since the last capture or pawn move.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.chess.halfmoves()
    }

    /// The position after the legal move `m`, with its key updated incrementally where
    /// shakmaty can and from scratch otherwise.
    #[must_use]
    pub fn play(&self, m: Move) -> Position {
        let mut chess = self.chess.clone();
        chess.play_unchecked(m);
        let key = self
            .chess
            .update_zobrist_hash(Zobrist64(self.key), m, EnPassantMode::Legal)
            .map_or_else(
                || chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
                |z| z.0,
            );
        Position { chess, key }
    }

    /// The position after passing the move (null move): turn swapped, en passant cleared.
    /// `None` when the side to move is in check.
    #[must_use]
    pub fn play_null(&self) -> Option<Position> {
        self.chess
            .clone()
            .swap_turn()
            .ok()
            .map(Position::from_chess)
    }

    /// Parses a move in UCI notation and checks it is legal here.
    ///
    /// # Errors
    /// [`PositionError::BadMove`] or [`PositionError::IllegalMove`].
    pub fn parse_uci(&self, text: &str) -> Result<Move, PositionError> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| PositionError::BadMove(text.to_string()))?;
        uci.to_move(&self.chess)
            .map_err(|_| PositionError::IllegalMove(text.to_string()))
    }

    /// Non-pawn material of `color` weighted Q=9, R=5, B=N=3 (Jiang and Buro 2003, section 4).
    #[must_use]
    pub fn weighted_material(&self, color: Color) -> u32 {
        let m = self.chess.board().material_side(color);
        9 * u32::from(m.queen) + 5 * u32::from(m.rook) + 3 * u32::from(m.bishop + m.knight)
    }

    /// Game stage: endgame when both sides' weighted material is below 15.
    #[must_use]
    pub fn stage(&self) -> Stage {
        if self.weighted_material(Color::White) < 15 && self.weighted_material(Color::Black) < 15 {
            Stage::Endgame
        } else {
            Stage::Middlegame
        }
    }

    /// Whether `color` has a piece other than pawns and king (null-move guard).
    #[must_use]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let board = self.chess.board();
        (board.by_color(color) & !(board.pawns() | board.kings())).any()
    }

    /// Whether neither side can possibly mate (shakmaty's rule).
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        self.chess.is_insufficient_material()
    }
}

/// Writes `m` in UCI notation (standard castling, e.g. `e1g1`).
#[must_use]
pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_key_matches_key_from_scratch_over_random_games() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.chess().legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[usize::try_from(seed % moves.len() as u64).unwrap()];
                pos = pos.play(m);
                assert_eq!(pos.key(), Position::from_chess(pos.chess().clone()).key());
            }
        }
    }

    #[test]
    fn stage_follows_jiang_and_buro() {
        assert_eq!(Position::startpos().stage(), Stage::Middlegame);
        // Each side: rook + bishop + knight = 11 < 15.
        let end = Position::from_fen("2r1k3/5n2/3b4/8/8/3B4/5N2/2R1K3 w - - 0 1").unwrap();
        assert_eq!(end.stage(), Stage::Endgame);
        // White has queen + rook + bishop = 17 >= 15.
        let mid = Position::from_fen("4k3/8/8/8/8/8/8/1QRBK3 w - - 0 1").unwrap();
        assert_eq!(mid.stage(), Stage::Middlegame);
        // Exactly 15 each (queen + rook + minor... here 3 rooks) is not an endgame.
        let edge = Position::from_fen("rrr1k3/8/8/8/8/8/8/RRR1K3 w - - 0 1").unwrap();
        assert_eq!(edge.stage(), Stage::Middlegame);
    }

    #[test]
    fn bad_fen_and_bad_moves_are_errors() {
        assert!(matches!(
            Position::from_fen("not a fen"),
            Err(PositionError::BadFen(_))
        ));
        assert!(matches!(
            Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(PositionError::IllegalPosition(_))
        ));
        let pos = Position::startpos();
        assert!(matches!(
            pos.parse_uci("e2e5"),
            Err(PositionError::IllegalMove(_))
        ));
        assert!(matches!(
            pos.parse_uci("zz"),
            Err(PositionError::BadMove(_))
        ));
        assert!(pos.parse_uci("e2e4").is_ok());
    }

    #[test]
    fn null_move_swaps_turn_and_changes_key() {
        let pos = Position::startpos();
        let null = pos.play_null().unwrap();
        assert_eq!(null.turn(), Color::Black);
        assert_ne!(null.key(), pos.key());
        let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(check.play_null().is_none());
    }
}
