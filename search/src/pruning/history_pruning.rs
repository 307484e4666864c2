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
//! - `lmrDepth` is cutlab's, with the move's extension in it: see [`super::see_pruning`].
//! - The 700 per ply was measured with the butterfly table this method read before: 1400 per
//!   ply (prune less) against 700, in `modern` with its margins at 3/5 of Stockfish's, 25,000
//!   nodes per move, 8moves_v3 in random order (seed 46): -9.3 ± 11.3 Elo after 224 games,
//!   undecided. Reading the continuation table as the source does, with the same bound, prunes
//!   more (the `modern` tree at depth 9 is 770,701 nodes against 834,609 with the butterfly
//!   table); the butterfly table against it in `modern`, 1,000 games at 25,000 nodes per move
//!   (seed 52): +14.3 ± 16.5 Elo, LOS 95.5%, undecided (`results/modern-faithful`). The source's
//!   table stays; a bound measured for it is open.

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    history::PieceTo,
    position::Position,
    search::{MoveCandidate, Node, Probe, Search},
};

/// Parameters of history pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct HistoryPruningParams {
    /// Pruned when history < -this × (depth - 1).
    #[default(700)]
    pub per_ply: i32,
    /// Deepest reduced child depth (lmrDepth) pruned (Stockfish: lmrDepth < 5, so 4).
    #[default(4)]
    pub max_lmr_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "history-pruning",
    describe: || {
        let p = HistoryPruningParams::default();
        format!(
            "history pruning: quiets with continuation history < -{} (depth - 1) at lmr depth \
             <= {} (Stockfish 15.1, rescaled)",
            p.per_ply, p.max_lmr_depth
        )
    },
    apply: Apply::On(|config| config.history_pruning = Some(HistoryPruningParams::default())),
}];

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

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    /// Stockfish 15.1 step 14, rescaled: a move that is no capture and gives no check is
    /// skipped when lmrDepth < 5 and its continuation history after the opponent's last move is
    /// below -700 (depth - 1).
    #[test]
    fn prunes_where_stockfish_would() {
        let mut search = Search::new(SearchConfig::preset("history-pruning").unwrap(), 1).unwrap();
        let before = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        let previous = PieceTo::new(&before, before.parse_uci("e8d8").unwrap());
        let pos = Position::from_fen("3k4/8/8/8/8/8/8/R3K3 w - - 1 2").unwrap();
        let m = pos.parse_uci("a1a5").unwrap();
        let node = Node::test(NodeType::All, 4, [0, 1], 0);
        search.frames[node.ply_index() - 1].moved = Some(previous);
        for history in [-5000, -2101, -2100, -2099, 0] {
            search.history.continuation.clear();
            search
                .history
                .continuation
                .update(previous, PieceTo::new(&pos, m), history);
            let stored = search
                .history
                .continuation
                .get(previous, PieceTo::new(&pos, m));
            for lmr_depth in [0, 4, 5] {
                for (capture, gives_check) in [(false, false), (true, false), (false, true)] {
                    let cand = MoveCandidate {
                        m,
                        tactical: capture,
                        capture,
                        gives_check,
                        lmr_depth,
                    };
                    let expected = !capture
                        && !gives_check
                        && lmr_depth < 5
                        && stored < -700 * (node.depth - 1);
                    assert_eq!(
                        search.try_history_pruning(&pos, &node, &cand),
                        expected,
                        "history {stored}, {cand:?}"
                    );
                }
            }
        }
        // The butterfly table is not read: a bad butterfly score prunes nothing.
        search.history.continuation.clear();
        search.history.butterfly.update(pos.turn(), m, -16_000);
        let cand = MoveCandidate {
            m,
            tactical: false,
            capture: false,
            gives_check: false,
            lmr_depth: 0,
        };
        assert!(!search.try_history_pruning(&pos, &node, &cand));
    }
}
