//! Late move pruning, also called move-count pruning (Stockfish 15.1, `search.cpp`, step 14,
//! "Skip quiet moves if movecount exceeds our FutilityMoveCount threshold"): with good move
//! ordering the quiet moves late in the list rarely matter at low depth, so past a count that
//! grows with depth they are not searched.
//!
//! ```text
//! futility_move_count(improving, depth) = improving ? 3 + depth * depth
//!                                                   : (3 + depth * depth) / 2;
//! if (!rootNode && pos.non_pawn_material(us) && bestValue > VALUE_TB_LOSS_IN_MAX_PLY)
//!     moveCountPruning = moveCount >= futility_move_count(improving, depth);
//! ...
//! move = mp.next_move(moveCountPruning);    // skips the quiet moves once it is set
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Captures and promotions are never skipped; quiet checks are, as in Stockfish's picker.
//! - `max_depth` bounds the depths tried (Stockfish has none; its count grows with depth²).

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    position::Position,
    search::{MoveCandidate, Node, Probe, Search},
};

/// Parameters of late move pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LateMoveParams {
    /// Constant term of the move count (Stockfish: 3).
    pub base: i32,
    /// Whether the count is halved when the evaluation is not improving (Stockfish: yes).
    pub halve_not_improving: bool,
    /// Deepest depth pruned (Stockfish: none). 0 disables the method.
    pub max_depth: i32,
}

impl Default for LateMoveParams {
    fn default() -> Self {
        LateMoveParams {
            base: 3,
            halve_not_improving: true,
            max_depth: 64,
        }
    }
}

impl LateMoveParams {
    /// Moves searched before quiet moves are skipped at `depth`.
    #[must_use]
    pub fn move_count(&self, depth: i32, improving: bool) -> i32 {
        let count = self.base + depth * depth;
        if self.halve_not_improving && !improving {
            count / 2
        } else {
            count
        }
    }
}

impl<O: Observer> Search<O> {
    /// Step 14a: whether a quiet move comes after the depth's move count.
    pub(crate) fn try_lmp(&mut self, pos: &Position, node: &Node, cand: &MoveCandidate) -> bool {
        let Some(params) = self.config.lmp else {
            return false;
        };
        if node.depth > params.max_depth || cand.tactical {
            return false;
        }
        let limit = params.move_count(node.depth, node.improving);
        let number = i32::try_from(cand.number).unwrap_or(i32::MAX);
        let pruned = number > limit;
        let probe = Probe {
            shallow_depth: node.depth - 1,
            bound: limit,
            value: number,
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::Lmp, probe, (cand.m, pruned));
        pruned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_follows_stockfish() {
        let p = LateMoveParams::default();
        assert_eq!(p.move_count(1, true), 4);
        assert_eq!(p.move_count(1, false), 2);
        assert_eq!(p.move_count(4, true), 19);
        assert_eq!(p.move_count(4, false), 9);
    }
}
