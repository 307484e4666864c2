//! Per-node CSV: one row per node that passes the filters (`nodes.csv`), and one row per
//! cut test at those nodes (`tests.csv`, joined on `position` and `node_id`). Rows are
//! batched and written by a background thread behind a bounded channel, so the search never
//! waits on the disk for long and memory stays bounded. Columns: `docs/csv.md`.

use std::{
    fs::File,
    io::{self, BufWriter},
    path::{Path, PathBuf},
    sync::{Arc, mpsc},
    thread::JoinHandle,
};

use serde::Serialize;

use crate::{CutTestEvent, NodeEvent, NodeExitEvent, Observer};

/// Which nodes are written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeFilter {
    /// Only nodes with at least this remaining depth (quiescence nodes have depth 0).
    pub min_depth: i32,
    /// Only nodes where a forward-pruning test ran.
    pub only_cut_tests: bool,
    /// Fraction of nodes kept, chosen by a hash of (seed, position, node id): reproducible.
    pub sample: f64,
    /// Seed of the sampling.
    pub seed: u64,
}

impl Default for NodeFilter {
    fn default() -> Self {
        NodeFilter {
            min_depth: i32::MIN,
            only_cut_tests: false,
            sample: 1.0,
            seed: 0,
        }
    }
}

/// SplitMix64 finaliser (Steele, Lea and Flood 2014): a well-mixed 64-bit hash.
#[inline]
#[must_use]
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Whether a seeded hash of `key` falls below `rate` (a reproducible Bernoulli draw).
#[must_use]
pub fn sampled(seed: u64, key: u64, rate: f64) -> bool {
    if rate >= 1.0 {
        return true;
    }
    #[expect(clippy::cast_precision_loss, reason = "a 53-bit uniform draw")]
    let u = (splitmix64(seed ^ splitmix64(key)) >> 11) as f64 / (1u64 << 53) as f64;
    u < rate
}

/// One row of `nodes.csv`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NodeRow {
    position: Arc<str>,
    node_id: u64,
    parent_id: u64,
    ply: u32,
    depth: i32,
    alpha_cp: i32,
    beta_cp: i32,
    node_type: &'static str,
    stage: &'static str,
    static_eval_cp: Option<i32>,
    in_check: bool,
    quiescence: bool,
    in_test: bool,
    value_cp: i32,
    bound: &'static str,
    best_move: Option<String>,
    subtree_nodes: u64,
    cut_by: Option<&'static str>,
    cut_move_index: Option<u32>,
    tests: u32,
}

/// One row of `tests.csv`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TestRow {
    position: Arc<str>,
    node_id: u64,
    ply: u32,
    node_type: &'static str,
    method: &'static str,
    depth: i32,
    shallow_depth: i32,
    alpha_cp: i32,
    beta_cp: i32,
    bound_cp: i32,
    shallow_value_cp: i32,
    outcome: &'static str,
    test_nodes: u64,
    test_index: u32,
    pruned_move: Option<String>,
}

enum Batch {
    Nodes(Vec<NodeRow>),
    Tests(Vec<TestRow>),
}

const BATCH_ROWS: usize = 4096;
const BATCHES_IN_FLIGHT: usize = 16;

/// What the sink wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsvStats {
    /// Rows in `nodes.csv`.
    pub node_rows: u64,
    /// Rows in `tests.csv`.
    pub test_rows: u64,
}

/// The CSV sink: an observer that streams rows to a writer thread.
pub struct CsvSink {
    filter: NodeFilter,
    position: Arc<str>,
    position_key: u64,
    stack: Vec<(NodeRow, Vec<TestRow>)>,
    nodes: Vec<NodeRow>,
    tests: Vec<TestRow>,
    sender: Option<mpsc::SyncSender<Batch>>,
    writer: Option<JoinHandle<io::Result<CsvStats>>>,
}

