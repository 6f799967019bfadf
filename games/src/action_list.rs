//! A fixed-capacity list of actions that lives on the stack, so that generating actions never allocates.

use crate::Action;

/// Upper bound on the legal actions of any position of any game (Tours comes closest, with a few hundred).
pub const MAX_ACTIONS: usize = 1024;

/// Legal actions of one position, without heap allocation.
#[derive(Clone)]
pub struct ActionList {
    len: usize,
    items: [Action; MAX_ACTIONS],
}

impl ActionList {
    pub const fn new() -> Self {
        ActionList {
            len: 0,
            items: [0; MAX_ACTIONS],
        }
    }

    /// Appends an action. Panics past [`MAX_ACTIONS`], which no legal position reaches.
    #[inline]
    pub fn push(&mut self, action: Action) {
        self.items[self.len] = action;
        self.len += 1;
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Action] {
        &mut self.items[..self.len]
    }

    pub fn contains(&self, action: Action) -> bool {
        self.as_slice().contains(&action)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Action> {
        self.as_slice().iter()
    }
}

impl Default for ActionList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ActionList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a ActionList {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
