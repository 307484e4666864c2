//! A study of ProbCut's regression (`kind = "fits"`): v = a·v' + b + e fitted per depth pair
//! and stage, as `cutlab fit` fits it, on one set of positions searched by each of several
//! configurations (`cutlab regress` samples, e.g. one per evaluation), with 95% intervals of
//! a, b, σ and r, one table per pair.

use std::{fmt::Write as _, path::Path};

use cutlab_analysis::{
    plot,
    regression::{LineFit, fit_line, sigma_ratio},
    stats::{Estimate, median},
};
use cutlab_instrument::Stage;
use cutlab_search::score::MATE_BOUND;
use serde::Deserialize;

use crate::cmd::fit::{
    PAPER_PAIRS, PAPER_RANGE, SampleValues, pair_points, parse_pairs, sample_values,
};

/// The study's manifest.
#[derive(Debug, Deserialize)]
pub struct FitStudy {
    /// The report's title.
    title: String,
    /// The text under the title.
    text: String,
    /// Depth pairs, as `cutlab fit --pairs`.
    #[serde(default = "default_pairs")]
    pairs: String,
    /// The shallow values' range, as `cutlab fit --range`.
    #[serde(default = "default_range")]
    range: i32,
    /// The configurations compared, in the tables' order.
    searches: Vec<Samples>,
    /// Text after the tables.
    #[serde(default)]
    after: String,
}

/// One configuration's samples: its label, its `regress` files (beside the manifest) and
/// what its fits say against the first's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Samples {
    label: String,
    samples: Vec<String>,
    #[serde(default)]
    after: String,
}

fn default_pairs() -> String {
    PAPER_PAIRS.into()
}

fn default_range() -> i32 {
    PAPER_RANGE
}

/// `value [low, high]` with `decimals`.
fn with_interval(value: f64, (low, high): (f64, f64), decimals: usize) -> String {
    format!("{value:.decimals$} [{low:.decimals$}, {high:.decimals$}]")
}

/// The figure of a fits study of several searches: each one's σ over the first's.
const FIGURE: &str = "sigma-ratios.svg";

/// Each search's σ over the first's, per search after the first, a figure row per pair and
/// stage.
struct Ratios {
    /// The rows' labels, `(shallow, deep) stage`.
    labels: Vec<String>,
    /// Per search after the first, a ratio per row (`None` where a fit is missing).
    ratios: Vec<Vec<Option<Estimate>>>,
}

/// One search's fit of `stage` at a pair as a table row's cells after the search's label.
fn fit_cells(fit: Option<LineFit>, points: usize) -> String {
    match fit.and_then(|f| Some((f, f.intervals(0.95)?))) {
        Some((f, iv)) => format!(
            "{} | {} | {} | {} | {} |",
            f.n,
            with_interval(f.a, iv.a, 3),
            with_interval(f.b, iv.b, 1),
            with_interval(f.sigma, iv.sigma, 1),
            with_interval(f.r, iv.r, 3)
        ),
        None => format!("{points} | too few points | | | |"),
    }
}

/// A table per depth pair, a row per stage and search, with each later search's σ over the
/// first's beside it; the ratios for the figure.
fn pair_tables(
    md: &mut String,
    values: &[(&str, SampleValues)],
    pairs: &[(i32, i32)],
    range: i32,
) -> Ratios {
    let mut labels = Vec::new();
    let mut ratios: Vec<Vec<Option<Estimate>>> = vec![Vec::new(); values.len().saturating_sub(1)];
    for &(shallow, deep) in pairs {
        let _ = write!(
            md,
            "\n## Pair ({shallow}, {deep})\n\n| stage | search | n | a [95%] | b cp [95%] | σ cp \
             [95%] | r [95%] |\n| --- | --- | ---: | --- | --- | --- | --- |\n"
        );
        for stage in [Stage::Middlegame, Stage::Endgame] {
            labels.push(format!("({shallow}, {deep}) {}", stage.name()));
            for r in &mut ratios {
                r.push(None);
            }
            let mut first: Option<(&str, LineFit)> = None;
            for (k, (label, values)) in values.iter().enumerate() {
                let points = pair_points(values, (shallow, deep), stage, range);
                let (xs, ys): (Vec<f64>, Vec<f64>) = points.into_iter().unzip();
                let fit = fit_line(&xs, &ys);
                if k == 0 {
                    first = fit.map(|f| (*label, f));
                }
                let _ = writeln!(
                    md,
                    "| {} | {label} | {}",
                    stage.name(),
                    fit_cells(fit, xs.len())
                );
                // The spread against the first search's: σ here / σ there.
                if let (Some((base, base_fit)), Some(f)) = (first, fit.filter(|_| k > 0))
                    && let Some((ratio, iv)) = sigma_ratio(&f, &base_fit, 0.95)
                {
                    let _ = writeln!(
                        md,
                        "| {} | σ {label} / σ {base} | | | | {} | |",
                        stage.name(),
                        with_interval(ratio, iv, 2)
                    );
                    if let Some(last) = ratios[k - 1].last_mut() {
                        *last = Some(Estimate {
                            value: ratio,
                            low: iv.0,
                            high: iv.1,
                        });
                    }
                }
            }
        }
    }
    Ratios { labels, ratios }
}

