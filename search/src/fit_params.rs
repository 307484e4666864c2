//! Fitted ProbCut models: the file `cutlab fit` writes and `--params FILE` loads, and the
//! built-in default (`default_params.toml`, regenerable by the command in its header).

use std::{path::Path, sync::LazyLock};

use cutlab_instrument::Stage;
use serde::{Deserialize, Serialize};

use crate::{
    config::{ConfigError, SearchConfig},
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

/// The built-in parameters.
pub static DEFAULT: LazyLock<FitParams> = LazyLock::new(|| {
    toml::from_str(include_str!("default_params.toml"))
        .unwrap_or_else(|e| unreachable!("built-in default_params.toml is valid: {e}"))
});

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_parameters_cover_the_paper_pairs() {
        for (s, d) in crate::pruning::mpc::PAPER_PAIRS {
            for stage in [Stage::Middlegame, Stage::Endgame] {
                let m = DEFAULT.model(s, d, stage).expect("fitted");
                assert!(
                    m.a > 0.5 && m.a < 1.5 && m.sigma > 0.0,
                    "{s},{d} {stage:?}: {m:?}"
                );
            }
        }
    }
}
