//! The thesis tables and ours, as Markdown, computed from the rows of the result files:
//! Jiang and Buro's Table 1 (regression), the fixed-time depth comparison of their sections 3
//! and 4, match scores (their Tables 2-4), and our additions: oracle regret, false-cut rates,
//! and cut counts by depth and node type.

use std::collections::{BTreeMap, HashMap};

use cutlab_instrument::{Method, Tally};
use cutlab_search::fit_params::FitParams;

use crate::{
    elo::{MatchStats, Pentanomial},
    markdown::{Table, ci, percent},
    rows::{DepthRow, FalseCutRow, GameRow, RegretRow, TallyRow},
    stats::{bootstrap_mean_ci, mean_ci, paired, paired_difference, paired_ratio, wilson},
};

/// The distinct values of `key` in order of first appearance.
pub fn distinct<'a, T>(rows: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for r in rows {
        let k = key(r);
        if !seen.contains(&k) {
            seen.push(k);
        }
    }
    seen
}

/// Jiang and Buro's Table 1: v = a v' + b + e per depth pair and stage, with the standard
/// deviation of e and the correlation r.
#[must_use]
pub fn regression(fits: &FitParams) -> Table {
    let mut t = Table::new(&["pair", "stage", ">a", ">b", ">sigma", ">r", ">n"]);
    for f in &fits.pairs {
        t.row(vec![
            format!("({},{})", f.shallow, f.deep),
            f.stage.name().to_string(),
            format!("{:.3}", f.a),
            format!("{:.2}", f.b),
            format!("{:.1}", f.sigma),
            format!("{:.2}", f.r),
            f.n.to_string(),
        ]);
    }
    t
}

/// One variant's line of the depth comparison, tidy (`depth --out D.csv`'s `D.summary.csv`,
/// docs/csv.md): the metric is the depth completed at fixed time, or the time to a fixed depth.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct DepthSummary {
    /// The variant.
    pub variant: String,
    /// Its searches.
    pub positions: usize,
    /// `depth_plies` at fixed time, `time_ms` at fixed depth.
    pub metric: String,
    /// The metric's mean with its 95% t interval (none for one search).
    pub mean: f64,
    /// See `mean`.
    pub mean_low: Option<f64>,
    /// See `mean`.
    pub mean_high: Option<f64>,
    /// The paired difference to the first variant over the positions both searched, 95% t.
    pub paired_difference: Option<f64>,
    /// See `paired_difference`.
    pub paired_difference_low: Option<f64>,
    /// See `paired_difference`.
    pub paired_difference_high: Option<f64>,
    /// At fixed depth, nodes over the first variant's (geometric mean, 95%).
    pub tree_size_ratio: Option<f64>,
    /// See `tree_size_ratio`.
    pub tree_size_ratio_low: Option<f64>,
    /// See `tree_size_ratio`.
    pub tree_size_ratio_high: Option<f64>,
    /// Mean nodes a search.
    pub mean_nodes: f64,
    /// Mean nodes per second.
    pub mean_nps: f64,
}

