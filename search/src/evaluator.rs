//! The interface between the search and whatever judges positions: a batch of positions with their legal
//! actions in, priors over those actions and a value out. The search knows nothing else, so a network (the
//! `zero-model` crate), a uniform evaluator or a random-rollout evaluator are interchangeable.

use zero_games::{Action, Encoding, Game, policy_index};

/// One position to evaluate, with its legal actions (the order the priors come back in).
pub struct EvalRequest<'a, G> {
    pub game: &'a G,
    pub legal: &'a [Action],
}

/// The judgement of one position, from the side to move's view.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Probability of each legal action, in the order of the request; sums to 1.
    pub priors: Vec<f32>,
    /// Expected result in [-1, 1]: win minus loss.
    pub value: f32,
    /// Probabilities of win, draw and loss.
    pub wdl: [f32; 3],
    /// Predicted plies to the end, when known.
    pub moves_left: Option<f32>,
    /// The predicted final score ([`zero_games::Game::score`]) in [-1, 1], when the evaluator has a score head.
    pub score: Option<f32>,
}

impl Evaluation {
    /// Even priors over `legal_count` actions with `value` (and its certain win, draw or loss, or an even WDL
    /// for 0 when `certain` is false).
    pub fn uniform(legal_count: usize, value: f32, certain: bool) -> Evaluation {
        let wdl = if certain {
            [
                (value > 0.0) as u8 as f32,
                (value == 0.0) as u8 as f32,
                (value < 0.0) as u8 as f32,
            ]
        } else {
            [1.0 / 3.0; 3]
        };
        Evaluation {
            priors: vec![1.0 / legal_count.max(1) as f32; legal_count],
            value,
            wdl,
            moves_left: None,
            score: None,
        }
    }
}

/// Judges batches of positions. Implementations own their state (a network, a cache); one evaluator is used
/// by one thread at a time.
pub trait Evaluator<G: Game> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation>;
    /// A short description for logs (`uniform`, `net:gen3`).
    fn name(&self) -> String;
}

/// A boxed evaluator evaluates as the one inside (the bot and the arena choose theirs at run time).
impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        (**self).evaluate(batch)
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

/// Uniform priors and an even value: the search with no knowledge at all.
#[derive(Debug, Default, Clone)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|r| Evaluation::uniform(r.legal.len(), 0.0, false))
            .collect()
    }

    fn name(&self) -> String {
        "uniform".to_string()
    }
}

/// Softmax of `logits` (one row of a network's policy output, over the whole action space) over the legal
/// actions only, in their order: the priors a network evaluator returns.
pub fn legal_softmax<G: Encoding>(game: &G, legal: &[Action], logits: &[f32]) -> Vec<f32> {
    let mut priors: Vec<f32> = legal.iter().map(|&a| logits[policy_index(game, a)]).collect();
    softmax_in_place(&mut priors);
    priors
}

/// Numerically stable softmax; an empty slice stays empty.
pub fn softmax_in_place(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        return;
    }
    let mut sum = 0.0;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in values.iter_mut() {
        *v /= sum;
    }
}
