//! Packed games: the PGNs of a folder of matches in one archive of about a fifth of their
//! gzipped size, and back byte for byte (`cutlab games pack|unpack`); the move text of a game
//! and the games of a packed file for the commands that read them (`match`, `datagen`), and a
//! study's games from its archives ([`read_archives`]).
//!
//! A decisive study plays over a hundred thousand games; as gzipped PGN they would not fit
//! the repository (about 340 bytes a game). Packed, each game is a row of an xz-compressed
//! CSV (`pgn,game,tags,ranks,result`): `pgn` the name of the PGN it came from (its path
//! below `--root`, else its file name), `game` its number there (from 1), `tags` its tag
//! lines as written, `ranks` one character a move, the character whose code is 48 plus the
//! move's rank among the legal moves of its position ordered by a fixed rule of thumb
//! ([`ranks`]; `0` is the first, `:` the eleventh), `result` the movetext's closing token. The
//! rule puts the move played first in a fifth of the positions, and the ranks of one match
//! compress to about 4.4 bits a move where the moves' indices in UCI order took 5.4. The
//! rank needs no engine to decode, only the legal moves and the rule.
//!
//! The rows are sorted by start position, then moves: games that began alike lie together
//! whatever match played them, and many games of two matches from the same opening are the
//! same moves (a method that rarely triggers changes few), which xz then stores as a repeat.
//! The 94,200 games of `results/ablate-modern`'s 64 matches take 6.9 MB so (3.8 bits a move
//! for the ranks, 73 bytes a game), where a file a match took 8.2 MB; an archive for each
//! effort's folder takes 1.3 to 1.4% more (`ladder-classical`'s games, `replay-ladder-nnue`'s:
//! games of two efforts share fewer moves), and spares a growing study's publication the
//! rewriting of the efforts it has finished.
//!
//! Packing checks itself: each PGN is unpacked in memory and compared with its text, and a
//! PGN that would not come back byte for byte (comments, variations, another layout) is
//! refused rather than packed with a loss.

mod ranks;

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    io::{Read as _, Write as _},
    path::Path,
};

use serde::{Deserialize, Serialize};
use shakmaty::{
    CastlingMode, Chess, Color, Move, Position as _,
    fen::Fen,
    san::{San, SanPlus},
};

use ranks::{FIRST_MOVE, move_char, ranked_moves};

/// One packed game.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packed {
    /// The name of the PGN the game came from (`/`-separated, inside the folder unpacked into).
    pub pgn: String,
    /// The game's number in that PGN, from 1.
    pub game: usize,
    /// The tag lines, as written, joined by newlines.
    pub tags: String,
    /// The moves: one character each, `char(48 + rank)`, the rank among the legal moves in
    /// [`ranked_moves`]'s order.
    pub ranks: String,
    /// The movetext's closing token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

/// The file in which a published study keeps its games packed (`scripts/publish-run`).
pub const ARCHIVE: &str = "games.moves.csv.xz";

/// A game's `FEN` tag, if it has one.
fn fen_tag(tags: &str) -> Option<&str> {
    tag(tags, "FEN")
}

/// The value of the tag `name` in a game's tag lines (`[Round "3"]`: `3`).
fn tag<'a>(tags: &'a str, name: &str) -> Option<&'a str> {
    tags.lines().find_map(|l| {
        l.strip_prefix('[')
            .and_then(|rest| rest.strip_prefix(name))
            .and_then(|rest| rest.strip_prefix(" \""))
            .and_then(|rest| rest.strip_suffix("\"]"))
    })
}

/// How many of a match's game pairs repeat, both games the same moves from the same start
/// (the two engines played alike with either colour: the compared method did not act), and
/// how many pairs have both games. A pair is the games of one `Round` tag, as `cutlab match`
/// writes them; `games` gives each game's tag lines and its moves (movetext, or packed ranks).
pub fn repeated_pairs<'a>(games: impl IntoIterator<Item = (&'a str, &'a str)>) -> (usize, usize) {
    let mut rounds: BTreeMap<&str, Vec<(Option<&str>, &str)>> = BTreeMap::new();
    for (tags, moves) in games {
        if let Some(round) = tag(tags, "Round") {
            rounds
                .entry(round)
                .or_default()
                .push((fen_tag(tags), moves));
        }
    }
    rounds
        .values()
        .filter(|games| games.len() == 2)
        .fold((0, 0), |(repeated, pairs), games| {
            (repeated + usize::from(games[0] == games[1]), pairs + 1)
        })
}

