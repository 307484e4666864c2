//! The UCI loop: reads commands from stdin, searches on a worker thread so that `isready` and
//! `stop` are answered during a search, and never panics on bad input: every malformed
//! command gets an `info string error: ...` line and the engine goes on.

use std::{
    io::{self, BufRead, Write},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread::JoinHandle,
};

use cutlab_instrument::Bound;
use cutlab_search::{
    DEFAULT_VARIANT, Limits, Position, Search, SearchConfig, position::uci, score::uci_score,
    search::Info,
};

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 65_536;
const DEFAULT_OVERHEAD_MS: u64 = 30;

/// Engine state between commands.
struct Engine {
    /// The engine while idle; `None` while the worker thread owns it.
    search: Option<Search>,
    worker: Option<JoinHandle<Search>>,
    stop: Arc<AtomicBool>,
    root: Position,
    /// Keys of the positions before `root` in the game, oldest first.
    game: Vec<u64>,
    move_overhead_ms: u64,
    /// The running search is `go infinite`.
    infinite: bool,
}

fn say(line: &str) {
    let mut out = io::stdout().lock();
    // A closed stdout leaves nobody to tell: ignore the error.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

/// Runs the UCI loop until `quit` or the end of input.
pub fn run() {
    let search = Search::new(SearchConfig::default(), DEFAULT_HASH_MIB);
    let mut engine = Engine {
        stop: search.stop_flag(),
        search: Some(search),
        worker: None,
        root: Position::startpos(),
        game: Vec::new(),
        move_overhead_ms: DEFAULT_OVERHEAD_MS,
        infinite: false,
    };
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        match command {
            "uci" => {
                say(&format!("id name cutlab {}", env!("CARGO_PKG_VERSION")));
                say("id author the cutlab developers");
                say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
                ));
                say("option name Threads type spin default 1 min 1 max 1");
                say("option name Clear Hash type button");
                say(&format!(
                    "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"
                ));
                say(&format!(
                    "option name Variant type string default {DEFAULT_VARIANT}"
                ));
                say("uciok");
            }
            "isready" => say("readyok"),
            "ucinewgame" => engine.idle().clear(),
            "position" => engine.position(args),
            "go" => engine.go(args),
            "stop" => engine.finish(),
            "setoption" => engine.set_option(args),
            "quit" => return engine.finish(),
            other => error(&format!("unknown command '{other}'")),
        }
    }
    // End of input: a finite search still answers (scripts pipe commands in); an infinite
    // one is stopped.
    if engine.infinite {
        engine.finish();
    } else {
        engine.idle();
    }
}

impl Engine {
    /// Waits for a running search (stopping it first) and returns the idle engine.
    fn idle(&mut self) -> &mut Search {
        if let Some(worker) = self.worker.take() {
            match worker.join() {
                Ok(search) => self.search = Some(search),
                Err(_) => {
                    error("search thread failed; starting a fresh engine");
                }
            }
        }
        if self.search.is_none() {
            let fresh = Search::new(SearchConfig::default(), DEFAULT_HASH_MIB);
            self.stop = fresh.stop_flag();
            self.search = Some(fresh);
        }
        self.search
            .get_or_insert_with(|| Search::new(SearchConfig::default(), DEFAULT_HASH_MIB))
    }

    /// Stops a running search; it prints its `bestmove` before the thread ends.
    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.idle();
    }

    fn position(&mut self, args: &[&str]) {
        self.finish();
        match parse_position(args) {
            Ok((root, game)) => {
                self.root = root;
                self.game = game;
            }
            Err(message) => error(&message),
        }
    }

    fn set_option(&mut self, args: &[&str]) {
        self.finish();
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return error("setoption needs 'name <id> [value <x>]'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let search = self.idle();
        match (name.to_ascii_lowercase().as_str(), value) {
            ("hash", Some(v)) => match v.parse::<usize>() {
                Ok(mib) if (1..=MAX_HASH_MIB).contains(&mib) => {
                    search.tt = cutlab_search::tt::TranspositionTable::new(mib);
                }
                _ => error(&format!("Hash must be 1..{MAX_HASH_MIB} MiB, got '{v}'")),
            },
            ("threads", Some(v)) => {
                if v != "1" {
                    error(&format!("only Threads 1 is supported, got '{v}'"));
                }
            }
            ("clear hash", _) => search.clear(),
            ("move overhead", Some(v)) => match v.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.move_overhead_ms = ms,
                _ => error(&format!("Move Overhead must be 0..5000 ms, got '{v}'")),
            },
            ("variant", Some(v)) => match SearchConfig::resolve(v) {
                Ok(mut config) => {
                    // Keep a confidence set before the variant.
                    if let (Some(old), Some(new)) = (search.config.prob_ab, config.prob_ab.as_mut())
                    {
                        new.confidence = old.confidence;
                    }
                    search.config = config;
                }
                Err(e) => error(&e.to_string()),
            },
            ("confidence", Some(v)) => match v.parse::<f64>() {
                Ok(p) if p > 0.0 && p < 1.0 => {
                    if let Some(params) = search.config.prob_ab.as_mut() {
                        params.confidence = p;
                    } else {
                        error("Confidence applies to a variant with prob-ab; set Variant first");
                    }
                }
                _ => error(&format!(
                    "Confidence must be strictly between 0 and 1, got '{v}'"
                )),
            },
            _ => error(&format!("unknown option or missing value: '{rest}'")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        self.finish();
        let mut limits = match parse_go(args) {
            Ok(limits) => limits,
            Err(message) => return error(&message),
        };
        limits.move_overhead_ms = self.move_overhead_ms;
        self.infinite = limits.infinite;
        let Some(mut search) = self.search.take() else {
            return error("engine busy");
        };
        self.stop = search.stop_flag();
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let root = self.root.clone();
        let game = self.game.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let result = search.go(&root, &game, &limits, &mut |info| say(&info_line(info)));
                // `go infinite` must not answer before `stop`.
                while limits.infinite && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                let best = result.best_move.map_or_else(|| "0000".to_string(), uci);
                match result.pv.get(1) {
                    Some(&ponder) => say(&format!("bestmove {best} ponder {}", uci(ponder))),
                    None => say(&format!("bestmove {best}")),
                }
                search
            });
        match spawned {
            Ok(handle) => self.worker = Some(handle),
            Err(e) => error(&format!("cannot start the search thread: {e}")),
        }
    }
}

