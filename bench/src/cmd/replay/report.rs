//! The replay report: each row beside its replay, the ablation's size at its stop, the size
//! its report adjusted for that stop, and the replay's, as a Markdown table, a tidy CSV
//! (`replays.csv`, docs/csv.md) and a forest plot; then how far the stops inflated the sizes,
//! on average over the rows, and whether the adjustment took that out.

use cutlab_analysis::{
    elo::{Looks, MatchStats, Verdict},
    markdown::{Table, signed_ci},
    plot::{self, Axis},
    rows::{GameRow, read_games_if_stored},
    stats::{Estimate, mean_ci, z_apart, z_quantile},
    tables::MatchSummary,
};
use serde::Serialize;

use super::{
    Manifest, Rows, SourceRow,
    trend::{self, ReplayElo},
};
use crate::common::pipeline::{Layout, is_finished, write_report};

/// A replayed row: the ablation's statement and, once its replay has played, the replay's.
struct Replayed<'a> {
    source: &'a SourceRow,
    /// The ablation's Elo with the standard error its rule's interval implies.
    published: Option<(f64, f64)>,
    /// The replay's games so far and, once it has finished, its summary.
    games: usize,
    summary: Option<MatchSummary>,
}

/// What the replay says of its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Decided in the same direction.
    Confirmed,
    /// Not decided.
    NotConfirmed,
    /// Decided in the other direction.
    Reversed,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Outcome::Confirmed => "confirmed",
            Outcome::NotConfirmed => "not confirmed",
            Outcome::Reversed => "reversed",
        }
    }
}

impl Replayed<'_> {
    /// The replay's Elo with its 95% interval.
    fn elo(&self) -> Option<Estimate> {
        self.summary.as_ref().and_then(|s| s.stats.elo_estimate())
    }

    fn stats(&self) -> Option<&MatchStats> {
        self.summary.as_ref().map(|s| &s.stats)
    }

    /// Confirmed, not or reversed, against the ablation's direction (a rout's by its verdict's
    /// sign alone is not kept in `ablate.csv`: none for it).
    fn outcome(&self) -> Option<Outcome> {
        let (published, _) = self.published?;
        let stats = self.stats()?;
        Some(match stats.sign() {
            None => Outcome::NotConfirmed,
            Some(up) if up == (published > 0.0) => Outcome::Confirmed,
            Some(_) => Outcome::Reversed,
        })
    }

    /// The replay's distance from the ablation's size in standard errors of their difference.
    fn z(&self) -> Option<f64> {
        let replay = self.stats()?;
        z_apart(replay.elo_with_se(), self.published?)
    }
}

/// The CSV's columns.
#[derive(Serialize)]
struct CsvRow<'a> {
    direction: &'a str,
    method: &'a str,
    effort_nodes: u64,
    source_games: u64,
    source_elo: Option<f64>,
    source_elo_low: Option<f64>,
    source_elo_high: Option<f64>,
    source_elo_adjusted: Option<f64>,
    replay_games: usize,
    replay_elo: Option<f64>,
    replay_elo_low: Option<f64>,
    replay_elo_high: Option<f64>,
    replay_nelo: Option<f64>,
    replay_nelo_low: Option<f64>,
    replay_nelo_high: Option<f64>,
    replay_verdict: &'a str,
    outcome: Option<&'a str>,
    z_difference: Option<f64>,
}

fn read<'a>(
    layout: &Layout,
    manifest: &'a Manifest,
    confidence: f64,
) -> Result<Vec<Replayed<'a>>, String> {
    manifest
        .replayed
        .iter()
        .map(|source| {
            let games: Vec<GameRow> = read_games_if_stored(&layout.file(&source.games_file()))?;
            let finished = is_finished(&manifest.header.steps, &source.step());
            let published = source
                .elo
                .map(|e| (e.value, (e.high - e.low) / 2.0 / z_quantile(confidence)));
            Ok(Replayed {
                source,
                published,
                games: games.len(),
                summary: if finished {
                    MatchSummary::of(&games)
                } else {
                    None
                },
            })
        })
        .collect()
}

