//! `cutlab fit`: least-squares fit of v (deep) on v' (shallow) per depth pair and stage, from
//! the rows `regress` wrote; prints Jiang and Buro's Table 1 form, writes the parameter file
//! ProbCut and MPC load (`--params`), and plots v' against v with the fitted lines (figure 4).

use std::{collections::HashMap, path::PathBuf};

use clap::Args;
use cutlab_analysis::{
    plot::{ScatterPanel, scatter_panels},
    regression::{LineFit, fit_line},
};
use cutlab_instrument::Stage;
use cutlab_search::{
    fit_params::{FitParams, PairFit},
    score::MATE_BOUND,
};

use cutlab_analysis::rows::SampleRow;

/// The paper's six depth pairs (Table 1), `shallow:deep`.
pub const PAPER_PAIRS: &str = "3:5,4:8,2:6,3:7,3:9,4:10";
/// The paper's range of the shallow values fitted, ±centipawns.
pub const PAPER_RANGE: i32 = 300;

/// Options of `cutlab fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Samples written by `cutlab regress` (several files: their points together, a position
    /// of one file never mixed with a same-named one of another).
    #[arg(required = true)]
    samples: Vec<PathBuf>,
    /// Depth pairs `shallow:deep`, comma-separated.
    #[arg(long, default_value = PAPER_PAIRS)]
    pairs: String,
    /// Fit only points whose shallow value is within ±RANGE centipawns (the paper: 300).
    #[arg(long, default_value_t = PAPER_RANGE, value_parser = clap::value_parser!(i32).range(1..=30_000))]
    range: i32,
    /// Parameter file to write (TOML).
    #[arg(long)]
    out: PathBuf,
    /// Scatter plot to write (SVG; default: the output with `.svg`).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Replace `--out` and the plot when they exist.
    #[arg(long)]
    force: bool,
}

/// Each position's stage and values by depth, keyed by (file, position): a position of one
/// file is never mixed with a same-named one of another.
pub type SampleValues = HashMap<(usize, String), (Stage, HashMap<i32, i32>)>;

/// Reads `regress` samples (plain or gzipped).
///
/// # Errors
/// An unreadable file, a row that does not parse, or an unknown stage.
pub fn sample_values(samples: &[PathBuf]) -> Result<SampleValues, String> {
    let mut values = SampleValues::new();
    for (file, path) in samples.iter().enumerate() {
        let rows: Vec<SampleRow> = cutlab_analysis::rows::read(path)?;
        for (i, row) in rows.into_iter().enumerate() {
            let stage = match row.stage.as_str() {
                "endgame" => Stage::Endgame,
                "middlegame" => Stage::Middlegame,
                other => {
                    return Err(format!(
                        "{}:{}: unknown stage '{other}'",
                        path.display(),
                        i + 2
                    ));
                }
            };
            values
                .entry((file, row.position))
                .or_insert_with(|| (stage, HashMap::new()))
                .1
                .insert(row.depth, row.value_cp);
        }
    }
    Ok(values)
}

/// The (v', v) points of a depth pair and stage: positions with values at both depths, the
/// shallow one within ±`range`, neither a mate score.
#[must_use]
pub fn pair_points(
    values: &SampleValues,
    (shallow, deep): (i32, i32),
    stage: Stage,
    range: i32,
) -> Vec<(f64, f64)> {
    values
        .values()
        .filter(|(s, _)| *s == stage)
        .filter_map(|(_, by_depth)| Some((*by_depth.get(&shallow)?, *by_depth.get(&deep)?)))
        .filter(|&(vs, vd)| vs.abs() <= range && vs.abs() < MATE_BOUND && vd.abs() < MATE_BOUND)
        .map(|(vs, vd)| (f64::from(vs), f64::from(vd)))
        .collect()
}

