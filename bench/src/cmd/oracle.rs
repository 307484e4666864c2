//! `cutlab oracle`: the regret of the move each variant chooses, judged by an oracle that
//! scores every root move: an internal full-width search (no forward pruning, no reductions)
//! or any UCI engine with MultiPV set to the number of legal moves. regret_cp = oracle score of
//! the oracle's best move - oracle score of the chosen move. The oracle's scores are cached in
//! `<out stem>.oracle.csv`, so variants and reruns never pay for the oracle twice.

use std::{collections::HashMap, path::Path, time::Duration};

use clap::Args;
use cutlab_analysis::rows::RegretRow;
use cutlab_search::{Limits, Position, Search, SearchConfig, position::uci, score::MATE};
use cutlab_suites::SuitePosition;
use serde::{Deserialize, Serialize};
use shakmaty::{Position as _, san::San};

use crate::common::{
    configs::write_variant_configs,
    results::{missing_searches, searched},
};
use crate::uci::client::UciEngine;

/// Options of `cutlab oracle`.
#[derive(Args, Debug, Serialize)]
pub struct OracleArgs {
    /// Positions, models and the variants compared.
    #[command(flatten)]
    #[serde(flatten)]
    compared: crate::common::options::Compared,
    /// Time per chosen move, milliseconds.
    #[arg(long, default_value_t = 1000, conflicts_with_all = ["depth", "nodes"], value_parser = crate::common::options::milliseconds)]
    time_ms: u64,
    /// Fixed depth per chosen move instead of time.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Fixed nodes per chosen move instead of time: every variant the same effort, and rows
    /// that repeat on any machine.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// `internal:depth=D` (a full-width search, which should search deeper than the choices it
    /// judges: refused at a fixed `--depth` above D, and the run says how many choices searched
    /// as deep as D or deeper) or
    /// `uci:COMMAND[,depth=D][,nodes=N][,movetime=MS]`.
    #[arg(long, default_value = "internal:depth=5")]
    oracle: String,
    /// Threads, table, output, resume, shard.
    #[command(flatten)]
    #[serde(flatten)]
    run: crate::common::options::RunOptions,
}

/// How root moves are scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Oracle {
    /// Full-width search of each root move to this depth.
    Internal {
        /// Depth of the root (each move searched at depth - 1).
        depth: i32,
    },
    /// An external UCI engine with MultiPV.
    Uci {
        /// Command line.
        command: String,
        /// The `go` limit, e.g. `depth 12`.
        limit: String,
    },
}

/// Parses an oracle specification.
///
/// # Errors
/// An unknown form or a malformed number.
pub fn parse_oracle(spec: &str) -> Result<Oracle, String> {
    let bad = |why: &str| format!("--oracle '{spec}': {why}");
    if let Some(rest) = spec.strip_prefix("internal:") {
        let depth = rest
            .strip_prefix("depth=")
            .and_then(|d| d.parse::<i32>().ok())
            .filter(|d| (1..=20).contains(d))
            .ok_or_else(|| bad("expected internal:depth=D with D in 1..20"))?;
        return Ok(Oracle::Internal { depth });
    }
    if let Some(rest) = spec.strip_prefix("uci:") {
        let mut parts = rest.split(',');
        let command = parts
            .next()
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| bad("no command"))?;
        let mut limit = String::from("depth 12");
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| bad("options are key=value"))?;
            value
                .parse::<u64>()
                .map_err(|_| bad("option values are numbers"))?;
            limit = match key {
                "depth" | "nodes" | "movetime" => format!("{key} {value}"),
                other => return Err(bad(&format!("unknown option '{other}'"))),
            };
        }
        return Ok(Oracle::Uci {
            command: command.trim().to_string(),
            limit,
        });
    }
    Err(bad(
        "expected internal:depth=D or uci:COMMAND[,depth=D][,nodes=N]",
    ))
}

/// A cached oracle score.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct OracleRow {
    oracle: String,
    position: String,
    #[serde(rename = "move")]
    mv: String,
    score_cp: i32,
}

