//! [`Bot`]: a bundle's network playing through the search crate's [`Engine`] (no noise, the most visited
//! action), on the CPU, with the bundle's root search and default budget. The line protocol, the terminal game
//! and the web page all think through it. The network runs on libtorch or, through [`Runtime::Onnx`], on tract
//! (pure Rust): a build without the `torch` feature has only the latter.

use crate::error::Result;
use std::time::Duration;
use zero_bundle::Bundle;
use zero_games::ActionList;
use zero_games::{Encoding, Game, Heuristic, Outcome};
use zero_search::minimax::heuristic_judge;
use zero_search::{
    Budget, CachedEvaluator, Engine, EvalRequest, Evaluation, Evaluator, Level, PlaySearch, Progress, RootMove,
    actions_to_moves,
};

/// Positions the bot's network remembers (the search transposes).
const EVAL_CACHE: usize = 50_000;

/// What runs the bot's network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// libtorch in f32, from the bundle's checkpoint (builds with the `torch` feature). At the bot's batches
    /// f32 runs faster than bf16 even on a CPU with native bf16 (`docs/bundle.md`), and it is the ONNX model's
    /// number format, so the two make the same moves.
    Torch,
    /// libtorch in bf16 (f32 where the CPU has no native bf16).
    TorchBf16,
    /// tract, a pure-Rust ONNX runtime, from the bundle's `network.onnx`.
    Onnx,
}

impl Runtime {
    /// libtorch where this build has it, else ONNX.
    pub const DEFAULT: Runtime = if cfg!(feature = "torch") {
        Runtime::Torch
    } else {
        Runtime::Onnx
    };
}

/// Why a runtime's name was refused: unknown, or not in this build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    #[error("this build has no libtorch: use onnx")]
    NoTorch,
    #[error("{NO_ONNX_RUNTIME}")]
    NoOnnx,
    #[error("unknown runtime {0:?}: expected torch, torch-bf16 or onnx")]
    Unknown(String),
}

impl std::str::FromStr for Runtime {
    type Err = RuntimeError;
    fn from_str(s: &str) -> Result<Self, RuntimeError> {
        match s {
            "torch" | "torch-bf16" if !cfg!(feature = "torch") => Err(RuntimeError::NoTorch),
            "onnx" if !cfg!(feature = "onnx") => Err(RuntimeError::NoOnnx),
            "torch" => Ok(Runtime::Torch),
            "torch-bf16" => Ok(Runtime::TorchBf16),
            "onnx" => Ok(Runtime::Onnx),
            other => Err(RuntimeError::Unknown(other.to_string())),
        }
    }
}

/// Why a build without the `onnx` feature refuses what needs tract.
pub const NO_ONNX_RUNTIME: &str = "this zero was built without the ONNX runtime (`make run` builds only what the main job \
                                   runs): `make build` builds every command";

type BoxedEvaluator<G> = Box<dyn Evaluator<G> + Send>;

/// The bundle's network on the CPU through `runtime`, behind a cache.
fn network<G: Encoding>(bundle: &Bundle, runtime: Runtime) -> Result<BoxedEvaluator<G>> {
    let evaluator: BoxedEvaluator<G> = match runtime {
        #[cfg(feature = "torch")]
        Runtime::Torch | Runtime::TorchBf16 => {
            let precision = if runtime == Runtime::TorchBf16 {
                zero_model::Precision::Auto
            } else {
                zero_model::Precision::F32
            };
            let weights = bundle.weights();
            Box::new(zero_model::NetworkEvaluator::from_checkpoint(
                &weights,
                tch::Device::Cpu,
                precision,
            )?)
        }
        #[cfg(not(feature = "torch"))]
        Runtime::Torch | Runtime::TorchBf16 => crate::error::bail!("this build has no libtorch: use the onnx runtime"),
        #[cfg(feature = "onnx")]
        Runtime::Onnx => Box::new(zero_onnx::OnnxEvaluator::<G>::from_bytes(&onnx_of(bundle)?, "network")?),
        #[cfg(not(feature = "onnx"))]
        Runtime::Onnx => crate::error::bail!("{NO_ONNX_RUNTIME}"),
    };
    Ok(Box::new(CachedEvaluator::new(evaluator, EVAL_CACHE)))
}

/// The bundle's network as ONNX: its `network.onnx` (verified against the manifest on open) or, for a bundle
/// exported before it had one, written from its checkpoint now.
#[cfg(feature = "onnx")]
fn onnx_of(bundle: &Bundle) -> Result<Vec<u8>> {
    use crate::error::Context;
    if bundle.manifest.files.contains_key(zero_bundle::ONNX_FILE) {
        let path = bundle.dir.join(zero_bundle::ONNX_FILE);
        return Ok(zero_io::read_bounded(&path, zero_io::FileKind::Network)?);
    }
    zero_onnx::checkpoint_file_to_onnx(&bundle.weights())
        .with_context(|| format!("bundle {}: writing its checkpoint as ONNX", bundle.dir.display()))
}

