//! What a stopping rule does to the numbers it prints: the repository's own [`Looks`] rule
//! simulated on game pairs of known Elo. After a sequential stop the interval printed at the
//! look's confidence covers the true value less often than that confidence, and the estimate
//! at the stop is biased away from 0 (a match stops early when its first games happen to
//! read large: Whitehead 1986, "On the bias of maximum likelihood estimation following a
//! sequential test"; Jennison and Turnbull 2000, *Group Sequential Methods*, chapter 8).
//! The simulation gives both for the exact rule a study ran.

use cutlab_instrument::csv_sink::splitmix64;

use crate::{
    elo::{Looks, Pentanomial, Stop, elo_of_score},
    stats::{Estimate, trend},
};

/// The game-pair scores of the pentanomial outcomes, first engine's points per game.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A rule's behaviour at one true Elo, over many simulated matches.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulated {
    /// The true Elo of the pairs drawn.
    pub elo: f64,
    /// Share of matches whose interval at the stop (the look's, at [`Looks::confidence`])
    /// holds the true Elo.
    pub coverage: f64,
    /// Mean of the Elo estimates at the stop.
    pub mean_elo: f64,
    /// Root mean square error of the Elo estimates at the stop (finite estimates only).
    pub rmse: f64,
    /// Mean of the estimates of the matches that stopped at the first look.
    pub mean_elo_first_look: Option<f64>,
    /// Share of matches stopped as decided, bounded, and at the last look.
    pub stops: [f64; 3],
}

/// The pentanomial probabilities of `base` (a distribution of no effect: mean score 0.5)
/// tilted exponentially to the mean score of `elo` (p_i ∝ base_i e^{λ s_i}): the same shape
/// of draws and pairs, shifted.
#[must_use]
pub fn tilted(base: [f64; 5], elo: f64) -> [f64; 5] {
    let target = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let at = |lambda: f64| {
        let w: Vec<f64> = base
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, s)| p * (lambda * s).exp())
            .collect();
        let total: f64 = w.iter().sum();
        let mut p = [0.0; 5];
        for (slot, x) in p.iter_mut().zip(&w) {
            *slot = x / total;
        }
        p
    };
    let mean = |p: &[f64; 5]| p.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum::<f64>();
    let (mut low, mut high) = (-50.0, 50.0);
    for _ in 0..100 {
        let mid = f64::midpoint(low, high);
        if mean(&at(mid)) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    at(f64::midpoint(low, high))
}

/// One simulated match at its stop: its estimate, its printed interval's half-width, why it
/// stopped (none when the simulation was cut before a stop) and how many pairs it played.
struct Stopped {
    elo: f64,
    error: f64,
    stop: Option<Stop>,
    pairs: u64,
}

/// `reps` matches of pairs drawn from `probs`, each stopped by `looks` as `cutlab match
/// --looks` stops it; seeded.
fn matches(looks: &Looks, probs: [f64; 5], reps: u32, seed: u64) -> Vec<Stopped> {
    matches_until(looks, probs, (reps, seed), None)
}

