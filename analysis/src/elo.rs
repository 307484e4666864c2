//! Match statistics as fastchess reports them: Elo difference from the pentanomial (game
//! pair) model with its 95% interval, normalized Elo, LOS, draw ratio, and the SPRT log-
//! likelihood ratio with Wald's bounds.

use statrs::function::erf::erf;

use crate::stats::{Estimate, z_quantile};

/// Game-pair outcomes from the first engine's view: counts of pair scores 0, ½, 1, 1½, 2
/// (LL, LD, WL+DD, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Two losses.
    pub ll: u64,
    /// A loss and a draw.
    pub ld: u64,
    /// Two draws, or a win and a loss.
    pub wl_dd: u64,
    /// A win and a draw.
    pub wd: u64,
    /// Two wins.
    pub ww: u64,
}

const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The counts in the order of their score: `[ll, ld, wl_dd, wd, ww]`.
impl From<[u64; 5]> for Pentanomial {
    fn from([ll, ld, wl_dd, wd, ww]: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl_dd,
            wd,
            ww,
        }
    }
}

impl Pentanomial {
    /// Adds a pair given the first engine's two game scores (0, 0.5 or 1 each).
    pub fn add(&mut self, first: f64, second: f64) {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "0..=4"
        )]
        self.add_outcome(((first + second) * 2.0).round() as usize);
    }

    /// Adds a pair by its outcome, the first engine's half-points in it: 0 (LL) to 4 (WW).
    pub fn add_outcome(&mut self, half_points: usize) {
        match half_points {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.wl_dd += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Number of pairs.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl_dd + self.wd + self.ww
    }

    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^53")]
    fn frequencies(&self) -> [f64; 5] {
        let n = self.pairs().max(1) as f64;
        [self.ll, self.ld, self.wl_dd, self.wd, self.ww].map(|c| c as f64 / n)
    }

    /// Mean score per game (pair score / 2).
    #[must_use]
    pub fn score(&self) -> f64 {
        self.frequencies()
            .iter()
            .zip(SCORES)
            .map(|(p, s)| p * s)
            .sum()
    }

    /// Variance of the per-pair mean score (fastchess `calcVariance`).
    #[must_use]
    pub fn variance(&self) -> f64 {
        let s = self.score();
        self.frequencies()
            .iter()
            .zip(SCORES)
            .map(|(p, x)| p * (x - s).powi(2))
            .sum()
    }
}

/// Elo difference of a score: -400 log10(1/s - 1) (infinite for a score of 0 or 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score.clamp(0.0, 1.0) - 1.0).log10()
}

/// The report of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchStats {
    /// Mean score of the first engine.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub elo_error: f64,
    /// Half-width of the score's interval (NaN without one): it decides a match whose Elo
    /// interval is unbounded (a score interval reaching 0 or 1).
    pub score_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of its 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority.
    pub los: f64,
}

/// Game pairs below which no interval is given: the normal approximation behind the
/// pentanomial interval needs a sample, and a few pairs that all ended alike show no
/// variance at all (a 4-0-4 result would print a zero-width interval).
pub const MIN_PAIRS: u64 = 10;

/// The one finite end of a rout's Elo interval: its score interval reaches 0 or 1, where
/// the Elo transform is unbounded. Displays as `at most -729` or `at least +729`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RoutBound {
    /// Every pair lost, or nearly: the difference is at most this.
    AtMost(f64),
    /// Every pair won, or nearly: the difference is at least this.
    AtLeast(f64),
}

impl std::fmt::Display for RoutBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::AtMost(elo) => write!(f, "at most {elo:+.0}"),
            Self::AtLeast(elo) => write!(f, "at least {elo:+.0}"),
        }
    }
}

impl MatchStats {
    /// The Elo with its interval, where it has a finite one (not a rout).
    #[must_use]
    pub fn elo_estimate(&self) -> Option<Estimate> {
        (self.elo.is_finite() && self.elo_error.is_finite())
            .then(|| Estimate::around(self.elo, self.elo_error))
    }

    /// The Elo with its standard error (its 95% half-width over 1.96), as
    /// [`z_apart`](crate::stats::z_apart) takes an estimate.
    #[must_use]
    pub fn elo_with_se(&self) -> (f64, f64) {
        (self.elo, self.elo_error / z_quantile(0.95))
    }

