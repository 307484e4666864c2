//! Null-move pruning, as Jiang and Buro (2003, section 2.2) describe it for Crafty: give the
//! opponent a free move and search the result to a reduced depth with a null window at beta;
//! if even that fails high, the node is assumed to fail high too.
//!
//! ```text
//! if (!in_check && !previous_null && has_pieces(side_to_move))
//!     make_null_move();
//!     v = -search(-beta, -beta + 1, depth - 1 - R);
//!     unmake_null_move();
//!     if (v >= beta) return v;            // standard: cut
//!                                         // verified: depth -= 1, search on, no cut
//! ```
//!
//! Reductions: fixed R = 2 or R = 3; adaptive (Heinz 1999: R = 3 above a depth threshold, R = 2
//! below it, the threshold raised in the endgame); verified (Tabibi and Netanyahu 2002: R = 3,
//! and a fail-high reduces the depth by one instead of cutting; the subtree below uses standard
//! null-move cuts, and if the reduced search does not confirm the fail high the node is
//! searched again at full depth).
//!
//! Deviations from the sources, each a choice written down here:
//! - Not at PV nodes: the null-window test runs where the window is null already (Crafty
//!   18.15 tried it at every node; PVS makes non-PV nodes the place for it).
//! - `min_depth` 2: no null move at depth 1 (Tabibi and Netanyahu: `!verify || depth > 1`;
//!   Crafty went straight to quiescence).
//! - A fail high by a mate score returns beta, not the unproven mate.
//! - `eval_above_beta`: the modern gate `static_eval >= beta` (Stockfish, Ethereal) that the
//!   2003 sources did not have; off in every preset that names a paper, a parameter for the
//!   stacks that want it.
//! - The late-endgame guard is "the side to move has a piece" plus an optional material
//!   threshold, standing in for Crafty's own endgame switch.
//! - Heinz's adaptive rule asks whether both sides have at least three pieces (besides pawns
//!   and king); here that is approximated by both sides' weighted material (Q=9, R=5, B=N=3)
//!   being at least 9 with six or more men on the board, so a lone queen counts as three
//!   pieces, and two rooks as well.

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::Position as _;

use crate::{
    config::{Apply, PresetPart, SearchConfig},
    position::Position,
    score::is_mate,
    search::{Exit, NULL_KEY, Node, Search},
};

/// How much shallower the null-move search is (besides the move itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum Reduction {
    /// The same R at every depth.
    Fixed {
        /// The reduction R in plies.
        r: i32,
    },
    /// Heinz's adaptive rule: R = 3 when depth > `threshold` (in the endgame, when depth >
    /// `endgame_threshold`), else R = 2.
    Adaptive {
        /// Depth above which R = 3 in the middlegame (Heinz: 6).
        threshold: i32,
        /// Depth above which R = 3 in the endgame (Heinz: 8).
        endgame_threshold: i32,
    },
}

/// Parameters of null-move pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NullMoveParams {
    /// The reduction rule.
    pub reduction: Reduction,
    /// Verified null-move pruning (Tabibi and Netanyahu) instead of cutting.
    pub verified: bool,
    /// Minimum depth for a null-move try.
    pub min_depth: i32,
    /// No null move when the side to move's weighted material (Q=9 R=5 B=N=3) is at most
    /// this (late endgames, where zugzwang is common). 0 keeps only the "has a piece" guard.
    pub endgame_material_off: u32,
    /// Try the null move only when the static evaluation is at least beta (a modern gate the
    /// 2003 sources did not have).
    #[serde(default)]
    pub eval_above_beta: bool,
}

impl NullMoveParams {
    /// Standard null move with a fixed R.
    #[must_use]
    pub const fn fixed(r: i32) -> NullMoveParams {
        NullMoveParams {
            reduction: Reduction::Fixed { r },
            verified: false,
            min_depth: 2,
            endgame_material_off: 0,
            eval_above_beta: false,
        }
    }

    /// Heinz's adaptive null move (thresholds 6 and 8).
    #[must_use]
    pub const fn adaptive() -> NullMoveParams {
        NullMoveParams {
            reduction: Reduction::Adaptive {
                threshold: 6,
                endgame_threshold: 8,
            },
            ..NullMoveParams::fixed(2)
        }
    }

    /// Verified null move with R = 3.
    #[must_use]
    pub const fn verified() -> NullMoveParams {
        NullMoveParams {
            verified: true,
            ..NullMoveParams::fixed(3)
        }
    }

    /// The reduction R at `depth`; `pieces_each` is whether both sides have three or more
    /// pieces (Heinz's middlegame condition).
    #[must_use]
    pub const fn r(&self, depth: i32, pieces_each: bool) -> i32 {
        match self.reduction {
            Reduction::Fixed { r } => r,
            Reduction::Adaptive {
                threshold,
                endgame_threshold,
            } => {
                let limit = if pieces_each {
                    threshold
                } else {
                    endgame_threshold
                };
                if depth > limit { 3 } else { 2 }
            }
        }
    }
}

