//! Forward-pruning methods: with their trigger disabled they search exactly the baseline's
//! tree; switched on, they cut where they should.

use cutlab_instrument::{CutOutcome, CutTestEvent, Method, Observer, Stage};
use cutlab_search::{
    Limits, Position, Search, SearchConfig, pruning::sf_probcut_in_check::SfProbCutInCheckParams,
};

const FENS: [&str; 2] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn nodes(config: &SearchConfig, depth: i32) -> u64 {
    let mut search = Search::new(config.clone(), 8).unwrap();
    FENS.iter()
        .map(|fen| {
            search.clear();
            let pos = Position::from_fen(fen).unwrap();
            search
                .go(&pos, &[], &Limits::depth(depth), &mut |_| {})
                .nodes
        })
        .sum()
}

#[test]
fn infinite_thresholds_search_the_baseline_tree() {
    let baseline = nodes(&SearchConfig::preset("null-move").unwrap(), 8);

    let mut probcut = SearchConfig::preset("null-move+probcut").unwrap();
    let p = probcut.probcut.as_mut().unwrap();
    p.middlegame.threshold = f64::INFINITY;
    p.endgame.threshold = f64::INFINITY;
    assert_eq!(nodes(&probcut, 8), baseline);

    let mut mpc = SearchConfig::preset("null-move+mpc").unwrap();
    let m = mpc.mpc.as_mut().unwrap();
    m.set_threshold(Stage::Middlegame, f64::INFINITY);
    m.set_threshold(Stage::Endgame, f64::INFINITY);
    assert_eq!(nodes(&mpc, 8), baseline);

    // And with finite thresholds they do change the tree.
    assert_ne!(
        nodes(&SearchConfig::preset("null-move+mpc").unwrap(), 8),
        baseline
    );
}

#[derive(Default)]
struct Cuts(Vec<CutTestEvent>);

impl Observer for Cuts {
    const NODE_EVENTS: bool = false;

    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        self.0.push(event.clone());
    }
}

#[test]
fn probcut_cuts_when_the_shallow_search_is_far_above_beta() {
    // White's queen on h5 is attacked by the knight on f6: after every root move that leaves
    // it hanging, Black's shallow value is far above Black's beta.
    let pos = Position::from_fen("rnbqkb1r/pppppppp/5n2/7Q/8/4P3/PPPP1PPP/RNB1KBNR w KQkq - 0 1")
        .unwrap();
    let config = SearchConfig::preset("probcut").unwrap();
    let mut search = Search::with_observer(config, 8, Cuts::default()).unwrap();
    let result = search.go(&pos, &[], &Limits::depth(9), &mut |_| {});
    // Quiescence futility, in every preset, tests too: the rest are ProbCut's.
    let tests: Vec<&CutTestEvent> = search
        .observer
        .0
        .iter()
        .filter(|t| t.method != Method::QsearchFutility)
        .collect();
    assert!(
        tests
            .iter()
            .all(|t| t.method == Method::ProbCut && t.depth == 8 && t.shallow_depth == 4)
    );
    let highs: Vec<_> = tests
        .iter()
        .filter(|t| t.outcome == CutOutcome::CutHigh)
        .collect();
    assert!(!highs.is_empty(), "no ProbCut cut-high");
    assert!(
        highs
            .iter()
            .all(|t| t.shallow_value >= t.bound && t.bound > t.beta)
    );
    assert!(tests.iter().any(|t| t.outcome == CutOutcome::CutLow));
    assert_eq!(
        result.cuts.cuts[Method::ProbCut.index()] as usize,
        tests.iter().filter(|t| t.outcome.is_cut()).count()
    );
    // Per-node denominator: a node with a high and a low test counts once.
    let nodes: std::collections::BTreeSet<u64> = tests.iter().map(|t| t.node_id).collect();
    let tried = result.cuts.nodes_tried[Method::ProbCut.index()];
    assert_eq!(tried as usize, nodes.len());
    assert!(tried < result.cuts.tries[Method::ProbCut.index()]);
    assert_eq!(
        tests.iter().filter(|t| t.test_index == 0).count(),
        nodes.len()
    );
    assert!(
        tests
            .iter()
            .any(|t| t.test_index == 1 && t.outcome != CutOutcome::CutHigh)
    );
}

