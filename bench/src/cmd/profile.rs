//! `cutlab profile`: where a variant's search spends its time. The search runs under pprof's
//! sampling profiler (SIGPROF at `--frequency` Hz) over the suite's positions; the samples are
//! written as a flamegraph SVG and, optionally, as a pprof protobuf for `go tool pprof`.

use std::{collections::HashMap, path::PathBuf};

use clap::Args;
use cutlab_analysis::markdown::Table;
use cutlab_search::{Limits, Search};
use pprof::protos::Message as _;

/// Options of `cutlab profile`.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// Positions.
    #[command(flatten)]
    suite: crate::common::options::SuiteOptions,
    /// Models and confidence.
    #[command(flatten)]
    models: crate::common::options::ModelOptions,
    /// Only the first N positions (0: all).
    #[arg(long, default_value_t = 20)]
    positions: usize,
    /// Variant (preset name or TOML file).
    #[arg(long, default_value = cutlab_search::DEFAULT_VARIANT, value_parser = crate::common::options::variant)]
    variant: String,
    /// Time per position, milliseconds.
    #[arg(long, default_value_t = 500, value_parser = crate::common::options::milliseconds)]
    time_ms: u64,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = 16, value_parser = crate::common::options::hash_mib)]
    hash_mb: usize,
    /// Samples per second.
    #[arg(long, default_value_t = 997, value_parser = clap::value_parser!(i32).range(1..=10_000))]
    frequency: i32,
    /// Flamegraph to write (SVG).
    #[arg(long)]
    flamegraph: PathBuf,
    /// pprof protobuf to write (`go tool pprof -http=: FILE`).
    #[arg(long)]
    pprof: Option<PathBuf>,
    /// Replace the flamegraph and the pprof file when they exist.
    #[arg(long)]
    force: bool,
}

/// Runs `cutlab profile`.
///
/// # Errors
/// A bad variant or suite, a profiler that cannot start, or a file that cannot be written.
pub fn run(args: &ProfileArgs) -> Result<(), String> {
    let inputs: Vec<&std::path::Path> = args.suite.suite.iter().map(PathBuf::as_path).collect();
    crate::common::results::new_output(&args.flamegraph, "--flamegraph", args.force, &inputs)?;
    if let Some(path) = &args.pprof {
        crate::common::results::new_output(path, "--pprof", args.force, &inputs)?;
    }
    let config = args.models.config(&args.variant)?;
    let suite = args.suite.load()?;
    let take = if args.positions == 0 {
        suite.positions.len()
    } else {
        args.positions
    };
    let positions = &suite.positions[..take.min(suite.positions.len())];
    let mut search = Search::new(config, args.hash_mb)?;
    let bar = crate::common::progress::bar(positions.len() as u64, "positions");
    let guard = pprof::ProfilerGuardBuilder::default()
        .frequency(args.frequency)
        .blocklist(&["libc", "libgcc", "pthread", "vdso"])
        .build()
        .map_err(|e| format!("profiler: {e}"))?;
    let mut nodes = 0;
    for p in positions {
        search.clear();
        let result = search.go(
            &p.position(),
            &[],
            &Limits::movetime(args.time_ms),
            &mut |_| {},
        );
        nodes += result.nodes;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = guard
        .report()
        .build()
        .map_err(|e| format!("profiler report: {e}"))?;
    write_profiles(&report, args)?;
    let (table, total) = self_time(&report);
    println!(
        "{} positions, {} ms each, variant {}: {nodes} nodes, {total} samples\n\n{}\nwrote {}{}",
        positions.len(),
        args.time_ms,
        args.variant,
        table.render(),
        args.flamegraph.display(),
        args.pprof
            .as_ref()
            .map_or(String::new(), |p| format!(" and {}", p.display()))
    );
    Ok(())
}

/// Writes the flame graph, and the pprof profile when asked for.
fn write_profiles(report: &pprof::Report, args: &ProfileArgs) -> Result<(), String> {
    let file = std::fs::File::create(&args.flamegraph)
        .map_err(|e| format!("{}: {e}", args.flamegraph.display()))?;
    report
        .flamegraph(file)
        .map_err(|e| format!("{}: {e}", args.flamegraph.display()))?;
    if let Some(path) = &args.pprof {
        let profile = report.pprof().map_err(|e| format!("pprof: {e}"))?;
        let mut bytes = Vec::new();
        profile
            .encode(&mut bytes)
            .map_err(|e| format!("pprof encoding: {e}"))?;
        std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The twelve functions with the most self time, and the samples in all. Self time is the
/// innermost function of each sample that is the engine's or shakmaty's (inlined
/// standard-library helpers such as slice indexing are charged to their caller).
fn self_time(report: &pprof::Report) -> (Table, isize) {
    let mut own: HashMap<String, isize> = HashMap::new();
    let mut total = 0;
    for (frames, count) in &report.data {
        total += count;
        let symbols = || frames.frames.iter().flatten().map(pprof::Symbol::name);
        let name = symbols()
            .find(|n| n.contains("cutlab") || n.contains("shakmaty"))
            .or_else(|| symbols().next())
            .unwrap_or_else(|| "?".to_string());
        *own.entry(name).or_default() += count;
    }
    let mut top: Vec<(String, isize)> = own.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut table = Table::new(&["function (self time)", ">samples", ">share"]);
    for (name, count) in top.into_iter().take(12) {
        #[expect(clippy::cast_precision_loss, reason = "sample counts")]
        let share = 100.0 * count as f64 / total.max(1) as f64;
        table.row(vec![
            shorten(&name),
            count.to_string(),
            format!("{share:.1}%"),
        ]);
    }
    (table, total)
}

/// A symbol whole, without its hash suffix and with its generic arguments folded to `<…>`
/// (`Search<NoopObserver>::search` reads `Search<…>::search`): the path and the function stay,
/// never cut from either end.
fn shorten(name: &str) -> String {
    let name = name
        .rsplit_once("::h")
        .filter(|(_, hash)| hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()))
        .map_or(name, |(head, _)| head);
    let mut out = String::new();
    let mut depth = 0_usize;
    for c in name.chars() {
        match c {
            '<' => {
                if depth == 0 {
                    out.push_str("<…>");
                }
                depth += 1;
            }
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shorten;

    /// A long generic symbol keeps its whole path and function, its generics folded.
    #[test]
    fn a_symbol_is_shown_whole_with_its_generics_folded() {
        let long = "cutlab_search::search::alpha_beta::<impl cutlab_search::search::Search<\
                    cutlab_instrument::observer::NoopObserver>>::search_moves::h0123456789abcdef";
        assert_eq!(
            shorten(long),
            "cutlab_search::search::alpha_beta::<…>::search_moves"
        );
        assert_eq!(
            shorten("shakmaty::movegen::gen_pawn"),
            "shakmaty::movegen::gen_pawn"
        );
    }
}
