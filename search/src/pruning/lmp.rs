//! Late move pruning, also called move-count pruning (Stockfish 15.1, `search.cpp`, step 14,
//! "Skip quiet moves if movecount exceeds our FutilityMoveCount threshold"): with good move
//! ordering the quiet moves late in the list rarely matter at low depth, so past a count that
//! grows with depth they are not searched.
//!
//! ```text
//! futility_move_count(improving, depth) = improving ? 3 + depth * depth
//!                                                   : (3 + depth * depth) / 2;
//! while ((move = mp.next_move(moveCountPruning)) != MOVE_NONE) {
//!     if (move == excludedMove) continue;
//!     ss->moveCount = ++moveCount;                 // every move the picker yields counts
//!     if (!rootNode && pos.non_pawn_material(us) && bestValue > VALUE_TB_LOSS_IN_MAX_PLY)
//!         moveCountPruning = moveCount >= futility_move_count(improving, depth);
//!     ...                                          // futility, history, SEE pruning may skip it
//! }
//! ```
//!
//! `next_move(skipQuiets)` (`movepick.cpp`) skips only its QUIET stage: quiet moves and every
//! under-promotion (`movegen.cpp` generates those with the quiet moves; queen promotions come
//! with the captures). It never skips the TT move, the killers and counter-move (REFUTATION
//! stage), the captures, or any move in check (EVASION stages). So here a move is skipped when
//! the count of moves taken before it reached the limit at the last move step 14 looked at,
//! and the move is of the quiet stage, no TT move, no killer, and the node is not in check. A
//! skipped move is not counted; a move that futility, history or SEE pruning skips is.
//!
//! Deviations from the source, each a choice written down here:
//! - No counter-move exemption: cutlab keeps no counter-move table (its killers are exempt).
//! - `max_depth` bounds the depths tried (Stockfish has none; its count grows with depth²;
//!   the default, 64, never binds).
//!
//! Its events: one per move the rule looks at (a quiet-stage move, not exempt, once step 14
//! applies), pruned or not; the probe's bound is the limit and its value the move count
//! before the move (a count, not a search value).

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::{Move, Role};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    search::{Node, Probe, Search},
    tt::PackedMove,
};

/// Parameters of late move pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LmpParams {
    /// Constant term of the move count (Stockfish: 3).
    #[default(3)]
    pub base: i32,
    /// Whether the count is halved when the evaluation is not improving (Stockfish: yes).
    #[default(true)]
    pub halve_not_improving: bool,
    /// Deepest depth pruned (Stockfish: none). 0 disables the method.
    #[default(64)]
    pub max_depth: i32,
}

impl LmpParams {
    /// Moves counted before quiet moves are skipped at `depth` (Stockfish's
    /// `futility_move_count`).
    #[must_use]
    pub fn move_count(&self, depth: i32, improving: bool) -> i32 {
        let count = self.base + depth * depth;
        if self.halve_not_improving && !improving {
            count / 2
        } else {
            count
        }
    }
}

/// Whether Stockfish 15.1's move picker yields `m` in its QUIET stage, the one `skipQuiets`
/// skips: a move that captures nothing and promotes to no queen, or any under-promotion.
#[must_use]
pub fn in_quiet_stage(m: Move) -> bool {
    match m.promotion() {
        Some(Role::Queen) => false,
        Some(_) => true,
        None => !m.is_capture(),
    }
}

