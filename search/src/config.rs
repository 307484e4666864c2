//! The search configuration: which reductions and forward-pruning methods are on, with every
//! parameter, as one serde struct written next to every result. Named presets (variants) build
//! it: parts joined by `+`, e.g. `null-move+lmr` or `null-move-adaptive` (earlier names such as
//! `nmp` are aliases).

use cutlab_instrument::Stage;
use std::{fmt, path::Path};

use serde::{Deserialize, Serialize};

use crate::{
    fit_params::FitParams,
    prob_ab::ProbAbParams,
    pruning::{
        futility::FutilityParams, history_pruning::HistoryPruningParams, iir::IirParams,
        lmp::LmpParams, mpc::MpcParams, multicut::MultiCutParams, null_move::NullMoveParams,
        probcut::ProbCutParams, razoring::RazoringParams, rfp::RfpParams,
        see_pruning::SeePruningParams, sf_probcut::SfProbCutParams,
        sf_probcut_in_check::SfProbCutInCheckParams, singular::SingularParams,
    },
    search::{AspirationParams, lmr::LmrParams},
};

/// Everything that changes the shape of the search tree.
///
/// A method's key is its one name, the same in presets, CSV files and docs (`null-move`,
/// `probcut`, `mpc`, `sf-probcut`, `multicut`, `prob-ab`), and every key of a configuration
/// file is in that one case, kebab (`[null-move]` then `min-depth`). Files of earlier
/// versions, whose parameters were snake-case, are read the same ([`SearchConfig::resolve`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SearchConfig {
    /// The variant name this configuration was built from.
    pub name: String,
    /// Late move reductions, when on (the 2003 Crafty baseline had none).
    #[serde(default)]
    pub lmr: Option<LmrParams>,
    /// Aspiration windows of iterative deepening.
    #[serde(default)]
    pub aspiration: AspirationParams,
    /// Cap of the history bonus depth² of a quiet move that cuts off (and of the malus of the
    /// quiet moves tried before it).
    #[serde(default = "default_history_bonus_max")]
    pub history_bonus_max: i32,
    /// Cut off on transposition-table bounds. Off only for soundness tests: with it off a
    /// search of depth d returns exactly the depth-d minimax value.
    #[serde(default = "yes")]
    pub tt_cutoffs: bool,
    /// Margin of the quiescence search's futility pruning of captures, centipawns (Stockfish
    /// 15.1's `futilityBase`; see `search/quiescence.rs`). On in every preset: it belongs to the
    /// quiescence search every method stands on, like the skipping of losing captures. Off
    /// (absent) in the exact search of the soundness tests and the internal oracle, and in
    /// configuration files written before it existed.
    #[serde(default)]
    pub qsearch_futility_cp: Option<i32>,
    /// Null-move pruning, when on.
    #[serde(default)]
    pub null_move: Option<NullMoveParams>,
    /// Single-pair ProbCut, when on.
    #[serde(default)]
    pub probcut: Option<ProbCutParams>,
    /// Multi-ProbCut, when on.
    #[serde(default)]
    pub mpc: Option<MpcParams>,
    /// Stockfish-style ProbCut, when on.
    #[serde(default)]
    pub sf_probcut: Option<SfProbCutParams>,
    /// Multi-Cut (any trigger), when on.
    #[serde(default)]
    pub multicut: Option<MultiCutParams>,
    /// Futility pruning at frontier and pre-frontier nodes, when on.
    #[serde(default)]
    pub futility: Option<FutilityParams>,
    /// Late move (move-count) pruning, when on.
    #[serde(default)]
    pub lmp: Option<LmpParams>,
    /// SEE pruning in the main search, when on.
    #[serde(default)]
    pub see_pruning: Option<SeePruningParams>,
    /// History pruning, when on.
    #[serde(default)]
    pub history_pruning: Option<HistoryPruningParams>,
    /// Singular extensions with the multi-cut return, when on.
    #[serde(default)]
    pub singular: Option<SingularParams>,
    /// Razoring, when on.
    #[serde(default)]
    pub razoring: Option<RazoringParams>,
    /// Reverse futility pruning (static null move), when on.
    #[serde(default)]
    pub rfp: Option<RfpParams>,
    /// Internal iterative reductions, when on.
    #[serde(default)]
    pub iir: Option<IirParams>,
    /// Stockfish's small ProbCut in check, when on.
    #[serde(default)]
    pub sf_probcut_in_check: Option<SfProbCutInCheckParams>,
    /// Probabilistic alpha-beta instead of PVS, when on.
    #[serde(default)]
    pub prob_ab: Option<ProbAbParams>,
}

