//! Where each evaluation weight lives in the flat weight table: one named section per term.
//!
//! The evaluation is linear in its weights (each term counts a feature, White's count minus
//! Black's, and multiplies it by a tapered weight), so the same table serves the engine and the
//! Texel tuner. A section's index constant is its first entry; tables indexed by a count, a rank or
//! a role follow in order.

/// One term of the evaluation: its name, its number of weights and what indexes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// Name as written in the weights file, e.g. `MOBILITY_KNIGHT`.
    pub name: &'static str,
    /// First index in the flat table.
    pub offset: usize,
    /// Number of weights.
    pub len: usize,
    /// What the weights are indexed by.
    pub indexed_by: &'static str,
}

macro_rules! sections {
    ($($name:ident: $len:expr, $indexed_by:expr;)*) => {
        sections!(@offsets 0; $($name: $len;)*);

        /// Every section in table order.
        pub const SECTIONS: &[Section] = &[
            $(Section { name: stringify!($name), offset: $name, len: $len, indexed_by: $indexed_by },)*
        ];
    };
    (@offsets $at:expr; $name:ident: $len:expr; $($rest:tt)*) => {
        #[doc = concat!("First weight of `", stringify!($name), "`.")]
        pub const $name: usize = $at;
        sections!(@offsets $name + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// Number of weights in the table.
        pub const COUNT: usize = $at;
    };
}

sections! {
    PSQT: 6 * 64, "piece (pawn..king) x square from the owner's side (a1 = 0), material included";
    MOBILITY_KNIGHT: 9, "squares reached outside own pieces and enemy pawn attacks";
    MOBILITY_BISHOP: 14, "squares reached outside own pieces and enemy pawn attacks";
    MOBILITY_ROOK: 15, "squares reached outside own pieces and enemy pawn attacks";
    MOBILITY_QUEEN: 28, "squares reached outside own pieces and enemy pawn attacks";
    PASSED_PAWN: 8, "rank from the owner's side";
    PASSED_PAWN_BLOCKED: 8, "rank of a passed pawn whose stop square holds an enemy piece";
    CONNECTED_PAWN: 8, "rank of a pawn defended by a pawn or beside one";
    ISOLATED_PAWN: 1, "one per pawn with no own pawn on an adjacent file";
    DOUBLED_PAWN: 1, "one per extra pawn on a file";
    BISHOP_PAIR: 1, "two or more bishops";
    ROOK_OPEN_FILE: 1, "rook on a file without pawns";
    ROOK_SEMI_OPEN_FILE: 1, "rook on a file with enemy pawns only";
    PAWN_SHIELD: 4, "own pawns (0..3) before a king on its first two ranks";
    KING_ATTACK: 32, "attack units on the enemy king zone (only with two or more attackers)";
    THREAT_BY_PAWN: 4, "enemy knight, bishop, rook, queen attacked by a pawn";
    THREAT_BY_MINOR: 4, "enemy knight, bishop, rook, queen attacked by a knight or bishop";
    THREAT_BY_ROOK: 4, "enemy knight, bishop, rook, queen attacked by a rook";
    TEMPO: 1, "side to move";
}

/// Name of one weight, e.g. `MOBILITY_KNIGHT[3]`.
#[must_use]
pub fn weight_name(index: usize) -> String {
    SECTIONS
        .iter()
        .find(|s| (s.offset..s.offset + s.len).contains(&index))
        .map_or_else(
            || format!("#{index}"),
            |s| format!("{}[{}]", s.name, index - s.offset),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_tile_the_table() {
        let mut next = 0;
        for s in SECTIONS {
            assert_eq!(s.offset, next, "{}", s.name);
            next += s.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(weight_name(MOBILITY_KNIGHT + 3), "MOBILITY_KNIGHT[3]");
        assert_eq!(weight_name(TEMPO), "TEMPO[0]");
    }
}
