//! What an ablation compares: each variant against its reference (the stack or the
//! baseline), in one of four directions, and the comparisons its options ask for.

use cutlab_search::SearchConfig;
use serde::{Deserialize, Serialize};

use super::{AblateArgs, DOUBLED, SEED_METHODS};

/// The kind of a comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The stack without one of its methods, against the stack.
    #[default]
    Without,
    /// The baseline with one method, against the baseline.
    With,
    /// The stack with one extra method, against the stack.
    Added,
    /// The stack at twice the nodes per move, against the stack: what a doubling of the
    /// effort is worth, the exchange rate between a method's cost per node and Elo.
    Doubled,
}

impl Direction {
    /// The direction as files, tables and options spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Direction::Without => "without",
            Direction::With => "with",
            Direction::Added => "added",
            Direction::Doubled => "doubled",
        }
    }

    /// The label of `method`'s comparison of this direction in tables, figures and sentences.
    #[must_use]
    pub fn label(self, method: &str) -> String {
        match self {
            Direction::Without => format!("without {method}"),
            Direction::With => format!("{method} added to the baseline"),
            Direction::Added => format!("{method} added"),
            Direction::Doubled => "twice the nodes".to_string(),
        }
    }

    /// Whether comparisons of this direction are played at effort `k` (from 0): all at the
    /// first, all but `with` at the others.
    #[must_use]
    pub fn played_at(self, k: usize) -> bool {
        k == 0 || self != Direction::With
    }

    /// What a variant of this direction is measured against.
    #[must_use]
    pub fn reference(self) -> Reference {
        match self {
            Direction::With => Reference::Baseline,
            Direction::Without | Direction::Added | Direction::Doubled => Reference::Stack,
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a comparison's variant is measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The stack (`--stack`).
    Stack,
    /// The baseline (`--baseline`).
    Baseline,
}

impl Reference {
    /// The reference as step names and match engines spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reference::Stack => "stack",
            Reference::Baseline => "baseline",
        }
    }
}

/// One comparison: a variant against its reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// What is compared: the stack without the method, the baseline with it, or the stack
    /// with an extra method.
    pub direction: Direction,
    /// The method (preset part).
    pub method: String,
    /// The variant measured.
    pub variant: String,
}

impl Comparison {
    /// The method whose cut events the comparison reads (every null-move form cuts as
    /// `null-move`).
    #[must_use]
    pub fn traced_method(&self) -> &str {
        if self.method.starts_with("null-move") {
            "null-move"
        } else {
            &self.method
        }
    }

    /// What the variant is measured against.
    #[must_use]
    pub fn reference(&self) -> Reference {
        self.direction.reference()
    }

    /// Whether the variant searches a tree of its own: the stack at twice the nodes searches
    /// the stack's, so it has no searches at fixed depth or time and no trace.
    #[must_use]
    pub fn searches_a_tree(&self) -> bool {
        self.direction != Direction::Doubled
    }

    /// The comparison's name in files and steps, e.g. `without-rfp` ([`name`]).
    #[must_use]
    pub fn name(&self) -> String {
        name(self.direction.name(), &self.method)
    }
}

/// One match of an ablation: its effort and its comparison's name. The one writer and reader
/// of the match's step name (`match-NODES-NAME`) and games file (`matches/NODES/NAME.csv`),
/// which the runner, the budget, the report and `replay` know it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchKey {
    /// Nodes a move.
    pub nodes: u64,
    /// The comparison's name ([`name`]).
    pub name: String,
}

impl MatchKey {
    /// What every match step's name starts with.
    const PREFIX: &'static str = "match-";

    /// The match of comparison `name` at `nodes` a move.
    #[must_use]
    pub fn new(nodes: u64, name: impl Into<String>) -> MatchKey {
        MatchKey {
            nodes,
            name: name.into(),
        }
    }

    /// The match of comparison `c` at `nodes` a move.
    #[must_use]
    pub fn of(c: &Comparison, nodes: u64) -> MatchKey {
        MatchKey::new(nodes, c.name())
    }

