//! Confidence intervals: Wilson's score interval for proportions, Student's t interval for
//! means (and for paired differences, which are means of differences).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// A point estimate with a two-sided confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// `value` with the symmetric interval `value ± half`.
    #[must_use]
    pub fn around(value: f64, half: f64) -> Estimate {
        Estimate {
            value,
            low: value - half,
            high: value + half,
        }
    }

    /// Whether the interval excludes 0: `Some(true)` when it lies above, `Some(false)` below,
    /// `None` when it holds 0 (undecided at its confidence).
    #[must_use]
    pub fn sign(&self) -> Option<bool> {
        if self.low > 0.0 {
            Some(true)
        } else if self.high < 0.0 {
            Some(false)
        } else {
            None
        }
    }
}

/// The median of `values` (`None` when there are none).
#[must_use]
pub fn median(values: Vec<f64>) -> Option<f64> {
    use statrs::statistics::{Data, Median as _};
    (!values.is_empty()).then(|| Data::new(values).median())
}

/// How far apart two independent estimates are, each a value with its standard error, in
/// standard errors of their difference (`None` without a finite one).
#[must_use]
pub fn z_apart(a: (f64, f64), b: (f64, f64)) -> Option<f64> {
    let z = (a.0 - b.0) / a.1.hypot(b.1);
    z.is_finite().then_some(z)
}

/// The two-sided normal quantile for `confidence` (1.96 for 0.95).
#[must_use]
pub fn z_quantile(confidence: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + confidence / 2.0)
}

/// Wilson (1927) score interval for `successes` out of `trials` at `confidence`.
///
/// Centre (p + z²/2n) / (1 + z²/n), half-width z √(p(1-p)/n + z²/4n²) / (1 + z²/n).
#[must_use]
pub fn wilson(successes: u64, trials: u64, confidence: f64) -> Option<Estimate> {
    if trials == 0 {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^53")]
    let (k, n) = (successes as f64, trials as f64);
    let z = z_quantile(confidence);
    let p = k / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    Some(Estimate {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// Mean with Student's t interval (n - 1 degrees of freedom) at `confidence`; `None` below
/// two samples, where no interval exists.
#[must_use]
pub fn mean_ci(samples: &[f64], confidence: f64) -> Option<Estimate> {
    if samples.len() < 2 {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "sample counts far below 2^53")]
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let t = StudentsT::new(0.0, 1.0, n - 1.0).map_or_else(
        |_| z_quantile(confidence),
        |d| d.inverse_cdf(0.5 + confidence / 2.0),
    );
    let half = t * (variance / n).sqrt();
    Some(Estimate {
        value: mean,
        low: mean - half,
        high: mean + half,
    })
}

/// The mean of `samples` with a percentile bootstrap interval at `confidence` (Efron and
/// Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13): `reps` resamples with
/// replacement, drawn from a stream seeded by `seed` (the same interval on every run), the
/// interval the resampled means' quantiles. Its ends are means of the samples, so a
/// non-negative quantity (a regret) gets no negative end, as a t interval can. `None` with
/// fewer than two samples.
#[must_use]
pub fn bootstrap_mean_ci(
    samples: &[f64],
    confidence: f64,
    reps: u32,
    seed: u64,
) -> Option<Estimate> {
    if samples.len() < 2 || reps == 0 {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "sample counts far below 2^53")]
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let mut state = seed;
    let mut means: Vec<f64> = (0..reps)
        .map(|_| {
            let total: f64 = (0..samples.len())
                .map(|_| {
                    state = cutlab_instrument::csv_sink::splitmix64(state);
                    #[expect(clippy::cast_possible_truncation, reason = "an index below len")]
                    let k = (state % samples.len() as u64) as usize;
                    samples[k]
                })
                .sum();
            total / n
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "an index into the resamples"
        )]
        let k = ((q * f64::from(reps)).floor() as usize).min(means.len() - 1);
        means[k]
    };
    let tail = (1.0 - confidence) / 2.0;
    Some(Estimate {
        value: mean,
        low: at(tail),
        high: at(1.0 - tail),
    })
}

/// Rows paired by position: per position where both have a row, the reference's and the
/// variant's `value` (each side's last row of the position), in the positions' order. A
/// variant paired with itself gives each of its values twice.
pub fn paired<'a, R>(
    rows: &'a [R],
    (reference, variant): (&str, &str),
    key: impl Fn(&'a R) -> (&'a str, &'a str),
    value: impl Fn(&R) -> f64,
) -> (Vec<f64>, Vec<f64>) {
    let mut by_position: std::collections::BTreeMap<&str, [Option<f64>; 2]> =
        std::collections::BTreeMap::new();
    for r in rows {
        let (position, name) = key(r);
        let slot = by_position.entry(position).or_default();
        if name == reference {
            slot[0] = Some(value(r));
        }
        if name == variant {
            slot[1] = Some(value(r));
        }
    }
    by_position.values().filter_map(|[a, b]| a.zip(*b)).unzip()
}

/// Mean of paired differences `b - a` with its t interval.
#[must_use]
pub fn paired_difference(a: &[f64], b: &[f64], confidence: f64) -> Option<Estimate> {
    if a.len() != b.len() {
        return None;
    }
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    mean_ci(&differences, confidence)
}

/// Ratio of geometric means `b / a` over pairs (a tree size against a reference's), with
/// a t interval on the log ratios taken back by `exp`; pairs holding a zero are left out.
#[must_use]
pub fn paired_ratio(a: &[f64], b: &[f64], confidence: f64) -> Option<Estimate> {
    if a.len() != b.len() {
        return None;
    }
    let logs: Vec<f64> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| **x > 0.0 && **y > 0.0)
        .map(|(x, y)| (y / x).ln())
        .collect();
    mean_ci(&logs, confidence).map(|e| Estimate {
        value: e.value.exp(),
        low: e.low.exp(),
        high: e.high.exp(),
    })
}

