//! The eight symmetries of the Tours board applied to positions and actions (see `grid::map_vector` for the
//! numbering).

use super::tables::{self, SQUARES};
use super::{FORM_ACTIONS, Tours};
use crate::Action;

/// The position under symmetry `sym`: stacks, pending compound collapse and hash mapped; counters kept.
pub(super) fn transformed(game: &Tours, sym: usize) -> Tours {
    let mut image = game.clone();
    for c in 0..2 {
        image.occupied[c] = tables::map_squares(sym, game.occupied[c]);
        image.lone[c] = tables::map_squares(sym, game.lone[c]);
    }
    for s in 0..SQUARES {
        image.height[tables::SQUARE_IMAGE[sym][s] as usize] = game.height[s];
    }
    image.pending = game.pending.map(|(s, d)| {
        (
            tables::SQUARE_IMAGE[sym][s as usize],
            tables::DIR_IMAGE[sym][d as usize],
        )
    });
    image.hash = image.compute_hash();
    image
}

/// The action that corresponds to `action` under symmetry `sym`.
pub(super) fn transform_action(action: Action, sym: usize) -> Action {
    let a = action as usize;
    if a < FORM_ACTIONS {
        let (base, dir, len) = (a / 56, a / 7 % 8, a % 7 + 2);
        let base = tables::SQUARE_IMAGE[sym][base];
        let dir = tables::DIR_IMAGE[sym][dir];
        Tours::form_action(base, dir, len as u8)
    } else {
        let c = a - FORM_ACTIONS;
        Tours::collapse_action(tables::SQUARE_IMAGE[sym][c / 8], tables::DIR_IMAGE[sym][c % 8])
    }
}
