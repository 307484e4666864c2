//! `cutlab train`: the network from `cutlab datagen`'s positions. Sparse inputs (a position's
//! 2 × 32 features at most), the sigmoid of the output against a blend of the game result and
//! the search score (`--wdl` of the result), Adam with the weights clipped to ±1.98, the
//! positions shuffled every epoch (seeded), whole games held apart for the validation loss,
//! a checkpoint after every epoch (`--resume` continues from it), and the network quantised
//! into the engine's layout at the end (`net.nnue`, with its record: the command, the data
//! and the commit that generated it).

mod data;
pub mod model;

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    time::Instant,
};

use clap::Args;
use serde::Serialize;

use crate::common::progress;
use cutlab_instrument::csv_sink::splitmix64;
use model::{Model, PARAMS};

/// Options of `cutlab train`.
#[derive(Args, Debug, Serialize)]
pub struct TrainArgs {
    /// Datagen directories (or their `data.bin` files).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20, value_parser = crate::common::options::count_up_to::<u32>(100_000))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384, value_parser = crate::common::options::count_up_to::<usize>(1 << 24))]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001, value_parser = crate::common::options::learning_rate)]
    learning_rate: f64,
    /// The epoch from which the learning rate is a tenth (a schedule that does not depend on
    /// `--epochs`, so that a run resumed with more epochs extends the one it continues).
    #[arg(long, default_value_t = 15, value_parser = crate::common::options::count_up_to::<u32>(100_000))]
    drop_epoch: u32,
    /// Share of the target taken from the game result (the rest from the search score).
    #[arg(long, default_value_t = 0.3)]
    wdl: f64,
    /// Share of the games held apart for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    /// Show each training position mirrored left to right (files a and h swapped) in a
    /// seeded half of the epochs: the features hold no castling rights, so a position and its
    /// mirror have the same evaluation, and the data counts twice.
    #[arg(long)]
    mirror: bool,
    /// Seed of the initial weights, the validation games, the shuffles and the mirrors.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 1, value_parser = crate::common::options::threads)]
    threads: usize,
    /// Output directory: `net.nnue`, `loss.csv`, `checkpoint.bin`, `train.config.toml`.
    #[arg(long, default_value = "train")]
    out: PathBuf,
    /// Continue from `checkpoint.bin` in `--out`.
    #[arg(long)]
    resume: bool,
    /// Multiply the network's output by this when quantising it (its output weights and
    /// bias): the centipawn scale the search's margins see. A finished run resumed with
    /// another scale is quantised again without training.
    #[arg(long, default_value_t = 1.0, value_parser = output_scale)]
    output_scale: f64,
}

/// The largest `--output-scale`: the output layer's weights, quantised to 16 bits, hold the
/// trained ones times at most about this before they saturate.
const MAX_OUTPUT_SCALE: f64 = 16.0;

/// `--output-scale`'s value parser: a positive number up to [`MAX_OUTPUT_SCALE`], checked
/// before any training.
fn output_scale(text: &str) -> Result<f64, String> {
    let scale = crate::common::options::positive(text)?;
    if scale > MAX_OUTPUT_SCALE {
        return Err(format!(
            "{text} is above {MAX_OUTPUT_SCALE}: the quantised output weights would saturate"
        ));
    }
    Ok(scale)
}

/// A row of `loss.csv`.
#[derive(Debug, Default, Serialize, serde::Deserialize)]
struct LossRow {
    epoch: u32,
    learning_rate: f64,
    train_loss: f64,
    validation_loss: f64,
    seconds: f64,
}

/// Adam's state (Kingma and Ba 2015, algorithm 1).
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: u32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn step(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.t += 1;
        let t = i32::try_from(self.t).unwrap_or(i32::MAX);
        let (c1, c2) = (1.0 - Self::BETA1.powi(t), 1.0 - Self::BETA2.powi(t));
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
    }
}

