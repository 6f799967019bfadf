//! Move generation: one generator for every variant, parameterised by [`Rules`].
//!
//! Quiet moves of men are counted with bitboard shifts. Captures are found by a depth-first search that plays
//! each jump on a scratch copy of the board and takes it back, so that later jumps see the towers as the
//! earlier jumps left them (stacking capture). Nothing here allocates.

// A direction indexes the neighbour table at every step of a ray, not one array: plain index loops read best.
#![allow(clippy::needless_range_loop)]

use super::board::{Board, Tower};
use super::geometry::{CROWN_RANK, NEIGHBOUR, NONE, step};
use super::rules::{CaptureTransfer, KingLanding, PromotionMidCapture, Rejump, Rules};

/// The most jumps in one move: each jump takes an enemy-coloured piece (it must command the jumped tower), and
/// a piece taken stays under the capturer until the move ends.
pub const MAX_JUMPS: usize = 12;

/// The squares jumped so far in the move in progress, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct JumpLog {
    pub squares: [u8; MAX_JUMPS],
    pub len: u8,
    pub mask: u32,
}

impl JumpLog {
    #[inline]
    pub fn push(&mut self, square: usize) {
        self.squares[self.len as usize] = square as u8;
        self.len += 1;
        self.mask |= 1 << square;
    }

    #[inline]
    fn pop(&mut self) {
        self.len -= 1;
        let square = self.squares[self.len as usize];
        self.squares[self.len as usize] = 0;
        // A square may be jumped more than once; keep it in the mask if it still is in the log.
        if !self.as_slice().contains(&square) {
            self.mask &= !(1 << square);
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }

    pub fn last(&self) -> Option<usize> {
        self.as_slice().last().map(|&s| s as usize)
    }
}

/// Capture directions of men: all four, or forward only (White north = 0, 1; Black south = 2, 3).
#[inline]
fn man_capture_directions(rules: &Rules, mover: usize) -> u8 {
    match (rules.men_capture_backward, mover) {
        (true, _) => 0b1111,
        (false, 0) => 0b0011,
        (false, _) => 0b1100,
    }
}

/// The scratch state of the capture search for one side: the board with the capturing tower lifted off it.
pub(crate) struct CaptureSearch<'r> {
    board: Board,
    rules: &'r Rules,
    mover: usize,
    man_directions: u8,
    capturer: Tower,
    king: bool,
    log: JumpLog,
    stops: [u8; MAX_JUMPS],
    stop_count: usize,
}

impl<'r> CaptureSearch<'r> {
    pub fn new(board: &Board, rules: &'r Rules, mover: usize) -> Self {
        CaptureSearch {
            board: board.clone(),
            rules,
            mover,
            man_directions: man_capture_directions(rules, mover),
            capturer: Tower::EMPTY,
            king: false,
            log: JumpLog::default(),
            stops: [0; MAX_JUMPS],
            stop_count: 0,
        }
    }

    /// Lifts the tower on `from` to capture with it, in a move whose jumps so far are `log`.
    fn begin(&mut self, from: usize, log: JumpLog) {
        self.capturer = self.board.lift(from);
        self.king = self.capturer.0 & 2 != 0;
        self.log = log;
        self.stop_count = 0;
    }

    fn end(&mut self, from: usize) {
        self.board.place(from, self.capturer);
    }

    /// The squares the capturer may jump now: commanded by the enemy and allowed by the rejump rule.
    #[inline]
    fn targets(&self) -> u32 {
        let enemy = self.board.by_colour[self.mover ^ 1];
        match self.rules.rejump {
            Rejump::NotConsecutive => match self.log.last() {
                Some(last) => enemy & !(1 << last),
                None => enemy,
            },
            Rejump::Once => enemy & !self.log.mask,
            Rejump::Free => enemy,
        }
    }

    /// The tower the capturer would jump from `sq` in direction `d`, and the first landing square.
    #[inline]
    fn jump_in(&self, sq: usize, d: usize, targets: u32, occupied: u32) -> Option<(usize, usize)> {
        let mut s = NEIGHBOUR[sq][d];
        if self.king {
            while s != NONE && occupied & (1 << s) == 0 {
                s = NEIGHBOUR[s as usize][d];
            }
        }
        if s == NONE || targets & (1 << s) == 0 {
            return None;
        }
        let land = NEIGHBOUR[s as usize][d];
        (land != NONE && occupied & (1 << land) == 0).then_some((s as usize, land as usize))
    }

    /// Whether the capturer, standing on `sq`, has a jump.
    #[inline]
    fn has_jump(&self, sq: usize) -> bool {
        let (targets, occupied) = (self.targets(), self.board.occupied());
        if !self.king {
            // A man: two bitboard steps per direction.
            let (from, empty) = (1u32 << sq, !occupied);
            return (0..4)
                .any(|d| self.man_directions & (1 << d) != 0 && step(step(from, d) & targets, d) & empty != 0);
        }
        (0..4).any(|d| self.jump_in(sq, d, targets, occupied).is_some())
    }

