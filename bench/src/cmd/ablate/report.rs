//! The ablation report: one row per comparison and effort (leave one out against the
//! stack, add one in against the baseline, add an extra to the stack) with every yardstick
//! beside its interval and the verdict of its match's stopping rule, as a Markdown table, a
//! tidy CSV (`ablate.csv`, docs/csv.md) and forest plots of the Elo differences. Everything is
//! read from the run's files, so `cutlab report DIR` writes the same report again.

use super::{
    Comparison, CsvRow, Direction, Layout, Manifest,
    played::{Played, Status},
    row::AblationRow,
    searched::Searched,
};
use crate::common::packed_games::{self, Packed};
use crate::common::pipeline::{busy_machine_note, speed_note, unfinished_steps, write_report};
use cutlab_analysis::{
    elo::{Looks, Verdict},
    markdown::{Table, signed_ci},
    plot,
    stats::Estimate,
};

/// The steps of searches (every step but the matches) finished and planned; none when the run
/// has no plan to count them in.
fn searches_done(layout: &Layout, manifest: &Manifest) -> Option<(usize, usize)> {
    let (planned, left) = unfinished_steps(layout, &manifest.header.steps, |name| {
        !super::MatchKey::is_match(name)
    })?;
    Some((planned - left.len(), planned))
}

/// Comparison `c`'s row at effort `nodes`: its match and its searches, read from the run.
fn row(
    (layout, archive): (&Layout, &[Packed]),
    (manifest, looks): (&Manifest, &Looks),
    c: &Comparison,
    nodes: u64,
) -> Result<AblationRow, String> {
    let searched = Searched::read(layout, manifest, c)?;
    let played = Played::read((layout, archive), (manifest, looks), c, nodes)?;
    Ok(AblationRow {
        direction: c.direction,
        method: c.method.clone(),
        effort_nodes: nodes,
        positions: searched.positions,
        delta_depth: searched.delta_depth,
        tree_size_ratio: searched.tree_size_ratio,
        speed_ratio: searched.speed_ratio,
        false_cut_rate: searched.false_cut_rate,
        verified_cuts: searched.verified_cuts,
        share_of_cuts: searched.share_of_cuts,
        delta_regret_cp: searched.delta_regret_cp,
        delta_elo: played.delta_elo,
        delta_nelo: played.delta_nelo,
        elo_rout: played.elo_rout,
        adjusted_elo: None,
        games: played.games,
        repeated_pairs: played.repeated_pairs,
        pentanomial: played.pentanomial,
        status: played.status,
        // Stockfish's notes are for removing a step: beside the leave-one-out rows only.
        stockfish_note: (c.direction == Direction::Without)
            .then(|| super::notes::stockfish(&c.method))
            .flatten(),
    })
}

/// What a row of probabilistic alpha-beta compares, when the study has one: it replaces the
/// node function instead of adding a step to it (its module, `search/src/prob_ab`).
fn prob_ab_note(comparisons: &[Comparison]) -> Option<&'static str> {
    comparisons.iter().any(|c| c.method == "prob-ab").then_some(
        "\n**Probabilistic alpha-beta** replaces the node function instead of adding a step: \
         none of the variant's forward pruning runs under it (LMR and the check extension \
         do), so its rows compare its search, with the variant's LMR, against the reference, \
         and at σ = 0 it searches `lmr`'s tree. Its cost against that tree as σ grows is the \
         study `results/prob-ab-sigma` of the cutlab repository.\n",
    )
}

/// The comparisons whose matches have not stopped yet, in a line: those playing with their
/// games so far, then those not started.
fn unstopped(rows: &[AblationRow]) -> Option<String> {
    let playing: Vec<String> = rows
        .iter()
        .filter(|r| r.status == Status::Playing)
        .map(|r| format!("{} ({} games)", r.method, r.games))
        .collect();
    let to_play: Vec<&str> = rows
        .iter()
        .filter(|r| r.status == Status::ToPlay)
        .map(|r| r.method.as_str())
        .collect();
    let mut parts = Vec::new();
    if !playing.is_empty() {
        parts.push(format!("playing: {}", playing.join(", ")));
    }
    if !to_play.is_empty() {
        parts.push(format!("to play: {}", to_play.join(", ")));
    }
    let count = playing.len() + to_play.len();
    (count > 0).then(|| format!("Not stopped yet ({count}): {}.", parts.join("; ")))
}