/// The depth comparison's lines, one per variant with searches, in `variants`' order: see
/// [`depth`].
#[must_use]
pub fn depth_summary(rows: &[DepthRow], variants: &[&str]) -> Vec<DepthSummary> {
    let fixed_depth = rows.iter().all(|r| r.time_limit_ms.is_none());
    let by_variant: HashMap<&str, HashMap<&str, &DepthRow>> = variants
        .iter()
        .map(|&v| {
            let of = rows.iter().filter(|r| r.variant == v);
            (v, of.map(|r| (r.position.as_str(), r)).collect())
        })
        .collect();
    #[expect(clippy::cast_precision_loss, reason = "times far below 2^53")]
    let metric = |r: &DepthRow| {
        if fixed_depth {
            r.time_ms as f64
        } else {
            f64::from(r.depth)
        }
    };
    let reference = variants.first().copied().unwrap_or_default();
    let mut lines = Vec::new();
    for &v in variants {
        let Some(of) = by_variant.get(v).filter(|of| !of.is_empty()) else {
            continue;
        };
        let values: Vec<f64> = of.values().map(|r| metric(r)).collect();
        #[expect(clippy::cast_precision_loss, reason = "means for display")]
        let mean = |f: fn(&DepthRow) -> u64| {
            of.values().map(|r| f(r) as f64).sum::<f64>() / of.len() as f64
        };
        let pairs = |value: &dyn Fn(&DepthRow) -> f64| {
            paired(rows, (reference, v), |r| (&r.position, &r.variant), value)
        };
        let (a, b) = pairs(&metric);
        let interval = (values.len() > 1).then(|| mean_ci(&values, 0.95)).flatten();
        #[expect(clippy::cast_precision_loss, reason = "a few searches")]
        let plain_mean = values.iter().sum::<f64>() / values.len() as f64;
        let difference = paired_difference(&a, &b, 0.95);
        #[expect(clippy::cast_precision_loss, reason = "node counts far below 2^53")]
        let ratio = fixed_depth
            .then(|| {
                let (a, b) = pairs(&|r| r.nodes as f64);
                paired_ratio(&a, &b, 0.95)
            })
            .flatten();
        lines.push(DepthSummary {
            variant: v.to_string(),
            positions: values.len(),
            metric: if fixed_depth {
                "time_ms"
            } else {
                "depth_plies"
            }
            .to_string(),
            mean: interval.map_or(plain_mean, |e| e.value),
            mean_low: interval.map(|e| e.low),
            mean_high: interval.map(|e| e.high),
            paired_difference: difference.map(|e| e.value),
            paired_difference_low: difference.map(|e| e.low),
            paired_difference_high: difference.map(|e| e.high),
            tree_size_ratio: ratio.map(|e| e.value),
            tree_size_ratio_low: ratio.map(|e| e.low),
            tree_size_ratio_high: ratio.map(|e| e.high),
            mean_nodes: mean(|r| r.nodes),
            mean_nps: mean(|r| r.nps),
        });
    }
    lines
}

/// The depth comparison: per variant the mean depth completed (or, at fixed depth, the mean
/// time) with its 95% t interval, the paired difference to the first variant over the positions
/// both searched, mean nodes and nodes per second. At fixed depth also the tree size, nodes
/// over the first variant's (geometric mean, 95%): the one column that repeats exactly on any
/// machine and under any load, where times follow both.
#[must_use]
pub fn depth(rows: &[DepthRow], variants: &[&str]) -> Table {
    let fixed_depth = rows.iter().all(|r| r.time_limit_ms.is_none());
    let (name, digits) = if fixed_depth {
        ("time_ms", 0)
    } else {
        ("depth", 2)
    };
    let mut headers = vec![
        "variant".to_string(),
        ">n".to_string(),
        format!(">mean {name} [95% CI]"),
        format!(">paired diff in {name} [95% CI]"),
    ];
    if fixed_depth {
        headers.push(">tree size ratio [95% CI]".to_string());
    }
    headers.extend([">mean nodes".to_string(), ">mean nps".to_string()]);
    let mut t = Table::new(&headers.iter().map(String::as_str).collect::<Vec<_>>());
    let estimate = |value: Option<f64>, low: Option<f64>, high: Option<f64>| {
        Some(crate::stats::Estimate {
            value: value?,
            low: low?,
            high: high?,
        })
    };
    for line in depth_summary(rows, variants) {
        let mean = match estimate(Some(line.mean), line.mean_low, line.mean_high) {
            Some(e) => ci(Some(e), digits),
            None => format!("{:.digits$}", line.mean),
        };
        let mut cells = vec![
            line.variant.clone(),
            line.positions.to_string(),
            mean,
            ci(
                estimate(
                    line.paired_difference,
                    line.paired_difference_low,
                    line.paired_difference_high,
                ),
                digits,
            ),
        ];
        if fixed_depth {
            cells.push(ci(
                estimate(
                    line.tree_size_ratio,
                    line.tree_size_ratio_low,
                    line.tree_size_ratio_high,
                ),
                3,
            ));
        }
        cells.extend([
            format!("{:.0}", line.mean_nodes),
            format!("{:.0}", line.mean_nps),
        ]);
        t.row(cells);
    }
    t
}

