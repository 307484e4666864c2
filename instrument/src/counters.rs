//! Counters of forward-pruning tests per method × node depth × expected node type: tries,
//! cuts and the nodes the tests themselves searched. Reads cut-test events only, so the
//! search builds no node events for it.

use std::{collections::BTreeMap, fmt::Write as _, ops::AddAssign};

use serde::Serialize;

use crate::{CutTestEvent, Method, NodeType, Observer};

/// Tallies of one (method, depth, node type) cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Tests tried.
    pub tries: u64,
    /// Nodes at which the method was tried (one or more tests).
    pub nodes_tried: u64,
    /// Tests that cut.
    pub cuts: u64,
    /// Nodes searched by the tests.
    pub nodes: u64,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.tries += other.tries;
        self.nodes_tried += other.nodes_tried;
        self.cuts += other.cuts;
        self.nodes += other.nodes;
    }
}

/// Depths counted in their own cell; deeper tests share the last one.
const DEPTHS: usize = 64;

/// Per method × depth × node type tallies, in a flat array (no allocation per event).
#[derive(Clone, Debug)]
pub struct Counters {
    cells: Vec<Tally>,
}

impl Default for Counters {
    fn default() -> Self {
        Counters {
            cells: vec![Tally::default(); Method::COUNT * DEPTHS * 3],
        }
    }
}

fn cell_index(method: Method, depth: i32, node_type: u8) -> usize {
    let depth = usize::try_from(depth.clamp(0, DEPTHS as i32 - 1)).unwrap_or(0);
    (method.index() * DEPTHS + depth) * 3 + usize::from(node_type)
}

fn type_key(node_type: NodeType) -> u8 {
    match node_type {
        NodeType::Pv => 0,
        NodeType::Cut => 1,
        NodeType::All => 2,
    }
}

const TYPES: [NodeType; 3] = [NodeType::Pv, NodeType::Cut, NodeType::All];

impl Observer for Counters {
    const NODE_EVENTS: bool = false;

    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        let cell =
            &mut self.cells[cell_index(event.method, event.depth, type_key(event.node_type))];
        cell.tries += 1;
        cell.nodes_tried += u64::from(event.test_index == 0);
        cell.cuts += u64::from(event.outcome.is_cut());
        cell.nodes += event.nodes;
    }
}

impl Counters {
    /// Every non-empty cell: (method, depth, node type, tally), ordered.
    pub fn cells(&self) -> impl Iterator<Item = (Method, i32, NodeType, Tally)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, t)| t.tries > 0)
            .map(|(i, &tally)| {
                let method = Method::ALL[i / (DEPTHS * 3)];
                let depth = i32::try_from(i / 3 % DEPTHS).unwrap_or(0);
                (method, depth, TYPES[i % 3], tally)
            })
    }

    /// Totals per method.
    #[must_use]
    pub fn by_method(&self) -> BTreeMap<Method, Tally> {
        let mut totals: BTreeMap<Method, Tally> = BTreeMap::new();
        for (m, _, _, t) in self.cells() {
            *totals.entry(m).or_default() += t;
        }
        totals
    }

    /// Adds another set of counters into this one.
    pub fn merge(&mut self, other: &Counters) {
        for (cell, &t) in self.cells.iter_mut().zip(&other.cells) {
            *cell += t;
        }
    }

    /// A summary table: one line per method with totals, then per depth and node type. The
    /// rate is in the method's unit ([`Method::rate_unit`]): cut nodes per node tried for a
    /// node-level method (`cuts / nodes`, which compares across methods), pruned moves per
    /// move considered for a move-level one (`cuts / tests`: a test per move); tests per node
    /// and nodes per test show what a try costs.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>4} {:>10} {:>10} {:>10} {:>7} {:>12} {:>10}  unit",
            "method", "depth", "type", "nodes", "tests", "cuts", "rate", "test_nodes", "nodes/test"
        );
        let line = |out: &mut String, m: Method, name: &str, d: &str, ty: &str, t: Tally| {
            let denominator = if m.prunes_moves() {
                t.tries
            } else {
                t.nodes_tried
            };
            #[expect(clippy::cast_precision_loss, reason = "ratios for display")]
            let (rate, per) = (
                100.0 * t.cuts as f64 / denominator.max(1) as f64,
                t.nodes as f64 / t.tries.max(1) as f64,
            );
            let _ = writeln!(
                out,
                "{name:<20} {d:>6} {ty:>4} {:>10} {:>10} {:>10} {rate:>6.1}% {:>12} {per:>10.1}  {}",
                t.nodes_tried,
                t.tries,
                t.cuts,
                t.nodes,
                m.rate_unit()
            );
        };
        for (m, total) in self.by_method() {
            line(&mut out, m, m.name(), "all", "all", total);
            for (cm, d, ty, t) in self.cells() {
                if cm == m {
                    line(&mut out, m, "", &d.to_string(), ty.name(), t);
                }
            }
        }
        if self.cells().next().is_none() {
            out.push_str("(no forward-pruning tests)\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CutOutcome;

    fn test_event(method: Method, depth: i32, node_type: NodeType, cut: bool) -> CutTestEvent {
        CutTestEvent {
            node_id: 1,
            ply: 2,
            node_type,
            alpha: 0,
            beta: 1,
            method,
            depth,
            shallow_depth: depth - 3,
            bound: 1,
            shallow_value: 5,
            outcome: if cut {
                CutOutcome::CutHigh
            } else {
                CutOutcome::NoCut
            },
            nodes: 10,
            pruned_move: None,
            test_index: 0,
        }
    }

    #[test]
    fn counts_per_cell_and_method() {
        let mut c = Counters::default();
        let fen = || String::new();
        c.cut_test(&test_event(Method::NullMove, 5, NodeType::Cut, true), &fen);
        c.cut_test(&test_event(Method::NullMove, 5, NodeType::Cut, false), &fen);
        c.cut_test(&test_event(Method::NullMove, 6, NodeType::All, true), &fen);
        let second = CutTestEvent {
            test_index: 1,
            ..test_event(Method::NullMove, 6, NodeType::All, false)
        };
        c.cut_test(&second, &fen);
        let total = c.by_method()[&Method::NullMove];
        assert_eq!((total.tries, total.cuts, total.nodes), (4, 2, 40));
        assert_eq!(
            total.nodes_tried, 3,
            "the second test at a node is not a new node"
        );
        let cells: Vec<_> = c.cells().collect();
        assert_eq!(cells.len(), 2);
        assert_eq!(cells[0].3.tries, 2);
        assert!(c.summary().contains("null-move"));
    }

    /// A move-level method's rate is pruned moves per move considered: 2 of 3 moves at one node
    /// read 66.7%, not 200% of the one node.
    #[test]
    fn move_pruning_is_counted_per_move() {
        let mut c = Counters::default();
        let fen = || String::new();
        for (i, pruned) in [false, true, true].into_iter().enumerate() {
            let event = CutTestEvent {
                test_index: u32::try_from(i).unwrap(),
                outcome: if pruned {
                    CutOutcome::PruneMove
                } else {
                    CutOutcome::NoCut
                },
                ..test_event(Method::Lmp, 3, NodeType::All, false)
            };
            c.cut_test(&event, &fen);
        }
        let summary = c.summary();
        let total = summary.lines().find(|l| l.starts_with("lmp")).unwrap();
        assert!(total.contains("66.7%"), "{total}");
        assert!(
            total.ends_with("pruned moves / moves considered"),
            "{total}"
        );
    }
}
