//! Position suites: EPD files (operations `bm`, `am`, `id`, `c0`..`c9` kept) and plain FEN
//! lists, each position classified by stage (Jiang and Buro's rule) and tagged.

mod pgn;

use std::{collections::BTreeMap, fmt, path::Path};

pub use pgn::{PgnSampling, load_pgn, parse_pgn};

use cutlab_instrument::Stage;
use cutlab_search::{Position, see};
use serde::Serialize;
use shakmaty::{Color, Position as _, Role};

/// A malformed line: names the file, the line (1-based) and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// The file (or source name).
    pub file: String,
    /// 1-based line number; 0 when the whole file is at fault.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.problem)
        }
    }
}

impl std::error::Error for SuiteError {}

/// One position of a suite.
#[derive(Clone, Debug, Serialize)]
pub struct SuitePosition {
    /// The EPD `id`, or `<source>:<line>` when there is none.
    pub id: String,
    /// The position as a 6-field FEN.
    pub fen: String,
    /// Best moves (`bm`, SAN as written).
    pub best_moves: Vec<String>,
    /// Moves to avoid (`am`, SAN as written).
    pub avoid_moves: Vec<String>,
    /// Other operations (`c0`..`c9` and the rest), by opcode.
    pub operations: BTreeMap<String, String>,
    /// Middlegame or endgame.
    pub stage: Stage,
    /// Side to move is in check.
    pub in_check: bool,
    /// A capture is available.
    pub captures_available: bool,
    /// Material balance from the side to move's view (P=100 N=320 B=330 R=500 Q=950), cp.
    pub material_balance_cp: i32,
}

impl SuitePosition {
    /// The position itself.
    ///
    /// # Panics
    /// Never: the FEN was validated on loading.
    #[must_use]
    pub fn position(&self) -> Position {
        Position::from_fen(&self.fen).unwrap_or_else(|_| unreachable!("validated on load"))
    }

    /// Builds a tagged suite position from a parsed position.
    #[must_use]
    pub fn new(id: String, pos: &Position) -> SuitePosition {
        let chess = pos.chess();
        let board = chess.board();
        let side = |c: Color| -> i32 {
            Role::ALL
                .iter()
                .filter(|&&r| r != Role::King)
                .map(|&r| {
                    let count = i32::try_from((board.by_role(r) & board.by_color(c)).count());
                    count.unwrap_or(0) * see::value(r)
                })
                .sum()
        };
        SuitePosition {
            id,
            fen: pos.fen(),
            best_moves: Vec::new(),
            avoid_moves: Vec::new(),
            operations: BTreeMap::new(),
            stage: pos.stage(),
            in_check: pos.in_check(),
            captures_available: chess.legal_moves().iter().any(|m| m.is_capture()),
            material_balance_cp: side(pos.turn()) - side(!pos.turn()),
        }
    }
}

impl SuitePosition {
    /// The position as one EPD line that [`parse_line`] reads back to the same position, id,
    /// moves and operations.
    #[must_use]
    pub fn to_epd(&self) -> String {
        let fields: Vec<&str> = self.fen.split(' ').collect();
        let mut line = fields[..4.min(fields.len())].join(" ");
        for (code, value) in [("hmvc", fields.get(4)), ("fmvn", fields.get(5))] {
            if let Some(v) = value {
                line.push_str(&format!(" {code} {v};"));
            }
        }
        for (code, moves) in [("bm", &self.best_moves), ("am", &self.avoid_moves)] {
            if !moves.is_empty() {
                line.push_str(&format!(" {code} {};", moves.join(" ")));
            }
        }
        for (code, value) in &self.operations {
            line.push_str(&format!(" {code} \"{value}\";"));
        }
        line.push_str(&format!(" id \"{}\";", self.id));
        line
    }
}

