//! `cutlab predict --of RUN --nodes N`: before an effort's games, what each comparison of an
//! ablation will read there, predicted from the efforts it has played (a line against log2 of
//! the nodes with its misfit in the model, `cutlab_analysis::predict`), written once into
//! `RUN/predictions-N.csv` (docs/csv.md) so that the matches that follow score it. A file
//! already there is never replaced: a prediction rewritten after games is no prediction.

use std::path::PathBuf;

use clap::Args;
use cutlab_analysis::{
    elo::Looks,
    predict::{Measured, predict},
    stats::Estimate,
};
use serde::{Deserialize, Serialize};

use super::ablate::{self, CsvRow, Direction};
use crate::common::pipeline::Layout;

/// Options of `cutlab predict`.
#[derive(Args, Debug)]
pub struct PredictArgs {
    /// The ablation run (or a study published from one) whose efforts predict the next.
    #[arg(long)]
    of: PathBuf,
    /// The effort predicted, nodes per move.
    #[arg(long)]
    nodes: u64,
    /// The prediction intervals' confidence.
    #[arg(long, default_value_t = 0.95, value_parser = crate::common::options::probability)]
    confidence: f64,
}

/// A row of `predictions-N.csv`: one comparison's worth at the effort predicted.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PredictionRow {
    /// `without`, `added` or `doubled`, as in `ablate.csv`.
    pub direction: Direction,
    /// The method (preset part), as in `ablate.csv`.
    pub method: String,
    /// The effort predicted, nodes per move.
    pub effort_nodes: u64,
    /// The efforts the prediction rests on, nodes per move, space-separated.
    pub from_efforts: String,
    /// The worth predicted (Elo; what leaving the method out costs, or adding it gains).
    pub predicted_worth_elo: f64,
    /// The prediction interval's ends, Elo.
    pub prediction_low_elo: f64,
    /// See `prediction_low_elo`.
    pub prediction_high_elo: f64,
    /// The prediction interval's confidence.
    pub confidence: f64,
    /// The line's slope, Elo per doubling of the nodes (misfit in its weights).
    pub slope_elo_per_doubling: f64,
    /// The misfit's standard deviation τ, Elo.
    pub misfit_tau_elo: f64,
    /// The line's lack-of-fit statistic Q (χ² with `lack_of_fit_df` if the line held).
    pub lack_of_fit_q: f64,
    /// Its degrees of freedom (efforts less 2).
    pub lack_of_fit_df: usize,
    /// The probability of a Q at least as large if the line held; empty with 0 df.
    pub lack_of_fit_p: Option<f64>,
    /// The standard error assumed for the match to come (that of the last effort's), Elo.
    pub future_se_elo: f64,
}

