//! Reverse futility pruning, also called static null move pruning or child-node futility
//! pruning (Stockfish 15.1, `search.cpp`, step 8 "Futility pruning: child node"): when the
//! static evaluation beats beta by a margin that grows with depth, the node is assumed to
//! fail high without a search.
//!
//! ```text
//! futility_margin(d, improving) = 165 * (d - improving);
//! if (   !ss->ttPv
//!     &&  depth < 8
//!     &&  eval - futility_margin(depth, improving) - (ss-1)->statScore / 303 >= beta
//!     &&  eval >= beta
//!     &&  eval < 28031)        // below the known-win range
//!     return eval;
//! ```
//!
//! `eval` is Stockfish's: the static evaluation, or the TT value where the entry's bound shows
//! the position is better (worse) than it (step 5). `improving` compares the static evaluation
//! with the one two plies up (four when that side was in check; true when neither is known),
//! as Stockfish's `improvement` does.
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - Non-PV nodes instead of `!ss->ttPv` (cutlab keeps no "was a PV node" flag in the TT).
//! - No `statScore` term (cutlab keeps no per-move statistics score).

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    score::MATE_BOUND,
    search::{Exit, Node, Probe, Search},
};

/// Parameters of reverse futility pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RfpParams {
    /// Deepest depth pruned (Stockfish: depth < 8, so 7). 0 disables the method.
    #[default(7)]
    pub max_depth: i32,
    /// Margin per ply of depth, centipawns (Stockfish: 165 of its units; 83 here).
    #[default(83)]
    pub margin_per_ply: i32,
    /// Plies the margin is shortened by when the evaluation improves (Stockfish: 1).
    #[default(1)]
    pub improving_plies: i32,
}

/// Evaluations at or above this are left to the search (Stockfish: 28031, below its
/// known-win scores; here below the mate range).
const EVAL_LIMIT: i32 = MATE_BOUND;

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "rfp",
    describe: || {
        let p = RfpParams::default();
        format!(
            "reverse futility pruning: eval - {} (depth - improving) >= beta, depth <= {} (Stockfish \
             15.1, margin halved)",
            p.margin_per_ply, p.max_depth
        )
    },
    apply: Apply::On(|config| config.rfp = Some(RfpParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 7: returns the static evaluation of a non-PV node not in check that beats beta by
    /// the depth's margin.
    pub(crate) fn try_rfp(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.rfp?;
        if node.is_pv() || node.in_check || node.depth > params.max_depth {
            return None;
        }
        let eval = node.eval;
        let plies = node.depth
            - if node.improving {
                params.improving_plies
            } else {
                0
            };
        let margin = params.margin_per_ply * plies;
        if eval >= EVAL_LIMIT || eval < node.beta {
            return None;
        }
        let cut = eval - margin >= node.beta;
        let probe = Probe {
            shallow_depth: 0,
            bound: node.beta + margin,
            value: eval,
            nodes: 0,
        };
        self.record_test(pos, node, Method::Rfp, probe, CutOutcome::high_if(cut));
        cut.then(|| Exit::cut(Method::Rfp, eval, Bound::Lower))
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    /// Stockfish 15.1 step 8 with its margin halved (165 -> 83 per ply): prune a non-PV node
    /// not in check at depth < 8 when `eval - 83 (depth - improving) >= beta`, `eval >= beta`
    /// and eval is no win score.
    fn stockfish_prunes(node: &Node) -> bool {
        let margin = 83 * (node.depth - i32::from(node.improving));
        !node.is_pv()
            && !node.in_check
            && node.depth < 8
            && node.eval - margin >= node.beta
            && node.eval >= node.beta
            && node.eval < MATE_BOUND
    }

    #[test]
    fn prunes_where_stockfish_would() {
        let mut search = Search::new(SearchConfig::preset("rfp").unwrap(), 1).unwrap();
        let pos = Position::startpos();
        let mut pruned = 0;
        for node_type in [NodeType::Pv, NodeType::Cut, NodeType::All] {
            for depth in 1..=9 {
                for eval in [-50, 0, 82, 83, 165, 166, 249, 400, 700, MATE_BOUND] {
                    for (improving, in_check) in [(false, false), (true, false), (false, true)] {
                        let node = Node {
                            improving,
                            in_check,
                            // The static evaluation differs: the rule reads `eval`.
                            ..Node::test(node_type, depth, [-1, 0], -10_000)
                        };
                        let node = Node { eval, ..node };
                        let expected = stockfish_prunes(&node);
                        let exit = search.try_rfp(&pos, &node);
                        assert_eq!(exit.is_some(), expected, "{node:?}");
                        if let Some(exit) = exit {
                            assert_eq!((exit.value, exit.bound), (eval, Bound::Lower));
                            pruned += 1;
                        }
                    }
                }
            }
        }
        assert!(pruned > 20, "{pruned}");
    }
}
