//! Statistics over cutlab's measurements: intervals, not bare means.

pub mod elo;
pub mod plot;
pub mod regression;
pub mod stats;
