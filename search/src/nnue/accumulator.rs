//! The hidden layer before its activation, from each side's perspective.

use shakmaty::{Board, Color, Piece, Square};

use super::network::{HIDDEN, Network, QA, QB, SCALE};

/// The input feature of `piece` on `square` seen from `perspective`: the piece's colour
/// relative to the perspective (own 0, other 1), its role (pawn 0 to king 5) and the square
/// mirrored top to bottom for black, `relative · 384 + role · 64 + square`.
#[must_use]
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let relative = usize::from(piece.color != perspective);
    let square = match perspective {
        Color::White => square,
        Color::Black => square.flip_vertical(),
    };
    relative * 384 + (piece.role as usize - 1) * 64 + square as usize
}

/// The feature layer's sums, `[white's perspective, black's perspective]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// The accumulator of `board` computed from scratch: the biases plus the column of every
    /// piece's feature.
    #[must_use]
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut accumulator = Accumulator {
            values: [net.feature_bias; 2],
        };
        for (square, piece) in board {
            accumulator.add(net, piece, square);
        }
        accumulator
    }

    /// Adds the columns of `piece` on `square`, from both perspectives.
    pub fn add(&mut self, net: &Network, piece: Piece, square: Square) {
        for (side, values) in Color::ALL.into_iter().zip(&mut self.values) {
            let column = &net.feature_weights[feature_index(side, piece, square)];
            for (v, &w) in values.iter_mut().zip(column) {
                *v += w;
            }
        }
    }

    /// Subtracts the columns of `piece` on `square`, from both perspectives.
    pub fn remove(&mut self, net: &Network, piece: Piece, square: Square) {
        for (side, values) in Color::ALL.into_iter().zip(&mut self.values) {
            let column = &net.feature_weights[feature_index(side, piece, square)];
            for (v, &w) in values.iter_mut().zip(column) {
                *v -= w;
            }
        }
    }

    /// The network's output for `turn` to move, centipawns, `turn`'s view.
    #[must_use]
    pub fn output(&self, net: &Network, turn: Color) -> i32 {
        let (us, them) = match turn {
            Color::White => (&self.values[0], &self.values[1]),
            Color::Black => (&self.values[1], &self.values[0]),
        };
        let (w_us, w_them) = net.output_weights.split_at(HIDDEN);
        // SCReLU: clamp(x, 0, QA)², in the order bullet's inference uses, (v·w)·v: v·w fits
        // an i16 for |w| ≤ 128, and the sum fits an i32 (checked when the network is read),
        // so v·w is taken in i16 and then widened, the form of SSE2's `pmaddwd` (an i16
        // product summed in pairs into i32), which the compiler then uses.
        let half = |values: &[i16; HIDDEN], weights: &[i16]| -> i32 {
            values
                .iter()
                .zip(weights)
                .map(|(&x, &w)| {
                    let v = x.clamp(0, QA as i16);
                    i32::from(v.wrapping_mul(w)) * i32::from(v)
                })
                .sum()
        };
        let sum = half(us, w_us) + half(them, w_them);
        let scaled = (i64::from(sum / QA) + i64::from(net.output_bias)) * i64::from(SCALE)
            / i64::from(QA * QB);
        i32::try_from(scaled).unwrap_or(if scaled < 0 { i32::MIN } else { i32::MAX })
    }

    /// The sums of one perspective.
    #[must_use]
    pub fn perspective(&self, side: Color) -> &[i16; HIDDEN] {
        match side {
            Color::White => &self.values[0],
            Color::Black => &self.values[1],
        }
    }
}