#[test]
fn mpc_uses_its_depth_pairs() {
    let pos = Position::from_fen(FENS[0]).unwrap();
    let mut search = Search::with_observer(
        SearchConfig::preset("null-move+mpc").unwrap(),
        8,
        Cuts::default(),
    )
    .unwrap();
    search.go(&pos, &[], &Limits::depth(8), &mut |_| {});
    let pairs: std::collections::BTreeSet<(i32, i32)> = search
        .observer
        .0
        .iter()
        .filter(|t| t.method == Method::Mpc)
        .map(|t| (t.shallow_depth, t.depth))
        .collect();
    assert!(
        pairs
            .iter()
            .all(|p| cutlab_search::pruning::mpc::PAPER_PAIRS.contains(p)),
        "{pairs:?}"
    );
    assert!(pairs.len() >= 2, "{pairs:?}");
}

#[test]
fn disabled_triggers_search_the_baseline_tree() {
    let baseline = nodes(&SearchConfig::preset("null-move").unwrap(), 8);
    for preset in [
        "null-move+multicut",
        "null-move+multicut-all",
        "null-move+multicut-tt",
    ] {
        let mut config = SearchConfig::preset(preset).unwrap();
        let mc = config.multicut.as_mut().unwrap();
        mc.c = mc.m + 1;
        mc.all_c = mc.all_m + 1;
        assert_eq!(nodes(&config, 8), baseline, "{preset} with C > M");
        assert_ne!(
            nodes(&SearchConfig::preset(preset).unwrap(), 8),
            baseline,
            "{preset} prunes"
        );
    }
    let mut sf = SearchConfig::preset("null-move+sf-probcut").unwrap();
    sf.sf_probcut.as_mut().unwrap().margin = 1_000_000;
    assert_eq!(
        nodes(&sf, 8),
        baseline,
        "sf-probcut with an infinite margin"
    );
    assert_ne!(
        nodes(&SearchConfig::preset("null-move+sf-probcut").unwrap(), 8),
        baseline
    );
}

/// Records Multi-Cut tests and the values of the nodes they cut.
#[derive(Default)]
struct MultiCutLog {
    tests: Vec<CutTestEvent>,
    cut_values: Vec<(u64, i32)>,
}

impl Observer for MultiCutLog {
    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        if event.method == Method::MultiCut {
            self.tests.push(event.clone());
        }
    }

    fn leave_node(&mut self, event: &cutlab_instrument::NodeExitEvent) {
        if event.cut_by == Some(Method::MultiCut) {
            self.cut_values.push((event.node_id, event.value));
        }
    }
}

#[test]
fn multicut_returns_beta_where_several_moves_refute() {
    // Black is a queen down: after Black's weaker moves, White has many moves that keep the
    // queen and refute, at expected CUT nodes.
    let pos =
        Position::from_fen("r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPPQPPP/RNB1KB1R b KQkq - 0 4")
            .unwrap();
    let mut search = Search::with_observer(
        SearchConfig::preset("multicut").unwrap(),
        8,
        MultiCutLog::default(),
    )
    .unwrap();
    search.go(&pos, &[], &Limits::depth(6), &mut |_| {});
    let log = &search.observer;
    let cuts: Vec<&CutTestEvent> = log.tests.iter().filter(|t| t.outcome.is_cut()).collect();
    assert!(!cuts.is_empty(), "no Multi-Cut prune");
    assert!(
        cuts.iter()
            .all(|t| t.node_type == cutlab_instrument::NodeType::Cut)
    );
    for t in cuts {
        let value = log
            .cut_values
            .iter()
            .find(|(id, _)| *id == t.node_id)
            .map(|&(_, v)| v);
        assert_eq!(value, Some(t.beta), "a Multi-Cut node returns beta");
    }
}

