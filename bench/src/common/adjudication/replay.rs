//! Adjudication replayed on games played to their natural end (`cutlab adjudicate`, and a
//! study's report): at fixed nodes a game is deterministic, so the game an adjudicated match
//! would have played is the natural game cut where the rule fires. Replaying the rule (the
//! same [`Adjudicator`] as `match` runs) on each move's recorded score tells, for every game,
//! the result adjudication would have given and the moves it would have saved, which is how
//! fishtest and OpenBench judge their rules.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use cutlab_analysis::{
    rows::{GameRow, ScoreRow},
    stats::{mean_ci, wilson},
    tables::MatchSummary,
};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{Adjudication, Adjudicator};

/// One row of `cutlab adjudicate --out`: a game's natural result beside the one the rules
/// would have given.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct AdjudicatedRow {
    /// The games CSV the game is from.
    pub source: String,
    /// Game number there.
    pub game: usize,
    /// The result the game reached by itself.
    pub result: String,
    /// Half-moves it took.
    pub plies: usize,
    /// The result adjudication gives (the natural one when no rule fires).
    pub adjudicated_result: String,
    /// `resign`, `draw`, or empty when no rule fires.
    pub rule: String,
    /// Half-moves played when the rule fires (`plies` when none does).
    pub adjudicated_plies: usize,
    /// Whether the adjudicated result differs from the natural one.
    pub result_changed: bool,
}

/// The rules replayed on every game of some matches: a row per game, and each match's games
/// as played and as adjudication would have ended them.
pub struct Replayed {
    /// A row per game.
    pub rows: Vec<AdjudicatedRow>,
    /// Each games file's name, its games, and the same games with adjudicated results.
    pub matches: Vec<(String, Vec<GameRow>, Vec<GameRow>)>,
}

/// Replays `rules` on the games of `files` (each with its scores beside it).
///
/// # Errors
/// An unreadable file, a game without all its scores, or a game already adjudicated.
pub fn replay(files: &[PathBuf], rules: Adjudication) -> Result<Replayed, String> {
    let mut rows = Vec::new();
    let mut matches = Vec::new();
    for path in files {
        let games: Vec<GameRow> = cutlab_analysis::rows::read_games(path)?;
        let replayed = replay_file(path, &games, rules)?;
        let adjudicated: Vec<GameRow> = games
            .iter()
            .zip(&replayed)
            .map(|(g, r)| with_result(g, &r.adjudicated_result))
            .collect();
        matches.push((path.display().to_string(), games, adjudicated));
        rows.extend(replayed);
    }
    Ok(Replayed { rows, matches })
}

/// The scores file of a games CSV: `STEM.scores.csv` beside `STEM.csv` (or `STEM.csv.gz`; the
/// scores may be compressed too, as a study keeps them).
fn scores_path(games: &Path) -> PathBuf {
    let name = games.file_name().map_or_else(String::new, |n| {
        let n = n.to_string_lossy();
        let n = n.strip_suffix(".gz").unwrap_or(&n);
        format!("{}.scores.csv", n.strip_suffix(".csv").unwrap_or(n))
    });
    games.with_file_name(name)
}

/// Replays the rules on the games of one file.
fn replay_file(
    path: &Path,
    games: &[GameRow],
    rules: Adjudication,
) -> Result<Vec<AdjudicatedRow>, String> {
    let scores_file = scores_path(path);
    let mut scores: BTreeMap<usize, Vec<ScoreRow>> = BTreeMap::new();
    for row in cutlab_analysis::rows::read::<ScoreRow>(&scores_file)? {
        scores.entry(row.game).or_default().push(row);
    }
    let mut rows = Vec::with_capacity(games.len());
    for game in games {
        let at = |problem: String| format!("{}: game {}: {problem}", path.display(), game.game);
        if game.termination.starts_with("adjudication") {
            return Err(at(format!(
                "ended by {}; replay games played to their end",
                game.termination
            )));
        }
        let moves = scores.get(&game.game).map_or(&[][..], Vec::as_slice);
        let plies: Vec<usize> = moves.iter().map(|m| m.ply).collect();
        if plies != (1..=game.plies).collect::<Vec<_>>() {
            return Err(at(format!(
                "{} holds {} scores for its {} plies (or not in order)",
                scores_file.display(),
                moves.len(),
                game.plies
            )));
        }
        rows.push(replay_game(path, game, moves, rules).map_err(at)?);
    }
    Ok(rows)
}

