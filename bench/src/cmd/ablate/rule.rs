//! What the stopping rule does to a run's numbers, simulated on its own pairs
//! ([`sequential`]): the coverage of the printed intervals after a stop, the size a stop reads
//! and the size adjusted for its look, and how many verdicts and trends come by chance.

use cutlab_analysis::{
    elo::{Looks, Verdict},
    markdown::Table,
    multiplicity, sequential,
};

use super::{played::Status, row::AblationRow};

/// The pairs of the stopped matches of `rows` pooled as a distribution of no effect, and how
/// many pairs ([`sequential::no_effect_of`]).
fn pooled(rows: &[AblationRow]) -> Option<([f64; 5], u64)> {
    pooled_of(rows.iter())
}

fn pooled_of<'a>(rows: impl Iterator<Item = &'a AblationRow>) -> Option<([f64; 5], u64)> {
    sequential::no_effect_of(rows.filter(|r| r.stopped()).map(|r| &r.pentanomial))
}

/// Gives each row that a look stopped decided before the last (the stops that select large
/// estimates) its Elo adjusted for that look ([`sequential::stage_adjusted`]), simulated on the
/// pooled pairs of every stopped match.
pub fn adjust<'a>(rows: impl Iterator<Item = &'a mut AblationRow>, looks: &Looks, seed: u64) {
    let mut rows: Vec<&mut AblationRow> = rows.collect();
    let Some((base, _)) = pooled_of(rows.iter().map(|r| &**r)) else {
        return;
    };
    let last = looks.games().last().copied().unwrap_or(0);
    for r in rows
        .iter_mut()
        .filter(|r| r.status == Status::Stopped(Verdict::Decided) && (r.games as u64) < last)
    {
        if let Some(e) = r.delta_elo {
            let games = r.games as u64;
            r.adjusted_elo = Some(sequential::stage_adjusted(
                looks,
                base,
                (e.value, games),
                (sequential::adjusting_matches(games), seed),
            ));
        }
    }
}

/// The share of comparisons of one true worth, a match at each of `efforts`, whose worths read
/// as a trend under the rule, at the worst of [`sequential::TRUE_ELOS`]: the by-chance rate
/// of a trend with effort (the nominal `1 - confidence` where nothing has stopped yet).
pub fn false_trend_rate(rows: &[AblationRow], looks: &Looks, efforts: &[u64], seed: u64) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "node counts")]
    let xs: Vec<f64> = efforts.iter().map(|&n| (n as f64).log2()).collect();
    pooled(rows).map_or(1.0 - looks.confidence(), |(base, _)| {
        sequential::worst_false_trend_rate(
            looks,
            base,
            &sequential::TRUE_ELOS,
            &xs,
            (sequential::MATCHES, seed),
        )
    })
}

/// What the stopping rule does to the numbers it prints, simulated on this run's own pairs
/// (their pooled pentanomial tilted to each true Elo, [`sequential::simulate`] of the exact
/// rule): the coverage of the printed intervals after a stop, the size at the stop and at the
/// first look, and the verdicts a method of no effect gets by chance. `None` before any
/// match has stopped.
pub fn section(rows: &[AblationRow], looks: &Looks, seed: u64) -> Option<String> {
    let done: Vec<&AblationRow> = rows.iter().filter(|r| r.stopped()).collect();
    let (base, total) = pooled(rows)?;
    let confidence = cutlab_analysis::markdown::level(looks.confidence());
    let mut t = Table::new(&[
        ">true Elo",
        &format!(">covered by the {confidence} interval"),
        ">mean Elo at the stop",
        ">its RMSE",
        ">mean Elo if stopped at the first look",
        ">decided",
        ">stopped narrow",
        ">at the last look",
    ]);
    let mut no_effect = None;
    for elo in sequential::TRUE_ELOS {
        let sim = sequential::simulate(
            looks,
            sequential::tilted(base, elo),
            sequential::MATCHES,
            seed,
        );
        // A quantity the simulation cannot give (a tiny run's routs: every simulated match
        // scoring 0 or 1 has no finite Elo) is a dash, never `NaN`.
        let finite = |x: f64, text: String| if x.is_finite() { text } else { "-".to_string() };
        let percent = |x: f64| finite(x, format!("{:.1}%", 100.0 * x));
        let elo_cell = |e: f64| finite(e, format!("{e:+.1}"));
        t.row(vec![
            format!("{elo:+.0}"),
            percent(sim.coverage),
            elo_cell(sim.mean_elo),
            finite(sim.rmse, format!("{:.1}", sim.rmse)),
            sim.mean_elo_first_look
                .map_or_else(|| "-".to_string(), elo_cell),
            percent(sim.stops[0]),
            percent(sim.stops[1]),
            percent(sim.stops[2]),
        ]);
        no_effect.get_or_insert(sim);
    }
    let sim = no_effect?;
    let decided = done
        .iter()
        .filter(|r| r.status == Status::Stopped(Verdict::Decided))
        .count();
    Some(format!(
        "\n## What the rule does to its numbers\n\nThe stopping rule simulated on this run's \
         own pairs ({total} pairs of its {} stopped matches pooled, tilted to each true Elo; \
         {} matches a row, seed {seed}; `analysis::sequential`). With no \
         effect the intervals printed at {confidence} cover {:.1}% of the time, and a match \
         reads decided {:.1}% of the time: of the {} matches stopped, {decided} are decided \
         on their own (*The family's verdicts* below says which stand over the whole family). A \
         match stopped at its first look reads larger than its true worth (the fifth column; \
         the third and fourth give the estimate at the stop, its mean and its root mean square \
         error about the true Elo), \
         so a size decided at {first} games is to be replayed before it is built on (`cutlab \
         replay`). The tables' \
         *adjusted* column gives each match decided before its last look the size that look \
         does not inflate: the true Elo whose mean estimate among the simulated matches that \
         stop at the same look is the one read (the conditional mean-adjusted estimate of Fan, \
         DeMets and Lan 2004, `sequential::stage_adjusted`; a later look pulls the other way, \
         as a match that reaches it read small at the earlier ones). It has no interval of its \
         own and varies much from match to match: a replay with another seed is the stronger \
         check.\n\n\
         {}\n",
        done.len(),
        sequential::MATCHES,
        100.0 * sim.coverage,
        100.0 * sim.stops[0],
        done.len(),
        t.render(),
        first = looks.games().first().copied().unwrap_or_default(),
    ))
}

