//! Probabilistic alpha-beta (the 2013 blog post "Probabilistic alpha beta search", seed 003;
//! this is its first implementation): every frontier node returns a distribution around its
//! quiescence score, inner nodes combine their children's distributions, and a confidence
//! parameter p sets the cut-offs.
//!
//! The distributions and Equation 1 are in [`Dist`]. Leaves are discretised into `points`
//! equal-probability quantiles of N(q, σ²) (q = quiescence score); a node keeps at most
//! `max_support` points, merged at equal-probability quantiles.
//!
//! Cut-offs: a node fails high when P(V ≥ β) ≥ p, i.e. when its p-value (the largest x with
//! P(V ≥ x) ≥ p) reaches β; alpha is raised to the best child's p-value. High p ("Karpov")
//! values a move by its pessimistic quantile, low p ("Tal") by its optimistic one.

mod dist;

use cutlab_instrument::{Bound, CutOutcome, Method, NodeType, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    eval::evaluate,
    movepick::{MovePicker, PickerKind, is_tactical},
    position::Position,
    score::{DRAW, INFINITE, MATE, is_mate},
    search::{Exit, MAX_PLY, Probe, Search},
    tt::PackedMove,
};

pub use dist::Dist;

/// Parameters of probabilistic alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProbAbParams {
    /// Confidence p in (0, 1).
    pub confidence: f64,
    /// σ of a frontier node's distribution around its quiescence score, centipawns. Default
    /// 50: the residual σ of cutlab's (1,2) middlegame fit on its own suite (`cutlab fit
    /// samples.csv --pairs 1:2`), the spread between a shallow score and one ply deeper.
    pub sigma: f64,
    /// Equal-probability points per leaf distribution.
    pub points: usize,
    /// Maximum support points kept per node.
    pub max_support: usize,
}

impl Default for ProbAbParams {
    fn default() -> Self {
        ProbAbParams {
            confidence: 0.5,
            sigma: 50.0,
            points: 16,
            max_support: 48,
        }
    }
}

impl<O: Observer> Search<O> {
    /// One iteration of probabilistic alpha-beta; the root's value at the confidence.
    pub(crate) fn prob_root(
        &mut self,
        root: &Position,
        depth: i32,
        params: &ProbAbParams,
    ) -> Option<i32> {
        let dist = self.prob_search(
            root,
            [-INFINITE, INFINITE],
            depth,
            0,
            NodeType::Pv,
            0,
            params,
        );
        (!self.aborted).then(|| dist.value_at(params.confidence))
    }

    /// A node of probabilistic alpha-beta: returns the distribution of the node's value;
    /// frontier nodes are N(quiescence score, σ²); a node fails high as soon as the combined
    /// distribution of its children gives P(V >= beta) >= p.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    fn prob_search(
        &mut self,
        pos: &Position,
        [alpha, beta]: [i32; 2],
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
        let p = params.confidence;

        // Step 1. Initialise node
        let node = self.begin_node(pos, parent_id, ply, depth.max(1), [alpha, beta], node_type);
        let leave = |this: &mut Self, dist: Dist, best_move, cut: bool| {
            let exit = if cut {
                Exit::cut(Method::ProbAb, dist.value_at(p), Bound::Lower)
            } else {
                Exit::exact(dist.value_at(p))
            };
            this.leave(&node, exit.with_move(best_move));
            dist
        };

        // Step 2. Draw and abort
        if self.should_stop() {
            return leave(self, Dist::point(0), None, false);
        }
        if !node.is_root() {
            if self.is_draw(pos, node.in_check) {
                return leave(self, Dist::point(DRAW), None, false);
            }
            if ply >= MAX_PLY {
                let value = if node.in_check { DRAW } else { evaluate(pos) };
                return leave(self, Dist::point(value), None, false);
            }
        }

        // Step 10. Move loop: combine the children's distributions (Equation 1).
        let killers = self.frames[node.ply_index()].killers;
        let mut picker = MovePicker::new(None, killers, PickerKind::All);
        let mut alpha = alpha;
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
                [-beta, -alpha],
                node.depth - 1 + extension,
                ply + 1,
                node_type.child(index),
                node.id,
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
                self.update_pv(node.ply_index(), m);
            }
            if value >= beta {
                // Confidence cut-off: P(V >= beta) >= p.
                let probe = Probe {
                    shallow_depth: node.depth - 1,
                    bound: beta,
                    value,
                    nodes: self.nodes - node.id,
                };
                let site = crate::search::Node { alpha, ..node };
                self.record_test(pos, &site, Method::ProbAb, probe, CutOutcome::CutHigh);
                if !is_tactical(m) {
                    let frame = &mut self.frames[node.ply_index()];
                    if !frame.killers[0].is(m) {
                        frame.killers[1] = frame.killers[0];
                        frame.killers[0] = PackedMove::new(m);
                    }
                    let bonus = (node.depth * node.depth).min(self.config.history_bonus_max);
                    self.history.update(pos.turn(), m, bonus);
                }
                cut = true;
                break;
            }
        }

        // Step 11. Mate and stalemate
        let Some(dist) = combined else {
            let value = if node.in_check {
                -MATE + i32::try_from(ply).unwrap_or(0)
            } else {
                DRAW
            };
            return leave(self, Dist::point(value), None, false);
        };
        leave(self, dist, best_move, cut)
    }
}
