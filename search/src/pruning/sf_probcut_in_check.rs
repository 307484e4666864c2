//! Stockfish's small ProbCut in check (Stockfish 15.1, `search.cpp`, step 12 "A small Probcut
//! idea, when we are in check"): a node in check whose transposition-table entry is a capture
//! with a lower bound far above beta, from a search nearly as deep, fails high at once.
//!
//! ```text
//! probCutBeta = beta + 417;
//! if (   ss->inCheck
//!     && !PvNode
//!     && depth >= 2
//!     && ttCapture
//!     && (tte->bound() & BOUND_LOWER)
//!     && tte->depth() >= depth - 3
//!     && ttValue >= probCutBeta
//!     && abs(ttValue) <= VALUE_KNOWN_WIN
//!     && abs(beta) <= VALUE_KNOWN_WIN)
//!     return probCutBeta;
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - `VALUE_KNOWN_WIN` (10000 in Stockfish) is cutlab's mate range bound: values outside it
//!   are mate scores, and cutlab has no tablebase or known-win scores between.

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    position::Position,
    score::is_mate,
    search::{Exit, Node, Probe, Search},
};

/// Parameters of the in-check ProbCut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SfProbCutInCheckParams {
    /// probCutBeta = beta + margin, centipawns (Stockfish: 417 of its units; 209 here). A
    /// margin beyond the mate range disables the method.
    pub margin: i32,
    /// Least depth tried (Stockfish: 2).
    pub min_depth: i32,
    /// How much shallower the TT entry's draft may be (Stockfish: 3).
    pub draft_slack: i32,
}

impl Default for SfProbCutInCheckParams {
    fn default() -> Self {
        SfProbCutInCheckParams {
            margin: 209,
            min_depth: 2,
            draft_slack: 3,
        }
    }
}

impl<O: Observer> Search<O> {
    /// Step 13: a non-PV node in check with a deep TT lower bound from a capture far above
    /// beta returns beta + margin.
    pub(crate) fn try_sf_probcut_in_check(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.sf_probcut_in_check?;
        let hit = node.tt?;
        // Stockfish's `ttCapture`: `pos.capture(ttMove)`, so a promotion only when it captures.
        let tt_capture = node.tt_move.is_some_and(|m| m.is_capture());
        if !node.in_check
            || node.is_pv()
            || node.excluded.is_some()
            || node.depth < params.min_depth
            || !tt_capture
            || !matches!(hit.bound, Bound::Lower | Bound::Exact)
            || hit.depth < node.depth - params.draft_slack
            || is_mate(hit.score)
            || is_mate(node.beta)
        {
            return None;
        }
        let probcut_beta = node.beta.saturating_add(params.margin);
        if is_mate(probcut_beta) {
            return None;
        }
        let cut = hit.score >= probcut_beta;
        let probe = Probe {
            shallow_depth: hit.depth,
            bound: probcut_beta,
            value: hit.score,
            nodes: 0,
        };
        let outcome = CutOutcome::high_if(cut);
        self.record_test(pos, node, Method::SfProbCutInCheck, probe, outcome);
        cut.then(|| Exit::cut(Method::SfProbCutInCheck, probcut_beta, Bound::Lower))
    }
}
