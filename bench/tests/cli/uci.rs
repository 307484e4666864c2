//! The UCI engine as a GUI drives it, and the bench signature.

use crate::common::*;

/// A UCI session with the engine as a child process.
struct Session {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(EXE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("cutlab starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{line}").expect("engine reads");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}' within 30 s; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

#[test]
fn uci_session_plays_legal_moves_and_survives_garbage() {
    let mut s = Session::start();
    s.send("uci");
    let hello = s.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name cutlab")));
    assert!(hello.iter().any(|l| l.starts_with("option name Hash")));
    s.send("isready");
    s.until("readyok");

    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 6");
    let out = s.until("bestmove");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 6 ") && l.contains(" pv "))
    );
    let best = out
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let after = cutlab_search::Position::from_fen(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    )
    .unwrap();
    assert!(after.parse_uci(&best).is_ok(), "illegal bestmove {best}");

    // Garbage and bad input: answered with an error line, never a crash.
    s.send("fly me to the moon");
    s.until("info string error: unknown command");
    s.send("position fen this is not a fen");
    s.until("info string error: position fen");
    s.send("position startpos moves e2e4 e2e4");
    s.until("info string error: position moves: move 2");
    s.send("go depth banana");
    s.until("info string error: go depth");
    s.send("setoption name Hash value -3");
    s.until("info string error: Hash");
    s.send("setoption name Variant value nonsense");
    s.until("info string error: unknown variant part");

    // Still alive: a search from a FEN with the position left as it was before the bad input.
    s.send("position fen 7k/8/8/5K2/8/8/8/R7 w - - 0 1");
    s.send("go depth 5");
    let out = s.until("bestmove");
    assert!(out.iter().any(|l| l.contains("score mate 2")), "{out:?}");
    assert_eq!(out.last().unwrap().split_whitespace().nth(1), Some("f5g6"));

    // isready during an infinite search, then stop.
    s.send("position startpos");
    s.send("go infinite");
    s.send("isready");
    s.until("readyok");
    s.send("stop");
    s.until("bestmove");

    // A mated side answers bestmove 0000.
    s.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    s.send("go depth 3");
    assert_eq!(s.until("bestmove").last().unwrap(), "bestmove 0000");

    s.send("quit");
    let status = s.child.wait().expect("exits");
    assert!(status.success());
}

/// `Eval nnue` switches the engine to its embedded network (another tree: another node count
/// at the same depth), `Eval classical` back (the same count as at first); a value it does
/// not know is an error and changes nothing.
#[test]
fn the_eval_option_switches_the_evaluation() {
    let mut s = Session::start();
    s.send("uci");
    let options = s.until("uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Eval type combo")),
        "{options:?}"
    );
    let nodes_at_depth_6 = |s: &mut Session| -> String {
        s.send("ucinewgame");
        s.send("position startpos moves e2e4 e7e5");
        s.send("go depth 6");
        let lines = s.until("bestmove");
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 6") && !l.contains("bound"))
            .expect("a depth-6 line");
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|&w| w == "nodes").expect("nodes");
        words[i + 1].to_string()
    };
    let classical = nodes_at_depth_6(&mut s);
    s.send("setoption name Eval value nnue");
    let nnue = nodes_at_depth_6(&mut s);
    assert_ne!(nnue, classical, "the network evaluates");
    s.send("setoption name Eval value neural");
    s.send("isready");
    let answer = s.until("readyok");
    assert!(
        answer
            .iter()
            .any(|l| l.contains("Eval is classical or nnue")),
        "{answer:?}"
    );
    assert_eq!(nodes_at_depth_6(&mut s), nnue, "still the network");
    s.send("setoption name Eval value classical");
    assert_eq!(nodes_at_depth_6(&mut s), classical);
    // The options make one configuration whatever their order (a GUI may send them sorted):
    // a Variant set after Eval keeps the evaluation, and a name in capitals is the same.
    s.send("setoption name Eval value nnue");
    s.send("setoption name Variant value null-move+lmr");
    assert_eq!(nodes_at_depth_6(&mut s), nnue, "Eval kept across Variant");
    s.send("setoption name Variant value NULL-MOVE+LMR");
    s.send("setoption name Eval value classical");
    assert_eq!(nodes_at_depth_6(&mut s), classical);
    s.send("quit");
    s.child.wait().expect("exits");
}

/// The words after `name` in an `info` line, as a number.
fn info_value(line: &str, name: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == name).expect(name);
    words[i + 1].parse().expect("a number")
}

