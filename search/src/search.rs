//! One game's search, driven from outside one leaf at a time so that a worker can batch the leaves of many
//! games into one evaluator call: [`GameSearch::select_leaf`] walks down to a leaf (or finishes a terminal
//! line by itself), the caller evaluates the leaf's position, and [`GameSearch::expand_leaf`] expands it and
//! backs its value up. [`search_blocking`] runs a whole search with one evaluator, for tests and tools.
//!
//! Counting: a *simulation* is one leaf below the root reached and backed up (a terminal leaf included). The
//! root's own evaluation is not a simulation. A search of budget S adds exactly S to the visits of the root's
//! children, so with tree reuse `sum of root child visits = carried visits + S`.

use crate::config::{RootSearch, SearchConfig, SideRoots};
use crate::evaluator::{EvalRequest, Evaluation, Evaluator};
use crate::gumbel::{GumbelRoot, RootValuation};
use crate::minimax::{self, StaticJudge};
use crate::puct::{PuctParams, add_dirichlet_noise, sample_by_visits, select_child};
use crate::tree::{NodeId, NodeState, ROOT, Tree};
use rand::Rng;
use zero_games::{Action, ActionList, Game};

/// What [`GameSearch::select_leaf`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafStep {
    /// A new leaf needs an evaluation: its position and legal actions are in the caller's buffers.
    Evaluate,
    /// A terminal line was backed up at once (counted as a simulation).
    Terminal,
    /// The walk met a leaf already waiting for its evaluation; try again after the batch.
    Collision,
    /// Nothing more to start: the budget is spent, or the root's evaluation is pending.
    Idle,
}

/// The result of a finished search.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The action to play.
    pub action: Action,
    /// Legal actions of the root, in the order of `policy`.
    pub legal: Vec<Action>,
    /// The training target over `legal` (sums to 1): visit shares (PUCT) or the improved policy (Gumbel).
    pub policy: Vec<f32>,
    /// Root value from the side to move's view.
    pub root_value: f32,
    /// Simulations run by this search (carried-over visits excluded).
    pub simulations: u32,
    /// Whether this was a full search (a policy target).
    pub full: bool,
    /// How far the search moved from the network: the KL divergence of `policy` from the root's priors, in nats
    /// (KataGo's policy surprise; at a noised PUCT root, the priors the search started from). `None` where no
    /// evaluator judged the root (an engine's move recorded as a target).
    pub policy_surprise: Option<f32>,
}

/// The search state of one game in progress.
#[derive(Debug, Clone)]
pub struct GameSearch<G: Game> {
    tree: Tree,
    root_game: G,
    budget: u32,
    /// The simulations a Gumbel root's sequential halving is scheduled over: the budget, or more for a search
    /// that goes on past it ([`GameSearch::set_budget`]).
    plan: u32,
    started: u32,
    completed: u32,
    full: bool,
    noise: bool,
    /// Each side's root search; a search's root is the side to move's, so that a tree kept across moves, whose
    /// root may now be the other side's, is searched with the right one.
    roots: SideRoots,
    gumbel: Option<GumbelRoot>,
    /// The Gumbel root's noise scale, a move-choice temperature (see [`GameSearch::set_gumbel_noise_scale`]).
    gumbel_noise_scale: f32,
    /// Whether the root-start work (noise, Gumbel sampling) was done for this search.
    root_prepared: bool,
    /// The game's static judge and a position buffer, for implicit minimax backups
    /// ([`SearchConfig::minimax_weight`]).
    judging: Option<Judging<G>>,
}

/// What implicit minimax backups need beside the tree: the judge, and a buffer for each child's position of an
/// expanded leaf.
#[derive(Debug, Clone)]
struct Judging<G> {
    judge: StaticJudge<G>,
    scratch: G,
}

impl<G: Game> GameSearch<G> {
    pub fn new(game: G, roots: impl Into<SideRoots>) -> Self {
        GameSearch {
            tree: Tree::new(game.to_move()),
            root_game: game,
            budget: 0,
            plan: 0,
            started: 0,
            completed: 0,
            full: false,
            noise: false,
            roots: roots.into(),
            gumbel: None,
            gumbel_noise_scale: 1.0,
            root_prepared: false,
            judging: None,
        }
    }

