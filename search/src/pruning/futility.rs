//! Futility pruning at frontier and pre-frontier nodes (Heinz 1998, "Extended Futility
//! Pruning", ICCA Journal 21(2)): one ply from the horizon a quiet move changes the material
//! balance by nothing and the position by less than a minor piece, so when the static
//! evaluation plus that margin cannot reach alpha the move is futile; two plies from it the
//! margin is a rook ("extended" futility pruning).
//!
//! ```text
//! if (depth == 1 || depth == 2) && !in_check && !is_mate(alpha):
//!     margin = (depth == 1) ? FUTIL_MARGIN : EXTD_FUTIL_MARGIN   // ~ minor piece, ~ rook
//!     for each move:
//!         if !capture(move) && !promotion(move) && !gives_check(move)
//!            && static_eval + margin <= alpha:
//!             skip move
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Heinz adds the captured piece's value and prunes futile captures too; here captures and
//!   promotions are never futile (SEE pruning is the method for bad captures).
//! - The first move of a node is always searched (the move loop prunes only once a move has a
//!   value), and never at the root, as in the other move-level methods.
//! - alpha is the move loop's, raised by the moves searched before (at a PV node it may be
//!   above the node's entry alpha), as in Heinz's loop and Stockfish's step 14.
//! - The margins are centipawns of cutlab's evaluation: 300 and 500, the minor piece and rook
//!   of Heinz's paper rounded to this evaluation's scale.

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    score::is_mate,
    search::{MoveCandidate, Node, Probe, Search},
};

/// Parameters of futility pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FutilityParams {
    /// Margin at frontier nodes (depth 1), centipawns (Heinz: a minor piece).
    #[default(300)]
    pub frontier_margin: i32,
    /// Margin at pre-frontier nodes (depth 2), centipawns (Heinz: a rook).
    #[default(500)]
    pub pre_frontier_margin: i32,
    /// Deepest depth pruned: 1 frontier only, 2 with pre-frontier nodes, 0 disables it.
    #[default(2)]
    pub max_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "futility",
    describe: || {
        let p = FutilityParams::default();
        format!(
            "futility pruning: quiet moves at depth 1 (2) when eval + {} ({}) <= alpha (Heinz 1998)",
            p.frontier_margin, p.pre_frontier_margin
        )
    },
    apply: Apply::On(|config| config.futility = Some(FutilityParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 14a: whether a quiet, non-checking move at a frontier or pre-frontier node is
    /// futile against the move loop's `alpha`.
    pub(crate) fn try_futility(
        &mut self,
        pos: &Position,
        node: &Node,
        cand: &MoveCandidate,
        alpha: i32,
    ) -> bool {
        let Some(params) = self.config.futility else {
            return false;
        };
        if node.depth > params.max_depth
            || node.in_check
            || cand.tactical
            || cand.gives_check
            || is_mate(alpha)
        {
            return false;
        }
        let margin = if node.depth <= 1 {
            params.frontier_margin
        } else {
            params.pre_frontier_margin
        };
        let estimate = node.static_eval + margin;
        let pruned = estimate <= alpha;
        let probe = Probe {
            shallow_depth: node.depth - 1,
            bound: alpha,
            value: estimate,
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::Futility, probe, (cand.m, pruned));
        pruned
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    /// Heinz's rule: at depth 1 (2) a quiet move that gives no check, at a node not in check, is
    /// futile when static eval + 300 (500) <= alpha, alpha being the move loop's.
    #[test]
    fn prunes_where_heinz_would() {
        let mut search = Search::new(SearchConfig::preset("futility").unwrap(), 1).unwrap();
        let pos = Position::from_fen("4k3/8/8/8/3p4/8/8/R3K3 w - - 0 1").unwrap();
        let (quiet, capture) = (
            pos.parse_uci("a1a7").unwrap(),
            pos.parse_uci("a1a4").unwrap(),
        );
        let checking = pos.parse_uci("a1a8").unwrap();
        let mut pruned = 0;
        for depth in 1..=3 {
            for alpha in [0, 299, 300, 499, 500, 800] {
                for in_check in [false, true] {
                    for (m, tactical, gives_check) in [
                        (quiet, false, false),
                        (capture, true, false),
                        (checking, false, true),
                    ] {
                        // A PV node whose entry alpha is below the loop's alpha.
                        let node = Node {
                            in_check,
                            ..Node::test(NodeType::Pv, depth, [-1000, 1000], 0)
                        };
                        let cand = MoveCandidate {
                            m,
                            tactical,
                            capture: tactical,
                            gives_check,
                            lmr_depth: depth - 1,
                        };
                        let margin = if depth == 1 { 300 } else { 500 };
                        let expected =
                            depth <= 2 && !in_check && !tactical && !gives_check && margin <= alpha;
                        let got = search.try_futility(&pos, &node, &cand, alpha);
                        assert_eq!(got, expected, "depth {depth} alpha {alpha} {cand:?}");
                        pruned += usize::from(got);
                    }
                }
            }
        }
        assert!(pruned > 3, "{pruned}");
    }
}
