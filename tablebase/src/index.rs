//! Numbering of Bagh Chal's sliding-phase positions: every goat placed, `captured` of them (0-4) taken, four
//! tigers, the side to move. One layer per capture count; inside it a position is
//! `(tiger_rank * empty_sets + empty_rank) * 2 + side`, where `tiger_rank` numbers the tigers' four points
//! among the 25 (12,650 sets) and `empty_rank` the `captured + 1` empty points among the 21 the tigers leave
//! (the goats fill the rest). Both ranks are colexicographic (the combinatorial number system).

use zero_games::baghchal::board::{ALL_POINTS, POINTS, SYMMETRIES, map_points};

/// Goats in all; the tigers win at the fifth capture.
pub const GOATS: u32 = 20;
pub const TIGERS: u32 = 4;
/// Layers 0..=4 captured.
pub const LAYERS: u32 = 5;
const FREE_POINTS: usize = POINTS - TIGERS as usize;

/// `BINOMIAL[n][k]` for n <= 25.
const BINOMIAL: [[u64; 26]; 26] = {
    let mut t = [[0u64; 26]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n { 0 } else { BINOMIAL[n][k] }
}

/// The colexicographic rank of the set `bits` (its members are bit positions).
fn rank_set(mut bits: u32) -> u64 {
    let mut rank = 0;
    let mut k = 1;
    while bits != 0 {
        rank += binomial(bits.trailing_zeros() as usize, k);
        bits &= bits - 1;
        k += 1;
    }
    rank
}

/// The `k`-member set of colexicographic rank `rank` over `0..n`.
fn unrank_set(mut rank: u64, k: usize, n: usize) -> u32 {
    let mut bits = 0;
    let mut top = n;
    for members in (1..=k).rev() {
        // The largest member m has binomial(m, members) <= rank.
        let mut m = top - 1;
        while binomial(m, members) > rank {
            m -= 1;
        }
        bits |= 1 << m;
        rank -= binomial(m, members);
        top = m;
    }
    bits
}

/// A sliding-phase position: tigers and empty points as bitboards (the goats are the other points), the number
/// of goats captured, and whether the tigers are to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slide {
    pub tigers: u32,
    pub empty: u32,
    pub captured: u32,
    pub tigers_to_move: bool,
}

impl Slide {
    pub fn goats(&self) -> u32 {
        ALL_POINTS & !self.tigers & !self.empty
    }

    /// The position in the rules core's notation (`zero_games::baghchal`: ranks 5 down to 1, side, none in
    /// hand, captured).
    pub fn notation(&self) -> String {
        let ranks: Vec<String> = (0..5)
            .rev()
            .map(|rank| {
                (0..5)
                    .map(|file| match 1u32 << (file + 5 * rank) {
                        bit if self.tigers & bit != 0 => 'T',
                        bit if self.empty & bit != 0 => '.',
                        _ => 'G',
                    })
                    .collect()
            })
            .collect();
        let side = if self.tigers_to_move { 't' } else { 'g' };
        format!("{} {side} 0 {}", ranks.join("/"), self.captured)
    }

    /// Whether the parts make a sliding-phase position: four tigers, `captured + 1` empty points apart from them,
    /// at most four captured.
    pub fn is_valid(&self) -> bool {
        self.captured < LAYERS
            && self.tigers & !ALL_POINTS == 0
            && self.empty & !ALL_POINTS == 0
            && self.tigers & self.empty == 0
            && self.tigers.count_ones() == TIGERS
            && self.empty.count_ones() == self.captured + 1
    }
}

/// The numbering of one layer, with the sets of each rank tabled (the solver turns numbers into positions
/// billions of times).
#[derive(Debug, Clone)]
pub struct LayerIndex {
    pub captured: u32,
    empty_sets: u64,
    /// The tiger set of each tiger rank.
    tiger_sets: Vec<u32>,
    /// The points free of tigers, in order, for each tiger rank.
    free_points: Vec<[u8; FREE_POINTS]>,
    /// The compressed empty set of each empty rank.
    compressed_empty: Vec<u32>,
}

impl LayerIndex {
    pub fn new(captured: u32) -> Self {
        assert!(
            captured < LAYERS,
            "a sliding-phase layer has at most {} captured",
            LAYERS - 1
        );
        let empty_sets = binomial(FREE_POINTS, captured as usize + 1);
        let tiger_sets: Vec<u32> = (0..binomial(POINTS, TIGERS as usize))
            .map(|r| unrank_set(r, TIGERS as usize, POINTS))
            .collect();
        let free_points = tiger_sets
            .iter()
            .map(|&tigers| {
                let mut points = [0u8; FREE_POINTS];
                let free = (0..POINTS as u8).filter(|p| tigers >> p & 1 == 0);
                points.iter_mut().zip(free).for_each(|(slot, p)| *slot = p);
                points
            })
            .collect();
        let compressed_empty = (0..empty_sets)
            .map(|r| unrank_set(r, captured as usize + 1, FREE_POINTS))
            .collect();
        LayerIndex {
            captured,
            empty_sets,
            tiger_sets,
            free_points,
            compressed_empty,
        }
    }

    /// Positions in the layer, both sides to move.
    pub fn positions(&self) -> usize {
        (binomial(POINTS, TIGERS as usize) * self.empty_sets * 2) as usize
    }

