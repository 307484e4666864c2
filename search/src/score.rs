//! Score conventions: centipawns from the side to move's view, mate scores carrying distance.

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Score of a draw.
pub const DRAW: i32 = 0;

/// Whether `score` announces a forced mate (for either side).
#[must_use]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score relative to the current ply into one relative to this node, for storing
/// in the transposition table (mate distances are counted from the stored node).
#[must_use]
pub const fn to_tt(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Inverse of [`to_tt`]: a stored score made relative to the root again.
#[must_use]
pub const fn from_tt(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// A score as UCI writes it: `cp N` or `mate N` (moves, negative when being mated).
#[must_use]
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    /// The instruments set mate scores apart by the same bound.
    #[test]
    fn the_instruments_know_the_mate_bound() {
        assert_eq!(cutlab_instrument::MATE_BOUND, super::MATE_BOUND);
    }

    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0, 1, 7, 40] {
            for score in [MATE - 3 - ply as i32, -MATE + 9 + ply as i32, 120, -45] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
    }

    #[test]
    fn uci_mate_counts_moves() {
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-MATE + 2), "mate -1");
        assert_eq!(uci_score(-MATE + 4), "mate -2");
        assert_eq!(uci_score(35), "cp 35");
    }
}
