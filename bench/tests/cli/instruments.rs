//! The instruments end to end: depth, oracle, profile, tune-eval, suite generate.

use crate::common::*;

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
    // Its cut counts went first: those of a search whose row was not written yet are there
    // too, and must not come twice when that search runs again.
    std::fs::copy(dir.join("full.cuts.csv"), dir.join("part.cuts.csv")).unwrap();
    let refused = depth_run(&dir, "part.csv", &[]);
    assert!(!refused.status.success(), "an existing file needs --resume");
    assert!(depth_run(&dir, "part.csv", &["--resume"]).status.success());
    assert_eq!(depth_rows(&dir.join("part.csv")), full);
    assert_eq!(
        sorted_lines(&dir.join("part.cuts.csv")),
        sorted_lines(&dir.join("full.cuts.csv"))
    );

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

fn sorted(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

fn sorted_lines(path: &std::path::Path) -> Vec<String> {
    sorted(&std::fs::read_to_string(path).expect("readable"))
}

/// `depth.csv` once counted the tests of three methods only; `<out>.cuts.csv` has a row per
/// (position, variant, method tried), and a variant tries its own methods and no other.
#[test]
fn depth_counts_the_tests_of_every_method_tried() {
    let dir = temp_dir("cut-counts");
    let suite = small_suite(&dir);
    let out = Command::new(EXE)
        .args([
            "depth",
            "--variants",
            "null-move,modern",
            "--depth",
            "6",
            "--suite",
        ])
        .arg(&suite)
        .arg("--out")
        .arg(dir.join("d.csv"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut reader = csv::Reader::from_path(dir.join("d.cuts.csv")).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec!["position", "variant", "method", "tries", "cuts"]
    );
    let mut methods: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        std::collections::BTreeMap::new();
    for record in reader.records() {
        let r = record.unwrap();
        let (tries, cuts): (u64, u64) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert!(tries > 0 && cuts <= tries, "{r:?}");
        methods
            .entry(r[1].to_string())
            .or_default()
            .insert(r[2].to_string());
    }
    // null-move: its null move and the quiescence futility every preset has.
    let null_move: Vec<&str> = methods["null-move"].iter().map(String::as_str).collect();
    assert_eq!(null_move, ["null-move", "qsearch-futility"]);
    // modern: the Stockfish stack's methods, among them those depth.csv never counted.
    for method in ["null-move", "rfp", "lmp", "futility", "see-pruning"] {
        assert!(methods["modern"].contains(method), "{methods:?}");
    }
}

/// `<stem>.tallies.csv` counts every test of the trace: summed per (position, method, node
/// type, depth), the rows of an unsampled `<stem>.tests.csv` give exactly its rows, and a
/// sampled trace (fewer test rows) keeps the same tallies. The reports read the tallies, so
/// that a deep trace's test rows (gigabytes) need not be kept.
#[test]
fn trace_tallies_count_every_test() {
    use std::collections::BTreeMap;
    let dir = temp_dir("tallies");
    let suite = small_suite(&dir);
    let trace = |out: &str, extra: &[&str]| {
        stdout_of_success(
            &Command::new(EXE)
                .args(["trace", "--variant", "modern", "--depth", "5", "--suite"])
                .arg(&suite)
                .args(extra)
                .arg("--out")
                .arg(dir.join(out))
                .output()
                .unwrap(),
        );
    };
    trace("all.csv", &[]);
    trace("some.csv", &["--sample", "0.2", "--seed", "3"]);

    type Key = (String, String, String, i32);
    let mut summed: BTreeMap<Key, [u64; 4]> = BTreeMap::new();
    let mut tests = csv::Reader::from_path(dir.join("all.tests.csv")).unwrap();
    let column = |name: &str, reader: &mut csv::Reader<std::fs::File>| {
        reader
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == name)
            .unwrap()
    };
    let [
        position,
        method,
        node_type,
        depth,
        outcome,
        test_nodes,
        test_index,
    ] = [
        "position",
        "method",
        "node_type",
        "depth",
        "outcome",
        "test_nodes",
        "test_index",
    ]
    .map(|name| column(name, &mut tests));
    let mut test_rows = 0;
    for record in tests.records() {
        let r = record.unwrap();
        test_rows += 1;
        let key = (
            r[position].to_string(),
            r[method].to_string(),
            r[node_type].to_string(),
            r[depth].parse().unwrap(),
        );
        let cell = summed.entry(key).or_default();
        cell[0] += u64::from(&r[test_index] == "0");
        cell[1] += 1;
        cell[2] += u64::from(matches!(&r[outcome], "cut-high" | "cut-low" | "prune-move"));
        cell[3] += r[test_nodes].parse::<u64>().unwrap();
    }
    let tallies = |stem: &str| -> BTreeMap<Key, [u64; 4]> {
        let mut reader = csv::Reader::from_path(dir.join(format!("{stem}.tallies.csv"))).unwrap();
        assert_eq!(
            reader.headers().unwrap(),
            vec![
                "position",
                "method",
                "node_type",
                "depth",
                "nodes_tried",
                "tries",
                "cuts",
                "test_nodes"
            ]
        );
        reader
            .records()
            .map(|record| {
                let r = record.unwrap();
                let n = |i: usize| r[i].parse::<u64>().unwrap();
                (
                    (
                        r[0].to_string(),
                        r[1].to_string(),
                        r[2].to_string(),
                        r[3].parse().unwrap(),
                    ),
                    [n(4), n(5), n(6), n(7)],
                )
            })
            .collect()
    };
    assert!(summed.len() > 10, "{summed:?}");
    assert_eq!(tallies("all"), summed);
    assert_eq!(tallies("some"), summed, "sampling drops rows, not tallies");
    let sampled_rows = csv::Reader::from_path(dir.join("some.tests.csv"))
        .unwrap()
        .records()
        .count();
    assert!(
        sampled_rows < test_rows / 2,
        "{sampled_rows} of {test_rows}"
    );
}

/// A run with nothing to write (here an empty shard) once left files of zero bytes, which
/// pandas and polars refuse; they name their columns.
#[test]
fn an_output_without_rows_names_its_columns() {
    let dir = temp_dir("no-rows");
    let out = depth_run(&dir, "d.csv", &["--shard", "4/4"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("d.csv")).unwrap();
    assert!(
        text.starts_with("position,variant,stage,") && text.lines().count() == 1,
        "{text}"
    );
    let text = std::fs::read_to_string(dir.join("d.cuts.csv")).unwrap();
    assert_eq!(text, "position,variant,method,tries,cuts\n");
}

/// `regress` once extended an existing output without being asked (and without dropping a
/// torn last row); like every command that appends rows, it needs `--resume`.
#[test]
fn regress_continues_an_output_only_with_resume() {
    let dir = temp_dir("regress");
    let suite = small_suite(&dir);
    let out = dir.join("samples.csv");
    let regress = |extra: &[&str]| {
        Command::new(EXE)
            .args(["regress", "--depths", "1..3", "--suite"])
            .arg(&suite)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(regress(&[]).status.success());
    let whole = std::fs::read_to_string(&out).unwrap();
    assert_eq!(whole.lines().count(), 1 + 3 * 3, "{whole}");
    let refused = regress(&[]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pass --resume"));
    // Two positions kept, the third cut inside its first row.
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&out, lines[..7].join("\n") + "\n" + &lines[7][..5]).unwrap();
    let resumed = regress(&["--resume", "--threads", "2"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    // Every row once, the same (time_ms aside).
    let untimed = |text: &str| -> Vec<String> {
        sorted(text)
            .iter()
            .map(|l| {
                let mut fields: Vec<&str> = l.split(',').collect();
                fields.remove(5);
                fields.join(",")
            })
            .collect()
    };
    assert_eq!(
        untimed(&std::fs::read_to_string(&out).unwrap()),
        untimed(&whole)
    );
}

#[test]
fn regret_is_zero_when_the_variant_is_the_oracle() {
    let dir = temp_dir("oracle");
    let suite = small_suite(&dir);
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
    // Two threads (an oracle and an engine per variant each) give the same rows, in another
    // order.
    let threaded = dir.join("threaded.csv");
    let status = Command::new(EXE)
        .args(["oracle", "--suite", suite.to_str().unwrap()])
        .args(["--variants", variant.to_str().unwrap(), "--depth", "3"])
        .args(["--oracle", "internal:depth=3", "--threads", "2", "--out"])
        .arg(&threaded)
        .status()
        .expect("oracle runs");
    assert!(status.success());
    assert_eq!(sorted_lines(&threaded), sorted_lines(&out));
    assert_eq!(
        sorted_lines(&dir.join("threaded.oracle.csv")),
        sorted_lines(&dir.join("regret.oracle.csv"))
    );
    // At fixed nodes every variant gets the same effort and the rows repeat, on one thread
    // or two; a search stops at its nodes (at the node that reaches them: one or so past).
    let at_nodes = |name: &str, threads: &str| {
        let out = dir.join(name);
        let status = Command::new(EXE)
            .args(["oracle", "--suite", suite.to_str().unwrap()])
            .args(["--variants", "null-move,null-move+mpc", "--nodes", "3000"])
            .args([
                "--oracle",
                "internal:depth=3",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .status()
            .expect("oracle runs");
        assert!(status.success());
        out
    };
    let (one, two) = (at_nodes("nodes1.csv", "1"), at_nodes("nodes2.csv", "2"));
    assert_eq!(sorted_lines(&one), sorted_lines(&two));
    let mut reader = csv::Reader::from_path(&one).unwrap();
    let nodes: Vec<u64> = reader
        .records()
        .map(|r| r.unwrap()[9].parse().unwrap())
        .collect();
    assert_eq!(nodes.len(), 6);
    assert!(nodes.iter().all(|&n| n > 0 && n < 3030), "{nodes:?}");
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

/// The 32-byte records of a datagen run, sorted (their order follows the threads).
fn datagen_records(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(dir.join("data.bin")).unwrap();
    assert_eq!(bytes.len() % 32, 0);
    let mut records: Vec<Vec<u8>> = bytes.chunks(32).map(<[u8]>::to_vec).collect();
    records.sort();
    records
}

/// The records of the runs `dir/one` and `dir/two` (shards 1/2 and 2/2), together, sorted.
fn shard_records(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut shards = datagen_records(&dir.join("one"));
    shards.extend(datagen_records(&dir.join("two")));
    shards.sort();
    shards
}

/// Self-play data: every record is a legal position seen from the side to move, not in
/// check, with the game's result from that side's view; an interrupted run (its last game
/// cut inside its records) resumes to the same records, and two shards make the whole.
#[test]
fn datagen_writes_positions_that_resume_and_shard_to_the_same_data() {
    let dir = temp_dir("datagen");
    let run = |out: &str, extra: &[&str]| {
        let out = Command::new(EXE)
            .args(["datagen", "--games", "4", "--nodes", "300", "--out"])
            .arg(dir.join(out))
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run("whole", &["--threads", "2"]);
    let whole = datagen_records(&dir.join("whole"));
    assert!(whole.len() > 20, "{} records", whole.len());
    let games = std::fs::read_to_string(dir.join("whole/games.csv")).unwrap();
    for record in &whole {
        // bulletformat: occupancy, 4-bit pieces (colour bit 8 = the other side), score,
        // result (0, 1, 2 halves of a point for the side to move), kings.
        let occ = u64::from_le_bytes(record[..8].try_into().unwrap());
        let mut board = shakmaty::Board::empty();
        for (i, square) in (0..64).filter(|s| occ >> s & 1 == 1).enumerate() {
            let code = record[8 + i / 2] >> (4 * (i % 2)) & 0xF;
            let role = shakmaty::Role::ALL[usize::from(code & 7)];
            let color = if code & 8 == 0 {
                shakmaty::Color::White
            } else {
                shakmaty::Color::Black
            };
            board.set_piece_at(shakmaty::Square::new(square), role.of(color));
        }
        let setup = shakmaty::Setup {
            board,
            ..shakmaty::Setup::empty()
        };
        let pos: shakmaty::Chess = setup
            .position(shakmaty::CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .expect("a legal position");
        assert!(!shakmaty::Position::is_check(&pos), "a record in check");
        assert!(record[26] <= 2, "result {}", record[26]);
    }
    // An interruption inside the last game's records, before its line: resumed, the same.
    std::fs::create_dir_all(dir.join("cut")).unwrap();
    let bytes = std::fs::read(dir.join("whole/data.bin")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let kept_end: usize = lines[lines.len() - 2]
        .rsplit(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    std::fs::write(dir.join("cut/data.bin"), &bytes[..kept_end + 32 * 3]).unwrap();
    std::fs::write(
        dir.join("cut/games.csv"),
        lines[..lines.len() - 1].join("\n") + "\n",
    )
    .unwrap();
    std::fs::copy(
        dir.join("whole/datagen.config.toml"),
        dir.join("cut/datagen.config.toml"),
    )
    .unwrap();
    run("cut", &["--resume", "--threads", "2"]);
    assert_eq!(datagen_records(&dir.join("cut")), whole);
    // Shards: games 1, 3 and games 2, 4.
    run("one", &["--shard", "1/2"]);
    run("two", &["--shard", "2/2"]);
    assert_eq!(shard_records(&dir), whole);
}

/// Training on datagen's positions: the loss table, a network file the engine reads with its
/// record (command, data, the data's commit), and a run resumed from its checkpoint that
/// ends where the uninterrupted run ends.
#[test]
fn train_writes_a_network_and_resumes_from_its_checkpoint() {
    let dir = temp_dir("train");
    let out = Command::new(EXE)
        .args(["datagen", "--games", "6", "--nodes", "300", "--out"])
        .arg(dir.join("data"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let train = |out: &str, extra: &[&str]| {
        Command::new(EXE)
            .arg("train")
            .arg(dir.join("data"))
            .args([
                "--batch",
                "64",
                "--validation",
                "0.3",
                "--drop-epoch",
                "3",
                "--out",
            ])
            .arg(dir.join(out))
            .args(extra)
            .output()
            .unwrap()
    };
    let whole = train("whole", &["--epochs", "3"]);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let net = std::fs::read(dir.join("whole/net.nnue")).unwrap();
    assert!(net.starts_with(b"CUTLABNN"));
    let text = String::from_utf8_lossy(&net[..400]);
    assert!(
        text.contains("generated_at_commit") && text.contains("training_positions"),
        "{text}"
    );
    let losses = |out: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(out).join("loss.csv"))
            .unwrap()
            .lines()
            .map(|l| {
                let fields: Vec<&str> = l.split(',').collect();
                fields[..4].join(",")
            })
            .collect()
    };
    assert_eq!(losses("whole").len(), 1 + 3);
    assert!(train("part", &["--epochs", "2"]).status.success());
    assert!(
        !train("part", &["--epochs", "3"]).status.success(),
        "needs --resume"
    );
    assert!(
        train("part", &["--epochs", "3", "--resume"])
            .status
            .success()
    );
    assert_eq!(losses("part"), losses("whole"));
    let weights = |out: &str| {
        let bytes = std::fs::read(dir.join(out).join("net.nnue")).unwrap();
        bytes[bytes.len() - 2 * (769 * 128 + 2 * 128 + 1)..].to_vec()
    };
    assert_eq!(weights("part"), weights("whole"));
    // The finished run resumed at another output scale: quantised again, not trained (the
    // same losses), the feature layer as it was and the output layer halved (each weight
    // rounded once from the float: |2s - u| <= 2 x 1/2 + 1/2 for integers s, u).
    let halved = train(
        "part",
        &["--epochs", "3", "--resume", "--output-scale", "0.5"],
    );
    assert!(
        halved.status.success(),
        "{}",
        String::from_utf8_lossy(&halved.stderr)
    );
    assert_eq!(losses("part"), losses("whole"));
    // Read by the engine's own reader (which also checks the integers' ranges).
    let network = |out: &str| {
        let bytes = std::fs::read(dir.join(out).join("net.nnue")).unwrap();
        cutlab_search::nnue::Network::from_bytes(&bytes).unwrap()
    };
    let (scaled, unscaled) = (network("part"), network("whole"));
    assert_eq!(scaled.feature_weights, unscaled.feature_weights);
    assert_eq!(scaled.feature_bias, unscaled.feature_bias);
    let output = |n: &cutlab_search::nnue::Network| -> Vec<i32> {
        n.output_weights
            .iter()
            .chain([&n.output_bias])
            .map(|&w| i32::from(w))
            .collect()
    };
    let (scaled, unscaled) = (output(&scaled), output(&unscaled));
    assert!(unscaled.iter().any(|&w| w.abs() >= 4), "{unscaled:?}");
    for (s, u) in scaled.iter().zip(&unscaled) {
        assert!((2 * s - u).abs() <= 1, "{s} is not half of {u}");
    }
    // Data that grew under the same name is other data: the resume is refused (it once
    // trained its later epochs on more positions than its first, in one loss.csv).
    let data = dir.join("data/data.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    let first: Vec<u8> = bytes[..32].to_vec();
    bytes.extend(first);
    std::fs::write(&data, &bytes).unwrap();
    let grown = train("part", &["--epochs", "4", "--resume"]);
    let err = String::from_utf8_lossy(&grown.stderr);
    assert!(
        !grown.status.success() && err.contains("data_content"),
        "{err}"
    );
    // Refused before any training, naming the option: no validation share, a scale that
    // would saturate, and a folder whose network no training run here wrote.
    let no_validation = Command::new(EXE)
        .arg("train")
        .arg(dir.join("data"))
        .args(["--validation", "0", "--out"])
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    let scale = train("refused", &["--epochs", "1", "--output-scale", "1e30"]);
    for (out, words) in [
        (
            no_validation,
            "--validation must be strictly between 0 and 1",
        ),
        (scale, "would saturate"),
    ] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(words), "{err}");
        assert!(!dir.join("refused/loss.csv").exists());
    }
    // The same data given twice (a folder and its data file) would count twice.
    let twice = Command::new(EXE)
        .arg("train")
        .arg(dir.join("data"))
        .arg(dir.join("data/data.bin"))
        .args(["--out"])
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&twice.stderr);
    assert!(
        !twice.status.success() && err.contains("named twice"),
        "{err}"
    );
    std::fs::create_dir_all(dir.join("foreign")).unwrap();
    std::fs::write(dir.join("foreign/net.nnue"), b"someone's network").unwrap();
    let out = train("foreign", &["--epochs", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("no checkpoint.bin"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("foreign/net.nnue")).unwrap(),
        b"someone's network"
    );
}

/// Two PGNs packed into one file under their paths below `--root` come back byte for byte
/// at those paths; `--only` picks one, names the file's PGNs when asked for another, and an
/// existing PGN is not overwritten without `--force`.
#[test]
fn games_pack_several_pgns_and_unpack_them_where_they_were() {
    let dir = temp_dir("games-pack");
    let pgn = "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
    let other = "[Event \"y\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
    let run = dir.join("run");
    std::fs::create_dir_all(run.join("m")).unwrap();
    std::fs::write(run.join("m/a.pgn"), pgn).unwrap();
    std::fs::write(run.join("b.pgn"), other).unwrap();
    let packed = dir.join("games.moves.csv.xz");
    let games =
        |args: &[&std::ffi::OsStr]| Command::new(EXE).arg("games").args(args).output().unwrap();
    let packing = stdout_of_success(&games(&[
        "pack".as_ref(),
        "--root".as_ref(),
        run.as_os_str(),
        run.join("m/a.pgn").as_os_str(),
        run.join("b.pgn").as_os_str(),
        packed.as_os_str(),
    ]));
    assert!(packing.contains("2 games of 2 PGN files"), "{packing}");
    let back = dir.join("back");
    stdout_of_success(&games(&[
        "unpack".as_ref(),
        packed.as_os_str(),
        back.as_os_str(),
    ]));
    assert_eq!(std::fs::read_to_string(back.join("m/a.pgn")).unwrap(), pgn);
    assert_eq!(std::fs::read_to_string(back.join("b.pgn")).unwrap(), other);
    let only = dir.join("only");
    let unpack_only = |name: &str| {
        games(&[
            "unpack".as_ref(),
            packed.as_os_str(),
            only.as_os_str(),
            "--only".as_ref(),
            name.as_ref(),
        ])
    };
    stdout_of_success(&unpack_only("b.pgn"));
    assert!(only.join("b.pgn").is_file() && !only.join("m").exists());
    let unknown = unpack_only("c.pgn");
    let error = String::from_utf8_lossy(&unknown.stderr);
    assert!(!unknown.status.success());
    assert!(
        error.contains("no PGN named c.pgn (it holds b.pgn, m/a.pgn)"),
        "{error}"
    );
    let again = unpack_only("b.pgn");
    let error = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.status.success() && error.contains("--force"),
        "{error}"
    );
}

/// Data from games already played: a match's games, packed, are labelled position by
/// position with each game's result; the games line up with the match's, every position is
/// one of the game's, and two shards make the whole.
#[test]
fn datagen_labels_the_positions_of_played_games() {
    let dir = temp_dir("datagen-from-games");
    let (csv, pgn) = (dir.join("m.csv"), dir.join("m.pgn"));
    let mut args = plain_match(&["--seed", "3", "--out"]);
    args.push(csv.to_str().unwrap());
    args.extend(["--pgn", pgn.to_str().unwrap()]);
    stdout_of_success(&Command::new(EXE).args(&args).output().unwrap());
    let packed = dir.join("m.moves.csv.xz");
    stdout_of_success(
        &Command::new(EXE)
            .args(["games", "pack"])
            .args([&pgn, &packed])
            .output()
            .unwrap(),
    );
    let run = |out: &str, extra: &[&str]| {
        stdout_of_success(
            &Command::new(EXE)
                .args(["datagen", "--variant", "null-move+lmr", "--nodes", "200"])
                .arg("--from-games")
                .arg(&packed)
                .arg("--out")
                .arg(dir.join(out))
                .args(extra)
                .output()
                .unwrap(),
        )
    };
    run("whole", &[]);
    // One line per game, in the match's order, with its result and at most a position a ply.
    let columns = |path: &std::path::Path, result: usize, count: usize| -> Vec<(String, usize)> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[result].to_string(), f[count].parse().unwrap())
            })
            .collect()
    };
    // The match's (result, plies) and the labelling's (result, positions).
    let played = columns(&csv, 5, 7);
    let labelled = columns(&dir.join("whole/games.csv"), 2, 1);
    assert_eq!(labelled.len(), played.len());
    for ((result, positions), (played_result, plies)) in labelled.iter().zip(&played) {
        assert_eq!(result, played_result);
        assert!(
            *positions > 0 && positions <= plies,
            "{positions} of {plies}"
        );
    }
    let whole = datagen_records(&dir.join("whole"));
    assert_eq!(whole.len(), labelled.iter().map(|(_, n)| n).sum::<usize>());
    run("one", &["--shard", "1/2"]);
    run("two", &["--shard", "2/2"]);
    assert_eq!(shard_records(&dir), whole);
    // A file that is not a packed games file is named in the error.
    let bad = Command::new(EXE)
        .args(["datagen", "--from-games"])
        .arg(&pgn)
        .arg("--out")
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("m.pgn"));
    std::fs::remove_dir_all(&dir).ok();
}
