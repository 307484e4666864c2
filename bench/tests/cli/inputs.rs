//! Bad input and interruptions: refused numbers and lists, outputs, progress, Ctrl-C.

use crate::common::*;

/// One error style: a refusal of our own (a missing file) reads as clap's (a bad number), each
/// a line that starts `error: `, with a failing exit status.
#[test]
fn every_error_reads_alike() {
    let dir = temp_dir("error-style");
    let missing = dir.join("missing.epd");
    for args in [
        vec![
            "depth",
            "--depth",
            "2",
            "--suite",
            missing.to_str().unwrap(),
        ],
        vec!["depth", "--depth", "two"],
    ] {
        let out = Command::new(EXE).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
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
            vec!["suite", "generate", "--min-ply", "100", "--max-ply", "20"],
            "--min-ply 100 is above --max-ply 20",
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
        (vec!["suite", "generate", "--games", "0"], "--games"),
        (vec!["reproduce", "--games", "0"], "--games"),
        (
            vec!["reproduce", "--slurm", "--slurm-time", "abc"],
            "--slurm-time",
        ),
        (
            vec!["tune-eval", "x.epd", "--learning-rate", "nan"],
            "--learning-rate",
        ),
        (vec!["fit", "x.csv", "--range=-5"], "--range"),
        (vec!["depth", "--shard", "0/3"], "--shard"),
        (vec!["ablate", "--shard", "2of3"], "--shard"),
        (vec!["match", "--sprt", "elo0=0"], "--sprt"),
        (
            vec!["match", "--sprt", "elo0=5,elo1=0,alpha=0.05,beta=0.05"],
            "--sprt",
        ),
    ] {
        assert_refused_at_parse(&args, option);
    }
}

/// With stderr not a terminal (a step's log, a Slurm job's log) nothing was written between
/// the start and the end; now plain progress lines come at a steady interval.
#[test]
fn progress_is_written_as_plain_lines_into_a_log() {
    let dir = temp_dir("progress");
    let suite = small_suite(&dir);
    let out = null_move_depth(&suite, ["--depth", "4"], &dir)
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
}

/// `trace --out` replaced even its own `--suite`; `fit`, `profile`, `suite generate`,
/// `match --pgn` and `tune-eval` overwrote without asking. One rule now: an existing output
/// is replaced only with `--force`, and an input never.
#[test]
fn existing_outputs_are_replaced_only_with_force() {
    let dir = temp_dir("overwrite");
    let suite = small_suite(&dir);
    let old = dir.join("old.txt");
    let s = suite.to_str().unwrap();
    let o = old.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["trace", "--suite", s, "--depth", "2", "--out", o],
        vec!["fit", s, "--out", o],
        vec!["profile", "--suite", s, "--time-ms", "1", "--flamegraph", o],
        vec!["suite", "generate", "--games", "1", "--out", o],
        vec!["tune-eval", s, "--out", dir.to_str().unwrap()],
        plain_match(&["--pgn", o]),
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
    stdout_of_success(
        &Command::new(EXE)
            .args(["trace", "--suite", s, "--depth", "2", "--force", "--out", o])
            .output()
            .unwrap(),
    );
    assert_ne!(std::fs::read_to_string(&old).unwrap(), "keep me");
}

/// A command copied from a manifest (`--out modern/matches/5000/x.csv`) once failed in a
/// fresh directory with "x.config.toml: No such file or directory": outputs make their folders.
#[test]
fn outputs_make_their_folders() {
    let dir = temp_dir("folders");
    let suite = small_suite(&dir);
    let s = suite.to_str().unwrap();
    let at = |path: &str| dir.join(path).to_str().unwrap().to_string();
    let (m, p, d, t) = (
        at("m/a/x.csv"),
        at("p/b/x.pgn"),
        at("d/c/x.csv"),
        at("t/d/x.csv"),
    );
    let cases: Vec<Vec<&str>> = vec![
        plain_match(&["--out", &m, "--pgn", &p]),
        vec![
            "depth",
            "--suite",
            s,
            "--variants",
            "plain",
            "--depth",
            "2",
            "--out",
            &d,
        ],
        vec!["trace", "--suite", s, "--depth", "2", "--out", &t],
    ];
    for args in cases {
        stdout_of_success(&Command::new(EXE).args(&args).output().unwrap());
    }
    for path in [&m, &p, &d, &t] {
        assert!(std::path::Path::new(path).is_file(), "{path}");
    }
}

