//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable attacker and may stop at any point.
//!
//! Two answers, with Stockfish 15.1's attacker rules (`position.cpp`, `Position::see_ge`):
//! - [`see_ge`] answers "does `m` win at least `threshold`?" exactly as Stockfish's `see_ge`
//!   does: castling, en passant and promotions are taken to exchange 0; a piece pinned to its
//!   king does not recapture while its pinner stands on its square; the king recaptures only
//!   when the other side has no attacker left. The pruning methods ask this question.
//! - [`see`] gives the exchange's value itself, from the swap list (the chessprogramming
//!   wiki's "SEE - The Swap Algorithm", with no early exit: every capture made is counted) and
//!   the same attacker rules; en passant and promotions count what they win. For every normal
//!   move `see_ge(m, t) == (see(m) >= t)`, a test checks it on thousands of moves.
//!
//! ```text
//! see_ge(m, threshold):                         // Stockfish 15.1, abridged
//!     if type_of(m) != NORMAL: return 0 >= threshold
//!     swap = value(captured) - threshold;  if swap < 0: return false
//!     swap = value(mover) - swap;          if swap <= 0: return true
//!     occupied = pieces ^ from ^ to;  stm = us;  attackers = attackers_to(to, occupied);  res = 1
//!     loop:
//!         stm = ~stm;  attackers &= occupied
//!         stmAttackers = attackers & pieces(stm);  if none: break
//!         if pinners(~stm) & occupied: stmAttackers &= ~blockers_for_king(stm); if none: break
//!         res ^= 1
//!         least valuable attacker P: if (swap = value(P) - swap) < res: break
//!                                    occupied ^= its square; add the x-rays behind it
//!         the king: return (attackers & ~pieces(stm)) ? res ^ 1 : res
//!     return res
//! ```
//!
//! Deviation from the source: the values are cutlab's centipawns ([`value`]), not Stockfish's
//! middlegame piece values (pawn 126, knight 781, bishop 825, rook 1276, queen 2538).

use shakmaty::{
    Bitboard, Board, Color, Move, Position as _, Role, Square,
    attacks::{between, bishop_attacks, rook_attacks},
};

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

/// Whether `m` wins at least `threshold` in the exchange on its square (Stockfish 15.1's
/// `Position::see_ge`, line for line; see the module doc).
#[must_use]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return 0 >= threshold;
    };
    let mut swap = capture.map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(role) - swap;
    if swap <= 0 {
        return true;
    }
    let mut exchange = Exchange::new(pos, from, to);
    let mut res = 1;
    while let Some((_, attacker)) = exchange.next_attacker() {
        res ^= 1;
        if attacker == Role::King {
            // The king captures only when nothing of the other side attacks the square.
            return if exchange.other_side_attacks() {
                res ^ 1 == 1
            } else {
                res == 1
            };
        }
        swap = value(attacker) - swap;
        if swap < res {
            break;
        }
        exchange.capture_with_next();
    }
    res == 1
}

/// Material the side to move wins (negative: loses) by playing `m` and the best exchange after
/// it, each side free to stop capturing at any point.
#[must_use]
pub fn see(pos: &Position, m: Move) -> i32 {
    let (Some(from), to) = (m.from(), m.to()) else {
        return 0;
    };
    if m.is_castle() {
        return 0;
    }
    let mut exchange = Exchange::new(pos, from, to);
    if let Move::EnPassant { .. } = m {
        exchange.occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
        exchange.attackers = exchange
            .board
            .attacks_to(to, Color::White, exchange.occupied)
            | exchange
                .board
                .attacks_to(to, Color::Black, exchange.occupied);
    }
    // gain[d]: what the side making capture d wins if the exchange stops after it.
    let mut gain = [0_i32; 34];
    gain[0] = m.capture().map_or(0, value);
    let mut on_square = m.promotion().unwrap_or(m.role());
    if let Some(promoted) = m.promotion() {
        gain[0] += value(promoted) - value(Role::Pawn);
    }
    let mut depth = 0;
    while let Some((_, attacker)) = exchange.next_attacker() {
        if attacker == Role::King && exchange.other_side_attacks() {
            break;
        }
        depth += 1;
        gain[depth] = value(on_square) - gain[depth - 1];
        on_square = attacker;
        exchange.capture_with_next();
        if depth == gain.len() - 1 {
            break;
        }
    }
    // Each side takes the better of stopping and capturing, from the last capture back.
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// The exchange on one square as Stockfish walks it: the pieces left, who attacks the square,
/// whose turn it is, and the pins of the position before the first capture.
struct Exchange<'a> {
    board: &'a Board,
    to: Square,
    occupied: Bitboard,
    attackers: Bitboard,
    /// The side whose capture comes next.
    side: Color,
    /// The square and role of that side's next attacker, once found.
    next: Option<(Square, Role)>,
    /// Pieces standing between each side's king and an enemy slider, by side (Stockfish's
    /// `blockers_for_king`), and the sliders pinning them (its `pinners`).
    blockers: [Bitboard; 2],
    pinners: [Bitboard; 2],
}

