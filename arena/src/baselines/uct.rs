//! Plain UCT: Monte Carlo tree search with UCB1 selection, one node added per simulation and a uniformly
//! random playout to the end of the game. Knows nothing about the game but its rules, so it is the reference
//! for what search alone achieves. The tree is over complete moves; it is rebuilt for every move.

use crate::player::{Player, PlayerRng, legal_moves};
use rand::RngExt;
use zero_games::Game;

/// UCB1's exploration constant (the textbook sqrt 2 for results in [0, 1]).
const EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// A playout that has not ended after this many moves counts as a draw (every game has a ply cap by default;
/// this only guards rule sets that switch it off).
const PLAYOUT_CAP: u32 = 1000;

struct Node<M> {
    /// The move that led here from the parent (None at the root).
    mv: Option<M>,
    parent: Option<usize>,
    children: Vec<usize>,
    /// Moves not yet expanded into children.
    untried: Vec<M>,
    visits: u32,
    /// Sum of results in [0, 1] from the view of the player who made `mv`.
    wins: f64,
    /// The player who made `mv`.
    mover: zero_games::Side,
}

pub struct UctPlayer {
    name: String,
    simulations: u32,
    rng: PlayerRng,
}

impl UctPlayer {
    pub fn new(name: impl Into<String>, simulations: u32, rng: PlayerRng) -> Self {
        UctPlayer {
            name: name.into(),
            simulations: simulations.max(1),
            rng,
        }
    }

    fn playout<G: Game>(&mut self, mut game: G) -> Option<zero_games::Side> {
        let mut moves = Vec::new();
        for _ in 0..PLAYOUT_CAP {
            if let Some(outcome) = game.outcome() {
                return outcome.winner;
            }
            game.legal_moves(&mut moves);
            let mv = &moves[self.rng.random_range(0..moves.len())];
            game.play(mv);
        }
        None
    }
}

impl<G: Game> Player<G> for UctPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let root_moves = legal_moves(game);
        assert!(!root_moves.is_empty(), "asked for a move in a finished game");
        if root_moves.len() == 1 {
            return root_moves[0].clone();
        }
        let mut nodes = vec![Node {
            mv: None,
            parent: None,
            children: Vec::new(),
            untried: root_moves,
            visits: 0,
            wins: 0.0,
            mover: game.to_move().other(),
        }];
        for _ in 0..self.simulations {
            // Selection: descend through fully expanded nodes by UCB1.
            let mut state = game.clone();
            let mut at = 0;
            while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
                let log_n = (nodes[at].visits.max(1) as f64).ln();
                at = *nodes[at]
                    .children
                    .iter()
                    .max_by(|&&a, &&b| ucb(&nodes[a], log_n).total_cmp(&ucb(&nodes[b], log_n)))
                    .expect("children");
                state.play(nodes[at].mv.as_ref().expect("a child has a move"));
            }
            // Expansion: one random untried move.
            if !nodes[at].untried.is_empty() {
                let k = self.rng.random_range(0..nodes[at].untried.len());
                let mv = nodes[at].untried.swap_remove(k);
                let mover = state.to_move();
                state.play(&mv);
                let untried = legal_moves(&state);
                nodes.push(Node {
                    mv: Some(mv),
                    parent: Some(at),
                    children: Vec::new(),
                    untried,
                    visits: 0,
                    wins: 0.0,
                    mover,
                });
                let child = nodes.len() - 1;
                nodes[at].children.push(child);
                at = child;
            }
            // Simulation and back-propagation.
            let winner = self.playout(state);
            let mut walk = Some(at);
            while let Some(i) = walk {
                let node = &mut nodes[i];
                node.visits += 1;
                node.wins += match winner {
                    Some(w) if w == node.mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                walk = node.parent;
            }
        }
        let best = *nodes[0]
            .children
            .iter()
            .max_by_key(|&&c| nodes[c].visits)
            .expect("at least one simulation expanded the root");
        nodes[best].mv.clone().expect("a child has a move")
    }
}

fn ucb<M>(node: &Node<M>, log_parent_visits: f64) -> f64 {
    let n = node.visits.max(1) as f64;
    node.wins / n + EXPLORATION * (log_parent_visits / n).sqrt()
}
