//! The trends with the replays: each replayed comparison's change per doubling of the nodes
//! and its reading ([`ablate::stated_reading`], as the ablation's report reads it) from its
//! sizes as the ablation stated them, and again with each replayed row's replay in place of
//! the size its stop inflated. A trend that rests on a row decided at its first look is the
//! likeliest to shrink; this says whether it does.

use cutlab_analysis::{
    elo::Verdict,
    markdown::{Table, signed_ci},
    stats::{Estimate, z_quantile},
};

use super::{Manifest, SourceRow};
use crate::cmd::ablate;

/// A finished replay: the row it replays, and its Elo with its standard error.
pub struct ReplayElo<'a> {
    pub row: &'a SourceRow,
    pub elo_se: (f64, f64),
}

/// One comparison's stated rows at `efforts`, each replaced by its replay where `replays` has
/// one: a replay's Elo with the interval of its standard error at the ablation's
/// `confidence` (so both lines weigh their points alike), its verdict that interval's against
/// `bound`.
fn stated(
    first: &SourceRow,
    efforts: &[u64],
    (manifest, replays): (&Manifest, &[ReplayElo]),
    (confidence, bound): (f64, f64),
) -> Vec<Option<(Verdict, Option<Estimate>)>> {
    efforts
        .iter()
        .map(|&n| {
            let replay = replays
                .iter()
                .find(|r| r.row.same_comparison(first) && r.row.effort_nodes == n);
            if let Some(ReplayElo {
                elo_se: (elo, se), ..
            }) = replay
            {
                let e = Estimate::around(*elo, se * z_quantile(confidence));
                return Some((Verdict::of(e.low, e.high, bound), Some(e)));
            }
            let row = manifest
                .compared
                .iter()
                .find(|r| r.same_comparison(first) && r.effort_nodes == n)?;
            Some((Verdict::named(&row.verdict)?, row.elo))
        })
        .collect()
}

/// The efforts the ablation plays `first`'s comparison at, from the first: all, or the first
/// few where a higher one plays only some (`ablate --only`). Two or more make a line.
fn played_efforts<'m>(manifest: &'m Manifest, first: &SourceRow) -> &'m [u64] {
    let all = &manifest.source_efforts;
    let name = ablate::comparison::name(first.direction.name(), &first.method);
    let played = all
        .iter()
        .enumerate()
        .take_while(|&(k, &n)| ablate::plays(first.direction, &name, (k, n), &manifest.source_only))
        .count();
    &all[..played]
}

/// The table's row of `first`'s comparison: where it was replayed, its change per doubling and
/// reading as stated and with the `replays`; and the change of reading, when there is one.
fn trend_row(
    first: &SourceRow,
    efforts: &[u64],
    (manifest, replays): (&Manifest, &[ReplayElo]),
    (confidence, bound): (f64, f64),
) -> (Vec<String>, Option<String>) {
    let at: Vec<String> = replays
        .iter()
        .filter(|o| o.row.same_comparison(first))
        .map(|o| o.row.effort_nodes.to_string())
        .collect();
    let read = |replays: &[ReplayElo]| {
        let rows = stated(first, efforts, (manifest, replays), (confidence, bound));
        ablate::stated_reading(first.direction, efforts, &rows, (confidence, bound))
    };
    let ((before, before_text), (after, after_text)) = (read(&[]), read(replays));
    let label = first.direction.label(&first.method);
    let change =
        (before_text != after_text).then(|| format!("{label}, {before_text} → {after_text}"));
    let cells = vec![
        label,
        at.join(", "),
        signed_ci(before.as_ref(), 1, ""),
        before_text,
        signed_ci(after.as_ref(), 1, ""),
        after_text,
    ];
    (cells, change)
}