fn info_line(info: &Info) -> String {
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv 1 score {}{bound} nodes {} nps {nps} hashfull {} time {}",
        info.depth,
        info.seldepth,
        uci_score(info.score),
        info.nodes,
        info.hashfull,
        info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&uci(m));
        }
    }
    line
}

/// Parses `position startpos|fen <fen> [moves ...]` into the root and the game's earlier keys.
fn parse_position(args: &[&str]) -> Result<(Position, Vec<u64>), String> {
    let moves_at = args
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(args.len());
    let (setup, moves) = args.split_at(moves_at);
    let mut pos = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"fen", fen)) if !fen.is_empty() => {
            Position::from_fen(&fen.join(" ")).map_err(|e| format!("position fen: {e}"))?
        }
        _ => return Err("position needs 'startpos' or 'fen <fen>'".to_string()),
    };
    let mut game = Vec::new();
    for (i, text) in moves.iter().skip(1).enumerate() {
        let m = pos
            .parse_uci(text)
            .map_err(|e| format!("position moves: move {} {e}", i + 1))?;
        game.push(pos.key());
        pos = pos.play(m);
    }
    Ok((pos, game))
}

/// Parses the arguments of `go`.
fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let mut number = || -> Result<u64, String> {
            let value = words
                .next()
                .ok_or_else(|| format!("go {word} needs a value"))?;
            value
                .parse::<i64>()
                .map(|v| u64::try_from(v.max(0)).unwrap_or(0))
                .map_err(|_| format!("go {word}: '{value}' is not a number"))
        };
        match word {
            "depth" => limits.depth = Some(i32::try_from(number()?).unwrap_or(i32::MAX)),
            "nodes" => limits.nodes = Some(number()?),
            "movetime" => limits.movetime_ms = Some(number()?),
            "wtime" => limits.wtime_ms = Some(number()?),
            "btime" => limits.btime_ms = Some(number()?),
            "winc" => limits.winc_ms = Some(number()?),
            "binc" => limits.binc_ms = Some(number()?),
            "movestogo" => limits.movestogo = Some(u32::try_from(number()?).unwrap_or(u32::MAX)),
            "mate" => limits.depth = Some(i32::try_from(number()? * 2).unwrap_or(i32::MAX)),
            "infinite" | "ponder" => limits.infinite = true,
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_with_moves_keeps_the_game_keys() {
        let (pos, game) = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(game.len(), 2);
        assert_eq!(game[0], Position::startpos().key());
        assert!(
            pos.fen()
                .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
        );
    }

    #[test]
    fn bad_positions_are_errors_naming_the_problem() {
        let err = parse_position(&["startpos", "moves", "e2e4", "e2e4"]).unwrap_err();
        assert!(err.contains("move 2") && err.contains("e2e4"), "{err}");
        assert!(parse_position(&["fen", "xx"]).unwrap_err().contains("FEN"));
        assert!(parse_position(&[]).is_err());
    }

    #[test]
    fn go_parameters_parse() {
        let limits = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "2000",
            "winc",
            "10",
            "movestogo",
            "5",
        ])
        .unwrap();
        assert_eq!(limits.wtime_ms, Some(1000));
        assert_eq!(limits.movestogo, Some(5));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "x"]).is_err());
        assert!(parse_go(&["sideways"]).is_err());
    }
}
