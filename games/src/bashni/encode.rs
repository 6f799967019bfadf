//! The network's input planes for Bashni, from the side to move's view (layout in `docs/encoding.md`).
//!
//! The board is shown as the side to move sees it: when Black is to move, it is turned by 180 degrees and the
//! colours are swapped (symmetry 1), so "own" pieces are always the mover's and own men always move up (towards
//! row 7). Encoding a Black-to-move position gives exactly the planes of its `transformed(1)` image. Light
//! squares are 0 in every plane. The planes are written straight from the packed towers, without turning a
//! copy of the game.

use super::board::Tower;
use super::geometry::{NONE, file_of};
use super::movegen::MAX_JUMPS;
use super::state::Bashni;

/// Pieces of each tower shown one by one, from the commander (depth 0) down; the rest are counted.
pub const TOWER_DEPTH: usize = 8;
/// Rows and columns of each plane.
pub const BOARD_SIZE: usize = 8;
/// Cells of one plane.
pub const PLANE_CELLS: usize = BOARD_SIZE * BOARD_SIZE;

/// Plane indices. The piece planes come first: plane `piece(depth, kind)` marks the squares whose tower has a
/// piece of `kind` at `depth` (0 = the commander).
pub mod planes {
    use super::{MAX_JUMPS, TOWER_DEPTH};

    /// Piece kinds within a depth's group of four planes.
    pub const OWN_MAN: usize = 0;
    pub const OWN_KING: usize = 1;
    pub const OPPONENT_MAN: usize = 2;
    pub const OPPONENT_KING: usize = 3;

    /// The plane of pieces of `kind` (`OWN_MAN` .. `OPPONENT_KING`) at `depth` (`0..TOWER_DEPTH`).
    pub const fn piece(depth: usize, kind: usize) -> usize {
        depth * 4 + kind
    }

    /// Own pieces deeper than `TOWER_DEPTH - 1`, divided by 12.
    pub const OWN_BELOW: usize = 4 * TOWER_DEPTH;
    /// Opponent pieces deeper than `TOWER_DEPTH - 1`, divided by 12.
    pub const OPPONENT_BELOW: usize = OWN_BELOW + 1;
    /// Height of the tower, divided by 24.
    pub const HEIGHT: usize = OWN_BELOW + 2;
    /// 1 on the square of the tower in the middle of a capture.
    pub const CAPTURING: usize = OWN_BELOW + 3;
    /// 1 on the square jumped last in the capture in progress.
    pub const LAST_JUMPED: usize = OWN_BELOW + 4;
    /// 1 on every square jumped so far in the capture in progress.
    pub const JUMPED: usize = OWN_BELOW + 5;
    /// On each jumped square, `(i + 1) / MAX_JUMPS` where `i` is its last place in the jump order (0 = first).
    pub const JUMP_ORDER: usize = OWN_BELOW + 6;
    /// Constant: 1 in the middle of a capture (the side to move must go on jumping with the capturing tower).
    pub const MID_CAPTURE: usize = OWN_BELOW + 7;
    /// Constant: plies since progress / `no_progress_plies` (0 when the rule is off).
    pub const NO_PROGRESS: usize = OWN_BELOW + 8;
    /// Constant: occurrences of the current position / `repetition` (0 when the rule is off).
    pub const REPETITION: usize = OWN_BELOW + 9;
    /// Constant: plies played / `max_plies` (0 when the rule is off).
    pub const PLY: usize = OWN_BELOW + 10;
    /// Constant: 1 (on the dark squares), so that convolutions see the board's edge.
    pub const ONES: usize = OWN_BELOW + 11;
    /// Number of planes.
    pub const COUNT: usize = OWN_BELOW + 12;

    /// The divisor of [`JUMP_ORDER`].
    pub const JUMP_ORDER_SCALE: usize = MAX_JUMPS;
}

/// Number of input planes.
pub const INPUT_PLANES: usize = planes::COUNT;

