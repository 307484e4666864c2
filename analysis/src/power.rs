//! How many games a match needs: the half-width of a fixed-length match's Elo interval, and
//! the expected length and power of an SPRT, from the spread of game-pair scores.
//!
//! Pairs are the unit (pentanomial statistics): a pair's score is the mean of its two games,
//! with standard deviation `pair_sd` (0.2-0.3 in engine self-play from balanced openings;
//! cutlab's matches print it as the pentanomial variance). Formulas are normal approximations:
//! the interval is score ± z σ/√n mapped through the Elo curve, whose slope at 50% is
//! 1600 / ln 10 ≈ 695 Elo per unit score; the SPRT is Wald's, its log-likelihood ratio a
//! random walk with drift μ = Δs (s − s̄)/σ² and variance v = Δs²/σ² per pair (Δs = s1 − s0,
//! s̄ = (s0 + s1)/2), whose exit probability and mean exit time are Brownian motion's.

use crate::elo::{Sprt, elo_of_score};

/// Expected score of an Elo difference: 1 / (1 + 10^(−elo/400)).
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Half-width in Elo of the 95% interval of a match of `games` games (pairs of two) between
/// engines of equal strength, when pair scores have standard deviation `pair_sd`.
#[must_use]
pub fn elo_half_width(games: usize, pair_sd: f64) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "game counts")]
    let pairs = (games / 2).max(1) as f64;
    let half = 1.959_964 * pair_sd / pairs.sqrt();
    (elo_of_score(0.5 + half) - elo_of_score(0.5 - half)) / 2.0
}

/// Games (an even number) for a 95% interval of at most ±`half_width` Elo.
#[must_use]
pub fn games_for_half_width(half_width: f64, pair_sd: f64) -> usize {
    let mut pairs = 1;
    while elo_half_width(2 * pairs, pair_sd) > half_width {
        pairs += 1;
    }
    2 * pairs
}

/// What an SPRT is expected to do when the true difference is `elo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtForecast {
    /// Probability that it accepts H1.
    pub p_accept_h1: f64,
    /// Expected number of games until it decides (unbounded test).
    pub expected_games: f64,
}

/// The forecast of `sprt` at true Elo `elo` with pair-score deviation `pair_sd`.
#[must_use]
pub fn sprt_forecast(sprt: &Sprt, elo: f64, pair_sd: f64) -> SprtForecast {
    let (s0, s1, s) = (
        score_of_elo(sprt.elo0),
        score_of_elo(sprt.elo1),
        score_of_elo(elo),
    );
    let variance = pair_sd * pair_sd;
    let step = s1 - s0;
    let drift = step * (s - (s0 + s1) / 2.0) / variance;
    let spread = step * step / variance;
    let (a, b) = (sprt.lower, sprt.upper);
    let (p, pairs) = if (drift / spread).abs() < 1e-9 {
        (-a / (b - a), -a * b / spread)
    } else {
        let c = 2.0 * drift / spread;
        let p = (1.0 - (-c * a).exp()) / ((-c * b).exp() - (-c * a).exp());
        (p, (p * b + (1.0 - p) * a) / drift)
    };
    SprtForecast {
        p_accept_h1: p,
        expected_games: 2.0 * pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_shrinks_with_the_square_root_of_the_games() {
        let w100 = elo_half_width(100, 0.25);
        let w400 = elo_half_width(400, 0.25);
        // 1.96 * 0.25 / sqrt(50) = 0.0693 of score, about 48 Elo.
        assert!((w100 - 48.3).abs() < 0.5, "{w100}");
        assert!((w100 / w400 - 2.0).abs() < 0.02);
        let games = games_for_half_width(40.0, 0.25);
        assert!(elo_half_width(games, 0.25) <= 40.0);
        assert!(elo_half_width(games - 2, 0.25) > 40.0);
    }

    #[test]
    fn sprt_errors_are_alpha_and_beta_at_the_hypotheses() {
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let at_h0 = sprt_forecast(&sprt, 0.0, 0.25);
        let at_h1 = sprt_forecast(&sprt, 20.0, 0.25);
        assert!((at_h0.p_accept_h1 - 0.05).abs() < 0.002, "{at_h0:?}");
        assert!((at_h1.p_accept_h1 - 0.95).abs() < 0.002, "{at_h1:?}");
        // Halfway the test is slowest and undecided between the two.
        let mid = sprt_forecast(&sprt, 10.0, 0.25);
        assert!((mid.p_accept_h1 - 0.5).abs() < 0.01, "{mid:?}");
        assert!(mid.expected_games > at_h1.expected_games);
        assert!(sprt_forecast(&sprt, 60.0, 0.25).expected_games < at_h1.expected_games);
    }
}
