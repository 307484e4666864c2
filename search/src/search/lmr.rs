//! Late move reductions: quiet moves late in the move order are searched shallower first,
//! and again at full depth only if they beat alpha.
//!
//! ```text
//! if (depth >= 3 && moves_searched >= 3 && quiet && !in_check && !gives_check && !killer)
//!     R = 0.75 + ln(depth) * ln(moves_searched) / 2.25;   // Ethereal's table
//!     if (PvNode) R -= 1;
//!     value = -search(-alpha - 1, -alpha, newDepth - clamp(R, 0, newDepth - 1));
//!     if (value > alpha && R > 0)
//!         value = -search(-alpha - 1, -alpha, newDepth);
//! ```
//!
//! The 2003 Crafty baseline of Jiang and Buro had no LMR; presets switch it on with `lmr`.
//!
//! Two fuller formulas were measured with `null-move+lmr` (8moves_v3, 600 games each, Elo
//! with its pentanomial 95% interval) and not adopted, since neither is decided: taking the
//! move's history / 2048 off R (Stockfish 15.1's `r -= statScore / 13628`, rescaled) +5.2 ±
//! 13.2 at 25,000 nodes per move; Ethereal 12.75's `R += !PvNode + !improving` and `R -=
//! clamp(history / 5000, -2, 2)`, which shrinks the bench tree by 43%, +2.3 ± 21.1 at 25,000
//! nodes and +2.9 ± 21.8 at 100,000. A divisor of 2.0 instead of 2.25 (bench tree 16%
//! smaller, with quiescence futility on) gave +4.0 ± 37.3 at 25,000 nodes in 174 games
//! (8moves_v3, seed 34; stopped early to free the machine): undecided, not adopted.

use serde::{Deserialize, Serialize};
use smart_default::SmartDefault;

use crate::config::{Apply, PresetPart};

/// Parameters of late move reductions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, SmartDefault)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LmrParams {
    /// Least remaining depth at which moves are reduced.
    #[default(3)]
    pub min_depth: i32,
    /// Least index (0-based) in the move order of a reduced move.
    #[default(3)]
    pub min_move_index: usize,
    /// Constant term of the table, plies (Ethereal: 0.75).
    #[default(0.75)]
    pub base: f64,
    /// Divisor of ln(depth)·ln(index) (Ethereal: 2.25).
    #[default(2.25)]
    pub divisor: f64,
    /// Plies less at PV nodes.
    #[default(1)]
    pub pv_less: i32,
}

/// The preset part `lmr`.
pub const PRESET_PARTS: [PresetPart; 1] = [PresetPart {
    name: "lmr",
    describe: || {
        let p = LmrParams::default();
        format!(
            "late move reductions: {} + ln(depth) ln(index) / {} plies from depth {} and move {} \
             (Ethereal's table)",
            p.base,
            p.divisor,
            p.min_depth,
            p.min_move_index + 1
        )
    },
    apply: Apply::On(|config| config.lmr = Some(LmrParams::default())),
}];

/// Depths and move indices beyond the table use its last row and column.
const TABLE_SIZE: usize = 64;

/// The reductions of [`LmrParams`] precomputed by depth and move index.
#[derive(Clone, Debug)]
pub(crate) struct LmrTable {
    params: Option<LmrParams>,
    table: Box<[[i32; TABLE_SIZE]; TABLE_SIZE]>,
}

impl LmrTable {
    /// The table for `params` (all zero when LMR is off).
    pub fn new(params: Option<&LmrParams>) -> LmrTable {
        let mut table = Box::new([[0; TABLE_SIZE]; TABLE_SIZE]);
        if let Some(p) = params {
            for (depth, row) in table.iter_mut().enumerate().skip(1) {
                for (index, r) in row.iter_mut().enumerate().skip(1) {
                    #[expect(
                        clippy::cast_precision_loss,
                        clippy::cast_possible_truncation,
                        reason = "small integers; the table truncates toward zero"
                    )]
                    {
                        *r =
                            (p.base + (depth as f64).ln() * (index as f64).ln() / p.divisor) as i32;
                    }
                }
            }
        }
        LmrTable {
            params: params.copied(),
            table,
        }
    }

    /// Whether the table was built for `params`.
    pub fn is_for(&self, params: Option<&LmrParams>) -> bool {
        self.params.as_ref() == params
    }

    /// The reduction of a quiet, non-checking, non-killer move number `index` (0-based) at a
    /// node of `depth` not in check, whose child would search `new_depth`.
    pub fn reduction(&self, depth: i32, index: usize, pv_node: bool, new_depth: i32) -> i32 {
        let Some(p) = &self.params else { return 0 };
        if depth < p.min_depth || index < p.min_move_index {
            return 0;
        }
        let d = usize::try_from(depth).unwrap_or(0).min(TABLE_SIZE - 1);
        let r = self.table[d][index.min(TABLE_SIZE - 1)];
        (r - if pv_node { p.pv_less } else { 0 }).clamp(0, new_depth - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_follow_the_table() {
        let lmr = LmrTable::new(Some(&LmrParams::default()));
        assert_eq!(lmr.reduction(2, 10, false, 1), 0, "too shallow");
        assert_eq!(lmr.reduction(8, 2, false, 7), 0, "too early in the order");
        // 0.75 + ln 20 ln 20 / 2.25 = 4.74 -> 4; one less at PV nodes; never below depth 1.
        assert_eq!(lmr.reduction(20, 20, false, 19), 4);
        assert_eq!(lmr.reduction(20, 20, true, 19), 3);
        assert_eq!(lmr.reduction(20, 20, false, 3), 2);
        assert_eq!(LmrTable::new(None).reduction(8, 10, false, 7), 0);
    }
}
