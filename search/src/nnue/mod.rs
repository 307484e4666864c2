//! NNUE: an efficiently updatable neural evaluation, the alternative to the classical
//! evaluation of [`crate::eval`] (chosen by `SearchConfig::eval`).
//!
//! The network is the perspective network small engines start with (the layout of bullet's
//! `simple` example and of akimbo's first nets): 768 inputs, one per (piece colour relative
//! to the perspective, piece type, square seen from the perspective), into a hidden layer of
//! [`HIDDEN`] neurons computed twice, once from each side's perspective (the
//! [`Accumulator`]); the side to move's half first, then the other's, through a squared
//! clipped ReLU into one output:
//!
//! ```text
//! eval = (Σᵢ SCReLU(us[i])·w[i] + Σᵢ SCReLU(them[i])·w[H+i]) / QA + b) · SCALE / (QA·QB)
//! SCReLU(x) = clamp(x, 0, QA)²
//! ```
//!
//! with i16 weights quantised by `QA = 255` (feature layer) and `QB = 64` (output layer) and
//! centipawns by `SCALE = 400` (bullet's conventions; [`mod@network`] checks that no sum can
//! overflow). Accumulators are updated incrementally: a node's accumulator is that of its
//! parent (or its last sibling) plus the columns of the features its move added and minus
//! those it removed, found by comparing the two boards piece by piece (a move changes 2 to 4
//! features); returning to the parent (unmake, in this copy-make search) finds the parent's
//! accumulator still on the stack.

mod accumulator;
pub mod network;

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};

use shakmaty::{Board, Color, Piece, Position as _, Role};

pub use accumulator::{Accumulator, feature_index};
pub use network::{HIDDEN, Network, QA, QB, SCALE};

use crate::position::Position;

/// Plies of the accumulator stack (quiescence included); deeper nodes refresh.
const STACK_PLIES: usize = 256;

/// The most features an update may change before a refresh is cheaper.
const MAX_CHANGES: usize = 24;

/// One ply of the stack: the board whose accumulator it holds.
#[derive(Clone)]
struct Entry {
    board: Board,
    accumulator: Accumulator,
    valid: bool,
}

/// The accumulators of the positions along the search's current line, one per ply.
#[derive(Clone)]
pub struct NnueStack {
    entries: Vec<Entry>,
}

impl Default for NnueStack {
    fn default() -> Self {
        NnueStack {
            entries: vec![
                Entry {
                    board: Board::empty(),
                    accumulator: Accumulator::default(),
                    valid: false,
                };
                STACK_PLIES
            ],
        }
    }
}

/// How many features differ between `a` and `b`.
fn changed_count(a: &Board, b: &Board) -> usize {
    pieces()
        .map(|piece| (a.by_piece(piece) ^ b.by_piece(piece)).count())
        .sum()
}

/// The twelve pieces, white's first.
fn pieces() -> impl Iterator<Item = Piece> {
    Color::ALL
        .into_iter()
        .flat_map(|c| Role::ALL.into_iter().map(move |r| r.of(c)))
}

/// `accumulator`, of `from`, made that of `to`: the columns of the features `to` has and
/// `from` has not added, those `from` has and `to` has not subtracted.
fn update(accumulator: &mut Accumulator, net: &Network, from: &Board, to: &Board) {
    for piece in pieces() {
        let (before, after) = (from.by_piece(piece), to.by_piece(piece));
        for square in after & !before {
            accumulator.add(net, piece, square);
        }
        for square in before & !after {
            accumulator.remove(net, piece, square);
        }
    }
}

impl NnueStack {
    /// Forgets every accumulator (a new network).
    pub fn clear(&mut self) {
        for entry in &mut self.entries {
            entry.valid = false;
        }
    }

    /// The accumulator of `board` at `ply`: updated from the nearest accumulator on the stack
    /// (the parent's, else the last one at this ply), or computed from scratch.
    pub fn accumulator(&mut self, net: &Network, board: &Board, ply: usize) -> &Accumulator {
        let ply = ply.min(STACK_PLIES - 1);
        let source = [ply.checked_sub(1), Some(ply)]
            .into_iter()
            .flatten()
            .filter(|&p| self.entries[p].valid)
            .map(|p| (changed_count(&self.entries[p].board, board), p))
            .min()
            .filter(|&(count, _)| count <= MAX_CHANGES);
        let accumulator = match source {
            Some((0, p)) => self.entries[p].accumulator.clone(),
            Some((_, p)) => {
                let mut accumulator = self.entries[p].accumulator.clone();
                update(&mut accumulator, net, &self.entries[p].board, board);
                accumulator
            }
            None => Accumulator::refresh(net, board),
        };
        let entry = &mut self.entries[ply];
        entry.board = board.clone();
        entry.accumulator = accumulator;
        entry.valid = true;
        &entry.accumulator
    }

    /// The network's evaluation of `pos` at `ply`, centipawns, side to move's view.
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let chess = pos.chess();
        let turn = chess.turn();
        self.accumulator(net, chess.board(), ply).output(net, turn)
    }
}

/// The network embedded in the engine (`search/nets/README.md` says how it was made).
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../nets/embedded.nnue"));

/// The network of a file (`None`: the embedded one), read once per process and shared.
///
/// # Errors
/// A file that cannot be read or is not a network (named), or no embedded network.
pub fn network(file: Option<&str>) -> Result<Arc<Network>, String> {
    static LOADED: Mutex<BTreeMap<Option<String>, Arc<Network>>> = Mutex::new(BTreeMap::new());
    let key = file.map(str::to_string);
    let mut loaded = LOADED.lock().map_err(|_| "the network cache is poisoned")?;
    if let Some(net) = loaded.get(&key) {
        return Ok(Arc::clone(net));
    }
    let net = match file {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?
        }
        None => Network::from_bytes(EMBEDDED.ok_or(
            "this build embeds no network yet: name a file written by `cutlab train`, nnue@FILE",
        )?)?,
    };
    let net = Arc::new(net);
    loaded.insert(key, Arc::clone(&net));
    Ok(net)
}

