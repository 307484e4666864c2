//! The matches' budget, measured: what each effort's finished matches cost a game, and what
//! the matches still playing or to play will cost from there, between all of them stopping at
//! their next look and all of them running to their last. The ladder runs for days; its report
//! says, from its own steps, how many, and a resumed run prints what is left before it plays.

use cutlab_analysis::markdown::Table;

use super::{Manifest, MatchKey, played::Status, row::AblationRow};
use crate::common::pipeline::{Step, StepRecord, is_finished, output_rows};

/// A match as the budget sees it: its step, its nodes a move, the games it holds and whether
/// it has stopped.
#[derive(Clone, Debug)]
pub struct Match {
    /// Its step's name, `match-<nodes>-<direction>-<method>`.
    pub step: String,
    /// Nodes a move.
    pub nodes: u64,
    /// Games played so far.
    pub games: usize,
    /// Whether it has stopped (by its rule, or at its last look).
    pub stopped: bool,
}

impl From<&AblationRow> for Match {
    fn from(r: &AblationRow) -> Match {
        Match {
            step: MatchKey::new(
                r.effort_nodes,
                super::comparison::name(r.direction.name(), &r.method),
            )
            .step(),
            nodes: r.effort_nodes,
            games: r.games,
            stopped: matches!(r.status, Status::Stopped(_)),
        }
    }
}

impl Match {
    /// Planned match `step` as a run being resumed holds it: the games its `--out` CSV holds
    /// (none where it has none yet), stopped where `done` (the run's finished steps) holds it.
    /// `None` for a step that is not a match.
    pub fn planned(step: &Step, done: &[StepRecord]) -> Option<Match> {
        let key = MatchKey::from_step(&step.name)?;
        Some(Match {
            step: step.name.clone(),
            nodes: key.nodes,
            games: output_rows(step).unwrap_or(0),
            stopped: is_finished(done, &step.name),
        })
    }
}

/// The games a match step played at once: its command's `--concurrency`, else the run's
/// threads.
fn concurrency(command: &str, threads: usize) -> f64 {
    let mut words = command.split_whitespace();
    let given = words
        .by_ref()
        .find(|w| *w == "--concurrency")
        .and(words.next())
        .and_then(|n| n.parse::<u32>().ok());
    #[expect(clippy::cast_precision_loss, reason = "a few threads")]
    given.map_or(threads.max(1) as f64, f64::from)
}

/// Core-seconds a game of one effort's finished matches took (their steps' wall seconds
/// times the games each played at once, over the games played in that time: a resumed step's
/// games less those its output held as it started), and how many games that rests on.
fn measured(manifest: &Manifest, matches: &[&Match]) -> Option<(f64, usize)> {
    let (mut core_seconds, mut games) = (0.0, 0);
    for m in matches.iter().filter(|m| m.stopped) {
        if let Some(s) = manifest.header.steps.iter().find(|s| s.name == m.step) {
            let played = m.games.saturating_sub(s.rows_before.unwrap_or(0));
            if played > 0 {
                core_seconds += s.seconds * concurrency(&s.command, manifest.header.threads);
                games += played;
            }
        }
    }
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let per_game = core_seconds / games.max(1) as f64;
    (games > 0).then_some((per_game, games))
}

/// The threads the run plays on: its header's, or in runs from before the header kept them,
/// the matches' own.
fn threads(manifest: &Manifest) -> usize {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a few threads"
    )]
    match manifest.header.threads {
        0 => manifest
            .header
            .steps
            .iter()
            .find(|s| MatchKey::is_match(&s.name))
            .map_or(1, |s| concurrency(&s.command, 1) as usize),
        n => n,
    }
}

/// The games left to the unstopped matches of `matches` under `looks`: each to its next look
/// at least, to its last at most.
fn games_left(looks: &[u64], matches: &[&Match]) -> (u64, u64) {
    let (first, last) = (looks[0], looks[looks.len() - 1]);
    let (mut low, mut high) = (0_u64, 0_u64);
    for m in matches.iter().filter(|m| !m.stopped) {
        let games = m.games as u64;
        let next = looks.iter().copied().find(|&g| g > games).unwrap_or(last);
        low += next.max(first).saturating_sub(games);
        high += last.saturating_sub(games);
    }
    (low, high)
}

/// One effort's line of the budget.
struct Effort {
    nodes: u64,
    matches: usize,
    stopped: usize,
    played: usize,
    /// Core-seconds a game measured, and over how many games.
    measured: Option<(f64, usize)>,
    /// Core-seconds a game: measured, else carried from the nearest measured effort.
    per_game: Option<f64>,
    /// Hours left on the run's threads, from every match stopping at its next look to every
    /// one running to its last.
    hours: Option<(f64, f64)>,
}

