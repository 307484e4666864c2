//! The node function of the principal-variation search (fail-soft negascout).
//!
//! One node runs these steps, numbered as in the code (Stockfish's `search.cpp` order, with
//! cutlab's forward-pruning methods in their own slots). Each step is a few lines that call one
//! hook; a hook that decides the node returns the [`Exit`] to leave with.
//!
//! 1. Initialise node (count it, tell the observer)
//! 2. Draw and abort (repetition, fifty moves, insufficient material, ply limit, stop)
//! 3. Mate distance pruning
//! 4. Transposition-table probe (cut-off at non-PV nodes)
//! 5. Static evaluation, and whether it improves on two plies up
//! 6. Razoring ([`crate::pruning::razoring`])
//! 7. Reverse futility pruning ([`crate::pruning::rfp`])
//! 8. ProbCut and Multi-ProbCut ([`crate::pruning::probcut`], [`crate::pruning::mpc`])
//! 9. Null-move pruning ([`crate::pruning::null_move`])
//! 10. Stockfish-style ProbCut ([`crate::pruning::sf_probcut`])
//! 11. Multi-Cut, at CUT nodes, also at ALL nodes, or TT-triggered
//!     ([`crate::pruning::multicut`])
//! 12. Internal iterative reductions ([`crate::pruning::iir`])
//! 13. ProbCut in check ([`crate::pruning::sf_probcut_in_check`])
//! 14. Move loop: check extension, pruning at shallow depth (late move pruning, futility,
//!     history and SEE pruning: [`crate::pruning::lmp`], [`crate::pruning::futility`],
//!     [`crate::pruning::history_pruning`], [`crate::pruning::see_pruning`]), late move
//!     reduction ([`super::lmr`]), singular extension with its multi-cut return
//!     ([`crate::pruning::singular`]), PVS, new best move
//! 15. Mate and stalemate
//! 16. Killers, history of the quiet moves and capture history
//! 17. Transposition-table store

use cutlab_instrument::{Bound, NodeType, Observer};
use shakmaty::Move;

use super::{Exit, MAX_PLY, Node, Search};
use crate::pruning::{lmp::MoveCount, singular::Singular};
use crate::{
    history::{PieceTo, TriedMoves},
    movegen::is_tactical,
    movepick::{MovePicker, PickerKind},
    position::Position,
    score::{DRAW, INFINITE, MATE, MATE_BOUND},
    tt::{PackedMove, bound_of},
};

/// A move of the move loop: the child, the depth it is searched to and its reduction.
pub(crate) struct ChildMove {
    /// The position after the move.
    pub child: Position,
    /// A capture or a promotion.
    pub tactical: bool,
    /// The move gives check.
    pub gives_check: bool,
    /// Depth of the child's search: one less, or the same for a move that gives check.
    pub new_depth: i32,
    /// Late move reduction of the child's first search.
    pub reduction: i32,
}

/// What the move-level pruning methods know of a move before it is searched (step 14a).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveCandidate {
    /// The move.
    pub m: Move,
    /// A capture or a promotion.
    pub tactical: bool,
    /// A capture, en passant included, promotions only when they capture (Stockfish's
    /// `pos.capture(move)`).
    pub capture: bool,
    /// The move gives check.
    pub gives_check: bool,
    /// The child's depth after its LMR reduction, at least 0 (Stockfish's `lmrDepth`).
    pub lmr_depth: i32,
}

/// What the move loop found.
struct MoveLoop {
    best_value: i32,
    best_move: Option<Move>,
    /// Moves searched (0: no legal move).
    searched: usize,
    /// Index of the move that failed high.
    cut_index: Option<u32>,
    /// Moves searched before the best one (they lose history on a cut).
    tried: TriedMoves,
}

