//! The forward-pruning methods, one file each: the source's pseudo-code above the code that
//! runs it, the serde parameter struct, the hook the node function calls
//! (`try_<method>(&node) -> Option<Exit>`), its cut-test events, and its unit tests (each
//! expectation written from the source's condition, not read back from the method's events;
//! `Node::test` builds the node situation). The search's tests in `tests/pruning.rs` add the
//! equivalence tests: a method with its trigger disabled searches the baseline's tree.
//!
//! | step | method | file | source |
//! |---|---|---|---|
//! | 6 | razoring | [`razoring`] | Birmingham and Kent 1977; Stockfish 15.1 step 7 |
//! | 7 | reverse futility pruning (static null move) | [`rfp`] | Stockfish 15.1 step 8 |
//! | 8 | ProbCut | [`probcut`] | Buro 1995; Jiang and Buro 2003, figure 2 |
//! | 8 | Multi-ProbCut | [`mpc`] | Buro 1997; Jiang and Buro 2003, figure 3 |
//! | 9 | null move (R = 2, 3, adaptive, verified) | [`null_move`] | Jiang and Buro 2003 §2.2; Heinz 1999; Tabibi and Netanyahu 2002 |
//! | 10 | Stockfish ProbCut | [`sf_probcut`] | Stockfish 15.1 step 10 |
//! | 11 | Multi-Cut (CUT, ALL, TT-triggered) | [`multicut`] | Björnsson and Marsland 1998; Winands et al. 2003; Eiríksson 2011 |
//! | 12 | internal iterative reductions | [`iir`] | Stockfish 15.1 step 11 |
//! | 13 | ProbCut in check | [`sf_probcut_in_check`] | Stockfish 15.1 step 12 |
//! | 14a | late move pruning | [`lmp`] | Stockfish 15.1 step 14 |
//! | 14a | futility pruning (frontier, pre-frontier) | [`futility`] | Heinz 1998 |
//! | 14a | history pruning | [`history_pruning`] | Stockfish 15.1 step 14 |
//! | 14a | SEE pruning | [`see_pruning`] | Stockfish 15.1 step 14 |
//! | 14b | singular extensions, multi-cut return | [`singular`] | Anantharaman et al. 1990; Stockfish 15.1 step 15 |
//! | q5a | quiescence futility pruning (every preset) | [`qsearch_futility`] | Stockfish 15.1 `qsearch` |
//!
//! The methods of step 14a act on one move, not on the node: their hooks answer whether the
//! move is skipped, and their events claim the move's value is at most alpha
//! (`CutOutcome::PruneMove`, with the move), which the cut verifier re-searches.
//!
//! ## Stockfish's margins in centipawns
//! Stockfish 15.1's margins are in its internal units, whose middlegame pawn is 126
//! (`PawnValueMg`); cutlab's evaluation is in centipawns. The five methods that take evaluation
//! or exchange margins from it (razoring, reverse futility, Stockfish ProbCut, ProbCut in check,
//! SEE pruning) use half of its numbers, rounded up: razoring 185 + 127·d², reverse futility
//! 83·d, ProbCut beta + 96 - 27·improving, in check beta + 209, SEE -111·d and
//! -(12·d² + 8·d). The scale was chosen by matches of the `modern` stack at 25,000 nodes per
//! move, 8moves_v3 openings in random order, each variant a TOML file (`cutlab match --engine
//! variant=A.toml --engine variant=B.toml --openings 8moves_v3.epd --order random --seed S
//! --nodes 25000`), Elo with its pentanomial 95% interval:
//!
//! | scale | against | games | Elo |
//! |---|---|---|---|
//! | 3/4 | 1 (Stockfish's numbers) | 600 (seed 31) | +42.5 ± 21.9 |
//! | 3/5 | 3/4 | 600 (seed 33) | +28.4 ± 22.0 |
//! | 1/2 | 3/5 | 600 (seed 44) | +20.3 ± 20.7 |
//!
//! The first two steps are decided (both before quiescence futility pruning came in); the
//! third, with it, is not quite (LOS 97.3%, pentanomial [18, 66, 108, 79, 29]) and is taken for
//! its estimate and the trend. Each step gains less than the one before; smaller scales were
//! not tried.
//! Futility pruning (Heinz's margins, already in centipawns), singular extensions' margin and
//! the move-count rules keep their sources' numbers.

pub mod futility;
pub mod history_pruning;
pub mod iir;
pub mod lmp;
pub mod mpc;
pub mod multicut;
pub mod null_move;
pub mod probcut;
pub mod qsearch_futility;
pub mod razoring;
pub mod rfp;
pub mod see_pruning;
pub mod sf_probcut;
pub mod sf_probcut_in_check;
pub mod singular;
