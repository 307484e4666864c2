//! How big a run is: `--smoke`, `--quick` (the default), `--standard` (one night, sized to
//! decide) and `--full` (the paper's scale).

use crate::common::pipeline::study::Sample;

/// Depth pairs of Jiang and Buro: (3,5) and (4,8) of their Table 1, and the MPC pairs of their
/// section 4.
pub const PAIRS: [(i32, i32); 6] = [(3, 5), (4, 8), (2, 6), (3, 7), (3, 9), (4, 10)];

/// Variants of the fixed-time depth comparison: the paper's three, then ours beside null move.
pub const DEPTH_VARIANTS: [&str; 7] = [
    "null-move",
    "null-move+probcut",
    "null-move+mpc",
    "null-move+sf-probcut",
    "null-move+multicut",
    "null-move+multicut-all",
    "null-move+multicut-tt",
];

/// The paper's variants of the depth comparison (the first three of [`DEPTH_VARIANTS`]).
pub const PAPER_DEPTH_VARIANTS: usize = 3;

/// Variants whose moves the oracle judges; probabilistic alpha-beta at three confidences.
pub const ORACLE_VARIANTS: [&str; 8] = [
    "null-move",
    "null-move+probcut",
    "null-move+mpc",
    "null-move+sf-probcut",
    "null-move+multicut",
    "prob-ab@0.95",
    "prob-ab@0.5",
    "prob-ab@0.05",
];

/// Each method alone, traced with the share of its cuts verified by a full-width re-search
/// (rare methods get a larger share so that their false-cut rates have some cuts behind them).
/// The other methods of its trace (the quiescence futility of every preset) get
/// [`VERIFY_OTHERS`](crate::common::pipeline::steps::VERIFY_OTHERS).
pub const TRACED: [(&str, f64); 7] = [
    ("null-move", 0.02),
    ("probcut", 1.0),
    ("mpc", 0.25),
    ("sf-probcut", 0.05),
    ("multicut", 0.05),
    ("multicut-all", 0.02),
    ("multicut-tt", 0.02),
];

/// Assumed standard deviation of a game pair's score (mean of its two games) when a match is
/// sized: 0.25 is between the 0.20 of cutlab's one-sided matches and the 0.30 of a wide-open
/// one; the report gives each match's measured value.
pub const PAIR_SD: f64 = 0.25;

/// A match played until a sequential test decides, or a cap.
pub struct Headline {
    /// The variant tested, against `null-move`.
    pub variant: &'static str,
    /// Time control.
    pub tc: &'static str,
    /// GSPRT hypotheses, Elo: H0 and H1.
    pub elo: (f64, f64),
    /// Game cap.
    pub max_games: usize,
}

/// The sizes of one scale.
pub struct Scale {
    /// `smoke`, `quick`, `standard` or `full`, and its positions (0: all of the suite).
    pub sample: Sample,
    /// Deepest iteration of the regression searches.
    pub regress_depth: i32,
    /// The searches use this run's own fit (else the built-in one, fitted on 200 positions).
    pub own_fit: bool,
    /// Time per search of the depth comparison.
    pub depth_time_ms: u64,
    /// Time per chosen move in the oracle step.
    pub oracle_time_ms: u64,
    /// Depth of the external engine's oracle search.
    pub engine_oracle_depth: u32,
    /// Depth of the internal full-width oracle (no external engine).
    pub internal_oracle_depth: u32,
    /// Depth of the traced searches.
    pub trace_depth: i32,
    /// Games per match.
    pub games: usize,
    /// Time control of the endgame-threshold sweep (Table 2).
    pub tc_table2: &'static str,
    /// Time control of the middlegame-threshold sweep (Table 3).
    pub tc_table3: &'static str,
    /// Time controls of the matches against the external engine (Table 4).
    pub tc_table4: &'static [&'static str],
    /// Endgame thresholds of Table 2 (middlegame fixed at 1.0).
    pub t_end: &'static [f64],
    /// Middlegame thresholds of Table 3 (endgame fixed at 1.0).
    pub t_mid: &'static [f64],
    /// Self-play games sampled for balanced endgame positions added to the regression, so
    /// that Table 1 has endgame points within |v'| <= 300 (0: none).
    pub endgame_games: u32,
    /// The headline match (MPC against null move) under a GSPRT, if this scale plays one.
    pub headline: Option<Headline>,
}

impl Scale {
    /// The nodes each variant searches per chosen move in the oracle step under
    /// `--deterministic`: what the scale's time per move costs at the reference speed
    /// (825,000 for 500 ms), the timed run's effort for every variant. (A fixed depth would
    /// be no common effort: probabilistic alpha-beta, without null move, takes 30 times
    /// null move's nodes at depth 6, and at a depth where ProbCut acts, hours.)
    #[must_use]
    pub fn oracle_nodes(&self) -> u64 {
        self.oracle_time_ms * crate::common::speed::REFERENCE_NPS / 1000
    }

