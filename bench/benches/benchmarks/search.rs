//! Fixed-depth search per preset, reporting nodes per second.

use criterion::{Criterion, Throughput, criterion_group};
use cutlab_search::{Limits, Position, Search, SearchConfig};

use super::KIWIPETE;

fn search(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for variant in ["plain", "null-move", "null-move+lmr"] {
        let config = SearchConfig::preset(variant).unwrap();
        let depth = if variant == "plain" { 5 } else { 7 };
        let run = |config: &SearchConfig| {
            let mut search = Search::new(config.clone(), 16).unwrap();
            search
                .go(&pos, &[], &Limits::depth(depth), &mut |_| {})
                .nodes
        };
        let nodes = run(&config);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant}_depth_{depth}_kiwipete"), |b| {
            b.iter(|| assert_eq!(run(&config), nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, search);
