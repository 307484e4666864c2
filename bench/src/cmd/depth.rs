//! `cutlab depth`: the fixed-time depth comparison of Jiang and Buro (sections 3 and 4): one
//! search per (position, variant), the depth each variant completes in the same time, and the
//! paired difference to the first variant. `--depth D` is the deterministic counterpart: the
//! time and nodes each variant needs to complete depth D.

use std::{
    collections::{HashMap, HashSet},
    path::PathBuf,
};

use clap::Args;
use cutlab_analysis::rows::DepthRow;
use cutlab_instrument::Method;
use cutlab_search::{Limits, Search, SearchConfig};
use cutlab_suites::SuitePosition;
use serde::Serialize;

/// Options of `cutlab depth`.
#[derive(Args, Debug, Serialize)]
pub struct DepthArgs {
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: crate::common::options::SuiteOptions,
    /// Models and confidence.
    #[command(flatten)]
    #[serde(flatten)]
    models: crate::common::options::ModelOptions,
    /// Variants to compare, comma-separated; the first is the reference of the paired
    /// differences.
    #[arg(long, default_value = "null-move,null-move+probcut,null-move+mpc")]
    variants: String,
    /// Time per search, milliseconds.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Fixed depth instead of fixed time.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Worker threads (one search each, each with its own TT).
    #[arg(long, default_value_t = 1, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Transposition table per search, MiB.
    #[arg(long, default_value_t = 16, value_parser = crate::common::options::hash_mib)]
    hash_mb: usize,
    /// Output CSV.
    #[arg(long)]
    out: PathBuf,
    /// Keep the rows already in `--out` and run only the missing (position, variant) pairs.
    #[arg(long)]
    resume: bool,
    /// Only this slice of the suite, `K/N`.
    #[arg(long, value_parser = crate::common::shard::spec)]
    shard: Option<String>,
}

fn search_one(
    search: &mut Search,
    p: &SuitePosition,
    variant: &str,
    limits: &Limits,
    time_limit: Option<u64>,
) -> DepthRow {
    search.clear();
    let result = search.go(&p.position(), &[], limits, &mut |_| {});
    let count = |m: Method| (result.cuts.tries[m.index()], result.cuts.cuts[m.index()]);
    let (null_move_tries, null_move_cuts) = count(Method::NullMove);
    let (probcut_tries, probcut_cuts) = count(Method::ProbCut);
    let (mpc_tries, mpc_cuts) = count(Method::Mpc);
    DepthRow {
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
        null_move_tries,
        null_move_cuts,
        probcut_tries,
        probcut_cuts,
        mpc_tries,
        mpc_cuts,
        fen: p.fen.clone(),
    }
}

/// Runs the comparison.
pub fn run(args: &DepthArgs) -> Result<(), String> {
    let names = crate::common::options::variant_list(&args.variants)?;
    let variants: Vec<&str> = names.iter().map(String::as_str).collect();
    let configs: Vec<SearchConfig> = variants
        .iter()
        .map(|v| args.models.config(v))
        .collect::<Result<_, _>>()?;
    let (limits, time_limit) = match (args.time_ms, args.depth) {
        (_, Some(d)) => (Limits::depth(d), None),
        (Some(ms), None) => (Limits::movetime(ms), Some(ms)),
        (None, None) => (Limits::movetime(1000), Some(1000)),
    };
    let suite = args.suite.load()?;
    let positions = crate::common::shard::shard(&suite.positions, args.shard.as_deref())?;
    let mut rows: Vec<DepthRow> = crate::common::results::resume_rows(&args.out, args.resume)?;
    let done: HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r.position.clone(), r.variant.clone()))
        .collect();
    let work: Vec<(&SuitePosition, usize)> = positions
        .iter()
        .flat_map(|&p| (0..variants.len()).map(move |v| (p, v)))
        .filter(|(p, v)| !done.contains(&(p.id.clone(), variants[*v].to_string())))
        .collect();
    crate::common::results::write_variant_configs(
        &args.out, "depth", args, &variants, &configs, &suite,
    )?;
    let done_count = rows.len();
    let mut writer = crate::common::results::appender(&args.out)?;
    eprintln!(
        "depth: {} positions x {} variants, {} searches to run ({} already in {})",
        positions.len(),
        variants.len(),
        work.len(),
        done_count,
        args.out.display()
    );
    let bar = crate::common::progress::bar(work.len() as u64, "searches");
    crate::common::parallel::run(
        &work,
        args.threads,
        HashMap::<usize, Search>::new,
        |engines, &(p, v)| {
            let search = engines
                .entry(v)
                .or_insert_with(|| Search::new(configs[v].clone(), args.hash_mb));
            search_one(search, p, variants[v], &limits, time_limit)
        },
        |row| {
            writer
                .serialize(&row)
                .and_then(|()| writer.flush().map_err(csv::Error::from))
                .map_err(|e| format!("{}: {e}", args.out.display()))?;
            rows.push(row);
            bar.inc(1);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    print!(
        "\n{}",
        cutlab_analysis::tables::depth(&rows, &variants).render()
    );
    Ok(())
}