/// The section: a row for each comparison with a finished replay that the ablation plays at two
/// efforts or more (all, or the first few where a higher one plays only some), its change per
/// doubling and reading as the ablation stated its sizes (at the looks' `confidence`) and with
/// the `replays` in their place; then how many readings the replays change. `None` without such
/// a comparison.
pub fn section(
    manifest: &Manifest,
    replays: &[ReplayElo],
    (confidence, bound): (f64, f64),
) -> Option<String> {
    let all = &manifest.source_efforts;
    if all.len() < 2 {
        return None;
    }
    let percent = cutlab_analysis::markdown::level(confidence);
    let mut table = Table::new(&[
        "comparison",
        "replayed at",
        &format!(">per doubling, as stated [{percent}]"),
        "reading",
        &format!(">per doubling, with the replays [{percent}]"),
        "reading with the replays",
    ]);
    let mut changed = Vec::new();
    // The first replayed row of each comparison read so far.
    let mut seen: Vec<&SourceRow> = Vec::new();
    for r in replays {
        let first = r.row;
        let efforts = played_efforts(manifest, first);
        if efforts.len() < 2 || seen.iter().any(|s| s.same_comparison(first)) {
            continue;
        }
        seen.push(first);
        let (cells, change) = trend_row(first, efforts, (manifest, replays), (confidence, bound));
        table.row(cells);
        changed.extend(change);
    }
    let compared = seen.len();
    if compared == 0 {
        return None;
    }
    let verdict = verdict(&changed, compared);
    Some(format!(
        "\n## The trends with the replays\n\nEach replayed comparison's worth against effort, \
         as the ablation's report reads it (the weighted line through its worths against log2 \
         of the nodes, *stays* within ±{bound}, *so far* while a later match plays), from its \
         sizes as the ablation stated them, and again with each replayed row's replay in its \
         place: the replay's Elo with its standard error at the ablation's {percent} \
         confidence, so both lines weigh their points alike. The other efforts keep the \
         ablation's sizes as they stood when this replay was last planned (`cutlab replay \
         --resume` reads them again).{books}\n\n{}\n{verdict}\n",
        table.render(),
        books = manifest
            .openings
            .as_ref()
            .map_or_else(String::new, |o| format!(
                " The replays play other openings (`{o}`) than the ablation's matches: where a \
             method's worth differs between the books, a line with the replays mixes the two."
            )),
    ))
}