/// What the bot decided, in notation.
#[derive(Debug, Clone)]
pub struct Decision<G: Game> {
    pub mv: G::Move,
    /// The move in notation.
    pub text: String,
    /// The root value of the first search, in [-1, 1], from the moving side's view.
    pub value: f32,
    /// The expected line, in notation, starting with the move.
    pub line: Vec<String>,
    /// Simulations run over all the steps of the move.
    pub simulations: u32,
    /// The first search's root moves in the search's order (its choice first: `zero_search::root_moves`), for
    /// analysis output.
    pub top: Vec<MoveStats>,
    /// Wall time of the move.
    pub elapsed: Duration,
}

/// One of the top moves of an analysis: its statistics at the root of the search, in notation.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats {
    pub text: String,
    pub visits: u32,
    pub prior: f32,
    /// Mean value after it, from the moving side's view.
    pub q: f32,
    /// Its expected line in complete moves, starting with it.
    pub line: Vec<String>,
    /// With a Gumbel root: the score its halving ranks the move by (`RootMove::gumbel_score`); `None` with a
    /// PUCT root, which ranks by visits.
    pub gumbel_score: Option<f32>,
}

/// The bundle's network and search, ready to play game `G`.
pub struct Bot<G: Encoding> {
    engine: Engine<G, BoxedEvaluator<G>>,
    /// The budget of a move when the caller names none.
    pub default_budget: Budget,
    pub rules: G::Rules,
    /// The simulations it was made with (`--sims` or the bundle's): the `max` level's.
    own_sims: u32,
    level: Option<Level>,
    /// With `--tablebase` (Bagh Chal): perfect play shown beside the analysis; never used to move.
    pub tablebase: Option<crate::perfect::Tablebase>,
}

/// A bot is made for a game with a heuristic: its search may minimax it (a bundle's `minimax_weight`).
impl<G: Encoding + Heuristic> Bot<G> {
    /// The bundle's network on the CPU (libtorch where the build has it), searching as `search` says (the
    /// bundle's own, [`Bundle::search`], or that with a user's changes).
    pub fn from_bundle(bundle: &Bundle, search: &PlaySearch) -> Result<Self> {
        Bot::from_bundle_on(bundle, search, Runtime::DEFAULT)
    }

    /// [`Bot::from_bundle`] with the network run by `runtime`.
    pub fn from_bundle_on(bundle: &Bundle, search: &PlaySearch, runtime: Runtime) -> Result<Self> {
        let evaluator = network::<G>(bundle, runtime)?;
        let search = PlaySearch {
            sims: search.sims.max(1),
            ..*search
        };
        search
            .validate()
            .map_err(|e| crate::error::BotError::invalid(format!("the bot's search: {e}")))?;
        // Fixed seed: the same position and budget give the same move (Gumbel sampling included).
        let mut engine = Engine::seeded(evaluator, search.config(), 0);
        engine.set_static_judge(heuristic_judge::<G>);
        engine.set_temperature(search.temperature);
        Ok(Bot {
            engine,
            default_budget: search.budget(),
            rules: bundle.rules::<G>()?,
            own_sims: search.sims,
            level: None,
            tablebase: None,
        })
    }
}

impl<G: Encoding> Bot<G> {
    /// Plays at `level` from now on: its simulations in this game as the default budget (the bot's own for
    /// `max`) and its move-choice temperature.
    pub fn set_level(&mut self, level: Level) {
        let search = level.search::<G>();
        self.default_budget = Budget::Simulations(search.simulations.unwrap_or(self.own_sims));
        self.engine.set_temperature(search.temperature);
        self.level = Some(level);
    }

    /// The simulations it was made with (`sims` or the bundle's default): the `max` level's budget.
    pub fn own_simulations(&self) -> u32 {
        self.own_sims
    }

    /// The level set last, if any.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// Chooses a move in `game`, which must not be over. A forced move is still searched once, for its
    /// evaluation.
    pub fn think(&mut self, game: &G, budget: Budget) -> Decision<G> {
        self.think_watched(game, budget, &mut |_| true)
    }

