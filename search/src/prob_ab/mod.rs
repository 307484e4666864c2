//! Probabilistic alpha-beta (the 2013 blog post "Probabilistic alpha beta search", seed 003;
//! this is its first implementation): every frontier node returns a distribution around its
//! quiescence score, inner nodes combine their children's distributions, and a confidence
//! parameter p sets the cut-offs.
//!
//! ```text
//! Quiesce(node)  -> N(q, sigma^2)                       // q: the quiescence score
//! Search(node):
//!     F = none
//!     for child in moves:
//!         F_child = -Search(child)
//!         F = F * F_child                                // Equation 1: CDF of the max
//!         if P_F(V >= beta) >= p: cut                    // confidence cut-off
//!     return F
//! ```
//!
//! The distributions and Equation 1 are in [`Dist`]. Leaves are discretised into `points`
//! equal-probability quantiles of N(q, σ²); a node keeps at most `max_support` points, merged
//! at equal-probability quantiles.
//!
//! Values and windows: a node's value is its combined distribution's p-value (the largest x
//! with P(V ≥ x) ≥ p). It raises alpha, and reaching beta is the seed's cut-off P(V ≥ β) ≥ p.
//! The best move is the child whose *own* distribution has the best p-value; a child can
//! raise the combined value without being best (a wide distribution lifts the maximum). As in
//! PVS, a child becomes the best move only when its value beats the alpha it was searched
//! against: the combined value raises that alpha above every child's own value, and a later
//! child's null-window search that lands at or below it is a bound (fail low), not its value.
//! High p ("Karpov") values a move by its pessimistic quantile, low p ("Tal") by its
//! optimistic one.
//!
//! The root chooses its move now: its distribution is its best child's own, not the
//! combination. Equation 1 models a choice made later, at a node below the root, once the
//! values have moved (the seed's "last responsible moment"); at the root the combination would
//! put the root's value, and so the aspiration window, above every move's own value, where
//! each move fails low and none is chosen.
//!
//! The search is the PVS node function with distributions: the same steps (draws, mate
//! distance, TT, move ordering with TT move, killers and history, check extension, LMR when
//! configured, null-window searches of later moves with a re-search inside the window) and
//! the same iterative deepening with aspiration windows at the root. With σ = 0 every
//! distribution is a point and it searches exactly the alpha-beta tree (a test holds it to
//! that, node for node).
//!
//! Choices the seed leaves open, written down here:
//! - Probabilistic alpha-beta replaces the node function; it is not a step of it. None of a
//!   variant's forward pruning (steps 5 to 13 and 14a) or singular extensions runs under it:
//!   the seed defines no distribution for a pruned node. LMR, the check extension and the
//!   variant's quiescence search do. `modern+prob-ab` is probabilistic alpha-beta with
//!   `modern`'s LMR, not `modern` with probabilistic alpha-beta added; at σ = 0 it searches
//!   `lmr`'s tree.
//! - The transposition table keeps a node's p-value (with its bound) and the standard
//!   deviation of its distribution in the evaluation slot; a TT cut-off returns the discretised
//!   normal with that spread and that p-value.
//! - A frontier's quiescence search runs in the node's window widened by the farthest point
//!   of N(0, σ²)'s discretisation, so a score outside it puts the whole distribution outside
//!   the window (fail-soft, as elsewhere).
//! - A cut-off or a null-window search leaves a child's distribution partial (fewer moves
//!   combined), as a fail-soft bound is partial in alpha-beta.
//! - Children are treated as independent (Equation 1), although siblings share most of their
//!   subtrees.

mod dist;

use cutlab_instrument::{Bound, CutOutcome, Method, NodeType, Observer};
use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use shakmaty::Move;

use crate::{
    config::{Apply, PresetPart},
    history::{PieceTo, TriedMoves},
    position::Position,
    score::{DRAW, INFINITE, MATE, is_mate},
    search::{
        Exit, Node, Probe, Search,
        alpha_beta::{ChildMove, mate_distance},
    },
    tt::{PackedMove, bound_of},
};

