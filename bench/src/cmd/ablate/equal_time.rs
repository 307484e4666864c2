//! Elo at equal time: a comparison's Elo at fixed nodes with its method's cost per node
//! turned into Elo by the run's own exchange rate, the stack against itself at twice the nodes
//! (`--directions doubled`). A variant that searches r times the reference's nodes a second
//! gets log2 r doublings more at equal time, each worth D Elo at that effort:
//! ΔElo(time) = ΔElo(nodes) + log2(r) · D (the first-order exchange; a doubling's worth
//! changes slowly with effort). The three are independent measurements, so the interval's
//! half-width is by the delta method h² = h_Elo² + (log2 r · h_D)² + (D · h_log2 r)².

use cutlab_analysis::{
    markdown::{Table, signed_ci},
    stats::Estimate,
};

use super::{Direction, row::AblationRow};

/// ΔElo at equal time from ΔElo at fixed nodes, the speed ratio r (variant over reference) and
/// the Elo of a doubling of the nodes.
#[must_use]
pub fn at_equal_time(delta_elo: &Estimate, speed: &Estimate, doubling: &Estimate) -> Estimate {
    let half = |e: &Estimate| (e.high - e.low) / 2.0;
    let doublings = speed.value.log2();
    let doublings_half = (speed.high.log2() - speed.low.log2()) / 2.0;
    let h = half(delta_elo)
        .hypot(doublings * half(doubling))
        .hypot(doubling.value * doublings_half);
    Estimate::around(delta_elo.value + doublings * doubling.value, h)
}

/// The section "at equal time": per effort with a stopped doubling, each comparison whose
/// speed has been measured (the depth step at fixed time) with its Elo at fixed nodes, its
/// speed ratio and its Elo at equal time. `None` where no effort has both.
pub fn section(rows: &[AblationRow], confidence: f64) -> Option<String> {
    let percent = cutlab_analysis::markdown::level(confidence);
    let mut md = String::new();
    let mut efforts: Vec<u64> = rows.iter().map(|r| r.effort_nodes).collect();
    efforts.dedup();
    for nodes in efforts {
        let at: Vec<&AblationRow> = rows.iter().filter(|r| r.effort_nodes == nodes).collect();
        let Some(doubling) = at
            .iter()
            .find(|r| r.direction == Direction::Doubled)
            .and_then(|r| r.measured_elo())
        else {
            continue;
        };
        let mut t = Table::new(&[
            "direction",
            "method",
            &format!(">ΔElo at fixed nodes [{percent}]"),
            ">speed (nps ratio) [95%]",
            &format!(">ΔElo at equal time [{percent}]"),
        ]);
        let mut any = false;
        for r in at.iter().filter(|r| r.direction != Direction::Doubled) {
            let (Some(elo), Some(speed)) = (r.measured_elo(), r.speed_ratio) else {
                continue;
            };
            any = true;
            t.row(vec![
                r.direction.to_string(),
                r.method.clone(),
                signed_ci(Some(&elo), 0, ""),
                format!("{:.2}x [{:.2}, {:.2}]", speed.value, speed.low, speed.high),
                signed_ci(Some(&at_equal_time(&elo, &speed, &doubling)), 0, ""),
            ]);
        }
        if any {
            md.push_str(&format!(
                "\n## At equal time, {nodes} nodes per move\n\nEach comparison's Elo at fixed \
                 nodes with its method's cost per node turned into Elo: a variant searching r \
                 times the reference's nodes a second gains log2 r doublings at equal time, each \
                 worth {} Elo here (the stack at twice the nodes): ΔElo + log2(r) · that, the \
                 interval by the delta method over the three independent measurements. The \
                 speed is the nodes per second of the depth comparison at fixed time.\n\n{}",
                signed_ci(Some(&doubling), 0, ""),
                t.render()
            ));
        }
    }
    (!md.is_empty()).then_some(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::ablate::played::Status;
    use cutlab_analysis::elo::Verdict;

    /// Leaving a method out reads -20 ± 10 at fixed nodes and searches 1.5 times as fast
    /// [1.4, 1.6]; a doubling is worth +60 ± 12: at equal time -20 + log2(1.5) · 60 = +15.1,
    /// with h² = 10² + (0.585 · 12)² + (60 · (log2 1.6 - log2 1.4) / 2)².
    #[test]
    fn a_faster_variant_gains_its_extra_doublings() {
        let elo = Estimate::around(-20.0, 10.0);
        let speed = Estimate {
            value: 1.5,
            low: 1.4,
            high: 1.6,
        };
        let doubling = Estimate::around(60.0, 12.0);
        let e = at_equal_time(&elo, &speed, &doubling);
        let doublings = 1.5_f64.log2();
        assert!((e.value - (-20.0 + doublings * 60.0)).abs() < 1e-9, "{e:?}");
        let h = 10.0_f64
            .hypot(doublings * 12.0)
            .hypot(60.0 * (1.6_f64.log2() - 1.4_f64.log2()) / 2.0);
        assert!((e.high - e.value - h).abs() < 1e-9, "{e:?}");
        let stopped = Status::Stopped(Verdict::Decided);
        let rows = [
            AblationRow {
                direction: Direction::Without,
                method: "lmr".into(),
                effort_nodes: 5000,
                delta_elo: Some(elo),
                speed_ratio: Some(speed),
                status: stopped,
                ..AblationRow::default()
            },
            AblationRow {
                direction: Direction::Doubled,
                method: "twice-the-nodes".into(),
                effort_nodes: 5000,
                delta_elo: Some(doubling),
                status: stopped,
                ..AblationRow::default()
            },
        ];
        let md = section(&rows, 0.98).unwrap();
        assert!(
            md.contains("| lmr ") && md.contains("1.50x [1.40, 1.60]"),
            "{md}"
        );
        assert!(md.contains(&signed_ci(Some(&e), 0, "")), "{md}");
        assert!(section(&rows[..1], 0.98).is_none());
    }
}
