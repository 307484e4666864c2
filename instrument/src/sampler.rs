//! Keeps a seeded sample of the cut decisions a search took, with the position (FEN), window
//! and depth, for verification by a re-search with forward pruning off.

use serde::{Deserialize, Serialize};

use crate::{
    CutOutcome, CutTestEvent, Method, Observer,
    csv_sink::{sampled, splitmix64},
};

/// One sampled cut decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CutSample {
    /// Position id (as set by the caller).
    pub position: String,
    /// Node id in that position's search.
    pub node_id: u64,
    /// The node's position.
    pub fen: String,
    /// The method that cut.
    pub method: Method,
    /// Remaining depth at the node.
    pub depth: i32,
    /// Window lower bound, centipawns.
    pub alpha: i32,
    /// Window upper bound, centipawns.
    pub beta: i32,
    /// The bound the test compared with.
    pub bound: i32,
    /// The shallow value.
    pub shallow_value: i32,
    /// The claim: cut high (value >= beta), cut low (value <= alpha), or a pruned move
    /// (its value <= alpha).
    pub outcome: CutOutcome,
    /// The move a move-level test pruned, UCI.
    #[serde(default)]
    pub pruned_move: Option<String>,
}

/// The sampling observer (cut-test events only).
#[derive(Debug, Default)]
pub struct CutSampler {
    rate: f64,
    seed: u64,
    position: String,
    /// A hash of the position id: the sample of one position does not depend on which
    /// positions were searched before it (shards draw the cuts one process would).
    position_key: u64,
    /// The sampled decisions, in search order.
    pub samples: Vec<CutSample>,
}

impl CutSampler {
    /// Keeps each cut with probability `rate`, reproducibly for a `seed`.
    #[must_use]
    pub fn new(rate: f64, seed: u64) -> CutSampler {
        CutSampler {
            rate,
            seed,
            position: String::new(),
            position_key: 0,
            samples: Vec::new(),
        }
    }

    /// Names the position of the next search.
    pub fn set_position(&mut self, id: &str) {
        id.clone_into(&mut self.position);
        self.position_key = id.bytes().fold(0, |h, b| splitmix64(h ^ u64::from(b)));
    }
}

impl Observer for CutSampler {
    const NODE_EVENTS: bool = false;

    fn cut_test(&mut self, e: &CutTestEvent, fen: &dyn Fn() -> String) {
        let key = self.position_key ^ e.node_id ^ u64::from(e.test_index).rotate_left(40);
        if !e.outcome.is_cut() || e.ply == 0 || !sampled(self.seed, key, self.rate) {
            return;
        }
        self.samples.push(CutSample {
            position: self.position.clone(),
            node_id: e.node_id,
            fen: fen(),
            method: e.method,
            depth: e.depth,
            alpha: e.alpha,
            beta: e.beta,
            bound: e.bound,
            shallow_value: e.shallow_value,
            outcome: e.outcome,
            pruned_move: e.pruned_move.clone(),
        });
    }
}
