//! The trainer: a network, its optimizer and the step counter, trained from a replay window, saved and resumed
//! exactly.

use std::path::Path;
use std::time::Instant;

use tch::{Device, Tensor, nn};
use zero_data::{ReplayIndex, ShardSpec};
use zero_games::Encoding;
use zero_model::network::NetShape;
use zero_model::{Checkpoint, CheckpointMeta, NetworkConfig, PolicyValueNet};

use crate::TrainError;
use crate::augment::Augmenter;
use crate::config::TrainConfig;
use crate::loader::{Loaded, Loader, LoaderSpec};
use crate::loss::{self, LossWeights};
use crate::metrics::StepMetrics;
use crate::optimizer::{LossScaler, Optimizer, clip_grad_norm};
use crate::schedule::LrSchedule;
use crate::state::{self, TrainState};

/// What the trainer requires of shards for game `G` under `rules`: the rules are written as
/// `G::describe_rules(rules)` joined by commas.
pub fn shard_spec<G: Encoding>(rules: &G::Rules) -> ShardSpec {
    let shape = NetShape::of::<G>();
    ShardSpec {
        game: G::NAME.to_string(),
        rules: G::describe_rules(rules).join(","),
        encoding_version: G::ENCODING_VERSION,
        input_shape: [shape.planes as u32, shape.height as u32, shape.width as u32],
        action_space: shape.actions as u32,
    }
}

/// Serializes seeding and building of fresh networks (libtorch's generator is process-wide).
static INIT_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Trains a network of game `G`.
pub struct Trainer<G: Encoding> {
    config: TrainConfig,
    rules: G::Rules,
    device: Device,
    vs: nn::VarStore,
    net: PolicyValueNet,
    /// Trainable variables, sorted by name (the optimizer's state follows this order).
    params: Vec<(String, Tensor)>,
    /// The variables that are not trained (batch-norm statistics): a training-mode forward pass moves them.
    statistics: Vec<Tensor>,
    optimizer: Optimizer,
    scaler: Option<LossScaler>,
    schedule: LrSchedule,
    step: u64,
    generation: u32,
    parent_run: Option<String>,
    seed: u64,
    last_lr: f64,
}

impl<G: Encoding> Trainer<G> {
    /// A fresh network initialised from `config.seed`, on `device`.
    pub fn new(
        config: TrainConfig,
        network: &NetworkConfig,
        rules: G::Rules,
        device: Device,
    ) -> Result<Self, TrainError> {
        config.validate().map_err(|e| TrainError::Config(e.to_string()))?;
        network
            .validate_for(NetShape::of::<G>())
            .map_err(|e| TrainError::Config(e.to_string()))?;
        if config.mixed_precision && !device.is_cuda() {
            return Err(TrainError::Config(
                "train.mixed_precision needs a CUDA device (libtorch's CPU autocast is not used here); \
                 set it to false or train on cuda"
                    .into(),
            ));
        }
        // The initial weights are a function of the seed: libtorch's global generator draws them, so two
        // trainers built at once on different threads must not interleave their draws.
        let (vs, net) = {
            let _init = INIT_LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            tch::manual_seed(config.seed as i64);
            let vs = nn::VarStore::new(device);
            let net = PolicyValueNet::new(&vs.root(), network, NetShape::of::<G>());
            (vs, net)
        };
        let mut params: Vec<(String, Tensor)> = vs.variables().into_iter().filter(|(_, t)| t.requires_grad()).collect();
        params.sort_by(|a, b| a.0.cmp(&b.0));
        let statistics = vs.variables().into_values().filter(|t| !t.requires_grad()).collect();
        let optimizer = Optimizer::new(&config, &params);
        Ok(Trainer {
            scaler: config.mixed_precision.then(LossScaler::default),
            schedule: LrSchedule::of(&config),
            seed: config.seed,
            config,
            rules,
            device,
            vs,
            net,
            params,
            statistics,
            optimizer,
            step: 0,
            generation: 0,
            parent_run: None,
            last_lr: 0.0,
        })
    }