impl<'a> Exchange<'a> {
    /// After the side to move's piece went from `from` to `to`.
    fn new(pos: &'a Position, from: Square, to: Square) -> Exchange<'a> {
        let board = pos.chess().board();
        let occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
        let attackers = board.attacks_to(to, Color::White, occupied)
            | board.attacks_to(to, Color::Black, occupied);
        let pins = |side: Color| slider_blockers(board, side);
        let (white, black) = (pins(Color::White), pins(Color::Black));
        Exchange {
            board,
            to,
            occupied,
            attackers,
            side: !pos.turn(),
            next: None,
            blockers: [black.0, white.0],
            pinners: [black.1, white.1],
        }
    }

    /// The next side's least valuable attacker that may capture, or `None` when it has none
    /// (its pinned pieces do not capture while their pinner stands).
    fn next_attacker(&mut self) -> Option<(Square, Role)> {
        self.attackers &= self.occupied;
        let side = self.side;
        let mut ours = self.attackers & self.board.by_color(side);
        if (self.pinners[side as usize] & self.occupied).any() {
            ours &= !self.blockers[side as usize];
        }
        self.next = Role::ALL.into_iter().find_map(|role| {
            (ours & self.board.by_role(role))
                .first()
                .map(|sq| (sq, role))
        });
        self.next
    }

    /// Whether the side other than the next one still attacks the square.
    fn other_side_attacks(&self) -> bool {
        (self.attackers & self.board.by_color(!self.side)).any()
    }

    /// The attacker [`Exchange::next_attacker`] found captures: it leaves its square, the
    /// sliders behind it join, and the turn passes.
    fn capture_with_next(&mut self) {
        let Some((sq, _)) = self.next.take() else {
            return;
        };
        self.occupied ^= Bitboard::from_square(sq);
        let board = self.board;
        self.attackers |= (bishop_attacks(self.to, self.occupied) & board.bishops_and_queens())
            | (rook_attacks(self.to, self.occupied) & board.rooks_and_queens());
        self.side = !self.side;
    }
}

/// For `side`'s king: the pieces (of either colour) that alone stand between it and an enemy
/// slider, and the enemy sliders that pin a piece of `side` so (Stockfish's `slider_blockers`:
/// its `blockersForKing[side]` and `pinners[~side]`).
fn slider_blockers(board: &Board, side: Color) -> (Bitboard, Bitboard) {
    let Some(king) = board.king_of(side) else {
        return (Bitboard::EMPTY, Bitboard::EMPTY);
    };
    let snipers = ((rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & board.by_color(!side);
    let occupancy = board.occupied() ^ snipers;
    let (mut blockers, mut pinners) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for sniper in snipers {
        let b = between(king, sniper) & occupancy;
        if b.any() && !b.more_than_one() {
            blockers |= b;
            if (b & board.by_color(side)).any() {
                pinners |= Bitboard::from_square(sniper);
            }
        }
    }
    (blockers, pinners)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position_and_move(fen: &str, uci: &str) -> (Position, Move) {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        (pos, m)
    }

    fn see_of(fen: &str, uci: &str) -> i32 {
        let (pos, m) = position_and_move(fen, uci);
        see(&pos, m)
    }

    /// Exchanges worked out by hand (P 100, N 320, B 330, R 500, Q 950): each line's sum is the
    /// sequence both sides play when each takes the better of stopping and capturing.
    #[test]
    fn hand_worked_exchanges() {
        for (fen, uci, expected, why) in [
            (
                "4k3/8/2p5/3q4/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                950 - 500,
                "RxQ, PxR: the last capture counts",
            ),
            (
                "4k3/8/4p3/3p4/8/8/3Q4/3RK3 w - - 0 1",
                "d2d5",
                100 - 950 + 100,
                "QxP, PxQ, RxP (the rook x-rays through d2)",
            ),
            (
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                "e1e5",
                100,
                "RxP, nothing recaptures",
            ),
            (
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5",
                100 - 320,
                "NxP, NxN, then RxN, BxR, QxB, QxQ lose more for White: stop after NxN",
            ),
            (
                "4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1",
                "e3d5",
                320 - 320,
                "NxN, PxN",
            ),
            (
                "3r2k1/8/8/3p4/8/8/3R4/3Q2K1 w - - 0 1",
                "d2d5",
                100 - 500 + 500,
                "RxP, RxR, QxR (queen x-rays behind the rook)",
            ),
            (
                "4k3/8/4b3/3n4/8/8/8/3RR1K1 w - - 0 1",
                "d1d5",
                320,
                "RxN; the bishop on e6 is pinned by Re1 and cannot recapture",
            ),
            (
                "4k3/3p4/8/8/8/8/3R4/3RK3 w - - 0 1",
                "d2d7",
                100,
                "RxP; KxR would step into Rd1's attack",
            ),
            (
                "4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1",
                "d1d7",
                100 - 500,
                "RxP, KxR: nothing defends the rook",
            ),
            (
                "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
                "e4d5",
                950,
                "PxQ, nothing recaptures",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
                "h1h5",
                0,
                "a quiet move to a safe square",
            ),
            (
                "4k3/8/2p5/8/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                -500,
                "a quiet rook move onto a pawn-guarded square",
            ),
            (
                "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
                "d5c6",
                100,
                "en passant counts the pawn it takes",
            ),
            (
                "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
                "a7a8q",
                950 - 100,
                "a promotion wins the queen less the pawn",
            ),
        ] {
            assert_eq!(see_of(fen, uci), expected, "{fen} {uci}: {why}");
        }
    }

    /// Stockfish's `see_ge` takes castling, en passant and promotions to exchange 0.
    #[test]
    fn special_moves_exchange_nothing_for_the_threshold() {
        for (fen, uci) in [
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"),
            ("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1", "d5c6"),
            ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1"),
        ] {
            let (pos, m) = position_and_move(fen, uci);
            assert!(see_ge(&pos, m, 0), "{uci}");
            assert!(!see_ge(&pos, m, 1), "{uci}");
        }
    }

    /// For every normal move of many positions, `see_ge` answers each threshold as the exact
    /// value does.
    #[test]
    fn see_ge_agrees_with_the_exact_value() {
        let mut checked = 0;
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for ply in 0..400_u32 {
            let moves = pos.chess().legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            for &m in &moves {
                let Move::Normal {
                    promotion: None, ..
                } = m
                else {
                    continue;
                };
                let exact = see(&pos, m);
                for threshold in [exact - 1, exact, exact + 1, -500, -100, 0, 1, 100, 330] {
                    assert_eq!(
                        see_ge(&pos, m, threshold),
                        exact >= threshold,
                        "{} {}: see {exact}, threshold {threshold}",
                        pos.fen(),
                        crate::position::uci(m)
                    );
                    checked += 1;
                }
            }
            // A walk through varied middlegames: the capture of most value, else a move picked
            // by the ply number.
            let next = moves
                .iter()
                .copied()
                .filter(|m| m.is_capture())
                .max_by_key(|m| see(&pos, *m))
                .filter(|_| ply % 3 == 0)
                .unwrap_or(moves[(ply as usize * 7) % moves.len()]);
            pos = pos.play(next);
        }
        assert!(checked > 40_000, "{checked}");
    }
}