/// [`matches`], each cut after `until` games if no look has stopped it by then (its `stop`
/// none): the matches that stop at one look need no games after it. Cut matches draw from a
/// stream of their own each (match i from the seed and i), so that the same match is drawn
/// alike whatever the pairs' probabilities and wherever the others were cut; uncut ones
/// share one stream.
fn matches_until(
    looks: &Looks,
    probs: [f64; 5],
    (reps, seed): (u32, u64),
    until: Option<u64>,
) -> Vec<Stopped> {
    let mut cumulative = [0.0; 5];
    let mut total = 0.0;
    for (c, p) in cumulative.iter_mut().zip(probs) {
        total += p;
        *c = total;
    }
    let mut state = seed;
    (0..reps)
        .map(|i| {
            if until.is_some() {
                state = splitmix64(seed ^ u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            }
            // The outcomes counted LL to WW; the rule is asked only at its looks (it says
            // nothing between them), so the pairs up to the next look or cut are drawn in one
            // run.
            let mut counts = [0_u64; 5];
            let mut games = 0;
            let mut looks_left = looks.games().iter().copied().peekable();
            let stop = loop {
                let look = looks_left.peek().copied();
                let Some(end) = [look, until].into_iter().flatten().min() else {
                    break None;
                };
                while games < end {
                    state = splitmix64(state);
                    #[expect(clippy::cast_precision_loss, reason = "53 bits of a uniform draw")]
                    let u = (state >> 11) as f64 / (1_u64 << 53) as f64 * total;
                    // The first outcome whose cumulative probability exceeds u, found without a
                    // branch: the number of outcomes whose cumulative probability u reaches.
                    let outcome = usize::from(u >= cumulative[0])
                        + usize::from(u >= cumulative[1])
                        + usize::from(u >= cumulative[2])
                        + usize::from(u >= cumulative[3]);
                    counts[outcome] += 1;
                    games += 2;
                }
                if look == Some(games) {
                    if let Some(stop) = looks.stop(&Pentanomial::from(counts)) {
                        break Some(stop);
                    }
                    looks_left.next();
                }
                if until.is_some_and(|cut| games >= cut) {
                    break None;
                }
            };
            let p = Pentanomial::from(counts);
            let s = looks.stats(&p);
            Stopped {
                elo: s.elo,
                error: s.elo_error,
                stop,
                pairs: p.pairs(),
            }
        })
        .collect()
}

/// `reps` matches of pairs drawn from `probs` (pentanomial probabilities, LL to WW), each
/// stopped by `looks` as `cutlab match --looks` stops it; seeded.
#[must_use]
pub fn simulate(looks: &Looks, probs: [f64; 5], reps: u32, seed: u64) -> Simulated {
    let elo = elo_of_score(probs.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum());
    let played = matches(looks, probs, reps, seed);
    let share = |n: usize| {
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let x = n as f64 / played.len().max(1) as f64;
        x
    };
    let first: Vec<f64> = played
        .iter()
        .filter(|m| looks.games().first() == Some(&(2 * m.pairs)))
        .map(|m| m.elo)
        .collect();
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let elos: Vec<f64> = played.iter().map(|m| m.elo).collect();
    let count = |stop: Stop| played.iter().filter(|m| m.stop == Some(stop)).count();
    Simulated {
        elo,
        coverage: share(
            played
                .iter()
                .filter(|m| (m.elo - m.error..=m.elo + m.error).contains(&elo))
                .count(),
        ),
        mean_elo: mean(&elos),
        rmse: {
            let errors: Vec<f64> = elos
                .iter()
                .filter(|e| e.is_finite())
                .map(|e| (e - elo).powi(2))
                .collect();
            mean(&errors).sqrt()
        },
        mean_elo_first_look: (!first.is_empty()).then(|| mean(&first)),
        stops: [
            share(count(Stop::Decided)),
            share(count(Stop::Bounded)),
            share(count(Stop::LastLook)),
        ],
    }
}

/// How often independent matches of the same true worth (pairs drawn from `probs`, each
/// stopped by `looks`), one at each of the efforts `xs`, read as a trend: the interval of the
/// slope of their estimates against `xs` ([`trend`], from the printed intervals) excludes 0.
/// The by-chance rate of a contrast of efforts or of two evaluations (two points: their
/// difference's interval, the half-widths in quadrature) under the rule actually used, not
/// the nominal level.
#[must_use]
pub fn false_trend_rate(looks: &Looks, probs: [f64; 5], xs: &[f64], reps: u32, seed: u64) -> f64 {
    let Ok(k) = u32::try_from(xs.len()) else {
        return 0.0;
    };
    if k < 2 {
        return 0.0;
    }
    let played = matches(looks, probs, k * reps, seed);
    let changed = played
        .chunks(xs.len())
        .filter(|ms| {
            let points: Vec<(f64, Estimate)> = xs
                .iter()
                .zip(ms.iter())
                .map(|(&x, m)| (x, Estimate::around(m.elo, m.error)))
                .collect();
            trend(&points).is_some_and(|t| t.slope.sign().is_some())
        })
        .count();
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let rate = changed as f64 / f64::from(reps.max(1));
    rate
}

/// The conditional bias-adjusted estimate of the Elo of a match stopped by `looks` after
/// `games` games: the true Elo θ̃ whose mean estimate among the matches that stop at that same
/// look is the one observed, E_θ̃[θ̂ | stop at that look] = θ̂ (the conditional mean-adjusted
/// estimator: Fan, DeMets and Lan 2004, "Conditional bias of point estimates following a group
/// sequential test", Journal of Biopharmaceutical Statistics 14(2), 505-530; Troendle and Yu
/// 1999). A match that stops at its first look because its first games read large is pulled
/// back most; one whose effect stops every match at that look keeps about its value. The mean
/// is simulated, `reps` matches of pairs from `base` tilted to each θ, the same draws at every
/// θ; the root by bisection within ±200 Elo of the observation. Conditioning on the look, not
/// only on having stopped (Whitehead 1986), is what makes it undo the shrinkage the replays of
/// first-look rows showed.
#[must_use]
pub fn stage_adjusted(
    looks: &Looks,
    base: [f64; 5],
    (observed, games): (f64, u64),
    (reps, seed): (u32, u64),
) -> f64 {
    let mean_at = |elo: f64| {
        let estimates: Vec<f64> =
            matches_until(looks, tilted(base, elo), (reps, seed), Some(games))
                .iter()
                .filter(|m| m.stop.is_some() && 2 * m.pairs == games && m.elo.is_finite())
                .map(|m| m.elo)
                .collect();
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let mean =
            (!estimates.is_empty()).then(|| estimates.iter().sum::<f64>() / estimates.len() as f64);
        mean
    };
    let (mut low, mut high) = (observed - 200.0, observed + 200.0);
    for _ in 0..16 {
        let mid = f64::midpoint(low, high);
        // No match stops at that look from this θ: at the first look θ is too near 0 for a
        // stop there (move away from 0, towards the observation's side); at a later look it
        // is so far from 0 that the matches stopped earlier (move towards 0).
        let increase = match mean_at(mid) {
            Some(mean) => mean < observed,
            None if looks.games().first() == Some(&games) => observed > 0.0,
            None => mid < 0.0,
        };
        if increase {
            low = mid;
        } else {
            high = mid;
        }
    }
    f64::midpoint(low, high)
}

/// Matches a report simulates for each bisection step of a [`stage_adjusted`] estimate of a
/// match stopped after `games` games: about a million pairs, from 10,000 matches for a stop
/// at 200 games (few stop there, and their mean is what the estimate rests on) to 1,000 at
/// 1,600 and later.
#[must_use]
pub fn adjusting_matches(games: u64) -> u32 {
    u32::try_from((2_000_000 / games.max(2)).clamp(1000, 10_000)).unwrap_or(1000)
}

/// The true worths, Elo, at which a report simulates its rule: no effect, and the sizes the
/// decisive rows read.
pub const TRUE_ELOS: [f64; 4] = [0.0, 10.0, 20.0, 40.0];

/// Matches a report simulates at each true worth.
pub const MATCHES: u32 = 2000;

/// The game pairs of several matches pooled into one distribution of no effect (tilted to a
/// mean score of one half: the shape of their draws and pairs, without their worths), and how
/// many pairs; `None` without any.
#[must_use]
pub fn no_effect_of<'a>(
    matches: impl IntoIterator<Item = &'a Pentanomial>,
) -> Option<([f64; 5], u64)> {
    let counts = matches.into_iter().fold([0_u64; 5], |mut acc, p| {
        for (slot, n) in acc.iter_mut().zip([p.ll, p.ld, p.wl_dd, p.wd, p.ww]) {
            *slot += n;
        }
        acc
    });
    let total: u64 = counts.iter().sum();
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let shares = counts.map(|n| n as f64 / total.max(1) as f64);
    (total > 0).then(|| (tilted(shares, 0.0), total))
}

