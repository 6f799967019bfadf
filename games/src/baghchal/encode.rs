//! The network's input planes for Bagh Chal (`docs/encoding.md`, section "Bagh Chal").
//!
//! Tigers and goats are different pieces, so the board is never turned (the canonical symmetry is 0) and the
//! planes name the pieces; one plane says which side is to move. The repetition ban of the default rules is left
//! to the legal-action mask (banned moves are not legal actions); the planes only say how long the repetition
//! history is, how often the current position occurred, and which repetition rule applies.

use super::tables::{POINTS, has_diagonals};
use super::{BaghChal, CAPTURE_TARGET, GOATS, RepetitionRule};
use crate::Side;

/// Number of input planes.
pub(super) const PLANES: usize = 14;
/// Board planes (tigers, goats, empty, diagonals); the rest are constant planes.
const BOARD_PLANES: usize = 4;
/// Repetition-history lengths are scaled by this and clamped to 1.
const HISTORY_SCALE: f32 = 100.0;

/// 1 on the points that diagonal lines pass through (file + rank even), else 0: the board's geometry.
const DIAGONALS: [f32; POINTS] = {
    let mut plane = [0.0; POINTS];
    let mut p = 0;
    while p < POINTS {
        if has_diagonals(p) {
            plane[p] = 1.0;
        }
        p += 1;
    }
    plane
};

/// `part / whole` clamped to `[0, 1]`; 0 when `whole` is 0 (a limit switched off).
fn ratio(part: u32, whole: u32) -> f32 {
    if whole == 0 {
        0.0
    } else {
        (part as f32 / whole as f32).min(1.0)
    }
}

/// Writes the planes of `game` (see the module documentation and `docs/encoding.md`).
pub(super) fn encode(game: &BaghChal, planes: &mut [f32]) {
    assert_eq!(planes.len(), PLANES * POINTS, "Bagh Chal planes are {PLANES} x 5 x 5");
    let (board, scalars) = planes.split_at_mut(BOARD_PLANES * POINTS);
    let (tigers, rest) = board.split_at_mut(POINTS);
    let (goats, rest) = rest.split_at_mut(POINTS);
    let (empty, diagonals) = rest.split_at_mut(POINTS);
    for p in 0..POINTS {
        let tiger = (game.tigers >> p & 1) as f32;
        let goat = (game.goats >> p & 1) as f32;
        tigers[p] = tiger;
        goats[p] = goat;
        empty[p] = 1.0 - tiger - goat;
    }
    diagonals.copy_from_slice(&DIAGONALS);

    let rule = game.rules.repetition;
    let flag = |on: bool| if on { 1.0 } else { 0.0 };
    let values: [f32; PLANES - BOARD_PLANES] = [
        flag(game.side == Side::First),
        game.in_hand as f32 / GOATS as f32,
        (game.captured as f32 / CAPTURE_TARGET as f32).min(1.0),
        flag(game.in_hand > 0),
        ratio(game.ply, game.rules.max_plies),
        (game.history.len() as f32 / HISTORY_SCALE).min(1.0),
        game.repetitions().saturating_sub(1).min(2) as f32 / 2.0,
        flag(rule == RepetitionRule::Ban),
        flag(rule == RepetitionRule::GoatsLose),
        flag(rule == RepetitionRule::ThreefoldDraw),
    ];
    for (plane, value) in scalars.chunks_exact_mut(POINTS).zip(values) {
        plane.fill(value);
    }
}
