//! `report.md` of a reproduce run: the paper's tables beside ours, figures, configuration and
//! the command of every step. Rewritten after each step, so an interrupted run still has the
//! report of what it finished.

use std::{fmt::Write as _, path::Path};

use cutlab_analysis::{
    elo::Sprt,
    plot,
    rows::{self, DepthRow, FalseCutRow, GameRow, RegretRow, SampleRow, TallyRow},
    stats::{Estimate, independent_difference, paired, paired_ratio},
    tables::{self, MatchSummary},
};
use cutlab_search::fit_params::FitParams;

use super::{Layout, Manifest, scale};
use crate::common::pipeline::{
    StepRecord, busy_machine_note, environment_table, is_finished, rows_of_finished, speed_note,
    steps_table, unfinished_steps,
};

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
pub(super) const PAPER_TABLE4: [(&str, f64, f64); 3] = [
    ("null-move", 42.0, 50.8),
    ("null-move+mpc@1.2:1", 53.1, 56.3),
    ("null-move+mpc@1:1", 57.0, 55.5),
];

/// Whether a CSV is there, plain or gzipped.
fn stored(path: &Path) -> bool {
    rows::stored(path).is_some()
}

/// The names in `dir`, a gzipped file's without its `.gz`.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".gz")
                        .map_or(name.clone(), str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.dedup();
    names
}

/// Rows of every file `<stem><suffix>` in `dir` whose step, `<step_prefix><stem>`, has
/// finished.
fn all_in<T: serde::de::DeserializeOwned>(
    dir: &Path,
    suffix: &str,
    (manifest, step_prefix): (&Manifest, &str),
) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    for name in names_in(dir) {
        let Some(stem) = name.strip_suffix(suffix) else {
            continue;
        };
        if is_finished(&manifest.header.steps, &format!("{step_prefix}{stem}")) {
            out.extend(rows::read(&dir.join(&name))?);
        }
    }
    Ok(out)
}

/// The depth comparison's title and limit, from its rows: timed, the depth each variant
/// reaches; `--deterministic`, the time it takes to a fixed depth (the table compares
/// whichever the rows measured).
fn depth_heading(first: &DepthRow) -> (&'static str, String) {
    match first.time_limit_ms {
        Some(ms) => (
            "depth reached in fixed time",
            format!("{ms} ms per position"),
        ),
        None => (
            "tree size and time to a fixed depth",
            format!(
                "every position to depth {} (`--deterministic`: the nodes and the time each \
                 variant takes, where the paper compared the depth reached in a fixed time; the \
                 tree size repeats on any machine, the times follow its speed and load)",
                first.depth
            ),
        ),
    }
}

