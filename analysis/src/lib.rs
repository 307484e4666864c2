//! Statistics, tables and plots over cutlab's measurements: intervals, not bare means.

pub mod elo;
pub mod markdown;
pub mod multiplicity;
pub mod plot;
pub mod power;
pub mod predict;
pub mod regression;
pub mod rows;
pub mod sequential;
pub mod stats;
pub mod tables;
