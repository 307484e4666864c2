//! `cutlab match`: games between our variants (in process, each side its own engine and TT)
//! and external UCI or xboard engines, in game pairs (each opening twice, colours swapped),
//! with clocks, rule endings and optional adjudication; W/D/L, Elo with interval, LOS,
//! pentanomial counts, normalized Elo and SPRT as fastchess reports them; PGN and per-game CSV.

mod game;
mod outputs;
mod players;
mod turn;
mod xboard;

use std::{
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use clap::{Args, ValueEnum};
use cutlab_analysis::{
    elo::{Looks, Pentanomial, Sprt},
    rows::GameRow,
    tables::MatchSummary,
};

use crate::common::adjudication::Adjudication;
use game::play_game;
use outputs::Outputs;
use players::{EngineSpec, Player, check_control, parse_engine};
use turn::Control;

use crate::common::options::count_up_to;

/// The most games (or pairs) one match may ask for: a million games, months of play, and
/// a schedule that fits in memory (a larger count once aborted allocating it).
const MAX_GAMES: u64 = 1_000_000;

/// Options of `cutlab match`.
#[derive(Args, Debug, serde::Serialize)]
pub struct MatchArgs {
    /// An engine: `variant=NAME`, `uci=COMMAND` or `xboard=COMMAND` (CECP 2), then
    /// `option.NAME=VALUE`, `name=NAME`, (for a variant) `params=FILE` and (with `--nodes`)
    /// `nodes=N`, the engine's own nodes per move, words; a variant's one option is `Hash`
    /// (MiB, default 16). Give it twice; the first engine's view is reported.
    #[arg(long, num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// Openings: EPD/FEN or PGN (default: the 3,123 built-in openings, 8 random plies scored
    /// within ±60 cp).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Opening order.
    #[arg(long, value_enum, default_value_t = OpeningOrder::Sequential)]
    order: OpeningOrder,
    /// Seed of the random order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games to play (rounded up to pairs).
    #[arg(long, conflicts_with = "rounds", value_parser = count_up_to::<usize>(MAX_GAMES))]
    games: Option<usize>,
    /// Game pairs to play.
    #[arg(long, value_parser = count_up_to::<usize>(MAX_GAMES))]
    rounds: Option<usize>,
    /// Time control `SECONDS+INCREMENT`, e.g. `10+0.1`.
    #[arg(long, conflicts_with_all = ["nodes", "movetime_ms"], value_parser = crate::common::speed::time_control)]
    tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with = "movetime_ms", value_parser = count_up_to::<u64>(u64::MAX >> 1))]
    nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    #[arg(long, value_parser = count_up_to::<u64>(86_400_000))]
    movetime_ms: Option<u64>,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1, value_parser = count_up_to::<usize>(1024))]
    concurrency: usize,
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`: stop when the test decides (`nelo0=0,nelo1=5,...`:
    /// on normalized Elo, fishtest's default).
    #[arg(long, conflicts_with = "looks", value_parser = crate::common::match_report::sprt_spec)]
    sprt: Option<String>,
    /// Look at the match only after these game counts (e.g. `200,400,800,1600,2400`, the last
    /// is the most played), each look's interval widened for the number of looks
    /// (Bonferroni: 1 - 0.05/k); stop at the first look whose interval excludes 0 or is within
    /// `--stop-within`.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["games", "rounds", "shard"],
          value_parser = count_up_to::<u64>(2 * MAX_GAMES))]
    looks: Vec<u64>,
    /// The half-width (Elo) at which a look stops the match not decided (equivalent only when
    /// the whole interval lies inside ±this bound).
    #[arg(long, default_value_t = 15.0, requires = "looks")]
    stop_within: f64,
    /// PGN file to write, game pair by game pair (`--resume` appends to it).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Per-game CSV to write.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Per-move CSV of each mover's score (`game,ply,mover,score_cp`), on which `cutlab
    /// adjudicate` replays adjudication rules; resumed with `--out`.
    #[arg(long, requires = "out")]
    scores: Option<PathBuf>,
    /// Replace an existing `--pgn` (a match that is not resumed).
    #[arg(long)]
    force: bool,
    /// Draw adjudication `movenumber=40,movecount=8,score=10`.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication `movecount=3,score=600`.
    #[arg(long)]
    resign: Option<String>,
    /// Adjudicate a draw after this many moves (each side).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    maxmoves: Option<u32>,
    /// An engine that exits or stops answering before its clock runs out is started again and
    /// asked the same position (its clock runs on), up to this many times a game; past that the
    /// failure loses the game. 0 is cutechess-cli's rule: every failure loses.
    #[arg(long, default_value_t = 3)]
    restarts: u32,
    /// Continue an interrupted match in `--out`: the game pairs already there are kept and
    /// not replayed.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play the K-th of N shares of the game pairs (every N-th pair from the K-th); `cutlab
    /// merge` joins the shards' CSVs and `cutlab match-report` sums them up.
    #[arg(long)]
    shard: Option<crate::common::shard::Shard>,
}