fn table(rows: &[Replayed], confidence: &str, bound: f64) -> Table {
    let mut t = Table::new(&[
        "comparison",
        "nodes",
        &format!("ablation: games, Elo [{confidence}]"),
        "adjusted",
        "replay: games",
        "Elo [95%]",
        "nElo [95%]",
        "verdict (95%)",
        "z",
        "replay",
    ]);
    for r in rows.iter().filter(|r| r.summary.is_some()) {
        let s = r.source;
        let nelo = r.stats().and_then(MatchStats::nelo_estimate);
        t.row(vec![
            format!("{} `{}`", s.direction, s.method),
            s.effort_nodes.to_string(),
            format!(
                "{}, {}",
                s.games,
                s.elo.map_or_else(|| "rout".into(), |e| signed(Some(e)))
            ),
            s.adjusted_elo
                .map_or_else(|| "-".into(), |a| format!("{a:+.1}")),
            r.games.to_string(),
            signed(r.elo()),
            signed(nelo),
            verdict(r, bound).to_string(),
            r.z().map_or_else(
                || "-".into(),
                // Rounded first, so that -0.04 reads +0.0, not -0.0.
                |z| format!("{:+.1}", (z * 10.0).round() / 10.0 + 0.0),
            ),
            r.outcome().map_or("-", Outcome::name).to_string(),
        ]);
    }
    t
}

/// An estimate with its interval, signed to one decimal (`-` without one).
fn signed(e: Option<Estimate>) -> String {
    signed_ci(e.as_ref(), 1, "")
}

/// The replay's verdict: decided, equivalent within the ablation's bound, or undecided.
fn verdict(r: &Replayed, bound: f64) -> &'static str {
    match (r.elo(), r.stats().and_then(MatchStats::sign)) {
        (Some(e), _) => Verdict::of(e.low, e.high, bound).name(),
        (None, Some(_)) => Verdict::Decided.name(),
        (None, None) => Verdict::Undecided.name(),
    }
}

/// How far the ablation's sizes stand from their replays, in the row's direction (positive:
/// the ablation's larger than the replay), on average over the rows with a 95% t interval;
/// the same for the adjusted sizes where a row has one.
fn inflation(rows: &[Replayed]) -> Option<String> {
    let toward = |r: &Replayed, size: f64| {
        let (published, _) = r.published?;
        Some(published.signum() * (size - r.stats()?.elo))
    };
    let stop: Vec<f64> = rows
        .iter()
        .filter_map(|r| toward(r, r.published?.0))
        .collect();
    let adjusted: Vec<f64> = rows
        .iter()
        .filter_map(|r| toward(r, r.source.adjusted_elo?))
        .collect();
    inflation_of(&stop, &adjusted)
}

/// [`inflation`]'s sentence from the differences of the sizes as the stop read them (`stop`)
/// and as adjusted (`adjusted`, the rows that have one) from their replays'.
fn inflation_of(stop: &[f64], adjusted: &[f64]) -> Option<String> {
    if let [one] = stop {
        // A t interval needs two rows: one row's differences are stated without one.
        let adjusted = adjusted
            .first()
            .map(|a| format!("; its size adjusted for the look that stopped it by {a:+.1}"))
            .unwrap_or_default();
        return Some(format!(
            "The ablation's size exceeds its replay's by {one:+.1} Elo (in the row's direction: \
             positive, the stop read it larger; one row, so no interval){adjusted}.\n"
        ));
    }
    let stop_mean = mean_ci(stop, 0.95)?;
    let mut text = format!(
        "The ablation's size exceeds its replay's by {} Elo on average over these {} rows \
         (in each row's direction: positive, the stop read it larger; 95% t interval)",
        signed(Some(stop_mean)),
        stop.len()
    );
    match (mean_ci(adjusted, 0.95), adjusted) {
        (Some(adjusted_mean), _) => text.push_str(&format!(
            "; its size adjusted for the look that stopped it exceeds the replay's by {} over \
             the {} rows that have one",
            signed(Some(adjusted_mean)),
            adjusted.len()
        )),
        (None, [one]) => text.push_str(&format!(
            "; its size adjusted for the look that stopped it exceeds the replay's by {one:+.1} \
             in the one row that has one"
        )),
        (None, _) => {}
    }
    text.push_str(".\n");
    Some(text)
}

