//! `cutlab trace`: search positions with a variant and record every node and cut test, the
//! counters and distributions, and optionally verify a sample of the cuts.

use std::path::{Path, PathBuf};

use clap::Args;
use cutlab_analysis::rows::{FalseCutRow, TallyRow, VerifyRow};
use cutlab_instrument::{
    Counters, CsvSink, CutSampler, Histograms, NodeFilter, Tee, VerifyRates, csv_sink::tests_path,
};
use cutlab_search::{Limits, Search, SearchConfig, verify::verify_cuts};
use cutlab_suites::Suite;
use serde::Serialize;

/// Options of `cutlab trace`.
#[derive(Args, Debug, Serialize)]
pub struct TraceArgs {
    /// One position as FEN (trace needs it or `--suite`: the built-in suite is too large to
    /// trace every node of).
    #[arg(long, conflicts_with = "suite", required_unless_present = "suite")]
    fen: Option<String>,
    /// Positions.
    #[command(flatten)]
    #[serde(flatten)]
    suite: crate::common::options::SuiteOptions,
    /// Models and confidence.
    #[command(flatten)]
    #[serde(flatten)]
    models: crate::common::options::ModelOptions,
    /// Variant (preset name or TOML file).
    #[arg(long, default_value = cutlab_search::DEFAULT_VARIANT, value_parser = crate::common::options::variant)]
    variant: String,
    /// Fixed depth per position.
    #[arg(long, conflicts_with = "time_ms", required_unless_present = "time_ms", value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// Fixed time per position, milliseconds.
    #[arg(long, value_parser = crate::common::options::milliseconds)]
    time_ms: Option<u64>,
    /// Node CSV to write; cut tests go to `<stem>.tests.csv`, their counts per position,
    /// method, node type and depth to `<stem>.tallies.csv`, the configuration to
    /// `<stem>.config.toml`, verified cuts to `<stem>.verify.csv` and their counts per
    /// position, method, depth and outcome to `<stem>.false-cuts.csv`.
    #[arg(long)]
    out: PathBuf,
    /// Replace `--out` (and its companion files) when it exists.
    #[arg(long)]
    force: bool,
    /// Only nodes with at least this remaining depth (default: every node, quiescence too).
    #[arg(long, allow_negative_numbers = true)]
    min_depth: Option<i32>,
    /// Only nodes where a forward-pruning test ran.
    #[arg(long)]
    only_cut_tests: bool,
    /// Fraction of nodes written (seeded, reproducible).
    #[arg(long, default_value_t = 1.0)]
    sample: f64,
    /// Seed for node sampling and cut sampling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of the cut decisions to verify by a full-width re-search: `R` for every method,
    /// or `R,METHOD=R,...` for other shares of the methods named (`0.002,probcut=1`: every
    /// ProbCut cut, one in 500 of the others').
    #[arg(long, default_value = "0", value_parser = clap::value_parser!(VerifyRates))]
    verify_cuts: VerifyRates,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_parser = crate::common::options::hash_mib)]
    hash_mb: usize,
    /// Only this slice of the suite, `K/N`.
    #[arg(long)]
    shard: Option<crate::common::shard::Shard>,
}

type TraceObserver = Tee<Counters, Tee<Histograms, Tee<CsvSink, CutSampler>>>;

fn sibling(out: &Path, extension: &str) -> PathBuf {
    out.with_extension(extension)
}

fn check_fraction(name: &str, value: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(format!("{name} must be between 0 and 1, got {value}"))
    }
}

