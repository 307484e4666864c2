//! Stockfish-style ProbCut (Stockfish 15.1, `search.cpp`, step 9 "ProbCut"): if a good capture
//! beats beta by a margin in a reduced search, the node will likely fail high too.
//!
//! ```text
//! probCutBeta = beta + 191;
//! if (!PvNode && depth > 4 && abs(beta) < VALUE_TB_WIN_IN_MAX_PLY
//!     && !(ttDepth >= depth - 3 && ttValue < probCutBeta)) {
//!     for (move in TT move and captures with SEE >= probCutBeta - staticEval) {
//!         value = -qsearch(-probCutBeta, -probCutBeta + 1);          // preliminary check
//!         if (value >= probCutBeta)
//!             value = -search(-probCutBeta, -probCutBeta + 1, depth - 4);
//!         if (value >= probCutBeta) {
//!             tt.save(LOWER, value, depth - 3, move);
//!             return value;
//!         }
//!     }
//! }
//! ```

use serde::{Deserialize, Serialize};

/// Parameters of Stockfish-style ProbCut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SfProbCutParams {
    /// probCutBeta = beta + margin (centipawns; 191 in Stockfish 15.1 before its
    /// `improving` adjustment). A margin beyond the mate range disables the test.
    pub margin: i32,
    /// Depth reduction of the verification search (Stockfish: 4).
    pub reduction: i32,
    /// Minimum depth + 1 (Stockfish: depth > 4).
    pub min_depth: i32,
}

impl Default for SfProbCutParams {
    fn default() -> Self {
        SfProbCutParams {
            margin: 191,
            reduction: 4,
            min_depth: 5,
        }
    }
}
