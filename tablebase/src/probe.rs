//! Probing a game: the value of a Bagh Chal position and of each of its moves under perfect play.
//!
//! In the sliding phase the table answers at once. In the last placements (at most
//! [`EXACT_PLACEMENTS`] goats in hand by default) an exact search plays every line down to the first sliding
//! positions, which the table decides; placement positions never repeat (each goat move places a goat), so the
//! search needs no repetition rule and its memo is exact.
//!
//! The values are those of the `threefold-draw` rules ([`crate::file::RULES`]). Under the default repetition
//! ban a value can depend on the game's history; the moves listed are the game's legal moves under its own
//! rules, each valued as the table values the position it leads to (`docs/tablebase.md` says what that means
//! under the ban).

use crate::index::Slide;
use crate::retro::Value;
use crate::table::Table;
use std::collections::HashMap;
use zero_games::Game;
use zero_games::baghchal::board::ALL_POINTS;
use zero_games::baghchal::{BaghChal, BaghChalMove};

/// Goats in hand up to which [`Table::probe`] searches the placement phase exactly: the last four placements
/// (eight plies at most) take milliseconds to a second.
pub const EXACT_PLACEMENTS: u32 = 4;

/// A position's value under perfect play and each legal move's.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// For the side to move.
    pub value: Value,
    /// Each legal move with its value for the side making it.
    pub moves: Vec<(BaghChalMove, Value)>,
}

impl Probe {
    /// The moves that keep the value at its best: the fastest win, a draw, or the slowest loss.
    pub fn best_moves(&self) -> Vec<BaghChalMove> {
        let best = self.moves.iter().map(|(_, v)| v.goodness()).max();
        self.moves
            .iter()
            .filter(|(_, v)| Some(v.goodness()) == best)
            .map(|(mv, _)| *mv)
            .collect()
    }

    /// Whether `mv` keeps the position's game-theoretic result (win, draw or loss), whatever the distance.
    pub fn keeps_result(&self, mv: &BaghChalMove) -> bool {
        self.moves
            .iter()
            .find(|(m, _)| m == mv)
            .is_some_and(|(_, v)| same_result(*v, self.value))
    }
}

/// Whether two values are the same result, distances aside.
pub fn same_result(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

/// Why a position has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoAnswer {
    #[error(
        "{in_hand} goats are still in hand: the tablebase holds the sliding phase (every goat placed), and the \
         exact search reaches back {limit} placements"
    )]
    Placement { in_hand: u32, limit: u32 },
    #[error("the game is over")]
    GameOver,
}

/// The sliding-phase position of `game`, which must have every goat placed.
pub fn slide_of(game: &BaghChal) -> Slide {
    Slide {
        tigers: game.tiger_points(),
        empty: ALL_POINTS & !game.tiger_points() & !game.goat_points(),
        captured: game.goats_captured(),
        tigers_to_move: game.to_move() == zero_games::Side::Second,
    }
}

impl Table {
    /// [`Table::probe_placements`] with the last [`EXACT_PLACEMENTS`] placements searched.
    pub fn probe(&self, game: &BaghChal) -> Result<Probe, NoAnswer> {
        self.probe_placements(game, EXACT_PLACEMENTS)
    }

    /// The value of `game` and of each of its legal moves: from the table in the sliding phase, by exact search
    /// with at most `placements` goats in hand. The table must hold every layer.
    pub fn probe_placements(&self, game: &BaghChal, placements: u32) -> Result<Probe, NoAnswer> {
        if game.outcome().is_some() {
            return Err(NoAnswer::GameOver);
        }
        let in_hand = game.goats_in_hand();
        if in_hand > placements {
            return Err(NoAnswer::Placement {
                in_hand,
                limit: placements,
            });
        }
        let mut search = PlacementSearch {
            table: self,
            memo: HashMap::new(),
        };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let children: Vec<(BaghChalMove, Value)> = moves
            .into_iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(&mv);
                (mv, search.value(&child))
            })
            .collect();
        let value = if in_hand == 0 {
            self.value(&slide_of(game))
        } else {
            Value::from_children(children.iter().map(|(_, v)| *v))
        };
        let moves = children.into_iter().map(|(mv, v)| (mv, v.before())).collect();
        Ok(Probe { value, moves })
    }
}

/// The exact value of positions with goats in hand, down to the sliding phase.
struct PlacementSearch<'a> {
    table: &'a Table,
    /// Values of placement positions by hash (which covers board, side, goats in hand and captured).
    memo: HashMap<u64, Value>,
}

impl PlacementSearch<'_> {
    /// The value of `game` for its side to move.
    fn value(&mut self, game: &BaghChal) -> Value {
        if let Some(outcome) = game.outcome() {
            return match outcome.winner {
                Some(winner) if winner == game.to_move() => Value::Win(0),
                Some(_) => Value::Loss(0),
                None => Value::Draw,
            };
        }
        if game.goats_in_hand() == 0 {
            return self.table.value(&slide_of(game));
        }
        if let Some(&v) = self.memo.get(&game.hash()) {
            return v;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let children: Vec<Value> = moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                self.value(&child)
            })
            .collect();
        let v = Value::from_children(children);
        self.memo.insert(game.hash(), v);
        v
    }
}