fn counts(rows: &[Replayed]) -> String {
    let count = |o: Outcome| rows.iter().filter(|r| r.outcome() == Some(o)).count();
    let played = rows.iter().filter(|r| r.summary.is_some()).count();
    let mut text = format!(
        "Of the {played} rows replayed, {} {} confirmed (decided the same way at 95%), {} not \
         confirmed and {} reversed",
        count(Outcome::Confirmed),
        if count(Outcome::Confirmed) == 1 {
            "is"
        } else {
            "are"
        },
        count(Outcome::NotConfirmed),
        count(Outcome::Reversed),
    );
    let routs = rows
        .iter()
        .filter(|r| r.summary.is_some() && r.published.is_none())
        .count();
    if routs > 0 {
        text.push_str(&format!(
            " ({routs} rout{} of the ablation, without a finite interval, not counted)",
            if routs == 1 { "" } else { "s" }
        ));
    }
    text.push_str(". ");
    text
}

fn write_csv(path: &std::path::Path, rows: &[Replayed], bound: f64) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut csv = csv::Writer::from_path(path).map_err(|e| err(&e))?;
    for r in rows.iter().filter(|r| r.summary.is_some()) {
        let s = r.source;
        let (elo, nelo) = (r.elo(), r.stats().and_then(MatchStats::nelo_estimate));
        csv.serialize(CsvRow {
            direction: s.direction.name(),
            method: &s.method,
            effort_nodes: s.effort_nodes,
            source_games: s.games,
            source_elo: s.elo.map(|e| e.value),
            source_elo_low: s.elo.map(|e| e.low),
            source_elo_high: s.elo.map(|e| e.high),
            source_elo_adjusted: s.adjusted_elo,
            replay_games: r.games,
            replay_elo: elo.map(|e| e.value),
            replay_elo_low: elo.map(|e| e.low),
            replay_elo_high: elo.map(|e| e.high),
            replay_nelo: nelo.map(|e| e.value),
            replay_nelo_low: nelo.map(|e| e.low),
            replay_nelo_high: nelo.map(|e| e.high),
            replay_verdict: verdict(r, bound),
            outcome: r.outcome().map(Outcome::name),
            z_difference: r.z(),
        })
        .map_err(|e| err(&e))?;
    }
    csv.flush().map_err(|e| err(&e))
}

fn introduction(manifest: &Manifest, confidence: &str) -> String {
    format!(
        "# Replays of an ablation's early-decided rows\n\n\
         Every row of the ablation `{of}` that its stopping rule decided {which} (looks at {looks} \
         games, seed {source_seed}), its match played again by `cutlab replay` with seed {seed} \
         at a fixed {games} games{openings}: the same engines, nodes per move and adjudication \
         (the ablation's own match command, its rule, seed and files changed). A match stopped \
         early because its interval excluded 0 reads larger than its true worth; a replay at a \
         fixed size does not, so the two side by side say how much the stop inflated the row. \
         *ablation* is the row as its report states it ({confidence} interval of its rule), \
         *adjusted* its size adjusted for the look that stopped it (conditional mean-adjusted, \
         Fan, DeMets and Lan 2004), *z* the replay's distance from the ablation's size in \
         standard errors of their difference; *replay* says whether the replay is decided the \
         same way (confirmed), not decided, or decided the other way (reversed).\n",
        of = manifest.of,
        which = match manifest.rows {
            Rows::FirstLook => "at its first look",
            Rows::Early => "before its last look",
        },
        looks = manifest
            .source_looks
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        source_seed = manifest.source_seed,
        seed = manifest.header.seed,
        games = manifest.games,
        openings = manifest
            .openings
            .as_ref()
            .map_or_else(String::new, |o| format!(" from the openings of `{o}`")),
    )
}

