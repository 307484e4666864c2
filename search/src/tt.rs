//! Transposition table: one-cache-line buckets of five entries, replacement preferring depth
//! with aging.
//!
//! Each entry keeps the upper 32 bits of the Zobrist key as its check (the lower bits pick the
//! bucket), the best move, the score (mate distances relative to the entry's node), the static
//! evaluation, the draft and the bound type, and the search generation that wrote it.

use cutlab_instrument::Bound;
use shakmaty::{Move, Position as _, Role, Square};

use crate::{position::Position, score};

/// A compact move: from (6 bits), to (6 bits), promotion role (3 bits). Castling is stored as
/// king to rook, as shakmaty represents it. 0 means no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedMove(u16);

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove(0);

    /// Packs a move.
    #[must_use]
    pub fn new(m: Move) -> PackedMove {
        let (from, to) = match m {
            Move::Castle { king, rook } => (king, rook),
            _ => (m.from().unwrap_or(Square::A1), m.to()),
        };
        let promotion = m.promotion().map_or(0, |r| r as u16);
        PackedMove(from as u16 | (to as u16) << 6 | promotion << 12)
    }

    /// Whether this is the packed form of `m`.
    #[must_use]
    pub fn is(self, m: Move) -> bool {
        self.0 != 0 && PackedMove::new(m) == self
    }

    /// Whether there is no move.
    #[must_use]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The legal move in `pos` this packs, if there is one.
    #[must_use]
    pub fn unpack(self, pos: &Position) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from((self.0 >> 6) & 63));
        let promotion = Role::try_from(u32::from(self.0 >> 12)).ok();
        let chess = pos.chess();
        let board = chess.board();
        let role = board.role_at(from)?;
        if board.color_at(from) != Some(chess.turn()) {
            return None;
        }
        let m = if role == Role::King && board.by_color(chess.turn()).contains(to) {
            Move::Castle {
                king: from,
                rook: to,
            }
        } else if role == Role::Pawn && from.file() != to.file() && board.role_at(to).is_none() {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            }
        };
        chess.is_legal(m).then_some(m)
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best (or refutation) move stored, possibly none.
    pub mv: PackedMove,
    /// Score, mate distances already made relative to the probing ply.
    pub score: i32,
    /// Static evaluation stored with the entry.
    pub eval: i32,
    /// Draft (remaining depth) of the search that stored it.
    pub depth: i32,
    /// What `score` bounds.
    pub bound: Bound,
}

impl TtHit {
    /// Whether the stored value decides a search of the window (`alpha`, `beta`) by itself: an
    /// exact value, a lower bound at or above beta, or an upper bound at or below alpha (the
    /// draft is the caller's to check).
    #[must_use]
    pub const fn decides(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// What a fail-soft value found in the window (`alpha`, `beta`) bounds: at or above beta a
/// lower bound, at or below alpha an upper bound, exact between.
#[must_use]
pub const fn bound_of(value: i32, alpha: i32, beta: i32) -> Bound {
    if value >= beta {
        Bound::Lower
    } else if value > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    mv: PackedMove,
    score: i16,
    eval: i16,
    depth: i8,
    /// Generation in the upper 6 bits, bound in the lower 2 (0 = empty).
    gen_bound: u8,
}

impl Entry {
    fn bound(self) -> Option<Bound> {
        match self.gen_bound & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }

    fn generation(self) -> u8 {
        self.gen_bound >> 2
    }
}

/// Entries per bucket: five 12-byte entries fill one 64-byte cache line, so a probe costs one
/// memory access (four entries made 48-byte buckets, half of them split over two lines).
const BUCKET: usize = 5;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// `count` empty buckets in memory that Linux is asked to back with 2 MiB pages before it is
/// first written (Stockfish's `aligned_large_pages_alloc` does the same with `madvise`): with
/// 4 KiB pages nearly every probe of a table of many MiB misses the TLB as well as the cache.
fn allocate(count: usize) -> Result<Vec<Bucket>, std::collections::TryReserveError> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(count)?;
    advise_huge_pages(&mut buckets);
    buckets.resize(count, Bucket::default());
    Ok(buckets)
}

/// Marks the spare capacity of `buckets` (nothing written yet) for transparent huge pages. A
/// hint only: where the kernel declines, the table works as before.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &mut Vec<Bucket>) {
    const PAGE: usize = 4096;
    let spare = buckets.spare_capacity_mut();
    let start = spare.as_mut_ptr() as usize;
    // madvise takes whole pages: the pages that lie entirely inside the allocation.
    let first_page = start.next_multiple_of(PAGE);
    let end = (start + std::mem::size_of_val(spare)) / PAGE * PAGE;
    if first_page < end {
        // SAFETY: the range lies inside the vector's own allocation; MADV_HUGEPAGE changes how
        // the kernel backs the pages, never their contents.
        #[expect(unsafe_code, reason = "madvise is a system call")]
        unsafe {
            libc::madvise(
                first_page as *mut libc::c_void,
                end - first_page,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &mut Vec<Bucket>) {}

/// The transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mib` MiB, or why the machine cannot give it (the caller keeps what it had).
    ///
    /// # Errors
    /// The allocation is refused.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let count = (mib.saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = allocate(count)
            .map_err(|e| format!("a {mib} MiB transposition table cannot be allocated: {e}"))?;
        Ok(TranspositionTable {
            buckets,
            generation: 0,
        })
    }

    /// Size in mebibytes (as set).
    #[must_use]
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the low 32 bits uniformly onto the bucket range.
        let low = key & 0xFFFF_FFFF;
        usize::try_from((low * self.buckets.len() as u64) >> 32).unwrap_or(0)
    }

