//! The ablation report: one row per comparison and effort (leave one out against the
//! stack, add one in against the baseline, add an extra to the stack) with every yardstick
//! beside its interval and the verdict of its match's stopping rule, as a Markdown table, a
//! tidy CSV (`ablate.csv`, docs/csv.md) and forest plots of the Elo differences. Everything is
//! read from the run's files, so `cutlab report DIR` writes the same report again.

use cutlab_analysis::{
    elo::{Looks, RoutBound, Verdict},
    markdown::{Table, signed_ci},
    plot,
    rows::{DepthRow, FalseCutRow, RegretRow, TallyRow},
    stats::{Estimate, paired, paired_difference, paired_ratio, wilson},
};
use serde::{Deserialize, Serialize};

use super::{
    Comparison, Direction, Layout, Manifest, Reference,
    played::{Played, Status, archive},
    row::AblationRow,
};
use crate::common::packed_games::Packed;
use crate::common::pipeline::{
    busy_machine_note, environment_table, rows_of_finished, speed_note, steps_table,
    unfinished_steps,
};

/// A row of `ablate.csv` (docs/csv.md), estimates flattened into value, low and high: what
/// the report writes and what `replay` reads of an ablation (a column an older run lacks reads
/// as empty).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CsvRow {
    pub direction: Direction,
    pub method: String,
    pub effort_nodes: u64,
    pub positions: usize,
    pub delta_depth_plies: Option<f64>,
    pub delta_depth_low: Option<f64>,
    pub delta_depth_high: Option<f64>,
    pub tree_size_ratio: Option<f64>,
    pub tree_size_ratio_low: Option<f64>,
    pub tree_size_ratio_high: Option<f64>,
    pub nps_ratio: Option<f64>,
    pub nps_ratio_low: Option<f64>,
    pub nps_ratio_high: Option<f64>,
    pub false_cut_rate: Option<f64>,
    pub false_cut_rate_low: Option<f64>,
    pub false_cut_rate_high: Option<f64>,
    pub verified_cuts: u64,
    pub share_of_cuts: Option<f64>,
    pub delta_regret_cp: Option<f64>,
    pub delta_regret_low: Option<f64>,
    pub delta_regret_high: Option<f64>,
    pub delta_elo: Option<f64>,
    pub delta_elo_low: Option<f64>,
    pub delta_elo_high: Option<f64>,
    pub delta_elo_adjusted: Option<f64>,
    pub delta_nelo: Option<f64>,
    pub delta_nelo_low: Option<f64>,
    pub delta_nelo_high: Option<f64>,
    pub games: usize,
    pub verdict: String,
    pub stockfish_elo_note: Option<String>,
    pub repeated_pair_share: Option<f64>,
}

/// The steps of searches (every step but the matches) finished and planned, while some are
/// not finished; none when all are, or when the run has no plan to count them in.
fn searches_done(layout: &Layout, manifest: &Manifest) -> Option<(usize, usize)> {
    let (planned, left) = unfinished_steps(layout, &manifest.header.steps, |name| {
        !name.starts_with("match-")
    })?;
    (!left.is_empty()).then_some((planned - left.len(), planned))
}

