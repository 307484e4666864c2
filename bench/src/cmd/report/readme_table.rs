//! The tables of worths on the front pages: in `results/README.md` the effort ladder's table
//! of each comparison's worth by effort (`results/ladder-nnue/report.md`), each worth decided
//! at its first look followed by its replay's (`results/replay-ladder-nnue/report.md`), and
//! each change per doubling by the one the replay's report reads with the replays in their
//! place; in the README a compact one (the two highest efforts, the change per doubling and
//! the reading). Both are written from the reports and held to the pages, so that a table
//! quotes only what the reports state.

use clap::ValueEnum;

use crate::cmd::ablate::Direction;

/// A markdown table of `report`: the rows (cells trimmed, the separator row left out) of the
/// first table whose header starts with `header`.
fn table(report: &str, header: &[&str]) -> Vec<Vec<String>> {
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split('|').map(|c| c.trim().to_string()).collect()
    };
    let mut lines = report
        .lines()
        .skip_while(|l| !(l.starts_with('|') && cells(l).iter().zip(header).all(|(c, h)| c == h)));
    let Some(first) = lines.next() else {
        return Vec::new();
    };
    std::iter::once(first)
        .chain(lines.skip(1).take_while(|l| l.starts_with('|')))
        .map(cells)
        .collect()
}

/// The index of the column of `header` whose name starts with `name`, in the table of `what`.
fn column(header: &[String], name: &str, what: &str) -> Result<usize, String> {
    header
        .iter()
        .position(|h| h.starts_with(name))
        .ok_or(format!("the table of {what} has no column {name}"))
}

/// A replay's worth as its report states it, one decimal: `+77.2`, or `-12.6?` for a
/// replay that did not decide.
fn signed(worth: f64, decided: bool) -> String {
    format!("{worth:+.1}{}", if decided { "" } else { "?" })
}

/// What stands beside a worth that was replayed: the replay's worth as its report states it
/// (`elo`, the replay's Elo with its interval, its sign turned for a method left out, whose
/// worth is what leaving it out costs), marked where its `verdict` does not decide.
fn replay_beside(direction: &str, elo: &str, verdict: &str) -> Result<String, String> {
    let value: f64 = elo
        .split(' ')
        .next()
        .and_then(|e| e.parse().ok())
        .ok_or(format!("a replay's Elo unread: {elo}"))?;
    let worth = if direction == "without" {
        -value
    } else {
        value
    };
    Ok(format!(" (replay {})", signed(worth, verdict == "decided")))
}

/// A comparison's change per doubling and reading, each with the replays' beside where they
/// differ (`replayed`: the slope cell with its interval and the reading of the replay's
/// report).
fn trend_beside(
    (slope, reading): (String, String),
    (replayed_slope, replayed_reading): (&str, String),
) -> (String, String) {
    let value = replayed_slope.split(' ').next().unwrap_or_default();
    let slope = if replayed_slope == slope {
        slope
    } else {
        format!("{slope} (replays {value})")
    };
    let reading = if replayed_reading == reading {
        reading
    } else {
        format!("{reading} (replays: {replayed_reading})")
    };
    (slope, reading)
}

/// Nodes as a column header writes them: `5000` is `5k`.
fn kilo(nodes: &str) -> String {
    nodes
        .strip_suffix("000")
        .map_or(nodes.to_string(), |k| format!("{k}k"))
}

/// A comparison of the effort table as the front pages name it (`lmr` left out).
fn comparison(direction: &str, method: &str) -> String {
    match direction {
        "without" => format!("`{method}` left out"),
        "added" => format!("`{method}` added"),
        _ => "twice the nodes".to_string(),
    }
}

/// A worth cell of the effort table as the front pages show it: `-` for a match not yet
/// stopped.
fn worth_cell(cell: &str) -> &str {
    match cell {
        "playing" | "to play" => "-",
        cell => cell,
    }
}

/// The ladder report's table of worths by effort: its header, its rows, and its worth
/// columns with their efforts (nodes).
struct EffortTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    worths: Vec<(usize, String)>,
}

impl EffortTable {
    /// The table of the ladder's `report`.
    fn read(report: &str) -> Result<Self, String> {
        let mut rows = table(report, &["direction", "method"]);
        if rows.is_empty() {
            return Err("the ladder's report has no table of worths by effort".into());
        }
        let header = rows.remove(0);
        let worths = header
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let nodes = h.strip_prefix("worth at ")?.split(' ').next()?;
                Some((i, nodes.to_string()))
            })
            .collect();
        Ok(Self {
            header,
            rows,
            worths,
        })
    }

    /// The index of its column whose name starts with `name`.
    fn column(&self, name: &str) -> Result<usize, String> {
        column(&self.header, name, "worths by effort")
    }
}

/// The README table's heading and alignment rows, a worth column for each of `efforts` (nodes,
/// written `5k`).
fn heading(efforts: &[&str]) -> String {
    let mut out = String::from("| comparison |");
    for nodes in efforts {
        out += &format!(" worth at {} |", kilo(nodes));
    }
    out += " per doubling | reading so far | Stockfish 15.1 | Ethereal 11.80 |\n|---|";
    out += &"---:|".repeat(efforts.len() + 1);
    out + "---|---:|---:|\n"
}

