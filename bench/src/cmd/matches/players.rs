//! The two sides of a match: an engine spec from `--engine` words, and a running player, our
//! own search in process or an external engine speaking UCI or xboard.

use std::time::Duration;

use cutlab_search::{Limits, Position, Search, SearchConfig, position::uci};

use super::{
    turn::{Answer, Control, Reply},
    xboard::XboardEngine,
};
use crate::uci::client::UciEngine;

/// How one side is played.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Name in the PGN and the report.
    pub name: String,
    /// Our variant, played in process.
    pub variant: Option<SearchConfig>,
    /// An external engine's command.
    pub command: Option<String>,
    /// The protocol the external engine speaks.
    pub protocol: Protocol,
    /// Options for the external engine (UCI `setoption`; xboard `option`, `Hash` as `memory`).
    pub options: Vec<(String, String)>,
    /// Transposition table of our variant, MiB (`option.Hash`; 16 unless given).
    pub hash_mib: usize,
    /// Nodes per move of this engine alone (`nodes=N`, with `--nodes`): one side searching
    /// twice the other's nodes measures what a doubling of effort is worth in Elo.
    pub nodes: Option<u64>,
}

/// The protocol of an external engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (`uci=COMMAND`).
    Uci,
    /// xboard, CECP version 2 (`xboard=COMMAND`).
    Xboard,
}

/// Parses one engine's `--engine` words: `variant=`|`uci=`|`xboard=`, `name=`,
/// `option.NAME=`, and `params=FILE` (a fitted parameter file applied to the variant's models).
pub fn parse_engine(words: &[String]) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        name: String::new(),
        variant: None,
        command: None,
        protocol: Protocol::Uci,
        options: Vec::new(),
        hash_mib: 16,
        nodes: None,
    };
    let mut params = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine: '{word}' is not key=value"))?;
        match key {
            "variant" => {
                spec.variant = Some(SearchConfig::resolve(value).map_err(|e| e.to_string())?);
                if spec.name.is_empty() {
                    spec.name = SearchConfig::canonical_name(value);
                }
            }
            "uci" | "cmd" | "xboard" => {
                spec.command = Some(value.trim_matches('"').to_string());
                if key == "xboard" {
                    spec.protocol = Protocol::Xboard;
                }
                if spec.name.is_empty() {
                    spec.name = value.rsplit('/').next().unwrap_or(value).to_string();
                }
            }
            "name" => spec.name = value.to_string(),
            "nodes" => {
                spec.nodes = Some(
                    crate::common::options::count_up_to::<u64>(1 << 40)(value)
                        .map_err(|e| format!("--engine: nodes={value}: {e}"))?,
                );
            }
            "params" => params = Some(value.to_string()),
            option if option.starts_with("option.") => {
                spec.options
                    .push((option["option.".len()..].to_string(), value.to_string()));
            }
            other => return Err(format!("--engine: unknown key '{other}'")),
        }
    }
    if spec.variant.is_some() == spec.command.is_some() {
        return Err(
            "--engine needs exactly one of variant=NAME, uci=COMMAND and xboard=COMMAND".into(),
        );
    }
    if spec.variant.is_some() {
        take_variant_options(&mut spec)?;
    }
    if let Some(path) = params {
        let config = spec
            .variant
            .as_mut()
            .ok_or("--engine: params= applies to a variant, not to an external engine")?;
        let fitted = cutlab_search::fit_params::FitParams::load(std::path::Path::new(&path))?;
        config.apply_params(&fitted).map_err(|e| e.to_string())?;
    }
    Ok(spec)
}

/// Moves the options of an in-process variant into the spec: `Hash` (MiB) is the one it has;
/// any other option is refused rather than ignored.
fn take_variant_options(spec: &mut EngineSpec) -> Result<(), String> {
    for (name, value) in std::mem::take(&mut spec.options) {
        if !name.eq_ignore_ascii_case("Hash") {
            return Err(format!(
                "--engine: option.{name}: a variant takes only option.Hash (MiB)"
            ));
        }
        spec.hash_mib = value
            .parse()
            .ok()
            .filter(|mib| (1..=65_536).contains(mib))
            .ok_or_else(|| {
                format!("--engine: option.Hash={value}: not a size from 1 to 65536 MiB")
            })?;
    }
    Ok(())
}

