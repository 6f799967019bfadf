//! The weak solve (win, draw or loss without the distance) agrees with the exact value's sign, for positions and
//! for each of their moves.

use zero_solver::{Outcome, Position, Solver, Value};

/// A small xorshift generator, so that the positions are the same in every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn sign(value: Value) -> Outcome {
    match value {
        Value::Win { .. } => Outcome::Win,
        Value::Draw => Outcome::Draw,
        Value::Loss { .. } => Outcome::Loss,
    }
}

/// A random position of `stones` stones that is not over, or none when the random game ended first.
fn random_position(rng: &mut Rng, stones: usize) -> Option<Position> {
    let mut position = Position::new();
    for _ in 0..stones {
        let columns: Vec<usize> = position
            .legal_columns()
            .filter(|&c| !position.is_winning_move(c))
            .collect();
        if columns.is_empty() {
            return None;
        }
        position.play(columns[rng.below(columns.len())]).ok()?;
    }
    Some(position)
}

#[test]
fn outcomes_agree_with_exact_values() {
    let mut rng = Rng(0x5eed);
    let mut solver = Solver::new();
    let mut checked = [0usize; 3];
    while checked.iter().sum::<usize>() < 600 {
        let stones = 22 + rng.below(16);
        let Some(position) = random_position(&mut rng, stones) else {
            continue;
        };
        let exact = solver.solve(&position);
        let outcome = solver.outcome(&position);
        assert_eq!(outcome, sign(exact), "{position:?}");
        let values = solver.move_values(&position);
        let outcomes = solver.move_outcomes(&position);
        assert_eq!(outcomes, values.map(|v| v.map(sign)), "{position:?}");
        checked[outcome as usize] += 1;
    }
    assert!(checked.iter().all(|&n| n >= 5), "losses, draws, wins: {checked:?}");
}
