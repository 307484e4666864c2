//! The network's weights, quantised, and their file: `CUTLABNN`, a version, the hidden size,
//! a TOML record of how the network was made (command, data, commit), then the weights as
//! little-endian i16, exactly the layout [`Network`] holds, and (version 2) a checksum of all
//! that, so that a damaged file is refused rather than searched with:
//!
//! ```text
//! b"CUTLABNN" | version u32 = 2 | hidden u32 | record length u32 | record (UTF-8 TOML)
//! feature weights [768][HIDDEN] | feature biases [HIDDEN]
//! output weights [2·HIDDEN] (side to move's half first) | output bias
//! checksum u64: FNV-1a (64 bits) of every byte before it
//! ```
//!
//! Version 1 (no checksum) is still read: the embedded network is one, its bytes pinned by
//! the network's bench signature (`bench/signature-nnue.txt`).

use std::fmt::Write as _;

/// Neurons of the hidden layer, per perspective.
pub const HIDDEN: usize = 128;
/// Input features: colour relative to the perspective × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the feature layer (weights and biases are multiplied by it).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (the sigmoid's scale in training).
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"CUTLABNN";
/// The version written; [`UNCHECKED`] is read too.
const VERSION: u32 = 2;
/// The version without a checksum.
const UNCHECKED: u32 = 1;

/// FNV-1a of 64 bits (Fowler, Noll and Vo): the file's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
/// The most pieces on a board: a bound of how many columns an accumulator sums.
const MAX_PIECES: i64 = 32;

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Column of each input feature, [`INPUTS`] of them.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    /// Bias of each hidden neuron.
    pub feature_bias: [i16; HIDDEN],
    /// Output weights: the side to move's neurons, then the other side's.
    pub output_weights: Vec<i16>,
    /// Output bias, quantised by `QA · QB`.
    pub output_bias: i16,
    /// How the network was made (TOML): the command, the data's size and commit.
    pub record: String,
}

