//! The training loss: policy cross-entropy against the search target, win/draw/loss cross-entropy against the
//! result, an optional moves-left Huber loss, each weighted by the config.

use crate::batch::BatchTensors;
use crate::config::TrainConfig;
use tch::{Kind, Reduction, Tensor};
use zero_model::NetOutput;
use zero_model::encode::masked_log_softmax;

/// The loss terms of one batch: `total` carries the graph; the parts are plain numbers for the metrics.
#[derive(Debug)]
pub struct Losses {
    pub total: Tensor,
    pub policy: f64,
    pub value: f64,
    pub moves_left: Option<f64>,
}

/// Weights and scale of the loss terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossWeights {
    pub policy: f64,
    pub value: f64,
    pub moves_left: f64,
    pub moves_left_scale: f64,
}

impl LossWeights {
    pub fn of(config: &TrainConfig) -> Self {
        LossWeights {
            policy: config.policy_weight,
            value: config.value_weight,
            moves_left: config.moves_left_weight,
            moves_left_scale: config.moves_left_scale,
        }
    }
}

/// The weighted loss of `output` on `batch` (averages over the batch; the policy term over the rows that have a
/// policy target only, and 0 when none has).
pub fn compute(output: &NetOutput, batch: &BatchTensors, weights: LossWeights) -> Losses {
    let policy_logits = output.policy.to_kind(Kind::Float);
    // Illegal actions get -inf log-probability and a zero target; zero them before the product (0 x -inf = NaN).
    let log_probs = masked_log_softmax(&policy_logits, &batch.legal).masked_fill(&batch.legal.logical_not(), 0.0);
    let per_row = -(&batch.policy * log_probs).sum_dim_intlist(&[1i64][..], false, Kind::Float);
    let rows = batch.has_policy.sum(Kind::Float).clamp_min(1.0);
    let policy = (per_row * &batch.has_policy).sum(Kind::Float) / rows;

    let value = output
        .wdl
        .to_kind(Kind::Float)
        .cross_entropy_for_logits(&batch.wdl_class);

    let mut total = &policy * weights.policy + &value * weights.value;
    let moves_left = output.moves_left.as_ref().map(|predicted| {
        let scale = weights.moves_left_scale;
        let loss =
            (predicted.to_kind(Kind::Float) / scale).huber_loss(&(&batch.plies_to_end / scale), Reduction::Mean, 1.0);
        let value = loss.double_value(&[]);
        total = &total + loss * weights.moves_left;
        value
    });
    Losses {
        policy: policy.double_value(&[]),
        value: value.double_value(&[]),
        moves_left,
        total,
    }
}
