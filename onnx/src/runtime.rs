//! [`OnnxEvaluator`]: an ONNX policy/value network (as [`crate::write_model`] writes it) run through tract, a
//! pure-Rust inference engine, as the search's [`Evaluator`]: no libtorch anywhere. The model is checked
//! against the game's encoding when it is loaded, so a network made for another game or shape is refused with
//! a clear error rather than evaluated.

use crate::OnnxError;
use std::marker::PhantomData;
use tract_onnx::prelude::*;
use zero_games::{Encoding, encode_batch, input_len};
use zero_search::{EvalRequest, Evaluation, Evaluator, legal_softmax, softmax_in_place};

type Plan = Arc<TypedRunnableModel>;

/// What one forward pass gives for a batch of N positions.
#[derive(Debug, Clone, PartialEq)]
pub struct OnnxOutput {
    /// `[N, actions]` policy logits, row-major.
    pub policy: Vec<f32>,
    /// `[N, 3]` win/draw/loss logits.
    pub wdl: Vec<f32>,
    /// `[N]` plies to the end, when the network has that head.
    pub moves_left: Option<Vec<f32>>,
    /// `[N]` the predicted final score, when the network has that head.
    pub score: Option<Vec<f32>>,
}

/// An ONNX network for game `G`, evaluating batches on the CPU.
pub struct OnnxEvaluator<G> {
    plan: Plan,
    moves_left: bool,
    score: bool,
    label: String,
    input: Vec<f32>,
    _game: PhantomData<fn(&G)>,
}

impl<G: Encoding> OnnxEvaluator<G> {
    /// Loads a serialized model; refuses one whose input or outputs do not fit game `G`.
    pub fn from_bytes(bytes: &[u8], label: impl Into<String>) -> Result<Self, OnnxError> {
        let label = label.into();
        contained(|| Self::load(bytes, label))
    }

