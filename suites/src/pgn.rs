//! Positions sampled from PGN games (pgn-reader, by shakmaty's author): between two plies,
//! a seeded choice of positions per game, skipping positions with the side to move in check.
//! Each keeps its game's result (`1-0`, `0-1`, `1/2-1/2`) as the EPD operation `c9`, as in the
//! position files Texel tuning reads.

use std::{io, ops::ControlFlow, path::Path};

use cutlab_search::Position;
use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

use crate::{Suite, SuiteError, SuitePosition};

/// How positions are sampled from each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgnSampling {
    /// First ply (half-moves played) that may be sampled.
    pub min_ply: u32,
    /// Last ply that may be sampled.
    pub max_ply: u32,
    /// Positions taken per game, at most.
    pub per_game: usize,
    /// Seed of the choice.
    pub seed: u64,
}

impl Default for PgnSampling {
    fn default() -> Self {
        PgnSampling {
            min_ply: 16,
            max_ply: 80,
            per_game: 4,
            seed: 1,
        }
    }
}

/// The tags a sample needs: the start position and the result.
#[derive(Default)]
struct GameTags {
    start: Option<Chess>,
    result: Option<String>,
}

struct Game {
    pos: Chess,
    result: Option<String>,
    ply: u32,
    candidates: Vec<(u32, Position)>,
    error: Option<String>,
}

struct Sampler {
    sampling: PgnSampling,
}

impl Visitor for Sampler {
    type Tags = GameTags;
    type Movetext = Game;
    type Output = Result<(Vec<(u32, Position)>, Option<String>), String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let parsed = Fen::from_ascii(value.as_bytes())
                .map_err(|e| format!("FEN tag: {e}"))
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Standard)
                        .map_err(|e| format!("FEN tag: {e}"))
                });
            match parsed {
                Ok(pos) => tags.start = Some(pos),
                Err(e) => return ControlFlow::Break(Err(e)),
            }
        } else if name == b"Result" {
            let result = String::from_utf8_lossy(value.as_bytes()).into_owned();
            if ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()) {
                tags.result = Some(result);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Game {
            pos: tags.start.unwrap_or_default(),
            result: tags.result,
            ply: 0,
            candidates: Vec::new(),
            error: None,
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if game.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                game.pos.play_unchecked(m);
                game.ply += 1;
                let s = &self.sampling;
                if (s.min_ply..=s.max_ply).contains(&game.ply)
                    && !game.pos.is_check()
                    && !game.pos.is_game_over()
                {
                    game.candidates
                        .push((game.ply, Position::from_chess(game.pos.clone())));
                }
            }
            Err(e) => game.error = Some(format!("ply {}: '{san_plus}': {e}", game.ply + 1)),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        match game.error {
            Some(e) => Err(e),
            None => Ok((game.candidates, game.result)),
        }
    }
}

