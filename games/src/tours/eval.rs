//! The arena's static evaluation of a Tours position: pawns left (a side with none cannot move and loses) and
//! mobility, counted cheaply for both sides: the FORMs open to the lone pawns and the directions each stack
//! could start to collapse in.

use super::Tours;
use super::tables::{NEXT, NONE, SQUARES, count_forms};

const PER_PAWN: f32 = 0.25;
const PER_OPTION: f32 = 0.01;

/// The heuristic of [`Heuristic::heuristic`](crate::Heuristic::heuristic) for Tours.
pub(crate) fn heuristic(game: &Tours) -> f32 {
    let me = game.side.index();
    let side_score = |c: usize| -> f32 {
        let mut options = count_forms(game.lone[c]) as u32;
        let enemy = game.occupied[1 - c];
        let mut stacks = game.occupied[c] & !game.lone[c];
        while stacks != 0 {
            let square = stacks.trailing_zeros() as usize;
            stacks &= stacks - 1;
            for &next in &NEXT[square] {
                if next != NONE && (enemy >> next & 1 == 0) {
                    options += 1;
                }
            }
        }
        let pawns: u32 = (0..SQUARES)
            .filter(|&s| game.occupied[c] >> s & 1 != 0)
            .map(|s| game.height[s] as u32)
            .sum();
        PER_PAWN * pawns as f32 + PER_OPTION * options as f32
    };
    (side_score(me) - side_score(1 - me)).tanh()
}
