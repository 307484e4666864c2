//! Search limits (the UCI `go` parameters) and the time manager that turns them into a soft
//! deadline (no new iteration after it) and a hard deadline (abort the iteration). On a clock
//! the soft deadline stretches while the search is unsettled and shrinks once it has settled
//! (Ethereal's `tm_finished`, `src/timeman.c`).

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
    /// Time kept back from a clock for communication and process latency, milliseconds (UCI
    /// `Move Overhead`); a fixed `movetime` is searched whole.
    pub move_overhead_ms: u64,
    /// The root moves to search (UCI `searchmoves`); empty: every legal move.
    pub searchmoves: Vec<shakmaty::Move>,
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

/// How settled the search is after an iteration, which scales the soft deadline on a clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settledness {
    /// Iterations completed.
    pub depth: i32,
    /// Consecutive iterations that kept the best move.
    pub best_move_kept: u32,
    /// The score three iterations ago minus the score now, centipawns (positive: falling).
    pub score_drop_cp: i32,
}

impl Settledness {
    /// Ethereal's factors: 1.2 - 0.04 x (iterations the best move was kept, at most 10), times
    /// the score drop / 20 bounded to [0.75, 1.25]; from 0.6 (settled) to 1.5 (unsettled).
    #[must_use]
    pub fn factor(self) -> f64 {
        let kept = f64::from(self.best_move_kept.min(10));
        let best_move = 1.2 - 0.04 * kept;
        let score = (0.05 * f64::from(self.score_drop_cp)).clamp(0.75, 1.25);
        best_move * score
    }
}

/// Iterations before the soft deadline may end a search on a clock (Ethereal: 4).
const MIN_SETTLED_DEPTH: i32 = 4;

/// Deadlines derived from [`Limits`] for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// On a clock: the target time per move, which [`Settledness::factor`] scales.
    target: Option<Duration>,
}

impl TimeManager {
    /// Computes the deadlines, starting the clock now.
    ///
    /// With a clock: target = time / moves-to-go (30 when unknown) + 3/4 of the increment;
    /// no new iteration after 0.6 to 1.5 targets as the search is settled or not (60% of the
    /// target before the search has settled anything), abort at 3 targets or a quarter of the
    /// remaining time, whichever comes first, but never before the target itself (which a
    /// quarter of the time can be less than: with 1 move to go the target is all of it),
    /// always keeping the move overhead back.
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
                target: None,
            };
        }
        // A fixed time per move is the GUI's to keep: it is searched whole, the overhead not
        // taken off (as Stockfish's `go movetime`; it once left `movetime 20` about 1 ms).
        if let Some(movetime) = limits.movetime_ms {
            let hard = ms(movetime.max(1));
            return TimeManager {
                start,
                soft: Some(hard),
                hard: Some(hard),
                target: None,
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
                target: None,
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
            target: Some(ms(target.max(1))),
        }
    }

    /// Whether the search plays on a clock (its time is the engine's to manage).
    #[must_use]
    pub fn on_clock(&self) -> bool {
        self.target.is_some()
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

    /// Whether a new iteration should not be started, the search being as `settled` is.
    #[must_use]
    pub fn soft_expired(&self, settled: Settledness) -> bool {
        self.soft_deadline(settled)
            .is_some_and(|s| self.start.elapsed() >= s)
    }

    fn soft_deadline(&self, settled: Settledness) -> Option<Duration> {
        match self.target {
            Some(target) if settled.depth >= MIN_SETTLED_DEPTH => Some(
                target
                    .mul_f64(settled.factor())
                    .min(self.hard.unwrap_or(target)),
            ),
            _ => self.soft,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_searched_whole() {
        for (movetime, overhead) in [(1000, 30), (20, 30), (30, 30)] {
            let limits = Limits {
                movetime_ms: Some(movetime),
                move_overhead_ms: overhead,
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, Color::White);
            assert_eq!(tm.hard, Some(Duration::from_millis(movetime)));
        }
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

    #[test]
    fn an_unsettled_search_gets_more_time_than_a_settled_one() {
        let settled = Settledness {
            depth: 12,
            best_move_kept: 10,
            score_drop_cp: -30,
        };
        let unsettled = Settledness {
            depth: 12,
            best_move_kept: 0,
            score_drop_cp: 40,
        };
        assert!((settled.factor() - 0.6).abs() < 1e-9);
        assert!((unsettled.factor() - 1.5).abs() < 1e-9);
        let limits = Limits {
            wtime_ms: Some(30_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White);
        assert!(tm.on_clock());
        assert_eq!(tm.soft_deadline(settled), Some(Duration::from_millis(600)));
        assert_eq!(
            tm.soft_deadline(unsettled),
            Some(Duration::from_millis(1500))
        );
        let early = Settledness {
            depth: 2,
            ..unsettled
        };
        assert_eq!(tm.soft_deadline(early), Some(Duration::from_millis(600)));
        let fixed = TimeManager::new(&Limits::movetime(500), Color::White);
        assert!(!fixed.on_clock());
        assert_eq!(fixed.soft_deadline(unsettled), fixed.hard);
    }
}
