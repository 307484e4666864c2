//! Training positions: `cutlab datagen`'s records read into memory, their features and
//! targets, and the games held apart for validation.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use bulletformat::ChessBoard;

use crate::common::content_hash::{self, ContentHash};
use crate::common::dataformat::{self, Features, RECORD_BYTES, invalid_record, read_record};

/// The positions of one set (training or validation).
#[derive(Default)]
pub struct Positions {
    /// Features of each position.
    pub features: Vec<Features>,
    /// Score from the side to move's view, centipawns.
    pub score_cp: Vec<i16>,
    /// Game result from the side to move's view: 0, 0.5 or 1.
    pub result: Vec<f32>,
}

impl Positions {
    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// The training target of position `i` ([`dataformat::target`]).
    #[must_use]
    pub fn target(&self, i: usize, wdl: f32) -> f32 {
        dataformat::target(self.score_cp[i], self.result[i], wdl)
    }

    fn push(&mut self, record: &ChessBoard) {
        self.features.push(dataformat::features(record));
        self.score_cp.push(record.score);
        self.result.push(f32::from(record.result) / 2.0);
    }
}

/// The data file of `input`: a datagen directory's `data.bin`, or the file itself.
#[must_use]
pub fn data_file(input: &Path) -> PathBuf {
    if input.is_dir() {
        input.join("data.bin")
    } else {
        input.to_path_buf()
    }
}

/// A game's records in `data.bin`: (game, first byte, end byte).
type GameRange = (u32, u64, u64);

/// The byte ranges of each game in a datagen directory's `games.csv`, or `None` without one.
fn game_ranges(dir: &Path) -> Result<Option<Vec<GameRange>>, String> {
    let path = dir.join("games.csv");
    if !path.exists() {
        return Ok(None);
    }
    #[derive(serde::Deserialize)]
    struct Row {
        game: u32,
        positions: u64,
        end_byte: u64,
    }
    let rows: Vec<Row> = cutlab_analysis::rows::read(&path)?;
    Ok(Some(
        rows.into_iter()
            .map(|r| (r.game, r.end_byte - 32 * r.positions, r.end_byte))
            .collect(),
    ))
}

/// Whether game `game` of `input` is held apart (seeded, a `share` of the games).
fn held_apart(seed: u64, input: usize, game: u64, share: f64) -> bool {
    let h = cutlab_instrument::csv_sink::splitmix64(
        seed ^ (input as u64).wrapping_mul(0xA076_1D64_78BD_642F) ^ game,
    );
    #[expect(clippy::cast_precision_loss, reason = "a random fraction")]
    let unit = (h >> 11) as f64 / (1u64 << 53) as f64;
    unit < share
}

/// The positions of a training run's data, split, and what they are by content.
pub struct Data {
    /// The positions trained on.
    pub train: Positions,
    /// The positions of the games held apart for the validation loss.
    pub validation: Positions,
    /// The data files' bytes, in order, hashed (FNV-1a, 16 hex digits): a resume on data
    /// that changed under the same names is refused by it.
    pub content: String,
}

/// Reads every input into a training and a validation set: whole games are held apart (by
/// `games.csv`), or, for a bare file, whole blocks of 256 records.
///
/// # Errors
/// A file that cannot be read, or is not a whole number of valid records.
pub fn load(inputs: &[PathBuf], share: f64, seed: u64) -> Result<Data, String> {
    let (mut train, mut validation) = (Positions::default(), Positions::default());
    let mut content = ContentHash::default();
    for (k, input) in inputs.iter().enumerate() {
        let path = data_file(input);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        content.write(&bytes);
        if bytes.len() % 32 != 0 {
            return Err(format!(
                "{}: {} bytes, not a whole number of 32-byte records",
                path.display(),
                bytes.len()
            ));
        }
        let ranges = match input
            .is_dir()
            .then(|| game_ranges(input))
            .transpose()?
            .flatten()
        {
            Some(r) => r,
            None => (0..bytes.len() as u64)
                .step_by(32 * 256)
                .map(|start| {
                    let block = u32::try_from(start / (32 * 256)).unwrap_or(u32::MAX);
                    (block, start, (start + 32 * 256).min(bytes.len() as u64))
                })
                .collect(),
        };
        if let Some((at, problem)) = (0..bytes.len())
            .step_by(32)
            .find_map(|at| invalid_record(&bytes[at..at + 32]).map(|p| (at, p)))
        {
            return Err(format!(
                "{}: record {} (byte {at}): {problem}; not a file of `cutlab datagen`",
                path.display(),
                at / 32 + 1
            ));
        }
        for (game, start, end) in ranges {
            let set = if held_apart(seed, k, u64::from(game), share) {
                &mut validation
            } else {
                &mut train
            };
            let (start, end) = (
                usize::try_from(start).unwrap_or(0),
                usize::try_from(end).unwrap_or(0).min(bytes.len()),
            );
            for at in (start..end).step_by(32) {
                set.push(&read_record(&bytes[at..at + RECORD_BYTES]));
            }
        }
    }
    Ok(Data {
        train,
        validation,
        content: content_hash::hex(&content),
    })
}

#[cfg(test)]
mod tests {
    use cutlab_search::Position;
    use shakmaty::Position as _;

    use super::*;

    /// A record `datagen` writes is valid; a damaged one is named (too many pieces, an
    /// impossible piece code, result or king square), and a file of random bytes is refused
    /// with its record, never a panic.
    #[test]
    fn damaged_records_are_named() {
        let pos = Position::startpos();
        let record = dataformat::record(pos.chess().board(), pos.turn(), 12, 0.5).unwrap();
        let good = <ChessBoard as bulletformat::BulletFormat>::as_bytes_slice(&[record]).to_vec();
        assert_eq!(invalid_record(&good), None);
        let damaged = |at: usize, value: u8| {
            let mut b = good.clone();
            b[at] = value;
            invalid_record(&b).unwrap()
        };
        assert!(damaged(26, 7).contains("result 7"));
        assert!(damaged(27, 64).contains("king squares 64"));
        assert!(damaged(8, 0x66).contains("piece code 6"));
        let mut crowded = good.clone();
        crowded[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(
            invalid_record(&crowded)
                .unwrap()
                .contains("64 occupied squares")
        );
        let dir = crate::common::scratch_dir("bad-data");
        let path = dir.join("random.bin");
        let mut state = 7_u64;
        let bytes: Vec<u8> = (0..32 * 64)
            .map(|_| {
                state = cutlab_instrument::csv_sink::splitmix64(state);
                state.to_le_bytes()[0]
            })
            .collect();
        std::fs::write(&path, bytes).unwrap();
        let Err(e) = load(&[path], 0.1, 1) else {
            panic!("random bytes loaded")
        };
        assert!(e.contains("random.bin: record 1 (byte 0)"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
