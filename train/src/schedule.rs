//! The learning rate as a pure function of the step: linear warm-up, then cosine, step or no decay. Being a
//! function of the step alone, the schedule needs no saved state beyond the step itself.

use crate::config::{DecayKind, TrainConfig};

/// The learning-rate schedule of a config.
#[derive(Debug, Clone, PartialEq)]
pub struct LrSchedule {
    pub peak: f64,
    pub warmup_steps: u64,
    pub decay: DecayKind,
    pub decay_steps: u64,
    pub final_ratio: f64,
    pub step_every: u64,
    pub step_factor: f64,
}

impl LrSchedule {
    pub fn of(config: &TrainConfig) -> Self {
        LrSchedule {
            peak: config.learning_rate,
            warmup_steps: config.warmup_steps,
            decay: config.decay,
            decay_steps: config.decay_steps,
            final_ratio: config.final_lr_ratio,
            step_every: config.step_decay_every,
            step_factor: config.step_decay_factor,
        }
    }

    /// The rate used by the update that takes the weights from `step` to `step + 1`.
    pub fn lr_at(&self, step: u64) -> f64 {
        if step < self.warmup_steps {
            // Step 0 already moves the weights a little: the ramp ends at `peak` on the last warm-up step.
            return self.peak * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let after = step - self.warmup_steps;
        match self.decay {
            DecayKind::Constant => self.peak,
            DecayKind::Step => self.peak * self.step_factor.powi((after / self.step_every.max(1)) as i32),
            DecayKind::Cosine => {
                let span = self.decay_steps.saturating_sub(self.warmup_steps);
                let progress = if span == 0 {
                    1.0
                } else {
                    (after as f64 / span as f64).min(1.0)
                };
                let floor = self.peak * self.final_ratio;
                floor + (self.peak - floor) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
            }
        }
    }
}
