//! Stockfish-style ProbCut (Stockfish 15.1, `search.cpp`, step 10 "ProbCut"): if a good
//! capture beats beta by a margin in a reduced search, the node will likely fail high too.
//!
//! ```text
//! probCutBeta = beta + 191 - 54 * improving;
//! if (!PvNode && depth > 4 && abs(beta) < VALUE_TB_WIN_IN_MAX_PLY
//!     && !(ttDepth >= depth - 3 && ttValue < probCutBeta)) {
//!     for (move in TT move and captures with see_ge(move, probCutBeta - staticEval)) {
//!         value = -qsearch(-probCutBeta, -probCutBeta + 1);          // preliminary check
//!         if (value >= probCutBeta)
//!             value = -search(-probCutBeta, -probCutBeta + 1, depth - 4, !cutNode);
//!         if (value >= probCutBeta) {
//!             tt.save(LOWER, value, depth - 3, move);
//!             return value;
//!         }
//!     }
//! }
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - Step 12 of Stockfish 15.1, the small ProbCut in check (return beta + 417 on a deep TT
//!   capture lower bound), is not part of this method.
//! - Captures are ordered by MVV-LVA and capture history (cutlab's picker), not by Stockfish's
//!   6 × victim value plus capture history; the SEE threshold filters them here rather than
//!   inside Stockfish's picker.
//!
//! The moves are those of Stockfish's PROBCUT stage (`movepick.cpp`): the TT move when it is a
//! capture (`pos.capture(ttm)`: a promotion that captures nothing is not), then the captures
//! and queen promotions its CAPTURES generation makes (no under-promotion), each passing
//! `see_ge(move, probCutBeta - ss->staticEval)`.
//! - The child of a CUT node is searched as an expected ALL node and vice versa, as
//!   `!cutNode` does; the TT entry stored on a cut has draft depth - reduction + 1 (depth - 3).

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::Role;

use crate::{
    history::PieceTo,
    movepick::{MovePicker, PickerKind},
    position::Position,
    score::{MATE_BOUND, is_mate},
    search::{Exit, Node, Probe, Search},
    see,
    tt::PackedMove,
};

/// Parameters of Stockfish-style ProbCut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SfProbCutParams {
    /// probCutBeta = beta + margin (centipawns; Stockfish 15.1: 191 of its units, 96 here). A
    /// margin beyond the mate range disables the test.
    pub margin: i32,
    /// Taken from the margin when the static evaluation improves (Stockfish 15.1: 54 of its
    /// units, 27 here).
    pub improving: i32,
    /// Depth reduction of the verification search (Stockfish: 4).
    pub reduction: i32,
    /// Minimum depth + 1 (Stockfish: depth > 4).
    pub min_depth: i32,
}

impl Default for SfProbCutParams {
    fn default() -> Self {
        SfProbCutParams {
            margin: 96,
            improving: 27,
            reduction: 4,
            min_depth: 5,
        }
    }
}

impl<O: Observer> Search<O> {
    /// Step 10: Stockfish-style ProbCut at a non-PV node not in check.
    pub(crate) fn try_sf_probcut(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.sf_probcut?;
        let margin = params.margin - if node.improving { params.improving } else { 0 };
        let probcut_beta = node.beta.saturating_add(margin);
        // The draft Stockfish gives the TT entry it stores (depth - 3 when the search reduces 4).
        let stored_depth = node.depth - params.reduction + 1;
        if node.is_pv()
            || node.excluded.is_some()
            || node.in_check
            || node.depth < params.min_depth
            || is_mate(node.beta)
            || probcut_beta.abs() >= MATE_BOUND
            || node
                .tt
                .is_some_and(|h| h.depth >= stored_depth && h.score < probcut_beta)
        {
            return None;
        }
        let threshold = probcut_beta - node.static_eval;
        let mut picker = MovePicker::new(
            node.tt_move,
            [PackedMove::NONE; 2],
            None,
            PickerKind::Tactical,
        );
        let child_type = node.node_type.child(1);
        let (child_ply, id) = (node.ply + 1, node.id);
        while let Some((m, _)) = picker.next(pos, &self.history) {
            let probcut_stage = if node.tt_move == Some(m) {
                m.is_capture()
            } else {
                matches!(m.promotion(), None | Some(Role::Queen))
            };
            if !probcut_stage || !see::see_ge(pos, m, threshold) {
                continue;
            }
            let before = self.nodes;
            self.frames[node.ply_index()].moved = Some(PieceTo::new(pos, m));
            let child = pos.play(m);
            self.keys.push(child.key());
            self.in_test += 1;
            // Preliminary quiescence check, then the reduced search.
            let window = [-probcut_beta, -probcut_beta + 1];
            let mut value =
                -self.quiescence(&child, window[0], window[1], child_ply, child_type, id);
            let mut shallow_depth = 0;
            if value >= probcut_beta && !self.aborted {
                shallow_depth = node.depth - params.reduction;
                value = -self.search(
                    &child,
                    window[0],
                    window[1],
                    shallow_depth,
                    child_ply,
                    child_type,
                    id,
                );
            }
            self.in_test -= 1;
            self.keys.pop();
            if self.aborted {
                return Some(Exit::aborted());
            }
            let cut = value >= probcut_beta;
            let outcome = CutOutcome::high_if(cut);
            let probe = Probe {
                shallow_depth,
                bound: probcut_beta,
                value,
                nodes: self.nodes - before,
            };
            self.record_test(pos, node, Method::SfProbCut, probe, outcome);
            if cut {
                self.tt.store(
                    pos.key(),
                    node.ply,
                    PackedMove::new(m),
                    value,
                    node.static_eval,
                    stored_depth,
                    Bound::Lower,
                );
                return Some(Exit::cut(Method::SfProbCut, value, Bound::Lower).with_move(Some(m)));
            }
        }
        None
    }
}