/// Splits EPD operations on `;` outside double quotes.
fn split_operations(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Parses one line: a FEN (4 to 6 fields) or an EPD record (4 fields, or a whole 6-field FEN,
/// then operations). An EPD opcode begins with a letter, so two numbers after the fourth field
/// are the FEN's move counters.
///
/// # Errors
/// The problem, without file and line (the caller adds them).
pub fn parse_line(line: &str, fallback_id: &str) -> Result<SuitePosition, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "expected at least 4 FEN fields, found {}",
            fields.len()
        ));
    }
    let counters_given =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    // Two numbers where the counters go that are not counters (`0 -5`) are a bad FEN, not
    // EPD operations named `0`.
    if !counters_given
        && fields.len() >= 6
        && fields[4].parse::<i64>().is_ok()
        && fields[5].parse::<i64>().is_ok()
    {
        return Err(format!(
            "the halfmove and fullmove counters '{} {}' are not non-negative integers",
            fields[4], fields[5]
        ));
    }
    let (fen_fields, rest) = if counters_given {
        (fields[..6].join(" "), fields[6..].join(" "))
    } else {
        (fields[..4].join(" "), fields[4..].join(" "))
    };
    let mut operations = BTreeMap::new();
    for op in split_operations(rest.trim_start_matches(';')) {
        let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operand = operand.trim();
        // An opcode is a letter then letters, digits or underscores (EPD's standard, 14 at
        // most): anything else is a damaged line, never an operation written back as one.
        let opcode = code.len() <= 14
            && code.starts_with(|c: char| c.is_ascii_alphabetic())
            && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !opcode {
            return Err(format!("'{code}' is not an EPD opcode"));
        }
        // A quoted operand is one string: `id "x" c9 "1-0";` lacks a `;` and is refused,
        // never read as the id `x" c9 "1-0`.
        if operand.contains('"')
            && !(operand.len() >= 2
                && operand.starts_with('"')
                && operand.ends_with('"')
                && operand.matches('"').count() == 2)
        {
            return Err(format!(
                "operation '{code}': '{operand}' is not one quoted string (a ';' missing?)"
            ));
        }
        operations.insert(code.to_string(), operand.trim_matches('"').to_string());
    }
    let mut fen = fen_fields;
    if !counters_given {
        let hmvc = operations.remove("hmvc").unwrap_or_else(|| "0".into());
        let fmvn = operations.remove("fmvn").unwrap_or_else(|| "1".into());
        fen = format!("{fen} {hmvc} {fmvn}");
    }
    let pos = Position::from_fen(&fen).map_err(|e| e.to_string())?;
    let id = operations
        .remove("id")
        .unwrap_or_else(|| fallback_id.to_string());
    let mut entry = SuitePosition::new(id, &pos);
    let moves = |s: Option<String>| -> Vec<String> {
        s.map(|s| s.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    entry.best_moves = moves(operations.remove("bm"));
    entry.avoid_moves = moves(operations.remove("am"));
    // A move that is not legal here (`bm Zz9`) would be a key no search can ever match.
    for (code, listed) in [("bm", &entry.best_moves), ("am", &entry.avoid_moves)] {
        for san in listed {
            let legal = shakmaty::san::San::from_ascii(san.as_bytes())
                .ok()
                .and_then(|m| m.to_move(pos.chess()).ok());
            if legal.is_none() {
                return Err(format!("{code} {san}: not a legal move in this position"));
            }
        }
    }
    entry.operations = operations;
    Ok(entry)
}

/// A loaded suite and how many malformed lines were skipped.
#[derive(Clone, Debug)]
pub struct Suite {
    /// Where it came from (a path, or `built-in`).
    pub source: String,
    /// The positions, in file order.
    pub positions: Vec<SuitePosition>,
    /// Lines skipped as malformed (only with `skip_invalid`).
    pub skipped: usize,
}

impl Suite {
    /// Removes the positions with no legal move (checkmate or stalemate: nothing to search,
    /// no game to play from them) and returns their ids.
    pub fn drop_terminal(&mut self) -> Vec<String> {
        let mut dropped = Vec::new();
        self.positions.retain(|p| {
            let live = !p.position().chess().legal_moves().is_empty();
            if !live {
                dropped.push(p.id.clone());
            }
            live
        });
        dropped
    }
}

/// Parses suite text. Blank lines and lines starting with `#` are ignored.
///
/// # Errors
/// The first malformed line, unless `skip_invalid`.
pub fn parse(source: &str, text: &str, skip_invalid: bool) -> Result<Suite, SuiteError> {
    let mut positions = Vec::new();
    let mut skipped = 0;
    // The line of each id: rows are keyed by it, so a second position under one id would be
    // taken for the first on a resume and never searched.
    let mut lines_of_ids = std::collections::HashMap::new();
    // A byte-order mark (as some editors write) is not part of the first FEN.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let parsed = parse_line(trimmed, &format!("{source}:{line_no}")).and_then(|p| {
            match lines_of_ids.insert(p.id.clone(), line_no) {
                Some(first) => {
                    lines_of_ids.insert(p.id.clone(), first);
                    Err(format!(
                        "id \"{}\" is also the id of line {first}: ids must be unique",
                        p.id
                    ))
                }
                None => Ok(p),
            }
        });
        match parsed {
            Ok(p) => positions.push(p),
            Err(problem) if !skip_invalid => {
                return Err(SuiteError {
                    file: source.to_string(),
                    line: line_no,
                    problem,
                });
            }
            Err(_) => skipped += 1,
        }
    }
    if positions.is_empty() {
        return Err(SuiteError {
            file: source.to_string(),
            line: 0,
            problem: "no positions".to_string(),
        });
    }
    Ok(Suite {
        source: source.to_string(),
        positions,
        skipped,
    })
}