/// Samples positions from the games of a PGN text.
///
/// # Errors
/// An illegal or unreadable move (named with game number and ply), or a read error; with
/// `skip_invalid` a bad game is skipped and counted instead.
pub fn parse_pgn<R: io::Read>(
    source: &str,
    input: R,
    sampling: PgnSampling,
    skip_invalid: bool,
) -> Result<Suite, SuiteError> {
    let mut reader = Reader::new(input);
    let mut visitor = Sampler { sampling };
    let mut positions = Vec::new();
    let mut skipped = 0;
    let mut game_no = 0_u64;
    let mut first_skipped: Option<String> = None;
    let fail = |line: usize, problem: String| SuiteError {
        file: source.to_string(),
        line,
        problem,
    };
    loop {
        let game = reader
            .read_game(&mut visitor)
            .map_err(|e| fail(0, e.to_string()))?;
        let Some(result) = game else { break };
        game_no += 1;
        let (mut candidates, game_result) = match result {
            Ok(c) => c,
            Err(problem) if !skip_invalid => {
                return Err(fail(0, format!("game {game_no}: {problem}")));
            }
            Err(problem) => {
                skipped += 1;
                first_skipped.get_or_insert(format!("game {game_no}: {problem}"));
                continue;
            }
        };
        let mut state = cutlab_instrument_hash(sampling.seed ^ game_no);
        for _ in 0..sampling.per_game.min(candidates.len()) {
            state = cutlab_instrument_hash(state);
            let index = usize::try_from(state % candidates.len() as u64).unwrap_or(0);
            let (ply, pos) = candidates.swap_remove(index);
            let mut sample = SuitePosition::new(format!("{source}:g{game_no}:p{ply}"), &pos);
            if let Some(r) = &game_result {
                sample.operations.insert("c9".to_string(), r.clone());
            }
            positions.push(sample);
        }
    }
    if positions.is_empty() {
        let why = match &first_skipped {
            Some(first) => format!("{skipped} of them skipped as invalid, the first {first}"),
            None => format!(
                "none has a position between plies {} and {} that is not in check",
                sampling.min_ply, sampling.max_ply
            ),
        };
        return Err(fail(
            0,
            format!("no positions sampled from its {game_no} games: {why}"),
        ));
    }
    Ok(Suite {
        source: source.to_string(),
        positions,
        skipped,
    })
}

fn cutlab_instrument_hash(x: u64) -> u64 {
    cutlab_instrument::csv_sink::splitmix64(x)
}

/// Samples positions from a PGN file.
///
/// # Errors
/// A missing file, or as [`parse_pgn`].
pub fn load_pgn(
    path: &Path,
    sampling: PgnSampling,
    skip_invalid: bool,
) -> Result<Suite, SuiteError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| SuiteError {
        file: name.clone(),
        line: 0,
        problem: e.to_string(),
    })?;
    parse_pgn(&name, file, sampling, skip_invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 9. Bxe7 Qxe7 10. Nxd5 exd5 *\n";

    #[test]
    fn samples_between_plies_reproducibly() {
        let sampling = PgnSampling {
            min_ply: 10,
            max_ply: 18,
            per_game: 3,
            seed: 5,
        };
        let suite = parse_pgn("t.pgn", PGN.as_bytes(), sampling, false).unwrap();
        assert_eq!(suite.positions.len(), 6);
        let again = parse_pgn("t.pgn", PGN.as_bytes(), sampling, false).unwrap();
        let ids = |s: &Suite| s.positions.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&suite), ids(&again));
        assert!(suite.positions.iter().all(|p| !p.in_check));
        let results: Vec<Option<&String>> = suite
            .positions
            .iter()
            .map(|p| p.operations.get("c9"))
            .collect();
        assert_eq!(results[..3], [Some(&"1-0".to_string()); 3]);
        assert_eq!(results[3..], [None; 3], "an unfinished game has no result");
    }

    /// A PGN that gives no position says why, naming the first game skipped.
    #[test]
    fn nothing_sampled_says_why() {
        let short = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n";
        let err = parse_pgn("s.pgn", short.as_bytes(), PgnSampling::default(), true)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("1 of them skipped as invalid, the first game 1: ply 3"),
            "{err}"
        );
        let err = parse_pgn(
            "s.pgn",
            "1. e4 e5 *\n".as_bytes(),
            PgnSampling::default(),
            true,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("between plies 16 and 80"), "{err}");
    }

    #[test]
    fn an_illegal_move_names_the_game_and_ply() {
        let bad = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"y\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 9. Bxe7 Qxe7 *\n";
        let err = parse_pgn("bad.pgn", bad.as_bytes(), PgnSampling::default(), false).unwrap_err();
        assert!(err.to_string().contains("game 1: ply 3"), "{err}");
        let suite = parse_pgn("bad.pgn", bad.as_bytes(), PgnSampling::default(), true).unwrap();
        assert_eq!(suite.skipped, 1);
    }
}
