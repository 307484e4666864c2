//! Each method's worth against effort: its worth at every effort of the run, each from its
//! own match, the line through them against log2 of the nodes per move ([`trend`]: the
//! change per doubling with its interval), whether that says it grows, shrinks or stays as
//! the search deepens, one panel a comparison, and what others published beside it.

use std::path::Path;

use cutlab_analysis::{
    elo::Verdict,
    markdown::{Table, signed_ci},
    plot,
    stats::{Estimate, Trend, trend},
};

use super::{Direction, Layout, notes, played::Status, row::AblationRow};

/// The cell of an effort that does not play a comparison (`ablate --only`).
pub const NOT_PLAYED: &str = "not played";

/// What a method is worth to the search its row measures, in Elo: leaving it out costs what
/// it is worth, adding it gains it (and a doubling of the nodes gains what it is worth).
pub fn worth(direction: Direction, delta_elo: &Estimate) -> Estimate {
    if direction == Direction::Without {
        Estimate {
            value: -delta_elo.value,
            low: -delta_elo.high,
            high: -delta_elo.low,
        }
    } else {
        *delta_elo
    }
}

/// A row's worth once its match has stopped by its rule with an interval, unless the method
/// did not act there ([`AblationRow::measured_elo`]).
fn worth_of(row: &AblationRow) -> Option<Estimate> {
    row.measured_elo().map(|e| worth(row.direction, &e))
}

/// What the worths of one comparison at the run's efforts say about its trend.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reading {
    /// The slope's interval lies above 0.
    Grows(Trend),
    /// The slope's interval lies below 0.
    Shrinks(Trend),
    /// The change the line gives across the efforts it rests on lies wholly inside ± the
    /// matches' equivalence bound: the worth stays.
    Stays(Trend),
    /// The slope's interval holds 0, and the change across the efforts reaches past the bound.
    NotShown(Trend),
    /// A straight line does not fit the worths (its lack of fit at 5%,
    /// [`cutlab_analysis::predict::lack_of_fit`]): the slope summarises a curve, and the worth
    /// changes with effort where the change from some effort to the next excludes 0.
    Curved {
        /// The line, a summary.
        trend: Trend,
        /// Whether some step's change excludes 0.
        steps_decided: bool,
    },
    /// A match has no game yet.
    ToPlay,
    /// A match has not stopped by its rule.
    Playing,
    /// Every match has stopped, but fewer than two with an interval (a rout has one bound).
    NoInterval,
    /// Every match has stopped, fewer than two with a worth, and the method did not act in
    /// some ([`cutlab_analysis::elo::Verdict::Inactive`]).
    Inactive,
}

impl Reading {
    /// The reading of one comparison's rows at the efforts `xs` and how many of them, from the
    /// first, it rests on: the line through the worths of every match stopped with one (the
    /// efforts where the method did not act left out), once the matches of the first two
    /// efforts or more have stopped; fewer than all while a later one plays (*so far*).
    /// `bound` is the matches' equivalence bound, Elo.
    fn of(rows: &[&AblationRow], xs: &[f64], (confidence, bound): (f64, f64)) -> (Reading, usize) {
        let stopped = rows
            .iter()
            .take_while(|r| matches!(r.status, Status::Stopped(_)))
            .count();
        let unstopped = if rows.iter().any(|r| r.status == Status::ToPlay) {
            Reading::ToPlay
        } else {
            Reading::Playing
        };
        let reading = Reading::over(&rows[..stopped], &xs[..stopped], (confidence, bound));
        match reading.trend() {
            // A line needs two efforts, so a trend rests on two stopped or more.
            Some(_) => (reading, stopped),
            _ if stopped == rows.len() => (reading, stopped),
            _ => (unstopped, rows.len()),
        }
    }

