//! Information per CPU second of opening sets (or of any sets of matches): which set gives a
//! comparison the narrowest interval for the plies it plays. A match's information per game
//! pair is t² = ((mean pair score - ½) / its standard deviation)², proportional to its nElo²:
//! an SPRT or a fixed-size match needs games in proportion to 1/t² (fishtest's normalized Elo,
//! Hyatt's and van den Bergh's convention). At a fixed number of nodes a move, CPU time is in
//! proportion to the plies played, so t² per 1,000 plies of a pair is information per CPU
//! second. A set pools its matches (each a known comparison): Σ t² / Σ plies per pair. Its
//! ratio to the reference set has a percentile bootstrap interval, game pairs resampled within
//! every match.

use cutlab_analysis::{
    markdown::Table,
    rows::{GameRow, read_games},
};
use cutlab_instrument::csv_sink::splitmix64;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A comparison of sets of matches by information per CPU second (a section's
/// `[[sections.information]]`).
#[derive(Debug, Deserialize)]
pub struct Information {
    /// What is compared (a heading).
    pub label: String,
    /// The set the others are set against.
    pub reference: String,
    /// The sets, each its matches' games CSVs (beside the manifest).
    pub sets: Vec<Set>,
}

/// One set of matches: the same comparisons as the other sets, played another way.
#[derive(Debug, Deserialize)]
pub struct Set {
    /// Its name in the table.
    pub name: String,
    /// Its matches' games CSVs.
    pub games: Vec<String>,
}

/// Resamples of the bootstrap.
const RESAMPLES: u32 = 2000;

/// One match's game pairs: each pair's mean score and plies.
struct Pairs(Vec<(f64, f64)>);

impl Pairs {
    fn read(path: &Path) -> Result<Pairs, String> {
        let games: Vec<GameRow> = read_games(path)?;
        let mut pairs: BTreeMap<usize, Vec<&GameRow>> = BTreeMap::new();
        for g in &games {
            pairs.entry(g.pair).or_default().push(g);
        }
        #[expect(clippy::cast_precision_loss, reason = "plies")]
        let both: Vec<(f64, f64)> = pairs
            .values()
            .filter(|p| p.len() == 2)
            .map(|p| {
                (
                    (p[0].first_engine_score + p[1].first_engine_score) / 2.0,
                    (p[0].plies + p[1].plies) as f64,
                )
            })
            .collect();
        if both.len() < 2 {
            return Err(format!("{}: fewer than two game pairs", path.display()));
        }
        Ok(Pairs(both))
    }

    /// t² and the mean plies of a pair, over the pairs at `picks` (all of them when none).
    fn information(&self, picks: Option<&[usize]>) -> (f64, f64) {
        let all: Vec<usize>;
        let picks = if let Some(p) = picks {
            p
        } else {
            all = (0..self.0.len()).collect();
            &all
        };
        #[expect(clippy::cast_precision_loss, reason = "pairs")]
        let n = picks.len() as f64;
        let mean = picks.iter().map(|&i| self.0[i].0).sum::<f64>() / n;
        let var = picks
            .iter()
            .map(|&i| (self.0[i].0 - mean).powi(2))
            .sum::<f64>()
            / n;
        let plies = picks.iter().map(|&i| self.0[i].1).sum::<f64>() / n;
        let t2 = if var > 0.0 {
            (mean - 0.5).powi(2) / var
        } else {
            0.0
        };
        (t2, plies)
    }
}

/// A set's information per 1,000 plies: Σ t² / Σ plies per pair, its matches pooled.
fn pooled(parts: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (t2, plies) = parts.fold((0.0, 0.0), |(a, b), (t, p)| (a + t, b + p));
    1000.0 * t2 / plies
}

/// The `q` quantile of sorted `xs` (nearest rank).
fn quantile(xs: &[f64], q: f64) -> f64 {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a short list"
    )]
    let i = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1;
    xs[i]
}

/// Each set's information over the reference set's in [`RESAMPLES`] bootstrap resamples (the
/// pairs of every match drawn again with replacement, seeded), sorted.
fn resampled_ratios(sets: &[Vec<Pairs>], reference: usize) -> Vec<Vec<f64>> {
    let mut state = 2003_u64;
    let mut resampled: Vec<Vec<f64>> = vec![Vec::new(); sets.len()];
    for _ in 0..RESAMPLES {
        let values: Vec<f64> = sets
            .iter()
            .map(|matches| {
                pooled(matches.iter().map(|p| {
                    let picks: Vec<usize> = (0..p.0.len())
                        .map(|_| {
                            state = splitmix64(state);
                            usize::try_from(state % p.0.len() as u64).unwrap_or(0)
                        })
                        .collect();
                    p.information(Some(&picks))
                }))
            })
            .collect();
        for (k, v) in values.iter().enumerate() {
            resampled[k].push(v / values[reference]);
        }
    }
    for draws in &mut resampled {
        draws.sort_by(f64::total_cmp);
    }
    resampled
}