/// At fixed depth, each variant's tree size in the paper's unit, plies: a tree `r` times null
/// move's is worth about `-ln r / ln b` plies at equal nodes, `b` the null-move search's
/// effective branching factor, here the geometric mean over positions of the node counts
/// from two iterations before the depth to it (`regress`'s cumulative counts), square-rooted.
/// `None` for a timed comparison, or before the regression's step has finished.
fn plies_at_equal_nodes(
    layout: &Layout,
    manifest: &Manifest,
    rows: &[DepthRow],
    variants: &[&str],
) -> Result<Option<String>, String> {
    let Some(depth) = rows
        .first()
        .filter(|r| r.time_limit_ms.is_none())
        .map(|r| r.depth)
    else {
        return Ok(None);
    };
    let samples: Vec<SampleRow> = rows_of_finished(
        &manifest.header.steps,
        "regress",
        &layout.file("samples.csv"),
    )?;
    let nodes_at = |d: i32| -> std::collections::HashMap<&str, f64> {
        #[expect(clippy::cast_precision_loss, reason = "node counts")]
        samples
            .iter()
            .filter(|r| r.depth == d)
            .map(|r| (r.position.as_str(), r.nodes as f64))
            .collect()
    };
    let (before, at) = (nodes_at(depth - 2), nodes_at(depth));
    let (a, b): (Vec<f64>, Vec<f64>) = at
        .iter()
        .filter_map(|(p, n)| before.get(p).map(|m| (*m, *n)))
        .unzip();
    let Some(b2) = paired_ratio(&a, &b, 0.95).filter(|e| e.value > 1.0) else {
        return Ok(None);
    };
    let branching = b2.value.sqrt();
    let mut parts = Vec::new();
    for &variant in variants.iter().filter(|v| **v != "null-move") {
        #[expect(clippy::cast_precision_loss, reason = "node counts")]
        let (a, b) = paired(
            rows,
            ("null-move", variant),
            |r| (&r.position, &r.variant),
            |r| r.nodes as f64,
        );
        if let Some(r) = paired_ratio(&a, &b, 0.95) {
            let plies = |ratio: f64| -ratio.ln() / branching.ln();
            parts.push(format!(
                "`{variant}` {:+.2} [{:+.2}, {:+.2}]",
                plies(r.value) + 0.0,
                plies(r.high) + 0.0,
                plies(r.low) + 0.0
            ));
        }
    }
    Ok((!parts.is_empty()).then(|| {
        format!(
            "In the paper's unit: null move's effective branching factor here is {branching:.2} \
             (nodes from depth {} to {depth} in `samples.csv`, over {} positions), so a tree \
             r times null move's is worth about -ln r / ln {branching:.2} plies at equal nodes \
             (95%): {}.\n",
            depth - 2,
            a.len(),
            parts.join(", ")
        )
    }))
}

/// Whether the run has steps of its plan still to finish, said in a line naming the next;
/// none when all have (or the run has no plan to count them in).
fn in_progress(layout: &Layout, manifest: &Manifest) -> Option<String> {
    let (planned, left) = unfinished_steps(layout, &manifest.header.steps, |_| true)?;
    let next = left.first()?;
    Some(format!(
        "**In progress: {} of the {planned} steps have finished** (next: `{next}`); the \
         sections of the others appear as they finish.",
        planned - left.len()
    ))
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
    let elo = |file: &str| -> Result<Option<Estimate>, String> {
        Ok(games_of(layout, file)?
            .filter(|_| is_finished(steps, file))
            .and_then(|m| m.stats.elo_estimate()))
    };
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

fn figure(out: &mut String, layout: &Layout, file: &str, caption: &str) {
    if layout.file(file).is_file() {
        let _ = writeln!(out, "![{caption}]({file})\n");
    }
}

/// Points needed per depth pair and stage for a fit to count (the standard scale's promise).
const MIN_POINTS: u64 = 100;

/// Whether every pair and stage the scale fits has at least [`MIN_POINTS`] points.
fn fewest_points(fits: &FitParams, manifest: &Manifest) -> String {
    let depth = scale::Scale::named(&manifest.header.scale).map_or(10, |s| s.regress_depth);
    let mut fewest: Option<(u64, String)> = None;
    for &(shallow, deep) in scale::PAIRS.iter().filter(|(_, d)| *d <= depth) {
        for stage in ["middlegame", "endgame"] {
            let n = fits
                .pairs
                .iter()
                .find(|f| f.shallow == shallow && f.deep == deep && f.stage.name() == stage)
                .map_or(0, |f| f.n);
            if fewest.as_ref().is_none_or(|(m, _)| n < *m) {
                fewest = Some((n, format!("({shallow},{deep}) {stage}")));
            }
        }
    }
    match fewest {
        Some((n, at)) if n >= MIN_POINTS => {
            format!("Every pair and stage has at least {MIN_POINTS} points (fewest: {n}, {at}).")
        }
        Some((n, at)) => format!(
            "**Too few points to trust every fit**: {at} has {n}, fewer than {MIN_POINTS} (a \
             larger scale samples more positions)."
        ),
        None => String::new(),
    }
}

/// A report being written: the run it reads, the Markdown and the terminal summary so far.
struct Report<'a> {
    layout: &'a Layout,
    manifest: &'a Manifest,
    out: String,
    summary: String,
}

