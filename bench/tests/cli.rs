//! The `cutlab` binary driven as a user or a GUI would: a UCI session over stdin/stdout, the
//! bench signature, and the experiments, `reproduce` and `profile` end to end.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    sync::mpsc,
    time::Duration,
};

const EXE: &str = env!("CARGO_BIN_EXE_cutlab");

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

/// The recorded signature: a commit that changes the search's tree updates
/// `bench/signature.txt` and says `Bench: N` in its message.
#[test]
fn bench_gives_the_recorded_signature() {
    let recorded = include_str!("../signature.txt").trim();
    let out = Command::new(EXE).arg("bench").output().expect("bench runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let last = text.lines().last().expect("summary line");
    assert_eq!(
        last.split_whitespace().next(),
        Some(recorded),
        "bench signature moved: '{last}' (update bench/signature.txt and say Bench: N)"
    );
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutlab-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `body` as an executable shell script in `dir` and returns the `--engine` word that
/// runs it as a UCI engine.
fn script_engine(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join(name);
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("uci={}", script.display())
}

/// The standard output of a command that must have succeeded (else its standard error).
fn stdout_of_success(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

const SMALL_SUITE: &str = "\
r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - id \"a\";
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - id \"b\";
4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - id \"c\";
";

fn depth_run(dir: &std::path::Path, out: &str, extra: &[&str]) -> std::process::Output {
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).expect("suite written");
    let mut args = vec![
        "depth",
        "--suite",
        suite.to_str().unwrap(),
        "--variants",
        "null-move,null-move+mpc",
        "--depth",
        "5",
    ];
    let out_path = dir.join(out);
    args.extend(["--out", out_path.to_str().unwrap()]);
    args.extend(extra);
    Command::new(EXE).args(&args).output().expect("depth runs")
}

/// (position, variant, nodes) rows of a depth file, sorted.
fn depth_rows(path: &std::path::Path) -> Vec<(String, String, String)> {
    let mut reader = csv::Reader::from_path(path).expect("readable");
    let mut rows: Vec<_> = reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            (r[0].to_string(), r[1].to_string(), r[6].to_string())
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn depth_resumes_after_an_interruption_with_the_same_rows() {
    let dir = temp_dir("resume");
    assert!(depth_run(&dir, "full.csv", &[]).status.success());
    let full = depth_rows(&dir.join("full.csv"));
    assert_eq!(full.len(), 6);

    // An interrupted run: the header and two rows made it to disk.
    let text = std::fs::read_to_string(dir.join("full.csv")).unwrap();
    let partial: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(dir.join("part.csv"), partial.join("\n") + "\n").unwrap();
    let refused = depth_run(&dir, "part.csv", &[]);
    assert!(!refused.status.success(), "an existing file needs --resume");
    assert!(depth_run(&dir, "part.csv", &["--resume"]).status.success());
    assert_eq!(depth_rows(&dir.join("part.csv")), full);

    // Cut inside the last field of the third row: every field is there, but no newline. The
    // resumed run once counted it and appended the next row onto the same line.
    let cut = text.lines().take(4).collect::<Vec<_>>().join("\n");
    std::fs::write(dir.join("torn.csv"), &cut[..cut.len() - 1]).unwrap();
    let resumed = depth_run(&dir, "torn.csv", &["--resume"]);
    assert!(resumed.status.success());
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("last line has no end"), "{stderr}");
    assert_eq!(depth_rows(&dir.join("torn.csv")), full);

    // A resume with a setting that changes the rows is refused, naming it (it once reported
    // "0 searches to run" and the old rows under the new settings); one that only spreads the
    // work differently goes on.
    std::fs::write(dir.join("again.csv"), partial.join("\n") + "\n").unwrap();
    assert!(depth_run(&dir, "again.csv", &["--resume"]).status.success());
    let before = std::fs::read(dir.join("again.csv")).unwrap();
    let other = depth_run(&dir, "again.csv", &["--resume", "--hash-mb", "32"]);
    assert!(!other.status.success());
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(stderr.contains("args.hash_mb: 16 -> 32"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.join("again.csv")).unwrap(),
        before,
        "nothing written"
    );
    assert!(
        depth_run(&dir, "again.csv", &["--resume", "--threads", "2"])
            .status
            .success()
    );
}

#[test]
fn shards_merge_into_the_whole() {
    let dir = temp_dir("shards");
    assert!(depth_run(&dir, "full.csv", &[]).status.success());
    for k in 1..=2 {
        let shard = format!("{k}/2");
        assert!(
            depth_run(&dir, &format!("s{k}.csv"), &["--shard", &shard])
                .status
                .success()
        );
    }
    let merged = dir.join("merged.csv");
    let status = Command::new(EXE)
        .args(["merge", merged.to_str().unwrap()])
        .args([dir.join("s1.csv"), dir.join("s2.csv")])
        .status()
        .expect("merge runs");
    assert!(status.success());
    assert_eq!(depth_rows(&merged), depth_rows(&dir.join("full.csv")));

    // A file with another header is refused, naming it.
    std::fs::write(dir.join("other.csv"), "a,b\n1,2\n").unwrap();
    let out = Command::new(EXE)
        .args(["merge", dir.join("bad.csv").to_str().unwrap()])
        .args([dir.join("s1.csv"), dir.join("other.csv")])
        .output()
        .expect("merge runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other.csv: header differs"));
    assert!(
        !dir.join("bad.csv").exists(),
        "a failed merge writes nothing"
    );

    // Merging onto its own input once emptied it; an input twice doubled its rows; an
    // existing output was overwritten silently. Each is refused and every file kept.
    let s1 = dir.join("s1.csv");
    let before = std::fs::read(&s1).unwrap();
    let merge = |args: &[&std::path::Path]| {
        Command::new(EXE)
            .arg("merge")
            .args(args)
            .output()
            .expect("merge runs")
    };
    for (args, message) in [
        (
            vec![s1.as_path(), s1.as_path()],
            "the output is also an input",
        ),
        (
            vec![dir.join("twice.csv").as_path(), s1.as_path(), s1.as_path()],
            "named twice",
        ),
        (vec![merged.as_path(), s1.as_path()], "exists: pass --force"),
    ] {
        let out = merge(&args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read(&s1).unwrap(), before, "the input is kept");
    assert_eq!(depth_rows(&merged), depth_rows(&dir.join("full.csv")));
    // The same rows in two files are refused.
    std::fs::copy(&s1, dir.join("copy.csv")).unwrap();
    let out = merge(&[&dir.join("dup.csv"), &s1, &dir.join("copy.csv")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already in the merge"));
    assert!(!dir.join("dup.csv").exists());
}

#[test]
fn slurm_jobs_run_shards_that_merge_into_the_whole() {
    let dir = temp_dir("slurm-plan");
    assert!(depth_run(&dir, "full.csv", &[]).status.success());
    // The plan and batch scripts, without a cluster: an array of 3 shards and a merge job.
    let out = dir.join("sharded.csv");
    let suite = dir.join("suite.epd");
    let plan = dir.join("jobs");
    let submitted = Command::new(EXE)
        .args(["slurm", "--slurm-dry-run", "--slurm-array", "3", "--dir"])
        .arg(&plan)
        .args(["--", "depth", "--suite", suite.to_str().unwrap()])
        .args([
            "--variants",
            "null-move,null-move+mpc",
            "--depth",
            "5",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("slurm runs");
    assert!(submitted.status.success(), "{submitted:?}");
    let array = std::fs::read_to_string(plan.join("slurm/cutlab-depth.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --array=1-3"), "{array}");
    assert!(
        array.contains("--shard \"$SLURM_ARRAY_TASK_ID/3\""),
        "{array}"
    );
    let merge = std::fs::read_to_string(plan.join("slurm/cutlab-depth-merge.sbatch")).unwrap();
    assert!(merge.contains("--merge 3"), "{merge}");
    // Resubmitted from anywhere, a script reads and writes the same files: the submission's
    // directory is the job's, the logs' path absolute.
    let cwd = std::env::current_dir().unwrap();
    assert!(
        array.contains(&format!("#SBATCH --chdir={}", cwd.display())),
        "{array}"
    );
    assert!(array.contains("#SBATCH --output=/"), "{array}");

    // What the jobs run, run here: each shard, then the merge.
    let step = |extra: &[&str]| {
        Command::new(EXE)
            .arg("step")
            .arg(&plan)
            .arg("depth")
            .args(extra)
            .output()
            .expect("step runs")
    };
    let early = step(&["--merge", "3"]);
    assert!(
        !early.status.success(),
        "merging before the shards end is refused"
    );
    assert!(String::from_utf8_lossy(&early.stderr).contains("shard 1/3 has not finished"));
    for k in 1..=3 {
        let shard = step(&["--shard", &format!("{k}/3")]);
        assert!(shard.status.success(), "{shard:?}");
    }
    let merged = step(&["--merge", "3"]);
    assert!(merged.status.success());
    // The merge job's log has the result, and the shards' files are gone.
    let log = String::from_utf8_lossy(&merged.stdout);
    assert!(
        log.contains("3 shards merged") && log.contains("mean nodes"),
        "{log}"
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains(".shard"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(
        step(&["--merge", "3"]).status.success(),
        "merged once, done"
    );
    assert_eq!(depth_rows(&out), depth_rows(&dir.join("full.csv")));
    // A command that would fail on the cluster is refused before anything is written.
    for (words, message) in [
        (
            vec!["depth", "--suite", "missing.epd", "--depth", "2"],
            "no such file",
        ),
        (
            vec!["depth", "--variants", "null-mov", "--depth", "2"],
            "unknown variant",
        ),
        (
            vec!["depth", "--variants", "null-move", "--depht", "2"],
            "does not parse",
        ),
    ] {
        let refused_dir = dir.join("refused");
        let out = Command::new(EXE)
            .args(["slurm", "--slurm-dry-run", "--dir"])
            .arg(&refused_dir)
            .arg("--")
            .args(&words)
            .args(["--out", "x.csv"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains(message),
            "{words:?}: {stderr}"
        );
        assert!(!refused_dir.exists(), "{words:?} wrote its plan");
    }
    assert!(
        plan.join("steps/depth.toml").is_file(),
        "the step is recorded"
    );
}

#[test]
fn regret_is_zero_when_the_variant_is_the_oracle() {
    let dir = temp_dir("oracle");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).unwrap();
    let variant = dir.join("exact.toml");
    std::fs::write(&variant, "name = \"exact\"\ntt_cutoffs = false\n").unwrap();
    let out = dir.join("regret.csv");
    let status = Command::new(EXE)
        .args([
            "oracle",
            "--suite",
            suite.to_str().unwrap(),
            "--variants",
            variant.to_str().unwrap(),
        ])
        .args([
            "--depth",
            "3",
            "--oracle",
            "internal:depth=3",
            "--out",
            out.to_str().unwrap(),
        ])
        .status()
        .expect("oracle runs");
    assert!(status.success());
    let mut reader = csv::Reader::from_path(&out).unwrap();
    let regrets: Vec<i32> = reader
        .records()
        .map(|r| r.unwrap()[7].parse().unwrap())
        .collect();
    assert_eq!(regrets, [0, 0, 0]);
    // The oracle's scores were cached: one row per legal move of each position.
    assert!(dir.join("regret.oracle.csv").exists());
    // Resuming with another oracle is refused: its rows would be mixed with these.
    let other = Command::new(EXE)
        .args(["oracle", "--suite", suite.to_str().unwrap()])
        .args(["--variants", variant.to_str().unwrap(), "--depth", "3"])
        .args(["--oracle", "internal:depth=2", "--resume", "--out"])
        .arg(&out)
        .output()
        .expect("oracle runs");
    assert!(!other.status.success());
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(stderr.contains("judged by another oracle"), "{stderr}");
}

#[test]
fn a_short_match_pairs_openings_and_counts_consistently() {
    let dir = temp_dir("match");
    let csv_path = dir.join("games.csv");
    let pgn_path = dir.join("games.pgn");
    let out = Command::new(EXE)
        .args([
            "match",
            "--engine",
            "variant=null-move+lmr",
            "--engine",
            "variant=null-move",
            "--nodes",
            "3000",
        ])
        .args(["--rounds", "3", "--concurrency", "2", "--maxmoves", "60"])
        .args([
            "--out",
            csv_path.to_str().unwrap(),
            "--pgn",
            pgn_path.to_str().unwrap(),
        ])
        .output()
        .expect("match runs");
    let report = stdout_of_success(&out);
    assert!(report.contains("Games: 6,"), "{report}");
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 6);
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][2], pair[1][2], "a pair shares its opening");
        assert_eq!(
            (&pair[0][3], &pair[0][4]),
            (&pair[1][4], &pair[1][3]),
            "colours swapped"
        );
    }
    let wins = rows.iter().filter(|r| &r[8] == "1.0").count();
    let losses = rows.iter().filter(|r| &r[8] == "0.0").count();
    assert!(
        report.contains(&format!(
            "Wins: {wins}, Losses: {losses}, Draws: {}",
            6 - wins - losses
        )),
        "{report}"
    );
    let pgn_games = || {
        std::fs::read_to_string(&pgn_path)
            .unwrap()
            .matches("[Event ")
            .count()
    };
    assert_eq!(pgn_games(), 6);
    // A resumed match plays only the missing pair and appends its games to the PGN.
    let out = Command::new(EXE)
        .args(["match", "--engine", "variant=null-move+lmr"])
        .args(["--engine", "variant=null-move", "--nodes", "3000"])
        .args(["--rounds", "4", "--maxmoves", "60", "--resume"])
        .args(["--out", csv_path.to_str().unwrap()])
        .args(["--pgn", pgn_path.to_str().unwrap()])
        .output()
        .expect("match resumes");
    assert!(stdout_of_success(&out).contains("Games: 8,"));
    assert_eq!(pgn_games(), 8);
}

#[test]
fn a_failing_external_engine_loses_and_the_match_goes_on() {
    let dir = temp_dir("badengine");
    // Answers the handshake, then plays an illegal move (first game) or dies (afterwards).
    let engine = script_engine(
        &dir,
        "bad-engine.sh",
        "#!/bin/sh\nn=0\nwhile read line; do case \"$line\" in\n uci) echo 'id name bad'; echo uciok;;\n isready) echo readyok;;\n go*) n=$((n+1)); if [ $n -eq 1 ]; then echo 'bestmove a1a1'; else exit 1; fi;;\n quit) exit 0;;\n esac; done\n",
    );
    let out = Command::new(EXE)
        .args([
            "match",
            "--engine",
            "variant=null-move",
            "--engine",
            &engine,
            "--nodes",
            "2000",
            "--rounds",
            "2",
            "--restarts",
            "0",
        ])
        .output()
        .expect("match runs");
    let report = stdout_of_success(&out);
    assert!(report.contains("Games: 4, Wins: 4, Losses: 0"), "{report}");
    assert!(!report.contains("illegal moves: 0"), "{report}");
    assert!(!report.contains("engine failures: 0"), "{report}");
}

#[test]
fn an_xboard_engine_plays_by_the_clock_and_its_resignation_ends_the_game() {
    let dir = temp_dir("xboard");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/xboard_engine.py"
    );
    let log = dir.join("told.log");
    let engine = format!("xboard=python3 {script} {} resign resign", log.display());
    let csv = dir.join("games.csv");
    let run = |control: &[&str]| {
        Command::new(EXE)
            .args([
                "match",
                "--engine",
                "variant=null-move",
                "--engine",
                &engine,
            ])
            .args(control)
            .args(["--rounds", "1", "--out", csv.to_str().unwrap()])
            .output()
            .expect("match runs")
    };
    let refused = run(&["--nodes", "2000"]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("cannot search a fixed number of nodes"),
        "{stderr}"
    );
    let report = stdout_of_success(&run(&["--tc", "5+0.1"]));
    assert!(report.contains("Games: 2, Wins: 2, Losses: 0"), "{report}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.matches(",resignation,").count(), 2, "{rows}");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("level 0 0:05 0.1"), "{told}");
}

#[test]
fn an_engine_that_exits_is_restarted_and_the_game_goes_on() {
    let dir = temp_dir("restart");
    // The first process answers the handshake and exits at its first `go`; every later one
    // is cutlab's own UCI engine, which plays the game on from the same position.
    let marker = dir.join("crashed-once");
    let engine = script_engine(
        &dir,
        "crash-once.sh",
        &format!(
            "#!/bin/sh\nif [ -e '{marker}' ]; then exec '{exe}' uci; fi\nwhile read line; do case \"$line\" in\n uci) echo 'id name once'; echo uciok;;\n isready) echo readyok;;\n go*) touch '{marker}'; exit 1;;\n esac; done\n",
            marker = marker.display(),
            exe = EXE,
        ),
    );
    let csv = dir.join("games.csv");
    let out = Command::new(EXE)
        .args([
            "match",
            "--engine",
            "variant=null-move",
            "--engine",
            &engine,
        ])
        .args(["--nodes", "500", "--rounds", "1", "--maxmoves", "20"])
        .arg("--out")
        .arg(&csv)
        .output()
        .expect("match runs");
    let report = stdout_of_success(&out);
    assert!(report.contains("engine failures: 0"), "{report}");
    assert!(
        report.contains("engine restarts: 1 (games continued after one: 1)"),
        "{report}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.lines().next().unwrap().ends_with(",restarts"),
        "{rows}"
    );
    assert!(!rows.contains("engine failure"), "{rows}");
}

#[test]
fn reproduce_writes_the_report_and_resumes_without_rerunning() {
    let dir = temp_dir("reproduce");
    let out = dir.join("run");
    let run = |extra: &[&str]| {
        Command::new(EXE)
            .args([
                "reproduce",
                "--smoke",
                "--engine",
                "none",
                "--positions",
                "6",
            ])
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .expect("cutlab runs")
    };
    let first = run(&[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for section in [
        "## Table 1",
        "## Sections 3-4",
        "## Table 2",
        "## Table 3",
        "## Ours: oracle regret",
        "## Ours: false cuts",
        "## Configuration",
        "## Power: what this scale is sized to decide",
        "## Headline: MPC against null move, to a decision",
        "GSPRT elo0 = 0, elo1 = 20",
    ] {
        assert!(report.contains(section), "{section} missing:\n{report}");
    }
    // The time limits follow the machine's measured speed, and the report says by how much.
    assert!(
        report.contains("every time limit is multiplied by"),
        "{report}"
    );
    assert!(
        !report.contains("## Table 4"),
        "no external engine was given"
    );
    for file in [
        "depth.svg",
        "regret-cdf.svg",
        "cuts-by-depth.svg",
        "manifest.toml",
    ] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
    let depth_rows = std::fs::read_to_string(out.join("depth.csv")).unwrap();
    assert_eq!(
        depth_rows.lines().count(),
        1 + 6 * 7,
        "6 positions x 7 variants"
    );

    let again = run(&[]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = run(&["--resume"]);
    assert!(resumed.status.success());
    let log = String::from_utf8_lossy(&resumed.stderr);
    let steps = log.lines().filter(|l| l.starts_with('[')).count();
    assert!(steps > 10, "{log}");
    assert_eq!(log.matches("done earlier").count(), steps, "{log}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn profile_writes_a_flamegraph_and_a_pprof_profile() {
    let dir = temp_dir("profile");
    let (svg, pb) = (dir.join("flame.svg"), dir.join("profile.pb"));
    let out = Command::new(EXE)
        .args([
            "profile",
            "--variant",
            "null-move",
            "--positions",
            "1",
            "--time-ms",
            "300",
        ])
        .arg("--flamegraph")
        .arg(&svg)
        .arg("--pprof")
        .arg(&pb)
        .output()
        .expect("cutlab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    assert!(std::fs::metadata(&pb).unwrap().len() > 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("function (self time)"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ablate_measures_each_method_both_ways_and_resumes() {
    let dir = temp_dir("ablate");
    let run = |extra: &[&str]| {
        Command::new(EXE)
            .args(["ablate", "--quick", "--methods", "rfp", "--positions", "2"])
            .args(["--extras", "mpc", "--engine", "none"])
            .args([
                "--nodes",
                "300",
                "--looks",
                "20",
                "--depth",
                "4",
                "--time-ms",
                "30",
            ])
            .args(["--threads", "2", "--out", dir.to_str().unwrap()])
            .args(extra)
            .output()
            .expect("ablate runs")
    };
    let out = run(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("Leave one out")
            && report.contains("Add one in")
            && report.contains("Added to the stack")
    );
    // The time factor is measured by a bench (it was read as 0 from the new manifest).
    assert!(
        report.contains("this machine's bench speed is") && !report.contains("by 0.00"),
        "{report}"
    );
    for direction in ["without", "with", "added"] {
        assert!(dir.join(format!("forest-300-{direction}.svg")).is_file());
    }
    let mut reader = csv::Reader::from_path(dir.join("ablate.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let kinds: Vec<(&str, &str)> = rows.iter().map(|r| (&r[0], &r[1])).collect();
    assert_eq!(
        kinds,
        [
            ("without", "rfp"),
            ("added", "mpc"),
            ("with", "rfp"),
            ("with", "mpc")
        ],
        "one row per comparison"
    );
    // Every measurement is there: depth, tree size, regret, games and the rule's verdict (an
    // Elo interval where the games vary: mpc changes nothing in 300 nodes, every pair drawn).
    assert!(rows.iter().any(|r| !r[column("delta_elo")].is_empty()));
    for r in &rows {
        for name in ["delta_depth_plies", "tree_size_ratio", "delta_regret_cp"] {
            assert!(!r[column(name)].is_empty(), "{name}: {r:?}");
        }
        assert_eq!(&r[column("games")], "20");
        assert!(
            ["decided", "bounded", "undecided"].contains(&&r[column("verdict")]),
            "{r:?}"
        );
        assert_eq!(&r[column("effort_nodes")], "300");
    }
    assert_eq!(
        &rows[0][column("stockfish_elo_note")],
        "~25 (step 8)",
        "Stockfish's note beside leaving reverse futility out"
    );
    // An existing run is not mixed into; --resume reruns nothing.
    assert!(!run(&[]).status.success());
    let again = run(&["--resume"]);
    assert!(again.status.success());
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(
        log.contains("done earlier") && !log.contains("cutlab match"),
        "{log}"
    );
}

#[test]
fn a_match_resumes_pair_by_pair_and_its_shards_sum_up_to_the_whole() {
    let dir = temp_dir("match-resume");
    let play = |games: &str, out: &std::path::Path, extra: &[&str]| {
        Command::new(EXE)
            .args([
                "match",
                "--engine",
                "variant=null-move",
                "--engine",
                "variant=plain",
            ])
            .args([
                "--nodes",
                "300",
                "--games",
                games,
                "--out",
                out.to_str().unwrap(),
            ])
            .args(extra)
            .output()
            .expect("match runs")
    };
    let whole = dir.join("whole.csv");
    assert!(play("4", &whole, &[]).status.success());
    assert!(
        !play("8", &whole, &[]).status.success(),
        "an existing output needs --resume"
    );
    let resumed = play("8", &whole, &["--resume"]);
    assert!(resumed.status.success());
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        log.contains("2 game pairs already in the output, 2 to play"),
        "{log}"
    );
    let mut games: Vec<usize> = csv::Reader::from_path(&whole)
        .unwrap()
        .records()
        .map(|r| r.unwrap()[0].parse().unwrap())
        .collect();
    games.sort_unstable();
    assert_eq!(games, (1..=8).collect::<Vec<_>>());
    // Fixed nodes make games deterministic: two shards sum up to the same match.
    let (one, two) = (dir.join("s1.csv"), dir.join("s2.csv"));
    assert!(play("8", &one, &["--shard", "1/2"]).status.success());
    assert!(play("8", &two, &["--shard", "2/2"]).status.success());
    let report = |files: &[&std::path::Path]| {
        let out = Command::new(EXE)
            .arg("match-report")
            .args(files)
            .output()
            .expect("match-report runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let merged = report(&[&one, &two]);
    assert_eq!(merged, report(&[&whole]));
    assert!(merged.contains("Games: 8"), "{merged}");
    let twice = Command::new(EXE)
        .args(["match-report", one.to_str().unwrap(), one.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!twice.status.success(), "the same shard twice is refused");
    // A resume with other settings (another seed, another opponent) once mixed its games in
    // silently; now it is refused, naming them. More games, or other concurrency, go on.
    let before = std::fs::read(&whole).unwrap();
    let other = play("10", &whole, &["--resume", "--seed", "7"]);
    assert!(!other.status.success());
    let log = String::from_utf8_lossy(&other.stderr);
    assert!(log.contains("args.seed: 1 -> 7"), "{log}");
    let opponent = Command::new(EXE)
        .args([
            "match",
            "--engine",
            "variant=null-move",
            "--engine",
            "variant=mpc",
        ])
        .args(["--nodes", "300", "--games", "10", "--resume", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(!opponent.status.success());
    assert!(String::from_utf8_lossy(&opponent.stderr).contains("args.engine"));
    assert_eq!(std::fs::read(&whole).unwrap(), before, "nothing written");
    assert!(
        play("10", &whole, &["--resume", "--concurrency", "2"])
            .status
            .success()
    );
}

#[test]
fn tune_eval_writes_weights_that_fit_the_results_better() {
    let dir = temp_dir("tune-eval");
    let positions = dir.join("results.epd");
    // Quiet positions where the side a piece up mostly won, and even ones drawn.
    std::fs::write(
        &positions,
        "4k3/8/8/8/8/8/3PN3/4K3 w - - c9 \"1-0\"; id \"g1.p1\";\n\
         4k3/3pn3/8/8/8/8/8/4K3 b - - c9 \"0-1\"; id \"g2.p1\";\n\
         4k3/8/8/8/8/8/3PB3/4K3 b - - c9 \"1-0\"; id \"g3.p1\";\n\
         4k3/3pb3/8/8/8/8/8/4K3 w - - c9 \"0-1\"; id \"g4.p1\";\n\
         4k3/3p4/8/8/8/8/3P4/4K3 w - - c9 \"1/2-1/2\"; id \"g5.p1\";\n\
         4k3/8/8/8/8/8/3PN3/4K3 w - - c9 \"1/2-1/2\"; id \"g6.p1\";\n\
         4k3/3pn3/8/8/8/8/8/4K3 w - - c9 \"1/2-1/2\"; id \"g7.p1\";\n\
         3k4/2p5/8/8/8/8/2P5/3K4 b - - c9 \"0-1\"; id \"g8.p1\";\n",
    )
    .unwrap();
    let out_dir = dir.join("tuned");
    let out = Command::new(EXE)
        .args(["tune-eval", positions.to_str().unwrap(), "--epochs", "20"])
        .args(["--validation-share", "0", "--min-positions", "1", "--out"])
        .arg(&out_dir)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("8 positions, 8 kept"), "{stdout}");
    let weights = std::fs::read_to_string(out_dir.join("weights.rs")).unwrap();
    assert!(weights.contains("pub static WEIGHTS: [S; COUNT]"));
    assert!(
        weights.contains("cutlab tune-eval"),
        "the command is recorded"
    );
    let mut loss = csv::Reader::from_path(out_dir.join("loss.csv")).unwrap();
    let rows: Vec<(usize, f64, f64)> = loss.deserialize().map(Result::unwrap).collect();
    assert_eq!(rows.first().map(|r| r.0), Some(0));
    assert_eq!(rows.last().map(|r| r.0), Some(20));
    assert!(rows.last().unwrap().1 < rows[0].1, "{rows:?}");
    assert!(out_dir.join("tune-eval.toml").exists());

    std::fs::write(&positions, "4k3/8/8/8/8/8/3PN3/4K3 w - - id \"x\";\n").unwrap();
    let out = Command::new(EXE)
        .args(["tune-eval", positions.to_str().unwrap(), "--force", "--out"])
        .arg(&out_dir)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("results.epd: position x: no game result"),
        "{stderr}"
    );
}

#[test]
fn generated_games_carry_their_results_whatever_the_threads() {
    let dir = temp_dir("generate");
    let run = |threads: &str, out: &str| {
        let path = dir.join(out);
        let status = Command::new(EXE)
            .args(["suite", "generate", "--games", "4", "--nodes", "300"])
            .args([
                "--per-game",
                "3",
                "--results",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&path)
            .status()
            .expect("runs");
        assert!(status.success());
        std::fs::read_to_string(path).unwrap()
    };
    let one = run("1", "one.epd");
    assert_eq!(one, run("2", "two.epd"), "threads change nothing");
    let positions: Vec<&str> = one.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!positions.is_empty());
    for line in positions {
        assert!(
            ["c9 \"1-0\";", "c9 \"0-1\";", "c9 \"1/2-1/2\";"]
                .iter()
                .any(|r| line.contains(r)),
            "{line}"
        );
    }
}

#[test]
fn an_interrupted_generation_resumes_to_the_same_suite() {
    let dir = temp_dir("generate-resume");
    let args = |out: &std::path::Path| {
        let mut command = Command::new(EXE);
        command
            .args(["suite", "generate", "--games", "60", "--nodes", "300"])
            .args(["--per-game", "2", "--results", "--out"])
            .arg(out);
        command
    };
    let whole = dir.join("whole.epd");
    assert!(args(&whole).status().expect("runs").success());
    let resumed = dir.join("resumed.epd");
    let progress = dir.join("resumed.epd.games.csv");
    let mut child = args(&resumed).spawn().expect("starts");
    // Interrupt once a few games are in.
    let mut lines = 0;
    while lines < 4 && child.try_wait().expect("waits").is_none() {
        std::thread::sleep(Duration::from_millis(5));
        lines = std::fs::read_to_string(&progress).map_or(0, |t| t.lines().count());
    }
    let _ = child.kill();
    let _ = child.wait();
    if progress.exists() {
        assert!(!resumed.exists(), "no suite before every game is in");
        let again = args(&resumed).status().expect("runs");
        assert!(
            !again.success(),
            "an existing run is not restarted silently"
        );
        let status = args(&resumed).arg("--resume").status().expect("runs");
        assert!(status.success());
    }
    assert_eq!(
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&resumed).unwrap()
    );
    assert!(
        !progress.exists(),
        "the progress file goes once the suite is written"
    );
}

/// Numbers that once crashed or hung a command (a division by zero, allocations of terabytes,
/// matches that never end) are refused where they are parsed: exit 2, clap's `error:` naming
/// the option and its range, no panic. UCI `Hash` larger than the machine is refused and the
/// old table kept.
/// Asserts that `cutlab ARGS` (two engines added for `match`) stops at parsing: exit 2,
/// clap's `error: invalid value` naming `option`, no panic.
fn assert_refused_at_parse(args: &[&str], option: &str) {
    let mut command = Command::new(EXE);
    command.args(args);
    if args[0] == "match" {
        command.args(["--engine", "variant=plain", "--engine", "variant=plain"]);
    }
    let out = command.output().expect("cutlab runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: invalid value") && stderr.contains(option),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn nonsense_numbers_are_refused_naming_the_option() {
    for (args, option) in [
        (vec!["profile", "--frequency", "0"], "--frequency"),
        (vec!["bench", "--hash-mb", "100000000"], "--hash-mb"),
        (vec!["bench", "--hash-mb", "0"], "--hash-mb"),
        (vec!["match", "--games", "99999999999999"], "--games"),
        (vec!["match", "--games", "0"], "--games"),
        (vec!["match", "--nodes", "0"], "--nodes"),
        (vec!["match", "--concurrency", "0"], "--concurrency"),
        (vec!["match", "--maxmoves", "0"], "--maxmoves"),
        (vec!["match", "--movetime-ms", "0"], "--movetime-ms"),
    ] {
        assert_refused_at_parse(&args, option);
    }
    // The UCI part asks for 64 GiB: only where the machine cannot give it (memory and swap
    // below 60 GiB), so that a larger machine does not fill its memory for the test.
    let kib = |field: &str| -> u64 {
        std::fs::read_to_string("/proc/meminfo")
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or(u64::MAX / 4)
    };
    if kib("MemTotal:") + kib("SwapTotal:") > 60 << 20 {
        return;
    }
    let mut engine = Command::new(EXE)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(b"setoption name Hash value 65536\nisready\nquit\n")
        .unwrap();
    let out = engine.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("cannot be allocated") && text.contains("Hash stays 16 MiB"),
        "{text}"
    );
}

/// An empty list of variants once gave an empty table and exit 0, and a variant, depth or
/// method named twice gave each of its rows twice: each is refused, naming the option, and
/// nothing is written.
#[test]
fn empty_or_repeated_lists_are_refused() {
    let dir = temp_dir("lists");
    for (args, message) in [
        (
            vec!["depth", "--variants", "", "--depth", "1"],
            "no variant",
        ),
        (
            vec!["depth", "--variants", "null-move,null-move", "--depth", "1"],
            "'null-move' is named twice",
        ),
        (
            vec!["oracle", "--variants", "nmp,null-move"],
            "'null-move' is named twice",
        ),
        (vec!["regress", "--depths", "3,3,1"], "'3' is named twice"),
        (
            vec!["ablate", "--methods", "rfp,rfp", "--quick"],
            "'rfp' is named twice",
        ),
        (
            vec!["reproduce", "--slurm-array", "4", "--smoke"],
            "--slurm-array: a Slurm option, given without --slurm",
        ),
        (
            vec!["ablate", "--looks", "20,10", "--quick"],
            "--looks: the game counts must increase",
        ),
        (
            vec!["ablate", "--extras", "rfp", "--quick"],
            "'rfp' is a part of the stack",
        ),
        (
            vec!["ablate", "--openings", "missing.epd", "--quick"],
            "--openings",
        ),
    ] {
        let out_path = dir.join(format!("{}.out", args[0]));
        let out = Command::new(EXE)
            .args(&args)
            .arg("--out")
            .arg(&out_path)
            .output()
            .expect("cutlab runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out_path.exists(), "{args:?} wrote its output");
    }
}

/// Time controls, depths, threads and times that made no sense were accepted (`--tc inf+0`
/// never ended, `--depth=-3`, `--threads 0`, `--time-ms 0`); each is refused where parsed.
#[test]
fn nonsense_limits_are_refused_naming_the_option() {
    for (args, option) in [
        (vec!["match", "--tc", "0+0"], "--tc"),
        (vec!["match", "--tc=-1+0"], "--tc"),
        (vec!["match", "--tc", "nan+0"], "--tc"),
        (vec!["match", "--tc", "inf+0"], "--tc"),
        (vec!["reproduce", "--tc", "0+0"], "--tc"),
        (vec!["depth", "--depth=-3"], "--depth"),
        (vec!["bench", "--depth", "0"], "--depth"),
        (vec!["depth", "--threads", "0"], "--threads"),
        (vec!["depth", "--time-ms", "0"], "--time-ms"),
        (vec!["profile", "--time-ms", "0"], "--time-ms"),
    ] {
        assert_refused_at_parse(&args, option);
    }
}

/// A published number is what the data says: every study in `results/` has its report
/// written again from its committed data, and it must equal the committed report.
#[test]
fn every_committed_report_is_what_its_data_says() {
    let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let mut studies = 0;
    for entry in std::fs::read_dir(&results).expect("results/") {
        let dir = entry.unwrap().path();
        if !dir.join("manifest.toml").is_file() {
            continue;
        }
        studies += 1;
        let out = Command::new(EXE)
            .args(["report", "--check"])
            .arg(&dir)
            .output()
            .expect("cutlab runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(studies > 0, "no study in {}", results.display());
}

/// `report --check` fails on a report that says something its data does not.
#[test]
fn a_report_that_differs_from_its_data_fails_the_check() {
    let dir = temp_dir("report-check");
    let study = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/modern-faithful");
    for file in [
        "manifest.toml",
        "report.md",
        "faithful-vs-before.games.csv.gz",
    ] {
        std::fs::copy(study.join(file), dir.join(file)).unwrap();
    }
    for file in [
        "diag-lmp-count.games.csv.gz",
        "diag-history-butterfly.games.csv.gz",
    ] {
        std::fs::copy(study.join(file), dir.join(file)).unwrap();
    }
    let check = || {
        Command::new(EXE)
            .args(["report", "--check"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    assert!(check().status.success());
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    std::fs::write(
        dir.join("report.md"),
        report.replace("278-382-340", "288-382-330"),
    )
    .unwrap();
    let out = check();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("differs from the report its data gives")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The processes whose command line mentions `needle` (Linux's /proc).
fn processes_mentioning(needle: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let e = e.ok()?;
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(needle)
                .then_some(pid)
        })
        .collect()
}

/// Killing a pipeline (SIGKILL) ended it but left its running step appending; a `--resume`
/// at once ran the step again beside it and both appended the same keys. The step now dies
/// with the run, a second run on the directory is refused while one runs, and the resumed
/// run leaves every game once.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_pipeline_takes_its_step_along_and_a_busy_directory_is_refused() {
    let dir = temp_dir("kill-pipeline");
    let run = |extra: &[&str]| {
        let mut command = Command::new(EXE);
        command
            .args(["ablate", "--quick", "--methods", "rfp", "--extras", "none"])
            .args(["--positions", "2", "--engine", "none", "--nodes", "300"])
            .args(["--looks", "400", "--depth", "3", "--time-ms", "20"])
            .args(["--threads", "1", "--time-factor", "1", "--out"])
            .arg(&dir)
            .args(extra)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        command
    };
    let mut first = run(&[]).spawn().unwrap();
    let games = dir.join("matches/300/without-rfp.csv");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !games.is_file() {
        assert!(
            std::time::Instant::now() < deadline,
            "the match never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let needle = games.to_str().unwrap().to_string();
    assert!(!processes_mentioning(&needle).is_empty(), "the step runs");
    // A second run on the busy directory is refused, naming it.
    let second = run(&["--resume"]).output().unwrap();
    assert!(!second.status.success());
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("in use by another cutlab run"),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !processes_mentioning(&needle).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the step outlived its run"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let resumed = run(&["--resume"]).output().unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let mut reader = csv::Reader::from_path(&games).unwrap();
    let mut numbers: Vec<u64> = reader
        .records()
        .map(|r| r.unwrap()[0].parse().unwrap())
        .collect();
    let all = numbers.len();
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!(numbers.len(), all, "a game written twice");
    std::fs::remove_dir_all(&dir).ok();
}

/// With stderr not a terminal (a step's log, a Slurm job's log) nothing was written between
/// the start and the end; now plain progress lines come at a steady interval.
#[test]
fn progress_is_written_as_plain_lines_into_a_log() {
    let dir = temp_dir("progress");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).unwrap();
    let out = Command::new(EXE)
        .args([
            "depth",
            "--variants",
            "null-move",
            "--depth",
            "4",
            "--suite",
        ])
        .arg(&suite)
        .arg("--out")
        .arg(dir.join("d.csv"))
        .env("CUTLAB_PROGRESS_SECONDS", "0")
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("searches: "))
        .collect();
    assert_eq!(lines.len(), 3, "one line per search at interval 0: {log}");
    assert!(
        lines[2].starts_with("searches: 3/3 (100%)") && lines[2].contains("/s"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `trace --out` replaced even its own `--suite`; `fit`, `profile`, `suite generate`,
/// `match --pgn` and `tune-eval` overwrote without asking. One rule now: an existing output
/// is replaced only with `--force`, and an input never.
#[test]
fn existing_outputs_are_replaced_only_with_force() {
    let dir = temp_dir("overwrite");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).unwrap();
    let old = dir.join("old.txt");
    let s = suite.to_str().unwrap();
    let o = old.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["trace", "--suite", s, "--depth", "2", "--out", o],
        vec!["fit", s, "--out", o],
        vec!["profile", "--suite", s, "--time-ms", "1", "--flamegraph", o],
        vec!["suite", "generate", "--games", "1", "--out", o],
        vec!["tune-eval", s, "--out", dir.to_str().unwrap()],
        vec![
            "match",
            "--engine",
            "variant=plain",
            "--engine",
            "variant=plain",
            "--nodes",
            "50",
            "--games",
            "2",
            "--pgn",
            o,
        ],
    ];
    for args in cases {
        std::fs::write(&old, "keep me").unwrap();
        std::fs::write(dir.join("weights.rs"), "keep me").unwrap();
        let out = Command::new(EXE).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr.contains("exists: pass --force"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read_to_string(&old).unwrap(),
            "keep me",
            "{args:?}"
        );
    }
    // An input is never an output, --force or not.
    let out = Command::new(EXE)
        .args(["trace", "--suite", s, "--depth", "2", "--force", "--out", s])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("names an input"));
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), SMALL_SUITE);
    // With --force the output is replaced.
    let out = Command::new(EXE)
        .args(["trace", "--suite", s, "--depth", "2", "--force", "--out", o])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(std::fs::read_to_string(&old).unwrap(), "keep me");
    std::fs::remove_dir_all(&dir).ok();
}

/// `depth` wrote a checkmated root as depth 0, score 0 (a mate scored as a draw) and
/// counted it; `regress` said it wrote positions it did not; `match` played 0-ply games
/// from mated openings. Positions with no legal move are skipped, counted and named.
#[test]
fn positions_without_a_legal_move_are_skipped_and_counted() {
    let dir = temp_dir("terminal");
    let suite = dir.join("suite.epd");
    std::fs::write(
        &suite,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - id \"mated\";\n\
         7k/5Q2/6K1/8/8/8/8/8 b - - id \"stalemate\";\n\
         r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - id \"live\";\n",
    )
    .unwrap();
    let out = Command::new(EXE)
        .args([
            "depth",
            "--variants",
            "null-move",
            "--depth",
            "3",
            "--suite",
        ])
        .arg(&suite)
        .arg("--out")
        .arg(dir.join("d.csv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("skipped 2 positions with no legal move") && stderr.contains("mated"),
        "{stderr}"
    );
    let rows = depth_rows(&dir.join("d.csv"));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].0, "live");
    // Openings that are all over: no match at all.
    std::fs::write(&suite, "7k/5Q2/6K1/8/8/8/8/8 b - - id \"stalemate\";\n").unwrap();
    let out = Command::new(EXE)
        .args([
            "match",
            "--engine",
            "variant=plain",
            "--engine",
            "variant=plain",
        ])
        .args(["--nodes", "50", "--games", "2", "--openings"])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no openings to use"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Ctrl-C ended a resumable command with 130 and no word on how to continue.
#[cfg(unix)]
#[test]
fn an_interrupted_command_says_how_to_continue() {
    let dir = temp_dir("sigint");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).unwrap();
    let child = Command::new(EXE)
        .args([
            "depth",
            "--variants",
            "null-move",
            "--time-ms",
            "3000",
            "--suite",
        ])
        .arg(&suite)
        .arg("--out")
        .arg(dir.join("d.csv"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("again with --resume to continue"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}
