//! The search: negamax with alpha-beta pruning over Pascal Pons' score, narrowed to the exact score by
//! null-window probes, with a transposition table and threat-first move ordering.

use crate::position::{Position, column_cells};
use crate::table::{Bound, Table};
use crate::value::{Outcome, Value};
use crate::{HEIGHT, WIDTH};

/// Cells on the board, as a score operand.
const CELLS: i32 = (WIDTH * HEIGHT) as i32;
/// The columns from the centre outwards: the order in which moves as promising as each other are tried,
/// since central stones take part in more fours.
const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// The table size of [`Solver::new`]: 2^24 entries of 8 bytes, 128 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 24;
/// The largest table [`Solver::with_table_bits`] accepts: 2^28 entries, 2 GiB.
pub const MAX_TABLE_BITS: u32 = 28;

/// A table size [`Solver::with_table_bits`] does not offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a table of 2^{bits} entries is not offered: choose 1 to {MAX_TABLE_BITS} bits")]
pub struct TableBitsError {
    pub bits: u32,
}

/// The exact value of positions and of their moves (or, faster, only win, draw or loss). What it has searched
/// stays in its transposition table, which speeds up later calls on related positions (a position's moves, the
/// next position of a game); the answers never depend on it.
pub struct Solver {
    table: Table,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with a table of 2^24 entries (128 MiB), allocated at once but backed by memory as it fills.
    pub fn new() -> Solver {
        Solver {
            table: Table::new(DEFAULT_TABLE_BITS),
            nodes: 0,
        }
    }

    /// A solver with a table of 2^`bits` entries of 8 bytes; `bits` from 1 to [`MAX_TABLE_BITS`]. A small
    /// table gives the same answers, more slowly on hard positions.
    pub fn with_table_bits(bits: u32) -> Result<Solver, TableBitsError> {
        if !(1..=MAX_TABLE_BITS).contains(&bits) {
            return Err(TableBitsError { bits });
        }
        Ok(Solver {
            table: Table::new(bits),
            nodes: 0,
        })
    }

    /// The value of `position` for the side to move under perfect play.
    pub fn solve(&mut self, position: &Position) -> Value {
        Value::from_possible_score(self.score(position), position.moves_played())
    }

    /// Pascal Pons' score of `position` (see [`Value::score`]): positive when the side to move wins, the
    /// more the faster; negative when it loses, the more the faster; 0 for a draw.
    pub fn score(&mut self, position: &Position) -> i32 {
        let stones = position.moves_played() as i32;
        if position.is_full() {
            return 0;
        }
        if position.can_win_now() {
            return (CELLS + 1 - stones) / 2;
        }
        let mut lowest = -(CELLS - stones) / 2;
        let mut highest = (CELLS - 1 - stones) / 2;
        while lowest < highest {
            let probe = probe_between(lowest, highest);
            let result = self.negamax(position, probe, probe + 1);
            if result <= probe {
                highest = result;
            } else {
                lowest = result;
            }
        }
        lowest
    }

    /// The value for the side to move of playing each column, `None` for a full column; a move that wins at
    /// once is `Win { plies: 1 }`.
    pub fn move_values(&mut self, position: &Position) -> [Option<Value>; WIDTH] {
        let mut values = [None; WIDTH];
        for column in position.legal_columns() {
            values[column] = Some(if position.is_winning_move(column) {
                Value::Win { plies: 1 }
            } else {
                let mut child = *position;
                child.play_cell(position.drop_cell(column));
                self.solve(&child).before_move()
            });
        }
        values
    }

