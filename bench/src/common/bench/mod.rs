//! The bench: the node count over the built-in positions at a fixed depth (the bench
//! signature, and each result's search signature) and the speed that time limits follow.

mod positions;
mod remembered;

use std::time::Instant;

use cutlab_instrument::{NoopObserver, Observer};
use cutlab_search::{DEFAULT_VARIANT, Limits, Position, Search, SearchConfig};

use positions::BENCH;

/// Depth of the bench signature.
pub const BENCH_DEPTH: i32 = 9;

/// Depth of [`signature`]: deep enough that every method of `modern` is tried in its tree.
pub const SIGNATURE_DEPTH: i32 = 6;

/// Positions of [`signature`]: every fourth bench position (middlegames to endgames), so that
/// it costs well under a second (0.2 s for `null-move+lmr`, 0.7 s for `plain`).
pub const SIGNATURE_EVERY: u16 = 4;

/// Which searches a bench makes: every `every`-th bench position from the first, to `depth`,
/// with a table of `hash_mb` MiB cleared before each.
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// Depth of every search.
    pub depth: i32,
    /// Search every N-th position.
    pub every: u16,
    /// Transposition table size, MiB.
    pub hash_mb: usize,
}

/// What a bench measured: its observer, the total node count and the speed.
pub struct Measured<O> {
    /// The observer, with what it saw.
    pub observer: O,
    /// Nodes over every position.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

impl Bench {
    /// A quiet bench of `config` with a 16 MiB table.
    fn quiet(depth: i32, every: u16) -> Bench {
        Bench {
            depth,
            every,
            hash_mb: 16,
        }
    }

    /// Searches the bench's positions, printing each node count and the total when `print`.
    ///
    /// # Errors
    /// A bench position that does not parse (a bug).
    pub fn run<O: Observer>(
        self,
        config: SearchConfig,
        observer: O,
        print: bool,
    ) -> Result<Measured<O>, String> {
        let mut search = Search::with_observer(config, self.hash_mb, observer)?;
        let start = Instant::now();
        let mut total = 0;
        for (fen, _source) in BENCH.iter().step_by(usize::from(self.every)) {
            let pos = Position::from_fen(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
            search.clear();
            let result = search.go(&pos, &[], &Limits::depth(self.depth), &mut |_| {});
            total += result.nodes;
            if print {
                println!("{fen} | {}", result.nodes);
            }
        }
        let ms = u64::try_from(start.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let nps = total * 1000 / ms;
        if print {
            println!("{total} nodes {nps} nps");
        }
        Ok(Measured {
            observer: search.observer,
            nodes: total,
            nps,
        })
    }
}

/// The default variant's speed over the bench positions at `depth`, nodes per second (what
/// the studies scale their time limits by).
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn speed(depth: i32) -> Result<u64, String> {
    let config = crate::common::options::ModelOptions::default().config(DEFAULT_VARIANT)?;
    Ok(Bench::quiet(depth, 1).run(config, NoopObserver, false)?.nps)
}

/// The search signature of `config`: its node count over every [`SIGNATURE_EVERY`]-th bench
/// position at [`SIGNATURE_DEPTH`], `cutlab bench --depth 6 --every 4`. Recorded beside every
/// result a search makes, so that a resume with a search that behaves otherwise (a changed
/// method, the evaluation, a network) is refused instead of mixing two engines' rows.
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn signature(config: &SearchConfig) -> Result<u64, String> {
    remembered_nodes(config, SIGNATURE_DEPTH, SIGNATURE_EVERY)
}

/// [`nodes`], searched once per binary and configuration, then read back ([`remembered`]).
///
/// # Errors
/// A bench position that does not parse (a bug).
pub fn remembered_nodes(config: &SearchConfig, depth: i32, every: u16) -> Result<u64, String> {
    remembered::signature(config, depth, every, || nodes(config, depth, every))
}

/// The node count of `config` over every `every`-th bench position at `depth` (the default
/// variant's over all of them at [`BENCH_DEPTH`] is the bench signature).
///
/// # Errors
/// A bench position that does not parse (a bug).
fn nodes(config: &SearchConfig, depth: i32, every: u16) -> Result<u64, String> {
    Ok(Bench::quiet(depth, every)
        .run(config.clone(), NoopObserver, false)?
        .nodes)
}