/// Ctrl-C ended a resumable command with 130 and no word on how to continue, and SIGTERM (a
/// `kill`, a scheduler's end of a job) without it too.
#[cfg(unix)]
#[test]
fn an_interrupted_command_says_how_to_continue() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let dir = temp_dir(&format!("signal{signal}"));
        let suite = small_suite(&dir);
        let child = null_move_depth(&suite, ["--time-ms", "3000"], &dir)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{signal}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("again with --resume to continue"),
            "{signal}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `fit` of an empty or binary file wrote `pairs = []` and an empty plot, exit 0.
#[test]
fn a_fit_of_nothing_is_refused_and_writes_nothing() {
    let dir = temp_dir("fit-nothing");
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let binary = dir.join("binary.csv");
    std::fs::write(&binary, [0_u8, 159, 146, 150, 255, 10, 7, 0]).unwrap();
    for input in [&empty, &binary] {
        let out = Command::new(EXE)
            .arg("fit")
            .arg(input)
            .arg("--out")
            .arg(dir.join("fit.toml"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{input:?}");
        // Nothing to fit, or (the binary file) a row that does not parse, named.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no depth pair could be fitted")
                || stderr.contains("binary.csv:2: CSV deserialize error"),
            "{stderr}"
        );
        assert!(!dir.join("fit.toml").exists() && !dir.join("fit.svg").exists());
    }
}

/// A run killed before its first row leaves its CSV with a header alone (or part of one):
/// nothing to resume or keep, so the next run writes it afresh, with or without `--resume`
/// (a killed `reproduce` used to stop at its `suite generate` step for good).
#[test]
fn a_csv_with_its_header_alone_is_written_afresh() {
    let dir = temp_dir("header-alone");
    let out = dir.join("e.epd");
    let progress = dir.join("e.epd.games.csv");
    let generate = |extra: &[&str]| {
        Command::new(EXE)
            .args(["suite", "generate", "--games", "2", "--nodes", "500"])
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .expect("suite generate runs")
    };
    for (header, extra) in [
        ("game,ply,fen,score_cp\n", &[][..]),
        ("game,p", &["--resume"][..]),
    ] {
        std::fs::write(&progress, header).unwrap();
        stdout_of_success(&generate(extra));
        assert!(out.is_file() && !progress.exists());
        std::fs::remove_file(&out).unwrap();
    }
    // The same for the rows of an instrument: a header alone is no row to keep.
    std::fs::write(dir.join("d.csv"), "position,variant\n").unwrap();
    let done = depth_run(&dir, "d.csv", &[]);
    stdout_of_success(&done);
    let text = std::fs::read_to_string(dir.join("d.csv")).unwrap();
    assert_eq!(text.matches("position,").count(), 1, "one header: {text}");
}

/// Inputs that would mislead: a report of a folder that is no study, a clock that loses
/// every game on time, and games given twice to `datagen` (labelled twice).
#[test]
fn misleading_inputs_are_refused_naming_them() {
    let dir = temp_dir("misleading");
    let err = |args: &[&str]| {
        let out = Command::new(EXE).args(args).output().expect("cutlab runs");
        assert!(!out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let missing = dir.join("nonexist");
    let e = err(&["report", missing.to_str().unwrap(), "--check"]);
    assert!(e.contains("nonexist: no such study folder"), "{e}");
    let e = err(&["report", dir.to_str().unwrap()]);
    assert!(e.contains("no manifest.toml"), "{e}");
    let e = err(&[
        "match",
        "--engine",
        "variant=plain",
        "--engine",
        "variant=null-move",
        "--tc",
        "0.0001+0",
    ]);
    assert!(e.contains("every game would be lost on time"), "{e}");
    let pgn = dir.join("a.pgn");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n",
    )
    .unwrap();
    let twice = format!("{},{}", pgn.display(), pgn.display());
    let out = dir.join("data");
    let e = err(&[
        "datagen",
        "--from-games",
        &twice,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(e.contains("named twice"), "{e}");
}

/// A suite is recorded by its content, not only its name and size: a position replaced in
/// the file (same name, same count) is refused on a resume, where its rows were once mixed
/// with the old position's.
#[test]
fn a_resume_on_a_suite_whose_content_changed_is_refused() {
    let dir = temp_dir("suite-content");
    stdout_of_success(&depth_run(&dir, "d.csv", &[]));
    let suite = dir.join("suite.epd");
    let changed = SMALL_SUITE.replace(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - id \"b\";",
        "8/8/8/4k3/8/8/4K3/4R3 w - - id \"b\";",
    );
    assert_ne!(changed, SMALL_SUITE);
    std::fs::write(&suite, changed).unwrap();
    let out = Command::new(EXE)
        .args(["depth", "--suite", suite.to_str().unwrap()])
        .args([
            "--variants",
            "null-move,null-move+mpc",
            "--depth",
            "5",
            "--resume",
        ])
        .arg("--out")
        .arg(dir.join("d.csv"))
        .output()
        .expect("depth runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("suite_content"), "{err}");
}

/// Outputs are files of their own (docs/outputs.md): a folder named as `--out` is refused at
/// once naming it (it once spun for ever on a failing read), an output that is an input is
/// refused without advising to remove the input, and two outputs naming one file are refused
/// before a game is played.
#[test]
fn outputs_are_files_of_their_own() {
    let dir = temp_dir("outputs-own");
    let suite = small_suite(&dir);
    let folder = dir.join("d");
    std::fs::create_dir(&folder).unwrap();
    let started = std::time::Instant::now();
    let mut cases: Vec<(Vec<std::ffi::OsString>, &str)> = Vec::new();
    for command in ["depth", "oracle", "regress"] {
        let mut args: Vec<std::ffi::OsString> = vec![command.into(), "--depth".into(), "2".into()];
        if command == "regress" {
            args = vec![command.into(), "--depths".into(), "2".into()];
        }
        args.extend(["--suite".into(), suite.clone().into_os_string()]);
        let mut to_folder = args.clone();
        to_folder.extend(["--out".into(), folder.clone().into_os_string()]);
        cases.push((to_folder, "--out names a folder"));
        let mut to_input = args;
        to_input.extend(["--out".into(), suite.clone().into_os_string()]);
        cases.push((to_input, "names the file --suite reads"));
    }
    let csv = dir.join("m.csv");
    let mut same = vec!["match".into(), "--engine".into(), "variant=plain".into()];
    same.extend([
        "--engine".into(),
        "variant=plain".into(),
        "--nodes".into(),
        "50".into(),
    ]);
    same.extend(["--out".into(), csv.clone().into_os_string(), "--pgn".into()]);
    same.push(dir.join(".").join("m.csv").into_os_string());
    cases.push((same, "--pgn and --out name one file"));
    let mut to_folder = vec!["match".into(), "--engine".into(), "variant=plain".into()];
    to_folder.extend([
        "--engine".into(),
        "variant=plain".into(),
        "--nodes".into(),
        "50".into(),
    ]);
    to_folder.extend(["--out".into(), folder.clone().into_os_string()]);
    cases.push((to_folder, "--out names a folder"));
    for (args, message) in cases {
        let out = Command::new(EXE).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{args:?}: {err}"
        );
        assert!(!err.contains("remove it"), "{args:?}: {err}");
    }
    assert!(!csv.exists());
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

/// Inputs that once failed late or were accepted wrongly are refused where they are parsed:
/// an oracle engine that is not there (it failed after the ablation's matches), an infinite
/// MPC threshold, an empty variant in a list, a NaN or repeated SPRT bound.
#[test]
fn bad_inputs_are_refused_at_once_naming_the_option() {
    for (args, option) in [
        (
            vec!["ablate", "--engine", "/nonexistent/engine"],
            "--engine",
        ),
        (
            vec!["reproduce", "--engine", "no-such-engine-here"],
            "--engine",
        ),
        (vec!["depth", "--variants", "null-move,,lmr"], "--variants"),
        (vec!["depth", "--variants", "mpc@inf:1"], "--variants"),
        (vec!["train", "--learning-rate", "1e30"], "--learning-rate"),
    ] {
        assert_refused_at_parse(&args, option);
    }
    let out = Command::new(EXE)
        .args([
            "depth",
            "--depth",
            "2",
            "--variants",
            "null-move",
            "--confidence",
            "0.9",
            "--out",
            "/nonexistent-dir/never-written.csv",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--confidence: applies to prob-ab"),
        "{err}"
    );
    // An oracle shallower than the choices it judges is refused before any search.
    let out = Command::new(EXE)
        .args(["oracle", "--depth", "5", "--oracle", "internal:depth=3"])
        .args(["--out", "/nonexistent-dir/never-written.csv"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("searches shallower than the choices it judges"),
        "{err}"
    );
    for sprt in ["elo0=NaN,elo1=5", "elo0=0,elo0=1,elo1=5"] {
        let out = Command::new(EXE)
            .args(plain_match(&["--sprt", sprt]))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{sprt}");
        assert!(
            err.contains("not a finite number") || err.contains("given twice"),
            "{sprt}: {err}"
        );
    }
}
