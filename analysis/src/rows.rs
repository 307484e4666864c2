//! The rows of cutlab's result files, one struct per file, and a reader whose errors name the
//! file and line. The experiments write these rows; the tables and plots read them back.
//! Columns and units are documented in `docs/csv.md`.

use std::path::Path;

use cutlab_instrument::Tally;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// `path`, or `path.gz` or `path.xz` where only a compressed file is there (the data of
/// `results/`).
#[must_use]
pub fn stored(path: &Path) -> Option<std::path::PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    [".gz", ".xz"].into_iter().find_map(|suffix| {
        let mut compressed = path.as_os_str().to_owned();
        compressed.push(suffix);
        let compressed = std::path::PathBuf::from(compressed);
        compressed.is_file().then_some(compressed)
    })
}

/// Every row of a CSV, read from `path` or, where only that is there, `path.gz` or `path.xz`.
///
/// # Errors
/// An unreadable file, or a row that does not parse (`file:line: problem`).
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, String> {
    read_rows(path, false)
}

/// The rows of `path` (or its `.gz` or `.xz`); `in_progress`: a last line without its end,
/// which a process still writing the file (or killed while it wrote) leaves, is not a row yet.
fn read_rows<T: DeserializeOwned>(path: &Path, in_progress: bool) -> Result<Vec<T>, String> {
    let found = stored(path).unwrap_or_else(|| path.to_path_buf());
    let path = found.as_path();
    let mut text = read_bytes(path)?;
    if in_progress && !text.ends_with(b"\n") {
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        text.truncate(whole);
    }
    csv::Reader::from_reader(text.as_slice())
        .deserialize()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| format!("{}:{}: {e}", path.display(), i + 2)))
        .collect()
}

/// The bytes of `path`, decompressed when it ends in `.gz` or `.xz`.
///
/// # Errors
/// An unreadable file, named.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut input: Box<dyn std::io::Read> = match path.extension().and_then(|e| e.to_str()) {
        Some("gz") => Box::new(flate2::read::GzDecoder::new(file)),
        Some("xz") => Box::new(liblzma::read::XzDecoder::new(file)),
        _ => Box::new(file),
    };
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

/// Every row of a CSV that may not be there yet, or not whole (a step not run, or running, or
/// killed while it wrote): none when neither `path` nor `path.gz` is, and a last line
/// without its end left out; a file that is there but does not parse is an error, never an
/// empty table.
///
/// # Errors
/// As [`read`], for a file that is there.
pub fn read_if_stored<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, String> {
    if stored(path).is_some() {
        read_rows(path, true)
    } else {
        Ok(Vec::new())
    }
}

/// The games of a match's CSV, checked by [`check_games`].
///
/// # Errors
/// As [`read`], or a game the check refuses.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    let games = read(path)?;
    check_games(path, &games)?;
    Ok(games)
}

/// [`read_games`] of a file that may not be there yet (none then), as [`read_if_stored`].
///
/// # Errors
/// As [`read_games`], for a file that is there.
pub fn read_games_if_stored(path: &Path) -> Result<Vec<GameRow>, String> {
    let games = read_if_stored(path)?;
    check_games(path, &games)?;
    Ok(games)
}

/// The first engine's points for a game's `result`: 1, 0.5 or 0 (`None` for a result that is
/// not `1-0`, `0-1` or `1/2-1/2`).
#[must_use]
pub fn first_engine_points(result: &str, first_is_white: bool) -> Option<f64> {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return None,
    };
    Some(if first_is_white { white } else { 1.0 - white })
}

/// Refuses games that cannot be one match's as `cutlab match` writes them: a game number
/// twice (a row copied, or a shard merged twice), a result that is not one of the three, or a
/// first engine's score that its game's result contradicts (the first engine has White in odd
/// games). Each is named with `path`.
///
/// # Errors
/// The first such game.
pub fn check_games(path: &Path, games: &[GameRow]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for g in games {
        let at = |problem: String| format!("{}: game {}: {problem}", path.display(), g.game);
        if !seen.insert(g.game) {
            return Err(at("appears twice".into()));
        }
        let Some(first_score) = first_engine_points(&g.result, g.game % 2 == 1) else {
            return Err(at(format!(
                "result '{}' is not 1-0, 0-1 or 1/2-1/2",
                g.result
            )));
        };
        if (g.first_engine_score - first_score).abs() > f64::EPSILON {
            return Err(at(format!(
                "result {} gives the first engine {first_score}, the row says {}",
                g.result, g.first_engine_score
            )));
        }
    }
    Ok(())
}

