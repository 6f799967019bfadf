//! SGD with momentum and AdamW written as tensor updates under no-grad, with their state as named tensors, so
//! that a checkpoint holds the state exactly (tch's built-in optimizers cannot export theirs); plus global-norm
//! gradient clipping and dynamic loss scaling for mixed precision.

use crate::config::{OptimizerKind, TrainConfig};
use tch::{Kind, Tensor};

/// The optimizer and its per-variable state, in the order of the variables it was built for.
#[derive(Debug)]
pub struct Optimizer {
    kind: OptimizerKind,
    momentum: f64,
    nesterov: bool,
    beta1: f64,
    beta2: f64,
    eps: f64,
    weight_decay: f64,
    /// Updates taken (AdamW's bias correction counts them).
    updates: u64,
    /// Variable names, sorted; `state[k][i]` belongs to `names[i]`.
    names: Vec<String>,
    /// SGD: one momentum buffer per variable; AdamW: first and second moments.
    state: Vec<Vec<Tensor>>,
}

/// Why a saved optimizer state does not fit this optimizer: the tensor missing or misshapen, or the count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptimizerStateError(String);

impl Optimizer {
    /// An optimizer with zero state for `params` (name, variable), in that order.
    pub fn new(config: &TrainConfig, params: &[(String, Tensor)]) -> Self {
        let slots = match config.optimizer {
            OptimizerKind::Sgd => 1,
            OptimizerKind::AdamW => 2,
        };
        let state = (0..slots)
            .map(|_| params.iter().map(|(_, p)| p.zeros_like().detach()).collect())
            .collect();
        Optimizer {
            kind: config.optimizer,
            momentum: config.momentum,
            nesterov: config.nesterov,
            beta1: config.adam_beta1,
            beta2: config.adam_beta2,
            eps: config.adam_eps,
            weight_decay: config.weight_decay,
            updates: 0,
            names: params.iter().map(|(n, _)| n.clone()).collect(),
            state,
        }
    }

    pub fn kind(&self) -> OptimizerKind {
        self.kind
    }

    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// One update of `params` (same order as at construction) with their current gradients.
    pub fn step(&mut self, params: &mut [Tensor], lr: f64) {
        let _no_grad = tch::no_grad_guard();
        self.updates += 1;
        match self.kind {
            OptimizerKind::Sgd => {
                for (p, buf) in params.iter_mut().zip(self.state[0].iter_mut()) {
                    let mut g = p.grad();
                    if !g.defined() {
                        continue;
                    }
                    if self.weight_decay > 0.0 {
                        g = &g + &*p * self.weight_decay;
                    }
                    *buf *= self.momentum;
                    *buf += &g;
                    let direction = if self.nesterov {
                        &g + &*buf * self.momentum
                    } else {
                        buf.shallow_clone()
                    };
                    *p -= direction * lr;
                }
            }
            OptimizerKind::AdamW => {
                let t = self.updates as i32;
                let correction1 = 1.0 - self.beta1.powi(t);
                let correction2 = 1.0 - self.beta2.powi(t);
                let (first, rest) = self.state.split_at_mut(1);
                for ((p, m), v) in params.iter_mut().zip(first[0].iter_mut()).zip(rest[0].iter_mut()) {
                    let g = p.grad();
                    if !g.defined() {
                        continue;
                    }
                    if self.weight_decay > 0.0 {
                        *p *= 1.0 - lr * self.weight_decay;
                    }
                    *m *= self.beta1;
                    *m += &g * (1.0 - self.beta1);
                    *v *= self.beta2;
                    *v += (&g * &g) * (1.0 - self.beta2);
                    let denominator = (&*v / correction2).sqrt() + self.eps;
                    *p -= (&*m / &denominator) * (lr / correction1);
                }
            }
        }
    }

