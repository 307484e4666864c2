//! `ablate.csv` (docs/csv.md): one row per comparison and effort whose match has stopped,
//! every estimate flattened into its value, low and high.

use cutlab_analysis::{elo::RoutBound, stats::Estimate};
use serde::{Deserialize, Serialize};

use super::{Direction, row::AblationRow};

/// A row of `ablate.csv` (docs/csv.md), estimates flattened into value, low and high: what
/// the report writes and what `replay` reads of an ablation (a column an older run lacks reads
/// as empty).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CsvRow {
    pub direction: Direction,
    pub method: String,
    pub effort_nodes: u64,
    pub positions: usize,
    pub delta_depth_plies: Option<f64>,
    pub delta_depth_low: Option<f64>,
    pub delta_depth_high: Option<f64>,
    pub tree_size_ratio: Option<f64>,
    pub tree_size_ratio_low: Option<f64>,
    pub tree_size_ratio_high: Option<f64>,
    pub nps_ratio: Option<f64>,
    pub nps_ratio_low: Option<f64>,
    pub nps_ratio_high: Option<f64>,
    pub false_cut_rate: Option<f64>,
    pub false_cut_rate_low: Option<f64>,
    pub false_cut_rate_high: Option<f64>,
    pub verified_cuts: u64,
    pub share_of_cuts: Option<f64>,
    pub delta_regret_cp: Option<f64>,
    pub delta_regret_low: Option<f64>,
    pub delta_regret_high: Option<f64>,
    pub delta_elo: Option<f64>,
    pub delta_elo_low: Option<f64>,
    pub delta_elo_high: Option<f64>,
    pub delta_elo_adjusted: Option<f64>,
    pub delta_nelo: Option<f64>,
    pub delta_nelo_low: Option<f64>,
    pub delta_nelo_high: Option<f64>,
    pub games: usize,
    pub verdict: String,
    pub stockfish_elo_note: Option<String>,
    pub repeated_pair_share: Option<f64>,
}

impl From<&AblationRow> for CsvRow {
    /// Row `r`, its estimates flattened.
    fn from(r: &AblationRow) -> CsvRow {
        let v = |e: &Option<Estimate>| e.as_ref().map(|e| e.value);
        let lo = |e: &Option<Estimate>| e.as_ref().map(|e| e.low);
        let hi = |e: &Option<Estimate>| e.as_ref().map(|e| e.high);
        CsvRow {
            direction: r.direction,
            method: r.method.clone(),
            effort_nodes: r.effort_nodes,
            positions: r.positions,
            delta_depth_plies: v(&r.delta_depth),
            delta_depth_low: lo(&r.delta_depth),
            delta_depth_high: hi(&r.delta_depth),
            tree_size_ratio: v(&r.tree_size_ratio),
            tree_size_ratio_low: lo(&r.tree_size_ratio),
            tree_size_ratio_high: hi(&r.tree_size_ratio),
            nps_ratio: v(&r.speed_ratio),
            nps_ratio_low: lo(&r.speed_ratio),
            nps_ratio_high: hi(&r.speed_ratio),
            false_cut_rate: v(&r.false_cut_rate),
            false_cut_rate_low: lo(&r.false_cut_rate),
            false_cut_rate_high: hi(&r.false_cut_rate),
            verified_cuts: r.verified_cuts,
            share_of_cuts: r.share_of_cuts,
            delta_regret_cp: v(&r.delta_regret_cp),
            delta_regret_low: lo(&r.delta_regret_cp),
            delta_regret_high: hi(&r.delta_regret_cp),
            delta_elo: v(&r.delta_elo),
            delta_elo_low: lo(&r.delta_elo).or(match r.elo_rout {
                Some(RoutBound::AtLeast(elo)) => Some(elo),
                _ => None,
            }),
            delta_elo_high: hi(&r.delta_elo).or(match r.elo_rout {
                Some(RoutBound::AtMost(elo)) => Some(elo),
                _ => None,
            }),
            delta_elo_adjusted: r.adjusted_elo,
            delta_nelo: v(&r.delta_nelo),
            delta_nelo_low: lo(&r.delta_nelo),
            delta_nelo_high: hi(&r.delta_nelo),
            games: r.games,
            verdict: r.status.name().to_string(),
            stockfish_elo_note: r.stockfish_note.map(str::to_string),
            repeated_pair_share: r.repeated_share(),
        }
    }
}
