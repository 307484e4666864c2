//! Stockfish-style ProbCut (Stockfish 15.1, `search.cpp`, step 10 "ProbCut"): if a good
//! capture beats beta by a margin in a reduced search, the node will likely fail high too.
//!
//! ```text
//! probCutBeta = beta + 191 - 54 * improving;
//! if (!PvNode && depth > 4 && abs(beta) < VALUE_TB_WIN_IN_MAX_PLY
//!     && !(ttDepth >= depth - 3 && ttValue < probCutBeta)) {
//!     for (move in TT move and captures with see_ge(move, probCutBeta - staticEval)) {
//!         value = -qsearch(-probCutBeta, -probCutBeta + 1);          // preliminary check
//!         if (value >= probCutBeta)
//!             value = -search(-probCutBeta, -probCutBeta + 1, depth - 4, !cutNode);
//!         if (value >= probCutBeta) {
//!             tt.save(LOWER, value, depth - 3, move);
//!             return value;
//!         }
//!     }
//! }
//! ```
//!
//! Deviations from the source, each a choice written down here:
//! - Not in the search without the TT move of a singular test. Stockfish runs this step there
//!   too, under the separate TT key it keeps for that search; cutlab's excluded search shares
//!   the node's TT entry and runs none of steps 8-13 (see [`super::singular`]).
//! - Its margins are half of Stockfish's, in centipawns (Stockfish's middlegame pawn is 126 of
//!   its units): measured, see "Stockfish's margins in centipawns" in [`super`].
//! - Step 12 of Stockfish 15.1, the small ProbCut in check (return beta + 417 on a deep TT
//!   capture lower bound), is not part of this method.
//! - Captures are ordered by MVV-LVA and capture history (cutlab's picker), not by Stockfish's
//!   6 × victim value plus capture history; the SEE threshold filters them here rather than
//!   inside Stockfish's picker.
//!
//! The moves are those of Stockfish's PROBCUT stage (`movepick.cpp`): the TT move when it is a
//! capture (`pos.capture(ttm)`: a promotion that captures nothing is not), then the captures
//! and queen promotions its CAPTURES generation makes (no under-promotion), each passing
//! `see_ge(move, probCutBeta - ss->staticEval)`.
//! - The child of a CUT node is searched as an expected ALL node and vice versa, as
//!   `!cutNode` does; the TT entry stored on a cut has draft depth - reduction + 1 (depth - 3).

use cutlab_instrument::{Bound, CutOutcome, Method, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::Role;
use smart_default::SmartDefault;

use crate::{
    config::{Apply, PresetPart},
    history::PieceTo,
    movepick::{MovePicker, PickerKind},
    position::Position,
    score::{MATE_BOUND, is_mate},
    search::{Exit, Node, Search},
    see,
    tt::PackedMove,
};

/// Parameters of Stockfish-style ProbCut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SfProbCutParams {
    /// probCutBeta = beta + margin (centipawns; Stockfish 15.1: 191 of its units, 96 here). A
    /// margin beyond the mate range disables the test.
    #[default(96)]
    pub margin: i32,
    /// Taken from the margin when the static evaluation improves (Stockfish 15.1: 54 of its
    /// units, 27 here).
    #[default(27)]
    pub improving: i32,
    /// Depth reduction of the verification search (Stockfish: 4).
    #[default(4)]
    pub reduction: i32,
    /// Minimum depth + 1 (Stockfish: depth > 4).
    #[default(5)]
    pub min_depth: i32,
}

/// The preset part that switches the method on with its source's parameters.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "sf-probcut",
    describe: || {
        let p = SfProbCutParams::default();
        format!(
            "Stockfish 15.1 ProbCut: captures, qsearch pre-test, depth-{} search, margin beta + {} \
             - {} improving (Stockfish's 191 - 54, halved)",
            p.reduction, p.margin, p.improving
        )
    },
    apply: Apply::On(|config| config.sf_probcut = Some(SfProbCutParams::default())),
}];