pub use dist::Dist;

/// Parameters of probabilistic alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProbAbParams {
    /// Confidence p in (0, 1).
    #[default(0.5)]
    pub confidence: f64,
    /// σ of a frontier node's distribution around its quiescence score, centipawns. Default
    /// 50: the residual σ of cutlab's (1,2) middlegame fit on its own suite (`cutlab fit
    /// samples.csv --pairs 1:2`), the spread between a shallow score and one ply deeper.
    #[default(50.0)]
    pub sigma: f64,
    /// Equal-probability points per leaf distribution.
    #[default(16)]
    pub points: usize,
    /// Maximum support points kept per node.
    #[default(48)]
    pub max_support: usize,
}

/// The preset part `prob-ab`; `prob-ab@P` sets the confidence, `prob-ab@P:SIGMA` the
/// confidence and the leaves' σ.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "prob-ab",
    describe: || {
        let params = ProbAbParams::default();
        format!(
            "probabilistic alpha-beta, p = {}, σ = {} cp; prob-ab@0.95 sets p (also \
             --confidence, UCI Confidence), prob-ab@0.5:15 sets p and σ",
            params.confidence, params.sigma
        )
    },
    apply: Apply::WithArgument("P or P:SIGMA", |config, argument| {
        let mut params = ProbAbParams::default();
        let Some(text) = argument else {
            config.prob_ab = Some(params);
            return Ok(());
        };
        let (p, sigma) = match text.split_once(':') {
            Some((p, sigma)) => (p, Some(sigma)),
            None => (text, None),
        };
        if let Some(sigma) = sigma {
            params.sigma = sigma
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("expected σ in centipawns, at least 0, got '{sigma}'"))?;
        }
        config.prob_ab = Some(params);
        let p = p
            .parse::<f64>()
            .map_err(|_| "expected prob-ab@P or prob-ab@P:SIGMA with P in (0, 1)".to_string())?;
        config.set_confidence(p).map_err(|e| e.0)
    }),
}];

/// What the move loop of a probabilistic node found.
#[derive(Debug)]
struct ProbMoves {
    /// The children's distributions combined by Equation 1; at the root, the best child's own
    /// distribution (`None`: no legal move).
    combined: Option<Dist>,
    /// Whether the node is the root, which chooses its move now.
    at_root: bool,
    /// The window's alpha for the next child: the node's alpha raised by its value so far.
    alpha: i32,
    /// The best move: the last child whose own value beat the alpha it was searched against.
    best_move: Option<Move>,
    /// Moves searched.
    searched: usize,
    /// Index of the move whose addition made P(V >= beta) >= p.
    cut_index: Option<u32>,
    /// Moves searched before the cut.
    tried: TriedMoves,
}

impl ProbMoves {
    /// The move loop of a node whose window starts at `alpha`.
    fn new(alpha: i32, at_root: bool) -> ProbMoves {
        ProbMoves {
            combined: None,
            at_root,
            alpha,
            best_move: None,
            searched: 0,
            cut_index: None,
            tried: TriedMoves::default(),
        }
    }

    /// Adds the distribution of a child searched against [`ProbMoves::alpha`], `mine` (from
    /// this node's side), and raises that alpha to the node's value: the combined
    /// distribution's at the confidence, which is returned with whether the child is the new
    /// best move. Only a child whose own value beats the alpha is: at or below it, a
    /// null-window search leaves a bound (PVS's fail low), whatever it compares with. A child
    /// can raise the node's value without being the best move.
    fn add(&mut self, m: Move, mine: Dist, params: &ProbAbParams) -> (bool, i32) {
        let p = params.confidence;
        self.searched += 1;
        let value = mine.value_at(p);
        let new_best = value > self.alpha;
        if new_best {
            self.best_move = Some(m);
        }
        let combined = match self.combined.take() {
            None => mine,
            Some(d) if self.at_root => {
                if value > d.value_at(p) {
                    mine
                } else {
                    d
                }
            }
            Some(d) => d.max(&mine).compress(params.max_support),
        };
        let node_value = combined.value_at(p);
        self.combined = Some(combined);
        self.alpha = self.alpha.max(node_value);
        (new_best, node_value)
    }
}