    /// Continues from checkpoint `path`: the network's weights (refused, naming the mismatch, unless game,
    /// encoding and architecture match), and, when `NAME.train.safetensors` lies beside it, the optimizer state,
    /// step, seed and loss scale, so that training continues exactly as if it had not stopped. Without that file
    /// training starts from the weights with a fresh optimizer at the checkpoint's step.
    pub fn resume(
        config: TrainConfig,
        network: &NetworkConfig,
        rules: G::Rules,
        device: Device,
        path: &Path,
    ) -> Result<Self, TrainError> {
        let mut trainer = Trainer::new(config, network, rules, device)?;
        let meta = Checkpoint::load_into::<G>(&mut trainer.vs, network, path)?;
        trainer.step = meta.step;
        trainer.generation = meta.generation;
        trainer.parent_run = meta.parent_run;
        let state_path = state::train_state_path(path);
        if state_path.exists() {
            let (state, tensors) = state::load(&state_path)?;
            if state.step != meta.step {
                return Err(TrainError::state(
                    &state_path,
                    format!(
                        "is at step {} but the network checkpoint at step {}",
                        state.step, meta.step
                    ),
                ));
            }
            if state.optimizer != trainer.optimizer.kind() {
                return Err(TrainError::state(
                    &state_path,
                    format!(
                        "holds {:?} state but the config asks for {:?}",
                        state.optimizer,
                        trainer.optimizer.kind()
                    ),
                ));
            }
            trainer
                .optimizer
                .load_state(&tensors, state.optimizer_updates)
                .map_err(|reason| TrainError::state(&state_path, reason.to_string()))?;
            trainer.seed = state.seed;
            if let (Some(scaler), Some((scale, good))) = (trainer.scaler.as_mut(), state.loss_scale) {
                scaler.scale = scale;
                scaler.good_steps = good;
            }
            trainer.last_lr = state.last_learning_rate;
        }
        Ok(trainer)
    }

    pub fn step(&self) -> u64 {
        self.step
    }

    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    pub fn network(&self) -> &PolicyValueNet {
        &self.net
    }

    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Sets the generation and run recorded in later checkpoints.
    pub fn set_generation(&mut self, generation: u32, parent_run: Option<String>) {
        self.generation = generation;
        self.parent_run = parent_run;
    }

    /// What shards must match to be trained on.
    pub fn shard_spec(&self) -> ShardSpec {
        shard_spec::<G>(&self.rules)
    }

    /// Trains `steps` steps on batches from `window`, calling `on_step` after each. A shard that fails while
    /// streaming is reported in that step's metrics and left out; the call fails only when no readable position
    /// is left.
    pub fn train_steps(
        &mut self,
        window: &ReplayIndex,
        steps: u64,
        mut on_step: impl FnMut(&StepMetrics),
    ) -> Result<(), TrainError> {
        if window.slices().is_empty() {
            return Err(TrainError::NoData(window.dir().to_path_buf()));
        }
        let spec = LoaderSpec {
            index: window.clone(),
            replay: self.config.replay(),
            seed: self.seed,
            batch_size: self.config.batch_size,
            chunk_steps: self.config.chunk_steps,
            prefetch_batches: self.config.prefetch_batches,
            augmenter: Augmenter::new::<G>(self.config.augment),
            action_space: G::ACTION_SPACE,
        };
        let shape = NetShape::of::<G>();
        let input_shape = [shape.planes, shape.height, shape.width];
        let mut loader = Loader::start(spec, self.step, self.step + steps);
        let mut skipped_shards = Vec::new();
        let mut clock = Instant::now();
        let mut done = 0;
        while done < steps {
            let (step, batch) = match loader.recv() {
                Some(Ok(Loaded::Batch { step, batch })) => (step, batch),
                Some(Ok(Loaded::Skipped(e))) => {
                    skipped_shards.push(e.to_string());
                    continue;
                }
                Some(Err(e)) => return Err(TrainError::Data(e)),
                None => return Err(TrainError::LoaderStopped),
            };
            debug_assert_eq!(step, self.step);
            let tensors = batch.to_tensors(input_shape, self.device);
            let mut metrics = self.train_batch(&tensors)?;
            metrics.samples_per_sec = batch.size as f64 / clock.elapsed().as_secs_f64().max(1e-9);
            metrics.skipped_shards = std::mem::take(&mut skipped_shards);
            clock = Instant::now();
            done += 1;
            on_step(&metrics);
        }
        Ok(())
    }