    /// [`Bot::think`], showing a timed search to `watch` after each chunk; it stops when `watch` returns false
    /// (`MoveTime(Duration::MAX)` searches until then: an analysis without a time limit).
    pub fn think_watched(
        &mut self,
        game: &G,
        budget: Budget,
        watch: &mut dyn FnMut(&Progress<'_>) -> bool,
    ) -> Decision<G> {
        let thought = self.engine.think_watched(game, budget, watch);
        let mut simulations = thought.simulations;
        let (value, line_actions) = match thought.value {
            Some(value) => (value, thought.line),
            None => {
                let (value, line, sims) = self.engine.analyse(game, budget);
                simulations += sims;
                (value, line)
            }
        };
        let text = game.format_move(&thought.mv);
        let mut line = actions_to_moves(game, &line_actions);
        if line.first() != Some(&text) {
            // The first search's favourite line may start elsewhere than the later steps chose.
            line = vec![text.clone()];
        }
        Decision {
            mv: thought.mv,
            text,
            value,
            line,
            simulations,
            top: move_stats(game, &thought.root_moves),
            elapsed: thought.elapsed,
        }
    }

    /// The network's win, draw and loss probabilities for the side to move in `game` (not searched).
    pub fn wdl(&mut self, game: &G) -> [f32; 3] {
        self.evaluate(game).wdl
    }

    /// The network's evaluation of `game` (not searched): the priors of the legal actions, in the order of
    /// [`Game::legal_actions`], with the value and WDL of the side to move.
    pub fn evaluate(&mut self, game: &G) -> Evaluation {
        let mut legal = ActionList::new();
        game.legal_actions(&mut legal);
        let request = EvalRequest {
            game,
            legal: legal.as_slice(),
        };
        let mut evaluations = self.engine.evaluator().evaluate(&[request]);
        evaluations.swap_remove(0)
    }
}

/// The root moves in notation. A root action that only starts a move (a Bashni capture's first jump) is shown
/// as the whole move its line leads to, or, where the search went no deeper, as the first such move in
/// notation order.
pub fn move_stats<G: Game>(game: &G, root_moves: &[RootMove]) -> Vec<MoveStats> {
    root_moves
        .iter()
        .filter_map(|m| {
            let line = actions_to_moves(game, &m.line);
            let text = line.first().cloned().or_else(|| first_move_starting(game, &m.line))?;
            Some(MoveStats {
                line: if line.is_empty() { vec![text.clone()] } else { line },
                text,
                visits: m.visits,
                prior: m.prior,
                q: m.q,
                gumbel_score: m.gumbel_score,
            })
        })
        .collect()
}

fn first_move_starting<G: Game>(game: &G, actions: &[zero_games::Action]) -> Option<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut list = ActionList::new();
    let mut texts: Vec<String> = moves
        .iter()
        .filter(|mv| {
            game.move_actions(mv, &mut list);
            list.as_slice().starts_with(actions)
        })
        .map(|mv| game.format_move(mv))
        .collect();
    texts.sort();
    texts.into_iter().next()
}

/// A finished game's result in words: `white wins (no legal move)`, `draw (repetition)`.
pub fn describe_outcome<G: Game>(outcome: &Outcome) -> String {
    match outcome.winner {
        Some(player) => format!("{} wins ({})", G::player_name(player), outcome.reason),
        None => format!("draw ({})", outcome.reason),
    }
}

/// Win, draw and loss in permille for a search value `value` (win minus loss) and the network's draw
/// probability: the draw share is kept where the value leaves room for it (at most 1 - |value|), and win and
/// loss split the rest so that their difference is the value. The three add up to 1000.
pub fn permille_wdl(value: f32, draw: f32) -> [u32; 3] {
    let value = value.clamp(-1.0, 1.0);
    let draw = draw.clamp(0.0, 1.0 - value.abs());
    let win = ((1.0 - draw + value) / 2.0 * 1000.0).round() as u32;
    let loss = ((1.0 - draw - value) / 2.0 * 1000.0).round() as u32;
    let win = win.min(1000);
    let loss = loss.min(1000 - win);
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::permille_wdl;

    #[test]
    fn wdl_keeps_the_value_and_the_draw_share_the_value_leaves_room_for() {
        assert_eq!(permille_wdl(0.0, 0.2), [400, 200, 400]);
        assert_eq!(
            permille_wdl(0.5, 0.9),
            [500, 500, 0],
            "the draw share is capped at 1 - |value|"
        );
        assert_eq!(permille_wdl(-1.0, 0.3), [0, 0, 1000]);
        assert_eq!(permille_wdl(0.25, 0.0), [625, 0, 375]);
        for (v, d) in [(0.3333, 0.1111), (-0.77, 0.5), (2.0, f32::NAN)] {
            let [w, d, l] = permille_wdl(v, d);
            assert_eq!(w + d + l, 1000, "{v} {d}");
        }
    }
}
