//! `cutlab depth`: the fixed-time depth comparison of Jiang and Buro (sections 3 and 4): one
//! search per (position, variant), the depth each variant completes in the same time, and the
//! paired difference to the first variant. `--depth D` is the deterministic counterpart: the
//! time and nodes each variant needs to complete depth D. The forward-pruning tests of each
//! search, per method, go to `<out>.cuts.csv`.

use std::{collections::HashSet, path::Path};

use clap::Args;
use cutlab_analysis::rows::{CutCountRow, DepthRow};
use cutlab_instrument::Method;
use cutlab_search::{Limits, Search};
use cutlab_suites::SuitePosition;
use serde::Serialize;

use crate::common::{
    configs::write_variant_configs,
    results::{missing_searches, searched},
};

/// Options of `cutlab depth`.
#[derive(Args, Debug, Serialize)]
pub struct DepthArgs {
    /// Positions, models and the variants compared.
    #[command(flatten)]
    #[serde(flatten)]
    compared: crate::common::options::Compared,
    /// Time per search, milliseconds.
    #[arg(long, conflicts_with = "depth", value_parser = crate::common::options::milliseconds)]
    time_ms: Option<u64>,
    /// Fixed depth instead of fixed time.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Only the suite's first N positions.
    #[arg(long, value_parser = crate::common::options::count_up_to::<usize>(1 << 24))]
    positions: Option<usize>,
    /// Threads, table, output, resume, shard.
    #[command(flatten)]
    #[serde(flatten)]
    run: crate::common::options::RunOptions,
}

/// One search: its row, and its cut counts, a row per method it tried.
fn search_one(
    search: &mut Search,
    p: &SuitePosition,
    variant: &str,
    limits: &Limits,
    time_limit: Option<u64>,
) -> (DepthRow, Vec<CutCountRow>) {
    search.clear();
    let result = search.go(&p.position(), &[], limits, &mut |_| {});
    let counts = Method::ALL
        .iter()
        .filter(|m| result.cuts.tries[m.index()] > 0)
        .map(|m| CutCountRow {
            position: p.id.clone(),
            variant: variant.to_string(),
            method: m.name().to_string(),
            tries: result.cuts.tries[m.index()],
            cuts: result.cuts.cuts[m.index()],
        })
        .collect();
    let row = DepthRow {
        position: p.id.clone(),
        variant: variant.to_string(),
        stage: p.stage.name().to_string(),
        time_limit_ms: time_limit,
        depth: result.depth,
        seldepth: result.seldepth,
        nodes: result.nodes,
        time_ms: result.time_ms,
        nps: result.nodes * 1000 / result.time_ms.max(1),
        score_cp: result.score,
        best_move: result
            .best_move
            .map(cutlab_search::position::uci)
            .unwrap_or_default(),
        fen: p.fen.clone(),
    };
    (row, counts)
}

/// The cut counts of the searches whose rows were kept, in `path` rewritten: an interrupted
/// search can have written its counts and not its row, and runs again.
///
/// # Errors
/// The file cannot be read or written.
fn keep_cut_counts(path: &Path, kept: &HashSet<(String, String)>) -> Result<(), String> {
    let counts: Vec<CutCountRow> = if crate::common::results::has_rows(path) && !kept.is_empty() {
        cutlab_analysis::rows::read_if_stored(path)?
    } else {
        Vec::new()
    };
    let error = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    crate::common::results::write_whole_with(path, |file| {
        let mut writer =
            cutlab_instrument::csv_header::writer::<CutCountRow, _>(file).map_err(|e| error(&e))?;
        crate::common::results::write_rows(
            &mut writer,
            path,
            counts
                .iter()
                .filter(|c| kept.contains(&(c.position.clone(), c.variant.clone()))),
        )
    })
}

