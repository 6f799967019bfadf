//! Positions counted once per symmetry class: the eight symmetries of the board map a position to others of the
//! same value, and a class is counted at its member of least number ([`LayerIndex::index`]). The numbering sorts
//! by the tigers' set first, so a class's least member has the least tiger set of the class, and the empty
//! points then decide only among the symmetries that keep that tiger set.

use crate::index::{LayerIndex, Slide};
use crate::retro::Value;
use zero_games::baghchal::board::{SYMMETRIES, map_points};

/// How many symmetry classes of one layer and side to move are won, lost and drawn by the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl ClassCounts {
    fn add(&mut self, value: Value) {
        self.positions += 1;
        match value {
            Value::Win(_) => self.wins += 1,
            Value::Loss(_) => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
    }
}

/// The symmetries that map the tiger set `tigers` onto itself, when no symmetry maps it below itself in the
/// numbering; `None` when one does (then no position with these tigers is its class's least member).
fn stabiliser_if_least(index: &LayerIndex, tigers: u32) -> Option<Vec<usize>> {
    let own = index.tiger_rank(tigers);
    let mut keep = Vec::new();
    for sym in 0..SYMMETRIES {
        match index.tiger_rank(map_points(sym, tigers)).cmp(&own) {
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Equal => keep.push(sym),
            std::cmp::Ordering::Greater => {}
        }
    }
    Some(keep)
}

/// The counts of one layer's classes, goats to move first, tigers second; `values` is the layer's solved
/// values ([`crate::retro::solve`]).
pub fn count_classes(index: &LayerIndex, values: &[u16]) -> [ClassCounts; 2] {
    let mut counts = [ClassCounts::default(); 2];
    let block = index.tiger_block();
    for first in (0..index.positions()).step_by(block) {
        let tigers = index.slide(first).tigers;
        let Some(stabiliser) = stabiliser_if_least(index, tigers) else {
            continue;
        };
        for (i, &code) in values.iter().enumerate().skip(first).take(block) {
            let slide = index.slide(i);
            let least = stabiliser.iter().all(|&sym| {
                let image = Slide {
                    empty: map_points(sym, slide.empty),
                    ..slide
                };
                index.index(&image) >= i
            });
            if least {
                let value = Value::decode(code).expect("a solved layer");
                counts[slide.tigers_to_move as usize].add(value);
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes by brute force: every position's eight images, the least of them collected in a set.
    fn classes_by_images(index: &LayerIndex) -> usize {
        let mut least = std::collections::HashSet::new();
        for i in 0..index.positions() {
            let s = index.slide(i);
            let image = |sym| Slide {
                tigers: map_points(sym, s.tigers),
                empty: map_points(sym, s.empty),
                ..s
            };
            least.insert((0..SYMMETRIES).map(|sym| index.index(&image(sym))).min().unwrap());
        }
        least.len()
    }

    #[test]
    fn classes_are_counted_once_each() {
        for captured in 0..2 {
            let index = LayerIndex::new(captured);
            let draws = vec![Value::Draw.encode(); index.positions()];
            let [goats, tigers] = count_classes(&index, &draws);
            assert_eq!((goats.positions + tigers.positions) as usize, classes_by_images(&index));
            assert_eq!(goats.positions, tigers.positions);
            assert_eq!(goats.draws, goats.positions);
        }
    }
}