/// The table of one comparison of sets, and a sentence saying which set gives the most.
///
/// # Errors
/// An unreadable games file, one with fewer than two pairs, or no set named as the reference.
pub fn table(dir: &Path, info: &Information) -> Result<String, String> {
    let sets: Vec<Vec<Pairs>> = info
        .sets
        .iter()
        .map(|s| s.games.iter().map(|g| Pairs::read(&dir.join(g))).collect())
        .collect::<Result<_, _>>()?;
    let reference = info
        .sets
        .iter()
        .position(|s| s.name == info.reference)
        .ok_or_else(|| {
            format!(
                "information '{}': no set named '{}'",
                info.label, info.reference
            )
        })?;
    let point: Vec<f64> = sets
        .iter()
        .map(|m| pooled(m.iter().map(|p| p.information(None))))
        .collect();
    let resampled = resampled_ratios(&sets, reference);
    let mut t = Table::new(&[
        "set",
        ">matches",
        ">pairs",
        ">t² per 1,000 plies",
        &format!(">against {} [95%, {RESAMPLES} resamples]", info.reference),
        "reading",
    ]);
    let mut readings = Vec::with_capacity(info.sets.len());
    for (k, set) in info.sets.iter().enumerate() {
        let (against, reading) = if k == reference {
            ("1".to_string(), "the reference")
        } else {
            against(point[k] / point[reference], &resampled[k])
        };
        readings.push(reading);
        t.row(vec![
            set.name.clone(),
            sets[k].len().to_string(),
            sets[k].iter().map(|p| p.0.len()).sum::<usize>().to_string(),
            format!("{:.2}", point[k]),
            against,
            reading.to_string(),
        ]);
    }
    Ok(format!(
        "\n**{}**\n\n{}\n{}\n",
        info.label,
        t.render(),
        most_information(info, &point, reference, &readings)
    ))
}

/// A set's information against the reference's: the `ratio` with its resampled interval
/// (from `draws`), and its reading.
fn against(ratio: f64, draws: &[f64]) -> (String, &'static str) {
    let (low, high) = (quantile(draws, 0.025), quantile(draws, 0.975));
    let reading = if low > 1.0 {
        "more"
    } else if high < 1.0 {
        "less"
    } else {
        "not shown to differ"
    };
    (format!("{ratio:.2} [{low:.2}, {high:.2}]"), reading)
}

/// The sentence that names the set with the most information per CPU second (the first of
/// the highest `point` estimates), against the `reference` and whether its interval shows it
/// (its reading from `against`, one per set).
fn most_information(
    info: &Information,
    point: &[f64],
    reference: usize,
    readings: &[&str],
) -> String {
    let mut best = (0, f64::NEG_INFINITY);
    for (k, &p) in point.iter().enumerate() {
        if p > best.1 {
            best = (k, p);
        }
    }
    let (k, _) = best;
    let decided = k != reference && readings[k] == "more";
    format!(
        "Most information per CPU second: {}, {} the reference{}.",
        info.sets[k].name,
        if k == reference {
            "which is".to_string()
        } else {
            format!("{:.2} times", point[k] / point[reference])
        },
        if k == reference || decided {
            ""
        } else {
            " (not shown to differ from it: its interval holds 1)"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a games CSV of pairs with the given pair scores (first engine) and plies a game.
    fn games(path: &Path, pair_scores: &[f64], plies: usize) {
        let mut text =
            "game,pair,opening,white,black,result,termination,plies,first_engine_score\n"
                .to_string();
        for (i, &s) in pair_scores.iter().enumerate() {
            // A pair scoring 1 is two wins, 0.5 a win and a loss.
            let (a, b) = if s > 0.75 { (1.0, 1.0) } else { (1.0, 0.0) };
            for (k, score) in [a, b].into_iter().enumerate() {
                // The first engine, `a`, is White in a pair's first game and Black in its second.
                let (white, black, result) = match (k, score > 0.5) {
                    (0, true) => ("a", "b", "1-0"),
                    (0, false) => ("a", "b", "0-1"),
                    (_, true) => ("b", "a", "0-1"),
                    (_, false) => ("b", "a", "1-0"),
                };
                text.push_str(&format!(
                    "{},{},o,{white},{black},{result},checkmate,{plies},{score}\n",
                    2 * i + k + 1,
                    i + 1
                ));
            }
        }
        std::fs::write(path, text).unwrap();
    }

    /// Pair scores 1, ½, 1, ½: mean ¾, variance 1/16, so t² = (¼)² / (1/16) = 1 a pair; at
    /// 50 plies a game (100 a pair) that is 10 per 1,000 plies; the same pairs at 100 plies a
    /// game give half of it.
    #[test]
    fn information_is_t_squared_over_the_plies_of_a_pair() {
        let dir = crate::common::scratch_dir("information");
        let scores = [1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5];
        games(&dir.join("short.csv"), &scores, 50);
        games(&dir.join("long.csv"), &scores, 100);
        let info = Information {
            label: "test".into(),
            reference: "long".into(),
            sets: vec![
                Set {
                    name: "long".into(),
                    games: vec!["long.csv".into()],
                },
                Set {
                    name: "short".into(),
                    games: vec!["short.csv".into()],
                },
            ],
        };
        let md = table(&dir, &info).unwrap();
        assert!(md.contains("|  10.00 |") || md.contains(" 10.00 |"), "{md}");
        assert!(md.contains(" 5.00 |"), "{md}");
        assert!(
            md.contains("Most information per CPU second: short, 2.00 times"),
            "{md}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
