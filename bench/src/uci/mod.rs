//! UCI on both sides: the engine's server (stdin/stdout) and the client that drives external
//! engines for matches and the oracle.

pub mod client;
mod parse;
pub mod server;