    /// The rank of a set of four tiger points: positions are numbered by it first.
    pub fn tiger_rank(&self, tigers: u32) -> usize {
        rank_set(tigers) as usize
    }

    /// The set of four tiger points of rank `rank` (below 12,650).
    pub fn tiger_set(&self, rank: usize) -> u32 {
        self.tiger_sets[rank]
    }

    /// Tiger sets in all: 12,650, the four-point subsets of the 25 points.
    pub fn tiger_sets(&self) -> usize {
        self.tiger_sets.len()
    }

    /// Positions that share one tiger set: consecutive numbers, both sides to move.
    pub fn tiger_block(&self) -> usize {
        self.empty_sets as usize * 2
    }

    /// The number of `slide` (which must be valid and of this layer).
    pub fn index(&self, slide: &Slide) -> usize {
        debug_assert!(slide.is_valid() && slide.captured == self.captured, "{slide:?}");
        let tiger_rank = rank_set(slide.tigers);
        let empty_rank = rank_set(compress(slide.empty, slide.tigers));
        ((tiger_rank * self.empty_sets + empty_rank) * 2 + slide.tigers_to_move as u64) as usize
    }

    /// The position numbered `i`.
    pub fn slide(&self, i: usize) -> Slide {
        let i = i as u64;
        let (pair, side) = (i / 2, i % 2);
        let (tiger_rank, empty_rank) = ((pair / self.empty_sets) as usize, (pair % self.empty_sets) as usize);
        let free = &self.free_points[tiger_rank];
        let mut empty = 0;
        let mut compressed = self.compressed_empty[empty_rank];
        while compressed != 0 {
            empty |= 1 << free[compressed.trailing_zeros() as usize];
            compressed &= compressed - 1;
        }
        Slide {
            tigers: self.tiger_sets[tiger_rank],
            empty,
            captured: self.captured,
            tigers_to_move: side == 1,
        }
    }
}

/// For every tiger set, the symmetry that maps it to the least-ranked set of its orbit, and the kept block of
/// that least set.
#[derive(Debug, Clone)]
pub struct Orbits {
    /// Per tiger rank: a symmetry that maps the set onto its orbit's least member.
    to_least: Vec<u8>,
    /// Per tiger rank: its block among the kept ones, when it is its orbit's least member.
    kept_block: Vec<Option<u32>>,
    /// The kept tiger ranks, in order.
    kept: Vec<usize>,
}

impl Orbits {
    pub fn new(index: &LayerIndex) -> Orbits {
        let sets = index.tiger_sets();
        let mut to_least = Vec::with_capacity(sets);
        let mut kept_block = Vec::with_capacity(sets);
        let mut kept = Vec::new();
        for rank in 0..sets {
            let tigers = index.tiger_set(rank);
            let (least, sym) = (0..SYMMETRIES)
                .map(|sym| (index.tiger_rank(map_points(sym, tigers)), sym))
                .min()
                .expect("eight symmetries");
            to_least.push(sym as u8);
            if least == rank {
                kept_block.push(Some(kept.len() as u32));
                kept.push(rank);
            } else {
                kept_block.push(None);
            }
        }
        Orbits {
            to_least,
            kept_block,
            kept,
        }
    }

    /// A symmetry that maps the tiger set of rank `rank` onto its orbit's least member.
    pub fn to_least(&self, rank: usize) -> usize {
        self.to_least[rank] as usize
    }

    /// The kept block of tiger rank `rank`, when it is its orbit's least member.
    pub fn kept_block(&self, rank: usize) -> Option<usize> {
        self.kept_block[rank].map(|k| k as usize)
    }

    /// The tiger ranks whose blocks are kept, in the order they are kept.
    pub fn kept(&self) -> &[usize] {
        &self.kept
    }
}

/// `set` (no tiger point in it) with the tiger points squeezed out: bit `j` for the `j`-th free point.
fn compress(set: u32, tigers: u32) -> u32 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1 << (p - (tigers & ((1 << p) - 1)).count_ones());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layers_hold_the_counted_positions() {
        let sizes: Vec<usize> = (0..LAYERS).map(|c| LayerIndex::new(c).positions()).collect();
        // 12,650 tiger sets times C(21, c + 1) empty sets, both sides to move: 705,743,500 in all.
        assert_eq!(sizes, [531_300, 5_313_000, 33_649_000, 151_420_500, 514_829_700]);
    }

    #[test]
    fn numbers_and_positions_correspond_one_to_one() {
        for captured in 0..LAYERS {
            let layer = LayerIndex::new(captured);
            let step = (layer.positions() / 5000).max(1);
            for i in (0..layer.positions()).step_by(step).chain([layer.positions() - 1]) {
                let slide = layer.slide(i);
                assert!(slide.is_valid(), "{i}: {slide:?}");
                assert_eq!(layer.index(&slide), i, "{slide:?}");
            }
        }
    }

    #[test]
    fn one_tiger_set_of_each_orbit_is_kept_and_every_set_maps_onto_its_own() {
        let index = LayerIndex::new(0);
        let orbits = Orbits::new(&index);
        assert_eq!(orbits.kept().len(), 1666);
        for rank in 0..index.tiger_sets() {
            let sym = orbits.to_least[rank] as usize;
            let least = index.tiger_rank(map_points(sym, index.tiger_set(rank)));
            assert!(least <= rank && orbits.kept_block[least].is_some(), "{rank}");
        }
    }
}
