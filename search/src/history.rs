//! What the search learns about moves for ordering them: for quiet moves the butterfly history
//! (side, from, to; Schaeffer 1989) and the continuation history (the opponent's last move,
//! then this move, each as piece and destination: Stockfish's `continuationHistory[0]`, the
//! "counter-move history" of Ethereal and Weiss); for captures the capture history (piece,
//! destination and captured piece type: Stockfish 15.1's `captureHistory`). All use the
//! "gravity" update that keeps values within ±[`HISTORY_MAX`], so every entry is held in 16 bits
//! (as in Stockfish's `StatsEntry<int16_t, ...>`): the continuation table takes 1.2 MB, not 2.4,
//! and the butterfly table fits the L1 cache. The sums are taken in 32 bits.
//!
//! Stockfish also sums the continuations of the moves two, four and six plies before. The
//! two-ply one (Ethereal's "follow-up history"), in a table of its own added to the score at
//! full weight and updated as the one-ply table is, shrank the bench tree (5,591,797 ->
//! 5,408,214 nodes) but played worse: `null-move+lmr` at 25,000 nodes per move, 600 games
//! (8moves_v3 in random order, seed 41, each build as a UCI engine), -15.7 ± 20.2 Elo,
//! pentanomial [25, 77, 118, 60, 20]. It is left out.

use shakmaty::{Color, Move};

use crate::position::Position;

/// Bound on history values.
pub const HISTORY_MAX: i32 = 16_384;

/// Adds `bonus` (negative: malus) to `entry`, pulled toward zero the fuller it is. The result
/// stays within ±[`HISTORY_MAX`] (for a full entry the pull cancels the bonus), so it fits 16 bits.
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let old = i32::from(*entry);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    *entry = i16::try_from(new.clamp(-HISTORY_MAX, HISTORY_MAX)).unwrap_or_default();
}

/// How often a quiet move (by side, from, to) caused a cut-off.
pub struct History {
    table: Box<[[[i16; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl History {
    /// The history score of a quiet move.
    #[must_use]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        let from = m.from().map_or(0, |s| s.to_usize());
        i32::from(self.table[color as usize][from][m.to().to_usize()])
    }

    /// Adds `bonus` (negative: malus) with gravity toward zero.
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let from = m.from().map_or(0, |s| s.to_usize());
        gravity(
            &mut self.table[color as usize][from][m.to().to_usize()],
            bonus,
        );
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().flatten().for_each(|row| row.fill(0));
    }
}

/// A move as its moving piece (colour and type) and destination: what continuation history
/// is indexed by, 0..768.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// `m` played in `pos`.
    #[must_use]
    pub fn new(pos: &Position, m: Move) -> PieceTo {
        let piece = pos.turn() as usize * 6 + (m.role() as usize - 1);
        PieceTo(u16::try_from(piece * 64 + m.to().to_usize()).unwrap_or(0))
    }

    fn index(self) -> usize {
        usize::from(self.0)
    }
}

const PIECE_TO: usize = 12 * 64;

/// How good a quiet move was right after a given move: indexed by the earlier move and this
/// one, each as [`PieceTo`].
pub struct ContinuationHistory {
    table: Vec<[i16; PIECE_TO]>,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            table: vec![[0; PIECE_TO]; PIECE_TO],
        }
    }
}

impl ContinuationHistory {
    /// The score of `now` after `before`.
    #[must_use]
    pub fn get(&self, before: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.table[before.index()][now.index()])
    }

    /// Adds `bonus` to `now` after `before`, with gravity.
    pub fn update(&mut self, before: PieceTo, now: PieceTo, bonus: i32) {
        gravity(&mut self.table[before.index()][now.index()], bonus);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|row| row.fill(0));
    }
}

/// How often a capture (moving piece, destination, captured type) caused a cut-off.
pub struct CaptureHistory {
    table: Vec<[i16; 6]>,
}

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory {
            table: vec![[0; 6]; PIECE_TO],
        }
    }
}

impl CaptureHistory {
    /// The score of capture `m` in `pos` (0 for a move that captures nothing).
    #[must_use]
    pub fn get(&self, pos: &Position, m: Move) -> i32 {
        m.capture().map_or(0, |captured| {
            i32::from(self.table[PieceTo::new(pos, m).index()][captured as usize - 1])
        })
    }