    /// The normalized Elo with its interval, where it has a finite one (pairs with variance).
    #[must_use]
    pub fn nelo_estimate(&self) -> Option<Estimate> {
        (self.nelo.is_finite() && self.nelo_error.is_finite())
            .then(|| Estimate::around(self.nelo, self.nelo_error))
    }

    /// The fastchess pentanomial formulas, intervals at 95%.
    #[must_use]
    pub fn from_pentanomial(p: &Pentanomial) -> MatchStats {
        MatchStats::with_confidence(p, 0.95)
    }

    /// The fastchess pentanomial formulas, intervals at `confidence` (two-sided). The
    /// half-widths are NaN ("too few games") below [`MIN_PAIRS`] pairs. When every pair ended
    /// alike (no variance: the normal interval would have zero width), the score's interval
    /// is the exact one for an outcome never seen: the other outcomes together have
    /// probability at most 1 - (1 - confidence)^(1/pairs) (Clopper-Pearson for zero events;
    /// the "rule of three" at 95%), and none moves a pair's score farther than to 0 or 1.
    #[must_use]
    pub fn with_confidence(p: &Pentanomial, confidence: f64) -> MatchStats {
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^53")]
        let pairs = p.pairs().max(1) as f64;
        let score = p.score();
        let variance = p.variance();
        let per_pair = variance / pairs;
        let score_error = if p.pairs() < MIN_PAIRS {
            f64::NAN
        } else if variance > 0.0 {
            z_quantile(confidence) * per_pair.sqrt()
        } else {
            let unseen = 1.0 - (1.0 - confidence).powf(1.0 / pairs);
            unseen * score.max(1.0 - score)
        };
        let (high, low) = (score + score_error, score - score_error);
        // Undefined (NaN) without variance, e.g. when every pair ended the same way.
        let nelo_of =
            |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * (800.0 / std::f64::consts::LN_10);
        MatchStats {
            score,
            elo: elo_of_score(score),
            elo_error: (elo_of_score(high) - elo_of_score(low)) / 2.0,
            score_error,
            nelo: nelo_of(score),
            nelo_error: (nelo_of(high) - nelo_of(low)) / 2.0,
            los: (1.0 - erf(-(score - 0.5) / (2.0 * per_pair).sqrt().max(1e-12))) / 2.0,
        }
    }

    /// The one Elo bound of a rout, whose score interval reaches 0 or 1 (its Elo interval
    /// unbounded on that side); `None` for a bounded interval or none.
    #[must_use]
    pub fn rout_bound(&self) -> Option<RoutBound> {
        if !self.score_error.is_finite() || self.elo_error.is_finite() {
            return None;
        }
        let (low, high) = (self.score - self.score_error, self.score + self.score_error);
        if low <= 0.0 && high < 1.0 {
            Some(RoutBound::AtMost(elo_of_score(high)))
        } else if high >= 1.0 && low > 0.0 {
            Some(RoutBound::AtLeast(elo_of_score(low)))
        } else {
            None
        }
    }

    /// Whether the interval excludes 0: `Some(true)` for a positive difference,
    /// `Some(false)` for a negative one, `None` when undecided or without an interval.
    #[must_use]
    pub fn sign(&self) -> Option<bool> {
        // On the score's interval: the Elo transform is monotone, and its interval is
        // unbounded for a score interval reaching 0 or 1, which can still exclude one half.
        if !self.score_error.is_finite() {
            None
        } else if self.score - self.score_error > 0.5 {
            Some(true)
        } else if self.score + self.score_error < 0.5 {
            Some(false)
        } else {
            None
        }
    }
}

/// A stopping rule for a match looked at repeatedly: a group-sequential design with a
/// Bonferroni bound. The match is looked at only after preset game counts; with k looks,
/// each look's pentanomial interval is at confidence 1 - 0.05/k, so the intervals of all
/// looks hold together with at least 95% whichever look stops the match (Bonferroni's
/// inequality; no stopping at a look where a 95% interval happens to exclude 0). The match
/// stops at the first look whose interval excludes 0 (decided) or whose half-width is at most
/// the bound (bounded), and at the last look in any case.
#[derive(Clone, Debug, PartialEq)]
pub struct Looks {
    games: Vec<u64>,
    bound_elo: f64,
}

