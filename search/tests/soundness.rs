//! With every pruning, reduction and TT cut-off off, the search returns the plain minimax value
//! (same leaves, same quiescence, same draw and mate rules); and it finds forced mates.

use cutlab_search::{
    Limits, Position, Search, SearchConfig,
    eval::evaluate,
    movegen::is_tactical,
    movepick::is_losing,
    score::{DRAW, MATE},
};
use shakmaty::Position as _;

/// Full-width quiescence: stand pat or any non-losing capture; all evasions in check.
fn quiescence_minimax(pos: &Position, ply: i32) -> i32 {
    if pos.insufficient_material() {
        return DRAW;
    }
    let moves = pos.chess().legal_moves();
    if pos.in_check() {
        if moves.is_empty() {
            return -MATE + ply;
        }
        return moves
            .iter()
            .map(|&m| -quiescence_minimax(&pos.play(m), ply + 1))
            .max()
            .unwrap_or(DRAW);
    }
    let stand_pat = evaluate(pos);
    moves
        .iter()
        .filter(|&&m| is_tactical(m) && !is_losing(pos, m))
        .map(|&m| -quiescence_minimax(&pos.play(m), ply + 1))
        .fold(stand_pat, i32::max)
}

/// Full-width negamax to `depth`, with the search's check extension and draw rules.
fn minimax(pos: &Position, depth: i32, ply: i32) -> i32 {
    if depth <= 0 && !pos.in_check() {
        return quiescence_minimax(pos, ply);
    }
    if ply > 0 && pos.insufficient_material() {
        return DRAW;
    }
    let depth = depth.max(1);
    let moves = pos.chess().legal_moves();
    if moves.is_empty() {
        return if pos.in_check() { -MATE + ply } else { DRAW };
    }
    moves
        .iter()
        .map(|&m| {
            let child = pos.play(m);
            let extension = i32::from(child.in_check());
            -minimax(&child, depth - 1 + extension, ply + 1)
        })
        .max()
        .unwrap_or(DRAW)
}

fn exact_config() -> SearchConfig {
    SearchConfig::exact()
}

/// Positions and the depth the full-width reference can reach quickly.
const POSITIONS: [(&str, i32); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    (
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        2,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    (
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
        2,
    ),
    ("6k1/5ppp/8/8/3n4/8/5PPP/3R2K1 w - - 0 1", 3),
    ("8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 1", 3),
];

#[test]
fn alpha_beta_without_pruning_equals_minimax() {
    for (fen, max_depth) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 1..=max_depth {
            let mut search = Search::new(exact_config(), 4).unwrap();
            let result = search.go(&pos, &[], &Limits::depth(depth), &mut |_| {});
            assert_eq!(result.score, minimax(&pos, depth, 0), "{fen} depth {depth}");
        }
    }
}

fn best_move(fen: &str, depth: i32, variant: &str) -> (String, i32) {
    let pos = Position::from_fen(fen).unwrap();
    let mut search = Search::new(SearchConfig::preset(variant).unwrap(), 16).unwrap();
    let result = search.go(&pos, &[], &Limits::depth(depth), &mut |_| {});
    let m = result.best_move.expect("a legal move");
    (cutlab_search::position::uci(m), result.score)
}

#[test]
fn finds_forced_mates() {
    // Mate in 1 (back rank): Rxd8#.
    let (m, score) = best_move(
        "3r2k1/5ppp/8/8/8/8/5PPP/3RQ1K1 w - - 0 1",
        4,
        "null-move+lmr",
    );
    assert_eq!((m.as_str(), score), ("d1d8", MATE - 1));
    // Mate in 2 (Stockfish 15.1 agrees): 1. Kg6 and 2. Ra8#.
    let (m, score) = best_move("7k/8/8/5K2/8/8/8/R7 w - - 0 1", 6, "null-move+lmr");
    assert_eq!((m.as_str(), score), ("f5g6", MATE - 3));
    // Mate in 3 (Stockfish 15.1: 1. Kf6).
    let (m, score) = best_move("6k1/8/8/5K2/8/8/8/R7 w - - 0 1", 8, "null-move+lmr");
    assert_eq!((m.as_str(), score), ("f5f6", MATE - 5));
    // The defender sees Qxf7# coming and parries it: no mate score.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
    let (_, score) = best_move(fen, 4, "plain");
    assert!(
        score > -MATE + 100,
        "black can defend against Qxf7#: {score}"
    );
}

#[test]
fn avoids_stalemate_when_winning() {
    // Queen and king against king: Qb6 stalemates at once; Qb7 mates.
    let (m, score) = best_move("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", 4, "null-move+lmr");
    assert_eq!((m.as_str(), score), ("b1b7", MATE - 1));
    // Queen up but the only "active" capture stalemates: Qxb6 leaves Black no move.
    let (m, score) = best_move("k7/2K5/1p6/8/8/8/8/1Q6 w - - 0 1", 5, "null-move+lmr");
    assert_ne!(m, "b1b6");
    assert!(score > 500, "{score}");
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let pos = Position::from_fen(POSITIONS[1].0).unwrap();
    let run = || {
        let mut search = Search::new(SearchConfig::default(), 16).unwrap();
        search.go(&pos, &[], &Limits::depth(7), &mut |_| {}).nodes
    };
    assert_eq!(run(), run());
}

#[test]
fn probabilistic_alpha_beta_with_zero_sigma_is_alpha_beta() {
    for (fen, max_depth) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 1..=max_depth.min(2) {
            let expected = minimax(&pos, depth, 0);
            let mut config = SearchConfig::preset("prob-ab").unwrap();
            config.tt_cutoffs = false;
            config.qsearch_futility = None;
            config.prob_ab.as_mut().unwrap().sigma = 0.0;
            for p in [0.05, 0.5, 0.95] {
                config.set_confidence(p).unwrap();
                let mut search = Search::new(config.clone(), 4).unwrap();
                let result = search.go(&pos, &[], &Limits::depth(depth), &mut |_| {});
                assert_eq!(result.score, expected, "{fen} depth {depth} p {p}");
            }
        }
    }
}

#[test]
fn probabilistic_alpha_beta_with_zero_sigma_searches_the_alpha_beta_tree() {
    // σ = 0 makes every distribution a point: the same tree node for node as the PVS search
    // with the same reductions and no forward pruning (TT, ordering, aspiration included):
    // it replaces the node function, so the stack's pruning does not run under it.
    for (base, prob) in [
        ("plain", "prob-ab@0.5:0"),
        ("lmr", "prob-ab@0.5:0+lmr"),
        ("lmr", "modern+prob-ab@0.5:0"),
    ] {
        for (fen, _) in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let config = SearchConfig::preset(prob).unwrap();
            let expected = Search::new(SearchConfig::preset(base).unwrap(), 4)
                .unwrap()
                .go(&pos, &[], &Limits::depth(6), &mut |_| {});
            let got = Search::new(config, 4)
                .unwrap()
                .go(&pos, &[], &Limits::depth(6), &mut |_| {});
            assert_eq!(got.nodes, expected.nodes, "{prob} {fen}");
            assert_eq!(got.score, expected.score, "{prob} {fen}");
            assert_eq!(got.best_move, expected.best_move, "{prob} {fen}");
        }
    }
}