const REGRET_CLAMP: i32 = 2000;

/// Scores every root move with the internal full-width search.
fn internal_scores(search: &mut Search, pos: &Position, depth: i32) -> Vec<(String, i32)> {
    pos.chess()
        .legal_moves()
        .iter()
        .map(|&m| {
            let child = pos.play(m);
            let score = if child.chess().legal_moves().is_empty() {
                if child.in_check() { MATE - 1 } else { 0 }
            } else {
                let d = depth - 1 + i32::from(child.in_check());
                search.clear();
                -search
                    .go(&child, &[pos.key()], &Limits::depth(d.max(1)), &mut |_| {})
                    .score
            };
            (uci(m), score)
        })
        .collect()
}

fn external_scores(
    engine: &mut UciEngine,
    pos: &Position,
    limit: &str,
) -> Result<Vec<(String, i32)>, String> {
    let moves = pos.chess().legal_moves().len();
    engine.set_option("MultiPV", &moves.to_string())?;
    engine.send("ucinewgame")?;
    engine.ready()?;
    let scores = engine.multipv(&pos.fen(), limit, Duration::from_secs(600))?;
    Ok(scores
        .into_iter()
        .map(|s| (s.first_move, s.score_cp))
        .collect())
}

fn load_cache(path: &Path, spec: &str) -> Result<HashMap<String, Vec<(String, i32)>>, String> {
    let mut cache: HashMap<String, Vec<(String, i32)>> = HashMap::new();
    // A row a killed run left cut short is not in the cache (its position is scored again).
    for row in cutlab_analysis::rows::read_if_stored::<OracleRow>(path)? {
        if row.oracle == spec {
            cache
                .entry(row.position)
                .or_default()
                .push((row.mv, row.score_cp));
        }
    }
    Ok(cache)
}

fn san_matches(pos: &Position, chosen: &str, list: &[String]) -> bool {
    let Ok(m) = pos.parse_uci(chosen) else {
        return false;
    };
    let san = San::from_move(pos.chess(), m).to_string();
    list.iter()
        .any(|s| s.trim_end_matches(['+', '#', '!', '?']) == san)
}

/// How one worker scores root moves: its own full-width search and, for a UCI oracle, its own
/// engine (started by the first position it scores).
struct Scorer {
    internal: Search,
    external: Option<Result<UciEngine, String>>,
}

impl Scorer {
    fn scores(&mut self, oracle: &Oracle, pos: &Position) -> Result<Vec<(String, i32)>, String> {
        match oracle {
            Oracle::Internal { depth } => Ok(internal_scores(&mut self.internal, pos, *depth)),
            Oracle::Uci { command, limit } => {
                let engine = self
                    .external
                    .get_or_insert_with(|| UciEngine::start(command))
                    .as_mut()
                    .map_err(|e| e.clone())?;
                external_scores(engine, pos, limit)
            }
        }
    }
}

