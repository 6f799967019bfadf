//! Retrograde analysis of one layer of a game graph: every position's game-theoretic value for the side to move
//! (win, loss or draw) and, for decided ones, the plies to the end under best play: the fastest win, the slowest
//! loss. Positions outside the layer that a move reaches (after a capture, say) are already decided and come
//! with their value; positions that neither side can force to an end are draws, as under a rule that draws a
//! repeated position.
//!
//! The search goes by plies to the end, `d = 0, 1, 2, ...`: a scan finds the positions decided at `d`, and each
//! one's predecessors learn of it. A predecessor of a loss wins at `d + 1`; a predecessor of a win counts down
//! its moves not yet refuted, and loses once none is left, at one ply more than its longest refutation. No queue
//! is kept: the scans read the value array, so memory is the values (two bytes a position) and a move counter
//! (one byte).

use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicUsize};

/// A position's value for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies at the latest, whatever the other does (0 never occurs).
    Win(u16),
    /// The side to move loses in this many plies, at the earliest if it plays on as long as it can (0: it has
    /// lost, with no legal move).
    Loss(u16),
    Draw,
}

/// In words: "win in 7 plies", "loss in 1 ply", "draw".
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plies = |d: u16| {
            if d == 1 {
                "1 ply".to_string()
            } else {
                format!("{d} plies")
            }
        };
        match *self {
            Value::Win(d) => write!(f, "win in {}", plies(d)),
            Value::Loss(d) => write!(f, "loss in {}", plies(d)),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// The longest distance a value can hold.
pub const MAX_PLIES: u16 = 0x3FFF;

const TAG: u16 = 0xC000;
const PENDING: u16 = 0x0000;
const DRAW: u16 = 0x4000;
const WIN: u16 = 0x8000;
const LOSS: u16 = 0xC000;

impl Value {
    /// The value in two bytes (what tables hold).
    pub fn encode(self) -> u16 {
        match self {
            Value::Win(d) => WIN | d,
            Value::Loss(d) => LOSS | d,
            Value::Draw => DRAW,
        }
    }

    /// A value from [`Value::encode`]'s two bytes; `None` for an undecided entry.
    pub fn decode(code: u16) -> Option<Value> {
        let plies = code & !TAG;
        match code & TAG {
            WIN => Some(Value::Win(plies)),
            LOSS => Some(Value::Loss(plies)),
            DRAW => Some(Value::Draw),
            _ => None,
        }
    }

    /// The value for the side that moved into a position of this value, one ply earlier.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// How good the value is for its side, as a number to compare: any win beats a draw, which beats any loss; a
    /// sooner win and a later loss are better.
    pub fn goodness(self) -> i32 {
        match self {
            Value::Win(d) => i32::from(MAX_PLIES) + 1 - i32::from(d),
            Value::Draw => 0,
            Value::Loss(d) => i32::from(d) - i32::from(MAX_PLIES) - 1,
        }
    }

    /// The value of a position whose moves lead to positions of these values (each for its own side to move):
    /// the best of them for the mover, a loss at once when there is no move. This is the relation every solved
    /// position holds with its children.
    pub fn from_children(children: impl IntoIterator<Item = Value>) -> Value {
        children
            .into_iter()
            .map(Value::before)
            .max_by_key(|v| v.goodness())
            .unwrap_or(Value::Loss(0))
    }
}

/// A move's result as the layer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Child {
    /// A position of this layer, by index.
    InLayer(usize),
    /// A position decided already (another layer, or the end of the game), valued for its side to move.
    Decided(Value),
}

/// One layer of a game graph, its positions numbered `0..positions()`.
pub trait Layer: Sync {
    fn positions(&self) -> usize;
    /// Calls `f` with the result of each legal move from position `i`.
    fn for_each_child(&self, i: usize, f: &mut dyn FnMut(Child));
    /// Calls `f` with each position of this layer that has a move to `i`, once per such move.
    fn for_each_parent(&self, i: usize, f: &mut dyn FnMut(usize));
}

/// Why a layer could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("position {position} has {moves} moves inside its layer; the solver counts at most 255")]
    TooManyMoves { position: usize, moves: usize },
    #[error("a distance passed {MAX_PLIES} plies")]
    TooDeep,
}

