//! The classic engine the networks must beat: iterative-deepening negamax alpha-beta with a transposition table,
//! over the game's [`Heuristic`]. The arena plays it as the `alphabeta` baseline; self-play can spar with it
//! (`selfplay.sparring.share`).
//!
//! - **Plies are moves.** The tree is walked with [`Game::legal_moves`](zero_games::Game::legal_moves) and [`Game::play`](zero_games::Game::play), so a Bashni multi-jump
//!   capture is one ply, whatever its number of actions. The sign flips when the side to move changes (after
//!   every complete move in the registered games; the search checks rather than assumes it).
//! - **Evaluation**: at the horizon, the game's [`Heuristic::heuristic`] scaled to [-1000, 1000]; finished games
//!   score `WIN - ply` for the winner (so a quicker win is preferred and a loss is put off), 0 for a draw.
//!   There is no quiescence search.
//! - **Transposition table**: keyed by [`Game::hash`](zero_games::Game::hash), always-replace, mate scores stored relative to the node.
//!   The hash does not cover the repetition history and draw counters (they change no legal move but may end
//!   the game), so a stored score can occasionally be one from another history: acceptable for a baseline.
//!   The stored best move is only tried if it is among the legal moves generated here, so the table can never
//!   make the engine play an illegal move.
//! - **Move ordering**: the table's move first; then, with two plies or more to go, the other moves by the
//!   heuristic value of the position they lead to (this puts captures and promotions first in every game
//!   without the game having to say what a capture is); one ply from the horizon, killer moves and the history
//!   heuristic instead (the leaves are about to be evaluated anyway).
//! - **Limits**: a depth, a node budget or a time budget (any combination; the first reached stops). The first
//!   iteration (depth 1) always completes; an iteration cut short is thrown away and the previous one's move is
//!   played.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use zero_games::Heuristic;
use zero_games::heuristic::value_after;

/// Score of a won game at the root; a win found `p` plies deep scores `WIN - p`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses, not evaluations.
const WIN_THRESHOLD: i32 = WIN - 10_000;
/// [`Heuristic::heuristic`] is scaled by this into the integer scores.
pub const EVAL_SCALE: f32 = 1000.0;
const MAX_DEPTH: u32 = 64;
const TT_SIZE: usize = 1 << 17;

/// When to stop searching. At least one bound should be set; none means depth 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchLimit {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub millis: Option<u64>,
}

impl SearchLimit {
    pub fn depth(depth: u32) -> Self {
        SearchLimit {
            depth: Some(depth),
            ..Default::default()
        }
    }

    fn max_depth(&self) -> u32 {
        match (self.depth, self.nodes, self.millis) {
            (Some(d), _, _) => d.clamp(1, MAX_DEPTH),
            (None, None, None) => 4,
            _ => MAX_DEPTH,
        }
    }
}

/// What the last search did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchInfo {
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes visited (positions searched, leaves included), in all iterations.
    pub nodes: u64,
    /// Score of the chosen move from the mover's view (see [`WIN`], [`EVAL_SCALE`]).
    pub score: i32,
}

impl SearchInfo {
    /// The score as a value in [-1, 1] from the mover's view: the heuristic's scale, a found win or loss ±1.
    pub fn value(&self) -> f32 {
        (self.score as f32 / EVAL_SCALE).clamp(-1.0, 1.0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone)]
struct TtEntry<M> {
    key: u64,
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<M>,
}

/// The alpha-beta engine; keeps its table, killers and history between the moves of one game.
pub struct AlphaBeta<G: Heuristic> {
    limit: SearchLimit,
    tt: Vec<Option<TtEntry<G::Move>>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: FxHashMap<G::Move, u32>,
    nodes: u64,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
    stopped: bool,
    /// Breaks ties between equal root moves so that games vary.
    rng: ChaCha8Rng,
    last: SearchInfo,
}

impl<G: Heuristic> AlphaBeta<G> {
    pub fn new(limit: SearchLimit, rng: ChaCha8Rng) -> Self {
        AlphaBeta {
            limit,
            tt: vec![None; TT_SIZE],
            killers: vec![[None, None]; MAX_DEPTH as usize + 2],
            history: FxHashMap::default(),
            nodes: 0,
            deadline: None,
            node_budget: None,
            stopped: false,
            rng,
            last: SearchInfo::default(),
        }
    }

    /// What the last call to [`AlphaBeta::search`] did.
    pub fn last_search(&self) -> SearchInfo {
        self.last
    }

