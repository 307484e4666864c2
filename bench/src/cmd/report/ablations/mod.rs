//! A contrast of two ablations (`kind = "ablations"`): the same comparisons (e.g. each method
//! left out of `modern`) at one or more efforts in two `ablate` runs that differ in one factor
//! (e.g. the evaluation), and by how much each method's Elo changed from the first run to the
//! second.

use std::{fmt::Write as _, path::Path};

use cutlab_analysis::{
    elo::{Looks, MIN_PAIRS, MatchStats, Pentanomial},
    markdown::Table,
    plot,
    rows::{GameRow, read_games_if_stored},
    sequential,
    stats::{Estimate, independent_difference},
    tables::MatchSummary,
};
use serde::Deserialize;

use crate::cmd::ablate::{Comparison, Direction, Manifest, MatchKey};

/// The study's manifest.
#[derive(Debug, Deserialize)]
pub struct AblationStudy {
    /// The report's title.
    title: String,
    /// The text under the title.
    text: String,
    /// The directions of the comparisons contrasted.
    directions: Vec<Direction>,
    /// The efforts of the matches contrasted, nodes per move.
    nodes: Vec<u64>,
    /// The two runs, the reference first.
    runs: [Run; 2],
    /// Text after the table.
    #[serde(default)]
    after: String,
}

/// One `ablate` run: its label and its directory (relative to the study's).
#[derive(Debug, Deserialize)]
struct Run {
    label: String,
    dir: String,
}

/// A match's Elo and the half-width of its pentanomial interval at the contrast's confidence
/// (none below [`MIN_PAIRS`] game pairs), its games, and whether its run's rule has stopped it.
#[derive(Clone, Copy, Debug)]
struct Measured {
    elo: f64,
    half_width: Option<f64>,
    games: usize,
    stopped: bool,
    pentanomial: Pentanomial,
}

/// The match of comparison `c` at `nodes` in run `dir` (none before its first game), its
/// interval at `confidence`, stopped or not by `looks`.
fn measured(
    dir: &Path,
    c: &Comparison,
    nodes: u64,
    (looks, confidence): (&Looks, f64),
) -> Result<Option<Measured>, String> {
    let games: Vec<GameRow> = read_games_if_stored(&dir.join(MatchKey::of(c, nodes).games_file()))?;
    Ok(MatchSummary::of(&games).map(|m| {
        let stats = MatchStats::with_confidence(&m.pentanomial, confidence);
        Measured {
            elo: stats.elo,
            half_width: (m.pentanomial.pairs() >= MIN_PAIRS && stats.elo_error.is_finite())
                .then_some(stats.elo_error),
            games: m.games,
            stopped: looks.stop(&m.pentanomial).is_some(),
            pentanomial: m.pentanomial,
        }
    }))
}

fn cell(m: Option<Measured>) -> String {
    let text = match m {
        None => return "not played".into(),
        Some(Measured {
            elo,
            half_width: Some(h),
            ..
        }) => format!("{:+.1} ± {h:.1}", elo + 0.0),
        Some(m) => format!("{:+.1} (too few games)", m.elo + 0.0),
    };
    match m {
        Some(Measured { stopped: false, .. }) => format!("{text} (playing)"),
        _ => text,
    }
}

impl Measured {
    /// The Elo with its interval, where the match has one.
    fn estimate(self) -> Option<Estimate> {
        self.half_width.map(|h| Estimate::around(self.elo, h))
    }
}

/// The second run's Elo minus the first's with the interval of independent matches at the
/// contrast's confidence (half-widths combined in quadrature), and whether it excludes 0;
/// `playing` while either match has not stopped by its rule, `to play` before its first game.
fn difference(a: Option<Measured>, b: Option<Measured>) -> (String, &'static str) {
    let (Some(a), Some(b)) = (a, b) else {
        return ("-".into(), "to play");
    };
    match (a.estimate(), b.estimate()) {
        (Some(ea), Some(eb)) => {
            let d = independent_difference(&ea, &eb);
            let verdict = if !(a.stopped && b.stopped) {
                "playing"
            } else if d.low * d.high > 0.0 {
                "differs"
            } else {
                "not shown to differ"
            };
            (
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    d.value + 0.0,
                    d.low + 0.0,
                    d.high + 0.0
                ),
                verdict,
            )
        }
        _ => ("-".into(), "too few games"),
    }
}