impl<O: Observer> Search<O> {
    /// The principal-variation search of one node. `ply` is the distance from the root;
    /// `node_type` the expected (Knuth-Moore) type; `parent_id` the parent's node id.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
    ) -> i32 {
        if depth <= 0 && !pos.in_check() {
            return self.quiescence(pos, alpha, beta, ply, node_type, parent_id);
        }
        debug_assert!(node_type == NodeType::Pv || beta == alpha + 1);

        // Step 1. Initialise node
        let mut node = self.begin_node(pos, parent_id, ply, depth.max(1), [alpha, beta], node_type);
        if node.is_root() {
            self.root_depth = node.depth.unsigned_abs();
        }
        let verify = node.is_root() || self.frames[node.ply_index() - 1].verify_children;
        self.frames[node.ply_index()].verify_children = verify;

        // Step 2. Draw and abort
        if let Some(exit) = self.draw_or_abort(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 3. Mate distance pruning: no line can be better than mating now, or worse than
        // being mated now.
        if let Some(exit) = mate_distance(&mut node) {
            return self.leave(&node, exit);
        }

        // Step 4. Transposition-table probe: a deep enough bound on the right side of the
        // window decides a non-PV node.
        if let Some(exit) = self.probe_tt(pos, &mut node) {
            return self.leave(&node, exit);
        }

        // Step 5. Static evaluation (from the TT entry when there is one), and the TT value in
        // its place where the entry's bound says the position is at least (at most) that good.
        node.static_eval = if node.in_check {
            -INFINITE
        } else {
            node.tt
                .map_or_else(|| self.static_eval(pos, node.ply), |h| h.eval)
        };
        node.eval = adjusted_eval(&node);
        self.frames[node.ply_index()].static_eval = node.static_eval;
        node.improving = self.improving(&node);

        // Step 6. Razoring: an evaluation far below alpha that quiescence cannot lift fails low.
        if let Some(exit) = self.try_razoring(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 7. Reverse futility pruning: an evaluation above beta by a depth margin fails
        // high.
        if let Some(exit) = self.try_rfp(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 8. ProbCut and Multi-ProbCut: a shallow search predicts the deep value outside
        // the window.
        if let Some(exit) = self.try_probcut(pos, &node) {
            return self.leave(&node, exit);
        }
        if let Some(exit) = self.try_mpc(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 9. Null-move pruning: a free move for the opponent that still fails high
        // suggests this node fails high too.
        if let Some(exit) = self.try_null_move(pos, &mut node) {
            return self.leave(&node, exit);
        }

        // Step 10. Stockfish-style ProbCut: a good capture that beats beta by a margin in a
        // reduced search suggests the node fails high.
        if let Some(exit) = self.try_sf_probcut(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 11. Multi-Cut: C of the first M moves failing high in reduced searches suggest
        // the node fails high.
        if let Some(exit) = self.try_multicut(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 12. Internal iterative reductions: without a TT move, search shallower.
        self.try_iir(pos, &mut node);

        // Step 13. ProbCut in check: a deep TT capture bound far above beta fails high.
        if let Some(exit) = self.try_sf_probcut_in_check(pos, &node) {
            return self.leave(&node, exit);
        }

        // Step 14. Move loop
        let moves = match self.search_moves(pos, &mut node) {
            Ok(moves) => moves,
            Err(exit) => return self.leave(&node, exit),
        };

        // Step 15. Mate and stalemate (a search without the TT move fails low instead)
        if moves.searched == 0 {
            if node.excluded.is_some() {
                return self.leave(&node, Exit::bounded(node.alpha, Bound::Upper));
            }
            let value = if node.in_check {
                -MATE + i32::try_from(ply).unwrap_or(0)
            } else {
                DRAW
            };
            return self.leave(&node, Exit::exact(value));
        }

        // Step 16. The move that cut off gains history (a quiet one becomes a killer); the
        // moves of its kind tried before it, and the captures, lose history.
        if moves.best_value >= node.beta
            && let Some(m) = moves.best_move
        {
            self.reward_cut(pos, &node, m, &moves.tried);
        }

        // Step 17. Transposition-table store (not for a search without the TT move)
        let bound = bound_of(moves.best_value, node.alpha, node.beta);
        if node.excluded.is_none() {
            self.tt.store(
                pos.key(),
                ply,
                moves.best_move.map_or(PackedMove::NONE, PackedMove::new),
                moves.best_value,
                node.static_eval,
                node.depth,
                bound,
            );
        }
        let exit = Exit {
            cut_move_index: moves.cut_index,
            ..Exit::bounded(moves.best_value, bound).with_move(moves.best_move)
        };
        self.leave(&node, exit)
    }

    /// Step 5: whether the static evaluation is better than at the same side's previous node
    /// (two plies up, or four when that one was in check; true when neither is known).
    fn improving(&self, node: &Node) -> bool {
        if node.in_check {
            return false;
        }
        let earlier = |back: usize| {
            (node.ply_index() >= back)
                .then(|| self.frames[node.ply_index() - back].static_eval)
                .filter(|&eval| eval != -INFINITE)
        };
        earlier(2)
            .or_else(|| earlier(4))
            .is_none_or(|eval| node.static_eval > eval)
    }

    /// Step 2: a stopped search, a drawn position, or the ply limit.
    pub(crate) fn draw_or_abort(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        if self.should_stop() {
            return Some(Exit::aborted());
        }
        if node.is_root() {
            return None;
        }
        if self.is_draw(pos, node.in_check) {
            return Some(Exit::exact(DRAW));
        }
        if node.ply >= MAX_PLY {
            return Some(Exit::exact(if node.in_check {
                DRAW
            } else {
                self.static_eval(pos, node.ply)
            }));
        }
        None
    }

    /// Step 4: probes the TT, keeps what it found in `node`, and cuts a non-PV node on a deep
    /// enough bound.
    pub(crate) fn probe_tt(&mut self, pos: &Position, node: &mut Node) -> Option<Exit> {
        let hit = self.tt.probe(pos.key(), node.ply);
        node.tt = hit;
        node.tt_move = hit.and_then(|h| h.mv.unpack(pos));
        let h = hit?;
        let cutoffs = self.config.tt_cutoffs && node.excluded.is_none();
        (cutoffs && !node.is_pv() && h.depth >= node.depth && h.decides(node.alpha, node.beta))
            .then(|| Exit::bounded(h.score, h.bound).with_move(node.tt_move))
    }

    /// A root move that UCI `searchmoves` leaves out.
    fn outside_searchmoves(&self, node: &Node, m: Move) -> bool {
        node.is_root() && !self.root_moves.is_empty() && !self.root_moves.contains(&m)
    }

    /// Step 14: searches the moves in order, the first with the full window and the rest with
    /// a null window (re-searched when they beat alpha), reduced by LMR when late and quiet.
    /// `Err` when the search was stopped.
    fn search_moves(&mut self, pos: &Position, node: &mut Node) -> Result<MoveLoop, Exit> {
        let killers = self.frames[node.ply_index()].killers;
        loop {
            let mut picker = self.ordered_moves(node, killers);
            let mut alpha = node.alpha;
            let mut moves = MoveLoop {
                best_value: -INFINITE,
                best_move: None,
                searched: 0,
                cut_index: None,
                tried: TriedMoves::default(),
            };
            let mut counted = MoveCount::default();
            while let Some((m, _)) = picker.next(pos, &self.history) {
                if node.excluded == Some(m) || self.outside_searchmoves(node, m) {
                    continue;
                }
                // Step 14a's gate holds for this move as the earlier moves left it.
                let applies = self.shallow_pruning_applies(pos, node, &moves);
                // Late move pruning: past the count, quiet moves are not taken.
                if (applies || counted.pruning)
                    && self.try_lmp(pos, node, m, &killers, counted) == Some(true)
                {
                    continue;
                }
                counted.count += 1;
                if applies {
                    counted.pruning = self.move_count_prunes(node, counted.count);
                }
                let index = moves.searched;
                // Step 14b. Singular extension of the TT move, or its multi-cut return.
                let extension = match self.try_singular(pos, node, m) {
                    Some(Singular::Cut(exit)) => return Err(exit),
                    Some(Singular::Extend(plies)) => Some(plies),
                    None => None,
                };
                let ChildMove {
                    child,
                    tactical,
                    gives_check,
                    new_depth,
                    reduction,
                } = self.child_move(pos, node, m, (&killers, index), extension);
                let candidate = MoveCandidate {
                    m,
                    tactical,
                    capture: m.is_capture(),
                    gives_check,
                    lmr_depth: (new_depth - reduction).max(0),
                };
                if applies && self.prunes_move(pos, node, &candidate, alpha) {
                    continue;
                }
                self.frames[node.ply_index()].moved = Some(PieceTo::new(pos, m));
                self.keys.push(child.key());
                let value = if index == 0 {
                    let child_type = node.node_type.child(0);
                    -self.search(
                        &child,
                        -node.beta,
                        -alpha,
                        new_depth,
                        node.ply + 1,
                        child_type,
                        node.id,
                    )
                } else {
                    self.zero_window_child(&child, node, alpha, new_depth, reduction, index)
                };
                self.keys.pop();
                if self.aborted {
                    return Err(Exit::aborted());
                }
                moves.searched += 1;
                if value > moves.best_value {
                    moves.best_value = value;
                    if value > alpha {
                        moves.best_move = Some(m);
                        if node.is_pv() {
                            self.update_pv(node.ply_index(), m);
                        }
                        if value >= node.beta {
                            moves.cut_index = Some(u32::try_from(index).unwrap_or(u32::MAX));
                            break;
                        }
                        alpha = value;
                    }
                }
                moves.tried.push(m);
            }
            // Verified null move: the reduced search did not confirm the null move's fail
            // high (a zugzwang suspect), so the node is searched again at full depth.
            if self.null_move_unconfirmed(node, moves.best_value) {
                continue;
            }
            return Ok(moves);
        }
    }

    /// Step 14's rules for one move, number `index`: its extension (the singular test's when
    /// it ran, else the check extension: a move that gives check is searched one ply deeper)
    /// and, for a later quiet move that neither gives nor evades check and is no killer, the
    /// LMR reduction.
    pub(crate) fn child_move(
        &self,
        pos: &Position,
        node: &Node,
        m: Move,
        (killers, index): (&[PackedMove; 2], usize),
        singular: Option<i32>,
    ) -> ChildMove {
        let child = pos.play(m);
        self.tt.prefetch(child.key());
        let gives_check = child.in_check();
        let tactical = is_tactical(m);
        let check_extension = i32::from(gives_check && node.ply < 2 * MAX_PLY / 3);
        let extension = singular.unwrap_or(check_extension);
        let new_depth = node.depth - 1 + extension;
        let quiet_late = index > 0
            && !tactical
            && !node.in_check
            && !gives_check
            && !killers.iter().any(|k| k.is(m));
        let reduction = if quiet_late {
            self.lmr
                .reduction(node.depth, index, node.is_pv(), new_depth)
        } else {
            0
        };
        ChildMove {
            child,
            tactical,
            gives_check,
            new_depth,
            reduction,
        }
    }

    /// Step 14a's condition (Stockfish 15.1: `!rootNode && pos.non_pawn_material(us) &&
    /// bestValue > VALUE_TB_LOSS_IN_MAX_PLY`): away from the root, with pieces besides pawns,
    /// once a move has a value that is not a mate against.
    fn shallow_pruning_applies(&self, pos: &Position, node: &Node, moves: &MoveLoop) -> bool {
        self.config.prunes_moves()
            && !node.is_root()
            && moves.best_value > -MATE_BOUND
            && pos.has_non_pawn_material(pos.turn())
    }

    /// Step 14a for a move the picker yielded: futility, history and SEE pruning, in that
    /// order, with `alpha` as the earlier moves raised it (late move pruning acts before, on
    /// the picker).
    fn prunes_move(
        &mut self,
        pos: &Position,
        node: &Node,
        cand: &MoveCandidate,
        alpha: i32,
    ) -> bool {
        self.try_futility(pos, node, cand, alpha)
            || self.try_history_pruning(pos, node, cand)
            || self.try_see_pruning(pos, node, cand)
    }

    /// A later move: a null-window search, reduced by `reduction`; again at full depth when a
    /// reduced search beats alpha; and with the full window at a PV node when it lands inside.
    fn zero_window_child(
        &mut self,
        child: &Position,
        node: &Node,
        alpha: i32,
        new_depth: i32,
        reduction: i32,
        index: usize,
    ) -> i32 {
        let (ply, id) = (node.ply + 1, node.id);
        let child_type = node.node_type.child(index);
        let mut value = -self.search(
            child,
            -alpha - 1,
            -alpha,
            new_depth - reduction,
            ply,
            child_type,
            id,
        );
        if reduction > 0 && value > alpha {
            value = -self.search(child, -alpha - 1, -alpha, new_depth, ply, child_type, id);
        }
        if node.is_pv() && value > alpha && value < node.beta {
            value = -self.search(child, -node.beta, -alpha, new_depth, ply, NodeType::Pv, id);
        }
        value
    }

    /// Step 16, after Stockfish 15.1's `update_all_stats`: a quiet `best` becomes the first
    /// killer and gains history (butterfly and continuation) and the quiet moves tried before
    /// it lose it; a capturing `best` gains capture history; the captures tried before `best`
    /// lose capture history either way.
    pub(crate) fn reward_cut(
        &mut self,
        pos: &Position,
        node: &Node,
        best: Move,
        tried: &TriedMoves,
    ) {
        let bonus = (node.depth * node.depth).min(self.config.history_bonus_max);
        if best.is_capture() {
            self.history.capture.update(pos, best, bonus);
        } else if !best.is_promotion() {
            let frame = &mut self.frames[node.ply_index()];
            if !frame.killers[0].is(best) {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = PackedMove::new(best);
            }
            let previous = self.previous_move(node);
            self.history.update_quiet(pos, best, previous, bonus);
            for &q in &tried.quiets {
                self.history.update_quiet(pos, q, previous, -bonus);
            }
        }
        for &c in &tried.captures {
            self.history.capture.update(pos, c, -bonus);
        }
    }

    /// Every move of `node` in the main search's order: the TT move, captures, `killers`,
    /// then quiets by history (with the continuation of the move that led here).
    pub(crate) fn ordered_moves(&self, node: &Node, killers: [PackedMove; 2]) -> MovePicker {
        MovePicker::new(
            node.tt_move,
            killers,
            self.previous_move(node),
            PickerKind::All,
        )
    }

    /// The move that led to `node` (`None` at the root and after a null move), as
    /// continuation history indexes it.
    pub(crate) fn previous_move(&self, node: &Node) -> Option<PieceTo> {
        node.ply_index()
            .checked_sub(1)
            .and_then(|i| self.frames[i].moved)
    }
}

/// Step 5: Stockfish's `eval`, the static evaluation or, where the TT entry's bound shows the
/// position is better (worse) than it, the TT value ("ttValue can be used as a better position
/// evaluation"); `-INFINITE` in check.
fn adjusted_eval(node: &Node) -> i32 {
    match node.tt {
        Some(h) if !node.in_check => {
            let bound_allows = if h.score > node.static_eval {
                matches!(h.bound, Bound::Lower | Bound::Exact)
            } else {
                matches!(h.bound, Bound::Upper | Bound::Exact)
            };
            if bound_allows {
                h.score
            } else {
                node.static_eval
            }
        }
        _ => node.static_eval,
    }
}

/// Step 3: narrows the window to the mate scores reachable from this ply; a window that
/// closes decides the node.
pub(crate) fn mate_distance(node: &mut Node) -> Option<Exit> {
    if node.is_root() {
        return None;
    }
    let ply = i32::try_from(node.ply).unwrap_or(0);
    node.alpha = node.alpha.max(-MATE + ply);
    node.beta = node.beta.min(MATE - ply - 1);
    (node.alpha >= node.beta).then(|| Exit::exact(node.alpha))
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::NodeType;

    use super::MAX_PLY;
    use crate::{Position, Search, SearchConfig, eval::evaluate, score::INFINITE};

    #[test]
    fn a_node_at_the_ply_limit_returns_its_evaluation() {
        let mut search = Search::new(SearchConfig::preset("null-move+lmr").unwrap(), 1).unwrap();
        let pos = Position::startpos();
        search.keys.push(pos.key());
        let value = search.search(&pos, -INFINITE, INFINITE, 3, MAX_PLY, NodeType::Pv, 0);
        assert_eq!(value, evaluate(&pos));
    }

    /// A configuration built in code whose network file cannot be loaded is an error where
    /// the engine is made, or reconfigured (which then keeps its configuration): never the
    /// classical evaluation in its place.
    #[test]
    fn a_network_that_cannot_be_loaded_is_an_error() {
        let mut config = SearchConfig::preset("null-move+lmr").unwrap();
        config.eval = crate::config::Eval::Nnue;
        config.network = Some("/nonexistent/cutlab.nnue".into());
        let Err(e) = Search::new(config.clone(), 1) else {
            panic!("an engine without its network")
        };
        assert!(e.contains("/nonexistent/cutlab.nnue"), "{e}");
        let mut search = Search::default_engine(1);
        let e = search.set_config(config).unwrap_err();
        assert!(e.contains("/nonexistent/cutlab.nnue"), "{e}");
        assert_eq!(search.config, SearchConfig::default());
        assert!(search.network.is_none());
    }

    /// With `nnue@FILE` the node's evaluation is the network's (here at the ply limit, where
    /// the node returns it), read from the file; without it, the classical one again.
    #[test]
    fn a_variant_with_a_network_evaluates_with_it() {
        let net = crate::nnue::Network::random(9);
        let path = std::env::temp_dir().join(format!("cutlab-{}-random.nnue", std::process::id()));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let name = format!("null-move+lmr+nnue@{}", path.display());
        let mut search = Search::new(SearchConfig::resolve(&name).unwrap(), 1).unwrap();
        let pos =
            Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 1")
                .unwrap();
        search.keys.push(pos.key());
        let value = search.search(&pos, -INFINITE, INFINITE, 3, MAX_PLY, NodeType::Pv, 0);
        assert_eq!(
            value,
            crate::nnue::evaluate(&net, &pos).clamp(-30_000, 30_000)
        );
        assert_ne!(
            value,
            evaluate(&pos),
            "the network's value, not the classical one"
        );
        search
            .set_config(SearchConfig::preset("null-move+lmr").unwrap())
            .unwrap();
        let value = search.search(&pos, -INFINITE, INFINITE, 3, MAX_PLY, NodeType::Pv, 0);
        assert_eq!(value, evaluate(&pos));
        std::fs::remove_file(&path).ok();
        assert!(SearchConfig::resolve("modern+nnue@/nonexistent.nnue").is_err());
    }
}