/// Runs the trace.
pub fn run(args: &TraceArgs) -> Result<(), String> {
    let inputs: Vec<&Path> = args.suite.suite.iter().map(PathBuf::as_path).collect();
    crate::common::results::new_output(&args.out, "--out", args.force, &inputs)?;
    check_fraction("--sample", args.sample)?;
    let config = args.models.config(&args.variant)?;
    // clap requires one of --fen and --suite.
    let suite: Suite = match &args.fen {
        Some(fen) => cutlab_suites::from_fen(fen).map_err(|e| e.to_string())?,
        None => args.suite.load()?,
    };
    let limits = match (args.depth, args.time_ms) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(ms)) => Limits::movetime(ms),
        (None, None) => unreachable!("clap requires one of --depth and --time-ms"),
    };
    let observer = observer(args)?;
    crate::common::configs::write_config(&args.out, "trace", args, &config, &suite, false)?;
    let mut search = Search::with_observer(config, args.hash_mb, observer)?;

    let positions = crate::common::shard::shard(&suite.positions, args.shard);
    let bar = crate::common::progress::bar(positions.len() as u64, "positions");
    let mut total_nodes = 0;
    let mut counters = Counters::default();
    let mut counted: Vec<TallyRow> = Vec::new();
    for p in positions.iter().copied() {
        let pos = p.position();
        search.observer.1.1.0.set_position(&p.id);
        search.observer.1.1.1.set_position(&p.id);
        search.clear();
        total_nodes += search.go(&pos, &[], &limits, &mut |_| {}).nodes;
        let of_position = std::mem::take(&mut search.observer.0);
        counted.extend(count_rows(&p.id, &of_position));
        counters.merge(&of_position);
        bar.inc(1);
    }
    bar.finish_and_clear();

    let Tee(_, Tee(histograms, Tee(csv, sampler))) = search.observer;
    let written = csv.finish().map_err(|e| e.to_string())?;
    let tallies_path = sibling(&args.out, "tallies.csv");
    crate::common::results::write_csv(&tallies_path, &counted)?;
    println!(
        "traced {} positions, {total_nodes} nodes; wrote {} node rows to {}, {} test rows to {} \
         and the tests counted to {}",
        positions.len(),
        written.node_rows,
        args.out.display(),
        written.test_rows,
        tests_path(&args.out).display(),
        tallies_path.display()
    );
    println!("\n{}", counters.summary());
    println!("{}", histograms.summary());
    if args.verify_cuts.any() {
        verify(args, &sampler, &search.config)?;
    }
    Ok(())
}

/// The trace's observer: the counters, the histograms, the CSV rows of the nodes that pass
/// the filter (`--min-depth`, `--only-cut-tests`, `--sample`) and the sampled cuts to verify.
fn observer(args: &TraceArgs) -> Result<TraceObserver, String> {
    let filter = NodeFilter {
        min_depth: args.min_depth.unwrap_or(i32::MIN),
        only_cut_tests: args.only_cut_tests,
        sample: args.sample,
        seed: args.seed,
    };
    let csv = CsvSink::create(&args.out, filter).map_err(|e| e.to_string())?;
    Ok(Tee(
        Counters::default(),
        Tee(
            Histograms::default(),
            Tee(csv, CutSampler::new(args.verify_cuts.clone(), args.seed)),
        ),
    ))
}

/// One position's counters as rows of `<stem>.tallies.csv`.
fn count_rows(position: &str, counters: &Counters) -> Vec<TallyRow> {
    counters
        .cells()
        .map(|(method, depth, node_type, tally)| TallyRow {
            position: position.to_string(),
            method: method.name().to_string(),
            node_type: node_type.name().to_string(),
            depth,
            nodes_tried: tally.nodes_tried,
            tries: tally.tries,
            cuts: tally.cuts,
            test_nodes: tally.nodes,
        })
        .collect()
}

/// Verifies the sampled cuts of a search configured as `traced`, with its evaluation.
fn verify(args: &TraceArgs, sampler: &CutSampler, traced: &SearchConfig) -> Result<(), String> {
    let checked = verify_cuts(&sampler.samples, traced, args.hash_mb)?;
    let path = sibling(&args.out, "verify.csv");
    let rows: Vec<VerifyRow> = checked
        .iter()
        .map(|v| {
            let s = &v.sample;
            VerifyRow {
                position: s.position.clone(),
                node_id: s.node_id,
                method: s.method.name().to_string(),
                depth: s.depth,
                alpha_cp: s.alpha,
                beta_cp: s.beta,
                bound_cp: s.bound,
                shallow_value_cp: s.shallow_value,
                outcome: s.outcome.name().to_string(),
                true_value_cp: v.true_value,
                correct: v.correct,
                verify_nodes: v.nodes,
                fen: s.fen.clone(),
                pruned_move: s.pruned_move.clone(),
            }
        })
        .collect();
    crate::common::results::write_csv(&path, &rows)?;
    let counted = FalseCutRow::count(&rows);
    let counted_path = sibling(&args.out, "false-cuts.csv");
    crate::common::results::write_csv(&counted_path, &counted)?;
    println!(
        "cut verification ({} sampled cuts, rows in {}, counted in {}):\n{}",
        rows.len(),
        path.display(),
        counted_path.display(),
        cutlab_analysis::tables::false_cuts(&counted).render()
    );
    Ok(())
}