/// Loads an EPD or FEN file, or samples a PGN file (`.pgn`, default [`PgnSampling`]).
///
/// # Errors
/// A missing or unreadable file, or a malformed line (file and line named).
pub fn load(path: &Path, skip_invalid: bool) -> Result<Suite, SuiteError> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        return load_pgn(path, PgnSampling::default(), skip_invalid);
    }
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SuiteError {
        file: name.clone(),
        line: 0,
        problem: e.to_string(),
    })?;
    parse(&name, &text, skip_invalid)
}

/// The built-in default suite (`suites/data/default.epd`), generated by the engine's own
/// self-play: see the command on its first line.
///
/// # Panics
/// Never: the file is checked by a test.
#[must_use]
pub fn builtin() -> Suite {
    parse("built-in", include_str!("../data/default.epd"), false)
        .unwrap_or_else(|e| unreachable!("the built-in suite parses: {e}"))
}

/// The built-in openings: 3,123 positions after 8 random legal plies that the engine (the
/// default variant, 10,000 nodes) scored within ±60 cp, so that a match of up to 6,000 games
/// plays each opening pair once (the command that made them heads the file).
#[must_use]
pub fn openings() -> Suite {
    parse(
        "built-in openings",
        include_str!("../data/openings.epd"),
        false,
    )
    .unwrap_or_else(|e| unreachable!("the built-in openings parse: {e}"))
}