#[test]
fn the_last_info_gives_the_nodes_the_search_spent_and_searchmoves_limit_the_root() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go nodes 20000");
    let lines = s.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let last = info_value(infos[infos.len() - 1], "nodes");
    let before = info_value(infos[infos.len() - 2], "nodes");
    assert!(last >= 20_000 && last > before, "{infos:?}");
    // Only the moves given are searched at the root.
    s.send("go depth 6 searchmoves a2a3 h2h3");
    let lines = s.until("bestmove");
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove a2a3") || best.starts_with("bestmove h2h3"),
        "{lines:?}"
    );
    // A ponder search answers at its ponder hit.
    s.send("go ponder wtime 1000 btime 1000");
    s.until("info depth 2");
    s.send("ponderhit");
    s.until("bestmove");
    s.send("quit");
    s.child.wait().expect("exits");
}

/// A GUI that closes the engine's input mid-search leaves nobody to search for: the engine
/// answers and exits, even from a search bounded by a depth it would never reach.
#[test]
fn the_engine_exits_when_its_input_closes_mid_search() {
    for go in ["go depth 60", "go nodes 99999999999999"] {
        let mut s = Session::start();
        s.send("position startpos");
        s.send(go);
        s.until("info depth 3");
        drop(s.child.stdin.take());
        let started = std::time::Instant::now();
        let lines = s.until("bestmove");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
        while s.child.try_wait().expect("waits").is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{go}: still running"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn movetime_is_respected() {
    let mut s = Session::start();
    s.send("position startpos");
    let start = std::time::Instant::now();
    s.send("go movetime 300");
    s.until("bestmove");
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_millis(600), "{elapsed:?}");
    s.send("quit");
    s.child.wait().expect("exits");
}

fn bench_signature() -> String {
    let out = Command::new(EXE)
        .args(["bench", "--depth", "5"])
        .output()
        .expect("bench runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let last = text.lines().last().expect("summary line").to_string();
    assert!(last.ends_with(" nps"), "{last}");
    assert_eq!(text.lines().count(), 41, "40 positions and the summary");
    last.split_whitespace().next().unwrap().to_string()
}

#[test]
fn bench_node_count_is_a_deterministic_signature() {
    assert_eq!(bench_signature(), bench_signature());
}

/// The recorded signatures, one per evaluation (the default variant, classical and with the
/// embedded network): a commit that changes the search's tree updates `bench/signature.txt`
/// (or `signature-nnue.txt`) and says `Bench: N` in its message.
#[test]
fn bench_gives_the_recorded_signature() {
    for (recorded, extra) in [
        (include_str!("../../signature.txt").trim(), None),
        (
            include_str!("../../signature-nnue.txt").trim(),
            Some("null-move+lmr+nnue"),
        ),
    ] {
        let mut command = Command::new(EXE);
        command.arg("bench");
        if let Some(variant) = extra {
            command.args(["--variant", variant]);
        }
        let out = command.output().expect("bench runs");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let last = text.lines().last().expect("summary line");
        assert_eq!(
            last.split_whitespace().next(),
            Some(recorded),
            "bench {extra:?} signature moved: '{last}' (update bench/signature*.txt and say \
             Bench: N)"
        );
    }
}

#[test]
fn bad_arguments_are_clear_errors() {
    let out = Command::new(EXE)
        .args(["bench", "--variant", "nope"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant part 'nope'"));
}

/// A line that is not UTF-8 is refused and the engine reads on (it once ended the session
/// silently): `isready` after it is answered and a `go` gets its one `bestmove`. An unknown
/// command of a megabyte is not echoed back whole.
#[test]
fn a_line_that_is_not_text_is_refused_and_the_engine_goes_on() {
    let mut s = Session::start();
    let stdin = s.child.stdin.as_mut().expect("stdin");
    stdin
        .write_all(b"setoption name Variant value caf\xe9\n")
        .expect("engine reads");
    s.send(&"x".repeat(1 << 20));
    s.send("isready");
    let answered = s.until("readyok");
    assert!(
        answered
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("not UTF-8")),
        "{answered:?}"
    );
    assert!(
        answered.iter().all(|l| l.len() < 200),
        "a line echoed whole"
    );
    s.send("position startpos");
    s.send("go depth 2");
    let lines = s.until("bestmove");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    s.send("quit");
    assert!(s.child.wait().expect("exits").success());
}