/// Predicts and writes the file.
///
/// # Errors
/// A run that cannot be read, an effort already predicted, or nothing to predict.
pub fn run(args: &PredictArgs) -> Result<(), String> {
    let layout = Layout {
        dir: args.of.clone(),
    };
    let out = layout.file(&format!("predictions-{}.csv", args.nodes));
    if out.exists() {
        return Err(format!(
            "{}: the predictions of {} nodes exist; they are written once, before the games",
            out.display(),
            args.nodes
        ));
    }
    let manifest: ablate::Manifest = crate::common::pipeline::load_manifest(&layout, true)?
        .ok_or_else(|| {
            format!(
                "--of {}: no manifest.toml (an ablate run or study)",
                args.of.display()
            )
        })?;
    let path = layout.file("ablate.csv");
    let rows: Vec<CsvRow> = csv::Reader::from_path(&path)
        .and_then(|mut r| r.deserialize().collect())
        .map_err(|e| format!("--of: {}: {e}", path.display()))?;
    #[expect(clippy::cast_precision_loss, reason = "a few looks")]
    let confidence = 1.0 - Looks::ERROR / manifest.looks.len().max(1) as f64;
    let mut predictions = Vec::new();
    for c in &manifest.comparisons {
        // A match of this effort with games already has been seen: not predicted.
        let begun = layout.file(&ablate::MatchKey::of(c, args.nodes).games_file());
        if crate::common::results::has_rows(&begun) {
            eprintln!(
                "predict: {} has games at {} nodes; not predicted",
                c.name(),
                args.nodes
            );
            continue;
        }
        let mut measured: Vec<(u64, Measured)> = rows
            .iter()
            .filter(|r| r.direction == c.direction && r.method == c.method)
            .filter(|r| r.effort_nodes < args.nodes)
            .filter_map(|r| {
                let elo = Estimate {
                    value: r.delta_elo?,
                    low: r.delta_elo_low?,
                    high: r.delta_elo_high?,
                };
                #[expect(clippy::cast_precision_loss, reason = "node counts below 2^52")]
                let x = (r.effort_nodes as f64).log2();
                let worth = ablate::worth(r.direction, &elo);
                Some((r.effort_nodes, Measured::of(x, &worth, confidence)))
            })
            .collect();
        measured.sort_by_key(|m| m.0);
        let Some(&(_, last)) = measured.last() else {
            continue;
        };
        let points: Vec<Measured> = measured.iter().map(|m| m.1).collect();
        #[expect(clippy::cast_precision_loss, reason = "node counts below 2^52")]
        let Some(p) = predict(
            &points,
            (args.nodes as f64).log2(),
            last.se,
            args.confidence,
        ) else {
            eprintln!(
                "predict: {}: fewer than two efforts with an interval; not predicted",
                c.name()
            );
            continue;
        };
        predictions.push(PredictionRow {
            direction: c.direction,
            method: c.method.clone(),
            effort_nodes: args.nodes,
            from_efforts: measured
                .iter()
                .map(|m| m.0.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            predicted_worth_elo: p.value,
            prediction_low_elo: p.low,
            prediction_high_elo: p.high,
            confidence: args.confidence,
            slope_elo_per_doubling: p.slope,
            misfit_tau_elo: p.tau,
            lack_of_fit_q: p.q,
            lack_of_fit_df: p.df,
            lack_of_fit_p: p.fit_p,
            future_se_elo: last.se,
        });
    }
    if predictions.is_empty() {
        return Err(format!(
            "--of {}: nothing to predict at {} nodes",
            args.of.display(),
            args.nodes
        ));
    }
    crate::common::results::write_whole_with(&out, |file| {
        let mut writer = cutlab_instrument::csv_header::writer::<PredictionRow, _>(file)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        crate::common::results::write_rows(&mut writer, &out, &predictions)
    })?;
    println!(
        "| comparison | predicted worth at {} nodes [{:.0}% PI] | slope a doubling | misfit τ | lack of fit p |",
        args.nodes,
        args.confidence * 100.0
    );
    println!("|---|---:|---:|---:|---:|");
    for p in &predictions {
        println!(
            "| {} {} | {:+.0} [{:+.0}, {:+.0}] | {:+.1} | {:.1} | {} |",
            p.direction.name(),
            p.method,
            p.predicted_worth_elo,
            p.prediction_low_elo,
            p.prediction_high_elo,
            p.slope_elo_per_doubling,
            p.misfit_tau_elo,
            p.lack_of_fit_p.map_or("-".into(), |q| format!("{q:.3}"))
        );
    }
    eprintln!(
        "predict: {} predictions written to {}",
        predictions.len(),
        out.display()
    );
    Ok(())
}

/// The report's section on the predictions an ablation run holds (`predictions-N.csv` for
/// each effort N of `efforts`): each prediction beside the worth its match read once stopped,
/// and whether the worth fell inside the prediction interval; `None` without predictions.
///
/// # Errors
/// A predictions file that is there but cannot be read.
pub fn section(
    layout: &Layout,
    efforts: &[u64],
    rows: &[super::ablate::AblationRow],
) -> Result<Option<String>, String> {
    use cutlab_analysis::markdown::{Table, level, signed_ci};
    let mut out = String::new();
    for &nodes in efforts {
        let path = layout.file(&format!("predictions-{nodes}.csv"));
        let predicted: Vec<PredictionRow> = cutlab_analysis::rows::read_if_stored(&path)?;
        let Some(first) = predicted.first() else {
            continue;
        };
        let percent = level(first.confidence);
        let mut table = Table::new(&[
            "comparison",
            &format!(">predicted [{percent} PI]"),
            ">from",
            ">read at the stop",
            "inside",
        ]);
        let (mut stopped, mut inside) = (0, 0);
        for p in &predicted {
            let read = rows
                .iter()
                .find(|r| {
                    r.direction == p.direction && r.method == p.method && r.effort_nodes == nodes
                })
                .and_then(|r| {
                    r.measured_elo()
                        .map(|e| super::ablate::worth(r.direction, &e))
                });
            let hit =
                read.map(|w| (p.prediction_low_elo..=p.prediction_high_elo).contains(&w.value));
            stopped += usize::from(hit.is_some());
            inside += usize::from(hit == Some(true));
            table.row(vec![
                p.direction.label(&p.method),
                format!(
                    "{:+.0} [{:+.0}, {:+.0}]",
                    p.predicted_worth_elo, p.prediction_low_elo, p.prediction_high_elo
                ),
                p.from_efforts.replace(' ', ", "),
                read.map_or_else(|| "playing".to_string(), |w| signed_ci(Some(&w), 0, "")),
                match hit {
                    Some(true) => "yes".into(),
                    Some(false) => "**no**".into(),
                    None => "-".into(),
                },
            ]);
        }
        #[expect(clippy::cast_precision_loss, reason = "a few predictions")]
        let expected = stopped as f64 * first.confidence;
        out += &format!(
            "\n## Predictions at {nodes} nodes, written before the games\n\n{} comparisons' \
             worths at {nodes} nodes were predicted from the lower efforts before any of their \
             games (`cutlab predict`, `predictions-{nodes}.csv`: a line in log2 of the nodes \
             with its misfit in the model, and the sampling error of the match to come). Of \
             the {stopped} whose matches have stopped, {inside} read inside their {percent} \
             prediction interval, where {expected:.1} would if the model held.\n\n{}\n",
            predicted.len(),
            table.render()
        );
    }
    Ok((!out.is_empty()).then_some(out))
}