/// The order openings are played in.
#[derive(Clone, Copy, Debug, ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum OpeningOrder {
    /// As in the file.
    Sequential,
    /// Shuffled with `--seed`.
    Random,
}

/// What every game pair of a match shares.
pub struct PairSetting<'a> {
    /// The two engines, to start them again after a failure.
    pub specs: &'a [EngineSpec; 2],
    /// Their names in the PGN and the report.
    pub names: [&'a str; 2],
    /// The openings, played in pairs.
    pub openings: &'a [(String, String)],
    /// What limits each move.
    pub control: Control,
    /// `--draw`, `--resign`, `--maxmoves`.
    pub adjudication: &'a Adjudication,
    /// Restarts of a failed engine allowed in one game (`--restarts`).
    pub restarts: u32,
}

impl PairSetting<'_> {
    /// What limits the moves of engine `k` (0 or 1): its own nodes per move (`nodes=`) in
    /// place of the match's, or the match's.
    #[must_use]
    pub fn control_of(&self, k: usize) -> Control {
        self.specs[k].nodes.map_or(self.control, Control::Nodes)
    }
}

/// A worker's two players.
fn start_players(specs: &[EngineSpec; 2]) -> Result<[Player; 2], String> {
    Ok([Player::start(&specs[0])?, Player::start(&specs[1])?])
}

/// Plays game pair `pair` (from 0): its opening with each engine White once.
fn play_pair(
    setting: &PairSetting<'_>,
    players: &mut [Player; 2],
    pair: usize,
) -> Result<[GameRow; 2], String> {
    let opening = &setting.openings[pair % setting.openings.len()];
    let mut play = |k: usize, first_is_white: bool| {
        // A crashed engine is restarted for the next game.
        for (player, spec) in players.iter_mut().zip(setting.specs) {
            if player.new_game().is_err() {
                *player = Player::start(spec)?;
            }
        }
        play_game(
            players,
            setting,
            first_is_white,
            opening,
            2 * pair + k + 1,
            pair + 1,
        )
    };
    Ok([play(0, true)?, play(1, false)?])
}

/// The two engines of `--engine`: each starts with its `variant=`, `uci=` or `xboard=` word,
/// and the words after it belong to it.
fn engine_specs(words: &[String]) -> Result<[EngineSpec; 2], String> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in words {
        let starts = ["variant=", "uci=", "cmd=", "xboard="]
            .iter()
            .any(|p| word.starts_with(p));
        match groups.last_mut() {
            Some(group) if !starts => group.push(word.clone()),
            _ => groups.push(vec![word.clone()]),
        }
    }
    let [first, second] = groups.as_slice() else {
        return Err(format!(
            "give exactly two engines (variant=..., uci=... or xboard=...), got {}",
            groups.len()
        ));
    };
    Ok([parse_engine(first)?, parse_engine(second)?])
}

/// What limits each move: `--tc`, `--nodes` or `--movetime-ms`.
fn control(args: &MatchArgs) -> Result<Control, String> {
    Ok(match (&args.tc, args.nodes, args.movetime_ms) {
        (Some(tc), _, _) => {
            let (base, inc) = crate::common::speed::parse_tc(tc)?;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "ms, within (0, 86,400,000]"
            )]
            Control::Clock {
                base_ms: (base * 1000.0) as u64,
                inc_ms: (inc * 1000.0) as u64,
            }
        }
        (None, Some(n), _) => Control::Nodes(n),
        (None, None, Some(ms)) => Control::Movetime(ms),
        (None, None, None) => return Err("give one of --tc, --nodes, --movetime-ms".into()),
    })
}

