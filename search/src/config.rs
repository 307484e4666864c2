//! The search configuration: which reductions and forward-pruning methods are on, with every
//! parameter, as one serde struct written next to every result. Named presets (variants) build
//! it: parts joined by `+`, e.g. `null-move+lmr` or `null-move-adaptive` (earlier names such as
//! `nmp` are aliases).

use std::{fmt, path::Path};

use serde::{Deserialize, Serialize};

use crate::{
    prob_ab::{self, ProbAbParams},
    pruning::{
        futility::{self, FutilityParams},
        history_pruning::{self, HistoryPruningParams},
        iir::{self, IirParams},
        lmp::{self, LmpParams},
        mpc::{self, MpcParams},
        multicut::{self, MultiCutParams},
        null_move::{self, NullMoveParams},
        probcut::{self, ProbCutParams},
        qsearch_futility::QsearchFutilityParams,
        razoring::{self, RazoringParams},
        rfp::{self, RfpParams},
        see_pruning::{self, SeePruningParams},
        sf_probcut::{self, SfProbCutParams},
        sf_probcut_in_check::{self, SfProbCutInCheckParams},
        singular::{self, SingularParams},
    },
    search::{
        AspirationParams,
        lmr::{self, LmrParams},
    },
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
    /// Futility pruning of captures in the quiescence search. On in every preset: it belongs
    /// to the quiescence search every method stands on, like the skipping of losing captures.
    /// Off (absent) in the exact search of the soundness tests and the internal oracle, and in
    /// configuration files written before it existed.
    #[serde(default)]
    pub qsearch_futility: Option<QsearchFutilityParams>,
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
    /// The static evaluation (absent in files of the classical evaluation, and of earlier
    /// versions).
    #[serde(default, skip_serializing_if = "Eval::is_classical")]
    pub eval: Eval,
    /// The network file of `eval = "nnue"` (absent: the network embedded in the engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
}

/// Which static evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Eval {
    /// The hand-written evaluation of [`crate::eval`].
    #[default]
    Classical,
    /// The network of [`crate::nnue`].
    Nnue,
}

impl Eval {
    /// Whether this is the classical evaluation.
    #[must_use]
    pub fn is_classical(&self) -> bool {
        *self == Eval::Classical
    }
}

impl Default for SearchConfig {
    /// The engine's default for play: `null-move+lmr`.
    fn default() -> Self {
        SearchConfig::preset(DEFAULT_VARIANT).unwrap_or_else(|_| SearchConfig::plain())
    }
}

/// The variant the UCI engine and `bench` use unless told otherwise.
pub const DEFAULT_VARIANT: &str = "null-move+lmr";

/// A preset part: a name that `+` joins into a variant, what it switches on, and how. Each
/// method's file exports its parts as `PRESET_PARTS` and [`preset_parts`] lists them all, so
/// adding a method is its file, a [`SearchConfig`] field, a `Method` and a step line.
#[derive(Clone, Copy)]
pub struct PresetPart {
    /// Its one name.
    pub name: &'static str,
    /// What `cutlab variants` prints beside it, written from the parameters it sets.
    pub describe: fn() -> String,
    /// How it switches itself on.
    pub apply: Apply,
}

/// How a preset part switches itself on.
#[derive(Clone, Copy)]
pub enum Apply {
    /// Sets its parameters, whatever else the variant holds; takes no argument.
    On(fn(&mut SearchConfig)),
    /// Sets them unless they conflict with a part already applied (`Err` says with what);
    /// takes no argument.
    Checked(fn(&mut SearchConfig) -> Result<(), String>),
    /// Takes `name@ARG` (the text says what ARG is) or none; `Err` says what is wrong with it.
    WithArgument(
        &'static str,
        fn(&mut SearchConfig, Option<&str>) -> Result<(), String>,
    ),
}

impl Apply {
    /// Switches the part on in `config`, with `argument` when the part takes one.
    fn to(self, config: &mut SearchConfig, argument: Option<&str>) -> Result<(), String> {
        match self {
            Apply::On(set) => {
                set(config);
                Ok(())
            }
            Apply::Checked(set) => set(config),
            Apply::WithArgument(_, set) => set(config, argument),
        }
    }
}

