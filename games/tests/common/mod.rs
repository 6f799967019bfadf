//! Helpers shared by the games' test files.

use proptest::prelude::*;

/// Near-miss inputs: a valid string from `valid` with a few characters deleted, inserted or replaced (mostly
/// by characters of `alphabet`, the notation's own).
pub fn mutated(valid: &'static [&'static str], alphabet: &'static [char]) -> impl Strategy<Value = String> {
    let edit = (
        any::<prop::sample::Index>(),
        0u8..3,
        prop_oneof![4 => prop::sample::select(alphabet), 1 => any::<char>()],
    );
    (prop::sample::select(valid), prop::collection::vec(edit, 1..4)).prop_map(|(text, edits)| {
        let mut chars: Vec<char> = text.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 if i < chars.len() => {
                    chars.remove(i);
                }
                1 => chars.insert(i, c),
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        chars.into_iter().collect()
    })
}
