//! A client for engines that speak the xboard protocol (CECP, Chess Engine Communication
//! Protocol, version 2: <https://www.gnu.org/software/xboard/engine-intf.html>), such as
//! Phalanx, Crafty and GNU Chess in xboard mode, so that `cutlab match` can play them.
//!
//! The engine is kept in force mode and told each move as it is played (`usermove` and SAN
//! when its features ask for them); before its turn it gets both clocks (`time`, `otim`, in
//! centiseconds) and `go`, and after its `move` it is put back in force mode. A game starts
//! with `new`, `easy` (no pondering), `post` (thinking output, whose score feeds
//! adjudication), the time control (`level` or `st`) and `setboard`.
//!
//! What is left out, each a choice written down here:
//! - Protocol 1's `edit` mode: an engine without the `setboard` feature can play only games
//!   from the standard starting position.
//! - Fixed nodes per move: the protocol has none that engines share (`nps` is rare).
//! - Draw offers are ignored, and so are claims of a win or a draw: cutlab's own rules end a
//!   game. A claim that the mover has lost (`0-1` from White) counts as its resignation.

use std::time::{Duration, Instant};

use cutlab_search::{Position, position::uci};
use shakmaty::{
    Color,
    san::{San, SanPlus},
};

use super::turn::{Answer, Control};
use crate::common::engine_process::EngineProcess;

/// The start position, which an engine without `setboard` can play from.
const STANDARD_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Scores are clamped to this (the engine's mate scores, such as 100000 + N, read as won).
const SCORE_LIMIT: i32 = 30_000;

/// What the engine asked for in its `feature` lines (protocol 1 engines ask for nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Features {
    /// Takes a position by `setboard FEN`.
    setboard: bool,
    /// Wants moves as `usermove MOVE`.
    usermove: bool,
    /// Wants moves in SAN.
    san: bool,
    /// Answers `ping N` with `pong N`.
    ping: bool,
    /// Takes its hash size by `memory MIB`.
    memory: bool,
}

/// The game the engine holds: where it started and the moves it has been told.
struct Board {
    fen: String,
    moves: Vec<String>,
}

/// A running xboard engine.
pub struct XboardEngine {
    process: EngineProcess,
    features: Features,
    board: Option<Board>,
    pings: u32,
}