/// The figure of an ablations contrast at one effort: each method's Elo in both runs
/// (`elo-by-run.svg`, or `elo-by-run-<nodes>.svg` where the study has several efforts).
fn figure(study: &AblationStudy, nodes: u64) -> String {
    if study.nodes.len() > 1 {
        format!("elo-by-run-{nodes}.svg")
    } else {
        "elo-by-run.svg".into()
    }
}

/// What the two runs share: their labels, folders and manifests, their stopping rules and the
/// one confidence of the contrast's intervals (and as a percentage, as the report prints it).
struct Runs<'a> {
    a: Loaded<'a>,
    b: Loaded<'a>,
    looks_a: Looks,
    looks_b: Looks,
    confidence: f64,
    percent: String,
}

/// The contrasts of one effort: the table's rows, the figure's points, and what the count of
/// differences by chance needs.
#[derive(Default)]
struct Contrasts {
    table: String,
    labels: Vec<String>,
    points: [Vec<Option<Estimate>>; 2],
    stopped: Vec<Pentanomial>,
    /// Contrasts whose two matches have stopped by their rule (a verdict that stands).
    contrasts: usize,
    differ: usize,
    /// Contrasts with a match still to play or to stop.
    waiting: usize,
}

impl Contrasts {
    /// Counts the contrast of the two runs' matches `(a, b)` read as `verdict`: whether it
    /// differs, whether both have stopped (or one is still to play or stop), and the stopped
    /// matches' pentanomials.
    fn tally(&mut self, (a, b): (Option<Measured>, Option<Measured>), verdict: &str) {
        self.differ += usize::from(verdict == "differs");
        if a.zip(b).is_some_and(|(x, y)| x.stopped && y.stopped) {
            self.contrasts += 1;
        } else {
            self.waiting += 1;
        }
        self.stopped.extend(
            [a, b]
                .into_iter()
                .flatten()
                .filter(|m| m.stopped)
                .map(|m| m.pentanomial),
        );
    }
}

/// The report of an ablations contrast; with `draw`, its figures too (one per effort, see
/// [`figure`], in `dir`).
///
/// # Errors
/// A run's missing or malformed manifest, unreadable games, a figure that cannot be written.
pub fn report(dir: &Path, study: &AblationStudy, draw: bool) -> Result<String, String> {
    let [a, b] = [0, 1].map(|k| load(dir, &study.runs[k], &study.nodes));
    let (a, b) = (a?, b?);
    let looks_of = |m: &Manifest| Looks::new(m.looks.clone(), m.stop_within);
    let (looks_a, looks_b) = (looks_of(&a.2)?, looks_of(&b.2)?);
    // One confidence for both runs' intervals (the lower look's, were their rules to differ),
    // so that their half-widths combine into the difference's at that confidence.
    let confidence = looks_a.confidence().min(looks_b.confidence());
    let runs = Runs {
        a,
        b,
        looks_a,
        looks_b,
        confidence,
        percent: cutlab_analysis::markdown::level(confidence),
    };
    let percent = &runs.percent;
    let mut md = introduction(study, &runs);
    let efforts: Vec<Contrasts> = study
        .nodes
        .iter()
        .map(|&nodes| contrasts_at(dir, study, &runs, nodes))
        .collect::<Result<_, _>>()?;
    let stopped: Vec<Pentanomial> = efforts
        .iter()
        .flat_map(|at| at.stopped.iter().copied())
        .collect();
    let by_chance = by_chance(
        &stopped,
        (
            efforts.iter().map(|at| at.contrasts).sum(),
            efforts.iter().map(|at| at.differ).sum(),
            efforts.iter().map(|at| at.waiting).sum(),
        ),
        &runs.looks_a,
    );
    let several = efforts.len() > 1;
    for (&nodes, at) in study.nodes.iter().zip(&efforts) {
        if several {
            let _ = write!(md, "## {nodes} nodes per move\n\n");
        }
        md.push_str(&at.table);
        if !several {
            md.push_str(&by_chance);
        }
        let _ = writeln!(
            md,
            "\n![each method's Elo in both runs, {percent} intervals]({})",
            figure(study, nodes)
        );
        if several {
            md.push('\n');
        }
        if draw {
            draw_figure(dir, study, &runs, nodes, at)?;
        }
    }
    if several {
        md.push_str(by_chance.trim_start());
    }
    if !study.after.is_empty() {
        let _ = write!(md, "\n{}\n", study.after.trim_end());
    }
    Ok(md)
}

