//! The [`Node`] a step of the search works on, the [`Exit`] it leaves with, and the events
//! both send to the observer.

use cutlab_instrument::{
    Bound, CutOutcome, CutTestEvent, Method, NodeEvent, NodeExitEvent, NodeType, Observer,
};
use shakmaty::Move;

use super::{CHECK_EVERY, Search, clamp_eval};
use crate::{
    eval::evaluate,
    history::PieceTo,
    limits::TimeManager,
    position::{Position, uci},
    tt::{PackedMove, TtHit},
};

/// One node of the main or quiescence search: its identity, window, depth and expected type,
/// and what steps 4 and 5 learnt of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Sequence number (the node counter when it was entered).
    pub id: u64,
    /// Distance from the root.
    pub ply: u32,
    /// Remaining depth (0 in quiescence).
    pub depth: i32,
    /// Lower bound of the window.
    pub alpha: i32,
    /// Upper bound of the window.
    pub beta: i32,
    /// Expected Knuth-Moore type.
    pub node_type: NodeType,
    /// The side to move is in check.
    pub in_check: bool,
    /// Static evaluation (step 5; `-INFINITE` in check).
    pub static_eval: i32,
    /// The static evaluation, or the TT value where the entry's bound allows (step 5;
    /// Stockfish's `eval`).
    pub eval: i32,
    /// The transposition-table entry found in step 4.
    pub tt: Option<TtHit>,
    /// Its move, when legal here.
    pub tt_move: Option<Move>,
    /// Verified null move failed high: the node searches one ply shallower to confirm it.
    pub verifying: bool,
    /// The static evaluation is better than two plies up (Stockfish's `improving`).
    pub improving: bool,
    /// The move this node skips: it is the search without the TT move of a singular test.
    pub excluded: Option<Move>,
}

impl Node {
    /// A principal-variation node (open window).
    pub const fn is_pv(&self) -> bool {
        matches!(self.node_type, NodeType::Pv)
    }

    /// The root of the search.
    pub const fn is_root(&self) -> bool {
        self.ply == 0
    }

    /// Index of this node's frame, PV line and killers.
    pub const fn ply_index(&self) -> usize {
        self.ply as usize
    }
}

#[cfg(test)]
impl Node {
    /// A node for a method's unit test: ply 3, id 1, not in check, no TT entry, eval and static
    /// evaluation `eval`; a test sets the other fields it needs by hand.
    pub fn test(node_type: NodeType, depth: i32, [alpha, beta]: [i32; 2], eval: i32) -> Node {
        Node {
            id: 1,
            ply: 3,
            depth,
            alpha,
            beta,
            node_type,
            in_check: false,
            static_eval: eval,
            eval,
            tt: None,
            tt_move: None,
            verifying: false,
            improving: false,
            excluded: None,
        }
    }
}

/// How a node is left: its value and what the value means.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exit {
    /// The value returned (fail-soft).
    pub value: i32,
    /// Whether it is exact or a bound.
    pub bound: Bound,
    /// The move that produced it, if any.
    pub best_move: Option<Move>,
    /// The forward-pruning method that cut the node, if one did.
    pub cut_by: Option<Method>,
    /// Index of the move that failed high, if one did.
    pub cut_move_index: Option<u32>,
}

impl Exit {
    /// An exact value (draws, mates, the ply limit).
    pub const fn exact(value: i32) -> Exit {
        Exit::bounded(value, Bound::Exact)
    }

    /// The search was stopped: the value is meaningless and discarded by the root.
    pub const fn aborted() -> Exit {
        Exit::exact(0)
    }

    /// A value with its bound.
    pub const fn bounded(value: i32, bound: Bound) -> Exit {
        Exit {
            value,
            bound,
            best_move: None,
            cut_by: None,
            cut_move_index: None,
        }
    }

    /// A forward-pruning cut by `method`.
    pub const fn cut(method: Method, value: i32, bound: Bound) -> Exit {
        Exit {
            cut_by: Some(method),
            ..Exit::bounded(value, bound)
        }
    }

