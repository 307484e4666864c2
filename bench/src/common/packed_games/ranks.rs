//! The packing's rule of thumb: the legal moves of a position ranked by how likely each is to
//! be the one played, and the character that writes a rank. The rule is part of the format:
//! changing it changes what every packed file means.

use shakmaty::{Chess, Move, Position as _, Role, Square, attacks, uci::UciMove};

/// The code of the character of the first-ranked move (`0`): the ranks of the usual 20 to
/// 50 moves are digits, punctuation and letters, never the CSV's `,` or `"`.
pub(super) const FIRST_MOVE: u32 = 48;

/// The character of the move of rank `rank` (at most 218 moves: the code stays below
/// 0xD800, every one a character).
pub(super) fn move_char(rank: usize) -> char {
    u32::try_from(rank)
        .ok()
        .and_then(|i| char::from_u32(FIRST_MOVE + i))
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A piece's value in pawns, for the ranking (a king's is 0: it is never captured).
const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Minus a square's distance from the centre in half files plus half ranks: -2 on the four
/// central squares, -14 in a corner.
fn centrality(sq: Square) -> i32 {
    let (file, rank) = (i32::from(sq.file()), i32::from(sq.rank()));
    -((2 * file - 7).abs() + (2 * rank - 7).abs())
}

/// How likely a move is to be the one played, by a fixed rule of thumb (higher first): a
/// promotion, then a capture by victim value less attacker value (a recapture on the square
/// the last move went to first), a check, castling, a knight, bishop or queen towards the
/// centre; a piece other than a pawn onto a square an enemy pawn attacks, unless it takes
/// at least its own value there, last. The rule is part of the format: changing it changes
/// what every packed file means.
fn likelihood(pos: &Chess, m: Move, last_to: Option<Square>) -> i32 {
    let role = m.role();
    let mut score = 0;
    if let Some(promoted) = m.promotion() {
        score += 2000 + 16 * value(promoted);
    }
    if let Some(victim) = m.capture() {
        score += 1000 + 16 * value(victim) - value(role);
        if last_to == Some(m.to()) {
            score += 500;
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_check() {
        score += 300;
    }
    if m.is_castle() {
        score += 200;
    }
    if matches!(role, Role::Knight | Role::Bishop | Role::Queen)
        && let Some(from) = m.from()
    {
        score += 4 * (centrality(m.to()) - centrality(from));
    }
    let us = pos.turn();
    let pawn_guarded =
        (attacks::pawn_attacks(us, m.to()) & pos.board().pawns() & pos.board().by_color(!us)).any();
    if role != Role::Pawn && pawn_guarded && m.capture().is_none_or(|v| value(v) < value(role)) {
        score -= 400;
    }
    score
}

/// The legal moves of `pos` in the packing's order: by [`likelihood`], highest first, ties
/// by UCI text (`e1g1` for castling). `last_to` is the square the last move went to.
pub(super) fn ranked_moves(pos: &Chess, last_to: Option<Square>) -> Vec<Move> {
    let mut moves: Vec<(i32, String, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            (
                -likelihood(pos, m, last_to),
                UciMove::from_standard(m).to_string(),
                m,
            )
        })
        .collect();
    moves.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    moves.into_iter().map(|(_, _, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    /// Three captures of a pawn by a pawn tie (1000 + 16 - 1) and go by UCI text; a recapture
    /// on the square the last move went to (+500) goes first.
    #[test]
    fn a_recapture_ranks_first() {
        let pos: Chess = "4k3/8/8/3p1p2/2P1P3/8/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let first_three = |last_to| -> Vec<String> {
            ranked_moves(&pos, last_to)
                .iter()
                .take(3)
                .map(|&m| UciMove::from_standard(m).to_string())
                .collect()
        };
        assert_eq!(first_three(None), ["c4d5", "e4d5", "e4f5"]);
        assert_eq!(first_three(Some(Square::F5)), ["e4f5", "c4d5", "e4d5"]);
    }
}
