//! The solved sliding phase as it is kept and probed: one block of values per symmetry orbit of tiger sets.
//!
//! Positions are numbered with the tiger set first ([`LayerIndex`]), so all positions with one tiger set are a
//! contiguous block. The eight symmetries of the board map a position onto one of equal value, so only the
//! blocks whose tiger set is the least-ranked of its orbit are kept: 1,666 of the 12,650 tiger sets, and
//! 92,946,140 values, 5% more than the 88,260,972 classes (a tiger set that some symmetry keeps stores the
//! images of its positions under that symmetry too). A probe maps the position by the symmetry that takes its
//! tiger set to the orbit's least member.

use crate::classes::{ClassCounts, count_classes_in_blocks};
use crate::index::{LAYERS, LayerIndex, Orbits, Slide};
use crate::retro::Value;
use crate::slide::{Successor, successors};
use rayon::prelude::*;
use zero_games::baghchal::board::map_points;

/// One layer's kept blocks.
#[derive(Debug, Clone)]
pub struct KeptLayer {
    pub index: LayerIndex,
    /// The encoded values ([`Value::encode`]) of the kept blocks, one after another.
    pub values: Vec<u16>,
    /// Its classes by value, goats to move first: counted when solved, read from the header when opened
    /// ([`Table::counts`] counts them again).
    pub classes: [ClassCounts; 2],
}

/// The kept values of every layer held, layer `c` at `[c]` (a finished table holds all five; a solve's partial
/// one layers 4 down to some `c`), and how to find a position among them.
#[derive(Debug, Clone)]
pub struct Table {
    pub orbits: Orbits,
    pub layers: Vec<Option<KeptLayer>>,
}

impl Table {
    /// A table holding no layer yet.
    pub fn empty() -> Table {
        Table {
            orbits: Orbits::new(&LayerIndex::new(0)),
            layers: vec![None; LAYERS as usize],
        }
    }

    /// Keeps the blocks of a fully solved layer `c` ([`crate::slide::solve_layer`]'s values).
    pub fn insert_solved(&mut self, c: u32, values: &[u16]) {
        self.layers[c as usize] = Some(keep_blocks(&self.orbits, LayerIndex::new(c), values));
    }

    /// The layers held, from four captured down, with their capture counts.
    pub fn held(&self) -> impl Iterator<Item = (u32, &KeptLayer)> {
        self.layers
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(c, layer)| layer.as_ref().map(|l| (c as u32, l)))
    }

    /// The value of a valid sliding-phase position for its side to move; its layer must be held.
    pub fn value(&self, slide: &Slide) -> Value {
        let layer = self.layers[slide.captured as usize]
            .as_ref()
            .expect("the layer is held");
        let code = layer.values[kept_position(&self.orbits, &layer.index, slide)];
        Value::decode(code).expect("a table holds decided values only")
    }

    /// The classes of each layer held won, lost and drawn, goats to move first, counted from the values.
    pub fn counts(&self) -> Vec<(u32, [ClassCounts; 2])> {
        self.held()
            .map(|(c, layer)| (c, count_kept(&self.orbits, layer)))
            .collect()
    }

    /// Every value of the held layer `c`, every position's own (the solver's input when it solves layer
    /// `c - 1`).
    pub fn expand_layer(&self, c: u32) -> Vec<u16> {
        let layer = self.layers[c as usize].as_ref().expect("the layer is held");
        let block = layer.index.tiger_block();
        let mut full = vec![0u16; layer.index.positions()];
        full.par_chunks_mut(block).enumerate().for_each(|(rank, out)| {
            for (offset, slot) in out.iter_mut().enumerate() {
                let slide = layer.index.slide(rank * block + offset);
                *slot = layer.values[kept_position(&self.orbits, &layer.index, &slide)];
            }
        });
        full
    }

    /// Re-checks every kept value against the values of its position's children ([`Value::from_children`]) and
    /// returns the positions where they disagree, at most `report` of them, with the number found.
    pub fn inconsistencies(&self, report: usize) -> (u64, Vec<String>) {
        let mut found = 0;
        let mut examples = Vec::new();
        for (_, layer) in self.held() {
            let block = layer.index.tiger_block();
            let (n, mut some) = self
                .orbits
                .kept()
                .par_iter()
                .enumerate()
                .map(|(k, &rank)| {
                    let mut bad = (0u64, Vec::new());
                    for offset in 0..block {
                        let slide = layer.index.slide(rank * block + offset);
                        let stored = Value::decode(layer.values[k * block + offset]);
                        let implied = self.implied(&slide);
                        if stored != Some(implied) {
                            bad.0 += 1;
                            if bad.1.len() < report {
                                bad.1.push(format!(
                                    "{}: stored {stored:?}, children imply {implied:?}",
                                    slide.notation()
                                ));
                            }
                        }
                    }
                    bad
                })
                .reduce(
                    || (0, Vec::new()),
                    |mut a, b| {
                        a.0 += b.0;
                        a.1.extend(b.1);
                        a
                    },
                );
            found += n;
            some.truncate(report.saturating_sub(examples.len()));
            examples.extend(some);
        }
        (found, examples)
    }

    /// The value the table's children of `slide` give it.
    fn implied(&self, slide: &Slide) -> Value {
        let mut children = Vec::with_capacity(32);
        successors(slide, &mut |next| {
            children.push(match next {
                Successor::Position(p) => self.value(&p),
                Successor::TigersWon => Value::Loss(0),
            })
        });
        Value::from_children(children)
    }
}

/// The kept blocks of one fully solved layer.
fn keep_blocks(orbits: &Orbits, index: LayerIndex, values: &[u16]) -> KeptLayer {
    let block = index.tiger_block();
    let mut kept = Vec::with_capacity(orbits.kept().len() * block);
    for &rank in orbits.kept() {
        kept.extend_from_slice(&values[rank * block..(rank + 1) * block]);
    }
    let mut layer = KeptLayer {
        index,
        values: kept,
        classes: Default::default(),
    };
    layer.classes = count_kept(orbits, &layer);
    layer
}

/// The classes of a layer's kept values.
fn count_kept(orbits: &Orbits, layer: &KeptLayer) -> [ClassCounts; 2] {
    let block = layer.index.tiger_block();
    count_classes_in_blocks(&layer.index, orbits.kept(), &|k| {
        &layer.values[k * block..(k + 1) * block]
    })
}

/// Where the value of `slide` is kept among its layer's kept blocks.
fn kept_position(orbits: &Orbits, index: &LayerIndex, slide: &Slide) -> usize {
    let sym = orbits.to_least(index.tiger_rank(slide.tigers));
    let image = Slide {
        tigers: map_points(sym, slide.tigers),
        empty: map_points(sym, slide.empty),
        ..*slide
    };
    let full = index.index(&image);
    let block = index.tiger_block();
    let kept = orbits
        .kept_block(full / block)
        .expect("the least tiger set of an orbit is kept");
    kept * block + full % block
}
