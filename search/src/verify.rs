//! Cut verification: re-search a sampled cut decision's node at the same depth with every
//! forward pruning and reduction of the main search off ([`verifier`]: TT cut-offs on, the
//! table cleared for each sample; the evaluation and the quiescence search are the ones the
//! searched tree used, futility included), and label the cut correct when the true value lies
//! on the side of the bound the cut claimed (cut high: value >= beta; cut low: value <= alpha).

use cutlab_instrument::{CutOutcome, CutSample};
use serde::Serialize;

use crate::{Position, Search, SearchConfig};

/// A sampled cut with its verdict.
#[derive(Clone, Debug, Serialize)]
pub struct VerifiedCut {
    /// The decision.
    pub sample: CutSample,
    /// The value the full-width search found, fail-soft against the claimed bound.
    pub true_value: i32,
    /// Whether the claim holds.
    pub correct: bool,
    /// Nodes the verification searched.
    pub nodes: u64,
}

/// The full-width search that verifies the cuts of a search configured as `traced`:
/// [`SearchConfig::plain`] with `traced`'s evaluation (its network too) and quiescence
/// futility, so that a verdict measures the pruning, never a change of evaluation (under a
/// network, values of the classical evaluation would read most cuts as false).
#[must_use]
pub fn verifier(traced: &SearchConfig) -> SearchConfig {
    SearchConfig {
        eval: traced.eval,
        network: traced.network.clone(),
        qsearch_futility: traced.qsearch_futility,
        ..SearchConfig::plain()
    }
}

