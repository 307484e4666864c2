//! Instrumentation costs: the same fixed-depth search with the no-op observer, the counters
//! and the full CSV sink (equal node counts asserted), and the CSV writer's rows per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use cutlab_instrument::{
    Bound, Counters, CsvSink, NodeEvent, NodeExitEvent, NodeFilter, NodeType, NoopObserver,
    Observer, Stage,
};
use cutlab_search::{Limits, Position, Search, SearchConfig};

use super::KIWIPETE;

fn search_nodes<O: Observer>(observer: O) -> (u64, O) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut search = Search::with_observer(SearchConfig::default(), 16, observer).unwrap();
    let nodes = search.go(&pos, &[], &Limits::depth(8), &mut |_| {}).nodes;
    (nodes, search.observer)
}

fn temp_csv(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("cutlab-bench-{name}-{}.csv", std::process::id()))
}

fn overhead(c: &mut Criterion) {
    let (nodes, _) = search_nodes(NoopObserver);
    let mut group = c.benchmark_group("observer_overhead");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("noop", |b| {
        b.iter(|| assert_eq!(search_nodes(NoopObserver).0, nodes))
    });
    group.bench_function("counters", |b| {
        b.iter(|| assert_eq!(search_nodes(Counters::default()).0, nodes));
    });
    let path = temp_csv("overhead");
    group.bench_function("csv", |b| {
        b.iter(|| {
            let sink = CsvSink::create(&path, NodeFilter::default()).unwrap();
            let (n, sink) = search_nodes(sink);
            assert_eq!(n, nodes);
            assert_eq!(sink.finish().unwrap().node_rows, nodes);
        });
    });
    group.finish();
    let _ = std::fs::remove_file(cutlab_instrument::csv_sink::tests_path(&path));
    let _ = std::fs::remove_file(&path);
}

/// Rows per second the CSV sink takes from a synthetic stream of 200 000 nodes.
fn csv_rows(c: &mut Criterion) {
    const ROWS: u64 = 200_000;
    let path = temp_csv("rows");
    let mut group = c.benchmark_group("csv_writer");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ROWS));
    group.bench_function("node_rows", |b| {
        b.iter(|| {
            let mut sink = CsvSink::create(&path, NodeFilter::default()).unwrap();
            for id in 1..=ROWS {
                let enter = NodeEvent {
                    node_id: id,
                    parent_id: id - 1,
                    ply: 3,
                    depth: 4,
                    alpha: -20,
                    beta: -19,
                    node_type: NodeType::Cut,
                    stage: Stage::Middlegame,
                    static_eval: Some(12),
                    in_check: false,
                    quiescence: false,
                    in_test: false,
                };
                sink.enter_node(black_box(&enter));
                let leave = NodeExitEvent {
                    node_id: id,
                    value: 31,
                    bound: Bound::Lower,
                    best_move: Some("e2e4".to_string()),
                    subtree_nodes: 1,
                    cut_by: None,
                    cut_move_index: Some(0),
                };
                sink.leave_node(black_box(&leave));
            }
            assert_eq!(sink.finish().unwrap().node_rows, ROWS);
        });
    });
    group.finish();
    let _ = std::fs::remove_file(cutlab_instrument::csv_sink::tests_path(&path));
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, overhead, csv_rows);
