//! The legal captures and promotions of a position, generated without its quiet moves.
//!
//! shakmaty's `capture_moves` generates every legal move and filters them; the quiescence
//! search asks for captures at most of its nodes, so this module generates them directly with
//! shakmaty's attack tables and the same legality rule (a piece pinned to its king moves only
//! along the pin; the king goes only where no enemy piece attacks). The list comes out in
//! exactly the order `legal_moves()` filtered to captures and promotions would give, so the
//! move picker's ties, and so the search's trees, are the same as before.

use shakmaty::{
    Bitboard, Chess, Color, File, Move, MoveList, Position as _, Role, Square, attacks,
};

/// Whether a move changes material: a capture or a promotion.
#[must_use]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Fills `moves` with the legal captures and promotions of `chess` (written in place: a move
/// list is 1.5 KiB, and quiescence nodes are most nodes), en passant first, then pawns
/// (captures toward the a-file, captures toward the h-file, pushes to the last rank), knights,
/// bishops, rooks, queens and the king: `legal_moves()` filtered to [`is_tactical`] moves, in
/// its order.
pub fn tactical_moves(chess: &Chess, moves: &mut MoveList) {
    moves.clear();
    if chess.is_check() {
        moves.extend(chess.legal_moves().into_iter().filter(|m| is_tactical(*m)));
        return;
    }
    let board = chess.board();
    let turn = chess.turn();
    let them = chess.them();
    let king = chess
        .our(Role::King)
        .first()
        .expect("a king in standard chess");
    if chess.maybe_ep_square().is_some() {
        moves.extend(chess.en_passant_moves());
    }

    // Pawn captures toward the a-file, then toward the h-file: a square offset, and the file
    // whose pawns cannot capture that way.
    let pawns = chess.our(Role::Pawn);
    let directions = match turn {
        Color::White => [(7, File::A), (9, File::H)],
        Color::Black => [(-9, File::A), (-7, File::H)],
    };
    for (offset, edge) in directions {
        let captures = (pawns & !Bitboard::from(edge)).shift(offset) & them;
        let from = |to: Square| to.offset(-offset).expect("a pawn's origin");
        (captures & !Bitboard::BACKRANKS).for_each(|to| {
            moves.push(normal(Role::Pawn, from(to), to, board.role_at(to), None));
        });
        (captures & Bitboard::BACKRANKS).for_each(|to| {
            push_promotions(moves, from(to), to, board.role_at(to));
        });
    }
    let forward = turn.fold_wb(8, -8);
    let pushes = pawns.shift(forward) & !board.occupied() & Bitboard::BACKRANKS;
    pushes.for_each(|to| {
        let from = to.offset(-forward).expect("a pawn's origin");
        push_promotions(moves, from, to, None);
    });

    let occupied = board.occupied();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        chess.our(role).for_each(|from| {
            let targets = attacks::attacks(from, role.of(turn), occupied) & them;
            targets.for_each(|to| moves.push(normal(role, from, to, board.role_at(to), None)));
        });
    }
    (attacks::king_attacks(king) & them).for_each(|to| {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            moves.push(normal(Role::King, king, to, board.role_at(to), None));
        }
    });

    // A piece between the king and an enemy slider moves only along that line.
    let pinned = pinned(chess, king);
    if pinned.any() {
        moves.retain(|m| match *m {
            Move::Normal { from, to, .. } => {
                !pinned.contains(from) || attacks::aligned(from, to, king)
            }
            _ => true, // en passant, already checked by shakmaty
        });
    }
}

/// Our pieces that alone stand between our king and an enemy rook, bishop or queen (the same
/// set as shakmaty's `slider_blockers`, less enemy pieces, which we never move).
fn pinned(chess: &Chess, king: Square) -> Bitboard {
    let board = chess.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut pinned = Bitboard(0);
    (snipers & chess.them()).for_each(|sniper| {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between & chess.us();
        }
    });
    pinned
}

fn normal(
    role: Role,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    }
}

/// The four promotions of one pawn move, queen first, as shakmaty orders them.
fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        moves.push(normal(Role::Pawn, from, to, capture, Some(promotion)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Walks every position to `depth` plies and checks that the generator gives exactly the
    /// filtered legal moves, in the same order. Returns how many positions it checked.
    fn agrees_to(pos: &Position, depth: u32) -> u64 {
        let chess = pos.chess();
        let mut expected = chess.legal_moves();
        expected.retain(|m| is_tactical(*m));
        let mut generated = MoveList::new();
        tactical_moves(chess, &mut generated);
        assert_eq!(generated.as_slice(), expected.as_slice(), "{}", pos.fen());
        if depth == 0 {
            return 1;
        }
        1 + chess
            .legal_moves()
            .iter()
            .map(|&m| agrees_to(&pos.play(m), depth - 1))
            .sum::<u64>()
    }

    #[test]
    fn equals_the_filtered_legal_moves_in_order() {
        let mut checked = 0;
        for fen in [
            // The perft suite's tactical positions: pins, checks, en passant, promotions.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            // En passant that would expose the king along the rank; a pinned capturer.
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
            "4k3/4r3/8/8/8/4N3/3p4/4K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            checked += agrees_to(&pos, 2);
        }
        assert!(checked > 6_000, "{checked} positions");
    }
}