/// Verifies every sample, taken from a search configured as `traced`, with a fresh
/// full-width engine ([`verifier`], TT of `hash_mib` MiB).
///
/// # Errors
/// A sample whose FEN does not parse (it names the position and node).
pub fn verify_cuts(
    samples: &[CutSample],
    traced: &SearchConfig,
    hash_mib: usize,
) -> Result<Vec<VerifiedCut>, String> {
    let mut search = Search::new(verifier(traced), hash_mib)?;
    samples
        .iter()
        .map(|sample| {
            let pos = Position::from_fen(&sample.fen).map_err(|e| {
                format!(
                    "cut sample {} node {}: {e}",
                    sample.position, sample.node_id
                )
            })?;
            search.clear();
            let (true_value, correct) = match sample.outcome {
                CutOutcome::PruneMove => {
                    let text = sample.pruned_move.as_deref().unwrap_or_default();
                    let child = pos.play(pos.parse_uci(text).map_err(|e| {
                        format!(
                            "cut sample {} node {}: pruned move: {e}",
                            sample.position, sample.node_id
                        )
                    })?);
                    // The claim: the move's value <= alpha, from the child's side >= -alpha.
                    let (beta, depth) = (-sample.alpha, sample.depth - 1);
                    let v = if depth <= 0 && !child.in_check() {
                        search.quiescence_value(&child, beta - 1, beta).0
                    } else {
                        search.search_window(&child, beta - 1, beta, depth)
                    };
                    (-v, -v <= sample.alpha)
                }
                CutOutcome::CutLow => {
                    let v =
                        search.search_window(&pos, sample.alpha, sample.alpha + 1, sample.depth);
                    (v, v <= sample.alpha)
                }
                CutOutcome::CutHigh | CutOutcome::NoCut | CutOutcome::Reduce => {
                    let v = search.search_window(&pos, sample.beta - 1, sample.beta, sample.depth);
                    (v, v >= sample.beta)
                }
            };
            Ok(VerifiedCut {
                sample: sample.clone(),
                true_value,
                correct,
                nodes: search.nodes(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use cutlab_instrument::Method;

    use super::*;

    fn sample(fen: &str, beta: i32, depth: i32) -> CutSample {
        CutSample {
            position: "t".into(),
            node_id: 1,
            fen: fen.into(),
            method: Method::NullMove,
            depth,
            alpha: beta - 1,
            beta,
            bound: beta,
            shallow_value: beta + 50,
            outcome: CutOutcome::CutHigh,
            pruned_move: None,
        }
    }

    #[test]
    fn a_wrong_cut_is_labelled_false_and_a_right_one_true() {
        // White is a queen up: claiming value >= +300 is right, claiming >= +2000 is wrong.
        let fen = "4k3/8/8/8/8/8/4Q3/4K3 b - - 0 1";
        let fen_white = "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1";
        let checked = verify_cuts(
            &[sample(fen_white, 300, 3), sample(fen_white, 2000, 3)],
            &SearchConfig::plain(),
            1,
        )
        .unwrap();
        assert!(checked[0].correct, "{:?}", checked[0].true_value);
        assert!(!checked[1].correct, "{:?}", checked[1].true_value);
        // From Black's side the same claim (Black >= 0) is false.
        let black = verify_cuts(&[sample(fen, 0, 3)], &SearchConfig::plain(), 1).unwrap();
        assert!(!black[0].correct);
    }

    /// A cut of a search under the network is verified with the network: a claim between the
    /// two evaluations' values of a quiet position is read by the traced search's evaluation.
    #[test]
    fn a_cut_is_verified_with_the_evaluation_of_the_search_that_made_it() {
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
        let network = SearchConfig {
            eval: crate::Eval::Nnue,
            ..SearchConfig::preset("null-move+lmr").unwrap()
        };
        let classical = SearchConfig::preset("null-move+lmr").unwrap();
        let value = |config: &SearchConfig| {
            let mut search = Search::new(verifier(config), 1).unwrap();
            let pos = Position::from_fen(fen).unwrap();
            search.search_window(&pos, -30_000, 30_000, 1)
        };
        let (by_network, by_classical) = (value(&network), value(&classical));
        assert!(
            (by_network - by_classical).abs() >= 2,
            "{by_network} {by_classical}"
        );
        let beta = (by_network + by_classical) / 2 + 1;
        let claim = [sample(fen, beta, 1)];
        let under_network = verify_cuts(&claim, &network, 1).unwrap();
        let under_classical = verify_cuts(&claim, &classical, 1).unwrap();
        assert_eq!(under_network[0].correct, by_network >= beta);
        assert_eq!(under_classical[0].correct, by_classical >= beta);
        assert_ne!(under_network[0].correct, under_classical[0].correct);
    }

    #[test]
    fn bad_fen_is_an_error_naming_the_sample() {
        let err = verify_cuts(&[sample("nonsense", 0, 2)], &SearchConfig::plain(), 1).unwrap_err();
        assert!(err.contains("cut sample t node 1"), "{err}");
    }
}

#[cfg(test)]
mod pruned_move_tests {
    use cutlab_instrument::{CutOutcome, CutSample, Method};

    use super::verify_cuts;

    fn pruned(fen: &str, mv: &str, alpha: i32, depth: i32) -> CutSample {
        CutSample {
            position: "t".into(),
            node_id: 1,
            fen: fen.into(),
            method: Method::Futility,
            depth,
            alpha,
            beta: alpha + 1,
            bound: alpha,
            shallow_value: alpha - 100,
            outcome: CutOutcome::PruneMove,
            pruned_move: Some(mv.into()),
        }
    }

    #[test]
    fn a_pruned_move_is_checked_against_alpha() {
        // White to move, a rook up: Ra1-a2 keeps about a rook, so "<= +2000" holds and
        // "<= 0" is false.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let checked = verify_cuts(
            &[pruned(fen, "a1a2", 2000, 2), pruned(fen, "a1a2", 0, 2)],
            &crate::SearchConfig::plain(),
            1,
        )
        .unwrap();
        assert!(checked[0].correct, "{}", checked[0].true_value);
        assert!(!checked[1].correct, "{}", checked[1].true_value);
        let err = verify_cuts(
            &[pruned(fen, "a1h8", 0, 2)],
            &crate::SearchConfig::plain(),
            1,
        )
        .unwrap_err();
        assert!(err.contains("pruned move"), "{err}");
    }
}