/// Each effort's line of the budget, a measured cost carried to an effort without one in
/// proportion to its nodes; `None` before any match has finished.
fn efforts(manifest: &Manifest, matches: &[Match]) -> Option<Vec<Effort>> {
    if manifest.looks.is_empty() {
        return None;
    }
    let by_effort: Vec<(u64, Vec<&Match>)> = manifest
        .nodes
        .iter()
        .map(|&n| (n, matches.iter().filter(|m| m.nodes == n).collect()))
        .collect();
    let measured: Vec<Option<(f64, usize)>> = by_effort
        .iter()
        .map(|(_, m)| measured(manifest, m))
        .collect();
    if measured.iter().all(Option::is_none) {
        return None;
    }
    // The cost of a game where none has been measured: the nearest measured effort's, in
    // proportion to the nodes a move.
    #[expect(clippy::cast_precision_loss, reason = "node counts")]
    let scaled = |n: u64| {
        by_effort
            .iter()
            .zip(&measured)
            .filter_map(|((m, _), c)| c.map(|(s, _)| (m, s)))
            .min_by_key(|(m, _)| m.abs_diff(n))
            .map(|(m, s)| s * n as f64 / *m as f64)
    };
    let threads = threads(manifest);
    let lines = by_effort
        .iter()
        .zip(&measured)
        .map(|((n, matches), &measured)| {
            let per_game = measured.map(|(s, _)| s).or_else(|| scaled(*n));
            let (low, high) = games_left(&manifest.looks, matches);
            #[expect(clippy::cast_precision_loss, reason = "counts")]
            let hours = |games: u64| games as f64 / threads as f64 / 3600.0;
            Effort {
                nodes: *n,
                matches: matches.len(),
                stopped: matches.iter().filter(|m| m.stopped).count(),
                played: matches.iter().map(|m| m.games).sum(),
                measured,
                per_game,
                hours: per_game.map(|s| (s * hours(low), s * hours(high))),
            }
        })
        .collect();
    Some(lines)
}

/// The hours left over every effort, from every match stopping at its next look to every one
/// running to its last.
fn total(efforts: &[Effort]) -> (f64, f64) {
    efforts
        .iter()
        .filter_map(|e| e.hours)
        .fold((0.0, 0.0), |(lo, hi), (l, h)| (lo + l, hi + h))
}

/// What a whole rung of the ladder ([`whole_rung`]) costs at each effort where this run plays
/// fewer matches than one: its matches from their first look to their last at the cost of a
/// game measured at that effort, and at four times the nodes with the cost in proportion
/// (the ladder's next rung: its efforts are four times apart). Empty where no such effort has
/// a measured cost.
///
/// [`whole_rung`]: super::comparison::whole_rung
fn whole_rungs(manifest: &Manifest, efforts: &[Effort]) -> String {
    let (methods, added, rung) = super::comparison::whole_rung(&manifest.stack);
    let threads = threads(manifest);
    let games = |look: u64| rung as u64 * look;
    let (low, high) = (
        games(manifest.looks[0]),
        games(manifest.looks[manifest.looks.len() - 1]),
    );
    efforts
        .iter()
        .filter(|e| e.matches < rung)
        .filter_map(|e| {
            let (per_game, _) = e.measured?;
            #[expect(clippy::cast_precision_loss, reason = "counts")]
            let hours = |games: u64| per_game * games as f64 / threads as f64 / 3600.0;
            Some(format!(
                " A whole rung of the ladder at {nodes} nodes ({methods} methods left out, \
                 {added} added, a doubling: {rung} matches, {low} to {high} games) takes \
                 {:.1} to {:.1} hours on {threads} threads at the cost of a game measured \
                 here; at {} nodes, the cost in proportion to the nodes, {:.1} to {:.1}.",
                hours(low),
                hours(high),
                4 * e.nodes,
                4.0 * hours(low),
                4.0 * hours(high),
                nodes = e.nodes,
            ))
        })
        .collect()
}

