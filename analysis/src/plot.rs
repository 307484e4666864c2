//! SVG plots.

use std::path::Path;

use cutlab_instrument::Tally;
use plotters::{
    coord::types::RangedCoordf64,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use crate::{
    regression::LineFit,
    rows::{DepthRow, RegretRow, TallyRow},
    stats::Estimate,
};

/// One panel of a scatter plot: points and the fitted line.
pub struct ScatterPanel<'a> {
    /// Panel title.
    pub title: String,
    /// (x, y) points.
    pub points: &'a [(f64, f64)],
    /// The fitted line, drawn across the x range.
    pub fit: Option<LineFit>,
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;
type PlotError = DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>;

/// A titled chart on `area` over `x` and `y`, room left for the axes' labels; its caller draws
/// the mesh.
fn chart_on<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    (title, title_size): (&str, u32),
    (x, y): (std::ops::Range<f64>, std::ops::Range<f64>),
) -> Result<Chart<'a, 'b>, PlotError> {
    ChartBuilder::on(area)
        .caption(title, ("sans-serif", title_size))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(x, y)
}

/// A titled chart with labelled axes and a grid at the labels on `area` (no minor lines: drawn
/// white on white they were invisible, and most of a scatter plot's file).
fn axes<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: (&str, u32),
    (x_label, y_label): (&str, &str),
    ranges: (std::ops::Range<f64>, std::ops::Range<f64>),
) -> Result<Chart<'a, 'b>, PlotError> {
    let mut chart = chart_on(area, title, ranges)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .light_line_style(TRANSPARENT)
        .draw()?;
    Ok(chart)
}

