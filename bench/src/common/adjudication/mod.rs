//! How a game ends, and adjudication (`--draw`, `--resign`, `--maxmoves`): the rules, and the
//! state that follows a game's scores move by move. The live game of `cutlab match` and
//! `cutlab adjudicate`'s replay of recorded scores run the same [`Adjudicator`], so a replay
//! ends a game exactly where the live rule would have; a study (`ablate`) checks the rules it
//! passes to its matches with [`Adjudication::parse`].

pub mod replay;

use shakmaty::Color;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A hundred half-moves without a capture or a pawn move.
    FiftyMoveRule,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// Drawn by `--maxmoves`.
    MaxMoves,
    /// Lost by `--resign` adjudication.
    Resign,
    /// The mover's engine resigned (an xboard engine's `resign`).
    Resignation,
    /// Drawn by `--draw` adjudication.
    DrawAdjudication,
    /// The mover's engine failed or crashed.
    EngineFailure,
    /// The mover ran out of time.
    TimeForfeit,
    /// The mover played an illegal move.
    IllegalMove,
}

impl Ending {
    /// The text in the PGN `Termination` tag and the CSV `termination` column.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::FiftyMoveRule => "fifty-move rule",
            Ending::ThreefoldRepetition => "threefold repetition",
            Ending::MaxMoves => "adjudication: max moves",
            Ending::Resign => "adjudication: resign",
            Ending::Resignation => "resignation",
            Ending::DrawAdjudication => "adjudication: draw",
            Ending::EngineFailure => "engine failure",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove => "illegal move",
        }
    }

    /// The endings that are an engine's fault (counted in the report).
    pub const FAULTS: [Ending; 3] = [
        Ending::TimeForfeit,
        Ending::IllegalMove,
        Ending::EngineFailure,
    ];
}

/// Adjudication rules (`--draw`, `--resign`, `--maxmoves`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// From move number, for this many moves of each side, within this score.
    pub draw: Option<(u32, u32, i32)>,
    /// For this many moves, at or below minus this score.
    pub resign: Option<(u32, i32)>,
    /// Moves of each side.
    pub maxmoves: Option<u32>,
}

impl Adjudication {
    /// The rules of `--draw`, `--resign` and `--maxmoves` as given on the command line.
    ///
    /// # Errors
    /// A missing or unknown key, or a value that is not a whole number in range.
    pub fn parse(
        draw: Option<&str>,
        resign: Option<&str>,
        maxmoves: Option<u32>,
    ) -> Result<Adjudication, String> {
        let draw = draw
            .map(|t| {
                let v = super::options::parse_kv(t, "draw", &["movenumber", "movecount", "score"])?;
                Ok::<_, String>((
                    count(v[0], "draw", "movenumber")?,
                    count(v[1], "draw", "movecount")?,
                    centipawns(v[2], "draw")?,
                ))
            })
            .transpose()?;
        let resign = resign
            .map(|t| {
                let v = super::options::parse_kv(t, "resign", &["movecount", "score"])?;
                Ok::<_, String>((
                    count(v[0], "resign", "movecount")?,
                    centipawns(v[1], "resign")?,
                ))
            })
            .transpose()?;
        Ok(Adjudication {
            draw,
            resign,
            maxmoves,
        })
    }
}

/// A whole number of moves from 1 to 10,000.
fn count(value: f64, option: &str, key: &str) -> Result<u32, String> {
    if value.fract() == 0.0 && (1.0..=10_000.0).contains(&value) {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked"
        )]
        Ok(value as u32)
    } else {
        Err(format!(
            "--{option}: {key}={value} is not a whole number from 1 to 10000"
        ))
    }
}

/// A whole score in centipawns from 0 to 100,000.
fn centipawns(value: f64, option: &str) -> Result<i32, String> {
    if value.fract() == 0.0 && (0.0..=100_000.0).contains(&value) {
        #[expect(clippy::cast_possible_truncation, reason = "checked")]
        Ok(value as i32)
    } else {
        Err(format!(
            "--{option}: score={value} is not a whole number of centipawns from 0 to 100000"
        ))
    }
}

/// A game's adjudication state: the runs of moves that count toward each rule.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive moves (both sides) within the draw score from the draw's move number.
    draw_run: u32,
    /// Each side's consecutive moves at or below minus the resign score (White, Black).
    resign_run: [u32; 2],
}

