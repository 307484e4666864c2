//! A minimal UCI client for external engines (oracles, match opponents): start, handshake,
//! options, `go` with MultiPV, and the final score of every principal variation.

use std::time::Duration;

use crate::common::engine_process::EngineProcess;

/// A running UCI engine.
pub struct UciEngine {
    process: EngineProcess,
    id_name: String,
}

/// Score of one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvScore {
    /// The PV's first move, UCI.
    pub first_move: String,
    /// Centipawns, or a mate score in cutlab's convention (± (31000 - plies)).
    pub score_cp: i32,
}

impl UciEngine {
    /// Starts `command` (split on whitespace) and completes the `uci`/`isready` handshake.
    ///
    /// # Errors
    /// The engine does not start or does not answer within 10 s.
    pub fn start(command: &str) -> Result<UciEngine, String> {
        let mut engine = UciEngine {
            process: EngineProcess::start(command)?,
            id_name: String::new(),
        };
        engine.send("uci")?;
        let greeting = engine.wait_for("uciok", Duration::from_secs(10))?;
        engine.id_name = greeting
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .unwrap_or(command)
            .trim()
            .to_string();
        engine.ready()?;
        Ok(engine)
    }

    /// The name the engine gave in `id name`.
    #[must_use]
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// The engine's stdin is closed (it died).
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.process.send(line)
    }

    /// Lines up to and including the first starting with `prefix`.
    ///
    /// # Errors
    /// Timeout or the engine's output closed.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, String> {
        self.process.wait_for(prefix, timeout)
    }

    /// `isready` → `readyok`.
    ///
    /// # Errors
    /// As [`UciEngine::wait_for`].
    pub fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(30)).map(drop)
    }

    /// Sets an option.
    ///
    /// # Errors
    /// As [`UciEngine::send`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Searches `fen` with `go <limit>` and returns the last score of each MultiPV line.
    ///
    /// # Errors
    /// The engine dies or does not answer `bestmove` within `timeout`.
    pub fn multipv(
        &mut self,
        fen: &str,
        limit: &str,
        timeout: Duration,
    ) -> Result<Vec<PvScore>, String> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go {limit}"))?;
        let lines = self.wait_for("bestmove", timeout)?;
        let mut by_index: std::collections::BTreeMap<u32, PvScore> =
            std::collections::BTreeMap::new();
        for line in &lines {
            if let Some((index, score)) = parse_info(line) {
                by_index.insert(index, score);
            }
        }
        Ok(by_index.into_values().collect())
    }
}

/// Parses an `info ... multipv K score cp|mate N ... pv M ...` line (bounds are skipped).
#[must_use]
pub fn parse_info(line: &str) -> Option<(u32, PvScore)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return None;
    }
    let after = |key: &str| {
        words
            .iter()
            .position(|&w| w == key)
            .and_then(|i| words.get(i + 1))
    };
    let index = after("multipv").map_or(Some(1), |v| v.parse().ok())?;
    let first_move = after("pv")?.to_string();
    let kind = after("score")?;
    let i = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    let score_cp = match *kind {
        "cp" => value,
        "mate" if value > 0 => cutlab_search::score::MATE - (2 * value - 1),
        "mate" => -cutlab_search::score::MATE + 2 * (-value),
        _ => return None,
    };
    Some((
        index,
        PvScore {
            first_move,
            score_cp,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let (i, s) =
            parse_info("info depth 10 seldepth 12 multipv 2 score cp -35 nodes 1 pv e2e4 e7e5")
                .unwrap();
        assert_eq!((i, s.first_move.as_str(), s.score_cp), (2, "e2e4", -35));
        let (_, s) = parse_info("info depth 5 score mate 2 pv a1a8").unwrap();
        assert_eq!(s.score_cp, cutlab_search::score::MATE - 3);
        let (_, s) = parse_info("info depth 5 score mate -1 pv a1a8").unwrap();
        assert_eq!(s.score_cp, -cutlab_search::score::MATE + 2);
        assert!(parse_info("info depth 5 score cp 10 lowerbound pv a1a8").is_none());
        assert!(parse_info("info string hello").is_none());
    }
}