/// A single position given as a FEN (the `--fen` option).
///
/// # Errors
/// A malformed FEN.
pub fn from_fen(fen: &str) -> Result<Suite, SuiteError> {
    parse("--fen", fen, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_operations_are_kept() {
        let text = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nxc6 Qd2; id \"WAC.x\"; c0 \"a; b\";";
        let suite = parse("t.epd", text, false).unwrap();
        let p = &suite.positions[0];
        assert_eq!(p.id, "WAC.x");
        assert_eq!(p.best_moves, ["Nxc6", "Qd2"]);
        assert_eq!(p.operations["c0"], "a; b");
        assert_eq!(p.stage, Stage::Middlegame);
        assert!(p.fen.ends_with(" 0 1"));
    }

    #[test]
    fn an_operation_missing_its_semicolon_is_refused() {
        let text = "8/8/8/8/8/8/8/K1k5 w - - id \"x\" c9 \"1-0\";";
        let e = parse("t.epd", text, false).unwrap_err();
        assert!(e.to_string().contains("not one quoted string"), "{e}");
        assert!(
            parse(
                "t.epd",
                "8/8/8/8/8/8/8/K1k5 w - - id \"x\"; c9 \"1-0\";",
                false
            )
            .is_ok()
        );
    }

    #[test]
    fn an_id_given_twice_is_refused_naming_both_lines() {
        let line = "8/8/8/8/8/8/8/K1k5 w - - id \"x\";";
        let text = format!("{line}\n# a comment\n{line}\n");
        let e = parse("s.epd", &text, false).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.to_string()
                .starts_with("s.epd:3: id \"x\" is also the id of line 1"),
            "{e}"
        );
        let skipping = parse("s.epd", &text, true).unwrap();
        assert_eq!((skipping.positions.len(), skipping.skipped), (1, 1));
    }

    #[test]
    fn a_best_or_avoided_move_must_be_legal() {
        let fen = "8/8/4k3/8/8/4K3/4P3/8 b - -";
        assert!(parse_line(&format!("{fen} bm Kd5; am Ke5+;"), "x").is_ok());
        for bad in ["bm Zz9;", "am Ke2;", "bm e4;"] {
            let e = parse_line(&format!("{fen} {bad}"), "x").unwrap_err();
            assert!(e.contains("not a legal move"), "{bad}: {e}");
        }
    }

    #[test]
    fn counters_that_are_not_counters_are_named() {
        let e = parse_line("8/8/8/8/8/8/8/K1k5 w - - 0 -5", "x").unwrap_err();
        assert!(e.contains("counters '0 -5'"), "{e}");
        assert!(parse_line("8/8/8/8/8/8/8/K1k5 w - - 0 5", "x").is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let suite = parse(
            "s.epd",
            "\u{feff}8/8/8/8/8/8/8/K1k5 w - - id \"x\";\n",
            false,
        )
        .unwrap();
        assert_eq!(suite.positions[0].id, "x");
    }

    #[test]
    fn epd_lines_round_trip() {
        let text =
            "8/8/4k3/8/8/4K3/4P3/8 b - - hmvc 7; fmvn 41; bm Kd5; am Ke5; c0 \"a; b\"; id \"x.1\";";
        let p = &parse("t.epd", text, false).unwrap().positions[0];
        let again = parse_line(&p.to_epd(), "other").unwrap();
        assert_eq!(again.fen, "8/8/4k3/8/8/4K3/4P3/8 b - - 7 41");
        assert_eq!(
            (
                again.id.as_str(),
                again.best_moves.as_slice(),
                again.avoid_moves.as_slice()
            ),
            ("x.1", &["Kd5".to_string()][..], &["Ke5".to_string()][..])
        );
        assert_eq!(again.operations, p.operations);
    }

    #[test]
    fn fen_lines_and_hmvc_are_read() {
        let text = "8/8/8/8/8/8/8/K1k5 w - - 12 40\n# comment\n\n8/8/8/8/8/8/8/K1k5 b - - hmvc 7; fmvn 30;";
        let suite = parse("t.fen", text, false).unwrap();
        assert_eq!(suite.positions.len(), 2);
        assert!(suite.positions[0].fen.ends_with("12 40"));
        assert_eq!(suite.positions[0].id, "t.fen:1");
        assert!(suite.positions[1].fen.ends_with("7 30"));
        assert_eq!(suite.positions[1].stage, Stage::Endgame);
        let counted = parse_line("8/8/8/8/8/8/8/K1k5 w - - 5 9 id \"b.7\";", "x").unwrap();
        assert!(counted.fen.ends_with("5 9"), "{}", counted.fen);
        assert_eq!(counted.id, "b.7");
    }

    #[test]
    fn errors_name_file_and_line_and_can_be_skipped() {
        let text = "8/8/8/8/8/8/8/K1k5 w - - 0 1\nnot a position\n8/8/8/8/8/8/8/K1k5 b - - 0 1";
        let err = parse("bad.epd", text, false).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("bad.epd", 2));
        assert!(err.to_string().starts_with("bad.epd:2: "), "{err}");
        let suite = parse("bad.epd", text, true).unwrap();
        assert_eq!((suite.positions.len(), suite.skipped), (2, 1));
        let missing = load(Path::new("/nonexistent/x.epd"), false).unwrap_err();
        assert!(missing.to_string().starts_with("/nonexistent/x.epd: "));
    }

    #[test]
    fn built_in_suite_loads() {
        let suite = builtin();
        assert!(!suite.positions.is_empty());
        assert_eq!(suite.skipped, 0);
    }

    #[test]
    fn tags_describe_the_position() {
        let suite = parse("t", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let p = &suite.positions[0];
        assert!(p.captures_available);
        assert!(!p.in_check);
        assert_eq!(p.material_balance_cp, 100 - 950);
    }
}
