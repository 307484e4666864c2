//! Draws: repetition on the game and search path, the fifty-move rule and insufficient
//! material.

use cutlab_instrument::Observer;

use super::Search;
use crate::position::Position;

/// Stands in the key list for the position after a null move: nothing repeats across it.
pub(crate) const NULL_KEY: u64 = !0;

impl<O: Observer> Search<O> {
    /// Whether `pos` (the last key) occurred before since the last irreversible move, on the
    /// game path or the search path. A null move ends the scan: nothing repeats across it.
    pub(crate) fn is_repetition(&self, pos: &Position) -> bool {
        let last = self.keys.len() - 1;
        if self.keys[last] == NULL_KEY {
            // The position the null move reached: the side to move passed, so nothing before
            // the null move is the same game position.
            return false;
        }
        let reach = usize::try_from(pos.halfmoves())
            .unwrap_or(usize::MAX)
            .min(last);
        let key = pos.key();
        for back in 1..=reach {
            let earlier = self.keys[last - back];
            if earlier == NULL_KEY {
                return false;
            }
            if back % 2 == 0 && earlier == key {
                return true;
            }
        }
        false
    }

    /// A draw by repetition, the fifty-move rule or insufficient material (a mate on the
    /// hundredth half-move is found by the move loop, hence the check exception).
    pub(crate) fn is_draw(&self, pos: &Position, in_check: bool) -> bool {
        self.is_repetition(pos)
            || (pos.halfmoves() >= 100 && !in_check)
            || pos.insufficient_material()
    }

    /// Whether the position was reached by a null move (no second null move follows one).
    pub(crate) fn after_null_move(&self) -> bool {
        self.keys.last() == Some(&NULL_KEY)
    }
}

#[cfg(test)]
mod tests {
    use super::NULL_KEY;
    use crate::{Position, Search, SearchConfig};

    #[test]
    fn nothing_repeats_across_a_null_move() {
        let mut search = Search::new(SearchConfig::plain(), 1).unwrap();
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 10 40").unwrap();
        // Two plies before the null move the game stood at the same key: after the null move
        // the position is not a repetition of it.
        search.keys = vec![1, pos.key(), 2, NULL_KEY];
        assert!(!search.is_repetition(&pos));
        // The same path without the null move is one.
        search.keys = vec![1, pos.key(), 2, pos.key()];
        assert!(search.is_repetition(&pos));
    }
}
