//! Events of the cutlab search and the [`Observer`] trait the search is generic over.
//!
//! The search calls an observer, for every node it counts, in this order
//! (the pgn-reader `Visitor` shape: phases documented, default bodies empty):
//!
//! 1. [`Observer::enter_node`]
//! 2. zero or more [`Observer::cut_test`] (one per forward-pruning test tried at the node)
//! 3. [`Observer::leave_node`]
//!
//! and, at the root, [`Observer::iteration_finished`] after every completed iteration and
//! [`Observer::search_finished`] once at the end. Children's enter/leave pairs nest between
//! their parent's enter and leave, so the calls form a well-bracketed tree.
//!
//! [`NoopObserver`] turns both [`Observer::NODE_EVENTS`] and [`Observer::TEST_EVENTS`] off; the
//! search builds no event then, so the no-op observer compiles away.

mod counters;
pub mod csv_header;
pub mod csv_sink;
mod events;
mod histograms;
mod observer;
mod sampler;

pub use counters::{Counters, Tally};
pub use csv_sink::{CsvSink, CsvStats, NodeFilter};
pub use events::{
    Bound, CutOutcome, CutTestEvent, IterationEvent, Method, NodeEvent, NodeExitEvent, NodeType,
    Stage,
};
pub use histograms::{Histograms, MATE_BOUND};
pub use observer::{NoopObserver, Observer, Tee};
pub use sampler::{CutSample, CutSampler, VerifyRates};
