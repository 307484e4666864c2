//! `cutlab games pack|unpack`: a match's PGN in a third of its gzipped size, and back byte
//! for byte.
//!
//! A decisive study plays over a hundred thousand games; as gzipped PGN they would not fit
//! the repository (about 340 bytes a game). Packed, each game is a row of a gzipped CSV
//! (`tags,moves,result`, about 105 bytes a game): `tags` its tag lines as written, `moves`
//! one character a move, the character whose code is 48 plus the move's index among the legal
//! moves of its position sorted by their UCI text (`e1g1` for castling; `0` is the first,
//! `:` the eleventh), `result` the movetext's closing token. The index needs no engine to
//! decode: any chess library lists the legal moves (python-chess:
//! `sorted(board.legal_moves, key=lambda m: m.uci())[ord(c) - 48]`). One character a move,
//! with no separator, gzips to 84 bytes a game where the indices written as numbers took 98.
//!
//! Packing checks itself: the file is unpacked in memory and compared with its PGN, and a
//! PGN that would not come back byte for byte (comments, variations, another layout) is
//! refused rather than packed with a loss.

use std::{
    fmt::Write as _,
    io::{Read as _, Write as _},
    path::{Path, PathBuf},
};

use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use shakmaty::{
    CastlingMode, Chess, Color, Move, Position as _,
    fen::Fen,
    san::{San, SanPlus},
    uci::UciMove,
};

/// `cutlab games`: the subcommands.
#[derive(Subcommand)]
pub enum GamesCommand {
    /// Pack a PGN of plain games (tags and moves, as `cutlab match` writes them) into a
    /// gzipped CSV of a third its gzipped size; refused unless it unpacks to the same bytes.
    Pack(PackArgs),
    /// Write a packed file's games back as PGN, byte for byte as they were packed.
    Unpack(PackArgs),
}

/// Options of `cutlab games pack` and `unpack`.
#[derive(Args)]
pub struct PackArgs {
    /// The file to read (a PGN to pack; a packed `.csv.gz` to unpack).
    input: PathBuf,
    /// The file to write (refused if it exists, unless `--force`).
    output: PathBuf,
    /// Replace an existing output.
    #[arg(long)]
    force: bool,
}

/// One packed game.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Packed {
    /// The tag lines, as written, joined by newlines.
    tags: String,
    /// The moves: one character each, `char(48 + index among the sorted legal moves)`.
    moves: String,
    /// The movetext's closing token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    result: String,
}

/// The code of the character of the first legal move (`0`): the indices of the usual
/// 20 to 50 moves are digits, punctuation and letters, never the CSV's `,` or `"`.
const FIRST_MOVE: u32 = 48;

