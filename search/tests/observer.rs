//! The observer sees the search as it is: one enter/leave pair per counted node, nested as a
//! tree, Knuth-Moore node types, and no change to the search whatever the observer.

use cutlab_instrument::{
    Counters, CsvSink, CutTestEvent, NodeEvent, NodeExitEvent, NodeFilter, NodeType, Observer,
};
use cutlab_search::{Limits, Position, Search, SearchConfig};

#[derive(Default)]
struct Recorder {
    entered: Vec<NodeEvent>,
    left: u64,
    tests: u64,
    open: Vec<u64>,
    /// (child type, parent type, child is the parent's first child)
    edges: Vec<(NodeType, NodeType, bool)>,
    /// Roots of shallow searches at their node's own ply (ProbCut, MPC): (type, null window)
    same_ply: Vec<(NodeType, bool)>,
    children_seen: std::collections::HashMap<u64, u32>,
}

impl Observer for Recorder {
    fn enter_node(&mut self, e: &NodeEvent) {
        if e.parent_id == 0 {
            assert!(self.open.is_empty(), "a root inside another node");
        } else {
            assert_eq!(
                self.open.last(),
                Some(&e.parent_id),
                "parent is the innermost open node"
            );
            let parent = self
                .entered
                .iter()
                .rev()
                .find(|p| p.node_id == e.parent_id)
                .unwrap();
            if parent.ply == e.ply {
                self.same_ply.push((e.node_type, e.beta == e.alpha + 1));
            } else {
                let seen = self.children_seen.entry(e.parent_id).or_default();
                self.edges.push((e.node_type, parent.node_type, *seen == 0));
                *seen += 1;
            }
        }
        assert_eq!(e.node_id, self.entered.len() as u64 + 1, "ids count nodes");
        self.open.push(e.node_id);
        self.entered.push(e.clone());
    }

    fn cut_test(&mut self, e: &CutTestEvent, _fen: &dyn Fn() -> String) {
        assert_eq!(
            self.open.last(),
            Some(&e.node_id),
            "tests happen inside their node"
        );
        self.tests += 1;
    }

    fn leave_node(&mut self, e: &NodeExitEvent) {
        assert_eq!(
            self.open.pop(),
            Some(e.node_id),
            "leave the node entered last"
        );
        self.left += 1;
    }
}

const FENS: [&str; 3] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

#[test]
fn events_form_a_tree_with_knuth_moore_types() {
    for (fen, variant) in FENS.iter().zip([
        "null-move+lmr",
        "null-move+probcut",
        "null-move+mpc+singular",
    ]) {
        let pos = Position::from_fen(fen).unwrap();
        let config = SearchConfig::preset(variant).unwrap();
        let mut search = Search::with_observer(config, 4, Recorder::default()).unwrap();
        let result = search.go(&pos, &[], &Limits::depth(9), &mut |_| {});
        let r = &search.observer;
        assert_eq!(
            r.entered.len() as u64,
            result.nodes,
            "one enter per counted node"
        );
        assert_eq!(r.left, result.nodes, "one leave per node");
        assert!(r.open.is_empty());
        assert!(r.tests > 0, "null move was tried");
        // A shallow search is a null-window search of an expected CUT or ALL node.
        assert!(
            r.same_ply
                .iter()
                .all(|&(t, null_window)| t != NodeType::Pv && null_window),
            "{variant}"
        );
        if variant != "null-move+lmr" {
            assert!(!r.same_ply.is_empty(), "{variant} ran shallow searches");
        }
        for &(child, parent, first) in &r.edges {
            match parent {
                NodeType::Cut => assert_eq!(child, NodeType::All),
                NodeType::All => assert_eq!(child, NodeType::Cut),
                NodeType::Pv if first => assert_eq!(child, NodeType::Pv),
                NodeType::Pv => assert!(matches!(child, NodeType::Pv | NodeType::Cut)),
            }
        }
    }
}

fn nodes_with<O: Observer>(observer: O) -> (u64, O) {
    let mut total = 0;
    let config = SearchConfig::preset("null-move+lmr").unwrap();
    let mut search = Search::with_observer(config, 4, observer).unwrap();
    for fen in FENS {
        search.clear();
        let pos = Position::from_fen(fen).unwrap();
        total += search.go(&pos, &[], &Limits::depth(7), &mut |_| {}).nodes;
    }
    (total, search.observer)
}

#[test]
fn observing_does_not_change_the_search() {
    let (plain, ()) = {
        let mut total = 0;
        let mut search = Search::new(SearchConfig::preset("null-move+lmr").unwrap(), 4).unwrap();
        for fen in FENS {
            search.clear();
            let pos = Position::from_fen(fen).unwrap();
            total += search.go(&pos, &[], &Limits::depth(7), &mut |_| {}).nodes;
        }
        (total, ())
    };
    let (counted, counters) = nodes_with(Counters::default());
    assert_eq!(counted, plain);
    assert!(!counters.by_method().is_empty());

    let path = std::env::temp_dir().join(format!("cutlab-observer-{}.csv", std::process::id()));
    let sink = CsvSink::create(&path, NodeFilter::default()).unwrap();
    let (traced, sink) = nodes_with(sink);
    assert_eq!(traced, plain);
    let stats = sink.finish().unwrap();
    assert_eq!(
        stats.node_rows, plain,
        "a full trace writes one row per node"
    );
    let rows = csv::Reader::from_path(&path).unwrap().records().count() as u64;
    assert_eq!(rows, plain);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(cutlab_instrument::csv_sink::tests_path(&path));
}
