//! ProbCut (Buro 1995) as Jiang and Buro (2003, figure 2) applied it to chess: at check height
//! H (the deep depth, `deep_depth`) a null-window shallow search of depth S predicts the deep
//! value through the linear model v = a·v' + b + e, e ~ N(0, σ²), and the node is cut when the
//! prediction is outside the window with confidence set by the threshold t.
//!
//! ```text
//! if (height == H) {
//!     bound = round((T * sigma + beta - b) / a);       // is v >= beta likely?
//!     if (AlphaBeta(bound - 1, bound, S) >= bound) return beta;
//!     bound = round((-T * sigma + alpha - b) / a);     // is v <= alpha likely?
//!     if (AlphaBeta(bound, bound + 1, S) <= bound) return alpha;
//! }
//! ```
//!
//! Parameters differ per game stage (middlegame, endgame), as in the paper's Crafty version.
//! The test runs in front of null-move pruning, as Jiang and Buro placed it.

use cutlab_instrument::{Bound, CutOutcome, Method, NodeType, Observer, Stage};
use serde::{Deserialize, Serialize};

use crate::{
    config::{Apply, PresetPart},
    position::Position,
    score::{MATE_BOUND, is_mate},
    search::{Exit, Node, Search, Shallow},
};

/// The linear model v = a·v' + b + e with error standard deviation σ (centipawns).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LinearModel {
    /// Slope a.
    pub a: f64,
    /// Offset b, centipawns.
    pub b: f64,
    /// Standard deviation σ of the error, centipawns.
    pub sigma: f64,
}

impl LinearModel {
    /// Shallow-search bound that predicts v >= beta with threshold `t`:
    /// round((t·σ + β - b) / a).
    #[must_use]
    pub fn high_bound(&self, t: f64, beta: i32) -> i32 {
        round((t * self.sigma + f64::from(beta) - self.b) / self.a)
    }

    /// Shallow-search bound that predicts v <= alpha with threshold `t`:
    /// round((-t·σ + α - b) / a).
    #[must_use]
    pub fn low_bound(&self, t: f64, alpha: i32) -> i32 {
        round((-t * self.sigma + f64::from(alpha) - self.b) / self.a)
    }
}

/// Rounds to the nearest integer, saturating (an infinite threshold gives an unreachable bound).
#[expect(clippy::cast_possible_truncation, reason = "saturating by design")]
fn round(x: f64) -> i32 {
    x.round().clamp(-1e9, 1e9) as i32
}

/// One ProbCut test: a depth pair, a threshold and a model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CutTry {
    /// Depth of the shallow search, S (d').
    pub shallow_depth: i32,
    /// Cut threshold t (in standard deviations).
    pub threshold: f64,
    /// Model of the (shallow, deep) depth pair.
    pub model: LinearModel,
}

/// Parameters of single-pair ProbCut, one test per stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProbCutParams {
    /// The deep depth d (the papers' check height H), the depth of the nodes tested.
    #[serde(alias = "check-height")]
    pub deep_depth: i32,
    /// The test in the middlegame.
    pub middlegame: CutTry,
    /// The test in the endgame.
    pub endgame: CutTry,
}

impl ProbCutParams {
    /// The test for a stage.
    #[must_use]
    pub fn for_stage(&self, stage: Stage) -> &CutTry {
        match stage {
            Stage::Middlegame => &self.middlegame,
            Stage::Endgame => &self.endgame,
        }
    }

    /// Depth pair (4, 8) with threshold 1.0, models from [`crate::fit_params::DEFAULT`].
    #[must_use]
    pub fn paper() -> ProbCutParams {
        let model = |stage| crate::fit_params::default_model(4, 8, stage);
        ProbCutParams {
            deep_depth: 8,
            middlegame: CutTry {
                shallow_depth: 4,
                threshold: 1.0,
                model: model(Stage::Middlegame),
            },
            endgame: CutTry {
                shallow_depth: 4,
                threshold: 1.0,
                model: model(Stage::Endgame),
            },
        }
    }
}

/// The preset part `probcut`; `probcut@T` sets the threshold of both stages.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "probcut",
    describe: || {
        let p = ProbCutParams::paper();
        format!(
            "ProbCut, depth pair ({},{}), t = {:.1} (Jiang and Buro figure 2); probcut@T sets t",
            p.middlegame.shallow_depth, p.deep_depth, p.middlegame.threshold
        )
    },
    apply: Apply::WithArgument("T", |config, argument| {
        if config.probcut.is_some() || config.mpc.is_some() {
            return Err("names two ProbCut methods".into());
        }
        let mut p = ProbCutParams::paper();
        if let Some(text) = argument {
            (p.middlegame.threshold, p.endgame.threshold) = parse_thresholds(text)?;
        }
        config.probcut = Some(p);
        Ok(())
    }),
}];

/// The cut thresholds of `probcut@T` or `mpc@TMID:TEND` (one value sets both stages).
pub(crate) fn parse_thresholds(text: &str) -> Result<(f64, f64), String> {
    let bad = || "expected a threshold T or TMID:TEND, each a positive finite number".to_string();
    // An infinite t (`mpc@inf:1`) would never cut: a typo, not a threshold.
    let one = |t: &str| {
        t.parse::<f64>()
            .ok()
            .filter(|t| t.is_finite() && *t > 0.0)
            .ok_or_else(bad)
    };
    match text.split_once(':') {
        Some((mid, end)) => Ok((one(mid)?, one(end)?)),
        None => one(text).map(|t| (t, t)),
    }
}