/// Writes `report.md`, `replays.csv` and `replays.svg` from the run's files; returns the
/// summary for the terminal.
///
/// # Errors
/// Unreadable games, or a file that cannot be written.
pub fn write(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    let looks = Looks::new(manifest.source_looks.clone(), manifest.source_stop_within)?;
    let confidence = looks.confidence();
    let label = cutlab_analysis::markdown::level(confidence);
    let bound = manifest.source_stop_within;
    let rows = read(layout, manifest, confidence)?;
    let mut md = introduction(manifest, &label);
    let rendered = table(&rows, &label, bound).render();
    let played = rows.iter().filter(|r| r.summary.is_some()).count();
    md.push_str(&format!("\n## The rows and their replays\n\n{rendered}"));
    if played < rows.len() {
        md.push_str(&format!(
            "\n**In progress: {played} of {} replays played.**\n",
            rows.len()
        ));
    }
    let mut summary = rendered.clone();
    if played > 0 {
        let labels: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.source.direction, r.source.method, r.source.effort_nodes
                )
            })
            .collect();
        let ablation: Vec<Option<Estimate>> = rows.iter().map(|r| r.source.elo).collect();
        let replay: Vec<Option<Estimate>> = rows.iter().map(Replayed::elo).collect();
        plot::forest_series(
            &layout.file("replays.svg"),
            (
                "The ablation's rows and their replays",
                "Elo against the reference",
            ),
            Axis::ELO,
            &labels,
            &[
                (&format!("ablation ({label})"), &ablation),
                ("replay (95%)", &replay),
            ],
        )?;
        let reading = format!("{}{}", counts(&rows), inflation(&rows).unwrap_or_default());
        md.push_str(&format!(
            "\n![The ablation's rows and their replays](replays.svg)\n\n{reading}"
        ));
        summary.push_str(&format!("\n{reading}"));
        let replays: Vec<ReplayElo> = rows
            .iter()
            // A rout's replay has no finite interval: its row keeps the ablation's size.
            .filter(|r| r.elo().is_some())
            .filter_map(|r| {
                Some(ReplayElo {
                    row: r.source,
                    elo_se: r.stats()?.elo_with_se(),
                })
            })
            .collect();
        md.push_str(&trend::section(manifest, &replays, (confidence, bound)).unwrap_or_default());
    }
    write_csv(&layout.file("replays.csv"), &rows, bound)?;
    write_report(layout, md, &manifest.header, "")?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row has no interval; two rows have a t interval (t(0.975, 1) = 12.706: differences
    /// 10 and 20 give 15 ± 63.5); a lone adjusted size among them is stated by itself.
    #[test]
    fn the_sizes_above_the_replays_have_an_interval_from_two_rows() {
        let one = inflation_of(&[12.0], &[4.0]).unwrap();
        assert!(
            one.contains("by +12.0 Elo") && one.contains("no interval") && one.contains("by +4.0"),
            "{one}"
        );
        let two = inflation_of(&[10.0, 20.0], &[3.0]).unwrap();
        assert!(two.contains("+15.0 [-48.5, +78.5]"), "{two}");
        assert!(two.contains("by +3.0 in the one row that has one"), "{two}");
        let both = inflation_of(&[10.0, 20.0], &[0.0, 2.0]).unwrap();
        assert!(both.contains("over the 2 rows that have one"), "{both}");
        assert!(inflation_of(&[], &[]).is_none());
    }
}
