//! The search tree of one game: nodes in one flat arena, children as contiguous index ranges.
//!
//! Nodes hold no game state (a position is rebuilt by replaying the actions from the root), so a node is a
//! few dozen bytes and the arena is the only allocation; it is cleared or compacted, never freed, when the
//! game moves on, so memory per game in flight stays bounded by the largest search.

use zero_games::{Action, Side};

/// Index of a node in its tree's arena.
pub type NodeId = u32;

/// The root always sits at index 0.
pub const ROOT: NodeId = 0;

/// One node: a position reached by `action` from its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node {
    /// Prior of `action` in the parent (Dirichlet noise included at a noised root).
    pub prior: f32,
    /// Sum of backed-up values, from the view of the player who chose `action` (the parent's side to move);
    /// at the root, from the root's side to move.
    pub value_sum: f32,
    /// The evaluator's value of this position, from its own side to move's view (NaN until evaluated).
    pub raw_value: f32,
    /// The game's static judgement minimaxed over the tree below (implicit minimax backups, [`crate::minimax`]),
    /// from the same view as `value_sum`; NaN where the search judges nothing statically.
    pub minimax: f32,
    /// Completed simulations through this node (its own evaluation included).
    pub visits: u32,
    /// Simulations on their way through this node, not yet backed up (virtual loss).
    pub in_flight: u32,
    /// First child's index; children are `first_child..first_child + child_count`.
    pub first_child: u32,
    pub child_count: u16,
    /// The action from the parent into this node.
    pub action: Action,
    /// The side to move at this node (0 or 1).
    pub to_move: u8,
    /// Expansion state.
    pub state: NodeState,
}

/// Where a node stands in the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    /// Never reached.
    New,
    /// Waiting for its evaluation.
    Pending,
    /// Evaluated; its children exist.
    Expanded,
    /// The game is over here; `raw_value` holds the result.
    Terminal,
}

impl Node {
    fn new(action: Action, prior: f32, to_move: u8) -> Node {
        Node {
            prior,
            value_sum: 0.0,
            raw_value: f32::NAN,
            minimax: f32::NAN,
            visits: 0,
            in_flight: 0,
            first_child: 0,
            child_count: 0,
            action,
            to_move,
            state: NodeState::New,
        }
    }

    /// Mean backed-up value from the parent's side to move's view (at the root: the root's own view).
    pub fn q(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / self.visits as f32
        }
    }

    pub fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.child_count as u32
    }

    pub fn is_leaf(&self) -> bool {
        self.state != NodeState::Expanded
    }
}

/// One game's tree.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Second arena used while compacting a kept subtree; swapped with `nodes`, so both keep their capacity.
    spare: Vec<Node>,
}

impl Tree {
    /// An empty tree whose root is a new node for a position with `to_move` to move.
    pub fn new(to_move: Side) -> Tree {
        let mut tree = Tree::default();
        tree.reset(to_move);
        tree
    }

