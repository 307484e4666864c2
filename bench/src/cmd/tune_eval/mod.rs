//! `cutlab tune-eval`: the evaluation's weights fitted to game results by Texel's method, from
//! positions the user gives (EPD with the result in `c9`, or PGN games); writes the engine's
//! weights file, the loss per epoch and the configuration.

mod normal_form;
mod samples;
mod texel;
mod weights_file;

use std::{fs, path::PathBuf};

use clap::Args;
use cutlab_instrument::csv_sink::splitmix64;
use cutlab_search::eval::{
    layout::{COUNT, SECTIONS},
    weights::WEIGHTS,
};
use cutlab_suites::PgnSampling;
use serde::Serialize;

use crate::common::progress;
use samples::Sample;
use texel::{Adam, Schedule};

/// Options of `cutlab tune-eval`.
#[derive(Args, Debug, Serialize)]
pub struct TuneEvalArgs {
    /// Positions with game results: EPD/FEN lines with `c9 "1-0"` (or `0-1`, `1/2-1/2`), or a
    /// PGN file whose games have a Result tag (positions sampled from each game).
    positions: PathBuf,
    /// PGN only: positions sampled per game.
    #[arg(long, default_value_t = 8)]
    per_game: usize,
    /// PGN only: first ply that may be sampled.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// Full passes over the training positions.
    #[arg(long, default_value_t = 3000)]
    epochs: usize,
    /// Adam's step size, centipawns.
    #[arg(long, default_value_t = 1.0, value_parser = crate::common::options::positive)]
    learning_rate: f64,
    /// Share of the positions held out to measure the fit (validation loss).
    #[arg(long, default_value_t = 0.1)]
    validation_share: f64,
    /// Seed of the validation split and of the PGN sampling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Sections to tune, comma-separated (e.g. `PSQT,KING_ATTACK`; default: all).
    #[arg(long)]
    sections: Option<String>,
    /// Weights whose feature occurs in fewer training positions than this keep their start
    /// value (a rare feature's weight would fit the few games it appears in).
    #[arg(long, default_value_t = 200)]
    min_positions: usize,
    /// Ridge penalty per weight, `L2 x (w - w_start)^2` added to the loss (MSE units per cp²):
    /// a weight the positions say little about stays near its start.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 1, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Skip malformed position lines instead of stopping.
    #[arg(long)]
    skip_invalid: bool,
    /// Output directory: `weights.rs`, `loss.csv`, `tune-eval.toml`.
    #[arg(long, default_value = "tune-eval")]
    out: PathBuf,
    /// Replace the files of `--out` when they exist.
    #[arg(long)]
    force: bool,
}

/// One row of `loss.csv`.
#[derive(Serialize)]
struct LossRow {
    epoch: usize,
    train_mse: f64,
    validation_mse: f64,
}

/// Which weights move: those of the named sections, or all.
fn tuned_mask(sections: Option<&str>) -> Result<Vec<bool>, String> {
    let Some(list) = sections else {
        return Ok(vec![true; COUNT]);
    };
    let mut mask = vec![false; COUNT];
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let section = SECTIONS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let known: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
                format!(
                    "--sections: unknown section '{name}' (known: {})",
                    known.join(", ")
                )
            })?;
        mask[section.offset..section.offset + section.len].fill(true);
    }
    Ok(mask)
}

/// Stops tuning the weights of features that occur in fewer than `min` of `samples`; returns
/// how many were stopped.
fn freeze_rare(tuned: &mut [bool], samples: &[Sample], min: usize) -> usize {
    let mut occurrences = vec![0_usize; tuned.len()];
    for sample in samples {
        for &(index, _) in &sample.features {
            occurrences[usize::from(index)] += 1;
        }
    }
    let mut frozen = 0;
    for (t, &n) in tuned.iter_mut().zip(&occurrences) {
        if *t && n < min {
            *t = false;
            frozen += 1;
        }
    }
    frozen
}

fn load_positions(args: &TuneEvalArgs) -> Result<cutlab_suites::Suite, String> {
    let is_pgn = args
        .positions
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let suite = if is_pgn {
        let sampling = PgnSampling {
            min_ply: args.min_ply,
            max_ply: u32::MAX,
            per_game: args.per_game,
            seed: args.seed,
        };
        cutlab_suites::load_pgn(&args.positions, sampling, args.skip_invalid)
    } else {
        cutlab_suites::load(&args.positions, args.skip_invalid)
    };
    suite.map_err(|e| e.to_string())
}