impl Default for SearchConfig {
    /// The engine's default for play: `null-move+lmr`.
    fn default() -> Self {
        SearchConfig::preset(DEFAULT_VARIANT).unwrap_or_else(|_| SearchConfig::plain())
    }
}

/// The variant the UCI engine and `bench` use unless told otherwise.
pub const DEFAULT_VARIANT: &str = "null-move+lmr";

/// The preset parts a variant name may join with `+`.
pub const PRESET_PARTS: [(&str, &str); 24] = [
    (
        "plain",
        "no forward pruning in the main search, no reductions",
    ),
    (
        "null-move",
        "null-move pruning, R = 2 (Crafty 18.15 as Jiang and Buro describe it)",
    ),
    ("null-move-r3", "null-move pruning, R = 3"),
    (
        "null-move-modern",
        "adaptive null move tried only when static eval >= beta (the modern gate)",
    ),
    (
        "modern",
        "a current engine's stack: null-move-modern, lmr, rfp, razoring, futility, lmp, see-pruning, history-pruning, sf-probcut, sf-probcut-in-check, singular, iir",
    ),
    (
        "null-move-adaptive",
        "null-move pruning, R = 3 above depth 6 (8 in endgames), else 2 (Heinz)",
    ),
    (
        "null-move-verified",
        "verified null-move pruning, R = 3 (Tabibi and Netanyahu)",
    ),
    (
        "probcut",
        "ProbCut, depth pair (4,8), t = 1.0 (Jiang and Buro figure 2); probcut@TMID:TEND sets t",
    ),
    (
        "mpc",
        "Multi-ProbCut, pairs (2,6) (3,7) (4,8) (3,9) (4,10), t = 1.0 (Jiang and Buro); mpc@TMID:TEND sets t",
    ),
    (
        "sf-probcut",
        "Stockfish 15.1 ProbCut: captures, qsearch pre-test, depth-4 search, margin beta + 96 - 27 improving (Stockfish's 191 - 54, halved)",
    ),
    (
        "multicut",
        "Multi-Cut at expected CUT nodes, M = 6, C = 3, R = 2 (Bjornsson and Marsland)",
    ),
    (
        "multicut-all",
        "Multi-Cut also at expected ALL nodes, M = 10, C = 3 there (Winands et al.)",
    ),
    (
        "multicut-tt",
        "Multi-Cut when the TT has a shallow lower bound >= beta (Eiriksson)",
    ),
    (
        "prob-ab",
        "probabilistic alpha-beta, p = 0.5; prob-ab@0.95 sets p (also --confidence, UCI Confidence)",
    ),
    ("lmr", "late move reductions"),
    (
        "rfp",
        "reverse futility pruning: static eval - 83 (depth - improving) >= beta, depth <= 7 (Stockfish 15.1, margin halved)",
    ),
    (
        "futility",
        "futility pruning: quiet moves at depth 1 (2) when eval + 300 (500) <= alpha (Heinz 1998)",
    ),
    (
        "lmp",
        "late move pruning: quiet moves once (3 + depth²) / (2 - improving) moves are counted (Stockfish 15.1)",
    ),
    (
        "see-pruning",
        "SEE pruning: captures below -111 depth, quiets below -(12 d² + 8 d) (Stockfish 15.1, margins halved)",
    ),
    (
        "history-pruning",
        "history pruning: quiets with continuation history < -700 (depth - 1) at lmr depth <= 4 (Stockfish 15.1, rescaled)",
    ),
    (
        "singular",
        "singular extensions of the TT move with the multi-cut return (Stockfish 15.1 step 15)",
    ),
    (
        "razoring",
        "razoring: static eval < alpha - 185 - 127 depth², confirmed by quiescence (Stockfish 15.1, halved)",
    ),
    (
        "iir",
        "internal iterative reductions: no TT move, PV node -3 plies, CUT node (depth >= 9) -2 (Stockfish 15.1)",
    ),
    (
        "sf-probcut-in-check",
        "in check, a TT capture lower bound >= beta + 209 returns (Stockfish 15.1 step 12, margin halved)",
    ),
];

