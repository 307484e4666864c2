//! Static evaluation: a classical evaluation, linear in its weights and tapered between a
//! middlegame and an endgame value by the game phase.
//!
//! [`terms`] counts the features of a position, [`layout`] says where each feature's weight lives,
//! and [`weights`] holds the numbers (written by `cutlab tune-eval`, Texel's method, once a fit
//! beats the ones there in play). The result is in centipawns from the side to move's view.

pub mod layout;
mod pawn_cache;
mod phased;
pub mod terms;
pub mod weights;

use shakmaty::{Board, Color, Position as _};

pub use pawn_cache::PawnCache;
use pawn_cache::PawnKey;
pub use phased::{FULL_PHASE, PHASE_INC, Phased};
use terms::FeatureSink;

use crate::position::Position;

/// Sums the weights of the features it is handed.
#[derive(Default)]
struct Scorer {
    total: Phased,
}

impl FeatureSink for Scorer {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.total += weights::WEIGHTS[index] * count;
    }
}

/// Evaluation of `pos` in centipawns, side to move's view.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let chess = pos.chess();
    evaluate_board(chess.board(), chess.turn())
}

/// Evaluation of `board` with `turn` to move, in centipawns from `turn`'s view.
#[must_use]
pub fn evaluate_board(board: &Board, turn: Color) -> i32 {
    let mut scorer = Scorer::default();
    let phase = terms::collect(board, turn, &mut scorer);
    side_to_move_view(scorer.total.taper(phase), turn)
}

/// [`evaluate`], with the pawn terms taken from `cache` when it holds them (the same value).
#[must_use]
pub fn evaluate_cached(pos: &Position, cache: &mut PawnCache) -> i32 {
    let chess = pos.chess();
    let (board, turn) = (chess.board(), chess.turn());
    let key = PawnKey::of(board);
    let (pawn_score, passers) = cache.probe(key).unwrap_or_else(|| {
        let mut scorer = Scorer::default();
        let passers = terms::pawn_terms(board, &mut scorer);
        cache.store(key, scorer.total, passers);
        (scorer.total, passers)
    });
    let mut scorer = Scorer { total: pawn_score };
    let phase = terms::piece_terms(board, turn, passers, &mut scorer);
    side_to_move_view(scorer.total.taper(phase), turn)
}

fn side_to_move_view(white_view: i32, turn: Color) -> i32 {
    match turn {
        Color::White => white_view,
        Color::Black => -white_view,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    /// The position with colours swapped and the board mirrored.
    fn mirror(fen: &str) -> Position {
        let pos = Position::from_fen(fen).unwrap();
        let mut setup = pos.chess().to_setup(shakmaty::EnPassantMode::Legal);
        setup.mirror();
        let chess = setup.position(shakmaty::CastlingMode::Standard).unwrap();
        Position::from_chess(chess)
    }

    #[test]
    fn start_position_is_worth_the_tempo() {
        let tempo = weights::WEIGHTS[layout::TEMPO].taper(FULL_PHASE);
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            tempo
        );
    }

    #[test]
    fn the_pawn_cache_changes_no_evaluation() {
        let mut cache = PawnCache::default();
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        // A seeded walk of legal moves: every evaluation on a miss, then on a hit.
        let mut seed = 7_u64;
        for _ in 0..200 {
            let uncached = evaluate(&pos);
            assert_eq!(evaluate_cached(&pos, &mut cache), uncached);
            assert_eq!(evaluate_cached(&pos, &mut cache), uncached);
            let moves = pos.chess().legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pos = pos.play(moves[(seed >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5pk1/6p1/3P4/2P5/8/5PPP/6K1 b - - 0 40",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r3k1/1q3ppp/p2b4/1p1Pn3/4Q3/1B3N2/PP3PPP/3R2K1 w - - 0 25",
        ] {
            assert_eq!(eval(fen), evaluate(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn material_and_passers_count() {
        // An extra queen is worth far more than anything positional.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        // A far-advanced passed pawn beats a blocked one.
        let passer = eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let blocked = eval("4k3/8/1p6/1P6/8/8/8/4K3 w - - 0 1");
        assert!(passer > blocked + 50, "{passer} vs {blocked}");
    }

    /// Counts every feature handed to it.
    #[derive(Default)]
    struct Counter(Vec<(usize, i32)>);

    impl FeatureSink for Counter {
        fn add(&mut self, index: usize, count: i32) {
            self.0.push((index, count));
        }
    }

    #[test]
    fn the_feature_counts_times_the_weights_are_the_evaluation() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let mut counter = Counter::default();
        let phase = terms::collect(pos.chess().board(), pos.turn(), &mut counter);
        let mut total = Phased::default();
        for (index, count) in counter.0 {
            assert!(index < layout::COUNT);
            total += weights::WEIGHTS[index] * count;
        }
        assert_eq!(-total.taper(phase), evaluate(&pos));
    }
}
