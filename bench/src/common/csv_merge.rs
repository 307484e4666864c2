//! Result CSVs joined into one (the shards of one experiment): every input under the same
//! header, no row twice, and the output replaced only once the merge is complete.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

/// Writes the rows of `inputs`, in order, to `out` under their common header; returns the
/// number of rows. `out` is replaced only once the merge is complete (it is written beside it
/// first), so it may be read from until then.
///
/// # Errors
/// An input that cannot be read, headers that differ, a row that two inputs (or one) hold
/// twice, or an output that cannot be written.
pub fn merge_csv(out: &Path, inputs: &[PathBuf]) -> Result<u64, String> {
    crate::common::results::write_whole_with(out, |file| write_merged(file, out, inputs))
}

/// The result files whose rows are each one observation of something named (docs/csv.md's
/// "one row per ..."), known by the columns their header starts with, and the columns that
/// name the observation: a merge that finds a name twice holds one observation twice,
/// whatever the values (two runs of the same positions, once merged into twice the rows).
const KEYS: [(&[&str], &[&str]); 4] = [
    (&["game", "ply", "mover"], &["game", "ply"]),
    (&["game", "pair"], &["game"]),
    (&["position", "variant", "stage"], &["position", "variant"]),
    (&["position", "stage", "depth"], &["position", "depth"]),
];

/// The columns that name a row of a file with this header (every column, for another file:
/// only a row repeated whole is the same row twice).
fn key_columns(header: &csv::StringRecord) -> Vec<usize> {
    KEYS.iter()
        .find(|(starts, _)| header.iter().take(starts.len()).eq(starts.iter().copied()))
        .map_or_else(
            || (0..header.len()).collect(),
            |(_, key)| {
                key.iter()
                    .filter_map(|k| header.iter().position(|h| h == *k))
                    .collect()
            },
        )
}

/// Writes the merge of `inputs` to `file`, which becomes `out`; returns the number of rows.
fn write_merged(file: std::fs::File, out: &Path, inputs: &[PathBuf]) -> Result<u64, String> {
    let mut header: Option<(csv::StringRecord, &PathBuf)> = None;
    let mut writer = csv::Writer::from_writer(file);
    // Every row seen, its fields joined by the unit separator.
    let mut seen: HashSet<String> = HashSet::new();
    let mut rows = 0_u64;
    for input in inputs {
        let mut reader =
            csv::Reader::from_path(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let this = reader
            .headers()
            .map_err(|e| format!("{}: {e}", input.display()))?
            .clone();
        let keys = key_columns(&this);
        match &header {
            // An empty file: a shard that had nothing to do.
            _ if this.is_empty() => continue,
            None => {
                writer
                    .write_record(&this)
                    .map_err(|e| format!("{}: {e}", out.display()))?;
                header = Some((this, input));
            }
            Some((first, first_path)) if *first != this => {
                return Err(format!(
                    "{}: header differs from {} ({} vs {} columns)",
                    input.display(),
                    first_path.display(),
                    this.len(),
                    first.len()
                ));
            }
            Some(_) => {}
        }
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(|e| format!("{}:{}: {e}", input.display(), i + 2))?;
            let key: Vec<&str> = keys
                .iter()
                .map(|&c| record.get(c).unwrap_or_default())
                .collect();
            if !seen.insert(key.join("\u{1f}")) {
                return Err(format!(
                    "{}:{}: a row for {} is already in the merge (the same results twice?)",
                    input.display(),
                    i + 2,
                    key.join(", ")
                ));
            }
            writer
                .write_record(&record)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            rows += 1;
        }
    }
    writer
        .flush()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(rows)
}