/// Whether the `compared` readings change with the replays, naming each that does.
fn verdict(changed: &[String], compared: usize) -> String {
    match (changed.len(), compared) {
        (0, 1) => "The reading does not change with the replays.".to_string(),
        (0, _) => format!("None of the {compared} readings changes with the replays."),
        (_, 1) => format!("The reading changes with the replays: {}.", changed[0]),
        (n, _) => format!(
            "{n} of the {compared} readings change with the replays: {}.",
            changed.join("; ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::ablate::Direction;

    /// The text with each run of spaces one space (a table's padding gone).
    fn squeezed(md: &str) -> String {
        md.split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn row(nodes: u64, elo: f64, half: f64, verdict: &str) -> SourceRow {
        SourceRow {
            direction: Direction::Without,
            method: "singular".into(),
            effort_nodes: nodes,
            games: 800,
            elo: Some(Estimate::around(elo, half)),
            verdict: verdict.into(),
            ..SourceRow::default()
        }
    }

    /// Worths +2 ± 10 and +34 ± 20 (the method left out reads -2 and -34) at 5,000 and
    /// 80,000 nodes, four doublings apart: (34 - 2) / 4 = +8.0 a doubling, ± hypot(10, 20) /
    /// 4 = 5.59, growing. The replay at 80,000 reads -4 with a standard error of 20 /
    /// z(0.975): at 97.5% ± 20, so the line is (4 - 2) / 4 = +0.5 ± 5.59, not shown to change
    /// (its change across the four doublings reaches past ±15). Played from other openings,
    /// the section says so.
    #[test]
    fn a_replay_in_place_of_its_first_look_changes_the_trend() {
        let manifest = Manifest {
            source_efforts: vec![5000, 80000],
            openings: Some("held-out.epd".into()),
            compared: vec![
                row(5000, -2.0, 10.0, "undecided"),
                row(80000, -34.0, 20.0, "decided"),
            ],
            ..Manifest::default()
        };
        let replayed = row(80000, -34.0, 20.0, "decided");
        let confidence = 0.975;
        let replays = [ReplayElo {
            row: &replayed,
            elo_se: (-4.0, 20.0 / z_quantile(confidence)),
        }];
        let md = squeezed(&section(&manifest, &replays, (confidence, 15.0)).unwrap());
        let half = 10f64.hypot(20.0) / 4.0;
        let before = format!("+8.0 [{:+.1}, {:+.1}]", 8.0 - half, 8.0 + half);
        let after = format!("+0.5 [{:+.1}, {:+.1}]", 0.5 - half, 0.5 + half);
        assert!(
            md.contains(&format!(
                "| without singular | 80000 | {before} | grows with effort | {after} | not \
                 shown to change |"
            )),
            "{md}"
        );
        assert!(
            md.contains(
                "The reading changes with the replays: without singular, grows with effort → \
                 not shown to change."
            ),
            "{md}"
        );
        assert!(
            md.contains("The replays play other openings (`held-out.epd`)"),
            "{md}"
        );
    }

    /// A comparison the ablation plays at its first effort alone has no trend, and one whose
    /// later effort still plays reads *playing* either way.
    #[test]
    fn only_comparisons_played_at_every_effort_have_a_trend() {
        let read = |stated: &SourceRow, elo: f64| {
            let manifest = Manifest {
                source_efforts: vec![5000, 20000],
                compared: vec![stated.clone()],
                ..Manifest::default()
            };
            let replays = [ReplayElo {
                row: stated,
                elo_se: (elo, 5.0),
            }];
            section(&manifest, &replays, (0.975, 15.0))
        };
        let mut with = row(5000, 30.0, 10.0, "decided");
        with.direction = Direction::With;
        assert!(read(&with, 25.0).is_none());
        let md = squeezed(&read(&row(5000, -30.0, 10.0, "decided"), -25.0).unwrap());
        assert!(
            md.contains("| without singular | 5000 | - | playing | - | playing |"),
            "{md}"
        );
    }

    /// An effort that does not play a comparison (`ablate --only`) leaves its line to the
    /// efforts below: with none but the first below, no line; with two, the line through
    /// them, not *playing*. Stated +30 ± 10 Elo at 5,000 and +50 ± 10 at 20,000 (two
    /// doublings) for a method left out, worths -30 and -50: -10.0 ± hypot(10, 10) / 2 = ±7.1
    /// a doubling.
    #[test]
    fn an_effort_that_does_not_play_a_comparison_leaves_its_line_to_those_below() {
        let only = |nodes: u64| ablate::Only {
            nodes,
            comparisons: vec!["without-lmr".into()],
        };
        let (low, high) = (
            row(5000, 30.0, 10.0, "decided"),
            row(20000, 50.0, 10.0, "decided"),
        );
        let manifest = |efforts: Vec<u64>, only: Vec<ablate::Only>| Manifest {
            source_efforts: efforts,
            source_only: only,
            compared: vec![low.clone(), high.clone()],
            ..Manifest::default()
        };
        let replays = [ReplayElo {
            row: &low,
            elo_se: (28.0, 5.0),
        }];
        let short = manifest(vec![5000, 20000], vec![only(20000)]);
        assert!(section(&short, &replays, (0.975, 15.0)).is_none());
        let ladder = manifest(vec![5000, 20000, 80000], vec![only(80000)]);
        let md = squeezed(&section(&ladder, &replays, (0.975, 15.0)).unwrap());
        let half = 10.0_f64.hypot(10.0) / 2.0;
        let stated = format!(
            "-10.0 [{:+.1}, {:+.1}] | shrinks with effort |",
            -10.0 - half,
            -10.0 + half
        );
        assert!(
            md.contains(&format!("| without singular | 5000 | {stated}")),
            "{md}"
        );
    }
}