/// Parses `--pairs`: `shallow:deep`, comma-separated.
///
/// # Errors
/// A pair that is not two depths with the shallow one first.
pub fn parse_pairs(text: &str) -> Result<Vec<(i32, i32)>, String> {
    text.split(',')
        .map(|pair| {
            let bad = || format!("--pairs: expected 'shallow:deep', got '{pair}'");
            let (s, d) = pair.trim().split_once(':').ok_or_else(bad)?;
            let (s, d) = (
                s.parse::<i32>().map_err(|_| bad())?,
                d.parse::<i32>().map_err(|_| bad())?,
            );
            if s < 1 || d <= s {
                return Err(bad());
            }
            Ok((s, d))
        })
        .collect()
}

/// Runs the fit.
pub fn run(args: &FitArgs) -> Result<(), String> {
    let plot = args
        .plot
        .clone()
        .unwrap_or_else(|| args.out.with_extension("svg"));
    let inputs: Vec<&std::path::Path> = args.samples.iter().map(PathBuf::as_path).collect();
    for (path, option) in [(&args.out, "--out"), (&plot, "--plot")] {
        crate::common::results::new_output(path, option, args.force, &inputs)?;
    }
    let pairs = parse_pairs(&args.pairs)?;
    let values = sample_values(&args.samples)?;
    let (fitted, panel_points) = fit_pairs(&values, &pairs, args.range);
    let fits = FitParams {
        source: format!(
            "cutlab fit {} --pairs {} --range {}",
            listed(&args.samples, " "),
            args.pairs,
            args.range
        ),
        pairs: fitted,
    };
    // An empty or foreign file fits nothing: say so, and write no empty parameter file.
    if fits.pairs.is_empty() {
        return Err(format!(
            "no depth pair could be fitted: {} position(s) with values at the pairs' depths in {}",
            values.len(),
            listed(&args.samples, ", ")
        ));
    }
    print!("{}", cutlab_analysis::tables::regression(&fits).render());
    let text = toml::to_string(&fits).map_err(|e| format!("parameters: {e}"))?;
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let panels: Vec<ScatterPanel<'_>> = panel_points
        .iter()
        .map(|(title, points, fit)| ScatterPanel {
            title: title.clone(),
            points,
            fit: *fit,
        })
        .collect();
    scatter_panels(&plot, &panels, "v' (shallow), cp", "v (deep), cp")?;
    println!("\nwrote {} and {}", args.out.display(), plot.display());
    Ok(())
}

/// A panel of the figure: its title, its (v', v) points and their line, when one fits.
type Panel = (String, Vec<(f64, f64)>, Option<LineFit>);

/// Fits each depth pair of `pairs` in each stage, saying on standard error which have too few
/// points; returns the fits and a panel for every pair and stage.
fn fit_pairs(
    values: &SampleValues,
    pairs: &[(i32, i32)],
    range: i32,
) -> (Vec<PairFit>, Vec<Panel>) {
    let (mut fits, mut panels) = (Vec::new(), Vec::new());
    for &(shallow, deep) in pairs {
        for stage in [Stage::Middlegame, Stage::Endgame] {
            let points = pair_points(values, (shallow, deep), stage, range);
            let (xs, ys): (Vec<f64>, Vec<f64>) = points.iter().copied().unzip();
            let fit = fit_line(&xs, &ys);
            match fit {
                Some(f) => fits.push(PairFit {
                    shallow,
                    deep,
                    stage,
                    a: f.a,
                    b: f.b,
                    sigma: f.sigma,
                    r: f.r,
                    n: f.n as u64,
                }),
                None => eprintln!(
                    "({shallow},{deep}) {}: too few points to fit ({})",
                    stage.name(),
                    points.len()
                ),
            }
            panels.push((format!("({shallow},{deep}) {}", stage.name()), points, fit));
        }
    }
    (fits, panels)
}

/// The sample files' paths, joined by `separator`.
fn listed(samples: &[PathBuf], separator: &str) -> String {
    samples
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_parse() {
        assert_eq!(parse_pairs("3:5, 4:8").unwrap(), [(3, 5), (4, 8)]);
        assert!(parse_pairs("5:3").is_err());
        assert!(parse_pairs("4-8").is_err());
    }
}