/// Whether `spec`'s engine can play under `control` (an xboard engine has no fixed nodes).
///
/// # Errors
/// It cannot, and why.
pub fn check_control(spec: &EngineSpec, control: Control) -> Result<(), String> {
    if spec.nodes.is_some() && !matches!(control, Control::Nodes(_)) {
        return Err(format!(
            "{}: nodes= sets an engine's own nodes per move, with --nodes for the other",
            spec.name
        ));
    }
    if spec.variant.is_none() && spec.protocol == Protocol::Xboard {
        super::xboard::level(control).map_err(|e| format!("{}: {e}", spec.name))?;
    }
    Ok(())
}

/// A running player.
pub enum Player {
    /// Our search, with its own TT.
    Internal(Box<Search>),
    /// An external UCI engine.
    Uci(UciEngine),
    /// An external xboard engine.
    Xboard(XboardEngine),
}

impl Player {
    /// Starts the player of `spec`.
    pub fn start(spec: &EngineSpec) -> Result<Player, String> {
        if let Some(config) = &spec.variant {
            return Ok(Player::Internal(Box::new(Search::new(
                config.clone(),
                spec.hash_mib,
            )?)));
        }
        let command = spec.command.as_deref().unwrap_or_default();
        if spec.protocol == Protocol::Xboard {
            return Ok(Player::Xboard(XboardEngine::start(command, &spec.options)?));
        }
        let mut engine = UciEngine::start(command)?;
        for (name, value) in &spec.options {
            engine.set_option(name, value)?;
        }
        engine.send("ucinewgame")?;
        engine.ready()?;
        Ok(Player::Uci(engine))
    }

    /// Clears what the player learnt (a new game).
    pub fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Internal(search) => {
                search.clear();
                Ok(())
            }
            Player::Uci(engine) => {
                engine.send("ucinewgame")?;
                engine.ready()
            }
            Player::Xboard(engine) => engine.new_game(),
        }
    }

    /// The move the player chooses after `moves` from `start_fen` (`game`: the positions so
    /// far, last the current one), with the clocks and control.
    pub fn play(
        &mut self,
        start_fen: &str,
        moves: &[String],
        game: &[Position],
        clocks: [u64; 2],
        control: Control,
        inc: u64,
    ) -> Reply {
        let limits = match control {
            Control::Clock { .. } => Limits {
                wtime_ms: Some(clocks[0]),
                btime_ms: Some(clocks[1]),
                winc_ms: Some(inc),
                binc_ms: Some(inc),
                move_overhead_ms: 20,
                ..Limits::default()
            },
            Control::Nodes(n) => Limits::nodes(n),
            Control::Movetime(ms) => Limits::movetime(ms),
        };
        match self {
            Player::Internal(search) => {
                let Some((pos, before)) = game.split_last() else {
                    return Err("empty game".into());
                };
                let keys: Vec<u64> = before.iter().map(Position::key).collect();
                let result = search.go(pos, &keys, &limits, &mut |_| {});
                result
                    .best_move
                    .map(|m| Answer::Move(uci(m), Some(result.score)))
                    .ok_or_else(|| "no move".into())
            }
            Player::Xboard(engine) => engine.play(start_fen, moves, game, clocks, control),
            Player::Uci(engine) => {
                let position = if moves.is_empty() {
                    format!("position fen {start_fen}")
                } else {
                    format!("position fen {start_fen} moves {}", moves.join(" "))
                };
                engine.send(&position)?;
                let go = match control {
                    Control::Clock { .. } => format!(
                        "go wtime {} btime {} winc {inc} binc {inc}",
                        clocks[0], clocks[1]
                    ),
                    Control::Nodes(n) => format!("go nodes {n}"),
                    Control::Movetime(ms) => format!("go movetime {ms}"),
                };
                engine.send(&go)?;
                let budget = match control {
                    Control::Clock { .. } => clocks[0].max(clocks[1]) + 5_000,
                    Control::Nodes(_) => 120_000,
                    Control::Movetime(ms) => ms + 5_000,
                };
                let lines = engine.wait_for("bestmove", Duration::from_millis(budget))?;
                let score = lines
                    .iter()
                    .rev()
                    .find_map(|l| crate::uci::client::parse_info(l))
                    .map(|(_, s)| s.score_cp);
                let best = lines
                    .last()
                    .and_then(|l| l.split_whitespace().nth(1))
                    .unwrap_or("0000")
                    .to_string();
                Ok(Answer::Move(best, score))
            }
        }
    }
}