    /// The reading of rows whose matches have all stopped: *curved* where a line does not fit
    /// three worths or more (their intervals at `confidence`, as normal estimates); else
    /// *stays* when the slope's interval times the doublings between the first and the last
    /// worth lies inside ±`bound`.
    fn over(rows: &[&AblationRow], xs: &[f64], (confidence, bound): (f64, f64)) -> Reading {
        let points: Vec<(f64, Estimate)> = rows
            .iter()
            .zip(xs)
            .filter_map(|(r, &x)| worth_of(r).map(|w| (x, w)))
            .collect();
        let measured = rows.iter().filter(|r| !r.inactive()).count();
        let (first, last) = (points.first().map(|p| p.0), points.last().map(|p| p.0));
        let doublings = last.zip(first).map_or(0.0, |(l, f)| l - f);
        let curved = |t: Trend| {
            let (_, _, p) = fit_of(&points, confidence)?;
            (p? < 0.05).then(|| Reading::Curved {
                trend: t,
                steps_decided: points.windows(2).any(|w| {
                    cutlab_analysis::stats::independent_difference(&w[0].1, &w[1].1)
                        .sign()
                        .is_some()
                }),
            })
        };
        match trend(&points) {
            Some(t) if points.len() == measured => match (curved(t), t.slope.sign()) {
                (Some(curve), _) => curve,
                (None, Some(true)) => Reading::Grows(t),
                (None, Some(false)) => Reading::Shrinks(t),
                (None, None) if t.slope.low.abs().max(t.slope.high.abs()) * doublings <= bound => {
                    Reading::Stays(t)
                }
                (None, None) => Reading::NotShown(t),
            },
            _ if measured < rows.len() => Reading::Inactive,
            _ => Reading::NoInterval,
        }
    }

    fn trend(self) -> Option<Trend> {
        match self {
            Reading::Grows(t)
            | Reading::Shrinks(t)
            | Reading::Stays(t)
            | Reading::NotShown(t)
            | Reading::Curved { trend: t, .. } => Some(t),
            _ => None,
        }
    }

    /// How the reading is written, *stays* with the matches' equivalence `bound`.
    fn name(self, bound: f64) -> String {
        match self {
            Reading::Grows(_) => "grows with effort".into(),
            Reading::Shrinks(_) => "shrinks with effort".into(),
            Reading::Stays(_) => format!("stays within ±{bound} with effort"),
            Reading::NotShown(_) => "not shown to change".into(),
            Reading::Curved {
                steps_decided: true,
                ..
            } => "changes with effort, not along a line".into(),
            Reading::Curved { .. } => "not along a line, no step decided".into(),
            Reading::ToPlay => "to play".into(),
            Reading::Playing => "playing".into(),
            Reading::NoInterval => "no interval".into(),
            Reading::Inactive => "inactive".into(),
        }
    }
}

/// Whether a straight line fits worths `(x, worth)` with intervals at `confidence`, as
/// normal estimates ([`cutlab_analysis::predict::lack_of_fit`]: Q, its degrees of freedom, p).
fn fit_of(points: &[(f64, Estimate)], confidence: f64) -> Option<(f64, usize, Option<f64>)> {
    let measured: Vec<cutlab_analysis::predict::Measured> = points
        .iter()
        .map(|(x, w)| cutlab_analysis::predict::Measured::of(*x, w, confidence))
        .collect();
    cutlab_analysis::predict::lack_of_fit(&measured)
}

/// The efforts a reading resting on the first `over` of the run's `efforts` spans, when a
/// later one is still playing ("5000 to 20000 nodes"); `None` over every effort.
fn span(over: usize, efforts: &[u64]) -> Option<String> {
    (over < efforts.len()).then(|| format!("{} to {} nodes", efforts[0], efforts[over - 1]))
}

/// How `reading` is written, resting on the first `over` of the run's `efforts`: *so far*
/// with the efforts it spans when a later one is still playing.
fn reading_text(reading: Reading, over: usize, efforts: &[u64], bound: f64) -> String {
    match span(over, efforts) {
        Some(span) => format!("{} so far ({span})", reading.name(bound)),
        None => reading.name(bound),
    }
}