/// Static evaluations of the nodes, and the null-move tests with their node's evaluation.
#[derive(Default)]
struct NullMoveLog {
    evals: std::collections::HashMap<u64, i32>,
    /// (static eval, beta) of every null-move test.
    tests: Vec<(i32, i32)>,
}

impl Observer for NullMoveLog {
    fn enter_node(&mut self, event: &cutlab_instrument::NodeEvent) {
        if let Some(eval) = event.static_eval {
            self.evals.insert(event.node_id, eval);
        }
    }

    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        if event.method == Method::NullMove {
            self.tests.push((self.evals[&event.node_id], event.beta));
        }
    }
}

fn null_move_tests(config: SearchConfig) -> Vec<(i32, i32)> {
    let pos = Position::from_fen(FENS[0]).unwrap();
    let mut search = Search::with_observer(config, 8, NullMoveLog::default()).unwrap();
    search.go(&pos, &[], &Limits::depth(7), &mut |_| {});
    search.observer.tests
}

#[test]
fn paper_null_move_has_no_static_eval_gate() {
    // Jiang and Buro's null move (Crafty 18.15) tries the null move whatever the evaluation.
    for preset in [
        "null-move",
        "null-move-r3",
        "null-move-adaptive",
        "null-move-verified",
    ] {
        let tests = null_move_tests(SearchConfig::preset(preset).unwrap());
        assert!(tests.iter().any(|&(eval, beta)| eval < beta), "{preset}");
    }
    // The modern gate, when asked for, tries it only at or above beta.
    let mut gated = SearchConfig::preset("null-move").unwrap();
    gated.null_move.as_mut().unwrap().eval_above_beta = true;
    let tests = null_move_tests(gated);
    assert!(!tests.is_empty());
    assert!(tests.iter().all(|&(eval, beta)| eval >= beta));
}

/// Entry windows, probabilistic cut tests and exits, by node.
#[derive(Default)]
struct ProbLog {
    windows: std::collections::HashMap<u64, (i32, i32)>,
    tests: Vec<CutTestEvent>,
    exits: std::collections::HashMap<u64, (i32, cutlab_instrument::Bound)>,
}

impl Observer for ProbLog {
    fn enter_node(&mut self, e: &cutlab_instrument::NodeEvent) {
        self.windows.insert(e.node_id, (e.alpha, e.beta));
    }

    fn cut_test(&mut self, e: &CutTestEvent, _fen: &dyn Fn() -> String) {
        // Quiescence futility, in every preset, tests too: keep probabilistic alpha-beta's.
        if e.method != Method::QsearchFutility {
            self.tests.push(e.clone());
        }
    }

    fn leave_node(&mut self, e: &cutlab_instrument::NodeExitEvent) {
        self.exits.insert(e.node_id, (e.value, e.bound));
    }
}

