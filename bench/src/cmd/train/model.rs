//! The network in floating point, as the trainer sees it: the forward pass of
//! `cutlab_search::nnue` without quantisation, its gradient, and its quantisation into the
//! engine's layout.

use cutlab_search::nnue::{HIDDEN, Network, QA, QB};

use crate::common::dataformat::Features;

/// The features of the position mirrored left to right (files a and h swapped): a feature
/// keeps its square in its low six bits (`cutlab_search::nnue::feature_index`), so the
/// mirror flips the file bits, `f ^ 7`, in either perspective.
#[must_use]
pub fn mirrored(features: &Features) -> Features {
    let (mut us, mut them, n) = *features;
    us[..n]
        .iter_mut()
        .chain(&mut them[..n])
        .for_each(|f| *f ^= 7);
    (us, them, n)
}

/// The bound of every weight, so that the quantised network cannot overflow (bullet's 1.98:
/// 1.98 · QB = 126.7 and 1.98 · QA · 32 pieces < 32767).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The parameters, in one flat vector: feature weights `[768][HIDDEN]`, feature biases
/// `[HIDDEN]`, output weights `[2 · HIDDEN]`, output bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Every parameter.
    pub params: Vec<f32>,
}

/// Where each part starts in [`Model::params`].
pub const FEATURE_BIAS: usize = 768 * HIDDEN;
/// Start of the output weights.
pub const OUTPUT_WEIGHTS: usize = FEATURE_BIAS + HIDDEN;
/// The output bias.
pub const OUTPUT_BIAS: usize = OUTPUT_WEIGHTS + 2 * HIDDEN;
/// Number of parameters.
pub const PARAMS: usize = OUTPUT_BIAS + 1;

