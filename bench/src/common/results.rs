//! Result files of the experiments: rows appended and flushed as they come, a rerun resuming
//! from the rows already there (the configuration beside them: [`super::configs`]).

use std::{
    collections::HashSet,
    fs::{File, OpenOptions},
    path::{Path, PathBuf},
};

use cutlab_suites::SuitePosition;
use serde::{Serialize, de::DeserializeOwned};

/// Whether `path` holds a row past its header. A file with its header alone (or part of it),
/// as a run killed before its first row leaves it, holds nothing to resume or to keep: a new
/// run writes it afresh.
pub fn has_rows(path: &Path) -> bool {
    use std::io::BufRead as _;
    let Ok(file) = File::open(path) else {
        return false;
    };
    // The first read error ends the scan: a folder opens on Linux and then fails every read,
    // which once made this loop for ever (`depth --out DIR`).
    std::io::BufReader::new(file)
        .split(b'\n')
        .map_while(Result::ok)
        .skip(1)
        .any(|line| !line.trim_ascii().is_empty())
}

/// Refuses a folder where a file is to be written (an output named as an existing folder).
///
/// # Errors
/// `path` is a folder, named with `option`.
pub fn not_a_folder(path: &Path, option: &str) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "{}: {option} names a folder; give a file's path",
            path.display()
        ));
    }
    Ok(())
}

/// Refuses inputs of which two name one file (however spelt): their data would count twice.
///
/// # Errors
/// The second of two such inputs, named with the first and `option`.
pub fn distinct_inputs(inputs: &[PathBuf], option: &str) -> Result<(), String> {
    for (i, input) in inputs.iter().enumerate() {
        if let Some(earlier) = inputs[..i].iter().find(|e| same_file(e, input)) {
            return Err(format!(
                "{option}: {} is named twice (also as {}): its data would count twice",
                input.display(),
                earlier.display()
            ));
        }
    }
    Ok(())
}

/// Where `path` points, spelt one way: its folder resolved (links, `..`, the working
/// directory) when it exists, so that `a.csv` and `./x/../a.csv` compare equal before either
/// file is written.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(full) = path.canonicalize() {
        return full;
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match (folder.canonicalize(), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// The rule for every command's files (docs/outputs.md): each output names a file of its own,
/// neither one of the command's inputs nor another of its outputs, and not a folder. Checked
/// before anything is read or written, each file named by its option.
///
/// # Errors
/// The first output that is a folder, an input, or another output, named with both options.
pub fn distinct_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (option, out)) in outputs.iter().enumerate() {
        not_a_folder(out, option)?;
        let at = resolved(out);
        if let Some((input, path)) = inputs.iter().find(|(_, p)| resolved(p) == at) {
            return Err(format!(
                "{}: {option} names the file {input} reads ({}); write to another file",
                out.display(),
                path.display()
            ));
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| resolved(p) == at) {
            return Err(format!(
                "{}: {option} and {other} name one file; give each its own",
                out.display()
            ));
        }
    }
    Ok(())
}

/// Whether two paths name one existing file (false when either is missing).
#[must_use]
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The rule for outputs that are written whole (docs/outputs.md): an existing `out` is
/// replaced only with `--force`, and never when it is one of the command's `inputs` (`trace
/// --suite a.epd --out a.epd` once replaced its own positions with node rows).
///
/// # Errors
/// An existing output without `force`, or an output that is also an input.
pub fn new_output(out: &Path, option: &str, force: bool, inputs: &[&Path]) -> Result<(), String> {
    not_a_folder(out, option)?;
    if let Some(input) = inputs.iter().find(|i| same_file(i, out)) {
        return Err(format!(
            "{}: {option} names an input of this command ({}); write to another file",
            out.display(),
            input.display()
        ));
    }
    if out.exists() && !force {
        return Err(format!(
            "{} exists: pass --force to replace it, or choose another {option}",
            out.display()
        ));
    }
    create_parent(out)
}

/// Creates the folder `path` goes in, if it is not there (a command from a manifest runs as
/// it stands in a fresh directory).
///
/// # Errors
/// A folder that cannot be created, named.
pub fn create_parent(path: &Path) -> Result<(), String> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => std::fs::create_dir_all(dir)
            .map_err(|e| {
                format!(
                    "{}: cannot create the folder of {}: {e}",
                    dir.display(),
                    path.display()
                )
            }),
        _ => Ok(()),
    }
}

