//! What a comparison's searches say, read from the run's steps at fixed depth and time: the
//! depth reached at fixed time and the speed there, the tree size at fixed depth, the regret,
//! and from the traces the method's false cuts and its share of all cuts. A step not
//! finished yet reads as nothing measured.

use cutlab_analysis::{
    rows::{DepthRow, FalseCutRow, RegretRow, TallyRow},
    stats::{Estimate, paired, paired_difference, paired_ratio, wilson},
};

use super::{Comparison, Direction, Layout, Manifest, Reference};
use crate::common::pipeline::rows_of_finished;

/// A comparison's searches against its reference's, each estimate with its 95% interval.
pub(super) struct Searched {
    /// Positions compared at fixed time.
    pub(super) positions: usize,
    pub(super) delta_depth: Option<Estimate>,
    pub(super) tree_size_ratio: Option<Estimate>,
    pub(super) speed_ratio: Option<Estimate>,
    pub(super) delta_regret_cp: Option<Estimate>,
    pub(super) false_cut_rate: Option<Estimate>,
    pub(super) verified_cuts: u64,
    pub(super) share_of_cuts: Option<f64>,
}

impl Searched {
    /// Reads the searches of `c` and of its reference from the run's finished steps.
    pub(super) fn read(
        layout: &Layout,
        manifest: &Manifest,
        c: &Comparison,
    ) -> Result<Searched, String> {
        let reference = match c.reference() {
            Reference::Stack => &manifest.stack,
            Reference::Baseline => &manifest.baseline,
        };
        // The stack at twice the nodes has no searches of its own to pair with the stack's.
        let variant = if c.searches_a_tree() {
            c.variant.as_str()
        } else {
            ""
        };
        let names = (reference.as_str(), variant);
        let step = |kind: &str| format!("{kind}-{}", c.reference().name());
        let file = |kind: &str| layout.file(&format!("{}.csv", step(kind)));
        let depth: Vec<DepthRow> =
            rows_of_finished(&manifest.header.steps, &step("depth"), &file("depth"))?;
        let (d_ref, d_var) = paired(
            &depth,
            names,
            |r| (&r.position, &r.variant),
            |r| f64::from(r.depth),
        );
        #[expect(clippy::cast_precision_loss, reason = "node rates")]
        let (s_ref, s_var) = paired(
            &depth,
            names,
            |r| (&r.position, &r.variant),
            |r| r.nps as f64,
        );
        let size: Vec<DepthRow> =
            rows_of_finished(&manifest.header.steps, &step("size"), &file("size"))?;
        #[expect(clippy::cast_precision_loss, reason = "node counts")]
        let (n_ref, n_var) = paired(
            &size,
            names,
            |r| (&r.position, &r.variant),
            |r| r.nodes as f64,
        );
        let regret: Vec<RegretRow> =
            rows_of_finished(&manifest.header.steps, &step("regret"), &file("regret"))?;
        let (r_ref, r_var) = paired(
            &regret,
            names,
            |r| (&r.position, &r.variant),
            |r| f64::from(r.regret_cp),
        );
        let (false_cut_rate, verified_cuts, share_of_cuts) = traced(layout, manifest, c)?;
        Ok(Searched {
            positions: d_ref.len(),
            delta_depth: paired_difference(&d_ref, &d_var, 0.95),
            tree_size_ratio: paired_ratio(&n_ref, &n_var, 0.95),
            speed_ratio: paired_ratio(&s_ref, &s_var, 0.95),
            delta_regret_cp: paired_difference(&r_ref, &r_var, 0.95),
            false_cut_rate,
            verified_cuts,
            share_of_cuts,
        })
    }
}

/// From the trace of the search that runs the method (the stack for a method left out, the
/// variant otherwise): the share of its sampled cuts a re-search contradicts (Wilson), how
/// many were verified, and its share of all the trace's cuts.
fn traced(
    layout: &Layout,
    manifest: &Manifest,
    c: &Comparison,
) -> Result<(Option<Estimate>, u64, Option<f64>), String> {
    let traced = if c.direction == Direction::Without {
        "stack".to_string()
    } else {
        c.name()
    };
    let (trace_step, trace) = (format!("trace-{traced}"), format!("traces/{traced}"));
    let method = c.traced_method();
    let verified: Vec<FalseCutRow> = rows_of_finished(
        &manifest.header.steps,
        &trace_step,
        &layout.file(&format!("{trace}.false-cuts.csv")),
    )?;
    let (sampled, wrong) = verified
        .iter()
        .filter(|v| v.method == method)
        .fold((0, 0), |(n, w), v| (n + v.sampled_cuts, w + v.false_cuts));
    let counted: Vec<TallyRow> = rows_of_finished(
        &manifest.header.steps,
        &trace_step,
        &layout.file(&format!("{trace}.tallies.csv")),
    )?;
    let (all, of_method) = counted.iter().fold((0_u64, 0_u64), |(all, m), c| {
        (
            all + c.cuts,
            m + if c.method == method { c.cuts } else { 0 },
        )
    });
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let share = (all > 0).then(|| of_method as f64 / all as f64);
    Ok((wilson(wrong, sampled, 0.95), sampled, share))
}