/// The change per doubling of one comparison's worth and its reading, from its Elo as a
/// report stated it at each of the run's `efforts`: the verdict its match stopped with and its
/// Elo against the reference at the looks' confidence, `None` where the match has not stopped.
/// Read as the section reads its rows (*stays* within `bound`, *so far* over the efforts
/// stopped), so that a replay's sizes put in its first looks' place read alike.
pub fn stated_reading(
    direction: Direction,
    efforts: &[u64],
    stated: &[Option<(Verdict, Option<Estimate>)>],
    (confidence, bound): (f64, f64),
) -> (Option<Estimate>, String) {
    let rows: Vec<AblationRow> = efforts
        .iter()
        .zip(stated)
        .map(|(&effort_nodes, s)| AblationRow {
            direction,
            effort_nodes,
            delta_elo: s.and_then(|(_, elo)| elo),
            status: s.map_or(Status::Playing, |(v, _)| Status::Stopped(v)),
            ..AblationRow::default()
        })
        .collect();
    #[expect(clippy::cast_precision_loss, reason = "node counts")]
    let xs: Vec<f64> = efforts.iter().map(|&n| (n as f64).log2()).collect();
    let (reading, over) = Reading::of(&rows.iter().collect::<Vec<_>>(), &xs, (confidence, bound));
    (
        reading.trend().map(|t| t.slope),
        reading_text(reading, over, efforts, bound),
    )
}

/// The table's cells of one comparison, its rows `at` the first of the run's `efforts` read as
/// `reading` (written `text`): its worth at each (*not played* at an effort above them), its
/// change per doubling, its reading and the figures others published.
fn cells(at: &[&AblationRow], efforts: usize, (reading, text): (Reading, String)) -> Vec<String> {
    let first = at[0];
    let mut cells = vec![first.direction.to_string(), first.method.clone()];
    cells.extend(at.iter().map(|r| match (worth_of(r), r.elo_rout) {
        _ if r.inactive() => "inactive".to_string(),
        (Some(w), _) => signed_ci(Some(&w), 0, ""),
        (None, Some(_)) if matches!(r.status, Status::Stopped(_)) => "a rout".to_string(),
        (None, _) => r.status.name().to_string(),
    }));
    cells.resize(2 + efforts, NOT_PLAYED.to_string());
    let published = |note: fn(&str) -> Option<&'static str>| {
        (first.direction == Direction::Without)
            .then(|| note(&first.method))
            .flatten()
            .unwrap_or("-")
            .to_string()
    };
    cells.extend([
        signed_ci(reading.trend().map(|t| t.slope).as_ref(), 1, ""),
        text,
        published(notes::stockfish),
        published(notes::stockfish_scaling),
        published(notes::ethereal),
    ]);
    cells
}

/// The table of the section: a comparison's direction and method, its worth at each of the
/// `efforts`, its change per doubling, its reading and what others published.
fn header(efforts: &[u64], percent: &str) -> Table {
    let mut columns = vec!["direction".to_string(), "method".to_string()];
    columns.extend(efforts.iter().map(|n| format!(">worth at {n} [{percent}]")));
    columns.extend([
        format!(">per doubling [{percent}]"),
        "reading".to_string(),
        ">Stockfish 15.1".to_string(),
        "Stockfish (scaling)".to_string(),
        ">Ethereal 11.80".to_string(),
    ]);
    Table::new(&columns.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Each comparison played at two of `efforts` or more: its rows, one an effort from the first
/// (a comparison's efforts run from the first without a gap, [`super::comparison::check_only`]),
/// in the order of the first effort's rows.
fn comparisons<'a>(rows: &'a [AblationRow], efforts: &[u64]) -> Vec<Vec<&'a AblationRow>> {
    rows.iter()
        .filter(|r| r.effort_nodes == efforts[0])
        .map(|first| {
            efforts
                .iter()
                .map_while(|&n| {
                    rows.iter().find(|r| {
                        r.effort_nodes == n
                            && r.direction == first.direction
                            && r.method == first.method
                    })
                })
                .collect::<Vec<_>>()
        })
        .filter(|at| at.len() >= 2)
        .collect()
}