/// The budget section: one row per effort (matches stopped of planned, games played,
/// core-seconds a game, and the hours left on the run's threads). `None` before any match
/// has finished.
pub fn section(manifest: &Manifest, rows: &[AblationRow]) -> Option<String> {
    let matches: Vec<Match> = rows.iter().map(Match::from).collect();
    let efforts = efforts(manifest, &matches)?;
    let threads = threads(manifest);
    let mut t = Table::new(&[
        ">nodes a move",
        ">matches stopped",
        ">games played",
        ">core-seconds a game",
        &format!(">hours left on {threads} threads"),
    ]);
    for e in &efforts {
        t.row(vec![
            e.nodes.to_string(),
            format!("{} of {}", e.stopped, e.matches),
            e.played.to_string(),
            match (e.measured, e.per_game) {
                (Some((s, games)), _) => format!("{s:.2} (over {games} games)"),
                (None, Some(s)) => format!("{s:.2} (scaled by nodes)"),
                (None, None) => "-".to_string(),
            },
            e.hours
                .map_or("-".to_string(), |(lo, hi)| format!("{lo:.1} to {hi:.1}")),
        ]);
    }
    let (low_total, high_total) = total(&efforts);
    Some(format!(
        "\n## The matches' budget\n\nMeasured from this run's own steps: a finished match's \
         wall time on its threads over the games it played in that time (a resumed step's \
         last run and its games only; a step recorded before its resumed games were counted \
         takes all its games, so its cost can read low); an effort without a finished match \
         takes the nearest measured one's cost in proportion to the nodes a move. The hours \
         left run from every unstopped match stopping at its next look to every one running \
         to its last: {low_total:.1} to {high_total:.1} hours on {threads} threads in \
         all.{}\n\n{}\n",
        whole_rungs(manifest, &efforts),
        t.render()
    ))
}