/// [`false_trend_rate`] at the worst of the true worths `elos`, each from `base` tilted to it.
#[must_use]
pub fn worst_false_trend_rate(
    looks: &Looks,
    base: [f64; 5],
    elos: &[f64],
    xs: &[f64],
    (reps, seed): (u32, u64),
) -> f64 {
    elos.iter()
        .map(|&elo| false_trend_rate(looks, tilted(base, elo), xs, reps, seed))
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair distribution of no effect with about 30% drawn games, as at 20,000 nodes.
    const BASE: [f64; 5] = [0.08, 0.22, 0.40, 0.22, 0.08];

    #[test]
    fn tilting_reaches_the_elo_asked_for_and_keeps_no_effect_as_it_is() {
        for elo in [-100.0, -15.0, 0.0, 30.0] {
            let p = tilted(BASE, elo);
            let score: f64 = p.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum();
            assert!((elo_of_score(score) - elo).abs() < 1e-6, "{elo}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert_eq!(
            tilted(BASE, 0.0).map(|p| (p * 1e9).round()),
            BASE.map(|p| (p * 1e9).round())
        );
    }

    /// The ablation's rule (looks at 200 to 3,200 games, each at 99%, bound 15 Elo): with no
    /// effect it decides at most about the 5% it guarantees, yet its interval printed at 99%
    /// covers the truth less often (the bounded stop comes where the interval happens to be
    /// narrow); with a true 20 Elo a match that stops at its first look reads more than twice
    /// the truth (the replays' shrinkage), and the mean at the stop is above it too.
    #[test]
    fn after_the_stop_the_interval_covers_less_and_the_first_look_reads_high() {
        let looks = Looks::new(vec![200, 400, 800, 1600, 3200], 15.0).unwrap();
        let null = simulate(&looks, tilted(BASE, 0.0), 4000, 1);
        assert!(
            null.stops[0] <= 0.06,
            "decided with no effect: {:?}",
            null.stops
        );
        assert!(
            null.coverage < looks.confidence() - 0.015,
            "coverage {} against {}",
            null.coverage,
            looks.confidence()
        );
        let moderate = simulate(&looks, tilted(BASE, 20.0), 4000, 2);
        let first = moderate.mean_elo_first_look.unwrap();
        assert!(first > 2.0 * 20.0, "first-look mean {first}");
        assert!(
            moderate.mean_elo > 20.0 + 3.0,
            "mean at the stop {}",
            moderate.mean_elo
        );
        // The error about the truth is at least the bias, and more: the estimates spread.
        let bias = moderate.mean_elo - moderate.elo;
        assert!(moderate.rmse > bias.abs() + 1.0, "{moderate:?}");
    }

    /// Two matches of the same true worth read as changed more often than the nominal 1% of
    /// their 99% intervals once each has stopped by the looks (each stop pulls its estimate
    /// away from the truth), most where the worth is one the rule stops on early.
    #[test]
    fn two_stopped_matches_of_one_worth_read_changed_more_than_nominally() {
        let looks = Looks::new(vec![200, 400, 800, 1600, 3200], 15.0).unwrap();
        let at_zero = false_trend_rate(&looks, tilted(BASE, 0.0), &[0.0, 1.0], 3000, 3);
        let at_twenty = false_trend_rate(&looks, tilted(BASE, 20.0), &[0.0, 1.0], 3000, 4);
        assert!(at_zero < 0.05, "{at_zero}");
        assert!(at_twenty > 1.0 - looks.confidence(), "{at_twenty}");
    }

    /// The adjusted estimate undoes what the rule does at a look: the mean estimate of the
    /// matches of a true 20 Elo that stop at the first look (far above 20) adjusts back to
    /// about 20, and a match without looks before its end (an unbiased estimate) keeps about
    /// its own value.
    #[test]
    fn the_stage_adjusted_estimate_undoes_a_first_looks_inflation() {
        let looks = Looks::new(vec![200, 400, 800, 1600, 3200], 15.0).unwrap();
        let first = simulate(&looks, tilted(BASE, 20.0), 20_000, 9)
            .mean_elo_first_look
            .unwrap();
        assert!(first > 40.0, "{first}");
        let adjusted = stage_adjusted(&looks, BASE, (first, 200), (20_000, 11));
        assert!((adjusted - 20.0).abs() < 5.0, "{adjusted} from {first}");
        let fixed = Looks::new(vec![800], 15.0).unwrap();
        let adjusted = stage_adjusted(&fixed, BASE, (30.0, 800), (2000, 9));
        assert!((adjusted - 30.0).abs() < 1.5, "{adjusted}");
    }

    /// A trend over three efforts from matches of one true worth: by chance about as often as
    /// its nominal level when no look stops early, and never from a single effort.
    #[test]
    fn a_trend_of_one_worth_over_three_efforts_is_rare() {
        let looks = Looks::new(vec![800, 1600, 3200], 15.0).unwrap();
        let xs = [0.0, 2.0, 4.0];
        let rate = false_trend_rate(&looks, tilted(BASE, 0.0), &xs, 2000, 5);
        assert!(rate < 0.05, "{rate}");
        assert!(rate > 0.0, "{rate}");
        assert!(false_trend_rate(&looks, tilted(BASE, 0.0), &[1.0], 100, 5).abs() < f64::EPSILON);
    }
}