/// Why a match with [`Looks`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The interval excludes 0.
    Decided,
    /// The interval's half-width is at most the bound.
    Bounded,
    /// The last look came without either: the result is undecided at its size.
    LastLook,
}

impl Stop {
    /// The word the reports print.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stop::Decided => "decided",
            Stop::Bounded => "bounded",
            Stop::LastLook => "undecided",
        }
    }
}

/// What a measured Elo difference says, whatever stopped its match: *decided* when its
/// interval excludes 0, *equivalent* within a bound only when the whole interval lies inside
/// it, *undecided* otherwise. A match that stops because its interval is narrow ("bounded",
/// [`Stop::Bounded`]) may still be undecided: a narrow interval around 12 Elo is not
/// equivalence within 15.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The interval excludes 0.
    Decided,
    /// The whole interval lies inside ±bound.
    Equivalent,
    /// Neither.
    Undecided,
    /// At least [`Verdict::INACTIVE_SHARE`] of the match's pairs repeat their games (both
    /// sides played the same game with either colour): the compared method hardly acts, and
    /// its interval measures that, not what the method is worth. Never from an interval alone.
    Inactive,
}

impl Verdict {
    /// The share of a match's pairs that repeat their games from which it reads
    /// [`Verdict::Inactive`].
    pub const INACTIVE_SHARE: f64 = 0.9;

    /// The verdict of the interval `[low, high]` against the equivalence bound `bound` (Elo).
    #[must_use]
    pub fn of(low: f64, high: f64, bound: f64) -> Verdict {
        if low > 0.0 || high < 0.0 {
            Verdict::Decided
        } else if -bound <= low && high <= bound {
            Verdict::Equivalent
        } else {
            Verdict::Undecided
        }
    }

    /// The word the CSVs write.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Decided => "decided",
            Verdict::Equivalent => "equivalent",
            Verdict::Undecided => "undecided",
            Verdict::Inactive => "inactive",
        }
    }

    /// The verdict a CSV wrote as `name` ([`Verdict::name`]); none for another word.
    #[must_use]
    pub fn named(name: &str) -> Option<Verdict> {
        [
            Verdict::Decided,
            Verdict::Equivalent,
            Verdict::Undecided,
            Verdict::Inactive,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }

    /// The verdict as a report says it: `decided`, `equivalent within ±15`, `undecided after
    /// 3200 games`.
    #[must_use]
    pub fn describe(self, bound: f64, games: usize) -> String {
        match self {
            Verdict::Decided => "decided".to_string(),
            Verdict::Equivalent => format!("equivalent within ±{bound}"),
            Verdict::Undecided => format!("undecided after {games} games"),
            Verdict::Inactive => "inactive (its pairs repeat the reference's games)".to_string(),
        }
    }
}

impl Looks {
    /// The error the looks of one match hold together: a method of no effect reads decided
    /// with at most this probability, whichever look stops the match.
    pub const ERROR: f64 = 0.05;

    /// Looks after `games` games (even, increasing), stopping within `bound_elo`.
    ///
    /// # Errors
    /// No looks, an odd or non-increasing count, or a bound that is not a positive number.
    pub fn new(games: Vec<u64>, bound_elo: f64) -> Result<Looks, String> {
        if games.is_empty() {
            return Err("--looks: give at least one game count".into());
        }
        if let Some(g) = games.iter().find(|&&g| g == 0 || g % 2 == 1) {
            return Err(format!(
                "--looks: {g} is not a positive even number of games (games come in pairs)"
            ));
        }
        if games.windows(2).any(|w| w[0] >= w[1]) {
            return Err("--looks: the game counts must increase".into());
        }
        if !(bound_elo.is_finite() && bound_elo > 0.0) {
            return Err(format!(
                "--stop-within: {bound_elo} is not a positive number of Elo"
            ));
        }
        Ok(Looks { games, bound_elo })
    }

    /// The game counts of the looks.
    #[must_use]
    pub fn games(&self) -> &[u64] {
        &self.games
    }

