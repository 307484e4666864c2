//! The matches' budget, measured: what each effort's finished matches cost a game, and what
//! the matches still playing or to play will cost from there, between all of them stopping at
//! their next look and all of them running to their last. The ladder runs for days; its report
//! says, from its own steps, how many.

use cutlab_analysis::markdown::Table;

use super::{Manifest, played::Status, row::AblationRow};

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
fn measured(manifest: &Manifest, rows: &[&AblationRow]) -> Option<(f64, usize)> {
    let (mut core_seconds, mut games) = (0.0, 0);
    for r in rows
        .iter()
        .filter(|r| matches!(r.status, Status::Stopped(_)))
    {
        let step = format!("match-{}-{}-{}", r.effort_nodes, r.direction, r.method);
        if let Some(s) = manifest.header.steps.iter().find(|s| s.name == step) {
            let played = r.games.saturating_sub(s.rows_before.unwrap_or(0));
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
            .find(|s| s.name.starts_with("match-"))
            .map_or(1, |s| concurrency(&s.command, 1) as usize),
        n => n,
    }
}

/// The games left to the unstopped matches of `rows` under `looks`: each to its next look at
/// least, to its last at most.
fn games_left(looks: &[u64], rows: &[&AblationRow]) -> (u64, u64) {
    let (first, last) = (looks[0], looks[looks.len() - 1]);
    let (mut low, mut high) = (0_u64, 0_u64);
    for r in rows
        .iter()
        .filter(|r| !matches!(r.status, Status::Stopped(_)))
    {
        let games = r.games as u64;
        let next = looks.iter().copied().find(|&g| g > games).unwrap_or(last);
        low += next.max(first).saturating_sub(games);
        high += last.saturating_sub(games);
    }
    (low, high)
}

/// The budget section: one row per effort (matches stopped of planned, games played,
/// core-seconds a game, and the hours left on the run's threads), a measured cost carried to
/// an effort without one in proportion to its nodes. `None` before any match has finished.
pub fn section(manifest: &Manifest, rows: &[AblationRow]) -> Option<String> {
    if manifest.looks.is_empty() {
        return None;
    }
    let by_effort: Vec<(u64, Vec<&AblationRow>)> = manifest
        .nodes
        .iter()
        .map(|&n| (n, rows.iter().filter(|r| r.effort_nodes == n).collect()))
        .collect();
    let measured: Vec<Option<(f64, usize)>> = by_effort
        .iter()
        .map(|(_, r)| measured(manifest, r))
        .collect();
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
    if measured.iter().all(Option::is_none) {
        return None;
    }
    let threads = threads(manifest);
    let mut t = Table::new(&[
        ">nodes a move",
        ">matches stopped",
        ">games played",
        ">core-seconds a game",
        &format!(">hours left on {threads} threads"),
    ]);
    let (mut low_total, mut high_total) = (0.0, 0.0);
    for ((n, rows), m) in by_effort.iter().zip(&measured) {
        let stopped = rows
            .iter()
            .filter(|r| matches!(r.status, Status::Stopped(_)))
            .count();
        let played: usize = rows.iter().map(|r| r.games).sum();
        let per_game = m.map(|(s, _)| s).or_else(|| scaled(*n));
        let (low, high) = games_left(&manifest.looks, rows);
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let hours = |games: u64| per_game.map(|s| games as f64 * s / threads as f64 / 3600.0);
        let (lo, hi) = (hours(low), hours(high));
        low_total += lo.unwrap_or(0.0);
        high_total += hi.unwrap_or(0.0);
        t.row(vec![
            n.to_string(),
            format!("{stopped} of {}", rows.len()),
            played.to_string(),
            match (m, per_game) {
                (Some((s, games)), _) => format!("{s:.2} (over {games} games)"),
                (None, Some(s)) => format!("{s:.2} (scaled by nodes)"),
                (None, None) => "-".to_string(),
            },
            match (lo, hi) {
                (Some(lo), Some(hi)) => format!("{lo:.1} to {hi:.1}"),
                _ => "-".to_string(),
            },
        ]);
    }
    Some(format!(
        "\n## The matches' budget\n\nMeasured from this run's own steps: a finished match's \
         wall time on its threads over the games it played in that time (a resumed step's \
         last run and its games only; a step recorded before its resumed games were counted \
         takes all its games, so its cost can read low); an effort without a finished match \
         takes the nearest measured one's cost in proportion to the nodes a move. The hours \
         left run from every unstopped match stopping at its next look to every one running \
         to its last: {low_total:.1} to {high_total:.1} hours on {threads} threads in all.\n\n\
         {}\n",
        t.render()
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
            row("lmr", 1000, 500, Status::Running),
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
}
