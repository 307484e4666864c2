//! The evaluation's terms, each a feature count for White minus the count for Black, handed to a
//! [`FeatureSink`]: the engine's sink multiplies by the weights, the tuner's records the counts.
//!
//! Terms after the classical evaluations of Fruit 2.1 and Stockfish (before NNUE): material and
//! piece-square tables (PeSTO's tables as the tuner's start), mobility by square count, pawn
//! structure, passed pawns by rank and blockade, rooks on open files, king shelter, king safety by
//! attack units, threats on pieces, and a tempo bonus.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::{
    layout::{
        BISHOP_PAIR, CONNECTED_PAWN, DOUBLED_PAWN, ISOLATED_PAWN, KING_ATTACK, MOBILITY_BISHOP,
        MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK, PASSED_PAWN, PASSED_PAWN_BLOCKED,
        PAWN_SHIELD, PSQT, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, TEMPO, THREAT_BY_MINOR,
        THREAT_BY_PAWN, THREAT_BY_ROOK,
    },
    phased::PHASE_INC,
};

/// Receives the feature counts of a position.
pub trait FeatureSink {
    /// Adds `count` (White's minus Black's) of the feature at `index` of the weight table.
    fn add(&mut self, index: usize, count: i32);
}

/// Attack units of a knight, bishop, rook and queen that reaches the enemy king zone.
const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const NOT_FILE_A: u64 = !FILE_A;
const NOT_FILE_H: u64 = !(FILE_A << 7);

/// Hands every feature of `board` (with `turn` to move) to `sink`; returns the game phase.
pub fn collect<S: FeatureSink>(board: &Board, turn: Color, sink: &mut S) -> i32 {
    let passers = pawn_terms(board, sink);
    piece_terms(board, turn, passers, sink)
}

/// The terms that depend on nothing but the pawns and the kings' squares: their piece-square
/// values, pawn structure, passed pawns by rank, king shelter. These are what the pawn cache
/// keeps. Returns the passed pawns of both colours.
pub fn pawn_terms<S: FeatureSink>(board: &Board, sink: &mut S) -> u64 {
    let mut passers = 0;
    for color in [Color::White, Color::Black] {
        let us = board.by_color(color);
        for (ri, pieces) in [(0, board.pawns()), (5, board.kings())] {
            for sq in pieces & us {
                sink.add(PSQT + ri * 64 + relative_square(sq, color), sign(color));
            }
        }
        passers |= pawn_structure(board, color, sink);
        if let Some(king) = board.king_of(color) {
            king_shelter(king, board.pawns().0 & us.0, color, sink);
        }
    }
    passers
}

/// Every term but [`pawn_terms`], given the passed pawns those found; returns the game phase.
pub fn piece_terms<S: FeatureSink>(board: &Board, turn: Color, passers: u64, sink: &mut S) -> i32 {
    let phase = side_terms(board, Color::White, sink) + side_terms(board, Color::Black, sink);
    blocked_passers(board, passers, sink);
    sink.add(TEMPO, sign(turn));
    phase
}

const fn sign(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// `sq` seen from `color`'s side: a1 = 0 for White, a8 = 0 for Black.
fn relative_square(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.to_usize(),
        Color::Black => sq.to_usize() ^ 56,
    }
}

fn relative_rank(sq: Square, color: Color) -> usize {
    relative_square(sq, color) / 8
}

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns & NOT_FILE_A) << 7) | ((pawns & NOT_FILE_H) << 9),
        Color::Black => ((pawns & NOT_FILE_A) >> 9) | ((pawns & NOT_FILE_H) >> 7),
    }
}

/// The square in front of `sq` from `color`'s side.
fn stop_square(sq: Square, color: Color) -> u64 {
    match color {
        Color::White => (1_u64 << sq.to_usize()) << 8,
        Color::Black => (1_u64 << sq.to_usize()) >> 8,
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
    fill | ((fill & NOT_FILE_A) >> 1) | ((fill & NOT_FILE_H) << 1)
}

/// Squares strictly ahead of `sq` from `color`'s view, on every file.
fn ahead(sq: Square, color: Color) -> u64 {
    let rank = sq.rank().to_u32();
    match color {
        Color::White => u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0),
        Color::Black => (1_u64 << (8 * rank)) - 1,
    }
}

fn count(bits: u64) -> i32 {
    i32::try_from(bits.count_ones()).unwrap_or(0)
}

