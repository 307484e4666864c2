//! Keeps a seeded sample of the cut decisions a search took, with the position (FEN), window
//! and depth, for verification by a re-search with forward pruning off.

use serde::{Deserialize, Serialize};

use crate::{
    CutOutcome, CutTestEvent, Method, Observer,
    csv_sink::{sampled, splitmix64},
};

/// One sampled cut decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CutSample {
    /// Position id (as set by the caller).
    pub position: String,
    /// Node id in that position's search.
    pub node_id: u64,
    /// The node's position.
    pub fen: String,
    /// The method that cut.
    pub method: Method,
    /// Remaining depth at the node.
    pub depth: i32,
    /// Window lower bound, centipawns.
    pub alpha: i32,
    /// Window upper bound, centipawns.
    pub beta: i32,
    /// The bound the test compared with.
    pub bound: i32,
    /// The shallow value.
    pub shallow_value: i32,
    /// The claim: cut high (value >= beta), cut low (value <= alpha), or a pruned move
    /// (its value <= alpha).
    pub outcome: CutOutcome,
    /// The move a move-level test pruned, UCI.
    #[serde(default)]
    pub pruned_move: Option<String>,
}

/// The share of each method's cuts to sample: one rate for every method, and others for the
/// methods named. Written `R` or `R,METHOD=R,...` (`0.002,probcut=1`: every ProbCut cut and
/// one in 500 of the others', such as the quiescence futility every preset has and that
/// prunes a hundred times as often).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VerifyRates {
    /// The rate of the methods not named.
    pub default: f64,
    /// The named methods' rates.
    pub methods: Vec<(Method, f64)>,
}

impl VerifyRates {
    /// The same rate for every method.
    #[must_use]
    pub fn all(rate: f64) -> VerifyRates {
        VerifyRates {
            default: rate,
            methods: Vec::new(),
        }
    }

    /// The rate of `method`.
    #[must_use]
    pub fn of(&self, method: Method) -> f64 {
        self.methods
            .iter()
            .find(|(m, _)| *m == method)
            .map_or(self.default, |&(_, rate)| rate)
    }

    /// Whether any cut is sampled.
    #[must_use]
    pub fn any(&self) -> bool {
        self.default > 0.0 || self.methods.iter().any(|&(_, rate)| rate > 0.0)
    }
}

impl std::str::FromStr for VerifyRates {
    type Err = String;

    fn from_str(text: &str) -> Result<VerifyRates, String> {
        let rate = |r: &str| match r.trim().parse::<f64>() {
            Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => Err(format!("'{r}' is not a rate between 0 and 1")),
        };
        let mut parts = text.split(',');
        let mut rates = VerifyRates::all(rate(parts.next().unwrap_or_default())?);
        for part in parts {
            let (name, r) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not METHOD=RATE"))?;
            let method = Method::from_name(name.trim())
                .ok_or_else(|| format!("'{}' is not a method (`cutlab variants`)", name.trim()))?;
            if rates.methods.iter().any(|(m, _)| *m == method) {
                return Err(format!("{} is given twice", method.name()));
            }
            rates.methods.push((method, rate(r)?));
        }
        Ok(rates)
    }
}

impl std::fmt::Display for VerifyRates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.default)?;
        for (method, rate) in &self.methods {
            write!(f, ",{}={rate}", method.name())?;
        }
        Ok(())
    }
}

impl Serialize for VerifyRates {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The sampling observer (cut-test events only).
#[derive(Debug, Default)]
pub struct CutSampler {
    rates: VerifyRates,
    seed: u64,
    position: String,
    /// A hash of the position id: the sample of one position does not depend on which
    /// positions were searched before it (shards draw the cuts one process would).
    position_key: u64,
    /// The sampled decisions, in search order.
    pub samples: Vec<CutSample>,
}

impl CutSampler {
    /// Keeps each cut of a method with probability its rate, reproducibly for a `seed`.
    #[must_use]
    pub fn new(rates: VerifyRates, seed: u64) -> CutSampler {
        CutSampler {
            rates,
            seed,
            position: String::new(),
            position_key: 0,
            samples: Vec::new(),
        }
    }

    /// Names the position of the next search.
    pub fn set_position(&mut self, id: &str) {
        id.clone_into(&mut self.position);
        self.position_key = id.bytes().fold(0, |h, b| splitmix64(h ^ u64::from(b)));
    }
}

impl Observer for CutSampler {
    const NODE_EVENTS: bool = false;

    fn cut_test(&mut self, e: &CutTestEvent, fen: &dyn Fn() -> String) {
        let key = self.position_key ^ e.node_id ^ u64::from(e.test_index).rotate_left(40);
        if !e.outcome.is_cut() || e.ply == 0 || !sampled(self.seed, key, self.rates.of(e.method)) {
            return;
        }
        self.samples.push(CutSample {
            position: self.position.clone(),
            node_id: e.node_id,
            fen: fen(),
            method: e.method,
            depth: e.depth,
            alpha: e.alpha,
            beta: e.beta,
            bound: e.bound,
            shallow_value: e.shallow_value,
            outcome: e.outcome,
            pruned_move: e.pruned_move.clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeType;

    fn cut(method: Method, node_id: u64) -> CutTestEvent {
        CutTestEvent {
            node_id,
            ply: 3,
            node_type: NodeType::Cut,
            alpha: 0,
            beta: 1,
            method,
            depth: 4,
            shallow_depth: 1,
            bound: 1,
            shallow_value: 5,
            outcome: CutOutcome::CutHigh,
            nodes: 10,
            pruned_move: None,
            test_index: 0,
        }
    }

    #[test]
    fn rates_are_read_and_written_back() {
        let rates: VerifyRates = "0.002, probcut=1".parse().unwrap();
        assert_eq!(rates.of(Method::ProbCut), 1.0);
        assert_eq!(rates.of(Method::QsearchFutility), 0.002);
        assert_eq!(rates.to_string(), "0.002,probcut=1");
        assert_eq!(
            "0.05".parse::<VerifyRates>().unwrap(),
            VerifyRates::all(0.05)
        );
        assert!(!"0".parse::<VerifyRates>().unwrap().any());
        for (bad, says) in [
            ("1.5", "between 0 and 1"),
            ("0.1,probcut", "METHOD=RATE"),
            ("0.1,pcut=1", "not a method"),
            ("0.1,mpc=1,mpc=0.5", "twice"),
        ] {
            let error = bad.parse::<VerifyRates>().unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    /// Every ProbCut cut and none of quiescence futility's, whatever their order.
    #[test]
    fn each_method_is_sampled_at_its_rate() {
        let mut sampler = CutSampler::new("0,probcut=1".parse().unwrap(), 7);
        let fen = String::new;
        for node in 1..=200 {
            sampler.cut_test(&cut(Method::QsearchFutility, node), &fen);
            sampler.cut_test(&cut(Method::ProbCut, node), &fen);
        }
        assert_eq!(sampler.samples.len(), 200);
        assert!(sampler.samples.iter().all(|s| s.method == Method::ProbCut));
    }
}
