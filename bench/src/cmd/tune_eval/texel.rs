//! Texel's tuning method (Peter Österlund, 2014, chessprogramming wiki "Texel's Tuning
//! Method"): choose the weights that minimise the mean squared error between game results and
//! the logistic of the evaluation,
//!
//! ```text
//! E = 1/N sum_i (R_i - sigmoid(q_i))^2,   sigmoid(q) = 1 / (1 + 10^(-K q / 400))
//! ```
//!
//! where q_i is the static evaluation of quiet position i (White's view) and K is first chosen
//! to minimise E with the starting weights. The evaluation is linear in its weights, so q_i is a
//! dot product of the position's feature counts with the tapered weights and the gradient is
//! exact; the weights move by Adam (Kingma and Ba 2015) over the whole training set each
//! epoch, as the linear tuners of Ethereal and Weiss do, rather than by Texel's original
//! one-weight-at-a-time local search.

use std::f64::consts::LN_10;

use cutlab_search::eval::FULL_PHASE;

use super::samples::Sample;

/// Weights being tuned: (middlegame, endgame) per feature.
pub type Weights = Vec<[f64; 2]>;

/// Evaluation of `sample` (White's view, centipawns) under `weights`.
fn evaluate(sample: &Sample, weights: &[[f64; 2]]) -> f64 {
    let phase = f64::from(sample.phase) / f64::from(FULL_PHASE);
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(index, count) in &sample.features {
        let w = weights[usize::from(index)];
        mg += w[0] * f64::from(count);
        eg += w[1] * f64::from(count);
    }
    mg * phase + eg * (1.0 - phase)
}

/// Expected score of an evaluation of `q` centipawns with scaling `k`.
fn sigmoid(q: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10_f64.powf(-k * q / 400.0))
}

/// Mean squared error of `samples` under `weights` and `k`.
#[must_use]
pub fn loss(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(evaluate(s, weights), k)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scaling K that minimises the loss with `weights`, by golden-section search on
/// [0.05, 5] (the loss is unimodal in K).
#[must_use]
pub fn fit_k(samples: &[Sample], weights: &[[f64; 2]]) -> f64 {
    let ratio = (5_f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.05, 5.0);
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(samples, weights, a) < loss(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi)
}

/// Gradient of the loss with respect to every weight, over `samples`, summed over `threads`
/// workers.
fn gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64, threads: usize) -> Weights {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let partials: Vec<Weights> = std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(move || partial_gradient(part, weights, k)))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| unreachable!("no worker panics"))
            })
            .collect()
    });
    let mut total = vec![[0.0; 2]; weights.len()];
    for part in partials {
        for (t, p) in total.iter_mut().zip(part) {
            t[0] += p[0];
            t[1] += p[1];
        }
    }
    let n = samples.len().max(1) as f64;
    for t in &mut total {
        t[0] /= n;
        t[1] /= n;
    }
    total
}

/// dE/dw for one chunk: -2 (R - s) s (1 - s) ln(10) K / 400 times the tapered feature count.
fn partial_gradient(samples: &[Sample], weights: &[[f64; 2]], k: f64) -> Weights {
    let mut grad = vec![[0.0; 2]; weights.len()];
    for sample in samples {
        let s = sigmoid(evaluate(sample, weights), k);
        let common = -2.0 * (sample.result - s) * s * (1.0 - s) * LN_10 * k / 400.0;
        let phase = f64::from(sample.phase) / f64::from(FULL_PHASE);
        for &(index, count) in &sample.features {
            let g = &mut grad[usize::from(index)];
            g[0] += common * f64::from(count) * phase;
            g[1] += common * f64::from(count) * (1.0 - phase);
        }
    }
    grad
}

/// Adam's settings: step size in centipawns and the decay rates of its moment estimates.
#[derive(Clone, Copy, Debug)]
pub struct Adam {
    /// Step size, centipawns per epoch.
    pub learning_rate: f64,
    /// Decay of the first moment (0.9 in Kingma and Ba).
    pub beta1: f64,
    /// Decay of the second moment (0.999 in Kingma and Ba).
    pub beta2: f64,
}

impl Default for Adam {
    fn default() -> Self {
        Adam {
            learning_rate: 1.0,
            beta1: 0.9,
            beta2: 0.999,
        }
    }
}

