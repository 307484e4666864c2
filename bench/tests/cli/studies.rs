//! The studies end to end: `reproduce` and `ablate` run, resumed and reported, and every
//! published study's report written again from its data and restored from `results/`.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

#[test]
fn reproduce_writes_the_report_and_resumes_without_rerunning() {
    let dir = temp_dir("reproduce");
    let out = dir.join("run");
    assert_success(&reproduce_six(&out, &[]));
    the_report_has_every_section(&out);
    let steps = a_resume_reruns_only_what_lost_its_record(&out);
    published_and_restored_it_is_the_same_run(&dir, &out, steps);
    an_unfinished_step_is_published_apart(&dir, &out);
}

/// The smoke run of `reproduce` on 6 positions into `out`, with `extra` options.
fn reproduce_six(out: &Path, extra: &[&str]) -> Output {
    reproduce_smoke(out)
        .args(["--positions", "6"])
        .args(extra)
        .output()
        .expect("cutlab runs")
}

fn the_report_has_every_section(out: &Path) {
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
    // No external engine was given: Table 4 says it is skipped and why, and the verdicts say
    // which of the paper's results the run tested.
    assert!(
        report.contains("## Table 4: skipped") && !report.contains("## Table 4: against"),
        "{report}"
    );
    assert!(
        report.contains("## Verdicts: the paper's results")
            && report.contains("| skipped: no external engine |"),
        "{report}"
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
}

/// A second run is refused without `--resume`; resumed, every step is done earlier, and a
/// step whose record is removed runs again (the manifest's list of finished steps does not
/// bring it back). Returns the number of steps.
fn a_resume_reruns_only_what_lost_its_record(out: &Path) -> usize {
    let again = reproduce_six(out, &[]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = reproduce_six(out, &["--resume"]);
    assert!(resumed.status.success());
    let log = String::from_utf8_lossy(&resumed.stderr);
    let steps = log.lines().filter(|l| l.starts_with('[')).count();
    assert!(steps > 10, "{log}");
    assert_eq!(log.matches("done earlier").count(), steps, "{log}");
    std::fs::remove_file(out.join("steps/fit.toml")).unwrap();
    let refit = reproduce_six(out, &["--resume"]);
    assert!(refit.status.success());
    let log = String::from_utf8_lossy(&refit.stderr);
    assert_eq!(log.matches("done earlier").count(), steps - 1, "{log}");
    assert!(log.contains("] cutlab fit "), "{log}");
    steps
}

/// Published by `scripts/publish-run` (CSVs gzipped, PGNs and configurations packed, the
/// traces' node, test and verified-cut rows and the cut counts left out), the run gives the
/// same report; restored, it is the run again and resumes with all its `steps` done; published
/// again, a study takes only its own run grown.
fn published_and_restored_it_is_the_same_run(dir: &Path, out: &Path, steps: usize) {
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let study = dir.join("study");
    stdout_of_success(&publish_run(&[out, &study]));
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
    // The search's cut counts, which no report reads, are left out.
    assert!(out.join("depth.cuts.csv").is_file());
    assert!(!study.join("depth.cuts.csv.gz").exists());
    // The games are packed beside the folder's PGNs (the run writes them to matches/).
    assert!(study.join("matches/games.moves.csv.xz").is_file());
    assert!(!study.join("games.moves.csv.xz").exists());
    assert!(!study.join("matches/headline.pgn").exists());
    // The configurations are packed into one archive, none left beside the rows.
    assert!(study.join("configs.tar.xz").is_file());
    assert!(!study.join("samples.config.toml").exists());
    // Restored, the study's games and configurations come back as the run's, byte for byte.
    let restored = dir.join("restored");
    stdout_of_success(&publish_run(&[Path::new("--restore"), &study, &restored]));
    assert_eq!(
        std::fs::read(restored.join("matches/headline.pgn")).unwrap(),
        std::fs::read(out.join("matches/headline.pgn")).unwrap()
    );
    assert!(!restored.join("matches/games.moves.csv.xz").exists());
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
    let resumed = reproduce_smoke("./restored/")
        .current_dir(dir)
        .args(["--positions", "6", "--resume"])
        .output()
        .expect("cutlab runs");
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    assert_eq!(log.matches("done earlier").count(), steps, "{log}");
    // Published again, a study takes only its own run grown: a copy that lacks a finished
    // step (an older run) is refused and the study kept as it was.
    stdout_of_success(&publish_run(&[out, &study]));
    a_failed_publication_leaves_the_study_as_it_was(out, &study);
    std::fs::remove_file(out.join("steps/fit.toml")).unwrap();
    let older = publish_run(&[out, &study]);
    assert!(!older.status.success());
    assert!(
        String::from_utf8_lossy(&older.stderr).contains("steps/fit.toml is not"),
        "{}",
        String::from_utf8_lossy(&older.stderr)
    );
    assert!(study.join("steps/fit.toml").is_file());
}

/// A publication that fails partway (a PGN that does not pack) leaves the study byte for
/// byte as it was and nothing beside it: the new study is built apart and swapped in whole.
fn a_failed_publication_leaves_the_study_as_it_was(out: &Path, study: &Path) {
    fn files(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
        let mut all = std::collections::BTreeMap::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                all.extend(files(&path));
            } else {
                all.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
        all
    }
    let before = files(study);
    let bad = out.join("matches/torn.pgn");
    std::fs::write(&bad, "[Event \"torn\"]\n\n1. e4 Zz9 *\n").unwrap();
    let failed = publish_run(&[out, study]);
    std::fs::remove_file(&bad).unwrap();
    let log = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success(), "{log}");
    assert!(log.contains("left as it was"), "{log}");
    assert!(files(study) == before, "the study changed: {log}");
    let mut beside = study.as_os_str().to_owned();
    beside.push(".publishing");
    assert!(!Path::new(&beside).exists());
}

/// A search step not finished (its record gone, as when a run stops in it) is listed as such,
/// and its rows and configurations are published apart, under unfinished/, where no report
/// reads them; a restore puts them back for `--resume` to continue, and once the step has
/// finished the study holds its rows in place.
fn an_unfinished_step_is_published_apart(dir: &Path, out: &Path) {
    let depth_record = std::fs::read(out.join("steps/depth.toml")).unwrap();
    std::fs::remove_file(out.join("steps/depth.toml")).unwrap();
    let listed = stdout_of_success(&Command::new(EXE).arg("step").arg(out).output().unwrap());
    assert!(
        listed
            .lines()
            .any(|l| l == "depth\tunfinished\tdepth\tdepth.csv"),
        "{listed}"
    );
    let partial = dir.join("study-partial");
    stdout_of_success(&publish_run(&[out, &partial]));
    assert!(partial.join("unfinished/depth.csv.gz").is_file());
    assert!(!partial.join("depth.csv.gz").exists());
    let configs: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with("depth.") && f.ends_with(".config.toml"))
        .collect();
    assert!(!configs.is_empty());
    let archived = Command::new("tar")
        .arg("-tJf")
        .arg(partial.join("configs.tar.xz"))
        .output()
        .unwrap();
    let archived = stdout_of_success(&archived);
    for config in &configs {
        assert!(
            archived
                .lines()
                .any(|l| l == format!("unfinished/{config}")),
            "{archived}"
        );
        assert!(!archived.lines().any(|l| l == config), "{archived}");
    }
    let back = dir.join("restored-partial");
    stdout_of_success(&publish_run(&[Path::new("--restore"), &partial, &back]));
    for file in configs.iter().map(String::as_str).chain(["depth.csv"]) {
        assert_eq!(
            std::fs::read(back.join(file)).unwrap(),
            std::fs::read(out.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(!back.join("unfinished").exists());
    // The step finished, the study published again holds its rows in place, none apart
    // (`fit`, its record removed before, is the one unfinished step left: its `--out`,
    // params.toml, is all there is apart).
    std::fs::write(out.join("steps/depth.toml"), depth_record).unwrap();
    stdout_of_success(&publish_run(&[out, &partial]));
    assert!(partial.join("depth.csv.gz").is_file());
    let apart: Vec<String> = std::fs::read_dir(partial.join("unfinished"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(apart, ["params.toml"]);
}

#[test]
fn ablate_measures_each_method_both_ways_and_resumes() {
    let dir = temp_dir("ablate");
    assert_success(&ablate_small(&dir, &[]));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("Leave one out")
            && report.contains("Add one in")
            && report.contains("Added to the stack")
    );
    // A tiny run's simulation gives some quantities no finite value: dashes, never NaN.
    assert!(!report.contains("NaN"), "{report}");
    every_step_is_dated_and_timed(&dir, &report);
    the_csv_has_a_row_per_comparison_with_every_measurement(&dir, &report);
    a_resume_reruns_nothing_and_refuses_another_run(&dir);
    a_run_in_progress_is_reported_without_its_unstopped_matches(&dir);
    a_damaged_finished_match_is_played_again(&dir);
}

/// A finished match whose games were cut or removed since (as the test before left two) is
/// not done: a resume names each, plays it again, and the report has every match stopped.
fn a_damaged_finished_match_is_played_again(dir: &Path) {
    let resumed = ablate_small(dir, &["--resume"]);
    let log = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{log}");
    for name in ["with-rfp", "added-mpc"] {
        assert!(
            log.lines()
                .any(|l| l.contains(name) && l.contains("damaged after it finished")),
            "{name}: {log}"
        );
    }
    assert_eq!(log.matches("damaged after it finished").count(), 2, "{log}");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(!report.contains("In progress"), "{report}");
}

/// The ablation of `rfp`, with MPC added, on 2 positions at 300 nodes (20 games a match),
/// into `dir`, with `extra` options.
fn ablate_small(dir: &Path, extra: &[&str]) -> Output {
    ablate_rfp(dir)
        .args(["--positions", "2", "--extras", "mpc", "--nodes", "300"])
        .args(["--looks", "20", "--depth", "4", "--time-ms", "30"])
        .args(["--threads", "2"])
        .args(extra)
        .output()
        .expect("ablate runs")
}

fn every_step_is_dated_and_timed(dir: &Path, report: &str) {
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
}

fn the_csv_has_a_row_per_comparison_with_every_measurement(dir: &Path, report: &str) {
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
        // Inactive exactly where at least 90% of the pairs repeat their games.
        let repeated: f64 = r[column("repeated_pair_share")].parse().unwrap();
        let verdict = &r[column("verdict")];
        assert_eq!(verdict == "inactive", repeated >= 0.9, "{r:?}");
        assert!(
            ["decided", "equivalent", "undecided", "inactive"].contains(&verdict),
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
    // pairs (the coverage after a stop), and which verdicts stand over the whole family.
    let decided = rows
        .iter()
        .filter(|r| &r[column("verdict")] == "decided")
        .count();
    let family = format!("of the 4 matches stopped, {decided} are decided on their own");
    assert!(report.contains(&family), "{family}\n{report}");
    assert!(
        report.contains("## The family's verdicts") && report.contains("Holm's"),
        "{report}"
    );
    assert!(
        report.contains("## What the rule does to its numbers") && report.contains("cover "),
        "{report}"
    );
}

fn a_resume_reruns_nothing_and_refuses_another_run(dir: &Path) {
    // An existing run is not mixed into; --resume reruns nothing.
    assert!(!ablate_small(dir, &[]).status.success());
    let again = ablate_small(dir, &["--resume"]);
    assert!(again.status.success());
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(
        log.contains("done earlier") && !log.contains("cutlab match"),
        "{log}"
    );
    // Its budget counts what is left: nothing.
    assert!(
        log.contains("0 of 4 matches left to play: 0.0 to 0.0 hours")
            && log.contains("the searches at fixed time have run"),
        "{log}"
    );
    // A resume that asks for another run is refused naming the option, before anything is
    // written: other positions (once accepted, the report said 3 where the data held 2) or
    // another effort (once played beside the old matches, which went unreported).
    for (option, value, recorded) in [("--positions", "3", "2"), ("--nodes", "400", "300")] {
        let other = ablate_rfp(dir)
            .args(["--extras", "mpc", "--resume", option, value])
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
}

fn a_run_in_progress_is_reported_without_its_unstopped_matches(dir: &Path) {
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
}

/// A published number is what the data says: every study in `results/` has its report
/// written again from its committed data, and it must equal the committed report.
#[test]
fn every_committed_report_is_what_its_data_says() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
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
    // The study where it lies in a repository: its cited figures are read from the sources.
    let root = temp_dir("report-check");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::os::unix::fs::symlink(repo.join("search"), root.join("search")).unwrap();
    let dir = root.join("results/modern-faithful");
    std::fs::create_dir_all(&dir).unwrap();
    let study = repo.join("results/modern-faithful");
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
}

/// A restore is whole or nothing: a damaged games archive or a truncated `.gz` fails it
/// (it once reported success), leaves no run behind to refuse the retry, and an intact study
/// then restores.
#[test]
fn a_damaged_study_is_not_restored_and_the_retry_is_not_refused() {
    let dir = temp_dir("restore-damaged");
    let published = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/vs-ethereal");
    let restore = |study: &Path, run: &Path| publish_run(&[Path::new("--restore"), study, run]);
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
}

/// `replay` plays again exactly the rows its source's rule decided at the first look, with the
/// source's match command under a fixed game count and another seed; it refuses the source's
/// own seed, and a resume plays nothing twice.
#[test]
fn replay_plays_the_first_look_rows_again_at_a_fixed_size() {
    let dir = temp_dir("replay");
    let source = dir.join("ablation");
    std::fs::create_dir_all(&source).unwrap();
    std::fs::write(
        source.join("manifest.toml"),
        "kind = \"ablate\"\nscale = \"quick\"\npositions = 0\nseed = 2003\nenvironment = []\n\
         steps = []\nstack = \"null-move+rfp\"\nbaseline = \"null-move\"\ncomparisons = []\n\
         nodes = [300]\nlooks = [20, 40]\nstop_within = 15.0\n",
    )
    .unwrap();
    let step = |method: &str| {
        format!(
            "[[steps]]\nname = \"match-300-without-{method}\"\nargs = [\"match\", \"--engine\", \
             \"variant=null-move\", \"name=without-{method}\", \"--engine\", \
             \"variant=null-move+{method}\", \"name=stack\", \"--nodes\", \"300\", \"--looks\", \
             \"20,40\", \"--stop-within\", \"15\", \"--concurrency\", \"2\", \"--order\", \
             \"random\", \"--seed\", \"2003\", \"--out\", \"x.csv\", \"--pgn\", \"x.pgn\"]\n"
        )
    };
    std::fs::write(source.join("plan.toml"), step("rfp") + &step("lmr")).unwrap();
    std::fs::write(
        source.join("ablate.csv"),
        "direction,method,effort_nodes,games,delta_elo,delta_elo_low,delta_elo_high,\
         delta_elo_adjusted,verdict\n\
         without,rfp,300,20,-150,-250,-50,-120,decided\n\
         without,lmr,300,40,-90,-150,-30,-80,decided\n",
    )
    .unwrap();
    let out = dir.join("replay");
    let replay = |seed: &str, extra: &[&str]| {
        let mut command = Command::new(EXE);
        command
            .args(["replay", "--games", "20", "--threads", "1", "--seed", seed])
            .arg("--of")
            .arg(&source)
            .arg("--out")
            .arg(&out)
            .args(extra);
        command.output().expect("cutlab runs")
    };
    let refused = replay("2003", &[]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--seed 2003"));
    let positions = replay("7", &["--positions", "3"]);
    assert!(!positions.status.success() && !out.exists());
    assert!(String::from_utf8_lossy(&positions.stderr).contains("--positions: a replay"));
    assert_success(&replay("7", &[]));
    let rows = std::fs::read_to_string(out.join("replays.csv")).unwrap();
    assert_eq!(
        rows.lines().count(),
        2,
        "one row, the first-look one:\n{rows}"
    );
    assert!(
        rows.lines()
            .nth(1)
            .unwrap()
            .starts_with("without,rfp,300,20,-150.0,"),
        "{rows}"
    );
    let games = std::fs::read_to_string(out.join("matches/300/without-rfp.csv")).unwrap();
    assert_eq!(games.lines().count(), 21, "20 games and a header");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("| without `rfp` |") && report.contains("20, -150.0 [-250.0, -50.0]"),
        "{report}"
    );
    let config = std::fs::read_to_string(out.join("matches/300/without-rfp.config.toml")).unwrap();
    assert!(
        config.contains("seed = 7") && config.contains("looks = []"),
        "{config}"
    );
    let again = replay("7", &["--resume"]);
    assert_success(&again);
    assert!(String::from_utf8_lossy(&again.stderr).contains("done earlier"));
    succeeds(Command::new(EXE).arg("report").arg("--check").arg(&out));
}

/// `predict` writes an effort's predictions once, one row per comparison without games there,
/// each the worth's line through the lower efforts carried on; a second call is refused and
/// changes nothing.
#[test]
fn predictions_are_written_once_before_the_games() {
    let dir = temp_dir("predict");
    let study = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/ladder-nnue");
    std::fs::copy(study.join("manifest.toml"), dir.join("manifest.toml")).unwrap();
    std::fs::copy(study.join("ablate.csv"), dir.join("ablate.csv")).unwrap();
    let predict = || {
        Command::new(EXE)
            .args(["predict", "--nodes", "1280000", "--of"])
            .arg(&*dir)
            .output()
            .unwrap()
    };
    stdout_of_success(&predict());
    let path = dir.join("predictions-1280000.csv");
    let written = std::fs::read(&path).unwrap();
    let mut reader = csv::Reader::from_path(&path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    assert_eq!(rows.len(), manifest.matches("[[comparisons]]").count());
    let column = |row: &csv::StringRecord, name: &str| -> f64 {
        row[headers.iter().position(|h| h == name).unwrap()]
            .parse()
            .unwrap()
    };
    for row in &rows {
        let (low, value, high) = (
            column(row, "prediction_low_elo"),
            column(row, "predicted_worth_elo"),
            column(row, "prediction_high_elo"),
        );
        assert!(low < value && value < high, "{row:?}");
        // Its interval at least as wide as the match to come alone would make it.
        let z95 = 1.959_963_984_540_054;
        assert!(
            high - value >= z95 * column(row, "future_se_elo") - 1e-9,
            "{row:?}"
        );
    }
    let again = predict();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("written once"));
    assert_eq!(std::fs::read(&path).unwrap(), written);
}
