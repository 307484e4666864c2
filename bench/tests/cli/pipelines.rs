//! The study runner and its scaling out: shards merged, Slurm jobs, a killed run taken along, a
//! study sharded here and on Slurm, and every step killed then resumed.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

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
    let merge = |args: &[&Path]| {
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
    let (plan, out) = (dir.join("jobs"), dir.join("sharded.csv"));
    the_batch_scripts_shard_and_merge(&dir, &plan, &out);
    the_jobs_run_here_give_the_whole(&dir, &plan, &out);
    a_command_that_would_fail_is_refused_before_writing(&dir);
    assert!(
        plan.join("steps/depth.toml").is_file(),
        "the step is recorded"
    );
}

/// A command that would fail on the cluster is refused before anything is written.
fn a_command_that_would_fail_is_refused_before_writing(dir: &Path) {
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
}

/// `cutlab slurm --slurm-dry-run` of a depth run over `DIR/suite.epd`: ARRAY shards, the plan
/// in PLAN, the rows in OUT.
fn slurm_dry_run(dir: &Path, array: &str, plan: &Path, args: &[&str], out: &Path) -> Output {
    Command::new(EXE)
        .args(["slurm", "--slurm-dry-run", "--slurm-array", array, "--dir"])
        .arg(plan)
        .args(["--", "depth", "--suite"])
        .arg(dir.join("suite.epd"))
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("slurm runs")
}

/// The plan and batch scripts, without a cluster: an array of 3 shards and a merge job into
/// `out`, planned in `plan`; exclusive nodes for a timed search only; a self-sharded command
/// refused; paths that hold wherever the script is resubmitted.
fn the_batch_scripts_shard_and_merge(dir: &Path, plan: &Path, out: &Path) {
    let submitted = slurm_dry_run(
        dir,
        "3",
        plan,
        &["--variants", "null-move,null-move+mpc", "--depth", "5"],
        out,
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
    let submitted = slurm_dry_run(
        dir,
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
    let refused = slurm_dry_run(
        dir,
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
}

/// What the jobs run, run here: each shard (a merge before them is refused), then the merge,
/// which gives the unsharded run's rows.
fn the_jobs_run_here_give_the_whole(dir: &Path, plan: &Path, out: &Path) {
    // What the jobs run, run here: each shard, then the merge.
    let step = |extra: &[&str]| {
        Command::new(EXE)
            .arg("step")
            .arg(plan)
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
    assert_eq!(shard_files_in(dir), Vec::<String>::new());
    assert!(
        step(&["--merge", "3"]).status.success(),
        "merged once, done"
    );
    assert_eq!(depth_rows(out), depth_rows(&dir.join("full.csv")));
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
        let mut command = ablate_rfp(&dir);
        command
            .args(["--extras", "none", "--positions", "2", "--nodes", "300"])
            .args(["--looks", "100", "--depth", "3", "--time-ms", "20"])
            .args(["--threads", "1", "--time-factor", "1"])
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
}

/// The files of `dir` that a shard wrote (`*.shardK.*`).
fn shard_files_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains(".shard"))
        .collect()
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
    let out = ablate_rfp(&dir)
        .args([
            "--extras",
            "none",
            "--directions",
            "without",
            "--positions",
            "2",
        ])
        .args(["--nodes", "300", "--looks", "20", "--time-factor", "1"])
        .args(["--slurm", "--slurm-dry-run", "--slurm-array", "2"])
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
    // `reproduce` in two shards, then once more to write the report: every step runs once.
    let dir = temp_dir("reproduce-shards");
    let run = |extra: &[&str]| {
        reproduce_smoke(&dir)
            .args(["--deterministic", "--threads", "1"])
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
    // row, and no record. The resume, on two threads, finishes every step to the same rows:
    // the matches' games (at fixed nodes) and the traces (at fixed depth, run side by side
    // now) byte for byte, the searches' rows by count (their times vary).
    let files = csv_files(&dir);
    let whole: Vec<(PathBuf, String)> = files
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
    let resumed = reproduce_smoke(&dir)
        .args(["--deterministic", "--threads", "2", "--resume"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    // Side by side, a trace's record leaves the others' load unmeasured; alone, it has it.
    for record in std::fs::read_dir(dir.join("steps")).unwrap() {
        let path = record.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let traced = path.to_string_lossy().contains("/trace-");
        assert_eq!(
            traced,
            !text.contains("other_cores_busy"),
            "{}",
            path.display()
        );
    }
    for (file, text) in &whole {
        let again = std::fs::read_to_string(file).unwrap();
        let name = file.to_string_lossy();
        if name.contains("/matches/") || name.contains("/traces/") {
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
}

/// The CSVs below `dir`, its logs aside.
fn csv_files(dir: &Path) -> Vec<PathBuf> {
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