#[test]
fn probabilistic_tests_record_tries_windows_and_bounds() {
    use cutlab_instrument::Bound;
    let pos = Position::from_fen(FENS[0]).unwrap();
    let config = SearchConfig::preset("prob-ab").unwrap();
    let mut search = Search::with_observer(config, 8, ProbLog::default()).unwrap();
    let result = search.go(&pos, &[], &Limits::depth(5), &mut |_| {});
    let log = &search.observer;
    let i = Method::ProbAb.index();
    assert!(log.tests.iter().all(|t| t.method == Method::ProbAb));
    assert!(result.cuts.tries[Method::QsearchFutility.index()] > 0);
    let cuts = log.tests.iter().filter(|t| t.outcome.is_cut()).count();
    assert!(
        cuts > 0 && cuts < log.tests.len(),
        "tries are more than cuts"
    );
    assert_eq!(result.cuts.tries[i] as usize, log.tests.len());
    assert_eq!(result.cuts.cuts[i] as usize, cuts);
    for t in &log.tests {
        let (alpha, beta) = log.windows[&t.node_id];
        // The window the node was given (mate-distance narrowing aside), not a raised alpha.
        if alpha.abs() < 20_000 && beta.abs() < 20_000 {
            assert_eq!((t.alpha, t.beta), (alpha, beta));
        }
        let (value, bound) = log.exits[&t.node_id];
        match t.outcome {
            CutOutcome::CutHigh => assert_eq!(bound, Bound::Lower),
            _ if value <= t.alpha => assert_eq!(bound, Bound::Upper, "a fail low is a bound"),
            _ => assert_eq!(bound, Bound::Exact),
        }
    }
}

/// A method with its trigger off searches exactly the null-move tree, and on does not.
fn trigger_off_is_the_baseline(preset: &str, disable: &dyn Fn(&mut SearchConfig)) {
    trigger_off_is_the_baseline_of(preset, SearchConfig::preset(preset).unwrap(), disable);
}

/// As `trigger_off_is_the_baseline`, for a configuration `on` of the preset.
fn trigger_off_is_the_baseline_of(
    preset: &str,
    on: SearchConfig,
    disable: &dyn Fn(&mut SearchConfig),
) {
    let baseline = nodes(&SearchConfig::preset("null-move").unwrap(), 8);
    let mut off = on.clone();
    disable(&mut off);
    assert_eq!(nodes(&off, 8), baseline, "{preset} with its trigger off");
    assert_ne!(nodes(&on, 8), baseline, "{preset} changes the tree");
}

/// IIR as in `null-move+iir`, but reducing expected CUT nodes from depth 4: at depth 8 the
/// source's least depth 9 leaves only PV nodes without a TT move, which a search may not meet.
fn iir_at_depth_eight() -> SearchConfig {
    let mut config = SearchConfig::preset("null-move+iir").unwrap();
    config.iir.as_mut().unwrap().cut_min_depth = 4;
    config
}

#[test]
fn modern_methods_with_their_trigger_off_search_the_baseline_tree() {
    trigger_off_is_the_baseline("null-move+rfp", &|c| c.rfp.as_mut().unwrap().max_depth = 0);
    trigger_off_is_the_baseline("null-move+razoring", &|c| {
        c.razoring.as_mut().unwrap().max_depth = 0;
    });
    trigger_off_is_the_baseline_of("null-move+iir", iir_at_depth_eight(), &|c| {
        let p = c.iir.as_mut().unwrap();
        (p.pv_plies, p.cut_plies) = (0, 0);
    });
    trigger_off_is_the_baseline("null-move+sf-probcut-in-check", &|c| {
        c.sf_probcut_in_check.as_mut().unwrap().margin = 1_000_000;
    });
}

/// Every cut test of a variant's search of the first position to `depth`.
fn tests_of(preset: &str, depth: i32) -> Vec<CutTestEvent> {
    tests_with(SearchConfig::preset(preset).unwrap(), depth)
}

/// Every cut test of a configuration's search of the first position to `depth`.
fn tests_with(config: SearchConfig, depth: i32) -> Vec<CutTestEvent> {
    let pos = Position::from_fen(FENS[0]).unwrap();
    let mut search = Search::with_observer(config, 8, Cuts::default()).unwrap();
    search.go(&pos, &[], &Limits::depth(depth), &mut |_| {});
    search.observer.0
}

