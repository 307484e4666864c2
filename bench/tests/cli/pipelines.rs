//! Pipelines: shards, Slurm plans, reproduce, ablate, reports, a killed run.

use crate::common::*;

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
    // So are the same positions and variants searched again with other values (a second run
    // of one shard): once merged into twice the rows.
    let text = std::fs::read_to_string(&s1).unwrap();
    let again: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                format!("{line}\n")
            } else {
                // Another node count: the row differs, its position and variant do not.
                let mut cells: Vec<String> = line.split(',').map(str::to_string).collect();
                cells[6] = format!("{}1", cells[6]);
                cells.join(",") + "\n"
            }
        })
        .collect();
    std::fs::write(dir.join("again.csv"), again).unwrap();
    let out = merge(&[&dir.join("keys.csv"), &s1, &dir.join("again.csv")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("again.csv:2: a row for "), "{stderr}");
    assert!(!dir.join("keys.csv").exists());
}

#[test]
fn slurm_jobs_run_shards_that_merge_into_the_whole() {
    let dir = temp_dir("slurm-plan");
    assert!(depth_run(&dir, "full.csv", &[]).status.success());
    // The plan and batch scripts, without a cluster: an array of 3 shards and a merge job.
    let out = dir.join("sharded.csv");
    let suite = dir.join("suite.epd");
    // `cutlab slurm --slurm-dry-run` of a depth run over the suite: ARRAY shards, the plan in
    // DIR, the rows in OUT.
    let dry_run = |array: &str, plan: &std::path::Path, args: &[&str], out: &std::path::Path| {
        Command::new(EXE)
            .args(["slurm", "--slurm-dry-run", "--slurm-array", array, "--dir"])
            .arg(plan)
            .args(["--", "depth", "--suite", suite.to_str().unwrap()])
            .args(args)
            .arg("--out")
            .arg(out)
            .output()
            .expect("slurm runs")
    };
    let plan = dir.join("jobs");
    let submitted = dry_run(
        "3",
        &plan,
        &["--variants", "null-move,null-move+mpc", "--depth", "5"],
        &out,
    );
    assert!(submitted.status.success(), "{submitted:?}");
    let array = std::fs::read_to_string(plan.join("slurm/cutlab-depth.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --array=1-3"), "{array}");
    assert!(
        array.contains("--shard \"$SLURM_ARRAY_TASK_ID/3\""),
        "{array}"
    );
    let merge = std::fs::read_to_string(plan.join("slurm/cutlab-depth-merge.sbatch")).unwrap();
    assert!(merge.contains("--merge 3"), "{merge}");
    // A search at fixed depth shares its node; one at fixed time has the node to itself.
    assert!(!array.contains("--exclusive"), "{array}");
    let timed = dir.join("timed-jobs");
    let submitted = dry_run(
        "2",
        &timed,
        &["--variants", "null-move", "--time-ms", "100"],
        &dir.join("timed.csv"),
    );
    assert!(submitted.status.success(), "{submitted:?}");
    let script = std::fs::read_to_string(timed.join("slurm/cutlab-depth.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --exclusive"), "{script}");
    // A command that shards itself is refused before anything is written: every job of its
    // array would have been sharded twice and failed.
    let twice = dir.join("twice-jobs");
    let refused = dry_run(
        "2",
        &twice,
        &["--variants", "null-move", "--depth", "3", "--shard", "1/2"],
        &dir.join("twice.csv"),
    );
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("has --shard; leave it out"),
        "{refused:?}"
    );
    assert!(!twice.exists());
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
    // The merge job's log has the result, and the shards' files are gone.
    let log = stdout_of_success(&step(&["--merge", "3"]));
    assert!(
        log.contains("3 shards merged") && log.contains("mean nodes"),
        "{log}"
    );
    assert_eq!(shard_files_in(&dir), Vec::<String>::new());
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
                "--idle-wait",
                "0",
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
    // A step whose record is removed runs again (the manifest's list of finished steps does
    // not bring it back); the others are done earlier.
    std::fs::remove_file(out.join("steps/fit.toml")).unwrap();
    let refit = run(&["--resume"]);
    assert!(refit.status.success());
    let log = String::from_utf8_lossy(&refit.stderr);
    assert_eq!(log.matches("done earlier").count(), steps - 1, "{log}");
    assert!(log.contains("] cutlab fit "), "{log}");
    // Published by `scripts/publish-run` (CSVs gzipped, PGNs and configurations packed, the
    // traces' node, test and verified-cut rows left out), the run gives the same report:
    // `cutlab report` reads the study.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let study = dir.join("study");
    let publish = |run: &std::path::Path| {
        Command::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/publish-run"
        ))
        .arg(run)
        .arg(&study)
        .env("CUTLAB", EXE)
        .output()
        .unwrap()
    };
    stdout_of_success(&publish(&out));
    assert_eq!(
        std::fs::read_to_string(study.join("report.md")).unwrap(),
        report
    );
    let traces: Vec<String> = std::fs::read_dir(study.join("traces"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        traces.iter().any(|f| f.ends_with(".tallies.csv.gz"))
            && traces.iter().any(|f| f.ends_with(".false-cuts.csv.gz")),
        "{traces:?}"
    );
    assert!(
        traces
            .iter()
            .all(|f| f.ends_with(".tallies.csv.gz") || f.ends_with(".false-cuts.csv.gz")),
        "{traces:?}"
    );
    assert!(study.join("games.moves.csv.xz").is_file());
    assert!(!study.join("matches/headline.pgn").exists());
    // The configurations are packed into one archive, none left beside the rows.
    assert!(study.join("configs.tar.xz").is_file());
    assert!(!study.join("samples.config.toml").exists());
    // Restored, the study's games and configurations come back as the run's, byte for byte.
    let restored = dir.join("restored");
    let back = Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/publish-run"
    ))
    .args([
        "--restore".as_ref(),
        study.as_os_str(),
        restored.as_os_str(),
    ])
    .env("CUTLAB", EXE)
    .output()
    .unwrap();
    stdout_of_success(&back);
    assert_eq!(
        std::fs::read(restored.join("matches/headline.pgn")).unwrap(),
        std::fs::read(out.join("matches/headline.pgn")).unwrap()
    );
    assert!(!restored.join("games.moves.csv.xz").exists());
    for config in ["samples.config.toml", "matches/headline.config.toml"] {
        assert_eq!(
            std::fs::read(restored.join(config)).unwrap(),
            std::fs::read(out.join(config)).unwrap(),
            "{config}"
        );
    }
    assert!(!restored.join("configs.tar.xz").exists());
    // The restored run resumes where it is, spelt from another working directory: its
    // records name the first run's folder, and every step is done earlier.
    let resumed = Command::new(EXE)
        .current_dir(&dir)
        .args([
            "reproduce",
            "--smoke",
            "--engine",
            "none",
            "--positions",
            "6",
        ])
        .args(["--idle-wait", "0", "--resume", "--out", "./restored/"])
        .output()
        .expect("cutlab runs");
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    assert_eq!(log.matches("done earlier").count(), steps, "{log}");
    // Published again, a study takes only its own run grown: a copy that lacks a finished
    // step (an older run) is refused and the study kept as it was.
    stdout_of_success(&publish(&out));
    std::fs::remove_file(out.join("steps/fit.toml")).unwrap();
    let older = publish(&out);
    assert!(!older.status.success());
    assert!(
        String::from_utf8_lossy(&older.stderr).contains("steps/fit.toml is not"),
        "{}",
        String::from_utf8_lossy(&older.stderr)
    );
    assert!(study.join("steps/fit.toml").is_file());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ablate_measures_each_method_both_ways_and_resumes() {
    let dir = temp_dir("ablate");
    let run = |extra: &[&str]| {
        Command::new(EXE)
            .args(["ablate", "--quick", "--methods", "rfp", "--positions", "2"])
            .args(["--extras", "mpc", "--engine", "none", "--idle-wait", "0"])
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
    // The manifest dates every step and records the binary's bench signature.
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    assert!(
        manifest.contains("finished_utc = \"20") && manifest.contains("(null-move+lmr, depth 9)"),
        "{manifest}"
    );
    // On Linux every step records how busy other processes kept the machine, and the step
    // table shows it.
    if cfg!(target_os = "linux") {
        assert!(manifest.contains("other_cores_busy = "), "{manifest}");
        assert!(report.contains("| others' busy cores |"), "{report}");
    }
    // The time factor is measured by a bench (it was read as 0 from the new manifest).
    assert!(
        report.contains("the run's machine had a bench speed of") && !report.contains("by 0.00"),
        "{report}"
    );
    // A timed step records the bench speed of the machine it started on; a match at fixed
    // nodes none.
    let record = |name: &str| std::fs::read_to_string(dir.join(format!("steps/{name}.toml")));
    assert!(record("depth-stack").unwrap().contains("speed_nps = "));
    assert!(
        !record("match-300-without-rfp")
            .unwrap()
            .contains("speed_nps")
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
            ["decided", "equivalent", "undecided"].contains(&&r[column("verdict")]),
            "{r:?}"
        );
        assert_eq!(&r[column("effort_nodes")], "300");
    }
    assert_eq!(
        &rows[0][column("stockfish_elo_note")],
        "~25 (step 8)",
        "Stockfish's note beside leaving reverse futility out"
    );
    // The report states what the rule does to its numbers, simulated on the run's own
    // pairs: the coverage after a stop and the decided rows expected by chance.
    let decided = rows
        .iter()
        .filter(|r| &r[column("verdict")] == "decided")
        .count();
    let family = format!("of the 4 matches stopped, {decided} are decided, where about");
    assert!(report.contains(&family), "{family}\n{report}");
    assert!(
        report.contains("## What the rule does to its numbers") && report.contains("cover "),
        "{report}"
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
    // A resume that asks for another run is refused naming the option, before anything is
    // written: other positions (once accepted, the report said 3 where the data held 2) or
    // another effort (once played beside the old matches, which went unreported).
    for (option, value, recorded) in [("--positions", "3", "2"), ("--nodes", "400", "300")] {
        let other = Command::new(EXE)
            .args(["ablate", "--quick", "--methods", "rfp", "--extras", "mpc"])
            .args([
                "--engine",
                "none",
                "--idle-wait",
                "0",
                "--resume",
                option,
                value,
            ])
            .args(["--out", dir.to_str().unwrap()])
            .output()
            .expect("ablate runs");
        let err = String::from_utf8_lossy(&other.stderr);
        assert!(!other.status.success(), "{option}: {err}");
        assert!(
            err.contains(&format!(
                "started with {option} {recorded}, and this resume gives {option} {value}"
            )),
            "{err}"
        );
    }
    assert!(!dir.join("matches/400").exists());
    // A run in progress is reported too, its unstopped matches listed and kept out of the CSV:
    // one match cut to 10 of its 20 games (no look yet), one not started.
    let games = |name: &str| dir.join(format!("matches/300/{name}.csv"));
    let text = std::fs::read_to_string(games("with-rfp")).unwrap();
    let half: Vec<&str> = text.lines().take(11).collect();
    std::fs::write(games("with-rfp"), half.join("\n") + "\n").unwrap();
    std::fs::remove_file(games("added-mpc")).unwrap();
    stdout_of_success(
        &Command::new(EXE)
            .args(["report", dir.to_str().unwrap()])
            .output()
            .unwrap(),
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("In progress: 2 of 4 matches have stopped")
            && report.contains("playing: rfp (10 games)")
            && report.contains("to play: mpc"),
        "{report}"
    );
    let mut reader = csv::Reader::from_path(dir.join("ablate.csv")).unwrap();
    let kinds: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[1].to_string())
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("without".to_string(), "rfp".to_string()),
            ("with".to_string(), "mpc".to_string())
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
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
        stdout_of_success(
            &Command::new(EXE)
                .args(["report", "--check"])
                .arg(&dir)
                .output()
                .expect("cutlab runs"),
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
    // Nor is a games file trusted: a row copied, or a result its score contradicts, fails the
    // check naming the game, where it used to be counted.
    std::fs::write(dir.join("report.md"), &report).unwrap();
    let gz = dir.join("faithful-vs-before.games.csv.gz");
    let mut games = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&gz).unwrap()),
        &mut games,
    )
    .unwrap();
    let write_gz = |text: &str| {
        let mut encoder = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::fast(),
        );
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap();
    };
    let last = games.lines().last().unwrap().to_string();
    write_gz(&format!("{games}{last}\n"));
    let err = String::from_utf8_lossy(&check().stderr).to_string();
    assert!(err.contains("appears twice"), "{err}");
    let first_win = games.replacen(",1-0,", ",0-1,", 1);
    assert_ne!(first_win, games);
    write_gz(&first_win);
    let err = String::from_utf8_lossy(&check().stderr).to_string();
    assert!(err.contains("gives the first engine"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
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
            .args([
                "--threads",
                "1",
                "--time-factor",
                "1",
                "--idle-wait",
                "0",
                "--out",
            ])
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
    stdout_of_success(&run(&["--resume"]).output().unwrap());
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

/// A match's merge job listed its shards' files twice (`--out` and `--pgn` share a stem) and
/// failed removing them the second time.
#[test]
fn a_sharded_match_merges_its_games_and_its_pgn() {
    let dir = temp_dir("slurm-match");
    let plan = dir.join("jobs");
    let out = dir.join("m.csv");
    let submitted = Command::new(EXE)
        .args(["slurm", "--slurm-dry-run", "--slurm-array", "2", "--dir"])
        .arg(&plan)
        .args([
            "--",
            "match",
            "--engine",
            "variant=plain",
            "--engine",
            "variant=null-move",
        ])
        .args(["--nodes", "100", "--games", "4", "--pgn"])
        .arg(dir.join("m.pgn"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(submitted.status.success(), "{submitted:?}");
    let step = |extra: &[&str]| {
        Command::new(EXE)
            .arg("step")
            .arg(&plan)
            .arg("match")
            .args(extra)
            .output()
            .unwrap()
    };
    for k in 1..=2 {
        assert!(step(&["--shard", &format!("{k}/2")]).status.success());
    }
    let merged = stdout_of_success(&step(&["--merge", "2"]));
    assert!(merged.contains("Results of plain vs null-move (4 games)"));
    let pgn = std::fs::read_to_string(dir.join("m.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert_eq!(shard_files_in(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// The files of `dir` that a shard wrote (`*.shardK.*`).
fn shard_files_in(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains(".shard"))
        .collect()
}

/// A restore is whole or nothing: a damaged games archive or a truncated `.gz` fails it
/// (it once reported success), leaves no run behind to refuse the retry, and an intact study
/// then restores.
#[test]
fn a_damaged_study_is_not_restored_and_the_retry_is_not_refused() {
    let dir = temp_dir("restore-damaged");
    let published = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/vs-ethereal");
    let restore = |study: &std::path::Path, run: &std::path::Path| {
        Command::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/publish-run"
        ))
        .arg("--restore")
        .args([study, run])
        .env("CUTLAB", EXE)
        .output()
        .unwrap()
    };
    let study = dir.join("study");
    let run = dir.join("run");
    let copy = || {
        let _ = std::fs::remove_dir_all(&study);
        std::fs::create_dir_all(&study).unwrap();
        for entry in std::fs::read_dir(&published).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, study.join(path.file_name().unwrap())).unwrap();
        }
    };
    let truncate = |name: &str| {
        let bytes = std::fs::read(study.join(name)).unwrap();
        std::fs::write(study.join(name), &bytes[..bytes.len() / 2]).unwrap();
    };
    for damaged in ["games.moves.csv.xz", "modern-vs-ethereal.games.csv.gz"] {
        copy();
        truncate(damaged);
        let out = restore(&study, &run);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{damaged}: {err}");
        assert!(err.contains("nothing restored"), "{err}");
        assert!(
            !run.exists() && !dir.join("run.restoring").exists(),
            "{damaged}"
        );
    }
    copy();
    stdout_of_success(&restore(&study, &run));
    assert!(run.join("modern-vs-ethereal.games.csv").is_file());
    std::fs::remove_dir_all(&dir).ok();
}

/// One runner gives every study both halves of scaling out: `--shard` (here, in as many
/// processes) and `--slurm` (a cluster's jobs).
#[test]
fn every_study_shards_here_and_on_slurm() {
    for study in ["ablate", "reproduce"] {
        let help = stdout_of_success(&Command::new(EXE).args([study, "--help"]).output().unwrap());
        assert!(
            help.contains("--shard") && help.contains("--slurm"),
            "{study}: {help}"
        );
    }
    // `ablate` on Slurm: a match stopped by looks is one job, a search a job array.
    let dir = temp_dir("ablate-slurm");
    let out = Command::new(EXE)
        .args(["ablate", "--quick", "--methods", "rfp", "--extras", "none"])
        .args([
            "--directions",
            "without",
            "--positions",
            "2",
            "--nodes",
            "300",
        ])
        .args(["--looks", "20", "--engine", "none", "--time-factor", "1"])
        .args(["--slurm", "--slurm-dry-run", "--slurm-array", "2"])
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    stdout_of_success(&out);
    let script = |name: &str| {
        std::fs::read_to_string(dir.join(format!("slurm/cutlab-{name}.sbatch"))).unwrap()
    };
    assert!(!script("match-300-without-rfp").contains("--array"));
    assert!(script("depth-stack").contains("#SBATCH --array=1-2"));
    let finish = script("finish");
    assert!(
        finish.contains(" ablate ") && finish.contains("--resume") && !finish.contains("--slurm"),
        "{finish}"
    );
    std::fs::remove_dir_all(&dir).ok();
    // `reproduce` in two shards, then once more to write the report: every step runs once.
    let dir = temp_dir("reproduce-shards");
    let run = |extra: &[&str]| {
        Command::new(EXE)
            .args([
                "reproduce",
                "--smoke",
                "--engine",
                "none",
                "--deterministic",
            ])
            .args(["--threads", "1", "--out", dir.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run(&["--shard", "1/2"]);
    let log = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{log}");
    assert!(log.contains("[1/") && !log.contains("[2/"), "{log}");
    assert!(
        log.contains("steps done; the report is written when all are"),
        "{log}"
    );
    assert!(run(&["--shard", "2/2"]).status.success());
    let last = run(&["--resume"]);
    let log = String::from_utf8_lossy(&last.stderr);
    assert!(last.status.success(), "{log}");
    assert!(dir.join("report.md").is_file());
    let plan = std::fs::read_to_string(dir.join("plan.toml")).unwrap();
    let steps = plan.matches("[[steps]]").count();
    let records = std::fs::read_dir(dir.join("steps")).unwrap().count();
    assert_eq!(records, steps, "{log}");
    // A kill in every step at once: each leaves part of its output, cut in the middle of a
    // row, and no record. The resume finishes every step to the same rows (the matches'
    // games byte for byte, at fixed nodes; the searches' rows by count, their times vary).
    let files = csv_files(&dir);
    let whole: Vec<(std::path::PathBuf, String)> = files
        .iter()
        .map(|f| (f.clone(), std::fs::read_to_string(f).unwrap()))
        .collect();
    for record in std::fs::read_dir(dir.join("steps")).unwrap() {
        std::fs::remove_file(record.unwrap().path()).unwrap();
    }
    for (file, text) in &whole {
        // What a search writes before its row (its cut counts, the oracle's scores) is whole
        // wherever its row is: a kill tears only what was being written last.
        let name = file.to_string_lossy();
        if !(name.ends_with(".cuts.csv") || name.ends_with(".oracle.csv")) {
            std::fs::write(file, &text[..text.len() * 3 / 5]).unwrap();
        }
    }
    let resumed = run(&["--resume"]);
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    for (file, text) in &whole {
        let again = std::fs::read_to_string(file).unwrap();
        if file.to_string_lossy().contains("/matches/") {
            assert_eq!(&again, text, "{}", file.display());
        } else {
            assert_eq!(
                again.lines().count(),
                text.lines().count(),
                "{}",
                file.display()
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The CSVs below `dir`, its logs aside.
fn csv_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "logs") {
            out.extend(csv_files(&path));
        } else if path.extension().is_some_and(|e| e == "csv") {
            out.push(path);
        }
    }
    out.sort();
    out
}
