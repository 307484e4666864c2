//! The power statement of a run: what each experiment of its scale is sized to decide, and
//! what it costs in time, printed when the run starts and at the head of its report.

use std::fmt::Write as _;

use cutlab_analysis::{
    elo::Sprt,
    markdown::Table,
    power::{elo_half_width, sprt_forecast},
};

use super::limit::MatchLimit;
use super::scale::{self, PAIR_SD, Scale};
use crate::common::speed;

/// Seconds per position of the regression to depth 10 at the reference speed (measured:
/// 20 positions of the built-in suite, `cutlab regress --depths 1..10`, 46 s on one core).
const REGRESS_SECONDS_AT_10: f64 = 2.3;

/// What the run is: its scale, where, and how big it was made.
pub struct Sizes<'a> {
    /// The scale.
    pub scale: &'a Scale,
    /// Factor of the time limits, and the speed it came from.
    pub factor: f64,
    /// Measured speed, nodes per second.
    pub speed_nps: Option<u64>,
    /// Threads.
    pub threads: usize,
    /// Positions sampled.
    pub positions: usize,
    /// Games of each sweep and Table 4 match.
    pub games: usize,
    /// The time control given (`--tc`), played as given instead of the scale's.
    pub tc: Option<&'a str>,
    /// Whether Table 4 (an external engine) is played.
    pub table4: bool,
    /// Fixed depth and nodes instead of time.
    pub deterministic: bool,
}

/// Minutes, or hours past 90 minutes.
fn duration(seconds: f64) -> String {
    if seconds >= 5400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.0} min", (seconds / 60.0).ceil())
    }
}

/// The table of a statement's experiments and their time budgets, with the total so far.
struct Budget {
    table: Table,
    total: f64,
}

impl Budget {
    /// One experiment: its name, size and planned precision, and `seconds` of budget.
    fn row(&mut self, [name, size, precision]: [String; 3], seconds: f64) {
        self.total += seconds;
        self.table
            .row(vec![name, size, precision, duration(seconds)]);
    }
}

/// The statement's first paragraph: the scale, deterministic or timed, and the pair deviation
/// the match sizes assume.
fn scale_paragraph(s: &Sizes) -> String {
    let sc = s.scale;
    let mut out = String::from("## Power: what this scale is sized to decide\n\n");
    if s.deterministic {
        let _ = write!(
            out,
            "Scale `{}`, deterministic: searches to fixed depths, and each match at the nodes \
             per move that its time control costs at the reference speed ({:.2} M nps), so \
             the time budget below is only a guide.",
            sc.sample.name,
            speed::REFERENCE_NPS as f64 / 1e6
        );
    } else {
        let _ = write!(
            out,
            "Scale `{}`: {} (the time controls below are after it).",
            sc.sample.name,
            speed::describe(s.factor, s.speed_nps)
        );
    }
    let _ = writeln!(
        out,
        " Match sizes assume a game-pair score deviation of {PAIR_SD} (each match table gives \
         its measured one); {} threads.\n",
        s.threads
    );
    out
}

/// The searches' rows: the regression, the depth comparison, the oracle and the traces.
fn search_rows(s: &Sizes, budget: &mut Budget) {
    // Seconds of one search to `depth`; a traced search takes about twice that.
    let one_search = |depth: i32| REGRESS_SECONDS_AT_10 * s.factor * 2f64.powi(depth - 10);
    regression_row(s, budget, one_search(s.scale.regress_depth));
    depth_row(s, budget);
    oracle_row(s, budget);
    false_cuts_row(s, budget, one_search(s.scale.trace_depth));
}

