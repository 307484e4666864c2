//! The report's searches: Table 1 (the fits), the tree size and depth at fixed time, the
//! regret against the oracle and the cuts' traces.

use std::fmt::Write as _;

use cutlab_analysis::{
    plot,
    rows::{DepthRow, FalseCutRow, RegretRow, SampleRow, TallyRow},
    stats::{paired, paired_ratio},
    tables,
};
use cutlab_search::fit_params::FitParams;

use super::{Layout, Manifest, Report, all_in, figure, scale, stored};
use crate::common::pipeline::rows_of_finished;

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

impl Report<'_> {
    /// Table 1: the regression of deep on shallow values, and its figure.
    pub(super) fn table1(&mut self) -> Result<(), String> {
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
    pub(super) fn depth(&mut self) -> Result<(), String> {
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

    /// Ours: the oracle's regret of the chosen move.
    pub(super) fn regret(&mut self) -> Result<(), String> {
        let regret_rows: Vec<RegretRow> = self.rows("oracle", "regret.csv")?;
        if !regret_rows.is_empty() {
            let variants = tables::distinct(&regret_rows, |r| r.variant.as_str());
            let table = tables::regret(&regret_rows, &variants).render();
            let command = self
                .manifest
                .header
                .steps
                .iter()
                .find(|s| s.name == "oracle")
                .map(|s| s.command.clone());
            // Our own oracle's depth beside the depths of the choices it judged.
            let depth_note = command
                .as_deref()
                .and_then(|c| c.split_once("internal:depth="))
                .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
                .and_then(|depth| crate::cmd::oracle::judged_from_below(&regret_rows, depth))
                .map_or(String::new(), |note| format!(" {note}"));
            let judge = command.map_or(String::new(), |c| format!(" Command: `{c}`.{depth_note}"));
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
    pub(super) fn cuts(&mut self) -> Result<(), String> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::pipeline::StepRecord;

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
}
