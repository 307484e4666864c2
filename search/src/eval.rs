//! Static evaluation: tapered PeSTO material and piece-square tables, plus mobility, pawn
//! structure (passed, doubled, isolated pawns), bishop pair and king safety.
//!
//! All terms are computed for White and Black and tapered between a middlegame and an endgame
//! score by PeSTO's game phase (24 = all pieces on the board). The result is in centipawns from
//! the side to move's view.

use shakmaty::{Bitboard, Board, Color, Position as _, Role, Square, attacks};

use crate::{pesto, position::Position};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Score(i32, i32);

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        self.0 += rhs.0;
        self.1 += rhs.1;
    }
}

impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, rhs: Score) {
        self.0 -= rhs.0;
        self.1 -= rhs.1;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Mobility weight per reachable square, and the square count a piece typically reaches.
const MOBILITY: [(Score, i32); 4] = [
    (Score(4, 4), 4),  // knight
    (Score(5, 5), 6),  // bishop
    (Score(2, 4), 7),  // rook
    (Score(1, 2), 13), // queen
];
const DOUBLED_PAWN: Score = Score(-10, -20);
const ISOLATED_PAWN: Score = Score(-12, -12);
/// Passed-pawn bonus by rank from the pawn's own side (index 1 = second rank).
const PASSED_PAWN: [Score; 8] = [
    Score(0, 0),
    Score(5, 10),
    Score(8, 16),
    Score(14, 30),
    Score(28, 55),
    Score(50, 95),
    Score(80, 145),
    Score(0, 0),
];
const BISHOP_PAIR: Score = Score(30, 50);
/// Bonus per own pawn shielding the king (on the king's file or next to it, one or two ranks ahead).
const PAWN_SHIELD: Score = Score(12, 0);
/// Weight of an attacker of the king zone: knight, bishop, rook, queen.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// Cap on the king-attack penalty (centipawns, middlegame only).
const KING_ATTACK_MAX: i32 = 450;

/// Piece-square values with the material included, indexed `[color][role][square]` where
/// squares count from a1 = 0 as in shakmaty.
static PSQT: [[[Score; 64]; 6]; 2] = build_psqt();

const fn build_psqt() -> [[[Score; 64]; 6]; 2] {
    let mut t = [[[Score(0, 0); 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // PeSTO's tables start at a8: White's square s reads index s ^ 56, Black's the mirror.
            let white = sq ^ 56;
            t[0][role][sq] = Score(
                pesto::MG_VALUE[role] + pesto::MG_TABLE[role][white],
                pesto::EG_VALUE[role] + pesto::EG_TABLE[role][white],
            );
            t[1][role][sq] = Score(
                pesto::MG_VALUE[role] + pesto::MG_TABLE[role][sq],
                pesto::EG_VALUE[role] + pesto::EG_TABLE[role][sq],
            );
            sq += 1;
        }
        role += 1;
    }
    t
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// Squares in front of each pawn of `color` on its own and the adjacent files, filled forward.
fn front_span(pawns: u64, color: Color) -> u64 {
    let mut fill = match color {
        Color::White => pawns << 8,
        Color::Black => pawns >> 8,
    };
    for shift in [8, 16, 32] {
        fill |= match color {
            Color::White => fill << shift,
            Color::Black => fill >> shift,
        };
    }
    fill | ((fill & !FILE_A) >> 1) | ((fill & !(FILE_A << 7)) << 1)
}

/// Evaluation of `pos` in centipawns, side to move's view.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.chess().board();
    let mut total = Score::default();
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        let (side, counted) = side_score(board, color);
        phase += counted;
        if color == Color::White {
            total += side;
        } else {
            total -= side;
        }
    }
    let phase = phase.min(24);
    let white_view = (total.0 * phase + total.1 * (24 - phase)) / 24;
    match pos.turn() {
        Color::White => white_view,
        Color::Black => -white_view,
    }
}

/// All terms for one side, and its contribution to the game phase.
fn side_score(board: &Board, color: Color) -> (Score, i32) {
    let ci = color_index(color);
    let us = board.by_color(color).0;
    let them = board.by_color(!color).0;
    let occupied = board.occupied();
    let our_pawns = board.pawns().0 & us;
    let their_pawns = board.pawns().0 & them;
    let their_pawn_attacks = pawn_attacks(their_pawns, !color);
    let mobility_area = !us & !their_pawn_attacks;
    let their_king = board.king_of(!color);
    let king_zone = their_king.map_or(0, |k| attacks::king_attacks(k).0 | (1 << k.to_usize()));

    let mut score = Score::default();
    let mut phase = 0;
    let mut attack_weight = 0;
    let mut attackers = 0;

    for sq in Bitboard(us) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let ri = role as usize - 1;
        score += PSQT[ci][ri][sq.to_usize()];
        phase += pesto::PHASE_INC[ri];
        let reach = match role {
            Role::Knight => attacks::knight_attacks(sq),
            Role::Bishop => attacks::bishop_attacks(sq, occupied),
            Role::Rook => attacks::rook_attacks(sq, occupied),
            Role::Queen => attacks::queen_attacks(sq, occupied),
            Role::Pawn | Role::King => continue,
        }
        .0;
        let (weight, typical) = MOBILITY[ri - 1];
        let count = i32::try_from((reach & mobility_area).count_ones()).unwrap_or(0);
        score += weight * (count - typical);
        if reach & king_zone != 0 {
            attackers += 1;
            attack_weight += KING_ATTACK_WEIGHT[ri - 1];
        }
    }

    if (board.bishops().0 & us).count_ones() >= 2 {
        score += BISHOP_PAIR;
    }
    if attackers >= 2 {
        score += Score((attack_weight * attack_weight).min(KING_ATTACK_MAX), 0);
    }
    score += pawn_structure(our_pawns, their_pawns, color);
    if let Some(king) = board.king_of(color) {
        score += king_shelter(king, our_pawns, color);
    }
    (score, phase)
}

