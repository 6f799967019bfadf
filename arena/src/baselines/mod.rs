//! The fixed reference players every checkpoint is measured against.

pub mod alphabeta;
pub mod greedy;
pub mod random;
pub mod uct;

pub use alphabeta::AlphaBetaPlayer;
pub use greedy::GreedyPlayer;
pub use random::RandomPlayer;
pub use uct::UctPlayer;