    /// Adds `bonus` to capture `m` in `pos`, with gravity; nothing for a non-capture.
    pub fn update(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(captured) = m.capture() {
            gravity(
                &mut self.table[PieceTo::new(pos, m).index()][captured as usize - 1],
                bonus,
            );
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|row| row.fill(0));
    }
}

/// The moves a node searched before its best one: on a cut-off they lose history.
#[derive(Debug, Default)]
pub struct TriedMoves {
    /// Quiet moves (neither captures nor promotions).
    pub quiets: Vec<Move>,
    /// Captures.
    pub captures: Vec<Move>,
}

impl TriedMoves {
    /// Records `m` among the quiet moves or the captures (a non-capturing promotion is
    /// neither).
    pub fn push(&mut self, m: Move) {
        if m.is_capture() {
            self.captures.push(m);
        } else if !m.is_promotion() {
            self.quiets.push(m);
        }
    }
}

/// Every table, and the ordering score of a quiet move from them.
#[derive(Default)]
pub struct Histories {
    /// Butterfly history.
    pub butterfly: History,
    /// Continuation history after the opponent's last move.
    pub continuation: ContinuationHistory,
    /// Capture history.
    pub capture: CaptureHistory,
}

impl Histories {
    /// Ordering score of quiet `m` in `pos`, after the opponent's move `previous` (`None` after
    /// a null move or at the root).
    #[must_use]
    pub fn quiet_score(&self, pos: &Position, m: Move, previous: Option<PieceTo>) -> i32 {
        let continuation = previous.map_or(0, |before| {
            self.continuation.get(before, PieceTo::new(pos, m))
        });
        self.butterfly.get(pos.turn(), m) + continuation
    }

    /// Gives quiet `m` in `pos` a `bonus` (negative: malus) in every table.
    pub fn update_quiet(&mut self, pos: &Position, m: Move, previous: Option<PieceTo>, bonus: i32) {
        self.butterfly.update(pos.turn(), m, bonus);
        if let Some(before) = previous {
            self.continuation
                .update(before, PieceTo::new(pos, m), bonus);
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.continuation.clear();
        self.capture.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewarded_continuation_outranks_the_same_move_elsewhere() {
        let mut histories = Histories::default();
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let after_e4 = pos.play(e4);
        let nf6 = after_e4.parse_uci("g8f6").unwrap();
        let before = Some(PieceTo::new(&pos, e4));
        histories.update_quiet(&after_e4, nf6, before, 400);
        let with = histories.quiet_score(&after_e4, nf6, before);
        let without = histories.quiet_score(&after_e4, nf6, None);
        assert_eq!(without, 400);
        assert_eq!(with, 800);
        histories.clear();
        assert_eq!(histories.quiet_score(&after_e4, nf6, before), 0);
    }

    #[test]
    fn capture_history_is_kept_per_victim() {
        let mut histories = Histories::default();
        let rook_on_e6 = Position::from_fen("4k3/8/4r3/3P4/8/8/8/K7 w - - 0 1").unwrap();
        let knight_on_e6 = Position::from_fen("4k3/8/4n3/3P4/8/8/8/K7 w - - 0 1").unwrap();
        let takes_rook = rook_on_e6.parse_uci("d5e6").unwrap();
        let takes_knight = knight_on_e6.parse_uci("d5e6").unwrap();
        let push = rook_on_e6.parse_uci("d5d6").unwrap();
        histories.capture.update(&rook_on_e6, takes_rook, 300);
        histories.capture.update(&rook_on_e6, push, 300);
        assert_eq!(histories.capture.get(&rook_on_e6, takes_rook), 300);
        assert_eq!(histories.capture.get(&knight_on_e6, takes_knight), 0);
        assert_eq!(histories.capture.get(&rook_on_e6, push), 0, "not a capture");
        histories.clear();
        assert_eq!(histories.capture.get(&rook_on_e6, takes_rook), 0);
    }

    #[test]
    fn gravity_keeps_values_bounded() {
        for bonus in [HISTORY_MAX, -HISTORY_MAX, 1_000_000, -1_000_000, 7_777] {
            let mut entry = 0;
            for _ in 0..1000 {
                gravity(&mut entry, bonus);
            }
            let entry = i32::from(entry).abs();
            assert!(
                entry <= HISTORY_MAX && entry > HISTORY_MAX * 9 / 10,
                "{bonus}: {entry}"
            );
        }
    }
}
