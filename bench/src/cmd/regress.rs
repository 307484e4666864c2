//! `cutlab regress`: search every position of a suite to each depth and record one row per
//! (position, depth), the data Jiang and Buro fitted ProbCut's model on (section 3). Parallel
//! over positions, one engine per thread; every finished position is flushed at once and
//! `--resume` skips the positions already in the output.

use std::collections::HashSet;

use clap::Args;
use cutlab_analysis::rows::SampleRow;
use cutlab_instrument::Bound;
use cutlab_search::{Limits, Search, SearchConfig};
use cutlab_suites::{Suite, SuitePosition};
use serde::Serialize;

use crate::common::progress;

/// Options of `cutlab regress`.
#[derive(Args, Debug, Serialize)]
pub struct RegressArgs {
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: crate::common::options::SuiteOptions,
    /// Depths to record: a range `1..10` or a list `3,4,8`.
    #[arg(long, default_value = "1..10")]
    depths: String,
    /// Variant searched (the paper used Crafty's null-move search).
    #[arg(long, default_value = "null-move", value_parser = crate::common::options::variant)]
    variant: String,
    /// Threads, table, output, resume, shard.
    #[command(flatten)]
    #[serde(flatten)]
    run: crate::common::options::RunOptions,
}

/// Parses `1..10` or `3,4,8`.
///
/// # Errors
/// Anything else, or depths outside 1..=60.
pub fn parse_depths(text: &str) -> Result<Vec<i32>, String> {
    let bad = || format!("--depths: expected 'A..B' or a list like '3,4,8', got '{text}'");
    let depths: Vec<i32> = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (
            a.trim().parse::<i32>().map_err(|_| bad())?,
            b.trim().parse::<i32>().map_err(|_| bad())?,
        );
        (a..=b).collect()
    } else {
        text.split(',')
            .map(|d| d.trim().parse::<i32>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?
    };
    if depths.is_empty() || depths.iter().any(|d| !(1..=60).contains(d)) {
        return Err(bad());
    }
    crate::common::options::no_repeats("--depths", &depths)?;
    Ok(depths)
}

/// Positions already in an existing output.
fn search_position(search: &mut Search, p: &SuitePosition, depths: &[i32]) -> Vec<SampleRow> {
    let max = depths.iter().copied().max().unwrap_or(1);
    let pos = p.position();
    search.clear();
    let mut rows: Vec<SampleRow> = Vec::new();
    let _ = search.go(&pos, &[], &Limits::depth(max), &mut |info| {
        if info.bound == Bound::Exact && depths.contains(&info.depth) {
            rows.retain(|r| r.depth != info.depth);
            rows.push(SampleRow {
                position: p.id.clone(),
                stage: p.stage.name().to_string(),
                depth: info.depth,
                value_cp: info.score,
                nodes: info.nodes,
                time_ms: info.time_ms,
                best_move: info
                    .pv
                    .first()
                    .map(|&m| cutlab_search::position::uci(m))
                    .unwrap_or_default(),
                fen: p.fen.clone(),
            });
        }
    });
    rows
}

/// Runs the regression searches.
pub fn run(args: &RegressArgs) -> Result<(), String> {
    let depths = parse_depths(&args.depths)?;
    let config = SearchConfig::resolve(&args.variant).map_err(|e| e.to_string())?;
    args.run.check_out(&args.suite)?;
    let suite: Suite = args.suite.load()?;
    let positions = crate::common::shard::shard(&suite.positions, args.run.shard);
    let mut kept: Vec<SampleRow> =
        crate::common::results::resume_rows(&args.run.out, args.run.resume)?;
    // A position's rows are written together: a kill may have left part of its depths.
    crate::common::results::drop_partial_group(
        &args.run.out,
        &mut kept,
        |r: &SampleRow| r.position.clone(),
        |rows| rows.len() < depths.len(),
    )?;
    let done: HashSet<String> = kept.into_iter().map(|r| r.position).collect();
    let todo: Vec<&SuitePosition> = positions
        .iter()
        .copied()
        .filter(|p| !done.contains(&p.id))
        .collect();
    crate::common::configs::write_config(
        &args.run.out,
        "regress",
        args,
        &config,
        &suite,
        !done.is_empty(),
    )?;
    let mut writer = crate::common::results::appender::<SampleRow>(&args.run.out)?;
    eprintln!(
        "regress: {} positions ({} already done), depths {:?}, variant {}",
        positions.len(),
        positions.len() - todo.len(),
        depths,
        config.name
    );
    let bar = progress::bar(todo.len() as u64, "positions");
    crate::common::parallel::run(
        &todo,
        args.run.threads,
        || Search::new(config.clone(), args.run.hash_mb),
        |search, p| search_position(search, p, &depths),
        |rows| {
            crate::common::results::write_rows(&mut writer, &args.run.out, &rows)?;
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    eprintln!(
        "regress: wrote {} positions to {}",
        todo.len(),
        args.run.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_lists_parse() {
        assert_eq!(parse_depths("1..4").unwrap(), [1, 2, 3, 4]);
        assert_eq!(parse_depths("3, 8").unwrap(), [3, 8]);
        assert!(parse_depths("0..3").is_err());
        assert!(parse_depths("x").is_err());
    }
}