/// Phase 1: the oracle's scores of every root move of the positions it has not scored yet,
/// appended to the cache as each position is done.
fn score_missing(
    args: &OracleArgs,
    oracle: &Oracle,
    missing: &[&SuitePosition],
    cache_path: &Path,
    cache: &mut HashMap<String, Vec<(String, i32)>>,
) -> Result<(), String> {
    let mut writer = crate::common::results::appender::<OracleRow>(cache_path)?;
    let bar = crate::common::progress::bar(missing.len() as u64, "positions scored by the oracle");
    crate::common::parallel::run(
        missing,
        args.run.threads,
        || {
            Ok(Scorer {
                // Exact full-width values: no forward pruning, no reductions, no TT cut-offs.
                internal: Search::new(SearchConfig::exact(), args.run.hash_mb)?,
                external: None,
            })
        },
        |scorer, p| {
            scorer
                .scores(oracle, &p.position())
                .map(|s| (p.id.clone(), s))
        },
        |scored| {
            let (position, scores) = scored?;
            let rows = scores.iter().map(|(mv, score_cp)| OracleRow {
                oracle: args.oracle.clone(),
                position: position.clone(),
                mv: mv.clone(),
                score_cp: *score_cp,
            });
            crate::common::results::write_rows(&mut writer, cache_path, rows)?;
            cache.insert(position, scores);
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    Ok(())
}

/// The regret of the move `variant` chooses in `p`, or why there is none.
fn regret(
    search: &mut Search,
    p: &SuitePosition,
    variant: &str,
    limits: &Limits,
    scores: &[(String, i32)],
) -> Result<RegretRow, String> {
    let pos = p.position();
    search.clear();
    let result = search.go(&pos, &[], limits, &mut |_| {});
    let chosen = result
        .best_move
        .map(uci)
        .ok_or_else(|| format!("{}: {variant} chose no move; row skipped", p.id))?;
    let (oracle_move, oracle_score) = scores
        .iter()
        .max_by_key(|(_, s)| *s)
        .cloned()
        .ok_or_else(|| format!("{}: the oracle scored no move; row skipped", p.id))?;
    let &(_, chosen_score) = scores.iter().find(|(m, _)| *m == chosen).ok_or_else(|| {
        format!(
            "{}: the oracle did not score the chosen move {chosen}; row skipped",
            p.id
        )
    })?;
    let clamp = |s: i32| s.clamp(-REGRET_CLAMP, REGRET_CLAMP);
    let solved = (!p.best_moves.is_empty() || !p.avoid_moves.is_empty()).then(|| {
        (p.best_moves.is_empty() || san_matches(&pos, &chosen, &p.best_moves))
            && !san_matches(&pos, &chosen, &p.avoid_moves)
    });
    Ok(RegretRow {
        position: p.id.clone(),
        variant: variant.to_string(),
        stage: p.stage.name().to_string(),
        chosen_move: chosen,
        chosen_score_cp: chosen_score,
        oracle_move,
        oracle_score_cp: oracle_score,
        regret_cp: clamp(oracle_score) - clamp(chosen_score),
        depth: result.depth,
        nodes: result.nodes,
        solved,
    })
}

/// Runs the oracle experiment: the oracle's scores first (phase 1), then each variant's
/// choice and its regret (phase 2), both spread over `--threads`.
pub fn run(args: &OracleArgs) -> Result<(), String> {
    let oracle = parse_oracle(&args.oracle)?;
    // Regret is judged from above: an oracle shallower than the choices it judges is refused
    // (one as deep is the oracle's own check, a variant judged by itself: its run warns).
    if let (Oracle::Internal { depth: judge }, Some(judged)) = (&oracle, args.depth)
        && *judge < judged
    {
        return Err(format!(
            "--oracle {}: searches shallower than the choices it judges (--depth {judged}): \
             give internal:depth=D with D above {judged}, or a UCI oracle",
            args.oracle
        ));
    }
    let (names, configs) = args.compared.configs()?;
    let variants: Vec<&str> = names.iter().map(String::as_str).collect();
    args.run.check_out(&args.compared.suite)?;
    let suite = args.compared.suite.load()?;
    let positions = crate::common::shard::shard(&suite.positions, args.run.shard);
    let mut rows: Vec<RegretRow> =
        crate::common::results::resume_rows(&args.run.out, args.run.resume)?;

    let cache_path = args.run.out.with_extension("oracle.csv");
    let mut cache = load_cache(&cache_path, &args.oracle)?;
    // Rows are written only after their position is scored, so a kept row whose position this
    // oracle has not scored was judged by another oracle: mixing them would be silently wrong.
    if let Some(row) = rows.iter().find(|r| !cache.contains_key(&r.position)) {
        return Err(format!(
            "{}: position {} was judged by another oracle than '{}' (see {}); pass that \
             --oracle to resume, or remove the file",
            args.run.out.display(),
            row.position,
            args.oracle,
            cache_path.display()
        ));
    }
    let missing: Vec<&SuitePosition> = positions
        .iter()
        .copied()
        .filter(|p| !cache.contains_key(&p.id))
        .collect();
    if !missing.is_empty() {
        score_missing(args, &oracle, &missing, &cache_path, &mut cache)?;
    }

    let done = searched(&rows);
    let work = missing_searches(&positions, &variants, &done);
    write_variant_configs(&args.run, "oracle", args, &variants, &configs, &suite)?;
    let mut writer = crate::common::results::appender::<RegretRow>(&args.run.out)?;
    let limits = match (args.depth, args.nodes) {
        (Some(depth), _) => Limits::depth(depth),
        (None, Some(nodes)) => Limits::nodes(nodes),
        (None, None) => Limits::movetime(args.time_ms),
    };
    let bar = crate::common::progress::bar(work.len() as u64, "choices");
    crate::common::parallel::searches(
        &work,
        (args.run.threads, args.run.hash_mb),
        &configs,
        |search, p, v| regret(search, p, variants[v], &limits, &cache[&p.id]),
        |row| {
            bar.inc(1);
            match row {
                Ok(row) => {
                    crate::common::results::write_rows(&mut writer, &args.run.out, [&row])?;
                    rows.push(row);
                }
                Err(skipped) => bar.println(&skipped),
            }
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    print!(
        "\n{}",
        cutlab_analysis::tables::regret(&rows, &variants).render()
    );
    if let Oracle::Internal { depth } = oracle
        && let Some(note) = judged_from_below(&rows, depth)
    {
        println!("\n{note}");
    }
    Ok(())
}

/// How far the internal oracle's depth stands above the choices it judged: the judged
/// depths' range and how many reached the oracle's own depth or more (whose regret it judges
/// from below, a warning); `None` without rows.
pub(crate) fn judged_from_below(rows: &[RegretRow], oracle_depth: i32) -> Option<String> {
    let deepest = rows.iter().map(|r| r.depth).max()?;
    let shallowest = rows.iter().map(|r| r.depth).min()?;
    let below = rows.iter().filter(|r| r.depth >= oracle_depth).count();
    Some(if below == 0 {
        format!(
            "The oracle searched to depth {oracle_depth}, {} plies deeper than the deepest \
             choice it judged (depths {shallowest} to {deepest}).",
            oracle_depth - deepest
        )
    } else {
        format!(
            "Warning: the oracle searched to depth {oracle_depth}, and {below} of the \
             {} choices it judged searched as deep or deeper (depths {shallowest} to \
             {deepest}): their regret is judged from below. Give --oracle \
             internal:depth={} or more, or a UCI oracle.",
            rows.len(),
            deepest + 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oracle_says_how_far_above_the_judged_choices_it_searched() {
        let row = |depth: i32| RegretRow {
            depth,
            ..RegretRow::default()
        };
        let above = judged_from_below(&[row(3), row(4)], 6).unwrap();
        assert!(
            above.contains("2 plies deeper") && above.contains("depths 3 to 4"),
            "{above}"
        );
        let below = judged_from_below(&[row(3), row(5), row(7)], 5).unwrap();
        assert!(
            below.contains("2 of the 3 choices") && below.contains("internal:depth=8"),
            "{below}"
        );
        assert!(judged_from_below(&[], 5).is_none());
    }

    #[test]
    fn oracle_specs_parse() {
        assert_eq!(
            parse_oracle("internal:depth=6").unwrap(),
            Oracle::Internal { depth: 6 }
        );
        assert_eq!(
            parse_oracle("uci:/usr/games/stockfish,nodes=100000").unwrap(),
            Oracle::Uci {
                command: "/usr/games/stockfish".into(),
                limit: "nodes 100000".into()
            }
        );
        assert!(parse_oracle("internal:depth=x").is_err());
        assert!(parse_oracle("uci:sf,speed=3").is_err());
        assert!(parse_oracle("magic").is_err());
    }
}
