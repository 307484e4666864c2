//! Iterative deepening, principal-variation search (fail-soft negascout) and quiescence.
//!
//! One node of [`Search::search`] runs these steps, numbered as in the code (the numbering of
//! Stockfish's `search.cpp`, with cutlab's forward-pruning methods in their own slots):
//!
//! 1. Initialise node (count it, tell the observer, check the clock)
//! 2. Draw and abort (repetition, fifty moves, insufficient material, ply limit)
//! 3. Mate distance pruning
//! 4. Transposition-table probe (cut-off at non-PV nodes)
//! 5. Static evaluation
//! 6. ProbCut and Multi-ProbCut ([`crate::probcut`], [`crate::mpc`]), in front of null move
//! 7. Null-move pruning ([`crate::null_move`])
//! 8. Stockfish-style ProbCut ([`crate::sf_probcut`])
//! 9. Multi-Cut, at CUT nodes, also at ALL nodes, or TT-triggered ([`crate::multicut`])
//! 10. Move loop: check extension, late move reduction, PVS, new best move
//! 11. Mate and stalemate
//! 12. Transposition-table store
//!
//! The quiescence search has its own steps: stand pat, captures and promotions in MVV-LVA
//! order with losing captures (SEE < 0) pruned, all evasions when in check.

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use cutlab_instrument::{
    Bound, CutOutcome, CutTestEvent, IterationEvent, Method, NodeEvent, NodeExitEvent, NodeType,
    NoopObserver, Observer,
};
use shakmaty::{Move, Position as _};

use crate::{
    config::SearchConfig,
    eval::evaluate,
    limits::{Limits, TimeManager},
    movepick::{History, MovePicker, PickerKind, is_tactical},
    multicut::{MultiCutParams, Trigger},
    position::{Position, uci},
    prob_ab::{Dist, ProbAbParams},
    probcut::CutTry,
    score::{DRAW, INFINITE, MATE, MATE_BOUND, is_mate},
    see,
    sf_probcut::SfProbCutParams,
    tt::{PackedMove, TranspositionTable, TtHit},
};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: u32 = 120;
const MAX_DEPTH: i32 = 100;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Half-width of the first aspiration window, centipawns.
const ASPIRATION_CP: i32 = 20;
/// Stands in the key list for the position after a null move.
const NULL_KEY: u64 = !0;

/// Tries and cuts per forward-pruning method in one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutCounts {
    /// Tests tried, by [`Method::index`].
    pub tries: [u64; Method::COUNT],
    /// Tests that cut, by [`Method::index`].
    pub cuts: [u64; Method::COUNT],
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move of the last completed iteration (`None` when there is no legal move).
    pub best_move: Option<Move>,
    /// Its score, centipawns or mate score, side to move's view.
    pub score: i32,
    /// Last completed nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (main and quiescence).
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<Move>,
    /// Forward-pruning tests and cuts.
    pub cuts: CutCounts,
}

/// Progress of a search after each iteration (or aspiration re-search), for UCI `info`.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score, side to move's view.
    pub score: i32,
    /// `Lower` or `Upper` when an aspiration window failed.
    pub bound: Bound,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Permille of the TT in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Where a forward-pruning test runs: the node's identity, window and depth.
#[derive(Clone, Copy)]
struct TestSite {
    node_id: u64,
    ply: u32,
    node_type: NodeType,
    alpha: i32,
    beta: i32,
    depth: i32,
}

impl TestSite {
    const fn new(
        node_id: u64,
        ply: u32,
        node_type: NodeType,
        alpha: i32,
        beta: i32,
        depth: i32,
    ) -> TestSite {
        TestSite {
            node_id,
            ply,
            node_type,
            alpha,
            beta,
            depth,
        }
    }

    /// The event of one test at this node.
    fn event(
        self,
        method: Method,
        shallow_depth: i32,
        bound: i32,
        shallow_value: i32,
        outcome: CutOutcome,
        nodes: u64,
    ) -> CutTestEvent {
        CutTestEvent {
            node_id: self.node_id,
            ply: self.ply,
            node_type: self.node_type,
            alpha: self.alpha,
            beta: self.beta,
            method,
            depth: self.depth,
            shallow_depth,
            bound,
            shallow_value,
            outcome,
            nodes,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Frame {
    killers: [PackedMove; 2],
    static_eval: i32,
    node_id: u64,
    /// Verified null move: whether the children of this ply still verify (Tabibi and
    /// Netanyahu: after a verified fail high the subtree uses standard null-move cuts).
    verify_children: bool,
}

/// A search engine: its TT, ordering tables and configuration; generic over the observer.
pub struct Search<O: Observer = NoopObserver> {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// What is switched on.
    pub config: SearchConfig,
    /// Receives the events.
    pub observer: O,
    stop: Arc<AtomicBool>,
    history: History,
    frames: Vec<Frame>,
    pv: Vec<[PackedMove; MAX_PLY as usize + 1]>,
    pv_len: Vec<usize>,
    keys: Vec<u64>,
    lmr_table: Box<[[i32; 64]; 64]>,
    nodes: u64,
    node_limit: u64,
    seldepth: u32,
    cuts: CutCounts,
    time: Option<TimeManager>,
    aborted: bool,
    in_test: u32,
    in_probcut: u32,
}

impl Search<NoopObserver> {
    /// An engine with a TT of `hash_mib` MiB and no observer.
    #[must_use]
    pub fn new(config: SearchConfig, hash_mib: usize) -> Search<NoopObserver> {
        Search::with_observer(config, hash_mib, NoopObserver)
    }
}

impl<O: Observer> Search<O> {
    /// An engine that reports to `observer`.
    #[must_use]
    pub fn with_observer(config: SearchConfig, hash_mib: usize, observer: O) -> Search<O> {
        let mut lmr_table = Box::new([[0; 64]; 64]);
        for (depth, row) in lmr_table.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                // The common logarithmic rule: 0.75 + ln(depth) ln(move number) / 2.25.
                #[expect(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                {
                    *r = (0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25) as i32;
                }
            }
        }
        Search {
            tt: TranspositionTable::new(hash_mib),
            config,
            observer,
            stop: Arc::new(AtomicBool::new(false)),
            history: History::default(),
            frames: vec![Frame::default(); MAX_PLY as usize + 2],
            pv: vec![[PackedMove::NONE; MAX_PLY as usize + 1]; MAX_PLY as usize + 1],
            pv_len: vec![0; MAX_PLY as usize + 1],
            keys: Vec::with_capacity(1024),
            lmr_table,
            nodes: 0,
            node_limit: u64::MAX,
            seldepth: 0,
            cuts: CutCounts::default(),
            time: None,
            aborted: false,
            in_test: 0,
            in_probcut: 0,
        }
    }

