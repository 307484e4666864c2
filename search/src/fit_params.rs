//! Fitted ProbCut models: the file `cutlab fit` writes and `--params FILE` loads, and the
//! built-in ones of each evaluation: the classical evaluation's (`default_params.toml`) and the
//! embedded network's (`nets/embedded.params.toml`), each regenerable by the commands in its
//! header. The models are the evaluation's: under the network σ is 1.2 to 1.5 times the
//! classical σ (results/probcut-regression-by-eval), so a cut bound fitted under one
//! evaluation errs more often than its threshold says under the other. A network from a file
//! has no fit of its own: it takes the classical models unless `--params` gives others.

use std::{path::Path, sync::LazyLock};

use cutlab_instrument::Stage;
use serde::{Deserialize, Serialize};

use crate::{
    config::{ConfigError, Eval, SearchConfig},
    pruning::probcut::LinearModel,
};

/// The fit of one depth pair in one stage: v(deep) = a·v'(shallow) + b + e.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairFit {
    /// Shallow depth d'.
    pub shallow: i32,
    /// Deep depth d.
    pub deep: i32,
    /// Game stage of the positions fitted.
    pub stage: Stage,
    /// Slope.
    pub a: f64,
    /// Offset, centipawns.
    pub b: f64,
    /// Residual standard deviation, centipawns.
    pub sigma: f64,
    /// Correlation coefficient of v' and v.
    pub r: f64,
    /// Number of (v', v) points fitted.
    pub n: u64,
}

/// A set of fitted pairs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitParams {
    /// Where the data came from (file and command).
    pub source: String,
    /// The fits.
    pub pairs: Vec<PairFit>,
}

impl FitParams {
    /// The model of a pair in a stage, if fitted.
    #[must_use]
    pub fn model(&self, shallow: i32, deep: i32, stage: Stage) -> Option<LinearModel> {
        self.pairs
            .iter()
            .find(|p| p.shallow == shallow && p.deep == deep && p.stage == stage)
            .map(|p| LinearModel {
                a: p.a,
                b: p.b,
                sigma: p.sigma,
            })
    }

    /// Reads a parameter file.
    ///
    /// # Errors
    /// Unreadable file or malformed TOML (the message names the file).
    pub fn load(path: &Path) -> Result<FitParams, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The built-in parameters of the classical evaluation.
pub static DEFAULT: LazyLock<FitParams> = LazyLock::new(|| {
    toml::from_str(include_str!("default_params.toml"))
        .unwrap_or_else(|e| unreachable!("built-in default_params.toml is valid: {e}"))
});

/// The built-in parameters of the embedded network.
pub static NETWORK: LazyLock<FitParams> = LazyLock::new(|| {
    toml::from_str(include_str!("../nets/embedded.params.toml"))
        .unwrap_or_else(|e| unreachable!("built-in embedded.params.toml is valid: {e}"))
});

/// The built-in parameters of an evaluation: the embedded network's own, the classical ones
/// for the classical evaluation and for a network from a file.
#[must_use]
pub fn built_in(eval: Eval, network: Option<&str>) -> &'static FitParams {
    match (eval, network) {
        (Eval::Nnue, None) => &NETWORK,
        _ => &DEFAULT,
    }
}

/// The built-in model of a pair; a pair that was not fitted gets the identity with a wide
/// error (a = 1, b = 0, σ = 200), which cuts rarely.
#[must_use]
pub fn default_model(shallow: i32, deep: i32, stage: Stage) -> LinearModel {
    DEFAULT.model(shallow, deep, stage).unwrap_or(LinearModel {
        a: 1.0,
        b: 0.0,
        sigma: 200.0,
    })
}

