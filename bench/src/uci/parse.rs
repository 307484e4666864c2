//! The arguments of UCI's `position` and `go`, parsed without a panic: a bad move keeps the
//! legal prefix of a move list, a bad `go` parameter is named and left out, and numbers
//! saturate.

use cutlab_search::{Limits, Position};

/// A parsed `position` command.
#[derive(Debug)]
pub(super) struct ParsedPosition {
    /// The position after the legal prefix of the move list.
    pub(super) root: Position,
    /// Keys of the positions before `root`, oldest first.
    pub(super) game: Vec<u64>,
    /// What was wrong with the move list, if anything (the moves from there were dropped).
    pub(super) error: Option<String>,
}

/// Parses `position startpos|fen <fen> [moves ...]`. A bad setup is an error; a bad move keeps
/// the legal prefix of the list and reports the rest.
pub(super) fn parse_position(args: &[&str]) -> Result<ParsedPosition, String> {
    let moves_at = args
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(args.len());
    let (setup, moves) = args.split_at(moves_at);
    let mut pos = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"fen", fen)) if !fen.is_empty() => {
            Position::from_fen(&fen.join(" ")).map_err(|e| format!("position fen: {e}"))?
        }
        _ => return Err("position needs 'startpos' or 'fen <fen>'".to_string()),
    };
    let mut game = Vec::new();
    for (i, text) in moves.iter().skip(1).enumerate() {
        match pos.parse_uci(text) {
            Ok(m) => {
                game.push(pos.key());
                pos = pos.play(m);
            }
            Err(e) => {
                let kept = i;
                return Ok(ParsedPosition {
                    root: pos,
                    game,
                    error: Some(format!(
                        "position moves: move {} {e}; keeping the {kept} moves before it",
                        i + 1
                    )),
                });
            }
        }
    }
    Ok(ParsedPosition {
        root: pos,
        game,
        error: None,
    })
}

/// Parses the arguments of `go`: the limits it understood and an error per word it did not
/// (the search goes on without them). Numbers saturate: a negative one is 0, one too large
/// for its field is the field's maximum.
pub(super) fn parse_go(args: &[&str], root: &Position) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut errors = Vec::new();
    let mut words = args.iter().peekable();
    while let Some(&word) = words.next() {
        if word == "searchmoves" {
            // The moves up to the next parameter; an illegal one is named and left out.
            while let Some(text) = words.next_if(|w| !GO_PARAMETERS.contains(w)) {
                match root.parse_uci(text) {
                    Ok(m) => limits.searchmoves.push(m),
                    Err(e) => errors.push(format!("go searchmoves: {e}")),
                }
            }
            if limits.searchmoves.is_empty() {
                errors.push("go searchmoves: no legal move given; searching every move".into());
            }
            continue;
        }
        let mut number = || -> Result<u64, String> {
            let value = words
                .next_if(|v| v.parse::<f64>().is_ok() || v.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| format!("go {word} needs a number"))?;
            saturating_u64(value).ok_or_else(|| format!("go {word}: '{value}' is not a number"))
        };
        let parsed = match word {
            "depth" => number().map(|n| limits.depth = Some(saturate(n))),
            "nodes" => number().map(|n| limits.nodes = Some(n)),
            "movetime" => number().map(|n| limits.movetime_ms = Some(n)),
            "wtime" => number().map(|n| limits.wtime_ms = Some(n)),
            "btime" => number().map(|n| limits.btime_ms = Some(n)),
            "winc" => number().map(|n| limits.winc_ms = Some(n)),
            "binc" => number().map(|n| limits.binc_ms = Some(n)),
            "movestogo" => number().map(|n| limits.movestogo = Some(saturate(n))),
            "mate" => number().map(|n| limits.depth = Some(saturate(n.saturating_mul(2)))),
            "infinite" | "ponder" => {
                limits.infinite = true;
                Ok(())
            }
            other => Err(format!("go: unknown parameter '{other}'")),
        };
        if let Err(message) = parsed {
            errors.push(message);
        }
    }
    (limits, errors)
}

/// The parameters of `go` (where a `searchmoves` list ends).
const GO_PARAMETERS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// A whole number of any size as u64: negative is 0, too large is `u64::MAX`; `None` when the
/// text is not an integer.
fn saturating_u64(text: &str) -> Option<u64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.starts_with('-') {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// `n` in a narrower integer type, saturating.
fn saturate<T: TryFrom<u64> + Bounded>(n: u64) -> T {
    T::try_from(n).unwrap_or(T::MAX)
}

/// The largest value of an integer type.
trait Bounded {
    const MAX: Self;
}

impl Bounded for i32 {
    const MAX: i32 = i32::MAX;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

#[cfg(test)]
mod tests {
    use cutlab_search::position::uci;

    use super::*;

    fn start() -> Position {
        Position::startpos()
    }

    #[test]
    fn position_with_moves_keeps_the_game_keys() {
        let parsed = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(parsed.game.len(), 2);
        assert_eq!(parsed.game[0], Position::startpos().key());
        assert!(
            parsed
                .root
                .fen()
                .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
        );
        assert!(parsed.error.is_none());
    }

    #[test]
    fn a_bad_move_keeps_the_legal_prefix_and_names_the_problem() {
        let parsed = parse_position(&["startpos", "moves", "e2e4", "zzzz", "e7e5"]).unwrap();
        let err = parsed.error.unwrap();
        assert!(err.contains("move 2") && err.contains("zzzz"), "{err}");
        assert_eq!(parsed.game.len(), 1);
        assert!(
            parsed
                .root
                .fen()
                .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
        );
        assert!(parse_position(&["fen", "xx"]).unwrap_err().contains("FEN"));
        assert!(parse_position(&[]).is_err());
    }

    #[test]
    fn go_parameters_parse() {
        let limits = parse_go(
            &[
                "wtime",
                "1000",
                "btime",
                "2000",
                "winc",
                "10",
                "movestogo",
                "5",
            ],
            &start(),
        )
        .0;
        assert_eq!(limits.wtime_ms, Some(1000));
        assert_eq!(limits.movestogo, Some(5));
        assert_eq!(parse_go(&["depth"], &start()).1.len(), 1);
        assert_eq!(
            parse_go(&["depth", "x"], &start()).1.len(),
            2,
            "x is not a number nor a parameter"
        );
        assert_eq!(parse_go(&["sideways"], &start()).1.len(), 1);
        // Huge and negative numbers saturate; what is understood is kept beside an error.
        let (limits, errors) =
            parse_go(&["depth", "99999999999999999999", "wtime", "-5"], &start());
        assert_eq!((limits.depth, limits.wtime_ms), (Some(i32::MAX), Some(0)));
        assert!(errors.is_empty());
        let (limits, errors) = parse_go(&["sideways", "nodes", "100"], &start());
        assert_eq!((limits.nodes, errors.len()), (Some(100), 1));
    }

    #[test]
    fn searchmoves_end_at_the_next_parameter_and_illegal_ones_are_named() {
        let (limits, errors) = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "3"], &start());
        assert_eq!(
            limits
                .searchmoves
                .iter()
                .map(|&m| uci(m))
                .collect::<Vec<_>>(),
            ["e2e4", "d2d4"]
        );
        assert_eq!((limits.depth, errors.len()), (Some(3), 0));
        let (limits, errors) = parse_go(&["searchmoves", "e2e5", "nodes", "10"], &start());
        assert!(limits.searchmoves.is_empty());
        assert!(errors[0].contains("e2e5"), "{errors:?}");
        assert_eq!(limits.nodes, Some(10));
    }
}