/// Replays the rules on one game's scores.
fn replay_game(
    path: &Path,
    game: &GameRow,
    moves: &[ScoreRow],
    rules: Adjudication,
) -> Result<AdjudicatedRow, String> {
    let mut adjudicator = Adjudicator::new(rules);
    let mut end = None;
    for m in moves {
        let mover = match m.mover.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            other => return Err(format!("ply {}: mover '{other}'", m.ply)),
        };
        if let Some((result, ending)) = adjudicator.after_move(m.ply, mover, m.score_cp) {
            end = Some((result, ending, m.ply));
            break;
        }
    }
    let (adjudicated_result, rule, adjudicated_plies) = match end {
        Some((result, ending, ply)) => (
            result.to_string(),
            ending
                .name()
                .trim_start_matches("adjudication: ")
                .to_string(),
            ply,
        ),
        None => (game.result.clone(), String::new(), game.plies),
    };
    Ok(AdjudicatedRow {
        source: path.display().to_string(),
        game: game.game,
        result: game.result.clone(),
        plies: game.plies,
        result_changed: adjudicated_result != game.result,
        adjudicated_result,
        rule,
        adjudicated_plies,
    })
}

/// `game` with another result (the first engine's score follows it).
fn with_result(game: &GameRow, result: &str) -> GameRow {
    let first_is_white = game.game % 2 == 1;
    let first_engine_score =
        cutlab_analysis::rows::first_engine_points(result, first_is_white).unwrap_or(0.0);
    GameRow {
        result: result.to_string(),
        first_engine_score,
        ..game.clone()
    }
}

/// The summary: games adjudicated, results changed (Wilson 95%), plies saved (t 95%), and each
/// match's Elo and nElo from its natural and its adjudicated results.
pub fn summary(Replayed { rows, matches }: &Replayed) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let n = rows.len() as u64;
    let count = |f: &dyn Fn(&AdjudicatedRow) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
    let adjudicated = count(&|r| !r.rule.is_empty());
    let changed = count(&|r| r.result_changed);
    let percent = |e: Option<cutlab_analysis::stats::Estimate>| {
        e.map_or_else(
            || "no interval".to_string(),
            |e| {
                format!(
                    "{:.2}% [{:.2}, {:.2}]",
                    100.0 * e.value,
                    100.0 * e.low,
                    100.0 * e.high
                )
            },
        )
    };
    let _ = writeln!(
        s,
        "Games: {n}, adjudicated: {adjudicated} (resign {}, draw {})",
        count(&|r| r.rule == "resign"),
        count(&|r| r.rule == "draw")
    );
    let _ = writeln!(
        s,
        "Results changed: {changed} of {n} games, {} (Wilson 95%)",
        percent(wilson(changed, n, 0.95))
    );
    for (rule, name) in [("resign", "resign"), ("draw", "draw")] {
        let fired = count(&|r| r.rule == rule);
        let wrong = count(&|r| r.rule == rule && r.result_changed);
        let _ = writeln!(
            s,
            "  by {name}: {wrong} of {fired} adjudicated games, {}",
            percent(wilson(wrong, fired, 0.95))
        );
    }
    write_plies_saved(&mut s, rows);
    write_matches(&mut s, matches);
    s
}

/// The plies adjudication saved, as a share of the natural games' plies with its t interval.
fn write_plies_saved(s: &mut String, rows: &[AdjudicatedRow]) {
    use std::fmt::Write as _;
    let n = rows.len();
    let natural: usize = rows.iter().map(|r| r.plies).sum();
    let saved: Vec<f64> = rows
        .iter()
        .map(|r| (r.plies - r.adjudicated_plies) as f64)
        .collect();
    if natural > 0 {
        let mean_plies = natural as f64 / n as f64;
        let _ = match mean_ci(&saved, 0.95) {
            Some(e) => writeln!(
                s,
                "Plies saved: {:.1}% of {natural} [{:.1}, {:.1}] (t 95%; {:.1} a game of {mean_plies:.1})",
                100.0 * e.value / mean_plies,
                100.0 * e.low / mean_plies,
                100.0 * e.high / mean_plies,
                e.value
            ),
            // One game: its saving, which has no interval.
            None => writeln!(
                s,
                "Plies saved: {:.1}% of {natural} (one game, no interval)",
                100.0 * saved.iter().sum::<f64>() / mean_plies
            ),
        };
    }
}

