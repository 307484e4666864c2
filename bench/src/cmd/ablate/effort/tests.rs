//! The effort section's tests: each expectation from the two-point or weighted-line formula.

use super::*;

fn row(method: &str, nodes: u64, elo: f64, h: f64, status: Status) -> AblationRow {
    AblationRow {
        direction: Direction::Without,
        method: method.into(),
        effort_nodes: nodes,
        delta_elo: Some(Estimate::around(elo, h)),
        games: 800,
        status,
        ..AblationRow::default()
    }
}

/// The section over 5,000, 20,000 and 80,000 nodes at `confidence`, a trend over the
/// first two efforts and over all three arising by chance at the rates `chances`.
fn over_three(layout: &Layout, rows: &[AblationRow], confidence: f64, chances: [f64; 2]) -> String {
    section(
        layout,
        &[5000, 20000, 80000],
        rows,
        (confidence, 15.0, &|k| chances[k - 2]),
    )
    .unwrap()
}

/// Late move pruning left out reads -34 ± 27 at 5,000 nodes (worth +34) and +40 ± 34 at
/// 20,000 (worth -40): over the two doublings between them its worth changes by -74 ±
/// hypot(27, 34), -37.0 ± 21.7 a doubling, shrinking; with a third effort the line
/// weighs each worth by 1/h²; a row still playing has no slope.
#[test]
fn a_worth_that_changes_with_effort_reads_as_a_trend() {
    let stopped = Status::Stopped(Verdict::Decided);
    let rows = [
        row("lmp", 5000, -34.0, 27.0, stopped),
        row("lmp", 20000, 40.0, 34.0, stopped),
        row("iir", 5000, -10.0, 13.0, stopped),
        row("iir", 20000, -27.0, 25.0, Status::Playing),
    ];
    let dir = crate::common::scratch_dir("effort");
    let layout = Layout { dir: dir.clone() };
    let md = section(&layout, &[5000, 20000], &rows, (0.99, 15.0, &|_| 0.01)).unwrap();
    assert!(dir.join("worth-by-effort.svg").is_file());
    let half = 27.0_f64.hypot(34.0) / 2.0;
    let lmp = md.lines().find(|l| l.contains("| lmp ")).unwrap();
    assert!(
        lmp.contains("+34 [+7, +61]") && lmp.contains("-40 [-74, -6]"),
        "{md}"
    );
    assert!(
        lmp.contains(&format!(
            "-37.0 [{:+.1}, {:+.1}]",
            -37.0 - half,
            -37.0 + half
        )) && lmp.contains("shrinks with effort")
            && lmp.contains("| ~7 (step 14, move count) |")
            && lmp.trim_end().ends_with(" 77 |"),
        "{md}"
    );
    let iir = md.lines().find(|l| l.contains("| iir ")).unwrap();
    assert!(
        iir.contains("| playing ") && iir.contains("scales poorly"),
        "{md}"
    );
    assert!(md.contains("1 of 1 slopes read as a trend"), "{md}");
    assert!(md.contains("- without lmp: shrinks with effort"), "{md}");
    // Three efforts two doublings apart, worths 10, 20, 30 each ± 20.
    let line = [
        row("rfp", 5000, -10.0, 20.0, stopped),
        row("rfp", 20000, -20.0, 20.0, stopped),
        row("rfp", 80000, -30.0, 20.0, stopped),
    ];
    let md = over_three(&layout, &line, 0.99, [0.02, 0.01]);
    // Slope 5 Elo a doubling, half-width 1 / sqrt((4 + 0 + 4) / 400) = sqrt(50).
    let h = 50.0_f64.sqrt();
    assert!(
        md.contains(&format!("+5.0 [{:+.1}, {:+.1}]", 5.0 - h, 5.0 + h))
            && md.contains("Not shown to change (each slope's interval holds 0): without rfp."),
        "{md}"
    );
    // Worths 0 ± 4 at each: slope 0 ± 1 / sqrt((4 + 0 + 4) / 16) = ±sqrt(2) a doubling,
    // a change of at most 4·sqrt(2) = 5.7 Elo over the four doublings, inside ±15; worths
    // 0 ± 12 give ±4.2·4 = 17.0, past it.
    let within = |h: f64| [5000, 20000, 80000].map(|n| row("futility", n, 0.0, h, stopped));
    let md = over_three(&layout, &within(4.0), 0.99, [0.02, 0.01]);
    assert!(
        md.contains(&format!("+0.0 [-{0:.1}, +{0:.1}]", 2.0_f64.sqrt()))
            && md.contains("| stays within ±15 with effort |")
            && md
                .contains("(its change across the efforts lies inside ±15 Elo): without futility.")
            && md.contains("0 of 1 slopes read as a trend"),
        "{md}"
    );
    let md = over_three(&layout, &within(12.0), 0.99, [0.02, 0.01]);
    assert!(md.contains("| not shown to change |"), "{md}");
    assert!(
        section(&layout, &[5000], &rows, (0.99, 15.0, &|_| 0.0))
            .unwrap()
            .is_empty()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// While the last effort plays, a comparison stopped at the first two is read over them,
/// *so far*: late move pruning left out gains 13 ± 13 at 5,000 nodes (worth -13) and costs
/// 30 ± 24 at 20,000 (worth +30), +21.5 ± hypot(13, 24) / 2 a doubling; one stopped at
/// the first effort alone is still playing; the by-chance count is the two-effort rate.
#[test]
fn a_run_in_progress_reads_its_trends_over_the_efforts_stopped() {
    let stopped = Status::Stopped(Verdict::Decided);
    let rows = [
        row("lmp", 5000, 13.0, 13.0, stopped),
        row("lmp", 20000, -30.0, 24.0, stopped),
        row("lmp", 80000, 0.0, 0.0, Status::ToPlay),
        row("iir", 5000, -17.0, 12.0, stopped),
        row("iir", 20000, 0.0, 30.0, Status::Playing),
        row("iir", 80000, 0.0, 0.0, Status::ToPlay),
    ];
    let dir = crate::common::scratch_dir("effort-so-far");
    let layout = Layout { dir: dir.clone() };
    let md = over_three(&layout, &rows, 0.98, [0.2, 0.1]);
    let half = 13.0_f64.hypot(24.0) / 2.0;
    let slope = format!("+21.5 [{:+.1}, {:+.1}]", 21.5 - half, 21.5 + half);
    let lmp = md.lines().find(|l| l.contains("| lmp ")).unwrap();
    assert!(
        lmp.contains(&slope) && lmp.contains("grows with effort so far (5000 to 20000 nodes)"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "- without lmp: grows with effort so far (5000 to 20000 nodes), {slope} Elo"
        )),
        "{md}"
    );
    let iir = md.lines().find(|l| l.contains("| iir ")).unwrap();
    assert!(iir.contains("| to play "), "{md}");
    assert!(
        md.contains("1 of 1 slopes read as a trend; with no change anywhere about 0.2 would")
            && md.contains("(20.0% of comparisons over the first 2:"),
        "{md}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// An effort that does not play a comparison (`ablate --only`) shows it *not played*,
/// and its line rests on the efforts below, read over them alone (no *so far*): reverse
/// futility pruning left out costs 10 ± 20 and 20 ± 20 at 5,000 and 20,000 nodes, +5.0 ±
/// hypot(20, 20) / 2 a doubling, not shown to change; the by-chance count takes the
/// two-effort rate for it and the three-effort one for a comparison played at all three.
#[test]
fn a_comparison_an_effort_does_not_play_is_read_over_the_efforts_below() {
    let stopped = Status::Stopped(Verdict::Decided);
    let rows = [
        row("lmp", 5000, 13.0, 13.0, stopped),
        row("lmp", 20000, -30.0, 24.0, stopped),
        row("lmp", 80000, -90.0, 24.0, stopped),
        row("rfp", 5000, -10.0, 20.0, stopped),
        row("rfp", 20000, -20.0, 20.0, stopped),
    ];
    let dir = crate::common::scratch_dir("effort-only");
    let layout = Layout { dir: dir.clone() };
    let md = over_three(&layout, &rows, 0.98, [0.2, 0.1]);
    let half = 20.0_f64.hypot(20.0) / 2.0;
    let rfp = md.lines().find(|l| l.contains("| rfp ")).unwrap();
    assert!(
        rfp.contains(&format!("+5.0 [{:+.1}, {:+.1}]", 5.0 - half, 5.0 + half))
            && rfp.contains(&format!(" {NOT_PLAYED} |"))
            && rfp.contains("| not shown to change ")
            && !rfp.contains("so far"),
        "{md}"
    );
    assert!(
        md.contains("- *not played*: an effort that plays only some"),
        "{md}"
    );
    assert!(
        md.contains(
            "about 0.3 would by chance (10.0% of comparisons over all 3 efforts, 20.0% over the first 2:"
        ),
        "{md}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A worth bent across three efforts: worths 0, 60 and 0 with half-widths 10 at 95% (se
/// 10 / 1.96) lie off their weighted line y = 20 by -20, +40, -20: Q = (400 + 1600 + 400) /
/// (10 / 1.96)² ≈ 92 on 1 df, far past chance, so it reads as curved; each step (60 ± 14.1)
/// excludes 0, so it changes with effort, not along a line. The same worths on a line read
/// as a trend.
#[test]
fn a_worth_bent_across_the_efforts_reads_as_not_along_a_line() {
    let stopped = Status::Stopped(Verdict::Decided);
    // Left out: a worth of w is an Elo of -w.
    let bent = [
        row("lmp", 5000, 0.0, 10.0, stopped),
        row("lmp", 20000, -60.0, 10.0, stopped),
        row("lmp", 80000, 0.0, 10.0, stopped),
    ];
    let dir = crate::common::scratch_dir("effort-bent");
    let layout = Layout { dir: dir.clone() };
    let md = over_three(&layout, &bent, 0.95, [0.01, 0.01]);
    let lmp = md.lines().find(|l| l.contains("| lmp ")).unwrap();
    assert!(
        lmp.contains("changes with effort, not along a line"),
        "{md}"
    );
    let fit = md
        .lines()
        .find(|l| l.starts_with("| without lmp "))
        .unwrap();
    assert!(fit.contains("92.2 (1)") && fit.contains("0.000"), "{md}");
    let straight = [
        row("lmp", 5000, 0.0, 10.0, stopped),
        row("lmp", 20000, -30.0, 10.0, stopped),
        row("lmp", 80000, -60.0, 10.0, stopped),
    ];
    let md = over_three(&layout, &straight, 0.95, [0.01, 0.01]);
    let lmp = md.lines().find(|l| l.contains("| lmp ")).unwrap();
    assert!(lmp.contains("grows with effort"), "{md}");
    std::fs::remove_dir_all(&dir).ok();
}
