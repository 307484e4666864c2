//! Fuzzing of the parsers that take outside text: EPD and FEN lines, whole suite files and PGN
//! suites, from the seed corpus in `tests/corpus/` mutated byte by byte and from arbitrary text
//! (proptest; `PROPTEST_CASES` sets the cases, 256 by default: about a second). None may
//! panic; a line read must be written back (`to_epd`) to a line that reads the same position.

use cutlab_suites::{PgnSampling, parse, parse_line, parse_pgn};
use proptest::prelude::*;

const LINES: &str = include_str!("corpus/lines.epd");
const GAMES: &str = include_str!("corpus/games.pgn");

/// `text` with each `(place, byte)` edit: replaced, inserted or deleted by the byte's value.
fn mutated(text: &str, edits: &[(usize, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(place, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = place % bytes.len();
        match byte % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A line read is written back to one that reads the same position and id.
fn round_trips(line: &str) {
    if let Ok(p) = parse_line(line, "fallback") {
        let again = parse_line(&p.to_epd(), "other").expect("its own EPD reads");
        assert_eq!((again.fen, again.id), (p.fen, p.id), "{line}");
    }
}

proptest! {
    #[test]
    fn a_mutated_corpus_line_never_panics(k in 0usize..6, edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8)) {
        let seed = LINES.lines().nth(k).unwrap();
        round_trips(&mutated(seed, &edits));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,120}") {
        round_trips(&text);
        let _ = parse("fuzz.epd", &text, false);
        let _ = parse("fuzz.epd", &text, true);
    }

    #[test]
    fn a_mutated_suite_or_pgn_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..16)) {
        let _ = parse("fuzz.epd", &mutated(LINES, &edits), true);
        let _ = parse("fuzz.epd", &mutated(LINES, &edits), false);
        let pgn = mutated(GAMES, &edits);
        let _ = parse_pgn("fuzz.pgn", pgn.as_bytes(), PgnSampling::default(), true);
        let _ = parse_pgn("fuzz.pgn", pgn.as_bytes(), PgnSampling::default(), false);
    }
}

#[test]
fn the_corpus_reads() {
    // Its fourth line is malformed on purpose (an operand that lacks its ';').
    let suite = parse("corpus", LINES, true).unwrap();
    assert_eq!((suite.positions.len(), suite.skipped), (5, 1));
    assert!(parse_pgn("corpus", GAMES.as_bytes(), PgnSampling::default(), false).is_ok());
}