    /// Asks the CPU to start loading `key`'s bucket, so that the probe a few steps later finds it
    /// in cache (Stockfish's `prefetch` after `do_move`). A hint only: it changes no result.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &raw const self.buckets[self.index(key)];
            // SAFETY: a prefetch reads nothing and cannot fault; SSE is part of x86_64.
            #[expect(unsafe_code, reason = "the prefetch intrinsic is unsafe to call")]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; scores come back relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: u32) -> Option<TtHit> {
        let check = (key >> 32) as u32;
        let bucket = &self.buckets[self.index(key)];
        bucket.0.iter().find_map(|e| {
            let bound = e.bound()?;
            (e.check == check).then(|| TtHit {
                mv: e.mv,
                score: score::from_tt(i32::from(e.score), ply),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth),
                bound,
            })
        })
    }

    /// Stores a result. Replaces the same position's entry, else an empty one, else the entry
    /// with the least depth adjusted for age (8 plies per generation of age).
    #[expect(clippy::too_many_arguments, reason = "one argument per stored field")]
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        mv: PackedMove,
        value: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let index = self.index(key);
        let bucket = &mut self.buckets[index].0;
        let slot = bucket
            .iter()
            .position(|e| e.check == check && e.bound().is_some())
            .or_else(|| bucket.iter().position(|e| e.bound().is_none()))
            .unwrap_or_else(|| {
                let worth = |e: &Entry| {
                    let age = i32::from(generation.wrapping_sub(e.generation()) & 63);
                    i32::from(e.depth) - 8 * age
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            });
        let old = bucket[slot];
        // Keep a deeper exact-bound entry of this position from the current search.
        if old.check == check
            && old.bound().is_some()
            && old.generation() == generation
            && bound != Bound::Exact
            && i32::from(old.depth) > depth + 2
        {
            return;
        }
        let mv = if mv.is_none() && old.check == check {
            old.mv
        } else {
            mv
        };
        let code = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket[slot] = Entry {
            check,
            mv,
            score: clamp_i16(score::to_tt(value, ply)),
            eval: clamp_i16(eval),
            depth: i8::try_from(depth.clamp(-1, 127)).unwrap_or(0),
            gen_bound: generation << 2 | code,
        };
    }

    /// Permille of the entries of the first 250 buckets (1,250 entries) written in this search
    /// (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|e| e.bound().is_some() && e.generation() == self.generation)
                    .count()
            })
            .sum();
        u32::try_from(used * 1000 / (sample * BUCKET).max(1)).unwrap_or(1000)
    }
}

fn clamp_i16(v: i32) -> i16 {
    i16::try_from(v.clamp(i32::from(i16::MIN), i32::from(i16::MAX))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_returns_the_entry() {
        let mut tt = TranspositionTable::new(1);
        let pos = Position::startpos();
        let m = pos.parse_uci("e2e4").unwrap();
        tt.store(pos.key(), 3, PackedMove::new(m), 42, 17, 6, Bound::Lower);
        let hit = tt.probe(pos.key(), 3).unwrap();
        assert_eq!(hit.score, 42);
        assert_eq!(hit.eval, 17);
        assert_eq!(hit.depth, 6);
        assert_eq!(hit.bound, Bound::Lower);
        assert_eq!(hit.mv.unpack(&pos), Some(m));
        assert!(tt.probe(pos.key() ^ (1 << 40), 3).is_none());
    }

    #[test]
    fn packed_moves_round_trip_for_every_kind() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for m in pos.chess().legal_moves() {
                assert_eq!(PackedMove::new(m).unpack(&pos), Some(m), "{fen} {m:?}");
            }
        }
    }

    #[test]
    fn unpack_rejects_moves_illegal_here() {
        let pos = Position::startpos();
        let other = Position::from_fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let m = other.parse_uci("d2d7").unwrap();
        assert_eq!(PackedMove::new(m).unpack(&pos), None);
    }
}