/// The family's verdicts: each stopped match's p-value (two-sided, from its last look's
/// interval, times its looks: below 5% exactly when its printed interval excludes 0; a rout's
/// 0), and which decided matches stand under Holm's and Benjamini and Hochberg's controls at
/// 5% over every match stopped with an estimate ([`multiplicity`]). `None` before any match
/// has stopped with one.
pub fn family_section(rows: &[AblationRow], looks: &Looks) -> Option<String> {
    let tested: Vec<(&AblationRow, f64)> = rows
        .iter()
        .filter(|r| r.stopped() && !r.inactive())
        .filter_map(|r| {
            let p = match (r.delta_elo, r.elo_rout) {
                (Some(e), _) => multiplicity::looks_p_value(
                    e.value,
                    e.low,
                    e.high,
                    looks.confidence(),
                    looks.games().len(),
                ),
                (None, Some(_)) => 0.0,
                (None, None) => return None,
            };
            Some((r, p))
        })
        .collect();
    if tested.is_empty() {
        return None;
    }
    let p: Vec<f64> = tested.iter().map(|t| t.1).collect();
    let (holm, bh) = (
        multiplicity::holm(&p, Looks::ERROR),
        multiplicity::benjamini_hochberg(&p, Looks::ERROR),
    );
    let decided: Vec<usize> = (0..tested.len())
        .filter(|&i| tested[i].0.status == Status::Stopped(Verdict::Decided))
        .collect();
    let label = |i: usize| {
        let r = tested[i].0;
        format!(
            "{} at {} nodes (p = {:.3})",
            r.direction.label(&r.method),
            r.effort_nodes,
            p[i]
        )
    };
    let fallen = |kept: &[bool]| {
        let names: Vec<String> = decided
            .iter()
            .filter(|&&i| !kept[i])
            .map(|&i| label(i))
            .collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join("; ")
        }
    };
    let count = |kept: &[bool]| decided.iter().filter(|&&i| kept[i]).count();
    Some(format!(
        "\n## The family's verdicts\n\nEach match's verdict holds at 95% on its own, over its \
         looks. Over the family of the {m} matches stopped with an estimate, each has a \
         p-value (two-sided, from its last look's interval, times its {k} looks: below 5% \
         exactly when that interval excludes 0; a rout's is 0), and two controls at 5% say \
         which verdicts stand together (`analysis::multiplicity`). **Holm's** step-down \
         procedure, under which the chance of any false verdict among the {m} is at most 5%, \
         keeps {holm_kept} of the {d} decided; **Benjamini and Hochberg's** step-up procedure, \
         under which false verdicts are at most 5% of the verdicts made (in expectation, for \
         independent matches), keeps {bh_kept}.\n\n\
         - Decided alone, not under Holm's control: {holm_fallen}.\n\
         - Decided alone, not under Benjamini and Hochberg's: {bh_fallen}.\n",
        m = tested.len(),
        k = looks.games().len(),
        d = decided.len(),
        holm_kept = count(&holm),
        bh_kept = count(&bh),
        holm_fallen = fallen(&holm),
        bh_fallen = fallen(&bh),
    ))
}