    /// Gives the search the game's static judge, with which a config's [`SearchConfig::minimax_weight`] above 0
    /// minimaxes it through the tree ([`crate::minimax`]); without one that weight does nothing. Set it before
    /// the first search: the tree's nodes expanded without it keep no minimax.
    pub fn set_static_judge(&mut self, judge: StaticJudge<G>) {
        self.judging = Some(Judging {
            judge,
            scratch: self.root_game.clone(),
        });
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    pub fn game(&self) -> &G {
        &self.root_game
    }

    /// Starts a search of `budget` simulations (`full`: a recorded full search, which gets root noise in PUCT
    /// mode when `noise` is set).
    pub fn begin(&mut self, budget: u32, full: bool, noise: bool) {
        self.budget = budget;
        self.plan = budget;
        self.started = 0;
        self.completed = 0;
        self.full = full;
        self.noise = noise;
        self.gumbel = None;
        self.root_prepared = false;
    }

    /// Lets the search begun go on to `budget` simulations in all, its Gumbel root (if any) scheduling its halving
    /// over `plan` (at least `budget`) from the current phase on: a timed search raises both after every chunk,
    /// so that one sequential halving spans the whole move. Root noise and the Gumbel sample are kept.
    pub fn set_budget(&mut self, budget: u32, plan: u32) {
        self.budget = budget.max(self.started);
        self.plan = plan.max(self.budget);
        if let Some(g) = self.gumbel.as_mut() {
            g.replan(self.plan);
        }
    }

    /// Scales the Gumbel root's noise in the searches from now on (1 until set; a Gumbel root only): the move is
    /// then drawn as from softmax((logits + sigma(q)) / scale), so that self-play can lower its move-choice
    /// temperature as a PUCT root's does. The training target does not depend on it.
    pub fn set_gumbel_noise_scale(&mut self, scale: f32) {
        self.gumbel_noise_scale = scale.max(0.0);
    }

    /// The Gumbel root's halving state, once a search with a Gumbel root has started.
    pub fn gumbel_root(&self) -> Option<&GumbelRoot> {
        self.gumbel.as_ref()
    }

    /// Whether every simulation of the budget has come back.
    pub fn is_done(&self) -> bool {
        self.root_prepared && self.completed >= self.budget
    }

    /// Simulations completed in this search.
    pub fn completed(&self) -> u32 {
        self.completed
    }

    fn prepare_root<R: Rng>(&mut self, config: &SearchConfig, rng: &mut R) {
        if self.root_prepared || self.tree.root().state != NodeState::Expanded {
            return;
        }
        match self.roots.for_side(self.root_game.to_move()) {
            RootSearch::Puct => {
                if self.noise {
                    add_dirichlet_noise(
                        &mut self.tree,
                        config.dirichlet_alpha_total,
                        config.dirichlet_fraction,
                        rng,
                    );
                }
            }
            RootSearch::Gumbel => {
                self.gumbel = Some(GumbelRoot::new(
                    &self.tree,
                    config.gumbel_actions,
                    self.plan,
                    RootValuation {
                        c_visit: config.gumbel_c_visit,
                        c_scale: config.gumbel_c_scale,
                        minimax_weight: config.minimax_weight,
                    },
                    self.gumbel_noise_scale,
                    rng,
                ));
            }
        }
        self.root_prepared = true;
    }

    /// Walks down to the next leaf. On [`LeafStep::Evaluate`], `path` holds the nodes root first, `leaf_game` the
    /// leaf's position and `legal` its legal actions; the caller must later call [`GameSearch::expand_leaf`].
    pub fn select_leaf<R: Rng>(
        &mut self,
        config: &SearchConfig,
        params: &PuctParams,
        rng: &mut R,
        path: &mut Vec<NodeId>,
        leaf_game: &mut G,
        legal: &mut ActionList,
    ) -> LeafStep {
        path.clear();
        match self.tree.root().state {
            NodeState::New => {
                path.push(ROOT);
                leaf_game.clone_from(&self.root_game);
                leaf_game.legal_actions(legal);
                self.tree.set_pending(ROOT);
                self.tree.add_in_flight(path);
                return LeafStep::Evaluate;
            }
            NodeState::Pending => return LeafStep::Idle,
            NodeState::Terminal => panic!("search started on a finished game"),
            NodeState::Expanded => self.prepare_root(config, rng),
        }
        if self.started >= self.budget {
            return LeafStep::Idle;
        }
        leaf_game.clone_from(&self.root_game);
        path.push(ROOT);
        let mut gumbel_index = None;
        let mut node = match self.gumbel.as_mut() {
            Some(g) => {
                let i = g.next_child(&self.tree);
                gumbel_index = Some(i);
                self.tree.root().first_child + i as u32
            }
            None => select_child(&self.tree, ROOT, params),
        };
        loop {
            leaf_game.apply_action(self.tree.node(node).action);
            path.push(node);
            match self.tree.node(node).state {
                NodeState::Expanded => node = select_child(&self.tree, node, params),
                NodeState::Pending => return LeafStep::Collision,
                NodeState::Terminal => {
                    let value = self.tree.node(node).raw_value;
                    self.count_start(gumbel_index);
                    self.tree.backup(path, value, false);
                    self.completed += 1;
                    return LeafStep::Terminal;
                }
                NodeState::New => {
                    let to_move = leaf_game.to_move();
                    self.tree.reach(node, to_move);
                    self.count_start(gumbel_index);
                    if let Some(outcome) = leaf_game.outcome() {
                        // Draw reasons give 0; a loss of the side to move -1; the searcher may weigh the score.
                        let searcher = self.root_game.to_move();
                        let value = config.utility(searcher, outcome.value_for(to_move), Some(leaf_game.score()));
                        self.tree.set_terminal(node, value);
                        self.tree.backup(path, value, false);
                        self.completed += 1;
                        return LeafStep::Terminal;
                    }
                    leaf_game.legal_actions(legal);
                    self.tree.set_pending(node);
                    self.tree.add_in_flight(path);
                    return LeafStep::Evaluate;
                }
            }
        }
    }

    fn count_start(&mut self, gumbel_index: Option<usize>) {
        self.started += 1;
        if let (Some(g), Some(i)) = (self.gumbel.as_mut(), gumbel_index) {
            g.record_start(i);
        }
    }

    /// Expands the leaf at the end of `path` (position `leaf_game`, legal actions `legal`, as
    /// [`GameSearch::select_leaf`] gave them) with its evaluation and backs the value up.
    pub fn expand_leaf<R: Rng>(
        &mut self,
        config: &SearchConfig,
        rng: &mut R,
        path: &[NodeId],
        leaf_game: &G,
        legal: &[Action],
        evaluation: &Evaluation,
    ) {
        let leaf = *path.last().expect("a path has a leaf");
        let value = config.utility(self.root_game.to_move(), evaluation.value, evaluation.score);
        self.tree.expand(leaf, legal, &evaluation.priors, value);
        if config.minimax_weight > 0.0
            && let Some(j) = self.judging.as_mut()
        {
            minimax::back_up(&mut self.tree, path, leaf_game, j.judge, &mut j.scratch);
        }
        self.tree.backup(path, value, true);
        if leaf == ROOT {
            self.prepare_root(config, rng);
        } else {
            self.completed += 1;
        }
    }

    /// Picks the action to play and the training target, once [`GameSearch::is_done`].
    pub fn finish<R: Rng>(&self, temperature: f32, rng: &mut R) -> SearchResult {
        let tree = &self.tree;
        let root = tree.root();
        let legal: Vec<Action> = root.children().map(|c| tree.node(c).action).collect();
        let priors: Vec<f32> = root.children().map(|c| tree.node(c).prior).collect();
        let (index, policy) = match &self.gumbel {
            Some(g) => (g.final_choice(tree), g.improved_policy(tree)),
            None => {
                let visits = tree.root_child_visits();
                let total: u32 = visits.iter().sum();
                let policy = if total == 0 {
                    priors.clone()
                } else {
                    visits.iter().map(|&v| v as f32 / total as f32).collect()
                };
                (sample_by_visits(&visits, &priors, temperature, rng), policy)
            }
        };
        SearchResult {
            action: legal[index],
            legal,
            policy_surprise: Some(policy_surprise(&policy, &priors)),
            policy,
            root_value: root.q(),
            simulations: self.completed,
            full: self.full,
        }
    }

    /// Plays `action` at the root and moves the tree on: with `reuse`, the chosen child's subtree becomes the
    /// new tree (its noise-free priors kept; noise is re-applied by the next full search), else a fresh root.
    pub fn advance(&mut self, action: Action, reuse: bool) {
        self.root_game.apply_action(action);
        let child = self.tree.child_by_action(ROOT, action);
        match child {
            Some(c) if reuse && self.tree.node(c).state == NodeState::Expanded => self.tree.keep_subtree(c),
            _ => self.tree.reset(self.root_game.to_move()),
        }
        self.gumbel = None;
        self.root_prepared = false;
    }

    /// Starts over on another game, keeping the arena's memory.
    pub fn restart(&mut self, game: G) {
        self.tree.reset(game.to_move());
        self.root_game = game;
        self.gumbel = None;
        self.root_prepared = false;
    }
}

/// Floor of a prior in [`policy_surprise`], so that a target on an action the network gave no weight stays finite.
const MIN_SURPRISE_PRIOR: f64 = 1e-6;

/// The KL divergence of `target` from `priors` (same order, each summing to 1), in nats: 0 when the search kept
/// the network's policy, large where it found what the network missed.
pub fn policy_surprise(target: &[f32], priors: &[f32]) -> f32 {
    let kl: f64 = target
        .iter()
        .zip(priors)
        .filter(|(t, _)| **t > 0.0)
        .map(|(&t, &p)| {
            let t = f64::from(t);
            t * (t / f64::from(p).max(MIN_SURPRISE_PRIOR)).ln()
        })
        .sum();
    // Rounding can take the sum a hair below 0 where the two agree.
    kl.max(0.0) as f32
}

/// Runs one whole search on `search` with `evaluator`, gathering up to `config.leaf_batch` leaves (kept apart
/// by virtual loss) for each evaluator call: one at a time with a batch of 1, as in tests and analysis.
pub fn search_blocking<G: Game, E: Evaluator<G>, R: Rng>(
    search: &mut GameSearch<G>,
    evaluator: &mut E,
    config: &SearchConfig,
    budget: u32,
    full: bool,
    rng: &mut R,
) {
    let noise = full && config.dirichlet_fraction > 0.0;
    search.begin(budget, full, noise);
    search_to_budget(search, evaluator, config, rng);
}

/// Runs the search begun on `search` (and perhaps given more by [`GameSearch::set_budget`]) until its budget is
/// done, `config.leaf_batch` leaves per evaluator call as in [`search_blocking`].
pub fn search_to_budget<G: Game, E: Evaluator<G>, R: Rng>(
    search: &mut GameSearch<G>,
    evaluator: &mut E,
    config: &SearchConfig,
    rng: &mut R,
) {
    let params = PuctParams::from_config(config);
    let batch = config.leaf_batch.max(1) as usize;
    // Each slot's path, position and legal actions are kept from round to round and overwritten in place.
    let mut slots: Vec<(Vec<NodeId>, G, ActionList)> = Vec::with_capacity(batch);
    while !search.is_done() {
        let mut count = 0;
        let mut terminal = false;
        while count < batch {
            if count == slots.len() {
                slots.push((Vec::new(), search.game().clone(), ActionList::new()));
            }
            let (path, leaf, legal) = &mut slots[count];
            match search.select_leaf(config, &params, rng, path, leaf, legal) {
                LeafStep::Evaluate => count += 1,
                LeafStep::Terminal => terminal = true,
                LeafStep::Collision | LeafStep::Idle => break,
            }
        }
        // A round that starts nothing and backs nothing up cannot happen: with no leaf pending, a walk never
        // collides, and the budget is not spent while the search is not done.
        assert!(terminal || count > 0, "a search round made no progress");
        if count == 0 {
            continue;
        }
        let leaves = &slots[..count];
        let requests: Vec<EvalRequest<'_, G>> = leaves
            .iter()
            .map(|(_, game, legal)| EvalRequest {
                game,
                legal: legal.as_slice(),
            })
            .collect();
        let evaluations = evaluator.evaluate(&requests);
        for ((path, game, legal), eval) in leaves.iter().zip(&evaluations) {
            search.expand_leaf(config, rng, path, game, legal.as_slice(), eval);
        }
    }
}
