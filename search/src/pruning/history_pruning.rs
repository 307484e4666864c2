//! History pruning (Stockfish 15.1, `search.cpp`, step 14, "Continuation history based
//! pruning"): at low depth a quiet move whose history says it has rarely been good is not
//! searched.
//!
//! ```text
//! if (!capture && !givesCheck)                  // capture(): promotions only when capturing
//!     history = contHist[0][piece][to] + contHist[1][piece][to] + contHist[3][piece][to];
//!     if (lmrDepth < 5 && history < -3875 * (depth - 1))
//!         continue;
//! ```
//!
//! At depth 1 the bound is 0: any quiet move with negative history is pruned there, as in the
//! source. A promotion that captures nothing is quiet here, as Stockfish's `capture()` says.
//!
//! Deviations from the source, each a choice written down here:
//! - One continuation history, not three: cutlab keeps the table of the opponent's last move
//!   (Stockfish's `contHist[0]`) but not those of the moves two and four plies back (the
//!   two-ply table played worse in cutlab: see [`crate::history`]). Each table holds values
//!   within ±16384 where Stockfish's three sum to about ±90000 (±29952 each), so the default
//!   bound, 700 per ply, scales Stockfish's 3875 by that ratio (16384 / 90000 ≈ 0.18).
//! - After a null move (and at the root's children) there is no previous move and the history
//!   reads 0; Stockfish reads its table of the null move instead.
//! - The 700 per ply was measured with the butterfly table this method read before: 1400 per
//!   ply (prune less) against 700, in `modern` with its margins at 3/5 of Stockfish's, 25,000
//!   nodes per move, 8moves_v3 in random order (seed 46): -9.3 ± 11.3 Elo after 224 games,
//!   undecided.

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    history::PieceTo,
    position::Position,
    search::{MoveCandidate, Node, Probe, Search},
};

/// Parameters of history pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryPruningParams {
    /// Pruned when history < -this × (depth - 1).
    pub per_ply: i32,
    /// Deepest reduced child depth (lmrDepth) pruned (Stockfish: lmrDepth < 5, so 4).
    pub max_lmr_depth: i32,
}

impl Default for HistoryPruningParams {
    fn default() -> Self {
        HistoryPruningParams {
            per_ply: 700,
            max_lmr_depth: 4,
        }
    }
}

impl<O: Observer> Search<O> {
    /// Step 14a: whether a non-capture that gives no check has too bad a continuation history
    /// for its depth.
    pub(crate) fn try_history_pruning(
        &mut self,
        pos: &Position,
        node: &Node,
        cand: &MoveCandidate,
    ) -> bool {
        let Some(params) = self.config.history_pruning else {
            return false;
        };
        if cand.capture || cand.gives_check || cand.lmr_depth > params.max_lmr_depth {
            return false;
        }
        let history = self.previous_move(node).map_or(0, |previous| {
            self.history
                .continuation
                .get(previous, PieceTo::new(pos, cand.m))
        });
        let bound = -params.per_ply * (node.depth - 1);
        let pruned = history < bound;
        let probe = Probe {
            shallow_depth: cand.lmr_depth,
            bound,
            value: history,
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::HistoryPruning, probe, (cand.m, pruned));
        pruned
    }
}
