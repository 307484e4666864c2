//! Least-squares fit of a line y = a·x + b, as Jiang and Buro fitted v = a·v' + b + e, and
//! the intervals of its parameters under normal errors.

use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor, Normal, StudentsT};

/// A fitted line with its residual spread and the correlation of x and y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// Slope.
    pub a: f64,
    /// Intercept.
    pub b: f64,
    /// Residual standard deviation, with n - 2 degrees of freedom.
    pub sigma: f64,
    /// Pearson correlation coefficient.
    pub r: f64,
    /// Number of points.
    pub n: usize,
    /// Mean of x.
    pub mean_x: f64,
    /// Sum of squared deviations of x from its mean.
    pub sxx: f64,
}

/// Two-sided intervals of a fit's parameters, each `(low, high)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineIntervals {
    /// Slope: a ± t · σ / √Sxx.
    pub a: (f64, f64),
    /// Intercept: b ± t · σ · √(1/n + x̄² / Sxx).
    pub b: (f64, f64),
    /// Residual spread: √((n − 2) σ² / χ²) at the two tail quantiles of χ² with n − 2 degrees
    /// of freedom.
    pub sigma: (f64, f64),
    /// Correlation: tanh(atanh r ± z / √(n − 3)) (Fisher's z).
    pub r: (f64, f64),
}

impl LineFit {
    /// The intervals at `level` (e.g. 0.95) under independent normal errors (the textbook
    /// formulas of ordinary least squares); `None` with fewer than 4 points.
    #[must_use]
    pub fn intervals(&self, level: f64) -> Option<LineIntervals> {
        if self.n < 4 {
            return None;
        }
        #[expect(clippy::cast_precision_loss, reason = "point counts far below 2^53")]
        let n = self.n as f64;
        let tail = (1.0 - level) / 2.0;
        let t = StudentsT::new(0.0, 1.0, n - 2.0)
            .ok()?
            .inverse_cdf(1.0 - tail);
        let chi = ChiSquared::new(n - 2.0).ok()?;
        let z = Normal::standard().inverse_cdf(1.0 - tail);
        let se_a = self.sigma / self.sxx.sqrt();
        let se_b = self.sigma * (1.0 / n + self.mean_x * self.mean_x / self.sxx).sqrt();
        let ss = (n - 2.0) * self.sigma * self.sigma;
        let fisher = self.r.clamp(-0.999_999, 0.999_999).atanh();
        let dz = z / (n - 3.0).sqrt();
        Some(LineIntervals {
            a: (self.a - t * se_a, self.a + t * se_a),
            b: (self.b - t * se_b, self.b + t * se_b),
            sigma: (
                (ss / chi.inverse_cdf(1.0 - tail)).sqrt(),
                (ss / chi.inverse_cdf(tail)).sqrt(),
            ),
            r: ((fisher - dz).tanh(), (fisher + dz).tanh()),
        })
    }
}

/// The ratio σ₁ / σ₂ of two fits' residual spreads with its interval at `level`: the F
/// interval √(R² / F(1 − α/2; n₁ − 2, n₂ − 2)) to √(R² / F(α/2; …)), exact for independent
/// samples with normal errors, and conservative (too wide) for two searches of the same
/// positions, whose residuals go together. `None` with fewer than 3 points in either.
#[must_use]
pub fn sigma_ratio(first: &LineFit, second: &LineFit, level: f64) -> Option<(f64, (f64, f64))> {
    if first.n < 3 || second.n < 3 || second.sigma <= 0.0 {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "point counts far below 2^53")]
    let f = FisherSnedecor::new(first.n as f64 - 2.0, second.n as f64 - 2.0).ok()?;
    let tail = (1.0 - level) / 2.0;
    let ratio = first.sigma / second.sigma;
    let squared = ratio * ratio;
    Some((
        ratio,
        (
            (squared / f.inverse_cdf(1.0 - tail)).sqrt(),
            (squared / f.inverse_cdf(tail)).sqrt(),
        ),
    ))
}

