//! What the arena knows of a player: given a position, a complete legal move.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::Game;

/// A player in a match: it is asked for a move at every move boundary of its side and must return one of
/// `game.legal_moves()` (a whole move: a Bashni capture with all its jumps). Players keep whatever state they
/// like between moves (a random generator, a transposition table); a fresh player is made for every game so
/// that games are independent and can run in parallel.
pub trait Player<G: Game>: Send {
    /// The name shown in tables and records.
    fn name(&self) -> &str;
    /// A legal move in `game`, which is not over.
    fn choose_move(&mut self, game: &G) -> G::Move;
    /// Simulations its tree searches have run in this game so far; `None` for a player that runs none (the
    /// network's raw policy, alpha-beta, the random and greedy baselines).
    fn simulations(&self) -> Option<u64> {
        None
    }
}

/// The deterministic generator every randomised player uses, so that a match seed reproduces every game.
pub type PlayerRng = ChaCha8Rng;

/// A generator for one player of one game, from the match seed and a stream number.
pub fn player_rng(seed: u64, stream: u64) -> PlayerRng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// The legal moves of `game` (convenience for players).
pub(crate) fn legal_moves<G: Game>(game: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}