impl Adjudicator {
    /// A new game's state under `rules`.
    pub const fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            draw_run: 0,
            resign_run: [0, 0],
        }
    }

    /// Before a move: whether `--maxmoves` ends the game after `plies` half-moves.
    pub fn before_move(&self, plies: usize) -> Option<(&'static str, Ending)> {
        self.rules
            .maxmoves
            .is_some_and(|m| plies >= 2 * m as usize)
            .then_some(("1/2-1/2", Ending::MaxMoves))
    }

    /// After `mover`'s move, the `plies`-th of the game, scored `score` centipawns in its own
    /// view (`None` when its engine gave none, which leaves every run as it is): the result
    /// and ending if a rule ends the game there. Resign first: a side that has lost does not
    /// draw.
    pub fn after_move(
        &mut self,
        plies: usize,
        mover: Color,
        score: Option<i32>,
    ) -> Option<(&'static str, Ending)> {
        let score = score?;
        let side = usize::from(mover == Color::Black);
        if let Some((count, limit)) = self.rules.resign {
            self.resign_run[side] = if score <= -limit {
                self.resign_run[side] + 1
            } else {
                0
            };
            if self.resign_run[side] >= count {
                let loss = if mover == Color::White { "0-1" } else { "1-0" };
                return Some((loss, Ending::Resign));
            }
        }
        if let Some((from_move, count, limit)) = self.rules.draw {
            let move_number = u32::try_from(plies / 2).unwrap_or(u32::MAX);
            self.draw_run = if move_number >= from_move && score.abs() <= limit {
                self.draw_run + 1
            } else {
                0
            };
            if self.draw_run >= 2 * count {
                return Some(("1/2-1/2", Ending::DrawAdjudication));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_bad_values_are_named() {
        let a = Adjudication::parse(
            Some("movenumber=34,movecount=8,score=20"),
            Some("movecount=3,score=600"),
            None,
        )
        .unwrap();
        assert_eq!(a.draw, Some((34, 8, 20)));
        assert_eq!(a.resign, Some((3, 600)));
        for (draw, resign, key) in [
            (
                Some("movenumber=34,movecount=0,score=20"),
                None,
                "movecount",
            ),
            (
                Some("movenumber=3.5,movecount=8,score=20"),
                None,
                "movenumber",
            ),
            (None, Some("movecount=3,score=-600"), "score"),
            (None, Some("movecount=3"), "score"),
        ] {
            let e = Adjudication::parse(draw, resign, None).unwrap_err();
            assert!(e.contains(key), "{e}");
        }
    }

    #[test]
    fn resign_needs_the_count_of_one_sides_consecutive_moves() {
        let rules = Adjudication::parse(None, Some("movecount=3,score=600"), None).unwrap();
        let mut a = Adjudicator::new(rules);
        // White's scores -700, -700, then -500 (run broken), Black's always +700.
        let white = [-700, -700, -500, -700, -700];
        let mut ended = None;
        for (i, w) in white.iter().enumerate() {
            let plies = 2 * i + 1;
            assert_eq!(a.after_move(plies, Color::White, Some(*w)), None);
            ended = a.after_move(plies + 1, Color::Black, Some(700));
            assert_eq!(ended, None);
        }
        // A missing score leaves the run as it was; the third bad move resigns.
        assert_eq!(a.after_move(11, Color::White, None), None);
        ended = ended.or(a.after_move(11, Color::White, Some(-600)));
        assert_eq!(ended, Some(("0-1", Ending::Resign)));
    }

    #[test]
    fn draw_counts_both_sides_from_its_move_number() {
        let rules =
            Adjudication::parse(Some("movenumber=2,movecount=2,score=10"), None, None).unwrap();
        let mut a = Adjudicator::new(rules);
        // Plies 1-3 are before move 2 (move number = plies / 2): they do not count.
        let mut ends = (1..=8)
            .map(|plies| {
                let mover = if plies % 2 == 1 {
                    Color::White
                } else {
                    Color::Black
                };
                a.after_move(plies, mover, Some(0))
            })
            .collect::<Vec<_>>();
        let first = ends.iter().position(Option::is_some).unwrap();
        // Counting starts at ply 4, so the fourth counted move is ply 7.
        assert_eq!(first + 1, 7);
        assert_eq!(
            ends.swap_remove(first),
            Some(("1/2-1/2", Ending::DrawAdjudication))
        );
    }
}