/// The null-move preset parts, one rule each (a variant names one at most).
pub const PRESET_PARTS: [PresetPart; 5] = [
    PresetPart {
        name: "null-move",
        describe: || {
            format!(
                "null-move pruning, R = {} (Crafty 18.15 as Jiang and Buro describe it)",
                NullMoveParams::fixed(2).r(0, true)
            )
        },
        apply: Apply::Checked(|config| set_rule(config, NullMoveParams::fixed(2))),
    },
    PresetPart {
        name: "null-move-r3",
        describe: || {
            format!(
                "null-move pruning, R = {}",
                NullMoveParams::fixed(3).r(0, true)
            )
        },
        apply: Apply::Checked(|config| set_rule(config, NullMoveParams::fixed(3))),
    },
    PresetPart {
        name: "null-move-adaptive",
        describe: || describe_adaptive(" (Heinz)"),
        apply: Apply::Checked(|config| set_rule(config, NullMoveParams::adaptive())),
    },
    PresetPart {
        name: "null-move-verified",
        describe: || {
            format!(
                "verified null-move pruning, R = {} (Tabibi and Netanyahu)",
                NullMoveParams::verified().r(0, true)
            )
        },
        apply: Apply::Checked(|config| set_rule(config, NullMoveParams::verified())),
    },
    PresetPart {
        name: "null-move-modern",
        describe: || describe_adaptive(", tried only when static eval >= beta (the modern gate)"),
        apply: Apply::Checked(|config| {
            set_rule(
                config,
                NullMoveParams {
                    eval_above_beta: true,
                    ..NullMoveParams::adaptive()
                },
            )
        }),
    },
];

fn set_rule(config: &mut SearchConfig, params: NullMoveParams) -> Result<(), String> {
    if config.null_move.is_some() {
        return Err("names two null-move rules".into());
    }
    config.null_move = Some(params);
    Ok(())
}

fn describe_adaptive(what: &str) -> String {
    match NullMoveParams::adaptive().reduction {
        Reduction::Adaptive {
            threshold,
            endgame_threshold,
        } => format!(
            "null-move pruning, R = 3 above depth {threshold} ({endgame_threshold} in endgames), \
             else 2{what}"
        ),
        Reduction::Fixed { r } => format!("null-move pruning, R = {r}{what}"),
    }
}

impl<O: Observer> Search<O> {
    /// Step 9: tries the null move at `node`. A standard fail high cuts; a verified one
    /// reduces `node.depth` by one and marks the node as verifying.
    pub(crate) fn try_null_move(&mut self, pos: &Position, node: &mut Node) -> Option<Exit> {
        let params = self.config.null_move?;
        if node.is_pv()
            || node.excluded.is_some()
            || node.in_check
            || node.depth < params.min_depth
            || (params.eval_above_beta && node.static_eval < node.beta)
            || is_mate(node.beta)
            || self.after_null_move()
            || !pos.has_non_pawn_material(pos.turn())
            || pos.weighted_material(pos.turn()) <= params.endgame_material_off
        {
            return None;
        }
        let null_pos = pos.play_null()?;
        let pieces_each = pos.chess().board().occupied().count() >= 6
            && pos.weighted_material(pos.turn()) >= 9
            && pos.weighted_material(!pos.turn()) >= 9;
        let r = params.r(node.depth, pieces_each);
        // The null move is marked in the key list so that no second one follows it.
        let Some(shallow) = self.test_search_child(node, (None, NULL_KEY), |s| {
            -s.search(
                &null_pos,
                -node.beta,
                -node.beta + 1,
                node.depth - 1 - r,
                node.ply + 1,
                node.node_type.child(1),
                node.id,
            )
        }) else {
            return Some(Exit::aborted());
        };
        let value = shallow.value;
        let fail_high = value >= node.beta;
        let verified = params.verified && self.frames[node.ply_index()].verify_children;
        let outcome = match (fail_high, verified) {
            (true, true) => CutOutcome::Reduce,
            (true, false) => CutOutcome::CutHigh,
            (false, _) => CutOutcome::NoCut,
        };
        let probe = shallow.probe((node.depth - 1 - r).max(0), node.beta);
        self.record_test(pos, node, Method::NullMove, probe, outcome);
        if outcome.is_cut() {
            let value = if is_mate(value) { node.beta } else { value };
            return Some(Exit::cut(Method::NullMove, value, Bound::Lower));
        }
        if fail_high && verified {
            // Tabibi and Netanyahu: depth--, verify = FALSE; the subtree uses standard cuts.
            node.depth -= 1;
            node.verifying = true;
            self.frames[node.ply_index()].verify_children = false;
        }
        None
    }

    /// After the move loop of a verifying node: when the reduced search did not confirm the
    /// null move's fail high (`best_value < beta`, a zugzwang suspect), restores the depth,
    /// switches verification back on for the subtree (Tabibi and Netanyahu: `depth++;
    /// fail_high = FALSE; verify = TRUE; goto research`) and returns true: the node is
    /// searched again at full depth.
    pub(crate) fn null_move_unconfirmed(&mut self, node: &mut Node, best_value: i32) -> bool {
        if !node.verifying || best_value >= node.beta {
            return false;
        }
        node.depth += 1;
        node.verifying = false;
        self.frames[node.ply_index()].verify_children = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::SearchConfig;

    #[test]
    fn an_unconfirmed_fail_high_is_searched_again_verifying() {
        let mut search =
            Search::new(SearchConfig::preset("null-move-verified").unwrap(), 1).unwrap();
        let mut node = Node {
            verifying: true,
            ..Node::test(NodeType::Cut, 5, [9, 10], 50)
        };
        // The verified fail high switched verification off for the subtree.
        search.frames[3].verify_children = false;
        assert!(
            !search.null_move_unconfirmed(&mut node.clone(), 10),
            "confirmed"
        );
        assert!(search.null_move_unconfirmed(&mut node, 9));
        assert_eq!((node.depth, node.verifying), (6, false));
        assert!(search.frames[3].verify_children, "the re-search verifies");
    }

    #[test]
    fn adaptive_reduction_follows_heinz() {
        let p = NullMoveParams::adaptive();
        assert_eq!(p.r(7, true), 3);
        assert_eq!(p.r(6, true), 2);
        assert_eq!(p.r(8, false), 2);
        assert_eq!(p.r(9, false), 3);
        assert_eq!(NullMoveParams::fixed(3).r(2, true), 3);
    }
}