/// The parts that are no method: `plain` (nothing), the named stack `modern`, and `nnue`,
/// the evaluation.
const STACK_PARTS: [PresetPart; 3] = [
    PresetPart {
        name: "plain",
        describe: || "no forward pruning in the main search, no reductions".into(),
        apply: Apply::On(|_| {}),
    },
    PresetPart {
        name: "modern",
        describe: || {
            format!(
                "a current engine's stack: {}",
                MODERN_STACK.replace('+', ", ")
            )
        },
        // `preset` spells the stack out into its parts before applying them.
        apply: Apply::On(|_| {}),
    },
    PresetPart {
        name: "nnue",
        describe: || {
            "the network evaluates instead of the classical evaluation (nnue@FILE: a network \
             file written by `cutlab train`)"
                .into()
        },
        // Named twice (`nnue@FILE+nnue`), the second once silently dropped the first's file.
        apply: Apply::WithArgument("FILE", |config, file| {
            if config.eval == Eval::Nnue {
                return Err("names the evaluation twice; give nnue or nnue@FILE once".into());
            }
            config.evaluate_with_network(file)
        }),
    },
];

/// What a preset part is: a forward-pruning method (or reduction, or extension), the
/// evaluation, or a named stack of methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// A method of the search: what an ablation measures.
    Method,
    /// The static evaluation (`nnue`, `nnue@FILE`): what every variant of a study shares.
    Evaluation,
    /// A name for several parts (`plain`, `modern`).
    Stack,
}

/// The kind of the preset part `part` (its name, with or without `@ARG`).
#[must_use]
pub fn part_kind(part: &str) -> PartKind {
    let name = part.split('@').next().unwrap_or(part).trim();
    if name == "nnue" {
        PartKind::Evaluation
    } else if STACK_PARTS.iter().any(|p| p.name == name) {
        PartKind::Stack
    } else {
        PartKind::Method
    }
}