/// One row of `cutlab regress`: a position searched to one depth.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SampleRow {
    /// Position id.
    pub position: String,
    /// Middlegame or endgame.
    pub stage: String,
    /// Depth of the iteration.
    pub depth: i32,
    /// Exact value at that depth, side to move's view, centipawns.
    pub value_cp: i32,
    /// Nodes searched up to the end of that iteration (cumulative).
    pub nodes: u64,
    /// Milliseconds up to the end of that iteration (cumulative).
    pub time_ms: u64,
    /// Best move of the iteration, UCI.
    pub best_move: String,
    /// The position.
    pub fen: String,
}

/// One row of `cutlab depth`: one search of a position by a variant.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DepthRow {
    /// Position id.
    pub position: String,
    /// Variant name.
    pub variant: String,
    /// Middlegame or endgame.
    pub stage: String,
    /// Time limit, milliseconds (empty in `--depth` mode).
    pub time_limit_ms: Option<u64>,
    /// Nominal depth completed.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time used, milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Score of the last completed iteration, side to move's view.
    pub score_cp: i32,
    /// Best move, UCI.
    pub best_move: String,
    /// The position.
    pub fen: String,
}

/// One row of `cutlab depth`'s `<out>.cuts.csv`: the forward-pruning tests of one method in
/// one search (a row for every method the search tried; a method absent was never tried).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CutCountRow {
    /// Position id.
    pub position: String,
    /// Variant name.
    pub variant: String,
    /// Method name (as in presets and the trace's `method` column).
    pub method: String,
    /// Tests tried.
    pub tries: u64,
    /// Tests that cut (or, for a reduction, reduced).
    pub cuts: u64,
}

/// One row of `cutlab oracle`: the regret of a variant's move in a position.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RegretRow {
    /// Position id.
    pub position: String,
    /// Variant name.
    pub variant: String,
    /// Middlegame or endgame.
    pub stage: String,
    /// The variant's move, UCI.
    pub chosen_move: String,
    /// Oracle score of the chosen move, centipawns.
    pub chosen_score_cp: i32,
    /// The oracle's best move, UCI.
    pub oracle_move: String,
    /// Oracle score of its best move, centipawns.
    pub oracle_score_cp: i32,
    /// Oracle best minus chosen, both clamped to ±2000 cp (mates count as 2000).
    pub regret_cp: i32,
    /// Depth the variant completed.
    pub depth: i32,
    /// Nodes the variant searched.
    pub nodes: u64,
    /// Whether the chosen move is a `bm` and not an `am` (empty without them).
    pub solved: Option<bool>,
}

/// One row of `cutlab match --out`: a finished game.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct GameRow {
    /// Game number, from 1.
    pub game: usize,
    /// Opening pair (each opening is played with both colours).
    pub pair: usize,
    /// Opening id.
    pub opening: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How the game ended.
    pub termination: String,
    /// Plies played from the opening.
    pub plies: usize,
    /// Points of the first engine: 1, 0.5 or 0.
    pub first_engine_score: f64,
    /// Times an engine was started again after failing in this game (files written before
    /// this column read as 0).
    #[serde(default)]
    pub restarts: u32,
    /// The game as PGN (written to the PGN file, not the CSV).
    #[serde(skip)]
    pub pgn: String,
    /// Each move's score (written to `--scores`, not here).
    #[serde(skip)]
    pub scores: Vec<ScoreRow>,
}

/// One row of `cutlab match --scores`: the score an engine gave for one move of a game, the
/// data on which `cutlab adjudicate` replays adjudication rules.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ScoreRow {
    /// Game number, from 1 (the `game` of `--out`).
    pub game: usize,
    /// Half-moves played from the opening, this move included (from 1).
    pub ply: usize,
    /// `white` or `black`: the side that moved.
    pub mover: String,
    /// The mover's score in its own view, centipawns (empty when its engine gave none).
    pub score_cp: Option<i32>,
}

/// One row of `<stem>.tallies.csv` of `cutlab trace`: the forward-pruning tests of one
/// method at one remaining depth and expected node type in one position's search, counted
/// (all of them, whatever `--sample` or `--min-depth` keep of the rows of `<stem>.tests.csv`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyRow {
    /// Position id.
    pub position: String,
    /// Method name.
    pub method: String,
    /// Expected node type: `pv`, `cut`, `all`.
    pub node_type: String,
    /// Remaining depth of the nodes, plies (tests deeper than 63 share 63).
    pub depth: i32,
    /// Nodes where the method was tried (one or more tests).
    pub nodes_tried: u64,
    /// Tests tried.
    pub tries: u64,
    /// Tests that cut (`cut-high`, `cut-low`, `prune-move`).
    pub cuts: u64,
    /// Nodes the tests themselves searched.
    pub test_nodes: u64,
}

impl TallyRow {
    /// The row's four counts (`test_nodes` as [`Tally::nodes`]).
    #[must_use]
    pub fn tally(&self) -> Tally {
        Tally {
            tries: self.tries,
            nodes_tried: self.nodes_tried,
            cuts: self.cuts,
            nodes: self.test_nodes,
        }
    }
}