/// Table 1's regression: the sampled positions and the balanced endgames, to the scale's depth.
fn regression_row(s: &Sizes, budget: &mut Budget, regress_one: f64) {
    let sc = s.scale;
    let threads = s.threads.max(1) as f64;
    let endgames = sc.endgame_games as f64 * 0.9;
    budget.row(
        [
            "Table 1 regression".into(),
            format!(
                "{} positions{}, depths 1-{}",
                s.positions,
                if sc.endgame_games > 0 {
                    format!(
                        " + balanced endgames sampled from {} self-play games",
                        sc.endgame_games
                    )
                } else {
                    String::new()
                },
                sc.regress_depth
            ),
            "at least 100 points per pair and stage within abs(v') <= 300 (n in Table 1)".into(),
        ],
        regress_one * (s.positions as f64 + 3.0 * endgames) / threads + 2.0 * endgames,
    );
}

/// The depth comparison: depth at fixed time, or tree size and time to a fixed depth.
fn depth_row(s: &Sizes, budget: &mut Budget) {
    let sc = s.scale;
    let threads = s.threads.max(1) as f64;
    let depth_ms = (sc.depth_time_ms as f64 * s.factor).round();
    // Deterministic, the depth step searches to the trace depth and reports the time it took
    // (the plan's `limited`); the budget stays the timed step's, as a guide.
    let (depth_name, depth_limit, depth_precision) = if s.deterministic {
        (
            "tree size and time to a fixed depth",
            format!("to depth {}", sc.trace_depth),
            "nodes (geometric mean ratio) and time, paired to null-move, 95% t intervals",
        )
    } else {
        (
            "depth at fixed time",
            format!("x {depth_ms} ms"),
            "paired differences to null-move, 95% t intervals",
        )
    };
    budget.row(
        [
            depth_name.into(),
            format!(
                "{} positions x {} variants {depth_limit}",
                s.positions,
                scale::DEPTH_VARIANTS.len()
            ),
            depth_precision.into(),
        ],
        s.positions as f64 * scale::DEPTH_VARIANTS.len() as f64 * depth_ms / 1000.0 / threads,
    );
}

/// The oracle's regret of each variant.
fn oracle_row(s: &Sizes, budget: &mut Budget) {
    let sc = s.scale;
    let threads = s.threads.max(1) as f64;
    let oracle_ms = (sc.oracle_time_ms as f64 * s.factor).round();
    let oracle_positions = sc.sample.oracle_positions.min(s.positions);
    budget.row(
        [
            "oracle regret".into(),
            format!(
                "{oracle_positions} positions x {} variants {}",
                scale::ORACLE_VARIANTS.len(),
                if s.deterministic {
                    format!("x {} nodes", sc.oracle_nodes())
                } else {
                    format!("x {oracle_ms} ms")
                }
            ),
            "paired regret differences, 95% intervals".into(),
        ],
        oracle_positions as f64 * (scale::ORACLE_VARIANTS.len() as f64 * oracle_ms / 1000.0 + 5.0)
            / threads,
    );
}

/// The traces' false cuts, one traced search of each method per position, each to the trace
/// depth (`trace_one`: an untraced search to it), the methods' traces side by side on the
/// run's threads.
fn false_cuts_row(s: &Sizes, budget: &mut Budget, trace_one: f64) {
    let sc = s.scale;
    budget.row(
        [
            "false cuts".into(),
            format!(
                "{} positions x {} methods to depth {}",
                sc.sample.trace_positions.min(s.positions),
                scale::TRACED.len(),
                sc.trace_depth
            ),
            "Wilson intervals per method".into(),
        ],
        sc.sample.trace_positions.min(s.positions) as f64
            * scale::TRACED.len() as f64
            * 2.0
            * trace_one
            / s.threads.max(1) as f64,
    );
}

