//! Discrete distributions of a node's value, and Equation 1 of the seed: for independent
//! children, the value of a max node has the CDF F(x) = Π F_i(x). In negamax form every node is
//! a max node over its negated children, so only the product and negation are needed.
//!
//! A distribution is a sorted support on integer centipawns with the CDF at each point. Chosen
//! over (mean, σ) with Clark's moment matching because the product of CDFs is then exact (the
//! max of normals is not normal, and Clark's formulas need pairwise correlations we do not
//! have), and because a point mass is exact: with σ = 0 every distribution is a single point.

/// A discrete distribution of a node's value (side to move's view).
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    /// Support, strictly increasing.
    xs: Vec<i32>,
    /// P(V <= xs[i]); the last is 1.
    cdf: Vec<f64>,
}

/// Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let low = 0.024_25;
    if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -normal_quantile(1.0 - p)
    }
}

impl Dist {
    /// All mass at `v`.
    #[must_use]
    pub fn point(v: i32) -> Dist {
        Dist {
            xs: vec![v],
            cdf: vec![1.0],
        }
    }

    /// N(mean, σ²) discretised into `points` equal-probability quantiles (a point when σ is 0).
    #[must_use]
    pub fn normal(mean: i32, sigma: f64, points: usize) -> Dist {
        if sigma <= 0.0 || points < 2 {
            return Dist::point(mean);
        }
        #[expect(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            reason = "small counts, cp rounding"
        )]
        let pairs = (0..points).map(|k| {
            let z = normal_quantile((k as f64 + 0.5) / points as f64);
            (mean + (sigma * z).round() as i32, 1.0 / points as f64)
        });
        Dist::from_masses(pairs)
    }

    /// The discretised normal of spread `sigma` whose value at confidence `p` is `value`
    /// (what the transposition table keeps of a distribution; a point when `sigma` is 0).
    #[must_use]
    pub fn with_value_at(value: i32, p: f64, sigma: f64, points: usize) -> Dist {
        let normal = Dist::normal(value, sigma, points);
        let offset = value - normal.value_at(p);
        normal.shifted(offset)
    }

    /// The distribution of V + `by`.
    #[must_use]
    pub fn shifted(&self, by: i32) -> Dist {
        Dist {
            xs: self.xs.iter().map(|x| x + by).collect(),
            cdf: self.cdf.clone(),
        }
    }

    /// The largest distance of a support point from the median (0 for a point).
    #[must_use]
    pub fn reach(&self) -> i32 {
        let median = self.value_at(0.5);
        self.xs
            .iter()
            .map(|x| (x - median).abs())
            .max()
            .unwrap_or(0)
    }

    /// Standard deviation, centipawns.
    #[must_use]
    pub fn std_dev(&self) -> f64 {
        let masses: Vec<(f64, f64)> = self
            .xs
            .iter()
            .zip(&self.cdf)
            .scan(0.0, |below, (&x, &c)| {
                let mass = c - *below;
                *below = c;
                Some((f64::from(x), mass))
            })
            .collect();
        let mean: f64 = masses.iter().map(|(x, m)| x * m).sum();
        masses
            .iter()
            .map(|(x, m)| m * (x - mean) * (x - mean))
            .sum::<f64>()
            .sqrt()
    }

    /// From (value, mass) pairs in increasing value order (equal values merge).
    fn from_masses(pairs: impl Iterator<Item = (i32, f64)>) -> Dist {
        let mut xs: Vec<i32> = Vec::new();
        let mut cdf: Vec<f64> = Vec::new();
        let mut total = 0.0;
        for (x, m) in pairs {
            total += m;
            if xs.last() == Some(&x) {
                *cdf.last_mut().unwrap_or(&mut 0.0) = total;
            } else {
                xs.push(x);
                cdf.push(total);
            }
        }
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        Dist { xs, cdf }
    }

    /// P(V <= x).
    #[must_use]
    pub fn cdf_at(&self, x: i32) -> f64 {
        match self.xs.partition_point(|&v| v <= x) {
            0 => 0.0,
            i => self.cdf[i - 1],
        }
    }

    /// P(V >= x).
    #[must_use]
    pub fn prob_at_least(&self, x: i32) -> f64 {
        1.0 - self.cdf_at(x - 1)
    }

    /// The distribution of -V.
    #[must_use]
    pub fn negate(&self) -> Dist {
        let n = self.xs.len();
        let xs = self.xs.iter().rev().map(|&x| -x).collect();
        // P(-V <= -x_i) = P(V >= x_i) = 1 - P(V <= x_{i-1}).
        let cdf = (0..n).map(|j| {
            let i = n - 1 - j;
            if i == 0 { 1.0 } else { 1.0 - self.cdf[i - 1] }
        });
        Dist {
            xs,
            cdf: cdf.collect(),
        }
    }

    /// The distribution of max(A, B) for independent A and B: F = F_A · F_B (Equation 1).
    #[must_use]
    pub fn max(&self, other: &Dist) -> Dist {
        // One merge of the two sorted supports: at each point of the union, each CDF is its
        // value at its last support point not above it.
        let capacity = self.xs.len() + other.xs.len();
        let (mut xs, mut cdf) = (Vec::with_capacity(capacity), Vec::with_capacity(capacity));
        let (mut i, mut j) = (0, 0);
        let (mut fa, mut fb) = (0.0, 0.0);
        loop {
            let (a, b) = (self.xs.get(i).copied(), other.xs.get(j).copied());
            let x = match (a, b) {
                (Some(a), Some(b)) => a.min(b),
                (Some(v), None) | (None, Some(v)) => v,
                (None, None) => break,
            };
            if a == Some(x) {
                fa = self.cdf[i];
                i += 1;
            }
            if b == Some(x) {
                fb = other.cdf[j];
                j += 1;
            }
            xs.push(x);
            cdf.push(fa * fb);
        }
        Dist { xs, cdf }
    }

    /// The p-value: the largest x with P(V >= x) >= p.
    #[must_use]
    pub fn value_at(&self, p: f64) -> i32 {
        let mut best = self.xs[0];
        for (i, &x) in self.xs.iter().enumerate() {
            let at_least = if i == 0 { 1.0 } else { 1.0 - self.cdf[i - 1] };
            if at_least >= p - 1e-12 {
                best = x;
            }
        }
        best
    }

    /// Keeps at most `n` support points, merging mass to equal-probability quantiles.
    #[must_use]
    pub fn compress(self, n: usize) -> Dist {
        if self.xs.len() <= n || n < 2 {
            return self;
        }
        // The levels rise, so one sweep finds each level's first point whose CDF reaches it.
        let last = self.xs.len() - 1;
        let mut i = 0;
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let pairs = (0..n).map(|k| {
            let level = (k as f64 + 0.5) / n as f64;
            while i < last && self.cdf[i] < level {
                i += 1;
            }
            (self.xs[i], 1.0 / n as f64)
        });
        Dist::from_masses(pairs)
    }

    /// Support size.
    #[must_use]
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// Whether the support is empty (never, for a built distribution).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_children_with_median_zero_match_the_seed() {
        let child = Dist::normal(0, 50.0, 16);
        assert!((child.cdf_at(0) - 0.5).abs() < 1e-12);
        let node = child.max(&child).max(&child);
        let p_above = 1.0 - node.cdf_at(0);
        assert!((p_above - 0.875).abs() < 1e-12, "{p_above}");
    }

    /// Equation 1 at every point of the union of the supports, F(x) = F_A(x) · F_B(x),
    /// exactly, for overlapping, disjoint, interleaved and point distributions.
    #[test]
    fn the_max_is_the_product_of_the_cdfs_on_the_union_of_the_supports() {
        let cases = [
            (Dist::normal(0, 50.0, 16), Dist::normal(20, 30.0, 16)),
            (Dist::normal(-500, 10.0, 8), Dist::normal(500, 10.0, 8)),
            (Dist::normal(0, 50.0, 16), Dist::normal(0, 50.0, 16)),
            (Dist::point(7), Dist::normal(7, 40.0, 5)),
            (Dist::point(-3), Dist::point(4)),
        ];
        for (a, b) in cases {
            for (left, right) in [(&a, &b), (&b, &a)] {
                let m = left.max(right);
                let mut union: Vec<i32> = a.xs.iter().chain(&b.xs).copied().collect();
                union.sort_unstable();
                union.dedup();
                assert_eq!(m.xs, union);
                for (&x, &f) in m.xs.iter().zip(&m.cdf) {
                    assert_eq!(f.to_bits(), (left.cdf_at(x) * right.cdf_at(x)).to_bits());
                }
            }
        }
    }

    /// Compressing to n points keeps, for each equal-probability level (k + 1/2) / n, the
    /// first support point whose CDF reaches it.
    #[test]
    fn compression_keeps_the_quantile_points() {
        let wide = Dist::normal(0, 80.0, 16).max(&Dist::normal(35, 60.0, 16));
        for n in [2, 5, 16, 31] {
            let small = wide.clone().compress(n);
            let mut expected: Vec<i32> = (0..n)
                .map(|k| {
                    #[expect(clippy::cast_precision_loss, reason = "small counts")]
                    let level = (k as f64 + 0.5) / n as f64;
                    let i = wide.cdf.iter().position(|&c| c >= level);
                    wide.xs[i.unwrap_or(wide.xs.len() - 1)]
                })
                .collect();
            expected.dedup();
            assert_eq!(small.xs, expected, "{n} points");
            assert!((small.cdf[small.len() - 1] - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn negation_and_points_are_exact() {
        let d = Dist::normal(30, 40.0, 8);
        let back = d.negate().negate();
        assert_eq!(back.xs, d.xs);
        for (a, b) in back.cdf.iter().zip(&d.cdf) {
            assert!((a - b).abs() < 1e-12);
        }
        let p = Dist::point(-7).max(&Dist::point(12));
        assert_eq!(p.value_at(0.95), 12);
        assert_eq!(Dist::point(5).negate().value_at(0.5), -5);
        assert!((Dist::normal(0, 0.0, 16).cdf_at(0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_shifted_normal_is_the_normal_at_the_new_mean() {
        for (sigma, points) in [(50.0, 16), (0.0, 16), (37.5, 7)] {
            let shape = Dist::normal(0, sigma, points);
            assert_eq!(shape.shifted(123), Dist::normal(123, sigma, points));
            assert_eq!(shape.shifted(-40), Dist::normal(-40, sigma, points));
        }
    }

    #[test]
    fn confidence_orders_pessimism() {
        let d = Dist::normal(0, 100.0, 16);
        assert!(d.value_at(0.95) < d.value_at(0.5));
        assert!(d.value_at(0.5) < d.value_at(0.05));
        let small = d.clone().compress(4);
        assert_eq!(small.len(), 4);
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-5);
    }
}
