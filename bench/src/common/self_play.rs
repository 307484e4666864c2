//! What the self-play commands (`suite generate`, `datagen`) share: each game's own random
//! stream, and the adjudication of a game both sides' searches call won.

use cutlab_instrument::csv_sink::splitmix64;
use shakmaty::Color;

/// Plies both sides' searches must agree a side is winning before the game is adjudicated.
const DECIDED_PLIES: u32 = 8;

/// A game's own random stream: its opening and its sample depend on the seed and the game's
/// number only, whatever the threads.
pub struct GameRng(u64);

impl GameRng {
    /// The stream of game `game` under `seed`.
    #[must_use]
    pub fn new(seed: u64, game: u32) -> GameRng {
        GameRng(splitmix64(
            seed ^ u64::from(game).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }

    /// A number below `n` (0 for `n` = 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = splitmix64(self.0);
        usize::try_from(self.0 % n.max(1) as u64).unwrap_or(0)
    }
}

/// The adjudication of a won game: the side ahead by `win_cp` or more, in both sides'
/// searches, for [`DECIDED_PLIES`] plies in a row.
pub struct Adjudication {
    win_cp: i32,
    leader: Option<(Color, u32)>,
}

impl Adjudication {
    /// No side ahead yet.
    #[must_use]
    pub fn new(win_cp: i32) -> Adjudication {
        Adjudication {
            win_cp,
            leader: None,
        }
    }

    /// The search of `turn` to move scored `score` (its view): the winner, once decided.
    pub fn after_search(&mut self, turn: Color, score: i32) -> Option<Color> {
        let ahead = if score >= self.win_cp {
            Some(turn)
        } else if score <= -self.win_cp {
            Some(!turn)
        } else {
            None
        };
        self.leader = match (ahead, self.leader) {
            (Some(side), Some((prev, n))) if side == prev => Some((side, n + 1)),
            (Some(side), _) => Some((side, 1)),
            (None, _) => None,
        };
        self.leader
            .filter(|&(_, plies)| plies >= DECIDED_PLIES)
            .map(|(side, _)| side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight plies in a row for one side decide; a ply below the bound, or the other side
    /// ahead, starts the count again.
    #[test]
    fn eight_agreeing_plies_decide() {
        let mut a = Adjudication::new(1000);
        let turns = [Color::White, Color::Black];
        // White ahead: white's searches say +, black's say -.
        for ply in 0..7 {
            let turn = turns[ply % 2];
            let score = if turn == Color::White { 1200 } else { -1200 };
            assert_eq!(a.after_search(turn, score), None, "ply {ply}");
        }
        assert_eq!(
            a.after_search(Color::Black, 10),
            None,
            "the count starts again"
        );
        for ply in 0..7 {
            let turn = turns[ply % 2];
            let score = if turn == Color::White { 1000 } else { -1000 };
            assert_eq!(a.after_search(turn, score), None);
        }
        assert_eq!(a.after_search(Color::Black, -1000), Some(Color::White));
    }
}
