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
    DEFAULT_VARIANT, Eval, Position, Search, SearchConfig,
    position::uci,
    score::uci_score,
    search::{Info, SearchResult},
};
use shakmaty::Position as _;

use super::parse::{parse_go, parse_position};
use crate::common::options::MAX_HASH_MIB;

const DEFAULT_HASH_MIB: usize = 16;
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
    /// The running search is `go infinite` or `go ponder`.
    infinite: bool,
    /// The options that make the search configuration, kept apart so that the order a GUI
    /// sends them in does not matter.
    options: SearchOptions,
}

/// The UCI options from which the search configuration is built: `Variant`, then `Eval` over
/// it when set, then `Confidence` over that when set. Each `setoption` of one of them builds
/// the configuration again from all three.
#[derive(Clone, Debug)]
struct SearchOptions {
    variant: String,
    eval: Option<Eval>,
    confidence: Option<f64>,
}

impl SearchOptions {
    /// The configuration these options make.
    ///
    /// # Errors
    /// An unknown variant, a network that cannot be loaded, or a confidence without prob-ab.
    fn config(&self) -> Result<SearchConfig, String> {
        let mut config = SearchConfig::resolve(&self.variant)
            .or_else(|e| SearchConfig::resolve(&lowercase_parts(&self.variant)).map_err(|_| e))
            .map_err(|e| e.to_string())?;
        match self.eval {
            Some(Eval::Classical) => {
                config.eval = Eval::Classical;
                config.network = None;
            }
            // The embedded network, unless the variant names a network file.
            Some(Eval::Nnue) if config.eval != Eval::Nnue => {
                config.evaluate_with_network(None)?;
            }
            _ => {}
        }
        // ProbCut and MPC take the models fitted under the evaluation.
        config.use_built_in_models().map_err(|e| e.to_string())?;
        if let Some(p) = self.confidence {
            config
                .prob_ab
                .as_mut()
                .ok_or("Confidence applies to a variant with prob-ab; set Variant first")?
                .confidence = p;
        }
        Ok(config)
    }
}

/// A variant name with its parts' names in lower case (a network file after `@` as given).
fn lowercase_parts(variant: &str) -> String {
    variant
        .split('+')
        .map(|part| match part.split_once('@') {
            Some((name, arg)) => format!("{}@{arg}", name.to_ascii_lowercase()),
            None => part.to_ascii_lowercase(),
        })
        .collect::<Vec<_>>()
        .join("+")
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
    let search = Search::default_engine(DEFAULT_HASH_MIB);
    let mut engine = Engine {
        stop: search.stop_flag(),
        search: Some(search),
        worker: None,
        root: Position::startpos(),
        game: Vec::new(),
        move_overhead_ms: DEFAULT_OVERHEAD_MS,
        infinite: false,
        options: SearchOptions {
            variant: DEFAULT_VARIANT.to_string(),
            eval: None,
            confidence: None,
        },
    };
    let stdin = io::stdin();
    for bytes in stdin.lock().split(b'\n') {
        let Ok(bytes) = bytes else { break };
        // A line that is not UTF-8 is refused and the engine goes on, as Stockfish reads on
        // past a command it does not know: one bad byte from a GUI must not end the session.
        let Ok(line) = String::from_utf8(bytes) else {
            error("a line that is not UTF-8 text; ignored");
            continue;
        };
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
                say("option name Eval type combo default classical var classical var nnue");
                say("uciok");
            }
            "isready" => say("readyok"),
            // A new game during a search stops it first (it answers with its bestmove):
            // waiting for a `go infinite` would never end.
            "ucinewgame" => {
                engine.finish();
                engine.idle().clear();
            }
            // Standard UCI; the engine has no debug output to switch.
            "debug" if matches!(args, ["on"] | ["off"]) => {}
            "debug" => error("debug takes 'on' or 'off'"),
            "position" => engine.position(args),
            "go" => engine.go(args),
            "stop" => engine.finish(),
            // The engine does not ponder on its own clock (it offers no `Ponder` option): a
            // ponder hit ends the ponder search, which answers at once; a search that is not
            // pondering goes on.
            "ponderhit" if engine.infinite => engine.finish(),
            "ponderhit" => {}
            "setoption" => engine.set_option(args),
            "quit" => return engine.finish(),
            other => error(&format!("unknown command '{}'", shortened(other))),
        }
    }
    // End of input is `quit`, as in Stockfish: a GUI that closed or crashed leaves nobody to
    // search for, so a running search is stopped (it still answers).
    engine.finish();
}

