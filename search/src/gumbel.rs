//! Gumbel AlphaZero at the root (Danihelka et al. 2022, "Policy improvement by planning with Gumbel"):
//! Gumbel-top-k sampling of m candidate actions, sequential halving of the simulation budget among them, the
//! final action argmax(g + logits + sigma(q)) among the survivors, and the training target
//! softmax(logits + sigma(completed Q)) over all legal actions.
//!
//! q is mapped from [-1, 1] to [0, 1] before sigma, as the paper normalises values; sigma(q) =
//! (c_visit + max_b N(b)) * c_scale * q. Unvisited actions get the paper's mixed value v_mix as completed Q.
//! With implicit minimax backups ([`crate::minimax`]) a root child's Q is its mean blended with its static
//! minimax, as PUCT reads it below the root, so that the halving, the move and the training target all see what
//! the tree's minimax sees.

use crate::minimax::blend;
use crate::tree::{ROOT, Tree};
use rand_distr::{Distribution, Gumbel};

/// Floor of the priors before taking logs, so that a zero prior stays finite.
const MIN_PRIOR: f32 = 1e-12;

/// Sequential-halving state of one root search. Children are named by their index among the root's children.
#[derive(Debug, Clone)]
pub struct GumbelRoot {
    gumbel: Vec<f32>,
    logits: Vec<f32>,
    /// Simulations started below each child in this search (tree reuse carries visits that do not count here).
    started_here: Vec<u32>,
    survivors: Vec<usize>,
    /// Per-survivor number of simulations reached when the current phase began.
    phase_start: u32,
    /// Per-survivor number of simulations to reach before the phase ends.
    phase_target: u32,
    /// The simulations the halving is scheduled over (see [`GumbelRoot::replan`]).
    budget: u32,
    phases: u32,
    valuation: RootValuation,
    /// Per child: how far it went in the halving (0: never a candidate, 1: a candidate, +1 for each halving it
    /// survived). The survivors share the highest round.
    rounds: Vec<u32>,
}

/// How the root values its children: sigma's constants and the minimax weight.
#[derive(Debug, Clone, Copy)]
pub struct RootValuation {
    pub c_visit: f32,
    pub c_scale: f32,
    pub minimax_weight: f32,
}

impl GumbelRoot {
    /// Samples the candidates of an expanded root: the top `m` of g + logits, g = `noise_scale` x Gumbel(0, 1).
    /// A scale T draws the move as from softmax((logits + sigma(q)) / T) (the Gumbel-max trick): 1 is the
    /// paper's sampling, 0 the deterministic choice of play, the draws made either way so that the generator's
    /// stream does not depend on the scale.
    pub fn new<R: rand::Rng>(
        tree: &Tree,
        m: u32,
        budget: u32,
        valuation: RootValuation,
        noise_scale: f32,
        rng: &mut R,
    ) -> Self {
        let root = tree.root();
        let n = root.child_count as usize;
        let dist = Gumbel::new(0.0f32, 1.0).expect("standard Gumbel");
        let gumbel: Vec<f32> = (0..n).map(|_| noise_scale * dist.sample(rng)).collect();
        let logits: Vec<f32> = root
            .children()
            .map(|c| tree.node(c).prior.max(MIN_PRIOR).ln())
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| (gumbel[b] + logits[b]).total_cmp(&(gumbel[a] + logits[a])));
        order.truncate((m as usize).min(n).max(1));
        let phases = (order.len() as f32).log2().ceil().max(1.0) as u32;
        let mut rounds = vec![0; n];
        order.iter().for_each(|&i| rounds[i] = 1);
        let mut root = GumbelRoot {
            gumbel,
            logits,
            started_here: vec![0; n],
            survivors: order,
            phase_start: 0,
            phase_target: 0,
            budget,
            phases,
            valuation,
            rounds,
        };
        root.phase_target = root.phase_step();
        root
    }

    /// Extra simulations per survivor in the current phase: the budget split evenly over phases and survivors.
    fn phase_step(&self) -> u32 {
        (self.budget / (self.phases * self.survivors.len() as u32)).max(1)
    }

    /// Schedules the phases from the current one on over `budget` simulations in all, in place of the budget
    /// the root was sampled with. A timed search learns its budget only as it goes: it replans after each chunk
    /// from the rate so far, so that one halving spans the whole move instead of starting over every chunk.
    pub fn replan(&mut self, budget: u32) {
        self.budget = budget;
        self.phase_target = self.phase_start + self.phase_step();
    }

    /// Notes a simulation started below root child `index`.
    pub fn record_start(&mut self, index: usize) {
        self.started_here[index] += 1;
    }

    /// The root child (index among the root's children) the next simulation goes to: the survivor furthest
    /// below the phase target; when every survivor has reached it, the survivors are halved first.
    pub fn next_child(&mut self, tree: &Tree) -> usize {
        loop {
            if let Some(&i) = self
                .survivors
                .iter()
                .filter(|&&i| self.started_here[i] < self.phase_target)
                .min_by_key(|&&i| self.started_here[i])
            {
                return i;
            }
            if self.survivors.len() > 1 {
                let scores = self.scores(tree);
                self.survivors
                    .sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                self.survivors.truncate(self.survivors.len().div_ceil(2));
                self.survivors.iter().for_each(|&i| self.rounds[i] += 1);
            }
            self.phase_start = self.phase_target;
            self.phase_target += self.phase_step();
        }
    }

    /// g + logits + sigma(completed q) for every root child.
    fn scores(&self, tree: &Tree) -> Vec<f32> {
        let sigma = sigma_of_completed_q(tree, self.valuation);
        (0..self.logits.len())
            .map(|i| self.gumbel[i] + self.logits[i] + sigma[i])
            .collect()
    }

    /// The action to play: argmax of g + logits + sigma(q) among the survivors (index among root children).
    pub fn final_choice(&self, tree: &Tree) -> usize {
        let scores = self.scores(tree);
        *self
            .survivors
            .iter()
            .max_by(|&&a, &&b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
            .expect("at least one survivor")
    }

    /// Every root child (index among the root's children) with its score g + logits + sigma(completed q), in
    /// the halving's order: further in the halving first, then by score (ties by index, as
    /// [`GumbelRoot::final_choice`] breaks them). The first is the final choice: an analysis's top moves in
    /// this order agree with the move played.
    pub fn ranking(&self, tree: &Tree) -> Vec<(usize, f32)> {
        let scores = self.scores(tree);
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| {
            self.rounds[b]
                .cmp(&self.rounds[a])
                .then(scores[b].total_cmp(&scores[a]))
                .then(a.cmp(&b))
        });
        order.into_iter().map(|i| (i, scores[i])).collect()
    }

    pub fn survivors(&self) -> &[usize] {
        &self.survivors
    }

    /// The improved policy over every root child: softmax(logits + sigma(completed Q)).
    pub fn improved_policy(&self, tree: &Tree) -> Vec<f32> {
        improved_policy(tree, self.valuation)
    }
}

