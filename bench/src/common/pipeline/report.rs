//! What every study's report says of its run: the notes on steps timed on a busy or another
//! machine, the steps table and the environment table.

use std::fmt::Write as _;

use cutlab_analysis::markdown::Table;

use super::{Layout, StepRecord, load, measures_time, study::Header};
use crate::common::speed;

/// A report's warning about the finished steps that measured time while other processes kept
/// the machine busy ([`load::IDLE_CORES`] or more on average): their times, depths and regrets
/// are a slower machine's than the report's. `None` when there are none.
#[must_use]
pub fn busy_machine_note(steps: &[StepRecord]) -> Option<String> {
    let busy: Vec<String> = steps
        .iter()
        .filter(|s| measures_time(&s.command.split_whitespace().collect::<Vec<_>>()))
        .filter_map(|s| {
            s.other_cores_busy
                .filter(|&c| c >= load::IDLE_CORES)
                .map(|c| format!("`{}` ({c:.2})", s.name))
        })
        .collect();
    (!busy.is_empty()).then(|| {
        format!(
            "**Timed on a busy machine**: other processes kept cores busy (on average, in \
             brackets) while {} measured time, so their times, depths and regrets are those of \
             a slower machine than the one named below.\n\n",
            busy.join(", ")
        )
    })
}

/// A report's warning about the finished steps that measured time at a bench speed (this
/// machine, this build, its load) that differs from the one the run's time limits were set for (`run_nps`) by more than
/// [`speed::SPEED_TOLERANCE`]: their searches had another effort than the scale's. `None` when
/// there are none, or the run's speed is unknown (a factor given by `--time-factor`).
#[must_use]
#[expect(clippy::cast_precision_loss, reason = "speeds")]
pub fn speed_note(steps: &[StepRecord], run_nps: Option<u64>) -> Option<String> {
    let run = run_nps? as f64;
    let other: Vec<String> = steps
        .iter()
        .filter_map(|s| {
            let nps = s.speed_nps? as f64;
            ((nps / run - 1.0).abs() > speed::SPEED_TOLERANCE)
                .then(|| format!("`{}` ({:.2} M nps)", s.name, nps / 1e6))
        })
        .collect();
    (!other.is_empty()).then(|| {
        format!(
            "**Timed at another speed**: the time limits were set for a bench speed of {:.2} M \
             nps, and {} started at another speed (in brackets), on another machine, with another \
             build of cutlab or beside other work, so their searches had another effort than \
             the scale's (a step resumed at another speed holds rows of both; records from before \
             speeds were measured name none).\n\n",
            run / 1e6,
            other.join(", ")
        )
    })
}

/// The step table's column of others' busy cores, a cell per step in their order; `None` when
/// no record has one (records from before the load was measured), so that such tables keep
/// their columns.
#[must_use]
fn busy_cores_column(steps: &[StepRecord]) -> Option<Vec<String>> {
    steps.iter().any(|s| s.other_cores_busy.is_some()).then(|| {
        steps
            .iter()
            .map(|s| {
                s.other_cores_busy
                    .map(|c| format!("{c:.2}"))
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// The steps table of a report: each finished step's name, minutes (its last run's), when it
/// finished, the cores others kept busy (a column only where some record has them) and its
/// command. Unpadded, since a command may run to thousands of characters.
#[must_use]
pub fn steps_table(steps: &[StepRecord]) -> String {
    let loads = busy_cores_column(steps);
    let mut out = String::from(if loads.is_some() {
        "| step | minutes | finished (UTC) | others' busy cores | command |\n\
         | --- | --: | --- | --: | --- |\n"
    } else {
        "| step | minutes | finished (UTC) | command |\n| --- | --: | --- | --- |\n"
    });
    for (k, s) in steps.iter().enumerate() {
        let load = loads
            .as_ref()
            .map(|cells| format!(" {} |", cells[k]))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {:.2} | {} |{load} `{}` |",
            s.name,
            s.seconds / 60.0,
            s.finished_utc,
            s.command
        );
    }
    out
}

/// Ends a study's report `md` with its steps table (after `steps_note`, a paragraph or
/// nothing) and its environment table, and writes it to `DIR/report.md`.
///
/// # Errors
/// The file cannot be written (named).
pub fn write_report(
    layout: &Layout,
    mut md: String,
    header: &Header,
    steps_note: &str,
) -> Result<(), String> {
    let _ = write!(
        md,
        "\n## Steps\n\n{steps_note}{}\n## Environment\n\n{}",
        steps_table(&header.steps),
        environment_table(&header.environment, &[])
    );
    let path = layout.file("report.md");
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))
}

/// The environment table of a report: versions and machine, then `more` rows.
#[must_use]
pub fn environment_table(environment: &[(String, String)], more: &[(String, String)]) -> String {
    let mut table = Table::new(&["", "value"]);
    for (k, v) in environment.iter().chain(more) {
        table.row(vec![k.clone(), v.clone()]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::pipeline::Step;

    /// Only a step that measures time, beside others using half a core or more, is named.
    #[test]
    fn the_report_names_the_timed_steps_that_ran_on_a_busy_machine() {
        let record = |name: &str, command: &str, busy: Option<f64>| StepRecord {
            command: command.into(),
            other_cores_busy: busy,
            ..StepRecord::finished(name)
        };
        assert!(Step::new("d", &["depth", "--time-ms", "100"]).measures_time());
        assert!(Step::new("m", &["match", "--tc", "10+0.1"]).measures_time());
        assert!(!Step::new("s", &["depth", "--depth", "9"]).measures_time());
        let steps = [
            record(
                "timed-busy",
                "cutlab depth --time-ms 890 --out d.csv",
                Some(1.9),
            ),
            record("timed-idle", "cutlab oracle --time-ms 890", Some(0.2)),
            record("fixed-busy", "cutlab match --nodes 5000", Some(2.0)),
            record("timed-unmeasured", "cutlab match --tc 10+0.1", None),
        ];
        let note = busy_machine_note(&steps).unwrap();
        assert!(note.contains("`timed-busy` (1.90)"), "{note}");
        for quiet in ["timed-idle", "fixed-busy", "timed-unmeasured"] {
            assert!(!note.contains(quiet), "{note}");
        }
        assert!(busy_machine_note(&steps[1..]).is_none());
    }

    /// A timed step whose machine's speed is more than 10% from the run's is named with its
    /// speed; one within 10%, or unmeasured, is not, nor any where the run's speed is unknown.
    #[test]
    fn the_report_names_the_timed_steps_run_at_another_speed() {
        let record = |name: &str, speed: Option<u64>| StepRecord {
            speed_nps: speed,
            ..StepRecord::finished(name)
        };
        let steps = [
            record("faster", Some(2_900_000)),
            record("slower", Some(1_600_000)),
            record("same", Some(1_950_000)),
            record("unmeasured", None),
        ];
        let note = speed_note(&steps, Some(1_860_000)).unwrap();
        assert!(note.contains("1.86 M nps"), "{note}");
        assert!(note.contains("`faster` (2.90 M nps)"), "{note}");
        assert!(note.contains("`slower` (1.60 M nps)"), "{note}");
        for quiet in ["same", "unmeasured"] {
            assert!(!note.contains(quiet), "{note}");
        }
        assert!(speed_note(&steps[2..], Some(1_860_000)).is_none());
        assert!(speed_note(&steps, None).is_none());
    }
}