/// How a tuning run goes: the sigmoid's scaling, the passes, the optimiser, the threads.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Scaling K of the sigmoid.
    pub k: f64,
    /// Full passes over the training positions.
    pub epochs: usize,
    /// The optimiser's settings.
    pub adam: Adam,
    /// Threads computing the gradient.
    pub threads: usize,
    /// Ridge penalty: `l2 x (w - w_start)^2` per weight is added to the loss, so that a weight
    /// the data says little about stays near its start instead of following noise.
    pub l2: f64,
}

/// Tunes `weights` in place by `schedule` over `train`; only weights whose `tuned` entry is
/// true move. `after_epoch` sees the epoch number and the weights.
pub fn tune(
    train: &[Sample],
    weights: &mut [[f64; 2]],
    tuned: &[bool],
    schedule: Schedule,
    mut after_epoch: impl FnMut(usize, &[[f64; 2]]),
) {
    let Schedule {
        k,
        epochs,
        adam,
        threads,
        l2,
    } = schedule;
    let start = weights.to_vec();
    let mut first = vec![[0.0; 2]; weights.len()];
    let mut second = vec![[0.0; 2]; weights.len()];
    for epoch in 1..=epochs {
        let grad = gradient(train, weights, k, threads);
        let t = i32::try_from(epoch).unwrap_or(i32::MAX);
        let correction1 = 1.0 - adam.beta1.powi(t);
        let correction2 = 1.0 - adam.beta2.powi(t);
        for i in (0..weights.len()).filter(|&i| tuned[i]) {
            for phase in 0..2 {
                let g = grad[i][phase] + 2.0 * l2 * (weights[i][phase] - start[i][phase]);
                first[i][phase] = adam.beta1 * first[i][phase] + (1.0 - adam.beta1) * g;
                second[i][phase] = adam.beta2 * second[i][phase] + (1.0 - adam.beta2) * g * g;
                let m = first[i][phase] / correction1;
                let v = second[i][phase] / correction2;
                weights[i][phase] -= adam.learning_rate * m / (v.sqrt() + 1e-12);
            }
        }
        after_epoch(epoch, weights);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where one feature (an extra "pawn") decides the result half the time more.
    fn synthetic() -> Vec<Sample> {
        let mut samples = Vec::new();
        for i in 0..400 {
            let up = i % 2 == 0;
            samples.push(Sample {
                features: vec![(0, if up { 1 } else { -1 })],
                phase: 12,
                result: match (up, i % 5) {
                    (true, 0) | (false, 1..=4) => 0.0,
                    _ => 1.0,
                },
                game: i,
            });
        }
        samples
    }

    #[test]
    fn the_gradient_matches_a_finite_difference() {
        let samples = synthetic();
        let weights = vec![[40.0, 90.0]];
        let grad = gradient(&samples, &weights, 1.1, 2);
        for phase in 0..2 {
            let mut up = weights.clone();
            let mut down = weights.clone();
            up[0][phase] += 1e-3;
            down[0][phase] -= 1e-3;
            let numeric = (loss(&samples, &up, 1.1) - loss(&samples, &down, 1.1)) / 2e-3;
            assert!(
                (numeric - grad[0][phase]).abs() < 1e-7,
                "{numeric} vs {:?}",
                grad[0]
            );
        }
    }

    #[test]
    fn tuning_finds_the_weight_the_results_imply() {
        // Up one feature the side scores 80%: sigmoid(q) = 0.8 at K = 1 means q = 400 log10(4).
        let samples = synthetic();
        let mut weights = vec![[0.0, 0.0]];
        let before = loss(&samples, &weights, 1.0);
        let schedule = Schedule {
            k: 1.0,
            epochs: 600,
            adam: Adam {
                learning_rate: 5.0,
                ..Adam::default()
            },
            threads: 1,
            l2: 0.0,
        };
        tune(&samples, &mut weights, &[true], schedule, |_, _| {});
        let q = (weights[0][0] + weights[0][1]) / 2.0;
        assert!((q - 400.0 * 4_f64.log10()).abs() < 2.0, "{weights:?}");
        assert!(loss(&samples, &weights, 1.0) < before);
        let mut held = vec![[0.0, 0.0]];
        let ridge = Schedule {
            l2: 1.0,
            ..schedule
        };
        tune(&samples, &mut held, &[true], ridge, |_, _| {});
        assert!(
            held[0][0].abs() < 1.0,
            "a strong ridge keeps the start: {held:?}"
        );
        let frozen = vec![[7.0, 7.0]];
        let mut still = frozen.clone();
        tune(&samples, &mut still, &[false], schedule, |_, _| {});
        assert_eq!(still, frozen);
    }
}
