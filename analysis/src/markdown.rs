//! Markdown tables: readable as plain text in a terminal, rendered in a report.

use std::fmt::Write as _;

use crate::stats::Estimate;

/// A Markdown table built row by row; columns are padded to line up in plain text.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names; names starting with `>` are right-aligned (the `>`
    /// is dropped).
    #[must_use]
    pub fn new(columns: &[&str]) -> Table {
        Table {
            header: columns
                .iter()
                .map(|c| c.trim_start_matches('>').to_string())
                .collect(),
            right: columns.iter().map(|c| c.starts_with('>')).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells are left empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Whether no row was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown, one line per row, ending with a newline.
    #[must_use]
    pub fn render(&self) -> String {
        let cell = |row: &[String], i: usize| row.get(i).map_or("", String::as_str).to_string();
        let widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| cell(r, i).chars().count())
                    .chain([self.header[i].chars().count(), 3])
                    .max()
                    .unwrap_or(3)
            })
            .collect();
        let line = |cells: Vec<String>| {
            let mut out = String::from("|");
            for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
                if self.right[i] {
                    let _ = write!(out, " {c:>w$} |");
                } else {
                    let _ = write!(out, " {c:<w$} |");
                }
            }
            out.push('\n');
            out
        };
        let mut out = line(self.header.clone());
        out.push_str(&line(
            widths
                .iter()
                .zip(&self.right)
                .map(|(&w, &r)| {
                    if r {
                        format!("{}:", "-".repeat(w - 1))
                    } else {
                        "-".repeat(w)
                    }
                })
                .collect(),
        ));
        for r in &self.rows {
            out.push_str(&line((0..self.header.len()).map(|i| cell(r, i)).collect()));
        }
        out
    }
}

/// `value [low, high]` with `digits` decimals, or `-` (a value that rounds to zero reads as
/// zero, never `-0.0`).
#[must_use]
pub fn ci(e: Option<Estimate>, digits: usize) -> String {
    let show = |x: f64| {
        let text = format!("{x:.digits$}");
        match text.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
            _ => text,
        }
    };
    e.map_or_else(
        || "-".to_string(),
        |e| format!("{} [{}, {}]", show(e.value), show(e.low), show(e.high)),
    )
}

/// `+value unit [+low, +high]`, signed, with `digits` decimals, or `-` (a negative zero
/// reads as zero).
#[must_use]
pub fn signed_ci(e: Option<&Estimate>, digits: usize, unit: &str) -> String {
    e.map_or_else(
        || "-".to_string(),
        |e| {
            // Adding 0.0 turns a negative zero into zero.
            format!(
                "{:+.digits$}{unit} [{:+.digits$}, {:+.digits$}]",
                e.value + 0.0,
                e.low + 0.0,
                e.high + 0.0
            )
        },
    )
}

/// A proportion as `pct% [low, high]` with one decimal, or `-`.
#[must_use]
pub fn percent(e: Option<Estimate>) -> String {
    e.map_or_else(
        || "-".to_string(),
        |e| {
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * e.value,
                100.0 * e.low,
                100.0 * e.high
            )
        },
    )
}

/// A confidence as an interval's label: a whole percentage as it is (`95%`), another to one
/// decimal (`98.3%` for Bonferroni's 1 - 0.05/3), so that no interval is labelled with a level
/// it does not have.
#[must_use]
pub fn level(confidence: f64) -> String {
    let percent = 100.0 * confidence;
    if (percent - percent.round()).abs() < 1e-9 {
        format!("{percent:.0}%")
    } else {
        format!("{percent:.1}%")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_level_is_labelled_as_it_is() {
        assert_eq!(super::level(0.95), "95%");
        assert_eq!(super::level(1.0 - 0.05 / 3.0), "98.3%");
        assert_eq!(super::level(0.99), "99%");
    }

    use super::*;

    #[test]
    fn columns_line_up_and_align() {
        let mut t = Table::new(&["variant", ">depth"]);
        t.row(vec!["nmp".into(), "9.50".into()]);
        t.row(vec!["nmp+mpc".into(), "10.25".into()]);
        let text = t.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "| variant | depth |");
        assert_eq!(lines[1], "| ------- | ----: |");
        assert_eq!(lines[2], "| nmp     |  9.50 |");
        assert_eq!(lines[3], "| nmp+mpc | 10.25 |");
    }
}
