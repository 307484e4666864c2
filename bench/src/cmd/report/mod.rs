//! `cutlab report DIR`: a study's `report.md` written again from its data alone, so that a
//! published number is what the data says. Five kinds of study: an `ablate` or a `reproduce`
//! run (from its `manifest.toml` and the files beside it, plain or gzipped), a set of matches
//! (`kind = "matches"`: sections of text, each with a table of matches read from their games
//! CSVs), ProbCut's regression under several searches
//! (`kind = "fits"`, [`fits`]) and two ablations contrasted (`kind = "ablations"`,
//! [`ablations`]). `--check` writes nothing and fails when the committed report differs from
//! the one the data gives.

mod ablations;
mod cited;
mod fits;
mod information;
mod numbers;
#[cfg(test)]
mod readme_table;

use std::path::{Path, PathBuf};

use clap::Args;
use cutlab_analysis::{
    elo::MatchStats,
    plot,
    rows::{GameRow, read_games},
    stats::{Estimate, z_apart},
    tables::{MatchSummary, verdict},
};
use serde::Deserialize;

use crate::common::{
    adjudication::{self, Adjudication},
    pipeline::{
        Layout, finished_or_listed,
        study::{Header, StudyKind},
    },
};

/// Options of `cutlab report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The study's directory (with its `manifest.toml`).
    dir: PathBuf,
    /// Write nothing; fail when `report.md` differs from the one the data gives.
    #[arg(long)]
    check: bool,
}

/// A study made of matches: its text and its tables.
#[derive(Debug, Deserialize)]
struct MatchStudy {
    /// The report's title.
    title: String,
    /// The text under the title.
    text: String,
    /// The sections, in order.
    sections: Vec<Section>,
}

/// A section: text, a table of matches (when it has any), text after it.
#[derive(Debug, Deserialize)]
struct Section {
    title: String,
    #[serde(default)]
    text: String,
    /// Header of the `detail` column (none without it).
    #[serde(default)]
    detail: Option<String>,
    #[serde(default)]
    matches: Vec<MatchEntry>,
    /// Adjudication rules replayed on games played to their end (their scores beside them).
    #[serde(default)]
    adjudication: Vec<Replay>,
    /// Sets of matches compared by information per CPU second ([`information`]).
    #[serde(default)]
    information: Vec<information::Information>,
    #[serde(default)]
    after: String,
}

/// Adjudication replayed on a section's games: the rules, in `cutlab match`'s words, and the
/// games CSVs (beside the manifest), each with its `STEM.scores.csv` (or `.gz`, `.xz`).
#[derive(Debug, Deserialize)]
struct Replay {
    /// What the rules are (a heading for the replay's lines).
    label: String,
    #[serde(default)]
    draw: Option<String>,
    #[serde(default)]
    resign: Option<String>,
    games: Vec<String>,
}

/// One match of a table: its label, a detail, and its games CSV (beside the manifest).
#[derive(Debug, Deserialize)]
struct MatchEntry {
    label: String,
    #[serde(default)]
    detail: String,
    games: String,
    /// The games CSV of the match this one plays again (relative to the study's folder): its
    /// Elo and games, and how far apart the two are, stand beside this one's.
    #[serde(default)]
    against: Option<String>,
}

/// A match's summary, from its games CSV.
fn summary(path: &Path) -> Result<MatchSummary, String> {
    let games: Vec<GameRow> = read_games(path)?;
    MatchSummary::of(&games).ok_or_else(|| format!("{}: no games", path.display()))
}

/// The columns of a match played again: the first match's Elo [95%] and games, and the two
/// Elo's distance in standard errors of their difference.
fn against_cells(dir: &Path, first: &str, again: &MatchStats) -> Result<String, String> {
    let first = summary(&dir.join(first))?;
    let elo = first.stats.elo_estimate().map_or_else(
        || "-".to_string(),
        |e| format!("{:+.1} ± {:.1}", e.value + 0.0, e.high - e.value),
    );
    let apart = z_apart(again.elo_with_se(), first.stats.elo_with_se())
        .map_or_else(|| "-".to_string(), |z| format!("{z:+.1}"));
    Ok(format!(" {elo}, {} games | {apart} |", first.games))
}

