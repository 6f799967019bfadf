//! The data path on its own thread: sample stream, augmentation and batch building run ahead of the optimizer and
//! feed it through a bounded channel, so that reading shards is not the bottleneck and memory stays bounded.
//!
//! Batches are a deterministic function of (seed, step): step `s` belongs to chunk `s / chunk_steps`, whose
//! [`SampleStream`] is built afresh with a seed derived from (seed, chunk), and batch `s` is that stream's
//! `(s mod chunk_steps)`-th batch; its symmetries come from a generator seeded by (seed, s). Starting at any step
//! (a resume) therefore gives the same batches as having run through it: the stream is rebuilt and the batches
//! of the chunk before that step are drawn and dropped.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use zero_data::{DataError, ReplayConfig, ReplayIndex, SampleStream};

use crate::augment::Augmenter;
use crate::batch::HostBatch;

/// What the loader sends: a batch for a step, or a shard it had to skip (reported, training goes on).
#[derive(Debug)]
pub enum Loaded {
    Batch { step: u64, batch: HostBatch },
    Skipped(DataError),
}

/// Everything the loader thread needs.
#[derive(Debug, Clone)]
pub struct LoaderSpec {
    pub index: ReplayIndex,
    pub replay: ReplayConfig,
    pub seed: u64,
    pub batch_size: usize,
    pub chunk_steps: u64,
    pub prefetch_batches: usize,
    pub augmenter: Augmenter,
    pub action_space: usize,
}

/// SplitMix64's finalizer: a well-mixed 64-bit function of a 64-bit input.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seed of the sample stream of `chunk`.
pub fn stream_seed(seed: u64, chunk: u64) -> u64 {
    mix64(mix64(seed) ^ mix64(chunk.wrapping_add(0x5EED_0001)))
}

/// Seed of the symmetries of the batch of `step`.
pub fn augment_seed(seed: u64, step: u64) -> u64 {
    mix64(mix64(seed ^ 0xA116_3E47) ^ mix64(step))
}

/// The batch of one step, as the loader makes it (also usable without a thread).
pub struct BatchSource {
    spec: LoaderSpec,
    stream: Option<(u64, SampleStream)>,
}

impl BatchSource {
    pub fn new(spec: LoaderSpec) -> Self {
        BatchSource { spec, stream: None }
    }

    /// The batch of `step`, with the shards that failed while drawing it. Steps must be asked for in increasing
    /// order within a chunk (any step may start a new source).
    pub fn batch(&mut self, step: u64) -> Result<(HostBatch, Vec<DataError>), DataError> {
        let spec = &self.spec;
        let chunk = step / spec.chunk_steps;
        let mut skipped = Vec::new();
        if self.stream.as_ref().is_none_or(|(c, _)| *c != chunk) {
            let replay = ReplayConfig {
                seed: stream_seed(spec.seed, chunk),
                ..spec.replay.clone()
            };
            let mut stream = SampleStream::new(&spec.index, &replay);
            // Resuming inside a chunk: the batches before `step` were consumed by the interrupted run.
            let before = (step - chunk * spec.chunk_steps) as usize * spec.batch_size;
            if before > 0 {
                skipped.extend(stream.draw(before)?.skipped);
            }
            self.stream = Some((chunk, stream));
        }
        let (_, stream) = self.stream.as_mut().expect("stream built above");
        let drawn = stream.draw(spec.batch_size)?;
        skipped.extend(drawn.skipped);
        let mut rng = ChaCha8Rng::seed_from_u64(augment_seed(spec.seed, step));
        let n = spec.augmenter.symmetries() as u64;
        let symmetries: Vec<usize> = (0..drawn.samples.len())
            .map(|_| {
                if n == 1 {
                    0
                } else {
                    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as usize
                }
            })
            .collect();
        let batch = HostBatch::build(&drawn.samples, &symmetries, &spec.augmenter, spec.action_space);
        Ok((batch, skipped))
    }

    /// Rows held by the current stream's shuffle buffer at most.
    pub fn peak_buffered(&self) -> usize {
        self.stream.as_ref().map_or(0, |(_, s)| s.peak_buffered())
    }
}

/// A loader thread producing the batches of steps `first..end`.
pub struct Loader {
    receiver: Option<Receiver<Result<Loaded, DataError>>>,
    thread: Option<JoinHandle<()>>,
}

impl Loader {
    pub fn start(spec: LoaderSpec, first: u64, end: u64) -> Loader {
        let (sender, receiver) = sync_channel(spec.prefetch_batches);
        let thread = std::thread::Builder::new()
            .name("zero-train-loader".into())
            .spawn(move || produce(BatchSource::new(spec), first, end, sender))
            .expect("spawn the loader thread");
        Loader {
            receiver: Some(receiver),
            thread: Some(thread),
        }
    }

    /// The next message; `None` once every batch was sent (or the thread died).
    pub fn recv(&mut self) -> Option<Result<Loaded, DataError>> {
        self.receiver.as_ref()?.recv().ok()
    }
}

fn produce(mut source: BatchSource, first: u64, end: u64, sender: SyncSender<Result<Loaded, DataError>>) {
    for step in first..end {
        match source.batch(step) {
            Ok((batch, skipped)) => {
                for e in skipped {
                    if sender.send(Ok(Loaded::Skipped(e))).is_err() {
                        return;
                    }
                }
                if sender.send(Ok(Loaded::Batch { step, batch })).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = sender.send(Err(e));
                return;
            }
        }
    }
}

impl Drop for Loader {
    fn drop(&mut self) {
        // Dropping the receiver makes a blocked send fail, so the thread ends and can be joined.
        self.receiver.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
