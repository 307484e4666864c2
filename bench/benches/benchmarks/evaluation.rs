//! Static evaluation and static exchange evaluation.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use cutlab_search::{Position, eval::evaluate, see::see};
use shakmaty::Position as _;

use super::KIWIPETE;

fn evaluation(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut group = c.benchmark_group("evaluation");
    group.throughput(Throughput::Elements(1));
    group.bench_function("evaluate_kiwipete", |b| {
        b.iter(|| evaluate(black_box(&pos)))
    });
    let captures: Vec<_> = pos
        .chess()
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture())
        .collect();
    assert_eq!(captures.len(), 8);
    group.throughput(Throughput::Elements(captures.len() as u64));
    group.bench_function("see_all_captures_kiwipete", |b| {
        b.iter(|| {
            captures
                .iter()
                .map(|&m| see(black_box(&pos), m))
                .sum::<i32>()
        });
    });
    group.finish();
}

criterion_group!(benches, evaluation);
