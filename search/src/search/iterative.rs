//! Iterative deepening with aspiration windows: the root of every search.
//!
//! Each iteration searches one ply deeper than the last inside a window around the last
//! score; a fail low or high widens the window on that side and searches again, and a
//! window wider than a limit becomes infinite.

use cutlab_instrument::{Bound, IterationEvent, NodeType, Observer};
use serde::{Deserialize, Serialize};
use shakmaty::{Move, Position as _};
use smart_default::SmartDefault;

use super::{CutCounts, Info, MAX_DEPTH, Search, SearchResult, lmr::LmrTable};
use crate::{
    limits::{Limits, Settledness, TimeManager},
    position::{Position, uci},
    prob_ab::ProbContext,
    score::{INFINITE, MATE, is_mate},
    tt::PackedMove,
};

/// Parameters of the aspiration windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AspirationParams {
    /// First iteration searched in a window (shallower ones use an infinite window).
    #[default(5)]
    pub min_depth: i32,
    /// Half-width of the first window, centipawns; it doubles after every failure.
    #[default(20)]
    pub initial_cp: i32,
    /// Half-width beyond which the window becomes infinite, centipawns.
    #[default(600)]
    pub full_width_after_cp: i32,
}

impl<O: Observer> Search<O> {
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
        self.prepare();
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
        let legal = root.chess().legal_moves();
        self.root_moves = limits
            .searchmoves
            .iter()
            .filter(|m| legal.contains(m))
            .cloned()
            .collect();
        let mut result = SearchResult {
            best_move: self.root_moves.first().or(legal.first()).copied(),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: 0,
            pv: Vec::new(),
            cuts: CutCounts::default(),
        };
        let only_move = legal.len() == 1 || self.root_moves.len() == 1;
        let mut settled = Settledness::default();
        let mut scores = Vec::new();
        if result.best_move.is_some() {
            for depth in 1..=max_depth {
                let iteration = self.aspiration(root, depth, result.score, report);
                let Some(score) = iteration else {
                    break;
                };
                let pv = self.root_pv(root);
                let best_move = pv.first().copied().or(result.best_move);
                settled.best_move_kept = if depth > 1 && best_move == result.best_move {
                    settled.best_move_kept + 1
                } else {
                    0
                };
                scores.push(score);
                settled.score_drop_cp = scores
                    .len()
                    .checked_sub(4)
                    .map_or(0, |i| scores[i].saturating_sub(score));
                settled.depth = depth;
                result.best_move = best_move;
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
                // A forced move on a clock is played at once.
                let forced = only_move && time.on_clock();
                if time.soft_expired(settled)
                    || mated_soon
                    || forced
                    || self.nodes >= self.node_limit
                {
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

    /// Brings what is derived from the configuration up to date (it may have been replaced
    /// since the last search).
    fn prepare(&mut self) {
        if !self.lmr.is_for(self.config.lmr.as_ref()) {
            self.lmr = LmrTable::new(self.config.lmr.as_ref());
        }
    }

    /// Resets the node count and the path for a search of `pos` without node or time limit.
    fn start_unlimited(&mut self, pos: &Position) {
        self.prepare();
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
        let params = self.config.aspiration;
        let mut delta = params.initial_cp;
        let (mut alpha, mut beta) = if depth >= params.min_depth && !is_mate(previous) {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_value(root, alpha, beta, depth);
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
            if delta > params.full_width_after_cp {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The value of the root in the window: the node function's, or probabilistic alpha-beta's
    /// value at its confidence.
    fn root_value(&mut self, root: &Position, alpha: i32, beta: i32, depth: i32) -> i32 {
        match self.config.prob_ab {
            Some(params) => {
                let ctx = ProbContext::new(params);
                self.prob_search(root, [alpha, beta], depth, 0, NodeType::Pv, 0, &ctx)
                    .value_at(params.confidence)
            }
            None => self.search(root, alpha, beta, depth, 0, NodeType::Pv, 0),
        }
    }

    /// The principal variation of the last completed iteration, as legal moves from `root`.
    pub(crate) fn root_pv(&self, root: &Position) -> Vec<Move> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        for packed in &self.pv[0][..self.pv_len[0]] {
            let Some(m) = packed.unpack(&pos) else { break };
            line.push(m);
            pos = pos.play(m);
        }
        line
    }
}

fn millis(time: &TimeManager) -> u64 {
    u64::try_from(time.elapsed().as_millis()).unwrap_or(u64::MAX)
}
