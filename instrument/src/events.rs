//! Plain event records, one struct per kind of event, serialisable with serde.

use serde::{Deserialize, Serialize};

/// Expected node type in the sense of Knuth and Moore (1975).
///
/// The root is a PV node; the first child of a PV node is PV and its other children CUT;
/// every child of a CUT node is ALL; every child of an ALL node is CUT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeType {
    /// Principal-variation node: value expected inside the window.
    Pv,
    /// Expected cut node: one move is expected to fail high.
    Cut,
    /// Expected all node: every move is expected to fail low.
    All,
}

impl NodeType {
    /// The expected type of the child searched as move number `index` (0-based).
    #[must_use]
    pub const fn child(self, index: usize) -> NodeType {
        match self {
            NodeType::Pv if index == 0 => NodeType::Pv,
            NodeType::Pv | NodeType::All => NodeType::Cut,
            NodeType::Cut => NodeType::All,
        }
    }

    /// Lower-case name as written in CSV files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            NodeType::Pv => "pv",
            NodeType::Cut => "cut",
            NodeType::All => "all",
        }
    }
}

/// Game stage as Jiang and Buro (2003, section 4) define it: a position is an endgame when
/// the side to move and its opponent each have weighted material (Q=9, R=5, B=N=3) below 15.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Either side has 15 or more points of non-pawn material.
    Middlegame,
    /// Both sides have less than 15 points of non-pawn material.
    Endgame,
}

impl Stage {
    /// Lower-case name as written in CSV files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Middlegame => "middlegame",
            Stage::Endgame => "endgame",
        }
    }

    /// Array index: middlegame 0, endgame 1.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Bound type of a search value (and of a transposition-table entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The true value is exactly this.
    Exact,
    /// The true value is at least this (fail high).
    Lower,
    /// The true value is at most this (fail low).
    Upper,
}

impl Bound {
    /// Lower-case name as written in CSV files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        }
    }
}

/// A forward-pruning method: the name of the search step that tries it.
///
/// The same names appear in the search's step comments, in variant presets and in every
/// CSV file, so that the vocabulary is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Null-move pruning (any reduction rule, optionally verified).
    NullMove,
    /// ProbCut with one depth pair (Buro 1995; Jiang and Buro 2003).
    ProbCut,
    /// Multi-ProbCut: several depth pairs and thresholds per stage.
    Mpc,
    /// Stockfish-style ProbCut (captures, qsearch pre-test, depth-4 search).
    SfProbCut,
    /// Multi-Cut at expected cut nodes (Bjornsson and Marsland).
    MultiCut,
    /// Multi-Cut also at expected all nodes (Winands et al.).
    MultiCutAll,
    /// Multi-Cut triggered by a shallow TT lower bound (Eiriksson).
    MultiCutTt,
    /// Probabilistic alpha-beta confidence cut-off.
    ProbAb,
    /// Reverse futility pruning (static null move): static eval minus a depth margin >= beta.
    Rfp,
    /// Futility pruning at frontier and pre-frontier nodes (Heinz): quiet moves skipped.
    Futility,
    /// Late move (move-count) pruning: quiet moves past a depth-dependent count skipped.
    Lmp,
    /// SEE pruning: moves whose static exchange is below a depth-scaled bound skipped.
    SeePruning,
    /// History pruning: quiet moves with bad history at low depth skipped.
    HistoryPruning,
    /// Razoring: static eval far below alpha, confirmed by a quiescence search.
    Razoring,
    /// Internal iterative reductions (a reduction, never a cut).
    Iir,
    /// Stockfish's small ProbCut in check, on a deep TT capture lower bound.
    SfProbCutInCheck,
    /// Singular extension test; a cut is its multi-cut return.
    Singular,
    /// Futility pruning of captures in the quiescence search (every preset has it).
    QsearchFutility,
}