    /// The scale called `name`.
    pub fn named(name: &str) -> Option<Scale> {
        match name {
            "smoke" => Some(Scale::SMOKE),
            "quick" => Some(Scale::QUICK),
            "standard" => Some(Scale::STANDARD),
            "full" => Some(Scale::FULL),
            _ => None,
        }
    }

    /// Under a minute: every step runs, the numbers mean nothing.
    pub const SMOKE: Scale = Scale {
        sample: Sample {
            name: "smoke",
            positions: 10,
            oracle_positions: 3,
            trace_positions: 2,
        },
        regress_depth: 7,
        own_fit: false,
        depth_time_ms: 40,
        oracle_time_ms: 40,
        engine_oracle_depth: 8,
        internal_oracle_depth: 3,
        trace_depth: 6,
        games: 2,
        tc_table2: "0.25+0.0025",
        tc_table3: "0.25+0.0025",
        tc_table4: &["0.25+0.0025"],
        t_end: &[1.0],
        t_mid: &[1.2],
        endgame_games: 2,
        headline: Some(Headline {
            variant: "null-move+mpc",
            tc: "0.25+0.0025",
            elo: (0.0, 20.0),
            max_games: 2,
        }),
    };

    /// The README's main command ([`crate::common::durations::REPRODUCE_QUICK`]): every step,
    /// on a sample small enough to keep a newcomer's two commands short (48 positions, traces
    /// to depth 9 and games at 2+0.02 ran 550 s; the time of these is in `durations`).
    pub const QUICK: Scale = Scale {
        sample: Sample {
            name: "quick",
            positions: 24,
            oracle_positions: 12,
            trace_positions: 3,
        },
        regress_depth: 10,
        own_fit: false,
        depth_time_ms: 500,
        oracle_time_ms: 250,
        engine_oracle_depth: 12,
        internal_oracle_depth: 5,
        trace_depth: 8,
        games: 8,
        tc_table2: "1+0.01",
        tc_table3: "1+0.01",
        tc_table4: &["1+0.01"],
        t_end: &[0.5, 1.0, 1.5],
        t_mid: &[0.8, 1.0, 1.2],
        endgame_games: 0,
        headline: None,
    };

    /// [`crate::common::durations::REPRODUCE_STANDARD`] (the report prints the budget): the whole
    /// built-in suite at 1 s per position, a regression with enough balanced points per pair
    /// and stage, threshold sweeps of 200 games (±40 Elo at a pair deviation up to 0.29), and
    /// the headline MPC-against-null-move match under a GSPRT [0, 20] capped at 2000 games.
    pub const STANDARD: Scale = Scale {
        sample: Sample {
            name: "standard",
            positions: 0,
            oracle_positions: 100,
            trace_positions: 8,
        },
        regress_depth: 10,
        own_fit: true,
        depth_time_ms: 1000,
        oracle_time_ms: 500,
        engine_oracle_depth: 14,
        internal_oracle_depth: 6,
        trace_depth: 10,
        games: 200,
        tc_table2: "2+0.02",
        tc_table3: "2+0.02",
        tc_table4: &["5+0.05"],
        t_end: &[0.6, 1.0, 1.3],
        t_mid: &[0.8, 1.2],
        endgame_games: 120,
        headline: Some(Headline {
            variant: "null-move+mpc",
            tc: "5+0.05",
            elo: (0.0, 20.0),
            max_games: 2000,
        }),
    };

    /// The paper's scale: 300+ positions at 30 s each, its thresholds, 64-game matches at its
    /// time controls (2 min + 12 s and 10 min + 60 s; against the external engine 2 min + 10 s
    /// and 8 min + 20 s).
    pub const FULL: Scale = Scale {
        sample: Sample {
            name: "full",
            positions: 0,
            oracle_positions: 100,
            trace_positions: 20,
        },
        regress_depth: 10,
        own_fit: true,
        depth_time_ms: 30_000,
        oracle_time_ms: 1000,
        engine_oracle_depth: 16,
        internal_oracle_depth: 7,
        trace_depth: 11,
        games: 64,
        tc_table2: "120+12",
        tc_table3: "600+60",
        tc_table4: &["120+10", "480+20"],
        t_end: &[0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.05, 1.1, 1.2, 1.3],
        t_mid: &[0.8, 0.9, 1.0, 1.1, 1.2, 1.3],
        endgame_games: 0,
        headline: None,
    };
}