/// The openings as (id, FEN), in the order they are played (`--order random`: shuffled by
/// `--seed`), and their content's hash (a file changed under the same name is another book).
fn openings(args: &MatchArgs) -> Result<(Vec<(String, String)>, String), String> {
    let mut suite = match &args.openings {
        Some(path) => cutlab_suites::load(path, false).map_err(|e| e.to_string())?,
        None => cutlab_suites::openings(),
    };
    crate::common::options::without_terminal(&mut suite, "openings")?;
    let content = crate::common::configs::suite_content(&suite);
    let mut openings: Vec<(String, String)> = suite
        .positions
        .iter()
        .map(|p| (p.id.clone(), p.fen.clone()))
        .collect();
    if let OpeningOrder::Random = args.order {
        let mut state = args.seed;
        for i in (1..openings.len()).rev() {
            state = cutlab_instrument::csv_sink::splitmix64(state);
            openings.swap(i, usize::try_from(state % (i as u64 + 1)).unwrap_or(0));
        }
    }
    Ok((openings, content))
}

/// The pairs this process plays (from 0): its shard's, less those already in the output, and
/// none when a resumed match's SPRT decided on them.
fn pairs_to_play(
    args: &MatchArgs,
    pairs: usize,
    rows: &[GameRow],
    sprt: Option<&Sprt>,
) -> Vec<usize> {
    let all_pairs: Vec<usize> = (0..pairs).collect();
    let mine = crate::common::shard::shard(&all_pairs, args.shard);
    let done: std::collections::BTreeSet<usize> = rows.iter().map(|r| r.pair).collect();
    let beyond = done.iter().filter(|&&p| p > pairs).count();
    if beyond > 0 {
        eprintln!(
            "match: the output holds {} game pairs, {beyond} of them past the {pairs} asked \
             for; the summary counts every game it holds",
            done.len()
        );
    }
    let penta = MatchSummary::of(rows).map_or_else(Pentanomial::default, |s| s.pentanomial);
    let decided_earlier = sprt.is_some_and(|s| s.decision(s.llr(&penta)).is_some());
    let to_play: Vec<usize> = if decided_earlier {
        Vec::new()
    } else {
        mine.into_iter()
            .copied()
            .filter(|p| !done.contains(&(p + 1)))
            .collect()
    };
    if !rows.is_empty() {
        eprintln!(
            "match: {} game pairs already in the output, {} to play{}",
            done.len(),
            to_play.len(),
            if decided_earlier {
                " (the SPRT decided on them)"
            } else {
                ""
            }
        );
    }
    to_play
}

/// How a match stops: Wald's test, the looks, or neither.
struct Stopping {
    sprt: Option<Sprt>,
    looks: Option<Looks>,
}

