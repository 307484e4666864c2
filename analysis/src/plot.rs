//! SVG plots.

use std::path::Path;

use plotters::prelude::*;

use crate::regression::LineFit;

/// One panel of a scatter plot: points and the fitted line.
pub struct ScatterPanel<'a> {
    /// Panel title.
    pub title: String,
    /// (x, y) points.
    pub points: &'a [(f64, f64)],
    /// The fitted line, drawn across the x range.
    pub fit: Option<LineFit>,
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
        let mut chart = ChartBuilder::on(&area)
            .caption(&panel.title, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d(-extent..extent, -extent..extent)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .light_line_style(WHITE)
            .draw()
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
