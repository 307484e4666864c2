//! A move's turn in a match: what limits it (a clock, nodes or time per move) and what the
//! player answers (a move with its score, or a resignation), whichever protocol it speaks.

/// What a player answers to its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move (UCI) and the mover's score (its own view), when it gave one.
    Move(String, Option<i32>),
    /// The engine resigned.
    Resign,
}

/// The player's answer, or why it failed (the game loop restarts it or scores the loss).
pub type Reply = Result<Answer, String>;

/// What limits each move.
#[derive(Clone, Copy, Debug)]
pub enum Control {
    /// A clock per side, milliseconds, with an increment.
    Clock {
        /// Starting time.
        base_ms: u64,
        /// Added after each move.
        inc_ms: u64,
    },
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed time per move, milliseconds.
    Movetime(u64),
}

impl Control {
    /// A clock's base and increment, milliseconds (0 and 0 for the other limits).
    #[must_use]
    pub fn clock_ms(self) -> (u64, u64) {
        match self {
            Control::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
            Control::Nodes(_) | Control::Movetime(_) => (0, 0),
        }
    }
}

impl std::fmt::Display for Control {
    #[expect(clippy::cast_precision_loss, reason = "milliseconds shown as seconds")]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Control::Clock { base_ms, inc_ms } => write!(
                f,
                "time control {}+{} s",
                *base_ms as f64 / 1000.0,
                *inc_ms as f64 / 1000.0
            ),
            Control::Nodes(n) => write!(f, "{n} nodes per move"),
            Control::Movetime(ms) => write!(f, "{ms} ms per move"),
        }
    }
}
