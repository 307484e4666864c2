//! Quiescence search: captures and promotions until the position is quiet.
//!
//! 1. Initialise node
//! 2. Stop, insufficient material, ply limit
//! 3. Transposition-table probe (any stored draft is deep enough here)
//! 4. Stand pat: the side to move may decline every capture (not when in check)
//! 5. Captures and queen promotions in MVV-LVA order, losing captures (SEE < 0) skipped, and
//!    futile ones ([`crate::pruning::qsearch_futility`]); all evasions when in check
//! 6. Mated when in check with no evasion
//! 7. Transposition-table store at draft 0

use cutlab_instrument::{Bound, Method, NodeType, Observer};

use super::{Exit, MAX_PLY, Node, Search};
use crate::{
    movepick::{MovePicker, PickerKind},
    position::Position,
    score::{DRAW, INFINITE, MATE},
    tt::{PackedMove, bound_of},
};

impl<O: Observer> Search<O> {
    /// The quiescence value of `pos` in the window (`alpha`, `beta`), fail-soft.
    pub(crate) fn quiescence(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
    ) -> i32 {
        // Step 1. Initialise node
        self.nodes += 1;
        let ply_index = ply as usize;
        self.pv_len[ply_index.min(MAX_PLY as usize)] = 0;
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        let stand_pat = if in_check {
            -INFINITE
        } else {
            self.static_eval(pos, ply)
        };
        let node = Node {
            id: self.nodes,
            ply,
            depth: 0,
            alpha,
            beta,
            node_type,
            in_check,
            static_eval: stand_pat,
            eval: stand_pat,
            tt: None,
            tt_move: None,
            verifying: false,
            improving: false,
            excluded: None,
        };
        self.frames[ply_index].tests[Method::QsearchFutility.index()] = 0;
        self.enter(pos, &node, parent_id, true);

        // Step 2. Stop, draw, ply limit
        if self.should_stop() {
            return self.leave(&node, Exit::aborted());
        }
        if pos.insufficient_material() {
            return self.leave(&node, Exit::exact(DRAW));
        }
        if ply >= MAX_PLY {
            let value = if in_check { DRAW } else { stand_pat };
            return self.leave(&node, Exit::exact(value));
        }

        // Step 3. Transposition-table probe: any stored result is deep enough here.
        let hit = self.tt.probe(pos.key(), ply);
        if let Some(h) = hit
            && self.config.tt_cutoffs
            && node_type != NodeType::Pv
            && h.decides(alpha, beta)
        {
            return self.leave(&node, Exit::bounded(h.score, h.bound));
        }

        // Step 4. Stand pat
        let mut alpha = alpha;
        let mut best_value = stand_pat;
        if !in_check {
            if stand_pat >= beta {
                return self.leave(&node, Exit::bounded(stand_pat, Bound::Lower));
            }
            alpha = alpha.max(stand_pat);
        }

        // Step 5. Captures and promotions (all evasions in check)
        let tt_move = hit.and_then(|h| h.mv.unpack(pos));
        let kind = if in_check {
            PickerKind::All
        } else {
            PickerKind::Tactical
        };
        let mut picker = MovePicker::new(tt_move, [PackedMove::NONE; 2], None, kind);
        let mut best_move = None;
        let mut searched = 0_u32;
        let mut cut_index = None;
        while let Some((m, losing)) = picker.next(pos, &self.history) {
            // Losing captures cannot raise a quiet position's value: skip them.
            if !in_check && losing {
                continue;
            }
            let child = pos.play(m);
            // Step 5a. Futility: the capture cannot lift the stand pat to alpha.
            if !in_check
                && let Some(bound) =
                    self.try_qsearch_futility(pos, &node, m, &child, stand_pat, alpha)
            {
                best_value = best_value.max(bound);
                continue;
            }
            self.tt.prefetch(child.key());
            let child_type = node_type.child(searched as usize);
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1, child_type, node.id);
            if self.aborted {
                return self.leave(&node, Exit::aborted());
            }
            searched += 1;
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(m);
                    if value >= beta {
                        cut_index = Some(searched - 1);
                        break;
                    }
                    alpha = value;
                }
            }
        }

        // Step 6. Mated: in check with no evasion
        if in_check && searched == 0 {
            let mated = -MATE + i32::try_from(ply).unwrap_or(0);
            return self.leave(&node, Exit::exact(mated));
        }

        // Step 7. Transposition-table store
        let bound = bound_of(best_value, node.alpha, beta);
        let stored_move = best_move.map_or(PackedMove::NONE, PackedMove::new);
        let eval = if in_check { 0 } else { stand_pat };
        self.tt
            .store(pos.key(), ply, stored_move, best_value, eval, 0, bound);
        let exit = Exit {
            cut_move_index: cut_index,
            ..Exit::bounded(best_value, bound)
        };
        self.leave(&node, exit.with_move(best_move))
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        Limits, Position, Search, SearchConfig, pruning::qsearch_futility::QsearchFutilityParams,
    };

    #[test]
    fn futility_shrinks_the_tree_and_off_it_is_the_old_search() {
        let pos = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let nodes = |margin: Option<i32>| {
            let mut config = SearchConfig::preset("null-move+lmr").unwrap();
            config.qsearch_futility = margin.map(|margin| QsearchFutilityParams { margin });
            let mut search = Search::new(config, 4).unwrap();
            search.go(&pos, &[], &Limits::depth(7), &mut |_| {});
            search.nodes
        };
        let (with, without) = (nodes(Some(120)), nodes(None));
        assert!(
            with < without,
            "{with} nodes with futility, {without} without"
        );
        assert_eq!(
            nodes(Some(i32::MAX / 4)),
            without,
            "a margin nothing reaches prunes nothing"
        );
    }
}
