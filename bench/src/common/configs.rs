//! The configuration beside each result file (`<out>.config.toml`): the command, its options,
//! its inputs by content and each variant's search configuration and signature, so that a
//! row is read with what made it; a resume under other settings is refused, naming them, and
//! a run moved or restored elsewhere keeps its settings.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use cutlab_search::SearchConfig;
use cutlab_suites::Suite;
use serde::Serialize;

use super::content_hash::{self, ContentHash};
use super::results::{create_parent, has_rows};

/// Writes `<out stem>.<variant>.config.toml` for every variant beside the run's `--out`, its
/// `--threads` at a time (each computes its variant's signature: a few seconds, probabilistic
/// alpha-beta's tens).
///
/// # Errors
/// A file that cannot be written.
pub fn write_variant_configs<A: Serialize + Sync>(
    run: &super::options::RunOptions,
    command: &str,
    args: &A,
    variants: &[&str],
    configs: &[SearchConfig],
    suite: &Suite,
) -> Result<(), String> {
    let out = &run.out;
    // Called once the rows are read: rows in `out` mean a resumed run.
    let resuming = has_rows(out);
    let work: Vec<(&&str, &SearchConfig)> = variants.iter().zip(configs).collect();
    super::parallel::run(
        &work,
        run.threads,
        || Ok(()),
        |(), (variant, config)| {
            let path = PathBuf::from(format!(
                "{}.{}.csv",
                out.with_extension("").display(),
                variant.replace(['+', '/', ':', '@'], "_")
            ));
            write_config(&path, command, args, config, suite, resuming)
        },
        |written| written,
    )
}

/// Keys of `[args]` that say how the work is spread, where it goes or how much of it there is,
/// not what a row holds: a resumed run may change them (a match resumed with more games, or
/// with an SPRT, extends it; a training resumed with more epochs too, or quantised at
/// another output scale, which no row of its losses depends on).
const WORK_KEYS: [&str; 13] = [
    "resume",
    "force",
    "threads",
    "shard",
    "out",
    "pgn",
    "scores",
    "concurrency",
    "games",
    "rounds",
    "sprt",
    "epochs",
    "output_scale",
];

/// A recorded value with any path in it (a whole value, or the value of a `key=` word) by its
/// file name alone: a run resumed from another working directory, or restored into another
/// folder, spells its inputs' folders otherwise. What a file holds is recorded by content
/// beside it (`suite_content`, `args.openings_content`, `args.data_content`; a search's
/// configuration and signature), so a file of the same name and other content still differs.
fn file_named(text: &str) -> String {
    let (key, value) = match text.split_once('=') {
        Some((key, value)) if !key.contains('/') => (Some(key), value),
        _ => (None, text),
    };
    let name = if value.contains('/') {
        value.rsplit('/').next().unwrap_or(value)
    } else {
        value
    };
    key.map_or_else(|| name.to_string(), |k| format!("{k}={name}"))
}