/// Stockfish's `moveCount` and `moveCountPruning` at one node's move loop.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveCount {
    /// Moves taken from the picker so far, the current one included.
    pub count: i32,
    /// Set by step 14 once the count reaches the limit: quiet moves are skipped from then on.
    pub pruning: bool,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "lmp",
    describe: || {
        let p = LmpParams::default();
        format!(
            "late move pruning: quiet moves once ({} + depth²) / (2 - improving) moves are \
             counted (Stockfish 15.1)",
            p.base
        )
    },
    apply: Apply::On(|config| config.lmp = Some(LmpParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 14a, as the picker yields `m` with `counted.pruning` set: whether it skips `m` (a
    /// quiet-stage move, not the TT move nor a killer, not in check). `None` when the rule
    /// does not look at `m`.
    pub(crate) fn try_lmp(
        &mut self,
        pos: &Position,
        node: &Node,
        m: Move,
        killers: &[PackedMove; 2],
        counted: MoveCount,
    ) -> Option<bool> {
        let params = self.config.lmp?;
        if node.in_check
            || node.tt_move == Some(m)
            || killers.iter().any(|k| k.is(m))
            || !in_quiet_stage(m)
        {
            return None;
        }
        let limit = params.move_count(node.depth, node.improving);
        let probe = Probe {
            shallow_depth: node.depth - 1,
            bound: limit,
            value: counted.count,
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::Lmp, probe, (m, counted.pruning));
        Some(counted.pruning)
    }

    /// Step 14a, once the move just taken is counted: Stockfish's `moveCountPruning =
    /// moveCount >= futility_move_count(improving, depth)`.
    pub(crate) fn move_count_prunes(&self, node: &Node, count: i32) -> bool {
        self.config.lmp.is_some_and(|params| {
            node.depth <= params.max_depth && count >= params.move_count(node.depth, node.improving)
        })
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    #[test]
    fn the_count_follows_stockfish() {
        let p = LmpParams::default();
        for depth in 1..12 {
            assert_eq!(p.move_count(depth, true), 3 + depth * depth);
            assert_eq!(p.move_count(depth, false), (3 + depth * depth) / 2);
        }
    }

    #[test]
    fn the_quiet_stage_holds_quiet_moves_and_under_promotions() {
        let pos = Position::from_fen("1n2k3/P7/8/3p4/4P3/8/8/4K2R w K - 0 1").unwrap();
        let stage = |uci: &str| in_quiet_stage(pos.parse_uci(uci).unwrap());
        assert!(
            stage("h1h5") && stage("e1g1") && stage("e4e5"),
            "quiet moves"
        );
        assert!(!stage("e4d5"), "a capture");
        assert!(
            !stage("a7a8q") && !stage("a7b8q"),
            "queen promotions, capturing or not"
        );
        assert!(
            stage("a7a8n") && stage("a7b8r"),
            "under-promotions, capturing or not"
        );
    }

    /// Skipped exactly where Stockfish's picker would skip: a quiet move at a node not in
    /// check, neither TT move nor killer.
    #[test]
    fn no_late_move_pruning_in_check_or_of_a_refutation() {
        let mut search = Search::new(SearchConfig::preset("lmp").unwrap(), 1).unwrap();
        let quiet = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let rook_lift = quiet.parse_uci("a1a5").unwrap();
        let node = Node::test(NodeType::All, 3, [0, 1], 0);
        let none = [PackedMove::NONE; 2];
        let set = MoveCount {
            count: 7,
            pruning: true,
        };
        assert_eq!(
            search.try_lmp(&quiet, &node, rook_lift, &none, set),
            Some(true)
        );
        let unset = MoveCount {
            pruning: false,
            ..set
        };
        assert_eq!(
            search.try_lmp(&quiet, &node, rook_lift, &none, unset),
            Some(false)
        );
        let killer = [PackedMove::NONE, PackedMove::new(rook_lift)];
        assert_eq!(search.try_lmp(&quiet, &node, rook_lift, &killer, set), None);
        let tt = Node {
            tt_move: Some(rook_lift),
            ..node
        };
        assert_eq!(search.try_lmp(&quiet, &tt, rook_lift, &none, set), None);

        let checked = Position::from_fen("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1").unwrap();
        let evasion = checked.parse_uci("e1d1").unwrap();
        let in_check = Node {
            in_check: true,
            ..node
        };
        assert_eq!(
            search.try_lmp(&checked, &in_check, evasion, &none, set),
            None
        );
    }

    /// Stockfish sets `moveCountPruning` once `moveCount >= futility_move_count`: at depth 3
    /// and not improving, (3 + 9) / 2 = 6 moves.
    #[test]
    fn pruning_starts_once_the_count_reaches_the_limit() {
        let search = Search::new(SearchConfig::preset("lmp").unwrap(), 1).unwrap();
        let node = Node::test(NodeType::All, 3, [0, 1], 0);
        assert!(!search.move_count_prunes(&node, 5));
        assert!(search.move_count_prunes(&node, 6));
        let improving = Node {
            improving: true,
            ..node
        };
        assert!(!search.move_count_prunes(&improving, 11));
        assert!(search.move_count_prunes(&improving, 12));
    }
}