/// Splits `samples` into (train, validation) by a seeded hash of each one's game, so that no
/// game has positions on both sides.
fn split(samples: Vec<Sample>, share: f64, seed: u64) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for sample in samples {
        let draw = splitmix64(seed ^ sample.game) % 1_000_000;
        if (draw as f64) < share * 1_000_000.0 {
            validation.push(sample);
        } else {
            train.push(sample);
        }
    }
    (train, validation)
}

/// Runs the tuning.
pub fn run(args: &TuneEvalArgs) -> Result<(), String> {
    check_options(args)?;
    let tuned = tuned_mask(args.sections.as_deref())?;
    let suite = load_positions(args)?;
    let (samples, counts) = samples::load(&suite)?;
    if samples.is_empty() {
        return Err(format!("{}: no quiet position with a result", suite.source));
    }
    let (train, validation) = split(samples, args.validation_share, args.seed);
    let mut tuned = tuned;
    let rare = freeze_rare(&mut tuned, &train, args.min_positions);
    let start: Vec<[f64; 2]> = WEIGHTS
        .iter()
        .map(|w| [f64::from(w.0), f64::from(w.1)])
        .collect();
    let k = texel::fit_k(&train, &start);
    let before = losses((&train, &validation), &start, k);
    println!(
        "{}: {} positions, {} kept ({} in check, {} not quiet dropped): {} train, {} validation",
        suite.source,
        counts.read,
        train.len() + validation.len(),
        counts.in_check,
        counts.not_quiet,
        train.len(),
        validation.len()
    );
    println!(
        "{} weights tuned, {rare} kept at their start value (feature in fewer than {} positions)",
        tuned.iter().filter(|&&t| t).count(),
        args.min_positions
    );
    println!(
        "K = {k:.4}; start MSE train {:.6}, validation {:.6}",
        before.0, before.1
    );

    fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let loss_path = args.out.join("loss.csv");
    let weights = descent(args, (&train, &validation), (&start, &tuned), k, &loss_path)?;
    let after = losses((&train, &validation), &weights, k);

    let fit = [
        format!(
            "on {} positions of {} ({} quiet with results: {} to train, {} held out), K = {k:.4}:",
            counts.read,
            suite.source,
            train.len() + validation.len(),
            train.len(),
            validation.len()
        ),
        format!(
            "mean squared error train {:.6} -> {:.6}, held out {:.6} -> {:.6}.",
            before.0, after.0, before.1, after.1
        ),
    ];
    let (weights_path, config_path) = write_weights(args, &weights, k, &fit)?;
    println!(
        "after {} epochs: MSE train {:.6} -> {:.6}, validation {:.6} -> {:.6} ({})",
        args.epochs,
        before.0,
        after.0,
        before.1,
        after.1,
        if after.1 < before.1 {
            "the held-out positions are fitted better"
        } else {
            "no gain on the held-out positions: overfitted or already tuned"
        }
    );
    println!(
        "wrote {}, {} and {}; copy weights.rs to search/src/eval/weights.rs and rebuild",
        weights_path.display(),
        loss_path.display(),
        config_path.display()
    );
    Ok(())
}

/// Refuses outputs that exist (without `--force`) and a validation share outside [0, 1),
/// before anything is read.
fn check_options(args: &TuneEvalArgs) -> Result<(), String> {
    for file in ["weights.rs", "loss.csv", "tune-eval.toml"] {
        crate::common::results::new_output(
            &args.out.join(file),
            "--out",
            args.force,
            &[&args.positions],
        )?;
    }
    if !(0.0..1.0).contains(&args.validation_share) {
        return Err("--validation-share must be in [0, 1)".to_string());
    }
    Ok(())
}

/// The mean squared errors of `weights` on the training and the held-out samples.
fn losses((train, validation): (&[Sample], &[Sample]), weights: &[[f64; 2]], k: f64) -> (f64, f64) {
    (
        texel::loss(train, weights, k),
        texel::loss(validation, weights, k),
    )
}