    /// Jumps the tower on `mid`; returns the piece taken (when the transfer is immediate).
    #[inline]
    fn make_jump(&mut self, mid: usize) -> u64 {
        self.log.push(mid);
        if self.rules.capture_transfer == CaptureTransfer::Immediate {
            let code = self.board.pop_top(mid);
            self.capturer.put_under(code);
            code
        } else {
            0
        }
    }

    #[inline]
    fn unmake_jump(&mut self, mid: usize, code: u64) {
        self.log.pop();
        if self.rules.capture_transfer == CaptureTransfer::Immediate {
            let height = self.capturer.height() as u32 - 1;
            self.capturer.0 = (self.capturer.0 & !(3 << (2 * height))) - (1 << 56);
            self.board.push_top(mid, code);
        }
    }

    /// Explores every jump from `sq`. With `ONE_LEVEL`, reports each legal landing square (one action) as a
    /// one-square slice; otherwise reports every complete sequence of stops. Returns whether any jump exists.
    fn explore<const ONE_LEVEL: bool, F: FnMut(&[u8])>(&mut self, sq: usize, emit: &mut F) -> bool {
        let directions = if self.king { 0b1111 } else { self.man_directions };
        let mut found = false;
        let (targets, occupied) = (self.targets(), self.board.occupied());
        for d in 0..4 {
            if directions & (1 << d) == 0 {
                continue;
            }
            let Some((mid, first_landing)) = self.jump_in(sq, d, targets, occupied) else {
                continue;
            };
            found = true;
            let mut landings = [0u8; 7];
            let mut count = 0;
            let mut t = first_landing as u8;
            while t != NONE && occupied & (1 << t) == 0 {
                landings[count] = t;
                count += 1;
                if !self.king {
                    break;
                }
                t = NEIGHBOUR[t as usize][d];
            }
            let taken = self.make_jump(mid);
            // Rule 6: a king must land where it can go on capturing, if such a square exists.
            let mut allowed = u8::MAX;
            if self.king && count > 1 && self.rules.king_landing == KingLanding::Continue {
                let continuing = (0..count)
                    .filter(|&i| self.has_jump(landings[i] as usize))
                    .fold(0u8, |mask, i| mask | 1 << i);
                if continuing != 0 {
                    allowed = continuing;
                }
            }
            for (i, &land) in landings[..count].iter().enumerate() {
                if allowed & (1 << i) != 0 {
                    self.land::<ONE_LEVEL, F>(land as usize, emit);
                }
            }
            self.unmake_jump(mid, taken);
        }
        found
    }

    /// The capturer lands on `land`: crowning, then either the move goes on or it ends here.
    #[inline]
    fn land<const ONE_LEVEL: bool, F: FnMut(&[u8])>(&mut self, land: usize, emit: &mut F) {
        self.stops[self.stop_count] = land as u8;
        self.stop_count += 1;
        let crowned = !self.king && CROWN_RANK[self.mover] & (1 << land) != 0;
        if crowned {
            self.king = true;
            self.capturer.crown();
        }
        if ONE_LEVEL {
            emit(&[land as u8]);
        } else if crowned && self.rules.promotion_mid_capture == PromotionMidCapture::Stop
            || !self.explore::<false, F>(land, emit)
        {
            emit(&self.stops[..self.stop_count]);
        }
        if crowned {
            self.king = false;
            self.capturer.0 &= !2;
        }
        self.stop_count -= 1;
    }

    /// Reports every complete capture of the tower on `from` (given the jumps `log` already made this move) as
    /// its list of stops; returns whether it has any.
    pub fn captures_from<F: FnMut(&[u8])>(&mut self, from: usize, log: JumpLog, emit: &mut F) -> bool {
        self.begin(from, log);
        let found = self.explore::<false, F>(from, emit);
        self.end(from);
        found
    }

    /// Reports the legal next jumps of the tower on `from` as landing squares.
    pub fn jumps_from<F: FnMut(&[u8])>(&mut self, from: usize, log: JumpLog, emit: &mut F) -> bool {
        self.begin(from, log);
        let found = self.explore::<true, F>(from, emit);
        self.end(from);
        found
    }

    /// Whether the tower on `from` can jump (given the jumps `log` already made this move).
    pub fn can_jump_from(&mut self, from: usize, log: JumpLog) -> bool {
        self.begin(from, log);
        let found = self.has_jump(from);
        self.end(from);
        found
    }
}

