//! The network's commands end to end: `datagen` (self-play and played games) and `train`.

use crate::common::*;
use std::path::Path;
use std::process::Output;

/// The 32-byte records of a datagen run, sorted (their order follows the threads).
fn datagen_records(dir: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(dir.join("data.bin")).unwrap();
    assert_eq!(bytes.len() % 32, 0);
    let mut records: Vec<Vec<u8>> = bytes.chunks(32).map(<[u8]>::to_vec).collect();
    records.sort();
    records
}

/// The records of the runs `dir/one` and `dir/two` (shards 1/2 and 2/2), together, sorted.
fn shard_records(dir: &Path) -> Vec<Vec<u8>> {
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
        succeeds(
            Command::new(EXE)
                .args(["datagen", "--games", "4", "--nodes", "300", "--out"])
                .arg(dir.join(out))
                .args(extra),
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
    succeeds(
        Command::new(EXE)
            .args(["datagen", "--games", "6", "--nodes", "300", "--out"])
            .arg(dir.join("data")),
    );
    let whole = train(&dir, "whole", &["--epochs", "3"]);
    assert_success(&whole);
    let net = std::fs::read(dir.join("whole/net.nnue")).unwrap();
    assert!(net.starts_with(b"CUTLABNN"));
    let text = String::from_utf8_lossy(&net[..400]);
    assert!(
        text.contains("generated_at_commit") && text.contains("training_positions"),
        "{text}"
    );
    assert_eq!(losses(&dir, "whole").len(), 1 + 3);
    a_resumed_run_trains_the_same_network(&dir);
    a_finished_run_rescaled_halves_its_output_layer(&dir);
    grown_data_is_refused(&dir);
    bad_options_and_foreign_folders_are_refused_before_training(&dir);
}

/// `cutlab train DIR/data` with small batches and a validation share into `DIR/out`, with
/// `extra` options.
fn train(dir: &Path, out: &str, extra: &[&str]) -> Output {
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
}

/// The first four columns (epoch and losses) of each line of a run's `loss.csv`.
fn losses(dir: &Path, out: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(out).join("loss.csv"))
        .unwrap()
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            fields[..4].join(",")
        })
        .collect()
}

/// The weights that end a run's network file before its 8-byte checksum: both layers and
/// their biases, 16 bits each.
fn weights(dir: &Path, out: &str) -> Vec<u8> {
    let bytes = std::fs::read(dir.join(out).join("net.nnue")).unwrap();
    let end = bytes.len() - 8;
    bytes[end - 2 * (769 * 128 + 2 * 128 + 1)..end].to_vec()
}

/// A run's network read by the engine's own reader (which also checks the integers' ranges).
fn network(dir: &Path, out: &str) -> cutlab_search::nnue::Network {
    let bytes = std::fs::read(dir.join(out).join("net.nnue")).unwrap();
    cutlab_search::nnue::Network::from_bytes(&bytes).unwrap()
}

/// Two epochs, then a third after `--resume` (refused without it), give the three-epoch run's
/// losses and weights.
fn a_resumed_run_trains_the_same_network(dir: &Path) {
    assert!(train(dir, "part", &["--epochs", "2"]).status.success());
    assert!(
        !train(dir, "part", &["--epochs", "3"]).status.success(),
        "needs --resume"
    );
    assert!(
        train(dir, "part", &["--epochs", "3", "--resume"])
            .status
            .success()
    );
    assert_eq!(losses(dir, "part"), losses(dir, "whole"));
    assert_eq!(weights(dir, "part"), weights(dir, "whole"));
}

fn a_finished_run_rescaled_halves_its_output_layer(dir: &Path) {
    // The finished run resumed at another output scale: quantised again, not trained (the
    // same losses), the feature layer as it was and the output layer halved (each weight
    // rounded once from the float: |2s - u| <= 2 x 1/2 + 1/2 for integers s, u).
    let halved = train(
        dir,
        "part",
        &["--epochs", "3", "--resume", "--output-scale", "0.5"],
    );
    assert_success(&halved);
    assert_eq!(losses(dir, "part"), losses(dir, "whole"));
    let (scaled, unscaled) = (network(dir, "part"), network(dir, "whole"));
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
}

fn grown_data_is_refused(dir: &Path) {
    // Data that grew under the same name is other data: the resume is refused (it once
    // trained its later epochs on more positions than its first, in one loss.csv).
    let data = dir.join("data/data.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    let first: Vec<u8> = bytes[..32].to_vec();
    bytes.extend(first);
    std::fs::write(&data, &bytes).unwrap();
    let grown = train(dir, "part", &["--epochs", "4", "--resume"]);
    let err = String::from_utf8_lossy(&grown.stderr);
    assert!(
        !grown.status.success() && err.contains("data_content"),
        "{err}"
    );
}

fn bad_options_and_foreign_folders_are_refused_before_training(dir: &Path) {
    // Refused before any training, naming the option: no validation share, a scale that
    // would saturate, and a folder whose network no training run here wrote.
    let no_validation = Command::new(EXE)
        .arg("train")
        .arg(dir.join("data"))
        .args(["--validation", "0", "--out"])
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    let scale = train(dir, "refused", &["--epochs", "1", "--output-scale", "1e30"]);
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
    let out = train(dir, "foreign", &["--epochs", "1"]);
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
    let columns = |path: &Path, result: usize, count: usize| -> Vec<(String, usize)> {
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
}
