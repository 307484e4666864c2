//! The report's matches: Tables 2 and 3 (MPC's thresholds), the headline match and Table 4,
//! each beside the paper's figures.

use std::fmt::Write as _;

use cutlab_analysis::{
    elo::Sprt,
    rows::{self, GameRow},
    stats::{Estimate, independent_difference},
    tables::{self, MatchSummary},
};

use super::{Layout, Report, names_in, scale, stored};
use crate::common::pipeline::{StepRecord, is_finished};

/// Jiang and Buro's Table 2: MPC's score against Crafty by endgame threshold.
const PAPER_TABLE2: [(f64, f64); 10] = [
    (0.5, 53.9),
    (0.6, 59.3),
    (0.7, 53.1),
    (0.8, 48.5),
    (0.9, 51.6),
    (1.0, 57.8),
    (1.05, 52.3),
    (1.1, 54.7),
    (1.2, 51.6),
    (1.3, 51.6),
];

/// Jiang and Buro's Table 3: MPC's score against Crafty by middlegame threshold.
const PAPER_TABLE3: [(f64, f64); 6] = [
    (0.8, 54.7),
    (0.9, 59.4),
    (1.0, 57.8),
    (1.1, 58.6),
    (1.2, 59.4),
    (1.3, 53.1),
];

/// Jiang and Buro's Table 4: Crafty versions against Yace at two time controls.
pub(in crate::cmd::reproduce) const PAPER_TABLE4: [(&str, f64, f64); 3] = [
    ("null-move", 42.0, 50.8),
    ("null-move+mpc@1.2:1", 53.1, 56.3),
    ("null-move+mpc@1:1", 57.0, 55.5),
];

/// The Elo of a score in percent.
fn elo_of_percent(score: f64) -> f64 {
    -400.0 * (100.0 / score - 1.0).log10()
}

impl Report<'_> {
    /// The verdicts of a threshold sweep's `entries` (threshold, match, the paper's score),
    /// each claim `{what} = t against null move`.
    fn threshold_verdicts(
        &mut self,
        what: &str,
        entries: &[(String, String, Option<f64>)],
    ) -> Result<(), String> {
        for (t, file, paper) in entries {
            if let Some(p) = paper {
                let claim = format!("{what} = {t} against null move");
                let row =
                    match_verdict(self.layout, &self.manifest.header.steps, (claim, file, *p))?;
                self.verdicts.extend(row);
            }
        }
        Ok(())
    }

    /// Table 4's verdicts at time control `k`: each MPC variant's Elo against the opponent
    /// less null move's, against the paper's difference of their scores against Yace.
    fn table4_verdicts(
        &mut self,
        k: usize,
        entries: &[(String, String, Option<f64>)],
    ) -> Result<(), String> {
        let steps = &self.manifest.header.steps;
        let elo = |file: &str| finished_elo(self.layout, steps, file);
        let Some((_, first_file, Some(first_paper))) = entries.first() else {
            return Ok(());
        };
        let Some(reference) = elo(first_file)? else {
            return Ok(());
        };
        for (variant, file, paper) in &entries[1..] {
            if let (Some(e), Some(p)) = (elo(file)?, paper) {
                let d = independent_difference(&reference, &e);
                let paper_d = elo_of_percent(*p) - elo_of_percent(*first_paper);
                self.verdicts.push([
                    format!("Table 4 ({k}): {variant} against null move, through the opponent"),
                    format!("{paper_d:+.0} Elo ({p:.1}% against {first_paper:.1}%)"),
                    format!("{:+.0} [{:+.0}, {:+.0}] Elo", d.value, d.low, d.high),
                    verdict(&d, paper_d).to_string(),
                ]);
            }
        }
        Ok(())
    }
}

/// The verdict on one of the paper's results from our interval `ours` (95%) and the paper's
/// value `paper` (same unit): *reproduced* where the interval lies on the paper's side of no
/// effect and holds its value; *reproduced in direction* where it lies on that side and not
/// around the value; *not reproduced* where it holds no effect and not the paper's value;
/// *reversed* where it lies on the other side; *undecided* where it holds both.
pub(super) fn verdict(ours: &Estimate, paper: f64) -> &'static str {
    let holds = |x: f64| (ours.low..=ours.high).contains(&x);
    match (ours.sign(), paper > 0.0, holds(paper)) {
        (Some(up), side, true) if up == side => "reproduced",
        (Some(up), side, false) if up == side => "reproduced in direction, size differs",
        (Some(_), _, _) => "reversed",
        (None, _, false) => "not reproduced",
        (None, _, true) => "undecided",
    }
}