    /// The same exit, naming the move that produced it.
    pub const fn with_move(self, best_move: Option<Move>) -> Exit {
        Exit { best_move, ..self }
    }
}

/// What a cut test's shallow search found: its value and the nodes it took.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shallow {
    /// The shallow search's value, v'.
    pub value: i32,
    /// Nodes it searched.
    pub nodes: u64,
}

impl Shallow {
    /// The probe of a test that compared this value with `bound` after a search of depth
    /// `shallow_depth`.
    pub const fn probe(self, shallow_depth: i32, bound: i32) -> Probe {
        Probe {
            shallow_depth,
            bound,
            value: self.value,
            nodes: self.nodes,
        }
    }
}

/// What one cut test searched and found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// Depth of the shallow search, d'.
    pub shallow_depth: i32,
    /// The bound its value is compared against.
    pub bound: i32,
    /// Its value, v'.
    pub value: i32,
    /// Nodes it searched.
    pub nodes: u64,
}

impl<O: Observer> Search<O> {
    /// Step 1 of a full-width node (main and probabilistic search): counts it, resets its PV
    /// and the grandchildren's killers, tracks seldepth and reports the entry.
    pub(crate) fn begin_node(
        &mut self,
        pos: &Position,
        parent_id: u64,
        ply: u32,
        depth: i32,
        [alpha, beta]: [i32; 2],
        node_type: NodeType,
    ) -> Node {
        self.nodes += 1;
        let ply_index = ply as usize;
        self.pv_len[ply_index] = 0;
        self.seldepth = self.seldepth.max(ply);
        self.frames[ply_index + 2].killers = [PackedMove::NONE; 2];
        self.frames[ply_index].tests = [0; Method::COUNT];
        self.frames[ply_index].moved = None;
        let node = Node {
            id: self.nodes,
            ply,
            depth,
            alpha,
            beta,
            node_type,
            in_check: pos.in_check(),
            static_eval: 0,
            eval: 0,
            tt: None,
            tt_move: None,
            verifying: false,
            improving: false,
            excluded: self.pending_excluded.take(),
        };
        self.enter(pos, &node, parent_id, false);
        node
    }

    /// Tells the observer a node is entered (nothing is built without node events).
    pub(crate) fn enter(&mut self, pos: &Position, node: &Node, parent_id: u64, quiescence: bool) {
        if O::NODE_EVENTS {
            self.observer.enter_node(&NodeEvent {
                node_id: node.id,
                parent_id,
                ply: node.ply,
                depth: node.depth,
                alpha: node.alpha,
                beta: node.beta,
                node_type: node.node_type,
                stage: pos.stage(),
                static_eval: (!node.in_check).then(|| match &self.network {
                    Some(net) => clamp_eval(crate::nnue::evaluate(net, pos)),
                    None => evaluate(pos),
                }),
                in_check: node.in_check,
                quiescence,
                in_test: self.in_test > 0,
            });
        }
    }

    /// Leaves `node` with `exit`, telling the observer; returns the value.
    pub(crate) fn leave(&mut self, node: &Node, exit: Exit) -> i32 {
        if O::NODE_EVENTS {
            self.observer.leave_node(&NodeExitEvent {
                node_id: node.id,
                value: exit.value,
                bound: exit.bound,
                best_move: exit.best_move.map(uci),
                subtree_nodes: self.nodes - node.id + 1,
                cut_by: exit.cut_by,
                cut_move_index: exit.cut_move_index,
            });
        }
        exit.value
    }

