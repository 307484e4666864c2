//! Options several commands share, flattened into their arguments.

use std::path::PathBuf;

use clap::Args;
use cutlab_search::SearchConfig;
use cutlab_suites::Suite;
use serde::Serialize;

/// The most a transposition table may take, MiB (the UCI option's maximum).
pub const MAX_HASH_MIB: usize = 65_536;

/// `--hash-mb`: 1 to [`MAX_HASH_MIB`] MiB that this machine can allocate (a table larger than
/// its memory aborted the program when it was built).
///
/// # Errors
/// Not a number, out of range, or more than the machine can give.
pub fn hash_mib(text: &str) -> Result<usize, String> {
    let mib: usize = text
        .parse()
        .map_err(|_| format!("expected a size in MiB, 1..={MAX_HASH_MIB}, got '{text}'"))?;
    if !(1..=MAX_HASH_MIB).contains(&mib) {
        return Err(format!("expected 1..={MAX_HASH_MIB} MiB, got {mib}"));
    }
    // Ask for the memory without touching it: the allocator refuses what the machine cannot
    // give, and nothing is written.
    Vec::<u8>::new()
        .try_reserve_exact(mib << 20)
        .map(|()| mib)
        .map_err(|e| format!("{mib} MiB cannot be allocated on this machine: {e}"))
}

/// A count that must be at least 1 and at most `max` (games, pairs, nodes, threads), as
/// clap's `value_parser` for an option of type `T`.
///
/// # Errors
/// Not a whole number, 0, above `max`, or beyond `T`.
pub fn count_up_to<T: TryFrom<u64>>(
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync {
    move |text: &str| {
        let n: u64 = text
            .parse()
            .map_err(|_| format!("expected a whole number 1..={max}, got '{text}'"))?;
        if !(1..=max).contains(&n) {
            return Err(format!("expected 1..={max}, got {n}"));
        }
        T::try_from(n).map_err(|_| format!("{n} is too large here"))
    }
}

/// A positive, finite number (a learning rate, a factor), as clap's `value_parser`.
///
/// # Errors
/// Not a number, NaN, infinite, 0 or below.
pub fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("expected a positive number, got '{text}'")),
    }
}

/// A learning rate: a positive number at most 1 (Adam's steps are fractions of the weights'
/// scale; a rate of 1e30 once trained for hours to a network of infinities), as clap's
/// `value_parser`.
///
/// # Errors
/// Not a number, NaN, 0 or below, or above 1.
pub fn learning_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!(
            "expected a rate above 0 and at most 1, got '{text}'"
        )),
    }
}

/// A confidence or probability strictly between 0 and 1, as clap's `value_parser`.
///
/// # Errors
/// Not a number, NaN, or outside (0, 1).
pub fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!("expected a number between 0 and 1, got '{text}'")),
    }
}

/// A Slurm time limit (`sbatch --time`): `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM` or
/// `D-HH:MM:SS`, as clap's `value_parser`.
///
/// # Errors
/// Any other text.
pub fn slurm_time(text: &str) -> Result<String, String> {
    let bad = || format!("expected MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, got '{text}'");
    let (days, clock) = match text.split_once('-') {
        Some((d, c)) => (Some(d), c),
        None => (None, text),
    };
    let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let parts: Vec<&str> = clock.split(':').collect();
    let fits = parts.iter().all(|p| number(p))
        && match days {
            Some(d) => number(d) && (1..=3).contains(&parts.len()),
            None => (1..=3).contains(&parts.len()),
        };
    if fits {
        Ok(text.to_string())
    } else {
        Err(bad())
    }
}

/// A time per search in milliseconds (`--time-ms`): 1 ms to a day.
///
/// # Errors
/// Not a whole number, 0, or more than a day.
pub fn milliseconds(text: &str) -> Result<u64, String> {
    count_up_to(86_400_000)(text)
}

/// `--threads`: 1 to 1024 worker threads.
///
/// # Errors
/// Not a whole number, 0, or above 1024.
pub fn threads(text: &str) -> Result<usize, String> {
    count_up_to(1024)(text)
}

/// The options of a command that searches a suite into a result CSV (`depth`, `oracle`,
/// `regress`): how many searches at once, the table of each, where the rows go, whether to
/// continue them, and which slice of the suite (docs/outputs.md).
#[derive(Args, Debug, Serialize)]
pub struct RunOptions {
    /// Worker threads (one search each, each with its own transposition table).
    #[arg(long, default_value_t = 1, value_parser = threads)]
    pub threads: usize,
    /// Transposition table per search, MiB.
    #[arg(long, default_value_t = 16, value_parser = hash_mib)]
    pub hash_mb: usize,
    /// Output CSV.
    #[arg(long)]
    pub out: PathBuf,
    /// Keep the rows already in `--out` (made with the same settings) and run only the
    /// missing ones.
    #[arg(long)]
    pub resume: bool,
    /// Only this slice of the suite, `K/N` (K from 1).
    #[arg(long)]
    pub shard: Option<crate::common::shard::Shard>,
}