fn row(
    (layout, archive): (&Layout, &[Packed]),
    (manifest, looks): (&Manifest, &Looks),
    c: &Comparison,
    nodes: u64,
) -> Result<AblationRow, String> {
    let reference = match c.reference() {
        Reference::Stack => &manifest.stack,
        Reference::Baseline => &manifest.baseline,
    };
    // The stack at twice the nodes has no searches of its own to pair with the stack's.
    let variant = if c.searches_a_tree() {
        c.variant.as_str()
    } else {
        ""
    };
    let names = (reference.as_str(), variant);
    let step = |kind: &str| format!("{kind}-{}", c.reference().name());
    let file = |kind: &str| layout.file(&format!("{}.csv", step(kind)));
    let depth: Vec<DepthRow> =
        rows_of_finished(&manifest.header.steps, &step("depth"), &file("depth"))?;
    let (d_ref, d_var) = paired(
        &depth,
        names,
        |r| (&r.position, &r.variant),
        |r| f64::from(r.depth),
    );
    #[expect(clippy::cast_precision_loss, reason = "node rates")]
    let (s_ref, s_var) = paired(
        &depth,
        names,
        |r| (&r.position, &r.variant),
        |r| r.nps as f64,
    );
    let size: Vec<DepthRow> =
        rows_of_finished(&manifest.header.steps, &step("size"), &file("size"))?;
    #[expect(clippy::cast_precision_loss, reason = "node counts")]
    let (n_ref, n_var) = paired(
        &size,
        names,
        |r| (&r.position, &r.variant),
        |r| r.nodes as f64,
    );
    let regret: Vec<RegretRow> =
        rows_of_finished(&manifest.header.steps, &step("regret"), &file("regret"))?;
    let (r_ref, r_var) = paired(
        &regret,
        names,
        |r| (&r.position, &r.variant),
        |r| f64::from(r.regret_cp),
    );
    let traced = if c.direction == Direction::Without {
        "stack".to_string()
    } else {
        c.name()
    };
    let (trace_step, trace) = (format!("trace-{traced}"), format!("traces/{traced}"));
    let method = c.traced_method();
    let verified: Vec<FalseCutRow> = rows_of_finished(
        &manifest.header.steps,
        &trace_step,
        &layout.file(&format!("{trace}.false-cuts.csv")),
    )?;
    let (sampled, wrong) = verified
        .iter()
        .filter(|v| v.method == method)
        .fold((0, 0), |(n, w), v| (n + v.sampled_cuts, w + v.false_cuts));
    let counted: Vec<TallyRow> = rows_of_finished(
        &manifest.header.steps,
        &trace_step,
        &layout.file(&format!("{trace}.tallies.csv")),
    )?;
    let (all, of_method) = counted.iter().fold((0_u64, 0_u64), |(all, m), c| {
        (
            all + c.cuts,
            m + if c.method == method { c.cuts } else { 0 },
        )
    });
    let played = Played::read((layout, archive), (manifest, looks), c, nodes)?;
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    Ok(AblationRow {
        direction: c.direction,
        method: c.method.clone(),
        effort_nodes: nodes,
        positions: d_ref.len(),
        delta_depth: paired_difference(&d_ref, &d_var, 0.95),
        tree_size_ratio: paired_ratio(&n_ref, &n_var, 0.95),
        speed_ratio: paired_ratio(&s_ref, &s_var, 0.95),
        false_cut_rate: wilson(wrong, sampled, 0.95),
        verified_cuts: sampled,
        share_of_cuts: (all > 0).then(|| of_method as f64 / all as f64),
        delta_regret_cp: paired_difference(&r_ref, &r_var, 0.95),
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
        .filter(|r| r.status == Status::Running)
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

/// Writes row `r` into `ablate.csv`, its estimates flattened.
fn write_csv_row(csv: &mut csv::Writer<std::fs::File>, r: &AblationRow) -> csv::Result<()> {
    let v = |e: &Option<Estimate>| e.as_ref().map(|e| e.value);
    let lo = |e: &Option<Estimate>| e.as_ref().map(|e| e.low);
    let hi = |e: &Option<Estimate>| e.as_ref().map(|e| e.high);
    csv.serialize(CsvRow {
        direction: r.direction,
        method: r.method.clone(),
        effort_nodes: r.effort_nodes,
        positions: r.positions,
        delta_depth_plies: v(&r.delta_depth),
        delta_depth_low: lo(&r.delta_depth),
        delta_depth_high: hi(&r.delta_depth),
        tree_size_ratio: v(&r.tree_size_ratio),
        tree_size_ratio_low: lo(&r.tree_size_ratio),
        tree_size_ratio_high: hi(&r.tree_size_ratio),
        nps_ratio: v(&r.speed_ratio),
        nps_ratio_low: lo(&r.speed_ratio),
        nps_ratio_high: hi(&r.speed_ratio),
        false_cut_rate: v(&r.false_cut_rate),
        false_cut_rate_low: lo(&r.false_cut_rate),
        false_cut_rate_high: hi(&r.false_cut_rate),
        verified_cuts: r.verified_cuts,
        share_of_cuts: r.share_of_cuts,
        delta_regret_cp: v(&r.delta_regret_cp),
        delta_regret_low: lo(&r.delta_regret_cp),
        delta_regret_high: hi(&r.delta_regret_cp),
        delta_elo: v(&r.delta_elo),
        delta_elo_low: lo(&r.delta_elo).or(match r.elo_rout {
            Some(RoutBound::AtLeast(elo)) => Some(elo),
            _ => None,
        }),
        delta_elo_high: hi(&r.delta_elo).or(match r.elo_rout {
            Some(RoutBound::AtMost(elo)) => Some(elo),
            _ => None,
        }),
        delta_elo_adjusted: r.adjusted_elo,
        delta_nelo: v(&r.delta_nelo),
        delta_nelo_low: lo(&r.delta_nelo),
        delta_nelo_high: hi(&r.delta_nelo),
        games: r.games,
        verdict: r.status.name().to_string(),
        stockfish_elo_note: r.stockfish_note.map(str::to_string),
        repeated_pair_share: r.repeated_share(),
    })
}

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

/// The report's title and its first paragraphs: the run, the stopping rule, the intervals.
fn introduction(manifest: &Manifest, confidence: &str) -> String {
    let games: Vec<String> = manifest.looks.iter().map(u64::to_string).collect();
    let efforts: Vec<String> = manifest.nodes.iter().map(u64::to_string).collect();
    let bound = manifest.stop_within;
    format!(
        "# cutlab ablate ({} scale)\n\nStack: `{}`\n\nBaseline: `{}`\n\nMatches at {} nodes \
         per move (the first effort plays every comparison, the others leave-one-out and \
         added-to-the-stack), each variant against its reference in pairs of games from \
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
        efforts.join(" and "),
        protocol(manifest),
        games.join(", "),
        manifest.looks.len(),
        manifest.header.positions,
        manifest.header.seed,
        crate::common::speed::describe(manifest.header.time_factor, manifest.header.speed_nps)
    )
}

/// Writes `report.md`, `ablate.csv` and the forest plots; returns the summary for the
/// terminal.
///
/// # Errors
/// A file that cannot be written.
pub fn write(layout: &Layout, manifest: &Manifest) -> Result<String, String> {
    let looks = Looks::new(manifest.looks.clone(), manifest.stop_within)?;
    let confidence = format!("{:.0}%", 100.0 * looks.confidence());
    let mut summary = String::new();
    let mut md = introduction(manifest, &confidence);
    let path = layout.file("ablate.csv");
    let mut csv = csv::Writer::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut stopped, mut matches) = (0, 0);
    let mut sections = String::new();
    let archive = archive(layout)?;
    let mut groups = Vec::new();
    for (k, &nodes) in manifest.nodes.iter().enumerate() {
        for (direction, title) in SECTIONS {
            let rows: Vec<AblationRow> = manifest
                .comparisons
                .iter()
                .filter(|c| c.direction == direction && Manifest::played_at(c, k))
                .map(|c| row((layout, &archive), (manifest, &looks), c, nodes))
                .collect::<Result<_, _>>()?;
            if !rows.is_empty() {
                groups.push((nodes, direction, title, rows));
            }
        }
    }
    super::rule::adjust(
        groups.iter_mut().flat_map(|g| g.3.iter_mut()),
        &looks,
        manifest.header.seed,
    );
    let mut every_row = Vec::new();
    for (nodes, direction, title, rows) in groups {
        // Only a stopped match's numbers are final: the table, the CSV and the plot hold
        // those; the others are listed.
        let done: Vec<AblationRow> = rows.iter().filter(|r| r.stopped()).cloned().collect();
        (stopped, matches) = (stopped + done.len(), matches + rows.len());
        for r in &done {
            write_csv_row(&mut csv, r).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let heading = format!("{title}, {nodes} nodes per move");
        sections.push_str(&format!("\n## {heading}\n\n"));
        summary.push_str(&format!("{heading}:\n"));
        if !done.is_empty() {
            let rendered = table(&done, &confidence, manifest.stop_within).render();
            let forest = format!("forest-{nodes}-{direction}.svg");
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
            sections.push_str(&format!(
                "{rendered}\n![Elo with {confidence} intervals]({forest})\n"
            ));
            summary.push_str(&rendered);
        }
        if let Some(line) = unstopped(&rows) {
            sections.push_str(&format!("\n{line}\n"));
            summary.push_str(&format!("{line}\n"));
        }
        summary.push('\n');
        every_row.extend(rows);
    }
    let chance =
        super::rule::false_trend_rate(&every_row, &looks, &manifest.nodes, manifest.header.seed);
    sections.push_str(&super::effort::section(
        layout,
        &manifest.nodes,
        &every_row,
        (looks.confidence(), chance),
    )?);
    if stopped < matches {
        md.push_str(&format!(
            "\n**In progress: {stopped} of {matches} matches have stopped by their rule.** \
             Only those are in the tables, the plots and `ablate.csv`; the comparisons at \
             fixed depth and time (Δdepth, tree size, false cuts, Δregret) run after the \
             matches.\n"
        ));
    } else if let Some((done, planned)) = searches_done(layout, manifest) {
        md.push_str(&format!(
            "\n**In progress: every match has stopped by its rule; {done} of the {planned} steps \
             of searches at fixed depth and time have run.** The columns a step fills (Δdepth, \
             tree size, false cuts, share of cuts, Δregret) stay empty until it has finished.\n"
        ));
    }
    md.push_str(&super::budget::section(manifest, &every_row).unwrap_or_default());
    sections
        .push_str(&super::equal_time::section(&every_row, looks.confidence()).unwrap_or_default());
    md.push_str(
        &super::rule::section(&every_row, &looks, manifest.header.seed).unwrap_or_default(),
    );
    md.push_str(&busy_machine_note(&manifest.header.steps).unwrap_or_default());
    md.push_str(&speed_note(&manifest.header.steps, manifest.header.speed_nps).unwrap_or_default());
    md.push_str(prob_ab_note(&manifest.comparisons).unwrap_or_default());
    md.push_str(&sections);
    csv.flush()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    md.push_str(&format!(
        "\n## Steps\n\nA step's minutes are its last run's: a step resumed after an \
         interruption does not count its earlier runs.\n\n{}\n## Environment\n\n{}",
        steps_table(&manifest.header.steps),
        environment_table(&manifest.header.environment, &[])
    ));
    let path = layout.file("report.md");
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use cutlab_analysis::elo::Pentanomial;

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
        assert_eq!(searches_done(&layout, &manifest), None);
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
        write_csv_row(&mut csv, &row).unwrap();
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
