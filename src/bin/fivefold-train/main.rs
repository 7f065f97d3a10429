//! fivefold-train: fits the network (`fivefold::eval::nn`) to data files.
//!
//! `fivefold-train data/*.ffd --out net.bin --epochs 10 --threads 2 --loss-csv loss.csv`
//! reads every labelled ply after the opening, holds out every n-th game for validation,
//! and trains with Adam on minibatches split across threads, each position under a random
//! board symmetry. Per epoch it prints (and writes to the CSV) the value loss, policy loss
//! and policy top-1 accuracy on training and validation positions. It writes the weights
//! of the epoch with the lowest validation loss (value + policy_weight * policy), or of
//! the last epoch when no games are held out or with --keep-last.
//! Runs are deterministic given the seed and the thread count.

mod adam;
mod backprop;
mod data;
mod prior;
mod quant_check;
mod train;
mod widen;

use adam::Adam;
use clap::Parser;
use data::{load, symmetries, Dataset, TargetOptions};
use fivefold::data::rng::SplitMix64;
use fivefold::eval::nn::file::file_channels;
use fivefold::eval::nn::quant::QMAGIC;
use fivefold::eval::nn::{Model, QuantNet, CHANNELS, ENGINE_CHANNELS};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use train::{run_parallel, take_stats, train_batch, Item, Stats, Worker};