impl<O: Observer> Search<O> {
    /// Step 8: single-pair ProbCut at the deep depth (not at the root, not inside another
    /// ProbCut or MPC shallow search).
    pub(crate) fn try_probcut(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.probcut.as_ref()?;
        if node.is_root()
            || node.excluded.is_some()
            || self.in_probcut > 0
            || node.depth != params.deep_depth
        {
            return None;
        }
        let cut_try = *params.for_stage(pos.stage());
        self.probcut_test(pos, node, &cut_try, Method::ProbCut, false)
    }

    /// One ProbCut try at `node`, high then low (Jiang and Buro, figures 2 and 3), shared with
    /// Multi-ProbCut. A bound beyond every score (an infinite threshold) skips the shallow
    /// search, so such a test leaves the tree unchanged.
    pub(crate) fn probcut_test(
        &mut self,
        pos: &Position,
        node: &Node,
        cut_try: &CutTry,
        method: Method,
        iid: bool,
    ) -> Option<Exit> {
        let (t, d) = (cut_try.threshold, cut_try.shallow_depth);
        // Is v >= beta likely? AlphaBeta(bound - 1, bound, S) >= bound
        let high = cut_try.model.high_bound(t, node.beta);
        if !is_mate(node.beta) && high.abs() < MATE_BOUND {
            let window = [high - 1, high];
            let Some(shallow) = self.shallow_search(pos, node, window, NodeType::Cut, d, iid)
            else {
                return Some(Exit::aborted());
            };
            let cut = shallow.value >= high;
            let outcome = CutOutcome::high_if(cut);
            let probe = shallow.probe(d, high);
            self.record_test(pos, node, method, probe, outcome);
            if cut {
                return Some(Exit::cut(method, node.beta, Bound::Lower));
            }
        }
        // Is v <= alpha likely? AlphaBeta(bound, bound + 1, S) <= bound
        let low = cut_try.model.low_bound(t, node.alpha);
        if !is_mate(node.alpha) && low.abs() < MATE_BOUND {
            let window = [low, low + 1];
            let Some(shallow) = self.shallow_search(pos, node, window, NodeType::All, d, iid)
            else {
                return Some(Exit::aborted());
            };
            let cut = shallow.value <= low;
            let outcome = CutOutcome::low_if(cut);
            let probe = shallow.probe(d, low);
            self.record_test(pos, node, method, probe, outcome);
            if cut {
                return Some(Exit::cut(method, node.alpha, Bound::Upper));
            }
        }
        None
    }

    /// A null-window search of `node`'s position at a shallow depth, with no ProbCut inside;
    /// with `iid`, preceded by the shallower depths. `None` when the search was stopped.
    ///
    /// It is a null-window search of a non-PV node whatever the node's own type: an expected
    /// CUT node for the high test (is v >= bound?), an expected ALL node for the low one. It
    /// runs at the node's own ply, so it saves and restores the node's frame (killers, static
    /// evaluation, null-move verification) and leaves its PV empty: the node goes on as if the
    /// test had not run.
    fn shallow_search(
        &mut self,
        pos: &Position,
        node: &Node,
        [alpha, beta]: [i32; 2],
        node_type: NodeType,
        depth: i32,
        iid: bool,
    ) -> Option<Shallow> {
        self.test_search_here(node, |s| {
            s.in_probcut += 1;
            let first = if iid { 1 } else { depth };
            let mut value = 0;
            for d in first..=depth {
                value = s.search(pos, alpha, beta, d, node.ply, node_type, node.id);
            }
            s.in_probcut -= 1;
            value
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchConfig, search::Frame, tt::PackedMove};

    #[test]
    fn a_shallow_search_leaves_the_node_as_it_found_it() {
        let mut search = Search::new(SearchConfig::preset("null-move").unwrap(), 1).unwrap();
        let pos = Position::startpos();
        search.keys.push(pos.key());
        let frame = Frame {
            killers: [PackedMove::NONE; 2],
            static_eval: 17,
            verify_children: true,
            tests: [0; Method::COUNT],
            moved: None,
        };
        search.frames[1] = frame;
        let node = Node {
            ply: 1,
            ..Node::test(NodeType::Cut, 8, [-1001, -1000], 17)
        };
        // sigma 0: the bound is beta itself, far below the start position's value, so the
        // shallow search fails high on a quiet move (a killer at this ply).
        let cut_try = CutTry {
            shallow_depth: 3,
            threshold: 1.0,
            model: LinearModel {
                a: 1.0,
                b: 0.0,
                sigma: 0.0,
            },
        };
        let exit = search.probcut_test(&pos, &node, &cut_try, Method::ProbCut, false);
        assert!(exit.is_some_and(|e| e.cut_by == Some(Method::ProbCut)));
        // As it was, but for the count of ProbCut's tests at the node.
        let mut expected = frame;
        expected.tests[Method::ProbCut.index()] = 1;
        assert_eq!(search.frames[1], expected);
        assert_eq!(search.pv_len[1], 0);
    }

    #[test]
    fn thresholds_are_positive_finite_numbers() {
        assert_eq!(parse_thresholds("1.5"), Ok((1.5, 1.5)));
        assert_eq!(parse_thresholds("1:2"), Ok((1.0, 2.0)));
        for bad in ["inf:1", "1:NaN", "0", "-1", "x", "1:"] {
            assert!(parse_thresholds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_follow_the_paper_formula() {
        // Table 1, (4,8) middlegame: a = 1.02, b = 2.36, sigma = 82.
        let m = LinearModel {
            a: 1.02,
            b: 2.36,
            sigma: 82.0,
        };
        assert_eq!(
            m.high_bound(1.0, 50),
            ((82.0 + 50.0 - 2.36) / 1.02_f64).round() as i32
        );
        assert_eq!(
            m.low_bound(1.0, -50),
            ((-82.0 - 50.0 - 2.36) / 1.02_f64).round() as i32
        );
        assert_eq!(m.high_bound(f64::INFINITY, 0), 1_000_000_000);
    }
}