/// The checkpoint: the epochs done, the parameters and Adam's state, little-endian.
fn save_checkpoint(path: &Path, epoch: u32, model: &Model, adam: &Adam) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(12 + 12 * PARAMS);
    bytes.extend(epoch.to_le_bytes());
    bytes.extend(adam.t.to_le_bytes());
    for x in model.params.iter().chain(&adam.m).chain(&adam.v) {
        bytes.extend(x.to_le_bytes());
    }
    crate::common::results::write_whole(path, bytes)
}

fn load_checkpoint(path: &Path) -> Result<(u32, Model, Adam), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() != 8 + 12 * PARAMS {
        return Err(format!(
            "{}: not a checkpoint of this network",
            path.display()
        ));
    }
    let word = |i: usize| [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]];
    let floats = |part: usize| -> Vec<f32> {
        (0..PARAMS)
            .map(|i| f32::from_le_bytes(word(8 + 4 * (part * PARAMS + i))))
            .collect()
    };
    Ok((
        u32::from_le_bytes(word(0)),
        Model { params: floats(0) },
        Adam {
            m: floats(1),
            v: floats(2),
            t: u32::from_le_bytes(word(4)),
        },
    ))
}

/// The mean loss over `positions`, spread over `threads`.
fn mean_loss(model: &Model, positions: &data::Positions, wdl: f32, threads: usize) -> f64 {
    if positions.len() == 0 {
        return f64::NAN;
    }
    let chunk = positions.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..positions.len())
            .step_by(chunk)
            .map(|start| {
                scope.spawn(move || {
                    (start..(start + chunk).min(positions.len()))
                        .map(|i| {
                            f64::from(model.loss(&positions.features[i], positions.target(i, wdl)))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let n = positions.len() as f64;
    total / n
}

/// One gradient step on the positions `batch` (indices into `train`), each mirrored where
/// `mirror` (the epoch's stream) says; returns their loss sum.
fn step(
    model: &mut Model,
    adam: &mut Adam,
    train: &data::Positions,
    batch: &[usize],
    (wdl, rate, threads, mirror): (f32, f32, usize, Option<u64>),
) -> f64 {
    let chunk = batch.len().div_ceil(threads);
    let model_ref = &*model;
    let parts: Vec<(Vec<f32>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut gradient = vec![0.0_f32; PARAMS];
                    let loss: f64 = part
                        .iter()
                        .map(|&i| {
                            let features = &train.features[i];
                            let features = match mirror {
                                Some(stream) if splitmix64(stream ^ i as u64) & 1 == 1 => {
                                    &model::mirrored(features)
                                }
                                _ => features,
                            };
                            f64::from(model_ref.backward(
                                features,
                                train.target(i, wdl),
                                &mut gradient,
                            ))
                        })
                        .sum();
                    (gradient, loss)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut gradient = vec![0.0_f32; PARAMS];
    let mut loss = 0.0;
    for (g, l) in parts {
        gradient.iter_mut().zip(&g).for_each(|(a, b)| *a += b);
        loss += l;
    }
    #[expect(clippy::cast_precision_loss, reason = "batch sizes")]
    let scale = 1.0 / batch.len() as f32;
    gradient.iter_mut().for_each(|g| *g *= scale);
    adam.step(&mut model.params, &gradient, rate);
    model.clip();
    loss
}

/// What the network's file records: the command, the data (files, positions, the commit
/// that generated them) and the training's result.
fn record(args: &TrainArgs, sizes: (usize, usize), last: &LossRow) -> String {
    let mut text = String::new();
    let command: Vec<String> = std::env::args().collect();
    let _ = writeln!(text, "command = {:?}", command.join(" "));
    let _ = writeln!(text, "training_positions = {}", sizes.0);
    let _ = writeln!(text, "validation_positions = {}", sizes.1);
    let _ = writeln!(text, "epochs = {}", last.epoch);
    let _ = writeln!(text, "validation_loss = {:.6}", last.validation_loss);
    let _ = writeln!(text, "output_scale = {}", args.output_scale);
    for input in &args.data {
        let read = |name: &str| {
            std::fs::read_to_string(input.join(name))
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
        };
        let commit = read("environment.toml")
            .and_then(|t| t.get("git commit").map(ToString::to_string))
            .unwrap_or_else(|| "\"unknown\"".into());
        // The arguments of the datagen run, as an inline table (`cutlab datagen` rebuilds the
        // data from them at the commit above).
        let datagen = read("datagen.config.toml")
            .and_then(|t| t.get("args").and_then(toml::Value::as_table).cloned())
            .map_or_else(String::new, |args| {
                args.iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
        // The games in the data: a run cut short holds fewer than its --games.
        let games = std::fs::read_to_string(input.join("games.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
        let _ = writeln!(
            text,
            "[[data]]\npath = {:?}\ngenerated_at_commit = {commit}\ngames_recorded = {games}\n\
             datagen_args = {{ {datagen} }}",
            input.display().to_string()
        );
    }
    text
}

/// The options that no data can make right: the blend, the validation share.
fn check_options(args: &TrainArgs) -> Result<(), String> {
    let files: Vec<PathBuf> = args.data.iter().map(|d| data::data_file(d)).collect();
    crate::common::results::distinct_inputs(&files, "DATA")?;
    if !(0.0..=1.0).contains(&args.wdl) {
        return Err(format!("--wdl must be in 0..=1, got {}", args.wdl));
    }
    if !(args.validation > 0.0 && args.validation < 1.0) {
        return Err(format!(
            "--validation must be strictly between 0 and 1 (a share of the games held apart \
             for the validation loss), got {}",
            args.validation
        ));
    }
    Ok(())
}

/// Where the run starts: its checkpoint's epoch, model and optimiser on `--resume`, else
/// epoch 0 and a model of `--seed`. A network that no training run wrote (no checkpoint
/// beside it) is never replaced.
fn start(args: &TrainArgs, checkpoint: &Path) -> Result<(u32, Model, Adam), String> {
    if args.out.join("net.nnue").exists() && !checkpoint.exists() {
        return Err(format!(
            "{}: holds a net.nnue and no training run (no checkpoint.bin); choose another --out",
            args.out.display()
        ));
    }
    if !checkpoint.exists() {
        let adam = Adam {
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            t: 0,
        };
        return Ok((0, Model::new(args.seed), adam));
    }
    if !args.resume {
        return Err(format!(
            "{} holds a training run: pass --resume to continue it, or choose another --out",
            args.out.display()
        ));
    }
    load_checkpoint(checkpoint)
}

/// The training and validation positions, recorded by content beside the run's options: a
/// resume on data that grew or changed under the same names would train its later epochs on
/// other positions than its first.
fn positions(
    args: &TrainArgs,
    resumed: bool,
) -> Result<(data::Positions, data::Positions), String> {
    let data::Data {
        train,
        validation,
        content,
    } = data::load(&args.data, args.validation, args.seed)?;
    #[derive(Serialize)]
    struct Recorded<'a> {
        #[serde(flatten)]
        args: &'a TrainArgs,
        data_content: String,
    }
    crate::common::configs::write_args_config(
        &args.out.join("train.csv"),
        "train",
        &Recorded {
            args,
            data_content: content,
        },
        &[],
        resumed,
    )?;
    if train.len() == 0 {
        return Err("no training positions in the data".into());
    }
    if validation.len() == 0 {
        return Err(format!(
            "--validation {} holds no game apart from {} training positions: raise it",
            args.validation,
            train.len()
        ));
    }
    Ok((train, validation))
}

/// One epoch over `train` in the epoch's own order (a Fisher-Yates shuffle of the identity
/// with a stream of the seed and the epoch's number only, so that a resumed run shuffles as
/// the whole would); returns its row of the loss table.
fn epoch(
    args: &TrainArgs,
    epoch: u32,
    (model, adam): (&mut Model, &mut Adam),
    (train, validation): (&data::Positions, &data::Positions),
    bar: &progress::Progress,
) -> LossRow {
    let started = Instant::now();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut state = args.seed ^ u64::from(epoch).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for i in (1..order.len()).rev() {
        state = splitmix64(state);
        order.swap(i, usize::try_from(state % (i as u64 + 1)).unwrap_or(0));
    }
    let rate = if epoch >= args.drop_epoch {
        args.learning_rate * 0.1
    } else {
        args.learning_rate
    };
    #[expect(clippy::cast_possible_truncation, reason = "a fraction")]
    let wdl = args.wdl as f32;
    #[expect(clippy::cast_possible_truncation, reason = "a rate")]
    let settings = (
        wdl,
        rate as f32,
        args.threads,
        args.mirror.then(|| splitmix64(state)),
    );
    let mut train_loss = 0.0;
    for batch in order.chunks(args.batch) {
        train_loss += step(model, adam, train, batch, settings);
        bar.inc(batch.len() as u64);
    }
    #[expect(clippy::cast_precision_loss, reason = "counts")]
    let train_loss = train_loss / train.len() as f64;
    LossRow {
        epoch,
        learning_rate: rate,
        train_loss,
        validation_loss: mean_loss(model, validation, wdl, args.threads),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Runs `cutlab train`.
///
/// # Errors
/// A bad option, unreadable or invalid data, a run there without `--resume`, or a file that
/// cannot be written.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    check_options(args)?;
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let _lock = crate::common::process::lock_dir(&args.out, None)?;
    let checkpoint = args.out.join("checkpoint.bin");
    let loss_path = args.out.join("loss.csv");
    let (start_epoch, mut model, mut adam) = start(args, &checkpoint)?;
    let (train, validation) = positions(args, start_epoch > 0)?;
    let epochs_left = args.epochs - start_epoch.min(args.epochs);
    #[expect(clippy::cast_precision_loss, reason = "an estimate")]
    let minutes =
        f64::from(epochs_left) * train.len() as f64 / (150_000.0 * args.threads as f64) / 60.0;
    eprintln!(
        "train: {} training and {} validation positions, {} epochs of batches of {}: about \
         {minutes:.0} min on {} threads",
        train.len(),
        validation.len(),
        args.epochs,
        args.batch,
        args.threads
    );
    if start_epoch == 0 {
        // A loss table of another run would be mixed with this one's.
        let _ = std::fs::remove_file(&loss_path);
    }
    let mut losses = crate::common::results::appender::<LossRow>(&loss_path)?;
    let bar = progress::bar(u64::from(epochs_left) * train.len() as u64, "positions");
    // A finished run resumed: its last epoch's row.
    let mut last = if start_epoch > 0 {
        cutlab_analysis::rows::read::<LossRow>(&loss_path)?
            .pop()
            .unwrap_or_default()
    } else {
        LossRow::default()
    };
    for k in start_epoch + 1..=args.epochs {
        last = epoch(
            args,
            k,
            (&mut model, &mut adam),
            (&train, &validation),
            &bar,
        );
        crate::common::results::write_rows(&mut losses, &loss_path, [&last])?;
        save_checkpoint(&checkpoint, k, &model, &adam)?;
        bar.println(&format!(
            "epoch {k}: train loss {:.6}, validation loss {:.6}, {:.0} s",
            last.train_loss, last.validation_loss, last.seconds
        ));
    }
    bar.finish_and_clear();
    #[expect(clippy::cast_possible_truncation, reason = "a factor near 1")]
    let net = model.quantise(
        record(args, (train.len(), validation.len()), &last),
        args.output_scale as f32,
    )?;
    let path = args.out.join("net.nnue");
    std::fs::write(&path, net.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "train: {} epochs, validation loss {:.6}; wrote {} ({} bytes)",
        last.epoch,
        last.validation_loss,
        path.display(),
        net.to_bytes().len()
    );
    Ok(())
}
