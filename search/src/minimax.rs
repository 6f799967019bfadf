//! Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014): beside its mean of backed-up
//! values, each node of the tree keeps the minimax of a static judgement over the part of the tree searched so
//! far, and PUCT selection weighs the two ([`SearchConfig::minimax_weight`]).
//!
//! Why: a young network's values are a blur of results, and a search that averages them plays into lines that
//! lose material a few plies on, where alpha-beta with the same static judgement sees the loss exactly. The
//! minimax of the static judgement is as sharp as alpha-beta's over the searched tree, and where the search has
//! looked deeper it overrules the heuristic of the position itself; the mean keeps what the network knows.
//!
//! How: when a leaf is expanded, every child is judged at once (one move played and judged, the game's result
//! where the move ends it, the captures then pending played out first: [`heuristic_judge`]), and the leaf's
//! minimax becomes the best of them; the change is then carried up the path, each node taking the best of its
//! children, until a node's value does not change. A node's `minimax` is from the view of its parent's side to
//! move, as its `value_sum` is, so selection reads both alike.
//!
//! [`SearchConfig::minimax_weight`]: crate::SearchConfig::minimax_weight

use crate::tree::{NodeId, Tree};
use zero_games::{ActionList, Game, Heuristic, Side};

/// A static judgement of a position reached by a move of `mover`, from the mover's view, in [-1, 1].
pub type StaticJudge<G> = fn(&G, Side) -> f32;

/// Plies of captures the judge plays out before it trusts the heuristic.
pub const QUIESCENCE_PLIES: u32 = 4;

/// The static judge of a game with a [`Heuristic`]: a finished game's result (1 a win, 0 a draw, -1 a loss),
/// else the heuristic from the mover's view once the captures pending in the position are played out (a
/// quiescence search over [`Heuristic::captures`], [`QUIESCENCE_PLIES`] deep, where the side to move may also
/// decline to capture). A game that names no captures is judged by the greedy baseline's one-ply judgement
/// ([`value_after`](zero_games::heuristic::value_after)), a win scored as one rather than above every heuristic
/// value, so that the judge stays on the values' scale.
///
/// Why the captures: a move that leaves a pawn to be taken looks as good as any other to the heuristic of the
/// position it makes, and a young network's search that trusts it walks into the losses alpha-beta sees.
pub fn heuristic_judge<G: Heuristic>(position: &G, mover: Side) -> f32 {
    let value = settled_value(position, -1.0, 1.0, QUIESCENCE_PLIES);
    if position.to_move() == mover { value } else { -value }
}

/// The value of `position` from its side to move's view, in [-1, 1]: the better of its heuristic (declining
/// every capture) and each capture's settled value, searched with the window (`alpha`, `beta`).
fn settled_value<G: Heuristic>(position: &G, mut alpha: f32, beta: f32, plies_left: u32) -> f32 {
    let me = position.to_move();
    if let Some(outcome) = position.outcome() {
        return outcome.value_for(me);
    }
    let mut best = position.heuristic().clamp(-1.0, 1.0);
    if plies_left == 0 || best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    let mut captures = ActionList::new();
    position.captures(&mut captures);
    for &action in captures.iter() {
        let mut next = position.clone();
        next.apply_action(action);
        let value = if next.to_move() == me {
            settled_value(&next, alpha, beta, plies_left - 1)
        } else {
            -settled_value(&next, -beta, -alpha, plies_left - 1)
        };
        if value > best {
            best = value;
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// A child's value for choosing among children: its mean value `q` (from the parent mover's view) blended with
/// its static `minimax` by `weight` ([`SearchConfig::minimax_weight`](crate::SearchConfig::minimax_weight)), or
/// `q` alone where nothing below the child is judged (NaN). PUCT selection and the Gumbel root's completed Q
/// both read a child through it.
pub(crate) fn blend(q: f32, minimax: f32, weight: f32) -> f32 {
    if minimax.is_nan() {
        q
    } else {
        (1.0 - weight) * q + weight * minimax
    }
}

/// Judges each child of the just-expanded `path`'s leaf, whose position is `leaf`, and carries the leaf's new
/// minimax up the path. `scratch` is a position buffer (overwritten).
pub(crate) fn back_up<G: Game>(tree: &mut Tree, path: &[NodeId], leaf: &G, judge: StaticJudge<G>, scratch: &mut G) {
    let leaf_id = *path.last().expect("a path has a leaf");
    let mover = leaf.to_move();
    for child in tree.node(leaf_id).children() {
        scratch.clone_from(leaf);
        scratch.apply_action(tree.node(child).action);
        tree.node_mut(child).minimax = judge(scratch, mover);
    }
    for i in (1..path.len()).rev() {
        let (id, parent) = (path[i], path[i - 1]);
        let best = best_child(tree, id);
        if best.is_nan() {
            return;
        }
        let value = if tree.node(id).to_move == tree.node(parent).to_move {
            best
        } else {
            -best
        };
        // The rest of the path depends on this node only through its value.
        if tree.node(id).minimax == value {
            return;
        }
        tree.node_mut(id).minimax = value;
    }
}

/// The highest minimax among the children of `id` (from its side to move's view), NaN if none is judged.
fn best_child(tree: &Tree, id: NodeId) -> f32 {
    tree.node(id)
        .children()
        .map(|c| tree.node(c).minimax)
        .filter(|v| !v.is_nan())
        .fold(f32::NAN, f32::max)
}