    fn load(bytes: &[u8], label: String) -> Result<Self, OnnxError> {
        let invalid = |e: TractError| OnnxError::Model(format!("{e:#}"));
        let model = tract_onnx::onnx().model_for_read(&mut &bytes[..]).map_err(invalid)?;
        let outputs: Vec<String> = model
            .output_outlets()
            .map_err(invalid)?
            .iter()
            .map(|o| model.node(o.node).name.clone())
            .collect();
        let (moves_left, score) = match outputs.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["policy", "wdl"] => (false, false),
            ["policy", "wdl", "moves_left"] => (true, false),
            ["policy", "wdl", "score"] => (false, true),
            ["policy", "wdl", "moves_left", "score"] => (true, true),
            other => {
                return Err(OnnxError::Model(format!(
                    "outputs {other:?}; expected policy, wdl and optionally moves_left and score, in that order"
                )));
            }
        };
        let shape = [G::INPUT_PLANES, G::BOARD_HEIGHT, G::BOARD_WIDTH];
        let batch = model.symbols.sym("N");
        let dims: [TDim; 4] = [batch.into(), shape[0].into(), shape[1].into(), shape[2].into()];
        let fact = f32::fact(dims);
        let plan = model
            .with_input_fact(0, fact.into())
            .and_then(|m| m.into_optimized())
            .and_then(|m| m.into_runnable())
            .map_err(|e| OnnxError::Model(format!("not a network for {} input {shape:?}: {e:#}", G::NAME)))?;
        let evaluator = OnnxEvaluator {
            plan,
            moves_left,
            score,
            label,
            input: Vec::new(),
            _game: PhantomData,
        };
        evaluator.check_outputs()?;
        Ok(evaluator)
    }

    /// Runs the network once on the start position: the policy must be as wide as the action space, and every
    /// output finite (a model with NaN or infinite weights is refused here rather than misleading a search).
    fn check_outputs(&self) -> Result<(), OnnxError> {
        let rules = G::parse_rules(None, &[]).map_err(|e| OnnxError::Model(e.to_string()))?;
        let mut encoded = Vec::new();
        encode_batch([&G::start(&rules)], &mut encoded);
        let out = self.forward(&encoded)?;
        if out.policy.len() != G::ACTION_SPACE || out.wdl.len() != 3 {
            return Err(OnnxError::Model(format!(
                "policy of {} actions and {} value logits; {} needs {} and 3",
                out.policy.len(),
                out.wdl.len(),
                G::NAME,
                G::ACTION_SPACE
            )));
        }
        let all = (out.policy.iter().chain(&out.wdl))
            .chain(out.moves_left.iter().flatten())
            .chain(out.score.iter().flatten());
        if !all.into_iter().all(|v| v.is_finite()) {
            return Err(OnnxError::Model(
                "the network's outputs on the start position are not finite".to_string(),
            ));
        }
        Ok(())
    }

    /// Whether the network predicts the plies left.
    pub fn has_moves_left(&self) -> bool {
        self.moves_left
    }

    /// Whether the network predicts the game's final score.
    pub fn has_score(&self) -> bool {
        self.score
    }

    /// One forward pass over `encoded` (N positions as [`encode_batch`] writes them).
    pub fn forward(&self, encoded: &[f32]) -> Result<OnnxOutput, OnnxError> {
        contained(|| self.run(encoded))
    }

    fn run(&self, encoded: &[f32]) -> Result<OnnxOutput, OnnxError> {
        let n = encoded.len() / input_len::<G>();
        let shape = [n, G::INPUT_PLANES, G::BOARD_HEIGHT, G::BOARD_WIDTH];
        let run = |e: TractError| OnnxError::Run(format!("{e:#}"));
        let input = Tensor::from_shape(&shape, encoded).map_err(run)?;
        let outputs = self.plan.run(tvec!(input.into_tvalue())).map_err(run)?;
        let floats = |i: usize| -> Result<Vec<f32>, OnnxError> {
            Ok(outputs[i]
                .to_plain_array_view::<f32>()
                .map_err(run)?
                .iter()
                .copied()
                .collect())
        };
        Ok(OnnxOutput {
            policy: floats(0)?,
            wdl: floats(1)?,
            moves_left: if self.moves_left { Some(floats(2)?) } else { None },
            score: if self.score {
                Some(floats(2 + usize::from(self.moves_left))?)
            } else {
                None
            },
        })
    }
}

/// Runs a call into tract, turning a panic inside it into [`OnnxError::Model`]. tract trusts parts of a model it
/// builds and panics on some rather than failing (fuzzing found convolution paddings that overflow its
/// arithmetic: `docs/reliability.md`); a damaged bundle must be refused, not end the bot.
fn contained<T>(call: impl FnOnce() -> Result<T, OnnxError>) -> Result<T, OnnxError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        Err(OnnxError::Model(format!("the ONNX runtime failed on it: {message}")))
    })
}

impl<G: Encoding> Evaluator<G> for OnnxEvaluator<G> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        if batch.is_empty() {
            return Vec::new();
        }
        encode_batch(batch.iter().map(|r| r.game), &mut self.input);
        // The model was checked on load; a failure here is a broken runtime, not bad input.
        let out = self
            .forward(&self.input)
            .unwrap_or_else(|e| panic!("ONNX network {}: {e}", self.label));
        let actions = G::ACTION_SPACE;
        batch
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut wdl = [out.wdl[3 * i], out.wdl[3 * i + 1], out.wdl[3 * i + 2]];
                softmax_in_place(&mut wdl);
                Evaluation {
                    priors: legal_softmax(r.game, r.legal, &out.policy[i * actions..(i + 1) * actions]),
                    value: wdl[0] - wdl[2],
                    wdl,
                    moves_left: out.moves_left.as_ref().map(|m| m[i]),
                    score: out.score.as_ref().map(|s| s[i]),
                }
            })
            .collect()
    }

    fn name(&self) -> String {
        self.label.clone()
    }
}
