//! Razoring (Birmingham and Kent 1977; the modern form of Stockfish 15.1, `search.cpp`, step 7
//! "Razoring"): when the static evaluation is far below alpha, a quiescence search decides
//! whether anything can lift the node to alpha; if not, the node fails low at once.
//!
//! ```text
//! if (eval < alpha - 369 - 254 * depth * depth)
//! {
//!     value = qsearch<NonPV>(pos, ss, alpha - 1, alpha);
//!     if (value < alpha)
//!         return value;
//! }
//! ```
//!
//! `eval` is Stockfish's: the static evaluation, or the TT value where the entry's bound shows
//! the position is better (worse) than it (step 5). As in the source there is no guard for
//! mate scores: an alpha beyond the mate bound is compared like any other.
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - Non-PV nodes only (Stockfish 15.1 tries it at PV nodes too; its later versions do not,
//!   and a null-window quiescence result says little about a PV node's exact value).
//! - Not in check (Stockfish skips the step in check, its evaluation being undefined there).
//! - `max_depth` bounds the depths tried (Stockfish has none: its quadratic margin does).

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    search::{Exit, Node, Search},
};

/// Parameters of razoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RazoringParams {
    /// Constant part of the margin, centipawns (Stockfish: 369 of its units; 185 here).
    #[default(185)]
    pub margin_base: i32,
    /// Margin per squared ply of depth, centipawns (Stockfish: 254 of its units; 127 here).
    #[default(127)]
    pub margin_per_ply_squared: i32,
    /// Deepest depth tried. 0 disables the method.
    #[default(8)]
    pub max_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "razoring",
    describe: || {
        let p = RazoringParams::default();
        format!(
            "razoring: eval < alpha - {} - {} depth², confirmed by quiescence (Stockfish 15.1, \
             halved)",
            p.margin_base, p.margin_per_ply_squared
        )
    },
    apply: Apply::On(|config| config.razoring = Some(RazoringParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 6: a non-PV node not in check whose `eval` is far below alpha returns the
    /// quiescence value when that stays below alpha.
    pub(crate) fn try_razoring(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.razoring?;
        if node.is_pv() || node.in_check || node.depth > params.max_depth {
            return None;
        }
        let margin = params.margin_base + params.margin_per_ply_squared * node.depth * node.depth;
        if node.eval >= node.alpha - margin {
            return None;
        }
        let window = [node.alpha - 1, node.alpha];
        let Some(shallow) = self.test_search_here(node, |s| {
            s.quiescence(pos, window[0], window[1], node.ply, node.node_type, node.id)
        }) else {
            return Some(Exit::aborted());
        };
        let cut = shallow.value < node.alpha;
        let probe = shallow.probe(0, node.alpha - 1);
        self.record_test(pos, node, Method::Razoring, probe, CutOutcome::low_if(cut));
        cut.then(|| Exit::cut(Method::Razoring, shallow.value, Bound::Upper))
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    /// Stockfish 15.1 step 7 with its margins halved (369 -> 185, 254 -> 127): at a non-PV node
    /// not in check, `eval < alpha - 185 - 127 depth²` asks quiescence on (alpha - 1, alpha), and
    /// a value below alpha is returned.
    #[test]
    fn razors_where_stockfish_would() {
        // White is a rook down: quiescence stays far below alpha = 0.
        let pos = Position::from_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut exact = Search::new(SearchConfig::plain(), 1).unwrap();
        let alpha = 0;
        let (quiescence, _) = exact.quiescence_value(&pos, alpha - 1, alpha);
        assert!(quiescence < alpha);
        let mut search = Search::new(SearchConfig::preset("razoring").unwrap(), 1).unwrap();
        search.keys.push(pos.key());
        let mut cuts = 0;
        for node_type in [NodeType::Pv, NodeType::Cut, NodeType::All] {
            for depth in 1..=3 {
                for eval in [-2000, -1328, -1327, -694, -693, -313, -312, -100] {
                    for in_check in [false, true] {
                        let node = Node {
                            in_check,
                            ..Node::test(node_type, depth, [alpha, alpha + 1], 0)
                        };
                        let node = Node { eval, ..node };
                        let tried =
                            !node.is_pv() && !in_check && eval < alpha - 185 - 127 * depth * depth;
                        let exit = search.try_razoring(&pos, &node);
                        assert_eq!(exit.is_some(), tried, "{node:?}");
                        if let Some(exit) = exit {
                            assert_eq!((exit.value, exit.bound), (quiescence, Bound::Upper));
                            cuts += 1;
                        }
                    }
                }
            }
        }
        assert!(cuts > 5, "{cuts}");
    }

    /// No mate guard: an alpha in the mate range is razored like any other.
    #[test]
    fn a_mate_alpha_is_razored_too() {
        let pos = Position::startpos();
        let mut search = Search::new(SearchConfig::preset("razoring").unwrap(), 1).unwrap();
        search.keys.push(pos.key());
        let alpha = crate::score::MATE_BOUND + 10;
        let node = Node::test(NodeType::Cut, 2, [alpha, alpha + 1], 0);
        assert!(search.try_razoring(&pos, &node).is_some());
    }
}