/// Completed Q of every root child from the root's view: Q for visited children, v_mix for the others, each
/// blended with the child's static minimax by `minimax_weight` where the child has one.
pub fn completed_q(tree: &Tree, minimax_weight: f32) -> Vec<f32> {
    let q_of = |c| {
        let child = tree.node(c);
        blend(child.q(), child.minimax, minimax_weight)
    };
    let root = tree.root();
    let raw = if root.raw_value.is_finite() {
        root.raw_value
    } else {
        0.0
    };
    let mut visits_sum = 0.0f32;
    let mut visited_prior = 0.0f32;
    let mut weighted_q = 0.0f32;
    for c in root.children() {
        let child = tree.node(c);
        if child.visits > 0 {
            visits_sum += child.visits as f32;
            visited_prior += child.prior;
            weighted_q += child.prior * q_of(c);
        }
    }
    let v_mix = if visits_sum == 0.0 || visited_prior <= 0.0 {
        raw
    } else {
        (raw + visits_sum / visited_prior * weighted_q) / (1.0 + visits_sum)
    };
    root.children()
        .map(|c| {
            let child = tree.node(c);
            if child.visits > 0 {
                q_of(c)
            } else {
                blend(v_mix, child.minimax, minimax_weight)
            }
        })
        .collect()
}

/// sigma(completed Q) for every root child, with q mapped to [0, 1].
fn sigma_of_completed_q(tree: &Tree, valuation: RootValuation) -> Vec<f32> {
    let max_visits = tree.root().children().map(|c| tree.node(c).visits).max().unwrap_or(0) as f32;
    let scale = (valuation.c_visit + max_visits) * valuation.c_scale;
    completed_q(tree, valuation.minimax_weight)
        .into_iter()
        .map(|q| scale * (q + 1.0) * 0.5)
        .collect()
}

/// softmax(log prior + sigma(completed Q)) over every root child: a distribution on exactly the legal actions.
pub fn improved_policy(tree: &Tree, valuation: RootValuation) -> Vec<f32> {
    let sigma = sigma_of_completed_q(tree, valuation);
    let mut policy: Vec<f32> = tree
        .root()
        .children()
        .zip(sigma)
        .map(|(c, s)| tree.node(c).prior.max(MIN_PRIOR).ln() + s)
        .collect();
    crate::evaluator::softmax_in_place(&mut policy);
    policy
}

/// The root child index a simulation would enter, for callers that know only the tree.
pub fn root_child_id(tree: &Tree, index: usize) -> u32 {
    tree.node(ROOT).first_child + index as u32
}