/// The settings `new` records that differ from those `old` recorded (`args`, other than
/// [`WORK_KEYS`], `search`, the search signatures and the suite), as `key: old -> new`.
fn changed_settings(old: &toml::Table, new: &toml::Table) -> Vec<String> {
    fn flatten(prefix: &str, value: &toml::Value, out: &mut Vec<(String, String)>) {
        match value {
            toml::Value::Table(table) => {
                for (key, v) in table {
                    flatten(&format!("{prefix}.{key}"), v, out);
                }
            }
            toml::Value::Array(items) => {
                for (k, v) in items.iter().enumerate() {
                    flatten(&format!("{prefix}.{k}"), v, out);
                }
            }
            toml::Value::String(text) => out.push((prefix.to_string(), file_named(text))),
            other => out.push((prefix.to_string(), other.to_string())),
        }
    }
    let settings = |table: &toml::Table| {
        let mut flat = Vec::new();
        for key in [
            "args",
            "search",
            "search_signature",
            "suite_source",
            "positions",
            "suite_content",
        ] {
            if let Some(value) = table.get(key) {
                flatten(key, value, &mut flat);
            }
        }
        flat.retain(|(key, _)| !WORK_KEYS.iter().any(|work| key == &format!("args.{work}")));
        flat.into_iter()
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    // Files written before signatures were recorded have none: compared where both have one.
    let signed = old.contains_key("search_signature");
    let hashed = old.contains_key("suite_content");
    let (old, mut new) = (settings(old), settings(new));
    if !signed {
        new.retain(|key, _| !key.starts_with("search_signature."));
    }
    // Files written before the suite's content was recorded: compared by name and count.
    if !hashed {
        new.remove("suite_content");
    }
    // Training runs written before their data's content was recorded, and matches before
    // their openings' was: compared by name.
    for key in ["args.data_content", "args.openings_content"] {
        if !old.contains_key(key) {
            new.remove(key);
        }
    }
    // The files the searches read whose content the signature holds (a network, parameters):
    // a signature that moved under unchanged settings names them.
    let read_files: Vec<String> = new
        .iter()
        .filter(|(key, value)| {
            key.ends_with(".network") || key.ends_with(".params") || value.ends_with(".nnue")
        })
        .flat_map(|(_, value)| {
            value
                .split(['+', ' ', ','])
                .filter_map(|part| part.rsplit(['=', '@']).next())
                .filter(|part| part.ends_with(".nnue") || part.ends_with(".toml"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter(|key| old.get(*key) != new.get(*key))
        .map(|key| {
            let side = |m: &std::collections::BTreeMap<String, String>| {
                m.get(key).cloned().unwrap_or_else(|| "(none)".into())
            };
            let why = if key.starts_with("search_signature.") && !read_files.is_empty() {
                format!(
                    " (this build searches otherwise, or a file it reads changed: {})",
                    read_files.join(", ")
                )
            } else if key.starts_with("search_signature.") {
                " (this build searches otherwise)".to_string()
            } else {
                String::new()
            };
            format!("{key}: {} -> {}{why}", side(&old), side(&new))
        })
        .collect()
}

/// Writes `<out stem>.config.toml`: command, arguments, version, suite and search configuration.
/// When `resuming` (rows of an earlier run are kept), the file it finds must record the same
/// settings: rows made with others are not mixed in silently.
///
/// # Errors
/// A resumed run whose settings differ from the recorded ones (each difference named), or a
/// file that cannot be read or written.
pub fn write_config<A: serde::Serialize>(
    out: &std::path::Path,
    command: &str,
    args: &A,
    config: &cutlab_search::SearchConfig,
    suite: &cutlab_suites::Suite,
    resuming: bool,
) -> Result<(), String> {
    write_run_config(
        out,
        command,
        args,
        (Some((config, suite)), &[("search", config)]),
        resuming,
    )
}

/// Writes `<out stem>.config.toml` for a command that has no one search configuration (a
/// match: its engines are in its arguments): command, arguments, version and the signature of
/// each of its `searches` (name, configuration); a resumed run must record the same settings,
/// as for [`write_config`].
///
/// # Errors
/// As [`write_config`].
pub fn write_args_config<A: serde::Serialize>(
    out: &std::path::Path,
    command: &str,
    args: &A,
    searches: &[(&str, &cutlab_search::SearchConfig)],
    resuming: bool,
) -> Result<(), String> {
    write_run_config(out, command, args, (None, searches), resuming)
}

/// The search signature ([`signature`]) of each named search.
///
/// [`signature`]: crate::common::bench::signature
fn signatures(
    searches: &[(&str, &cutlab_search::SearchConfig)],
) -> Result<std::collections::BTreeMap<String, u64>, String> {
    searches
        .iter()
        .map(|(name, config)| {
            Ok((
                (*name).to_string(),
                crate::common::bench::signature(config)?,
            ))
        })
        .collect()
}

/// The search configuration and suite of a command that has one, and the searches whose
/// signatures it records.
type Searched<'a> = (
    Option<(&'a cutlab_search::SearchConfig, &'a cutlab_suites::Suite)>,
    &'a [(&'a str, &'a cutlab_search::SearchConfig)],
);

/// The configuration file of [`write_config`] and [`write_args_config`]: the suite and search
/// configuration only where the command has them, the signatures of its searches.
fn write_run_config<A: serde::Serialize>(
    out: &std::path::Path,
    command: &str,
    args: &A,
    (searched, searches): Searched,
    resuming: bool,
) -> Result<(), String> {
    #[derive(serde::Serialize)]
    struct Written<'a, A> {
        cutlab_version: &'a str,
        command: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        suite_source: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        positions: Option<usize>,
        /// The suite's content (its positions' EPD, in order), hashed: a file changed under
        /// the same name is another suite.
        #[serde(skip_serializing_if = "Option::is_none")]
        suite_content: Option<String>,
        args: &'a A,
        #[serde(skip_serializing_if = "Option::is_none")]
        search: Option<&'a cutlab_search::SearchConfig>,
        #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        search_signature: std::collections::BTreeMap<String, u64>,
    }
    let text = toml::to_string(&Written {
        cutlab_version: env!("CARGO_PKG_VERSION"),
        command,
        suite_source: searched.map(|(_, suite)| suite.source.as_str()),
        positions: searched.map(|(_, suite)| suite.positions.len()),
        suite_content: searched.map(|(_, suite)| suite_content(suite)),
        args,
        search: searched.map(|(config, _)| config),
        search_signature: signatures(searches)?,
    })
    .map_err(|e| format!("configuration: {e}"))?;
    write_checked(&out.with_extension("config.toml"), &text, resuming)
}

/// The 64-bit FNV-1a hash of a suite's positions as EPD, in order, in hex: stable across
/// builds and machines (std's hasher is not).
#[must_use]
pub fn suite_content(suite: &cutlab_suites::Suite) -> String {
    let mut hash = ContentHash::default();
    for p in &suite.positions {
        hash.write(p.to_epd().as_bytes());
        hash.write(b"\n");
    }
    content_hash::hex(&hash)
}

/// Checks that the result files `outs` were made with the same settings (the shards of one
/// run, or one run and its resumption), by the configuration recorded beside each: the
/// settings [`write_config`] compares on a resume. A file without its configuration is named
/// in a warning and not checked.
///
/// # Errors
/// Two files whose recorded settings differ (each difference named), or a configuration that
/// cannot be read.
pub fn same_settings(outs: &[PathBuf]) -> Result<(), String> {
    let mut first: Option<(&PathBuf, toml::Table)> = None;
    for out in outs {
        let path = out.with_extension("config.toml");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!(
                "cutlab: warning: {}: no configuration beside it ({}); its settings are not \
                 checked against the other files'",
                out.display(),
                path.display()
            );
            continue;
        };
        let table = text
            .parse::<toml::Table>()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        match &first {
            None => first = Some((out, table)),
            Some((first_out, first_table)) => {
                let changed = changed_settings(first_table, &table);
                if !changed.is_empty() {
                    return Err(format!(
                        "{} and {} were made with other settings: {}",
                        first_out.display(),
                        out.display(),
                        changed.join(", ")
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Writes `text` to `path`; when `resuming`, first checks that the settings it records are
/// those `path` recorded.
fn write_checked(path: &Path, text: &str, resuming: bool) -> Result<(), String> {
    if resuming && let Ok(recorded) = std::fs::read_to_string(path) {
        let parse = |t: &str| {
            t.parse::<toml::Table>()
                .map_err(|e| format!("{}: {e}", path.display()))
        };
        let changed = changed_settings(&parse(&recorded)?, &parse(text)?);
        if !changed.is_empty() {
            return Err(format!(
                "--resume with other settings than the rows were made with ({}): {}; rerun \
                 with the recorded settings, or write to a new --out",
                path.display(),
                changed.join(", ")
            ));
        }
    }
    create_parent(path)?;
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::changed_settings;

    /// A run resumed from another working directory, or restored elsewhere, spells its
    /// inputs' folders otherwise: the same settings. Another content, or another preset, is
    /// another run.
    #[test]
    fn a_moved_run_keeps_its_settings() {
        let table = |suite: &str, content: &str, variant: &str| -> toml::Table {
            toml::from_str(&format!(
                "suite_source = \"{suite}\"\nsuite_content = \"{content}\"\n\
                 [args]\nsuite = \"{suite}\"\nengine = [\"variant={variant}\", \"name=a\"]\n"
            ))
            .unwrap()
        };
        let old = table("k1/positions.epd", "ab", "k1/variants/x.toml");
        let moved = table("/tmp/k1/positions.epd", "ab", "/tmp/k1/variants/x.toml");
        assert_eq!(changed_settings(&old, &moved), Vec::<String>::new());
        let other = table("/tmp/k1/positions.epd", "cd", "/tmp/k1/variants/x.toml");
        assert_eq!(changed_settings(&old, &other), ["suite_content: ab -> cd"]);
        let preset = |v: &str| table("p.epd", "ab", v);
        assert_eq!(
            changed_settings(&preset("modern"), &preset("null-move")),
            ["args.engine.0: variant=modern -> variant=null-move"]
        );
    }

    /// A signature that moved under the same settings names the files the search reads (a
    /// network changed under its name is refused as that, not only as a number).
    #[test]
    fn a_moved_signature_names_the_files_the_search_reads() {
        let table = |signature: u64| -> toml::Table {
            toml::from_str(&format!(
                "[args]\nengine = [\"variant=modern+nnue@nets/mine.nnue\", \"name=a\"]\n\
                 [search_signature]\na = {signature}\n"
            ))
            .unwrap()
        };
        assert_eq!(
            changed_settings(&table(1), &table(2)),
            [
                "search_signature.a: 1 -> 2 (this build searches otherwise, or a file it reads \
                 changed: mine.nnue)"
            ]
        );
    }
}