    /// The match a step of the run's plan is, read from its name; `None` for another step.
    #[must_use]
    pub fn from_step(step: &str) -> Option<MatchKey> {
        let (nodes, name) = step.strip_prefix(Self::PREFIX)?.split_once('-')?;
        Some(MatchKey::new(nodes.parse().ok()?, name))
    }

    /// Whether the step named `step` is a match.
    #[must_use]
    pub fn is_match(step: &str) -> bool {
        MatchKey::from_step(step).is_some()
    }

    /// Its step's name.
    #[must_use]
    pub fn step(&self) -> String {
        format!("{}{}-{}", Self::PREFIX, self.nodes, self.name)
    }

    /// Its games' CSV, relative to the run.
    #[must_use]
    pub fn games_file(&self) -> String {
        format!("matches/{}/{}.csv", self.nodes, self.name)
    }
}

/// A comparison's name in files and steps, e.g. `without-rfp`; a part read from a file is
/// named by the file's stem (`without-nnue-embedded` for `nnue@search/nets/embedded.nnue`), as
/// a path cannot be part of a file's name.
#[must_use]
pub fn name(direction: &str, method: &str) -> String {
    match method.split_once('@') {
        Some((part, file)) => {
            let stem = std::path::Path::new(file).file_stem().map_or_else(
                || file.replace('/', "-"),
                |s| s.to_string_lossy().into_owned(),
            );
            format!("{direction}-{part}-{stem}")
        }
        None => format!("{direction}-{method}"),
    }
}

/// An effort that plays only some of the run's comparisons (`ablate --only NODES=NAME,...`):
/// a rung of the ladder played for a few methods, its report read beside the efforts below.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Only {
    /// Nodes per move of the effort.
    pub nodes: u64,
    /// The comparisons it plays, by name ([`Comparison::name`]: `without-lmp`,
    /// `doubled-twice-the-nodes`).
    pub comparisons: Vec<String>,
}

impl std::str::FromStr for Only {
    type Err = String;

    /// `320000=without-lmp,doubled-twice-the-nodes`.
    fn from_str(s: &str) -> Result<Only, String> {
        let (nodes, names) = s.split_once('=').ok_or(format!(
            "'{s}': give NODES=NAME,NAME,... (e.g. 320000=without-lmp)"
        ))?;
        let nodes = nodes
            .trim()
            .parse()
            .map_err(|e| format!("'{s}': nodes '{nodes}': {e}"))?;
        let comparisons: Vec<String> = names
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        if comparisons.is_empty() {
            return Err(format!("'{s}': no comparison named"));
        }
        crate::common::options::no_repeats("--only", &comparisons)?;
        Ok(Only { nodes, comparisons })
    }
}

impl std::fmt::Display for Only {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.nodes, self.comparisons.join(","))
    }
}

/// Whether the comparison of `direction` named `name` ([`Comparison::name`]) plays at effort
/// `k` of the run, `nodes` a move: where its direction plays ([`Direction::played_at`]), and
/// where that effort plays only some comparisons (`only`), among them.
#[must_use]
pub fn plays(direction: Direction, name: &str, (k, nodes): (usize, u64), only: &[Only]) -> bool {
    direction.played_at(k)
        && only
            .iter()
            .filter(|o| o.nodes == nodes)
            .all(|o| o.comparisons.iter().any(|c| c == name))
}

