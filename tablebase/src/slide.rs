//! Bagh Chal's sliding phase as layers for the retrograde solver ([`crate::retro`]): moves and unmoves on
//! bitboards, under the `threefold-draw` rules (every step legal; a position that neither side can force to an
//! end is a draw). A tiger's capture leaves the layer for the next one, solved before it; the fifth ends the game.

use crate::index::{LAYERS, LayerIndex, Slide};
use crate::retro::{self, Child, Layer, SolveError, Value};
use zero_games::baghchal::board::{JUMP, NONE, STEP};

/// One capture count's positions, with the solved values of the next layer (none for four captured, where the
/// next capture ends the game).
pub struct SlideLayer<'a> {
    pub index: LayerIndex,
    pub next: Option<(&'a LayerIndex, &'a [u16])>,
}

fn each_bit(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Where a move from a sliding-phase position leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Successor {
    /// A sliding-phase position: of the same layer after a step, of the next after a capture.
    Position(Slide),
    /// The tigers' fifth capture: the game is over and the goats have lost.
    TigersWon,
}

/// Calls `f` with where each legal move of `s` leads, under the `threefold-draw` rules (every step legal).
pub fn successors(s: &Slide, f: &mut dyn FnMut(Successor)) {
    let movers = if s.tigers_to_move { s.tigers } else { s.goats() };
    each_bit(movers, |from| {
        for dir in 0..8 {
            let to = STEP[from][dir];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            if s.empty >> to & 1 != 0 {
                f(Successor::Position(stepped(s, from, to)));
            } else if s.tigers_to_move && s.tigers >> to & 1 == 0 {
                let land = JUMP[from][dir];
                if land != NONE && s.empty >> land & 1 != 0 {
                    f(captured(s, from, to, land as usize));
                }
            }
        }
    });
}

/// The position after the piece on `from` steps to the empty `to`.
fn stepped(s: &Slide, from: usize, to: usize) -> Slide {
    let flip = 1 << from | 1 << to;
    Slide {
        tigers: if s.tigers_to_move { s.tigers ^ flip } else { s.tigers },
        empty: s.empty ^ flip,
        captured: s.captured,
        tigers_to_move: !s.tigers_to_move,
    }
}

/// Where the tiger on `from` capturing the goat on `over` and landing on `to` leads.
fn captured(s: &Slide, from: usize, over: usize, to: usize) -> Successor {
    if s.captured + 1 == LAYERS {
        return Successor::TigersWon;
    }
    Successor::Position(Slide {
        tigers: s.tigers ^ (1 << from | 1 << to),
        empty: s.empty ^ (1 << from | 1 << over | 1 << to),
        captured: s.captured + 1,
        tigers_to_move: false,
    })
}

impl Layer for SlideLayer<'_> {
    fn positions(&self) -> usize {
        self.index.positions()
    }

    fn for_each_child(&self, i: usize, f: &mut dyn FnMut(Child)) {
        let s = self.index.slide(i);
        successors(&s, &mut |next| match next {
            Successor::Position(p) if p.captured == s.captured => f(Child::InLayer(self.index.index(&p))),
            Successor::Position(p) => {
                let (index, values) = self.next.expect("a capture below the fifth leads into the next layer");
                f(Child::Decided(
                    Value::decode(values[index.index(&p)]).expect("the next layer is solved"),
                ))
            }
            Successor::TigersWon => f(Child::Decided(Value::Loss(0))),
        });
    }

    fn for_each_parent(&self, i: usize, f: &mut dyn FnMut(usize)) {
        // The side not to move made the last move; inside a layer it was a step from an empty point next to the
        // piece (lines run both ways, so the step back is a step too).
        let s = self.index.slide(i);
        let moved = if s.tigers_to_move { s.goats() } else { s.tigers };
        let before_side = !s.tigers_to_move;
        each_bit(moved, |to| {
            for &from in &STEP[to] {
                if from != NONE && s.empty >> from & 1 != 0 {
                    let flip = 1 << from | 1 << to;
                    let parent = Slide {
                        tigers: if before_side { s.tigers ^ flip } else { s.tigers },
                        empty: s.empty ^ flip,
                        captured: s.captured,
                        tigers_to_move: before_side,
                    };
                    f(self.index.index(&parent));
                }
            }
        });
    }
}

/// The values of every position of layer `c` ([`LayerIndex`]'s numbering), given the values of every position
/// of layer `c + 1` (none for four captured, where the next capture ends the game). `progress` gets the depth
/// finished and the positions decided so far.
pub fn solve_layer(c: u32, next: Option<&[u16]>, progress: &mut dyn FnMut(u16, usize)) -> Result<Vec<u16>, SolveError> {
    let next_index = (c + 1 < LAYERS).then(|| LayerIndex::new(c + 1));
    let next = match (&next_index, next) {
        (Some(index), Some(values)) => Some((index, values)),
        (None, None) => None,
        _ => panic!("layer {c} needs the next layer's values exactly when it is not the last"),
    };
    let layer = SlideLayer {
        index: LayerIndex::new(c),
        next,
    };
    retro::solve(&layer, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use zero_games::Game;
    use zero_games::baghchal::BaghChal;

    /// The position in the rules core's notation, under `threefold-draw` (every step legal).
    fn game(s: &Slide) -> BaghChal {
        let rules = BaghChal::parse_rules(None, &["repetition=threefold-draw".to_string()]).unwrap();
        BaghChal::from_position(&rules, &s.notation()).unwrap()
    }

    #[test]
    fn moves_are_the_rules_cores_and_every_move_has_its_unmove() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let indexes: Vec<LayerIndex> = (0..LAYERS).map(LayerIndex::new).collect();
        // Captures are counted here; where they lead is the next layer's business.
        for _ in 0..3000 {
            let c = rng.random_range(0..LAYERS);
            let index = &indexes[c as usize];
            let i = rng.random_range(0..index.positions());
            let s = index.slide(i);
            let layer = SlideLayer {
                index: index.clone(),
                next: None,
            };
            let mut inside = Vec::new();
            let mut captures = 0;
            successors(&s, &mut |next| match next {
                Successor::Position(p) if p.captured == c => inside.push(index.index(&p)),
                _ => captures += 1,
            });
            let g = game(&s);
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let mut expected_inside = Vec::new();
            let mut expected_captures = 0;
            for mv in &moves {
                let mut after = g.clone();
                after.play(mv);
                if after.goats_captured() == c {
                    let t = after.tiger_points();
                    let empty = zero_games::baghchal::board::ALL_POINTS & !t & !after.goat_points();
                    let child = Slide {
                        tigers: t,
                        empty,
                        captured: c,
                        tigers_to_move: !s.tigers_to_move,
                    };
                    expected_inside.push(index.index(&child));
                } else {
                    expected_captures += 1;
                }
            }
            inside.sort();
            expected_inside.sort();
            assert_eq!(
                (inside.clone(), captures),
                (expected_inside, expected_captures),
                "{s:?}"
            );
            for j in inside {
                let mut found = 0;
                layer.for_each_parent(j, &mut |p| found += (p == i) as usize);
                assert_eq!(found, 1, "{s:?}: the move to {:?} has no single unmove", index.slide(j));
            }
        }
    }
}
