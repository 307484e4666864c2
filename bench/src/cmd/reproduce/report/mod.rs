//! `report.md` of a reproduce run: the paper's tables beside ours, figures, configuration and
//! the command of every step. Rewritten after each step, so an interrupted run still has the
//! report of what it finished.

mod games;
mod searches;

use std::{fmt::Write as _, path::Path};

use cutlab_analysis::rows;

pub(super) use self::games::PAPER_TABLE4;
use super::{Layout, Manifest, scale};
use crate::common::pipeline::{
    busy_machine_note, environment_table, is_finished, rows_of_finished, speed_note, steps_table,
    unfinished_steps,
};

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

fn figure(out: &mut String, layout: &Layout, file: &str, caption: &str) {
    if layout.file(file).is_file() {
        let _ = writeln!(out, "![{caption}]({file})\n");
    }
}

/// A report being written: the run it reads, the Markdown and the terminal summary so far.
struct Report<'a> {
    layout: &'a Layout,
    manifest: &'a Manifest,
    out: String,
    summary: String,
    /// Each of the paper's results the run has tested: the claim, the paper's figure, ours and
    /// the verdict ([`games::verdict`]'s rule).
    verdicts: Vec<[String; 4]>,
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
        verdicts: Vec::new(),
    };
    report.heading();
    let verdicts_at = report.out.len();
    report.table1()?;
    report.depth()?;
    report.tables_2_3()?;
    report.headline()?;
    report.table4()?;
    report.regret()?;
    report.cuts()?;
    report.configuration()?;
    if !report.verdicts.is_empty() {
        let mut table =
            cutlab_analysis::markdown::Table::new(&["result", "paper", "ours [95% CI]", "verdict"]);
        for row in &report.verdicts {
            table.row(row.to_vec());
        }
        let section = format!(
            "## Verdicts: the paper's results, reproduced or not\n\nEach of Jiang and Buro's \
             results this run has tested, beside ours. The rule, from our 95% interval and the \
             paper's value: *reproduced* where the interval lies on the paper's side of no \
             effect and holds its value; *reproduced in direction, size differs* where it lies \
             on that side and not around the value; *not reproduced* where it holds no effect \
             and not the paper's value; *reversed* where it lies on the other side; *undecided* \
             where it holds both; the headline by its sequential test's decision. Scores are \
             turned into Elo against the same opponent (the paper's Crafty or Yace). The \
             paper's matches were small (64 to 128 games), so its values carry wide errors of \
             their own, which the rule does not count.\n\n{}\n",
            table.render()
        );
        report.out.insert_str(verdicts_at, &section);
        let _ = writeln!(report.summary, "Verdicts:\n{}", table.render());
    }
    let path = layout.file("report.md");
    std::fs::write(&path, report.out).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(report.summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::pipeline::StepRecord;

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