/// The position a game starts from: its `FEN` tag, else the standard start.
fn start_position(tags: &str) -> Result<Chess, String> {
    match fen_tag(tags) {
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
pub fn split_games(pgn: &str) -> Result<Vec<(String, String)>, String> {
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

/// Packs game number `game` of PGN `pgn`: its moves as ranks, checked to be legal from its
/// start.
fn pack_game(pgn: &str, game: usize, tags: String, text: &str) -> Result<Packed, String> {
    let mut pos = start_position(&tags)?;
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    let result = tokens
        .pop()
        .filter(|t| ["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .ok_or("the movetext does not end with a result")?
        .to_string();
    let (mut ranks, mut last_to) = (String::new(), None);
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
        let rank = ranked_moves(&pos, last_to)
            .iter()
            .position(|legal| *legal == m)
            .ok_or_else(|| format!("'{token}': not among the legal moves"))?;
        ranks.push(move_char(rank));
        last_to = Some(m.to());
        pos.play_unchecked(m);
    }
    Ok(Packed {
        pgn: pgn.to_string(),
        game,
        tags,
        ranks,
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
    /// The game's start and moves, each decoded from its rank among the legal moves.
    fn decode(&self) -> Result<GameMoves, String> {
        let start = start_position(&self.tags)?;
        let mut pos = start.clone();
        let mut moves: Vec<Move> = Vec::with_capacity(self.ranks.len());
        for c in self.ranks.chars() {
            let legal = ranked_moves(&pos, moves.last().map(|m| m.to()));
            let m = (u32::from(c).checked_sub(FIRST_MOVE))
                .and_then(|i| legal.get(usize::try_from(i).ok()?))
                .copied()
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
        check_result(&pos, &self.result)?;
        Ok(GameMoves {
            start,
            moves,
            result: self.result.clone(),
        })
    }
}

/// Refuses a result that the game's last position contradicts: a mate is the mated side's
/// loss, a stalemate a draw (a result column edited by hand once unpacked to both, and
/// `datagen --from-games` labelled a Black mate as White's win). Other endings (adjudication,
/// time, resignation) are not in the position and are taken as given.
fn check_result(last: &Chess, result: &str) -> Result<(), String> {
    let expected = if last.is_checkmate() {
        if last.turn() == shakmaty::Color::White {
            "0-1"
        } else {
            "1-0"
        }
    } else if last.is_stalemate() {
        "1/2-1/2"
    } else {
        return Ok(());
    };
    if result == expected || result == "*" {
        Ok(())
    } else {
        Err(format!(
            "result {result}, where its last position is {} ({expected})",
            if last.is_checkmate() {
                "a mate"
            } else {
                "a stalemate"
            }
        ))
    }
}

/// The PGN text of one packed game.
pub fn unpack_game(game: &Packed) -> Result<String, String> {
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

/// The packed games of each PGN, by name, each PGN's in its order.
///
/// # Errors
/// A PGN whose games are not numbered 1, 2, 3 and so on.
pub fn by_pgn(games: &[Packed]) -> Result<BTreeMap<&str, Vec<&Packed>>, String> {
    let mut pgns: BTreeMap<&str, Vec<&Packed>> = BTreeMap::new();
    for game in games {
        pgns.entry(&game.pgn).or_default().push(game);
    }
    for (name, games) in &mut pgns {
        games.sort_by_key(|g| g.game);
        if let Some(missing) = (1..).zip(games.iter()).find(|(n, g)| g.game != *n) {
            return Err(format!(
                "{name}: its games are not numbered 1 to {} (game {} is missing or twice)",
                games.len(),
                missing.0
            ));
        }
    }
    Ok(pgns)
}

/// The games of a packed file (`cutlab games pack`), decoded: its PGNs by name, each PGN's
/// games in order.
///
/// # Errors
/// An unreadable or malformed file, or a move that is not legal where it was played (the
/// error names the file, the PGN and the game).
pub fn read_games(path: &Path) -> Result<Vec<GameMoves>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let games = read_packed(path)?;
    by_pgn(&games)
        .map_err(at)?
        .into_values()
        .flatten()
        .map(|g| {
            g.decode()
                .map_err(|e| at(format!("{}: game {}: {e}", g.pgn, g.game)))
        })
        .collect()
}

/// Packs the PGN text `pgn` under the name `name`, calling `on_game` after each game;
/// refused unless its packed games unpack to the same text.
pub fn pack(name: &str, pgn: &str, on_game: &dyn Fn()) -> Result<Vec<Packed>, String> {
    let games = split_games(pgn)?
        .into_iter()
        .enumerate()
        .map(|(i, (tags, text))| {
            let game = pack_game(name, i + 1, tags, &text);
            on_game();
            game.map_err(|e| format!("game {}: {e}", i + 1))
        })
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

/// Puts games in the archive's order: by start position, then moves (games that began alike
/// together), then PGN and number.
pub fn sort_games(games: &mut [Packed]) {
    games.sort_by(|a, b| {
        (fen_tag(&a.tags), &a.ranks, &a.pgn, a.game).cmp(&(
            fen_tag(&b.tags),
            &b.ranks,
            &b.pgn,
            b.game,
        ))
    });
}

/// Writes packed games as an xz-compressed CSV.
pub fn write_packed(path: &Path, games: &[Packed]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| err(&e))?;
    let xz = liblzma::write::XzEncoder::new(file, XZ_PRESET);
    let mut csv = csv::Writer::from_writer(xz);
    for g in games {
        csv.serialize(g).map_err(|e| err(&e))?;
    }
    let xz = csv.into_inner().map_err(|e| err(&e))?;
    xz.finish()
        .map_err(|e| err(&e))?
        .flush()
        .map_err(|e| err(&e))
}

/// xz's preset 6 (`xz -6`, its default): an 8 MiB dictionary. The sorted rows put the
/// repeats close together, so a larger one gains nothing (`xz -9` on `ablate-modern`'s games:
/// 6.93 MB against 6.90).
const XZ_PRESET: u32 = 6;

/// The packed games of the folder `dir` and those below it: every [`ARCHIVE`] there, each
/// game's `pgn` spelt from `dir` (`matches/5000/a.pgn` for the `a.pgn` of
/// `matches/5000/games.moves.csv.xz`). `scripts/publish-run` packs the PGNs of each folder
/// beside them, so that publishing a growing study rewrites only the archive of the folder
/// whose games changed; a study published before holds one archive at its top.
///
/// # Errors
/// An unreadable folder or archive.
pub fn read_archives(dir: &Path) -> Result<Vec<Packed>, String> {
    let mut games = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        let archive = folder.join(ARCHIVE);
        if archive.is_file() {
            games.extend(read_packed(&archive)?.into_iter().map(|mut g| {
                g.pgn.insert_str(0, &prefix);
                g
            }));
        }
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", folder.display()))?;
            if entry.file_type().is_ok_and(|t| t.is_dir())
                && let Some(name) = entry.file_name().to_str()
            {
                folders.push((entry.path(), format!("{prefix}{name}/")));
            }
        }
    }
    Ok(games)
}

/// Reads a packed file.
pub fn read_packed(path: &Path) -> Result<Vec<Packed>, String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| err(&e))?;
    let mut text = String::new();
    liblzma::read::XzDecoder::new(file)
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
        let games = pack("a.pgn", PGN, &|| {}).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].game, games[0].result.as_str()), (1, "1/2-1/2"));
        let again: String = games.iter().map(|g| unpack_game(g).unwrap()).collect();
        assert_eq!(again, PGN);
    }

    /// A pair repeats when both its games are the same moves from the same start; pairs are
    /// told by their `Round` tag, and a lone game (a pair cut by a kill) is no pair.
    #[test]
    fn a_pair_repeats_when_its_two_games_are_the_same_moves() {
        let game = |round: u32, fen: &str, moves: &'static str| {
            (format!("[Round \"{round}\"]\n[FEN \"{fen}\"]"), moves)
        };
        let games = [
            game(1, "x", "1. e4 e5 1-0"),
            game(2, "y", "1. d4 d5 0-1"),
            game(1, "x", "1. e4 e5 1-0"),
            game(2, "y", "1. d4 Nf6 0-1"),
            game(3, "z", "1. c4 c5 1-0"),
            game(4, "w", "1. c4 c5 1-0"),
            game(4, "v", "1. c4 c5 1-0"),
        ];
        let counted = repeated_pairs(games.iter().map(|(t, m)| (t.as_str(), *m)));
        assert_eq!(counted, (1, 3));
    }

    /// Two PGNs' games sorted together by start and moves (the game from the start, having
    /// no FEN tag, first) come back apart, each PGN's in its order; a gap is refused.
    #[test]
    fn the_games_of_several_pgns_sort_together_and_come_back_apart() {
        let mut games = pack("m/a.pgn", PGN, &|| {}).unwrap();
        games.extend(pack("m/b.pgn", PGN, &|| {}).unwrap());
        sort_games(&mut games);
        let order: Vec<(&str, usize)> = games.iter().map(|g| (g.pgn.as_str(), g.game)).collect();
        assert_eq!(
            order,
            [
                ("m/a.pgn", 2),
                ("m/b.pgn", 2),
                ("m/a.pgn", 1),
                ("m/b.pgn", 1)
            ]
        );
        let pgns = by_pgn(&games).unwrap();
        assert_eq!(
            pgns.keys().copied().collect::<Vec<_>>(),
            ["m/a.pgn", "m/b.pgn"]
        );
        for games in pgns.values() {
            let text: String = games.iter().map(|g| unpack_game(g).unwrap()).collect();
            assert_eq!(text, PGN);
        }
        games.retain(|g| (g.pgn.as_str(), g.game) != ("m/b.pgn", 1));
        let error = by_pgn(&games).unwrap_err();
        assert!(
            error.contains("m/b.pgn") && error.contains("game 1 is missing"),
            "{error}"
        );
    }

    /// Archives at a folder's top and in a folder below it read as one study's games, each
    /// PGN spelt from the top.
    #[test]
    fn the_archives_of_a_folder_and_below_read_together() {
        let dir = crate::common::scratch_dir("archives");
        std::fs::create_dir_all(dir.join("matches/5000")).unwrap();
        write_packed(&dir.join(ARCHIVE), &pack("a.pgn", PGN, &|| {}).unwrap()).unwrap();
        let below = pack("b.pgn", PGN, &|| {}).unwrap();
        write_packed(&dir.join("matches/5000").join(ARCHIVE), &below).unwrap();
        let games = read_archives(&dir).unwrap();
        let mut names: Vec<(&str, usize)> =
            games.iter().map(|g| (g.pgn.as_str(), g.game)).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                ("a.pgn", 1),
                ("a.pgn", 2),
                ("matches/5000/b.pgn", 1),
                ("matches/5000/b.pgn", 2)
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// From the start no move captures or checks: the knights' moves towards the centre come
    /// first, b1c3 and g1f3 (+4 x 6 each: from -12 to -6), then b1a3 and g1h3 (+4 x 2), then
    /// the pawn moves by UCI text (a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3):
    /// f2f3 is 4 + 10 = 14 (`>`, code 62). After 1. f3 e5 2. g4, Qh4# is black's one check
    /// and nothing captures: it is 0.
    #[test]
    fn a_move_is_its_rank_by_the_rule_of_thumb() {
        let games = pack("a.pgn", PGN, &|| {}).unwrap();
        assert!(games[1].ranks.starts_with('>'), "{}", games[1].ranks);
        assert!(games[1].ranks.ends_with('0'), "{}", games[1].ranks);
        assert_eq!(games[1].ranks.chars().count(), 4);
    }

    #[test]
    fn what_would_not_come_back_is_refused() {
        let commented = PGN.replace("2. g4", "{ a blunder } 2. g4");
        assert!(
            pack("a.pgn", &commented, &|| {})
                .unwrap_err()
                .contains("not a move")
        );
        let laid_out = PGN.replace("1. f3 e5", "1.f3 e5");
        assert!(pack("a.pgn", &laid_out, &|| {}).is_err());
        // A result that its last position contradicts: White "wins" the fool's mate.
        let contradicted = PGN.replace("Qh4# 0-1", "Qh4# 1-0");
        assert_ne!(contradicted, PGN);
        let e = pack("a.pgn", &contradicted, &|| {}).unwrap_err();
        assert!(
            e.contains("result 1-0, where its last position is a mate (0-1)"),
            "{e}"
        );
        let illegal = PGN.replace("Qh4#", "Qh5#");
        assert!(
            pack("a.pgn", &illegal, &|| {})
                .unwrap_err()
                .contains("not legal")
        );
        let bad = Packed {
            pgn: "a.pgn".into(),
            game: 1,
            tags: "[Result \"*\"]".into(),
            ranks: "D".into(),
            result: "*".into(),
        };
        let error = unpack_game(&bad).unwrap_err();
        assert!(
            error.contains("one of the 20 legal moves ('0' to 'C')"),
            "the start has 20 moves, '0' to 'C': {error}"
        );
    }
}