    /// The half-width at which a look stops the match, Elo.
    #[must_use]
    pub fn bound_elo(&self) -> f64 {
        self.bound_elo
    }

    /// The confidence of each look's interval: 1 - [`Looks::ERROR`]/k.
    #[must_use]
    pub fn confidence(&self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "a few looks")]
        let k = self.games.len() as f64;
        1.0 - Looks::ERROR / k
    }

    /// The statistics with the looks' interval.
    #[must_use]
    pub fn stats(&self, p: &Pentanomial) -> MatchStats {
        MatchStats::with_confidence(p, self.confidence())
    }

    /// Whether the match stops with the pairs `p`: `None` between looks and at a look that
    /// neither decides nor bounds.
    #[must_use]
    pub fn stop(&self, p: &Pentanomial) -> Option<Stop> {
        let games = 2 * p.pairs();
        if !self.games.contains(&games) {
            return None;
        }
        let s = self.stats(p);
        if s.sign().is_some() {
            Some(Stop::Decided)
        } else if s.elo_error <= self.bound_elo {
            Some(Stop::Bounded)
        } else if Some(&games) == self.games.last() {
            Some(Stop::LastLook)
        } else {
            None
        }
    }
}

/// The Elo scale of an SPRT's hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EloScale {
    /// Logistic Elo: a hypothesis is a mean score.
    #[default]
    Logistic,
    /// Normalized Elo (fishtest's default): a hypothesis is the mean score's distance from ½ in
    /// game-pair deviations, so that a test needs about as many pairs whatever the draw rate.
    Normalized,
}

/// A sequential probability ratio test on logistic or normalized Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0 Elo (on `scale`).
    pub elo0: f64,
    /// H1 Elo (on `scale`).
    pub elo1: f64,
    /// The scale of `elo0` and `elo1`.
    pub scale: EloScale,
    /// Lower bound of the LLR: ln(β / (1 - α)).
    pub lower: f64,
    /// Upper bound of the LLR: ln((1 - β) / α).
    pub upper: f64,
}

