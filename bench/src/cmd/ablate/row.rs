//! One row of an ablation: a comparison at one effort with every yardstick the run measured
//! for it (Elo and nElo under the stopping rule, the size adjusted for its look, tree size,
//! speed, false cuts, share of cuts, regret) and where its match stands; the report's tables,
//! CSV and sections read it.

use cutlab_analysis::{
    elo::{Pentanomial, RoutBound, Verdict},
    stats::Estimate,
};

use super::{
    Direction,
    played::{Status, repeated_share},
};

/// One comparison at one effort: what leaving the method out of the stack (`without`),
/// adding it to the baseline (`with`) or adding it to the stack (`added`) changes, against
/// that reference.
#[derive(Clone, Debug, Default)]
pub struct AblationRow {
    /// What is compared.
    pub direction: Direction,
    /// The method (preset part).
    pub method: String,
    /// Nodes per move of the match.
    pub effort_nodes: u64,
    /// Positions compared.
    pub positions: usize,
    /// Depth at fixed time, variant minus reference, plies, with its 95% t interval.
    pub delta_depth: Option<Estimate>,
    /// Nodes to a fixed depth, variant over reference (geometric mean), with its interval.
    pub tree_size_ratio: Option<Estimate>,
    /// Nodes per second at fixed time, variant over reference (geometric mean over positions),
    /// with its 95% interval: the method's cost per node.
    pub speed_ratio: Option<Estimate>,
    /// Share of the method's sampled cuts that a full-width re-search contradicts (Wilson).
    pub false_cut_rate: Option<Estimate>,
    /// Sampled cuts verified.
    pub verified_cuts: u64,
    /// The method's share of all cuts in the traced search (the stack for `without`, the
    /// variant otherwise).
    pub share_of_cuts: Option<f64>,
    /// Oracle regret, variant minus reference, centipawns, with its 95% t interval.
    pub delta_regret_cp: Option<Estimate>,
    /// Elo of the variant against the reference (pentanomial), with the stopping rule's
    /// interval (1 - 0.05/k for k looks).
    pub delta_elo: Option<Estimate>,
    /// Normalized Elo of the variant against the reference (fishtest's), at the same confidence.
    pub delta_nelo: Option<Estimate>,
    /// A rout's one Elo bound, where the interval is unbounded on the other side.
    pub elo_rout: Option<RoutBound>,
    /// The Elo adjusted for the look the match stopped at decided, before the last: the true
    /// Elo whose mean estimate among matches stopping at that look is `delta_elo`
    /// ([`cutlab_analysis::sequential::stage_adjusted`]); none for other rows.
    pub adjusted_elo: Option<f64>,
    /// Games played.
    pub games: usize,
    /// The match's game pairs.
    pub pentanomial: Pentanomial,
    /// The match's pairs whose two games are the same moves, and its pairs
    /// ([`repeated_pairs`](crate::common::packed_games::repeated_pairs)); none without its
    /// games' moves.
    pub repeated_pairs: Option<(usize, usize)>,
    /// Where the match stands: to play, running, or stopped with its verdict (inactive when
    /// its pairs repeat, else its interval's).
    pub status: Status,
    /// Stockfish 15.1's "(~N Elo)" note for the step the method follows (leave-one-out rows).
    pub stockfish_note: Option<&'static str>,
}

impl AblationRow {
    /// The share of the match's pairs that repeat their games.
    pub(super) fn repeated_share(&self) -> Option<f64> {
        self.repeated_pairs.and_then(repeated_share)
    }

    /// Whether the method did not act in the row's match ([`Verdict::Inactive`]).
    pub(super) fn inactive(&self) -> bool {
        self.status == Status::Stopped(Verdict::Inactive)
    }

    /// The row's Elo once its match has stopped with an interval and the method acted there:
    /// the Elo a worth, a trend or an exchange is read from.
    pub(crate) fn measured_elo(&self) -> Option<Estimate> {
        self.delta_elo
            .filter(|_| self.stopped() && !self.inactive())
    }

    /// Whether the row's match has stopped by its rule: its numbers are final.
    pub(super) fn stopped(&self) -> bool {
        matches!(self.status, Status::Stopped(_))
    }
}