/// Oracle regret per variant: mean with a 95% percentile bootstrap interval (a regret is never
/// negative, nor is such an interval's end), the paired difference to the first variant over
/// the positions both judged (95% t), the shares of moves losing at least 50, 100 and 300 cp
/// with Wilson intervals, and the solved share where the suite has `bm`/`am`.
#[must_use]
pub fn regret(rows: &[RegretRow], variants: &[&str]) -> Table {
    let mut t = Table::new(&[
        "variant",
        ">n",
        ">mean regret cp [95% bootstrap]",
        ">paired diff to the first [95% CI]",
        ">regret >= 50 cp",
        ">regret >= 100 cp",
        ">regret >= 300 cp",
        ">solved",
    ]);
    let share = |k: usize, n: usize| percent(wilson(k as u64, n as u64, 0.95));
    for &v in variants {
        let of: Vec<&RegretRow> = rows.iter().filter(|r| r.variant == v).collect();
        if of.is_empty() {
            continue;
        }
        let regrets: Vec<f64> = of.iter().map(|r| f64::from(r.regret_cp)).collect();
        let at_least = |cp: i32| share(of.iter().filter(|r| r.regret_cp >= cp).count(), of.len());
        let judged: Vec<bool> = of.iter().filter_map(|r| r.solved).collect();
        // A regret is never negative: its mean's interval is a bootstrap's, not a t one.
        let mean = match regrets.as_slice() {
            [one] => format!("{one:.1}"),
            _ => ci(bootstrap_mean_ci(&regrets, 0.95, 2000, 1), 1),
        };
        // The paired difference to the first variant over the positions both judged.
        let (a, b) = paired(
            rows,
            (variants[0], v),
            |r| (&r.position, &r.variant),
            |r| f64::from(r.regret_cp),
        );
        t.row(vec![
            v.to_string(),
            of.len().to_string(),
            mean,
            ci(paired_difference(&a, &b, 0.95), 1),
            at_least(50),
            at_least(100),
            at_least(300),
            share(judged.iter().filter(|&&s| s).count(), judged.len()),
        ]);
    }
    t
}

/// A match summed up from its games, from the first engine's view.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// The first engine's name.
    pub first: String,
    /// The second engine's name.
    pub second: String,
    /// Games played.
    pub games: usize,
    /// First engine's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// First engine's losses.
    pub losses: usize,
    /// Game pairs.
    pub pentanomial: Pentanomial,
    /// Elo, interval, LOS (from the pairs; games without their pair are not in it).
    pub stats: MatchStats,
}

impl MatchSummary {
    /// Sums up the games of one match (`None` without games).
    #[must_use]
    pub fn of(games: &[GameRow]) -> Option<MatchSummary> {
        // The first engine plays White in the first game of every pair (odd game numbers).
        let g = games.iter().min_by_key(|g| g.game)?;
        let (first, second) = if g.game % 2 == 1 {
            (g.white.clone(), g.black.clone())
        } else {
            (g.black.clone(), g.white.clone())
        };
        let mut by_pair: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for g in games {
            by_pair
                .entry(g.pair)
                .or_default()
                .push(g.first_engine_score);
        }
        let mut pentanomial = Pentanomial::default();
        for scores in by_pair.values() {
            if let [a, b] = scores[..] {
                pentanomial.add(a, b);
            }
        }
        let count = |s: f64| games.iter().filter(|g| g.first_engine_score == s).count();
        Some(MatchSummary {
            first,
            second,
            games: games.len(),
            wins: count(1.0),
            draws: count(0.5),
            losses: count(0.0),
            pentanomial,
            stats: MatchStats::from_pentanomial(&pentanomial),
        })
    }
}