fn pawn_structure(our_pawns: u64, their_pawns: u64, color: Color) -> Score {
    let mut score = Score::default();
    let their_span = front_span(their_pawns, !color);
    for sq in Bitboard(our_pawns) {
        let file = sq.file().to_u32();
        let file_mask = FILE_A << file;
        let adjacent = ((file_mask & !FILE_A) >> 1) | ((file_mask & !(FILE_A << 7)) << 1);
        if our_pawns & adjacent == 0 {
            score += ISOLATED_PAWN;
        }
        if their_span & (1 << sq.to_usize()) == 0 && their_pawns & file_mask & ahead(sq, color) == 0
        {
            let rank = match color {
                Color::White => sq.rank().to_usize(),
                Color::Black => 7 - sq.rank().to_usize(),
            };
            score += PASSED_PAWN[rank];
        }
    }
    for file in 0..8 {
        let n = (our_pawns & (FILE_A << file)).count_ones();
        if n > 1 {
            score += DOUBLED_PAWN * i32::try_from(n - 1).unwrap_or(0);
        }
    }
    score
}

/// Squares strictly ahead of `sq` from `color`'s view, on every file.
fn ahead(sq: Square, color: Color) -> u64 {
    let rank = sq.rank().to_u32();
    match color {
        Color::White => u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0),
        Color::Black => (1u64 << (8 * rank)) - 1,
    }
}

fn king_shelter(king: Square, our_pawns: u64, color: Color) -> Score {
    let rank = match color {
        Color::White => king.rank().to_u32(),
        Color::Black => 7 - king.rank().to_u32(),
    };
    if rank > 1 {
        return Score::default();
    }
    let file = king.file().to_u32();
    let files = (FILE_A << file)
        | if file > 0 { FILE_A << (file - 1) } else { 0 }
        | if file < 7 { FILE_A << (file + 1) } else { 0 };
    let near = match color {
        Color::White => 0xFFFF_u64 << (8 * (king.rank().to_u32() + 1)),
        Color::Black => 0xFFFF_0000_0000_0000_u64 >> (8 * (8 - king.rank().to_u32())),
    };
    let shield = i32::try_from((our_pawns & files & near).count_ones()).unwrap_or(0);
    PAWN_SHIELD * shield.min(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    /// The position with colours swapped and the board mirrored.
    fn mirror(fen: &str) -> Position {
        let pos = Position::from_fen(fen).unwrap();
        let mut setup = pos.chess().to_setup(shakmaty::EnPassantMode::Legal);
        setup.mirror();
        let chess = setup.position(shakmaty::CastlingMode::Standard).unwrap();
        Position::from_chess(chess)
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5pk1/6p1/3P4/2P5/8/5PPP/6K1 b - - 0 40",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            assert_eq!(eval(fen), evaluate(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn material_and_passers_count() {
        // An extra queen is worth far more than anything positional.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        // A far-advanced passed pawn beats a blocked one.
        let passer = eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let blocked = eval("4k3/8/1p6/1P6/8/8/8/4K3 w - - 0 1");
        assert!(passer > blocked + 50, "{passer} vs {blocked}");
    }
}
