//! The arena: how strong is this checkpoint? Matches between players of any registered game, against fixed
//! references and against each other, with ratings and a sequential test for gating a new generation.
//!
//! - [`Player`]: anything that picks a legal move. Baselines ([`baselines`]): `random`, `greedy` (one ply and
//!   the game's [`Heuristic::heuristic`]), `alphabeta` (iterative deepening, transposition table) and `mcts`
//!   (plain UCT with random playouts); checkpoints ([`network_player`]) play their network's raw policy
//!   (`sims=0`) or the search crate's [`zero_search::Engine`] with it (`sims=N`).
//! - [`PlayerSpec`]: players written as strings (`alphabeta:depth=4`, `ckpt:PATH,sims=0,name=gen3`), and
//!   [`Entrant`]: a spec made ready for one game.
//! - [`openings`]: random balanced openings, stored in a file so that matches are reproducible; every opening is
//!   played twice with colours swapped ([`mod@matches`]), games run in parallel with rayon and each is recorded
//!   ([`records`], JSONL); [`book_cache`] keeps judged books between commands.
//! - [`elo`]: Bradley-Terry maximum-likelihood ratings with 95% intervals, anchored at `random` = 0;
//!   [`sprt`]: the sequential probability ratio test that accepts or rejects a new generation.
//!
//! See `docs/arena.md`.
//!
//! [`Heuristic::heuristic`]: zero_games::Heuristic::heuristic

pub mod baselines;
pub mod book_cache;
pub mod connect4_oracle;
pub mod elo;
pub mod entrant;
pub mod matches;
pub mod network_player;
pub mod openings;
pub mod oracle;
pub mod player;
pub mod spec;
pub mod sprt;
pub mod tablebase_player;

pub use book_cache::{BookCache, BookSource};
pub use elo::{GameResult, Standing, Standings, rate, rate_records};
pub use entrant::Entrant;
pub use matches::{
    MatchOptions, OnGame, RoundRobin, Thinking, head_to_head, play_game, round_robin, round_robin_games,
};
pub use openings::{BookProgress, BookRequest, OpeningBook};
pub use player::Player;
pub use records::MatchRecord;
pub use spec::{Network, NetworkPlayer, PlayerKind, PlayerSpec, SpecError};
pub use sprt::{Sprt, SprtDecision, SprtReport};
/// The arena's game records, kept in zero-records so that reading them needs no libtorch.
pub use zero_records::arena as records;

/// Everything the arena can refuse.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The checkpoint error names the file itself.
    #[error("{source}")]
    Checkpoint {
        path: String,
        #[source]
        source: zero_model::CheckpointError,
    },
    #[error("device: {0}")]
    Device(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    BadFile { path: String, reason: String },
    #[error("openings: {0}")]
    Openings(String),
    #[error("ratings: {0}")]
    Ratings(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Record(#[from] records::MatchRecordError),
}