/// The piece terms of one side (counted with its sign); returns its contribution to the game
/// phase.
fn side_terms<S: FeatureSink>(board: &Board, color: Color, sink: &mut S) -> i32 {
    let sign = sign(color);
    let us = board.by_color(color).0;
    let them = board.by_color(!color).0;
    let occupied = board.occupied();
    let our_pawns = board.pawns().0 & us;
    let their_pawns = board.pawns().0 & them;
    let mobility_area = !us & !pawn_attacks(their_pawns, !color);
    let their_king = board.king_of(!color);
    let king_zone = their_king.map_or(0, |k| attacks::king_attacks(k).0 | (1 << k.to_usize()));

    let mut phase = 0;
    let mut king_attackers = 0;
    let mut king_attack_units = 0;
    let mut zone_attacks = 0_u64;
    let mut minor_attacks = 0_u64;
    let mut rook_attacks = 0_u64;

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let ri = role as usize - 1;
        for sq in board.by_role(role) & Bitboard(us) {
            sink.add(PSQT + ri * 64 + relative_square(sq, color), sign);
            phase += PHASE_INC[ri];
            let (reach, mobility) = match role {
                Role::Knight => (attacks::knight_attacks(sq).0, MOBILITY_KNIGHT),
                Role::Bishop => (attacks::bishop_attacks(sq, occupied).0, MOBILITY_BISHOP),
                Role::Rook => (attacks::rook_attacks(sq, occupied).0, MOBILITY_ROOK),
                _ => (attacks::queen_attacks(sq, occupied).0, MOBILITY_QUEEN),
            };
            sink.add(
                mobility + (reach & mobility_area).count_ones() as usize,
                sign,
            );
            match role {
                Role::Knight | Role::Bishop => minor_attacks |= reach,
                Role::Rook => {
                    rook_attacks |= reach;
                    let file = FILE_A << sq.file().to_u32();
                    if file & our_pawns == 0 {
                        let open = if file & their_pawns == 0 {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        };
                        sink.add(open, sign);
                    }
                }
                _ => {}
            }
            if reach & king_zone != 0 {
                king_attackers += 1;
                king_attack_units += KING_ATTACK_UNITS[ri - 1];
                zone_attacks |= reach & king_zone;
            }
        }
    }

    if (board.bishops().0 & us).count_ones() >= 2 {
        sink.add(BISHOP_PAIR, sign);
    }
    let units = if king_attackers >= 2 {
        (king_attack_units + count(zone_attacks)).min(31)
    } else {
        0
    };
    sink.add(KING_ATTACK + units as usize, sign);
    threats(
        board,
        color,
        [pawn_attacks(our_pawns, color), minor_attacks, rook_attacks],
        sink,
    );
    phase
}

/// Enemy pieces attacked by our pawns, minors and rooks, by the attacked piece's type.
fn threats<S: FeatureSink>(board: &Board, color: Color, by: [u64; 3], sink: &mut S) {
    let them = board.by_color(!color).0;
    let targets = [
        board.knights().0,
        board.bishops().0,
        board.rooks().0,
        board.queens().0,
    ];
    for (attacks, section) in by
        .into_iter()
        .zip([THREAT_BY_PAWN, THREAT_BY_MINOR, THREAT_BY_ROOK])
    {
        for (i, pieces) in targets.iter().enumerate() {
            let hit = count(attacks & pieces & them);
            if hit != 0 {
                sink.add(section + i, sign(color) * hit);
            }
        }
    }
}

/// Isolated, connected, passed and doubled pawns of `color`; returns its passed pawns.
fn pawn_structure<S: FeatureSink>(board: &Board, color: Color, sink: &mut S) -> u64 {
    let sign = sign(color);
    let our_pawns = board.pawns().0 & board.by_color(color).0;
    let their_pawns = board.pawns().0 & board.by_color(!color).0;
    let mut passers = 0;
    let their_span = front_span(their_pawns, !color);
    let defended = pawn_attacks(our_pawns, color);
    let beside = ((our_pawns & NOT_FILE_A) >> 1) | ((our_pawns & NOT_FILE_H) << 1);
    for sq in Bitboard(our_pawns) {
        let bit = 1_u64 << sq.to_usize();
        let file_mask = FILE_A << sq.file().to_u32();
        let adjacent = ((file_mask & NOT_FILE_A) >> 1) | ((file_mask & NOT_FILE_H) << 1);
        let rank = relative_rank(sq, color);
        if our_pawns & adjacent == 0 {
            sink.add(ISOLATED_PAWN, sign);
        }
        if (defended | beside) & bit != 0 {
            sink.add(CONNECTED_PAWN + rank, sign);
        }
        if their_span & bit == 0 && their_pawns & file_mask & ahead(sq, color) == 0 {
            sink.add(PASSED_PAWN + rank, sign);
            passers |= bit;
        }
    }
    for file in 0..8 {
        let n = count(our_pawns & (FILE_A << file));
        if n > 1 {
            sink.add(DOUBLED_PAWN, sign * (n - 1));
        }
    }
    passers
}

/// Passed pawns (of both colours, `passers`) whose stop square holds an enemy piece.
fn blocked_passers<S: FeatureSink>(board: &Board, passers: u64, sink: &mut S) {
    for color in [Color::White, Color::Black] {
        let their_pieces = board.by_color(!color).0;
        for sq in Bitboard(passers & board.by_color(color).0) {
            if stop_square(sq, color) & their_pieces != 0 {
                sink.add(PASSED_PAWN_BLOCKED + relative_rank(sq, color), sign(color));
            }
        }
    }
}

/// Own pawns on the king's file and the files beside it, one or two ranks ahead of a king that
/// stands on its first two ranks.
fn king_shelter<S: FeatureSink>(king: Square, our_pawns: u64, color: Color, sink: &mut S) {
    if relative_rank(king, color) > 1 {
        return;
    }
    let file = FILE_A << king.file().to_u32();
    let files = file | ((file & NOT_FILE_A) >> 1) | ((file & NOT_FILE_H) << 1);
    let near = match color {
        Color::White => 0xFFFF_u64 << (8 * (king.rank().to_u32() + 1)),
        Color::Black => 0xFFFF_0000_0000_0000_u64 >> (8 * (8 - king.rank().to_u32())),
    };
    let shield = count(our_pawns & files & near).min(3);
    sink.add(PAWN_SHIELD + shield as usize, sign(color));
}