impl Method {
    /// Every method, in a fixed order (array index order).
    pub const ALL: [Method; 18] = [
        Method::NullMove,
        Method::ProbCut,
        Method::Mpc,
        Method::SfProbCut,
        Method::MultiCut,
        Method::MultiCutAll,
        Method::MultiCutTt,
        Method::ProbAb,
        Method::Rfp,
        Method::Futility,
        Method::Lmp,
        Method::SeePruning,
        Method::HistoryPruning,
        Method::Razoring,
        Method::Iir,
        Method::SfProbCutInCheck,
        Method::Singular,
        Method::QsearchFutility,
    ];

    /// Number of methods.
    pub const COUNT: usize = Method::ALL.len();

    /// [`Method::ALL`] lists the methods in the enum's order, once each: a method's
    /// [`Method::index`] is its place there, which the counters' arrays rely on. Held when the
    /// crate compiles (a method added out of order, or left out, fails the build here with
    /// this message, not a search later with an index out of place).
    const ALL_IN_ENUM_ORDER: () = {
        let mut i = 0;
        while i < Method::ALL.len() {
            assert!(
                Method::ALL[i] as usize == i,
                "Method::ALL must list every method in the enum's order"
            );
            i += 1;
        }
    };

    /// Kebab-case name as written in CSV files and presets.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Method::NullMove => "null-move",
            Method::ProbCut => "probcut",
            Method::Mpc => "mpc",
            Method::SfProbCut => "sf-probcut",
            Method::MultiCut => "multicut",
            Method::MultiCutAll => "multicut-all",
            Method::MultiCutTt => "multicut-tt",
            Method::ProbAb => "prob-ab",
            Method::Rfp => "rfp",
            Method::Futility => "futility",
            Method::Lmp => "lmp",
            Method::SeePruning => "see-pruning",
            Method::HistoryPruning => "history-pruning",
            Method::Razoring => "razoring",
            Method::Iir => "iir",
            Method::SfProbCutInCheck => "sf-probcut-in-check",
            Method::Singular => "singular",
            Method::QsearchFutility => "qsearch-futility",
        }
    }

    /// The method of a [`Method::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Array index, the position in [`Method::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        let () = Self::ALL_IN_ENUM_ORDER;
        self as usize
    }

    /// Whether the method skips moves (step 14a: one test per move it looks at, a cut is a
    /// pruned move) rather than cutting nodes (tests per node, a cut returns from the node).
    /// Their rates have different units: pruned moves per move considered, cut nodes per
    /// node tried.
    #[must_use]
    pub const fn prunes_moves(self) -> bool {
        matches!(
            self,
            Method::Futility
                | Method::Lmp
                | Method::SeePruning
                | Method::HistoryPruning
                | Method::QsearchFutility
        )
    }

    /// Whether a test's `shallow_value` is a search value (a shallow search's, quiescence's or
    /// a TT entry's), comparable with the node's value. It is not for reverse futility and IIR
    /// (a static evaluation), futility (an estimate), late move pruning (a move count), SEE
    /// pruning (an exchange) and history pruning (a history score).
    #[must_use]
    pub const fn tests_with_search_value(self) -> bool {
        !matches!(
            self,
            Method::Rfp
                | Method::Iir
                | Method::Futility
                | Method::Lmp
                | Method::SeePruning
                | Method::HistoryPruning
                | Method::QsearchFutility
        )
    }

    /// The unit of [`Method::prunes_moves`]'s rate, as tables print it.
    #[must_use]
    pub const fn rate_unit(self) -> &'static str {
        if self.prunes_moves() {
            "pruned moves / moves considered"
        } else {
            "cut nodes / nodes tried"
        }
    }
}

/// Outcome of one cut test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CutOutcome {
    /// The test proved (or predicted) value >= beta and the node returned.
    CutHigh,
    /// The test predicted value <= alpha and the node returned.
    CutLow,
    /// The test did not cut; the normal search went on.
    NoCut,
    /// A move-level test skipped one move, claiming its value <= alpha (`pruned_move`).
    PruneMove,
    /// The test reduced the node's depth instead of cutting it: an IIR reduction, or a
    /// verified null move's fail high (the node is searched one ply shallower to confirm it).
    Reduce,
}

