//! SEE pruning in the main search (Stockfish 15.1, `search.cpp`, step 14, "SEE based pruning"
//! and "Prune moves with negative SEE"): at low depth a move that loses material in the
//! exchange on its square by more than a depth-scaled bound is not searched.
//!
//! ```text
//! if (capture || givesCheck)                    // capture(): promotions only when capturing
//!     if (!pos.see_ge(move, Value(-222) * depth))
//!         continue;
//! else
//!     if (!pos.see_ge(move, Value(-24 * lmrDepth * lmrDepth - 15 * lmrDepth)))
//!         continue;
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - `lmrDepth` is the child's depth after cutlab's LMR reduction (the child's depth when LMR
//!   is off), and includes the move's extension (check or singular): Stockfish takes
//!   `newDepth - reduction(...)` in step 14, before step 15 extends, with its own reduction
//!   formula for every move, where cutlab's LMR does not reduce checks, killers or captures.

use cutlab_instrument::{Method, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    search::{MoveCandidate, Node, Probe, Search},
    see,
};

/// Parameters of SEE pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SeePruningParams {
    /// Captures and checks: pruned when SEE < -this × depth (Stockfish: 222 of its units; 111
    /// here).
    #[default(111)]
    pub tactical_per_ply: i32,
    /// Quiet moves: pruned when SEE < -(this × lmrDepth² + `quiet_linear` × lmrDepth)
    /// (Stockfish: 24 of its units; 12 here).
    #[default(12)]
    pub quiet_quadratic: i32,
    /// See `quiet_quadratic` (Stockfish: 15 of its units; 8 here).
    #[default(8)]
    pub quiet_linear: i32,
    /// Deepest depth pruned (Stockfish: none). 0 disables the method.
    #[default(64)]
    pub max_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "see-pruning",
    describe: || {
        let p = SeePruningParams::default();
        format!(
            "SEE pruning: captures and checks below -{} depth, quiets below -({} d² + {} d) \
             (Stockfish 15.1, margins halved)",
            p.tactical_per_ply, p.quiet_quadratic, p.quiet_linear
        )
    },
    apply: Apply::On(|config| config.see_pruning = Some(SeePruningParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 14a: whether a move's static exchange is below the depth's bound (Stockfish's
    /// `!see_ge(move, bound)`).
    pub(crate) fn try_see_pruning(
        &mut self,
        pos: &Position,
        node: &Node,
        cand: &MoveCandidate,
    ) -> bool {
        let Some(params) = self.config.see_pruning else {
            return false;
        };
        if node.depth > params.max_depth {
            return false;
        }
        let bound = if cand.capture || cand.gives_check {
            -params.tactical_per_ply * node.depth
        } else {
            let d = cand.lmr_depth;
            -(params.quiet_quadratic * d * d + params.quiet_linear * d)
        };
        let pruned = !see::see_ge(pos, cand.m, bound);
        let probe = Probe {
            shallow_depth: cand.lmr_depth,
            bound,
            // The exchange's value, for the events only (the question above is cheaper).
            value: if O::TEST_EVENTS {
                see::see(pos, cand.m)
            } else {
                0
            },
            nodes: 0,
        };
        self.record_move_test(pos, node, Method::SeePruning, probe, (cand.m, pruned));
        pruned
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    fn candidate(pos: &Position, uci: &str, gives_check: bool, lmr_depth: i32) -> MoveCandidate {
        let m = pos.parse_uci(uci).unwrap();
        MoveCandidate {
            m,
            tactical: m.is_capture() || m.is_promotion(),
            capture: m.is_capture(),
            gives_check,
            lmr_depth,
        }
    }

    /// Stockfish 15.1 step 14 with its margins halved: a capture or check is skipped when its
    /// exchange is below -111 depth, a quiet move when below -(12 lmrDepth² + 8 lmrDepth). The
    /// exchanges are worked out by hand.
    #[test]
    fn prunes_where_stockfish_would() {
        let mut search = Search::new(SearchConfig::preset("see-pruning").unwrap(), 1).unwrap();
        // Rxd5 takes a pawn that c6 guards: 100 - 500 = -400.
        let pos = Position::from_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        for depth in 1..=6 {
            let node = Node::test(NodeType::All, depth, [0, 1], 0);
            let cand = candidate(&pos, "d1d5", false, depth - 1);
            let expected = -400 < -111 * depth;
            assert_eq!(
                search.try_see_pruning(&pos, &node, &cand),
                expected,
                "{depth}"
            );
        }
        // Rd1-d4: the d5 pawn guards c4 and e4, not d4; the exchange is 0, never below a bound.
        for lmr_depth in 0..=5 {
            let node = Node::test(NodeType::All, lmr_depth + 1, [0, 1], 0);
            let cand = candidate(&pos, "d1d4", false, lmr_depth);
            assert!(
                !search.try_see_pruning(&pos, &node, &cand),
                "a safe quiet move"
            );
        }
        // A quiet queen move onto a pawn-guarded square loses the queen: -950.
        let pos = Position::from_fen("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1").unwrap();
        for lmr_depth in 0..=9 {
            let node = Node::test(NodeType::All, lmr_depth + 1, [0, 1], 0);
            let cand = candidate(&pos, "d1d5", false, lmr_depth);
            let expected = -950 < -(12 * lmr_depth * lmr_depth + 8 * lmr_depth);
            assert_eq!(
                search.try_see_pruning(&pos, &node, &cand),
                expected,
                "{lmr_depth}"
            );
        }
        // The same quiet move giving check takes the captures' bound, -111 depth.
        let pos = Position::from_fen("6k1/8/2p5/8/8/8/8/3QK3 w - - 0 1").unwrap();
        for depth in 1..=9 {
            let node = Node::test(NodeType::All, depth, [0, 1], 0);
            let cand = candidate(&pos, "d1d5", true, 0);
            let expected = -950 < -111 * depth;
            assert_eq!(
                search.try_see_pruning(&pos, &node, &cand),
                expected,
                "{depth}"
            );
        }
    }

    /// A promotion that captures nothing is quiet (Stockfish's `capture()`), and `see_ge` takes
    /// it to exchange 0: never pruned, even onto a guarded square.
    #[test]
    fn a_quiet_promotion_is_never_pruned() {
        let mut search = Search::new(SearchConfig::preset("see-pruning").unwrap(), 1).unwrap();
        let pos = Position::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let cand = candidate(&pos, "a7a8q", false, 5);
        assert!(!cand.capture);
        let node = Node::test(NodeType::All, 6, [0, 1], 0);
        assert!(!search.try_see_pruning(&pos, &node, &cand));
    }
}