impl XboardEngine {
    /// Starts `command` (split on whitespace), negotiates protocol 2's features and sends
    /// `options`: `Hash` as `memory MIB` when the engine takes it, any other as
    /// `option NAME=VALUE`.
    ///
    /// # Errors
    /// The engine does not start or exits during the handshake.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<XboardEngine, String> {
        let mut engine = XboardEngine {
            process: EngineProcess::start(command)?,
            features: Features::default(),
            board: None,
            pings: 0,
        };
        engine.send("xboard")?;
        engine.send("protover 2")?;
        engine.negotiate()?;
        for (name, value) in options {
            if name.eq_ignore_ascii_case("Hash") && engine.features.memory {
                engine.send(&format!("memory {value}"))?;
            } else {
                engine.send(&format!("option {name}={value}"))?;
            }
        }
        engine.sync()?;
        Ok(engine)
    }

    /// Reads `feature` lines until `done=1`, accepting each. A protocol 1 engine says nothing:
    /// two seconds of silence end the handshake, as in xboard; `done=0` asks for up to a
    /// minute.
    fn negotiate(&mut self) -> Result<(), String> {
        let mut patience = Duration::from_secs(2);
        while let Some(line) = self.process.try_next_line(patience)? {
            let Some(list) = line.strip_prefix("feature ") else {
                continue;
            };
            let mut done = false;
            for (name, value) in parse_features(list) {
                let on = value == "1";
                match name.as_str() {
                    "setboard" => self.features.setboard = on,
                    "usermove" => self.features.usermove = on,
                    "san" => self.features.san = on,
                    "ping" => self.features.ping = on,
                    "memory" => self.features.memory = on,
                    "done" if on => done = true,
                    "done" => patience = Duration::from_secs(60),
                    _ => {}
                }
                self.send(&format!("accepted {name}"))?;
            }
            if done {
                break;
            }
        }
        Ok(())
    }

    /// Sends one command line.
    fn send(&mut self, line: &str) -> Result<(), String> {
        self.process.send(line)
    }

    /// Waits until the engine has read everything sent so far (`ping`/`pong`), when it can
    /// say so.
    fn sync(&mut self) -> Result<(), String> {
        if !self.features.ping {
            return Ok(());
        }
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        while self.process.next_line(Duration::from_secs(30), &pong)? != pong {}
        Ok(())
    }

    /// Forgets the game; the next turn sets up a new one. Checks that the engine still
    /// answers.
    ///
    /// # Errors
    /// The engine exited or does not answer `ping`.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.board = None;
        self.sync()
    }

    /// The engine's move after `moves` from `fen` (`game`: the positions so far, last the
    /// current one), with White's and Black's clocks, milliseconds.
    ///
    /// # Errors
    /// The engine exits, refuses a move (`Illegal move`, `Error`), cannot be given the
    /// position or the control, or does not move within its clock and five seconds.
    pub fn play(
        &mut self,
        fen: &str,
        moves: &[String],
        game: &[Position],
        clocks: [u64; 2],
        control: Control,
    ) -> Result<Answer, String> {
        let pos = game.last().ok_or("empty game")?;
        // The engine's own clock and its opponent's; a claim of this result is its resignation.
        let (own, other, loss) = match pos.turn() {
            Color::White => (clocks[0], clocks[1], "0-1"),
            Color::Black => (clocks[1], clocks[0], "1-0"),
        };
        let in_step = self
            .board
            .as_ref()
            .is_some_and(|b| b.fen == fen && moves.starts_with(&b.moves));
        if !in_step {
            self.set_up(fen, control)?;
        }
        let told = self.board.as_ref().map_or(0, |b| b.moves.len());
        for (before, played) in game.iter().zip(moves).skip(told) {
            let text = self.move_text(before, played)?;
            self.send(&text)?;
        }
        if let Control::Clock { .. } = control {
            self.send(&format!("time {}", own / 10))?;
            self.send(&format!("otim {}", other / 10))?;
        }
        self.send("go")?;
        let budget = match control {
            Control::Movetime(ms) => ms,
            _ => own,
        } + 5_000;
        let deadline = Instant::now() + Duration::from_millis(budget);
        let mut score = None;
        let text = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.process.next_line(left, "move")?;
            match Output::parse(&line) {
                Output::Move(text) => break text.to_string(),
                Output::Thinking(s) => score = Some(s.clamp(-SCORE_LIMIT, SCORE_LIMIT)),
                Output::Result(result) if result == loss => return Ok(Answer::Resign),
                Output::Resign => return Ok(Answer::Resign),
                Output::Refusal => {
                    return Err(format!("engine '{}': {line}", self.process.command()));
                }
                Output::Result(_) | Output::Other => {}
            }
        };
        self.send("force")?;
        let text = move_to_uci(pos, &text).unwrap_or(text);
        let mut told: Vec<String> = moves.to_vec();
        told.push(text.clone());
        self.board = Some(Board {
            fen: fen.to_string(),
            moves: told,
        });
        Ok(Answer::Move(text, score))
    }

    /// Starts a game from `fen` in force mode with `control`.
    fn set_up(&mut self, fen: &str, control: Control) -> Result<(), String> {
        let level = level(control)?;
        for line in ["new", "force", "easy", "post", &level] {
            self.send(line)?;
        }
        if self.features.setboard {
            self.send(&format!("setboard {fen}"))?;
        } else if fen != STANDARD_START {
            return Err(format!(
                "engine '{}' has no setboard feature: it plays only from the start position",
                self.process.command()
            ));
        }
        self.sync()?;
        self.board = Some(Board {
            fen: fen.to_string(),
            moves: Vec::new(),
        });
        Ok(())
    }

    /// The line that tells the engine `played` (UCI) from `before`, in the notation it asked
    /// for.
    fn move_text(&self, before: &Position, played: &str) -> Result<String, String> {
        let text = if self.features.san {
            let m = before.parse_uci(played).map_err(|e| e.to_string())?;
            San::from_move(before.chess(), m).to_string()
        } else {
            played.to_string()
        };
        Ok(if self.features.usermove {
            format!("usermove {text}")
        } else {
            text
        })
    }
}

/// The `level` or `st` command for `control`, or why an xboard engine cannot play it.
///
/// # Errors
/// Fixed nodes, or a time per move that is not whole seconds.
pub fn level(control: Control) -> Result<String, String> {
    match control {
        Control::Clock { base_ms, inc_ms } => Ok(format!(
            "level 0 {}:{:02} {}",
            base_ms / 60_000,
            base_ms % 60_000 / 1_000,
            Duration::from_millis(inc_ms).as_secs_f64()
        )),
        Control::Movetime(ms) if ms % 1_000 == 0 && ms > 0 => Ok(format!("st {}", ms / 1_000)),
        Control::Movetime(ms) => Err(format!(
            "an xboard engine's time per move is whole seconds (st), not {ms} ms"
        )),
        Control::Nodes(_) => Err(
            "an xboard engine cannot search a fixed number of nodes; use --tc or --movetime-ms"
                .into(),
        ),
    }
}

