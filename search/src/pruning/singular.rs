//! Singular extensions with the multi-cut return (Stockfish 15.1, `search.cpp`, step 15,
//! after Anantharaman, Campbell and Hsu 1990): the TT move is searched once more without it at
//! reduced depth and a lowered beta. If every other move fails low there, the TT move is
//! singular and is extended; if they fail high even above beta, several moves refute the
//! parent, and the node returns at once (a multi-cut).
//!
//! ```text
//! if (ss->ply < thisThread->rootDepth * 2)        // step 15 as a whole
//! if (   !rootNode && depth >= 4 && move == ttMove && !excludedMove
//!     && abs(ttValue) < VALUE_KNOWN_WIN && (tte->bound() & BOUND_LOWER)
//!     && tte->depth() >= depth - 3)
//! {
//!     singularBeta = ttValue - 3 * depth;
//!     singularDepth = (depth - 1) / 2;
//!     ss->excludedMove = move;
//!     value = search<NonPV>(pos, ss, singularBeta - 1, singularBeta, singularDepth, cutNode);
//!     ss->excludedMove = MOVE_NONE;
//!     if (value < singularBeta)      extension = 1;          // (2 with a double extension)
//!     else if (singularBeta >= beta) return singularBeta;    // multi-cut pruning
//!     else if (ttValue >= beta)      extension = -2;
//!     else if (ttValue <= alpha && ttValue <= value) extension = -1;
//! }
//! ```
//!
//! The search without the TT move runs at the node's own ply; the node in it skips the
//! excluded move, stores nothing in the TT and takes no TT cut-off, runs none of steps 8-13,
//! and with no other legal move returns alpha (Stockfish keeps a separate TT key for it
//! instead).
//!
//! Deviations from the source, each a choice written down here:
//! - No double extensions (Stockfish extends by 2 at most nine times on a path when the value
//!   is far below singularBeta; cutlab keeps no count of them).
//! - `singularBeta = ttValue - 3 * depth` at every node (Stockfish uses 4 at non-PV nodes that
//!   were once PV; cutlab keeps no such flag), and `depth >= 4` always (Stockfish asks for more
//!   at PV nodes with a PV entry).
//! - It replaces cutlab's check extension for the TT move (Stockfish's check extension is an
//!   `else` of it too).
//! - Not inside another singular search (Stockfish: `!excludedMove`), nor inside ProbCut's or
//!   MPC's shallow searches.

use cutlab_instrument::{Bound, CutOutcome, Method, NodeType, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::Move;
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    score::is_mate,
    search::{Exit, Node, Search},
};

/// Parameters of singular extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SingularParams {
    /// Least depth tried (Stockfish: 4). A depth beyond the search's disables the method.
    #[default(4)]
    pub min_depth: i32,
    /// singularBeta = ttValue - this × depth (Stockfish: 3).
    #[default(3)]
    pub margin_per_ply: i32,
    /// How much shallower the TT entry's draft may be (Stockfish: 3).
    #[default(3)]
    pub draft_slack: i32,
    /// Whether a fail high above beta returns at once (the multi-cut).
    #[default(true)]
    pub multicut: bool,
}

/// What the singular test decided for the TT move.
pub(crate) enum Singular {
    /// Search the TT move with this extension (negative: a reduction).
    Extend(i32),
    /// Return at once: other moves fail high above beta.
    Cut(Exit),
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "singular",
    describe: || {
        let p = SingularParams::default();
        format!(
            "singular extensions of the TT move, singularBeta = ttValue - {} depth, with the \
             multi-cut return (Stockfish 15.1 step 15)",
            p.margin_per_ply
        )
    },
    apply: Apply::On(|config| config.singular = Some(SingularParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 14b: the singular test of the TT move `m`; `None` where it does not apply.
    pub(crate) fn try_singular(
        &mut self,
        pos: &Position,
        node: &Node,
        m: Move,
    ) -> Option<Singular> {
        let params = self.config.singular?;
        let hit = node.tt?;
        if node.is_root()
            || node.ply >= 2 * self.root_depth
            || node.tt_move != Some(m)
            || node.excluded.is_some()
            || self.in_probcut > 0
            || node.depth < params.min_depth
            || is_mate(hit.score)
            || !matches!(hit.bound, Bound::Lower | Bound::Exact)
            || hit.depth < node.depth - params.draft_slack
        {
            return None;
        }
        let singular_beta = hit.score - params.margin_per_ply * node.depth;
        let singular_depth = (node.depth - 1) / 2;
        // A null-window non-PV search: expected CUT at a CUT node, else ALL (`cutNode`).
        let node_type = if node.node_type == NodeType::Cut {
            NodeType::Cut
        } else {
            NodeType::All
        };
        let Some(shallow) = self.test_search_here(node, |s| {
            s.pending_excluded = Some(m);
            let window = [singular_beta - 1, singular_beta];
            let depth = singular_depth.max(1);
            let value = s.search(
                pos, window[0], window[1], depth, node.ply, node_type, node.id,
            );
            s.pending_excluded = None;
            value
        }) else {
            return Some(Singular::Cut(Exit::aborted()));
        };
        let value = shallow.value;
        let cut = params.multicut && value >= singular_beta && singular_beta >= node.beta;
        let probe = shallow.probe(singular_depth, singular_beta);
        self.record_test(pos, node, Method::Singular, probe, CutOutcome::high_if(cut));
        Some(if value < singular_beta {
            Singular::Extend(1)
        } else if cut {
            Singular::Cut(Exit::cut(Method::Singular, singular_beta, Bound::Lower))
        } else if hit.score >= node.beta {
            Singular::Extend(-2)
        } else if hit.score <= node.alpha && hit.score <= value {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        SearchConfig,
        tt::{PackedMove, TtHit},
    };

    /// Stockfish 15.1 step 15: tested only while `ply < 2 * rootDepth`, for the TT move at
    /// depth >= 4 with a lower bound from depth - 3 or deeper and no win score.
    #[test]
    fn tests_only_where_stockfish_would() {
        let mut search = Search::new(SearchConfig::preset("singular").unwrap(), 1).unwrap();
        let pos = Position::startpos();
        search.keys.push(pos.key());
        let m = pos.parse_uci("e2e4").unwrap();
        let other = pos.parse_uci("d2d4").unwrap();
        for root_depth in [2, 3, 4] {
            search.root_depth = root_depth;
            for ply in [3, 4, 5, 6, 7, 8] {
                for depth in [3, 4, 6] {
                    for (tt_depth, bound) in [
                        (depth - 3, Bound::Lower),
                        (depth - 4, Bound::Lower),
                        (depth, Bound::Upper),
                        (depth, Bound::Exact),
                    ] {
                        for candidate in [m, other] {
                            let hit = TtHit {
                                mv: PackedMove::new(m),
                                score: 30,
                                eval: 0,
                                depth: tt_depth,
                                bound,
                            };
                            let node = Node {
                                ply,
                                tt: Some(hit),
                                tt_move: Some(m),
                                ..Node::test(NodeType::Cut, depth, [-1, 0], 0)
                            };
                            let expected = ply < 2 * root_depth
                                && candidate == m
                                && depth >= 4
                                && bound != Bound::Upper
                                && tt_depth >= depth - 3;
                            let got = search.try_singular(&pos, &node, candidate).is_some();
                            assert_eq!(got, expected, "root {root_depth} {node:?} {candidate}");
                        }
                    }
                }
            }
        }
    }
}