/// Scatter plots of v' (x) against v (y) with fitted lines, panels in a grid (Jiang and
/// Buro's figure 4), written as SVG.
///
/// # Errors
/// The file cannot be written.
pub fn scatter_panels(
    path: &Path,
    panels: &[ScatterPanel<'_>],
    x_label: &str,
    y_label: &str,
) -> Result<(), String> {
    let columns = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(columns).max(1);
    let size = (
        u32::try_from(420 * columns).unwrap_or(1260),
        u32::try_from(400 * rows).unwrap_or(1200),
    );
    let root = SVGBackend::new(path, size).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let areas = root.split_evenly((rows, columns));
    for (panel, area) in panels.iter().zip(areas) {
        let extent = panel
            .points
            .iter()
            .flat_map(|&(x, y)| [x.abs(), y.abs()])
            .fold(100.0_f64, f64::max)
            .min(1500.0);
        let mut chart = axes(
            &area,
            (&panel.title, 16),
            (x_label, y_label),
            (-extent..extent, -extent..extent),
        )
        .map_err(|e| err(&e))?;
        chart
            .draw_series(
                panel
                    .points
                    .iter()
                    .filter(|(x, y)| x.abs() <= extent && y.abs() <= extent)
                    .map(|&(x, y)| Circle::new((x, y), 2, BLUE.mix(0.35).filled())),
            )
            .map_err(|e| err(&e))?;
        if let Some(fit) = panel.fit {
            chart
                .draw_series(LineSeries::new(
                    [-extent, extent].map(|x| (x, fit.a * x + fit.b)),
                    RED.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}

/// A named series of (x, y) points drawn as a line with markers.
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
}

/// A line chart of several series with a legend, written as SVG.
///
/// # Errors
/// The file cannot be written.
pub fn line_chart(
    path: &Path,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Series],
    y_range: std::ops::Range<f64>,
    legend: SeriesLabelPosition,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (x_min, x_max) = if x_min < x_max {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    let root = SVGBackend::new(path, (760, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = axes(
        &root,
        (title, 18),
        (x_label, y_label),
        (x_min..x_max, y_range),
    )
    .map_err(|e| err(&e))?;
    for (i, s) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(&e))?
            .label(s.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(legend)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Share of positions by depth completed, one line per variant (the depth distribution of
/// a fixed-time comparison).
///
/// # Errors
/// The file cannot be written.
pub fn depth_distribution(path: &Path, rows: &[DepthRow], variants: &[&str]) -> Result<(), String> {
    let series: Vec<Series> = variants
        .iter()
        .map(|&v| {
            let depths: Vec<i32> = rows
                .iter()
                .filter(|r| r.variant == v)
                .map(|r| r.depth)
                .collect();
            let (lo, hi) = (
                depths.iter().copied().min().unwrap_or(0),
                depths.iter().copied().max().unwrap_or(0),
            );
            #[expect(clippy::cast_precision_loss, reason = "counts")]
            let points = (lo..=hi)
                .map(|d| {
                    let k = depths.iter().filter(|&&x| x == d).count();
                    (f64::from(d), k as f64 / depths.len().max(1) as f64)
                })
                .collect();
            Series {
                name: v.to_string(),
                points,
            }
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.1, f64::max);
    line_chart(
        path,
        "Depth completed in fixed time",
        ("depth (plies)", "share of positions"),
        &series,
        0.0..top * 1.15,
        SeriesLabelPosition::UpperRight,
    )
}

/// Cumulative distribution of the oracle regret per variant: the share of moves losing at
/// most x centipawns.
///
/// # Errors
/// The file cannot be written.
pub fn regret_cdf(path: &Path, rows: &[RegretRow], variants: &[&str]) -> Result<(), String> {
    const STEPS: [i32; 12] = [0, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000];
    let series: Vec<Series> = variants
        .iter()
        .map(|&v| {
            let regrets: Vec<i32> = rows
                .iter()
                .filter(|r| r.variant == v)
                .map(|r| r.regret_cp)
                .collect();
            #[expect(clippy::cast_precision_loss, reason = "counts")]
            let points = STEPS
                .iter()
                .map(|&x| {
                    let k = regrets.iter().filter(|&&r| r <= x).count();
                    (f64::from(x), k as f64 / regrets.len().max(1) as f64)
                })
                .collect();
            Series {
                name: v.to_string(),
                points,
            }
        })
        .collect();
    line_chart(
        path,
        "Oracle regret of the chosen move",
        ("regret at most (cp)", "share of positions"),
        &series,
        0.0..1.05,
        SeriesLabelPosition::LowerRight,
    )
}

/// Cut rate of each method's tests by remaining depth.
///
/// # Errors
/// The file cannot be written.
pub fn cuts_by_depth(path: &Path, rows: &[TallyRow]) -> Result<(), String> {
    let mut methods: Vec<&str> = rows.iter().map(|r| r.method.as_str()).collect();
    methods.sort_unstable();
    methods.dedup();
    let series: Vec<Series> = methods
        .iter()
        .map(|&m| {
            let mut by_depth: std::collections::BTreeMap<i32, Tally> = Default::default();
            for r in rows.iter().filter(|r| r.method == m) {
                *by_depth.entry(r.depth).or_default() += r.tally();
            }
            #[expect(clippy::cast_precision_loss, reason = "counts")]
            let points = by_depth
                .into_iter()
                .map(|(d, t)| (f64::from(d), t.cuts as f64 / t.tries as f64))
                .collect();
            Series {
                name: m.to_string(),
                points,
            }
        })
        .collect();
    line_chart(
        path,
        "Cut rate of forward-pruning tests by remaining depth",
        ("remaining depth (plies)", "share of tests that cut"),
        &series,
        0.0..1.05,
        SeriesLabelPosition::LowerLeft,
    )
}

/// A forest plot: one row per label, its estimate as a point and its interval as a bar, with
/// the zero line (`cutlab ablate`'s Elo differences).
///
/// # Errors
/// The file cannot be written.
pub fn forest(
    path: &Path,
    title: &str,
    x_label: &str,
    rows: &[(String, Estimate)],
) -> Result<(), String> {
    let labels: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
    let estimates: Vec<Option<Estimate>> = rows.iter().map(|(_, e)| Some(*e)).collect();
    forest_series(
        path,
        (title, x_label),
        Axis::ELO,
        &labels,
        &[("", &estimates)],
    )
}

/// The x axis of a forest plot: the line its estimates are read against and the least
/// half-width of the axis around it.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    /// Where the vertical line is: no difference (0) or no change (a ratio of 1).
    pub reference: f64,
    /// The axis reaches at least this far either side of the reference.
    pub least_reach: f64,
}

impl Axis {
    /// Elo differences: around 0, at least ±10.
    pub const ELO: Axis = Axis {
        reference: 0.0,
        least_reach: 10.0,
    };
    /// Ratios: around 1, at least ±0.1.
    pub const RATIO: Axis = Axis {
        reference: 1.0,
        least_reach: 0.1,
    };
}

/// A forest plot of several series over the same rows (e.g. a method's worth at two
/// efforts), the first row at the top: each row's estimates one above the other in the
/// series' order, one colour per series, a legend naming them when there are several; a
/// row's `None` draws nothing.
///
/// # Errors
/// The file cannot be written.
pub fn forest_series(
    path: &Path,
    (title, x_label): (&str, &str),
    axis: Axis,
    labels: &[String],
    series: &[(&str, &[Option<Estimate>])],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let finite = |x: f64| x.is_finite().then_some(x);
    let reach = series
        .iter()
        .flat_map(|(_, estimates)| estimates.iter().flatten())
        .flat_map(|e| [finite(e.low), finite(e.high)])
        .flatten()
        .fold(axis.least_reach, |m, x| m.max((x - axis.reference).abs()));
    let (left, right) = (axis.reference - reach * 1.1, axis.reference + reach * 1.1);
    let several = series.len() > 1;
    // Several series get a legend, a line each under the plot.
    let legend_height = if several {
        12 + 18 * u32::try_from(series.len()).unwrap_or(0)
    } else {
        0
    };
    #[expect(clippy::cast_precision_loss, reason = "a few rows")]
    let height = labels.len().max(1) as f64;
    // Room for the longest label (about 7 pixels a character), the plot keeping its width.
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_width = u32::try_from(longest * 7)
        .unwrap_or(u32::MAX)
        .clamp(150, 480);
    let root = SVGBackend::new(
        path,
        (
            610 + label_width,
            120 + 28 * u32::try_from(labels.len()).unwrap_or(0) + legend_height,
        ),
    )
    .into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot_area, legend_area) = root.split_vertically(root.dim_in_pixel().1 - legend_height);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(label_width)
        .build_cartesian_2d(left..right, -0.5..height - 0.5)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_labels(labels.len().max(1))
        .y_label_formatter(&|y| {
            let i = y.round();
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "row index"
            )]
            let i = i as usize;
            // The first row at the top, as in the report's table.
            labels
                .len()
                .checked_sub(i + 1)
                .and_then(|row| labels.get(row))
                .cloned()
                .unwrap_or_default()
        })
        .disable_y_mesh()
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            [(axis.reference, -0.5), (axis.reference, height - 0.5)],
            BLACK.mix(0.5),
        ))
        .map_err(|e| err(&e))?;
    let clip = |x: f64| {
        if x.is_finite() {
            x
        } else {
            if x > 0.0 { right } else { left }
        }
    };
    for (j, (name, estimates)) in series.iter().enumerate() {
        let colour = if several {
            Palette99::pick(j).to_rgba()
        } else {
            BLUE.to_rgba()
        };
        // Several series share a row, the first on top.
        #[expect(clippy::cast_precision_loss, reason = "a few series")]
        let offset = if several {
            let spread = if series.len() > 2 { 0.6 } else { 0.3 };
            spread * (0.5 - j as f64 / (series.len() - 1) as f64)
        } else {
            0.0
        };
        for (i, e) in estimates.iter().enumerate() {
            let Some(e) = e else { continue };
            #[expect(clippy::cast_precision_loss, reason = "row index")]
            let y = (estimates.len() - 1 - i) as f64 + offset;
            chart
                .draw_series(LineSeries::new(
                    [(clip(e.low), y), (clip(e.high), y)],
                    colour.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            chart
                .draw_series([Circle::new((clip(e.value), y), 4, colour.filled())])
                .map_err(|e| err(&e))?;
        }
        if several {
            let x = i32::try_from(label_width).unwrap_or(150) + 12;
            let y = i32::try_from(18 * j).unwrap_or(0) + 6;
            legend_area
                .draw(&PathElement::new(
                    vec![(x, y + 7), (x + 18, y + 7)],
                    colour.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            legend_area
                .draw(&Text::new(*name, (x + 26, y), ("sans-serif", 13)))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}

/// One panel of [`trend_panels`]: estimates against x and the line through them.
pub struct TrendPanel {
    /// Panel title.
    pub title: String,
    /// (x, estimate) points; an estimate's interval is drawn as a bar.
    pub points: Vec<(f64, Estimate)>,
    /// The line through the points, drawn across their x range.
    pub trend: Option<crate::stats::Trend>,
}

/// Estimates against x, one panel each in a grid (a method's worth against log2 of the nodes
/// per move), with the zero line and each panel's fitted line, written as SVG. The x axis
/// spans `ticks`, marked at each with its label (every effort of a run, whether or not its
/// points have come yet, so that the panels of a run in progress are those of the finished
/// one); each panel has its own y range, 0 included.
///
/// # Errors
/// The file cannot be written.
pub fn trend_panels(
    path: &Path,
    panels: &[TrendPanel],
    ticks: &[(f64, String)],
    (x_label, y_label): (&str, &str),
) -> Result<(), String> {
    let columns = panels.len().clamp(1, 4);
    let rows = panels.len().div_ceil(columns).max(1);
    let size = (
        u32::try_from(330 * columns).unwrap_or(1320),
        u32::try_from(280 * rows).unwrap_or(2800),
    );
    let root = SVGBackend::new(path, size).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let xs = ticks
        .iter()
        .map(|t| t.0)
        .chain(panels.iter().flat_map(|p| p.points.iter().map(|q| q.0)));
    let (x_min, x_max) = span(xs);
    let (x_min, x_max) = if x_min < x_max {
        (x_min - 0.5, x_max + 0.5)
    } else {
        (0.0, 1.0)
    };
    for (panel, area) in panels.iter().zip(root.split_evenly((rows, columns))) {
        let ends = panel
            .points
            .iter()
            .flat_map(|(_, e)| [e.low, e.high])
            .filter(|y| y.is_finite());
        let (low, high) = ends.fold((-10.0_f64, 10.0_f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
        let pad = 0.08 * (high - low);
        let mut chart = chart_on(
            &area,
            (&panel.title, 14),
            (x_min..x_max, low - pad..high + pad),
        )
        .map_err(|e| err(&e))?;
        // The x axis is marked at the ticks alone: a grid line and its label below the axis.
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_labels(0)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(TRANSPARENT)
            .draw()
            .map_err(|e| err(&e))?;
        let below = ("sans-serif", 12)
            .into_text_style(&root)
            .pos(Pos::new(HPos::Center, VPos::Top));
        for (x, label) in ticks {
            chart
                .draw_series(LineSeries::new(
                    [(*x, low - pad), (*x, high + pad)],
                    BLACK.mix(0.15),
                ))
                .map_err(|e| err(&e))?;
            let (px, py) = chart.backend_coord(&(*x, low - pad));
            root.draw(&Text::new(label.as_str(), (px, py + 6), below.clone()))
                .map_err(|e| err(&e))?;
        }
        chart
            .draw_series(LineSeries::new(
                [(x_min, 0.0), (x_max, 0.0)],
                BLACK.mix(0.5),
            ))
            .map_err(|e| err(&e))?;
        if let Some(t) = panel.trend {
            let (x0, x1) = span(panel.points.iter().map(|p| p.0));
            let at = |x: f64| t.centre.1 + t.slope.value * (x - t.centre.0);
            chart
                .draw_series(LineSeries::new(
                    [(x0, at(x0)), (x1, at(x1))],
                    RED.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
        }
        for &(x, e) in &panel.points {
            let (lo, hi) = (e.low.max(low - pad), e.high.min(high + pad));
            chart
                .draw_series(LineSeries::new([(x, lo), (x, hi)], BLUE.stroke_width(2)))
                .map_err(|e| err(&e))?;
            chart
                .draw_series([Circle::new((x, e.value), 4, BLUE.filled())])
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}

/// The least and the greatest of `xs` (infinities for none).
fn span(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}