impl CutOutcome {
    /// Kebab-case name as written in CSV files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CutOutcome::CutHigh => "cut-high",
            CutOutcome::CutLow => "cut-low",
            CutOutcome::NoCut => "no-cut",
            CutOutcome::PruneMove => "prune-move",
            CutOutcome::Reduce => "reduce",
        }
    }

    /// `CutHigh` when a test for value >= bound held, else `NoCut`.
    #[must_use]
    pub const fn high_if(cut: bool) -> CutOutcome {
        if cut {
            CutOutcome::CutHigh
        } else {
            CutOutcome::NoCut
        }
    }

    /// `CutLow` when a test for value <= bound held, else `NoCut`.
    #[must_use]
    pub const fn low_if(cut: bool) -> CutOutcome {
        if cut {
            CutOutcome::CutLow
        } else {
            CutOutcome::NoCut
        }
    }

    /// Whether the node was cut (or, for a move-level test, the move pruned).
    #[must_use]
    pub const fn is_cut(self) -> bool {
        !matches!(self, CutOutcome::NoCut | CutOutcome::Reduce)
    }
}

/// A node is entered (main search or quiescence).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeEvent {
    /// Sequence number of the node in the search (1-based, equals the node counter).
    pub node_id: u64,
    /// `node_id` of the parent; 0 for the root.
    pub parent_id: u64,
    /// Distance from the root in plies.
    pub ply: u32,
    /// Remaining depth in plies (0 or less in quiescence).
    pub depth: i32,
    /// Lower bound of the window, centipawns, side to move's view.
    pub alpha: i32,
    /// Upper bound of the window, centipawns, side to move's view.
    pub beta: i32,
    /// Expected node type (Knuth-Moore).
    pub node_type: NodeType,
    /// Game stage (Jiang and Buro's definition).
    pub stage: Stage,
    /// Static evaluation, centipawns, side to move's view (`None` when in check).
    pub static_eval: Option<i32>,
    /// Side to move is in check.
    pub in_check: bool,
    /// The node belongs to the quiescence search.
    pub quiescence: bool,
    /// The node is inside a shallow verification search of a pruning method.
    pub in_test: bool,
}

/// One forward-pruning test at a node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CutTestEvent {
    /// The node the test ran at.
    pub node_id: u64,
    /// Distance of that node from the root.
    pub ply: u32,
    /// Expected type of that node.
    pub node_type: NodeType,
    /// Lower bound of the node's window.
    pub alpha: i32,
    /// Upper bound of the node's window.
    pub beta: i32,
    /// The method that tried.
    pub method: Method,
    /// Depth of the node, d.
    pub depth: i32,
    /// Depth of the shallow search, d' (null move: the reduced depth).
    pub shallow_depth: i32,
    /// The bound the shallow value was compared against (centipawns).
    pub bound: i32,
    /// The shallow search's value v' (centipawns).
    pub shallow_value: i32,
    /// What the test decided.
    pub outcome: CutOutcome,
    /// Nodes searched by the test itself.
    pub nodes: u64,
    /// The move a move-level test pruned, UCI (`None` for a test of the node).
    pub pruned_move: Option<String>,
    /// Index of this test among the tests of `method` at this node, from 0. A method may run
    /// several tests at a node (ProbCut a high and a low one, Stockfish ProbCut one per
    /// capture), so tests do not compare across methods; the tests with index 0 count the
    /// nodes where the method was tried, and cuts per such node do.
    pub test_index: u32,
}

/// A node is left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeExitEvent {
    /// The node being left.
    pub node_id: u64,
    /// The value returned, centipawns, side to move's view.
    pub value: i32,
    /// What the value means relative to the window.
    pub bound: Bound,
    /// Best move in UCI notation, if any move was searched.
    pub best_move: Option<String>,
    /// Nodes in the subtree, this node included.
    pub subtree_nodes: u64,
    /// Which method cut the node, if a forward-pruning test did.
    pub cut_by: Option<Method>,
    /// Index of the move that failed high (0-based), if a move did.
    pub cut_move_index: Option<u32>,
}

/// An iteration of iterative deepening finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationEvent {
    /// Nominal depth completed.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centipawns (mate scores are large, see the search crate).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started, milliseconds.
    pub time_ms: u64,
    /// Principal variation in UCI notation.
    pub pv: Vec<String>,
}