/// Each match's Elo and nElo from its natural games, then from its adjudicated ones.
fn write_matches(s: &mut String, matches: &[(String, Vec<GameRow>, Vec<GameRow>)]) {
    use std::fmt::Write as _;
    for (name, games, adjudicated) in matches {
        let (Some(a), Some(b)) = (MatchSummary::of(games), MatchSummary::of(adjudicated)) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{name}: {} games, Elo {:+.1} ± {:.1} → {:+.1} ± {:.1}, nElo {:+.1} ± {:.1} → {:+.1} ± {:.1}",
            a.games,
            a.stats.elo,
            a.stats.elo_error,
            b.stats.elo,
            b.stats.elo_error,
            a.stats.nelo,
            a.stats.nelo_error,
            b.stats.nelo,
            b.stats.nelo_error
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: &str, plies: usize) -> GameRow {
        GameRow {
            game: 1,
            pair: 1,
            white: "a".into(),
            black: "b".into(),
            result: result.into(),
            termination: "checkmate".into(),
            plies,
            ..GameRow::default()
        }
    }

    fn moves(scores: &[i32]) -> Vec<ScoreRow> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &s)| ScoreRow {
                game: 1,
                ply: i + 1,
                mover: if i % 2 == 0 { "white" } else { "black" }.into(),
                score_cp: Some(s),
            })
            .collect()
    }

    #[test]
    fn a_resign_that_the_game_contradicts_is_a_changed_result() {
        let rules = Adjudication::parse(None, Some("movecount=2,score=500"), None).unwrap();
        // White reads -600 twice (plies 1 and 3): resigned at ply 3, though White won.
        let scores = moves(&[-600, 600, -600, 600, 100, -100]);
        let row = replay_game(Path::new("m.csv"), &game("1-0", 6), &scores, rules).unwrap();
        assert_eq!(
            (
                row.adjudicated_result.as_str(),
                row.rule.as_str(),
                row.adjudicated_plies
            ),
            ("0-1", "resign", 3)
        );
        assert!(row.result_changed);
        // The same scores for a game Black won: the same adjudication, now right.
        let row = replay_game(Path::new("m.csv"), &game("0-1", 6), &scores, rules).unwrap();
        assert!(!row.result_changed);
    }

    /// The plies saved: a mean with its t interval over games, one game's saving alone.
    #[test]
    fn the_plies_saved_have_an_interval_from_two_games() {
        let row = |plies, adjudicated_plies| AdjudicatedRow {
            plies,
            adjudicated_plies,
            ..AdjudicatedRow::default()
        };
        let summary_of = |rows: Vec<AdjudicatedRow>| {
            summary(&Replayed {
                rows,
                matches: Vec::new(),
            })
        };
        let one = summary_of(vec![row(100, 80)]);
        assert!(
            one.contains("Plies saved: 20.0% of 100 (one game, no interval)"),
            "{one}"
        );
        // Savings 20 and 40 of 100 plies a game: 30 ± t(0.975, 1)·10 = 30 ± 127.1.
        let two = summary_of(vec![row(100, 80), row(100, 60)]);
        assert!(
            two.contains("Plies saved: 30.0% of 200 [-97.1, 157.1]"),
            "{two}"
        );
    }

    #[test]
    fn a_game_no_rule_ends_keeps_its_result_and_length() {
        let rules =
            Adjudication::parse(Some("movenumber=1,movecount=8,score=10"), None, None).unwrap();
        let row = replay_game(
            Path::new("m.csv"),
            &game("1/2-1/2", 4),
            &moves(&[0, 0, 0, 0]),
            rules,
        )
        .unwrap();
        assert_eq!((row.rule.as_str(), row.adjudicated_plies), ("", 4));
        assert!(!row.result_changed);
    }

    #[test]
    fn missing_scores_and_adjudicated_games_are_refused() {
        let rules = Adjudication::parse(None, Some("movecount=2,score=500"), None).unwrap();
        let dir = crate::common::scratch_dir("adjudicate");
        let path = dir.join("m.csv");
        crate::common::results::write_csv(&scores_path(&path), &moves(&[1, 2, 3])).unwrap();
        let e = replay_file(&path, &[game("1-0", 4)], rules).unwrap_err();
        assert!(
            e.contains("game 1") && e.contains("3 scores for its 4 plies"),
            "{e}"
        );
        let mut adjudicated = game("1-0", 3);
        adjudicated.termination = "adjudication: resign".into();
        let e = replay_file(&path, &[adjudicated], rules).unwrap_err();
        assert!(e.contains("replay games played to their end"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_scores_sit_beside_their_games() {
        assert_eq!(
            scores_path(Path::new("d/without-rfp.csv")),
            Path::new("d/without-rfp.scores.csv")
        );
        assert_eq!(
            scores_path(Path::new("d/without-rfp.csv.gz")),
            Path::new("d/without-rfp.scores.csv")
        );
    }
}
