//! The cutlab engine: a position wrapper over shakmaty, evaluation, move ordering, a
//! transposition table and an alpha-beta search whose forward-pruning methods are switched on
//! by a [`SearchConfig`].

pub mod eval;
pub mod movepick;
mod pesto;
pub mod position;
pub mod score;
pub mod see;
pub mod tt;

pub use position::{Position, PositionError};
