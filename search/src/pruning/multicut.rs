//! Multi-Cut (Björnsson and Marsland 1998, 2001): at an expected CUT node, search the first M
//! moves to a reduced depth with a null window at beta; if C of them fail high, the node is
//! assumed to fail high and returns beta. Otherwise the normal search goes on, reusing the
//! transposition-table entries the reduced searches left.
//!
//! ```text
//! if (depth >= R && cut) {
//!     int c = 0;
//!     for (first M moves) {
//!         score = -zwSearch(1 - beta, depth - 1 - R, !cut);
//!         if (score >= beta && ++c == C) return beta;   // mc-prune
//!     }
//! }
//! ```
//!
//! Two variants: Winands et al. (2003, "Enhanced forward pruning") also apply the test at
//! expected ALL nodes, with their own M and C; Eiríksson (2011) applies it only when the
//! transposition table holds a lower bound at or above beta whose draft is too shallow to cut
//! by itself.
//!
//! Deviations from the sources, each a choice written down here:
//! - `min_depth` 4 instead of the pseudo-code's `depth >= R` (2): below it the test searches
//!   would be quiescence searches (depth - 1 - R <= 0), which say little about a move.
//! - The test searches are PVS null-window searches of this engine, with its null move; the
//!   pseudo-code's `zwSearch` has no other pruning.
//! - The TT trigger (Eiríksson) counts an entry of any shallower draft, quiescence entries
//!   (draft 0) included; a stricter trigger would ask for a draft >= 1.
//! - A node cut by Multi-Cut returns beta (fail hard), as in the pseudo-code, although the rest
//!   of the search is fail-soft; nothing is stored in the TT for it.
//!
//! Its events carry the name of the rule that ran them (`multicut`, `multicut-all`,
//! `multicut-tt`), the one name of the preset part, so that `cutlab ablate` finds a part's
//! tests by its name; under `multicut-all` the tests at CUT nodes and at ALL nodes are told
//! apart by their `node_type` column, which every cut table breaks down by.

use cutlab_instrument::{Bound, CutOutcome, Method, NodeType, Observer};
use serde::{Deserialize, Serialize};

use crate::{
    config::{Apply, PresetPart, SearchConfig},
    history::PieceTo,
    position::Position,
    score::{INFINITE, is_mate},
    search::{Exit, Node, Search, Shallow},
};

/// Where Multi-Cut is tried: one rule per preset part, under the part's name (the earlier
/// names `cut-nodes`, `cut-and-all-nodes` and `tt-lower-bound` are read as aliases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// `multicut`: at expected CUT nodes (Björnsson and Marsland).
    #[serde(rename = "multicut", alias = "cut-nodes")]
    MultiCut,
    /// `multicut-all`: at expected CUT nodes and, with `all_m` and `all_c`, at expected ALL
    /// nodes (Winands).
    #[serde(rename = "multicut-all", alias = "cut-and-all-nodes")]
    MultiCutAll,
    /// `multicut-tt`: at non-PV nodes whose TT entry is a lower bound >= beta with too shallow
    /// a draft (Eiríksson).
    #[serde(rename = "multicut-tt", alias = "tt-lower-bound")]
    MultiCutTt,
}

/// Parameters of Multi-Cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MultiCutParams {
    /// Moves searched at most, M.
    pub m: usize,
    /// Fail highs needed to cut, C (C > M disables the cut).
    pub c: usize,
    /// Depth reduction of the test searches, R (they search depth - 1 - R).
    pub r: i32,
    /// Minimum depth for a test.
    pub min_depth: i32,
    /// M at expected ALL nodes (Winands).
    pub all_m: usize,
    /// C at expected ALL nodes (Winands).
    pub all_c: usize,
    /// Where the test is tried.
    pub trigger: Trigger,
}

impl MultiCutParams {
    /// Björnsson and Marsland's defaults: M = 6, C = 3, R = 2, at expected CUT nodes.
    #[must_use]
    pub const fn cut_nodes() -> MultiCutParams {
        MultiCutParams {
            m: 6,
            c: 3,
            r: 2,
            min_depth: 4,
            all_m: 10,
            all_c: 3,
            trigger: Trigger::MultiCut,
        }
    }

    /// Winands et al.: also at ALL nodes (M = 10, C = 3 there).
    #[must_use]
    pub const fn all_nodes() -> MultiCutParams {
        MultiCutParams {
            trigger: Trigger::MultiCutAll,
            ..MultiCutParams::cut_nodes()
        }
    }

    /// Eiríksson: only on a shallow TT lower bound at or above beta.
    #[must_use]
    pub const fn tt_triggered() -> MultiCutParams {
        MultiCutParams {
            trigger: Trigger::MultiCutTt,
            ..MultiCutParams::cut_nodes()
        }
    }
}

/// The Multi-Cut preset parts, one rule each (a variant names one at most).
pub const PRESET_PARTS: [PresetPart; 3] = [
    PresetPart {
        name: "multicut",
        describe: || {
            let p = MultiCutParams::cut_nodes();
            format!(
                "Multi-Cut at expected CUT nodes, M = {}, C = {}, R = {} (Bjornsson and Marsland)",
                p.m, p.c, p.r
            )
        },
        apply: Apply::Checked(|config| set_rule(config, MultiCutParams::cut_nodes())),
    },
    PresetPart {
        name: "multicut-all",
        describe: || {
            let p = MultiCutParams::all_nodes();
            format!(
                "Multi-Cut also at expected ALL nodes, M = {}, C = {} there (Winands et al.)",
                p.all_m, p.all_c
            )
        },
        apply: Apply::Checked(|config| set_rule(config, MultiCutParams::all_nodes())),
    },
    PresetPart {
        name: "multicut-tt",
        describe: || "Multi-Cut when the TT has a shallow lower bound >= beta (Eiriksson)".into(),
        apply: Apply::Checked(|config| set_rule(config, MultiCutParams::tt_triggered())),
    },
];