    /// The state as named tensors (`sgd.momentum/<var>`, `adamw.m/<var>`, `adamw.v/<var>`).
    pub fn state_tensors(&self) -> Vec<(String, Tensor)> {
        let slots: &[&str] = match self.kind {
            OptimizerKind::Sgd => &["sgd.momentum"],
            OptimizerKind::AdamW => &["adamw.m", "adamw.v"],
        };
        let mut out = Vec::new();
        for (slot, tensors) in slots.iter().zip(&self.state) {
            for (name, t) in self.names.iter().zip(tensors) {
                out.push((format!("{slot}/{name}"), t.shallow_clone()));
            }
        }
        out
    }

    /// Replaces the state by `tensors` (as written by [`Optimizer::state_tensors`]) and the update count.
    /// Errs naming the first missing or misshapen tensor; nothing is changed then.
    pub fn load_state(&mut self, tensors: &[(String, Tensor)], updates: u64) -> Result<(), OptimizerStateError> {
        let mine = self.state_tensors();
        let mut sources = Vec::with_capacity(mine.len());
        for (name, t) in &mine {
            let Some((_, source)) = tensors.iter().find(|(n, _)| n == name) else {
                return Err(OptimizerStateError(format!("optimizer tensor {name} is missing")));
            };
            if source.size() != t.size() {
                return Err(OptimizerStateError(format!(
                    "optimizer tensor {name} has shape {:?}, expected {:?}",
                    source.size(),
                    t.size()
                )));
            }
            sources.push(source);
        }
        if tensors.len() != mine.len() {
            return Err(OptimizerStateError(format!(
                "{} optimizer tensors, expected {} ({:?} state)",
                tensors.len(),
                mine.len(),
                self.kind
            )));
        }
        let _no_grad = tch::no_grad_guard();
        for ((_, mut t), source) in mine.into_iter().zip(sources) {
            t.copy_(&source.to_device(t.device()).to_kind(t.kind()));
        }
        self.updates = updates;
        Ok(())
    }
}

/// The global L2 norm of the gradients of `params`, before clipping; when `max_norm > 0` and the norm exceeds
/// it, every gradient is scaled by `max_norm / norm` so that the global norm becomes `max_norm`.
pub fn clip_grad_norm(params: &[Tensor], max_norm: f64) -> f64 {
    let _no_grad = tch::no_grad_guard();
    let grads: Vec<Tensor> = params.iter().map(|p| p.grad()).filter(|g| g.defined()).collect();
    if grads.is_empty() {
        return 0.0;
    }
    let squares: Vec<Tensor> = grads
        .iter()
        .map(|g| g.to_kind(Kind::Float).square().sum(Kind::Float))
        .collect();
    let norm = Tensor::stack(&squares, 0).sum(Kind::Float).sqrt().double_value(&[]);
    if max_norm > 0.0 && norm > max_norm {
        let scale = max_norm / (norm + 1e-6);
        for mut g in grads {
            g *= scale;
        }
    }
    norm
}

/// Dynamic loss scaling for float16 autocast: the loss is multiplied by `scale` before the backward pass so that
/// small gradients do not underflow; gradients are divided back before clipping. A step whose gradients hold an
/// infinity or NaN is skipped and the scale halved; after `growth_interval` good steps it doubles.
#[derive(Debug, Clone, PartialEq)]
pub struct LossScaler {
    pub scale: f64,
    pub good_steps: u64,
    pub growth_interval: u64,
}

impl Default for LossScaler {
    fn default() -> Self {
        LossScaler {
            scale: 65536.0,
            good_steps: 0,
            growth_interval: 2000,
        }
    }
}

impl LossScaler {
    /// Divides the gradients by the scale; returns false (and lowers the scale) when any is not finite.
    pub fn unscale(&mut self, params: &[Tensor]) -> bool {
        let _no_grad = tch::no_grad_guard();
        let inverse = 1.0 / self.scale;
        let mut finite = true;
        for p in params {
            let mut g = p.grad();
            if g.defined() {
                g *= inverse;
                finite &= bool::try_from(g.isfinite().all()).unwrap_or(false);
            }
        }
        if finite {
            self.good_steps += 1;
            if self.good_steps >= self.growth_interval {
                self.scale *= 2.0;
                self.good_steps = 0;
            }
        } else {
            self.scale = (self.scale / 2.0).max(1.0);
            self.good_steps = 0;
        }
        finite
    }
}