    /// Drops every node and starts again from a fresh root, keeping the arena's capacity.
    pub fn reset(&mut self, to_move: Side) {
        self.nodes.clear();
        self.nodes.push(Node::new(0, 1.0, to_move.index() as u8));
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes held by the arenas (capacity, not just length): the tree's memory.
    pub fn arena_bytes(&self) -> usize {
        (self.nodes.capacity() + self.spare.capacity()) * std::mem::size_of::<Node>()
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn root(&self) -> &Node {
        &self.nodes[ROOT as usize]
    }

    /// Creates the children of `id` (one per legal action with its prior) and marks it expanded.
    /// A child's side to move is unknown until the search first plays its action ([`Tree::reach`] sets it).
    pub fn expand(&mut self, id: NodeId, actions: &[Action], priors: &[f32], raw_value: f32) {
        debug_assert_eq!(actions.len(), priors.len());
        let first = self.nodes.len() as u32;
        for (&a, &p) in actions.iter().zip(priors) {
            self.nodes.push(Node::new(a, p, 0));
        }
        let node = &mut self.nodes[id as usize];
        node.first_child = first;
        node.child_count = u16::try_from(actions.len()).expect("fewer than 65536 legal actions");
        node.raw_value = raw_value;
        node.state = NodeState::Expanded;
    }

    /// Records the side to move of a node the search has just reached for the first time.
    pub fn reach(&mut self, id: NodeId, to_move: Side) {
        self.nodes[id as usize].to_move = to_move.index() as u8;
    }

    /// Marks `id` as waiting for its evaluation.
    pub fn set_pending(&mut self, id: NodeId) {
        self.nodes[id as usize].state = NodeState::Pending;
    }

    /// Marks `id` as a finished game worth `value` to its own side to move.
    pub fn set_terminal(&mut self, id: NodeId, value: f32) {
        let node = &mut self.nodes[id as usize];
        node.raw_value = value;
        node.state = NodeState::Terminal;
    }

    /// The child of `id` reached by `action`, if `id` is expanded and has it.
    pub fn child_by_action(&self, id: NodeId, action: Action) -> Option<NodeId> {
        self.node(id).children().find(|&c| self.node(c).action == action)
    }

    /// Adds a virtual loss to every node of `path` (root first).
    pub fn add_in_flight(&mut self, path: &[NodeId]) {
        for &id in path {
            self.nodes[id as usize].in_flight += 1;
        }
    }

    /// Backs `value` (from the view of the side to move at the last node of `path`) up to the root, flipping its
    /// sign only where the side to move changes between a node and its parent, and removes the path's virtual
    /// loss when `was_in_flight`.
    pub fn backup(&mut self, path: &[NodeId], value: f32, was_in_flight: bool) {
        let mut value = value; // from the view of the side to move at the current node
        for (i, &id) in path.iter().enumerate().rev() {
            let to_move = self.nodes[id as usize].to_move;
            let parent_to_move = if i == 0 {
                to_move
            } else {
                self.nodes[path[i - 1] as usize].to_move
            };
            if parent_to_move != to_move {
                value = -value;
            }
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.value_sum += value;
            if was_in_flight {
                node.in_flight -= 1;
            }
        }
    }

    /// Removes the virtual loss of a path whose leaf was abandoned (a collision with another pending leaf).
    pub fn cancel_in_flight(&mut self, path: &[NodeId]) {
        for &id in path {
            self.nodes[id as usize].in_flight -= 1;
        }
    }

    /// Makes child `new_root` of the root the new root, keeping its subtree (compacted into the spare arena so
    /// children stay contiguous) and dropping everything else. Its value sum is re-expressed from its own side
    /// to move's view, as a root's is.
    pub fn keep_subtree(&mut self, new_root: NodeId) {
        let old_root_to_move = self.root().to_move;
        self.spare.clear();
        let mut root = self.nodes[new_root as usize];
        if root.to_move != old_root_to_move {
            root.value_sum = -root.value_sum;
        }
        root.in_flight = 0;
        self.spare.push(root);
        // Breadth-first copy: `spare[i]` came from `nodes[origin[i]]`; children are copied as whole ranges.
        let mut origin: Vec<NodeId> = vec![new_root];
        let mut i = 0;
        while i < self.spare.len() {
            let old = self.nodes[origin[i] as usize];
            if old.child_count > 0 {
                let first = self.spare.len() as u32;
                for c in old.children() {
                    let mut child = self.nodes[c as usize];
                    child.in_flight = 0;
                    self.spare.push(child);
                    origin.push(c);
                }
                self.spare[i].first_child = first;
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.spare.clear();
    }

    /// Visit counts of the root's children, in child order.
    pub fn root_child_visits(&self) -> Vec<u32> {
        self.root().children().map(|c| self.node(c).visits).collect()
    }

    /// Sum of the root's children's visits.
    pub fn root_child_visit_sum(&self) -> u32 {
        self.root().children().map(|c| self.node(c).visits).sum()
    }
}
