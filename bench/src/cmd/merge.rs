//! `cutlab merge OUT IN...`: concatenates result CSVs (shards of one experiment) into one,
//! checking that every input has the same header and that no row comes twice. The output is
//! written to a temporary file beside it and renamed over it only when complete, so a failed
//! merge leaves every file as it was; an output that is one of the inputs, an input named
//! twice, and an existing output without `--force` are refused.

use std::path::PathBuf;

use clap::Args;

use crate::common::{csv_merge::merge_csv, results::same_file};

/// Options of `cutlab merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged CSV to write (refused when it is one of the inputs).
    out: PathBuf,
    /// The CSVs to merge, in order, each once.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Replace OUT when it exists.
    #[arg(long)]
    force: bool,
}

/// Merges the inputs.
///
/// # Errors
/// An output that is an input, an input named twice, an existing output without `--force`, or
/// what [`merge_csv`] refuses.
pub fn run(args: &MergeArgs) -> Result<(), String> {
    if args.inputs.iter().any(|input| same_file(input, &args.out)) {
        return Err(format!(
            "{}: the output is also an input; merge into a new file",
            args.out.display()
        ));
    }
    crate::common::results::distinct_inputs(&args.inputs, "IN")?;
    if args.out.exists() && !args.force {
        return Err(format!(
            "{} exists: pass --force to replace it, or merge into a new file",
            args.out.display()
        ));
    }
    let rows = merge_csv(&args.out, &args.inputs)?;
    eprintln!(
        "merged {rows} rows from {} files into {}",
        args.inputs.len(),
        args.out.display()
    );
    Ok(())
}