/// A word of the input as an error quotes it: at most 40 characters, so that a line of
/// megabytes is not echoed back whole.
fn shortened(word: &str) -> String {
    const QUOTED: usize = 40;
    match word.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}...", &word[..end]),
        None => word.to_string(),
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
            let fresh = Search::default_engine(DEFAULT_HASH_MIB);
            self.stop = fresh.stop_flag();
            self.search = Some(fresh);
        }
        self.search
            .get_or_insert_with(|| Search::default_engine(DEFAULT_HASH_MIB))
    }

    /// Stops a running search; it prints its `bestmove` before the thread ends.
    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.idle();
    }

    fn position(&mut self, args: &[&str]) {
        self.finish();
        match parse_position(args) {
            Ok(parsed) => {
                if let Some(message) = &parsed.error {
                    error(message);
                }
                self.root = parsed.root;
                self.game = parsed.game;
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
                    // A table the machine cannot give is refused; the old one stays.
                    match cutlab_search::tt::TranspositionTable::try_new(mib) {
                        Ok(table) => search.tt = table,
                        Err(e) => error(&format!("{e}; Hash stays {} MiB", search.tt.size_mib())),
                    }
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
            ("variant", Some(v)) => {
                let options = SearchOptions {
                    variant: v.to_string(),
                    ..self.options.clone()
                };
                self.configure(options, "Variant");
            }
            ("eval", Some(v)) => {
                let eval = match v.to_ascii_lowercase().as_str() {
                    "classical" => Eval::Classical,
                    "nnue" => Eval::Nnue,
                    _ => return error(&format!("Eval is classical or nnue, got '{v}'")),
                };
                let options = SearchOptions {
                    eval: Some(eval),
                    ..self.options.clone()
                };
                self.configure(options, "Eval");
            }
            ("confidence", Some(v)) => match v.parse::<f64>() {
                Ok(p) if p > 0.0 && p < 1.0 => {
                    let options = SearchOptions {
                        confidence: Some(p),
                        ..self.options.clone()
                    };
                    self.configure(options, "Confidence");
                }
                _ => error(&format!(
                    "Confidence must be strictly between 0 and 1, got '{v}'"
                )),
            },
            _ => error(&format!("unknown option or missing value: '{rest}'")),
        }
    }

    /// Builds the configuration from `options`; on success they are the engine's, and a new
    /// configuration starts with fresh tables (prob-ab keeps spreads where the others keep
    /// evaluations). On failure `option` is refused and everything stays as it was.
    fn configure(&mut self, options: SearchOptions, option: &str) {
        match options.config() {
            Ok(config) => {
                let search = self.idle();
                if search.config != config {
                    if let Err(e) = search.set_config(config) {
                        error(&format!("{e}; {option} stays as it was"));
                        return;
                    }
                    search.clear();
                }
                self.options = options;
            }
            Err(e) => error(&format!("{e}; {option} stays as it was")),
        }
    }

    /// Starts a search; whatever happens, exactly one `bestmove` answers it.
    fn go(&mut self, args: &[&str]) {
        self.finish();
        let (mut limits, errors) = parse_go(args, &self.root);
        for message in &errors {
            error(message);
        }
        if !errors.is_empty() && !limits.is_limited() {
            // A malformed `go` still gets its one answer, from a quick search.
            error("go: searching to depth 1 instead");
            limits.depth = Some(1);
        }
        limits.move_overhead_ms = self.move_overhead_ms;
        self.infinite = limits.infinite;
        let root = self.root.clone();
        let Some(mut search) = self.search.take() else {
            return answer_without_search(&root, "engine busy");
        };
        // What a fresh engine needs if this search fails.
        let (config, hash_mib) = (search.config.clone(), search.tt.size_mib());
        self.stop = search.stop_flag();
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let game = self.game.clone();
        let thread_root = root.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let root = thread_root;
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    search.go(&root, &game, &limits, &mut |info| say(&info_line(info)))
                }));
                // `go infinite` must not answer before `stop`.
                while limits.infinite && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                match outcome {
                    Ok(result) => {
                        // The nodes and time the whole search spent (match runners read them
                        // from the last `info`), with the last completed iteration's line.
                        if result.depth > 0 {
                            say(&final_info(&result));
                        }
                        let best = result.best_move.map_or_else(|| "0000".to_string(), uci);
                        match result.pv.get(1) {
                            Some(&ponder) => {
                                say(&format!("bestmove {best} ponder {}", uci(ponder)));
                            }
                            None => say(&format!("bestmove {best}")),
                        }
                        search
                    }
                    Err(_) => {
                        answer_without_search(&root, "the search failed; starting afresh");
                        // The configuration's network was loaded for the search that failed.
                        Search::new(config, hash_mib).unwrap_or_else(|e| {
                            error(&format!("{e}; the engine starts afresh with its defaults"));
                            Search::default_engine(hash_mib)
                        })
                    }
                }
            });
        match spawned {
            Ok(handle) => self.worker = Some(handle),
            Err(e) => answer_without_search(&root, &format!("cannot start the search: {e}")),
        }
    }
}