    /// Whether the side to move wins, draws or loses under perfect play, without how fast: two null-window
    /// searches around 0 (a weak solve), far cheaper than the exact score of [`Solver::solve`] on early
    /// positions.
    pub fn outcome(&mut self, position: &Position) -> Outcome {
        if position.is_full() {
            return Outcome::Draw;
        }
        if position.can_win_now() {
            return Outcome::Win;
        }
        if self.negamax(position, 0, 1) > 0 {
            Outcome::Win
        } else if self.negamax(position, -1, 0) < 0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// Each column's outcome for the side to move, `None` for a full column (a weak solve of each move).
    pub fn move_outcomes(&mut self, position: &Position) -> [Option<Outcome>; WIDTH] {
        let mut outcomes = [None; WIDTH];
        for column in position.legal_columns() {
            outcomes[column] = Some(if position.is_winning_move(column) {
                Outcome::Win
            } else {
                let mut child = *position;
                child.play_cell(position.drop_cell(column));
                self.outcome(&child).reversed()
            });
        }
        outcomes
    }

    /// The columns (0-based, left to right) whose moves have the best value; none on a full board.
    pub fn best_columns(&mut self, position: &Position) -> Vec<usize> {
        let values = self.move_values(position);
        let best = values.iter().flatten().max().copied();
        (0..WIDTH)
            .filter(|&column| best.is_some() && values[column] == best)
            .collect()
    }

    /// The positions searched since the solver was made or last reset: a measure of work that does not
    /// depend on the machine.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the table and zeroes the node count, as if the solver were new.
    pub fn reset(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    /// The score of `position` where it lies within `alpha < beta`; otherwise a bound on it past the window
    /// (at most `alpha` when the score is, at least `beta` when the score is). For a side to move that cannot
    /// win at once.
    fn negamax(&mut self, position: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let stones = position.moves_played() as i32;
        let candidates = position.non_losing_cells();
        if candidates == 0 {
            return -(CELLS - stones) / 2;
        }
        // Two cells left, the side to move cannot win with the first and the opponent not with the second.
        if stones >= CELLS - 2 {
            return 0;
        }
        // The opponent cannot win with its next stone, nor the side to move with this one: bounds that may
        // settle the search before the table is looked at (a likely cache miss).
        alpha = alpha.max(-(CELLS - 2 - stones) / 2);
        if alpha >= beta {
            return alpha;
        }
        beta = beta.min((CELLS - 1 - stones) / 2);
        if alpha >= beta {
            return beta;
        }
        let key = position.key();
        match self.table.get(key) {
            Some(Bound::Upper(score)) if score < beta => {
                beta = score;
                if alpha >= beta {
                    return beta;
                }
            }
            Some(Bound::Lower(score)) if score > alpha => {
                alpha = score;
                if alpha >= beta {
                    return alpha;
                }
            }
            _ => {}
        }
        for cell in ordered_moves(position, candidates) {
            let mut child = *position;
            child.play_cell(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                self.table.put(key, Bound::Lower(score));
                return score;
            }
            alpha = alpha.max(score);
        }
        self.table.put(key, Bound::Upper(alpha));
        alpha
    }
}

/// The score to probe next, with `lowest < highest` bounding the true one: the middle, moved towards the
/// bound nearer 0 when that lies outside the middle, because scores near 0 (slow wins, draws) are the common
/// ones and the probes that settle them are cheap.
fn probe_between(lowest: i32, highest: i32) -> i32 {
    let middle = lowest + (highest - lowest) / 2;
    if middle <= 0 && lowest / 2 < middle {
        lowest / 2
    } else if middle >= 0 && highest / 2 > middle {
        highest / 2
    } else {
        middle
    }
}

/// The cells of `candidates` (one playable cell per column at most) in the order to search them: most
/// threats created first, then the more central.
fn ordered_moves(position: &Position, candidates: u64) -> impl Iterator<Item = u64> {
    let mut cells = [0u64; WIDTH];
    let mut threats = [0u32; WIDTH];
    let mut count = 0;
    for column in CENTRE_FIRST {
        let cell = candidates & column_cells(column);
        if cell == 0 {
            continue;
        }
        let created = position.threats_after(cell);
        // Insertion after every move with as many threats keeps the centre-first order among equals.
        let mut slot = count;
        while slot > 0 && threats[slot - 1] < created {
            cells[slot] = cells[slot - 1];
            threats[slot] = threats[slot - 1];
            slot -= 1;
        }
        cells[slot] = cell;
        threats[slot] = created;
        count += 1;
    }
    cells.into_iter().take(count)
}