/// The matches' rows (Tables 2 to 4 and the headline); returns the headline's forecast.
fn match_rows(s: &Sizes, budget: &mut Budget) -> Result<String, String> {
    let sc = s.scale;
    let threads = s.threads.max(1) as f64;
    // A match's limit as the plan plays it (the same function decides both).
    let limit = |tc: &str| MatchLimit::new(tc, s.tc, s.factor, s.deterministic);
    let half = elo_half_width(s.games, PAIR_SD);
    let table3 = sc
        .t_mid
        .iter()
        .filter(|&&t| t != 1.0 || !sc.t_end.contains(&1.0))
        .count();
    for (table, matches, tc) in [
        (
            "Table 2 endgame-threshold sweep",
            sc.t_end.len(),
            sc.tc_table2,
        ),
        ("Table 3 middlegame-threshold sweep", table3, sc.tc_table3),
    ] {
        let limit = limit(tc)?;
        budget.row(
            [
                table.into(),
                format!("{matches} matches x {} games at {}", s.games, limit.shown()),
                format!("+-{half:.0} Elo each (95%)"),
            ],
            matches as f64 * s.games as f64 * limit.game_seconds() / threads,
        );
    }
    let mut forecast = String::new();
    if let Some(h) = &sc.headline {
        let limit = limit(h.tc)?;
        let sprt = Sprt::new(h.elo.0, h.elo.1, 0.05, 0.05)?;
        budget.row(
            [
                format!("headline: {} vs null-move", h.variant),
                format!(
                    "GSPRT elo0={} elo1={} (alpha = beta = 0.05), cap {} games at {}",
                    h.elo.0,
                    h.elo.1,
                    h.max_games,
                    limit.shown()
                ),
                "accepts H0 or H1, or undecided at the cap (forecast below)".into(),
            ],
            h.max_games as f64 * limit.game_seconds() / threads,
        );
        let mut f = Table::new(&["true Elo", ">P(accept H1)", ">expected games (no cap)"]);
        for elo in [-10.0, 0.0, 10.0, 20.0, 40.0] {
            let x = sprt_forecast(&sprt, elo, PAIR_SD);
            f.row(vec![
                format!("{elo:+}"),
                format!("{:.0}%", 100.0 * x.p_accept_h1),
                format!("{:.0}", x.expected_games),
            ]);
        }
        let _ = write!(
            forecast,
            "\nHeadline forecast (Wald's approximations, pair deviation {PAIR_SD}); the time \
             budget above is the cap's, where the interval is +-{:.0} Elo:\n\n{}",
            elo_half_width(h.max_games, PAIR_SD),
            f.render()
        );
    }
    if s.table4 {
        for tc in sc.tc_table4 {
            let limit = limit(tc)?;
            budget.row(
                [
                    "Table 4 against the external engine".into(),
                    format!("3 matches x {} games at {}", s.games, limit.shown()),
                    format!("+-{half:.0} Elo each (95%)"),
                ],
                3.0 * s.games as f64 * limit.game_seconds() / threads,
            );
        }
    }
    Ok(forecast)
}

