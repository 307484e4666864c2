//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable attacker (the swap algorithm of the
//! chessprogramming wiki, "SEE - The Swap Algorithm"). Pins are ignored; x-rays are found by
//! recomputing slider attacks as pieces leave the square's lines.

use shakmaty::{Bitboard, Color, Move, Position as _, Role};

use crate::position::Position;

/// Material values SEE counts with (centipawns), by role.
#[must_use]
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

/// Material the side to move wins (negative: loses) by playing `m` and the best exchange after.
#[must_use]
pub fn see(pos: &Position, m: Move) -> i32 {
    let (Some(from), to) = (m.from(), m.to()) else {
        return 0;
    };
    if m.is_castle() {
        return 0;
    }
    let board = pos.chess().board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    if let Move::EnPassant { .. } = m {
        let captured = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(captured);
    }
    let mut gain = [0_i32; 32];
    gain[0] = m.capture().map_or(0, value);
    let mut on_square = m.promotion().unwrap_or(m.role());
    if let Some(promoted) = m.promotion() {
        gain[0] += value(promoted) - value(Role::Pawn);
    }
    let mut side: Color = !pos.turn();
    let mut depth = 0;
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((sq, role)) = least_valuable(board, attackers) else {
            break;
        };
        let recapturers = board.attacks_to(to, !side, occupied ^ Bitboard::from_square(sq));
        if role == Role::King && (recapturers & occupied).any() {
            break;
        }
        depth += 1;
        gain[depth] = value(on_square) - gain[depth - 1];
        // Neither standing pat nor capturing helps the capturing side: the exchange is
        // decided without this capture (the classic algorithm's speculative store).
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            depth -= 1;
            break;
        }
        if depth == gain.len() - 1 {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        on_square = role;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

fn least_valuable(
    board: &shakmaty::Board,
    attackers: Bitboard,
) -> Option<(shakmaty::Square, Role)> {
    Role::ALL.into_iter().find_map(|role| {
        (attackers & board.by_role(role))
            .first()
            .map(|sq| (sq, role))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see(&pos, m)
    }

    #[test]
    fn classic_cases() {
        // Free pawn defended by nothing: rook takes e5.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn... the wiki's second example loses material.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // Quiet move to a safe square gains nothing.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h5"), 0);
        // Pawn takes a queen defended by a rook: wins queen for pawn.
        assert_eq!(see_of("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 950);
    }
}