/// The section "worth against effort" of an ablation report with several efforts (empty with
/// one): a row per comparison played at every effort, its worth at each, its change per
/// doubling of the nodes (the weighted line through the worths against log2 of the nodes, at
/// the looks' `confidence`) and its reading (*stays* within the matches' equivalence
/// `bound`); the figure `worth-by-effort.svg`, one panel a comparison; a sentence for each
/// trend shown; and how many would read as trends by chance (`chance(k)`, the share of
/// comparisons of one true worth at each of the first k efforts that the stopping rule turns
/// into one, asked only for the spans the readings rest on). A comparison whose later
/// matches still play is read over the efforts stopped, *so far*.
///
/// # Errors
/// The figure cannot be written.
pub fn section(
    layout: &Layout,
    efforts: &[u64],
    rows: &[AblationRow],
    (confidence, bound, chance): (f64, f64, &dyn Fn(usize) -> f64),
) -> Result<String, String> {
    if efforts.len() < 2 {
        return Ok(String::new());
    }
    #[expect(clippy::cast_precision_loss, reason = "node counts")]
    let xs: Vec<f64> = efforts.iter().map(|&n| (n as f64).log2()).collect();
    let percent = cutlab_analysis::markdown::level(confidence);
    let mut table = header(efforts, &percent);
    let (mut panels, mut sentences) = (Vec::new(), Vec::new());
    let (mut stays, mut flat) = (Vec::new(), Vec::new());
    // The number of efforts each slope rests on.
    let mut slopes: Vec<usize> = Vec::new();
    // Whether an effort above a comparison's last does not play it.
    let mut partial = false;
    for at in comparisons(rows, efforts) {
        let first = at[0];
        // The efforts it plays: all, or the first few where a higher one plays only some.
        let played = &efforts[..at.len()];
        partial |= played.len() < efforts.len();
        let (reading, over) = Reading::of(&at, &xs[..at.len()], (confidence, bound));
        let text = reading_text(reading, over, played, bound);
        let name = first.direction.label(&first.method);
        table.row(cells(&at, efforts.len(), (reading, text.clone())));
        if let Some(t) = reading.trend() {
            slopes.push(over);
            let named = match span(over, played) {
                Some(span) => format!("{name} (so far, {span})"),
                None => name.clone(),
            };
            match reading {
                Reading::Stays(_) => stays.push(named),
                Reading::NotShown(_)
                | Reading::Curved {
                    steps_decided: false,
                    ..
                } => flat.push(named),
                Reading::Curved { .. } => sentences.push(format!(
                    "- {name}: {text} (a summary line of {} Elo per doubling; each step's \
                     change is in *Does the line fit?*).",
                    signed_ci(Some(&t.slope), 1, "")
                )),
                _ => sentences.push(format!(
                    "- {name}: {text}, {} Elo per doubling of the nodes.",
                    signed_ci(Some(&t.slope), 1, "")
                )),
            }
        }
        panels.push(plot::TrendPanel {
            title: name,
            points: at
                .iter()
                .zip(&xs)
                .filter_map(|(r, &x)| worth_of(r).map(|w| (x, w)))
                .collect(),
            trend: reading.trend(),
        });
    }
    let figure = "worth-by-effort.svg";
    draw(&layout.file(figure), &panels, (efforts, &xs), &percent)?;
    sentences.extend(grouped_sentences((&stays, &flat), partial, bound));
    let shown = slopes.len() - stays.len() - flat.len();
    Ok(format!(
        "{}\n{}\n![each comparison's worth against log2 of the nodes per move]({figure})\n\n{}\n{}",
        explanation(efforts, &percent, bound, (shown, &slopes), chance),
        table.render(),
        sentences.join("\n"),
        fit_section(rows, efforts, confidence, &xs)
    ))
}