/// The squared clipped ReLU, `clamp(x, 0, 1)²`.
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// Seeded small random weights.
    #[must_use]
    pub fn new(seed: u64) -> Model {
        let mut state = seed;
        let mut uniform = |scale: f32| {
            state = cutlab_instrument::csv_sink::splitmix64(state);
            #[expect(clippy::cast_precision_loss, reason = "a random fraction")]
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * scale
        };
        let mut params = vec![0.0; PARAMS];
        for (i, p) in params.iter_mut().enumerate() {
            *p = match i {
                i if i < FEATURE_BIAS => uniform(0.1),
                i if i < OUTPUT_WEIGHTS => 0.0,
                i if i < OUTPUT_BIAS => uniform(0.1),
                _ => 0.0,
            };
        }
        Model { params }
    }

    /// The hidden sums of one perspective.
    fn accumulate(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut acc = [0.0; HIDDEN];
        acc.copy_from_slice(&self.params[FEATURE_BIAS..OUTPUT_WEIGHTS]);
        for &f in features {
            let column = &self.params[usize::from(f) * HIDDEN..][..HIDDEN];
            acc.iter_mut().zip(column).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The hidden sums of both perspectives and the output, in units of `SCALE` centipawns,
    /// side to move's view.
    fn forward(&self, features: &Features) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
        let (us, them, n) = features;
        let (us, them) = (self.accumulate(&us[..*n]), self.accumulate(&them[..*n]));
        let w = &self.params[OUTPUT_WEIGHTS..OUTPUT_BIAS];
        let out = us
            .iter()
            .chain(&them)
            .zip(w)
            .map(|(&a, &w)| screlu(a) * w)
            .sum::<f32>()
            + self.params[OUTPUT_BIAS];
        (us, them, out)
    }

    /// The output, in units of `SCALE` centipawns, side to move's view.
    #[must_use]
    pub fn output(&self, features: &Features) -> f32 {
        self.forward(features).2
    }

    /// Adds the gradient of the loss `(σ(output) - target)²` of one position to `gradient`;
    /// returns the loss.
    pub fn backward(&self, features: &Features, target: f32, gradient: &mut [f32]) -> f32 {
        let (us_f, them_f, n) = features;
        let (us, them, out) = self.forward(features);
        let w = &self.params[OUTPUT_WEIGHTS..OUTPUT_BIAS];
        let prediction = sigmoid(out);
        let error = prediction - target;
        let g = 2.0 * error * prediction * (1.0 - prediction);
        gradient[OUTPUT_BIAS] += g;
        for (half, (acc, features)) in [(&us, &us_f[..*n]), (&them, &them_f[..*n])]
            .into_iter()
            .enumerate()
        {
            let mut d_acc = [0.0_f32; HIDDEN];
            for i in 0..HIDDEN {
                let a = acc[i];
                gradient[OUTPUT_WEIGHTS + half * HIDDEN + i] += g * screlu(a);
                if a > 0.0 && a < 1.0 {
                    d_acc[i] = g * w[half * HIDDEN + i] * 2.0 * a;
                }
            }
            gradient[FEATURE_BIAS..OUTPUT_WEIGHTS]
                .iter_mut()
                .zip(&d_acc)
                .for_each(|(g, d)| *g += d);
            for &f in features {
                gradient[usize::from(f) * HIDDEN..][..HIDDEN]
                    .iter_mut()
                    .zip(&d_acc)
                    .for_each(|(g, d)| *g += d);
            }
        }
        error * error
    }

    /// The loss of one position, without its gradient.
    #[must_use]
    pub fn loss(&self, features: &Features, target: f32) -> f32 {
        let e = sigmoid(self.output(features)) - target;
        e * e
    }

    /// Keeps the weights (not the biases) within [`WEIGHT_CLIP`].
    pub fn clip(&mut self) {
        for (i, p) in self.params.iter_mut().enumerate() {
            if i < FEATURE_BIAS || (OUTPUT_WEIGHTS..OUTPUT_BIAS).contains(&i) {
                *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }

    /// The engine's network: feature weights and biases times QA, output weights times QB,
    /// the output bias times QA · QB, rounded; the output layer first multiplied by
    /// `output_scale`, so that the engine's evaluation is that multiple of the trained one;
    /// `record` says how it was made.
    ///
    /// # Errors
    /// Weights the engine's integers cannot hold ([`Network::check_ranges`]).
    pub fn quantise(&self, record: String, output_scale: f32) -> Result<Network, String> {
        #[expect(clippy::cast_possible_truncation, reason = "clipped, then checked")]
        let q = |x: f32, scale: i32| {
            #[expect(clippy::cast_precision_loss, reason = "small constants")]
            let v = (x * scale as f32).round();
            v.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let row = |start: usize, scale: i32| {
            let mut r = [0_i16; HIDDEN];
            r.iter_mut()
                .zip(&self.params[start..start + HIDDEN])
                .for_each(|(r, &p)| *r = q(p, scale));
            r
        };
        let net = Network {
            feature_weights: (0..768).map(|f| row(f * HIDDEN, QA)).collect(),
            feature_bias: row(FEATURE_BIAS, QA),
            output_weights: self.params[OUTPUT_WEIGHTS..OUTPUT_BIAS]
                .iter()
                .map(|&p| q(p * output_scale, QB))
                .collect(),
            output_bias: q(self.params[OUTPUT_BIAS] * output_scale, QA * QB),
            record,
        };
        net.check_ranges()?;
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use cutlab_search::{Position, nnue};
    use shakmaty::Position as _;

    use super::*;

    /// The features of `pos` as the engine computes them, side to move first.
    pub fn features_of(pos: &Position) -> Features {
        let turn = pos.turn();
        let mut features: Features = ([0; 32], [0; 32], 0);
        for (square, piece) in pos.chess().board() {
            let n = features.2;
            features.0[n] = u16::try_from(nnue::feature_index(turn, piece, square)).unwrap();
            features.1[n] = u16::try_from(nnue::feature_index(!turn, piece, square)).unwrap();
            features.2 += 1;
        }
        features
    }

    const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 0 1",
    ];

    /// The trainer's floating-point output and the engine's quantised one agree: on weights
    /// the quantisation represents exactly (multiples of 1/255 and 2/64), within the integer
    /// divisions' truncation; the layout, the scales and the formula are the same. An output
    /// scale multiplies the engine's evaluation.
    #[test]
    fn the_quantised_network_evaluates_as_the_float_one() {
        let mut model = Model::new(5);
        let mut state = 11_u64;
        for (i, p) in model.params.iter_mut().enumerate() {
            state = cutlab_instrument::csv_sink::splitmix64(state);
            #[expect(clippy::cast_precision_loss, reason = "a random fraction")]
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
            #[expect(clippy::cast_precision_loss, reason = "small constants")]
            let grid = match i {
                i if i < OUTPUT_WEIGHTS => QA as f32,
                i if i < OUTPUT_BIAS => QB as f32 / 2.0,
                _ => (QA * QB) as f32 / 2.0,
            };
            *p = ((2.0 * unit - 1.0) * 0.4 * grid).round() / grid;
        }
        let net = model.quantise(String::new(), 1.0).unwrap();
        // Output weights and bias on every other step of their grid: half of them is on the
        // grid too, so an output scale of 1/2 is represented exactly.
        let halved = model.quantise(String::new(), 0.5).unwrap();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let float_cp = model.output(&features_of(&pos)) * 400.0;
            let engine_cp = nnue::evaluate(&net, &pos);
            assert!(
                (f64::from(float_cp) - f64::from(engine_cp)).abs() <= 1.5,
                "{fen}: float {float_cp:.2} cp, engine {engine_cp} cp"
            );
            let halved_cp = nnue::evaluate(&halved, &pos);
            assert!(
                (f64::from(float_cp) / 2.0 - f64::from(halved_cp)).abs() <= 1.5,
                "{fen}: half of float {float_cp:.2} cp, engine {halved_cp} cp"
            );
        }
    }

    /// The mirrored features are those of the mirrored position (each rank of the FEN read
    /// backwards), for either side to move.
    #[test]
    fn mirrored_features_are_the_mirrored_positions() {
        for fen in FENS {
            let fields: Vec<&str> = fen.split(' ').collect();
            let ranks: Vec<String> = fields[0]
                .split('/')
                .map(|r| r.chars().rev().collect())
                .collect();
            let mirror = format!("{} {} - - 0 1", ranks.join("/"), fields[1]);
            let sorted = |f: Features| {
                let (mut us, mut them) = (f.0[..f.2].to_vec(), f.1[..f.2].to_vec());
                us.sort_unstable();
                them.sort_unstable();
                (us, them)
            };
            let pos = Position::from_fen(fen).unwrap();
            let mirrored_pos = Position::from_fen(&mirror).unwrap();
            assert_eq!(
                sorted(mirrored(&features_of(&pos))),
                sorted(features_of(&mirrored_pos)),
                "{fen}"
            );
        }
    }

    /// The gradient of the loss is its derivative: a central difference of the loss along a
    /// few parameters of each part equals the analytic gradient.
    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        let mut model = Model::new(6);
        model.params[OUTPUT_BIAS] = 0.1;
        for p in &mut model.params[FEATURE_BIAS..OUTPUT_WEIGHTS] {
            *p = 0.3;
        }
        let pos = Position::from_fen(FENS[1]).unwrap();
        let features = features_of(&pos);
        let target = 0.7;
        let mut gradient = vec![0.0; PARAMS];
        model.backward(&features, target, &mut gradient);
        let feature = usize::from(features.0[0]);
        for i in [
            feature * HIDDEN + 3,
            FEATURE_BIAS + 5,
            OUTPUT_WEIGHTS + 7,
            OUTPUT_WEIGHTS + HIDDEN + 9,
            OUTPUT_BIAS,
        ] {
            let h = 1e-3;
            let mut plus = model.clone();
            plus.params[i] += h;
            let mut minus = model.clone();
            minus.params[i] -= h;
            let numeric =
                (plus.loss(&features, target) - minus.loss(&features, target)) / (2.0 * h);
            assert!(
                (numeric - gradient[i]).abs() <= 1e-4 + 0.02 * gradient[i].abs(),
                "parameter {i}: numeric {numeric}, analytic {}",
                gradient[i]
            );
        }
    }
}