impl<O: Observer> Search<O> {
    /// Step 10: Stockfish-style ProbCut at a non-PV node not in check.
    pub(crate) fn try_sf_probcut(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.sf_probcut?;
        let margin = params.margin - if node.improving { params.improving } else { 0 };
        let probcut_beta = node.beta.saturating_add(margin);
        // The draft Stockfish gives the TT entry it stores (depth - 3 when the search reduces 4).
        let stored_depth = node.depth - params.reduction + 1;
        if node.is_pv()
            || node.excluded.is_some()
            || node.in_check
            || node.depth < params.min_depth
            || is_mate(node.beta)
            || probcut_beta.abs() >= MATE_BOUND
            || node
                .tt
                .is_some_and(|h| h.depth >= stored_depth && h.score < probcut_beta)
        {
            return None;
        }
        let threshold = probcut_beta - node.static_eval;
        let mut picker = MovePicker::new(
            node.tt_move,
            [PackedMove::NONE; 2],
            None,
            PickerKind::Tactical,
        );
        let child_type = node.node_type.child(1);
        let (child_ply, id) = (node.ply + 1, node.id);
        while let Some((m, _)) = picker.next(pos, &self.history) {
            let probcut_stage = if node.tt_move == Some(m) {
                m.is_capture()
            } else {
                matches!(m.promotion(), None | Some(Role::Queen))
            };
            if !probcut_stage || !see::see_ge(pos, m, threshold) {
                continue;
            }
            let child = pos.play(m);
            let to_child = (Some(PieceTo::new(pos, m)), child.key());
            let window = [-probcut_beta, -probcut_beta + 1];
            let mut shallow_depth = 0;
            // Preliminary quiescence check, then the reduced search.
            let Some(shallow) = self.test_search_child(node, to_child, |s| {
                let value = -s.quiescence(&child, window[0], window[1], child_ply, child_type, id);
                if value < probcut_beta || s.aborted {
                    return value;
                }
                shallow_depth = node.depth - params.reduction;
                -s.search(
                    &child,
                    window[0],
                    window[1],
                    shallow_depth,
                    child_ply,
                    child_type,
                    id,
                )
            }) else {
                return Some(Exit::aborted());
            };
            let value = shallow.value;
            let cut = value >= probcut_beta;
            let outcome = CutOutcome::high_if(cut);
            let probe = shallow.probe(shallow_depth, probcut_beta);
            self.record_test(pos, node, Method::SfProbCut, probe, outcome);
            if cut {
                self.tt.store(
                    pos.key(),
                    node.ply,
                    PackedMove::new(m),
                    value,
                    node.static_eval,
                    stored_depth,
                    Bound::Lower,
                );
                return Some(Exit::cut(Method::SfProbCut, value, Bound::Lower).with_move(Some(m)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::*;
    use crate::{SearchConfig, tt::TtHit};

    fn tests_run(search: &Search, before: u64) -> u64 {
        search.cuts.tries[Method::SfProbCut.index()] - before
    }

    /// Stockfish 15.1 step 10: `probCutBeta = beta + 191 - 54 * improving` (halved: 96, 27), and
    /// no test when the TT holds a value below it from depth - 3 or deeper.
    #[test]
    fn improving_lowers_probcut_beta() {
        let mut search = Search::new(SearchConfig::preset("sf-probcut").unwrap(), 1).unwrap();
        // Black's knight on d5 hangs to the e4 pawn: a capture that wins 320.
        let pos = Position::from_fen("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1").unwrap();
        search.keys.push(pos.key());
        for tt_score in [60, 68, 69, 80, 95, 96, 120] {
            for improving in [false, true] {
                let probcut_beta = 96 - 27 * i32::from(improving);
                let hit = TtHit {
                    mv: PackedMove::NONE,
                    score: tt_score,
                    eval: 0,
                    depth: 3,
                    bound: Bound::Upper,
                };
                let node = Node {
                    improving,
                    tt: Some(hit),
                    ..Node::test(NodeType::Cut, 6, [-1, 0], 0)
                };
                let before = search.cuts.tries[Method::SfProbCut.index()];
                search.try_sf_probcut(&pos, &node);
                let tested = tests_run(&search, before) > 0;
                assert_eq!(
                    tested,
                    tt_score >= probcut_beta,
                    "tt {tt_score} {improving}"
                );
            }
        }
    }

    /// Stockfish's PROBCUT stage: the TT move only when it captures, then captures and queen
    /// promotions (no under-promotion), each with `see_ge(move, probCutBeta - staticEval)`;
    /// `see_ge` takes a promotion to exchange 0.
    #[test]
    fn tries_the_moves_of_stockfishs_probcut_stage() {
        let mut search = Search::new(SearchConfig::preset("sf-probcut").unwrap(), 1).unwrap();
        let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        search.keys.push(pos.key());
        let queen = pos.parse_uci("a7a8q").unwrap();
        // static eval 200: the threshold 96 - 200 < 0 lets a promotion (exchange 0) pass.
        let node = Node::test(NodeType::Cut, 6, [-1, 0], 200);
        let before = search.cuts.tries[Method::SfProbCut.index()];
        search.try_sf_probcut(&pos, &node);
        assert_eq!(
            tests_run(&search, before),
            1,
            "a8=Q only, no under-promotion"
        );
        let with_tt = Node {
            tt_move: Some(queen),
            ..node
        };
        let before = search.cuts.tries[Method::SfProbCut.index()];
        search.try_sf_probcut(&pos, &with_tt);
        assert_eq!(
            tests_run(&search, before),
            0,
            "a quiet TT move is not tried"
        );
        // static eval 0: the threshold 96 > 0 stops the promotion.
        let low = Node::test(NodeType::Cut, 6, [-1, 0], 0);
        let before = search.cuts.tries[Method::SfProbCut.index()];
        search.try_sf_probcut(&pos, &low);
        assert_eq!(
            tests_run(&search, before),
            0,
            "see_ge(promotion, 96) is false"
        );
    }
}