/// Whether a match's 95% Elo interval decides it: the first engine is stronger, weaker, or
/// the match is undecided at its size.
#[must_use]
pub fn verdict(m: &MatchSummary) -> &'static str {
    if m.pentanomial.pairs() < crate::elo::MIN_PAIRS {
        return "too few games";
    }
    match m.stats.sign() {
        Some(true) => "stronger",
        Some(false) => "weaker",
        None => "undecided",
    }
}

/// One row per match: its label (a threshold, a pairing), games, W-D-L, the first engine's
/// score, Elo with its 95% interval, LOS (Jiang and Buro's Tables 2-4 report the score), and
/// whether the interval decides the match.
#[must_use]
pub fn matches(label: &str, entries: &[(String, MatchSummary)]) -> Table {
    let mut t = Table::new(&[
        label,
        ">games",
        ">W-D-L",
        ">score",
        ">Elo [95% CI]",
        ">nElo [95% CI]",
        ">LOS",
        "verdict (95%)",
    ]);
    for (name, m) in entries {
        let s = &m.stats;
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let score = (m.wins as f64 + 0.5 * m.draws as f64) / m.games.max(1) as f64;
        let elo = if m.pentanomial.pairs() < crate::elo::MIN_PAIRS {
            "too few games".to_string()
        } else if s.elo.is_finite() && s.elo_error.is_finite() {
            whole_interval(s.elo, s.elo_error)
        } else {
            s.rout_bound()
                .map_or_else(|| "-".to_string(), |b| b.to_string())
        };
        // Normalized Elo (fishtest's), where the pairs give it an interval.
        let nelo = if m.pentanomial.pairs() >= crate::elo::MIN_PAIRS
            && s.nelo.is_finite()
            && s.nelo_error.is_finite()
        {
            whole_interval(s.nelo, s.nelo_error)
        } else {
            "-".to_string()
        };
        t.row(vec![
            name.clone(),
            m.games.to_string(),
            format!("{}-{}-{}", m.wins, m.draws, m.losses),
            format!("{:.1}%", 100.0 * score),
            elo,
            nelo,
            format!("{:.1}%", 100.0 * s.los),
            verdict(m).to_string(),
        ]);
    }
    t
}

/// `value` and its interval `value ± half`, whole: `+12 [+3, +21]` (adding 0.0 turns -0
/// into 0).
fn whole_interval(value: f64, half: f64) -> String {
    let round = |x: f64| x.round() + 0.0;
    format!(
        "{:+} [{:+}, {:+}]",
        round(value),
        round(value - half),
        round(value + half)
    )
}

/// False-cut rate per method: sampled cuts whose full-width re-search disagrees with the bound
/// the cut claimed, with a 95% Wilson interval.
#[must_use]
pub fn false_cuts(rows: &[FalseCutRow]) -> Table {
    let mut t = Table::new(&[
        "method",
        ">sampled cuts",
        ">false",
        ">false-cut rate [95% CI]",
        ">mean depth",
    ]);
    for method in distinct(rows, |r| r.method.as_str()) {
        let of: Vec<&FalseCutRow> = rows.iter().filter(|r| r.method == method).collect();
        let sampled: u64 = of.iter().map(|r| r.sampled_cuts).sum();
        let wrong: u64 = of.iter().map(|r| r.false_cuts).sum();
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let depth = of
            .iter()
            .map(|r| f64::from(r.depth) * r.sampled_cuts as f64)
            .sum::<f64>()
            / sampled as f64;
        t.row(vec![
            method.to_string(),
            sampled.to_string(),
            wrong.to_string(),
            percent(wilson(wrong, sampled, 0.95)),
            format!("{depth:.1}"),
        ]);
    }
    t
}

