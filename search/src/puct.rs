//! PUCT child selection (AlphaZero with KataGo/lc0-style first-play urgency and virtual loss), Dirichlet noise
//! and temperature sampling of the played action.

use crate::config::SearchConfig;
use crate::minimax::blend;
use crate::tree::{NodeId, Tree};
use rand::RngExt;
use rand_distr::{Distribution, Gamma};

/// The exploration settings PUCT reads, copied out of the config once per search.
#[derive(Debug, Clone, Copy)]
pub struct PuctParams {
    pub c_puct: f32,
    pub c_puct_base: f32,
    pub fpu_reduction: f32,
    pub virtual_loss: f32,
    /// The weight of a child's static minimax beside its mean value ([`SearchConfig::minimax_weight`]).
    pub minimax_weight: f32,
}

impl PuctParams {
    pub fn from_config(config: &SearchConfig) -> Self {
        PuctParams {
            c_puct: config.c_puct,
            c_puct_base: config.c_puct_base,
            fpu_reduction: config.fpu_reduction,
            virtual_loss: config.virtual_loss,
            minimax_weight: config.minimax_weight,
        }
    }

    /// c(N) = c_init + ln((N + c_base + 1) / c_base), or c_init when the growth is off.
    pub fn exploration(&self, parent_visits: u32) -> f32 {
        if self.c_puct_base <= 0.0 {
            self.c_puct
        } else {
            self.c_puct + ((parent_visits as f32 + self.c_puct_base + 1.0) / self.c_puct_base).ln()
        }
    }
}

/// The parent's value from its own side to move's view: its evaluation counted as one visit plus its children's
/// backed-up sums (children store values from the parent's mover's view; the parent's own `value_sum` is from
/// the grandparent's mover's view, so it is not used here).
fn parent_q(tree: &Tree, parent: NodeId) -> f32 {
    let node = tree.node(parent);
    let own = if node.raw_value.is_finite() {
        node.raw_value
    } else {
        0.0
    };
    let mut visits = 0u32;
    let mut sum = 0.0f32;
    for c in node.children() {
        let child = tree.node(c);
        visits += child.visits;
        sum += child.value_sum;
    }
    (sum + own) / (visits + 1) as f32
}

/// The child of expanded node `parent` with the highest PUCT score, counting pending simulations as losses;
/// its value part is blended with the child's static minimax where the search keeps one ([`crate::minimax`]).
pub fn select_child(tree: &Tree, parent: NodeId, params: &PuctParams) -> NodeId {
    let node = tree.node(parent);
    let parent_visits = node.visits + node.in_flight;
    let c = params.exploration(parent_visits);
    let sqrt_n = (parent_visits.max(1) as f32).sqrt();
    let mut visited_prior = 0.0f32;
    for child in node.children() {
        let ch = tree.node(child);
        if ch.visits + ch.in_flight > 0 {
            visited_prior += ch.prior;
        }
    }
    let fpu = parent_q(tree, parent) - params.fpu_reduction * visited_prior.sqrt();
    let mut best = node.first_child;
    let mut best_score = f32::NEG_INFINITY;
    for child in node.children() {
        let ch = tree.node(child);
        let n = ch.visits + ch.in_flight;
        let q = if n == 0 {
            fpu
        } else {
            (ch.value_sum - params.virtual_loss * ch.in_flight as f32) / n as f32
        };
        let q = blend(q, ch.minimax, params.minimax_weight);
        let score = q + c * ch.prior * sqrt_n / (1.0 + n as f32);
        if score > best_score {
            best_score = score;
            best = child;
        }
    }
    best
}

/// Mixes Dirichlet(alpha_total / n) noise into the priors of the root's children. One child means no noise.
pub fn add_dirichlet_noise<R: rand::Rng>(tree: &mut Tree, alpha_total: f32, fraction: f32, rng: &mut R) {
    let children = tree.root().children();
    let n = children.len();
    if n < 2 || fraction <= 0.0 {
        return;
    }
    let alpha = (alpha_total / n as f32).max(1e-3);
    let gamma = Gamma::new(alpha, 1.0).expect("positive Dirichlet alpha");
    let mut noise: Vec<f32> = (0..n).map(|_| gamma.sample(rng)).collect();
    let sum: f32 = noise.iter().sum();
    if sum <= 0.0 || !sum.is_finite() {
        noise.fill(1.0 / n as f32);
    } else {
        noise.iter_mut().for_each(|x| *x /= sum);
    }
    for (child, eta) in children.zip(noise) {
        let node = tree.node_mut(child);
        node.prior = (1.0 - fraction) * node.prior + fraction * eta;
    }
}

/// Draws a root child in proportion to visits^(1/temperature); below 0.01 the most visited (ties: the highest
/// prior, then the first). Returns the index among the root's children.
pub fn sample_by_visits<R: rand::Rng>(visits: &[u32], priors: &[f32], temperature: f32, rng: &mut R) -> usize {
    let total: u32 = visits.iter().sum();
    if temperature < 0.01 || total == 0 {
        let mut best = 0;
        for i in 1..visits.len() {
            if (visits[i], priors[i]) > (visits[best], priors[best]) {
                best = i;
            }
        }
        return best;
    }
    let weights: Vec<f64> = visits.iter().map(|&v| f64::from(v)).collect();
    draw_sharpened(&weights, temperature, rng.random::<f64>()).unwrap_or(0)
}

/// Draws an index in proportion to `weights[i]^(1/temperature)` (`temperature` > 0, `u` uniform in [0, 1));
/// the weights are scaled by their largest first, so that a low temperature cannot overflow. `None` when no
/// weight is positive. Self-play's visit-count sampling and the strength levels both draw through it.
pub fn draw_sharpened(weights: &[f64], temperature: f32, u: f64) -> Option<usize> {
    let max = weights.iter().copied().fold(0.0, f64::max);
    if !(max > 0.0 && max.is_finite()) {
        return None;
    }
    let sharpened: Vec<f64> = weights
        .iter()
        .map(|&w| (w.max(0.0) / max).powf(1.0 / f64::from(temperature)))
        .collect();
    let sum: f64 = sharpened.iter().sum();
    let mut x = u * sum;
    for (i, w) in sharpened.iter().enumerate() {
        if x < *w {
            return Some(i);
        }
        x -= w;
    }
    sharpened.iter().rposition(|&w| w > 0.0)
}
