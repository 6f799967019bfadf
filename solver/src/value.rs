//! The game-theoretic value of a position, Pascal Pons' integer score, which says the same thing in one number
//! once the count of stones played is known, and the outcome, which leaves the distance out.

use std::cmp::Ordering;
use std::fmt;

use crate::{HEIGHT, WIDTH};

/// Stones each side has when the board is full.
const STONES_PER_SIDE: i64 = (WIDTH * HEIGHT / 2) as i64;

/// The outcome of a position under perfect play, for the side to move: perfect play wins as fast as it can
/// and loses as late as it can.
///
/// `plies` counts the moves until the game ends, the winner's last one included: `Win { plies: 1 }` is a win
/// by the next move, `Loss { plies: 2 }` a loss to the opponent's next move. A win always takes an odd number
/// of plies and a loss an even number.
///
/// Values of the same position are ordered from the side to move's view: a faster win is greater than a
/// slower one, any win greater than a draw, a draw greater than any loss, and a slower loss greater than a
/// faster one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins, with the game's last move `plies` from now.
    Win { plies: u32 },
    /// The side to move loses, the opponent's winning move `plies` from now.
    Loss { plies: u32 },
    /// Neither side can force a win: the board fills up.
    Draw,
}

/// Win, draw or loss for the side to move, without the distance: what a weak solve
/// ([`crate::Solver::outcome`]) gives, faster than the exact value. Ordered loss, draw, win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// The same result from the other player's view.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// A score that no position with that many stones can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("score {score} is impossible with {moves_played} stones played (possible: {})", possible_scores(*.moves_played))]
pub struct ScoreError {
    pub score: i32,
    pub moves_played: usize,
}

impl Value {
    /// Pascal Pons' score of this value in a position with `moves_played` stones: 0 for a draw; for a win,
    /// 22 minus the number of stones the winner has on the board once it has won (so 1 for a win by a
    /// side's 21st and last stone, and more for a faster win); for a loss, the negative of the opponent's
    /// win score. In terms of the stones on the board when the winning stone lands, `s` (that stone
    /// included), a win scores `(WIDTH * HEIGHT + 2 - s) / 2`, rounded down.
    ///
    /// A value with plies that no such position allows (a win in an even number, or past the last cell)
    /// gives a score that [`Value::from_score`] refuses.
    pub fn score(self, moves_played: usize) -> i32 {
        let moves_played = moves_played.min(u32::MAX as usize) as i64;
        let winner_stones = match self {
            Value::Draw => return 0,
            // The side to move has played half the stones, rounded down, and adds one every other ply.
            Value::Win { plies } => moves_played / 2 + (i64::from(plies) + 1) / 2,
            Value::Loss { plies } => (moves_played + 1) / 2 + i64::from(plies) / 2,
        };
        let magnitude = (STONES_PER_SIDE + 1 - winner_stones).clamp(i64::from(i32::MIN), i64::from(i32::MAX));
        let magnitude = magnitude as i32;
        if matches!(self, Value::Win { .. }) {
            magnitude
        } else {
            magnitude.saturating_neg()
        }
    }

    /// The value of Pons' `score` (see [`Value::score`]) in a position with `moves_played` stones; refuses a
    /// score beyond a win or a loss by the next stone, and more stones than cells.
    pub fn from_score(score: i32, moves_played: usize) -> Result<Value, ScoreError> {
        let possible = lowest_score(moves_played)..=highest_score(moves_played);
        if moves_played > WIDTH * HEIGHT || !possible.contains(&score) {
            return Err(ScoreError { score, moves_played });
        }
        Ok(Value::from_possible_score(score, moves_played))
    }

    /// [`Value::from_score`] for a score known to be possible.
    pub(crate) fn from_possible_score(score: i32, moves_played: usize) -> Value {
        let moves_played = moves_played as i64;
        let winner_stones = STONES_PER_SIDE + 1 - i64::from(score.unsigned_abs());
        let plies = match score.cmp(&0) {
            Ordering::Equal => return Value::Draw,
            Ordering::Greater => 2 * (winner_stones - moves_played / 2) - 1,
            Ordering::Less => 2 * (winner_stones - (moves_played + 1) / 2),
        };
        let plies = plies.clamp(0, i64::from(u32::MAX)) as u32;
        if score > 0 {
            Value::Win { plies }
        } else {
            Value::Loss { plies }
        }
    }

    /// The value for the side that plays a move leading to a position of value `self` (for the opponent).
    pub fn before_move(self) -> Value {
        match self {
            Value::Win { plies } => Value::Loss {
                plies: plies.saturating_add(1),
            },
            Value::Loss { plies } => Value::Win {
                plies: plies.saturating_add(1),
            },
            Value::Draw => Value::Draw,
        }
    }

    /// Win, draw or loss, the distance left out.
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Win { .. } => Outcome::Win,
            Value::Loss { .. } => Outcome::Loss,
            Value::Draw => Outcome::Draw,
        }
    }

    /// The value as a number that orders like the value: wins high, losses low.
    fn rank(self) -> i64 {
        match self {
            Value::Win { plies } => i64::from(u32::MAX) + 1 - i64::from(plies),
            Value::Draw => 0,
            Value::Loss { plies } => i64::from(plies) - i64::from(u32::MAX) - 1,
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win { plies } => write!(f, "win in {plies} plies"),
            Value::Loss { plies } => write!(f, "loss in {plies} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// The scores [`Value::from_score`] accepts with `moves_played` stones, in words.
fn possible_scores(moves_played: usize) -> String {
    if moves_played > WIDTH * HEIGHT {
        return format!("none, the board has {} cells", WIDTH * HEIGHT);
    }
    format!("{} to {}", lowest_score(moves_played), highest_score(moves_played))
}

/// The lowest score of a position with `moves_played` stones: the opponent wins with its next stone.
fn lowest_score(moves_played: usize) -> i32 {
    -(((WIDTH * HEIGHT).saturating_sub(moves_played) / 2) as i32)
}

/// The highest score of a position with `moves_played` stones: the side to move wins with its next stone.
fn highest_score(moves_played: usize) -> i32 {
    ((WIDTH * HEIGHT + 1).saturating_sub(moves_played) / 2) as i32
}
