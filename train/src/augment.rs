//! Data augmentation by the game's rule-preserving symmetries.
//!
//! Stored samples are already in the side to move's canonical view, and their actions are policy indices in that
//! view. A symmetry `s < G::AUGMENTATIONS` commutes with every canonical turn of the game (see
//! [`zero_games::Game::AUGMENTATIONS`]), so the sample of the transformed position is the stored one with every
//! plane mapped spatially by `s` and every policy index `i` mapped to `G::transform_action(i, s)`. Bashni has
//! `AUGMENTATIONS = 1`: its one other symmetry (turn 180 degrees and swap colours) maps a canonical view onto
//! itself, so it would add nothing.

use zero_data::TrainingSample;
use zero_games::{Action, Encoding};

/// The dihedral symmetry `sym` of the square (numbered as in `zero_games::grid`: 0 identity, 1-3 rotations by
/// 90/180/270 degrees anticlockwise, 4 mirror of files, 5 mirror of ranks, 6 the a1-h8 diagonal, 7 the other
/// diagonal) applied to cell `(file, rank)` of an `n` x `n` board: the games' own map, so planes and actions
/// transform alike.
pub fn map_cell(sym: usize, file: usize, rank: usize, n: usize) -> (usize, usize) {
    map_cell_in(sym, file, rank, n, n)
}

/// The same on a `width` x `height` board, for a symmetry that keeps its shape (`zero_games::grid::keeps_shape`).
pub fn map_cell_in(sym: usize, file: usize, rank: usize, width: usize, height: usize) -> (usize, usize) {
    assert!(sym < 8, "symmetry {sym} of the square does not exist");
    let (f, r) = zero_games::grid::map_cell_in(sym, file as i32, rank as i32, width as i32, height as i32);
    (f as usize, r as usize)
}

/// Per-symmetry tables for game `G`: where each cell of a plane goes.
#[derive(Debug, Clone)]
pub struct Augmenter {
    symmetries: usize,
    planes: usize,
    cells: usize,
    /// `cell_to[s][r * width + f]` = destination cell index of source cell (rank r, file f) under `s`.
    cell_to: Vec<Vec<usize>>,
    transform_action: fn(Action, usize) -> Action,
}

impl Augmenter {
    /// The tables of `G`; with `enabled` false only the identity is used.
    pub fn new<G: Encoding>(enabled: bool) -> Self {
        let symmetries = if enabled { G::AUGMENTATIONS } else { 1 };
        let (h, w) = (G::BOARD_HEIGHT, G::BOARD_WIDTH);
        let cell_to = (0..symmetries)
            .map(|s| {
                let grid = G::grid_symmetry(s);
                assert!(
                    zero_games::grid::keeps_shape(grid, w as i32, h as i32),
                    "{}: symmetry {s} (the square's {grid}) does not map a {h}x{w} board onto itself",
                    G::NAME
                );
                (0..h * w)
                    .map(|cell| {
                        let (f, r) = map_cell_in(grid, cell % w, cell / w, w, h);
                        r * w + f
                    })
                    .collect()
            })
            .collect();
        Augmenter {
            symmetries,
            planes: G::INPUT_PLANES,
            cells: h * w,
            cell_to,
            transform_action: G::transform_action,
        }
    }

    /// Symmetries to choose from (1 = no augmentation).
    pub fn symmetries(&self) -> usize {
        self.symmetries
    }

    /// Writes the planes of `input` (any element type, `planes x cells`) under symmetry `sym` into `out`.
    pub fn transform_planes<T: Copy>(&self, input: &[T], sym: usize, out: &mut [T]) {
        assert_eq!(input.len(), self.planes * self.cells);
        assert_eq!(out.len(), input.len());
        if sym == 0 {
            out.copy_from_slice(input);
            return;
        }
        let table = &self.cell_to[sym];
        for (src, dst) in input.chunks_exact(self.cells).zip(out.chunks_exact_mut(self.cells)) {
            for (cell, &to) in table.iter().enumerate() {
                dst[to] = src[cell];
            }
        }
    }

    /// A policy index under symmetry `sym`.
    pub fn transform_action(&self, action: u16, sym: usize) -> u16 {
        if sym == 0 {
            action
        } else {
            (self.transform_action)(action, sym)
        }
    }

    /// The whole sample under symmetry `sym`.
    pub fn transform_sample(&self, sample: &TrainingSample, sym: usize) -> TrainingSample {
        let mut input = vec![0u8; sample.input.len()];
        self.transform_planes(&sample.input, sym, &mut input);
        let map = |actions: &[u16]| actions.iter().map(|&a| self.transform_action(a, sym)).collect();
        TrainingSample {
            input,
            legal_actions: map(&sample.legal_actions),
            policy_actions: map(&sample.policy_actions),
            ..sample.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_map_like_vectors() {
        // Rotation by 90 degrees anticlockwise takes a1 to h1 and h1 to h8 on 8x8.
        assert_eq!(map_cell(1, 0, 0, 8), (7, 0));
        assert_eq!(map_cell(1, 7, 0, 8), (7, 7));
        // The centre of a 5x5 board is fixed by everything.
        for s in 0..8 {
            assert_eq!(map_cell(s, 2, 2, 5), (2, 2));
        }
    }
}