/// The Elo of a finished match (95%); `None` while it plays or without an interval.
fn finished_elo(
    layout: &Layout,
    steps: &[StepRecord],
    file: &str,
) -> Result<Option<Estimate>, String> {
    Ok(games_of(layout, file)?
        .filter(|_| is_finished(steps, file))
        .and_then(|m| m.stats.elo_estimate()))
}

/// A verdict row for a match of ours against the paper's score there: its claim, the paper's
/// score (and Elo), ours and the verdict; `None` where the match has no finished interval.
fn match_verdict(
    layout: &Layout,
    steps: &[StepRecord],
    (claim, file, paper): (String, &str, f64),
) -> Result<Option<[String; 4]>, String> {
    let Some(ours) = finished_elo(layout, steps, file)? else {
        return Ok(None);
    };
    let paper_elo = elo_of_percent(paper);
    Ok(Some([
        claim,
        format!("{paper:.1}% ({paper_elo:+.0} Elo)"),
        format!(
            "{:+.0} [{:+.0}, {:+.0}] Elo",
            ours.value, ours.low, ours.high
        ),
        verdict(&ours, paper_elo).to_string(),
    ]))
}

fn games_of(layout: &Layout, name: &str) -> Result<Option<MatchSummary>, String> {
    let games: Vec<GameRow> =
        rows::read_games_if_stored(&layout.file(&format!("matches/{name}.csv")))?;
    Ok(MatchSummary::of(&games))
}

/// A match table with the paper's score beside ours; a match whose step has not finished is
/// marked as playing (its interval and verdict are the games' so far).
fn sweep(
    layout: &Layout,
    steps: &[StepRecord],
    label: &str,
    entries: &[(String, String, Option<f64>)],
) -> Result<Option<String>, String> {
    let mut played = Vec::new();
    let mut paper = Vec::new();
    for (row, file, reference) in entries {
        if let Some(m) = games_of(layout, file)? {
            let row = if is_finished(steps, file) {
                row.clone()
            } else {
                format!("{row} (playing)")
            };
            played.push((row, m));
            paper.push(reference.map_or("-".to_string(), |p| format!("{p:.1}%")));
        }
    }
    if played.is_empty() {
        return Ok(None);
    }
    let ours = tables::matches(label, &played).render();
    // Append the paper's column to the rendered rows.
    let mut lines: Vec<String> = ours.lines().map(str::to_string).collect();
    lines[0].push_str(" paper |");
    lines[1].push_str(" ----: |");
    for (line, p) in lines[2..].iter_mut().zip(&paper) {
        let _ = write!(line, " {p:>5} |");
    }
    Ok(Some(lines.join("\n") + "\n"))
}

/// The paper's comparison through a common opponent: each later entry's Elo against it less
/// the first entry's, from two independent finished matches (95% intervals, their half-widths
/// combined in quadrature), each said decided or not.
fn contrasts(
    layout: &Layout,
    steps: &[StepRecord],
    entries: &[(String, String, Option<f64>)],
) -> Result<Option<String>, String> {
    let elo = |file: &str| finished_elo(layout, steps, file);
    let Some((first, first_file, _)) = entries.first() else {
        return Ok(None);
    };
    let Some(reference) = elo(first_file)? else {
        return Ok(None);
    };
    let mut parts = Vec::new();
    for (row, file, _) in &entries[1..] {
        if let Some(e) = elo(file)? {
            let d = independent_difference(&reference, &e);
            let verdict = match d.sign() {
                Some(true) => "better",
                Some(false) => "worse",
                None => "undecided",
            };
            parts.push(format!(
                "{row} {:+.0} [{:+.0}, {:+.0}], {verdict}",
                d.value, d.low, d.high
            ));
        }
    }
    Ok((!parts.is_empty()).then(|| {
        format!(
            "Each variant's Elo against the same opponent less {first}'s (two independent \
             matches, 95%, the half-widths combined in quadrature): {}.\n",
            parts.join("; ")
        )
    }))
}