    /// A cut test's shallow search of `node`'s own position, at its ply (ProbCut, MPC, the
    /// singular test, razoring's quiescence): run inside the test, so that its nodes are marked
    /// as a test's, with the node's frame (killers, static evaluation, null-move verification)
    /// and PV, which a search at the same ply overwrites, restored after: the node goes on as
    /// if the test had not run. `None` when the search was stopped: the node then leaves with
    /// [`Exit::aborted`].
    pub(crate) fn test_search_here(
        &mut self,
        node: &Node,
        search: impl FnOnce(&mut Self) -> i32,
    ) -> Option<Shallow> {
        let frame = self.frames[node.ply_index()];
        let shallow = self.test_search(search);
        self.frames[node.ply_index()] = frame;
        self.pv_len[node.ply_index()] = 0;
        shallow
    }

    /// A cut test's shallow search of a child of `node` (null move, Multi-Cut, Stockfish
    /// ProbCut): `moved` is the move to it as continuation history sees it (`None` for a null
    /// move), `key` the child's key on the path ([`super::NULL_KEY`] after a null move). `None`
    /// when the search was stopped.
    pub(crate) fn test_search_child(
        &mut self,
        node: &Node,
        (moved, key): (Option<PieceTo>, u64),
        search: impl FnOnce(&mut Self) -> i32,
    ) -> Option<Shallow> {
        self.frames[node.ply_index()].moved = moved;
        self.keys.push(key);
        let shallow = self.test_search(search);
        self.keys.pop();
        shallow
    }

    fn test_search(&mut self, search: impl FnOnce(&mut Self) -> i32) -> Option<Shallow> {
        let before = self.nodes;
        self.in_test += 1;
        let value = search(self);
        self.in_test -= 1;
        (!self.aborted).then(|| Shallow {
            value,
            nodes: self.nodes - before,
        })
    }

    /// Counts one cut test of `method` at `node` and reports it.
    pub(crate) fn record_test(
        &mut self,
        pos: &Position,
        node: &Node,
        method: Method,
        probe: Probe,
        outcome: CutOutcome,
    ) {
        self.record(pos, node, method, probe, outcome, None);
    }

    /// Counts one move-level test of `method` at `node` on move `m` and reports it; `pruned`
    /// says whether the move was skipped.
    pub(crate) fn record_move_test(
        &mut self,
        pos: &Position,
        node: &Node,
        method: Method,
        probe: Probe,
        (m, pruned): (Move, bool),
    ) {
        let outcome = if pruned {
            CutOutcome::PruneMove
        } else {
            CutOutcome::NoCut
        };
        self.record(pos, node, method, probe, outcome, Some(m));
    }

    fn record(
        &mut self,
        pos: &Position,
        node: &Node,
        method: Method,
        probe: Probe,
        outcome: CutOutcome,
        pruned: Option<Move>,
    ) {
        let i = method.index();
        let test_index = self.frames[node.ply_index()].tests[i];
        self.frames[node.ply_index()].tests[i] += 1;
        self.cuts.tries[i] += 1;
        self.cuts.nodes_tried[i] += u64::from(test_index == 0);
        if outcome.is_cut() {
            self.cuts.cuts[i] += 1;
        }
        if O::TEST_EVENTS {
            let event = CutTestEvent {
                node_id: node.id,
                ply: node.ply,
                node_type: node.node_type,
                alpha: node.alpha,
                beta: node.beta,
                method,
                depth: node.depth,
                shallow_depth: probe.shallow_depth,
                bound: probe.bound,
                shallow_value: probe.value,
                outcome,
                nodes: probe.nodes,
                pruned_move: pruned.map(uci),
                test_index,
            };
            self.observer.cut_test(&event, &|| pos.fen());
        }
    }

    /// Makes `m` the head of the PV at `ply`, followed by the child's PV.
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = PackedMove::new(m);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Whether to stop now: checked every [`CHECK_EVERY`] nodes, never before depth 1 ends.
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) || self.nodes >= self.node_limit {
            let stop = self.stop.load(std::sync::atomic::Ordering::Relaxed)
                || self.nodes >= self.node_limit
                || self.time.as_ref().is_some_and(TimeManager::hard_expired);
            if stop && !self.pv[0][0].is_none() {
                self.aborted = true;
            }
        }
        self.aborted
    }
}
