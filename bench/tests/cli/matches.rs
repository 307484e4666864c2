//! Matches: game pairs, external engines (UCI, xboard, failing ones), resume and shards,
//! and their games packed and unpacked.

use crate::common::*;
use std::path::Path;
use std::process::Output;

#[test]
fn a_short_match_pairs_openings_and_counts_consistently() {
    let dir = temp_dir("match");
    let csv_path = dir.join("games.csv");
    let pgn_path = dir.join("games.pgn");
    let out = match_of(["variant=null-move+lmr", "variant=null-move"])
        .args(["--nodes", "3000"])
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
    let out = match_of(["variant=null-move", &engine])
        .args(["--nodes", "2000", "--rounds", "2", "--restarts", "0"])
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
        match_of(["variant=null-move", &engine])
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
    let out = match_of(["variant=null-move", &engine])
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
fn a_match_resumes_pair_by_pair_and_its_shards_sum_up_to_the_whole() {
    let dir = temp_dir("match-resume");
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
    two_shards_sum_up_to_the_match_and_nothing_else(&dir, &whole);
    the_sprt_on_normalized_elo_says_its_scale(&whole);
    a_resume_with_other_settings_or_another_build_is_refused(&whole);
}

/// `null-move` against `plain` at 300 nodes a move, `games` games into `out`, with `extra`
/// options.
fn play(games: &str, out: &Path, extra: &[&str]) -> Output {
    match_command(["null-move", "plain"], 300, out)
        .args(["--games", games])
        .args(extra)
        .output()
        .expect("match runs")
}

/// Fixed nodes make games deterministic: two shards sum up to the same match as `whole`; the
/// same shard twice, or a shard of another match, is refused.
fn two_shards_sum_up_to_the_match_and_nothing_else(dir: &Path, whole: &Path) {
    let (one, two) = (dir.join("s1.csv"), dir.join("s2.csv"));
    assert!(play("8", &one, &["--shard", "1/2"]).status.success());
    assert!(play("8", &two, &["--shard", "2/2"]).status.success());
    let report = |files: &[&Path]| {
        let out = succeeds(Command::new(EXE).arg("match-report").args(files));
        String::from_utf8(out.stdout).unwrap()
    };
    let merged = report(&[&one, &two]);
    assert_eq!(merged, report(&[whole]));
    assert!(merged.contains("Games: 8"), "{merged}");
    let twice = Command::new(EXE)
        .args(["match-report", one.to_str().unwrap(), one.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!twice.status.success(), "the same shard twice is refused");
    // A shard of another match (its engines the same, its node count not) once summed up
    // with these without a word: the configurations beside the files tell them apart.
    let other_nodes = dir.join("s2-600.csv");
    let status = match_of(["variant=null-move", "variant=plain"])
        .args(["--nodes", "600", "--games", "8", "--shard", "2/2", "--out"])
        .arg(&other_nodes)
        .status()
        .unwrap();
    assert!(status.success());
    let mixed = Command::new(EXE)
        .arg("match-report")
        .args([&one, &other_nodes])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        !mixed.status.success() && stderr.contains("args.nodes: 300 -> 600"),
        "{stderr}"
    );
}

/// The SPRT on normalized Elo, fishtest's default, says its scale.
fn the_sprt_on_normalized_elo_says_its_scale(whole: &Path) {
    let out = Command::new(EXE)
        .arg("match-report")
        .arg(whole)
        .args(["--sprt", "nelo0=0,nelo1=5,alpha=0.05,beta=0.05"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("[0.00, 5.00] nElo"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A resume with other settings (another seed, another opponent) once mixed its games in
/// silently; now it is refused, naming them, as is one by a build whose search behaves
/// otherwise. More games, or other concurrency, go on.
fn a_resume_with_other_settings_or_another_build_is_refused(whole: &Path) {
    let before = std::fs::read(whole).unwrap();
    let other = play("10", whole, &["--resume", "--seed", "7"]);
    assert!(!other.status.success());
    let log = String::from_utf8_lossy(&other.stderr);
    assert!(log.contains("args.seed: 1 -> 7"), "{log}");
    let opponent = match_of(["variant=null-move", "variant=mpc"])
        .args(["--nodes", "300", "--games", "10", "--resume", "--out"])
        .arg(whole)
        .output()
        .unwrap();
    assert!(!opponent.status.success());
    assert!(String::from_utf8_lossy(&opponent.stderr).contains("args.engine"));
    assert_eq!(std::fs::read(whole).unwrap(), before, "nothing written");
    // Games played by a build whose search behaves otherwise, with the same settings, are
    // told apart by the search signature recorded beside them.
    let config = whole.with_extension("config.toml");
    let recorded = std::fs::read_to_string(&config).unwrap();
    let plain = search_signature(&recorded, "plain");
    let other_build = recorded.replace(
        &format!("plain = {plain}"),
        &format!("plain = {}", plain + 1),
    );
    std::fs::write(&config, other_build).unwrap();
    let changed = play("10", whole, &["--resume"]);
    assert!(!changed.status.success());
    let log = String::from_utf8_lossy(&changed.stderr);
    assert!(
        log.contains(&format!("search_signature.plain: {} -> {plain}", plain + 1)),
        "{log}"
    );
    assert_eq!(std::fs::read(whole).unwrap(), before, "nothing written");
    std::fs::write(&config, recorded).unwrap();
    assert!(
        play("10", whole, &["--resume", "--concurrency", "2"])
            .status
            .success()
    );
}

/// A match stopped by its SPRT and run again with `--resume` (as a resumed plan does) plays
/// no more games; it once played another batch of pairs past the decision.
#[test]
fn a_resumed_match_whose_sprt_decided_plays_no_more_games() {
    let dir = temp_dir("match-sprt-resume");
    let csv_path = dir.join("games.csv");
    // Bounds of ±0.41 (alpha = beta = 0.4): the first pair or two decide.
    let play = |extra: &[&str]| {
        match_command(["null-move", "plain"], 300, &csv_path)
            .args(["--games", "40", "--concurrency", "1"])
            .args(["--sprt", "elo0=0,elo1=400,alpha=0.4,beta=0.4"])
            .args(extra)
            .output()
            .expect("match runs")
    };
    let first = stdout_of_success(&play(&[]));
    assert!(first.contains("accepted"), "{first}");
    let before = std::fs::read(&csv_path).unwrap();
    let games = before.iter().filter(|&&b| b == b'\n').count() - 1;
    assert!(games < 40, "the test stopped the match ({games} games)");
    let resumed = play(&["--resume"]);
    assert_eq!(stdout_of_success(&resumed), first, "the same summary");
    assert!(
        String::from_utf8_lossy(&resumed.stderr).contains("(the SPRT decided on them)"),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(std::fs::read(&csv_path).unwrap(), before, "no game added");
}

/// An interrupted match leaves its PGN ahead of its CSV (the PGN is written first), perhaps
/// with half a game: the resume cuts it back, and the PGN ends as the uninterrupted match's.
#[test]
fn a_resumed_match_cuts_its_pgn_back_to_its_csv() {
    let dir = temp_dir("match-pgn-resume");
    let play = |games: &str, stem: &str, extra: &[&str]| {
        let out = match_command(
            ["null-move", "plain"],
            300,
            &dir.join(format!("{stem}.csv")),
        )
        .args(["--games", games, "--concurrency", "1"])
        .arg("--pgn")
        .arg(dir.join(format!("{stem}.pgn")))
        .args(extra)
        .output()
        .expect("match runs");
        stdout_of_success(&out);
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    play("6", "whole", &[]);
    play("2", "cut", &[]);
    // The next pair's PGN written, its CSV rows not: a game and a half.
    let whole = std::fs::read_to_string(dir.join("whole.pgn")).unwrap();
    let cut = std::fs::read_to_string(dir.join("cut.pgn")).unwrap();
    let ahead = &whole[..cut.len() + (whole.len() - cut.len()) / 3];
    std::fs::write(dir.join("cut.pgn"), ahead).unwrap();
    let log = play("6", "cut", &["--resume"]);
    assert!(log.contains("games past the CSV's 2 cut off"), "{log}");
    assert_eq!(std::fs::read_to_string(dir.join("cut.pgn")).unwrap(), whole);
}

/// The search signature of `name` in a configuration file's text.
fn search_signature(config: &str, name: &str) -> u64 {
    let table: toml::Table = config.parse().unwrap();
    u64::try_from(table["search_signature"][name].as_integer().unwrap()).unwrap()
}

/// At fixed nodes a game is deterministic, so `adjudicate`'s replay of rules on games played
/// to their end (`--scores`) gives each game the result and length a match adjudicated live
/// by the same rules plays.
#[test]
fn adjudication_replayed_on_scores_is_the_live_adjudication() {
    let dir = temp_dir("adjudicate");
    let rules = [
        "--resign",
        "movecount=2,score=150",
        "--draw",
        "movenumber=10,movecount=2,score=30",
    ];
    let play = |stem: &str, extra: &[&str]| {
        let out = Command::new(EXE)
            .args(["match", "--engine", "variant=null-move+lmr"])
            .args([
                "--engine",
                "variant=plain",
                "--nodes",
                "400",
                "--games",
                "8",
            ])
            .arg("--out")
            .arg(dir.join(format!("{stem}.csv")))
            .args(extra)
            .output()
            .expect("match runs");
        stdout_of_success(&out);
    };
    let scores = dir.join("natural.scores.csv");
    play("natural", &["--scores", scores.to_str().unwrap()]);
    play("live", &rules);
    let replay = dir.join("replay.csv");
    let out = Command::new(EXE)
        .arg("adjudicate")
        .arg(dir.join("natural.csv"))
        .args(rules)
        .arg("--out")
        .arg(&replay)
        .output()
        .expect("adjudicate runs");
    let summary = stdout_of_success(&out);
    assert!(summary.contains("Games: 8, adjudicated: "), "{summary}");
    let read = |path: &Path| -> Vec<csv::StringRecord> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        reader.records().map(Result::unwrap).collect()
    };
    let live = read(&dir.join("live.csv"));
    let replayed = read(&replay);
    let adjudicated = live
        .iter()
        .filter(|r| r[6].starts_with("adjudication"))
        .count();
    assert!(adjudicated > 0, "the rules end some game early");
    for (l, r) in live.iter().zip(&replayed) {
        // live: result 5, plies 7; replay: adjudicated_result 4, adjudicated_plies 6.
        assert_eq!((&l[5], &l[7]), (&r[4], &r[6]), "game {}", &l[0]);
    }
    // The scores: one row per ply of every game, plies counted from 1.
    let natural = read(&dir.join("natural.csv"));
    let plies: usize = natural.iter().map(|r| r[7].parse::<usize>().unwrap()).sum();
    assert_eq!(read(&scores).len(), plies);
}

/// A PGN that lost whole games of the CSV, or whose last game is torn, is not appended to: a
/// resume would write the next game onto half of one.
#[test]
fn a_resumed_match_refuses_a_pgn_short_of_its_csv() {
    let dir = temp_dir("match-pgn-torn");
    let play = |games: &str, extra: &[&str]| {
        Command::new(EXE)
            .args(["match", "--engine", "variant=null-move"])
            .args([
                "--engine",
                "variant=plain",
                "--nodes",
                "300",
                "--games",
                games,
            ])
            .arg("--out")
            .arg(dir.join("m.csv"))
            .arg("--pgn")
            .arg(dir.join("m.pgn"))
            .args(extra)
            .output()
            .expect("match runs")
    };
    stdout_of_success(&play("4", &[]));
    let pgn = std::fs::read_to_string(dir.join("m.pgn")).unwrap();
    std::fs::write(dir.join("m.pgn"), &pgn[..pgn.len() - 40]).unwrap();
    let out = play("6", &["--resume"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("m.pgn: 3 whole games where the CSV holds 4"),
        "{err}"
    );
}

/// A match records its openings by content: a resume on a book changed under the same name
/// is refused, naming the difference, where it once played the new openings beside the old.
#[test]
fn a_resumed_match_refuses_openings_changed_under_their_name() {
    let dir = temp_dir("match-openings");
    let book = dir.join("book.epd");
    let out = dir.join("games.csv");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - id \"d4\";",
    ];
    std::fs::write(&book, fens.join("\n") + "\n").unwrap();
    let run = |extra: &[&str]| {
        match_command(["null-move", "plain"], 300, &out)
            .args(["--openings", book.to_str().unwrap(), "--maxmoves", "20"])
            .args(extra)
            .output()
            .unwrap()
    };
    stdout_of_success(&run(&["--games", "2"]));
    let config = std::fs::read_to_string(dir.join("games.config.toml")).unwrap();
    assert!(config.contains("openings_content = "), "{config}");
    stdout_of_success(&run(&["--games", "4", "--resume"]));
    let changed = "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - id \"c4\";";
    std::fs::write(&book, format!("{}\n{changed}\n", fens[0])).unwrap();
    let refused = run(&["--games", "6", "--resume"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("openings_content"), "{err}");
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

/// An engine's own `nodes=` searches that many nodes a move where the other searches
/// `--nodes`: the same variant at twice the nodes against itself, and only with `--nodes`.
#[test]
fn an_engine_searches_its_own_nodes_per_move() {
    let dir = temp_dir("match-own-nodes");
    let out = dir.join("games.csv");
    // The same variant at 2,000 nodes a move each, one side's own nodes given by `first`.
    let play = |first: &[&str], pgn: &str| {
        Command::new(EXE)
            .args(["match", "--engine", "variant=null-move+lmr", "name=doubled"])
            .args(first)
            .args(["--engine", "variant=null-move+lmr", "name=single"])
            .args(["--nodes", "2000", "--games", "2", "--maxmoves", "30"])
            .arg("--pgn")
            .arg(dir.join(pgn))
            .output()
            .unwrap()
    };
    let doubled = play(
        &["nodes=4000", "--out", out.to_str().unwrap()],
        "doubled.pgn",
    );
    stdout_of_success(&doubled);
    let config = std::fs::read_to_string(dir.join("games.config.toml")).unwrap();
    assert!(config.contains("nodes=4000"), "{config}");
    // The doubled side searched other trees: the games are not those of 2,000 a side
    // (deterministic, so this holds on every run). A clock with nodes= is refused.
    stdout_of_success(&play(&[], "same.pgn"));
    let pgn = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap_or_default();
    let clocked = Command::new(EXE)
        .args(["match", "--engine", "variant=null-move", "nodes=100"])
        .args(["--engine", "variant=null-move", "name=b", "--tc", "1+0.1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&clocked.stderr);
    assert!(!clocked.status.success() && err.contains("nodes="), "{err}");
    let moves = |p: &str| -> Vec<String> {
        pgn(p)
            .lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(moves("same.pgn").len(), 2);
    assert_eq!(moves("doubled.pgn").len(), 2);
    assert_ne!(moves("doubled.pgn"), moves("same.pgn"));
}

/// A PGN is written by one match at a time: a second match naming it, `--force` or not, is
/// refused while the first plays, and the first's games stay in it.
#[test]
fn a_pgn_in_use_by_a_running_match_is_refused() {
    let dir = temp_dir("pgn-lock");
    let pgn = dir.join("games.pgn");
    let mut first = match_of(["variant=plain", "variant=plain"])
        .args(["--games", "400", "--nodes", "2000", "--pgn"])
        .arg(&pgn)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::metadata(&pgn).map_or(0, |m| m.len()) == 0 {
        assert!(std::time::Instant::now() < deadline, "no game written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let second = Command::new(EXE)
        .args(plain_match(&["--force", "--pgn"]))
        .arg(&pgn)
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&pgn).unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{err}");
    assert!(err.contains("in use by another cutlab run"), "{err}");
    assert!(written.starts_with("[Event"), "{written:.200}");
}
