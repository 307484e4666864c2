//! Multi-ProbCut (Buro 1997; chess: Jiang and Buro 2003, figure 3 and section 4): a table of
//! ProbCut tests per game stage and deep depth (the paper's check height), several depth
//! pairs, tried in order. The shallow searches are plain alpha-beta with null move: no ProbCut
//! inside them (the MPC function is not recursive, to avoid collapsing the search depth).
//!
//! ```text
//! if (height <= MAX_HEIGHT)
//!     for (i = 0; i < NUM_TRY; i++) {
//!         Param &pa = param[stage][height][i];
//!         if (pa.d < 0) break;
//!         bound = round((pa.t * pa.s + beta - pa.b) / pa.a);
//!         if (AlphaBeta(bound - 1, bound, pa.d) >= bound) return beta;
//!         bound = round((-pa.t * pa.s + alpha - pa.b) / pa.a);
//!         if (AlphaBeta(bound, bound + 1, pa.d) <= bound) return alpha;
//!     }
//! ```
//!
//! Internal iterative deepening of the shallow searches (an option here): the shallow search
//! of depth d' is preceded by searches of depth 1 .. d'-1, which fill the transposition table
//! with move ordering for it.

use cutlab_instrument::{Method, Observer, Stage};
use serde::{Deserialize, Serialize};

use super::probcut::{CutTry, parse_thresholds};
use crate::{
    config::{Apply, PresetPart},
    position::Position,
    search::{Exit, Node, Search},
};

/// The tests at one deep depth of one stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeepTries {
    /// The deep depth d (the papers' check height), the depth of the nodes tested.
    #[serde(alias = "height")]
    pub deep_depth: i32,
    /// Tests tried in order.
    pub tries: Vec<CutTry>,
}

/// Parameters of Multi-ProbCut.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MpcParams {
    /// Tests per deep depth in the middlegame.
    pub middlegame: Vec<DeepTries>,
    /// Tests per deep depth in the endgame.
    pub endgame: Vec<DeepTries>,
    /// Internal iterative deepening of the shallow searches.
    pub iid: bool,
}

/// The depth pairs of the paper's MPC-Crafty: (2,6), (3,7), (4,8), (3,9), (4,10).
pub const PAPER_PAIRS: [(i32, i32); 5] = [(2, 6), (3, 7), (4, 8), (3, 9), (4, 10)];

impl MpcParams {
    /// The tests for a stage and deep depth (empty when none).
    #[must_use]
    pub fn tries(&self, stage: Stage, deep_depth: i32) -> &[CutTry] {
        let table = match stage {
            Stage::Middlegame => &self.middlegame,
            Stage::Endgame => &self.endgame,
        };
        table
            .iter()
            .find(|h| h.deep_depth == deep_depth)
            .map_or(&[], |h| h.tries.as_slice())
    }

    /// The paper's pairs with thresholds 1.0 (middlegame) and 1.0 (endgame), and models from
    /// [`crate::fit_params::DEFAULT`]. (1.0, 1.0) is one of the two threshold pairs the paper's
    /// text names as its best and plays against Yace (Table 4); its own tables do not single it
    /// out: Table 3 gives tmid 1.0 57.8% where 0.9 and 1.2 score 59.4%, and Table 2's best
    /// endgame threshold is 0.6 (59.3%), 64-game tournaments whose fluctuations the text
    /// notes.
    #[must_use]
    pub fn paper() -> MpcParams {
        let table = |stage: Stage| {
            PAPER_PAIRS
                .iter()
                .map(|&(shallow, deep)| DeepTries {
                    deep_depth: deep,
                    tries: vec![CutTry {
                        shallow_depth: shallow,
                        threshold: 1.0,
                        model: crate::fit_params::default_model(shallow, deep, stage),
                    }],
                })
                .collect()
        };
        MpcParams {
            middlegame: table(Stage::Middlegame),
            endgame: table(Stage::Endgame),
            iid: false,
        }
    }

    /// Sets the threshold of every test of a stage.
    pub fn set_threshold(&mut self, stage: Stage, t: f64) {
        let table = match stage {
            Stage::Middlegame => &mut self.middlegame,
            Stage::Endgame => &mut self.endgame,
        };
        table
            .iter_mut()
            .flat_map(|h| h.tries.iter_mut())
            .for_each(|c| c.threshold = t);
    }
}

/// The preset part `mpc`; `mpc@TMID:TEND` sets the thresholds per stage.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "mpc",
    describe: || {
        let pairs: Vec<String> = PAPER_PAIRS
            .iter()
            .map(|(s, d)| format!("({s},{d})"))
            .collect();
        format!(
            "Multi-ProbCut, pairs {}, t = 1.0 (Jiang and Buro); mpc@TMID:TEND sets t",
            pairs.join(" ")
        )
    },
    apply: Apply::WithArgument("T or TMID:TEND", |config, argument| {
        if config.probcut.is_some() || config.mpc.is_some() {
            return Err("names two ProbCut methods".into());
        }
        let mut m = MpcParams::paper();
        if let Some(text) = argument {
            let (mid, end) = parse_thresholds(text)?;
            m.set_threshold(Stage::Middlegame, mid);
            m.set_threshold(Stage::Endgame, end);
        }
        config.mpc = Some(m);
        Ok(())
    }),
}];

impl<O: Observer> Search<O> {
    /// Step 8: the Multi-ProbCut tests of the node's stage and deep depth, in order (not at the
    /// root, not inside another ProbCut or MPC shallow search).
    pub(crate) fn try_mpc(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.mpc.as_ref()?;
        if node.is_root() || node.excluded.is_some() || self.in_probcut > 0 {
            return None;
        }
        let iid = params.iid;
        let tries = params.tries(pos.stage(), node.depth).to_vec();
        tries
            .iter()
            .find_map(|cut_try| self.probcut_test(pos, node, cut_try, Method::Mpc, iid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_table_has_one_try_per_deep_depth() {
        let p = MpcParams::paper();
        assert_eq!(p.tries(Stage::Middlegame, 8).len(), 1);
        assert_eq!(p.tries(Stage::Middlegame, 8)[0].shallow_depth, 4);
        assert_eq!(p.tries(Stage::Endgame, 9)[0].shallow_depth, 3);
        assert!(p.tries(Stage::Middlegame, 5).is_empty());
    }
}