/// The power statement of a run: what each experiment is sized to decide, and its time
/// budget on this machine.
///
/// # Errors
/// A time control that does not parse, or hypotheses an SPRT cannot take.
pub fn statement(s: &Sizes) -> Result<String, String> {
    let mut out = scale_paragraph(s);
    let mut budget = Budget {
        table: Table::new(&["experiment", "size", "planned precision", ">time budget"]),
        total: 0.0,
    };
    search_rows(s, &mut budget);
    let forecast = match_rows(s, &mut budget)?;
    budget.table.row(vec![
        "total".into(),
        String::new(),
        String::new(),
        format!("at most {}", duration(budget.total)),
    ]);
    let _ = writeln!(out, "{}{forecast}", budget.table.render());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{Sizes, statement};
    use crate::cmd::reproduce::scale::{self, Scale};

    /// The standard scale on 2 threads at the reference speed, timed, the scale's time
    /// controls: what each test varies.
    fn standard() -> Sizes<'static> {
        Sizes {
            scale: &Scale::STANDARD,
            factor: 1.0,
            speed_nps: None,
            threads: 2,
            positions: 400,
            games: Scale::STANDARD.games,
            tc: None,
            table4: true,
            deterministic: false,
        }
    }

    /// The budget of the statement's row that starts with `experiment`.
    fn budget(text: &str, experiment: &str) -> String {
        text.lines()
            .find(|l| l.starts_with(&format!("| {experiment}")))
            .and_then(|l| l.trim_end_matches(['|', ' ']).rsplit('|').next())
            .map(|b| b.trim().to_string())
            .unwrap_or_default()
    }

    #[test]
    fn the_standard_scale_fits_one_night_on_two_cores() {
        let text = statement(&Sizes {
            speed_nps: Some(1_650_000),
            ..standard()
        })
        .unwrap();
        let total = text
            .lines()
            .find(|l| l.starts_with("| total"))
            .expect("a total row");
        let hours: f64 = total
            .split("at most ")
            .nth(1)
            .and_then(|t| t.trim_end_matches(['|', ' ']).strip_suffix(" h"))
            .and_then(|h| h.parse().ok())
            .expect("hours");
        assert!(hours <= 8.0, "{total}");
        assert!(text.contains("+-34 Elo each"), "{text}");
        assert!(text.contains("GSPRT elo0=0 elo1=20"), "{text}");
    }

    /// `--deterministic` states each match's nodes per move, the depth step's depth and the
    /// oracle's nodes per choice (the plan's, not a time), and its budget stays the timed
    /// run's: the nodes cost what the time does.
    #[test]
    fn a_deterministic_plan_gives_each_match_its_nodes() {
        let sizes = |deterministic| Sizes {
            deterministic,
            ..standard()
        };
        let text = statement(&sizes(true)).unwrap();
        let depth = format!(
            "| tree size and time to a fixed depth | 400 positions x {} variants to depth {}",
            scale::DEPTH_VARIANTS.len(),
            Scale::STANDARD.trace_depth
        );
        // The oracle's choices in the nodes 500 ms cost at the reference speed.
        let oracle = format!("{} variants x 825000 nodes", scale::ORACLE_VARIANTS.len());
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&depth) && flat.contains(&oracle), "{text}");
        assert!(!text.contains(" ms "), "{text}");
        assert!(text.contains("200 games at 74000 nodes per move"), "{text}");
        assert!(
            text.contains("cap 2000 games at 186000 nodes per move"),
            "{text}"
        );
        let total = |t: &str| {
            t.lines()
                .find(|l| l.starts_with("| total"))
                .and_then(|l| l.split("at most ").nth(1))
                .map(str::to_string)
        };
        assert_eq!(total(&text), total(&statement(&sizes(false)).unwrap()));
        // A time factor (`--time-factor`) scales time, never the nodes the plan plays.
        let slower = statement(&Sizes {
            factor: 2.0,
            ..sizes(true)
        })
        .unwrap();
        assert!(
            slower.contains("200 games at 74000 nodes per move"),
            "{slower}"
        );
    }

    /// A `--tc` given is what every match plays, as given: the statement says so, and its
    /// budget is that time control's (it once gave the scale's, scaled, for matches the plan
    /// played at the given one).
    #[test]
    fn a_given_time_control_is_stated_as_played() {
        let sizes = |tc| Sizes {
            factor: 2.0,
            tc,
            ..standard()
        };
        let text = statement(&sizes(Some("1+0.01"))).unwrap();
        assert!(text.contains("200 games at 1+0.01"), "{text}");
        assert!(text.contains("cap 2000 games at 1+0.01"), "{text}");
        // 3 matches x 200 games x 2 x (0.75 x 1 + 60 x 0.01) s on 2 threads: 810 s.
        assert_eq!(budget(&text, "Table 2"), "14 min", "{text}");
        let scaled = statement(&sizes(None)).unwrap();
        assert!(scaled.contains("200 games at 4+0.04"), "{scaled}");
        // The same at 4+0.04: 2 x (3 + 2.4) s a game, 3240 s.
        assert_eq!(budget(&scaled, "Table 2"), "54 min", "{scaled}");
    }
}
