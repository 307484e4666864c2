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
//! - Not in the search without the TT move of a singular test. Stockfish runs this step there
//!   too, under the separate TT key it keeps for that search; cutlab's excluded search shares
//!   the node's TT entry and runs none of steps 8-13 (see [`super::singular`]).

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    score::is_mate,
    search::{Exit, Node, Probe, Search},
};

/// Parameters of the in-check ProbCut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SfProbCutInCheckParams {
    /// probCutBeta = beta + margin, centipawns (Stockfish: 417 of its units; 209 here). A
    /// margin beyond the mate range disables the method.
    #[default(209)]
    pub margin: i32,
    /// Least depth tried (Stockfish: 2).
    #[default(2)]
    pub min_depth: i32,
    /// How much shallower the TT entry's draft may be (Stockfish: 3).
    #[default(3)]
    pub draft_slack: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "sf-probcut-in-check",
    describe: || {
        let p = SfProbCutInCheckParams::default();
        format!(
            "in check, a TT capture lower bound >= beta + {} returns (Stockfish 15.1 step 12, \
             margin halved)",
            p.margin
        )
    },
    apply: Apply::On(|config| config.sf_probcut_in_check = Some(SfProbCutInCheckParams::default())),
}];

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

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::{
        SearchConfig,
        score::MATE_BOUND,
        tt::{PackedMove, TtHit},
    };

    /// Stockfish 15.1 step 12 with its margin halved (417 -> 209): in check, at a non-PV node of
    /// depth >= 2, a TT capture with a lower bound from depth - 3 or deeper at least
    /// beta + 209, no win score, returns beta + 209.
    #[test]
    fn cuts_where_stockfish_would() {
        let mut search =
            Search::new(SearchConfig::preset("sf-probcut-in-check").unwrap(), 1).unwrap();
        let pos = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        let capture = pos.parse_uci("e1e2").unwrap();
        let quiet = pos.parse_uci("e1d1").unwrap();
        let beta = 0;
        let mut cuts = 0;
        for (node_type, depth, in_check) in [
            (NodeType::Cut, 4, true),
            (NodeType::All, 2, true),
            (NodeType::Cut, 1, true),
            (NodeType::Pv, 4, true),
            (NodeType::Cut, 4, false),
        ] {
            for m in [capture, quiet] {
                for bound in [Bound::Lower, Bound::Exact, Bound::Upper] {
                    for tt_depth in [depth - 4, depth - 3] {
                        for score in [208, 209, 500, MATE_BOUND + 5] {
                            let hit = TtHit {
                                mv: PackedMove::new(m),
                                score,
                                eval: 0,
                                depth: tt_depth,
                                bound,
                            };
                            let node = Node {
                                in_check,
                                tt: Some(hit),
                                tt_move: Some(m),
                                ..Node::test(node_type, depth, [beta - 1, beta], 0)
                            };
                            let expected = in_check
                                && node_type != NodeType::Pv
                                && depth >= 2
                                && m.is_capture()
                                && bound != Bound::Upper
                                && tt_depth >= depth - 3
                                && score >= beta + 209
                                && score < MATE_BOUND;
                            let exit = search.try_sf_probcut_in_check(&pos, &node);
                            assert_eq!(exit.is_some(), expected, "{node:?}");
                            if let Some(exit) = exit {
                                assert_eq!(exit.value, beta + 209);
                                cuts += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(cuts >= 4, "{cuts}");
    }
}
