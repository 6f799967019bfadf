//! [`BenchPositions`]: the positions `zero bench perft` times for a game.

use crate::Game;

/// Positions (in notation, `start` allowed) and perft depths that `zero bench perft` measures: the start
/// position and at least one mid-game position, with depths that take a few seconds in release.
pub trait BenchPositions: Game {
    const BENCH_POSITIONS: &'static [(&'static str, u32)];
}