/// With several searches, the link to [`FIGURE`], and with `draw` the figure itself in `dir`.
fn figure(
    md: &mut String,
    dir: &Path,
    values: &[(&str, SampleValues)],
    ratios: &Ratios,
    draw: bool,
) -> Result<(), String> {
    let [(base, _), rest @ ..] = values else {
        return Ok(());
    };
    if rest.is_empty() {
        return Ok(());
    }
    let _ = writeln!(
        md,
        "\n![each search's σ over {base}'s, 95% intervals]({FIGURE})"
    );
    if draw {
        let names: Vec<String> = rest.iter().map(|(l, _)| format!("{l} / {base}")).collect();
        let series: Vec<(&str, &[Option<Estimate>])> = names
            .iter()
            .zip(&ratios.ratios)
            .map(|(n, r)| (n.as_str(), r.as_slice()))
            .collect();
        plot::forest_series(
            &dir.join(FIGURE),
            (
                "ProbCut's residual spread against the first search's",
                "σ ratio (95% F intervals)",
            ),
            plot::Axis::RATIO,
            &ratios.labels,
            &series,
        )?;
    }
    Ok(())
}

/// The report of a fits study; with `draw`, its figure too ([`FIGURE`] in `dir`, from two
/// searches).
///
/// # Errors
/// Unreadable samples, bad pairs, or a figure that cannot be written.
pub fn report(dir: &Path, study: &FitStudy, draw: bool) -> Result<String, String> {
    let pairs = parse_pairs(&study.pairs)?;
    let values: Vec<(&str, SampleValues)> = study
        .searches
        .iter()
        .map(|s| {
            let paths: Vec<_> = s.samples.iter().map(|f| dir.join(f)).collect();
            Ok((s.label.as_str(), sample_values(&paths)?))
        })
        .collect::<Result<_, String>>()?;
    let mut md = format!("# {}\n\n{}\n", study.title, study.text.trim_end());
    let _ = write!(
        md,
        "\nEach row: v (deep) = a · v' (shallow) + b + e by least squares over the positions \
         whose shallow value is within ±{} cp (no mate scores), as `cutlab fit`; σ is the \
         residual spread (n − 2 degrees of freedom), r the correlation of v' and v. Intervals \
         are 95% under independent normal errors: t for a and b, χ² for σ, Fisher's z for r; \
         a σ ratio's is the F interval, conservative for two searches of the same positions.\n",
        study.range
    );
    let ratios = pair_tables(&mut md, &values, &pairs, study.range);
    figure(&mut md, dir, &values, &ratios, draw)?;
    spread(&mut md, &values, pairs.iter().map(|&(_, deep)| deep).max());
    let findings: Vec<&str> = study
        .searches
        .iter()
        .map(|s| s.after.trim_end())
        .filter(|a| !a.is_empty())
        .collect();
    if !findings.is_empty() {
        let _ = write!(md, "\n## What the fits say\n\n{}\n", findings.join("\n\n"));
    }
    if !study.after.is_empty() {
        let _ = write!(md, "\n{}\n", study.after.trim_end());
    }
    Ok(md)
}

