//! The eight symmetries of the Bagh Chal board applied to positions and actions (see `grid::map_vector` for the
//! numbering). The lines are symmetric, so every symmetry preserves the rules.

use super::tables::{self, POINTS};
use super::{BaghChal, MOVE_BASE, pack};
use crate::{Action, Side};

/// The position under symmetry `sym`, its repetition history included.
pub(super) fn transformed(game: &BaghChal, sym: usize) -> BaghChal {
    let unpack_map = |key: u64| {
        let tigers = tables::map_points(sym, (key & 0x1FF_FFFF) as u32);
        let goats = tables::map_points(sym, (key >> 25 & 0x1FF_FFFF) as u32);
        pack(tigers, goats, Side::from_index((key >> 50) as usize))
    };
    let mut image = game.clone();
    image.tigers = tables::map_points(sym, game.tigers);
    image.goats = tables::map_points(sym, game.goats);
    image.history = game.history.iter().map(|&k| unpack_map(k)).collect();
    image.hash = image.compute_hash();
    image
}

/// The action that corresponds to `action` under symmetry `sym`.
pub(super) fn transform_action(action: Action, sym: usize) -> Action {
    let a = action as usize;
    if a < MOVE_BASE {
        return tables::POINT_IMAGE[sym][a] as Action;
    }
    debug_assert!(a < MOVE_BASE + POINTS * 16);
    let (m, jump) = ((a - MOVE_BASE) / 2, (a - MOVE_BASE) % 2);
    let from = tables::POINT_IMAGE[sym][m / 8] as usize;
    let dir = tables::DIR_IMAGE[sym][m % 8] as usize;
    (MOVE_BASE + (from * 8 + dir) * 2 + jump) as Action
}
