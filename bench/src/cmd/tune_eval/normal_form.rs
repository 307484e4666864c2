//! One way of writing tuned weights among the many that evaluate the same.
//!
//! Every knight, bishop, rook and queen adds one piece-square weight and one mobility weight, so
//! a constant can move between its mobility table and its piece-square table without changing
//! any evaluation; every side adds exactly one king-attack weight, so a constant added to that
//! whole table cancels between the sides. The tuner lets such constants drift. This module puts
//! them in one place: a mobility table reads zero at a typical square count (the rest is
//! material, in the piece-square table) and the king-attack table reads zero with no attack.

use cutlab_search::eval::layout::{
    KING_ATTACK, MOBILITY_BISHOP, MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK, PSQT, SECTIONS,
};

/// Each mobility table with its piece type (PSQT order) and the square count where it reads
/// zero: about what the piece reaches in a middlegame.
const MOBILITY: [(usize, usize, usize); 4] = [
    (MOBILITY_KNIGHT, 1, 4),
    (MOBILITY_BISHOP, 2, 6),
    (MOBILITY_ROOK, 3, 7),
    (MOBILITY_QUEEN, 4, 13),
];

/// Number of weights of the section starting at `offset`.
fn section_len(offset: usize) -> usize {
    SECTIONS
        .iter()
        .find(|s| s.offset == offset)
        .map_or(0, |s| s.len)
}

/// Rewrites `weights` in the normal form; every evaluation stays the same.
pub fn normalise(weights: &mut [[f64; 2]]) {
    for (table, piece, typical) in MOBILITY {
        let offset = weights[table + typical];
        for w in &mut weights[table..table + section_len(table)] {
            w[0] -= offset[0];
            w[1] -= offset[1];
        }
        for w in &mut weights[PSQT + piece * 64..PSQT + (piece + 1) * 64] {
            w[0] += offset[0];
            w[1] += offset[1];
        }
    }
    let no_attack = weights[KING_ATTACK];
    for w in &mut weights[KING_ATTACK..KING_ATTACK + section_len(KING_ATTACK)] {
        w[0] -= no_attack[0];
        w[1] -= no_attack[1];
    }
}

#[cfg(test)]
mod tests {
    use cutlab_search::eval::weights::WEIGHTS;

    use super::{super::samples::features_of, *};

    fn evaluate(features: &[(u16, i16)], weights: &[[f64; 2]]) -> [f64; 2] {
        let mut total = [0.0; 2];
        for &(index, count) in features {
            total[0] += weights[usize::from(index)][0] * f64::from(count);
            total[1] += weights[usize::from(index)][1] * f64::from(count);
        }
        total
    }

    #[test]
    fn the_normal_form_evaluates_the_same() {
        let mut weights: Vec<[f64; 2]> = WEIGHTS
            .iter()
            .map(|w| [f64::from(w.0), f64::from(w.1)])
            .collect();
        // Drift: constants added to the tables the normal form moves.
        for (i, w) in weights.iter_mut().enumerate() {
            w[0] += (i % 7) as f64;
            w[1] -= (i % 5) as f64;
        }
        let before = weights.clone();
        normalise(&mut weights);
        assert!(weights[MOBILITY_QUEEN + 13][0].abs() < 1e-9);
        assert!(weights[KING_ATTACK][1].abs() < 1e-9);
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "2r3k1/1q3ppp/p2b4/1p1Pn3/4Q3/1B3N2/PP3PPP/3R2K1 w - - 0 25",
            "8/5pk1/6p1/3P4/2P5/8/5PPP/6K1 b - - 0 40",
        ] {
            let pos = cutlab_search::Position::from_fen(fen).unwrap();
            let (features, _) = features_of(&pos);
            let (a, b) = (evaluate(&features, &before), evaluate(&features, &weights));
            assert!(
                (a[0] - b[0]).abs() < 1e-6 && (a[1] - b[1]).abs() < 1e-6,
                "{fen}"
            );
        }
    }
}
