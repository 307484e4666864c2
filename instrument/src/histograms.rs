//! hdrhistogram distributions: nodes per cut test (per method), |v - v'| between a node's
//! value and the shallow value of a test that did not cut (per method and depth pair; only
//! for methods whose v' is a search value, [`Method::tests_with_search_value`]; a pair with a
//! mate score on either side is counted apart, since its gap measures the mate's distance,
//! not an error of the shallow search), and time to reach each depth.

use std::{collections::BTreeMap, fmt::Write as _};

use hdrhistogram::Histogram;

use crate::{CutTestEvent, IterationEvent, Method, NodeEvent, NodeExitEvent, Observer};

/// Scores at or beyond this magnitude are mate scores (the search's `score::MATE_BOUND`, a
/// test there holds them equal).
pub const MATE_BOUND: i32 = 30_000;

/// A test waiting for its node's value.
struct Pending {
    method: Method,
    depth: i32,
    shallow_depth: i32,
    shallow_value: i32,
}

/// The histogram sink.
#[derive(Default)]
pub struct Histograms {
    nodes_per_test: BTreeMap<Method, Histogram<u64>>,
    value_gap: BTreeMap<(Method, i32, i32), Histogram<u64>>,
    /// The pairs left out of `value_gap` because a mate score is on either side.
    mate_gaps: BTreeMap<(Method, i32, i32), u64>,
    time_to_depth: BTreeMap<i32, Histogram<u64>>,
    /// Open nodes, innermost last: each with the tests still waiting for its value.
    stack: Vec<(u64, Vec<Pending>)>,
}

fn histogram() -> Histogram<u64> {
    // Three significant figures, auto-resizing: no value is ever out of range.
    Histogram::new(3).unwrap_or_else(|_| unreachable!("3 significant figures is valid"))
}

fn record(h: &mut Histogram<u64>, value: u64) {
    // Auto-resizing histograms accept every u64.
    let _ = h.record(value);
}

impl Observer for Histograms {
    fn enter_node(&mut self, event: &NodeEvent) {
        self.stack.push((event.node_id, Vec::new()));
    }

    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        record(
            self.nodes_per_test
                .entry(event.method)
                .or_insert_with(histogram),
            event.nodes,
        );
        if !event.outcome.is_cut()
            && event.method.tests_with_search_value()
            && let Some((id, pending)) = self.stack.last_mut()
            && *id == event.node_id
        {
            pending.push(Pending {
                method: event.method,
                depth: event.depth,
                shallow_depth: event.shallow_depth,
                shallow_value: event.shallow_value,
            });
        }
    }

    fn leave_node(&mut self, event: &NodeExitEvent) {
        let Some((_, pending)) = self.stack.pop() else {
            return;
        };
        for p in pending {
            let key = (p.method, p.depth, p.shallow_depth);
            if event.value.abs() >= MATE_BOUND || p.shallow_value.abs() >= MATE_BOUND {
                *self.mate_gaps.entry(key).or_default() += 1;
                continue;
            }
            let gap = u64::from(event.value.abs_diff(p.shallow_value));
            record(self.value_gap.entry(key).or_insert_with(histogram), gap);
        }
    }

    fn iteration_finished(&mut self, event: &IterationEvent) {
        record(
            self.time_to_depth
                .entry(event.depth)
                .or_insert_with(histogram),
            event.time_ms,
        );
    }
}

impl Histograms {
    /// Nodes per test of `method`.
    #[must_use]
    pub fn nodes_per_test(&self, method: Method) -> Option<&Histogram<u64>> {
        self.nodes_per_test.get(&method)
    }

    /// |v - v'| for (method, depth d, shallow depth d').
    #[must_use]
    pub fn value_gap(&self, method: Method, depth: i32, shallow: i32) -> Option<&Histogram<u64>> {
        self.value_gap.get(&(method, depth, shallow))
    }

    /// The pairs of (method, depth d, shallow depth d') left out of [`Histograms::value_gap`]
    /// for a mate score on either side.
    #[must_use]
    pub fn mate_gaps(&self, method: Method, depth: i32, shallow: i32) -> u64 {
        self.mate_gaps
            .get(&(method, depth, shallow))
            .copied()
            .unwrap_or_default()
    }

    /// Milliseconds to complete `depth`.
    #[must_use]
    pub fn time_to_depth(&self, depth: i32) -> Option<&Histogram<u64>> {
        self.time_to_depth.get(&depth)
    }

    /// Quantile table of every distribution.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let row = |out: &mut String, name: &str, h: &Histogram<u64>| {
            let _ = writeln!(
                out,
                "{name:<34} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9.1}",
                h.len(),
                h.value_at_quantile(0.5),
                h.value_at_quantile(0.9),
                h.value_at_quantile(0.99),
                h.max(),
                h.mean()
            );
        };
        let _ = writeln!(
            out,
            "{:<34} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "distribution", "count", "p50", "p90", "p99", "max", "mean"
        );
        for (m, h) in &self.nodes_per_test {
            row(&mut out, &format!("nodes per test, {}", m.name()), h);
        }
        for ((m, d, s), h) in &self.value_gap {
            row(&mut out, &format!("|v - v'| cp, {} ({d},{s})", m.name()), h);
        }
        for ((m, d, s), count) in &self.mate_gaps {
            let _ = writeln!(
                out,
                "{:<34} {count:>9}  (a mate score on either side: set apart)",
                format!("|v - v'| mate, {} ({d},{s})", m.name())
            );
        }
        for (d, h) in &self.time_to_depth {
            row(&mut out, &format!("time to depth {d}, ms"), h);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, CutOutcome, NodeType, Stage};

    /// One node with a ProbCut test that did not cut, its shallow value `shallow`, leaving
    /// with `value`.
    fn node_with_test(h: &mut Histograms, id: u64, shallow: i32, value: i32) {
        h.enter_node(&NodeEvent {
            node_id: id,
            parent_id: 0,
            ply: 1,
            depth: 8,
            alpha: 0,
            beta: 1,
            node_type: NodeType::Cut,
            stage: Stage::Middlegame,
            static_eval: Some(0),
            in_check: false,
            quiescence: false,
            in_test: false,
        });
        h.cut_test(
            &CutTestEvent {
                node_id: id,
                ply: 1,
                node_type: NodeType::Cut,
                alpha: 0,
                beta: 1,
                method: Method::ProbCut,
                depth: 8,
                shallow_depth: 4,
                bound: 100,
                shallow_value: shallow,
                outcome: CutOutcome::NoCut,
                nodes: 10,
                pruned_move: None,
                test_index: 0,
            },
            &String::new,
        );
        h.leave_node(&NodeExitEvent {
            node_id: id,
            value,
            bound: Bound::Exact,
            best_move: None,
            subtree_nodes: 1,
            cut_by: None,
            cut_move_index: None,
        });
    }

    /// A gap with a mate score on either side is counted apart; the others are histogrammed.
    #[test]
    fn mate_scores_stay_out_of_the_value_gaps() {
        let mut h = Histograms::default();
        node_with_test(&mut h, 1, 40, 10);
        node_with_test(&mut h, 2, 30_995, 10);
        node_with_test(&mut h, 3, 40, -30_990);
        let gaps = h.value_gap(Method::ProbCut, 8, 4).unwrap();
        assert_eq!((gaps.len(), gaps.max()), (1, 30));
        assert_eq!(h.mate_gaps(Method::ProbCut, 8, 4), 2);
        assert!(h.summary().contains("|v - v'| mate, probcut (8,4)"));
    }
}