/// One row of `<stem>.verify.csv` of `cutlab trace --verify-cuts`: a sampled cut re-searched
/// full-width.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct VerifyRow {
    /// Position id.
    pub position: String,
    /// Node the cut happened at.
    pub node_id: u64,
    /// Method that cut.
    pub method: String,
    /// Remaining depth of the node.
    pub depth: i32,
    /// The node's alpha.
    pub alpha_cp: i32,
    /// The node's beta.
    pub beta_cp: i32,
    /// Bound the shallow value was compared with.
    pub bound_cp: i32,
    /// The shallow search's value.
    pub shallow_value_cp: i32,
    /// `cut-high` or `cut-low`.
    pub outcome: String,
    /// Value of the full-width re-search at the same depth.
    pub true_value_cp: i32,
    /// Whether the true value is on the side of the bound the cut claimed.
    pub correct: bool,
    /// Nodes the re-search took.
    pub verify_nodes: u64,
    /// The node's position.
    pub fen: String,
    /// The move a move-level test pruned (the re-search is of the position after it).
    #[serde(default)]
    pub pruned_move: Option<String>,
}

/// One row of `<stem>.false-cuts.csv` of `cutlab trace --verify-cuts`: the verified cuts of one
/// position, method, remaining depth and outcome, counted. The reports read these; the rows of
/// `<stem>.verify.csv` (one per cut, with its position) are what a study leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FalseCutRow {
    /// Position id.
    pub position: String,
    /// Method that cut.
    pub method: String,
    /// Remaining depth of the nodes.
    pub depth: i32,
    /// `cut-high` or `cut-low`.
    pub outcome: String,
    /// Cuts sampled and re-searched.
    pub sampled_cuts: u64,
    /// Of those, the cuts whose re-search disagrees with the bound claimed.
    pub false_cuts: u64,
    /// Nodes the re-searches took.
    pub verify_nodes: u64,
}

impl FalseCutRow {
    /// The verified cuts `rows` counted per position, method, depth and outcome, in the order
    /// each of these first appears.
    #[must_use]
    pub fn count(rows: &[VerifyRow]) -> Vec<Self> {
        let mut counted: Vec<Self> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for r in rows {
            let key = (
                r.position.as_str(),
                r.method.as_str(),
                r.depth,
                r.outcome.as_str(),
            );
            let k = *index.entry(key).or_insert_with(|| {
                counted.push(Self {
                    position: r.position.clone(),
                    method: r.method.clone(),
                    depth: r.depth,
                    outcome: r.outcome.clone(),
                    ..Self::default()
                });
                counted.len() - 1
            });
            let c = &mut counted[k];
            c.sampled_cuts += 1;
            c.false_cuts += u64::from(!r.correct);
            c.verify_nodes += r.verify_nodes;
        }
        counted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(game: usize, result: &str, first_engine_score: f64) -> GameRow {
        GameRow {
            game,
            pair: game.div_ceil(2),
            result: result.into(),
            first_engine_score,
            ..GameRow::default()
        }
    }

    /// A CSV kept xz-compressed is read under its plain name, as a gzipped one is.
    #[test]
    fn compressed_files_are_read_under_their_plain_name() {
        use std::io::Write as _;
        let dir = std::env::temp_dir().join(format!("cutlab-rows-xz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "game,ply,mover,score_cp\n1,1,white,20\n1,2,black,\n";
        let mut xz = liblzma::write::XzEncoder::new(
            std::fs::File::create(dir.join("m.scores.csv.xz")).unwrap(),
            6,
        );
        xz.write_all(text.as_bytes()).unwrap();
        xz.finish().unwrap();
        let rows: Vec<ScoreRow> = read(&dir.join("m.scores.csv")).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].score_cp, rows[1].score_cp), (Some(20), None));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn games_that_cannot_be_one_match_are_named() {
        let path = Path::new("m.csv");
        let good = [
            game(1, "1-0", 1.0),
            game(2, "1-0", 0.0),
            game(3, "1/2-1/2", 0.5),
        ];
        assert!(check_games(path, &good).is_ok());
        let twice = [
            game(1, "1-0", 1.0),
            game(2, "0-1", 1.0),
            game(2, "0-1", 1.0),
        ];
        let e = check_games(path, &twice).unwrap_err();
        assert!(e.contains("m.csv: game 2: appears twice"), "{e}");
        // Black won game 1, where the first engine has White: it scored 0, not 1.
        let e = check_games(path, &[game(1, "0-1", 1.0)]).unwrap_err();
        assert!(
            e.contains("game 1: result 0-1 gives the first engine 0"),
            "{e}"
        );
        let e = check_games(path, &[game(1, "*", 0.5)]).unwrap_err();
        assert!(e.contains("result '*'"), "{e}");
    }
}