/// Plays `to_play` (pairs from 0) on the shared runner, in stages: one without looks, one per
/// look with them, each played to its end before the look (the same pairs decide whatever the
/// concurrency). Each worker starts its two players once; a crashed engine is restarted for
/// the next game. Returns the pentanomial of every game and the looks' stop, if any.
fn play(
    (args, setting): (&MatchArgs, &PairSetting<'_>),
    stopping: &Stopping,
    (pairs, to_play): (usize, &[usize]),
    rows: &mut Vec<GameRow>,
    outputs: &mut Outputs<'_>,
) -> Result<(Pentanomial, Option<cutlab_analysis::elo::Stop>), String> {
    let mut penta = MatchSummary::of(rows).map_or_else(Pentanomial::default, |s| s.pentanomial);
    let bar = crate::common::progress::bar(to_play.len() as u64 * 2, "games");
    #[expect(clippy::cast_possible_truncation, reason = "at most 2 MAX_GAMES")]
    let stage_ends: Vec<usize> = stopping.looks.as_ref().map_or_else(
        || vec![pairs],
        |l| l.games().iter().map(|&g| g as usize / 2).collect(),
    );
    let mut stop = None;
    let mut start = 0;
    for end in stage_ends {
        let stage: Vec<usize> = to_play
            .iter()
            .copied()
            .filter(|p| (start..end).contains(p))
            .collect();
        start = end;
        let mut decided = false;
        crate::common::parallel::run_until(
            &stage,
            args.concurrency,
            || start_players(setting.specs),
            |players, &pair| play_pair(setting, players, pair),
            |played| {
                let games = played?;
                penta.add(games[0].first_engine_score, games[1].first_engine_score);
                outputs.write(&games)?;
                rows.extend(games);
                bar.inc(2);
                decided = stopping
                    .sprt
                    .is_some_and(|s| s.decision(s.llr(&penta)).is_some());
                Ok(if decided {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            },
        )?;
        stop = stopping.looks.as_ref().and_then(|l| l.stop(&penta));
        if let Some(why) = stop {
            eprintln!(
                "match: look at {} games: {}; stopped",
                2 * penta.pairs(),
                why.name()
            );
            break;
        }
        if decided {
            break;
        }
    }
    bar.finish_and_clear();
    Ok((penta, stop))
}

/// Runs `cutlab match`.
///
/// # Errors
/// A bad option or engine, an output that exists without `--resume` or `--force`, a resume
/// with other settings, or an engine that fails beyond its restarts.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let outputs: Vec<(&str, &Path)> = [
        ("--out", &args.out),
        ("--pgn", &args.pgn),
        ("--scores", &args.scores),
    ]
    .into_iter()
    .filter_map(|(option, path)| path.as_deref().map(|p| (option, p)))
    .collect();
    let inputs: Vec<(&str, &Path)> = args
        .openings
        .iter()
        .map(|p| ("--openings", p.as_path()))
        .collect();
    crate::common::results::distinct_outputs(&outputs, &inputs)?;
    let specs = engine_specs(&args.engine)?;
    let control = control(args)?;
    for spec in &specs {
        check_control(spec, control)?;
    }
    let (sprt, looks) = crate::common::match_report::stopping_rules(
        args.sprt.as_deref(),
        &args.looks,
        args.stop_within,
    )?;
    let adjudication =
        Adjudication::parse(args.draw.as_deref(), args.resign.as_deref(), args.maxmoves)?;
    let (openings, openings_content) = openings(args)?;
    #[expect(clippy::cast_possible_truncation, reason = "at most 2 MAX_GAMES")]
    let pairs = match &looks {
        Some(l) => l.games().last().map_or(0, |&g| g as usize / 2),
        None => args
            .rounds
            .or(args.games.map(|g| g.div_ceil(2)))
            .unwrap_or(openings.len().min(32)),
    };
    let names = [specs[0].name.clone(), specs[1].name.clone()];
    eprintln!(
        "match: {} vs {}, {pairs} game pairs, {control}",
        names[0], names[1]
    );
    // Resume: the pairs already in --out are kept (rows are written pair by pair).
    let mut rows: Vec<GameRow> = match &args.out {
        Some(path) => {
            let mut rows = crate::common::results::resume_rows(path, args.resume)?;
            // A pair's two rows are written together: a kill may have left one.
            crate::common::results::drop_partial_group(
                path,
                &mut rows,
                |r: &GameRow| r.pair,
                |pair| pair.len() < 2,
            )?;
            rows
        }
        None => Vec::new(),
    };
    let to_play = pairs_to_play(args, pairs, &rows, sprt.as_ref());
    let mut outputs = Outputs::open(args, (&specs, &openings_content), &rows)?;
    let setting = PairSetting {
        specs: &specs,
        names: [names[0].as_str(), names[1].as_str()],
        openings: &openings,
        control,
        adjudication: &adjudication,
        restarts: args.restarts,
    };
    let stopping = Stopping { sprt, looks };
    let (penta, stop) = play(
        (args, &setting),
        &stopping,
        (pairs, &to_play),
        &mut rows,
        &mut outputs,
    )?;
    rows.sort_by_key(|r| r.game);
    let rule = stopping.looks.as_ref().map(|l| (l, stop));
    print!(
        "{}",
        crate::common::match_report::report(&names, &rows, &penta, stopping.sprt.as_ref(), rule)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let e = parse_engine(&w("variant=null-move+mpc name=mpc")).unwrap();
        assert_eq!(e.name, "mpc");
        assert!(e.variant.is_some());
        let e = parse_engine(&w("uci=/usr/games/stockfish option.UCI_Elo=2000")).unwrap();
        assert_eq!((e.name.as_str(), e.options.len()), ("stockfish", 1));
        assert!(parse_engine(&w("variant=null-move uci=x")).is_err());
        assert!(parse_engine(&w("speed=3")).is_err());
        let e = parse_engine(&w("variant=null-move option.Hash=64")).unwrap();
        assert_eq!(e.hash_mib, 64);
        assert!(parse_engine(&w("variant=null-move option.Threads=2")).is_err());
        assert!(parse_engine(&w("variant=null-move option.Hash=0")).is_err());
        assert!(
            crate::common::options::parse_kv(
                "elo0=0,elo1=5,alpha=0.05",
                "sprt",
                &["elo0", "elo1", "alpha", "beta"]
            )
            .is_err()
        );
    }
}
