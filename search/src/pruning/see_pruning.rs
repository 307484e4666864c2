//! SEE pruning in the main search (Stockfish 15.1, `search.cpp`, step 14, "SEE based pruning"
//! and "Prune moves with negative SEE"): at low depth a move that loses material in the
//! exchange on its square by more than a depth-scaled bound is not searched.
//!
//! ```text
//! if (capture || givesCheck)                    // capture(): promotions only when capturing
//!     if (!pos.see_ge(move, Value(-222) * depth))
//!         continue;
//! else
//!     if (!pos.see_ge(move, Value(-24 * lmrDepth * lmrDepth - 15 * lmrDepth)))
//!         continue;
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - `lmrDepth` is the child's depth after cutlab's LMR reduction (the child's depth when LMR
//!   is off).

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    position::Position,
    search::{MoveCandidate, Node, Probe, Search},
    see,
};

/// Parameters of SEE pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeePruningParams {
    /// Captures and checks: pruned when SEE < -this × depth (Stockfish: 222 of its units; 111
    /// here).
    pub tactical_per_ply: i32,
    /// Quiet moves: pruned when SEE < -(this × lmrDepth² + `quiet_linear` × lmrDepth)
    /// (Stockfish: 24 of its units; 12 here).
    pub quiet_quadratic: i32,
    /// See `quiet_quadratic` (Stockfish: 15 of its units; 8 here).
    pub quiet_linear: i32,
    /// Deepest depth pruned (Stockfish: none). 0 disables the method.
    pub max_depth: i32,
}

impl Default for SeePruningParams {
    fn default() -> Self {
        SeePruningParams {
            tactical_per_ply: 111,
            quiet_quadratic: 12,
            quiet_linear: 8,
            max_depth: 64,
        }
    }
}

impl<O: Observer> Search<O> {
    /// Step 14a: whether a move's static exchange is below the depth's bound (Stockfish's
    /// `!see_ge(move, bound)`).
    pub(crate) fn try_see_pruning(
        &mut self,
        pos: &Position,
        node: &Node,
        cand: &MoveCandidate,
    ) -> bool {
        let Some(params) = self.config.see_pruning else {
            return false;
        };
        if node.depth > params.max_depth {
            return false;
        }
        let bound = if cand.capture || cand.gives_check {
            -params.tactical_per_ply * node.depth
        } else {
            let d = cand.lmr_depth;
            -(params.quiet_quadratic * d * d + params.quiet_linear * d)
        };
        let pruned = !see::see_ge(pos, cand.m, bound);
        let probe = Probe {
            shallow_depth: cand.lmr_depth,
            bound,
            // The exchange's value, for the events only (the question above is cheaper).
            value: if O::TEST_EVENTS {
                see::see(pos, cand.m)
            } else {
                0
            },
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::SeePruning, probe, (cand.m, pruned));
        pruned
    }
}