/// The contrasts of `study`'s directions at `nodes`: a row for each comparison the first run
/// has and the second shares.
fn contrasts_at(
    dir: &Path,
    study: &AblationStudy,
    runs: &Runs<'_>,
    nodes: u64,
) -> Result<Contrasts, String> {
    let (a, b) = (&runs.a, &runs.b);
    let percent = &runs.percent;
    let (games_a, games_b) = (format!(">{} games", a.0), format!(">{} games", b.0));
    let (elo_a, elo_b) = (format!(">{} Elo", a.0), format!(">{} Elo", b.0));
    let change = format!("{} − {} [{percent}]", b.0, a.0);
    let mut table = Table::new(&[
        "method", &games_a, &elo_a, &games_b, &elo_b, &change, "verdict",
    ]);
    let mut at = Contrasts::default();
    for c in
        a.2.comparisons
            .iter()
            .filter(|c| study.directions.contains(&c.direction))
    {
        let Some(other) =
            b.2.comparisons
                .iter()
                .find(|o| o.direction == c.direction && o.method == c.method)
        else {
            continue;
        };
        let ma = measured(&a.1, c, nodes, (&runs.looks_a, runs.confidence))?;
        let mb = measured(&b.1, other, nodes, (&runs.looks_b, runs.confidence))?;
        let (diff, verdict) = difference(ma, mb);
        at.tally((ma, mb), verdict);
        let code = format!("`{}`", c.method);
        let (name, cell_name) = if study.directions.len() > 1 {
            (c.direction.label(&c.method), c.direction.label(&code))
        } else {
            (c.method.clone(), code)
        };
        at.points[0].push(ma.and_then(Measured::estimate));
        at.points[1].push(mb.and_then(Measured::estimate));
        let games = |m: Option<Measured>| m.map_or(0, |m| m.games).to_string();
        table.row(vec![
            cell_name,
            games(ma),
            cell(ma),
            games(mb),
            cell(mb),
            diff,
            verdict.to_string(),
        ]);
        at.labels.push(name);
    }
    if table.is_empty() {
        return Err(format!(
            "{}: the runs share no comparison of the directions {:?} at {nodes} nodes",
            dir.display(),
            study
                .directions
                .iter()
                .map(|d| d.name())
                .collect::<Vec<_>>()
        ));
    }
    at.table = table.render();
    Ok(at)
}

/// The figure of the contrasts `at` of one effort.
fn draw_figure(
    dir: &Path,
    study: &AblationStudy,
    runs: &Runs<'_>,
    nodes: u64,
    at: &Contrasts,
) -> Result<(), String> {
    let names: Vec<&str> = study.directions.iter().map(|d| d.name()).collect();
    plot::forest_series(
        &dir.join(figure(study, nodes)),
        (
            &format!(
                "Each method, {} ({nodes} nodes per move): {} and {}",
                names.join(", "),
                runs.a.0,
                runs.b.0
            ),
            &format!("Elo against the reference ({} intervals)", runs.percent),
        ),
        plot::Axis::ELO,
        &at.labels,
        &[(runs.a.0, &at.points[0]), (runs.b.0, &at.points[1])],
    )
}