/// Reports `message` and answers with the first legal move (or `0000` when there is none).
fn answer_without_search(root: &Position, message: &str) {
    error(message);
    let first = root.chess().legal_moves().first().copied();
    say(&format!(
        "bestmove {}",
        first.map_or_else(|| "0000".to_string(), uci)
    ));
}

fn info_line(info: &Info) -> String {
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv 1 score {}{bound} nodes {}{} hashfull {} time {}",
        info.depth,
        info.seldepth,
        uci_score(info.score),
        info.nodes,
        nps(info.nodes, info.time_ms),
        info.hashfull,
        info.time_ms
    );
    push_pv(&mut line, &info.pv);
    line
}

/// The `info` that closes a search: the last completed iteration's depth, score and PV with
/// the nodes and time of the whole search.
fn final_info(result: &SearchResult) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv 1 score {} nodes {}{} time {}",
        result.depth,
        result.seldepth,
        uci_score(result.score),
        result.nodes,
        nps(result.nodes, result.time_ms),
        result.time_ms
    );
    push_pv(&mut line, &result.pv);
    line
}

/// ` nps N`, or nothing within the first millisecond (no rate can be told from it).
fn nps(nodes: u64, time_ms: u64) -> String {
    nodes
        .saturating_mul(1000)
        .checked_div(time_ms)
        .map_or_else(String::new, |nps| format!(" nps {nps}"))
}

/// Appends ` pv MOVE...` to an `info` line (nothing for an empty PV).
fn push_pv(line: &mut String, pv: &[shakmaty::Move]) {
    if !pv.is_empty() {
        line.push_str(" pv");
        for &m in pv {
            line.push(' ');
            line.push_str(&uci(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_make_the_same_configuration_in_either_order() {
        let mut a = SearchOptions {
            variant: DEFAULT_VARIANT.into(),
            eval: None,
            confidence: None,
        };
        // The name aside (it is the variant's as given), the same searches.
        let unnamed = |c: SearchConfig| SearchConfig {
            name: String::new(),
            ..c
        };
        a.eval = Some(Eval::Nnue);
        a.variant = "modern".into();
        let config = unnamed(a.config().unwrap());
        assert_eq!(
            config,
            unnamed(SearchConfig::resolve("modern+nnue").unwrap())
        );
        a.variant = "MODERN".into();
        assert_eq!(unnamed(a.config().unwrap()), config);
        a.eval = Some(Eval::Classical);
        assert_eq!(
            unnamed(a.config().unwrap()),
            unnamed(SearchConfig::resolve("modern").unwrap())
        );
        a.confidence = Some(0.9);
        assert!(a.config().unwrap_err().contains("prob-ab"));
    }

    #[test]
    fn nps_is_left_out_within_the_first_millisecond() {
        assert_eq!(nps(5000, 0), "");
        assert_eq!(nps(5000, 2), " nps 2500000");
    }
}
