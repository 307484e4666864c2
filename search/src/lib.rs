//! The cutlab engine: a position wrapper over shakmaty, evaluation, move ordering, a
//! transposition table and an alpha-beta search whose forward-pruning methods are switched on
//! by a [`SearchConfig`].

pub mod config;
pub mod eval;
pub mod fit_params;
pub mod limits;
pub mod movepick;
pub mod mpc;
pub mod multicut;
pub mod null_move;
mod pesto;
pub mod position;
pub mod prob_ab;
pub mod probcut;
pub mod score;
pub mod search;
pub mod see;
pub mod sf_probcut;
pub mod tt;
pub mod verify;

pub use position::{Position, PositionError};

pub use config::{ConfigError, DEFAULT_VARIANT, SearchConfig};
pub use limits::Limits;
pub use search::{CutCounts, Info, Search, SearchResult};