/// What a resumed run has left to play, in one line, its cost measured as the report's
/// budget measures it: `None` before any match has finished.
pub fn left(manifest: &Manifest, matches: &[Match]) -> Option<String> {
    let efforts = efforts(manifest, matches)?;
    let (low, high) = total(&efforts);
    let stopped: usize = efforts.iter().map(|e| e.stopped).sum();
    Some(format!(
        "{} of {} matches left to play: {low:.1} to {high:.1} hours on {} threads (the cost \
         of a game measured from this run's finished matches)",
        matches.len() - stopped,
        matches.len(),
        threads(manifest)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::ablate::Direction;
    use crate::common::pipeline::StepRecord;
    use cutlab_analysis::elo::Verdict;

    /// One match at 1,000 nodes stopped after 800 games in 400 s on 2 threads: 1 core-second a
    /// game; one resumed from 600 games played its last 200 in 100 s, the same; one played
    /// wholly elsewhere counts nothing: 1 core-second over 1,000 games. Another at 1,000 nodes has 500 games (looks 800, 1,600): 300 to 1,100 games left,
    /// 150 to 550 s on 2 threads; a match to play at 4,000 nodes costs 4 core-seconds a game
    /// scaled by nodes, 800 to 1,600 games, 1,600 to 3,200 s.
    #[test]
    fn the_budget_is_measured_from_the_steps_and_scaled_by_nodes() {
        let row = |method: &str, nodes: u64, games: usize, status: Status| AblationRow {
            direction: Direction::Without,
            method: method.into(),
            effort_nodes: nodes,
            games,
            status,
            ..AblationRow::default()
        };
        let mut manifest = Manifest {
            nodes: vec![1000, 4000],
            looks: vec![800, 1600],
            ..Manifest::default()
        };
        manifest.header.threads = 2;
        let step = |name: &str, seconds: f64, rows_before: Option<usize>| StepRecord {
            seconds,
            command: "cutlab match --concurrency 2 --nodes 1000".into(),
            rows_before,
            ..StepRecord::finished(name)
        };
        manifest.header.steps = vec![
            step("match-1000-without-rfp", 400.0, None),
            step("match-1000-without-see", 100.0, Some(600)),
            step("match-1000-without-iir", 5.0, Some(800)),
        ];
        let rows = [
            row("rfp", 1000, 800, Status::Stopped(Verdict::Decided)),
            row("see", 1000, 800, Status::Stopped(Verdict::Decided)),
            row("iir", 1000, 800, Status::Stopped(Verdict::Decided)),
            row("lmr", 1000, 500, Status::Playing),
            row("rfp", 4000, 0, Status::ToPlay),
        ];
        let md = section(&manifest, &rows).unwrap();
        let hours = |s: f64| s / 3600.0;
        assert!(md.contains("1.00 (over 1000 games)"), "{md}");
        assert!(
            md.contains(&format!("{:.1} to {:.1}", hours(150.0), hours(550.0))),
            "{md}"
        );
        assert!(md.contains("4.00 (scaled by nodes)"), "{md}");
        let total = (hours(150.0 + 1600.0), hours(550.0 + 3200.0));
        assert!(
            md.contains(&format!(
                "{:.1} to {:.1} hours on 2 threads in all",
                total.0, total.1
            )),
            "{md}"
        );
        let none = [row("rfp", 1000, 0, Status::ToPlay)];
        assert!(section(&manifest, &none).is_none());
    }

    /// A row of a part read from a file is the match step named by the file's stem, as the
    /// plan names it: its cost is measured.
    #[test]
    fn a_row_of_a_network_file_is_its_step() {
        let row = AblationRow {
            direction: Direction::Without,
            method: "nnue@search/nets/embedded.nnue".into(),
            effort_nodes: 80000,
            ..AblationRow::default()
        };
        assert_eq!(Match::from(&row).step, "match-80000-without-nnue-embedded");
    }

    /// A run over a stack of two methods and the network plays one match at 1,000 nodes, 800
    /// games in 400 s on 2 threads (1 core-second a game). A whole rung over that stack is
    /// both methods left out, the nine seeds' methods added and a doubling: 12 matches, 9,600
    /// to 19,200 games under looks 800 and 1,600, 4,800 to 9,600 s on 2 threads; at 4,000
    /// nodes four times that. A run that plays a whole rung at an effort says nothing of it.
    #[test]
    fn a_partial_run_prices_a_whole_rung_at_its_measured_cost() {
        let mut manifest = Manifest {
            stack: "null-move-modern+lmr+nnue".into(),
            nodes: vec![1000],
            looks: vec![800, 1600],
            ..Manifest::default()
        };
        manifest.header.threads = 2;
        manifest.header.steps = vec![StepRecord {
            seconds: 400.0,
            command: "cutlab match --concurrency 2 --nodes 1000".into(),
            ..StepRecord::finished("match-1000-without-lmr")
        }];
        let row = |method: &str| AblationRow {
            direction: Direction::Without,
            method: method.into(),
            effort_nodes: 1000,
            games: 800,
            status: Status::Stopped(Verdict::Decided),
            ..AblationRow::default()
        };
        let md = section(&manifest, &[row("lmr")]).unwrap();
        let hours = |s: f64| s / 3600.0;
        let expected = format!(
            "A whole rung of the ladder at 1000 nodes (2 methods left out, 9 added, a \
             doubling: 12 matches, 9600 to 19200 games) takes {:.1} to {:.1} hours on 2 \
             threads at the cost of a game measured here; at 4000 nodes, the cost in \
             proportion to the nodes, {:.1} to {:.1}.",
            hours(4800.0),
            hours(9600.0),
            hours(4.0 * 4800.0),
            hours(4.0 * 9600.0)
        );
        assert!(md.contains(&expected), "{md}");
        let whole: Vec<AblationRow> = std::iter::once(row("lmr"))
            .chain((1..12).map(|i| row(&format!("m{i}"))))
            .collect();
        let md = section(&manifest, &whole).unwrap();
        assert!(!md.contains("A whole rung"), "{md}");
    }

    /// A resumed run's two planned matches at 1,000 nodes (looks 800, 1,600): one finished,
    /// its 800 games in 4,000 s on 2 threads (10 core-seconds a game), one whose CSV holds 300
    /// games, 500 to 1,300 games left: 2,500 to 6,500 s on 2 threads. A step that is not a match
    /// is no match.
    #[test]
    fn a_resumed_run_prints_what_is_left_at_its_measured_cost() {
        let dir = std::env::temp_dir().join(format!("cutlab-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = |name: &str, games: usize| {
            let path = dir.join(name);
            let rows: String = (0..games).map(|g| format!("{g},1\n")).collect();
            std::fs::write(&path, format!("game,score\n{rows}")).unwrap();
            path.display().to_string()
        };
        let step = |name: &str, out: &str| {
            Step::new(
                name,
                &[
                    "match",
                    "--nodes",
                    "1000",
                    "--concurrency",
                    "2",
                    "--out",
                    out,
                ],
            )
        };
        let done = StepRecord {
            seconds: 4000.0,
            command: "cutlab match --concurrency 2 --nodes 1000".into(),
            ..StepRecord::finished("match-1000-without-rfp")
        };
        let planned = [
            step("match-1000-without-rfp", &csv("rfp.csv", 800)),
            step("match-1000-without-lmr", &csv("lmr.csv", 300)),
            Step::new("size-stack", &["size", "--depth", "8"]),
        ];
        let matches: Vec<Match> = planned
            .iter()
            .filter_map(|s| Match::planned(s, std::slice::from_ref(&done)))
            .collect();
        assert_eq!(matches.len(), 2);
        assert!(matches[0].stopped && !matches[1].stopped);
        assert_eq!((matches[0].games, matches[1].games), (800, 300));
        let mut manifest = Manifest {
            nodes: vec![1000],
            looks: vec![800, 1600],
            ..Manifest::default()
        };
        manifest.header.threads = 2;
        assert!(left(&manifest, &matches).is_none(), "no finished step yet");
        manifest.header.steps = vec![done];
        let line = left(&manifest, &matches).unwrap();
        let hours = |s: f64| s / 3600.0;
        assert!(
            line.starts_with(&format!(
                "1 of 2 matches left to play: {:.1} to {:.1} hours on 2 threads",
                hours(2500.0),
                hours(6500.0)
            )),
            "{line}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
