//! The solver against an independent brute force: plain minimax (no pruning, no bitboards) over an array
//! board, on thousands of seeded random late positions, for the value of each position and of each move.

use std::collections::HashMap;

use zero_solver::{HEIGHT, Position, Solver, Value, WIDTH};

/// Positions compared; each also has every move compared.
const POSITIONS: usize = 3_000;
/// The stone counts of the positions: late enough for minimax without pruning to finish.
const STONES: std::ops::RangeInclusive<usize> = 28..=38;

/// A board as plain arrays: `cells[column][row]` is 0 (empty), 1 (first player) or 2 (second player).
#[derive(Clone)]
struct Board {
    cells: [[u8; HEIGHT]; WIDTH],
    heights: [usize; WIDTH],
    stones: usize,
}

impl Board {
    fn new() -> Board {
        Board {
            cells: [[0; HEIGHT]; WIDTH],
            heights: [0; WIDTH],
            stones: 0,
        }
    }

    fn player_to_move(&self) -> u8 {
        if self.stones.is_multiple_of(2) { 1 } else { 2 }
    }

    fn can_play(&self, column: usize) -> bool {
        self.heights[column] < HEIGHT
    }

    fn play(&mut self, column: usize) {
        self.cells[column][self.heights[column]] = self.player_to_move();
        self.heights[column] += 1;
        self.stones += 1;
    }

    /// Whether the player to move would make four in a row by playing `column`, counted cell by cell.
    fn wins_by(&self, column: usize) -> bool {
        let (row, player) = (self.heights[column] as i32, self.player_to_move());
        let column = column as i32;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: i32| {
                (1..4)
                    .take_while(|step| {
                        let (c, r) = (column + sign * step * dc, row + sign * step * dr);
                        (0..WIDTH as i32).contains(&c)
                            && (0..HEIGHT as i32).contains(&r)
                            && self.cells[c as usize][r as usize] == player
                    })
                    .count()
            };
            run(1) + run(-1) >= 3
        })
    }

    /// A key for the memo: two bits a cell.
    fn key(&self) -> u128 {
        self.cells
            .iter()
            .flatten()
            .fold(0, |key, &cell| key << 2 | u128::from(cell))
    }
}

/// Orders outcomes for the side to move: faster wins best, faster losses worst.
fn rank(value: Value) -> i64 {
    match value {
        Value::Win { plies } => 1000 - i64::from(plies),
        Value::Draw => 0,
        Value::Loss { plies } => i64::from(plies) - 1000,
    }
}

/// The value of playing `column`, by minimax over every continuation.
fn move_value(board: &Board, column: usize, memo: &mut HashMap<u128, Value>) -> Value {
    if board.wins_by(column) {
        return Value::Win { plies: 1 };
    }
    let mut child = board.clone();
    child.play(column);
    match minimax(&child, memo) {
        Value::Win { plies } => Value::Loss { plies: plies + 1 },
        Value::Loss { plies } => Value::Win { plies: plies + 1 },
        Value::Draw => Value::Draw,
    }
}

/// The value of `board` for the player to move: the best of its moves, a draw on a full board.
fn minimax(board: &Board, memo: &mut HashMap<u128, Value>) -> Value {
    if board.stones == WIDTH * HEIGHT {
        return Value::Draw;
    }
    if let Some(&value) = memo.get(&board.key()) {
        return value;
    }
    let value = (0..WIDTH)
        .filter(|&column| board.can_play(column))
        .map(|column| move_value(board, column, memo))
        .max_by_key(|&value| rank(value))
        .expect("a board that is not full has a move");
    memo.insert(board.key(), value);
    value
}

/// Marsaglia's xorshift64: seeded, dependency-free randomness.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Whether playing `column` lets the opponent win at once.
fn gives_win(board: &Board, column: usize) -> bool {
    let mut child = board.clone();
    child.play(column);
    (0..WIDTH).any(|reply| child.can_play(reply) && child.wins_by(reply))
}

/// A random game of `stones` moves in which nobody wins, each move avoiding, where it can, a move that lets
/// the opponent win at once; None when a game runs into a position where every move wins, or ends in one
/// decided by the next two moves.
fn random_game(random: &mut XorShift, stones: usize) -> Option<(Board, Vec<u8>)> {
    let (mut board, mut moves) = (Board::new(), Vec::new());
    while board.stones < stones {
        let open: Vec<usize> = (0..WIDTH).filter(|&c| board.can_play(c) && !board.wins_by(c)).collect();
        let safe: Vec<usize> = open.iter().copied().filter(|&c| !gives_win(&board, c)).collect();
        let choices = if safe.is_empty() { open } else { safe };
        if choices.is_empty() {
            return None;
        }
        let column = choices[random.below(choices.len())];
        board.play(column);
        moves.push(column as u8);
    }
    // A position the side to move wins at once, or loses at once whatever it plays, is too easy to be worth
    // one of the comparisons.
    let playable = || (0..WIDTH).filter(|&c| board.can_play(c));
    let trivial = playable().any(|c| board.wins_by(c)) || playable().all(|c| gives_win(&board, c));
    (!trivial).then_some((board, moves))
}

#[test]
fn solve_and_move_values_agree_with_minimax_on_late_positions() {
    let mut random = XorShift(0x2545_F491_4F6C_DD1D);
    let mut solver = Solver::with_table_bits(16).unwrap();
    let (mut compared, mut wins, mut losses, mut draws) = (0, 0, 0, 0);
    while compared < POSITIONS {
        let stones = STONES.start() + random.below(STONES.end() - STONES.start() + 1);
        let Some((board, moves)) = random_game(&mut random, stones) else {
            continue;
        };
        let position = Position::from_columns(&moves).unwrap();
        let mut memo = HashMap::new();
        let expected = minimax(&board, &mut memo);
        assert_eq!(solver.solve(&position), expected, "position {moves:?}");
        assert_eq!(
            Value::from_score(solver.score(&position), stones),
            Ok(expected),
            "position {moves:?}"
        );
        let move_values = solver.move_values(&position);
        for (column, value) in move_values.into_iter().enumerate() {
            let expected = board.can_play(column).then(|| move_value(&board, column, &mut memo));
            assert_eq!(value, expected, "position {moves:?}, column {column}");
        }
        match expected {
            Value::Win { .. } => wins += 1,
            Value::Loss { .. } => losses += 1,
            Value::Draw => draws += 1,
        }
        compared += 1;
    }
    // Enough of each outcome that none goes untested.
    assert!(
        wins > 200 && losses > 200 && draws > 200,
        "wins {wins}, losses {losses}, draws {draws}"
    );
}