/// The kind of a study, from its manifest's `kind` (runs of `ablate` from before kinds were
/// written have none).
#[derive(Debug, Deserialize)]
struct Kind {
    kind: Option<StudyKind>,
}

/// A study's manifest: its kind, and a reader of the whole as any manifest type (errors name
/// the file).
struct ManifestText {
    path: std::path::PathBuf,
    text: String,
    kind: StudyKind,
}

impl ManifestText {
    /// The manifest of the study in `dir`.
    fn read(dir: &Path) -> Result<ManifestText, String> {
        let path = dir.join("manifest.toml");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let kind: Kind = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(ManifestText {
            kind: kind.kind.unwrap_or(StudyKind::Ablate),
            path,
            text,
        })
    }

    /// The manifest as `M`.
    fn parse<M: serde::de::DeserializeOwned>(&self) -> Result<M, String> {
        toml::from_str(&self.text).map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// One row of a matches table, and the match's Elo with its 95% interval where it has one
/// (not a rout), for the section's figure.
fn match_row(
    dir: &Path,
    entry: &MatchEntry,
    with_detail: bool,
) -> Result<(String, Option<Estimate>), String> {
    let m = summary(&dir.join(&entry.games))?;
    let s = &m.stats;
    let elo = if s.elo_error.is_finite() {
        format!(
            "{:+.1} ± {:.1} [{:+.1}, {:+.1}]",
            s.elo + 0.0,
            s.elo_error,
            s.elo - s.elo_error + 0.0,
            s.elo + s.elo_error + 0.0
        )
    } else if let Some(bound) = s.rout_bound() {
        format!("{bound} (a rout)")
    } else {
        format!("{:+.1} (too few games)", s.elo + 0.0)
    };
    // Normalized Elo (fishtest's): the score's distance from 50% in game-pair deviations.
    let nelo = if s.nelo.is_finite() && s.nelo_error.is_finite() {
        format!("{:+.1} ± {:.1}", s.nelo + 0.0, s.nelo_error)
    } else {
        "-".to_string()
    };
    let p = &m.pentanomial;
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let score = (m.wins as f64 + 0.5 * m.draws as f64) / m.games.max(1) as f64;
    let detail = if with_detail {
        format!(" {} |", entry.detail)
    } else {
        String::new()
    };
    let against = match &entry.against {
        Some(first) => against_cells(dir, first, s)?,
        None => String::new(),
    };
    let row = format!(
        "| {} |{detail}{against} {} | {}-{}-{} | {:.1}% | {elo} | {nelo} | [{}, {}, {}, {}, {}] | {:.1}% | {} |\n",
        entry.label,
        m.games,
        m.wins,
        m.draws,
        m.losses,
        100.0 * score,
        p.ll,
        p.ld,
        p.wl_dd,
        p.wd,
        p.ww,
        100.0 * s.los,
        verdict(&m)
    );
    Ok((row, s.elo_estimate()))
}

/// The report of a matches study; with `draw`, a forest plot of each section of two matches
/// or more (`matches-K.svg`, K the section's number).
fn matches_report(dir: &Path, study: &MatchStudy, draw: bool) -> Result<String, String> {
    let mut md = format!("# {}\n\n{}\n", study.title, study.text.trim_end());
    for (k, section) in study.sections.iter().enumerate() {
        md.push_str(&format!("\n## {}\n", section.title));
        if !section.text.is_empty() {
            md.push_str(&format!("\n{}\n", section.text.trim_end()));
        }
        if !section.matches.is_empty() {
            md.push_str(&matches_table(dir, section, k + 1, draw)?);
        }
        for replay in &section.adjudication {
            md.push_str(&adjudication_replay(dir, replay)?);
        }
        for info in &section.information {
            md.push_str(&information::table(dir, info)?);
        }
        if !section.after.is_empty() {
            md.push_str(&format!("\n{}\n", section.after.trim_end()));
        }
    }
    Ok(md)
}

/// A section's table of matches (number `number` of the study's sections), and its figure
/// when it has more than one match (drawn when `draw`).
fn matches_table(
    dir: &Path,
    section: &Section,
    number: usize,
    draw: bool,
) -> Result<String, String> {
    let detail = section.detail.as_deref();
    let (mut head, mut rule) = detail.map_or((String::new(), String::new()), |d| {
        (format!(" {d} |"), " ---: |".to_string())
    });
    let again = section
        .matches
        .iter()
        .filter(|e| e.against.is_some())
        .count();
    if again == section.matches.len() {
        head.push_str(" played first: Elo [95%], games | apart (standard errors) |");
        rule.push_str(" ---: | ---: |");
    } else if again > 0 {
        return Err(format!(
            "section {:?}: give every match of the table `against`, or none",
            section.title
        ));
    }
    let mut md = format!(
        "\n| match |{head} games | W-D-L | score | Elo [95%] | nElo [95%] | pentanomial | LOS | verdict (95%) |\n| --- |{rule} ---: | --- | ---: | --- | --- | --- | ---: | --- |\n"
    );
    let mut elo = Vec::new();
    for entry in &section.matches {
        let (row, estimate) = match_row(dir, entry, detail.is_some())?;
        md.push_str(&row);
        elo.push(estimate);
    }
    if section.matches.len() > 1 {
        let figure = format!("matches-{number}.svg");
        md.push_str(&format!(
            "\n![Elo of each match, 95% intervals]({figure})\n"
        ));
        if draw {
            let labels: Vec<String> = section
                .matches
                .iter()
                .map(|e| e.label.replace('`', ""))
                .collect();
            plot::forest_series(
                &dir.join(&figure),
                (&section.title, "Elo of the first engine (95% intervals)"),
                plot::Axis::ELO,
                &labels,
                &[("", &elo)],
            )?;
        }
    }
    Ok(md)
}

/// An adjudication replayed on a section's games: what it would have changed.
fn adjudication_replay(dir: &Path, replay: &Replay) -> Result<String, String> {
    let rules = Adjudication::parse(replay.draw.as_deref(), replay.resign.as_deref(), None)?;
    let files: Vec<PathBuf> = replay.games.iter().map(|g| dir.join(g)).collect();
    let mut replayed = adjudication::replay::replay(&files, rules)?;
    // Each games file named as the manifest names it, below the study.
    for (played, name) in replayed.matches.iter_mut().zip(&replay.games) {
        played.0.clone_from(name);
    }
    let lines = adjudication::replay::summary(&replayed);
    Ok(format!("\n**{}**\n\n```text\n{lines}```\n", replay.label))
}

/// The report of a study that `cutlab report` writes in one piece (every kind but `ablate`
/// and `reproduce`, which write their CSVs and figures beside it): `None` for those; with
/// `draw`, its figures too.
fn text_report(dir: &Path, draw: bool) -> Result<Option<String>, String> {
    report_of(dir, &ManifestText::read(dir)?, draw)
}

/// [`text_report`] from `manifest`, the manifest of the study in `dir` or a copy of it.
fn report_of(dir: &Path, manifest: &ManifestText, draw: bool) -> Result<Option<String>, String> {
    let md = match manifest.kind {
        StudyKind::Ablate | StudyKind::Reproduce | StudyKind::Replay => return Ok(None),
        StudyKind::Matches => matches_report(dir, &manifest.parse()?, draw)?,
        StudyKind::Fits => fits::report(dir, &manifest.parse()?, draw)?,
        StudyKind::Ablations => ablations::report(dir, &manifest.parse()?, draw)?,
    };
    let cited: cited::CitedFigures = manifest.parse()?;
    Ok(Some(md + &cited.table(dir)?))
}

/// Writes the study's report into `dir` (every file the report is made of).
fn write(dir: &Path) -> Result<(), String> {
    if let Some(md) = text_report(dir, true)? {
        let out = dir.join("report.md");
        return std::fs::write(&out, md).map_err(|e| format!("{}: {e}", out.display()));
    }
    let manifest = ManifestText::read(dir)?;
    let layout = Layout {
        dir: dir.to_path_buf(),
    };
    match manifest.kind {
        StudyKind::Reproduce => {
            super::reproduce::write_report(&layout, &recorded(&layout, &manifest)?)
        }
        StudyKind::Replay => super::replay::write_report(&layout, &recorded(&layout, &manifest)?),
        _ => super::ablate::write_report(&layout, &recorded(&layout, &manifest)?),
    }
    .map(|_summary| ())
}

/// A run's manifest with its finished steps ([`finished_or_listed`]): a step finished by
/// `cutlab step` joins the manifest's list only when the runner's next step ends, and the
/// report counts it now.
fn recorded<M>(layout: &Layout, manifest: &ManifestText) -> Result<M, String>
where
    M: serde::de::DeserializeOwned + AsMut<Header>,
{
    let mut parsed: M = manifest.parse()?;
    parsed.as_mut().steps = finished_or_listed(layout)?;
    Ok(parsed)
}

/// Copies directory `from` into `to`, folders too.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| format!("{}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Runs `cutlab report`.
///
/// # Errors
/// A missing or malformed manifest, unreadable data, or (`--check`) a report that differs.
pub fn run(args: &ReportArgs) -> Result<(), String> {
    if !args.dir.is_dir() {
        return Err(format!("{}: no such study folder", args.dir.display()));
    }
    if !args.dir.join("manifest.toml").is_file() {
        return Err(format!(
            "{}: no manifest.toml (a study in results/, or an ablate or reproduce run)",
            args.dir.display()
        ));
    }
    if !args.check {
        write(&args.dir)?;
        println!("wrote {}", args.dir.join("report.md").display());
        return Ok(());
    }
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let committed = read(&args.dir.join("report.md"))?;
    let fresh = if let Some(md) = text_report(&args.dir, false)? {
        md
    } else {
        // An ablate run writes files beside its report: into a copy, never the study.
        let copy = std::env::temp_dir().join(format!("cutlab-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&copy);
        let written = copy_dir(&args.dir, &copy)
            .and_then(|()| write(&copy))
            .and_then(|()| read(&copy.join("report.md")));
        let _ = std::fs::remove_dir_all(&copy);
        written?
    };
    match committed
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
    {
        None if committed.lines().count() == fresh.lines().count() => {}
        line => {
            return Err(format!(
                "{}: differs from the report its data gives (first at line {}); run `cutlab \
             report {}` and commit the result",
                args.dir.join("report.md").display(),
                line.unwrap_or_else(|| committed.lines().count().min(fresh.lines().count())) + 1,
                args.dir.display()
            ));
        }
    }
    check_numbers(&args.dir)?;
    println!("{}: the report is what its data says", args.dir.display());
    Ok(())
}

/// For a study whose manifest says `numbers = "checked"`: every number its passages quote is
/// one that its report written without them states ([`numbers`]).
fn check_numbers(dir: &Path) -> Result<(), String> {
    let manifest = ManifestText::read(dir)?;
    let mut value: toml::Value = manifest.parse()?;
    if value.get("numbers").and_then(toml::Value::as_str) != Some("checked") {
        return Ok(());
    }
    let passages = numbers::take_passages(&mut value);
    let blank = ManifestText {
        text: toml::to_string(&value).map_err(|e| format!("{}: {e}", manifest.path.display()))?,
        path: manifest.path.clone(),
        kind: manifest.kind,
    };
    let stated = report_of(dir, &blank, false)?.unwrap_or_default();
    let unstated = numbers::unstated(&passages, &stated);
    if unstated.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{}: its passages quote numbers that its data does not state: {}; write them from \
         the data (a table of the report) or leave them out",
        manifest.path.display(),
        unstated.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of `pairs` game pairs between `x` and `y` at `path`: `x` wins with white, and
    /// of its games with black loses every third and draws the others.
    fn write_games(path: &Path, pairs: u32) {
        let mut games =
            "game,pair,opening,white,black,result,termination,plies,first_engine_score,restarts\n"
                .to_string();
        for pair in 1..=pairs {
            let (a, b) = (2 * pair - 1, 2 * pair);
            let (second, score) = if pair % 3 == 0 {
                ("1-0", "0.0")
            } else {
                ("1/2-1/2", "0.5")
            };
            games.push_str(&format!(
                "{a},{pair},o{pair},x,y,1-0,checkmate,40,1.0,0\n{b},{pair},o{pair},y,x,{second},stalemate,40,{score},0\n"
            ));
        }
        std::fs::write(path, games).unwrap();
    }

    /// A study that checks its numbers fails on a passage quoting one its report does not
    /// state, naming it, and passes once the passage quotes the report's (a detail cell that
    /// repeats a stated number hides nothing); a study that does not check them is not read.
    #[test]
    fn a_checked_study_quotes_only_the_numbers_its_report_states() {
        let dir = crate::common::scratch_dir("numbers");
        write_games(&dir.join("g.csv"), 12);
        let elo = summary(&dir.join("g.csv")).unwrap().stats.elo;
        let manifest = |checked: &str, after: &str| {
            let text = format!(
                "{checked}kind = \"matches\"\ntitle = \"t\"\ntext = \"\"\n[[sections]]\n\
                 title = \"s\"\ndetail = \"d\"\nafter = \"{after}\"\n[[sections.matches]]\n\
                 label = \"x vs y\"\ndetail = \"24\"\ngames = \"g.csv\"\n"
            );
            std::fs::write(dir.join("manifest.toml"), text).unwrap();
        };
        manifest(
            "numbers = \"checked\"\n",
            &format!("Won by {elo:.1} Elo in 24 games."),
        );
        assert_eq!(check_numbers(&dir), Ok(()));
        let wrong = format!("{:.1}", elo + 0.2);
        manifest("numbers = \"checked\"\n", &format!("Won by {wrong} Elo."));
        let err = check_numbers(&dir).unwrap_err();
        assert!(err.contains(&format!("does not state: {wrong};")), "{err}");
        manifest("", &format!("Won by {wrong} Elo."));
        assert_eq!(check_numbers(&dir), Ok(()));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A section of two matches gets a figure, written only when drawing; one of a single
    /// match gets none.
    #[test]
    fn a_section_of_matches_is_drawn() {
        let dir = crate::common::scratch_dir("matches");
        write_games(&dir.join("g.csv"), 4);
        let study: MatchStudy = toml::from_str(
            "title = \"t\"\ntext = \"x\"\n[[sections]]\ntitle = \"two\"\n\
             [[sections.matches]]\nlabel = \"`a` vs `b`\"\ngames = \"g.csv\"\n\
             [[sections.matches]]\nlabel = \"again\"\ngames = \"g.csv\"\n\
             [[sections]]\ntitle = \"one\"\n\
             [[sections.matches]]\nlabel = \"alone\"\ngames = \"g.csv\"\n",
        )
        .unwrap();
        let md = matches_report(&dir, &study, false).unwrap();
        assert!(
            md.contains("](matches-1.svg)") && !md.contains("matches-2.svg"),
            "{md}"
        );
        assert!(!dir.join("matches-1.svg").exists());
        assert_eq!(matches_report(&dir, &study, true).unwrap(), md);
        assert!(dir.join("matches-1.svg").is_file());
        assert!(!dir.join("matches-2.svg").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A match played again stands beside the first: the first's Elo and games, and the two
    /// 0 standard errors apart when they are the same games; a table where only some matches
    /// name a first one is refused.
    #[test]
    fn a_match_played_again_stands_beside_the_first() {
        let dir = crate::common::scratch_dir("against");
        write_games(&dir.join("g.csv"), 12);
        let entry = "[[sections.matches]]\nlabel = \"again\"\ngames = \"g.csv\"\n";
        let study = |second: &str| -> MatchStudy {
            toml::from_str(&format!(
                "title = \"t\"\ntext = \"x\"\n[[sections]]\ntitle = \"s\"\n\
                 {entry}against = \"g.csv\"\n{second}"
            ))
            .unwrap()
        };
        let md = matches_report(&dir, &study(""), false).unwrap();
        let first = summary(&dir.join("g.csv")).unwrap();
        let elo = first.stats.elo_estimate().unwrap();
        assert!(md.contains("| played first: Elo [95%], games | apart (standard errors) |"));
        let cells = format!(
            "| again | {:+.1} ± {:.1}, 24 games | +0.0 | 24 |",
            elo.value,
            elo.high - elo.value
        );
        assert!(md.contains(&cells), "{md}\n{cells}");
        let err = matches_report(&dir, &study(entry), false).unwrap_err();
        assert!(
            err.contains("every match of the table `against`, or none"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