/// Whether each line fits: for every comparison with a worth at three efforts or more, the
/// lack-of-fit test of its weighted line ([`cutlab_analysis::predict::lack_of_fit`]), and
/// where it fails at 5% the change of the worth from each effort to the next with its
/// interval (the two worths' independent difference), which then say more than one slope.
fn fit_section(rows: &[AblationRow], efforts: &[u64], confidence: f64, xs: &[f64]) -> String {
    use cutlab_analysis::stats::independent_difference;
    let percent = cutlab_analysis::markdown::level(confidence);
    let mut table = Table::new(&[
        "comparison",
        ">efforts",
        ">Q (df)",
        ">p",
        &format!("change from each effort to the next [{percent} CI]"),
    ]);
    let (mut tested, mut failed) = (0, 0);
    for at in comparisons(rows, efforts) {
        let worths: Vec<(u64, f64, Estimate)> = at
            .iter()
            .zip(efforts)
            .zip(xs)
            .filter_map(|((r, &n), &x)| worth_of(r).map(|w| (n, x, w)))
            .collect();
        if worths.len() < 3 {
            continue;
        }
        let points: Vec<(f64, Estimate)> = worths.iter().map(|&(_, x, w)| (x, w)).collect();
        let Some((q, df, Some(p))) = fit_of(&points, confidence) else {
            continue;
        };
        tested += 1;
        let steps = if p < 0.05 {
            failed += 1;
            worths
                .windows(2)
                .map(|w| {
                    format!(
                        "{} to {}: {}",
                        w[0].0,
                        w[1].0,
                        signed_ci(Some(&independent_difference(&w[0].2, &w[1].2)), 0, "")
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            "-".to_string()
        };
        let first = at[0];
        table.row(vec![
            first.direction.label(&first.method),
            worths.len().to_string(),
            format!("{q:.1} ({df})"),
            format!("{p:.3}"),
            steps,
        ]);
    }
    if tested == 0 {
        return String::new();
    }
    format!(
        "\n### Does the line fit?\n\nA slope per doubling describes a worth only where a straight \
         line in log2 of the nodes fits its worths within their errors. For each comparison with \
         a worth at three efforts or more, the line's lack of fit: Q, the weighted sum of its \
         squared residuals, against χ² with the efforts less 2 degrees of freedom (p, the chance \
         of a Q as large if the line held; the worths at their {percent} intervals, as normal \
         estimates). The line fails at 5% for {failed} of the {tested}; for those the change \
         from each effort to the next, with its interval, says how the worth moves, and their \
         slope above is a summary of a curve, not a rate.\n\n{}\n",
        table.render()
    )
}

/// The figure: each comparison's worths and line against log2 of the nodes (`xs`), one panel
/// each.
fn draw(
    path: &Path,
    panels: &[plot::TrendPanel],
    (efforts, xs): (&[u64], &[f64]),
    percent: &str,
) -> Result<(), String> {
    let ticks: Vec<(f64, String)> = xs
        .iter()
        .zip(efforts)
        .map(|(&x, n)| (x, n.to_string()))
        .collect();
    let y_label = format!("worth, Elo ({percent})");
    plot::trend_panels(
        path,
        panels,
        &ticks,
        ("nodes per move (log scale)", &y_label),
    )
}

/// The sentences that name the comparisons in a group (`stays` within ±`bound`, `flat`: not
/// shown to change), and the note on efforts that play only some comparisons (`partial`).
fn grouped_sentences(
    (stays, flat): (&[String], &[String]),
    partial: bool,
    bound: f64,
) -> Vec<String> {
    let mut sentences = Vec::new();
    if !stays.is_empty() {
        sentences.push(format!(
            "- Stays within ±{bound} with effort (its change across the efforts lies inside \
             ±{bound} Elo): {}.",
            stays.join(", ")
        ));
    }
    if !flat.is_empty() {
        sentences.push(format!(
            "- Not shown to change (each slope's interval holds 0): {}.",
            flat.join(", ")
        ));
    }
    if partial {
        sentences.push(format!(
            "- *{NOT_PLAYED}*: an effort that plays only some comparisons (`ablate --only`); \
             the line of a comparison it does not play rests on the efforts below it."
        ));
    }
    sentences
}

/// The section's heading and the paragraph that says how to read it: `shown` of the slopes
/// read as trends, each resting on its number of efforts in `trends`, where a slope over the
/// first k efforts would by chance `chance(k)` of the time.
fn explanation(
    efforts: &[u64],
    percent: &str,
    bound: f64,
    (shown, trends): (usize, &[usize]),
    chance: &dyn Fn(usize) -> f64,
) -> String {
    let efforts_text: Vec<String> = efforts.iter().map(u64::to_string).collect();
    let (so_far, rates, expected) = by_chance(efforts.len(), trends, chance);
    let so_far_text = if so_far {
        " *so far*: the line through the efforts whose matches have stopped, while a later \
         one plays; it changes as that one stops."
    } else {
        ""
    };
    format!(
        "\n## Each method's worth against effort ({} nodes per move)\n\nA method's worth is \
         the Elo it gives the search its row measures (leaving it out of the stack costs it, \
         adding it gains it; a doubling of the nodes gains its own), from the matches above, \
         one at each effort. The change per doubling is the slope of the line through the \
         worths against log2 of the nodes, each worth weighted by the inverse square of its \
         half-width, with its {percent} interval (the matches are independent; they play the \
         same openings, which if anything makes them agree, so the interval is wide rather \
         than narrow). *grows* or *shrinks with effort*: that interval excludes 0; *stays \
         within ±{bound}*: the change the line gives across the efforts it rests on (the \
         slope's interval times the doublings between them) lies wholly inside ±{bound} Elo, \
         the matches' own equivalence bound; *not shown to change*: the slope's interval holds \
         0 but that change reaches past ±{bound}, which is not a statement that the worth \
         stays (read its interval); *playing*, *to play*: a match has not stopped by its rule, or has no game \
         yet; *no interval*: a rout; *inactive*: at least 90% of a match's pairs repeat the \
         reference's games, so the method hardly acts there (its effort is left out of the \
         line).{so_far_text} {shown} of {} slopes read as a trend; with no change \
         anywhere about {expected:.1} would by chance ({rates}: the stopping rule \
         simulated on this run's pairs, one match of one true worth at each effort, at the \
         worst of true worths 0 to 40). A match stopped at an early look overstates its size \
         (it stopped because its estimate was far from 0), so a trend that rests on a row \
         decided at its first look is the likeliest to shrink on a replay (`cutlab replay` \
         plays those rows again and its report reads each trend with the replays in their \
         place). Stockfish 15.1's \
         \"(~N Elo)\" notes, its later \"scales well / poorly\" remarks and Ethereal 11.80's \
         ablation at 12+0.12 (Elo lost without the step) stand beside the leave-one-out \
         rows (sources in `bench/src/cmd/ablate/notes.rs`).\n",
        efforts_text.join(", "),
        trends.len(),
    )
}

/// How many slopes would read as a trend by chance: whether some comparison rests on fewer
/// than `all` efforts (*so far*), the rates of a false trend (`chance`, by the number of
/// efforts a slope rests on) as the text gives them, and the expected count over `trends`.
fn by_chance(all: usize, trends: &[usize], chance: &dyn Fn(usize) -> f64) -> (bool, String, f64) {
    let mut spans = trends.to_vec();
    spans.sort_unstable_by(|a, b| b.cmp(a));
    spans.dedup();
    let so_far = spans.iter().any(|&k| k < all);
    if !so_far {
        spans = vec![all];
    }
    let chances: Vec<(usize, f64)> = spans.iter().map(|&k| (k, chance(k))).collect();
    let rate = |k: usize| chances.iter().find(|c| c.0 == k).map_or(0.0, |c| c.1);
    let rates = if so_far {
        let parts: Vec<String> = spans
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let of = if i == 0 { " of comparisons" } else { "" };
                let over = if k == all {
                    format!("all {all} efforts")
                } else {
                    format!("the first {k}")
                };
                format!("{:.1}%{of} over {over}", 100.0 * rate(k))
            })
            .collect();
        parts.join(", ")
    } else {
        format!("{:.1}% of comparisons", 100.0 * rate(all))
    };
    let expected: f64 = trends.iter().map(|&k| rate(k)).sum();
    (so_far, rates, expected)
}

#[cfg(test)]
mod tests;