impl RunOptions {
    /// Refuses an `--out` that is a folder or the suite the rows come from (docs/outputs.md).
    ///
    /// # Errors
    /// As [`crate::common::results::distinct_outputs`].
    pub fn check_out(&self, suite: &SuiteOptions) -> Result<(), String> {
        let inputs: Vec<(&str, &std::path::Path)> = suite
            .suite
            .iter()
            .map(|p| ("--suite", p.as_path()))
            .collect();
        crate::common::results::distinct_outputs(&[("--out", &self.out)], &inputs)
    }
}

/// `--variant`: a preset, parts joined by `+`, or a TOML file, checked when the command line
/// is read.
///
/// # Errors
/// An unknown part or preset, or a file that cannot be read as a variant.
pub fn variant(text: &str) -> Result<String, String> {
    SearchConfig::resolve(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// `--variants`: a comma-separated list of variants, each as [`variant`], none named twice.
///
/// # Errors
/// An empty list, a variant named twice, or a bad variant.
pub fn variants(text: &str) -> Result<String, String> {
    for name in variant_list(text)? {
        variant(&name)?;
    }
    Ok(text.to_string())
}

/// Where the positions come from.
#[derive(Args, Debug, Serialize)]
pub struct SuiteOptions {
    /// EPD, FEN or PGN file (default: the built-in suite).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Skip malformed suite lines (and report how many) instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
}

impl SuiteOptions {
    /// The suite, or the built-in one.
    ///
    /// # Errors
    /// An unreadable or malformed suite (`file:line: problem`).
    pub fn load(&self) -> Result<Suite, String> {
        load_suite(self.suite.as_deref(), self.skip_invalid)
    }
}

/// The positions and the variants of a command that compares variants on them (`depth`,
/// `oracle`): the suite, the models applied to every variant, and the variants.
#[derive(Args, Debug, Serialize)]
pub struct Compared {
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    pub suite: SuiteOptions,
    /// Models and confidence.
    #[command(flatten)]
    #[serde(flatten)]
    pub models: ModelOptions,
    /// Variants to compare, comma-separated; the first is the reference of the paired
    /// differences.
    #[arg(long, default_value = "null-move,null-move+probcut,null-move+mpc",
          value_parser = variants)]
    pub variants: String,
}

impl Compared {
    /// The variants' names and their configurations, in order.
    ///
    /// # Errors
    /// An unknown variant, an unreadable parameter file, a bad confidence, or a confidence
    /// given where no variant has prob-ab (it would change nothing, silently).
    pub fn configs(&self) -> Result<(Vec<String>, Vec<SearchConfig>), String> {
        let names = variant_list(&self.variants)?;
        let configs: Vec<SearchConfig> = names
            .iter()
            .map(|v| self.models.config(v))
            .collect::<Result<_, _>>()?;
        if self.models.confidence.is_some() && configs.iter().all(|c| c.prob_ab.is_none()) {
            return Err(format!(
                "--confidence: applies to prob-ab, and no variant of '{}' has it",
                self.variants
            ));
        }
        Ok((names, configs))
    }
}

/// The models and confidence applied to the variants a command searches with.
#[derive(Args, Debug, Default, Serialize)]
pub struct ModelOptions {
    /// Confidence p of probabilistic alpha-beta (variants with `prob-ab`).
    #[arg(long)]
    pub confidence: Option<f64>,
    /// ProbCut/MPC parameter file written by `cutlab fit` (default: the built-in fit).
    #[arg(long)]
    pub params: Option<PathBuf>,
}

impl ModelOptions {
    /// The configuration of `variant` with these options applied.
    ///
    /// # Errors
    /// An unknown variant, an unreadable parameter file, or a bad confidence.
    pub fn config(&self, variant: &str) -> Result<SearchConfig, String> {
        resolve_config(variant, self.params.as_deref(), self.confidence)
    }
}

/// A variant (preset or TOML file) with ProbCut models from `params` and the prob-ab
/// confidence when given.
pub fn resolve_config(
    variant: &str,
    params: Option<&std::path::Path>,
    confidence: Option<f64>,
) -> Result<cutlab_search::SearchConfig, String> {
    let mut config = cutlab_search::SearchConfig::resolve(variant).map_err(|e| e.to_string())?;
    if let Some(path) = params {
        let fitted = cutlab_search::fit_params::FitParams::load(path)?;
        config.apply_params(&fitted).map_err(|e| e.to_string())?;
    }
    // Applies to the variants that have prob-ab (a list may mix them with others).
    if let Some(p) = confidence
        && config.prob_ab.is_some()
    {
        config.set_confidence(p).map_err(|e| e.to_string())?;
    }
    Ok(config)
}