    /// The best move found within the limit, with the search's figures. `game` must not be over.
    pub fn search(&mut self, game: &G) -> (G::Move, SearchInfo) {
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        assert!(!root_moves.is_empty(), "asked for a move in a finished game");
        self.nodes = 0;
        self.stopped = false;
        self.deadline = self.limit.millis.map(|ms| Instant::now() + Duration::from_millis(ms));
        self.node_budget = self.limit.nodes;
        // Shuffle once so that ties between equal moves are broken differently from game to game; the sort
        // below is stable.
        for i in (1..root_moves.len()).rev() {
            let j = self.rng.random_range(0..=i);
            root_moves.swap(i, j);
        }
        let mover = game.to_move();
        let children: Vec<G> = root_moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                child
            })
            .collect();
        let mut order: Vec<usize> = (0..root_moves.len()).collect();
        order.sort_by_key(|&i| -static_value(&children[i], mover));
        let mut best = (order[0], 0);
        let mut info = SearchInfo::default();
        for depth in 1..=self.limit.max_depth() {
            let mut alpha = -WIN - 1;
            let mut iteration_best = order[0];
            let mut scores = vec![i32::MIN; order.len()];
            for (k, &i) in order.iter().enumerate() {
                let score = self.child_score(&children[i], mover, depth - 1, alpha, WIN + 1, 1);
                if self.stopped && depth > 1 {
                    break;
                }
                scores[k] = score;
                if score > alpha {
                    alpha = score;
                    iteration_best = i;
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            best = (iteration_best, alpha);
            info.depth = depth;
            // Next iteration: the best move first, then the others in the order of this one's scores (only
            // the best is exact, the rest are bounds, but a good guess).
            let mut ranked: Vec<(usize, i32)> = order.iter().copied().zip(scores).collect();
            ranked.sort_by_key(|&(i, s)| (i != iteration_best, -s));
            order = ranked.into_iter().map(|(i, _)| i).collect();
            if alpha.abs() >= WIN_THRESHOLD || self.out_of_budget() {
                break;
            }
        }
        info.nodes = self.nodes;
        info.score = best.1;
        self.last = info;
        (root_moves[best.0].clone(), info)
    }

    fn out_of_budget(&self) -> bool {
        self.node_budget.is_some_and(|n| self.nodes >= n) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The score of `child` (reached by a move of `mover`) from the mover's view, searched `depth` more plies.
    fn child_score(&mut self, child: &G, mover: zero_games::Side, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        if child.to_move() == mover {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    fn negamax(&mut self, game: &G, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.out_of_budget() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = game.outcome() {
            return match outcome.value_for(game.to_move()) {
                v if v > 0.0 => WIN - ply as i32,
                v if v < 0.0 => -(WIN - ply as i32),
                _ => 0,
            };
        }
        if depth == 0 {
            return (game.heuristic() * EVAL_SCALE) as i32;
        }
        let key = game.hash();
        let slot = (key as usize) & (TT_SIZE - 1);
        let mut tt_move = None;
        if let Some(entry) = &self.tt[slot]
            && entry.key == key
        {
            tt_move = entry.best.clone();
            if entry.depth >= depth {
                let score = from_tt(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mover = game.to_move();
        let mut children: Vec<(G::Move, G, i32)> = moves
            .into_iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(&mv);
                (mv, child, 0)
            })
            .collect();
        let killers = self.killers[ply as usize].clone();
        for (mv, child, key) in children.iter_mut() {
            *key = if tt_move.as_ref() == Some(mv) {
                i32::MAX
            } else if depth >= 2 {
                static_value(child, mover)
            } else if killers.iter().any(|k| k.as_ref() == Some(mv)) {
                i32::MAX - 1
            } else {
                self.history.get(mv).copied().unwrap_or(0).min(i32::MAX as u32 - 2) as i32
            };
        }
        children.sort_by_key(|c| -c.2);

        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        for (mv, child, _) in &children {
            let score = self.child_score(child, mover, depth - 1, alpha, beta, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv.clone());
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let slot_killers = &mut self.killers[ply as usize];
                if slot_killers[0].as_ref() != Some(mv) {
                    slot_killers[1] = slot_killers[0].take();
                    slot_killers[0] = Some(mv.clone());
                }
                *self.history.entry(mv.clone()).or_insert(0) += depth * depth;
                break;
            }
        }
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Some(TtEntry {
            key,
            depth,
            score: to_tt(best_score, ply),
            bound,
            best: best_move,
        });
        best_score
    }
}

/// The one-ply value of a child position from `mover`'s view, as an integer score (ordering key).
fn static_value<G: Heuristic>(child: &G, mover: zero_games::Side) -> i32 {
    (value_after(child, mover) * EVAL_SCALE) as i32
}

/// Win scores are stored as distances from the node, not from the root, so that they stay true when the same
/// position is reached at another depth.
fn to_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}
