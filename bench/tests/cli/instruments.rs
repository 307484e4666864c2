//! The instruments end to end: depth, trace, regress, oracle, profile, tune-eval, suite generate.

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
    succeeds(
        Command::new(EXE)
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
            .arg(dir.join("d.csv")),
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
    assert_success(&out);
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
    assert_success(&resumed);
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
        .args(["--oracle", "internal:depth=4", "--resume", "--out"])
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
    let out = succeeds(
        Command::new(EXE)
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
            .arg(&pb),
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    assert!(std::fs::metadata(&pb).unwrap().len() > 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("function (self time)"));
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
    let out = null_move_depth(&suite, ["--depth", "3"], &dir)
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
    let out = match_of(["variant=plain", "variant=plain"])
        .args(["--nodes", "50", "--games", "2", "--openings"])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no openings to use"));
}

/// `depth` explains itself: its summary beside the rows as a tidy CSV (a line per variant, the
/// positions `--positions` kept), a markdown table with where it ran (commit, build, machine;
/// the bench speed and load of a timed run) and a figure.
#[test]
fn depth_writes_its_summary_where_it_ran_and_a_figure() {
    let dir = temp_dir("depth-summary");
    let suite = small_suite(&dir);
    for (limit, speed) in [(["--depth", "2"], false), (["--time-ms", "20"], true)] {
        let out = dir.join(format!("d{}.csv", limit[0].trim_start_matches('-')));
        succeeds(
            Command::new(EXE)
                .args([
                    "depth",
                    "--variants",
                    "null-move,null-move+mpc",
                    "--positions",
                    "2",
                ])
                .args(limit)
                .arg("--suite")
                .arg(&suite)
                .arg("--out")
                .arg(&out),
        );
        let stem = out.with_extension("");
        let named = |ext: &str| std::path::PathBuf::from(format!("{}.{ext}", stem.display()));
        let mut reader = csv::Reader::from_path(named("summary.csv")).unwrap();
        let lines: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| &l[1] == "2"), "{lines:?}");
        let md = std::fs::read_to_string(named("summary.md")).unwrap();
        assert!(
            md.contains("| git commit") && md.contains("| machine"),
            "{md}"
        );
        assert_eq!(md.contains("bench speed at the start"), speed, "{md}");
        assert!(named("svg").is_file());
    }
}