/// The README's table: one row per comparison of the effort table, its worths (`-` for a
/// match not yet stopped) each with its replay's worth beside when the row was replayed
/// (the replay's Elo, its sign turned for a method left out, whose worth is what leaving it
/// out costs), the change per doubling and the reading without its "so far" qualifier (the
/// header says it), each with the replay report's beside where a replay changes it, and the
/// Stockfish 15.1 and Ethereal 11.80 figures.
fn worths_table(ladder: &str, replays: &str) -> Result<String, String> {
    let t = EffortTable::read(ladder)?;
    let (doubling, reading) = (t.column("per doubling")?, t.column("reading")?);
    let (stockfish, ethereal) = (t.column("Stockfish 15.1")?, t.column("Ethereal 11.80")?);
    let replays = Replays::read(replays)?;
    let efforts: Vec<&str> = t.worths.iter().map(|(_, n)| n.as_str()).collect();
    let mut out = heading(&efforts);
    for row in &t.rows {
        let (direction, method) = (row[0].as_str(), row[1].as_str());
        out += &format!("| {} |", comparison(direction, method));
        for (i, nodes) in &t.worths {
            let beside = replays.worth_beside(direction, method, nodes)?;
            out += &format!(" {}{beside} |", worth_cell(&row[*i]));
        }
        let label = Direction::from_str(direction, false)
            .map_err(|e| format!("a direction unread: {e}"))?
            .label(method);
        let (mut slope, mut reading) = (row[doubling].clone(), unqualified(&row[reading]));
        if let Some(replayed) = replays.trend(&label) {
            (slope, reading) = trend_beside((slope, reading), replayed);
        }
        out += &format!(
            " {slope} | {reading} | {} | {} |\n",
            row[stockfish], row[ethereal]
        );
    }
    Ok(out)
}

/// The README's compact table: one row per method left out of the stack (and the doubling)
/// of the effort table (the methods added are in results/README.md's full table), its worths at
/// the ladder's two highest efforts (`-` for a match not yet stopped, `not played` where the
/// effort leaves it out), its change per doubling and its reading, as the ladder's report
/// states them: at most three numbers a cell.
fn compact_table(ladder: &str) -> Result<String, String> {
    let t = EffortTable::read(ladder)?;
    let shown = &t.worths[t.worths.len().saturating_sub(2)..];
    let (doubling, reading) = (t.column("per doubling")?, t.column("reading")?);
    let level = t.header[doubling]
        .split_once('[')
        .map_or(String::new(), |(_, l)| format!(" [{}", l.trim()));
    let mut out = String::from("| comparison |");
    for (_, nodes) in shown {
        out += &format!(" worth at {}{level} |", kilo(nodes));
    }
    out += &format!(" per doubling{level} | reading |\n|---|");
    out += &"---:|".repeat(shown.len() + 1);
    out += "---|\n";
    for row in t.rows.iter().filter(|r| r[0] != "added") {
        out += &format!("| {} |", comparison(&row[0], &row[1]));
        for (i, _) in shown {
            out += &format!(" {} |", worth_cell(&row[*i]));
        }
        out += &format!(" {} | {} |\n", row[doubling], row[reading]);
    }
    Ok(out)
}

/// The table of `page` that starts with `start`, up to the blank line after it.
#[cfg(test)]
fn table_in<'a>(page: &'a str, start: &str) -> &'a str {
    let Some(at) = page.find(start) else {
        return "";
    };
    let end = page[at..].find("\n\n").map_or(page.len(), |e| at + e + 1);
    &page[at..end]
}

