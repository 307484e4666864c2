//! `cutlab adjudicate`: adjudication rules replayed on games played to their natural end
//! ([`crate::common::adjudication::replay`]; fishtest's rules are resign after 3 moves at 600
//! cp, draw from move 34 for 8 moves within 20 cp).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::common::adjudication::{
    Adjudication,
    replay::{replay, summary},
};

/// Options of `cutlab adjudicate`.
#[derive(Args, Debug)]
pub struct AdjudicateArgs {
    /// Games CSVs of matches played without adjudication and with `--scores` (STEM.csv or
    /// STEM.csv.gz, with its scores in STEM.scores.csv beside it, or .gz or .xz).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Draw adjudication `movenumber=34,movecount=8,score=20`.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication `movecount=3,score=600`.
    #[arg(long)]
    resign: Option<String>,
    /// Per-game CSV of the replay (one row per game).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing `--out`.
    #[arg(long)]
    force: bool,
}

/// Replays the rules on every game and prints what they would have changed and saved.
///
/// # Errors
/// Bad rules, an unreadable file, a game without all its scores, or a game that was already
/// adjudicated.
pub fn run(args: &AdjudicateArgs) -> Result<(), String> {
    let rules = Adjudication::parse(args.draw.as_deref(), args.resign.as_deref(), None)?;
    if rules.draw.is_none() && rules.resign.is_none() {
        return Err("give --draw, --resign or both".into());
    }
    if let Some(out) = &args.out {
        let inputs: Vec<&Path> = args.games.iter().map(PathBuf::as_path).collect();
        crate::common::results::new_output(out, "--out", args.force, &inputs)?;
    }
    let replayed = replay(&args.games, rules)?;
    if let Some(out) = &args.out {
        crate::common::results::write_csv(out, &replayed.rows)?;
    }
    print!("{}", summary(&replayed));
    Ok(())
}