    /// The flag that stops a running search when set (shared with the UCI thread). The
    /// caller clears it before a new search.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learnt: TT, history, killers (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.frames.fill(Frame::default());
    }

    /// Nodes searched so far in the current or last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `root` within `limits`. `game` holds the keys of the positions before the root
    /// (oldest first) for repetition detection. `report` is called after every iteration.
    pub fn go(
        &mut self,
        root: &Position,
        game: &[u64],
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        self.nodes = 0;
        self.seldepth = 0;
        self.cuts = CutCounts::default();
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let time = TimeManager::new(limits, root.turn());
        self.time = Some(time);
        self.keys.clear();
        self.keys.extend_from_slice(game);
        self.keys.push(root.key());
        self.pv[0][0] = PackedMove::NONE;

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best_move: root.chess().legal_moves().first().copied(),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: 0,
            pv: Vec::new(),
            cuts: CutCounts::default(),
        };
        let prob_ab = self.config.prob_ab;
        if result.best_move.is_some() {
            for depth in 1..=max_depth {
                let iteration = match prob_ab {
                    Some(params) => self.prob_root(root, depth, &params),
                    None => self.aspiration(root, depth, result.score, report),
                };
                let Some(score) = iteration else {
                    break;
                };
                let pv = self.root_pv(root);
                result.best_move = pv.first().copied().or(result.best_move);
                result.score = score;
                result.depth = depth;
                result.pv = pv;
                let time_ms = millis(&time);
                report(&self.info(depth, score, Bound::Exact, &result.pv, time_ms));
                if O::NODE_EVENTS || O::TEST_EVENTS {
                    self.observer.iteration_finished(&IterationEvent {
                        depth,
                        seldepth: self.seldepth,
                        score,
                        nodes: self.nodes,
                        time_ms,
                        pv: result.pv.iter().map(|&m| uci(m)).collect(),
                    });
                }
                let mated_soon = is_mate(score) && MATE - score.abs() <= depth;
                if time.soft_expired() || mated_soon || self.nodes >= self.node_limit {
                    break;
                }
            }
        }
        if O::NODE_EVENTS || O::TEST_EVENTS {
            self.observer.search_finished();
        }
        result.seldepth = self.seldepth;
        result.nodes = self.nodes;
        result.time_ms = millis(&time);
        result.cuts = self.cuts;
        result
    }

    /// Searches `pos` to `depth` with the window (`alpha`, `beta`), deepening iteratively with
    /// the same window, and returns the fail-soft value: below `beta` proves the value is below
    /// `beta`, at or above proves it at or above (used to verify cut decisions).
    pub fn search_window(&mut self, pos: &Position, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.tt.new_search();
        self.start_unlimited(pos);
        let mut value = 0;
        for d in 1..=depth.max(1) {
            value = self.search(pos, alpha, beta, d, 0, NodeType::Pv, 0);
        }
        value
    }

    /// The quiescence value of `pos` in the window (`alpha`, `beta`), and the nodes it took
    /// (benchmarks of the capture search alone).
    pub fn quiescence_value(&mut self, pos: &Position, alpha: i32, beta: i32) -> (i32, u64) {
        self.start_unlimited(pos);
        let value = self.quiescence(pos, alpha, beta, 0, NodeType::Pv, 0);
        (value, self.nodes)
    }

    /// Resets the node count and the path for a search of `pos` without node or time limit.
    fn start_unlimited(&mut self, pos: &Position) {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = u64::MAX;
        self.time = None;
        self.keys.clear();
        self.keys.push(pos.key());
    }

    fn info(&self, depth: i32, score: i32, bound: Bound, pv: &[Move], time_ms: u64) -> Info {
        Info {
            depth,
            seldepth: self.seldepth,
            score,
            bound,
            nodes: self.nodes,
            time_ms,
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    /// One iteration inside an aspiration window that widens on failure. `None` when the
    /// search was stopped before the iteration completed.
    fn aspiration(
        &mut self,
        root: &Position,
        depth: i32,
        previous: i32,
        report: &mut dyn FnMut(&Info),
    ) -> Option<i32> {
        let mut delta = ASPIRATION_CP;
        let (mut alpha, mut beta) = if depth >= 5 && !is_mate(previous) {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search(root, alpha, beta, depth, 0, NodeType::Pv, 0);
            if self.aborted {
                return None;
            }
            let time_ms = self.time.as_ref().map_or(0, millis);
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                report(&self.info(depth, score, Bound::Upper, &[], time_ms));
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                report(&self.info(depth, score, Bound::Lower, &[], time_ms));
            } else {
                return Some(score);
            }
            delta *= 2;
            if delta > 600 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn root_pv(&self, root: &Position) -> Vec<Move> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        for packed in &self.pv[0][..self.pv_len[0]] {
            let Some(m) = packed.unpack(&pos) else { break };
            line.push(m);
            pos = pos.play(m);
        }
        line
    }

    /// Whether to stop now: checked every [`CHECK_EVERY`] nodes, never before depth 1 ends.
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) || self.nodes >= self.node_limit {
            let stop = self.stop.load(Ordering::Relaxed)
                || self.nodes >= self.node_limit
                || self.time.as_ref().is_some_and(TimeManager::hard_expired);
            if stop && !self.pv[0][0].is_none() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Whether `pos` (the last key) occurred before since the last irreversible move, on the
    /// game path or the search path. A null move ends the scan: nothing repeats across it.
    fn is_repetition(&self, pos: &Position) -> bool {
        let last = self.keys.len() - 1;
        let reach = usize::try_from(pos.halfmoves())
            .unwrap_or(usize::MAX)
            .min(last);
        let key = pos.key();
        for back in 1..=reach {
            let earlier = self.keys[last - back];
            if earlier == NULL_KEY {
                return false;
            }
            if back % 2 == 0 && earlier == key {
                return true;
            }
        }
        false
    }

    /// A draw by repetition, the fifty-move rule or insufficient material (a mate on the
    /// hundredth half-move is found by the move loop, hence the check exception).
    fn is_draw(&self, pos: &Position, in_check: bool) -> bool {
        self.is_repetition(pos)
            || (pos.halfmoves() >= 100 && !in_check)
            || pos.insufficient_material()
    }

    /// Tells the observer a node is entered (nothing is built without node events).
    #[expect(clippy::too_many_arguments, reason = "the fields of the event")]
    fn enter(
        &mut self,
        pos: &Position,
        [node_id, parent_id]: [u64; 2],
        ply: u32,
        depth: i32,
        [alpha, beta]: [i32; 2],
        node_type: NodeType,
        quiescence: bool,
    ) {
        if O::NODE_EVENTS {
            let in_check = pos.in_check();
            self.observer.enter_node(&NodeEvent {
                node_id,
                parent_id,
                ply,
                depth,
                alpha,
                beta,
                node_type,
                stage: pos.stage(),
                static_eval: (!in_check).then(|| evaluate(pos)),
                in_check,
                quiescence,
                in_test: self.in_test > 0,
            });
        }
    }

    /// Step 1 of a full-width node (main and probabilistic search): counts it, resets its PV
    /// and the grandchildren's killers, tracks seldepth, reports the entry; returns its id.
    fn begin_node(
        &mut self,
        pos: &Position,
        parent_id: u64,
        ply: u32,
        depth: i32,
        window: [i32; 2],
        node_type: NodeType,
    ) -> u64 {
        self.nodes += 1;
        let node_id = self.nodes;
        let ply_index = ply as usize;
        self.pv_len[ply_index] = 0;
        self.seldepth = self.seldepth.max(ply);
        self.frames[ply_index + 2].killers = [PackedMove::NONE; 2];
        self.enter(
            pos,
            [node_id, parent_id],
            ply,
            depth,
            window,
            node_type,
            false,
        );
        node_id
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = PackedMove::new(m);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The principal-variation search of one node. `ply` is the distance from the root;
    /// `node_type` the expected (Knuth-Moore) type; `parent_id` the parent's node id.
    #[expect(
        clippy::too_many_lines,
        reason = "one function mirrors the numbered steps"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
    ) -> i32 {
        if depth <= 0 && !pos.in_check() {
            return self.quiescence(pos, alpha, beta, ply, node_type, parent_id);
        }
        let depth = depth.max(1);
        let pv_node = node_type == NodeType::Pv;
        debug_assert!(pv_node || beta == alpha + 1);
        let ply_index = ply as usize;
        let root = ply == 0;

        // Step 1. Initialise node
        let node_id = self.begin_node(pos, parent_id, ply, depth, [alpha, beta], node_type);
        self.frames[ply_index].node_id = node_id;
        let verify = root || self.frames[ply_index - 1].verify_children;
        self.frames[ply_index].verify_children = verify;
        let in_check = pos.in_check();
        let leave =
            |this: &mut Self, value: i32, bound: Bound, best: Option<Move>, cut_by, index| {
                if O::NODE_EVENTS {
                    this.observer.leave_node(&NodeExitEvent {
                        node_id,
                        value,
                        bound,
                        best_move: best.map(uci),
                        subtree_nodes: this.nodes - node_id + 1,
                        cut_by,
                        cut_move_index: index,
                    });
                }
                value
            };

        // Step 2. Draw and abort
        if self.should_stop() {
            return leave(self, 0, Bound::Exact, None, None, None);
        }
        if !root {
            if self.is_draw(pos, in_check) {
                return leave(self, DRAW, Bound::Exact, None, None, None);
            }
            if ply >= MAX_PLY {
                let value = if in_check { DRAW } else { evaluate(pos) };
                return leave(self, value, Bound::Exact, None, None, None);
            }

            // Step 3. Mate distance pruning: no line can be better than mating now, or
            // worse than being mated now.
            let ply_i = i32::try_from(ply).unwrap_or(0);
            alpha = alpha.max(-MATE + ply_i);
            beta = beta.min(MATE - ply_i - 1);
            if alpha >= beta {
                return leave(self, alpha, Bound::Exact, None, None, None);
            }
        }

        // Step 4. Transposition-table probe
        let hit = self.tt.probe(pos.key(), ply);
        let tt_move = hit.and_then(|h| h.mv.unpack(pos));
        if let Some(h) = hit
            && self.config.tt_cutoffs
            && !pv_node
            && h.depth >= depth
            && match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            }
        {
            return leave(self, h.score, h.bound, tt_move, None, None);
        }

        // Step 5. Static evaluation
        let static_eval = if in_check {
            -INFINITE
        } else {
            hit.map_or_else(|| evaluate(pos), |h| h.eval)
        };
        self.frames[ply_index].static_eval = static_eval;

        // Step 6. ProbCut and Multi-ProbCut: a shallow null-window search whose value, through
        // the fitted linear model, predicts the deep value outside the window. Not inside the
        // shallow searches themselves (MPC is not recursive).
        if !root && self.in_probcut == 0 {
            let (method, tries, iid) = self.probcut_tries(pos, depth);
            for cut_try in tries.iter().flatten() {
                if let Some((value, bound)) = self.probcut_test(
                    pos, cut_try, method, iid, alpha, beta, depth, ply, node_type, node_id,
                ) {
                    return leave(self, value, bound, None, Some(method), None);
                }
                if self.aborted {
                    return leave(self, 0, Bound::Exact, None, None, None);
                }
            }
        }

        // Step 7. Null-move pruning: a free move for the opponent that still fails high
        // suggests this node fails high too.
        let mut depth = depth;
        let mut verifying = false;
        if let Some(params) = self.config.null_move
            && !pv_node
            && !in_check
            && depth >= params.min_depth
            && static_eval >= beta
            && !is_mate(beta)
            && self.keys.last() != Some(&NULL_KEY)
            && pos.has_non_pawn_material(pos.turn())
            && pos.weighted_material(pos.turn()) > params.endgame_material_off
            && let Some(null_pos) = pos.play_null()
        {
            let pieces_each = pos.chess().board().occupied().count() >= 6
                && pos.weighted_material(pos.turn()) >= 9
                && pos.weighted_material(!pos.turn()) >= 9;
            let r = params.r(depth, pieces_each);
            let before = self.nodes;
            // The null move is marked in the key list so that no second one follows it.
            self.keys.push(NULL_KEY);
            self.in_test += 1;
            let value = -self.search(
                &null_pos,
                -beta,
                -beta + 1,
                depth - 1 - r,
                ply + 1,
                node_type.child(1),
                node_id,
            );
            self.in_test -= 1;
            self.keys.pop();
            if self.aborted {
                return leave(self, 0, Bound::Exact, None, None, None);
            }
            let cut = value >= beta;
            let verified = params.verified && verify;
            let outcome = if cut && !verified {
                CutOutcome::CutHigh
            } else {
                CutOutcome::NoCut
            };
            let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
            self.record_test(
                pos,
                &site.event(
                    Method::NullMove,
                    (depth - 1 - r).max(0),
                    beta,
                    value,
                    outcome,
                    self.nodes - before,
                ),
            );
            if outcome.is_cut() {
                let value = if is_mate(value) { beta } else { value };
                return leave(
                    self,
                    value,
                    Bound::Lower,
                    None,
                    Some(Method::NullMove),
                    None,
                );
            }
            if cut && verified {
                depth -= 1;
                verifying = true;
                self.frames[ply_index].verify_children = false;
            }
        }

        // Step 8. Stockfish-style ProbCut: a good capture that beats beta by a margin in a
        // reduced search (after a quiescence pre-test) suggests the node fails high.
        if let Some(params) = self.config.sf_probcut
            && !pv_node
            && !in_check
            && depth >= params.min_depth
            && let Some((value, m)) = self.sf_probcut(
                pos,
                &params,
                hit,
                tt_move,
                static_eval,
                alpha,
                beta,
                depth,
                ply,
                node_type,
                node_id,
            )
        {
            return leave(
                self,
                value,
                Bound::Lower,
                Some(m),
                Some(Method::SfProbCut),
                None,
            );
        }
        if self.aborted {
            return leave(self, 0, Bound::Exact, None, None, None);
        }

        // Step 9. Multi-Cut: if C of the first M moves fail high in reduced searches, this
        // node is not singular and is assumed to fail high.
        if let Some(params) = self.config.multicut
            && !pv_node
            && !in_check
            && depth >= params.min_depth
            && !is_mate(beta)
            && let Some(method) = self.multicut(
                pos, &params, hit, tt_move, alpha, beta, depth, ply, node_type, node_id,
            )
        {
            return leave(self, beta, Bound::Lower, None, Some(method), None);
        }
        if self.aborted {
            return leave(self, 0, Bound::Exact, None, None, None);
        }

        // Step 10. Move loop
        let original_alpha = alpha;
        let killers = self.frames[ply_index].killers;
        let mut best_value;
        let mut best_move: Option<Move>;
        let mut index;
        let mut quiets_tried: Vec<Move>;
        let mut cut_index;
        loop {
            let mut picker = MovePicker::new(tt_move, killers, PickerKind::All);
            alpha = original_alpha;
            best_value = -INFINITE;
            best_move = None;
            index = 0;
            quiets_tried = Vec::new();
            cut_index = None;
            while let Some((m, _)) = picker.next(pos, &self.history) {
                let child = pos.play(m);
                let gives_check = child.in_check();
                let tactical = is_tactical(m);
                // Check extension: a move that gives check is searched one ply deeper.
                let extension = i32::from(gives_check && ply < 2 * MAX_PLY / 3);
                let new_depth = depth - 1 + extension;
                self.keys.push(child.key());

                let value = if index == 0 {
                    -self.search(
                        &child,
                        -beta,
                        -alpha,
                        new_depth,
                        ply + 1,
                        node_type.child(0),
                        node_id,
                    )
                } else {
                    let child_type = node_type.child(index);
                    // Late move reductions: quiet moves late in the order are searched shallower
                    // first, and again at full depth only if they beat alpha.
                    let mut reduction = 0;
                    if self.config.lmr
                        && depth >= 3
                        && index >= 3
                        && !tactical
                        && !in_check
                        && !gives_check
                        && !killers.iter().any(|k| k.is(m))
                    {
                        let r = self.lmr_table[depth.min(63) as usize][index.min(63)];
                        reduction = (r - i32::from(pv_node)).clamp(0, new_depth - 1);
                    }
                    let mut value = -self.search(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth - reduction,
                        ply + 1,
                        child_type,
                        node_id,
                    );
                    if reduction > 0 && value > alpha {
                        value = -self.search(
                            &child,
                            -alpha - 1,
                            -alpha,
                            new_depth,
                            ply + 1,
                            child_type,
                            node_id,
                        );
                    }
                    if pv_node && value > alpha && value < beta {
                        value = -self.search(
                            &child,
                            -beta,
                            -alpha,
                            new_depth,
                            ply + 1,
                            NodeType::Pv,
                            node_id,
                        );
                    }
                    value
                };
                self.keys.pop();
                if self.aborted {
                    return leave(self, 0, Bound::Exact, None, None, None);
                }

                if value > best_value {
                    best_value = value;
                    if value > alpha {
                        best_move = Some(m);
                        if pv_node {
                            self.update_pv(ply_index, m);
                        }
                        if value >= beta {
                            cut_index = Some(u32::try_from(index).unwrap_or(u32::MAX));
                            break;
                        }
                        alpha = value;
                    }
                }
                if !tactical {
                    quiets_tried.push(m);
                }
                index += 1;
            }
            // Verified null move: the reduced search did not confirm the null move's fail
            // high (a zugzwang suspect), so the node is searched again at full depth.
            if verifying && best_value < beta {
                depth += 1;
                verifying = false;
                continue;
            }
            break;
        }

        // Step 11. Mate and stalemate
        if index == 0 && best_move.is_none() && best_value == -INFINITE {
            let value = if in_check {
                -MATE + i32::try_from(ply).unwrap_or(0)
            } else {
                DRAW
            };
            return leave(self, value, Bound::Exact, None, None, None);
        }

        // A quiet move that cut off becomes a killer and gains history; the quiet moves
        // tried before it lose history.
        if let Some(m) = best_move
            && best_value >= beta
            && !is_tactical(m)
        {
            let frame = &mut self.frames[ply_index];
            if !frame.killers[0].is(m) {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = PackedMove::new(m);
            }
            let bonus = (depth * depth).min(1200);
            self.history.update(pos.turn(), m, bonus);
            for &q in &quiets_tried {
                self.history.update(pos.turn(), q, -bonus);
            }
        }

        // Step 12. Transposition-table store
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = best_move.map_or(PackedMove::NONE, PackedMove::new);
        self.tt.store(
            pos.key(),
            ply,
            stored_move,
            best_value,
            static_eval,
            depth,
            bound,
        );
        leave(self, best_value, bound, best_move, None, cut_index)
    }

    /// Quiescence search: captures and promotions until the position is quiet.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
    ) -> i32 {
        self.nodes += 1;
        let node_id = self.nodes;
        let ply_index = ply as usize;
        self.pv_len[ply_index.min(MAX_PLY as usize)] = 0;
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        let stand_pat = if in_check { -INFINITE } else { evaluate(pos) };
        self.enter(
            pos,
            [node_id, parent_id],
            ply,
            0,
            [alpha, beta],
            node_type,
            true,
        );
        let leave = |this: &mut Self, value: i32, bound: Bound, best: Option<Move>, index| {
            if O::NODE_EVENTS {
                this.observer.leave_node(&NodeExitEvent {
                    node_id,
                    value,
                    bound,
                    best_move: best.map(uci),
                    subtree_nodes: this.nodes - node_id + 1,
                    cut_by: None,
                    cut_move_index: index,
                });
            }
            value
        };
        if self.should_stop() {
            return leave(self, 0, Bound::Exact, None, None);
        }
        if pos.insufficient_material() {
            return leave(self, DRAW, Bound::Exact, None, None);
        }
        if ply >= MAX_PLY {
            return leave(
                self,
                if in_check { DRAW } else { stand_pat },
                Bound::Exact,
                None,
                None,
            );
        }

        // TT probe: any stored result is deep enough here.
        let hit = self.tt.probe(pos.key(), ply);
        if let Some(h) = hit
            && self.config.tt_cutoffs
            && node_type != NodeType::Pv
            && match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            }
        {
            return leave(self, h.score, h.bound, None, None);
        }

        // Stand pat: the side to move may decline every capture (not when in check).
        let original_alpha = alpha;
        let mut best_value = stand_pat;
        if !in_check {
            if stand_pat >= beta {
                return leave(self, stand_pat, Bound::Lower, None, None);
            }
            alpha = alpha.max(stand_pat);
        }

        let tt_move = hit.and_then(|h| h.mv.unpack(pos));
        let kind = if in_check {
            PickerKind::All
        } else {
            PickerKind::Tactical
        };
        let mut picker = MovePicker::new(tt_move, [PackedMove::NONE; 2], kind);
        let mut best_move = None;
        let mut index = 0_u32;
        let mut cut_index = None;
        while let Some((m, losing)) = picker.next(pos, &self.history) {
            // Losing captures cannot raise a quiet position's value: skip them.
            if !in_check && losing {
                continue;
            }
            let child = pos.play(m);
            let value = -self.quiescence(
                &child,
                -beta,
                -alpha,
                ply + 1,
                node_type.child(index as usize),
                node_id,
            );
            if self.aborted {
                return leave(self, 0, Bound::Exact, None, None);
            }
            index += 1;
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(m);
                    if value >= beta {
                        cut_index = Some(index - 1);
                        break;
                    }
                    alpha = value;
                }
            }
        }
        if in_check && index == 0 {
            let mated = -MATE + i32::try_from(ply).unwrap_or(0);
            return leave(self, mated, Bound::Exact, None, None);
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = best_move.map_or(PackedMove::NONE, PackedMove::new);
        let eval = if in_check { 0 } else { stand_pat };
        self.tt
            .store(pos.key(), ply, stored_move, best_value, eval, 0, bound);
        leave(self, best_value, bound, best_move, cut_index)
    }

    /// One iteration of probabilistic alpha-beta; the root's value at the confidence.
    fn prob_root(&mut self, root: &Position, depth: i32, params: &ProbAbParams) -> Option<i32> {
        let dist = self.prob_search(root, -INFINITE, INFINITE, depth, 0, NodeType::Pv, 0, params);
        (!self.aborted).then(|| dist.value_at(params.confidence))
    }

    /// A node of probabilistic alpha-beta ([`crate::prob_ab`]): returns the distribution of the
    /// node's value; frontier nodes are N(quiescence score, σ²); a node fails high as soon as
    /// the combined distribution of its children gives P(V >= beta) >= p.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    #[expect(
        clippy::too_many_lines,
        reason = "one function mirrors the numbered steps"
    )]
    fn prob_search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
        params: &ProbAbParams,
    ) -> Dist {
        // Frontier: the quiescence score (full window: exact) with the fitted spread.
        if depth <= 0 && !pos.in_check() {
            let q = self.quiescence(pos, -INFINITE, INFINITE, ply, node_type, parent_id);
            return if is_mate(q) {
                Dist::point(q)
            } else {
                Dist::normal(q, params.sigma, params.points)
            };
        }
        let depth = depth.max(1);
        let ply_index = ply as usize;
        let root = ply == 0;
        let p = params.confidence;

        // Step 1. Initialise node
        let node_id = self.begin_node(pos, parent_id, ply, depth, [alpha, beta], node_type);
        let in_check = pos.in_check();
        let leave = |this: &mut Self, dist: Dist, best: Option<Move>, cut: bool| {
            if O::NODE_EVENTS {
                let value = dist.value_at(p);
                this.observer.leave_node(&NodeExitEvent {
                    node_id,
                    value,
                    bound: if cut { Bound::Lower } else { Bound::Exact },
                    best_move: best.map(uci),
                    subtree_nodes: this.nodes - node_id + 1,
                    cut_by: cut.then_some(Method::ProbAb),
                    cut_move_index: None,
                });
            }
            dist
        };

        // Step 2. Draw and abort
        if self.should_stop() {
            return leave(self, Dist::point(0), None, false);
        }
        if !root {
            if self.is_repetition(pos)
                || (pos.halfmoves() >= 100 && !in_check)
                || pos.insufficient_material()
            {
                return leave(self, Dist::point(DRAW), None, false);
            }
            if ply >= MAX_PLY {
                let value = if in_check { DRAW } else { evaluate(pos) };
                return leave(self, Dist::point(value), None, false);
            }
        }

        // Step 10. Move loop: combine the children's distributions (Equation 1).
        let killers = self.frames[ply_index].killers;
        let mut picker = MovePicker::new(None, killers, PickerKind::All);
        let mut combined: Option<Dist> = None;
        let mut best_move = None;
        let mut index = 0;
        let mut cut = false;
        while let Some((m, _)) = picker.next(pos, &self.history) {
            let child = pos.play(m);
            let extension = i32::from(child.in_check() && ply < 2 * MAX_PLY / 3);
            self.keys.push(child.key());
            let child_dist = self.prob_search(
                &child,
                -beta,
                -alpha,
                depth - 1 + extension,
                ply + 1,
                node_type.child(index),
                node_id,
                params,
            );
            self.keys.pop();
            if self.aborted {
                return leave(self, Dist::point(0), None, false);
            }
            let mine = child_dist.negate();
            let merged = match combined.take() {
                Some(d) => d.max(&mine).compress(params.max_support),
                None => mine,
            };
            let value = merged.value_at(p);
            combined = Some(merged);
            index += 1;
            if value > alpha {
                alpha = value;
                best_move = Some(m);
                self.update_pv(ply_index, m);
            }
            if value >= beta {
                // Confidence cut-off: P(V >= beta) >= p.
                let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
                self.record_test(
                    pos,
                    &site.event(
                        Method::ProbAb,
                        depth - 1,
                        beta,
                        value,
                        CutOutcome::CutHigh,
                        self.nodes - node_id,
                    ),
                );
                if !is_tactical(m) {
                    let frame = &mut self.frames[ply_index];
                    if !frame.killers[0].is(m) {
                        frame.killers[1] = frame.killers[0];
                        frame.killers[0] = PackedMove::new(m);
                    }
                    self.history
                        .update(pos.turn(), m, (depth * depth).min(1200));
                }
                cut = true;
                break;
            }
        }

        // Step 11. Mate and stalemate
        let Some(dist) = combined else {
            let value = if in_check {
                -MATE + i32::try_from(ply).unwrap_or(0)
            } else {
                DRAW
            };
            return leave(self, Dist::point(value), None, false);
        };
        leave(self, dist, best_move, cut)
    }

    /// The ProbCut tests configured for this node's stage and height (at most four).
    fn probcut_tries(&self, pos: &Position, depth: i32) -> (Method, [Option<CutTry>; 4], bool) {
        let mut tries = [None; 4];
        if let Some(p) = &self.config.probcut {
            if depth == p.check_height {
                tries[0] = Some(*p.for_stage(pos.stage()));
            }
            return (Method::ProbCut, tries, false);
        }
        if let Some(m) = &self.config.mpc {
            for (slot, t) in tries.iter_mut().zip(m.tries(pos.stage(), depth)) {
                *slot = Some(*t);
            }
            return (Method::Mpc, tries, m.iid);
        }
        (Method::ProbCut, tries, false)
    }

    /// One ProbCut try, high then low (Jiang and Buro, figures 2 and 3). Returns the value and
    /// bound to return when the node is cut. A bound beyond every score (an infinite
    /// threshold) skips the shallow search, so such a test leaves the tree unchanged.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn probcut_test(
        &mut self,
        pos: &Position,
        cut_try: &CutTry,
        method: Method,
        iid: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        node_id: u64,
    ) -> Option<(i32, Bound)> {
        let t = cut_try.threshold;
        let d = cut_try.shallow_depth;
        let high = cut_try.model.high_bound(t, beta);
        if !is_mate(beta) && high.abs() < MATE_BOUND {
            let (value, nodes) =
                self.shallow_search(pos, high - 1, high, d, iid, ply, node_type, node_id);
            if self.aborted {
                return None;
            }
            let cut = value >= high;
            let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
            self.record_test(
                pos,
                &site.event(
                    method,
                    d,
                    high,
                    value,
                    if cut {
                        CutOutcome::CutHigh
                    } else {
                        CutOutcome::NoCut
                    },
                    nodes,
                ),
            );
            if cut {
                return Some((beta, Bound::Lower));
            }
        }
        let low = cut_try.model.low_bound(t, alpha);
        if !is_mate(alpha) && low.abs() < MATE_BOUND {
            let (value, nodes) =
                self.shallow_search(pos, low, low + 1, d, iid, ply, node_type, node_id);
            if self.aborted {
                return None;
            }
            let cut = value <= low;
            let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
            self.record_test(
                pos,
                &site.event(
                    method,
                    d,
                    low,
                    value,
                    if cut {
                        CutOutcome::CutLow
                    } else {
                        CutOutcome::NoCut
                    },
                    nodes,
                ),
            );
            if cut {
                return Some((alpha, Bound::Upper));
            }
        }
        None
    }

    /// A null-window search of the current node at a shallow depth, with no ProbCut inside;
    /// with `iid`, preceded by the shallower depths. Returns the value and the nodes spent.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn shallow_search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        iid: bool,
        ply: u32,
        node_type: NodeType,
        node_id: u64,
    ) -> (i32, u64) {
        let before = self.nodes;
        self.in_probcut += 1;
        self.in_test += 1;
        let first = if iid { 1 } else { depth };
        let mut value = 0;
        for d in first..=depth {
            value = self.search(pos, alpha, beta, d, ply, node_type, node_id);
        }
        self.in_test -= 1;
        self.in_probcut -= 1;
        (value, self.nodes - before)
    }

    /// Stockfish-style ProbCut at a node; the value and move when it cuts.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn sf_probcut(
        &mut self,
        pos: &Position,
        params: &SfProbCutParams,
        hit: Option<TtHit>,
        tt_move: Option<Move>,
        static_eval: i32,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        node_id: u64,
    ) -> Option<(i32, Move)> {
        let probcut_beta = beta.saturating_add(params.margin);
        if is_mate(beta)
            || probcut_beta.abs() >= MATE_BOUND
            || hit.is_some_and(|h| h.depth >= depth - 3 && h.score < probcut_beta)
        {
            return None;
        }
        let threshold = probcut_beta - static_eval;
        let mut picker = MovePicker::new(tt_move, [PackedMove::NONE; 2], PickerKind::Tactical);
        let child_type = node_type.child(1);
        while let Some((m, _)) = picker.next(pos, &self.history) {
            if see::see(pos, m) < threshold {
                continue;
            }
            let before = self.nodes;
            let child = pos.play(m);
            self.keys.push(child.key());
            self.in_test += 1;
            let mut value = -self.quiescence(
                &child,
                -probcut_beta,
                -probcut_beta + 1,
                ply + 1,
                child_type,
                node_id,
            );
            let mut shallow_depth = 0;
            if value >= probcut_beta && !self.aborted {
                shallow_depth = depth - params.reduction;
                value = -self.search(
                    &child,
                    -probcut_beta,
                    -probcut_beta + 1,
                    shallow_depth,
                    ply + 1,
                    child_type,
                    node_id,
                );
            }
            self.in_test -= 1;
            self.keys.pop();
            if self.aborted {
                return None;
            }
            let cut = value >= probcut_beta;
            let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
            self.record_test(
                pos,
                &site.event(
                    Method::SfProbCut,
                    shallow_depth,
                    probcut_beta,
                    value,
                    if cut {
                        CutOutcome::CutHigh
                    } else {
                        CutOutcome::NoCut
                    },
                    self.nodes - before,
                ),
            );
            if cut {
                self.tt.store(
                    pos.key(),
                    ply,
                    PackedMove::new(m),
                    value,
                    static_eval,
                    depth - 3,
                    Bound::Lower,
                );
                return Some((value, m));
            }
        }
        None
    }

    /// Multi-Cut at a node; the method that cut, if it did.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn multicut(
        &mut self,
        pos: &Position,
        params: &MultiCutParams,
        hit: Option<TtHit>,
        tt_move: Option<Move>,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: u32,
        node_type: NodeType,
        node_id: u64,
    ) -> Option<Method> {
        let shallow_tt_bound = hit.is_some_and(|h| {
            matches!(h.bound, Bound::Lower | Bound::Exact) && h.score >= beta && h.depth < depth
        });
        let (m, c, method) = match (params.trigger, node_type) {
            (Trigger::CutNodes, NodeType::Cut) => (params.m, params.c, Method::MultiCut),
            (Trigger::CutAndAllNodes, NodeType::Cut) => (params.m, params.c, Method::MultiCutAll),
            (Trigger::CutAndAllNodes, NodeType::All) => {
                (params.all_m, params.all_c, Method::MultiCutAll)
            }
            (Trigger::TtLowerBound, _) if shallow_tt_bound => {
                (params.m, params.c, Method::MultiCutTt)
            }
            _ => return None,
        };
        if c > m || c == 0 {
            return None;
        }
        let before = self.nodes;
        let shallow_depth = depth - 1 - params.r;
        let killers = self.frames[ply as usize].killers;
        let mut picker = MovePicker::new(tt_move, killers, PickerKind::All);
        let (mut tried, mut cuts, mut best) = (0, 0, -INFINITE);
        while tried < m
            && let Some((mv, _)) = picker.next(pos, &self.history)
        {
            let child = pos.play(mv);
            self.keys.push(child.key());
            self.in_test += 1;
            let value = -self.search(
                &child,
                -beta,
                -beta + 1,
                shallow_depth,
                ply + 1,
                node_type.child(tried),
                node_id,
            );
            self.in_test -= 1;
            self.keys.pop();
            if self.aborted {
                return None;
            }
            best = best.max(value);
            tried += 1;
            if value >= beta {
                cuts += 1;
                if cuts == c {
                    break;
                }
            }
        }
        let cut = cuts >= c;
        let site = TestSite::new(node_id, ply, node_type, alpha, beta, depth);
        self.record_test(
            pos,
            &site.event(
                method,
                shallow_depth,
                beta,
                best,
                if cut {
                    CutOutcome::CutHigh
                } else {
                    CutOutcome::NoCut
                },
                self.nodes - before,
            ),
        );
        cut.then_some(method)
    }

    fn record_test(&mut self, pos: &Position, event: &CutTestEvent) {
        let i = event.method.index();
        self.cuts.tries[i] += 1;
        if event.outcome.is_cut() {
            self.cuts.cuts[i] += 1;
        }
        if O::TEST_EVENTS {
            self.observer.cut_test(event, &|| pos.fen());
        }
    }
}

fn millis(time: &TimeManager) -> u64 {
    u64::try_from(time.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Whether `score` is a mate score in the side to move's favour or against it, for callers.
#[must_use]
pub fn mate_in_plies(score: i32) -> Option<i32> {
    (score.abs() >= MATE_BOUND).then(|| (MATE - score.abs()) * score.signum())
}
