//! Positions with game results, as the tuner sees them: each quiet position's feature counts,
//! game phase and result.

use cutlab_search::{
    Search, SearchConfig,
    eval::{FULL_PHASE, evaluate, terms},
    score::INFINITE,
};
use cutlab_suites::{Suite, SuitePosition};
use shakmaty::Position as _;

/// One position: its features (weight index, White's count minus Black's), phase and result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Non-zero feature counts, by weight index.
    pub features: Vec<(u16, i16)>,
    /// Game phase, 0..=[`FULL_PHASE`].
    pub phase: i32,
    /// The game's result from White's view: 1, 0.5 or 0.
    pub result: f64,
    /// Which game it comes from (a hash of its id without the ply), so that the held-out
    /// positions come from games the tuner never saw.
    pub game: u64,
}

/// The game part of a position id: `tcec.g00012.p041` and `games.pgn:g12:p41` lose their
/// last `.p<ply>` or `:p<ply>` part; other ids stand for themselves.
fn game_key(id: &str) -> u64 {
    let game = id
        .rfind(['.', ':'])
        .filter(|&at| {
            let tail = &id[at + 1..];
            tail.len() > 1 && tail.starts_with('p') && tail[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map_or(id, |at| &id[..at]);
    game.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What loading kept and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadCounts {
    /// Positions read.
    pub read: usize,
    /// Dropped: side to move in check.
    pub in_check: usize,
    /// Dropped: quiescence search changes the static evaluation (a capture is pending).
    pub not_quiet: usize,
}

/// Collects the feature counts handed over by the evaluation.
#[derive(Default)]
struct Counts(Vec<(usize, i32)>);

impl terms::FeatureSink for Counts {
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index, count));
    }
}

/// The game result of a position's `c9` operation, White's view.
fn result_of(position: &SuitePosition, source: &str) -> Result<f64, String> {
    match position.operations.get("c9").map(String::as_str) {
        Some("1-0") => Ok(1.0),
        Some("0-1") => Ok(0.0),
        Some("1/2-1/2") => Ok(0.5),
        Some(other) => Err(format!(
            "{source}: position {}: result c9 \"{other}\" is not 1-0, 0-1 or 1/2-1/2",
            position.id
        )),
        None => Err(format!(
            "{source}: position {}: no game result (EPD operation c9 \"1-0\", \"0-1\" or \
             \"1/2-1/2\"; PGN games need a Result tag)",
            position.id
        )),
    }
}

/// The feature counts and phase of `position`, duplicates summed and zeros dropped.
pub fn features_of(position: &cutlab_search::Position) -> (Vec<(u16, i16)>, i32) {
    let chess = position.chess();
    let mut counts = Counts::default();
    let phase = terms::collect(chess.board(), chess.turn(), &mut counts);
    let mut merged: Vec<(usize, i32)> = counts.0;
    merged.sort_unstable_by_key(|&(index, _)| index);
    let mut features: Vec<(u16, i16)> = Vec::with_capacity(merged.len());
    for (index, count) in merged {
        let index = u16::try_from(index).unwrap_or(u16::MAX);
        let count = i16::try_from(count).unwrap_or(0);
        match features.last_mut() {
            Some(last) if last.0 == index => last.1 += count,
            _ => features.push((index, count)),
        }
    }
    features.retain(|&(_, count)| count != 0);
    (features, phase.clamp(0, FULL_PHASE))
}

/// The quiet positions of `suite` with their results: in-check positions and positions where
/// quiescence search changes the static evaluation are dropped (Texel's method scores quiet
/// positions by their static evaluation).
///
/// # Errors
/// A position without a game result (named with its file and id).
pub fn load(suite: &Suite) -> Result<(Vec<Sample>, LoadCounts), String> {
    let mut search = Search::new(SearchConfig::default(), 1)?;
    let mut counts = LoadCounts {
        read: suite.positions.len(),
        ..LoadCounts::default()
    };
    let mut samples = Vec::with_capacity(suite.positions.len());
    for position in &suite.positions {
        let result = result_of(position, &suite.source)?;
        if position.in_check {
            counts.in_check += 1;
            continue;
        }
        let pos = position.position();
        let (quiet_value, _) = search.quiescence_value(&pos, -INFINITE, INFINITE);
        if quiet_value != evaluate(&pos) {
            counts.not_quiet += 1;
            continue;
        }
        let (features, phase) = features_of(&pos);
        samples.push(Sample {
            features,
            phase,
            result,
            game: game_key(&position.id),
        });
    }
    Ok((samples, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_positions_with_results_are_kept() {
        let suite = cutlab_suites::parse(
            "t.epd",
            "4k3/8/8/8/8/8/3P4/4K3 w - - c9 \"1-0\"; id \"quiet\";\n\
             4k3/8/8/3p4/4P3/8/8/4K3 w - - c9 \"1/2-1/2\"; id \"capture\";\n\
             4k3/8/8/8/8/8/4r3/4K3 w - - c9 \"0-1\"; id \"check\";\n",
            false,
        )
        .unwrap();
        let (samples, counts) = load(&suite).unwrap();
        assert_eq!(counts.read, 3);
        assert_eq!(counts.not_quiet, 1);
        assert_eq!(counts.in_check, 1);
        assert_eq!(samples.len(), 1);
        assert!((samples[0].result - 1.0).abs() < f64::EPSILON);
        assert!(samples[0].features.iter().all(|&(_, c)| c != 0));
    }

    #[test]
    fn positions_of_one_game_share_a_key() {
        assert_eq!(game_key("tcec.g00012.p041"), game_key("tcec.g00012.p077"));
        assert_ne!(game_key("tcec.g00012.p041"), game_key("tcec.g00013.p041"));
        assert_eq!(game_key("a.pgn:g3:p20"), game_key("a.pgn:g3:p31"));
        assert_ne!(game_key("WAC.001"), game_key("WAC.002"));
    }

    #[test]
    fn a_missing_result_names_the_position() {
        let suite = cutlab_suites::parse("t.epd", "4k3/8/8/8/8/8/3P4/4K3 w - - id \"x\";\n", false)
            .unwrap();
        let err = load(&suite).unwrap_err();
        assert!(err.contains("t.epd: position x: no game result"), "{err}");
    }
}