/// The values of every position of `layer`, encoded ([`Value::encode`]); `progress` gets each finished depth
/// and the positions decided so far. Runs on rayon's pool: positions are read and decided through atomics, and
/// a depth's scan only ever writes values of greater depths, so the threads never need each other's order.
pub fn solve(layer: &dyn Layer, progress: &mut dyn FnMut(u16, usize)) -> Result<Vec<u16>, SolveError> {
    let n = layer.positions();
    // Three bytes a position and nothing more: the first look writes straight into the arrays.
    let values: Vec<AtomicU16> = (0..n).into_par_iter().map(|_| AtomicU16::new(PENDING)).collect();
    let moves_left: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    (0..n).into_par_iter().with_min_len(1 << 12).try_for_each(|i| {
        let (value, left) = first_look(layer, i)?;
        values[i].store(value, Relaxed);
        moves_left[i].store(left, Relaxed);
        Ok::<_, SolveError>(())
    })?;
    let deepest = AtomicU16::new(
        values
            .par_iter()
            .map(|v| v.load(Relaxed))
            .filter(|v| v & TAG != PENDING)
            .map(|v| v & !TAG)
            .max()
            .unwrap_or(0),
    );
    let decided = AtomicUsize::new(values.par_iter().filter(|v| v.load(Relaxed) & TAG != PENDING).count());
    let too_deep = AtomicBool::new(false);
    let mut depth = 0u16;
    while depth <= deepest.load(Relaxed) {
        (0..n).into_par_iter().with_min_len(1 << 12).for_each(|i| {
            let v = values[i].load(Relaxed);
            if v & TAG == PENDING || v & !TAG != depth {
                return;
            }
            layer.for_each_parent(i, &mut |p| {
                let decided_now = match v & TAG {
                    LOSS => win_through(&values[p], depth + 1),
                    WIN => refute(&values[p], &moves_left[p], depth),
                    _ => None,
                };
                if let Some(plies) = decided_now {
                    decided.fetch_add(1, Relaxed);
                    deepest.fetch_max(plies, Relaxed);
                    too_deep.fetch_or(plies > MAX_PLIES, Relaxed);
                }
            });
        });
        if too_deep.load(Relaxed) {
            return Err(SolveError::TooDeep);
        }
        progress(depth, decided.load(Relaxed));
        depth += 1;
    }
    drop(moves_left);
    // Sequential, so that the collection reuses the atomics' allocation in place.
    Ok(values
        .into_iter()
        .map(|v| match v.into_inner() {
            v if v & TAG == PENDING => DRAW,
            v => v,
        })
        .collect())
}

/// A move into a loss: the parent wins in `plies`, unless it was decided already (or wins sooner); the plies
/// when this decided it.
fn win_through(parent: &AtomicU16, plies: u16) -> Option<u16> {
    let mut current = parent.load(Relaxed);
    loop {
        let improves = match current & TAG {
            PENDING => true,
            // A slower win found through another layer.
            WIN => current & !TAG > plies,
            _ => false,
        };
        if !improves {
            return None;
        }
        match parent.compare_exchange_weak(current, WIN | plies, Relaxed, Relaxed) {
            Ok(_) => return (current & TAG == PENDING).then_some(plies),
            Err(now) => current = now,
        }
    }
}

/// A move into a win (at `depth`): one move of a pending parent refuted; when it was the last, the parent loses
/// one ply after its longest refutation. The plies when this decided it.
fn refute(parent: &AtomicU16, moves_left: &AtomicU8, depth: u16) -> Option<u16> {
    let current = parent.load(Relaxed);
    if current & TAG != PENDING || moves_left.fetch_sub(1, Relaxed) != 1 {
        return None;
    }
    // Every move is refuted, so no move wins: nothing else writes this parent now.
    let plies = depth.max(current & !TAG) + 1;
    parent.store(LOSS | plies.min(MAX_PLIES + 1), Relaxed);
    Some(plies)
}