/// The forward-pruning stack of a current engine, as preset parts: `modern` stands for it.
/// Parameters are each method's source's (Stockfish 15.1, Heinz); `cutlab ablate --stack
/// modern` measures what each part buys.
pub const MODERN_STACK: &str = "null-move-modern+lmr+rfp+razoring+futility+lmp+see-pruning+\
                                history-pruning+sf-probcut+sf-probcut-in-check+singular+iir";

/// Earlier names of preset parts, still accepted: (alias, part).
pub const PRESET_ALIASES: [(&str, &str); 4] = [
    ("nmp", "null-move"),
    ("nmp-r3", "null-move-r3"),
    ("nmp-adaptive", "null-move-adaptive"),
    ("nmp-verified", "null-move-verified"),
];

/// A preset part as the parts it stands for: a named stack (`modern`) spelled out, any other
/// part itself.
fn spelled_out(part: &str) -> Vec<&str> {
    match part {
        "modern" => MODERN_STACK.split('+').collect(),
        other => vec![other],
    }
}

/// A preset part under its one name (an alias becomes the part it stands for).
fn canonical_part(part: &str) -> &str {
    PRESET_ALIASES
        .iter()
        .find(|(alias, _)| *alias == part)
        .map_or(part, |(_, name)| name)
}

/// The cut thresholds of `probcut@T` or `mpc@TMID:TEND` (one value sets both stages).
fn parse_thresholds(part: &str, text: &str) -> Result<(f64, f64), ConfigError> {
    let bad = || {
        ConfigError(format!(
            "'{part}': expected a threshold T or TMID:TEND, each a positive number"
        ))
    };
    let one = |t: &str| t.parse::<f64>().ok().filter(|t| *t > 0.0).ok_or_else(bad);
    match text.split_once(':') {
        Some((mid, end)) => Ok((one(mid)?, one(end)?)),
        None => one(text).map(|t| (t, t)),
    }
}

/// A variant name or file that could not be turned into a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn yes() -> bool {
    true
}

/// `value` with every table key in kebab case (`_` read as `-`).
fn kebab_keys(value: toml::Value) -> toml::Value {
    match value {
        toml::Value::Table(table) => toml::Value::Table(
            table
                .into_iter()
                .map(|(key, v)| (key.replace('_', "-"), kebab_keys(v)))
                .collect(),
        ),
        toml::Value::Array(items) => {
            toml::Value::Array(items.into_iter().map(kebab_keys).collect())
        }
        other => other,
    }
}

/// The quiescence futility margin of every preset, centipawns.
pub const QSEARCH_FUTILITY_CP: i32 = 120;

const fn default_history_bonus_max() -> i32 {
    1200
}

impl SearchConfig {
    /// The exact full-width search: plain alpha-beta with no TT cut-offs and a quiescence
    /// search that skips only losing captures. A search of depth d returns the depth-d
    /// minimax value (the soundness tests, the internal oracle).
    #[must_use]
    pub fn exact() -> SearchConfig {
        SearchConfig {
            tt_cutoffs: false,
            qsearch_futility_cp: None,
            ..SearchConfig::plain()
        }
    }

    /// Plain alpha-beta: no forward pruning in the main search, no reductions.
    #[must_use]
    pub fn plain() -> SearchConfig {
        SearchConfig {
            name: "plain".to_string(),
            lmr: None,
            aspiration: AspirationParams::default(),
            history_bonus_max: default_history_bonus_max(),
            tt_cutoffs: true,
            qsearch_futility_cp: Some(QSEARCH_FUTILITY_CP),
            null_move: None,
            probcut: None,
            mpc: None,
            sf_probcut: None,
            multicut: None,
            singular: None,
            futility: None,
            lmp: None,
            see_pruning: None,
            history_pruning: None,
            razoring: None,
            rfp: None,
            iir: None,
            sf_probcut_in_check: None,
            prob_ab: None,
        }
    }