#[test]
fn modern_methods_fire_where_their_sources_say() {
    use cutlab_instrument::NodeType;
    let of = |tests: &[CutTestEvent], m: Method| -> Vec<CutTestEvent> {
        tests.iter().filter(|t| t.method == m).cloned().collect()
    };
    // Reverse futility: non-PV, depth <= 7, eval - margin >= beta on every cut.
    let rfp = of(&tests_of("null-move+rfp", 8), Method::Rfp);
    assert!(rfp.iter().any(|t| t.outcome == CutOutcome::CutHigh));
    for t in &rfp {
        assert!(t.node_type != NodeType::Pv && t.depth <= 7);
        let margin = t.bound - t.beta;
        assert_eq!(t.outcome.is_cut(), t.shallow_value - margin >= t.beta);
    }
    // Razoring: non-PV; a cut is a quiescence value below alpha.
    let razoring = of(&tests_of("null-move+razoring", 8), Method::Razoring);
    assert!(razoring.iter().any(|t| t.outcome == CutOutcome::CutLow));
    for t in &razoring {
        assert!(t.node_type != NodeType::Pv);
        assert_eq!(t.outcome.is_cut(), t.shallow_value < t.alpha);
    }
    // IIR: reductions of PV and CUT nodes, logged as reductions, never a cut.
    let iir = of(&tests_with(iir_at_depth_eight(), 8), Method::Iir);
    assert!(!iir.is_empty());
    for t in &iir {
        assert_eq!(t.outcome, CutOutcome::Reduce);
        assert!(t.shallow_depth < t.depth && t.node_type != NodeType::All);
    }
    // ProbCut in check: a TT bound at least beta + margin on every cut.
    let in_check = of(
        &tests_of("null-move+sf-probcut-in-check", 8),
        Method::SfProbCutInCheck,
    );
    assert!(in_check.iter().any(|t| t.outcome.is_cut()));
    for t in &in_check {
        assert_eq!(t.bound, t.beta + SfProbCutInCheckParams::default().margin);
        assert_eq!(t.outcome.is_cut(), t.shallow_value >= t.bound);
    }
}

#[test]
fn move_pruning_with_its_trigger_off_searches_the_baseline_tree() {
    trigger_off_is_the_baseline("null-move+futility", &|c| {
        c.futility.as_mut().unwrap().max_depth = 0;
    });
    trigger_off_is_the_baseline("null-move+lmp", &|c| c.lmp.as_mut().unwrap().max_depth = 0);
    trigger_off_is_the_baseline("null-move+see-pruning", &|c| {
        c.see_pruning.as_mut().unwrap().max_depth = 0;
    });
    trigger_off_is_the_baseline("null-move+history-pruning", &|c| {
        c.history_pruning.as_mut().unwrap().max_lmr_depth = -1;
    });
}

#[test]
fn move_pruning_fires_where_its_sources_say() {
    let of = |preset: &str, m: Method| -> Vec<CutTestEvent> {
        let tests = tests_of(preset, 8);
        tests.into_iter().filter(|t| t.method == m).collect()
    };
    let check = |tests: &[CutTestEvent], rule: &dyn Fn(&CutTestEvent) -> bool| {
        assert!(tests.iter().any(|t| t.outcome == CutOutcome::PruneMove));
        assert!(tests.iter().any(|t| t.outcome == CutOutcome::NoCut));
        for t in tests {
            assert!(t.ply > 0 && t.pruned_move.is_some());
            assert_eq!(t.outcome == CutOutcome::PruneMove, rule(t), "{t:?}");
        }
    };
    // Futility: depth 1 or 2, eval + margin <= alpha.
    let futility = of("null-move+futility", Method::Futility);
    check(&futility, &|t| t.shallow_value <= t.alpha);
    assert!(futility.iter().all(|t| t.depth <= 2 && t.bound >= t.alpha));
    // LMP: the moves counted before reach the count.
    check(&of("null-move+lmp", Method::Lmp), &|t| {
        t.shallow_value >= t.bound
    });
    // SEE: exchange below the depth's bound (never positive).
    let see = of("null-move+see-pruning", Method::SeePruning);
    check(&see, &|t| t.shallow_value < t.bound);
    assert!(see.iter().all(|t| t.bound <= 0));
    // History: history below -per_ply * (depth - 1).
    let history = of("null-move+history-pruning", Method::HistoryPruning);
    check(&history, &|t| t.shallow_value < t.bound);
    assert!(history.iter().all(|t| t.bound == -700 * (t.depth - 1)));
}