/// The network's evaluation of `pos` computed from scratch, centipawns, side to move's view.
#[must_use]
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    let chess = pos.chess();
    Accumulator::refresh(net, chess.board()).output(net, chess.turn())
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;

    /// The embedded network's evaluation of the start position, centipawns.
    const START_EVAL: i32 = 20;

    /// Castling both ways for both sides, en passant (white's b5xa6 and black's f4xe3, one
    /// pinned), promotions and under-promotions with and without capture, checks.
    const POSITIONS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq a6 0 3",
        "8/8/8/8/k4pPK/8/8/8 b - g3 0 1",
        "r1b1k2r/pP1p1ppp/8/8/8/8/Pp1P1PPP/R1B1K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];

    fn board(pos: &Position) -> &Board {
        pos.chess().board()
    }

    /// After every legal move and every reply, the accumulator updated from the stack equals
    /// the one summed from scratch, and so does the evaluation.
    #[test]
    fn an_updated_accumulator_equals_one_from_scratch_after_every_move() {
        let net = Network::random(1);
        let mut stack = NnueStack::default();
        for fen in POSITIONS {
            let root = Position::from_fen(fen).unwrap();
            stack.accumulator(&net, board(&root), 0);
            for m in root.chess().legal_moves() {
                let child = root.play(m);
                let updated = stack.accumulator(&net, board(&child), 1).clone();
                assert_eq!(
                    updated,
                    Accumulator::refresh(&net, board(&child)),
                    "{fen} {m}"
                );
                for reply in child.chess().legal_moves() {
                    let grandchild = child.play(reply);
                    assert_eq!(
                        stack.evaluate(&net, &grandchild, 2),
                        evaluate(&net, &grandchild),
                        "{fen} {m} {reply}"
                    );
                }
            }
        }
    }

    /// Make then unmake: after a whole subtree, the parent's accumulator is the one it had,
    /// and an update from a child back to the parent gives it too.
    #[test]
    fn unmaking_a_move_restores_the_accumulator() {
        let net = Network::random(2);
        let mut stack = NnueStack::default();
        for fen in POSITIONS {
            let root = Position::from_fen(fen).unwrap();
            let before = stack.accumulator(&net, board(&root), 0).clone();
            for m in root.chess().legal_moves() {
                let child = root.play(m);
                stack.accumulator(&net, board(&child), 1);
                // The parent at the child's ply: its accumulator from the child's.
                assert_eq!(
                    stack.accumulator(&net, board(&root), 1),
                    &before,
                    "{fen} {m}"
                );
            }
            assert_eq!(stack.entries[0].accumulator, before);
        }
    }

    /// The embedded network reads, and evaluates the start position as it did when it was
    /// embedded (a changed file or inference moves this number).
    #[test]
    fn the_embedded_network_evaluates_the_start_position_as_recorded() {
        let net = network(None).unwrap();
        assert!(net.record.contains("generated_at_commit"), "{}", net.record);
        assert_eq!(evaluate(&net, &Position::startpos()), START_EVAL);
    }

    /// A null move changes no feature: the same accumulator, the other half first.
    #[test]
    fn a_null_move_swaps_the_halves() {
        let net = Network::random(3);
        let pos = Position::from_fen(POSITIONS[0]).unwrap();
        let null = pos.play_null().unwrap();
        let mut stack = NnueStack::default();
        let acc = stack.accumulator(&net, board(&pos), 0).clone();
        assert_eq!(stack.accumulator(&net, board(&null), 1), &acc);
        // Seen from black, white's position mirrored with colours swapped is the same
        // position: a colour-symmetric position evaluates equally for either side to move.
        let symmetric = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let flipped = symmetric.play_null().unwrap();
        assert_eq!(evaluate(&net, &symmetric), evaluate(&net, &flipped));
    }

    /// The features follow the definition: a white pawn on e2 seen by white is own pawn on e2
    /// (index 0·384 + 0·64 + 12); seen by black, another colour's pawn on e7 (384 + 52).
    #[test]
    fn feature_indices_follow_the_definition() {
        let pawn = shakmaty::Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        assert_eq!(feature_index(Color::White, pawn, shakmaty::Square::E2), 12);
        assert_eq!(
            feature_index(Color::Black, pawn, shakmaty::Square::E2),
            384 + 52
        );
        let king = Role::King.of(Color::Black);
        assert_eq!(
            feature_index(Color::Black, king, shakmaty::Square::E8),
            5 * 64 + 4
        );
    }

    /// The output by the formula in floating point, from the accumulator's integers, equals
    /// the integer inference within its truncations.
    #[test]
    fn the_output_is_the_formula_of_the_module_doc() {
        let net = Network::random(4);
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let acc = Accumulator::refresh(&net, board(&pos));
            let turn = pos.turn();
            let screlu = |x: i16| f64::from(x.clamp(0, 255)).powi(2);
            let (us, them) = (acc.perspective(turn), acc.perspective(!turn));
            let sum: f64 = us
                .iter()
                .chain(them)
                .zip(&net.output_weights)
                .map(|(&x, &w)| screlu(x) * f64::from(w))
                .sum();
            let expected = (sum / 255.0 + f64::from(net.output_bias)) * 400.0 / (255.0 * 64.0);
            let got = f64::from(acc.output(&net, turn));
            assert!((got - expected).abs() <= 1.0, "{fen}: {got} vs {expected}");
        }
    }
}
