//! Match statistics as fastchess reports them: Elo difference from the pentanomial (game
//! pair) model with its 95% interval, normalized Elo, LOS, draw ratio, and the SPRT log-
//! likelihood ratio with Wald's bounds.

use statrs::function::erf::erf;

use crate::stats::z_quantile;

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

impl Pentanomial {
    /// Adds a pair given the first engine's two game scores (0, 0.5 or 1 each).
    pub fn add(&mut self, first: f64, second: f64) {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "0..=4"
        )]
        match ((first + second) * 2.0).round() as u32 {
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
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of its 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority.
    pub los: f64,
}

impl MatchStats {
    /// The fastchess pentanomial formulas.
    #[must_use]
    pub fn from_pentanomial(p: &Pentanomial) -> MatchStats {
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^53")]
        let pairs = p.pairs().max(1) as f64;
        let score = p.score();
        let variance = p.variance();
        let per_pair = variance / pairs;
        let z = z_quantile(0.95);
        let (high, low) = (score + z * per_pair.sqrt(), score - z * per_pair.sqrt());
        // Undefined (NaN) without variance, e.g. when every pair ended the same way.
        let nelo_of =
            |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * (800.0 / std::f64::consts::LN_10);
        MatchStats {
            score,
            elo: elo_of_score(score),
            elo_error: (elo_of_score(high) - elo_of_score(low)) / 2.0,
            nelo: nelo_of(score),
            nelo_error: (nelo_of(high) - nelo_of(low)) / 2.0,
            los: (1.0 - erf(-(score - 0.5) / (2.0 * per_pair).sqrt().max(1e-12))) / 2.0,
        }
    }
}

/// A sequential probability ratio test on logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0 Elo.
    pub elo0: f64,
    /// H1 Elo.
    pub elo1: f64,
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
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        })
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
        let to_score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
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
        let (p0, p1) = (mle(to_score(self.elo0)), mle(to_score(self.elo1)));
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

    #[test]
    fn fastchess_formulas_on_fixed_counts() {
        // 100 pairs: LL 5, LD 20, WL+DD 45, WD 22, WW 8.
        let p = Pentanomial {
            ll: 5,
            ld: 20,
            wl_dd: 45,
            wd: 22,
            ww: 8,
        };
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

    #[test]
    fn sprt_bounds_and_llr_sign() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!(close(sprt.lower, -2.944, 1e-3) && close(sprt.upper, 2.944, 1e-3));
        let good = Pentanomial {
            ll: 10,
            ld: 100,
            wl_dd: 400,
            wd: 300,
            ww: 190,
        };
        let bad = Pentanomial {
            ll: 190,
            ld: 300,
            wl_dd: 400,
            wd: 100,
            ww: 10,
        };
        assert!(sprt.llr(&good) > sprt.upper);
        assert!(sprt.llr(&bad) < sprt.lower);
        assert_eq!(sprt.decision(sprt.llr(&good)), Some(true));
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        // One won pair is far from enough to decide.
        let one = Pentanomial {
            ww: 1,
            ..Pentanomial::default()
        };
        assert_eq!(sprt.decision(sprt.llr(&one)), None, "{}", sprt.llr(&one));
        // An even result gives a negative LLR for elo1 > 0 = elo0.
        let even = Pentanomial {
            ll: 10,
            ld: 20,
            wl_dd: 40,
            wd: 20,
            ww: 10,
        };
        assert!(sprt.llr(&even) < 0.0);
        let mut p = Pentanomial::default();
        p.add(1.0, 0.5);
        p.add(0.0, 0.0);
        assert_eq!((p.wd, p.ll, p.pairs()), (1, 1, 2));
    }
}
