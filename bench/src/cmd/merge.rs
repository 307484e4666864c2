//! `cutlab merge OUT IN...`: concatenates result CSVs (shards of one experiment) into one,
//! checking that every input has the same header.

use std::path::{Path, PathBuf};

use clap::Args;

/// Options of `cutlab merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged CSV to write.
    out: PathBuf,
    /// The CSVs to merge, in order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

/// Merges the inputs.
pub fn run(args: &MergeArgs) -> Result<(), String> {
    let rows = merge_csv(&args.out, &args.inputs)?;
    eprintln!(
        "merged {rows} rows from {} files into {}",
        args.inputs.len(),
        args.out.display()
    );
    Ok(())
}

/// Writes the rows of `inputs`, in order, to `out` under their common header; returns the
/// number of rows.
///
/// # Errors
/// An input that cannot be read, headers that differ, or an output that cannot be written.
pub fn merge_csv(out: &Path, inputs: &[PathBuf]) -> Result<u64, String> {
    let mut header: Option<(csv::StringRecord, &PathBuf)> = None;
    let mut writer = csv::Writer::from_path(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rows = 0_u64;
    for input in inputs {
        let mut reader =
            csv::Reader::from_path(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let this = reader
            .headers()
            .map_err(|e| format!("{}: {e}", input.display()))?
            .clone();
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