#[derive(Parser, Debug, Clone)]
#[command(name = "fivefold-train", version, about = "Trains Fivefold's network")]
pub struct Cli {
    /// Data files (fivefold data format; shards may be concatenated)
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Write the weights here (after every epoch that improves the validation loss)
    #[arg(long)]
    out: PathBuf,
    /// Write the last epoch's weights even when an earlier one validated better
    #[arg(long)]
    keep_last: bool,
    /// Start from these weights instead of a fresh network: a float file, or a quantised
    /// one (`--quant-out`, the built-in `freestyle.q`) taken back to floats; a network
    /// with fewer channels than `--channels` is widened (its function kept)
    #[arg(long)]
    init: Option<PathBuf>,
    /// Channels of the per-square features: 32 or 64, the widths the engine runs
    /// (default: the `--init` network's, else 32)
    #[arg(long)]
    channels: Option<usize>,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's learning rate at the start
    #[arg(long, default_value_t = 2e-3)]
    lr: f32,
    /// The learning rate falls linearly to lr * lr_final by the last batch
    #[arg(long, default_value_t = 0.1)]
    lr_final: f32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hold out every n-th game for validation (0: none)
    #[arg(long, default_value_t = 10)]
    val_every_nth_game: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write per-epoch losses here
    #[arg(long)]
    loss_csv: Option<PathBuf>,
    /// Search scores map to win probabilities by sigmoid(score / score_scale)
    #[arg(long, default_value_t = 400.0)]
    score_scale: f32,
    /// Weight of the game result in the value target; the rest is the search score's
    #[arg(long, default_value_t = 0.5)]
    result_weight: f32,
    /// Train on unlabelled plies too (games imported from a stronger engine): the move
    /// played as the policy target, the game result as the value target
    #[arg(long)]
    played: bool,
    /// Weight of the policy loss beside the value loss
    #[arg(long, default_value_t = 1.0)]
    policy_weight: f32,
    /// Decoupled weight decay (AdamW)
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Train each shape's embedding as a row shared by its group of shapes (centre and
    /// the classical patterns of both sides) plus its own part, the decay pulling the
    /// own part towards the shared row (with --init, the shared rows start at the group
    /// means). Same model and weight file; journal session 43
    #[arg(long)]
    shape_prior: bool,
    /// Also write the quantised network here, after checking its validation losses
    /// against the float network's
    #[arg(long)]
    quant_out: Option<PathBuf>,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochRow {
    pub epoch: usize,
    pub train: Stats,
    pub val: Stats,
    pub positions_per_s: f64,
}

const CSV_HEADER: &str =
    "epoch,train_value,train_policy,train_top1,val_value,val_policy,val_top1,positions_per_s";

fn csv_line(r: &EpochRow) -> String {
    format!(
        "{},{:.5},{:.5},{:.4},{:.5},{:.5},{:.4},{:.0}",
        r.epoch,
        r.train.value_loss(),
        r.train.policy_loss(),
        r.train.top1(),
        r.val.value_loss(),
        r.val.policy_loss(),
        r.val.top1(),
        r.positions_per_s
    )
}

fn print_stats(label: &str, s: &Stats) -> String {
    format!(
        "{label} value {:.4} policy {:.4} top1 {:.3}",
        s.value_loss(),
        s.policy_loss(),
        s.top1()
    )
}

/// The positions of an epoch in a shuffled order, each with a random symmetry.
fn epoch_items(data: &Dataset, seed: u64, epoch: usize) -> Vec<Item> {
    let mut rng = SplitMix64::new(seed ^ (epoch as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut items: Vec<Item> = (0..data.samples.len() as u32).map(|i| (i, 0)).collect();
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
    for item in &mut items {
        let s = &data.samples[item.0 as usize];
        item.1 = rng.below(symmetries(s.width as usize, s.height as usize) as u64) as u8;
    }
    items
}

fn validate<const D: usize>(model: &Model<D>, val: &Dataset, workers: &mut [Worker<D>]) -> Stats {
    let items: Vec<Item> = (0..val.samples.len() as u32).map(|i| (i, 0)).collect();
    run_parallel(model, val, &items, false, 1.0, workers);
    take_stats(workers)
}

/// Trains as the command line says; `log` gets one line per epoch.
pub fn run(cli: &Cli, log: &mut dyn FnMut(&str)) -> Result<Vec<EpochRow>, String> {
    if cli.threads == 0 || cli.batch == 0 {
        return Err("--threads and --batch must be positive".into());
    }
    let channels = match (cli.channels, &cli.init) {
        (Some(c), _) => c,
        (None, None) => CHANNELS,
        (None, Some(path)) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            file_channels(&bytes).unwrap_or(CHANNELS)
        }
    };
    match channels {
        32 => run_with::<32>(cli, log),
        64 => run_with::<64>(cli, log),
        c => Err(format!(
            "--channels {c}: the engine runs networks of {ENGINE_CHANNELS:?} channels"
        )),
    }
}

/// `run` for a network of `D` channels.
fn run_with<const D: usize>(cli: &Cli, log: &mut dyn FnMut(&str)) -> Result<Vec<EpochRow>, String> {
    let targets = TargetOptions {
        score_scale: cli.score_scale,
        result_weight: cli.result_weight,
        played: cli.played,
    };
    let (train, val) = load(&cli.data, targets, cli.val_every_nth_game)?;
    if train.samples.is_empty() {
        return Err("no labelled positions in the training games".into());
    }
    log(&format!(
        "{} training positions from {} games, {} validation positions from {} games",
        train.samples.len(),
        train.games,
        val.samples.len(),
        val.games
    ));
    log(&format!(
        "value-target entropy (the value loss of a perfect fit): train {:.4}, val {:.4}",
        train.value_entropy(),
        val.value_entropy()
    ));
    let mut model = match &cli.init {
        Some(path) => load_init::<D>(path, cli.seed)?,
        None => Model::<D>::random(cli.seed),
    };
    let mut adam = Adam::<D>::new(cli.lr);
    adam.weight_decay = cli.weight_decay;
    let mut prior = match (cli.shape_prior, &cli.init) {
        (false, _) => None,
        (true, None) => Some(prior::ShapePrior::new()),
        (true, Some(_)) => Some(prior::ShapePrior::from_params(&model.params)),
    };
    let mut workers: Vec<Worker<D>> = (0..cli.threads).map(|_| Worker::default()).collect();
    if !val.samples.is_empty() {
        log(&print_stats(
            "epoch 0: val",
            &validate(&model, &val, &mut workers),
        ));
    }
    let mut csv = match &cli.loss_csv {
        Some(path) => {
            let mut f =
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            writeln!(f, "{CSV_HEADER}").map_err(|e| e.to_string())?;
            Some(f)
        }
        None => None,
    };
    let total_batches = cli.epochs * train.samples.len().div_ceil(cli.batch);
    let mut done = 0;
    let mut rows = Vec::new();
    let mut best: Option<(f64, usize, Model<D>)> = None;
    for epoch in 1..=cli.epochs {
        let start = Instant::now();
        for batch in epoch_items(&train, cli.seed, epoch).chunks(cli.batch) {
            let progress = done as f32 / total_batches.max(1) as f32;
            adam.lr = cli.lr * (1.0 - progress * (1.0 - cli.lr_final));
            train_batch(
                &mut model,
                &mut adam,
                &train,
                batch,
                cli.policy_weight,
                &mut workers,
                prior.as_mut(),
            );
            done += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        let train_stats = take_stats(&mut workers);
        let val_stats = validate(&model, &val, &mut workers);
        let row = EpochRow {
            epoch,
            train: train_stats,
            val: val_stats,
            positions_per_s: train_stats.positions as f64 / seconds.max(1e-9),
        };
        log(&format!(
            "epoch {epoch}: {} | {} | {:.0} positions/s",
            print_stats("train", &row.train),
            print_stats("val", &row.val),
            row.positions_per_s
        ));
        if let Some(f) = csv.as_mut() {
            writeln!(f, "{}", csv_line(&row)).map_err(|e| e.to_string())?;
        }
        let loss = row.val.value_loss() + cli.policy_weight as f64 * row.val.policy_loss();
        if cli.keep_last || val.samples.is_empty() || best.as_ref().is_none_or(|b| loss < b.0) {
            model.save(&cli.out)?;
            best = Some((loss, epoch, model.clone()));
        }
        rows.push(row);
    }
    let model = match best {
        Some((loss, epoch, best)) => {
            if !val.samples.is_empty() {
                log(&format!(
                    "wrote epoch {epoch}'s weights (validation loss {loss:.4})"
                ));
            }
            best
        }
        None => {
            model.save(&cli.out)?;
            model
        }
    };
    if let Some(path) = &cli.quant_out {
        let check = if val.samples.is_empty() { &train } else { &val };
        export_quantised(&model, check, path, log)?;
    }
    Ok(rows)
}

/// Quantises, reports the losses of both networks on `check` (the validation positions,
/// or the training ones when there are none), writes the integer one.
fn export_quantised<const D: usize>(
    model: &Model<D>,
    check: &Dataset,
    path: &std::path::Path,
    log: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let q = QuantNet::from_float(model)?;
    let (float, quant, worst) = quant_check::compare(model, &q, check, 100_000);
    log(&format!(
        "quantised: {} | float: {} | value loss {:+.5}, policy loss {:+.5}, top1 {:+.4}, largest value-logit difference {worst:.4}",
        print_stats("val", &quant),
        print_stats("val", &float),
        quant.value_loss() - float.value_loss(),
        quant.policy_loss() - float.policy_loss(),
        quant.top1() - float.top1(),
    ));
    std::fs::write(path, q.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// `--init`: a float weight file, or a quantised one (`--quant-out`, the built-in
/// network's `freestyle.q`) taken back to floats; one with fewer channels widened.
fn load_init<const D: usize>(path: &std::path::Path, seed: u64) -> Result<Model<D>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some((d0, narrow)) = widen::narrow_params::<D>(&bytes) {
        eprintln!("{}: {d0} channels widened to {D}", path.display());
        return Ok(widen::widen(d0, &narrow, seed));
    }
    let model = if bytes.starts_with(QMAGIC) {
        QuantNet::<D>::from_bytes(&bytes).map(|q| q.dequantise())
    } else {
        Model::<D>::from_bytes(&bytes)
    };
    model.map_err(|e| format!("{}: {e}", path.display()))
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(&cli, &mut |line| println!("{line}")) {
        eprintln!("fivefold-train: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fivefold::data::{play_shard, SelfPlayOptions};

    /// A few quick 9x9 self-play games in a temporary file.
    fn tiny_data(dir: &std::path::Path) -> PathBuf {
        let opts = SelfPlayOptions::tiny(200);
        let mut bytes = Vec::new();
        play_shard(&opts, 3, 12, 0, 1, &mut bytes, &mut |_| {}).expect("self-play");
        let path = dir.join("tiny.ffd");
        std::fs::write(&path, bytes).expect("write data");
        path
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fivefold-train-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    fn cli(data: PathBuf, out: PathBuf, threads: usize) -> Cli {
        Cli::parse_from([
            "fivefold-train",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "3",
            "--batch",
            "32",
            "--threads",
            &threads.to_string(),
            "--val-every-nth-game",
            "4",
        ])
    }

    #[test]
    fn trains_on_a_tiny_set_writes_a_loadable_net_and_repeats_itself() {
        let dir = temp_dir("smoke");
        let data = tiny_data(&dir);
        let out = dir.join("net.bin");
        let mut with_quant = cli(data.clone(), out.clone(), 2);
        with_quant.quant_out = Some(dir.join("net.q"));
        let mut log = Vec::new();
        let rows = run(&with_quant, &mut |line| log.push(line.to_string())).expect("training");
        assert!(
            log.last().is_some_and(|l| l.starts_with("quantised")),
            "{log:?}"
        );
        assert!(std::fs::metadata(dir.join("net.q")).is_ok_and(|m| m.len() > 1_000_000));
        assert_eq!(rows.len(), 3);
        assert!(rows[0].val.positions > 0);
        assert!(
            rows[2].train.value_loss() < rows[0].train.value_loss(),
            "{rows:?}"
        );
        assert!(rows[2].train.policy_loss() < rows[0].train.policy_loss());
        let first = std::fs::read(&out).expect("weights");
        Model::<32>::from_bytes(&first).expect("loads");
        run(&cli(data, out.clone(), 2), &mut |_| {}).expect("training again");
        assert_eq!(
            std::fs::read(&out).expect("weights"),
            first,
            "deterministic"
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn the_shape_prior_trains_from_scratch_and_from_a_network() {
        let dir = temp_dir("prior");
        let data = tiny_data(&dir);
        let mut c = cli(data, dir.join("net.bin"), 2);
        c.shape_prior = true;
        let rows = run(&c, &mut |_| {}).expect("training with the prior");
        assert!(rows[2].train.policy_loss() < rows[0].train.policy_loss());
        let first = std::fs::read(dir.join("net.bin")).expect("weights");
        let model = Model::<32>::from_bytes(&first).expect("the same weight format");
        // Going on from it (the shared rows start at the group means) trains too.
        c.init = Some(dir.join("net.bin"));
        c.out = dir.join("net2.bin");
        run(&c, &mut |_| {}).expect("fine-tuning with the prior");
        assert_ne!(
            model.params,
            Model::<32>::from_bytes(&std::fs::read(dir.join("net2.bin")).expect("weights"))
                .expect("loads")
                .params
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn trains_64_channels_and_widens_a_32_channel_start() {
        use fivefold::eval::nn::QuantModel;
        let dir = temp_dir("channels");
        let data = tiny_data(&dir);
        let mut c = cli(data.clone(), dir.join("narrow.bin"), 1);
        c.quant_out = Some(dir.join("narrow.q"));
        run(&c, &mut |_| {}).expect("32 channels");
        let mut c = cli(data.clone(), dir.join("wide.bin"), 1);
        c.quant_out = Some(dir.join("wide.q"));
        c.init = Some(dir.join("narrow.q"));
        c.channels = Some(64);
        let mut log = Vec::new();
        run(&c, &mut |line| log.push(line.to_string())).expect("widened to 64");
        let read = |name: &str| std::fs::read(dir.join(name)).expect("weights");
        let wide = QuantModel::from_bytes(&read("wide.q")).expect("the engine reads it");
        assert_eq!(wide.channels(), 64);
        Model::<64>::from_bytes(&read("wide.bin")).expect("a 64-channel float file");
        // A 64-channel start trains at 64 channels without being told.
        let mut c = cli(data.clone(), dir.join("again.bin"), 1);
        c.init = Some(dir.join("wide.q"));
        run(&c, &mut |_| {}).expect("from a 64-channel start");
        Model::<64>::from_bytes(&read("again.bin")).expect("still 64 channels");
        // Widths the engine does not run, and narrowing, are refused.
        let mut c = cli(data.clone(), dir.join("odd.bin"), 1);
        c.channels = Some(48);
        let err = run(&c, &mut |_| {}).unwrap_err();
        assert!(err.contains("--channels 48"), "{err}");
        c.channels = Some(32);
        c.init = Some(dir.join("wide.q"));
        let err = run(&c, &mut |_| {}).unwrap_err();
        assert!(err.contains("dimensions"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_missing_or_bad_data_file_is_an_error() {
        let dir = temp_dir("bad");
        let out = dir.join("net.bin");
        let err = run(&cli(dir.join("none.ffd"), out.clone(), 1), &mut |_| {}).unwrap_err();
        assert!(err.contains("none.ffd"), "{err}");
        let junk = dir.join("junk.ffd");
        std::fs::write(&junk, b"FFDATA\x01\x00G\x00").expect("write");
        let err = run(&cli(junk, out, 1), &mut |_| {}).unwrap_err();
        assert!(err.contains("junk.ffd"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn goes_on_from_a_quantised_network() {
        let dir = temp_dir("init-q");
        let data = tiny_data(&dir);
        let q = QuantNet::from_float(&Model::<32>::random(5)).expect("fits");
        let qpath = dir.join("start.q");
        std::fs::write(&qpath, q.to_bytes()).expect("write");
        let start = load_init::<32>(&qpath, 1).expect("a quantised file loads as a start");
        assert_eq!(QuantNet::from_float(&start).as_ref(), Ok(&q));
        let mut c = cli(data, dir.join("net.bin"), 1);
        c.init = Some(qpath);
        let rows = run(&c, &mut |_| {}).expect("trains from it");
        assert_eq!(rows.len(), 3);
        let damaged = dir.join("bad.q");
        let mut bytes = q.to_bytes();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&damaged, bytes).expect("write");
        let err = load_init::<32>(&damaged, 1).expect_err("a truncated file is refused");
        assert!(err.contains("truncated"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
