//! Verdicts over a family of tests under a stated error control: Holm's step-down procedure
//! (the family-wise error rate, the chance of any false verdict, at most α; Holm 1979, "A
//! simple sequentially rejective multiple test procedure", *Scand. J. Statist.* 6) and
//! Benjamini and Hochberg's step-up procedure (the false discovery rate, the expected share of
//! false verdicts among the verdicts, at most α for independent tests; Benjamini and Hochberg
//! 1995, *J. R. Statist. Soc. B* 57), each from the tests' p-values.

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided p-value of a normal estimate with interval `[low, high]` at `confidence`
/// (`value / se` against N(0, 1), the standard error read from the interval's half-width),
/// multiplied by `looks` for a match looked at that many times whose intervals are
/// Bonferroni's (each at 1 - α/looks): the p-value below α exactly when the printed interval
/// excludes 0. At most 1.
#[must_use]
pub fn looks_p_value(value: f64, low: f64, high: f64, confidence: f64, looks: usize) -> f64 {
    let standard = Normal::standard();
    let z_interval = standard.inverse_cdf(0.5 + confidence / 2.0);
    let se = (high - low) / 2.0 / z_interval;
    if !(se > 0.0 && se.is_finite() && value.is_finite()) {
        return f64::NAN;
    }
    let p = 2.0 * (1.0 - standard.cdf((value / se).abs()));
    #[expect(clippy::cast_precision_loss, reason = "a few looks")]
    (p * looks as f64).min(1.0)
}

/// The order of `p` ascending (NaN last), as indices.
fn ascending(p: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    order
}

/// Holm's verdicts at family-wise error `alpha`: the i-th smallest of m p-values (from 1) is
/// rejected while every one up to it is at most α / (m - i + 1). A NaN is never rejected.
#[must_use]
pub fn holm(p: &[f64], alpha: f64) -> Vec<bool> {
    let m = p.len();
    let mut rejected = vec![false; m];
    for (i, &k) in ascending(p).iter().enumerate() {
        #[expect(clippy::cast_precision_loss, reason = "a family of tests")]
        let bound = alpha / (m - i) as f64;
        // A NaN is above every bound: it stops the procedure.
        if p[k].is_nan() || p[k] > bound {
            break;
        }
        rejected[k] = true;
    }
    rejected
}

/// Benjamini and Hochberg's verdicts at false discovery rate `alpha`: with the p-values in
/// ascending order, the largest i with p_(i) ≤ i α / m, and every one up to it, rejected. A
/// NaN is never rejected.
#[must_use]
pub fn benjamini_hochberg(p: &[f64], alpha: f64) -> Vec<bool> {
    let m = p.len();
    let order = ascending(p);
    #[expect(clippy::cast_precision_loss, reason = "a family of tests")]
    let last = order
        .iter()
        .enumerate()
        .filter(|&(i, &k)| p[k] <= (i + 1) as f64 * alpha / m as f64)
        .map(|(i, _)| i)
        .next_back();
    let mut rejected = vec![false; m];
    if let Some(last) = last {
        for &k in &order[..=last] {
            rejected[k] = true;
        }
    }
    rejected
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four p-values worked by the procedures' definitions at α = 0.05, m = 4.
    /// Holm: 0.010 ≤ 0.05/4 = 0.0125 yes; 0.015 ≤ 0.05/3 = 0.0167 yes; 0.030 ≤ 0.05/2 = 0.025
    /// no: stop. BH: bounds i·0.05/4 = 0.0125, 0.025, 0.0375, 0.05; the largest i with
    /// p_(i) under its bound is 3 (0.030 ≤ 0.0375), so the three smallest are rejected.
    #[test]
    fn the_procedures_follow_their_definitions() {
        let p = [0.030, 0.010, 0.200, 0.015];
        assert_eq!(holm(&p, 0.05), [false, true, false, true]);
        assert_eq!(benjamini_hochberg(&p, 0.05), [true, true, false, true]);
        // Step-up: a small p-value below a large one that passes is rejected with it.
        let q = [0.04, 0.049];
        assert_eq!(benjamini_hochberg(&q, 0.05), [true, true]);
        assert_eq!(holm(&q, 0.05), [false, false]);
        assert_eq!(holm(&[f64::NAN, 0.001], 0.05), [false, true]);
        assert_eq!(benjamini_hochberg(&[], 0.05), Vec::<bool>::new());
    }

    /// An interval that just touches 0 at the looks' confidence has p = α: the p-value says
    /// what the printed interval says.
    #[test]
    fn a_p_value_below_alpha_is_an_interval_without_0() {
        let confidence = 1.0 - 0.05 / 3.0;
        let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
        let p = looks_p_value(z * 10.0, 0.0, 2.0 * z * 10.0, confidence, 3);
        assert!((p - 0.05).abs() < 1e-9, "{p}");
        assert!(looks_p_value(5.0, -1.0, 11.0, confidence, 3) > 0.05);
        assert!(looks_p_value(30.0, 20.0, 40.0, confidence, 3) < 0.05);
        assert!(looks_p_value(1.0, 1.0, 1.0, confidence, 3).is_nan());
    }
}