/// Runs the comparison.
pub fn run(args: &DepthArgs) -> Result<(), String> {
    let (names, configs) = args.compared.configs()?;
    let variants: Vec<&str> = names.iter().map(String::as_str).collect();
    let (limits, time_limit) = match (args.time_ms, args.depth) {
        (_, Some(d)) => (Limits::depth(d), None),
        (Some(ms), None) => (Limits::movetime(ms), Some(ms)),
        (None, None) => (Limits::movetime(1000), Some(1000)),
    };
    args.run.check_out(&args.compared.suite)?;
    let mut suite = args.compared.suite.load()?;
    if let Some(n) = args.positions {
        suite.positions.truncate(n);
    }
    let positions = crate::common::shard::shard(&suite.positions, args.run.shard);
    let mut rows: Vec<DepthRow> =
        crate::common::results::resume_rows(&args.run.out, args.run.resume)?;
    let done = searched(&rows);
    let work = missing_searches(&positions, &variants, &done);
    write_variant_configs(&args.run, "depth", args, &variants, &configs, &suite)?;
    let done_count = rows.len();
    let mut writer = crate::common::results::appender::<DepthRow>(&args.run.out)?;
    let cuts_path = args.run.out.with_extension("cuts.csv");
    keep_cut_counts(&cuts_path, &done)?;
    let mut cuts_writer = crate::common::results::appender::<CutCountRow>(&cuts_path)?;
    eprintln!(
        "depth: {} positions x {} variants, {} searches to run ({} already in {})",
        positions.len(),
        variants.len(),
        work.len(),
        done_count,
        args.run.out.display()
    );
    // What explains a timed run's depths afterwards: the machine's speed and load as it ran.
    let speed_nps = match time_limit {
        Some(_) if !work.is_empty() => Some(crate::common::bench::speed(
            crate::common::speed::SPEED_DEPTH,
        )?),
        _ => None,
    };
    let meter = crate::common::pipeline::load::Meter::start();
    let bar = crate::common::progress::bar(work.len() as u64, "searches");
    crate::common::parallel::searches(
        &work,
        (args.run.threads, args.run.hash_mb),
        &configs,
        |search, p, v| search_one(search, p, variants[v], &limits, time_limit),
        |(row, counts)| {
            // The counts first: a row in `--out` means its counts are all written.
            crate::common::results::write_rows(&mut cuts_writer, &cuts_path, &counts)?;
            crate::common::results::write_rows(&mut writer, &args.run.out, [&row])?;
            rows.push(row);
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    let busy = meter.and_then(|m| m.other_cores());
    let table = cutlab_analysis::tables::depth(&rows, &variants).render();
    write_summary(&args.run.out, (&rows, &variants), (speed_nps, busy), &table)?;
    print!("\n{table}");
    Ok(())
}

/// The comparison's summary beside its rows: `OUT.summary.csv` (a line per variant, tidy),
/// `OUT.summary.md` (the table, and the machine, build, speed and load it ran with) and
/// `OUT.svg` (each variant's mean with its interval). A resumed run writes them afresh from
/// every row; its speed and load are this session's.
///
/// # Errors
/// A file that cannot be written.
fn write_summary(
    out: &Path,
    (rows, variants): (&[DepthRow], &[&str]),
    (speed_nps, busy): (Option<u64>, Option<f64>),
    table: &str,
) -> Result<(), String> {
    let lines = cutlab_analysis::tables::depth_summary(rows, variants);
    let stem = out.with_extension("");
    let named = |ext: &str| std::path::PathBuf::from(format!("{}.{ext}", stem.display()));
    crate::common::results::write_csv(&named("summary.csv"), &lines)?;
    let mut more = Vec::new();
    if let Some(nps) = speed_nps {
        more.push(("bench speed at the start".to_string(), format!("{nps} nps")));
    }
    if let Some(busy) = busy {
        more.push((
            "cores other processes kept busy".to_string(),
            format!("{busy:.2} on average"),
        ));
    }
    let environment =
        crate::common::pipeline::environment_table(&crate::common::pipeline::environment(), &more);
    crate::common::results::write_whole(
        &named("summary.md"),
        format!(
            "# Depth comparison: {}\n\n{table}\n## Where it ran\n\n{environment}",
            out.display()
        ),
    )?;
    let Some(metric) = lines.first().map(|l| l.metric.clone()) else {
        return Ok(());
    };
    let labels: Vec<String> = lines.iter().map(|l| l.variant.clone()).collect();
    let estimates: Vec<Option<cutlab_analysis::stats::Estimate>> = lines
        .iter()
        .map(|l| {
            Some(cutlab_analysis::stats::Estimate {
                value: l.mean,
                low: l.mean_low.unwrap_or(l.mean),
                high: l.mean_high.unwrap_or(l.mean),
            })
        })
        .collect();
    let axis = cutlab_analysis::plot::Axis {
        reference: lines[0].mean,
        least_reach: if metric == "depth_plies" { 0.5 } else { 10.0 },
    };
    cutlab_analysis::plot::forest_series(
        &named("svg"),
        (
            &format!("{metric} per variant, mean [95% CI]"),
            &format!("{metric} (the line: the first variant's mean)"),
        ),
        axis,
        &labels,
        &[("", &estimates)],
    )
}