/// The suite at `path`, or the built-in one.
pub fn load_suite(
    path: Option<&std::path::Path>,
    skip_invalid: bool,
) -> Result<cutlab_suites::Suite, String> {
    let mut suite = match path {
        Some(p) => cutlab_suites::load(p, skip_invalid).map_err(|e| e.to_string())?,
        None => cutlab_suites::builtin(),
    };
    if suite.skipped > 0 {
        eprintln!(
            "skipped {} malformed lines of {}",
            suite.skipped, suite.source
        );
    }
    without_terminal(&mut suite, "positions")?;
    Ok(suite)
}

/// The suite without its positions that have no legal move (a mate scored as a draw at
/// depth 0, a 0-ply game), said with their count and first ids.
///
/// # Errors
/// No position is left.
pub fn without_terminal(suite: &mut cutlab_suites::Suite, what: &str) -> Result<(), String> {
    let dropped = suite.drop_terminal();
    if !dropped.is_empty() {
        let shown: Vec<&str> = dropped.iter().take(5).map(String::as_str).collect();
        eprintln!(
            "{}: skipped {} {what} with no legal move (checkmate or stalemate): {}{}",
            suite.source,
            dropped.len(),
            shown.join(", "),
            if dropped.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        );
    }
    if suite.positions.is_empty() {
        return Err(format!("{}: no {what} to use", suite.source));
    }
    Ok(())
}

/// The variants of a comma-separated list, each under its one name (a preset's parts under
/// their current names; a file as given).
///
/// # Errors
/// An empty list (it once gave an empty table and exit 0), an empty item (`a,,b`: a typo,
/// not a variant), or a variant named twice (each of its rows came twice).
pub fn variant_list(text: &str) -> Result<Vec<String>, String> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.iter().all(|v| v.is_empty()) {
        return Err(format!("no variant in '{text}'"));
    }
    if items.iter().any(|v| v.is_empty()) {
        return Err(format!(
            "an empty variant in '{text}' (two commas, or one at an end)"
        ));
    }
    let names: Vec<String> = items
        .into_iter()
        .map(SearchConfig::canonical_name)
        .collect();
    if let Some(name) = repeated(&names) {
        return Err(format!(
            "'{name}' is named twice (its rows would come twice)"
        ));
    }
    Ok(names)
}

/// `Err` naming the first item of `items` that comes twice.
///
/// # Errors
/// An item named twice.
pub fn no_repeats<T: PartialEq + std::fmt::Display>(
    option: &str,
    items: &[T],
) -> Result<(), String> {
    match repeated(items) {
        Some(item) => Err(format!(
            "{option}: '{item}' is named twice (its rows would come twice)"
        )),
        None => Ok(()),
    }
}

/// The first item of `items` that comes twice.
fn repeated<T: PartialEq>(items: &[T]) -> Option<&T> {
    items
        .iter()
        .enumerate()
        .find(|(i, item)| items[..*i].contains(item))
        .map(|(_, item)| item)
}
/// Parses `key=value,...` into the values of `keys`, in their order (`--sprt`, `--draw`).
///
/// # Errors
/// A part that is not `key=value`, an unknown key, a key given twice, a value that is not a
/// finite number (NaN and infinities are refused as such), or a missing key.
pub fn parse_kv(text: &str, what: &str, keys: &[&str]) -> Result<Vec<f64>, String> {
    let mut values: Vec<Option<f64>> = vec![None; keys.len()];
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--{what}: '{part}' is not key=value"))?;
        let i = keys
            .iter()
            .position(|&key| key == k)
            .ok_or_else(|| format!("--{what}: unknown key '{k}'"))?;
        if values[i].is_some() {
            return Err(format!("--{what}: {k} is given twice"));
        }
        values[i] = Some(
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("--{what}: {k}: '{v}' is not a finite number"))?,
        );
    }
    keys.iter()
        .zip(values)
        .map(|(key, v)| v.ok_or_else(|| format!("--{what}: missing {key}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::parse_kv;

    /// A key=value list names what is wrong: a NaN or an infinity is not a number here (it
    /// once read as a missing key), and a key given twice is refused rather than overwritten.
    #[test]
    fn an_empty_variant_in_a_list_is_refused() {
        assert_eq!(
            super::variant_list("null-move, lmr").unwrap(),
            ["null-move", "lmr"]
        );
        for text in ["null-move,,lmr", "null-move,", ",", ""] {
            assert!(super::variant_list(text).is_err(), "{text}");
        }
    }

    #[test]
    fn key_value_lists_name_each_problem() {
        let keys = ["elo0", "elo1"];
        assert_eq!(parse_kv("elo0=0,elo1=5", "sprt", &keys), Ok(vec![0.0, 5.0]));
        for (text, problem) in [
            ("elo0=NaN,elo1=5", "elo0: 'NaN' is not a finite number"),
            ("elo0=0,elo1=inf", "elo1: 'inf' is not a finite number"),
            ("elo0=0,elo0=1,elo1=5", "elo0 is given twice"),
            ("elo0=0", "missing elo1"),
            ("elo2=0", "unknown key 'elo2'"),
        ] {
            let e = parse_kv(text, "sprt", &keys).unwrap_err();
            assert_eq!(e, format!("--sprt: {problem}"), "{text}");
        }
    }
}
