//! A weight with a middlegame and an endgame value, blended by the game phase.

use std::ops::{AddAssign, Mul};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phased(pub i32, pub i32);

/// Game phase with every piece on the board (PeSTO's scale: minor 1, rook 2, queen 4).
pub const FULL_PHASE: i32 = 24;

/// Game-phase weight of each piece type, pawn..king.
pub const PHASE_INC: [i32; 6] = [0, 1, 1, 2, 4, 0];

impl Phased {
    /// The blend at `phase` (0 = bare kings and pawns, [`FULL_PHASE`] = all pieces).
    #[must_use]
    pub fn taper(self, phase: i32) -> i32 {
        let phase = phase.clamp(0, FULL_PHASE);
        (self.0 * phase + self.1 * (FULL_PHASE - phase)) / FULL_PHASE
    }
}

impl AddAssign for Phased {
    fn add_assign(&mut self, rhs: Phased) {
        self.0 += rhs.0;
        self.1 += rhs.1;
    }
}

impl Mul<i32> for Phased {
    type Output = Phased;
    fn mul(self, k: i32) -> Phased {
        Phased(self.0 * k, self.1 * k)
    }
}
