//! The tree search of zero, with no torch: the search knows whatever judges positions only through the small
//! [`Evaluator`] interface (a batch of positions in, priors and values out), as KataGo's search knows its
//! network, so it builds and is tested with evaluators written in plain Rust.
//!
//! - [`config`]: [`SearchConfig`], the search's settings (the `[selfplay.search]` table of a run config).
//! - [`evaluator`]: [`Evaluator`], [`EvalRequest`], [`Evaluation`], and [`UniformEvaluator`].
//! - [`cache`]: [`CachedEvaluator`], any evaluator behind a bounded cache keyed by position.
//! - [`tree`]: one game's search tree in a flat arena.
//! - [`puct`]: PUCT selection with first-play urgency and virtual loss, Dirichlet noise, temperature.
//! - [`minimax`]: implicit minimax backups, the game's static judgement minimaxed through the tree beside the
//!   network's mean values.
//! - [`gumbel`]: Gumbel AlphaZero's root: Gumbel-top-k, sequential halving, the completed-Q improved policy.
//! - [`search`]: [`GameSearch`], a search driven one leaf at a time so that leaves of many games share a batch
//!   (self-play), and [`search_blocking`], a whole search with one evaluator.
//! - [`engine`]: [`Engine`], the search as a player within a [`Budget`] of simulations or time (the arena's
//!   checkpoint players, the bot).
//! - [`play`]: [`PlaySearch`], how a judged player searches (the arena's network players, a run's equal-time
//!   match, a bundle's default search, the bot).
//! - [`level`]: [`Level`], named strength levels (simulations and a move-choice temperature).
//! - [`alphabeta`]: [`alphabeta::AlphaBeta`], the classic engine over the game's heuristic: the arena's
//!   `alphabeta` baseline and self-play's sparring partner.
//! - [`balance`]: [`balance::BalanceJudge`], balanced random openings (the arena's books, self-play's
//!   `opening_share`).
//! - [`rollout`]: [`RolloutEvaluator`], uniform priors and random-playout values (generation 0).
//!
//! The design is documented in `docs/selfplay.md`.

pub mod alphabeta;
pub mod balance;
pub mod cache;
pub mod config;
pub mod engine;
pub mod evaluator;
pub mod gumbel;
pub mod level;
pub mod minimax;
pub mod play;
pub mod puct;
pub mod rollout;
pub mod search;
pub mod tree;

pub use cache::CachedEvaluator;
pub use config::{
    MAX_SCORE_UTILITY, RootSearch, SearchConfig, SearchConfigError, SettingError, SideRoots, SideWeights,
};
pub use engine::{
    Budget, Engine, Progress, RootMove, Thought, actions_to_moves, choose_by_actions, principal_line, root_moves,
};
pub use evaluator::{EvalRequest, Evaluation, Evaluator, UniformEvaluator, legal_softmax, softmax_in_place};
pub use level::{LEVELS, Level, LevelSearch};
pub use play::PlaySearch;
pub use rollout::RolloutEvaluator;
pub use search::{GameSearch, LeafStep, SearchResult, policy_surprise, search_blocking, search_to_budget};
pub use tree::{Node, NodeId, NodeState, Tree};
