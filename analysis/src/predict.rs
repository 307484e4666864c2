//! A worth predicted at an effort not yet played, from the worths measured at the others: a
//! line against log2 of the nodes whose misfit is part of the model, and the interval a new
//! measurement is expected to fall in.
//!
//! The model (a random-effects meta-regression; Raudenbush, "Analyzing effect sizes:
//! random-effects models", in *The Handbook of Research Synthesis and Meta-Analysis*, 2nd ed.,
//! 2009, section 16.4): each measured worth is `y_i = a + b x_i + u_i + e_i`, where `e_i` is
//! its own sampling error (its standard error `s_i` known from its interval) and `u_i ~ N(0,
//! τ²)` is the effort's departure from the line, the misfit. τ² is the moment estimate of
//! DerSimonian and Laird generalised to a regression: `max(0, (Q - df) / c)`, with `Q` the
//! weighted residual sum of squares of the line fitted with weights `1/s_i²` (the lack-of-fit
//! statistic, χ² with `df = n - 2` when the line holds) and `c = Σw - tr((X'WX)⁻¹ X'W²X)`. The
//! line is fitted again with weights `1/(s_i² + τ²)`, and a new measurement at `x` with
//! standard error `s` is predicted as `a + b x` with variance `Var(a + b x) + τ² + s²`.
//!
//! With three efforts the misfit rests on one degree of freedom: τ² is poorly determined, and
//! the interval's coverage is the nominal one only approximately.

use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::stats::z_quantile;

/// A measured point: where (x) and what, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// The effort, log2 of the nodes per move.
    pub x: f64,
    /// The measured worth.
    pub value: f64,
    /// Its standard error.
    pub se: f64,
}

impl Measured {
    /// The normal estimate `e` at `x`, its interval at `confidence`: its standard error is the
    /// half-width over the normal quantile.
    #[must_use]
    pub fn of(x: f64, e: &crate::stats::Estimate, confidence: f64) -> Measured {
        Measured {
            x,
            value: e.value,
            se: (e.high - e.low) / 2.0 / z_quantile(confidence),
        }
    }
}

/// A prediction of the value a new measurement at one `x` will read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The line's value at `x`.
    pub value: f64,
    /// The prediction interval's ends at the confidence asked for.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// The lack-of-fit statistic of the line fitted without misfit: Σ (y - ŷ)² / s².
    pub q: f64,
    /// Its degrees of freedom, `n - 2`.
    pub df: usize,
    /// The probability of a `q` at least as large if the line held (`None` when `df` is 0).
    pub fit_p: Option<f64>,
    /// The misfit's standard deviation τ (0 where `q` is below its degrees of freedom).
    pub tau: f64,
    /// The line's slope with the misfit in its weights.
    pub slope: f64,
}

/// Weighted sums of a line's normal equations: Σw, Σwx, Σwx², Σwy, Σwxy.
fn sums(points: &[Measured], weight: impl Fn(&Measured) -> f64) -> [f64; 5] {
    points.iter().fold([0.0; 5], |s, p| {
        let w = weight(p);
        [
            s[0] + w,
            s[1] + w * p.x,
            s[2] + w * p.x * p.x,
            s[3] + w * p.value,
            s[4] + w * p.x * p.value,
        ]
    })
}

/// The weighted least-squares line (a, b) and its covariance's three distinct entries
/// (Var a, Cov ab, Var b) from [`sums`]; `None` when the x do not spread.
fn line(s: [f64; 5]) -> Option<((f64, f64), [f64; 3])> {
    let det = s[0] * s[2] - s[1] * s[1];
    if det.is_nan() || det <= 1e-12 * s[0] * s[2].abs().max(1.0) {
        return None;
    }
    let b = (s[0] * s[4] - s[1] * s[3]) / det;
    let a = (s[3] - b * s[1]) / s[0];
    Some(((a, b), [s[2] / det, -s[1] / det, s[0] / det]))
}

/// Whether a straight line fits `points` within their errors: the weighted residual sum of
/// squares `Q = Σ (y - ŷ)² / s²` of the line fitted with weights `1/s²`, its degrees of
/// freedom `n - 2`, and the chance of a `Q` at least as large if the line held (χ² with `n - 2`
/// degrees of freedom; `None` with none). `None` when the x do not spread.
#[must_use]
pub fn lack_of_fit(points: &[Measured]) -> Option<(f64, usize, Option<f64>)> {
    let ((a, b), _) = line(sums(points, |p| 1.0 / (p.se * p.se)))?;
    let q: f64 = points
        .iter()
        .map(|p| ((p.value - a - b * p.x) / p.se).powi(2))
        .sum();
    let df = points.len().checked_sub(2)?;
    #[expect(clippy::cast_precision_loss, reason = "a few points")]
    let p = (df > 0).then(|| ChiSquared::new(df as f64).map_or(f64::NAN, |chi2| 1.0 - chi2.cdf(q)));
    Some((q, df, p))
}

