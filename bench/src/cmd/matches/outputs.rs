//! A match's files as its games come: the games CSV, the PGN and the scores, each started
//! afresh or, on a resume, cut back to the CSV's games and appended to, with the settings
//! recorded beside the games (a resume under other settings is refused).

use std::{
    fs::{File, OpenOptions},
    io::Write as _,
    path::{Path, PathBuf},
};

use cutlab_analysis::rows::{GameRow, ScoreRow};

use super::{MatchArgs, players::EngineSpec};

/// Where a match's games go as they come: the CSV, the PGN and the scores, each with its path.
pub(super) struct Outputs<'a> {
    games: Option<(csv::Writer<File>, &'a PathBuf)>,
    pgn: Option<(File, &'a PathBuf)>,
    scores: Option<(csv::Writer<File>, &'a PathBuf)>,
}

impl<'a> Outputs<'a> {
    /// Opens the outputs of `args`, a resume's holding `rows` already. A new match's PGN or
    /// scores replace existing ones only with `--force`; the settings beside the games refuse
    /// a resume with others (another opponent, time control, node count, seed or order)
    /// before anything is written; the PGN and scores are cut back to the CSV's games.
    pub(super) fn open(
        args: &'a MatchArgs,
        (specs, openings_content): (&[EngineSpec; 2], &str),
        rows: &[GameRow],
    ) -> Result<Self, String> {
        let inputs: Vec<&Path> = args.openings.iter().map(PathBuf::as_path).collect();
        for (path, option) in [(&args.pgn, "--pgn"), (&args.scores, "--scores")] {
            if let Some(path) = path.as_deref().filter(|_| !args.resume) {
                crate::common::results::new_output(path, option, args.force, &inputs)?;
            }
        }
        if let Some(path) = &args.out {
            let searches: Vec<(&str, &cutlab_search::SearchConfig)> = specs
                .iter()
                .filter_map(|s| s.variant.as_ref().map(|v| (s.name.as_str(), v)))
                .collect();
            /// The options, and the openings by content.
            #[derive(serde::Serialize)]
            struct Recorded<'a> {
                #[serde(flatten)]
                args: &'a MatchArgs,
                openings_content: &'a str,
            }
            crate::common::configs::write_args_config(
                path,
                "match",
                &Recorded {
                    args,
                    openings_content,
                },
                &searches,
                !rows.is_empty(),
            )?;
        }
        Ok(Outputs {
            games: match &args.out {
                Some(path) => Some((crate::common::results::appender::<GameRow>(path)?, path)),
                None => None,
            },
            pgn: match &args.pgn {
                Some(path) => Some((
                    open_pgn(path, (!rows.is_empty()).then_some(rows.len()))?,
                    path,
                )),
                None => None,
            },
            scores: match &args.scores {
                Some(path) => Some((open_scores(path, rows)?, path)),
                None => None,
            },
        })
    }

    /// Writes a pair's games: the PGN first, so that an interruption leaves it ahead of the
    /// CSV, never behind (a resume cuts it back to the CSV's games).
    pub(super) fn write(&mut self, games: &[GameRow]) -> Result<(), String> {
        if let Some((file, path)) = self.pgn.as_mut() {
            for g in games {
                file.write_all(g.pgn.as_bytes())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        if let Some((w, path)) = self.scores.as_mut() {
            crate::common::results::write_rows(w, path, games.iter().flat_map(|g| &g.scores))?;
        }
        if let Some((w, path)) = self.games.as_mut() {
            crate::common::results::write_rows(w, path, games)?;
        }
        Ok(())
    }
}

/// The PGN file of a match: started afresh, or, when the match resumes `kept` games of its
/// CSV, cut back to its first `kept` games (an interruption may have left the games of a pair
/// the CSV does not have, or half a game) and appended to.
///
/// # Errors
/// The file cannot be read or written, or it lacks whole games of the CSV (fewer games, or
/// its last one torn): appending would write games onto a broken file.
fn open_pgn(path: &Path, kept: Option<usize>) -> Result<File, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    // Locked before anything is cut or read, as the CSV is: a second match writing the same
    // PGN (`--force` included) is refused, never left to replace the first one's games.
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)?;
    crate::common::process::lock(&file, path)?;
    let Some(kept) = kept else {
        file.set_len(0).map_err(err)?;
        return Ok(file);
    };
    let text = std::fs::read(path).map_err(err)?;
    let starts = game_starts(&text);
    let end = starts.get(kept).copied().unwrap_or(text.len());
    let whole = if end == text.len() && !text.is_empty() && !text.ends_with(b"\n\n") {
        starts.len().min(kept).saturating_sub(1)
    } else {
        starts.len().min(kept)
    };
    if whole < kept {
        return Err(format!(
            "{}: {whole} whole games where the CSV holds {kept} (the file is short or its last \
             game torn); appending would break it: restore the PGN from a copy, or resume \
             without --pgn (the CSV keeps every game's result)",
            path.display()
        ));
    }
    if end < text.len() {
        eprintln!(
            "match: {}: {} games past the CSV's {kept} cut off (an interrupted pair)",
            path.display(),
            starts.len() - kept
        );
        file.set_len(end as u64).map_err(err)?;
    }
    Ok(file)
}

/// The scores of a match (`--scores`): started afresh, or cut back to the games of the CSV's
/// `rows` when the match resumes them, then appended to.
///
/// # Errors
/// The file cannot be read or written.
fn open_scores(path: &Path, rows: &[GameRow]) -> Result<csv::Writer<File>, String> {
    if rows.is_empty() {
        crate::common::results::write_csv::<ScoreRow>(path, &[])?;
    } else {
        let games: std::collections::BTreeSet<usize> = rows.iter().map(|r| r.game).collect();
        let kept: Vec<ScoreRow> = crate::common::results::resume_rows::<ScoreRow>(path, true)?
            .into_iter()
            .filter(|r| games.contains(&r.game))
            .collect();
        crate::common::results::write_csv(path, &kept)?;
    }
    crate::common::results::appender::<ScoreRow>(path)
}

/// The byte offsets at which the games of a PGN text start: its first tag, and every tag
/// that follows a blank line.
fn game_starts(text: &[u8]) -> Vec<usize> {
    let mut starts: Vec<usize> = text
        .windows(3)
        .enumerate()
        .filter(|(_, w)| *w == b"\n\n[")
        .map(|(i, _)| i + 2)
        .collect();
    if text.first() == Some(&b'[') {
        starts.insert(0, 0);
    }
    starts
}