/// Cell (`row * 8 + column`) of each square as White sees the board; Black sees square `s` at `63 - cell`.
const CELL: [usize; 32] = {
    let mut cells = [0; 32];
    let mut s = 0;
    while s < 32 {
        cells[s] = (s / 4) * BOARD_SIZE + file_of(s);
        s += 1;
    }
    cells
};

/// The dark cells: the same set in both views, since turning the board keeps a cell's colour.
const DARK_CELLS: [usize; 32] = CELL;

#[inline]
fn ratio(value: usize, limit: u32) -> f32 {
    if limit == 0 {
        0.0
    } else {
        (value as f32 / limit as f32).min(1.0)
    }
}

impl Bashni {
    /// The symmetry that shows the board from the side to move's view: 1 when Black is to move.
    pub(crate) fn canonical_symmetry(&self) -> usize {
        self.side
    }

    /// Writes the [`INPUT_PLANES`] planes of 8 x 8 (see the module docs and `docs/encoding.md`).
    pub(crate) fn encode_planes(&self, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            INPUT_PLANES * PLANE_CELLS,
            "Bashni encodes {INPUT_PLANES} planes of 8 x 8"
        );
        out.fill(0.0);
        let side = self.side as u64;
        // Black's view turns the board: cell c becomes 63 - c.
        let cell = |s: usize| if side == 0 { CELL[s] } else { PLANE_CELLS - 1 - CELL[s] };

        let mut occupied = self.board.occupied();
        while occupied != 0 {
            let s = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let c = cell(s);
            let Tower(bits) = self.board.towers[s];
            let height = (bits >> 56) as usize;
            for depth in 0..height.min(TOWER_DEPTH) {
                let code = bits >> (2 * depth) & 3;
                // Bit 0 of a piece is its colour (1 = Black), bit 1 whether it is a king.
                let kind = (((code & 1) ^ side) << 1 | code >> 1) as usize;
                out[planes::piece(depth, kind) * PLANE_CELLS + c] = 1.0;
            }
            if height > TOWER_DEPTH {
                let below = height - TOWER_DEPTH;
                // Colour bits of the pieces below the shown ones; `side` set means "opponent" for White.
                let colours = (bits >> (2 * TOWER_DEPTH)) & 0x5555_5555_5555 & ((1u64 << (2 * below)) - 1);
                let black = colours.count_ones() as usize;
                let (own, opponent) = if side == 0 {
                    (below - black, black)
                } else {
                    (black, below - black)
                };
                out[planes::OWN_BELOW * PLANE_CELLS + c] = own as f32 / 12.0;
                out[planes::OPPONENT_BELOW * PLANE_CELLS + c] = opponent as f32 / 12.0;
            }
            out[planes::HEIGHT * PLANE_CELLS + c] = height as f32 / 24.0;
        }

        let mid_capture = self.capturing != NONE;
        if mid_capture {
            out[planes::CAPTURING * PLANE_CELLS + cell(self.capturing as usize)] = 1.0;
            let jumped = self.log.as_slice();
            if let Some(&last) = jumped.last() {
                out[planes::LAST_JUMPED * PLANE_CELLS + cell(last as usize)] = 1.0;
            }
            for (i, &s) in jumped.iter().enumerate() {
                let c = cell(s as usize);
                out[planes::JUMPED * PLANE_CELLS + c] = 1.0;
                out[planes::JUMP_ORDER * PLANE_CELLS + c] = (i + 1) as f32 / planes::JUMP_ORDER_SCALE as f32;
            }
        }

        let rules = &self.rules;
        let constants = [
            (planes::MID_CAPTURE, if mid_capture { 1.0 } else { 0.0 }),
            (
                planes::NO_PROGRESS,
                ratio(self.quiet_plies as usize, rules.no_progress_plies),
            ),
            (planes::REPETITION, ratio(self.repetition_count(), rules.repetition)),
            (planes::PLY, ratio(self.ply as usize, rules.max_plies)),
            (planes::ONES, 1.0),
        ];
        for (plane, value) in constants {
            if value != 0.0 {
                let plane = &mut out[plane * PLANE_CELLS..(plane + 1) * PLANE_CELLS];
                for &c in &DARK_CELLS {
                    plane[c] = value;
                }
            }
        }
    }
}