/// Position `i` before any propagation: decided already (no move, or decided children only, or a win through
/// a decided child, which a faster one inside the layer may improve), or pending with its moves inside the layer
/// and, in its low bits, the longest loss of the opponent's that a decided child gives.
fn first_look(layer: &dyn Layer, i: usize) -> Result<(u16, u8), SolveError> {
    let (mut inside, mut fastest_win, mut longest_refutation) = (0usize, None::<u16>, 0u16);
    let mut any = false;
    layer.for_each_child(i, &mut |child| {
        any = true;
        match child {
            Child::InLayer(_) => inside += 1,
            // The child's value is the opponent's: its loss is a win one ply later, its win a refutation.
            Child::Decided(value) => match value {
                Value::Loss(k) => fastest_win = Some(fastest_win.map_or(k + 1, |w| w.min(k + 1))),
                Value::Win(k) => longest_refutation = longest_refutation.max(k),
                // A move into a draw is a move the opponent has not refuted: it stays counted as one.
                Value::Draw => inside += 1,
            },
        }
    });
    if inside > u8::MAX as usize {
        return Err(SolveError::TooManyMoves {
            position: i,
            moves: inside,
        });
    }
    if let Some(w) = fastest_win {
        return Ok((WIN | w.min(MAX_PLIES), 0));
    }
    if !any {
        return Ok((LOSS, 0));
    }
    if inside == 0 {
        return Ok((LOSS | (longest_refutation + 1), 0));
    }
    Ok((PENDING | longest_refutation, inside as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// A random game graph: some positions end the game (a loss for their side to move), the rest have moves to
    /// others, to decided outside positions, or both; cycles are common.
    struct Graph {
        children: Vec<Vec<Child>>,
        parents: Vec<Vec<usize>>,
    }

    impl Graph {
        fn random(n: usize, seed: u64) -> Graph {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut children = vec![Vec::new(); n];
            for list in children.iter_mut() {
                if rng.random_range(0..10) == 0 {
                    continue;
                }
                for _ in 0..rng.random_range(1..5) {
                    list.push(match rng.random_range(0..8) {
                        0 => Child::Decided(Value::Loss(rng.random_range(0..6))),
                        1 => Child::Decided(Value::Win(rng.random_range(1..6))),
                        2 => Child::Decided(Value::Draw),
                        _ => Child::InLayer(rng.random_range(0..n)),
                    });
                }
            }
            let mut parents = vec![Vec::new(); n];
            for (p, list) in children.iter().enumerate() {
                for c in list {
                    if let Child::InLayer(c) = c {
                        parents[*c].push(p);
                    }
                }
            }
            Graph { children, parents }
        }
    }

    impl Layer for Graph {
        fn positions(&self) -> usize {
            self.children.len()
        }
        fn for_each_child(&self, i: usize, f: &mut dyn FnMut(Child)) {
            self.children[i].iter().for_each(|&c| f(c));
        }
        fn for_each_parent(&self, i: usize, f: &mut dyn FnMut(usize)) {
            self.parents[i].iter().for_each(|&p| f(p));
        }
    }

    /// The values by plain fixed-point iteration from "unknown": the best of the moves, where a win is better
    /// the sooner and a loss the later, repeated until nothing changes; what stays unknown is a draw.
    fn by_iteration(g: &Graph) -> Vec<Value> {
        let n = g.positions();
        let mut known: Vec<Option<Value>> = vec![None; n];
        loop {
            let mut changed = false;
            for i in 0..n {
                let results: Vec<Option<Value>> = g.children[i]
                    .iter()
                    .map(|c| match c {
                        Child::InLayer(j) => known[*j].map(Value::before),
                        Child::Decided(v) => Some(v.before()),
                    })
                    .collect();
                let new = if results.is_empty() {
                    Some(Value::Loss(0))
                } else if let Some(w) = results.iter().flatten().filter_map(win_plies).min() {
                    Some(Value::Win(w))
                } else if results.iter().all(|r| matches!(r, Some(Value::Loss(_)))) {
                    results.iter().flatten().map(loss_plies).max().map(Value::Loss)
                } else {
                    None
                };
                if new != known[i] {
                    known[i] = new;
                    changed = true;
                }
            }
            if !changed {
                return known.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect();
            }
        }
    }

    #[test]
    fn every_solved_value_is_the_one_its_children_give() {
        for seed in 0..100 {
            let g = Graph::random(60, seed);
            let solved: Vec<Value> = solve(&g, &mut |_, _| {})
                .unwrap()
                .into_iter()
                .map(|c| Value::decode(c).unwrap())
                .collect();
            for (i, children) in g.children.iter().enumerate() {
                let values = children.iter().map(|c| match c {
                    Child::InLayer(j) => solved[*j],
                    Child::Decided(v) => *v,
                });
                assert_eq!(solved[i], Value::from_children(values), "seed {seed}, position {i}");
            }
        }
    }

    fn win_plies(v: &Value) -> Option<u16> {
        match v {
            Value::Win(d) => Some(*d),
            _ => None,
        }
    }

    fn loss_plies(v: &Value) -> u16 {
        match v {
            Value::Loss(d) => *d,
            _ => unreachable!(),
        }
    }

    #[test]
    fn values_and_distances_match_a_plain_fixed_point_on_random_graphs() {
        for seed in 0..200 {
            let graph = Graph::random(1 + seed as usize % 60, seed);
            let solved: Vec<Value> = solve(&graph, &mut |_, _| {})
                .unwrap()
                .into_iter()
                .map(|c| Value::decode(c).unwrap())
                .collect();
            assert_eq!(solved, by_iteration(&graph), "seed {seed}");
        }
    }

    #[test]
    fn a_two_cycle_is_a_draw_and_a_way_out_of_it_decides_it() {
        let cycle = Graph {
            children: vec![vec![Child::InLayer(1)], vec![Child::InLayer(0)]],
            parents: vec![vec![1], vec![0]],
        };
        assert_eq!(solve(&cycle, &mut |_, _| {}).unwrap(), [DRAW, DRAW]);
        // Position 1 may also move into a lost position outside the layer: it wins, and 0 loses.
        let out = Graph {
            children: vec![
                vec![Child::InLayer(1)],
                vec![Child::InLayer(0), Child::Decided(Value::Loss(0))],
            ],
            parents: vec![vec![1], vec![0]],
        };
        let values: Vec<Value> = solve(&out, &mut |_, _| {})
            .unwrap()
            .into_iter()
            .map(|v| Value::decode(v).unwrap())
            .collect();
        assert_eq!(values, [Value::Loss(2), Value::Win(1)]);
    }
}
