//! The cutlab engine: a position wrapper over shakmaty, evaluation, move ordering, a
//! transposition table and an alpha-beta search whose forward-pruning methods are switched on
//! by a [`SearchConfig`].
//!
//! Layout: [`search`] is the engine (iterative deepening, the node function as numbered steps,
//! quiescence, LMR); [`pruning`] holds one file per forward-pruning method, each called by one
//! step; [`prob_ab`] replaces the node function with probabilistic alpha-beta; [`config`] says
//! which of them are on. Below them: [`position`], [`eval`], [`movegen`], [`movepick`], [`see`],
//! [`tt`].

pub mod config;
pub mod eval;
pub mod fit_params;
pub mod history;
pub mod limits;
pub mod movegen;
pub mod movepick;
pub mod nnue;
pub mod position;
pub mod prob_ab;
pub mod pruning;
pub mod score;
pub mod search;
pub mod see;
pub mod tt;
pub mod verify;

pub use position::{Position, PositionError};

pub use config::{ConfigError, DEFAULT_VARIANT, Eval, PartKind, SearchConfig, part_kind};
pub use limits::Limits;
pub use search::{CutCounts, Info, Search, SearchResult};
