//! Search limits (the UCI `go` parameters) and the time manager that turns them into a soft
//! deadline (no new iteration after it) and a hard deadline (abort the iteration).

use std::time::{Duration, Instant};

use shakmaty::Color;

/// What bounds a search. Unset fields do not limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move, milliseconds.
    pub movetime_ms: Option<u64>,
    /// White's remaining clock, milliseconds.
    pub wtime_ms: Option<u64>,
    /// Black's remaining clock, milliseconds.
    pub btime_ms: Option<u64>,
    /// White's increment per move, milliseconds.
    pub winc_ms: Option<u64>,
    /// Black's increment per move, milliseconds.
    pub binc_ms: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Time kept back for communication and process latency, milliseconds (UCI `Move Overhead`).
    pub move_overhead_ms: u64,
}

impl Limits {
    /// Search to a fixed depth only.
    #[must_use]
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for a fixed time only.
    #[must_use]
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// Whether anything ends the search besides `stop` (a depth, nodes, a time or a clock), or
    /// it is `infinite` and waits for `stop` by design.
    #[must_use]
    pub fn is_limited(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime_ms.is_some()
            || self.wtime_ms.is_some()
            || self.btime_ms.is_some()
            || self.infinite
    }

    /// Search a fixed number of nodes only.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// Deadlines derived from [`Limits`] for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Computes the deadlines, starting the clock now.
    ///
    /// With a clock: target = time / moves-to-go (30 when unknown) + 3/4 of the increment;
    /// no new iteration after 60% of the target, abort at 3 targets, never beyond a quarter of
    /// the remaining time, always keeping the move overhead back.
    #[must_use]
    pub fn new(limits: &Limits, turn: Color) -> TimeManager {
        let start = Instant::now();
        let overhead = limits.move_overhead_ms;
        let ms = Duration::from_millis;
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(movetime) = limits.movetime_ms {
            let hard = ms(movetime.saturating_sub(overhead).max(1));
            return TimeManager {
                start,
                soft: Some(hard),
                hard: Some(hard),
            };
        }
        let (time, inc) = match turn {
            Color::White => (limits.wtime_ms, limits.winc_ms.unwrap_or(0)),
            Color::Black => (limits.btime_ms, limits.binc_ms.unwrap_or(0)),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let usable = time.saturating_sub(overhead).max(1);
        let moves_to_go = u64::from(limits.movestogo.unwrap_or(30).clamp(1, 50));
        let target = (usable / moves_to_go + inc * 3 / 4).min(usable);
        let hard = (target * 3).min(usable / 4).max(target.min(usable)).max(1);
        let soft = (target * 6 / 10).max(1);
        TimeManager {
            start,
            soft: Some(ms(soft)),
            hard: Some(ms(hard)),
        }
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard deadline has passed (abort now).
    #[must_use]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether a new iteration should not be started.
    #[must_use]
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_the_overhead_back() {
        let limits = Limits {
            movetime_ms: Some(1000),
            move_overhead_ms: 30,
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White);
        assert_eq!(tm.hard, Some(Duration::from_millis(970)));
    }

    #[test]
    fn clock_budget_is_a_fraction_of_the_remaining_time() {
        let limits = Limits {
            wtime_ms: Some(60_000),
            winc_ms: Some(1_000),
            btime_ms: Some(1_000),
            move_overhead_ms: 10,
            ..Limits::default()
        };
        let white = TimeManager::new(&limits, Color::White);
        assert!(white.hard.unwrap() <= Duration::from_millis(15_000));
        assert!(white.soft.unwrap() >= Duration::from_millis(1_000));
        let black = TimeManager::new(&limits, Color::Black);
        assert!(black.hard.unwrap() <= Duration::from_millis(250));
    }
}