fn set_rule(config: &mut SearchConfig, params: MultiCutParams) -> Result<(), String> {
    if config.multicut.is_some() {
        return Err("names two Multi-Cut rules".into());
    }
    config.multicut = Some(params);
    Ok(())
}

impl<O: Observer> Search<O> {
    /// Step 11: Multi-Cut at a non-PV node not in check, where its trigger holds.
    pub(crate) fn try_multicut(&mut self, pos: &Position, node: &Node) -> Option<Exit> {
        let params = self.config.multicut?;
        if node.is_pv()
            || node.excluded.is_some()
            || node.in_check
            || node.depth < params.min_depth
            || is_mate(node.beta)
        {
            return None;
        }
        let shallow_tt_bound = node.tt.is_some_and(|h| {
            matches!(h.bound, Bound::Lower | Bound::Exact)
                && h.score >= node.beta
                && h.depth < node.depth
        });
        let (m, c, method) = match (params.trigger, node.node_type) {
            (Trigger::MultiCut, NodeType::Cut) => (params.m, params.c, Method::MultiCut),
            (Trigger::MultiCutAll, NodeType::Cut) => (params.m, params.c, Method::MultiCutAll),
            (Trigger::MultiCutAll, NodeType::All) => {
                (params.all_m, params.all_c, Method::MultiCutAll)
            }
            (Trigger::MultiCutTt, _) if shallow_tt_bound => {
                (params.m, params.c, Method::MultiCutTt)
            }
            _ => return None,
        };
        if c > m || c == 0 {
            return None;
        }
        let shallow_depth = node.depth - 1 - params.r;
        let mut picker = self.ordered_moves(node, self.frames[node.ply_index()].killers);
        let (mut tried, mut fail_highs, mut best, mut nodes) = (0, 0, -INFINITE, 0);
        while tried < m
            && let Some((mv, _)) = picker.next(pos, &self.history)
        {
            let child = pos.play(mv);
            let to_child = (Some(PieceTo::new(pos, mv)), child.key());
            let Some(shallow) = self.test_search_child(node, to_child, |s| {
                -s.search(
                    &child,
                    -node.beta,
                    -node.beta + 1,
                    shallow_depth,
                    node.ply + 1,
                    node.node_type.child(tried),
                    node.id,
                )
            }) else {
                return Some(Exit::aborted());
            };
            let value = shallow.value;
            nodes += shallow.nodes;
            best = best.max(value);
            tried += 1;
            if value >= node.beta {
                fail_highs += 1;
                if fail_highs == c {
                    break;
                }
            }
        }
        let cut = fail_highs >= c;
        let outcome = CutOutcome::high_if(cut);
        let probe = Shallow { value: best, nodes }.probe(shallow_depth, node.beta);
        self.record_test(pos, node, method, probe, outcome);
        cut.then(|| Exit::cut(method, node.beta, Bound::Lower))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        SearchConfig,
        tt::{PackedMove, TtHit},
    };

    /// Where each rule tries the test, as its source says: Björnsson and Marsland at expected
    /// CUT nodes, Winands et al. at CUT and ALL nodes, Eiríksson where the TT holds a lower
    /// bound >= beta too shallow to cut; never at a PV node, in check or below `min_depth`.
    #[test]
    fn each_rule_tries_where_its_source_says() {
        let pos = Position::startpos();
        let shallow_lower = TtHit {
            mv: PackedMove::NONE,
            score: 50,
            eval: 0,
            depth: 2,
            bound: Bound::Lower,
        };
        for (preset, method) in [
            ("multicut", Method::MultiCut),
            ("multicut-all", Method::MultiCutAll),
            ("multicut-tt", Method::MultiCutTt),
        ] {
            let mut search = Search::new(SearchConfig::preset(preset).unwrap(), 1).unwrap();
            search.keys.push(pos.key());
            for node_type in [NodeType::Pv, NodeType::Cut, NodeType::All] {
                for depth in [3, 4, 6] {
                    for (in_check, tt) in
                        [(false, None), (true, None), (false, Some(shallow_lower))]
                    {
                        let node = Node {
                            in_check,
                            tt,
                            ..Node::test(node_type, depth, [-1, 0], 0)
                        };
                        let trigger = match method {
                            Method::MultiCut => node_type == NodeType::Cut,
                            Method::MultiCutAll => node_type != NodeType::Pv,
                            _ => tt.is_some(),
                        };
                        let expected =
                            trigger && node_type != NodeType::Pv && !in_check && depth >= 4;
                        let before = search.cuts.tries[method.index()];
                        search.try_multicut(&pos, &node);
                        let tried = search.cuts.tries[method.index()] > before;
                        assert_eq!(tried, expected, "{preset} {node_type:?} {depth} {in_check}");
                    }
                }
            }
        }
        let all = MultiCutParams::all_nodes();
        assert_eq!(
            (all.m, all.c, all.r, all.all_m, all.all_c),
            (6, 3, 2, 10, 3)
        );
    }
}