/// The value a new measurement at `x` with standard error `se` is predicted to read, with its
/// interval at `confidence`, from `points` (at least two distinct x, every se positive and
/// finite). See the module's doc for the model.
#[must_use]
pub fn predict(points: &[Measured], x: f64, se: f64, confidence: f64) -> Option<Prediction> {
    if points
        .iter()
        .any(|p| !(p.x.is_finite() && p.value.is_finite() && p.se.is_finite() && p.se > 0.0))
        || !(se.is_finite() && se >= 0.0)
    {
        return None;
    }
    let fixed = sums(points, |p| 1.0 / (p.se * p.se));
    let (_, cov) = line(fixed)?;
    let (q, df, fit_p) = lack_of_fit(points)?;
    // c = Σw - tr((X'WX)⁻¹ X'W²X), the inverse written out from `cov`.
    let squared = sums(points, |p| (p.se * p.se).powi(-2));
    let trace = cov[0] * squared[0] + 2.0 * cov[1] * squared[1] + cov[2] * squared[2];
    let c = fixed[0] - trace;
    #[expect(clippy::cast_precision_loss, reason = "a few points")]
    let excess = q - df as f64;
    let tau2 = if df > 0 && c > 0.0 && excess > 0.0 {
        excess / c
    } else {
        0.0
    };
    let ((a, b), cov) = line(sums(points, |p| 1.0 / (p.se * p.se + tau2)))?;
    let value = a + b * x;
    let variance = cov[0] + 2.0 * x * cov[1] + x * x * cov[2] + tau2 + se * se;
    let half = z_quantile(confidence) * variance.sqrt();
    Some(Prediction {
        value,
        low: value - half,
        high: value + half,
        q,
        df,
        fit_p,
        tau: tau2.sqrt(),
        slope: b,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, value: f64, se: f64) -> Measured {
        Measured { x, value, se }
    }

    #[test]
    fn points_on_a_line_predict_the_line_with_the_lines_own_error() {
        // y = 1 + 2x at x = 0, 1, 2 with se 1: no misfit, τ = 0, the prediction at x = 3 is 7,
        // its variance that of a + 3b, (5/6 by the normal equations: Σw 3, Σwx 3, Σwx² 5,
        // det 6; Var a 5/6, Cov -1/2, Var b 1/2: 5/6 - 3 + 9/2 = 7/3) plus the new se² 1.
        let p = predict(
            &[at(0.0, 1.0, 1.0), at(1.0, 3.0, 1.0), at(2.0, 5.0, 1.0)],
            3.0,
            1.0,
            0.95,
        )
        .unwrap();
        assert!((p.value - 7.0).abs() < 1e-9, "{p:?}");
        assert!(p.q.abs() < 1e-9 && p.tau == 0.0 && p.df == 1);
        let half = z_quantile(0.95) * (7.0 / 3.0 + 1.0_f64).sqrt();
        assert!((p.high - p.value - half).abs() < 1e-9, "{p:?}");
        assert!((p.fit_p.unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_bent_curve_widens_the_interval_by_its_misfit() {
        // A curve bent in the middle (0, 10, 0) at se 1: the line is y = 10/3, Q = 200/3 on 1
        // df, far past chance; τ² = (Q - 1) / c, and with equal weights 1 X'W²X = X'WX, so
        // c = Σw - tr(I₂) = 3 - 2 = 1.
        let bent = [at(0.0, 0.0, 1.0), at(1.0, 10.0, 1.0), at(2.0, 0.0, 1.0)];
        let p = predict(&bent, 3.0, 1.0, 0.95).unwrap();
        assert!((p.q - 200.0 / 3.0).abs() < 1e-9, "{p:?}");
        assert!(p.fit_p.unwrap() < 1e-10);
        let tau2 = (200.0 / 3.0 - 1.0) / 1.0;
        assert!((p.tau * p.tau - tau2).abs() < 1e-6, "{p:?}");
        let straight = [at(0.0, 0.0, 1.0), at(1.0, 0.0, 1.0), at(2.0, 0.0, 1.0)];
        let q = predict(&straight, 3.0, 1.0, 0.95).unwrap();
        assert!(p.high - p.value > 5.0 * (q.high - q.value), "{p:?} {q:?}");
    }

    #[test]
    fn two_points_or_bad_errors_give_what_they_can() {
        let two = predict(&[at(0.0, 0.0, 1.0), at(1.0, 2.0, 1.0)], 2.0, 0.0, 0.95).unwrap();
        assert!((two.value - 4.0).abs() < 1e-9 && two.fit_p.is_none() && two.tau == 0.0);
        assert!(predict(&[at(0.0, 0.0, 1.0), at(0.0, 2.0, 1.0)], 2.0, 0.0, 0.95).is_none());
        assert!(predict(&[at(0.0, 0.0, 0.0), at(1.0, 2.0, 1.0)], 2.0, 0.0, 0.95).is_none());
    }
}
