//! The arena's static evaluation of a Bagh Chal position, from the goats' side first: goats captured (five
//! lose), tigers trapped (four win), goats the tigers can take right now, and the tigers' room to move.

use super::BaghChal;
use super::tables::{JUMP, NONE, STEP};
use crate::Side;

const PER_CAPTURE: f32 = 0.3;
const PER_TRAPPED_TIGER: f32 = 0.2;
/// A goat that a tiger could jump now. Only half a capture: the goats may still cover it.
const PER_GOAT_EN_PRISE: f32 = 0.12;
const PER_TIGER_STEP: f32 = 0.015;

/// The heuristic of [`Heuristic::heuristic`](crate::Heuristic::heuristic) for Bagh Chal.
pub(crate) fn heuristic(game: &BaghChal) -> f32 {
    let tigers = game.tiger_points();
    let goats = game.goat_points();
    let empty = !(tigers | goats);
    let mut trapped = 0;
    let mut steps = 0;
    let mut en_prise = 0u32;
    let mut set = tigers;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        let mut moves = 0;
        for dir in 0..8 {
            let to = STEP[from][dir];
            if to == NONE {
                continue;
            }
            if empty >> to & 1 != 0 {
                moves += 1;
                steps += 1;
            } else if goats >> to & 1 != 0 {
                let landing = JUMP[from][dir];
                if landing != NONE && empty >> landing & 1 != 0 {
                    moves += 1;
                    en_prise |= 1 << to;
                }
            }
        }
        if moves == 0 {
            trapped += 1;
        }
    }
    let for_goats = -PER_CAPTURE * game.goats_captured() as f32 + PER_TRAPPED_TIGER * trapped as f32
        - PER_GOAT_EN_PRISE * en_prise.count_ones() as f32
        - PER_TIGER_STEP * steps as f32;
    let for_goats = for_goats.tanh();
    match game.side {
        Side::First => for_goats,
        Side::Second => -for_goats,
    }
}