/// The engine's move as UCI: it may write coordinates (`e2e4`, `e7e8q`) or SAN (`Nf3`,
/// `O-O`). `None` if it is neither (the game then ends on an illegal move).
fn move_to_uci(pos: &Position, text: &str) -> Option<String> {
    if pos.parse_uci(text).is_ok() {
        return Some(text.to_string());
    }
    let san = SanPlus::from_ascii(text.as_bytes()).ok()?.san;
    san.to_move(pos.chess()).ok().map(uci)
}

/// One line of the engine's output, as far as a game needs it.
#[derive(Debug, PartialEq, Eq)]
enum Output<'a> {
    /// `move MOVE` (or protocol 1's `my move is MOVE`).
    Move(&'a str),
    /// A thinking line `ply score time nodes pv`: the score, centipawns, the engine's view.
    Thinking(i32),
    /// `resign`.
    Resign,
    /// A result claim, `1-0`, `0-1` or `1/2-1/2` with a comment.
    Result(&'a str),
    /// `Illegal move` or `Error`: the engine refused what it was told.
    Refusal,
    /// Anything else (`tellics`, `pong`, late features, chatter).
    Other,
}

impl Output<'_> {
    fn parse(line: &str) -> Output<'_> {
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        if let Some(text) = line.strip_prefix("move ") {
            return Output::Move(text.trim());
        }
        if let Some(at) = lower.find("my move is") {
            return Output::Move(line[at + "my move is".len()..].trim_start_matches([' ', ':']));
        }
        if line == "resign" {
            return Output::Resign;
        }
        if lower.starts_with("illegal move") || lower.starts_with("error") {
            return Output::Refusal;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        if let Some(result) = ["1-0", "0-1", "1/2-1/2"].into_iter().find(|r| *r == first) {
            return Output::Result(result);
        }
        let ply = first.trim_end_matches(|c: char| !c.is_ascii_digit());
        match (ply.parse::<u32>(), words.next().map(str::parse::<i32>)) {
            (Ok(_), Some(Ok(score))) => Output::Thinking(score),
            _ => Output::Other,
        }
    }
}

