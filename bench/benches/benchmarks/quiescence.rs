//! The capture search alone: quiescence from every child of Kiwipete, full window.

use criterion::{Criterion, Throughput, criterion_group};
use cutlab_search::{Position, Search, SearchConfig, score::MATE};
use shakmaty::Position as _;

use super::KIWIPETE;

fn quiescence(c: &mut Criterion) {
    let root = Position::from_fen(KIWIPETE).unwrap();
    let children: Vec<Position> = root
        .chess()
        .legal_moves()
        .into_iter()
        .map(|m| root.play(m))
        .collect();
    assert_eq!(children.len(), 48);
    let mut search = Search::new(SearchConfig::preset("plain").unwrap(), 1).unwrap();
    let mut run = || -> u64 {
        search.clear();
        children
            .iter()
            .map(|p| search.quiescence_value(p, -MATE, MATE).1)
            .sum()
    };
    let nodes = run();
    let mut group = c.benchmark_group("quiescence");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("children_of_kiwipete", |b| {
        b.iter(|| assert_eq!(run(), nodes))
    });
    group.finish();
}

criterion_group!(benches, quiescence);
