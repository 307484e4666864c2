//! The pawn cache: the sum of [`terms::pawn_terms`](super::terms::pawn_terms), kept by the pawns
//! and the kings' squares they depend on (the pawn hash table of Crafty, Fruit and Stockfish).
//!
//! Pawn structures repeat across a search far more than positions do, so most evaluations find
//! theirs here. An entry holds its whole key, so a hit is exact and the evaluation is the same
//! with or without the cache (tested in [`super`]).

use shakmaty::{Board, Color};

use super::phased::Phased;

/// Entries in a cache: 2^14 of 40 bytes, 640 KiB, about an L2 cache.
const ENTRIES: usize = 1 << 14;

/// What the pawn terms depend on: each colour's pawns and the two kings' squares.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PawnKey {
    pawns: [u64; 2],
    kings: u16,
}

impl PawnKey {
    /// The key of `board`.
    #[must_use]
    pub fn of(board: &Board) -> PawnKey {
        let pawns = board.pawns();
        let king = |color| {
            board
                .king_of(color)
                .map_or(64, |sq| u16::from(u8::from(sq)))
        };
        PawnKey {
            pawns: [(pawns & board.white()).0, (pawns & board.black()).0],
            kings: king(Color::White) | (king(Color::Black) << 8),
        }
    }

    fn index(self) -> usize {
        // Multiplicative hashing of the three parts; the top bits index the table.
        let mixed = self.pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.pawns[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ u64::from(self.kings).wrapping_mul(0x1656_67B1_9E37_79F9);
        (mixed >> (64 - ENTRIES.trailing_zeros())) as usize
    }
}

/// No board has pawns on both first ranks and both kings on square 65, so no key matches this.
const EMPTY: PawnKey = PawnKey {
    pawns: [u64::MAX; 2],
    kings: u16::MAX,
};

#[derive(Clone, Copy)]
struct Entry {
    key: PawnKey,
    score: Phased,
    passers: u64,
}

/// A direct-mapped table of pawn-term sums; one per search thread.
pub struct PawnCache {
    entries: Box<[Entry]>,
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        let empty = Entry {
            key: EMPTY,
            score: Phased::default(),
            passers: 0,
        };
        PawnCache {
            entries: vec![empty; ENTRIES].into_boxed_slice(),
        }
    }
}

impl PawnCache {
    /// The pawn terms' sum and the passed pawns stored for `key`, if its slot holds them.
    #[must_use]
    pub fn probe(&self, key: PawnKey) -> Option<(Phased, u64)> {
        let entry = &self.entries[key.index()];
        (entry.key == key).then_some((entry.score, entry.passers))
    }

    /// Keeps the pawn terms' sum and passed pawns of `key`, replacing what its slot held.
    pub fn store(&mut self, key: PawnKey, score: Phased, passers: u64) {
        self.entries[key.index()] = Entry {
            key,
            score,
            passers,
        };
    }
}