fn read_u32(bytes: &[u8], at: &mut usize) -> Result<u32, String> {
    let word = bytes
        .get(*at..*at + 4)
        .ok_or("the file ends inside its header")?;
    *at += 4;
    Ok(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

impl Network {
    /// Reads a network file.
    ///
    /// # Errors
    /// Another format, another hidden size, a file of the wrong length, or weights whose sums
    /// could overflow the engine's integers.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.get(..8) != Some(MAGIC.as_slice()) {
            return Err("not a cutlab network (no CUTLABNN header)".into());
        }
        let mut at = 8;
        let version = read_u32(bytes, &mut at)?;
        let bytes = match version {
            VERSION => {
                let (body, sum) = bytes
                    .split_last_chunk::<8>()
                    .filter(|(body, _)| body.len() >= at)
                    .ok_or("the file ends before its checksum")?;
                if fnv1a(body) != u64::from_le_bytes(*sum) {
                    return Err("its checksum does not match: the file is damaged".into());
                }
                body
            }
            UNCHECKED => bytes,
            _ => {
                return Err(format!(
                    "network format {version}, this engine reads {UNCHECKED} and {VERSION}"
                ));
            }
        };
        let hidden = read_u32(bytes, &mut at)? as usize;
        if hidden != HIDDEN {
            return Err(format!("{hidden} hidden neurons, this engine has {HIDDEN}"));
        }
        let record_len = read_u32(bytes, &mut at)? as usize;
        let record = bytes
            .get(at..at + record_len)
            .ok_or("the file ends inside its record")?;
        let record = String::from_utf8(record.to_vec()).map_err(|_| "its record is not UTF-8")?;
        at += record_len;
        let weights = (INPUTS + 1) * HIDDEN + 2 * HIDDEN + 1;
        let body = &bytes[at..];
        if body.len() != 2 * weights {
            return Err(format!(
                "{} bytes of weights, expected {}",
                body.len(),
                2 * weights
            ));
        }
        let mut values = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut row = || {
            let mut r = [0_i16; HIDDEN];
            r.iter_mut().for_each(|v| *v = values.next().unwrap_or(0));
            r
        };
        let feature_weights: Vec<[i16; HIDDEN]> = (0..INPUTS).map(|_| row()).collect();
        let feature_bias = row();
        let mut output_weights = row().to_vec();
        output_weights.extend(row());
        let output_bias = values.next().unwrap_or(0);
        let net = Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            record,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The file of this network ([`Network::from_bytes`] reads it back).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(VERSION.to_le_bytes());
        bytes.extend(u32::try_from(HIDDEN).unwrap_or(0).to_le_bytes());
        bytes.extend(u32::try_from(self.record.len()).unwrap_or(0).to_le_bytes());
        bytes.extend(self.record.as_bytes());
        let values = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(std::iter::once(&self.output_bias));
        for v in values {
            bytes.extend(v.to_le_bytes());
        }
        let sum = fnv1a(&bytes);
        bytes.extend(sum.to_le_bytes());
        bytes
    }

    /// The overflow check of the quantisation: an accumulator (a bias plus at most 32
    /// columns) fits an i16, `v·w` of the output fits an i16 for `v ≤ QA`, and the output's
    /// sum of `v²·w` over both halves fits an i32.
    ///
    /// # Errors
    /// The first bound a weight breaks, named.
    pub fn check_ranges(&self) -> Result<(), String> {
        let mut problems = String::new();
        for i in 0..HIDDEN {
            let largest = self
                .feature_weights
                .iter()
                .map(|column| i64::from(column[i]).abs())
                .max()
                .unwrap_or(0);
            let bound = i64::from(self.feature_bias[i]).abs() + MAX_PIECES * largest;
            if bound > i64::from(i16::MAX) {
                let _ = write!(
                    problems,
                    "neuron {i}: bias {} + 32 x {largest} can overflow an i16 accumulator; ",
                    self.feature_bias[i]
                );
                break;
            }
        }
        if let Some(w) = self
            .output_weights
            .iter()
            .find(|&&w| i64::from(w).abs() * i64::from(QA) > i64::from(i16::MAX))
        {
            let _ = write!(problems, "output weight {w}: {QA} x it overflows an i16; ");
        }
        let worst: i64 = self
            .output_weights
            .iter()
            .map(|&w| i64::from(w).abs() * i64::from(QA * QA))
            .sum();
        if worst > i64::from(i32::MAX) {
            let _ = write!(
                problems,
                "the output's sum can reach {worst}, beyond an i32; "
            );
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "weights out of the quantisation's range: {}",
                problems.trim_end_matches("; ")
            ))
        }
    }

    /// A network of seeded random weights within the quantisation's bounds: for the tests of
    /// the accumulator and for measuring the inference's cost, which does not depend on what
    /// the weights are.
    #[must_use]
    pub fn random(seed: u64) -> Network {
        let mut state = seed | 1;
        let mut next = |range: i16| {
            // xorshift64*: enough for test weights.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33;
            let span = 2 * i64::from(range) + 1;
            i16::try_from(i64::try_from(r).unwrap_or(0) % span - i64::from(range)).unwrap_or(0)
        };
        let mut row = |range: i16| {
            let mut r = [0_i16; HIDDEN];
            r.iter_mut().for_each(|v| *v = next(range));
            r
        };
        let feature_weights = (0..INPUTS).map(|_| row(300)).collect();
        let feature_bias = row(200);
        let mut output_weights = row(100).to_vec();
        output_weights.extend(row(100));
        Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias: 0,
            record: format!("random = {seed}\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_reads_back_what_it_wrote() {
        let net = Network::random(7);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn a_truncated_damaged_or_foreign_file_is_refused() {
        let bytes = Network::random(7).to_bytes();
        let short = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
        assert!(short.contains("checksum does not match"), "{short}");
        // One weight's byte flipped: the weights still fit, the checksum does not.
        let mut flipped = bytes.clone();
        let weight = bytes.len() - 8 - 100;
        flipped[weight] ^= 0x01;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(e.contains("damaged"), "{e}");
        assert!(Network::from_bytes(b"NNUEv1..").is_err());
        assert!(Network::from_bytes(&bytes[..14]).is_err());
    }

    /// A file of version 1 (no checksum, as the embedded network) still reads, to the same
    /// network; its length is still checked.
    #[test]
    fn a_file_without_a_checksum_still_reads() {
        let net = Network::random(7);
        let mut old = net.to_bytes();
        old.truncate(old.len() - 8);
        old[8..12].copy_from_slice(&UNCHECKED.to_le_bytes());
        assert_eq!(Network::from_bytes(&old).unwrap(), net);
        let short = Network::from_bytes(&old[..old.len() - 2]).unwrap_err();
        assert!(short.contains("bytes of weights"), "{short}");
    }

    /// The bounds follow from the integer widths: a bias b and 32 columns of at most m fit an
    /// i16 when b + 32·m ≤ 32767.
    #[test]
    fn weights_that_could_overflow_are_refused() {
        let mut net = Network::random(7);
        net.feature_weights[5][3] = 1100; // 32 x 1100 > 32767
        let e = net.check_ranges().unwrap_err();
        assert!(e.contains("neuron 3"), "{e}");
        let mut net = Network::random(7);
        net.output_weights[0] = 200; // 255 x 200 > 32767
        assert!(
            net.check_ranges()
                .unwrap_err()
                .contains("output weight 200")
        );
        let net = Network::random(7);
        assert_eq!(net.check_ranges(), Ok(()));
    }
}