fn table(rows: &[AblationRow], confidence: &str, bound: f64) -> Table {
    let elo_header = format!(">ΔElo [{confidence} CI]");
    let mut t = Table::new(&[
        "method",
        &elo_header,
        ">adjusted",
        &format!(">nElo [{confidence} CI]"),
        ">games",
        "verdict",
        ">Stockfish's note",
        ">Δdepth (plies) [95% CI]",
        ">tree size [95% CI]",
        ">false cuts [95% CI]",
        ">share of cuts",
        ">Δregret cp [95% CI]",
    ]);
    for r in rows {
        let size = r.tree_size_ratio.as_ref().map_or_else(
            || "-".to_string(),
            |e| format!("{:.2}x [{:.2}, {:.2}]", e.value, e.low, e.high),
        );
        let false_cuts = r.false_cut_rate.as_ref().map_or_else(
            || "-".to_string(),
            |e| {
                format!(
                    "{:.1}% [{:.1}, {:.1}] of {}",
                    100.0 * e.value,
                    100.0 * e.low,
                    100.0 * e.high,
                    r.verified_cuts
                )
            },
        );
        // Without an Elo interval: a rout (its one bound), or too few games.
        let elo = match (&r.delta_elo, r.elo_rout) {
            (None, Some(bound)) => format!("{bound} (a rout)"),
            (None, None) if r.games > 0 => "too few games".to_string(),
            _ => signed_ci(r.delta_elo.as_ref(), 0, ""),
        };
        let note = r.stockfish_note.unwrap_or("-");
        t.row(vec![
            r.method.clone(),
            elo,
            r.adjusted_elo
                .map_or_else(|| "-".to_string(), |a| format!("{:+.0}", a + 0.0)),
            signed_ci(r.delta_nelo.as_ref(), 0, ""),
            r.games.to_string(),
            match (r.status, r.repeated_share()) {
                (Status::Stopped(Verdict::Inactive), Some(share)) => {
                    format!("inactive: {:.0}% of pairs repeat", 100.0 * share)
                }
                (Status::Stopped(v), _) => v.describe(bound, r.games),
                (other, _) => other.name().to_string(),
            },
            note.to_string(),
            signed_ci(r.delta_depth.as_ref(), 2, ""),
            size,
            false_cuts,
            r.share_of_cuts
                .map_or_else(|| "-".into(), |s| format!("{:.1}%", 100.0 * s)),
            signed_ci(r.delta_regret_cp.as_ref(), 1, ""),
        ]);
    }
    t
}

/// The sections of the report: a direction and its title.
const SECTIONS: [(Direction, &str); 4] = [
    (
        Direction::Without,
        "Leave one out: the stack without the method, against the stack",
    ),
    (
        Direction::Added,
        "Added to the stack: the stack with the method, against the stack",
    ),
    (
        Direction::With,
        "Add one in: the baseline with the method, against the baseline",
    ),
    (
        Direction::Doubled,
        "Twice the nodes: the stack at twice the nodes per move, against the stack",
    ),
];