/// The difference `b - a` of two estimates from independent samples, each with a symmetric
/// interval at one confidence: the half-widths combine in quadrature (normal approximation).
#[must_use]
pub fn independent_difference(a: &Estimate, b: &Estimate) -> Estimate {
    let half = ((a.high - a.low) / 2.0).hypot((b.high - b.low) / 2.0);
    Estimate::around(b.value - a.value, half)
}

/// A straight line through independent estimates against `x`: its slope with an interval, and
/// the point it passes through (the weighted means of `x` and of the values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Change of the value per unit of `x`, with its interval at the estimates' confidence.
    pub slope: Estimate,
    /// The weighted means (x, value): the line is `value = centre.1 + slope (x - centre.0)`.
    pub centre: (f64, f64),
}

/// The weighted least-squares line through independent estimates `(x, estimate)`, each
/// weighted by the inverse square of its half-width h (the interval of a normal estimate at
/// one confidence for all); the slope's half-width at that confidence is
/// 1 / sqrt(Σ (x - x̄)² / h²), x̄ weighted alike (Draper and Smith, *Applied Regression
/// Analysis*, 3rd ed., section 9.2). Two points give their [`independent_difference`] over
/// the distance between them. `None` with fewer than two distinct `x`, or an interval that is
/// empty, unbounded or not a number.
#[must_use]
pub fn trend(points: &[(f64, Estimate)]) -> Option<Trend> {
    let weighted: Vec<(f64, f64, f64)> = points
        .iter()
        .map(|(x, e)| (*x, e.value, 4.0 / (e.high - e.low).powi(2)))
        .collect();
    if weighted
        .iter()
        .any(|&(x, y, w)| !(x.is_finite() && y.is_finite() && w.is_finite() && w > 0.0))
    {
        return None;
    }
    // Tested on the xs themselves: rounding can leave a single x a tiny spread about its mean.
    if weighted.iter().all(|p| p.0 == weighted[0].0) {
        return None;
    }
    let total: f64 = weighted.iter().map(|p| p.2).sum();
    let mean =
        |f: fn(&(f64, f64, f64)) -> f64| weighted.iter().map(|p| p.2 * f(p)).sum::<f64>() / total;
    let (x_mean, y_mean) = (mean(|p| p.0), mean(|p| p.1));
    let sxx: f64 = weighted.iter().map(|p| p.2 * (p.0 - x_mean).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = weighted
        .iter()
        .map(|p| p.2 * (p.0 - x_mean) * (p.1 - y_mean))
        .sum();
    Some(Trend {
        slope: Estimate::around(sxy / sxx, 1.0 / sxx.sqrt()),
        centre: (x_mean, y_mean),
    })
}

#[cfg(test)]
mod tests {

    /// A skewed non-negative sample (nine zeros and a 100): its t interval reaches below 0,
    /// the bootstrap's does not, and both hold the mean 10; the same seed gives the same ends.
    #[test]
    fn a_bootstrap_interval_of_a_non_negative_mean_stays_non_negative() {
        let mut xs = vec![0.0; 9];
        xs.push(100.0);
        let t = mean_ci(&xs, 0.95).unwrap();
        assert!(t.low < 0.0, "{t:?}");
        let b = bootstrap_mean_ci(&xs, 0.95, 2000, 7).unwrap();
        assert!(b.low >= 0.0 && b.low <= 10.0 && b.high >= 10.0, "{b:?}");
        assert_eq!(b, bootstrap_mean_ci(&xs, 0.95, 2000, 7).unwrap());
        assert!(bootstrap_mean_ci(&[1.0], 0.95, 2000, 7).is_none());
    }
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn a_trend_weighs_each_estimate_by_its_interval() {
        // Two points: the independent difference over the distance between them.
        let (a, b) = (Estimate::around(10.0, 3.0), Estimate::around(16.0, 4.0));
        let two = trend(&[(1.0, a), (3.0, b)]).unwrap();
        let d = independent_difference(&a, &b);
        assert!(close(two.slope.value, d.value / 2.0), "{two:?}");
        assert!(close(two.slope.high - two.slope.value, 2.5), "{two:?}");
        // Three points of equal half-width h = 2 at x = 0, 1, 2 on y = 1 + 2x: slope 2 with
        // half-width 1 / sqrt((1 + 0 + 1) / 4) = sqrt(2); the line passes through (1, 3).
        let line: Vec<(f64, Estimate)> = (0..3)
            .map(|x| {
                (
                    f64::from(x),
                    Estimate::around(1.0 + 2.0 * f64::from(x), 2.0),
                )
            })
            .collect();
        let t = trend(&line).unwrap();
        assert!(close(t.slope.value, 2.0) && close(t.slope.high - 2.0, 2.0_f64.sqrt()));
        assert_eq!(t.centre, (1.0, 3.0));
        // A narrow point pulls the line: weights 1/h² of 1 and 100 at y 0 and 10.
        let pulled = trend(&[
            (0.0, Estimate::around(0.0, 1.0)),
            (1.0, Estimate::around(10.0, 0.1)),
            (2.0, Estimate::around(0.0, 1.0)),
        ])
        .unwrap();
        assert!(pulled.centre.1 > 9.0, "{pulled:?}");
        assert!(trend(&[(1.0, a), (1.0, b)]).is_none());
        assert!(trend(&[(5000f64.log2(), a)]).is_none());
        assert!(trend(&[]).is_none());
        assert!(trend(&[(1.0, a), (2.0, Estimate::around(1.0, f64::INFINITY))]).is_none());
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 at 95% (Newcombe 1998, example): 0.2553 .. 0.3662.
        let e = wilson(81, 263, 0.95).unwrap();
        assert!(close(e.low, 0.2553) && close(e.high, 0.3662), "{e:?}");
        // 0 of 10: upper end 0.2775.
        let e = wilson(0, 10, 0.95).unwrap();
        assert!(close(e.low, 0.0) && close(e.high, 0.2775), "{e:?}");
        assert!(wilson(0, 0, 0.95).is_none());
    }

    #[test]
    fn t_interval_matches_a_hand_computation() {
        // Mean 5, sd 1.5811 (n=5): t(0.975, 4) = 2.7764, half-width 1.9632.
        let e = mean_ci(&[3.0, 4.0, 5.0, 6.0, 7.0], 0.95).unwrap();
        assert!(
            close(e.value, 5.0) && close(e.high - e.value, 1.9632),
            "{e:?}"
        );
        let d = paired_difference(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0], 0.95).unwrap();
        assert!(close(d.value, 1.0) && close(d.low, 1.0), "{d:?}");
        assert!(
            mean_ci(&[5.0], 0.95).is_none(),
            "one sample has no t interval"
        );
        assert!(paired_difference(&[1.0], &[2.0], 0.95).is_none());
    }

    /// 3-4-5 triangle: half-widths 3 and 4 combine into 5 around the difference.
    #[test]
    fn independent_half_widths_combine_in_quadrature() {
        let a = Estimate {
            value: 10.0,
            low: 7.0,
            high: 13.0,
        };
        let b = Estimate {
            value: -20.0,
            low: -24.0,
            high: -16.0,
        };
        let d = independent_difference(&a, &b);
        assert!(
            close(d.value, -30.0) && close(d.low, -35.0) && close(d.high, -25.0),
            "{d:?}"
        );
    }

    /// Pairs follow the positions' order, a position without both sides is left out, and a
    /// variant paired with itself gives its values on both sides.
    #[test]
    fn rows_pair_by_position() {
        let rows = [
            ("b", "x", 2.0),
            ("a", "y", 10.0),
            ("a", "x", 1.0),
            ("c", "y", 30.0),
            ("b", "y", 20.0),
        ];
        let key = |r: &(&'static str, &'static str, f64)| (r.0, r.1);
        let (x, y) = paired(&rows, ("x", "y"), key, |r| r.2);
        assert_eq!((x, y), (vec![1.0, 2.0], vec![10.0, 20.0]));
        let (x, same) = paired(&rows, ("x", "x"), key, |r| r.2);
        assert_eq!((x, same), (vec![1.0, 2.0], vec![1.0, 2.0]));
    }

    /// An interval decides a sign only when it excludes 0; one that touches 0 does not.
    #[test]
    fn an_interval_has_a_sign_when_it_excludes_zero() {
        assert_eq!(Estimate::around(5.0, 3.0).sign(), Some(true));
        assert_eq!(Estimate::around(-5.0, 3.0).sign(), Some(false));
        assert_eq!(Estimate::around(3.0, 3.0).sign(), None);
        assert_eq!(Estimate::around(-1.0, 3.0).sign(), None);
    }
}