/// Gradient descent from `start` on the `tuned` weights, the loss of both sets written every
/// 50 epochs to `loss_path`; returns the weights in their normal form.
fn descent(
    args: &TuneEvalArgs,
    (train, validation): (&[Sample], &[Sample]),
    (start, tuned): (&[[f64; 2]], &[bool]),
    k: f64,
    loss_path: &std::path::Path,
) -> Result<Vec<[f64; 2]>, String> {
    let mut loss_csv =
        csv::Writer::from_path(loss_path).map_err(|e| format!("{}: {e}", loss_path.display()))?;
    let write_row = |csv: &mut csv::Writer<fs::File>, epoch, weights: &[[f64; 2]]| {
        let row = LossRow {
            epoch,
            train_mse: texel::loss(train, weights, k),
            validation_mse: texel::loss(validation, weights, k),
        };
        crate::common::results::write_rows(csv, loss_path, [row])
    };
    write_row(&mut loss_csv, 0, start)?;
    let mut weights = start.to_vec();
    let bar = progress::bar(args.epochs as u64, "epochs");
    let mut written = Ok(());
    let schedule = Schedule {
        k,
        epochs: args.epochs,
        adam: Adam {
            learning_rate: args.learning_rate,
            ..Adam::default()
        },
        threads: args.threads,
        l2: args.l2,
    };
    texel::tune(train, &mut weights, tuned, schedule, |epoch, w| {
        bar.inc(1);
        if (epoch % 50 == 0 || epoch == args.epochs) && written.is_ok() {
            written = write_row(&mut loss_csv, epoch, w);
        }
    });
    bar.finish_and_clear();
    written?;
    normal_form::normalise(&mut weights);
    Ok(weights)
}

/// Writes `weights.rs` (the weights, under the command and `fit`'s lines) and
/// `tune-eval.toml` (the command, K and the options); returns their paths.
fn write_weights(
    args: &TuneEvalArgs,
    weights: &[[f64; 2]],
    k: f64,
    fit: &[String],
) -> Result<(PathBuf, PathBuf), String> {
    let command = std::iter::once("cutlab".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let provenance: Vec<String> = std::iter::once(format!("`{command}`"))
        .chain(fit.iter().cloned())
        .collect();
    let weights_path = args.out.join("weights.rs");
    fs::write(&weights_path, weights_file::render(weights, &provenance))
        .map_err(|e| format!("{}: {e}", weights_path.display()))?;
    let config_path = args.out.join("tune-eval.toml");
    let config = toml::to_string(&args).map_err(|e| format!("configuration: {e}"))?;
    fs::write(
        &config_path,
        format!("command = {command:?}\nk = {k}\n{config}"),
    )
    .map_err(|e| format!("{}: {e}", config_path.display()))?;
    Ok((weights_path, config_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_name_what_is_tuned() {
        let mask = tuned_mask(Some("tempo, BISHOP_PAIR")).unwrap();
        assert_eq!(mask.iter().filter(|&&t| t).count(), 2);
        let err = tuned_mask(Some("PSQT,KINGS")).unwrap_err();
        assert!(err.contains("unknown section 'KINGS'"), "{err}");
        assert!(tuned_mask(None).unwrap().iter().all(|&t| t));
    }

    #[test]
    fn rare_features_keep_their_weights() {
        let sample = |features| Sample {
            features,
            phase: 24,
            result: 1.0,
            game: 0,
        };
        let samples = [sample(vec![(0, 1), (1, 2)]), sample(vec![(0, -1)])];
        let mut tuned = vec![true, true, true, false];
        assert_eq!(freeze_rare(&mut tuned, &samples, 2), 2);
        assert_eq!(tuned, [true, false, false, false]);
    }

    #[test]
    fn the_split_is_seeded_and_near_its_share() {
        // 1000 games of two positions each.
        let samples: Vec<Sample> = (0..2000)
            .map(|i| Sample {
                features: vec![(0, 1)],
                phase: i % 25,
                result: 0.5,
                game: i as u64 / 2,
            })
            .collect();
        let (train, validation) = split(samples.clone(), 0.1, 7);
        assert!(
            (150..250).contains(&validation.len()),
            "{}",
            validation.len()
        );
        assert_eq!(train.len() + validation.len(), 2000);
        assert_eq!(split(samples, 0.1, 7).1, validation);
        for held_out in &validation {
            assert!(train.iter().all(|t| t.game != held_out.game));
        }
    }
}