/// A reading without its "so far" qualifier (the README's header says it).
fn unqualified(reading: &str) -> String {
    reading
        .split(" so far")
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The replay's report, as the README's table reads it: its table of replays, and its table
/// of the trends with the replays (absent when no comparison has two efforts).
struct Replays {
    /// The table of replays, header first.
    rows: Vec<Vec<String>>,
    /// Its columns of the replay's Elo and verdict.
    elo: usize,
    verdict: usize,
    /// The table of trends, header first (empty when absent).
    trends: Vec<Vec<String>>,
    /// Its columns of the change per doubling and the reading with the replays.
    trend_columns: Option<(usize, usize)>,
}

impl Replays {
    /// The two tables of the replay's `report`.
    fn read(report: &str) -> Result<Self, String> {
        let rows = table(report, &["comparison", "nodes"]);
        let header = rows
            .first()
            .ok_or("the replay's report has no table of replays")?;
        let replay_column = |name: &str| column(header, name, "replays");
        let (elo, verdict) = (replay_column("Elo")?, replay_column("verdict")?);
        let trends = table(report, &["comparison", "replayed at"]);
        let trend_columns = trends
            .first()
            .map(|h| {
                Ok::<_, String>((
                    column(h, "per doubling, with", "trends")?,
                    column(h, "reading with", "trends")?,
                ))
            })
            .transpose()?;
        Ok(Self {
            rows,
            elo,
            verdict,
            trends,
            trend_columns,
        })
    }

    /// What stands beside the worth of `direction` `method` at `nodes`: its replay's worth,
    /// or nothing where the row was not replayed.
    fn worth_beside(&self, direction: &str, method: &str, nodes: &str) -> Result<String, String> {
        let label = format!("{direction} `{method}`");
        let replay = self.rows[1..]
            .iter()
            .find(|r| r[0] == label && r[1] == nodes);
        match replay {
            Some(r) => replay_beside(direction, &r[self.elo], &r[self.verdict]),
            None => Ok(String::new()),
        }
    }

    /// The change per doubling (with its interval) and the reading of comparison `label` with
    /// the replays in place; none for a comparison whose efforts still play, which has no line
    /// either way.
    fn trend(&self, label: &str) -> Option<(&str, String)> {
        let (slope, reading) = self.trend_columns?;
        let t = self
            .trends
            .iter()
            .skip(1)
            .find(|t| t[0] == label && t[slope] != "-")?;
        Some((t[slope].as_str(), unqualified(&t[reading])))
    }
}

#[cfg(test)]
mod tests {
    use super::{compact_table, table, table_in, worths_table};

    /// The tables of worths are the ones the ladder's and its replay's reports give, the full
    /// one in results/README.md and the compact one in the README: on a failure, the message
    /// holds the table to put in the page.
    #[test]
    fn the_readme_table_of_worths_is_the_reports() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let ladder = read("results/ladder-nnue/report.md");
        let full = worths_table(&ladder, &read("results/replay-ladder-nnue/report.md")).unwrap();
        let results = read("results/README.md");
        assert!(
            table_in(&results, "| comparison | worth at 5k") == full,
            "results/README's table of worths differs from the reports'; theirs:\n{full}"
        );
        let compact = compact_table(&ladder).unwrap();
        let readme = read("README.md");
        assert!(
            table_in(&readme, "| comparison | worth at") == compact,
            "README's table of worths differs from the report's; its:\n{compact}"
        );
    }

    /// A small ladder and replay: a method left out turns its replay's sign, an undecided
    /// replay is marked, a match still playing reads `-`, "so far" leaves the reading, and
    /// the line the replays change stands beside the ablation's (one still playing does not).
    #[test]
    fn a_table_of_worths_follows_its_reports() {
        let ladder = "text\n\n\
            | direction | method | worth at 5000 [98%] | worth at 20000 [98%] | per doubling [98%] | reading | Stockfish 15.1 | Stockfish (scaling) | Ethereal 11.80 |\n\
            | --- | --- | --: | --: | --: | --- | --: | --- | --: |\n\
            | without | lmr | +82 [+56, +108] | +102 [+77, +127] | +12.0 [+3.2, +20.8] | grows with effort | ~98 (step 17) | - | 249 |\n\
            | added | mpc | -43 [-70, -16] | playing | - | to play | - | - | - |\n\
            | doubled | twice-the-nodes | +244 [+214, +274] | +197 [+170, +223] | -23.8 [-43.8, -3.7] | shrinks with effort so far (5000 to 20000 nodes) | - | - | - |\n\n\
            after\n";
        let replays = "\
            | comparison | nodes | ablation: games, Elo [98%] | adjusted | replay: games | Elo [95%] | nElo [95%] | verdict (95%) | z | replay |\n\
            | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n\
            | without `lmr` | 5000 | 800, -81.8 [-108.1, -55.6] | -81.6 | 800 | -77.2 [-99.4, -55.1] | -86.7 [-110.8, -62.6] | decided | +0.3 | confirmed |\n\
            | added `mpc` | 5000 | 800, -43.2 [-70.2, -16.2] | -42.0 | 800 | -12.6 [-31.0, +5.8] | -16.5 [-40.6, +7.6] | undecided | -1.1 | not confirmed |\n\n\
            | comparison | replayed at | per doubling, as stated [98%] | reading | per doubling, with the replays [98%] | reading with the replays |\n\
            | --- | --- | --: | --- | --: | --- |\n\
            | without lmr | 5000 | +12.0 [+3.2, +20.8] | grows with effort | +4.1 [-4.7, +12.9] | not shown to change |\n\
            | mpc added | 5000 | - | playing | - | playing |\n";
        assert_eq!(table(ladder, &["direction", "method"]).len(), 4);
        assert_eq!(
            worths_table(ladder, replays).unwrap(),
            "| comparison | worth at 5k | worth at 20k | per doubling | reading so far | Stockfish 15.1 | Ethereal 11.80 |\n\
             |---|---:|---:|---:|---|---:|---:|\n\
             | `lmr` left out | +82 [+56, +108] (replay +77.2) | +102 [+77, +127] | +12.0 [+3.2, +20.8] (replays +4.1) | grows with effort (replays: not shown to change) | ~98 (step 17) | 249 |\n\
             | `mpc` added | -43 [-70, -16] (replay -12.6?) | - | - | to play | - | - |\n\
             | twice the nodes | +244 [+214, +274] | +197 [+170, +223] | -23.8 [-43.8, -3.7] | shrinks with effort | - | - |\n"
        );
    }
}
