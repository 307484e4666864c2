//! A fuzzer of UCI input: seeded random sessions of valid, malformed and hostile commands,
//! piped into the engine at once. Every `go` must get exactly one `bestmove`, legal in the
//! position the engine should be in (the legal prefix of a bad move list), or `0000` when there
//! is no legal move; the engine must exit cleanly.

use std::{
    io::Write,
    process::{Command, Stdio},
};

use cutlab_search::Position;
use shakmaty::Position as _;

const EXE: &str = env!("CARGO_BIN_EXE_cutlab");

const FENS: [&str; 6] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Black is mated (fool's mate) and stalemated: no legal move.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
];

const BAD_FENS: [&str; 4] = [
    "xx",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

/// SplitMix64: a seeded stream of numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A random `position` command and the root the engine should have after it (`None`: the
/// command is refused and the root stays).
fn position_command(rng: &mut Rng) -> (String, Option<Position>) {
    if rng.below(6) == 0 {
        return (format!("position fen {}", rng.pick(&BAD_FENS)), None);
    }
    let (mut text, mut pos) = if rng.below(2) == 0 {
        ("position startpos".to_string(), Position::startpos())
    } else {
        let fen = rng.pick(&FENS);
        (
            format!("position fen {fen}"),
            Position::from_fen(fen).unwrap(),
        )
    };
    let plies = rng.below(8);
    if plies > 0 {
        text.push_str(" moves");
    }
    let mut broken = false;
    for _ in 0..plies {
        let moves = pos.chess().legal_moves();
        if rng.below(5) == 0 || moves.is_empty() {
            // An illegal or malformed move: the engine keeps the prefix and drops the rest.
            text.push(' ');
            text.push_str(rng.pick(&["zzzz", "e2e5", "a1a1", "e7e8q", "0000", "e2"]));
            broken = true;
            continue;
        }
        let m = moves[rng.below(moves.len())];
        text.push(' ');
        text.push_str(&cutlab_search::position::uci(m));
        if !broken {
            pos = pos.play(m);
        }
    }
    (text, Some(pos))
}

/// A random `go` command: limits small enough for a quick test, malformed words, huge numbers.
fn go_command(rng: &mut Rng) -> String {
    let parts = [
        format!("depth {}", 1 + rng.below(4)),
        format!("nodes {}", 1 + rng.below(3000)),
        format!("movetime {}", rng.below(15)),
        format!(
            "wtime {} btime {} winc 0 binc 0",
            rng.below(200),
            rng.below(200)
        ),
        "depth 99999999999999999999".to_string(),
        "nodes -7".to_string(),
        "depth".to_string(),
        "depth x".to_string(),
        "sideways".to_string(),
        "infinite".to_string(),
        "mate 2".to_string(),
        String::new(),
    ];
    let mut text = "go".to_string();
    for _ in 0..=rng.below(2) {
        text.push(' ');
        text.push_str(&parts[rng.below(parts.len())]);
    }
    text
}

/// Runs one session of `commands` go's and checks every answer.
fn fuzz_session(seed: u64, commands: usize) {
    let mut rng = Rng(seed);
    let mut script = String::from("uci\nisready\n");
    let mut root = Position::startpos();
    let mut go_roots = Vec::new();
    for _ in 0..commands {
        match rng.below(10) {
            0..=3 => {
                let (text, new_root) = position_command(&mut rng);
                script.push_str(&text);
                if let Some(pos) = new_root {
                    root = pos;
                }
            }
            4..=7 => {
                script.push_str(&go_command(&mut rng));
                go_roots.push(root.clone());
            }
            8 => script.push_str(rng.pick(&[
                "stop",
                "isready",
                "ucinewgame",
                "setoption name Hash value 2",
                "setoption name Hash value -1",
                "setoption name Variant value null-move+bogus",
                "setoption name Variant value null-move+mpc",
                "setoption name Nonsense",
                "debug on",
                "",
                "   ",
            ])),
            _ => {
                let garbage =
                    rng.pick(&["position", "position moves e2e4", "go go go", "\u{1f4a9}"]);
                if garbage.starts_with("go") {
                    go_roots.push(root.clone());
                }
                script.push_str(garbage);
            }
        }
        script.push('\n');
    }
    script.push_str("quit\n");

    let mut child = Command::new(EXE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cutlab starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("engine reads");
    let out = child.wait_with_output().expect("engine exits");
    assert!(
        out.status.success(),
        "seed {seed}: exit status {}",
        out.status
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let answers: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(
        answers.len(),
        go_roots.len(),
        "seed {seed}: one bestmove per go\n{script}"
    );
    for (answer, root) in answers.iter().zip(&go_roots) {
        let best = answer.split_whitespace().next().unwrap_or("");
        let legal = root.chess().legal_moves();
        if legal.is_empty() {
            assert_eq!(
                best,
                "0000",
                "seed {seed}: no legal move in {}\n{script}",
                root.fen()
            );
        } else {
            assert!(
                root.parse_uci(best).is_ok(),
                "seed {seed}: bestmove {best} is not legal in {}",
                root.fen()
            );
        }
    }
}

#[test]
fn every_go_gets_exactly_one_legal_bestmove() {
    for seed in 1..=6 {
        fuzz_session(seed, 60);
    }
}

/// A UCI session driven line by line with pauses, as a GUI drives it: each command is sent
/// when the engine has answered the one before, and every answer must come within a deadline.
struct Timed {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Timed {
    fn start() -> Timed {
        let mut child = Command::new(EXE)
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Timed {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`; panics after 10 s.
    fn expect(&mut self, prefix: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' within 10 s; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Timed {
    /// A failed test leaves no engine searching behind it.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `ucinewgame` during `go infinite` once blocked the command loop until the search ended,
/// which it never did: no `readyok`, no `bestmove`, no exit. Now it stops the search, whose
/// one `bestmove` comes first, and the session goes on; `debug on` is understood.
#[test]
fn a_new_game_during_an_infinite_search_does_not_hang() {
    for go in ["go infinite", "go depth 99999999999999999999"] {
        let mut engine = Timed::start();
        engine.send("uci");
        engine.expect("uciok");
        engine.send("debug on");
        engine.send("isready");
        let ready = engine.expect("readyok");
        assert!(ready.iter().all(|l| !l.contains("error")), "{ready:?}");
        engine.send("position startpos");
        engine.send(go);
        std::thread::sleep(std::time::Duration::from_millis(300));
        engine.send("ucinewgame");
        engine.send("isready");
        let answered = engine.expect("readyok");
        let bestmoves = answered
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
        assert_eq!(
            bestmoves, 1,
            "{go}: one bestmove before readyok: {answered:?}"
        );
        engine.send("stop");
        engine.send("isready");
        let after = engine.expect("readyok");
        assert!(
            after.iter().all(|l| !l.starts_with("bestmove")),
            "{after:?}"
        );
        engine.send("quit");
        let status = engine.child.wait().unwrap();
        assert!(status.success(), "{go}: {status}");
        drop(engine);
    }
}