/// What every node of one probabilistic search shares: the parameters, and the leaf
/// distribution N(0, σ²) discretised once with its reach (a leaf is it shifted to its
/// quiescence score, which is exactly `Dist::normal(q, σ, points)`).
pub(crate) struct ProbContext {
    /// The parameters.
    pub params: ProbAbParams,
    leaf: Dist,
    leaf_reach: i32,
}

impl ProbContext {
    /// The context of a search with `params`.
    pub fn new(params: ProbAbParams) -> ProbContext {
        let leaf = Dist::normal(0, params.sigma, params.points);
        ProbContext {
            params,
            leaf_reach: leaf.reach(),
            leaf,
        }
    }
}

impl<O: Observer> Search<O> {
    /// A node of probabilistic alpha-beta: the distribution of its value. It mirrors the PVS
    /// node function step by step (no forward pruning), so that with σ = 0, where every
    /// distribution is a point, it searches exactly the alpha-beta tree.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's window, depth and identity"
    )]
    pub(crate) fn prob_search(
        &mut self,
        pos: &Position,
        [alpha, beta]: [i32; 2],
        depth: i32,
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
        ctx: &ProbContext,
    ) -> Dist {
        if depth <= 0 && !pos.in_check() {
            return self.prob_frontier(pos, [alpha, beta], ply, node_type, parent_id, ctx);
        }
        let p = ctx.params.confidence;

        // Step 1. Initialise node
        let mut node = self.begin_node(pos, parent_id, ply, depth.max(1), [alpha, beta], node_type);

        // Step 2. Draw and abort
        if let Some(exit) = self.draw_or_abort(pos, &node) {
            return Dist::point(self.leave(&node, exit));
        }

        // Step 3. Mate distance pruning
        if let Some(exit) = mate_distance(&mut node) {
            return Dist::point(self.leave(&node, exit));
        }

        // Step 4. Transposition-table probe: the stored value at the confidence and spread.
        if let Some(exit) = self.probe_tt(pos, &mut node) {
            let spread = node.tt.map_or(0, |h| h.eval);
            let value = self.leave(&node, exit);
            return Dist::with_value_at(value, p, f64::from(spread), ctx.params.points);
        }

        // Step 14. Move loop: combine the children's distributions (Equation 1).
        let Some(moves) = self.prob_moves(pos, &node, ctx) else {
            return Dist::point(self.leave(&node, Exit::aborted()));
        };

        // Step 15. Mate and stalemate
        let Some(dist) = moves.combined else {
            let value = if node.in_check {
                -MATE + i32::try_from(ply).unwrap_or(0)
            } else {
                DRAW
            };
            return Dist::point(self.leave(&node, Exit::exact(value)));
        };
        let value = dist.value_at(p);
        let cut = moves.cut_index.is_some();
        let outcome = CutOutcome::high_if(cut);
        let probe = Probe {
            shallow_depth: node.depth - 1,
            bound: node.beta,
            value,
            nodes: self.nodes - node.id,
        };
        self.record_test(pos, &node, Method::ProbAb, probe, outcome);

        // Step 16. Killers, history of the quiet moves and capture history
        if cut && let Some(m) = moves.best_move {
            self.reward_cut(pos, &node, m, &moves.tried);
        }

        // Step 17. Transposition-table store: the value at the confidence, and the spread
        // in the evaluation slot.
        // A cut is decided by the confidence, not by the value against beta.
        let bound = if cut {
            Bound::Lower
        } else {
            bound_of(value, node.alpha, INFINITE)
        };
        #[expect(clippy::cast_possible_truncation, reason = "rounded centipawns")]
        let spread = dist.std_dev().round().min(f64::from(i16::MAX)) as i32;
        self.tt.store(
            pos.key(),
            ply,
            moves.best_move.map_or(PackedMove::NONE, PackedMove::new),
            value,
            spread,
            node.depth,
            bound,
        );
        let exit = Exit {
            cut_by: cut.then_some(Method::ProbAb),
            cut_move_index: moves.cut_index,
            ..Exit::bounded(value, bound).with_move(moves.best_move)
        };
        self.leave(&node, exit);
        dist
    }

    /// Step 14: searches the moves as PVS does (first move with the window, later ones with
    /// a null window around alpha and again with the window when they land inside it) and
    /// combines their distributions. The node's value is the combined distribution's value at
    /// the confidence; it raises alpha, and reaching beta (P(V >= beta) >= p) cuts. The best
    /// move is the child whose own distribution is best at the confidence. `None` when the
    /// search was stopped.
    fn prob_moves(&mut self, pos: &Position, node: &Node, ctx: &ProbContext) -> Option<ProbMoves> {
        let killers = self.frames[node.ply_index()].killers;
        let mut picker = self.ordered_moves(node, killers);
        let mut moves = ProbMoves::new(node.alpha, node.ply == 0);
        while let Some((m, _)) = picker.next(pos, &self.history) {
            let index = moves.searched;
            self.frames[node.ply_index()].moved = Some(PieceTo::new(pos, m));
            let ChildMove {
                child,
                new_depth,
                reduction,
                ..
            } = self.child_move(pos, node, m, (&killers, index), None);
            self.keys.push(child.key());
            let mine = if index == 0 {
                let window = [-node.beta, -moves.alpha];
                let child_type = node.node_type.child(0);
                self.prob_search(
                    &child,
                    window,
                    new_depth,
                    node.ply + 1,
                    child_type,
                    node.id,
                    ctx,
                )
                .negate()
            } else {
                self.prob_zero_window_child(
                    &child,
                    node,
                    moves.alpha,
                    [new_depth, reduction],
                    index,
                    ctx,
                )
            };
            self.keys.pop();
            if self.aborted {
                return None;
            }
            let (new_best, node_value) = moves.add(m, mine, &ctx.params);
            if new_best && node.is_pv() {
                self.update_pv(node.ply_index(), m);
            }
            if node_value >= node.beta {
                // Confidence cut-off: P(V >= beta) >= p.
                moves.cut_index = Some(u32::try_from(index).unwrap_or(u32::MAX));
                break;
            }
            moves.tried.push(m);
        }
        Some(moves)
    }

    /// A later move of a probabilistic node, as PVS searches it; the child's distribution
    /// from this node's side.
    fn prob_zero_window_child(
        &mut self,
        child: &Position,
        node: &Node,
        alpha: i32,
        [new_depth, reduction]: [i32; 2],
        index: usize,
        ctx: &ProbContext,
    ) -> Dist {
        let p = ctx.params.confidence;
        let (ply, id) = (node.ply + 1, node.id);
        let child_type = node.node_type.child(index);
        let null_window = [-alpha - 1, -alpha];
        let mut mine = self
            .prob_search(
                child,
                null_window,
                new_depth - reduction,
                ply,
                child_type,
                id,
                ctx,
            )
            .negate();
        if reduction > 0 && mine.value_at(p) > alpha {
            mine = self
                .prob_search(child, null_window, new_depth, ply, child_type, id, ctx)
                .negate();
        }
        let value = mine.value_at(p);
        if node.is_pv() && value > alpha && value < node.beta {
            let window = [-node.beta, -alpha];
            mine = self
                .prob_search(child, window, new_depth, ply, NodeType::Pv, id, ctx)
                .negate();
        }
        mine
    }

    /// A frontier node: N(q, σ²) around its quiescence score q. The quiescence window is the
    /// node's widened by the farthest point of that distribution, so that a q outside it
    /// puts every point outside the node's window (with σ = 0, the node's own window).
    fn prob_frontier(
        &mut self,
        pos: &Position,
        [alpha, beta]: [i32; 2],
        ply: u32,
        node_type: NodeType,
        parent_id: u64,
        ctx: &ProbContext,
    ) -> Dist {
        let window = [
            alpha.saturating_sub(ctx.leaf_reach).max(-INFINITE),
            beta.saturating_add(ctx.leaf_reach).min(INFINITE),
        ];
        let q = self.quiescence(pos, window[0], window[1], ply, node_type, parent_id);
        if is_mate(q) {
            Dist::point(q)
        } else {
            ctx.leaf.shifted(q)
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Position as _, Square};

    use super::*;

    /// Four moves of the start position, to name children by.
    fn four_moves() -> [Move; 4] {
        let pos = Position::startpos();
        let legal = pos.chess().legal_moves();
        [Square::E4, Square::D4, Square::C4, Square::F4]
            .map(|to| *legal.iter().find(|m| m.to() == to).unwrap())
    }

    #[test]
    fn the_best_move_is_the_child_best_at_the_confidence() {
        let [a, b, ..] = four_moves();
        let params = ProbAbParams::default();
        let mut moves = ProbMoves::new(-50, false);
        // A: narrow around +100. B: its own median is +60, but its wide spread lifts the
        // median of the maximum of the two above A's.
        let (new_best, first) = moves.add(a, Dist::normal(100, 5.0, 16), &params);
        assert!(new_best);
        let (new_best, second) = moves.add(b, Dist::normal(60, 300.0, 16), &params);
        assert!(
            second > first,
            "B raises the combined value ({first} -> {second})"
        );
        assert!(!new_best);
        assert_eq!(moves.best_move, Some(a), "A is still the best move");
        assert_eq!(moves.alpha, second, "the node's value raises alpha");
    }

    #[test]
    fn a_child_at_or_below_the_raised_alpha_is_not_the_best_move() {
        let [a, b, c, d] = four_moves();
        let params = ProbAbParams::default();
        let mut moves = ProbMoves::new(-50, false);
        let (_, a_value) = moves.add(a, Dist::normal(100, 50.0, 16), &params);
        moves.add(b, Dist::normal(100, 50.0, 16), &params);
        // The combined value of two equal children lies above either child's own value; the
        // next child is searched in a null window there, and PVS reads a value at or below
        // that alpha as a bound (fail low), even one above the best child's own value.
        let alpha = moves.alpha;
        let bound = Dist::normal(alpha - 10, 50.0, 16);
        let value = bound.value_at(params.confidence);
        assert!(
            a_value < value && value <= alpha,
            "{a_value} < {value} <= {alpha}"
        );
        let (new_best, _) = moves.add(c, bound, &params);
        assert!(!new_best);
        assert_eq!(moves.best_move, Some(a));
        // Above the alpha it was searched against, a child's value is its own: the new best.
        let (new_best, _) = moves.add(d, Dist::normal(moves.alpha + 60, 5.0, 16), &params);
        assert!(new_best);
        assert_eq!(moves.best_move, Some(d));
    }

    #[test]
    fn the_root_takes_its_best_childs_own_distribution() {
        let [a, b, c, _] = four_moves();
        let params = ProbAbParams::default();
        let p = params.confidence;
        let (narrow, wide) = (Dist::normal(100, 5.0, 16), Dist::normal(60, 300.0, 16));
        let mut root = ProbMoves::new(-50, true);
        root.add(a, narrow.clone(), &params);
        let (new_best, value) = root.add(b, wide, &params);
        // Below the root, B would lift the value above A's (the test above); the root commits
        // to A, and its value is A's.
        assert!(!new_best);
        assert_eq!(value, narrow.value_at(p));
        assert_eq!(root.combined.as_ref(), Some(&narrow));
        // Every move failing low leaves the root at or below alpha (the aspiration widens),
        // however many moves there are.
        let mut root = ProbMoves::new(200, true);
        for m in [a, b, c].repeat(7) {
            let (new_best, value) = root.add(m, Dist::normal(150, 50.0, 16), &params);
            assert!(!new_best);
            assert!(value <= 200, "{value}");
        }
        assert_eq!(root.best_move, None);
    }
}
