//! Move generation (through our move picker and make-move), the captures quiescence asks for
//! (ours against shakmaty's filtered list), and make-move alone.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use cutlab_search::{
    Position,
    history::Histories,
    movegen::{is_tactical, tactical_moves},
    movepick::{MovePicker, PickerKind},
    tt::PackedMove,
};
use shakmaty::{MoveList, Position as _};

use super::KIWIPETE;

fn picker_perft(pos: &Position, depth: u32, history: &Histories) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut picker = MovePicker::new(None, [PackedMove::NONE; 2], None, PickerKind::All);
    let mut nodes = 0;
    while let Some((m, _)) = picker.next(pos, history) {
        nodes += picker_perft(&pos.play(m), depth - 1, history);
    }
    nodes
}

fn movegen(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let history = Histories::default();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(97_862));
    group.bench_function("picker_perft_3_kiwipete", |b| {
        b.iter(|| assert_eq!(picker_perft(black_box(&pos), 3, &history), 97_862));
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("captures_kiwipete", |b| {
        let mut moves = MoveList::new();
        b.iter(|| {
            tactical_moves(black_box(pos.chess()), &mut moves);
            moves.len()
        });
    });
    group.bench_function("captures_filtered_kiwipete", |b| {
        b.iter(|| {
            let mut moves = black_box(pos.chess()).legal_moves();
            moves.retain(|m| is_tactical(*m));
            moves.len()
        });
    });
    let moves = pos.chess().legal_moves();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("make_move_all_kiwipete", |b| {
        b.iter(|| {
            let keys: u64 = moves
                .iter()
                .map(|&m| pos.play(m).key())
                .fold(0, |a, k| a ^ k);
            black_box(keys)
        });
    });
    group.finish();
}

criterion_group!(benches, movegen);