/// Checks `only` against the run's `efforts` and `comparisons`: one entry an effort, above the
/// first (which plays every comparison), each naming comparisons that the effort plays by
/// their direction and that every effort below it plays, so that each comparison's efforts
/// run from the first without a gap and its line over them reads as every other.
///
/// # Errors
/// The option and the entry at fault.
pub fn check_only(
    only: &[Only],
    efforts: &[u64],
    comparisons: &[Comparison],
) -> Result<(), String> {
    let at: Vec<u64> = only.iter().map(|o| o.nodes).collect();
    crate::common::options::no_repeats("--only", &at)?;
    for o in only {
        let k = efforts
            .iter()
            .position(|&n| n == o.nodes)
            .ok_or(format!("--only {o}: {} is not one of --nodes", o.nodes))?;
        if k == 0 {
            return Err(format!(
                "--only {o}: the first effort plays every comparison; give a higher one"
            ));
        }
        for name in &o.comparisons {
            let c = comparisons
                .iter()
                .find(|c| c.name() == *name)
                .ok_or(format!(
                    "--only {o}: '{name}' is not a comparison of this run"
                ))?;
            if let Some(gap) = (0..=k).find(|&j| !plays(c.direction, name, (j, efforts[j]), only)) {
                return Err(format!(
                    "--only {o}: '{name}' is not played at {} nodes",
                    efforts[gap]
                ));
            }
        }
    }
    Ok(())
}

/// Joins preset parts into a variant name.
pub fn join(parts: &[String]) -> String {
    parts.join("+")
}

/// Whether two parts are of one family (one null-move rule at a time).
fn same_family(a: &str, b: &str) -> bool {
    a == b || (a.starts_with("null-move") && b.starts_with("null-move"))
}

/// The part of variant `reference` that `method`, added to it, takes the place of: another
/// rule of its family (a null-move rule for a null-move rule), or none.
#[must_use]
pub fn replaced_part<'a>(reference: &'a str, method: &str) -> Option<&'a str> {
    reference
        .split('+')
        .find(|p| *p != method && same_family(p, method))
}

/// Whether a part is the evaluation (`nnue`, `nnue@FILE`), not a forward-pruning method: it is
/// not measured unless named in `--methods`, and the baseline takes the stack's.
fn is_evaluation(part: &str) -> bool {
    cutlab_search::part_kind(part) == cutlab_search::PartKind::Evaluation
}

/// A whole rung of the effort ladder over `stack`, spelled out as a manifest holds it (issue
/// 55: every method of the stack left out; ProbCut, MPC, the null moves and the Multi-Cut
/// forms added; a doubling), as counts: the stack's methods, the seeds' methods added and the
/// matches in all. Probabilistic alpha-beta is not added: it replaces the node function
/// rather than adding to a stack.
#[must_use]
pub fn whole_rung(stack: &str) -> (usize, usize, usize) {
    let parts: Vec<&str> = stack.split('+').collect();
    let methods = parts.iter().filter(|p| !is_evaluation(p)).count();
    let added = SEED_METHODS
        .split(',')
        .filter(|m| *m != "prob-ab" && !parts.contains(m))
        .count();
    (methods, added, methods + added + 1)
}

/// `parts` with `method` in place of its family's part (added when none is there).
fn with_method(parts: &[String], method: &str) -> String {
    let mut out: Vec<String> = parts
        .iter()
        .filter(|p| !same_family(p, method))
        .cloned()
        .collect();
    out.push(method.to_string());
    join(&out)
}

/// Canonical names of a comma-separated method list (`none` alone: no methods).
fn method_names(names: &[String], option: &str) -> Result<Vec<String>, String> {
    if names.len() == 1 && names[0].trim() == "none" {
        return Ok(Vec::new());
    }
    let names: Vec<String> = names
        .iter()
        .map(|m| SearchConfig::canonical_name(m.trim()))
        .collect();
    crate::common::options::no_repeats(option, &names)?;
    Ok(names)
}

/// The stack's parts, the baseline's parts, and the comparisons.
pub type Plan = (Vec<String>, Vec<String>, Vec<Comparison>);