/// The matches' openings and adjudication, as the introduction says them.
fn protocol(manifest: &Manifest) -> String {
    let openings = manifest.openings.as_ref().map_or_else(
        || "the built-in openings".to_string(),
        |f| format!("openings `{f}`"),
    );
    let adjudication = match (&manifest.draw, &manifest.resign) {
        (None, None) => "no adjudication".to_string(),
        (draw, resign) => [("draw", draw), ("resign", resign)]
            .iter()
            .filter_map(|(what, rule)| rule.as_ref().map(|r| format!("{what} `{r}`")))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!("{openings}, {adjudication}")
}

/// The sentences that say which rows put a method in the place of the reference's own rule of
/// its family (`comparison::replaced_part`), one for the stack and one for the baseline;
/// empty where no row does.
fn replacements(manifest: &Manifest) -> String {
    let mut said = String::new();
    for (direction, reference, whose) in [
        (Direction::Added, &manifest.stack, "the stack"),
        (Direction::With, &manifest.baseline, "the baseline"),
    ] {
        let mut replaced = None;
        let mut methods = Vec::new();
        let rows = manifest
            .comparisons
            .iter()
            .filter(|c| c.direction == direction);
        for c in rows {
            if let Some(part) = super::comparison::replaced_part(reference, &c.method) {
                replaced = Some(part);
                methods.push(format!("`{}`", c.method));
            }
        }
        if let Some(part) = replaced {
            said.push_str(&format!(
                "With {} added to {whose}, each takes the place of its `{part}` (one null-move \
                 rule at a time): those rows compare the two rules.\n\n",
                crate::common::prose::list(&methods)
            ));
        }
    }
    said
}

/// The report's title and its first paragraphs: the run, the stopping rule, the intervals.
fn introduction(manifest: &Manifest, confidence: &str) -> String {
    let games: Vec<String> = manifest.looks.iter().map(u64::to_string).collect();
    let efforts: Vec<String> = manifest.nodes.iter().map(u64::to_string).collect();
    let bound = manifest.stop_within;
    let later = if efforts.len() > 1 {
        " (the first effort plays every comparison, the others leave-one-out and \
         added-to-the-stack)"
    } else {
        ""
    };
    format!(
        "# cutlab ablate ({} scale)\n\nStack: `{}`\n\nBaseline: `{}`\n\n{}Matches at {} nodes \
         per move{later}, each variant against its reference in pairs of games from \
         {}, colours swapped. **Stopping rule**: each match is looked at only \
         after {} games; with {} looks, each look's pentanomial Elo interval is at {confidence} \
         (Bonferroni: together the looks hold at 95%), and the match stops at the first look \
         whose interval excludes 0 or is at most ±{bound} Elo wide, or at its last look. Its \
         verdict is its interval's: *decided* when it excludes 0, *equivalent within ±{bound}* \
         only when the whole interval lies inside ±{bound}, *undecided after N games* \
         otherwise (a narrow interval off centre is not equivalence). Elo at fixed nodes \
         leaves out a method's cost per node: the depth reached at fixed time (Δdepth) \
         reports it.\n\n{} \
         positions, seed {}. Other intervals are 95%: t intervals of paired differences over \
         positions (depth at fixed time, regret), a t interval of log node ratios (tree size at \
         fixed depth), Wilson (false cuts: `traces/<name>.false-cuts.csv`; shares of cuts: \
         `traces/<name>.tallies.csv`; the traces' node, test and verified-cut rows are left \
         out of a published study, as their deterministic commands write them again). \
         Stockfish's note is its `search.cpp`'s \"(~N Elo)\" for the step the method follows \
         (Stockfish 15.1). Time limits: {}.\n",
        manifest.header.scale,
        manifest.stack,
        manifest.baseline,
        replacements(manifest),
        crate::common::prose::list(&efforts),
        protocol(manifest),
        games.join(", "),
        manifest.looks.len(),
        manifest.header.positions,
        manifest.header.seed,
        crate::common::speed::describe(manifest.header.time_factor, manifest.header.speed_nps)
    )
}

/// One section of the report: an effort and a direction, with its rows.
struct Section {
    nodes: u64,
    direction: Direction,
    title: &'static str,
    rows: Vec<AblationRow>,
}

/// The run's sections, effort by effort, each comparison's row read from the run's files,
/// every stopped size adjusted for the look it stopped at.
fn sections(
    (layout, archive): (&Layout, &[Packed]),
    (manifest, looks): (&Manifest, &Looks),
) -> Result<Vec<Section>, String> {
    let mut sections = Vec::new();
    for (k, &nodes) in manifest.nodes.iter().enumerate() {
        for (direction, title) in SECTIONS {
            let rows: Vec<AblationRow> = manifest
                .comparisons
                .iter()
                .filter(|c| {
                    c.direction == direction
                        && super::plays(c.direction, &c.name(), (k, nodes), &manifest.only)
                })
                .map(|c| row((layout, archive), (manifest, looks), c, nodes))
                .collect::<Result<_, _>>()?;
            if !rows.is_empty() {
                sections.push(Section {
                    nodes,
                    direction,
                    title,
                    rows,
                });
            }
        }
    }
    super::rule::adjust(
        sections.iter_mut().flat_map(|s| s.rows.iter_mut()),
        looks,
        manifest.header.seed,
    );
    Ok(sections)
}

/// Section `s` in Markdown and for the terminal: only a stopped match's numbers are final,
/// so its table and forest plot (`forest-NODES-DIRECTION.svg`) hold those, which go into
/// `csv` too; the others are listed.
fn render(
    layout: &Layout,
    s: &Section,
    (confidence, bound): (&str, f64),
    csv: &mut csv::Writer<std::fs::File>,
) -> Result<(String, String), String> {
    let done: Vec<AblationRow> = s.rows.iter().filter(|r| r.stopped()).cloned().collect();
    for r in &done {
        csv.serialize(CsvRow::from(r))
            .map_err(|e| format!("ablate.csv: {e}"))?;
    }
    let heading = format!("{}, {} nodes per move", s.title, s.nodes);
    let mut md = format!("\n## {heading}\n\n");
    let mut summary = format!("{heading}:\n");
    if !done.is_empty() {
        let rendered = table(&done, confidence, bound).render();
        let forest = format!("forest-{}-{}.svg", s.nodes, s.direction);
        let points: Vec<(String, Estimate)> = done
            .iter()
            .filter_map(|r| r.delta_elo.map(|e| (r.method.clone(), e)))
            .collect();
        plot::forest(
            &layout.file(&forest),
            &heading,
            &format!("Elo against the reference ({confidence} intervals)"),
            &points,
        )?;
        md.push_str(&format!(
            "{rendered}\n![Elo with {confidence} intervals]({forest})\n"
        ));
        summary.push_str(&rendered);
    }
    if let Some(line) = unstopped(&s.rows) {
        md.push_str(&format!("\n{line}\n"));
        summary.push_str(&format!("{line}\n"));
    }
    summary.push('\n');
    Ok((md, summary))
}

/// Where a run that is not done stands: its matches stopped of planned and its searches run
/// of planned (which a run plays after its matches, or a `cutlab step` before).
fn progress(layout: &Layout, manifest: &Manifest, rows: &[AblationRow]) -> Option<String> {
    let stopped = rows.iter().filter(|r| r.stopped()).count();
    let searches = searches_done(layout, manifest);
    if stopped < rows.len() {
        let searched = match searches {
            Some((done, planned)) if done == planned && planned > 0 => {
                "the comparisons at fixed depth and time (Δdepth, tree size, false cuts, share \
                 of cuts, Δregret) have all run"
                    .to_string()
            }
            Some((done, planned)) if done > 0 => format!(
                "{done} of the {planned} steps of searches at fixed depth and time (Δdepth, \
                 tree size, false cuts, share of cuts, Δregret) have run, the others run after \
                 the matches"
            ),
            _ => "the comparisons at fixed depth and time (Δdepth, tree size, false cuts, \
                  Δregret) run after the matches"
                .to_string(),
        };
        return Some(format!(
            "\n**In progress: {stopped} of {} matches have stopped by their rule.** \
             Only those are in the tables, the plots and `ablate.csv`; {searched}.\n",
            rows.len()
        ));
    }
    let (done, planned) = searches.filter(|(done, planned)| done < planned)?;
    Some(format!(
        "\n**In progress: every match has stopped by its rule; {done} of the {planned} steps \
         of searches at fixed depth and time have run.** The columns a step fills (Δdepth, \
         tree size, false cuts, share of cuts, Δregret) stay empty until it has finished.\n"
    ))
}

/// Writes `report.md`, `ablate.csv` and the forest plots; returns the summary for the
/// terminal.
///
/// # Errors
/// A file that cannot be written.
pub fn write(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    let looks = Looks::new(manifest.looks.clone(), manifest.stop_within)?;
    let confidence = cutlab_analysis::markdown::level(looks.confidence());
    let path = layout.file("ablate.csv");
    let mut csv = csv::Writer::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // A published run's games are packed (none in a run that keeps its PGNs).
    let archive = packed_games::read_archives(&layout.dir)?;
    let (mut body, mut summary) = (String::new(), String::new());
    let mut every_row = Vec::new();
    for s in sections((layout, &archive), (manifest, &looks))? {
        let (md, text) = render(layout, &s, (&confidence, manifest.stop_within), &mut csv)?;
        body.push_str(&md);
        summary.push_str(&text);
        every_row.extend(s.rows);
    }
    csv.flush()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // The by-chance rate of a trend over the first k efforts.
    let chance = |k: usize| {
        let efforts = &manifest.nodes[..k];
        super::rule::false_trend_rate(&every_row, &looks, efforts, manifest.header.seed)
    };
    body.push_str(&super::effort::section(
        layout,
        &manifest.nodes,
        &every_row,
        (looks.confidence(), manifest.stop_within, &chance),
    )?);
    body.push_str(&super::equal_time::section(&every_row, looks.confidence()).unwrap_or_default());
    let mut md = introduction(manifest, &confidence);
    md.push_str(&progress(layout, manifest, &every_row).unwrap_or_default());
    md.push_str(&super::budget::section(manifest, &every_row).unwrap_or_default());
    md.push_str(
        &super::rule::section(&every_row, &looks, manifest.header.seed).unwrap_or_default(),
    );
    md.push_str(&super::rule::family_section(&every_row, &looks).unwrap_or_default());
    md.push_str(
        &crate::cmd::predict::section(layout, &manifest.nodes, &every_row)?.unwrap_or_default(),
    );
    md.push_str(&busy_machine_note(&manifest.header.steps).unwrap_or_default());
    md.push_str(&speed_note(&manifest.header.steps, manifest.header.speed_nps).unwrap_or_default());
    md.push_str(prob_ab_note(&manifest.comparisons).unwrap_or_default());
    md.push_str(&body);
    write_report(
        layout,
        md,
        &manifest.header,
        "A step's minutes are its last run's: a step resumed after an interruption does not \
         count its earlier runs.\n\n",
    )?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use cutlab_analysis::{elo::Pentanomial, rows::DepthRow};

    use super::*;
    use crate::common::pipeline::{Step, StepRecord};

    /// A search step's file is read only once the step has finished: a size file of an
    /// interrupted step (the variant's tree twice the stack's on two positions) gives no tree
    /// size, and the report says the searches are still to run; once the step is recorded the
    /// same file gives the ratio 2.
    #[test]
    fn a_search_step_counts_only_when_it_has_finished() {
        let dir = crate::common::scratch_dir("partial");
        let layout = Layout { dir: dir.clone() };
        let c = Comparison {
            direction: Direction::Without,
            method: "rfp".into(),
            variant: "null-move".into(),
        };
        let mut manifest = Manifest {
            stack: "null-move+rfp".into(),
            baseline: "null-move".into(),
            comparisons: vec![c.clone()],
            nodes: vec![1000],
            looks: vec![24],
            stop_within: 15.0,
            ..Manifest::default()
        };
        let mut size = csv::Writer::from_path(dir.join("size-stack.csv")).unwrap();
        for (position, variant, nodes) in [
            ("a", "null-move+rfp", 100),
            ("a", "null-move", 200),
            ("b", "null-move+rfp", 300),
            ("b", "null-move", 600),
        ] {
            size.serialize(DepthRow {
                position: position.into(),
                variant: variant.into(),
                nodes,
                ..Default::default()
            })
            .unwrap();
        }
        size.flush().unwrap();
        let plan = ["match-1000-without-rfp", "size-stack"].map(|name| Step::new(name, &[]));
        crate::common::pipeline::save_plan(&layout, &plan).unwrap();
        let looks = Looks::new(manifest.looks.clone(), manifest.stop_within).unwrap();
        let before = row((&layout, &[]), (&manifest, &looks), &c, 1000).unwrap();
        assert!(before.tree_size_ratio.is_none());
        assert_eq!(searches_done(&layout, &manifest), Some((0, 1)));
        manifest
            .header
            .steps
            .push(StepRecord::finished("size-stack"));
        let after = row((&layout, &[]), (&manifest, &looks), &c, 1000).unwrap();
        let ratio = after.tree_size_ratio.unwrap().value;
        assert!((ratio - 2.0).abs() < 1e-9, "{ratio}");
        assert_eq!(searches_done(&layout, &manifest), Some((1, 1)));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A lost rout of 200 pairs under five looks: its 99% score interval is [0, 1 -
    /// 0.01^(1/200)] (an outcome never seen), so the table gives its one Elo bound and the
    /// CSV puts it in `delta_elo_high`, leaving the estimate empty.
    #[test]
    fn a_rout_row_gives_its_one_bound() {
        let looks = Looks::new(vec![200, 400, 800, 1600, 3200], 15.0).unwrap();
        let stats = looks.stats(&Pentanomial::from([200, 0, 0, 0, 0]));
        let high = 1.0 - 0.01_f64.powf(1.0 / 200.0);
        let bound = -400.0 * (1.0 / high - 1.0).log10();
        let row = AblationRow {
            direction: Direction::Added,
            method: "prob-ab".into(),
            effort_nodes: 5000,
            elo_rout: stats.rout_bound(),
            games: 400,
            status: Status::Stopped(Verdict::Decided),
            ..AblationRow::default()
        };
        let rendered = table(std::slice::from_ref(&row), "99%", 15.0).render();
        assert!(
            rendered.contains(&format!("at most {bound:+.0} (a rout)")),
            "{rendered}"
        );
        let path = std::env::temp_dir().join(format!("cutlab-rout-{}.csv", std::process::id()));
        let mut csv = csv::Writer::from_path(&path).unwrap();
        csv.serialize(CsvRow::from(&row)).unwrap();
        drop(csv);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).ok();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let values: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        let field = |name: &str| values[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(field("delta_elo"), "");
        assert_eq!(field("delta_elo_low"), "");
        let written: f64 = field("delta_elo_high").parse().unwrap();
        assert!((written - bound).abs() < 1e-6, "{written} against {bound}");
    }
}
