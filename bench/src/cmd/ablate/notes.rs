//! What others published about a method's worth, set beside ours: Stockfish 15.1's "(~N Elo)"
//! notes, Stockfish's later remarks on how a step scales with time control, and Ethereal
//! 11.80's ablation. Each is for removing a step, so the reports set them beside the
//! leave-one-out rows only.

/// Stockfish 15.1's own estimate of a step's worth, from the "(~N Elo)" notes of its
/// `search.cpp`, for the parts that follow one of its steps.
pub fn stockfish(method: &str) -> Option<&'static str> {
    Some(match method {
        "null-move-modern" => "~22 (step 9)",
        "rfp" => "~25 (step 8)",
        "futility" => "~9 (step 14, parent node)",
        "lmp" => "~7 (step 14, move count)",
        "see-pruning" => "~9 + ~3 (step 14, SEE)",
        "history-pruning" => "~2 (step 14, continuation history)",
        "sf-probcut" => "~4 (step 10)",
        "sf-probcut-in-check" => "~0 (step 12)",
        "singular" => "~58 (step 15, singular extension)",
        "lmr" => "~98 (step 17)",
        _ => return None,
    })
}

/// Stockfish's "(*Scaler)" remarks (added from 2025, when the "(~N Elo)" notes were dropped as
/// outdated): how a step's tuning scales with time control, as its `search.cpp` says it at
/// commit 762dd1d (2026-08-03). Parts without such a remark have none.
pub fn stockfish_scaling(method: &str) -> Option<&'static str> {
    Some(match method {
        "futility" => "more frequent futility pruning scales well",
        "iir" => "more aggressive IIR scales poorly",
        "singular" => "a higher singular beta and lower extension margins scale well",
        "lmr" => "larger reductions at ttPv nodes scale well; shallower re-searches do not",
        "history-pruning" => {
            "lower history divisors (more history in the pruning depth) scale well"
        }
        _ => return None,
    })
}

/// Ethereal 11.80's ablation at 12+0.12: the Elo lost when the step is removed
/// (`AndyGrant/Ethereal` pull request #113).
pub fn ethereal(method: &str) -> Option<&'static str> {
    Some(match method {
        "lmr" => "249",
        "null-move-modern" => "93",
        "lmp" => "77",
        "see-pruning" => "42",
        "rfp" => "32",
        "sf-probcut" => "9",
        "futility" => "3",
        _ => return None,
    })
}
