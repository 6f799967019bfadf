//! The Connect Four heuristic for the arena's baselines: the lines of four cells each player can still complete,
//! weighted by how many of their discs each already holds.

use super::{COLUMN_BITS, Connect4, HEIGHT, WIDTH, cell_bit};
use crate::Game;

/// Windows of four cells in a line on the board (24 horizontal, 21 vertical, 24 diagonal).
const WINDOWS: usize = 69;

/// Every window as a bitboard.
const WINDOW_MASKS: [u64; WINDOWS] = {
    let mut masks = [0u64; WINDOWS];
    let mut n = 0;
    // (column step, row step): horizontal, vertical, up-right, down-right.
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut s = 0;
    while s < 4 {
        let (dc, dr) = steps[s];
        let mut c = 0;
        while c < WIDTH as i32 {
            let mut r = 0;
            while r < HEIGHT as i32 {
                let (end_c, end_r) = (c + 3 * dc, r + 3 * dr);
                if end_c < WIDTH as i32 && end_r >= 0 && end_r < HEIGHT as i32 {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= cell_bit((c + k * dc) as usize, (r + k * dr) as usize);
                        k += 1;
                    }
                    masks[n] = mask;
                    n += 1;
                }
                r += 1;
            }
            c += 1;
        }
        s += 1;
    }
    assert!(n == WINDOWS);
    masks
};

/// The worth of an open window holding 0-3 of one player's discs (a window with four ends the game).
const WINDOW_WORTH: [f32; 4] = [0.0, 0.01, 0.05, 0.2];
/// The worth of each disc in the centre column, which lies in the most windows.
const CENTRE_WORTH: f32 = 0.03;
const CENTRE: u64 = ((1u64 << HEIGHT) - 1) << (WIDTH / 2 * COLUMN_BITS);

/// The side to move's open windows (and centre discs) minus the opponent's, through `tanh` into (-1, 1).
pub(super) fn heuristic(game: &Connect4) -> f32 {
    let own = game.discs(game.to_move());
    let theirs = game.discs(game.to_move().other());
    let mut score = CENTRE_WORTH * ((own & CENTRE).count_ones() as f32 - (theirs & CENTRE).count_ones() as f32);
    for &window in &WINDOW_MASKS {
        let (mine, other) = ((own & window).count_ones(), (theirs & window).count_ones());
        if other == 0 && mine < 4 {
            score += WINDOW_WORTH[mine as usize];
        } else if mine == 0 && other < 4 {
            score -= WINDOW_WORTH[other as usize];
        }
    }
    score.tanh()
}