/// The character of the move at `index` among the sorted legal moves (at most 218 of them:
/// the code stays below 0xD800, every one a character).
fn move_char(index: usize) -> char {
    u32::try_from(index)
        .ok()
        .and_then(|i| char::from_u32(FIRST_MOVE + i))
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The legal moves of `pos` in the packing's order: by their UCI text.
fn sorted_moves(pos: &Chess) -> Vec<(String, Move)> {
    let mut moves: Vec<(String, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (UciMove::from_standard(m).to_string(), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves
}

/// The position a game starts from: its `FEN` tag, else the standard start.
fn start_position(tags: &str) -> Result<Chess, String> {
    let fen = tags.lines().find_map(|l| {
        l.strip_prefix("[FEN \"")
            .and_then(|rest| rest.strip_suffix("\"]"))
    });
    match fen {
        None => Ok(Chess::default()),
        Some(fen) => fen
            .parse::<Fen>()
            .map_err(|e| format!("FEN '{fen}': {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("FEN '{fen}': {e}")),
    }
}

/// The movetext of SAN moves `sans` from `start` closed by `result`, as `cutlab match`
/// writes it: `1. e4 e5 2. Nf3 ... 1-0` (`N...` before a first move by black).
#[must_use]
pub fn movetext(start: &Chess, sans: &[String], result: &str) -> String {
    let mut text = String::new();
    let mut number = start.fullmoves().get();
    let mut white_to_move = start.turn() == Color::White;
    for (i, san) in sans.iter().enumerate() {
        if white_to_move {
            let _ = write!(text, "{number}. ");
        } else if i == 0 {
            let _ = write!(text, "{number}... ");
        }
        let _ = write!(text, "{san} ");
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    text.push_str(result);
    text
}

/// The games of a PGN text, each as its tag lines and its movetext (the lines after the tags).
fn split_games(pgn: &str) -> Result<Vec<(String, String)>, String> {
    let mut games = Vec::new();
    let mut lines = pgn.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        if line.is_empty() {
            continue;
        }
        if !line.starts_with('[') {
            return Err(format!("line {}: expected a tag, found '{line}'", n + 1));
        }
        let mut tags = vec![line];
        while let Some((_, l)) = lines.next_if(|(_, l)| l.starts_with('[')) {
            tags.push(l);
        }
        let mut text = Vec::new();
        lines.next_if(|(_, l)| l.is_empty());
        while let Some((_, l)) = lines.next_if(|(_, l)| !l.is_empty()) {
            text.push(l);
        }
        games.push((tags.join("\n"), text.join("\n")));
    }
    Ok(games)
}

/// Packs one game: its moves as indices, checked to be legal from its start.
fn pack_game(tags: String, text: &str) -> Result<Packed, String> {
    let mut pos = start_position(&tags)?;
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    let result = tokens
        .pop()
        .filter(|t| ["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .ok_or("the movetext does not end with a result")?
        .to_string();
    let mut moves = String::new();
    for token in tokens {
        if token.ends_with('.') && token.trim_end_matches('.').parse::<u32>().is_ok() {
            continue;
        }
        let san: San = SanPlus::from_ascii(token.as_bytes())
            .map_err(|_| {
                format!("'{token}' is not a move (comments and variations are not packed)")
            })?
            .san;
        let m = san.to_move(&pos).map_err(|_| {
            format!(
                "'{token}' is not legal in {}",
                Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            )
        })?;
        let index = sorted_moves(&pos)
            .iter()
            .position(|(_, legal)| *legal == m)
            .ok_or_else(|| format!("'{token}': not among the legal moves"))?;
        moves.push(move_char(index));
        pos.play_unchecked(m);
    }
    Ok(Packed {
        tags,
        moves,
        result,
    })
}

/// A game of a packed file, decoded: the position it starts from, its moves (each legal
/// where it was played) and its result token.
pub struct GameMoves {
    /// The position before the first move.
    pub start: Chess,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl Packed {
    /// The game's start and moves, each decoded from its index among the legal moves.
    fn decode(&self) -> Result<GameMoves, String> {
        let start = start_position(&self.tags)?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for c in self.moves.chars() {
            let legal = sorted_moves(&pos);
            let m = (u32::from(c).checked_sub(FIRST_MOVE))
                .and_then(|i| legal.get(usize::try_from(i).ok()?))
                .map(|(_, m)| *m)
                .ok_or_else(|| {
                    format!(
                        "move '{c}' is not one of the {} legal moves ('0' to '{}')",
                        legal.len(),
                        move_char(legal.len().saturating_sub(1))
                    )
                })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok(GameMoves {
            start,
            moves,
            result: self.result.clone(),
        })
    }
}

/// The PGN text of one packed game.
fn unpack_game(game: &Packed) -> Result<String, String> {
    let decoded = game.decode()?;
    let mut pos = decoded.start.clone();
    let sans: Vec<String> = decoded
        .moves
        .iter()
        .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
        .collect();
    Ok(format!(
        "{}\n\n{}\n\n",
        game.tags,
        movetext(&decoded.start, &sans, &game.result)
    ))
}

/// The games of a packed file (`cutlab games pack`), decoded, in order.
///
/// # Errors
/// An unreadable or malformed file, or a move that is not legal where it was played (the
/// error names the file and the row).
pub fn read_games(path: &Path) -> Result<Vec<GameMoves>, String> {
    read_packed(path)?
        .iter()
        .enumerate()
        .map(|(i, g)| {
            g.decode()
                .map_err(|e| format!("{}: row {}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Packs a PGN text; refused unless the packed games unpack to the same text.
fn pack(pgn: &str) -> Result<Vec<Packed>, String> {
    let games = split_games(pgn)?
        .into_iter()
        .enumerate()
        .map(|(i, (tags, text))| pack_game(tags, &text).map_err(|e| format!("game {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let again: String = games.iter().map(unpack_game).collect::<Result<_, _>>()?;
    if again != pgn {
        let line = again
            .lines()
            .zip(pgn.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "the end".to_string(), |n| format!("line {}", n + 1));
        return Err(format!(
            "would not unpack to the same text (first at {line}): only plain games laid out as \
             `cutlab match` writes them are packed"
        ));
    }
    Ok(games)
}

/// Runs `cutlab games`.
///
/// # Errors
/// An unreadable input, a PGN that would not come back byte for byte, a malformed packed
/// file, or an output that exists without `--force`.
pub fn run(command: &GamesCommand) -> Result<(), String> {
    let (GamesCommand::Pack(args) | GamesCommand::Unpack(args)) = command;
    crate::common::results::new_output(&args.output, "OUTPUT", args.force, &[&args.input])?;
    let at = |e: String| format!("{}: {e}", args.input.display());
    match command {
        GamesCommand::Pack(_) => {
            let pgn = std::fs::read_to_string(&args.input).map_err(|e| at(e.to_string()))?;
            let games = pack(&pgn).map_err(at)?;
            write_packed(&args.output, &games)?;
            println!(
                "{} games packed into {}",
                games.len(),
                args.output.display()
            );
        }
        GamesCommand::Unpack(_) => {
            let games = read_packed(&args.input)?;
            let pgn: String = games
                .iter()
                .enumerate()
                .map(|(i, g)| unpack_game(g).map_err(|e| at(format!("row {}: {e}", i + 1))))
                .collect::<Result<_, _>>()?;
            std::fs::write(&args.output, pgn)
                .map_err(|e| format!("{}: {e}", args.output.display()))?;
            println!(
                "{} games unpacked into {}",
                games.len(),
                args.output.display()
            );
        }
    }
    Ok(())
}

/// Writes packed games as a gzipped CSV.
fn write_packed(path: &Path, games: &[Packed]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| err(&e))?;
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    let mut csv = csv::Writer::from_writer(gz);
    for g in games {
        csv.serialize(g).map_err(|e| err(&e))?;
    }
    let gz = csv.into_inner().map_err(|e| err(&e))?;
    gz.finish()
        .map_err(|e| err(&e))?
        .flush()
        .map_err(|e| err(&e))
}

/// Reads a packed file.
fn read_packed(path: &Path) -> Result<Vec<Packed>, String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| err(&e))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .map_err(|e| err(&format!("not a packed games file ({e})")))?;
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| err(&format!("row {}: {e}", i + 1))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games as `cutlab match` writes them: from a FEN with castling and en passant
    /// rights, black to move first, a promotion with check, and one from the start.
    const PGN: &str = "[Event \"cutlab match\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\
[FEN \"r3k2r/1P6/8/8/3pP3/8/8/R3K2R b KQkq e3 0 30\"]\n[SetUp \"1\"]\n\n\
30... dxe3 31. bxa8=Q+ Kd7 32. O-O-O+ Kc7 1/2-1/2\n\n\
[Event \"cutlab match\"]\n[Result \"0-1\"]\n\n\
1. f3 e5 2. g4 Qh4# 0-1\n\n";

    #[test]
    fn a_pgn_packs_and_unpacks_to_the_same_bytes() {
        let games = pack(PGN).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, "1/2-1/2");
        let again: String = games.iter().map(|g| unpack_game(g).unwrap()).collect();
        assert_eq!(again, PGN);
    }

    /// The index is the move's place among the legal moves sorted by UCI text: from the
    /// start a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 puts `f2f3` at
    /// 12 (`<`, code 60); after it a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 c7c5 c7c6 d7d5 d7d6 e7e5 puts
    /// `e7e5` at 10 (`:`, code 58).
    #[test]
    fn a_move_is_its_index_among_the_sorted_legal_moves() {
        let games = pack(PGN).unwrap();
        assert!(games[1].moves.starts_with("<:"), "{}", games[1].moves);
        assert_eq!(games[1].moves.chars().count(), 4);
    }

    #[test]
    fn what_would_not_come_back_is_refused() {
        let commented = PGN.replace("2. g4", "{ a blunder } 2. g4");
        assert!(pack(&commented).unwrap_err().contains("not a move"));
        let laid_out = PGN.replace("1. f3 e5", "1.f3 e5");
        assert!(pack(&laid_out).is_err());
        let illegal = PGN.replace("Qh4#", "Qh5#");
        assert!(pack(&illegal).unwrap_err().contains("not legal"));
        let bad = Packed {
            tags: "[Result \"*\"]".into(),
            moves: "D".into(),
            result: "*".into(),
        };
        let error = unpack_game(&bad).unwrap_err();
        assert!(
            error.contains("one of the 20 legal moves ('0' to 'C')"),
            "the start has 20 moves, '0' to 'C': {error}"
        );
    }
}