/// The `name=value` pairs of a `feature` line; values may be quoted (`myname="Phalanx XXV"`).
fn parse_features(list: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = list.trim_start();
    while let Some((name, after)) = rest.split_once('=') {
        let (value, tail) = match after.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => after.split_once(char::is_whitespace).unwrap_or((after, "")),
        };
        pairs.push((name.trim().to_string(), value.to_string()));
        rest = tail.trim_start();
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines_parse_with_quoted_values() {
        let pairs = parse_features(
            r#"analyze=1 setboard=1 option="Randomizer (0-50) -slider 0 0 50" ping=1 "#,
        );
        let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["analyze", "setboard", "option", "ping"]);
        assert_eq!(pairs[2].1, "Randomizer (0-50) -slider 0 0 50");
        assert_eq!(
            parse_features(r#"myname="Phalanx XXV""#)[0].1,
            "Phalanx XXV"
        );
    }

    #[test]
    fn output_lines_are_told_apart() {
        assert_eq!(Output::parse("move e7e5"), Output::Move("e7e5"));
        assert_eq!(Output::parse("My move is: Nf3"), Output::Move("Nf3"));
        assert_eq!(
            Output::parse(" 9&   -35   120  80412 Nf3 d5"),
            Output::Thinking(-35)
        );
        assert_eq!(
            Output::parse("12. 100003 5 10 Qh7#"),
            Output::Thinking(100_003)
        );
        assert_eq!(Output::parse("0-1 {White resigns}"), Output::Result("0-1"));
        assert_eq!(Output::parse("resign"), Output::Resign);
        assert_eq!(Output::parse("Illegal move: e2e5"), Output::Refusal);
        assert_eq!(Output::parse("tellics set 1 Phalanx XXV"), Output::Other);
        assert_eq!(Output::parse("pong 3"), Output::Other);
    }

    #[test]
    fn controls_become_level_or_st() {
        let clock = |base_ms, inc_ms| Control::Clock { base_ms, inc_ms };
        assert_eq!(level(clock(10_000, 100)).unwrap(), "level 0 0:10 0.1");
        assert_eq!(level(clock(180_000, 2_000)).unwrap(), "level 0 3:00 2");
        assert_eq!(level(Control::Movetime(3_000)).unwrap(), "st 3");
        assert!(level(Control::Movetime(500)).is_err());
        assert!(level(Control::Nodes(10_000)).is_err());
    }

    #[test]
    fn engine_moves_in_coordinates_or_san_become_uci() {
        let start = Position::startpos();
        assert_eq!(move_to_uci(&start, "g1f3").as_deref(), Some("g1f3"));
        assert_eq!(move_to_uci(&start, "Nf3").as_deref(), Some("g1f3"));
        assert_eq!(move_to_uci(&start, "Nf6"), None);
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(move_to_uci(&castle, "O-O").as_deref(), Some("e1g1"));
    }

    /// Where a scripted engine logs what it is told, unique to the test and the process.
    fn told_log(test: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("cutlab-xboard-{test}-{}.log", std::process::id()))
    }

    /// A scripted engine (`tests/fixtures/xboard_engine.py`): it asks for SAN, `usermove`,
    /// `setboard`, `ping` and `memory`, logs what it is told and plays the moves it is given.
    fn scripted(log: &std::path::Path, replies: &str) -> XboardEngine {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/xboard_engine.py"
        );
        let command = format!("python3 {script} {} {replies}", log.display());
        XboardEngine::start(&command, &[("Hash".into(), "32".into())]).unwrap()
    }

    #[test]
    fn a_game_is_told_move_by_move_in_the_engines_notation() {
        let log = told_log("game");
        let mut engine = scripted(&log, "Nf6 Nd5 resign");
        let clock = Control::Clock {
            base_ms: 10_000,
            inc_ms: 100,
        };
        let mut game = vec![Position::startpos()];
        let mut moves = Vec::new();
        let push = |uci: &str, game: &mut Vec<Position>, moves: &mut Vec<String>| {
            let pos = game.last().unwrap().clone();
            game.push(pos.play(pos.parse_uci(uci).unwrap()));
            moves.push(uci.to_string());
        };
        push("e2e4", &mut game, &mut moves);
        let fen = game[0].fen();
        let reply = engine.play(&fen, &moves, &game, [9_950, 9_870], clock);
        assert_eq!(reply, Ok(Answer::Move("g8f6".into(), Some(-25))));
        push("g8f6", &mut game, &mut moves);
        push("e4e5", &mut game, &mut moves);
        let reply = engine.play(&fen, &moves, &game, [9_500, 9_000], clock);
        assert_eq!(reply, Ok(Answer::Move("f6d5".into(), Some(-25))));
        push("f6d5", &mut game, &mut moves);
        push("d2d4", &mut game, &mut moves);
        assert_eq!(
            engine.play(&fen, &moves, &game, [8_000, 8_000], clock),
            Ok(Answer::Resign)
        );
        drop(engine);
        let told = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        let told: Vec<&str> = told.lines().collect();
        let first_game = [
            "new",
            "force",
            "easy",
            "post",
            "level 0 0:10 0.1",
            &format!("setboard {fen}"),
            "ping 2",
            "usermove e4",
            "time 987",
            "otim 995",
            "go",
            "force",
            "usermove e5",
            "time 900",
            "otim 950",
            "go",
            "force",
            "usermove d4",
        ];
        let at = told.iter().position(|l| *l == "new").unwrap();
        assert_eq!(told[at..at + first_game.len()], first_game);
        assert!(told.contains(&"memory 32"), "{told:?}");
        assert!(told.contains(&"accepted san"), "{told:?}");
        assert!(
            !told.contains(&"usermove Nf6"),
            "its own move is not told back"
        );
    }

    #[test]
    fn a_new_game_or_another_opening_sets_the_board_up_again() {
        let log = told_log("new-game");
        let mut engine = scripted(&log, "e5 Nf6");
        let movetime = Control::Movetime(1_000);
        let start = Position::startpos();
        let after = start.play(start.parse_uci("e2e4").unwrap());
        let moves = vec!["e2e4".to_string()];
        let game = [start.clone(), after.clone()];
        let first = engine.play(&start.fen(), &moves, &game, [0, 0], movetime);
        assert_eq!(first, Ok(Answer::Move("e7e5".into(), Some(-25))));
        engine.new_game().unwrap();
        let second = engine.play(
            &after.fen(),
            &[],
            std::slice::from_ref(&after),
            [0, 0],
            movetime,
        );
        assert_eq!(second, Ok(Answer::Move("g8f6".into(), Some(-25))));
        drop(engine);
        let told = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert_eq!(told.matches("\nnew\n").count(), 2, "{told}");
        assert!(
            told.contains(&format!("setboard {}", after.fen())),
            "{told}"
        );
        assert!(told.contains("st 1"), "{told}");
        assert!(
            !told.contains("time "),
            "no clocks at a fixed time per move: {told}"
        );
    }
}