fn create<T: Serialize + Default>(path: &Path) -> io::Result<csv::Writer<BufWriter<File>>> {
    let file = File::create(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    crate::csv_header::writer::<T, _>(BufWriter::with_capacity(1 << 20, file))
        .map_err(io::Error::other)
}

fn write_all(
    receiver: &mpsc::Receiver<Batch>,
    nodes_path: &Path,
    tests_path: &Path,
) -> io::Result<CsvStats> {
    let mut nodes = create::<NodeRow>(nodes_path)?;
    let mut tests = create::<TestRow>(tests_path)?;
    let mut stats = CsvStats::default();
    for batch in receiver {
        match batch {
            Batch::Nodes(rows) => {
                for row in rows {
                    nodes.serialize(row).map_err(io::Error::other)?;
                    stats.node_rows += 1;
                }
            }
            Batch::Tests(rows) => {
                for row in rows {
                    tests.serialize(row).map_err(io::Error::other)?;
                    stats.test_rows += 1;
                }
            }
        }
    }
    nodes.flush()?;
    tests.flush()?;
    Ok(stats)
}

/// The tests file that goes with a nodes file: `nodes.csv` → `nodes.tests.csv`.
#[must_use]
pub fn tests_path(nodes_path: &Path) -> PathBuf {
    nodes_path.with_extension("tests.csv")
}

impl CsvSink {
    /// Starts the writer thread; files are created (truncated) at once.
    ///
    /// # Errors
    /// A file that cannot be created (the message names it).
    pub fn create(nodes_path: &Path, filter: NodeFilter) -> io::Result<CsvSink> {
        // Create both files here so that a bad path is reported before the search.
        drop(create::<NodeRow>(nodes_path)?);
        let tests = tests_path(nodes_path);
        drop(create::<TestRow>(&tests)?);
        let (sender, receiver) = mpsc::sync_channel(BATCHES_IN_FLIGHT);
        let nodes_path = nodes_path.to_path_buf();
        let writer = std::thread::Builder::new()
            .name("csv-writer".into())
            .spawn(move || write_all(&receiver, &nodes_path, &tests))?;
        Ok(CsvSink {
            filter,
            position: Arc::from(""),
            position_key: 0,
            stack: Vec::new(),
            nodes: Vec::with_capacity(BATCH_ROWS),
            tests: Vec::new(),
            sender: Some(sender),
            writer: Some(writer),
        })
    }

    /// Names the position the next search explores (the `position` column).
    pub fn set_position(&mut self, id: &str) {
        self.position = Arc::from(id);
        self.position_key = id.bytes().fold(0, |h, b| splitmix64(h ^ u64::from(b)));
    }

    fn send(&mut self, batch: Batch) {
        if let Some(sender) = &self.sender
            && sender.send(batch).is_err()
        {
            // The writer stopped on an error; `finish` reports it.
            self.sender = None;
        }
    }

    /// Writes what is buffered, waits for the writer and reports what it wrote.
    ///
    /// # Errors
    /// The first write error of the writer thread.
    pub fn finish(mut self) -> io::Result<CsvStats> {
        self.flush_batches();
        self.sender = None;
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("CSV writer thread panicked")),
            None => Ok(CsvStats::default()),
        }
    }

    fn flush_batches(&mut self) {
        if !self.nodes.is_empty() {
            let rows = std::mem::replace(&mut self.nodes, Vec::with_capacity(BATCH_ROWS));
            self.send(Batch::Nodes(rows));
        }
        if !self.tests.is_empty() {
            let rows = std::mem::take(&mut self.tests);
            self.send(Batch::Tests(rows));
        }
    }
}

impl Observer for CsvSink {
    fn enter_node(&mut self, e: &NodeEvent) {
        let row = NodeRow {
            position: Arc::clone(&self.position),
            node_id: e.node_id,
            parent_id: e.parent_id,
            ply: e.ply,
            depth: e.depth,
            alpha_cp: e.alpha,
            beta_cp: e.beta,
            node_type: e.node_type.name(),
            stage: e.stage.name(),
            static_eval_cp: e.static_eval,
            in_check: e.in_check,
            quiescence: e.quiescence,
            in_test: e.in_test,
            value_cp: 0,
            bound: "",
            best_move: None,
            subtree_nodes: 0,
            cut_by: None,
            cut_move_index: None,
            tests: 0,
        };
        self.stack.push((row, Vec::new()));
    }

    fn cut_test(&mut self, e: &CutTestEvent, _fen: &dyn Fn() -> String) {
        let Some((row, tests)) = self.stack.last_mut() else {
            return;
        };
        if row.node_id != e.node_id {
            return;
        }
        row.tests += 1;
        tests.push(TestRow {
            position: Arc::clone(&self.position),
            node_id: e.node_id,
            ply: e.ply,
            node_type: e.node_type.name(),
            method: e.method.name(),
            depth: e.depth,
            shallow_depth: e.shallow_depth,
            alpha_cp: e.alpha,
            beta_cp: e.beta,
            bound_cp: e.bound,
            shallow_value_cp: e.shallow_value,
            outcome: e.outcome.name(),
            test_nodes: e.nodes,
            test_index: e.test_index,
            pruned_move: e.pruned_move.clone(),
        });
    }

    fn leave_node(&mut self, e: &NodeExitEvent) {
        let Some((mut row, tests)) = self.stack.pop() else {
            return;
        };
        let f = &self.filter;
        if row.depth < f.min_depth
            || (f.only_cut_tests && row.tests == 0)
            || !sampled(f.seed ^ self.position_key, row.node_id, f.sample)
        {
            return;
        }
        row.value_cp = e.value;
        row.bound = e.bound.name();
        row.best_move.clone_from(&e.best_move);
        row.subtree_nodes = e.subtree_nodes;
        row.cut_by = e.cut_by.map(crate::Method::name);
        row.cut_move_index = e.cut_move_index;
        self.nodes.push(row);
        self.tests.extend(tests);
        if self.nodes.len() >= BATCH_ROWS {
            self.flush_batches();
        }
    }

    fn search_finished(&mut self) {
        self.flush_batches();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_is_reproducible_and_near_the_rate() {
        let kept: Vec<u64> = (0..100_000).filter(|&k| sampled(7, k, 0.1)).collect();
        let again: Vec<u64> = (0..100_000).filter(|&k| sampled(7, k, 0.1)).collect();
        assert_eq!(kept, again);
        assert!((9_000..11_000).contains(&kept.len()), "{}", kept.len());
        let other: Vec<u64> = (0..100_000).filter(|&k| sampled(8, k, 0.1)).collect();
        assert_ne!(kept, other);
    }
}
