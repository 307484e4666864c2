//! The match summary: W-D-L, Elo and normalized Elo with intervals, LOS, pentanomial counts,
//! SPRT state and the engines' faults.

use cutlab_analysis::{
    elo::{MatchStats, Pentanomial, Sprt},
    rows::GameRow,
};

use super::game::Ending;

/// The fastchess-style summary of a match from the first engine's view.
pub fn report(
    names: &[String; 2],
    rows: &[GameRow],
    penta: &Pentanomial,
    sprt: Option<&Sprt>,
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
        "\nResults of {} vs {} ({} games):\nElo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}\nLOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}\nGames: {}, Wins: {wins}, Losses: {losses}, Draws: {draws}, Points: {:.1} ({:.2} %)\nPtnml(0-2): [{}, {}, {}, {}, {}]\n",
        names[0],
        names[1],
        rows.len(),
        stats.elo,
        stats.elo_error,
        stats.nelo,
        stats.nelo_error,
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
        let llr = s.llr(penta);
        let verdict = match s.decision(llr) {
            Some(true) => "H1 accepted",
            Some(false) => "H0 accepted",
            None => "continue",
        };
        out.push_str(&format!(
            "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {verdict}\n",
            s.lower, s.upper, s.elo0, s.elo1
        ));
    }
    let restarts: u32 = rows.iter().map(|r| r.restarts).sum();
    let restarted = rows.iter().filter(|r| r.restarts > 0).count();
    out.push_str(&format!(
        "Time forfeits: {forfeits}, illegal moves: {illegal}, engine failures: {failures}, engine restarts: {restarts} (games continued after one: {restarted})\n"
    ));
    out
}
