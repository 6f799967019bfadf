//! The transposition table: for positions already searched, a bound on their score, so that a position
//! reached again by another order of moves is not searched again.
//!
//! One 8-byte slot per entry, indexed by a hash of the position's key; a new entry replaces whatever held its
//! slot. The slot keeps the whole key (49 bits) beside the bound, so a lookup never answers for another
//! position.

/// Bits of a slot below the key: the bound.
const BOUND_BITS: u32 = 8;
/// The bound's flag for a lower bound (else it is an upper bound).
const LOWER_FLAG: u64 = 0x80;
/// Added to a score to store it as a positive number under the flag (scores lie within -21..=21).
const SCORE_OFFSET: i32 = 64;

/// What the table knows of a position's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is at most this.
    Upper(i32),
    /// The score is at least this.
    Lower(i32),
}

pub(crate) struct Table {
    slots: Vec<u64>,
    /// 64 minus the number of index bits: the shift that keeps a hash's top bits.
    index_shift: u32,
}

impl Table {
    /// A table of 2^`bits` slots, with `bits` from 1 to 63 (the caller keeps it to a size it can allocate).
    pub(crate) fn new(bits: u32) -> Table {
        Table {
            slots: vec![0; 1 << bits],
            index_shift: 64 - bits,
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(0);
    }

    /// The bound stored for the position of `key` (never 0), if its slot still holds it.
    pub(crate) fn get(&self, key: u64) -> Option<Bound> {
        let slot = self.slots[self.index(key)];
        if slot >> BOUND_BITS != key {
            return None;
        }
        let score = (slot & (LOWER_FLAG - 1)) as i32 - SCORE_OFFSET;
        Some(if slot & LOWER_FLAG != 0 {
            Bound::Lower(score)
        } else {
            Bound::Upper(score)
        })
    }

    /// Stores `bound` for the position of `key` (never 0, under 2^56).
    pub(crate) fn put(&mut self, key: u64, bound: Bound) {
        let (score, flag) = match bound {
            Bound::Upper(score) => (score, 0),
            Bound::Lower(score) => (score, LOWER_FLAG),
        };
        let index = self.index(key);
        self.slots[index] = key << BOUND_BITS | flag | (score + SCORE_OFFSET) as u64;
    }

    /// The slot of `key`: the top bits of a multiplicative hash, which mixes every bit of the key into them.
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.index_shift) as usize
    }
}
