//! The match summary: W-D-L, Elo and normalized Elo with intervals, LOS, pentanomial counts,
//! SPRT state and the engines' faults; and the stopping rules it reports on (`--sprt`,
//! `--looks`), for `cutlab match` and `cutlab match-report` alike.

use cutlab_analysis::{
    elo::{Looks, MatchStats, Pentanomial, Sprt, Stop},
    rows::GameRow,
};

use crate::common::adjudication::Ending;

/// `--sprt`'s value parser: the test's four numbers checked where they are parsed, the text
/// kept as written.
///
/// # Errors
/// A missing or unknown key, a value that is not a number, or bounds Wald's test refuses.
pub fn sprt_spec(text: &str) -> Result<String, String> {
    parse_sprt(text)?;
    Ok(text.to_string())
}

/// Wald's test of `--sprt`'s text: logistic bounds `elo0`, `elo1`, or normalized ones
/// `nelo0`, `nelo1` (fishtest's default).
fn parse_sprt(text: &str) -> Result<Sprt, String> {
    if text.contains("nelo0") || text.contains("nelo1") {
        let v =
            crate::common::options::parse_kv(text, "sprt", &["nelo0", "nelo1", "alpha", "beta"])?;
        Sprt::normalized(v[0], v[1], v[2], v[3])
    } else {
        let v = crate::common::options::parse_kv(text, "sprt", &["elo0", "elo1", "alpha", "beta"])?;
        Sprt::new(v[0], v[1], v[2], v[3])
    }
}

/// The stopping rules of a match: Wald's test of `--sprt`, the looks of `--looks` with their
/// `--stop-within` bound.
///
/// # Errors
/// An SPRT or looks that cannot be.
pub fn stopping_rules(
    sprt: Option<&str>,
    looks: &[u64],
    stop_within: f64,
) -> Result<(Option<Sprt>, Option<Looks>), String> {
    let sprt = sprt.map(parse_sprt).transpose()?;
    let looks = if looks.is_empty() {
        None
    } else {
        Some(Looks::new(looks.to_vec(), stop_within)?)
    };
    Ok((sprt, looks))
}

/// Half-width text: the number, or "too few games" where no interval is valid.
fn half_width(error: f64) -> String {
    if error.is_finite() {
        format!("{error:.2}")
    } else {
        "(too few games)".to_string()
    }
}

/// A number, or `-` where it is undefined (normalized Elo without variance).
fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "-".to_string()
    }
}

/// The fastchess-style summary of a match from the first engine's view; with looks, a line
/// with the rule's interval and why the match stopped (`None`: it has not).
pub fn report(
    names: &[String; 2],
    rows: &[GameRow],
    penta: &Pentanomial,
    sprt: Option<&Sprt>,
    looks: Option<(&Looks, Option<Stop>)>,
) -> String {
    let wins = rows.iter().filter(|r| r.first_engine_score == 1.0).count();
    let losses = rows.iter().filter(|r| r.first_engine_score == 0.0).count();
    let draws = rows.len() - wins - losses;
    let stats = MatchStats::from_pentanomial(penta);
    let [forfeits, illegal, failures] =
        Ending::FAULTS.map(|e| rows.iter().filter(|r| r.termination == e.name()).count());
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let draw_ratio = 100.0 * draws as f64 / rows.len().max(1) as f64;
    let mut out = format!(
        "\nResults of {} vs {} ({} games):\nElo: {:.2} +/- {}, nElo: {} +/- {}\nLOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}\nGames: {}, Wins: {wins}, Losses: {losses}, Draws: {draws}, Points: {:.1} ({:.2} %)\nPtnml(0-2): [{}, {}, {}, {}, {}]\n",
        names[0],
        names[1],
        rows.len(),
        stats.elo,
        half_width(stats.elo_error),
        number(stats.nelo),
        half_width(stats.nelo_error),
        100.0 * stats.los,
        draw_ratio,
        (penta.wd + penta.ww) as f64 / (penta.ld + penta.ll).max(1) as f64,
        rows.len(),
        wins as f64 + 0.5 * draws as f64,
        100.0 * stats.score,
        penta.ll,
        penta.ld,
        penta.wl_dd,
        penta.wd,
        penta.ww
    );
    if let Some(s) = sprt {
        out.push_str(&sprt_line(s, penta));
    }
    if let Some((l, stop)) = looks {
        out.push_str(&looks_line(l, stop, penta));
    }
    let restarts: u32 = rows.iter().map(|r| r.restarts).sum();
    let restarted = rows.iter().filter(|r| r.restarts > 0).count();
    out.push_str(&format!(
        "Time forfeits: {forfeits}, illegal moves: {illegal}, engine failures: {failures}, engine restarts: {restarts} (games continued after one: {restarted})\n"
    ));
    out
}

/// The SPRT's line: its log-likelihood ratio, bounds, hypotheses and decision.
fn sprt_line(s: &Sprt, penta: &Pentanomial) -> String {
    let llr = s.llr(penta);
    let verdict = match s.decision(llr) {
        Some(true) => "H1 accepted",
        Some(false) => "H0 accepted",
        None => "continue",
    };
    let scale = match s.scale {
        cutlab_analysis::elo::EloScale::Logistic => "",
        cutlab_analysis::elo::EloScale::Normalized => " nElo",
    };
    format!(
        "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]{scale} {verdict}\n",
        s.lower, s.upper, s.elo0, s.elo1
    )
}

/// The looks' line: where the rule looks, its intervals, and the estimate it stands at.
fn looks_line(l: &Looks, stop: Option<Stop>, penta: &Pentanomial) -> String {
    let s = l.stats(penta);
    let games: Vec<String> = l.games().iter().map(u64::to_string).collect();
    let state = stop.map_or("not stopped yet", Stop::name);
    format!(
        "Looks at {} games, {:.1}% intervals (Bonferroni over {}), stop within +/- {}: Elo {:.2} +/- {} at {} games, {state}\n",
        games.join(", "),
        100.0 * l.confidence(),
        l.games().len(),
        l.bound_elo(),
        s.elo,
        half_width(s.elo_error),
        2 * penta.pairs(),
    )
}