impl SearchConfig {
    /// Replaces the ProbCut and MPC models with fitted ones (`--params FILE`).
    ///
    /// # Errors
    /// A depth pair and stage the configuration uses but the file does not fit.
    pub fn apply_params(&mut self, params: &FitParams) -> Result<(), ConfigError> {
        let missing = |s: i32, d: i32, stage: Stage| {
            ConfigError(format!(
                "parameters from '{}' have no fit for pair ({s},{d}) in the {}",
                params.source,
                stage.name()
            ))
        };
        if let Some(p) = &mut self.probcut {
            let deep = p.deep_depth;
            for (stage, t) in [
                (Stage::Middlegame, &mut p.middlegame),
                (Stage::Endgame, &mut p.endgame),
            ] {
                t.model = params
                    .model(t.shallow_depth, deep, stage)
                    .ok_or_else(|| missing(t.shallow_depth, deep, stage))?;
            }
        }
        if let Some(m) = &mut self.mpc {
            for (stage, table) in [
                (Stage::Middlegame, &mut m.middlegame),
                (Stage::Endgame, &mut m.endgame),
            ] {
                for h in table.iter_mut() {
                    for t in &mut h.tries {
                        t.model = params
                            .model(t.shallow_depth, h.deep_depth, stage)
                            .ok_or_else(|| missing(t.shallow_depth, h.deep_depth, stage))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Gives ProbCut and MPC the built-in models of the configuration's evaluation
    /// ([`built_in`]).
    ///
    /// # Errors
    /// A depth pair and stage the configuration uses that the built-in models do not fit.
    pub fn use_built_in_models(&mut self) -> Result<(), ConfigError> {
        self.apply_params(built_in(self.eval, self.network.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_parameters_cover_the_paper_pairs() {
        for params in [&*DEFAULT, &*NETWORK] {
            for (s, d) in crate::pruning::mpc::PAPER_PAIRS {
                for stage in [Stage::Middlegame, Stage::Endgame] {
                    let m = params.model(s, d, stage).expect("fitted");
                    assert!(
                        m.a > 0.5 && m.a < 1.5 && m.sigma > 0.0,
                        "{}: {s},{d} {stage:?}: {m:?}",
                        params.source
                    );
                }
            }
        }
    }

    /// ProbCut and MPC under the embedded network cut with the network's models, whichever
    /// order the parts are given in; under a network from a file, with the classical ones;
    /// `--params` still has the last word.
    #[test]
    fn each_evaluation_has_its_own_models() {
        let probcut = |variant: &str| {
            let c = SearchConfig::preset(variant).unwrap();
            let p = c.probcut.expect("probcut");
            (p.middlegame.model, p.endgame.model)
        };
        let expected = |params: &FitParams| {
            let p = crate::pruning::probcut::ProbCutParams::paper();
            let model = |stage| params.model(p.for_stage(stage).shallow_depth, p.deep_depth, stage);
            (model(Stage::Middlegame), model(Stage::Endgame))
        };
        let (net_mg, net_eg) = expected(&NETWORK);
        let (classical_mg, classical_eg) = expected(&DEFAULT);
        assert_ne!(net_mg, classical_mg);
        for variant in ["null-move+probcut+nnue", "nnue+null-move+probcut"] {
            assert_eq!(
                probcut(variant),
                (net_mg.unwrap(), net_eg.unwrap()),
                "{variant}"
            );
        }
        assert_eq!(
            probcut("null-move+probcut"),
            (classical_mg.unwrap(), classical_eg.unwrap())
        );
        let mpc = SearchConfig::preset("mpc+nnue").unwrap().mpc.expect("mpc");
        for (stage, table) in [
            (Stage::Middlegame, &mpc.middlegame),
            (Stage::Endgame, &mpc.endgame),
        ] {
            for h in table {
                for t in &h.tries {
                    assert_eq!(
                        Some(t.model),
                        NETWORK.model(t.shallow_depth, h.deep_depth, stage)
                    );
                }
            }
        }
        let path = std::env::temp_dir().join(format!("cutlab-fit-{}.nnue", std::process::id()));
        std::fs::write(&path, crate::nnue::Network::random(1).to_bytes()).unwrap();
        let from_file = probcut(&format!("probcut+nnue@{}", path.display()));
        std::fs::remove_file(&path).ok();
        assert_eq!(from_file, (classical_mg.unwrap(), classical_eg.unwrap()));
        let mut c = SearchConfig::preset("probcut+nnue").unwrap();
        c.apply_params(&DEFAULT).unwrap();
        assert_eq!(c.probcut.unwrap().middlegame.model, classical_mg.unwrap());
    }
}