/// Tests and cuts per method and `key` (remaining depth, node type): nodes where the method
/// was tried, tests, cuts, the rate with a 95% Wilson interval in the method's unit, and the
/// mean nodes a test cost. A node-level method's rate is cut nodes per node tried (it compares
/// across methods; the rate per test does not, as methods run different numbers of tests per
/// node); a move-level method's is pruned moves per move considered (one test per move).
fn cut_counts<K: Ord + ToString>(
    rows: &[TallyRow],
    key_name: &str,
    key: impl Fn(&TallyRow) -> K,
) -> Table {
    let mut cells: BTreeMap<(&str, K), Tally> = BTreeMap::new();
    for r in rows {
        *cells.entry((r.method.as_str(), key(r))).or_default() += r.tally();
    }
    let mut t = Table::new(&[
        "method",
        key_name,
        ">nodes tried",
        ">tests",
        ">cuts",
        ">rate [95% CI]",
        "unit",
        ">mean test nodes",
    ]);
    for ((method, k), c) in cells {
        #[expect(clippy::cast_precision_loss, reason = "counts")]
        let mean_nodes = c.nodes as f64 / c.tries as f64;
        let kind = Method::from_name(method);
        let rate = if kind.is_some_and(Method::prunes_moves) {
            wilson(c.cuts, c.tries, 0.95)
        } else {
            wilson(c.cuts, c.nodes_tried.max(c.cuts), 0.95)
        };
        t.row(vec![
            method.to_string(),
            k.to_string(),
            c.nodes_tried.to_string(),
            c.tries.to_string(),
            c.cuts.to_string(),
            percent(rate),
            kind.map_or("", Method::rate_unit).to_string(),
            format!("{mean_nodes:.1}"),
        ]);
    }
    t
}

/// Cut tests by method and remaining depth.
#[must_use]
pub fn cuts_by_depth(rows: &[TallyRow]) -> Table {
    cut_counts(rows, ">depth", |r| r.depth)
}