/// Thresholds of the matches named `<prefix><t>.csv`, in increasing order.
fn thresholds(layout: &Layout, prefix: &str) -> Vec<f64> {
    let mut found: Vec<f64> = names_in(&layout.file("matches"))
        .iter()
        .filter_map(|name| {
            name.strip_prefix(prefix)?
                .strip_suffix(".csv")?
                .parse()
                .ok()
        })
        .collect();
    found.sort_by(f64::total_cmp);
    found
}

/// The paper's score at threshold `t`, where it played one.
fn paper_score(table: &[(f64, f64)], t: f64) -> Option<f64> {
    table
        .iter()
        .find(|(x, _)| (x - t).abs() < 1e-9)
        .map(|&(_, p)| p)
}

impl Report<'_> {
    /// Tables 2 and 3: the thresholds of MPC.
    pub(super) fn tables_2_3(&mut self) -> Result<(), String> {
        let t2: Vec<(String, String, Option<f64>)> = thresholds(self.layout, "table2-tend-")
            .into_iter()
            .map(|t| {
                (
                    format!("{t}"),
                    format!("table2-tend-{t}"),
                    paper_score(&PAPER_TABLE2, t),
                )
            })
            .collect();
        self.threshold_verdicts("Table 2: MPC at t_end", &t2)?;
        if let Some(table) = sweep(self.layout, &self.manifest.header.steps, "t_end", &t2)? {
            let _ = writeln!(
                self.out,
                "## Table 2: endgame threshold\n\nMPC (middlegame t = 1.0, endgame t = t_end) against \
             null move alone, score of MPC (`matches/table2-*.csv`, its PGN beside; in \
             a study, in `games.moves.csv.xz`).\n\n{table}"
            );
            let _ = writeln!(self.summary, "Table 2, MPC vs null-move by t_end:\n{table}");
        }
        let mut t_mid = thresholds(self.layout, "table3-tmid-");
        let shared =
            !t_mid.contains(&1.0) && stored(&self.layout.file("matches/table2-tend-1.csv"));
        if shared {
            t_mid.push(1.0);
            t_mid.sort_by(f64::total_cmp);
        }
        let t3: Vec<(String, String, Option<f64>)> = t_mid
            .into_iter()
            .map(|t| {
                let file = if shared && t == 1.0 {
                    "table2-tend-1".to_string()
                } else {
                    format!("table3-tmid-{t}")
                };
                (format!("{t}"), file, paper_score(&PAPER_TABLE3, t))
            })
            .collect();
        self.threshold_verdicts("Table 3: MPC at t_mid", &t3)?;
        if let Some(table) = sweep(self.layout, &self.manifest.header.steps, "t_mid", &t3)? {
            let _ = writeln!(
                self.out,
                "## Table 3: middlegame threshold\n\nMPC (middlegame t = t_mid, endgame t = 1.0) \
             against null move alone (`matches/table3-*.csv`{}).\n\n{table}",
                if shared {
                    "; t_mid = 1.0 is Table 2's t_end = 1.0 match"
                } else {
                    ""
                }
            );
            let _ = writeln!(self.summary, "Table 3, MPC vs null-move by t_mid:\n{table}");
        }
        Ok(())
    }

    /// The headline match and its sequential test.
    pub(super) fn headline(&mut self) -> Result<(), String> {
        if let Some(h) = scale::Scale::named(&self.manifest.header.scale).and_then(|s| s.headline)
            && let Some(m) = games_of(self.layout, super::super::HEADLINE)?
        {
            let sprt = Sprt::new(h.elo.0, h.elo.1, 0.05, 0.05)?;
            let llr = sprt.llr(&m.pentanomial);
            let state = match sprt.decision(llr) {
                Some(true) => format!(
                    "H1 accepted: {} is stronger than null move (+{} Elo favoured over {})",
                    h.variant, h.elo.1, h.elo.0
                ),
                Some(false) => format!(
                    "H0 accepted: no gain of {} Elo ({} favoured over +{})",
                    h.elo.1, h.elo.0, h.elo.1
                ),
                None if m.games >= h.max_games => {
                    format!("undecided at the cap of {} games", h.max_games)
                }
                None => "undecided so far (the match is playing)".to_string(),
            };
            self.verdicts.push([
                format!("Headline: {} stronger than null move", h.variant),
                "59.4% in 64 games".to_string(),
                format!("GSPRT +{} against {} Elo, LLR {llr:.2}", h.elo.1, h.elo.0),
                match sprt.decision(llr) {
                    Some(true) => "reproduced",
                    Some(false) => "not reproduced",
                    None => "undecided",
                }
                .to_string(),
            ]);
            let table =
                tables::matches("match", &[(format!("{} vs null-move", h.variant), m)]).render();
            let text = format!(
                "GSPRT elo0 = {}, elo1 = {} (alpha = beta = 0.05): LLR {llr:.2} in ({:.2}, {:.2}): \
             **{state}**.{}",
                h.elo.0,
                h.elo.1,
                sprt.lower,
                sprt.upper,
                if sprt.decision(llr).is_some() {
                    " The decision is the test's; the table's interval is the fixed-sample one of \
                 the games played, which a sequential stop leaves too narrow and pulled away \
                 from the hypothesis it rejected."
                } else {
                    ""
                }
            );
            let _ = writeln!(
                self.out,
                "## Headline: MPC against null move, to a decision

The paper's claim (MPC-Crafty \
             scored 59.4% against Crafty in 64 games) tested sequentially \
             (`matches/headline.csv`).\n\n{table}\n{text}\n"
            );
            let _ = writeln!(
                self.summary,
                "Headline, {} vs null-move:\n{table}{text}\n",
                h.variant
            );
        }
        Ok(())
    }

    /// Table 4: the variants against the external engine.
    pub(super) fn table4(&mut self) -> Result<(), String> {
        let Some((command, id)) = &self.manifest.engine else {
            let _ = writeln!(
                self.out,
                "## Table 4: skipped\n\nNo external engine: Table 4 plays the variants against \
                 Stockfish (`--engine auto`: Debian's `stockfish` on `PATH` or in `/usr/games`), \
                 which this run did not have (or was told not to use, `--engine none`). Install \
                 it and run again with `--resume` to play it.\n"
            );
            self.verdicts.push([
                "Table 4: MPC against null move through a common opponent".to_string(),
                "+11.1 and +15.0 points against Yace (time control 1)".to_string(),
                "not played".to_string(),
                "skipped: no external engine".to_string(),
            ]);
            return Ok(());
        };
        {
            for k in 1..=2 {
                let entries: Vec<(String, String, Option<f64>)> = PAPER_TABLE4
                    .iter()
                    .map(|&(v, a, b)| {
                        (
                            v.to_string(),
                            super::super::table4_match(k, v),
                            Some(if k == 1 { a } else { b }),
                        )
                    })
                    .collect();
                if let Some(table) = sweep(
                    self.layout,
                    &self.manifest.header.steps,
                    "variant",
                    &entries,
                )? {
                    let contrast = contrasts(self.layout, &self.manifest.header.steps, &entries)?
                        .map(|c| format!("\n{c}"))
                        .unwrap_or_default();
                    self.table4_verdicts(k, &entries)?;
                    let _ = writeln!(
                        self.out,
                        "## Table 4: against an external engine (time control {k})\n\n{id} \
                     (`{command}`) at UCI_Elo {} stands in for Yace; the paper's column is its \
                     score against Yace at 2 min + 10 s (1) or 8 min + 20 s (2). At a limited \
                     strength the engine picks among its best moves at random (Stockfish seeds \
                     its generator from the clock), so these games, unlike the other matches, \
                     do not replay byte for byte: a replay agrees within the interval.\n\n{table}\
                     {contrast}",
                        self.manifest.engine_elo
                    );
                    let _ = writeln!(
                        self.summary,
                        "Table 4, vs {id} @ {}:\n{table}",
                        self.manifest.engine_elo
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two variants' matches against one opponent: the second's Elo less the first's, with
    /// the half-widths of the two 95% intervals combined in quadrature; shown only when both
    /// matches have finished.
    #[test]
    fn table_4_contrasts_each_variant_with_the_first_through_the_opponent() {
        let dir = crate::common::scratch_dir("contrast");
        std::fs::create_dir_all(dir.join("matches")).unwrap();
        let layout = Layout { dir: dir.clone() };
        let write = |name: &str, pairs: &[(f64, f64)]| -> Estimate {
            let mut csv = csv::Writer::from_path(dir.join(format!("matches/{name}.csv"))).unwrap();
            let mut games = Vec::new();
            for (p, &(first, second)) in pairs.iter().enumerate() {
                for (g, score) in [first, second].into_iter().enumerate() {
                    let (white, black) = if g == 0 { (name, "opp") } else { ("opp", name) };
                    // The first engine has White in the pair's first game.
                    let white_score = if g == 0 { score } else { 1.0 - score };
                    let result = match white_score {
                        1.0 => "1-0",
                        0.0 => "0-1",
                        _ => "1/2-1/2",
                    };
                    let row = GameRow {
                        game: 2 * p + g + 1,
                        pair: p + 1,
                        white: white.into(),
                        black: black.into(),
                        result: result.into(),
                        first_engine_score: score,
                        ..GameRow::default()
                    };
                    csv.serialize(&row).unwrap();
                    games.push(row);
                }
            }
            csv.flush().unwrap();
            MatchSummary::of(&games)
                .unwrap()
                .stats
                .elo_estimate()
                .unwrap()
        };
        // Twenty pairs each (at five, the interval is "too few games").
        let a = write(
            "a",
            &[(1.0, 0.5), (0.0, 0.5), (0.5, 0.5), (0.0, 0.0), (1.0, 0.0)].repeat(4),
        );
        let b = write(
            "b",
            &[(1.0, 1.0), (1.0, 0.5), (0.5, 0.5), (0.0, 1.0), (1.0, 0.5)].repeat(4),
        );
        let entries = [
            ("A".to_string(), "a".to_string(), None),
            ("B".to_string(), "b".to_string(), None),
        ];
        let steps = [StepRecord::finished("a")];
        assert_eq!(
            contrasts(&layout, &steps, &entries).unwrap(),
            None,
            "b plays"
        );
        let steps = [StepRecord::finished("a"), StepRecord::finished("b")];
        let text = contrasts(&layout, &steps, &entries).unwrap().unwrap();
        let half = ((a.high - a.low) / 2.0).hypot((b.high - b.low) / 2.0);
        let d = b.value - a.value;
        let expected = format!(
            "B {:+.0} [{:+.0}, {:+.0}], {}",
            d,
            d - half,
            d + half,
            if d - half > 0.0 {
                "better"
            } else {
                "undecided"
            }
        );
        assert!(text.contains("less A's"), "{text}");
        assert!(text.contains(&expected), "{expected} in {text}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A match whose step has not finished is in its table marked as playing; once finished,
    /// as it is.
    #[test]
    fn a_match_still_playing_is_marked_so() {
        let dir = std::env::temp_dir().join(format!("cutlab-playing-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("matches")).unwrap();
        let layout = Layout { dir: dir.clone() };
        let mut csv = csv::Writer::from_path(dir.join("matches/table2-tend-1.csv")).unwrap();
        for (game, result, score) in [(1, "1-0", 1.0), (2, "1/2-1/2", 0.5)] {
            csv.serialize(GameRow {
                game,
                pair: 1,
                result: result.into(),
                first_engine_score: score,
                ..GameRow::default()
            })
            .unwrap();
        }
        csv.flush().unwrap();
        let entries = [("1".to_string(), "table2-tend-1".to_string(), Some(57.8))];
        let playing = sweep(&layout, &[], "t_end", &entries).unwrap().unwrap();
        assert!(playing.contains("| 1 (playing) "), "{playing}");
        let done = [StepRecord::finished("table2-tend-1")];
        let finished = sweep(&layout, &done, "t_end", &entries).unwrap().unwrap();
        assert!(
            !finished.contains("playing") && finished.contains("| 1 "),
            "{finished}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