/// The comparisons: each method of the stack left out of it and added to the baseline (where
/// the baseline lacks it), each extra added to the stack and to the baseline.
pub fn comparisons(args: &AblateArgs) -> Result<Plan, String> {
    let stack = SearchConfig::parts(&args.stack).map_err(|e| format!("--stack: {e}"))?;
    let mut baseline =
        SearchConfig::parts(&args.baseline).map_err(|e| format!("--baseline: {e}"))?;
    // Everything is measured under the stack's evaluation: the baseline takes it too.
    if !baseline.iter().any(|p| is_evaluation(p)) {
        baseline.extend(stack.iter().filter(|p| is_evaluation(p)).cloned());
    }
    let methods = if args.methods.is_empty() {
        stack
            .iter()
            .filter(|p| !is_evaluation(p))
            .cloned()
            .collect()
    } else {
        method_names(&args.methods, "--methods")?
    };
    let extras = method_names(&args.extras, "--extras")?;
    let directions: Vec<&str> = args.directions.iter().map(|d| d.name()).collect();
    crate::common::options::no_repeats("--directions", &directions)?;
    let mut out = Vec::new();
    let mut push = |direction: Direction, method: &str, variant: String| -> Result<(), String> {
        SearchConfig::preset(&variant).map_err(|e| format!("method '{method}': {e}"))?;
        if !args.directions.contains(&direction) {
            return Ok(());
        }
        out.push(Comparison {
            direction,
            method: method.to_string(),
            variant,
        });
        Ok(())
    };
    for m in &methods {
        if !stack.contains(m) {
            return Err(format!("--methods: '{m}' is not a part of the stack"));
        }
        let without: Vec<String> = stack.iter().filter(|p| *p != m).cloned().collect();
        push(Direction::Without, m, join(&without))?;
        if !baseline.contains(m) {
            push(Direction::With, m, with_method(&baseline, m))?;
        }
    }
    for x in &extras {
        if stack.contains(x) {
            return Err(format!(
                "--extras: '{x}' is a part of the stack (give it in --methods)"
            ));
        }
        push(Direction::Added, x, with_method(&stack, x))?;
        if !baseline.contains(x) {
            push(Direction::With, x, with_method(&baseline, x))?;
        }
    }
    if args.directions.contains(&Direction::Doubled) {
        out.push(Comparison {
            direction: Direction::Doubled,
            method: DOUBLED.to_string(),
            variant: join(&stack),
        });
    }
    if out.is_empty() {
        return Err(
            "no comparisons to make (--methods, --extras and --directions leave none)".into(),
        );
    }
    Ok((stack, baseline, out))
}

#[cfg(test)]
mod tests {
    use super::MatchKey;

    /// A match's step name and games file are written and read back by one type.
    #[test]
    fn a_match_is_known_by_its_key() {
        let key = MatchKey::new(320_000, "without-lmp");
        assert_eq!(key.step(), "match-320000-without-lmp");
        assert_eq!(key.games_file(), "matches/320000/without-lmp.csv");
        assert_eq!(MatchKey::from_step(&key.step()), Some(key));
        for other in [
            "size-stack",
            "match-x-without-lmp",
            "match-5000",
            "replay-5000-a",
        ] {
            assert!(!MatchKey::is_match(other), "{other}");
        }
    }

    /// A part read from a file is named by the file's stem, so that the comparison's name can
    /// name its files (the network left out of `modern+nnue@FILE`: the classical evaluation).
    #[test]
    fn a_part_read_from_a_file_is_named_by_its_stem() {
        assert_eq!(super::name("without", "rfp"), "without-rfp");
        assert_eq!(
            super::name("without", "nnue@search/nets/embedded.nnue"),
            "without-nnue-embedded"
        );
    }

    /// A null-move rule added takes the place of the reference's own (its variant holds one
    /// rule), which the report names; another method replaces nothing.
    #[test]
    fn a_null_move_rule_added_replaces_the_references_own() {
        let stack = "null-move-modern+lmr+rfp";
        assert_eq!(
            super::replaced_part(stack, "null-move-r3"),
            Some("null-move-modern")
        );
        assert_eq!(
            super::with_method(&["null-move-modern".into(), "lmr".into()], "null-move-r3"),
            "lmr+null-move-r3"
        );
        assert_eq!(super::replaced_part(stack, "mpc"), None);
        assert_eq!(super::replaced_part("null-move+lmr", "null-move"), None);
    }
}
