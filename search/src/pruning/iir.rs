//! Internal iterative reductions (Ed Schröder's idea as Stockfish 15.1 has it, `search.cpp`,
//! step 11): a node with no transposition-table move has no good first move to try, so it is
//! searched shallower; its next visit finds a move in the table. No pruning, but it shapes the
//! tree every other method acts on.
//!
//! ```text
//! if (PvNode && !ttMove)
//!     depth -= 3;
//! if (depth <= 0)
//!     return qsearch<PV>(pos, ss, alpha, beta);
//! if (cutNode && depth >= 9 && !ttMove)
//!     depth -= 2;
//! ```
//!
//! Stockfish reaches step 11 only out of check: in check it jumps from step 6 to the move loop
//! (`goto moves_loop`), so a node in check is never reduced here either.
//!
//! Deviations from the source, each a choice written down here:
//! - Not at the root (Stockfish reduces a root without TT move too; cutlab's root always
//!   has one after the first iteration, and a first iteration of depth 1 has nothing to
//!   reduce).
//! - A PV node reduced to depth 0 or less is searched to depth 1 instead of dropping into
//!   quiescence (cutlab's node function starts at depth 1 once entered).
//! - Not in the search without the TT move of a singular test. Stockfish runs this step there
//!   too, under the separate TT key it keeps for that search; cutlab's excluded search shares
//!   the node's TT entry and runs none of steps 8-13 (see [`super::singular`]).
//!
//! Its events count the nodes reduced: one test per reduction, outcome `reduce`, never a cut.

use cutlab_instrument::{CutOutcome, Method, NodeType, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    search::{Node, Probe, Search},
};

/// Parameters of internal iterative reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct IirParams {
    /// Plies taken from a PV node without TT move (Stockfish: 3). 0 disables it.
    #[default(3)]
    pub pv_plies: i32,
    /// Plies taken from an expected CUT node without TT move (Stockfish: 2). 0 disables it.
    #[default(2)]
    pub cut_plies: i32,
    /// Least depth of a CUT node so reduced (Stockfish: 9).
    #[default(9)]
    pub cut_min_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "iir",
    describe: || {
        let p = IirParams::default();
        format!(
            "internal iterative reductions: no TT move, PV node -{} plies, CUT node (depth >= {}) \
             -{} (Stockfish 15.1)",
            p.pv_plies, p.cut_min_depth, p.cut_plies
        )
    },
    apply: Apply::On(|config| config.iir = Some(IirParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 12: reduces the depth of a PV or expected CUT node that has no TT move.
    pub(crate) fn try_iir(&mut self, pos: &Position, node: &mut Node) {
        let Some(params) = self.config.iir else {
            return;
        };
        if node.is_root() || node.in_check || node.excluded.is_some() || node.tt_move.is_some() {
            return;
        }
        let plies = match node.node_type {
            NodeType::Pv => params.pv_plies,
            NodeType::Cut if node.depth >= params.cut_min_depth => params.cut_plies,
            _ => 0,
        };
        let reduced = (node.depth - plies).max(1);
        if reduced >= node.depth {
            return;
        }
        let probe = Probe {
            shallow_depth: reduced,
            bound: node.beta,
            value: node.static_eval,
            nodes: 0,
        };
        self.record_test(pos, node, Method::Iir, probe, CutOutcome::Reduce);
        node.depth = reduced;
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;
    use crate::SearchConfig;

    /// Stockfish 15.1 step 11, reached only out of check: a PV node without TT move loses 3
    /// plies, a CUT node of depth >= 9 without TT move 2 more.
    fn stockfish_depth(node: &Node) -> i32 {
        if node.in_check || node.tt_move.is_some() {
            return node.depth;
        }
        match node.node_type {
            NodeType::Pv => (node.depth - 3).max(1),
            NodeType::Cut if node.depth >= 9 => node.depth - 2,
            _ => node.depth,
        }
    }

    #[test]
    fn reduces_where_stockfish_would() {
        let mut search = Search::new(SearchConfig::preset("iir").unwrap(), 1).unwrap();
        let pos = Position::startpos();
        let tt_move = pos.chess().legal_moves()[0];
        for node_type in [NodeType::Pv, NodeType::Cut, NodeType::All] {
            for depth in [2, 4, 8, 9, 12] {
                for (in_check, tt) in [(false, None), (true, None), (false, Some(tt_move))] {
                    let mut node = Node {
                        in_check,
                        tt_move: tt,
                        ..Node::test(node_type, depth, [-1, 0], 0)
                    };
                    let expected = stockfish_depth(&node);
                    search.try_iir(&pos, &mut node);
                    assert_eq!(
                        node.depth, expected,
                        "{node_type:?} {depth} {in_check} {tt:?}"
                    );
                }
            }
        }
    }
}