/// Writes `path` whole or not at all: `fill` writes a hidden file beside it (named for this
/// process), renamed over `path` once complete. A kill or a failure leaves the earlier file or
/// none, never part of one, and processes writing the same file at once each leave a whole one.
///
/// # Errors
/// `fill`'s error, or a file that cannot be created or renamed, named.
pub fn write_whole_with<R>(
    path: &Path,
    fill: impl FnOnce(File) -> Result<R, String>,
) -> Result<R, String> {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.partial", std::process::id()));
    let partial = path.with_file_name(name);
    let written = File::create(&partial)
        .map_err(|e| format!("{}: {e}", partial.display()))
        .and_then(fill)
        .and_then(|value| {
            std::fs::rename(&partial, path)
                .map(|()| value)
                .map_err(|e| format!("{}: {e}", path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Writes `bytes` to `path` whole or not at all, as [`write_whole_with`].
///
/// # Errors
/// The file cannot be written or renamed; the error names it.
pub fn write_whole(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    write_whole_with(path, |mut file| {
        std::io::Write::write_all(&mut file, bytes.as_ref())
            .map_err(|e| format!("{}: {e}", path.display()))
    })
}

/// The rows an earlier run left in `out`: none for a new file; an error for a file with rows
/// unless `resume` (an existing output is never overwritten or extended silently).
///
/// # Errors
/// An existing output without `resume`, or as [`cutlab_analysis::rows::read`].
pub fn resume_rows<T: DeserializeOwned>(out: &Path, resume: bool) -> Result<Vec<T>, String> {
    not_a_folder(out, "--out")?;
    create_parent(out)?;
    if !has_rows(out) {
        return Ok(Vec::new());
    }
    if !resume {
        return Err(format!(
            "{} exists: pass --resume to continue it, or remove it",
            out.display()
        ));
    }
    drop_torn_row(out)?;
    cutlab_analysis::rows::read(out)
}

/// Drops from a resumed output (its `rows`, in file order, and the file itself) the last group
/// of rows written together (rows of one `key`: a game pair, a position's depths) when
/// `partial` says a kill may have cut it; the resumed run writes the group again whole.
///
/// # Errors
/// The file cannot be written.
pub fn drop_partial_group<T: Serialize, K: PartialEq>(
    path: &Path,
    rows: &mut Vec<T>,
    key: impl Fn(&T) -> K,
    partial: impl Fn(&[T]) -> bool,
) -> Result<(), String> {
    let Some(last) = rows.last().map(&key) else {
        return Ok(());
    };
    let start = rows.len() - rows.iter().rev().take_while(|r| key(r) == last).count();
    if !partial(&rows[start..]) {
        return Ok(());
    }
    rows.truncate(start);
    let error = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    // The header as the file has it, then the rows kept, to a file renamed over it.
    let text = std::fs::read_to_string(path).map_err(|e| error(&e))?;
    write_whole_with(path, |mut file| {
        std::io::Write::write_all(
            &mut file,
            format!("{}\n", text.lines().next().unwrap_or_default()).as_bytes(),
        )
        .map_err(|e| error(&e))?;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        for row in rows.iter() {
            writer.serialize(row).map_err(|e| error(&e))?;
        }
        writer.flush().map_err(|e| error(&e))
    })
}

/// A run killed while writing can leave its last row cut short, with no newline after it; the
/// next row would be appended onto it. That row is removed (and named), so the resumed run
/// writes it again whole.
///
/// # Errors
/// The file cannot be read or truncated.
fn drop_torn_row(out: &Path) -> Result<(), String> {
    let error = |e: std::io::Error| format!("{}: {e}", out.display());
    let text = std::fs::read(out).map_err(error)?;
    if text.ends_with(b"\n") {
        return Ok(());
    }
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = String::from_utf8_lossy(&text[keep..]);
    eprintln!(
        "cutlab: warning: {}: its last line has no end (a run cut off while writing it); \
         dropped it to write it again: {:.60}",
        out.display(),
        torn
    );
    let file = OpenOptions::new().write(true).open(out).map_err(error)?;
    file.set_len(keep as u64).map_err(error)
}

/// A row of one search of a comparison of variants: which position, searched by which variant.
pub trait SearchRow {
    /// The position's id and the variant.
    fn searched(&self) -> (String, String);
}

impl SearchRow for cutlab_analysis::rows::DepthRow {
    fn searched(&self) -> (String, String) {
        (self.position.clone(), self.variant.clone())
    }
}

impl SearchRow for cutlab_analysis::rows::RegretRow {
    fn searched(&self) -> (String, String) {
        (self.position.clone(), self.variant.clone())
    }
}

/// The (position, variant) searches that `rows` hold.
pub fn searched<R: SearchRow>(rows: &[R]) -> HashSet<(String, String)> {
    rows.iter().map(SearchRow::searched).collect()
}

/// The searches, (position, index of its variant), of `positions` × `variants` that a resumed
/// output's rows `done` (position id, variant) lack, in suite order.
#[must_use]
pub fn missing_searches<'a>(
    positions: &[&'a SuitePosition],
    variants: &[&str],
    done: &HashSet<(String, String)>,
) -> Vec<(&'a SuitePosition, usize)> {
    positions
        .iter()
        .flat_map(|&p| (0..variants.len()).map(move |v| (p, v)))
        .filter(|(p, v)| !done.contains(&(p.id.clone(), variants[*v].to_string())))
        .collect()
}

/// A writer that appends rows of type `T` to `path`; a new file gets `T`'s header at once,
/// so that a run with nothing to write still leaves a file that names its columns, and a last
/// row a killed run left cut short is dropped first.
///
/// # Errors
/// The file cannot be opened, or the header written.
pub fn appender<T: Serialize + Default>(path: &Path) -> Result<csv::Writer<File>, String> {
    not_a_folder(path, "the output")?;
    let new = !has_rows(path);
    // A row a killed run left without its end would take the next row onto its line.
    if !new {
        drop_torn_row(path)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // One writer at a time: two resumed runs on one file would write the same keys twice.
    crate::common::process::lock(&file, path)?;
    // A header left alone by a killed run is written again, not twice.
    if new {
        file.set_len(0)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut writer = if new {
        cutlab_instrument::csv_header::writer::<T, _>(file)
    } else {
        Ok(csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file))
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    writer
        .flush()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(writer)
}

/// Writes `rows` and flushes them, so that they are on disk whole before the caller goes on
/// (what a resumed run reads back); an error names `path`.
///
/// # Errors
/// A row that cannot be serialised, or a failed write.
pub fn write_rows<T: Serialize, W: std::io::Write>(
    writer: &mut csv::Writer<W>,
    path: &Path,
    rows: impl IntoIterator<Item = T>,
) -> Result<(), String> {
    rows.into_iter()
        .try_for_each(|row| writer.serialize(row))
        .and_then(|()| writer.flush().map_err(csv::Error::from))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `path` anew: the header of `T`'s columns (also with no rows), then `rows`.
///
/// # Errors
/// The file cannot be created, or a row written; the error names `path`.
pub fn write_csv<T: Serialize + Default>(path: &Path, rows: &[T]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut writer = cutlab_instrument::csv_header::writer::<T, _>(file)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    write_rows(&mut writer, path, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the folder holds, its names sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("the folder")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_written_whole_or_left_as_it_was() {
        let dir = crate::common::scratch_dir("write-whole");
        let path = dir.join("record.toml");
        write_whole(&path, "first\n").expect("written");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first\n");

        // A writer that fails halfway leaves the earlier file and no partial one.
        let failed = write_whole_with(&path, |mut file| {
            std::io::Write::write_all(&mut file, b"sec").map_err(|e| e.to_string())?;
            Err::<(), _>("interrupted".to_string())
        });
        assert_eq!(failed, Err("interrupted".to_string()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first\n");
        assert_eq!(listing(&dir), ["record.toml"]);

        // What the writer returns comes back once the file is in place.
        let value = write_whole_with(&path, |mut file| {
            std::io::Write::write_all(&mut file, b"second\n").map_err(|e| e.to_string())?;
            Ok(7)
        });
        assert_eq!(value, Ok(7));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second\n");
        assert_eq!(listing(&dir), ["record.toml"]);

        // A folder that is not there is an error naming the file, and nothing is made.
        let missing = dir.join("absent").join("x.csv");
        let error = write_whole(&missing, "x").expect_err("no folder");
        assert!(error.contains("absent"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
