//! The engine: a [`Search`] owns the transposition table, the ordering tables and the
//! configuration, and runs iterative deepening over the principal-variation search.
//!
//! The parts, one idea each:
//! - `iterative`: iterative deepening and aspiration windows (the root);
//! - `alpha_beta`: the node function, a page of numbered steps, each calling one hook;
//! - `quiescence`: the capture search at the frontier;
//! - `node`: the `Node` a step works on, its `Exit`, and the events both send;
//! - `lmr`: late move reductions;
//! - `draw`: repetition and the other draw rules;
//! - the forward-pruning methods the steps call live in [`crate::pruning`], and probabilistic
//!   alpha-beta, which replaces the node function, in [`crate::prob_ab`].

pub(crate) mod alpha_beta;
mod draw;
mod iterative;
pub mod lmr;
mod node;
mod quiescence;

use std::sync::{Arc, atomic::AtomicBool};

use cutlab_instrument::{Bound, Method, NoopObserver, Observer};
use shakmaty::Move;

use crate::{
    config::{Eval, SearchConfig},
    eval::{PawnCache, evaluate_cached},
    history::{Histories, PieceTo},
    limits::TimeManager,
    nnue::{Network, NnueStack},
    position::Position,
    score::{MATE, MATE_BOUND},
    tt::{PackedMove, TranspositionTable},
};

pub(crate) use alpha_beta::MoveCandidate;
pub(crate) use draw::NULL_KEY;
pub use iterative::AspirationParams;
pub(crate) use node::{Exit, Node, Probe, Shallow};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: u32 = 120;
/// Deepest nominal depth of iterative deepening.
const MAX_DEPTH: i32 = 100;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// Tests and cuts per forward-pruning method in one search.
///
/// A method may run several tests at one node (ProbCut a high and a low test per depth pair,
/// Stockfish ProbCut one per capture), so rates per test do not compare across methods; the
/// rate per node (`cuts / nodes_tried`: a node is cut at most once) does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutCounts {
    /// Tests tried, by [`Method::index`].
    pub tries: [u64; Method::COUNT],
    /// Tests that cut, by [`Method::index`].
    pub cuts: [u64; Method::COUNT],
    /// Nodes at which the method ran one or more tests, by [`Method::index`].
    pub nodes_tried: [u64; Method::COUNT],
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move of the last completed iteration (`None` when there is no legal move).
    pub best_move: Option<Move>,
    /// Its score, centipawns or mate score, side to move's view.
    pub score: i32,
    /// Last completed nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (main and quiescence).
    pub nodes: u64,
    /// Wall time, milliseconds.
    pub time_ms: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<Move>,
    /// Forward-pruning tests and cuts.
    pub cuts: CutCounts,
}

/// Progress of a search after each iteration (or aspiration re-search), for UCI `info`.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score, side to move's view.
    pub score: i32,
    /// `Lower` or `Upper` when an aspiration window failed.
    pub bound: Bound,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Permille of the TT in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What the search keeps per ply (the "search stack").
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    /// Quiet moves that cut off at this ply, newest first.
    pub killers: [PackedMove; 2],
    /// Static evaluation of the node at this ply.
    pub static_eval: i32,
    /// Verified null move: whether the children of this ply still verify (Tabibi and
    /// Netanyahu: after a verified fail high the subtree uses standard null-move cuts).
    pub verify_children: bool,
    /// Tests each method has run at the node of this ply, by [`Method::index`].
    pub tests: [u32; Method::COUNT],
    /// The move being searched from this ply, for its children's continuation history
    /// (`None` before the first, and for a null move).
    pub moved: Option<PieceTo>,
}

/// A search engine: its TT, ordering tables and configuration; generic over the observer.
pub struct Search<O: Observer = NoopObserver> {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// What is switched on.
    pub config: SearchConfig,
    /// Receives the events.
    pub observer: O,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) history: Histories,
    pub(crate) pawn_cache: PawnCache,
    /// Per-ply state, with two spare frames past [`MAX_PLY`] for the grandchildren's killers
    /// that `begin_node` clears.
    pub(crate) frames: Vec<Frame>,
    pub(crate) pv: Vec<[PackedMove; MAX_PLY as usize + 1]>,
    pub(crate) pv_len: Vec<usize>,
    /// Keys of the game and the search path, for repetitions; [`draw::NULL_KEY`] after a null
    /// move.
    pub(crate) keys: Vec<u64>,
    pub(crate) lmr: lmr::LmrTable,
    pub(crate) nodes: u64,
    pub(crate) node_limit: u64,
    /// The root moves searched (UCI `searchmoves`); empty: every legal move.
    pub(crate) root_moves: Vec<Move>,
    pub(crate) seldepth: u32,
    /// Depth of the root's search (Stockfish's `rootDepth`), set when the root is entered.
    pub(crate) root_depth: u32,
    pub(crate) cuts: CutCounts,
    pub(crate) time: Option<TimeManager>,
    pub(crate) aborted: bool,
    /// Depth of nesting inside the shallow searches of pruning tests (for the node events).
    pub(crate) in_test: u32,
    /// Depth of nesting inside ProbCut and MPC shallow searches (MPC is not recursive).
    pub(crate) in_probcut: u32,
    /// The move the next node entered excludes (a singular search), taken by `begin_node`.
    pub(crate) pending_excluded: Option<Move>,
    /// The network that evaluates in place of the classical evaluation, when one is set.
    pub(crate) network: Option<Arc<Network>>,
    /// The network's accumulators along the current line.
    pub(crate) nnue: Box<NnueStack>,
}

