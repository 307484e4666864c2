//! Least-squares fit of a line y = a·x + b, as Jiang and Buro fitted v = a·v' + b + e.

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
}