    /// Builds a preset from its name: parts from [`PRESET_PARTS`] joined by `+`.
    ///
    /// # Errors
    /// Unknown parts, or two null-move parts.
    pub fn preset(name: &str) -> Result<SearchConfig, ConfigError> {
        let mut config = SearchConfig::plain();
        let canonical: Vec<String> = name
            .split('+')
            .map(|part| match part.trim().split_once('@') {
                Some((base, suffix)) => format!("{}@{suffix}", canonical_part(base)),
                None => canonical_part(part.trim()).to_string(),
            })
            .collect();
        config.name = canonical.join("+");
        for part in canonical.iter().flat_map(|part| spelled_out(part)) {
            let (part, thresholds) = match part.split_once('@') {
                Some((base @ ("probcut" | "mpc"), t)) => (base, Some(parse_thresholds(part, t)?)),
                _ => (part, None),
            };
            let null_move = match part {
                "plain" => None,
                "null-move" => Some(NullMoveParams::fixed(2)),
                "null-move-r3" => Some(NullMoveParams::fixed(3)),
                "null-move-adaptive" => Some(NullMoveParams::adaptive()),
                "null-move-verified" => Some(NullMoveParams::verified()),
                "null-move-modern" => Some(NullMoveParams {
                    eval_above_beta: true,
                    ..NullMoveParams::adaptive()
                }),
                "lmr" => {
                    config.lmr = Some(LmrParams::default());
                    None
                }
                "multicut" | "multicut-all" | "multicut-tt" if config.multicut.is_some() => {
                    return Err(ConfigError(format!("'{name}' names two Multi-Cut rules")));
                }
                "multicut" => {
                    config.multicut = Some(MultiCutParams::cut_nodes());
                    None
                }
                "multicut-all" => {
                    config.multicut = Some(MultiCutParams::all_nodes());
                    None
                }
                "multicut-tt" => {
                    config.multicut = Some(MultiCutParams::tt_triggered());
                    None
                }
                "prob-ab" => {
                    config.prob_ab = Some(ProbAbParams::default());
                    None
                }
                part if part.starts_with("prob-ab@") => {
                    let p = part["prob-ab@".len()..].parse::<f64>().map_err(|_| {
                        ConfigError(format!("'{part}': expected prob-ab@P with P in (0, 1)"))
                    })?;
                    config.prob_ab = Some(ProbAbParams::default());
                    config.set_confidence(p)?;
                    None
                }
                "sf-probcut" => {
                    config.sf_probcut = Some(SfProbCutParams::default());
                    None
                }
                "rfp" => {
                    config.rfp = Some(RfpParams::default());
                    None
                }
                "razoring" => {
                    config.razoring = Some(RazoringParams::default());
                    None
                }
                "singular" => {
                    config.singular = Some(SingularParams::default());
                    None
                }
                "futility" => {
                    config.futility = Some(FutilityParams::default());
                    None
                }
                "lmp" => {
                    config.lmp = Some(LmpParams::default());
                    None
                }
                "see-pruning" => {
                    config.see_pruning = Some(SeePruningParams::default());
                    None
                }
                "history-pruning" => {
                    config.history_pruning = Some(HistoryPruningParams::default());
                    None
                }
                "iir" => {
                    config.iir = Some(IirParams::default());
                    None
                }
                "sf-probcut-in-check" => {
                    config.sf_probcut_in_check = Some(SfProbCutInCheckParams::default());
                    None
                }
                "probcut" | "mpc" if config.probcut.is_some() || config.mpc.is_some() => {
                    return Err(ConfigError(format!("'{name}' names two ProbCut methods")));
                }
                "probcut" => {
                    let mut p = ProbCutParams::paper();
                    if let Some((mid, end)) = thresholds {
                        p.middlegame.threshold = mid;
                        p.endgame.threshold = end;
                    }
                    config.probcut = Some(p);
                    None
                }
                "mpc" => {
                    let mut m = MpcParams::paper();
                    if let Some((mid, end)) = thresholds {
                        m.set_threshold(Stage::Middlegame, mid);
                        m.set_threshold(Stage::Endgame, end);
                    }
                    config.mpc = Some(m);
                    None
                }
                other => {
                    let known: Vec<&str> = PRESET_PARTS.iter().map(|(n, _)| *n).collect();
                    return Err(ConfigError(format!(
                        "unknown variant part '{other}' in '{name}' (known: {})",
                        known.join(", ")
                    )));
                }
            };
            if let Some(params) = null_move {
                if config.null_move.is_some() {
                    return Err(ConfigError(format!("'{name}' names two null-move rules")));
                }
                config.null_move = Some(params);
            }
        }
        Ok(config)
    }