/// The median |v| of the positions of `stage` whose value at `depth` is not a mate, and how
/// many there are.
fn median_value(values: &SampleValues, stage: Stage, depth: i32) -> (usize, Option<f64>) {
    let found: Vec<f64> = values
        .values()
        .filter(|(s, _)| *s == stage)
        .filter_map(|(_, by_depth)| by_depth.get(&depth))
        .filter(|v| v.abs() < MATE_BOUND)
        .map(|&v| f64::from(v.abs()))
        .collect();
    (found.len(), median(found))
}

/// The section on the values' spread: each search's median |v| at the deepest depth, by stage,
/// and its ratio to the first search's (a network's centipawns need not be the classical ones).
fn spread(md: &mut String, values: &[(&str, SampleValues)], depth: Option<i32>) {
    let (Some(depth), [(base, base_values), ..]) = (depth, values) else {
        return;
    };
    let _ = write!(
        md,
        "\n## The values' spread\n\nThe median |v| at depth {depth}, cp, over the positions \
         whose value there is not a mate ({} positions searched by {base}), and its ratio to \
         {base}'s.\n\n| stage | search | positions | median \\|v\\| cp | over {base}'s |\n\
         | --- | --- | ---: | ---: | ---: |\n",
        base_values.len()
    );
    for stage in [Stage::Middlegame, Stage::Endgame] {
        let (_, first) = median_value(base_values, stage, depth);
        for (label, v) in values {
            let (n, m) = median_value(v, stage, depth);
            let show = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or("-".into(), f);
            let ratio = m.zip(first).map(|(m, f)| m / f);
            let _ = writeln!(
                md,
                "| {} | {label} | {n} | {} | {} |",
                stage.name(),
                show(m, &|x| format!("{x:.0}")),
                show(ratio, &|x| format!("{x:.2}"))
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A study of two searches of the same samples: the first's row of its pair and stage is
    /// the five-point fit worked by hand (x = 0..40 cp by 10, y = 10, 30, 20, 50, 40 cp:
    /// a = 0.8, b = 14, σ = √120, r = 0.8); the endgame, with no points, says so; a second
    /// search has its σ ratio to the first, each its median |v| at the deepest depth, and a
    /// search's findings are printed.
    #[test]
    fn a_fit_row_is_the_least_squares_line_of_its_points() {
        let dir = crate::common::scratch_dir("fits");
        let mut csv = String::from("position,stage,depth,value_cp,nodes,time_ms,best_move,fen\n");
        for (i, (x, y)) in [(0, 10), (10, 30), (20, 20), (30, 50), (40, 40)]
            .into_iter()
            .enumerate()
        {
            for (depth, v) in [(3, x), (5, y)] {
                csv.push_str(&format!(
                    "p{i},middlegame,{depth},{v},1,1,e2e4,8/8/8/8/8/8/8/8 w - -\n"
                ));
            }
        }
        std::fs::write(dir.join("s.csv"), csv).unwrap();
        let study: FitStudy = toml::from_str(
            "title = \"t\"\ntext = \"x\"\npairs = \"3:5\"\n[[searches]]\nlabel = \"one\"\nsamples = [\"s.csv\"]\n[[searches]]\nlabel = \"two\"\nsamples = [\"s.csv\"]\nafter = \"Two says so.\"\n",
        )
        .unwrap();
        let md = report(&dir, &study, true).unwrap();
        assert!(dir.join(FIGURE).is_file());
        let _ = std::fs::remove_dir_all(&dir);
        let row = md
            .lines()
            .find(|l| l.starts_with("| middlegame | one |"))
            .unwrap();
        assert!(row.contains("| 5 | 0.800 ["), "{row}");
        assert!(row.contains("| 14.0 ["), "{row}");
        assert!(
            row.contains(&format!("| {:.1} [", 120.0_f64.sqrt())),
            "{row}"
        );
        assert!(row.contains("| 0.800 [") && row.ends_with("] |"), "{row}");
        assert!(
            md.contains("| endgame | one | 0 | too few points |"),
            "{md}"
        );
        // The spread at the deepest depth: the median of 10, 30, 20, 50, 40 cp.
        assert!(md.contains("| middlegame | two | 5 | 30 | 1.00 |"), "{md}");
        assert!(md.contains("## What the fits say\n\nTwo says so."), "{md}");
    }
}