/// Every preset part, in the order `cutlab variants` prints them: the stacks, the papers'
/// methods, then `modern`'s parts in the order of the search's steps.
pub fn preset_parts() -> impl Iterator<Item = &'static PresetPart> {
    STACK_PARTS
        .iter()
        .chain(&null_move::PRESET_PARTS)
        .chain(&probcut::PRESET_PARTS)
        .chain(&mpc::PRESET_PARTS)
        .chain(&multicut::PRESET_PARTS)
        .chain(&prob_ab::PRESET_PARTS)
        .chain(&lmr::PRESET_PARTS)
        .chain(&razoring::PRESET_PARTS)
        .chain(&rfp::PRESET_PARTS)
        .chain(&sf_probcut::PRESET_PARTS)
        .chain(&iir::PRESET_PARTS)
        .chain(&sf_probcut_in_check::PRESET_PARTS)
        .chain(&lmp::PRESET_PARTS)
        .chain(&futility::PRESET_PARTS)
        .chain(&history_pruning::PRESET_PARTS)
        .chain(&see_pruning::PRESET_PARTS)
        .chain(&singular::PRESET_PARTS)
}

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
            qsearch_futility: None,
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
            qsearch_futility: Some(QsearchFutilityParams::default()),
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
            eval: Eval::Classical,
            network: None,
        }
    }

    /// Builds a preset from its name: parts from [`preset_parts`] joined by `+`.
    ///
    /// # Errors
    /// Unknown parts, an argument a part does not take or cannot read, or two parts of one
    /// kind (two null-move rules, two Multi-Cut rules, ProbCut and MPC).
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
            let (base, argument) = match part.split_once('@') {
                Some((base, argument)) => (base, Some(argument)),
                None => (part, None),
            };
            let found = preset_parts()
                .find(|p| p.name == base)
                .filter(|p| argument.is_none() || matches!(p.apply, Apply::WithArgument(..)));
            let Some(preset_part) = found else {
                let known: Vec<&str> = preset_parts().map(|p| p.name).collect();
                return Err(ConfigError(format!(
                    "unknown variant part '{part}' in '{name}' (known: {})",
                    known.join(", ")
                )));
            };
            preset_part
                .apply
                .to(&mut config, argument)
                .map_err(|reason| {
                    ConfigError(if argument.is_some() {
                        format!("'{part}': {reason}")
                    } else {
                        format!("'{name}' {reason}")
                    })
                })?;
        }
        // ProbCut and MPC cut with the models fitted under the variant's evaluation.
        config.use_built_in_models()?;
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
            let mut value = kebab_keys(toml::Value::Table(table));
            // Files of earlier versions gave quiescence futility as a bare margin.
            if let toml::Value::Table(table) = &mut value
                && let Some(margin) = table.remove("qsearch-futility-cp")
            {
                let params = toml::Table::from_iter([("margin".to_string(), margin)]);
                table.insert("qsearch-futility".into(), toml::Value::Table(params));
            }
            let config: SearchConfig = value.try_into().map_err(|e| error(&e))?;
            config.network().map_err(|e| error(&e))?;
            return Ok(config);
        }
        SearchConfig::preset(name_or_path)
    }

    /// The network this configuration evaluates with (`None`: the classical evaluation),
    /// loaded once per process and shared ([`crate::nnue::network()`]): the one place a search
    /// gets its network, so that a file that cannot be loaded is an error where the
    /// configuration is used, never the classical evaluation in its place.
    ///
    /// # Errors
    /// The network file cannot be read or is not a network (the message names it).
    pub fn network(&self) -> Result<Option<std::sync::Arc<crate::nnue::Network>>, String> {
        match self.eval {
            Eval::Classical => Ok(None),
            Eval::Nnue => crate::nnue::network(self.network.as_deref()).map(Some),
        }
    }

    /// Evaluates with the network of `file` (`None`: the embedded one), loaded now.
    ///
    /// # Errors
    /// The network cannot be loaded (named): the configuration stays as it was.
    pub fn evaluate_with_network(&mut self, file: Option<&str>) -> Result<(), String> {
        let mut with = self.clone();
        with.eval = Eval::Nnue;
        with.network = file.map(str::to_string);
        with.network()?;
        *self = with;
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
    use cutlab_instrument::Stage;

    use super::*;

    /// A part's kind is read off the parts themselves: the evaluation with or without its
    /// file, the named stacks, and every method else.
    #[test]
    fn a_part_knows_its_kind() {
        assert_eq!(part_kind("nnue"), PartKind::Evaluation);
        assert_eq!(part_kind("nnue@nets/x.nnue"), PartKind::Evaluation);
        assert_eq!(part_kind("modern"), PartKind::Stack);
        assert_eq!(part_kind("plain"), PartKind::Stack);
        assert_eq!(part_kind("rfp"), PartKind::Method);
        assert_eq!(part_kind("mpc@1:1.2"), PartKind::Method);
    }

    /// Every part builds alone and names itself; its description is written from the
    /// parameters it sets (so it cannot keep a number the method's `Default` no longer has).
    #[test]
    fn every_part_builds_and_describes_itself() {
        let names: Vec<&str> = preset_parts().map(|p| p.name).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
            let config = SearchConfig::preset(name).unwrap();
            assert_eq!(config.name, *name);
        }
        let describe = |name: &str| (preset_parts().find(|p| p.name == name).unwrap().describe)();
        assert!(
            describe("rfp").contains(&format!("- {} (depth", RfpParams::default().margin_per_ply))
        );
        assert!(describe("lmp").contains(&format!("({} + depth²)", LmpParams::default().base)));
        assert!(describe("sf-probcut").contains(&format!(
            "beta + {} - {} improving",
            SfProbCutParams::default().margin,
            SfProbCutParams::default().improving
        )));
        assert!(
            SearchConfig::preset("rfp@3").is_err(),
            "rfp takes no argument"
        );
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
        let narrow = SearchConfig::preset("lmr+prob-ab@0.5:15")
            .unwrap()
            .prob_ab
            .unwrap();
        assert_eq!((narrow.confidence, narrow.sigma), (0.5, 15.0));
        for bad in ["prob-ab@0.5:-1", "prob-ab@0.5:wide", "prob-ab@2:15"] {
            assert!(SearchConfig::preset(bad).is_err(), "{bad}");
        }
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
        // Earlier files gave quiescence futility as a bare margin at the top.
        let without = SearchConfig {
            qsearch_futility: None,
            ..modern.clone()
        };
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
        let snake = std::iter::once("qsearch_futility_cp = 120".to_string())
            .chain(
                without
                    .to_toml()
                    .lines()
                    .map(|l| match l.split_once(" = ") {
                        Some((key, value)) => format!("{} = {value}", key.replace('-', "_")),
                        None => l.replace("null-move", "null_move"),
                    }),
            )
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&old, snake).unwrap();
        let read = SearchConfig::resolve(old.to_str().unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read, modern);
    }

    /// The evaluation named twice is refused, whichever carries the file: the second `nnue`
    /// once dropped the first's network.
    #[test]
    fn the_evaluation_named_twice_is_refused() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/embedded.nnue");
        for name in [
            "null-move+nnue+nnue".to_string(),
            format!("nnue@{file}+nnue"),
            format!("nnue+nnue@{file}"),
        ] {
            let e = SearchConfig::preset(&name).unwrap_err().to_string();
            assert!(e.contains("names the evaluation twice"), "{name}: {e}");
        }
        assert!(SearchConfig::preset("null-move+lmr+nnue").is_ok());
    }

    #[test]
    fn toml_round_trip() {
        let c = SearchConfig::preset("null-move-adaptive+lmr+mpc").unwrap();
        let back: SearchConfig = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(back, c);
    }
}