    /// The one name of a variant: a preset's parts under their current names (`nmp+mpc` is
    /// `null-move+mpc`); anything that is not a preset (a file) as given.
    #[must_use]
    pub fn canonical_name(variant: &str) -> String {
        SearchConfig::preset(variant).map_or_else(|_| variant.to_string(), |c| c.name)
    }

    /// Whether a move-level method (step 14a of the search) is on.
    #[must_use]
    pub fn prunes_moves(&self) -> bool {
        self.lmp.is_some()
            || self.futility.is_some()
            || self.history_pruning.is_some()
            || self.see_pruning.is_some()
    }

    /// The preset parts of a variant under their one names, named stacks (`modern`) spelled
    /// out: what `cutlab ablate` adds and removes one at a time.
    ///
    /// # Errors
    /// The variant is not a preset.
    pub fn parts(variant: &str) -> Result<Vec<String>, ConfigError> {
        SearchConfig::preset(variant)?;
        Ok(variant
            .split('+')
            .map(|part| canonical_part(part.trim()))
            .flat_map(spelled_out)
            .map(str::to_string)
            .collect())
    }

    /// A preset name, or the path of a TOML file holding a whole configuration. The file's
    /// keys are read in kebab case whatever case they were written in (`min_depth` is
    /// `min-depth`), so files of earlier versions still load.
    ///
    /// # Errors
    /// Unknown preset, unreadable file, or TOML that does not describe a configuration
    /// (the message names the file).
    pub fn resolve(name_or_path: &str) -> Result<SearchConfig, ConfigError> {
        let path = Path::new(name_or_path);
        if name_or_path.ends_with(".toml") || path.is_file() {
            let error = |e: &dyn fmt::Display| ConfigError(format!("{}: {e}", path.display()));
            let text = std::fs::read_to_string(path).map_err(|e| error(&e))?;
            let table: toml::Table = toml::from_str(&text).map_err(|e| error(&e))?;
            return kebab_keys(toml::Value::Table(table))
                .try_into()
                .map_err(|e| error(&e));
        }
        SearchConfig::preset(name_or_path)
    }

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

    /// Sets the confidence of probabilistic alpha-beta.
    ///
    /// # Errors
    /// The variant has no `prob-ab`, or `p` is not strictly between 0 and 1.
    pub fn set_confidence(&mut self, p: f64) -> Result<(), ConfigError> {
        if !(p > 0.0 && p < 1.0) {
            return Err(ConfigError(format!(
                "confidence must be strictly between 0 and 1, got {p}"
            )));
        }
        let params = self
            .prob_ab
            .as_mut()
            .ok_or_else(|| ConfigError(format!("variant '{}' has no prob-ab part", self.name)))?;
        params.confidence = p;
        Ok(())
    }

    /// The configuration as TOML, for writing next to results.
    #[must_use]
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("# not serialisable: {e}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `cutlab variants` prints beside `part`.
    fn description(part: &str) -> &'static str {
        PRESET_PARTS
            .iter()
            .find(|(name, _)| *name == part)
            .map(|(_, what)| *what)
            .unwrap()
    }

    /// The descriptions give the margins the presets use: they are written by hand beside each
    /// method's `Default`, and once kept Stockfish's numbers for a whole stop after the presets
    /// had halved them.
    #[test]
    fn preset_descriptions_give_the_presets_numbers() {
        let rfp = RfpParams::default();
        let razoring = RazoringParams::default();
        let sf_probcut = SfProbCutParams::default();
        let in_check = SfProbCutInCheckParams::default();
        let see = SeePruningParams::default();
        let history = HistoryPruningParams::default();
        let futility = FutilityParams::default();
        let lmp = LmpParams::default();
        for (part, numbers) in [
            (
                "rfp",
                format!(
                    "- {} (depth - improving) >= beta, depth <= {}",
                    rfp.margin_per_ply, rfp.max_depth
                ),
            ),
            (
                "razoring",
                format!(
                    "alpha - {} - {} depth²",
                    razoring.margin_base, razoring.margin_per_ply_squared
                ),
            ),
            (
                "sf-probcut",
                format!(
                    "beta + {} - {} improving",
                    sf_probcut.margin, sf_probcut.improving
                ),
            ),
            ("sf-probcut-in-check", format!("beta + {}", in_check.margin)),
            (
                "see-pruning",
                format!(
                    "below -{} depth, quiets below -({} d² + {} d)",
                    see.tactical_per_ply, see.quiet_quadratic, see.quiet_linear
                ),
            ),
            (
                "history-pruning",
                format!(
                    "< -{} (depth - 1) at lmr depth <= {}",
                    history.per_ply, history.max_lmr_depth
                ),
            ),
            (
                "futility",
                format!(
                    "depth 1 (2) when eval + {} ({})",
                    futility.frontier_margin, futility.pre_frontier_margin
                ),
            ),
            ("lmp", format!("({} + depth²)", lmp.base)),
        ] {
            assert!(
                description(part).contains(&numbers),
                "{part}: {:?} should contain {numbers:?}",
                description(part)
            );
        }
    }

