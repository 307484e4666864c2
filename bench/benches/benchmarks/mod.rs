pub mod evaluation;
pub mod instrument;
pub mod movegen;
pub mod quiescence;
pub mod search;

/// Middlegame position used by the benches (Kiwipete, chessprogramming wiki).
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