/// One run of a contrast: its label, its folder, its manifest.
type Loaded<'a> = (&'a str, std::path::PathBuf, Manifest);

/// Run `r` of the study in `dir`, which must have played at each of `nodes`.
fn load<'a>(dir: &Path, r: &'a Run, nodes: &[u64]) -> Result<Loaded<'a>, String> {
    let run = dir.join(&r.dir);
    let path = run.join("manifest.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest: Manifest =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(missing) = nodes.iter().find(|n| !manifest.nodes.contains(n)) {
        return Err(format!(
            "{}: no matches at {missing} nodes per move",
            path.display()
        ));
    }
    Ok((r.label.as_str(), run, manifest))
}

/// The report's title, its text, and what each row shows: the runs, their rule, the
/// contrast's interval.
fn introduction(study: &AblationStudy, runs: &Runs<'_>) -> String {
    let percent = &runs.percent;
    let (a, b) = (&runs.a, &runs.b);
    let mut md = format!("# {}\n\n{}\n", study.title, study.text.trim_end());
    let directions: Vec<String> = study
        .directions
        .iter()
        .map(|d| format!("`{}`", d.name()))
        .collect();
    let efforts: Vec<String> = study.nodes.iter().map(u64::to_string).collect();
    let _ = write!(
        md,
        "\nEach row: one comparison ({}) at {} nodes per move in each run: the Elo of the \
         variant against its reference with its {percent} pentanomial interval (the interval \
         of each look of the runs' stopping rule, {} looks holding together at 95%), and the \
         {} run's Elo minus the {} run's with the {percent} interval of two independent \
         matches (where both runs play the same openings their results, if anything, agree, \
         and the interval is wide rather than narrow). *differs*: that interval excludes 0; *playing*: a match has not yet stopped \
         by its rule, its numbers are not final; *to play*: a match has no game yet.\n\n- {}: `{}` ({})\n- {}: `{}` ({})\n\n",
        directions.join(", "),
        crate::common::prose::list(&efforts),
        runs.looks_a.games().len().max(runs.looks_b.games().len()),
        b.0,
        a.0,
        a.0,
        a.2.stack,
        study.runs[0].dir,
        b.0,
        b.2.stack,
        study.runs[1].dir
    );
    md
}

/// What the contrasts would read by chance: of `contrasts` whose matches have stopped,
/// `differ` differ; with no difference anywhere, the count expected under the runs' stopping
/// rule, simulated on their own pooled pairs (two matches of one true worth each stopped by
/// `looks`, at the worst of the true worths simulated), not the nominal level of the
/// intervals. `waiting` contrasts, a match of theirs not stopped yet, are named apart.
fn by_chance(
    stopped: &[Pentanomial],
    (contrasts, differ, waiting): (usize, usize, usize),
    looks: &Looks,
) -> String {
    let Some((base, _)) = sequential::no_effect_of(stopped) else {
        return String::new();
    };
    // Two evaluations are two points of a trend: their difference over one step.
    let rate = sequential::worst_false_trend_rate(
        looks,
        base,
        &sequential::TRUE_ELOS,
        &[0.0, 1.0],
        (sequential::MATCHES, 2003),
    );
    #[expect(clippy::cast_precision_loss, reason = "a count of contrasts")]
    let expected = contrasts as f64 * rate;
    let whose = if waiting == 0 {
        String::new()
    } else {
        format!(" whose matches have both stopped ({waiting} more wait for a match to stop)")
    };
    format!(
        "\n{differ} of the {contrasts} contrasts{whose} differ; with no difference anywhere, \
         about {expected:.2} would by chance ({:.1}% a contrast: the stopping rule simulated on \
         the runs' own pooled pairs, two matches of one true worth each stopped by it, at the \
         worst of true worths 0 to 40).\n",
        100.0 * rate
    )
}

#[cfg(test)]
mod tests;
