//! The training-data record: one position in bulletformat's `ChessBoard` layout, 32 bytes,
//! the board turned to the side to move's view (bullet and our trainer read it). `datagen`
//! writes records with [`record`]; `train` checks them with [`invalid_record`], reads them
//! with [`read_record`] and turns them into the network's inputs with [`features`], the
//! engine's own feature index, and its target with [`target`], the engine's own scale.
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | occupancy, little-endian, squares from the side to move's view |
//! | 8-23 | a nibble per occupied square in order: colour bit 3 (0 the side to move's), role 0-5 |
//! | 24-25 | score, centipawns, side to move's view, `i16` little-endian |
//! | 26 | result, side to move's view: 0 loss, 1 draw, 2 win |
//! | 27, 28 | the side to move's and the other king's square |
//! | 29-31 | unused |

use bulletformat::ChessBoard;
use cutlab_search::nnue::{SCALE, feature_index};
use shakmaty::{Board, Color, Piece, Role, Square};

/// The bytes of a record.
pub const RECORD_BYTES: usize = 32;

/// The network's inputs of one position: the active features from the side to move's view,
/// from the other side's, and how many there are.
pub type Features = ([u16; 32], [u16; 32], usize);

/// A position as a record: `white_score` in centipawns and `white_result` (1, 0.5, 0) from
/// white's view (the layout turns both to the side to move's).
///
/// # Errors
/// A board bulletformat cannot hold.
pub fn record(
    b: &Board,
    turn: Color,
    white_score: i16,
    white_result: f32,
) -> Result<ChessBoard, String> {
    let bbs = [
        b.by_color(Color::White).0,
        b.by_color(Color::Black).0,
        b.by_role(Role::Pawn).0,
        b.by_role(Role::Knight).0,
        b.by_role(Role::Bishop).0,
        b.by_role(Role::Rook).0,
        b.by_role(Role::Queen).0,
        b.by_role(Role::King).0,
    ];
    ChessBoard::from_raw(
        bbs,
        usize::from(turn == Color::Black),
        white_score,
        white_result,
    )
}

/// What makes 32 bytes no record `datagen` writes, or `None` for a valid one. Read unchecked,
/// such a record panicked in bulletformat or was trained on with a result that is neither a
/// loss, a draw nor a win.
#[must_use]
pub fn invalid_record(b: &[u8]) -> Option<String> {
    let occupied = u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8])).count_ones();
    if !(2..=32).contains(&occupied) {
        return Some(format!("{occupied} occupied squares"));
    }
    let nibbles = b[8..24].iter().flat_map(|&byte| [byte & 15, byte >> 4]);
    if let Some(code) = nibbles.take(occupied as usize).find(|code| code & 7 > 5) {
        return Some(format!("piece code {code}"));
    }
    if b[26] > 2 {
        return Some(format!("result {} (0, 1 or 2: loss, draw, win)", b[26]));
    }
    if b[27] > 63 || b[28] > 63 {
        return Some(format!("king squares {} and {}", b[27], b[28]));
    }
    None
}

/// The record in `b` (32 bytes, checked by [`invalid_record`]).
#[must_use]
pub fn read_record(b: &[u8]) -> ChessBoard {
    let mut pcs = [0_u8; 16];
    pcs.copy_from_slice(&b[8..24]);
    ChessBoard {
        occ: u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8])),
        pcs,
        score: i16::from_le_bytes([b[24], b[25]]),
        result: b[26],
        ksq: b[27],
        opp_ksq: b[28],
        extra: [b[29], b[30], b[31]],
    }
}

/// The network's inputs of a record, by the engine's [`feature_index`]: the record's board is
/// the side to move's view, so its side to move plays white's part and the other black's.
#[must_use]
pub fn features(record: &ChessBoard) -> Features {
    let mut features: Features = ([0; 32], [0; 32], 0);
    for (code, square) in *record {
        let n = features.2;
        if n == 32 {
            break;
        }
        let (Some(role), Some(square)) = (
            Role::try_from(u32::from(code & 7) + 1).ok(),
            Square::try_from(square).ok(),
        ) else {
            continue;
        };
        let color = Color::from_white(code >> 3 == 0);
        let piece = Piece { color, role };
        let index = |perspective| u16::try_from(feature_index(perspective, piece, square));
        let (Ok(us), Ok(them)) = (index(Color::White), index(Color::Black)) else {
            continue;
        };
        features.0[n] = us;
        features.1[n] = them;
        features.2 += 1;
    }
    features
}

/// The training target of a position: `wdl` of the `result` (0, 0.5, 1) and the rest of the
/// score through the sigmoid of the network's scale (bullet's blend).
#[must_use]
pub fn target(score_cp: i16, result: f32, wdl: f32) -> f32 {
    #[expect(clippy::cast_precision_loss, reason = "the scale, 400")]
    let scale = SCALE as f32;
    let score = 1.0 / (1.0 + (-f32::from(score_cp) / scale).exp());
    wdl * result + (1.0 - wdl) * score
}

#[cfg(test)]
mod tests {
    use cutlab_search::Position;
    use shakmaty::Position as _;

    use super::*;

    /// A record of a position (bulletformat turns it to the side to move's view) gives the
    /// features the engine computes for that position, for either side to move.
    #[test]
    fn a_record_has_the_features_of_its_position() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let b = pos.chess().board();
            let record = record(b, pos.turn(), 35, 1.0).unwrap();
            let (us, them, n) = features(&record);
            let mut got: Vec<(u16, u16)> = us[..n]
                .iter()
                .copied()
                .zip(them[..n].iter().copied())
                .collect();
            let turn = pos.turn();
            let mut expected: Vec<(u16, u16)> = b
                .iter()
                .map(|(square, piece)| {
                    (
                        u16::try_from(feature_index(turn, piece, square)).unwrap(),
                        u16::try_from(feature_index(!turn, piece, square)).unwrap(),
                    )
                })
                .collect();
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(got, expected, "{fen}");
            // Score and result from the side to move's view.
            let (score, result) = if pos.turn() == Color::White {
                (35, 2)
            } else {
                (-35, 0)
            };
            assert_eq!((record.score, record.result), (score, result));
        }
    }
}
