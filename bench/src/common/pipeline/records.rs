//! What a run keeps on disk: its plan (`plan.toml`), one record per finished step
//! (`steps/<name>.toml`) and its manifest (`manifest.toml`).

use std::path::Path;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{Layout, Step};

/// One finished step.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StepRecord {
    /// Step name (also its log file's stem).
    pub name: String,
    /// The `cutlab` command line it ran.
    pub command: String,
    /// Wall time, seconds.
    pub seconds: f64,
    /// When it finished, UTC (`YYYY-MM-DD HH:MM`; empty in records from before).
    #[serde(default)]
    pub finished_utc: String,
    /// Cores that other processes kept busy while it ran, on average (`pipeline::load`;
    /// absent where unmeasured: beside other steps of its run, and in records from before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_cores_busy: Option<f64>,
    /// For a step that measures time, this machine's bench speed as the step started, nodes
    /// per second (`speed::SPEED_DEPTH`; absent for other steps, and in records from before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_nps: Option<u64>,
    /// For a resumed step, the rows its `--out` CSV held as it started (the games of a match
    /// played before an interruption, or on another machine): its time covers only the rest
    /// (absent for a step started afresh, and in records from before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows_before: Option<usize>,
    /// Its `--out` CSV as it finished, for a resume to tell a whole output from one damaged
    /// since (absent for a step without a CSV, and in records from before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputSeal>,
}

/// A finished step's `--out` CSV as it was: its rows and the hash of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputSeal {
    /// Rows past the header.
    pub rows: usize,
    /// FNV-1a of its bytes, 16 hex digits (`content_hash`).
    pub hash: String,
}

impl OutputSeal {
    /// The seal of the CSV at `path` now; `None` when it is missing or unreadable.
    #[must_use]
    pub fn of(path: &Path) -> Option<OutputSeal> {
        use std::hash::Hasher as _;
        let bytes = std::fs::read(path).ok()?;
        let mut hash = crate::common::content_hash::ContentHash::default();
        hash.write(&bytes);
        let rows = csv::Reader::from_reader(bytes.as_slice()).records().count();
        Some(OutputSeal {
            rows,
            hash: crate::common::content_hash::hex(&hash),
        })
    }
}

/// Why a finished step's output is no longer the one it finished with (`None`: it is, or the
/// record has no seal to tell): a file emptied, cut or changed since, which a resume must not
/// take as done.
#[must_use]
pub fn damaged_output(record: &StepRecord, out: &Path) -> Option<String> {
    let sealed = record.output.as_ref()?;
    match OutputSeal::of(out) {
        Some(now) if now == *sealed => None,
        Some(now) => Some(format!(
            "{} holds {} rows (hash {}) where the step finished with {} (hash {})",
            out.display(),
            now.rows,
            now.hash,
            sealed.rows,
            sealed.hash
        )),
        None => Some(format!(
            "{} is gone; the step finished with {} rows",
            out.display(),
            sealed.rows
        )),
    }
}

#[cfg(test)]
impl StepRecord {
    /// A record of step `name` for tests: finished, its command and time of no interest.
    pub fn finished(name: &str) -> StepRecord {
        StepRecord {
            name: name.into(),
            command: String::new(),
            seconds: 1.0,
            finished_utc: String::new(),
            other_cores_busy: None,
            speed_nps: None,
            rows_before: None,
            output: None,
        }
    }
}

/// The plan file's contents.
#[derive(Serialize, Deserialize)]
struct PlanFile {
    /// The steps, in the order they run here.
    steps: Vec<Step>,
}

