//! Positions counted once per symmetry class: the eight symmetries of the board map a position to others of the
//! same value, and a class is counted at its member of least number ([`LayerIndex::index`]). The numbering sorts
//! by the tigers' set first, so a class's least member has the least tiger set of its orbit
//! ([`crate::index::Orbits`]), and the empty points then decide only among the symmetries that keep that tiger
//! set.

use crate::index::{LayerIndex, Slide};
use crate::retro::Value;
use rayon::prelude::*;
use zero_games::baghchal::board::{SYMMETRIES, map_points};

/// How many symmetry classes of one layer and side to move are won, lost and drawn by the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClassCounts {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl ClassCounts {
    fn plus(&self, other: &ClassCounts) -> ClassCounts {
        ClassCounts {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
        }
    }

    fn add(&mut self, value: Value) {
        self.positions += 1;
        match value {
            Value::Win(_) => self.wins += 1,
            Value::Loss(_) => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
    }
}

/// The symmetries that map the tiger set `tigers` onto itself.
fn stabiliser(tigers: u32) -> Vec<usize> {
    (0..SYMMETRIES)
        .filter(|&sym| map_points(sym, tigers) == tigers)
        .collect()
}

/// The counts of one layer's classes from the blocks of the least tiger sets of their orbits: `kept` holds
/// their tiger ranks ([`crate::index::Orbits::kept`]) and `block_values(k)` the values of the block of `kept[k]`.
pub fn count_classes_in_blocks<'a>(
    index: &LayerIndex,
    kept: &[usize],
    block_values: &(dyn Fn(usize) -> &'a [u16] + Sync),
) -> [ClassCounts; 2] {
    let block = index.tiger_block();
    kept.par_iter()
        .enumerate()
        .map(|(k, &rank)| {
            let mut counts = [ClassCounts::default(); 2];
            let first = rank * block;
            let stabiliser = stabiliser(index.tiger_set(rank));
            for (offset, &code) in block_values(k).iter().enumerate() {
                let i = first + offset;
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
            counts
        })
        .reduce(
            || [ClassCounts::default(); 2],
            |a, b| [a[0].plus(&b[0]), a[1].plus(&b[1])],
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Orbits;

    /// The counts of one layer's classes, goats to move first, tigers second; `values` is the layer's solved
    /// values ([`crate::retro::solve`]).
    fn count_classes(index: &LayerIndex, values: &[u16]) -> [ClassCounts; 2] {
        let orbits = Orbits::new(index);
        let block = index.tiger_block();
        let kept = orbits.kept();
        count_classes_in_blocks(index, kept, &|k| &values[kept[k] * block..(kept[k] + 1) * block])
    }

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