/// The towers of `mover` that can capture at the start of a move (no jumps made yet): men by bitboard shifts,
/// kings by walking their diagonals.
#[inline]
pub(crate) fn capturers(board: &Board, rules: &Rules, mover: usize) -> u32 {
    let own = board.by_colour[mover];
    let enemy = board.by_colour[mover ^ 1];
    let empty = !(own | enemy);
    let men = own & !board.kings;
    let directions = man_capture_directions(rules, mover);
    // Unrolled so that every shift is a constant; most positions have no capture, so stepping back to the
    // capturing men happens only when there is one.
    let men_towards = |d: usize| if directions & (1 << d) != 0 { men } else { 0 };
    let landings = [
        step(step(men_towards(0), 0) & enemy, 0) & empty,
        step(step(men_towards(1), 1) & enemy, 1) & empty,
        step(step(men_towards(2), 2) & enemy, 2) & empty,
        step(step(men_towards(3), 3) & enemy, 3) & empty,
    ];
    let mut found = 0;
    if landings != [0; 4] {
        found = step(step(landings[0], 3), 3)
            | step(step(landings[1], 2), 2)
            | step(step(landings[2], 1), 1)
            | step(step(landings[3], 0), 0);
    }
    let mut kings = own & board.kings;
    while kings != 0 {
        let sq = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for d in 0..4 {
            let mut s = NEIGHBOUR[sq][d];
            while s != NONE && empty & (1 << s) != 0 {
                s = NEIGHBOUR[s as usize][d];
            }
            if s != NONE && enemy & (1 << s) != 0 {
                let land = NEIGHBOUR[s as usize][d];
                if land != NONE && empty & (1 << land) != 0 {
                    found |= 1 << sq;
                    break;
                }
            }
        }
    }
    found
}

/// Counts the captures of the men in `men` that are single jumps (no further jump, no crowning), without the
/// search; returns the count and the men that need the full search. A man's next jump goes over a square
/// next to its landing square, so after one jump only the enemy squares (less the one just jumped, which the
/// rejump rules `not_consecutive` and `once` forbid) and the empty squares matter; with `rejump=free` every
/// man goes to the search.
#[inline]
pub(crate) fn count_single_man_jumps(board: &Board, rules: &Rules, mover: usize, men: u32) -> (u64, u32) {
    if rules.rejump == Rejump::Free {
        return (0, men);
    }
    let enemy = board.by_colour[mover ^ 1];
    let empty = !board.occupied();
    let directions = man_capture_directions(rules, mover);
    let (mut count, mut complex) = (0u64, 0u32);
    let mut rest = men;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut jumps = 0;
        for d in 0..4 {
            let mid = NEIGHBOUR[sq][d];
            if directions & (1 << d) == 0 || mid == NONE || enemy & (1 << mid) == 0 {
                continue;
            }
            let land = NEIGHBOUR[mid as usize][d];
            if land == NONE || empty & (1 << land) == 0 {
                continue;
            }
            let targets = enemy & !(1 << mid);
            let goes_on =
                (0..4).any(|e| directions & (1 << e) != 0 && step(step(1 << land, e) & targets, e) & empty != 0);
            if goes_on || CROWN_RANK[mover] & (1 << land) != 0 {
                complex |= 1 << sq;
                break;
            }
            jumps += 1;
        }
        if complex & (1 << sq) == 0 {
            count += jumps;
        }
    }
    (count, complex)
}

/// Forward directions of men: White north (0, 1), Black south (2, 3).
#[inline]
pub(crate) fn forward_directions(mover: usize) -> [usize; 2] {
    if mover == 0 { [0, 1] } else { [2, 3] }
}

/// Counts the quiet moves of `mover` (no capture).
#[inline]
pub(crate) fn count_quiet(board: &Board, mover: usize) -> u64 {
    let own = board.by_colour[mover];
    let empty = !board.occupied();
    let men = own & !board.kings;
    let [d0, d1] = forward_directions(mover);
    let mut count = (step(men, d0) & empty).count_ones() + (step(men, d1) & empty).count_ones();
    let mut kings = own & board.kings;
    while kings != 0 {
        let sq = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for d in 0..4 {
            let mut s = NEIGHBOUR[sq][d];
            while s != NONE && empty & (1 << s) != 0 {
                count += 1;
                s = NEIGHBOUR[s as usize][d];
            }
        }
    }
    count as u64
}

/// Reports every quiet move of `mover` as (from, to).
pub(crate) fn quiet_moves(board: &Board, mover: usize, mut emit: impl FnMut(usize, usize)) {
    let own = board.by_colour[mover];
    let empty = !board.occupied();
    let mut towers = own;
    while towers != 0 {
        let sq = towers.trailing_zeros() as usize;
        towers &= towers - 1;
        if board.kings & (1 << sq) != 0 {
            for d in 0..4 {
                let mut s = NEIGHBOUR[sq][d];
                while s != NONE && empty & (1 << s) != 0 {
                    emit(sq, s as usize);
                    s = NEIGHBOUR[s as usize][d];
                }
            }
        } else {
            for d in forward_directions(mover) {
                let s = NEIGHBOUR[sq][d];
                if s != NONE && empty & (1 << s) != 0 {
                    emit(sq, s as usize);
                }
            }
        }
    }
}