impl Search<NoopObserver> {
    /// An engine with a TT of `hash_mib` MiB and no observer.
    ///
    /// # Errors
    /// A configuration whose network cannot be loaded ([`SearchConfig::network`]).
    pub fn new(config: SearchConfig, hash_mib: usize) -> Result<Search<NoopObserver>, String> {
        Search::with_observer(config, hash_mib, NoopObserver)
    }

    /// The engine's default for play ([`SearchConfig::default`], the classical evaluation:
    /// nothing to load) with a TT of `hash_mib` MiB.
    #[must_use]
    pub fn default_engine(hash_mib: usize) -> Search<NoopObserver> {
        Search::assemble(SearchConfig::default(), hash_mib, NoopObserver, None)
    }
}

impl<O: Observer> Search<O> {
    /// An engine that reports to `observer`.
    ///
    /// # Errors
    /// A configuration whose network cannot be loaded ([`SearchConfig::network`]): never the
    /// classical evaluation in its place.
    pub fn with_observer(
        config: SearchConfig,
        hash_mib: usize,
        observer: O,
    ) -> Result<Search<O>, String> {
        let network = config.network()?;
        Ok(Search::assemble(config, hash_mib, observer, network))
    }

    /// An engine of `config` evaluating with `network` (the one `config` names).
    fn assemble(
        config: SearchConfig,
        hash_mib: usize,
        observer: O,
        network: Option<Arc<Network>>,
    ) -> Search<O> {
        debug_assert_eq!(network.is_some(), config.eval == Eval::Nnue);
        Search {
            tt: TranspositionTable::new(hash_mib),
            lmr: lmr::LmrTable::new(config.lmr.as_ref()),
            config,
            observer,
            stop: Arc::new(AtomicBool::new(false)),
            history: Histories::default(),
            pawn_cache: PawnCache::default(),
            frames: vec![Frame::default(); MAX_PLY as usize + 3],
            pv: vec![[PackedMove::NONE; MAX_PLY as usize + 1]; MAX_PLY as usize + 1],
            pv_len: vec![0; MAX_PLY as usize + 1],
            keys: Vec::with_capacity(1024),
            nodes: 0,
            node_limit: u64::MAX,
            root_moves: Vec::new(),
            seldepth: 0,
            root_depth: 0,
            cuts: CutCounts::default(),
            time: None,
            aborted: false,
            in_test: 0,
            in_probcut: 0,
            pending_excluded: None,
            network,
            nnue: Box::default(),
        }
    }

    /// Searches with `config` from now on (a UCI `Variant` or `Eval`); on a change of
    /// evaluation the accumulators and the TT's evaluations are forgotten.
    ///
    /// # Errors
    /// A configuration whose network cannot be loaded: the engine keeps its configuration.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), String> {
        let wanted = config.network()?;
        let same = match (&wanted, &self.network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.network = wanted;
            self.nnue.clear();
            self.tt.clear();
        }
        self.lmr = lmr::LmrTable::new(config.lmr.as_ref());
        self.config = config;
        Ok(())
    }

    /// The static evaluation of `pos` at `ply`, side to move's view: the network's when one
    /// is set (kept inside the non-mate range), else the classical one.
    pub(crate) fn static_eval(&mut self, pos: &Position, ply: u32) -> i32 {
        match &self.network {
            Some(net) => clamp_eval(self.nnue.evaluate(net, pos, ply as usize)),
            None => evaluate_cached(pos, &mut self.pawn_cache),
        }
    }

    /// The flag that stops a running search when set (shared with the UCI thread). The
    /// caller clears it before a new search.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learnt: TT, history, killers (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.frames.fill(Frame::default());
    }

    /// Nodes searched so far in the current or last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// A network's evaluation kept inside the non-mate range (an untrained or odd network could
/// otherwise claim a mate).
pub(crate) fn clamp_eval(eval: i32) -> i32 {
    eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// Whether `score` is a mate score in the side to move's favour or against it, for callers.
#[must_use]
pub fn mate_in_plies(score: i32) -> Option<i32> {
    (score.abs() >= MATE_BOUND).then(|| (MATE - score.abs()) * score.signum())
}
