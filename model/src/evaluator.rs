//! [`NetworkEvaluator`]: a network as the search's [`Evaluator`] (the interface lives in the torch-free
//! `zero-search` crate), batching positions into one forward pass under no-grad (a cache in front of it is
//! `zero_search::CachedEvaluator`).

use crate::checkpoint::Checkpoint;
use crate::device::Precision;
use crate::encode::batch_tensor;
use crate::network::PolicyValueNet;
use std::marker::PhantomData;
use std::path::Path;
use tch::{Device, Kind, nn};
use zero_checkpoint::CheckpointError;
use zero_games::{Encoding, encode_batch};
use zero_search::{EvalRequest, Evaluation, Evaluator, legal_softmax};

/// A network on a device, evaluating batches under no-grad, in f32 or bf16 ([`Precision`]).
pub struct NetworkEvaluator<G> {
    vs: nn::VarStore,
    net: PolicyValueNet,
    /// `Float` or `BFloat16`: the variables' and the inputs' format.
    kind: Kind,
    label: String,
    input: Vec<f32>,
    batches: u64,
    positions: u64,
    _game: PhantomData<fn(&G)>,
}

impl<G: Encoding> NetworkEvaluator<G> {
    /// Wraps a built network (its variables in `vs`, on `vs.device()`), evaluating in f32. The evaluator owns
    /// the network from now on and only plays it: its batch norms are folded into its convolutions.
    pub fn new(vs: nn::VarStore, net: PolicyValueNet, label: impl Into<String>) -> Self {
        Self::unprepared(vs, net, label.into()).with_precision(Precision::F32)
    }

    /// The evaluator before [`Self::with_precision`] has converted, restrided and folded its network: every
    /// constructor prepares it exactly once.
    fn unprepared(vs: nn::VarStore, net: PolicyValueNet, label: String) -> Self {
        NetworkEvaluator {
            vs,
            net,
            kind: Kind::Float,
            label,
            input: Vec::new(),
            batches: 0,
            positions: 0,
            _game: PhantomData,
        }
    }

    /// Loads a checkpoint for game `G` onto `device`, to evaluate in `precision`; refuses one made for another
    /// game, encoding or shape.
    pub fn from_checkpoint(path: &Path, device: Device, precision: Precision) -> Result<Self, CheckpointError> {
        let checkpoint = Checkpoint::load::<G>(path, device)?;
        let label = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Self::unprepared(checkpoint.vs, checkpoint.net, label).with_precision(precision))
    }

    /// Evaluates in `precision` from now on (converting the variables, then folding the norms again).
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.kind = precision.kind(self.vs.device());
        if self.kind == Kind::BFloat16 {
            self.vs.bfloat16();
        } else {
            self.vs.float();
        }
        if self.vs.device() == Device::Cpu {
            // Convolution weights in channels-last layout: oneDNN then runs the convolutions on NHWC data.
            tch::no_grad(|| {
                for (_, mut var) in self.vs.variables() {
                    if var.dim() == 4 {
                        let restrided = channels_last(&var);
                        var.set_data(&restrided);
                    }
                }
            });
        }
        self.net.fold_batch_norm();
        self
    }

    /// The format the network evaluates in: `Float` or `BFloat16`.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn device(&self) -> Device {
        self.vs.device()
    }

    pub fn network(&self) -> &PolicyValueNet {
        &self.net
    }

    /// Network batches run and positions sent through the network so far.
    pub fn batch_stats(&self) -> (u64, u64) {
        (self.batches, self.positions)
    }

    fn run_network(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        let _no_grad = tch::no_grad_guard();
        encode_batch(batch.iter().map(|r| r.game), &mut self.input);
        let mut input = batch_tensor::<G>(&self.input)
            .to_device(self.vs.device())
            .to_kind(self.kind);
        if self.vs.device() == Device::Cpu {
            input = channels_last(&input);
        }
        let out = self.net.forward(&input, false);
        let logits: Vec<f32> = Vec::try_from(out.policy.to_device(Device::Cpu).to_kind(Kind::Float).flatten(0, -1))
            .expect("policy logits are float");
        let wdl: Vec<f32> = Vec::try_from(out.wdl.softmax(-1, Kind::Float).to_device(Device::Cpu).flatten(0, -1))
            .expect("wdl is float");
        let moves_left: Option<Vec<f32>> = out
            .moves_left
            .map(|m| Vec::try_from(m.to_device(Device::Cpu).to_kind(Kind::Float)).expect("float"));
        let score: Option<Vec<f32>> = out
            .score
            .map(|s| Vec::try_from(s.to_device(Device::Cpu).to_kind(Kind::Float)).expect("float"));
        self.batches += 1;
        self.positions += batch.len() as u64;
        let actions = G::ACTION_SPACE;
        batch
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let w = [wdl[3 * i], wdl[3 * i + 1], wdl[3 * i + 2]];
                Evaluation {
                    priors: legal_softmax(r.game, r.legal, &logits[i * actions..(i + 1) * actions]),
                    value: w[0] - w[2],
                    wdl: w,
                    moves_left: moves_left.as_ref().map(|m| m[i]),
                    score: score.as_ref().map(|s| s[i]),
                }
            })
            .collect()
    }
}

/// The same values in channels-last memory order (strides of NHWC, shape still NCHW); tch has no
/// memory-format API, so through a permuted copy.
fn channels_last(t: &tch::Tensor) -> tch::Tensor {
    t.permute([0, 2, 3, 1]).contiguous().permute([0, 3, 1, 2])
}

impl<G: Encoding> Evaluator<G> for NetworkEvaluator<G> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        self.run_network(batch)
    }

    fn name(&self) -> String {
        self.label.clone()
    }
}