impl Report<'_> {
    /// The rows of the run's `file` once `step` has finished (none before).
    fn rows<T: serde::de::DeserializeOwned>(
        &self,
        step: &str,
        file: &str,
    ) -> Result<Vec<T>, String> {
        rows_of_finished(&self.manifest.header.steps, step, &self.layout.file(file))
    }

    /// The title, the scale, the run's notes and its power statement.
    fn heading(&mut self) {
        let _ = writeln!(
            self.out,
            "# cutlab reproduce: Jiang and Buro (2003), \"First Experimental Results of ProbCut \
         Applied to Chess\"\n\nScale `{}`: {} positions sampled from `{}` (seed {}), {} threads. \
         Every CSV named here is beside this report; columns are documented in `docs/csv.md`. \
         Intervals are 95%.\n",
            self.manifest.header.scale,
            self.manifest.header.positions,
            self.manifest.header.suite,
            self.manifest.header.seed,
            self.manifest.header.threads
        );
        if let Some(line) = in_progress(self.layout, self.manifest) {
            let _ = writeln!(self.out, "{line}\n");
        }
        self.out
            .push_str(&busy_machine_note(&self.manifest.header.steps).unwrap_or_default());
        self.out.push_str(
            &speed_note(&self.manifest.header.steps, self.manifest.header.speed_nps)
                .unwrap_or_default(),
        );
        self.out.push_str(&self.manifest.power);
    }

    /// Which ProbCut/MPC models the searches used.
    fn params_note(&self) -> String {
        self.manifest.params.as_ref().map_or_else(
            || {
                "The searches use the built-in ProbCut/MPC models (`search/src/default_params.toml`, \
                 fitted on 200 positions of the built-in suite to depth 10); the fit below is this \
                 run's own, reported for comparison."
                    .to_string()
            },
            |p| format!("The searches use this run's own fit, `{p}`."),
        )
    }

    /// Table 1: the regression of deep on shallow values, and its figure.
    fn table1(&mut self) -> Result<(), String> {
        let params_path = self.layout.file("params.toml");
        if params_path.is_file() {
            let fits = FitParams::load(&params_path)?;
            let _ = writeln!(
                self.out,
                "## Table 1: linear regression v = a v' + b + e\n\nDeep value v against shallow \
             value v' (`samples.csv`{}, fitted on |v'| <= 300 cp without mate scores, as the \
             paper did). {}\n\n{}\n{}\n\nThe paper (Crafty): (3,5) a = 0.998 / 1.026, \
             sigma = 55.8 / 51.8, r = 0.90 / 0.94 (middlegame / endgame); (4,8) a = 1.02 / 1.11, \
             sigma = 82 / 75, r = 0.82 / 0.90. (Its b column lost its signs in the text we have.)\n",
                if stored(&self.layout.file("samples-endgames.csv")) {
                    " and `samples-endgames.csv`, balanced endgames from self-play"
                } else {
                    ""
                },
                self.params_note(),
                if fits.pairs.is_empty() {
                    "Too few positions at this scale to fit any pair.\n".to_string()
                } else {
                    tables::regression(&fits).render()
                },
                fewest_points(&fits, self.manifest)
            );
            figure(
                &mut self.out,
                self.layout,
                "fit.svg",
                "v against v' with the fitted lines",
            );
        }
        Ok(())
    }

    /// Sections 3-4 and the Multi-Cut family: the depth comparison.
    fn depth(&mut self) -> Result<(), String> {
        let depth_rows: Vec<DepthRow> = self.rows("depth", "depth.csv")?;
        if !depth_rows.is_empty() {
            let (title, limit) = depth_heading(&depth_rows[0]);
            let paper = &scale::DEPTH_VARIANTS[..scale::PAPER_DEPTH_VARIANTS];
            let thesis = tables::depth(&depth_rows, paper).render();
            let _ = writeln!(
                self.out,
                "## Sections 3-4: {title}\n\n{limit} (`depth.csv`); paired differences are to \
             `null-move` over the same positions.\n\n{thesis}\n\
             The paper (Crafty, 30 s per position on ~300 positions): null move 11.5 plies, \
             ProbCut (t = 1.0) 11.6, MPC 12.0.\n"
            );
            plot::depth_distribution(&self.layout.file("depth.svg"), &depth_rows, paper)?;
            figure(
                &mut self.out,
                self.layout,
                "depth.svg",
                "depth distribution per variant",
            );
            if let Some(text) =
                plies_at_equal_nodes(self.layout, self.manifest, &depth_rows, paper)?
            {
                let _ = writeln!(self.out, "{text}");
            }
            let _ = writeln!(self.summary, "The {title} (paired to null-move):\n{thesis}");
            let mut ours = vec!["null-move"];
            ours.extend(&scale::DEPTH_VARIANTS[scale::PAPER_DEPTH_VARIANTS..]);
            let _ = writeln!(
                self.out,
                "## Ours: Stockfish ProbCut and the Multi-Cut family beside null move\n\nSame \
             positions and limit.\n\n{}",
                tables::depth(&depth_rows, &ours).render()
            );
        }
        Ok(())
    }

    /// Tables 2 and 3: the thresholds of MPC.
    fn tables_2_3(&mut self) -> Result<(), String> {
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
    fn headline(&mut self) -> Result<(), String> {
        if let Some(h) = scale::Scale::named(&self.manifest.header.scale).and_then(|s| s.headline)
            && let Some(m) = games_of(self.layout, super::HEADLINE)?
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
    fn table4(&mut self) -> Result<(), String> {
        if let Some((command, id)) = &self.manifest.engine {
            for k in 1..=2 {
                let entries: Vec<(String, String, Option<f64>)> = PAPER_TABLE4
                    .iter()
                    .map(|&(v, a, b)| {
                        (
                            v.to_string(),
                            super::table4_match(k, v),
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

    /// Ours: the oracle's regret of the chosen move.
    fn regret(&mut self) -> Result<(), String> {
        let regret_rows: Vec<RegretRow> = self.rows("oracle", "regret.csv")?;
        if !regret_rows.is_empty() {
            let variants = tables::distinct(&regret_rows, |r| r.variant.as_str());
            let table = tables::regret(&regret_rows, &variants).render();
            let judge = self
                .manifest
                .header
                .steps
                .iter()
                .find(|s| s.name == "oracle")
                .map_or(String::new(), |s| format!(" Command: `{}`.", s.command));
            let _ = writeln!(
                self.out,
                "## Ours: oracle regret of the chosen move\n\nEvery root move is scored by the \
             oracle; regret = oracle best minus the chosen move's score (`regret.csv`).{judge} \
             Probabilistic alpha-beta at confidence 0.95 plays safe, at 0.05 takes risks.\n\n\
             {table}"
            );
            plot::regret_cdf(&self.layout.file("regret-cdf.svg"), &regret_rows, &variants)?;
            figure(
                &mut self.out,
                self.layout,
                "regret-cdf.svg",
                "regret CDF per variant",
            );
        }
        Ok(())
    }

    /// Ours: false cuts and cut tests.
    fn cuts(&mut self) -> Result<(), String> {
        let traces = self.layout.file("traces");
        let verified: Vec<FalseCutRow> =
            all_in(&traces, ".false-cuts.csv", (self.manifest, "trace-"))?;
        let counted: Vec<TallyRow> = all_in(&traces, ".tallies.csv", (self.manifest, "trace-"))?;
        if !counted.is_empty() {
            let false_cuts = tables::false_cuts(&verified).render();
            let _ = writeln!(
                self.out,
                "## Ours: false cuts\n\nEach method alone (`traces/<method>.*`); a share of its cuts \
             is re-searched at the same depth with no forward pruning in the main search and no \
             reductions (`plain`, its table cleared for each cut, the traced search's own \
             quiescence search); a cut is false when that value is on the other side of the \
             bound it claimed.\n\n{false_cuts}\n## Ours: cut tests by node type\n\n{}\n\
             ## Ours: cut tests by remaining depth\n\n{}",
                tables::cuts_by_node_type(&counted).render(),
                tables::cuts_by_depth(&counted).render()
            );
            plot::cuts_by_depth(&self.layout.file("cuts-by-depth.svg"), &counted)?;
            figure(
                &mut self.out,
                self.layout,
                "cuts-by-depth.svg",
                "cut rate by remaining depth",
            );
            let _ = writeln!(self.summary, "False cuts:\n{false_cuts}");
        }
        Ok(())
    }

    /// The configuration: environment and steps.
    fn configuration(&mut self) -> Result<(), String> {
        let engine: Vec<(String, String)> = self
            .manifest
            .engine
            .iter()
            .map(|(command, id)| ("external engine".into(), format!("{id} (`{command}`)")))
            .collect();
        let _ = writeln!(
            self.out,
            "## Configuration\n\n{}\nEach step below is a `cutlab` command (its minutes are its \
         last run's: a step resumed after an interruption does not count its earlier runs); its \
         output is in `logs/<step>.log`, and the search configuration of each variant is in the \
         `*.config.toml` files beside the CSVs (in a published study, packed into \
         `configs.tar.xz`) and in `variants/`. Positions: `positions.epd` (the oracle and \
         traces use the first ones, `oracle-positions.epd` and `trace-positions.epd`).\n\n{}",
            environment_table(&self.manifest.header.environment, &engine),
            steps_table(&self.manifest.header.steps)
        );
        Ok(())
    }
}

/// Writes `report.md` and the figures from what the run has so far; returns the one-screen
/// summary for the terminal.
///
/// # Errors
/// A result file that does not parse, or a file that cannot be written.
pub fn write(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    let mut report = Report {
        layout,
        manifest,
        out: String::new(),
        summary: String::new(),
    };
    report.heading();
    report.table1()?;
    report.depth()?;
    report.tables_2_3()?;
    report.headline()?;
    report.table4()?;
    report.regret()?;
    report.cuts()?;
    report.configuration()?;
    let path = layout.file("report.md");
    std::fs::write(&path, report.out).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(report.summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic run's rows have no time limit: the heading says time to their depth,
    /// never "0 ms per position".
    #[test]
    fn a_deterministic_depth_comparison_is_headed_by_its_depth() {
        let fixed = DepthRow {
            depth: 10,
            ..DepthRow::default()
        };
        let (title, limit) = depth_heading(&fixed);
        assert_eq!(title, "tree size and time to a fixed depth");
        assert!(limit.starts_with("every position to depth 10 "), "{limit}");
        let timed = DepthRow {
            time_limit_ms: Some(1000),
            ..fixed
        };
        assert_eq!(depth_heading(&timed).1, "1000 ms per position");
    }

    /// Of two traces' verified cuts, only the one whose step has finished is read: the other
    /// step was interrupted and its file holds part of its rows.
    #[test]
    fn a_trace_counts_only_when_its_step_has_finished() {
        let dir = crate::common::scratch_dir("traces");
        for method in ["probcut", "mpc"] {
            let mut csv =
                csv::Writer::from_path(dir.join(format!("{method}.false-cuts.csv"))).unwrap();
            csv.serialize(FalseCutRow {
                method: method.into(),
                ..FalseCutRow::default()
            })
            .unwrap();
            csv.flush().unwrap();
        }
        let mut manifest = Manifest::default();
        manifest.header.steps = vec![StepRecord::finished("trace-mpc")];
        let rows: Vec<FalseCutRow> =
            all_in(&dir, ".false-cuts.csv", (&manifest, "trace-")).unwrap();
        let methods: Vec<&str> = rows.iter().map(|r| r.method.as_str()).collect();
        assert_eq!(methods, ["mpc"]);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Two variants' matches against one opponent: the second's Elo less the first's, with
    /// the half-widths of the two 95% intervals combined in quadrature; shown only when both
    /// matches have finished.
    #[test]
    fn table_4_contrasts_each_variant_with_the_first_through_the_opponent() {
        let dir = std::env::temp_dir().join(format!("cutlab-contrast-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
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

    /// Null move's trees grow fourfold from depth 8 to 10 (branching factor 2), and a variant's
    /// trees at depth 10 are half and an eighth of null move's (mean log ratio ln 1/4): it is
    /// worth ln 4 / ln 2 = 2 plies at equal nodes; a timed comparison has no such line.
    #[test]
    fn a_tree_size_is_told_in_plies_at_null_moves_branching_factor() {
        let dir = crate::common::scratch_dir("plies");
        let layout = Layout { dir: dir.clone() };
        let mut csv = csv::Writer::from_path(dir.join("samples.csv")).unwrap();
        for (position, depth, nodes) in
            [("a", 8, 100), ("a", 10, 400), ("b", 8, 50), ("b", 10, 200)]
        {
            csv.serialize(SampleRow {
                position: position.into(),
                depth,
                nodes,
                ..SampleRow::default()
            })
            .unwrap();
        }
        csv.flush().unwrap();
        let row = |position: &str, variant: &str, nodes: u64| DepthRow {
            position: position.into(),
            variant: variant.into(),
            depth: 10,
            nodes,
            ..DepthRow::default()
        };
        let rows = [
            row("a", "null-move", 1000),
            row("b", "null-move", 800),
            row("a", "null-move+mpc", 500),
            row("b", "null-move+mpc", 100),
        ];
        let mut manifest = Manifest::default();
        let variants = ["null-move", "null-move+mpc"];
        assert_eq!(
            plies_at_equal_nodes(&layout, &manifest, &rows, &variants).unwrap(),
            None
        );
        manifest.header.steps.push(StepRecord::finished("regress"));
        let text = plies_at_equal_nodes(&layout, &manifest, &rows, &variants)
            .unwrap()
            .unwrap();
        assert!(text.contains("branching factor here is 2.00"), "{text}");
        assert!(text.contains("`null-move+mpc` +2.00 ["), "{text}");
        let timed = rows.map(|r| DepthRow {
            time_limit_ms: Some(1000),
            ..r
        });
        assert_eq!(
            plies_at_equal_nodes(&layout, &manifest, &timed, &variants).unwrap(),
            None
        );
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

    /// A run with steps of its plan unfinished says how many have finished and which is next.
    #[test]
    fn an_unfinished_run_says_so() {
        let dir = crate::common::scratch_dir("progress");
        let layout = Layout { dir: dir.clone() };
        let plan =
            ["regress", "fit", "depth"].map(|name| crate::common::pipeline::Step::new(name, &[]));
        crate::common::pipeline::save_plan(&layout, &plan).unwrap();
        let mut manifest = Manifest::default();
        manifest.header.steps = vec![StepRecord::finished("regress")];
        let line = in_progress(&layout, &manifest).unwrap();
        assert!(
            line.contains("1 of the 3 steps") && line.contains("`fit`"),
            "{line}"
        );
        manifest
            .header
            .steps
            .extend(["fit", "depth"].map(StepRecord::finished));
        assert_eq!(in_progress(&layout, &manifest), None);
        std::fs::remove_dir_all(&dir).ok();
    }
}