    /// One optimizer step on a batch already on the device. A loss or gradient that is not finite (a diverging
    /// network) fails before the optimizer touches the parameters, so the network stays as it was and no
    /// checkpoint is ever made of NaNs; with loss scaling the step is skipped instead, as overflow is expected.
    pub fn train_batch(&mut self, batch: &crate::batch::BatchTensors) -> Result<StepMetrics, TrainError> {
        let lr = self.schedule.lr_at(self.step);
        let weights = LossWeights::of(&self.config);
        // Put back if the step fails: the forward pass below moves the batch-norm statistics.
        let statistics_before: Vec<Tensor> = match self.scaler {
            None => self.statistics.iter().map(Tensor::copy).collect(),
            Some(_) => Vec::new(),
        };
        let losses = if self.scaler.is_some() {
            tch::autocast(true, || {
                loss::compute(&self.net.forward(&batch.input, true), batch, weights)
            })
        } else {
            loss::compute(&self.net.forward(&batch.input, true), batch, weights)
        };
        for (_, p) in self.params.iter_mut() {
            p.zero_grad();
        }
        let mut skipped_overflow = false;
        match self.scaler.as_mut() {
            Some(scaler) => {
                (&losses.total * scaler.scale).backward();
                let params: Vec<Tensor> = self.params.iter().map(|(_, p)| p.shallow_clone()).collect();
                skipped_overflow = !scaler.unscale(&params);
            }
            None => {
                let loss = losses.total.double_value(&[]);
                if !loss.is_finite() {
                    return Err(self.diverged(format!("the loss is {loss}"), &statistics_before));
                }
                losses.total.backward();
            }
        }
        let mut params: Vec<Tensor> = self.params.iter().map(|(_, p)| p.shallow_clone()).collect();
        let grad_norm = if skipped_overflow {
            f64::NAN
        } else {
            let norm = clip_grad_norm(&params, self.config.grad_clip_norm);
            if !norm.is_finite() {
                return Err(self.diverged(format!("the gradient norm is {norm}"), &statistics_before));
            }
            self.optimizer.step(&mut params, lr);
            norm
        };
        self.step += 1;
        self.last_lr = lr;
        Ok(StepMetrics {
            step: self.step,
            lr,
            loss: losses.total.double_value(&[]),
            policy_loss: losses.policy,
            value_loss: losses.value,
            moves_left_loss: losses.moves_left,
            short_value_loss: losses.short_value,
            score_loss: losses.score,
            grad_norm,
            samples_per_sec: 0.0,
            skipped_overflow,
            skipped_shards: Vec::new(),
        })
    }

    /// The error of a failed step, after putting the batch-norm statistics back as they were before it.
    fn diverged(&mut self, what: String, statistics_before: &[Tensor]) -> TrainError {
        let _no_grad = tch::no_grad_guard();
        for (statistic, before) in self.statistics.iter_mut().zip(statistics_before) {
            statistic.copy_(before);
        }
        TrainError::Diverged {
            step: self.step + 1,
            what,
        }
    }

    /// Fails naming a variable (parameter or batch-norm statistic) that holds a NaN or an infinity: what must
    /// never become a checkpoint.
    fn check_finite(&self) -> Result<(), TrainError> {
        let _no_grad = tch::no_grad_guard();
        let mut bad: Vec<String> = self
            .vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.isfinite().all().int64_value(&[]) == 0)
            .map(|(name, _)| name)
            .collect();
        bad.sort();
        match bad.first() {
            Some(name) => Err(TrainError::Diverged {
                step: self.step,
                what: format!("variable {name} holds a NaN or an infinity"),
            }),
            None => Ok(()),
        }
    }

    fn meta(&self) -> CheckpointMeta {
        let mut meta = CheckpointMeta::new::<G>(&self.rules, self.net.config());
        meta.step = self.step;
        meta.generation = self.generation;
        meta.parent_run = self.parent_run.clone();
        meta
    }

    /// Writes the network only (model's checkpoint format, step and generation in its metadata): what self-play
    /// and evaluation load.
    pub fn export_checkpoint(&self, path: &Path) -> Result<(), TrainError> {
        self.check_finite()?;
        Ok(Checkpoint::save(&self.vs, &self.meta(), path)?)
    }

    /// Writes everything a resume needs: `NAME.train.safetensors` (optimizer state, step, seed), then the network
    /// checkpoint `path` itself, each atomically.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        self.check_finite()?;
        let state = TrainState {
            format: state::TRAIN_STATE_FORMAT,
            step: self.step,
            generation: self.generation,
            seed: self.seed,
            optimizer: self.optimizer.kind(),
            optimizer_updates: self.optimizer.updates(),
            loss_scale: self.scaler.as_ref().map(|s| (s.scale, s.good_steps)),
            batch_size: self.config.batch_size,
            chunk_steps: self.config.chunk_steps,
            last_learning_rate: self.last_lr,
            checksum: String::new(),
        };
        state::save(&state::train_state_path(path), &state, &self.optimizer.state_tensors())?;
        self.export_checkpoint(path)
    }

    /// The optimizer's state tensors (for tests and inspection).
    pub fn optimizer_state(&self) -> Vec<(String, Tensor)> {
        self.optimizer.state_tensors()
    }
}
