//! Time limits that follow the machine: an experiment's scale is set for a reference speed,
//! and a run multiplies its time limits by the reference over its own machine's speed, as
//! OpenBench scales its time controls by nps, so that a scale means the same search effort on
//! any machine (`reproduce`, `ablate`).

/// The speed the experiments' time limits are set for: `cutlab bench --depth 8` on the 2-core
/// VM cutlab is developed on (1.64-1.69 M nps over three runs, 2026-11-22). A run multiplies every
/// time limit by this over its own machine's speed, as OpenBench scales by nps, so that a
/// scale means the same search effort on any machine.
pub const REFERENCE_NPS: u64 = 1_650_000;

/// Depth of the speed measurement (about 2 s at the reference speed).
pub const SPEED_DEPTH: i32 = 8;

/// How far a timed step's machine may be from the speed its run's time limits were set for
/// before the report says so: 10%, beyond the spread of one machine's measurements (1.64 to
/// 1.69 M nps on the reference VM).
pub const SPEED_TOLERANCE: f64 = 0.10;

/// The factor of a run's time limits and the speed it came from: `given` (`--time-factor`),
/// else `kept` (the run being resumed, so that its steps keep one factor), else 1 for searches
/// limited by depth and nodes (`fixed`), else measured: the reference speed over this machine's.
///
/// # Errors
/// A factor that is not a positive number.
pub fn time_factor(
    given: Option<f64>,
    kept: Option<(f64, Option<u64>)>,
    fixed: bool,
) -> Result<(f64, Option<u64>), String> {
    if let Some(f) = given {
        if !(f.is_finite() && f > 0.0) {
            return Err(format!("--time-factor {f}: expected a positive number"));
        }
        return Ok((f, None));
    }
    if let Some(kept) = kept {
        return Ok(kept);
    }
    if fixed {
        return Ok((1.0, None));
    }
    let nps = crate::common::bench::speed(SPEED_DEPTH)?.max(1);
    #[expect(clippy::cast_precision_loss, reason = "speeds")]
    let factor = REFERENCE_NPS as f64 / nps as f64;
    Ok(((factor * 100.0).round() / 100.0, Some(nps)))
}

/// What a report says of the factor.
#[must_use]
#[expect(clippy::cast_precision_loss, reason = "speeds")]
pub fn describe(factor: f64, speed_nps: Option<u64>) -> String {
    match speed_nps {
        Some(nps) => format!(
            "the run's machine had a bench speed of {:.2} M nps at its start, against the \
             reference {:.2} M nps, so every time limit is multiplied by {factor:.2}",
            nps as f64 / 1e6,
            REFERENCE_NPS as f64 / 1e6
        ),
        None => format!(
            "every time limit is multiplied by {factor:.2}, as given or kept from the run's start"
        ),
    }
}

/// A time control `BASE+INC` (seconds) with both parts multiplied by `factor`.
///
/// # Errors
/// A time control that is not `BASE+INC`.
pub fn scaled_tc(tc: &str, factor: f64) -> Result<String, String> {
    let (base, inc) = parse_tc(tc)?;
    let short = |x: f64| {
        let text = format!("{x:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    Ok(format!("{}+{}", short(base * factor), short(inc * factor)))
}

/// Seconds a game at `tc` takes, roughly: each side spends three quarters of its base time
/// and sixty increments.
///
/// # Errors
/// A time control that is not `BASE+INC`.
pub fn game_seconds(tc: &str) -> Result<f64, String> {
    let (base, inc) = parse_tc(tc)?;
    Ok(2.0 * (0.75 * base + 60.0 * inc))
}

/// Nodes per move of a fixed-node game that costs what a game at `tc` costs at the reference
/// speed: [`game_seconds`]' mean time per move (120 moves a game) times [`REFERENCE_NPS`],
/// to the nearest thousand (2+0.02: 74,000).
///
/// # Errors
/// A time control that is not `BASE+INC`.
pub fn nodes_per_move(tc: &str) -> Result<u64, String> {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a positive node count far below 2^53"
    )]
    let thousands = (game_seconds(tc)? / 120.0 * REFERENCE_NPS as f64 / 1000.0).round() as u64;
    Ok(thousands.max(1) * 1000)
}

/// `BASE+INC` (or `BASE`) as seconds (base, increment): a base above 0 and at most a day, an increment
/// from 0 to an hour, both finite (`0+0`, `-1+0`, `nan+0` and `inf+0` were once accepted, and
/// the last never ended).
///
/// # Errors
/// Not `SECONDS+INCREMENT`, or a number out of its range.
pub fn parse_tc(tc: &str) -> Result<(f64, f64), String> {
    let bad = || {
        format!(
            "time control '{tc}': expected SECONDS+INCREMENT, a base in (0, 86400] and an \
             increment in [0, 3600]"
        )
    };
    // A bare `SECONDS` has no increment.
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let (base, inc): (f64, f64) = (
        base.trim().parse().map_err(|_| bad())?,
        inc.trim().parse().map_err(|_| bad())?,
    );
    if !(base > 0.0 && base <= 86_400.0 && (0.0..=3600.0).contains(&inc)) {
        return Err(bad());
    }
    if base + 40.0 * inc < MIN_CLOCK_SECONDS {
        return Err(format!(
            "time control '{tc}': {} s over the first 40 moves, under {MIN_CLOCK_SECONDS} s: \
             every game would be lost on time",
            base + 40.0 * inc
        ));
    }
    Ok((base, inc))
}

/// The least time a clock may give a side over its first 40 moves, seconds (2.5 ms a move):
/// below it a process cannot even answer in time, and every game is lost on time.
const MIN_CLOCK_SECONDS: f64 = 0.1;

/// `--tc` as clap reads it: checked by [`parse_tc`], kept as written.
///
/// # Errors
/// As [`parse_tc`].
pub fn time_control(tc: &str) -> Result<String, String> {
    parse_tc(tc).map(|_| tc.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn time_controls_scale_and_stay_readable() {
        assert_eq!(super::scaled_tc("10+0.1", 1.0).unwrap(), "10+0.1");
        assert_eq!(super::scaled_tc("2+0.02", 1.5).unwrap(), "3+0.03");
        assert_eq!(super::scaled_tc("5+0.05", 0.5).unwrap(), "2.5+0.025");
        assert!(super::scaled_tc("40/60", 1.0).is_err());
        let e = super::parse_tc("0.0001+0").unwrap_err();
        assert!(e.contains("lost on time"), "{e}");
        assert!(super::parse_tc("0.05+0.002").is_ok());
        assert!((super::game_seconds("10+0.1").unwrap() - 27.0).abs() < 1e-9);
    }

    /// A fixed-node match costs what its time control does: at 2+0.02 a game takes
    /// 2 (0.75 * 2 + 60 * 0.02) = 5.4 s, 45 ms a move over 120 moves, 74,250 nodes at
    /// 1.65 M nps; at 5+0.05, 112.5 ms and 185,625 nodes.
    #[test]
    fn nodes_per_move_cost_what_the_time_control_does() {
        assert_eq!(super::nodes_per_move("2+0.02").unwrap(), 74_000);
        assert_eq!(super::nodes_per_move("5+0.05").unwrap(), 186_000);
        assert!(super::nodes_per_move("fast").is_err());
    }
}
