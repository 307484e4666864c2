//! What a comparison's match says at one effort, read from the run's games: its Elo and nElo
//! with the interval of its stopping rule, where it stands (to play, playing, stopped with its
//! verdict), and how many of its pairs repeat the reference's games (a method that hardly
//! acts reads *inactive*).

use cutlab_analysis::{
    elo::{Looks, Pentanomial, RoutBound, Verdict},
    rows::{GameRow, read_games_if_stored},
    stats::Estimate,
    tables::MatchSummary,
};

use super::{Comparison, Layout, Manifest, MatchKey};
use crate::common::packed_games::{self, Packed, repeated_pairs};

/// What a comparison's match says at one effort: its Elo and nElo (or a rout's bound), where
/// it stands with its verdict, its games and pairs, and the pairs that repeat their games.
pub(super) struct Played {
    pub(super) delta_elo: Option<Estimate>,
    pub(super) delta_nelo: Option<Estimate>,
    pub(super) elo_rout: Option<RoutBound>,
    pub(super) status: Status,
    pub(super) games: usize,
    pub(super) pentanomial: Pentanomial,
    pub(super) repeated_pairs: Option<(usize, usize)>,
}

impl Played {
    /// Reads the match of `c` at `nodes` from the run's games (and its PGN, or the packed
    /// `archive`, for the repeated pairs), under the rule of `looks`.
    pub(super) fn read(
        (layout, archive): (&Layout, &[Packed]),
        (manifest, looks): (&Manifest, &Looks),
        c: &Comparison,
        nodes: u64,
    ) -> Result<Played, String> {
        let games_path = MatchKey::of(c, nodes).games_file();
        let games: Vec<GameRow> = read_games_if_stored(&layout.file(&games_path))?;
        let summary = MatchSummary::of(&games);
        let repeated = repeats(layout, archive, &games_path.replace(".csv", ".pgn"))?;
        let inactive = repeated
            .and_then(repeated_share)
            .is_some_and(|share| share >= Verdict::INACTIVE_SHARE);
        let (delta_elo, delta_nelo, elo_rout, verdict) = match &summary {
            Some(s) => {
                let stats = looks.stats(&s.pentanomial);
                let (elo, rout) = (stats.elo_estimate(), stats.rout_bound());
                let nelo = stats.nelo_estimate();
                // A stopped match's verdict is its interval's (a rout's one bound excludes 0).
                let status = looks.stop(&s.pentanomial).map_or(Status::Playing, |_| {
                    Status::Stopped(match (&elo, rout) {
                        _ if inactive => Verdict::Inactive,
                        (Some(e), _) => Verdict::of(e.low, e.high, manifest.stop_within),
                        (None, Some(_)) => Verdict::Decided,
                        (None, None) => Verdict::Undecided,
                    })
                });
                (elo, nelo, rout, status)
            }
            None => (None, None, None, Status::ToPlay),
        };
        Ok(Played {
            delta_elo,
            delta_nelo,
            elo_rout,
            status: verdict,
            games: summary.as_ref().map_or(0, |s| s.games),
            pentanomial: summary.map(|s| s.pentanomial).unwrap_or_default(),
            repeated_pairs: repeated,
        })
    }
}

/// The repeated pairs of the match whose PGN is `pgn` (relative to the run), from the PGN or
/// from the run's `archive`; none before its first game.
fn repeats(
    layout: &Layout,
    archive: &[Packed],
    pgn: &str,
) -> Result<Option<(usize, usize)>, String> {
    let path = layout.file(pgn);
    if path.is_file() {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let games =
            packed_games::split_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Some(repeated_pairs(
            games
                .iter()
                .map(|(tags, moves)| (tags.as_str(), moves.as_str())),
        )));
    }
    let games: Vec<&Packed> = archive.iter().filter(|g| g.pgn == pgn).collect();
    Ok((!games.is_empty())
        .then(|| repeated_pairs(games.iter().map(|g| (g.tags.as_str(), g.ranks.as_str())))))
}

/// Where a comparison's match stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// No game yet.
    #[default]
    ToPlay,
    /// No look has stopped the match yet.
    Playing,
    /// A look stopped it; its interval's verdict.
    Stopped(Verdict),
}

impl Status {
    /// The word the CSV and the contrasts write.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::ToPlay => "to play",
            Status::Playing => "playing",
            Status::Stopped(v) => v.name(),
        }
    }
}

/// The share of a match's pairs that repeat their games, from (repeated, pairs); none
/// without pairs.
pub(super) fn repeated_share((repeated, pairs): (usize, usize)) -> Option<f64> {
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    (pairs > 0).then(|| repeated as f64 / pairs as f64)
}