    #[test]
    fn thresholds_are_set_per_stage() {
        let c = SearchConfig::preset("null-move+mpc@1.2:0.8").unwrap();
        let m = c.mpc.unwrap();
        assert!(
            m.tries(Stage::Middlegame, 8)
                .iter()
                .all(|t| t.threshold == 1.2)
        );
        assert!(
            m.tries(Stage::Endgame, 8)
                .iter()
                .all(|t| t.threshold == 0.8)
        );
        let p = SearchConfig::preset("probcut@1.5")
            .unwrap()
            .probcut
            .unwrap();
        assert_eq!((p.middlegame.threshold, p.endgame.threshold), (1.5, 1.5));
        for bad in ["mpc@", "mpc@x", "mpc@1:-1", "probcut@0"] {
            assert!(SearchConfig::preset(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn presets_compose() {
        let c = SearchConfig::preset("null-move+lmr").unwrap();
        assert!(c.lmr.is_some());
        // A named stack expands to its parts and keeps its name.
        let modern = SearchConfig::preset("modern").unwrap();
        let spelled = SearchConfig::preset(MODERN_STACK).unwrap();
        assert_eq!(modern.name, "modern");
        assert_eq!(
            SearchConfig {
                name: "modern".into(),
                ..spelled
            },
            modern
        );
        assert!(modern.null_move.unwrap().eval_above_beta && modern.singular.is_some());
        // Earlier names are aliases and come out under the one name.
        let old = SearchConfig::preset("nmp-adaptive+mpc@1.2").unwrap();
        assert_eq!(old.name, "null-move-adaptive+mpc@1.2");
        assert_eq!(
            old,
            SearchConfig::preset("null-move-adaptive+mpc@1.2").unwrap()
        );
        assert_eq!(c.null_move, Some(NullMoveParams::fixed(2)));
        assert!(SearchConfig::preset("plain").unwrap().null_move.is_none());
        assert!(SearchConfig::preset("nmp+null-move-r3").is_err());
        assert!(SearchConfig::preset("probcut+mpc").is_err());
        let karpov = SearchConfig::preset("prob-ab@0.95").unwrap();
        assert!((karpov.prob_ab.unwrap().confidence - 0.95).abs() < 1e-12);
        assert!(SearchConfig::preset("prob-ab@1.5").is_err());
        let mpc = SearchConfig::preset("null-move+mpc").unwrap();
        assert!(mpc.mpc.is_some() && mpc.null_move.is_some());
        let err = SearchConfig::preset("null-move+bogus").unwrap_err();
        assert!(err.0.contains("bogus"));
    }

    /// One case in a configuration file, and files of the earlier snake-case parameters still
    /// read the same.
    #[test]
    fn configuration_files_are_kebab_case_and_old_ones_load() {
        let modern = SearchConfig::preset("modern+multicut").unwrap();
        let text = modern.to_toml();
        assert!(
            text.contains("[null-move]") && text.contains("min-depth = "),
            "{text}"
        );
        assert!(
            !text
                .lines()
                .any(|l| l.split('=').next().unwrap().contains('_')),
            "{text}"
        );
        let dir = std::env::temp_dir().join(format!("cutlab-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.toml");
        let snake = text
            .lines()
            .map(|l| match l.split_once(" = ") {
                Some((key, value)) => format!("{} = {value}", key.replace('-', "_")),
                None => l.replace("null-move", "null_move"),
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&old, snake).unwrap();
        let read = SearchConfig::resolve(old.to_str().unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read, modern);
    }

    #[test]
    fn toml_round_trip() {
        let c = SearchConfig::preset("null-move-adaptive+lmr+mpc").unwrap();
        let back: SearchConfig = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(back, c);
    }
}