/// Writes a run's plan, `plan.toml`.
///
/// # Errors
/// The file cannot be written.
pub fn save_plan(layout: &Layout, steps: &[Step]) -> Result<(), String> {
    let path = layout.file("plan.toml");
    let text = toml::to_string(&PlanFile {
        steps: steps.to_vec(),
    })
    .map_err(|e| format!("plan: {e}"))?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The plan of the run in the layout's directory.
///
/// # Errors
/// No plan there, or one that cannot be read.
pub fn load_plan(layout: &Layout) -> Result<Vec<Step>, String> {
    let path = layout.file("plan.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str::<PlanFile>(&text)
        .map(|p| p.steps)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a finished step's record, `steps/<name>.toml`: to a temporary file renamed into
/// place, so that a record is whole or absent and processes finishing together lose nothing.
///
/// # Errors
/// The record cannot be written.
pub fn record_step(layout: &Layout, record: &StepRecord) -> Result<(), String> {
    let dir = layout.file("steps");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = toml::to_string(record).map_err(|e| format!("step record: {e}"))?;
    crate::common::results::write_whole(&dir.join(format!("{}.toml", record.name)), text)
}

/// The record of step `name`, if it finished.
#[must_use]
pub fn step_record(layout: &Layout, name: &str) -> Option<StepRecord> {
    let path = layout.file(&format!("steps/{name}.toml"));
    toml::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// A command's words as its rows depend on them: its head (the words before the first
/// option), then its options less its parallelism (`--threads`, `--concurrency` and their
/// values, which change how fast rows come, never what they hold), each with the words up to
/// the next, in a canonical order: sorted by option name, stably (two `--engine`s keep their
/// order), since an option's place on the line changes nothing.
fn rows_options(command: &str) -> (Vec<&str>, Vec<Vec<&str>>) {
    let mut words = command.split_whitespace().peekable();
    let mut head = Vec::new();
    while let Some(word) = words.next_if(|w| !w.starts_with("--")) {
        head.push(word);
    }
    let mut options: Vec<Vec<&str>> = Vec::new();
    for word in words {
        match options.last_mut() {
            Some(option) if !word.starts_with("--") => option.push(word),
            _ => options.push(vec![word]),
        }
    }
    options.retain(|o| !matches!(o[0], "--threads" | "--concurrency"));
    options.sort_by_key(|o| o[0]);
    (head, options)
}

/// A command's words as its rows depend on them ([`rows_options`], flattened).
fn rows_command(command: &str) -> Vec<&str> {
    let (head, options) = rows_options(command);
    head.into_iter()
        .chain(options.into_iter().flatten())
        .collect()
}

/// What differs between a recorded and a planned command, option by option (`--depth 9,
/// and this run plans --depth 10`), the words of each option joined: a refusal names the
/// options, not two command lines of hundreds of characters.
fn differences(recorded: &str, planned: &str) -> String {
    /// The command's head and options, each as its words joined.
    fn options(command: &str) -> Vec<String> {
        let (head, options) = rows_options(command);
        std::iter::once(head.join(" "))
            .chain(options.iter().map(|o| o.join(" ")))
            .collect()
    }
    fn name(option: &str) -> &str {
        option.split(' ').next().unwrap_or_default()
    }
    let (was, now) = (options(recorded), options(planned));
    let mut said: Vec<String> = Vec::new();
    // What the step finished with that this run plans otherwise or leaves out.
    for option in was.iter().filter(|o| !now.contains(o)) {
        let other: Vec<&str> = now
            .iter()
            .filter(|o| name(o) == name(option) && !was.contains(o))
            .map(String::as_str)
            .collect();
        said.push(if other.is_empty() {
            format!("{option}, which this run leaves out")
        } else {
            format!("{option}, and this run plans {}", other.join(", "))
        });
    }
    // What this run adds that the step did not have at all.
    for option in now
        .iter()
        .filter(|o| !was.iter().any(|w| name(w) == name(o)))
    {
        said.push(format!("no {}, and this run plans {option}", name(option)));
    }
    said.join("; ")
}

/// `recorded` with the run folder it spells replaced by `dir`, this run's spelling. A plan
/// names a run's files below the folder as `--out` gave it, so a run restored or moved
/// elsewhere, or resumed from another working directory, finds its records spelt otherwise.
/// The old spelling is read off the first path (a word, or the value of a `key=` word) that
/// `planned` spells below `dir` and the record ends alike; then every recorded path below the
/// old folder, or the folder itself, is spelt with `dir`. A record of this run's spelling comes
/// back as it is.
fn relocated(recorded: &str, planned: &str, dir: &str) -> String {
    /// A word's `key=` part (empty for none) and its path.
    fn split(word: &str) -> (&str, &str) {
        match word.find('=') {
            Some(i) if !word.starts_with('-') => word.split_at(i + 1),
            _ => ("", word),
        }
    }
    let dir = dir.trim_end_matches('/');
    let below = format!("{dir}/");
    let old = recorded
        .split_whitespace()
        .zip(planned.split_whitespace())
        .find_map(|(r, p)| {
            let ((rk, r), (pk, p)) = (split(r), split(p));
            let rest = p.strip_prefix(&below)?;
            let old = r.strip_suffix(rest)?.strip_suffix('/')?;
            (rk == pk && r != p && !old.is_empty()).then_some(old)
        });
    let Some(old) = old else {
        return recorded.to_string();
    };
    recorded
        .split_whitespace()
        .map(|word| {
            let (key, path) = split(word);
            match path.strip_prefix(old) {
                Some("") => format!("{key}{dir}"),
                Some(rest) if rest.starts_with('/') => format!("{key}{dir}{rest}"),
                _ => word.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Refuses a plan in which a finished step has another command than the one it finished with
/// (another build's plan, other options), its parallelism aside: skipped as done, its
/// outputs would answer the other command and be mixed silently with the new steps'.
///
/// # Errors
/// The first such step, naming both commands and how to go on.
pub fn check_finished_commands(layout: &Layout, steps: &[Step]) -> Result<(), String> {
    for step in steps {
        let Some(record) = step_record(layout, &step.name) else {
            continue;
        };
        let planned = step.command_line();
        let recorded = relocated(&record.command, &planned, &layout.dir.display().to_string());
        if rows_command(&recorded) != rows_command(&planned) {
            return Err(format!(
                "{}: step '{}' finished with {}; its outputs answer that. Resume with the \
                 options and build that started the run, or start a new run under the new \
                 ones with another --out (this one stays as it is)",
                layout.file(&format!("steps/{}.toml", step.name)).display(),
                step.name,
                differences(&recorded, &planned)
            ));
        }
    }
    Ok(())
}

/// The records of the finished steps of a plan, in its order.
#[must_use]
pub fn finished_steps(layout: &Layout, steps: &[Step]) -> Vec<StepRecord> {
    steps
        .iter()
        .filter_map(|s| step_record(layout, &s.name))
        .collect()
}

/// The run's finished steps as its records say, in its plan's order: what the runner writes
/// into the manifest when a step ends, so that a step finished since (by `cutlab step`, or a
/// shard) counts before the runner's next step ends. `None` for a run without records of its
/// own (`steps/`) or a plan, whose manifest's list is all there is.
#[must_use]
fn recorded_steps(layout: &Layout) -> Option<Vec<StepRecord>> {
    if !layout.file("steps").is_dir() {
        return None;
    }
    Some(finished_steps(layout, &load_plan(layout).ok()?))
}

/// The run's finished steps: its records ([`recorded_steps`]), or for a run without records
/// of its own (a study in `results/`) the list its manifest holds; none for a run without a
/// manifest yet. What `cutlab step DIR` lists and `cutlab report` counts.
///
/// # Errors
/// A manifest that cannot be read.
pub fn finished_or_listed(layout: &Layout) -> Result<Vec<StepRecord>, String> {
    /// A manifest's list of finished steps, whatever else it holds.
    #[derive(Default, Deserialize)]
    struct Listed {
        #[serde(default)]
        steps: Vec<StepRecord>,
    }
    match recorded_steps(layout) {
        Some(steps) => Ok(steps),
        None => Ok(load_manifest::<Listed>(layout, true)?
            .unwrap_or_default()
            .steps),
    }
}

/// Whether step `name` is among the finished `steps`: a run's only sign that the step's files
/// are whole (an interrupted step leaves a partial file, some positions or some variants).
#[must_use]
pub fn is_finished(steps: &[StepRecord], name: &str) -> bool {
    steps.iter().any(|s| s.name == name)
}

/// Of the steps of the run's plan that `counts` selects: how many there are, and the names of
/// those not finished, in the plan's order; none when the run has no plan to count them in.
#[must_use]
pub fn unfinished_steps(
    layout: &Layout,
    finished: &[StepRecord],
    counts: impl Fn(&str) -> bool,
) -> Option<(usize, Vec<String>)> {
    let plan = load_plan(layout).ok()?;
    let counted: Vec<&str> = plan
        .iter()
        .map(|s| s.name.as_str())
        .filter(|name| counts(name))
        .collect();
    let left = counted
        .iter()
        .filter(|name| !is_finished(finished, name))
        .map(|name| (*name).to_string())
        .collect();
    Some((counted.len(), left))
}

/// The rows of `path`, a file that step `step` writes: none until the step has finished, so
/// that a report never reads a partial measurement.
///
/// # Errors
/// The step has finished and its file is there but cannot be read.
pub fn rows_of_finished<T: DeserializeOwned>(
    steps: &[StepRecord],
    step: &str,
    path: &Path,
) -> Result<Vec<T>, String> {
    if is_finished(steps, step) {
        cutlab_analysis::rows::read_if_stored(path)
    } else {
        Ok(Vec::new())
    }
}

/// Writes a run's record to `manifest.toml`.
///
/// # Errors
/// The record cannot be written.
pub fn save_manifest<M: Serialize>(layout: &Layout, manifest: &M) -> Result<(), String> {
    let path = layout.file("manifest.toml");
    let text = toml::to_string(manifest).map_err(|e| format!("manifest: {e}"))?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The record of the run in the layout's directory, `None` when there is none. A run that is
/// there is read only with `resume`: an existing run is never mixed into silently.
///
/// # Errors
/// A run there without `resume`, or a record that cannot be read.
pub fn load_manifest<M: DeserializeOwned>(
    layout: &Layout,
    resume: bool,
) -> Result<Option<M>, String> {
    let path = layout.file("manifest.toml");
    if !path.is_file() {
        return Ok(None);
    }
    if !resume {
        return Err(format!(
            "{} holds a run: pass --resume to continue it, or choose another --out",
            layout.dir.display()
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use cutlab_analysis::rows::GameRow;

    use super::{
        Layout, Step, StepRecord, check_finished_commands, record_step, recorded_steps, relocated,
        rows_of_finished, save_plan,
    };

    /// The records say which steps finished, in the plan's order whatever order they finished
    /// in; a run without records of its own says nothing.
    #[test]
    fn the_recorded_steps_follow_the_plan() {
        let dir = crate::common::scratch_dir("recorded");
        let layout = Layout { dir: dir.clone() };
        let plan = ["a", "b", "c"].map(|name| Step::new(name, &["depth"]));
        save_plan(&layout, &plan).unwrap();
        assert!(recorded_steps(&layout).is_none());
        for name in ["c", "a"] {
            record_step(&layout, &StepRecord::finished(name)).unwrap();
        }
        let names: Vec<String> = recorded_steps(&layout)
            .unwrap()
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["a", "c"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A finished step planned with another command stops the run before anything is
    /// written; the same command resumes.
    #[test]
    fn a_finished_step_planned_otherwise_is_refused() {
        let dir = std::env::temp_dir().join(format!("cutlab-replan-{}", std::process::id()));
        let layout = Layout { dir: dir.clone() };
        let step = Step::new("oracle", &["oracle", "--depth", "6"]);
        record_step(
            &layout,
            &StepRecord {
                command: step.command_line(),
                ..StepRecord::finished("oracle")
            },
        )
        .unwrap();
        let later = Step::new("other", &["depth"]);
        assert!(check_finished_commands(&layout, &[step.clone(), later.clone()]).is_ok());
        // More threads give the same rows sooner.
        let faster = step.clone().args(&["--threads", "16"]);
        assert!(check_finished_commands(&layout, &[faster]).is_ok());
        let deeper = Step::new("oracle", &["oracle", "--depth", "10"]);
        let refused = check_finished_commands(&layout, &[deeper, later]).unwrap_err();
        assert!(
            refused.contains("steps/oracle.toml")
                && refused.contains("finished with --depth 6, and this run plans --depth 10;"),
            "{refused}"
        );
        // Each option named, not the command lines: one added, one left out.
        let other = Step::new("oracle", &["oracle", "--depth", "6", "--engine", "x"]);
        let refused = check_finished_commands(&layout, &[other]).unwrap_err();
        assert!(
            refused.contains("no --engine, and this run plans --engine x"),
            "{refused}"
        );
        let fewer = Step::new("oracle", &["oracle"]);
        let refused = check_finished_commands(&layout, &[fewer]).unwrap_err();
        assert!(
            refused.contains("--depth 6, which this run leaves out"),
            "{refused}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Options in another order are the same command; two engines swapped are not.
    #[test]
    fn an_options_place_on_the_line_changes_nothing() {
        let recorded = "cutlab match --engine variant=a name=x --engine variant=b --nodes 5 \
                        --concurrency 2 --pgn m.pgn --out m.csv";
        let planned = "cutlab match --engine variant=a name=x --engine variant=b --out m.csv \
                       --pgn m.pgn --concurrency 16 --nodes 5";
        assert_eq!(super::rows_command(recorded), super::rows_command(planned));
        let swapped = "cutlab match --engine variant=b --engine variant=a name=x --nodes 5 \
                       --pgn m.pgn --out m.csv";
        assert_ne!(super::rows_command(recorded), super::rows_command(swapped));
        assert_ne!(
            super::rows_command("cutlab fit a.csv b.csv --out p"),
            super::rows_command("cutlab fit b.csv a.csv --out p")
        );
    }

    /// A run restored into another folder, or resumed from another working directory, finds
    /// its records spelt with the old folder: they answer the same plan.
    #[test]
    fn a_moved_run_answers_its_plan() {
        let planned = "cutlab match --out ./ab/a1/matches/x.csv --pgn ./ab/a1/matches/x.pgn";
        let recorded =
            "cutlab match --out nnue/ablate/matches/x.csv --pgn nnue/ablate/matches/x.pgn";
        assert_eq!(relocated(recorded, planned, "./ab/a1"), planned);
        assert_eq!(relocated(recorded, planned, "./ab/a1/"), planned);
        assert_eq!(relocated(planned, planned, "./ab/a1"), planned);
        // The folder itself, and words outside it, as well.
        assert_eq!(
            relocated(
                "cutlab ablate --out old --suite s.epd",
                "cutlab ablate --out new/x",
                "new"
            ),
            "cutlab ablate --out old --suite s.epd",
            "no word of the plan below the folder: nothing to read the old spelling off"
        );
        assert_eq!(
            relocated(
                "cutlab trace old/t.csv --dir old --suite old.epd",
                "cutlab trace new/t.csv",
                "new"
            ),
            "cutlab trace new/t.csv --dir new --suite old.epd"
        );
        // A path given as an engine's `variant=` word moves with the run.
        assert_eq!(
            relocated(
                "cutlab match --engine variant=/tmp/r/variants/a.toml --out /tmp/r/m.csv",
                "cutlab match --engine variant=./b/variants/a.toml --out ./b/m.csv",
                "./b"
            ),
            "cutlab match --engine variant=./b/variants/a.toml --out ./b/m.csv"
        );
        // Another command still differs after the move.
        let deeper = "cutlab oracle --depth 9 --out ab/o.csv";
        assert_ne!(
            relocated("cutlab oracle --depth 6 --out cd/o.csv", deeper, "ab"),
            deeper
        );
    }

    /// A step's file is read only once its record is there; then a file that does not parse
    /// is an error naming it, never an empty table.
    #[test]
    fn a_file_is_read_only_after_its_step_and_never_silently() {
        let dir = crate::common::scratch_dir("records");
        let path = dir.join("games.csv");
        std::fs::write(&path, "not,a,games,file\n1,2,3,4\n").unwrap();
        let mut steps = Vec::new();
        let before: Vec<GameRow> = rows_of_finished(&steps, "match", &path).unwrap();
        assert!(before.is_empty());
        steps.push(StepRecord::finished("match"));
        let after = rows_of_finished::<GameRow>(&steps, "match", &path).unwrap_err();
        assert!(after.contains("games.csv:2"), "{after}");
        let absent: Vec<GameRow> = rows_of_finished(&steps, "match", &dir.join("no.csv")).unwrap();
        assert!(absent.is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