/// Ordinary least squares of `ys` on `xs`; `None` with fewer than 3 points or constant x.
#[must_use]
pub fn fit_line(xs: &[f64], ys: &[f64]) -> Option<LineFit> {
    let n = xs.len().min(ys.len());
    if n < 3 {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "point counts far below 2^53")]
    let nf = n as f64;
    let mx = xs[..n].iter().sum::<f64>() / nf;
    let my = ys[..n].iter().sum::<f64>() / nf;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
        sxy += (x - mx) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let residual: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| (y - a * x - b).powi(2))
        .sum();
    let r = if syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        1.0
    };
    Some(LineFit {
        a,
        b,
        sigma: (residual / (nf - 2.0)).sqrt(),
        r,
        n,
        mean_x: mx,
        sxx,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_line_from_noisy_data() {
        // y = 1.1 x + 5 + e, e uniform-ish with sd ~ 40 from a deterministic generator.
        let mut state = 12_345_u64;
        let mut noise = || {
            let mut sum = 0.0;
            for _ in 0..12 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                #[expect(clippy::cast_precision_loss)]
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                sum += u;
            }
            (sum - 6.0) * 40.0 // Irwin-Hall: approximately normal, sd 40
        };
        let xs: Vec<f64> = (0..20_000).map(|i| f64::from(i % 600 - 300)).collect();
        let ys: Vec<f64> = xs.iter().map(|x| 1.1 * x + 5.0 + noise()).collect();
        let fit = fit_line(&xs, &ys).unwrap();
        assert!((fit.a - 1.1).abs() < 0.01, "{fit:?}");
        assert!((fit.b - 5.0).abs() < 1.5, "{fit:?}");
        assert!((fit.sigma - 40.0).abs() < 1.5, "{fit:?}");
        // r = a sd(x) / sd(y) with sd(x) ~ 173.2: 1.1*173.2 / sqrt((1.1*173.2)^2 + 40^2).
        let expected_r = 190.5 / (190.5_f64.powi(2) + 1600.0).sqrt();
        assert!((fit.r - expected_r).abs() < 0.01, "{fit:?}");
        assert!(fit_line(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_none());
    }

    /// The intervals of a five-point fit worked by hand: x̄ = 2, Sxx = 10, a = 0.8, b = 1.4,
    /// SSE = 3.6, σ² = 1.2; t(0.975, 3) = 3.182446, χ²(0.975, 3) = 9.348404,
    /// χ²(0.025, 3) = 0.215795, z(0.975) = 1.959964.
    #[test]
    fn intervals_follow_the_textbook_formulas() {
        let fit = fit_line(&[0.0, 1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 5.0, 4.0]).unwrap();
        let iv = fit.intervals(0.95).unwrap();
        let close = |got: (f64, f64), want: (f64, f64)| {
            assert!(
                (got.0 - want.0).abs() < 1e-4 && (got.1 - want.1).abs() < 1e-4,
                "{got:?} != {want:?}"
            );
        };
        let (t, se_a, se_b) = (3.182_446, (1.2_f64 / 10.0).sqrt(), (1.2_f64 * 0.6).sqrt());
        close(iv.a, (0.8 - t * se_a, 0.8 + t * se_a));
        close(iv.b, (1.4 - t * se_b, 1.4 + t * se_b));
        close(
            iv.sigma,
            ((3.6 / 9.348_404_f64).sqrt(), (3.6 / 0.215_795_f64).sqrt()),
        );
        // r = Sxy / √(Sxx Syy) = 8 / √(10 · 10); n − 3 = 2.
        let (z, dz) = (0.8_f64.atanh(), 1.959_964 / 2.0_f64.sqrt());
        close(iv.r, ((z - dz).tanh(), (z + dz).tanh()));
        assert!(
            fit_line(&[0.0, 1.0, 2.0], &[0.0, 1.0, 3.0])
                .unwrap()
                .intervals(0.95)
                .is_none()
        );
    }
}