/// Cut tests by method and expected node type.
#[must_use]
pub fn cuts_by_node_type(rows: &[TallyRow]) -> Table {
    cut_counts(rows, "node type", |r| r.node_type.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::VerifyRow;

    fn game(game: usize, white: &str, black: &str, result: &str, first: f64) -> GameRow {
        GameRow {
            game,
            pair: game.div_ceil(2),
            opening: "o".into(),
            white: white.into(),
            black: black.into(),
            result: result.into(),
            termination: "checkmate".into(),
            plies: 40,
            first_engine_score: first,
            restarts: 0,
            pgn: String::new(),
            scores: Vec::new(),
        }
    }

    #[test]
    fn a_match_is_summed_up_from_the_first_engines_view() {
        let games = [
            game(1, "A", "B", "1-0", 1.0),
            game(2, "B", "A", "1/2-1/2", 0.5),
            game(3, "A", "B", "0-1", 0.0),
            game(4, "B", "A", "0-1", 1.0),
        ];
        let m = MatchSummary::of(&games).unwrap();
        assert_eq!((m.first.as_str(), m.second.as_str()), ("A", "B"));
        assert_eq!((m.wins, m.draws, m.losses), (2, 1, 1));
        assert_eq!(m.pentanomial.wd, 1);
        assert_eq!(m.pentanomial.wl_dd, 1);
        let table = matches("pairing", &[("A vs B".into(), m.clone())]).render();
        assert!(table.contains("| 2-1-1 |"), "{table}");
        assert!(table.contains("62.5%"), "{table}");
        assert!(
            table.contains("too few games"),
            "no interval over two pairs: {table}"
        );
        assert_eq!(verdict(&m), "too few games", "two pairs decide nothing");
        // Forty pairs, half won 1.5-0.5 and half drawn: 62.5%, decided.
        let won: Vec<GameRow> = (1..=80_usize)
            .map(|g| {
                let first_game = g % 2 == 1;
                let score = if first_game && g.div_ceil(2) % 2 == 1 {
                    1.0
                } else {
                    0.5
                };
                let (white, black) = if first_game { ("A", "B") } else { ("B", "A") };
                game(g, white, black, "*", score)
            })
            .collect();
        let m = MatchSummary::of(&won).unwrap();
        assert_eq!(verdict(&m), "stronger");
        assert!(
            matches("pairing", &[("A vs B".into(), m)])
                .render()
                .contains("stronger")
        );
        // Forty pairs, every game won: a rout, decided, with its one Elo bound.
        let rout: Vec<GameRow> = (1..=80_usize)
            .map(|g| {
                let (white, black) = if g % 2 == 1 { ("A", "B") } else { ("B", "A") };
                game(g, white, black, "*", 1.0)
            })
            .collect();
        let m = MatchSummary::of(&rout).unwrap();
        assert_eq!(verdict(&m), "stronger");
        let table = matches("pairing", &[("A vs B".into(), m)]).render();
        assert!(table.contains("| at least +"), "{table}");
    }

    #[test]
    fn false_cut_rates_count_wrong_cuts_per_method() {
        let row = |method: &str, correct: bool| VerifyRow {
            position: "p".into(),
            node_id: 1,
            method: method.into(),
            depth: 4,
            alpha_cp: 0,
            beta_cp: 1,
            bound_cp: 1,
            shallow_value_cp: 50,
            outcome: "cut-high".into(),
            true_value_cp: 0,
            correct,
            verify_nodes: 10,
            fen: String::new(),
            pruned_move: None,
        };
        let rows = FalseCutRow::count(&[
            row("probcut", true),
            row("probcut", false),
            row("null-move", true),
        ]);
        assert_eq!(
            rows.len(),
            2,
            "one row per position, method, depth and outcome"
        );
        assert_eq!((rows[0].sampled_cuts, rows[0].false_cuts), (2, 1));
        assert_eq!(rows[0].verify_nodes, 20);
        let text = false_cuts(&rows).render();
        assert!(
            text.contains("| probcut   |            2 |     1 |       50.0% [9.5, 90.5] |"),
            "{text}"
        );
        assert!(
            text.contains("| null-move |            1 |     0 |        0.0% [0.0, 79.3] |"),
            "{text}"
        );
    }

    /// At fixed depth the tree size is the geometric mean of nodes over the reference's:
    /// trees 2 and 8 times as large give 4, whatever the times, and a timed comparison has no
    /// such column (its node counts measure speed, not size).
    #[test]
    fn the_tree_size_at_fixed_depth_is_a_geometric_mean_of_ratios() {
        let row = |position: &str, variant: &str, nodes: u64, limit: Option<u64>| DepthRow {
            position: position.into(),
            variant: variant.into(),
            nodes,
            time_ms: nodes / 3,
            time_limit_ms: limit,
            depth: 10,
            ..DepthRow::default()
        };
        let rows = [
            row("a", "null-move", 100, None),
            row("b", "null-move", 1000, None),
            row("a", "mpc", 200, None),
            row("b", "mpc", 8000, None),
        ];
        let text = depth(&rows, &["null-move", "mpc"]).render();
        assert!(text.contains("tree size ratio [95% CI]"), "{text}");
        let mpc = text.lines().find(|l| l.starts_with("| mpc")).unwrap();
        assert!(mpc.contains(" 4.000 ["), "{text}");
        let null_move = text.lines().find(|l| l.starts_with("| null-move")).unwrap();
        assert!(null_move.contains(" 1.000 [1.000, 1.000] |"), "{text}");
        let timed = rows.map(|r| DepthRow {
            time_limit_ms: Some(1000),
            ..r
        });
        assert!(
            !depth(&timed, &["null-move", "mpc"])
                .render()
                .contains("tree size")
        );
    }
}
