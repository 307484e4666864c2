//! Statistics over cutlab's measurements: intervals, not bare means.

pub mod stats;