#[test]
fn singular_extensions_follow_their_source() {
    trigger_off_is_the_baseline("null-move+singular", &|c| {
        c.singular.as_mut().unwrap().min_depth = 1000;
    });
    let tests: Vec<CutTestEvent> = tests_of("null-move+singular", 8)
        .into_iter()
        .filter(|t| t.method == Method::Singular)
        .collect();
    assert!(tests.iter().any(|t| t.outcome == CutOutcome::NoCut));
    assert!(tests.iter().any(|t| t.outcome == CutOutcome::CutHigh));
    for t in &tests {
        // singularDepth = (depth - 1) / 2 from depth >= 4, not at the root.
        assert!(t.depth >= 4 && t.ply > 0);
        assert_eq!(t.shallow_depth, (t.depth - 1) / 2);
        // A multi-cut return: the search without the TT move reached singularBeta >= beta.
        assert_eq!(
            t.outcome.is_cut(),
            t.shallow_value >= t.bound && t.bound >= t.beta,
            "{t:?}"
        );
    }
}

/// Node entries and cut tests of a search, for checks that need both.
#[derive(Default)]
struct Trace {
    in_check: std::collections::HashMap<u64, bool>,
    root_depth: i32,
    /// (method, outcome, in check, ply, root depth) of every test.
    tests: Vec<(Method, CutOutcome, bool, u32, i32)>,
}

impl Observer for Trace {
    fn enter_node(&mut self, event: &cutlab_instrument::NodeEvent) {
        if event.ply == 0 && !event.in_test {
            self.root_depth = event.depth;
        }
        self.in_check.insert(event.node_id, event.in_check);
    }

    fn cut_test(&mut self, event: &CutTestEvent, _fen: &dyn Fn() -> String) {
        let in_check = self.in_check[&event.node_id];
        self.tests.push((
            event.method,
            event.outcome,
            in_check,
            event.ply,
            self.root_depth,
        ));
    }
}

/// The guards of Stockfish 15.1 the modern stack once lacked: no IIR and no late move pruning
/// at a node in check (step 11 is skipped in check, the evasion picker skips nothing), and no
/// singular test at ply >= 2 x the root depth (step 15's gate).
#[test]
fn modern_keeps_stockfishs_guards() {
    let mut counted = [0; 3];
    for fen in FENS.iter().chain(&[
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
        "2r3k1/1p3ppp/p3p3/3pP3/P2P4/1Q6/5PPP/6K1 b - - 0 1",
    ]) {
        let pos = Position::from_fen(fen).unwrap();
        let config = SearchConfig::preset("modern").unwrap();
        let mut search = Search::with_observer(config, 8, Trace::default()).unwrap();
        search.go(&pos, &[], &Limits::depth(8), &mut |_| {});
        for &(method, outcome, in_check, ply, root_depth) in &search.observer.tests {
            match method {
                Method::Iir => {
                    assert!(!in_check, "IIR at a node in check");
                    counted[0] += 1;
                }
                Method::Lmp if outcome == CutOutcome::PruneMove => {
                    assert!(!in_check, "LMP prune at a node in check");
                    counted[1] += 1;
                }
                Method::Singular => {
                    assert!(
                        i64::from(ply) < 2 * i64::from(root_depth),
                        "singular at ply {ply}, root depth {root_depth}"
                    );
                    counted[2] += 1;
                }
                _ => {}
            }
        }
    }
    assert!(counted.iter().all(|&n| n > 0), "{counted:?}");
}
