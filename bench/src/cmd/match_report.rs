//! `cutlab match-report`: the summary of one match from its games CSVs (the output of an
//! interrupted and resumed match, or the shards of one, `--shard K/N`): W-D-L, Elo and
//! normalized Elo with intervals, LOS, pentanomial counts, and the SPRT state when asked.

use std::path::PathBuf;

use clap::Args;
use cutlab_analysis::rows::GameRow;

use crate::common::match_report::{self as report, stopping_rules};

/// Options of `cutlab match-report`.
#[derive(Args, Debug)]
pub struct MatchReportArgs {
    /// Games CSVs of one match (`cutlab match --out`), e.g. its shards.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`: the GSPRT's state on the games so far
    /// (`nelo0=0,nelo1=5,...` on normalized Elo).
    #[arg(long, conflicts_with = "looks", value_parser = crate::common::match_report::sprt_spec)]
    sprt: Option<String>,
    /// The looks of a match played with `--looks`: its interval and whether it stopped.
    #[arg(long, value_delimiter = ',')]
    looks: Vec<u64>,
    /// The half-width (Elo) at which a look stops the match.
    #[arg(long, default_value_t = 15.0, requires = "looks")]
    stop_within: f64,
}

/// Prints the combined summary.
///
/// # Errors
/// An unreadable file, files of matches with other settings (another time control, node
/// count, opponent, seed), games of different pairings, or the same game pair twice.
pub fn run(args: &MatchReportArgs) -> Result<(), String> {
    crate::common::configs::same_settings(&args.files)?;
    let mut rows: Vec<GameRow> = Vec::new();
    for path in &args.files {
        rows.extend(cutlab_analysis::rows::read_games(path)?);
    }
    let summary = cutlab_analysis::tables::MatchSummary::of(&rows)
        .ok_or_else(|| "no games in the files".to_string())?;
    let names = [summary.first.clone(), summary.second.clone()];
    if let Some(other) = rows
        .iter()
        .find(|r| !names.contains(&r.white) || !names.contains(&r.black))
    {
        return Err(format!(
            "game {} is {} vs {}, not of the match {} vs {}",
            other.game, other.white, other.black, names[0], names[1]
        ));
    }
    let mut games: Vec<usize> = rows.iter().map(|r| r.game).collect();
    games.sort_unstable();
    if let Some(w) = games.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "game {} appears twice (the same shard given twice?)",
            w[0]
        ));
    }
    rows.sort_by_key(|r| r.game);
    let (sprt, looks) = stopping_rules(args.sprt.as_deref(), &args.looks, args.stop_within)?;
    let rule = looks.as_ref().map(|l| (l, l.stop(&summary.pentanomial)));
    print!(
        "{}",
        report::report(&names, &rows, &summary.pentanomial, sprt.as_ref(), rule)
    );
    Ok(())
}