impl Sprt {
    /// Wald's bounds for `alpha` and `beta`.
    ///
    /// # Errors
    /// elo0 >= elo1, or alpha/beta outside (0, 1), or alpha + beta >= 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0 >= elo1 {
            return Err("SPRT: elo0 must be below elo1".into());
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err("SPRT: alpha and beta must be in (0, 1) with alpha + beta < 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            scale: EloScale::Logistic,
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        })
    }

    /// The test on normalized Elo, `nelo0` against `nelo1`, with Wald's bounds for `alpha`
    /// and `beta`.
    ///
    /// # Errors
    /// As [`Sprt::new`].
    pub fn normalized(nelo0: f64, nelo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        Ok(Sprt {
            scale: EloScale::Normalized,
            ..Sprt::new(nelo0, nelo1, alpha, beta)?
        })
    }

    /// The mean pair score of hypothesis `elo` given the results `p`: on the logistic scale
    /// the score of that Elo; on the normalized one ½ + nElo · (ln 10 / 800) · √(2 σ̂²), σ̂² the
    /// results' pair-score variance (the inverse of [`MatchStats`]' nElo, the variance
    /// plugged in as fishtest's normalized test estimates it from the same results).
    fn score_of(&self, elo: f64, p: &Pentanomial) -> f64 {
        match self.scale {
            EloScale::Logistic => 1.0 / (1.0 + 10f64.powf(-elo / 400.0)),
            EloScale::Normalized => {
                let spread = (2.0 * p.variance()).sqrt();
                (0.5 + elo * std::f64::consts::LN_10 / 800.0 * spread).clamp(1e-6, 1.0 - 1e-6)
            }
        }
    }

    /// The log-likelihood ratio of the pentanomial results (the generalized SPRT of Van den
    /// Bergh, as fastchess computes it for the logistic model): for each hypothesis score s the
    /// maximum-likelihood pentanomial distribution with mean s is p_i = p̂_i / (1 + θ (a_i - s)),
    /// θ solving Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0; the LLR is N Σ p̂_i ln(p1_i / p0_i).
    /// Empty cells count 0.001 pairs (fastchess's regularisation).
    #[must_use]
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^53")]
        let counts =
            [p.ll, p.ld, p.wl_dd, p.wd, p.ww].map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let phat = counts.map(|c| c / total);
        let mle = |s: f64| -> [f64; 5] {
            let f = |theta: f64| -> f64 {
                phat.iter()
                    .zip(SCORES)
                    .map(|(p, a)| p * (a - s) / (1.0 + theta * (a - s)))
                    .sum()
            };
            // f decreases on (-1/(1 - s), 1/s); bisect inside it.
            let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if f(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            let theta = 0.5 * (lo + hi);
            let mut out = [0.0; 5];
            for (i, (p, a)) in phat.iter().zip(SCORES).enumerate() {
                out[i] = p / (1.0 + theta * (a - s));
            }
            out
        };
        let (p0, p1) = (
            mle(self.score_of(self.elo0, p)),
            mle(self.score_of(self.elo1, p)),
        );
        total
            * phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(p, (a, b))| p * (b.ln() - a.ln()))
                .sum::<f64>()
    }

    /// `Some(true)` when H1 is accepted, `Some(false)` for H0, `None` to go on.
    #[must_use]
    pub fn decision(&self, llr: f64) -> Option<bool> {
        if llr >= self.upper {
            Some(true)
        } else if llr <= self.lower {
            Some(false)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    /// Each verdict reads back from the word the CSVs write; another word reads as none.
    #[test]
    fn a_verdict_reads_back_from_its_name() {
        for v in [
            Verdict::Decided,
            Verdict::Equivalent,
            Verdict::Undecided,
            Verdict::Inactive,
        ] {
            assert_eq!(Verdict::named(v.name()), Some(v));
        }
        assert_eq!(Verdict::named("playing"), None);
    }

    #[test]
    fn fastchess_formulas_on_fixed_counts() {
        // 100 pairs: LL 5, LD 20, WL+DD 45, WD 22, WW 8.
        let p = Pentanomial::from([5, 20, 45, 22, 8]);
        // score = 0.25*0.20 + 0.5*0.45 + 0.75*0.22 + 1*0.08 = 0.52
        assert!(close(p.score(), 0.52, 1e-12));
        // variance = sum p (x - 0.52)^2 = 0.05*0.2704 + 0.2*0.0729 + 0.45*0.0004 + 0.22*0.0529 + 0.08*0.2304
        let v = 0.05 * 0.2704 + 0.2 * 0.0729 + 0.45 * 0.0004 + 0.22 * 0.0529 + 0.08 * 0.2304;
        assert!(close(p.variance(), v, 1e-12));
        let s = MatchStats::from_pentanomial(&p);
        assert!(close(s.elo, 13.90, 0.01), "{s:?}"); // -400 log10(1/0.52 - 1)
        // nElo = 0.02 / sqrt(2 v) * 347.44
        assert!(
            close(s.nelo, 0.02 / (2.0 * v).sqrt() * 347.435_585, 1e-3),
            "{s:?}"
        );
        // LOS = Phi(0.02 / sqrt(v / 100))
        let los = 0.5 * (1.0 + erf(0.02 / (2.0 * v / 100.0).sqrt()));
        assert!(close(s.los, los, 1e-9));
        assert!(s.elo_error > 0.0 && s.nelo_error > 0.0);
    }

    /// The standard error is the half-width of the one-sigma interval (68.27%), near even.
    #[test]
    fn the_standard_error_is_the_one_sigma_half_width() {
        let p = Pentanomial::from([50, 200, 450, 220, 80]);
        let (elo, se) = MatchStats::from_pentanomial(&p).elo_with_se();
        let one_sigma = MatchStats::with_confidence(&p, erf(std::f64::consts::FRAC_1_SQRT_2));
        assert!(close(elo, one_sigma.elo, 1e-12));
        assert!(
            close(se, one_sigma.elo_error, 0.01 * se),
            "{se} {one_sigma:?}"
        );
    }

    #[test]
    fn small_samples_give_no_interval() {
        // 4 pairs, each a win and a loss: no variance, no interval (not a zero-width one).
        let p = Pentanomial::from([0, 0, 4, 0, 0]);
        let s = MatchStats::from_pentanomial(&p);
        assert!(s.elo_error.is_nan() && s.sign().is_none(), "{s:?}");
        // Nine varied pairs are still too few; ten are enough.
        let mut p = Pentanomial::from([2, 2, 1, 2, 2]);
        assert!(MatchStats::from_pentanomial(&p).elo_error.is_nan());
        p.wl_dd += 1;
        assert!(MatchStats::from_pentanomial(&p).elo_error > 0.0);
    }

    #[test]
    fn pairs_that_all_ended_alike_get_the_exact_interval_of_an_unseen_outcome() {
        // 100 pairs, each lost twice: at 95% another outcome has probability at most
        // 1 - 0.05^(1/100) = 0.0295 (about 3/100, the rule of three), and moves the pair's
        // score at most to 1: the score lies in [0, 0.0295], decided.
        let rout = Pentanomial::from([100, 0, 0, 0, 0]);
        let s = MatchStats::from_pentanomial(&rout);
        let unseen = 1.0 - 0.05_f64.powf(0.01);
        assert!(close(s.score_error, unseen, 1e-12), "{s:?}");
        assert_eq!(s.sign(), Some(false));
        // 200 pairs, each split: identical engines. The interval is 0.5 ± 0.5 · unseen, in
        // Elo within ±15 (bounded), and undecided.
        let even = Pentanomial::from([0, 0, 200, 0, 0]);
        let s = MatchStats::from_pentanomial(&even);
        let unseen = 1.0 - 0.05_f64.powf(1.0 / 200.0);
        assert!(close(s.score_error, 0.5 * unseen, 1e-12), "{s:?}");
        assert!(s.sign().is_none());
        assert!(s.elo_error > 0.0 && s.elo_error < 15.0, "{s:?}");
        assert_eq!(s.rout_bound(), None);
    }

    #[test]
    fn a_rout_gives_its_one_elo_bound() {
        // 200 pairs lost: the score lies in [0, 1 - 0.05^(1/200)] = [0, 0.01487], so the
        // Elo difference is at most -400 log10(1 / 0.01487 - 1) = -729.
        let s = MatchStats::from_pentanomial(&Pentanomial::from([200, 0, 0, 0, 0]));
        let high = 1.0 - 0.05_f64.powf(1.0 / 200.0);
        let bound = -400.0 * (1.0 / high - 1.0).log10();
        assert!(matches!(s.rout_bound(), Some(RoutBound::AtMost(b)) if close(b, bound, 1e-9)));
        assert_eq!(
            s.rout_bound().unwrap().to_string(),
            format!("at most {bound:+.0}")
        );
        // Mirrored: at least +729.
        let s = MatchStats::from_pentanomial(&Pentanomial::from([0, 0, 0, 0, 200]));
        assert_eq!(
            s.rout_bound().unwrap().to_string(),
            format!("at least {:+.0}", -bound)
        );
    }

    #[test]
    fn looks_widen_the_interval_and_stop_by_the_rule() {
        let looks = Looks::new(vec![200, 400, 800, 1600, 2400], 15.0).unwrap();
        assert!(close(looks.confidence(), 0.99, 1e-12));
        // 100 pairs scoring 0.55: the 95% interval excludes 0, the 99% one must be wider by
        // z(0.995) / z(0.975) = 2.5758 / 1.9600.
        let p = Pentanomial::from([5, 15, 45, 25, 10]);
        let (s95, s99) = (MatchStats::from_pentanomial(&p), looks.stats(&p));
        assert!(close(s99.elo, s95.elo, 1e-12));
        // The Elo half-width is nearly linear in z at this size.
        assert!(
            close(s99.elo_error / s95.elo_error, 2.5758 / 1.96, 0.01),
            "{s95:?} {s99:?}"
        );
        // Not a look (200 games are 100 pairs; 99 pairs are not a look).
        let mut off = p;
        off.ll -= 1;
        assert_eq!(looks.stop(&off), None);
        // A decided look: the 99% interval excludes 0.
        assert_eq!(s95.sign(), Some(true));
        let strong = Pentanomial::from([2, 10, 45, 30, 13]);
        assert_eq!(looks.stop(&strong), Some(Stop::Decided));
        // An even look at 200 games goes on; the same shares at 2,400 games bound it.
        let even = Pentanomial::from([10, 20, 40, 20, 10]);
        assert_eq!(looks.stop(&even), None);
        let even_last = Pentanomial::from([120, 240, 480, 240, 120]);
        let s = looks.stats(&even_last);
        assert!(s.elo_error <= 15.0, "{s:?}");
        assert_eq!(looks.stop(&even_last), Some(Stop::Bounded));
        // With a tighter bound the last look stops it undecided.
        let tight = Looks::new(vec![200, 2400], 1.0).unwrap();
        assert_eq!(tight.stop(&even_last), Some(Stop::LastLook));
        // A rout: 99 pairs of two losses and one pair of a loss and a draw. The score's
        // interval (0.0025 ± 0.0064 at 99%) reaches below 0, so the Elo interval is
        // unbounded, yet it excludes a half: decided at the first look, not played on.
        let rout = Pentanomial::from([99, 1, 0, 0, 0]);
        let s = looks.stats(&rout);
        assert!(!s.elo_error.is_finite(), "{s:?}");
        assert!(s.score + s.score_error < 0.5, "{s:?}");
        assert_eq!(s.sign(), Some(false));
        assert_eq!(looks.stop(&rout), Some(Stop::Decided));
        assert!(Looks::new(vec![200, 100], 15.0).is_err());
        assert!(Looks::new(vec![201], 15.0).is_err());
        assert!(Looks::new(vec![200], f64::NAN).is_err());
    }

    #[test]
    fn sprt_bounds_and_llr_sign() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!(close(sprt.lower, -2.944, 1e-3) && close(sprt.upper, 2.944, 1e-3));
        let good = Pentanomial::from([10, 100, 400, 300, 190]);
        let bad = Pentanomial::from([190, 300, 400, 100, 10]);
        assert!(sprt.llr(&good) > sprt.upper);
        assert!(sprt.llr(&bad) < sprt.lower);
        assert_eq!(sprt.decision(sprt.llr(&good)), Some(true));
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        // On the normalized scale a hypothesis is ½ + nElo (ln 10 / 800) √(2σ²): the test of
        // nElo 0 against the nElo of a logistic 5 at these results' variance is the logistic
        // test of 0 against 5.
        let v = good.variance();
        let score5 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
        let nelo5 = (score5 - 0.5) / (2.0 * v).sqrt() * 800.0 / std::f64::consts::LN_10;
        let normalized = Sprt::normalized(0.0, nelo5, 0.05, 0.05).unwrap();
        assert!(close(normalized.llr(&good), sprt.llr(&good), 1e-9));
        // One won pair is far from enough to decide.
        let one = Pentanomial::from([0, 0, 0, 0, 1]);
        assert_eq!(sprt.decision(sprt.llr(&one)), None, "{}", sprt.llr(&one));
        // An even result gives a negative LLR for elo1 > 0 = elo0.
        let even = Pentanomial::from([10, 20, 40, 20, 10]);
        assert!(sprt.llr(&even) < 0.0);
        let mut p = Pentanomial::default();
        p.add(1.0, 0.5);
        p.add(0.0, 0.0);
        assert_eq!((p.wd, p.ll, p.pairs()), (1, 1, 2));
    }

    /// Equivalent only when the whole interval lies inside the bound; a narrow interval off 0
    /// is decided, one reaching past the bound undecided.
    #[test]
    fn a_verdict_reads_the_whole_interval() {
        assert_eq!(Verdict::of(2.0, 20.0, 15.0), Verdict::Decided);
        assert_eq!(Verdict::of(-30.0, -1.0, 15.0), Verdict::Decided);
        assert_eq!(Verdict::of(-14.0, 15.0, 15.0), Verdict::Equivalent);
        assert_eq!(Verdict::of(-3.0, 16.0, 15.0), Verdict::Undecided);
        assert_eq!(
            Verdict::Undecided.describe(15.0, 3200),
            "undecided after 3200 games"
        );
        assert_eq!(
            Verdict::Equivalent.describe(15.0, 800),
            "equivalent within ±15"
        );
    }
}
