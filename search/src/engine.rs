//! [`Engine`]: the search as a player. It picks a whole move in a position within a [`Budget`] (simulations or
//! time), with no root noise and temperature 0 (the most visited action; in Gumbel mode the final choice of
//! sequential halving). The arena's checkpoint players and the bot both play through it; self-play drives
//! [`GameSearch`] itself, to batch the leaves of many games.
//!
//! A move of several actions (a Bashni capture sequence) is chosen action by action, with a search at each
//! step, until the actions pin down one complete legal move, as the network was trained; the chosen child's
//! subtree is always kept for the next step of the same move (one decision, one budget). With the config's
//! `tree_reuse` it is kept for the next move too: the engine keeps its tree after its move and starts the next
//! search from the subtree of the reply it is then asked about.
//!
//! A timed search gathers `leaf_batch` leaves (kept apart by virtual loss) for each evaluator call, because a
//! network evaluates a batch in little more than the time of one position; a budget of simulations searches leaf
//! by leaf, so that it is the same search on any machine. A timed search is one search checked against the clock
//! after every chunk: a Gumbel root keeps its candidates and plans its sequential halving over the simulations
//! the time left affords at the rate so far.

use crate::config::{MAX_SIMULATIONS, SearchConfig};
use crate::evaluator::Evaluator;
use crate::gumbel::GumbelRoot;
use crate::level::sample_policy;
use crate::minimax::StaticJudge;
use crate::search::{GameSearch, search_blocking, search_to_budget};
use crate::tree::{NodeId, NodeState, ROOT, Tree};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use zero_games::{Action, ActionList, Game};

/// How long to think about one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many simulations at every action of the move, one leaf per evaluator call whatever the config's
    /// `leaf_batch`: the same search however fast the machine.
    Simulations(u32),
    /// This long for the whole move (or until the tree holds [`MAX_SIMULATIONS`] visits): searches in small
    /// chunks until the time is spent, evaluating the config's
    /// `leaf_batch` leaves per network call. A move of several actions spends it at its first question, whose
    /// tree (kept) covers the later ones; every question searches at least one chunk.
    MoveTime(Duration),
}

/// Simulations per chunk of a timed search (at least one leaf batch): small enough to stop close to the
/// deadline.
const TIMED_CHUNK: u32 = 16;

/// What the engine decided.
#[derive(Debug, Clone)]
pub struct Thought<G: Game> {
    pub mv: G::Move,
    /// The root value of the first search, in [-1, 1], from the moving side's view; `None` when the move was
    /// forced and nothing was searched.
    pub value: Option<f32>,
    /// The expected line of actions of the first search, starting with its choice (empty when forced).
    pub line: Vec<Action>,
    /// Simulations run over all the steps of the move.
    pub simulations: u32,
    /// Visits the first question's root already had from the last move's tree (0 for a fresh tree).
    pub reused: u32,
    /// The first question's root actions that were searched, most visited first (an analysis's top moves).
    pub root_moves: Vec<RootMove>,
    /// Wall time of the whole move.
    pub elapsed: Duration,
}

/// One root action as the search left it: what analysis output reports for each of the top moves.
#[derive(Debug, Clone, PartialEq)]
pub struct RootMove {
    pub action: Action,
    /// Completed simulations through it.
    pub visits: u32,
    /// The evaluator's prior for it.
    pub prior: f32,
    /// Mean backed-up value after it, from the root's side to move's view.
    pub q: f32,
    /// Its expected line of actions, starting with it ([`principal_line`]).
    pub line: Vec<Action>,
    /// With a Gumbel root: the score the halving ranks it by, logits + sigma(completed Q) (no Gumbel noise in
    /// play); `None` with a PUCT root, whose moves are ranked by visits.
    pub gumbel_score: Option<f32>,
}

/// A search in progress, as a watcher of [`Engine::think_watched`] sees it after each chunk.
pub struct Progress<'a> {
    pub tree: &'a Tree,
    /// The Gumbel root's halving, with a Gumbel root ([`root_moves`] ranks by it).
    pub gumbel: Option<&'a GumbelRoot>,
    /// Simulations run so far in this question.
    pub simulations: u32,
    /// Time since the move began.
    pub elapsed: Duration,
}

/// The visited root actions of `tree` in the order the search chooses by, so that the first is the move it
/// plays: with a PUCT root (`gumbel` None) most visited first (ties by prior); with a Gumbel root in the
/// halving's order ([`GumbelRoot::ranking`]: furthest in the halving, then by score).
pub fn root_moves(tree: &Tree, gumbel: Option<&GumbelRoot>) -> Vec<RootMove> {
    let root = tree.root();
    if root.state != NodeState::Expanded {
        return Vec::new();
    }
    let children: Vec<NodeId> = root.children().collect();
    let ranked: Vec<(usize, Option<f32>)> = match gumbel {
        Some(g) => g.ranking(tree).into_iter().map(|(i, score)| (i, Some(score))).collect(),
        None => {
            let mut order: Vec<usize> = (0..children.len()).collect();
            let node = |i: usize| tree.node(children[i]);
            order.sort_by(|&a, &b| {
                node(b)
                    .visits
                    .cmp(&node(a).visits)
                    .then(node(b).prior.total_cmp(&node(a).prior))
            });
            order.into_iter().map(|i| (i, None)).collect()
        }
    };
    ranked
        .into_iter()
        .map(|(i, gumbel_score)| (tree.node(children[i]), gumbel_score))
        .filter(|(n, _)| n.visits > 0)
        .map(|(n, gumbel_score)| RootMove {
            action: n.action,
            visits: n.visits,
            prior: n.prior,
            q: n.q(),
            line: principal_line(tree, n.action),
            gumbel_score,
        })
        .collect()
}

/// A search config, an evaluator and a seeded generator (Gumbel's sampling), thinking one move at a time.
pub struct Engine<G: Game, E> {
    evaluator: E,
    config: SearchConfig,
    rng: ChaCha8Rng,
    /// The last move's tree, moved on past that move (with `config.tree_reuse`): the next question, after the
    /// opponent's reply, starts from the reply's subtree, as lc0 and KataGo keep theirs between moves.
    kept: Option<GameSearch<G>>,
    /// Temperature of the move choice (a strength level's); 0 plays the search's choice.
    temperature: f32,
    /// The game's static judge, given to every search (used where `config.minimax_weight` > 0).
    judge: Option<StaticJudge<G>>,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    /// `rng` fixes every random choice, so the same position and budget give the same move.
    pub fn new(evaluator: E, config: SearchConfig, rng: ChaCha8Rng) -> Self {
        Engine {
            evaluator,
            config,
            rng,
            kept: None,
            temperature: 0.0,
            judge: None,
        }
    }

    /// Gives every search from now on the game's static judge ([`crate::minimax::heuristic_judge`] for a game
    /// with a heuristic), which a config's [`SearchConfig::minimax_weight`] above 0 minimaxes through the tree.
    pub fn set_static_judge(&mut self, judge: StaticJudge<G>) {
        self.judge = Some(judge);
        self.kept = None;
    }

    /// From now on each action is drawn from the root's visits plus priors sharpened by 1/`temperature` (0: the
    /// search's own choice), for a weaker, varied player ([`crate::Level`]).
    pub fn set_temperature(&mut self, temperature: f32) {
        self.temperature = temperature.max(0.0);
    }

    /// An engine seeded with `seed`.
    pub fn seeded(evaluator: E, config: SearchConfig, seed: u64) -> Self {
        Engine::new(evaluator, config, ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn evaluator(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// Chooses a move in `game`, which must not be over. A forced move is played without a search. With
    /// `config.tree_reuse`, the search starts from what the last move's search saw of `game`, when `game` is
    /// that move's position after one reply (or no move at all).
    pub fn think(&mut self, game: &G, budget: Budget) -> Thought<G> {
        self.think_watched(game, budget, &mut |_| true)
    }

    /// [`Engine::think`], showing the search to `watch` after each chunk of a timed search; the search stops
    /// early when `watch` returns false. A budget of `MoveTime(Duration::MAX)` thus searches until the watcher
    /// says stop (or the tree holds [`MAX_SIMULATIONS`] visits): an analysis's `go infinite`.
    pub fn think_watched(
        &mut self,
        game: &G,
        budget: Budget,
        watch: &mut dyn FnMut(&Progress<'_>) -> bool,
    ) -> Thought<G> {
        let started = Instant::now();
        let mut search = self.search_for(game);
        let reused = search.tree().root().visits;
        let mut simulations = 0;
        let mut first: Option<(f32, Vec<Action>, Vec<RootMove>)> = None;
        let mut asked = 0;
        let mv = choose_by_actions(game, |state, _| {
            debug_assert_eq!(search.game().hash(), state.hash());
            simulations += self.run(&mut search, budget, started, watch);
            let mut result = search.finish(0.0, &mut self.rng);
            if self.temperature > 0.0 {
                let u = self.rng.random::<f64>();
                result.action = result.legal[sample_policy(&level_policy(search.tree()), self.temperature, u)];
            }
            first.get_or_insert_with(|| {
                let tree = search.tree();
                let moves = root_moves(tree, search.gumbel_root());
                (result.root_value, principal_line(tree, result.action), moves)
            });
            // The move's next action is the same decision: its question starts from this one's subtree.
            search.advance(result.action, true);
            asked += 1;
            result.action
        });
        if self.config.tree_reuse {
            // The actions no question was asked about (a forced move, a capture's pinned-down rest) move the
            // tree on too, so that it stands after the whole move.
            let mut actions = ActionList::new();
            game.move_actions(&mv, &mut actions);
            for &action in &actions.as_slice()[asked..] {
                search.advance(action, true);
            }
            self.kept = Some(search);
        }
        let (value, line, root_moves) = match first {
            Some((value, line, root_moves)) => (Some(value), line, root_moves),
            None => (None, Vec::new(), Vec::new()),
        };
        Thought {
            mv,
            value,
            line,
            simulations,
            reused,
            root_moves,
            elapsed: started.elapsed(),
        }
    }

    /// The kept tree moved on to `game` when `game` follows from its position by one move or none; else a
    /// fresh search.
    fn search_for(&mut self, game: &G) -> GameSearch<G> {
        if let Some(mut search) = self.kept.take()
            && let Some(reply) = actions_between(search.game(), game)
        {
            for action in reply {
                search.advance(action, true);
            }
            return search;
        }
        self.fresh_search(game)
    }

    /// A new search of `game`. Its Gumbel root (with `root = gumbel`) takes the top candidates by prior, with no
    /// Gumbel noise: the noise explores for self-play's targets, and play wants the search's own choice (as mctx
    /// advises for perfect-information games); a strength level's variety comes from its temperature.
    fn fresh_search(&self, game: &G) -> GameSearch<G> {
        let mut search = GameSearch::new(game.clone(), self.config.root);
        search.set_gumbel_noise_scale(0.0);
        if let Some(judge) = self.judge {
            search.set_static_judge(judge);
        }
        search
    }

    /// One search of `game` within `budget`, for its judgement alone: the root value, the expected line of
    /// actions and the simulations run.
    pub fn analyse(&mut self, game: &G, budget: Budget) -> (f32, Vec<Action>, u32) {
        let mut search = self.fresh_search(game);
        let simulations = self.run(&mut search, budget, Instant::now(), &mut |_| true);
        let result = search.finish(0.0, &mut self.rng);
        (
            result.root_value,
            principal_line(search.tree(), result.action),
            simulations,
        )
    }

    /// Searches within `budget`; a time budget runs from `started` (the start of the move) and ends early when
    /// `watch` says stop.
    fn run(
        &mut self,
        search: &mut GameSearch<G>,
        budget: Budget,
        started: Instant,
        watch: &mut dyn FnMut(&Progress<'_>) -> bool,
    ) -> u32 {
        let Engine {
            evaluator, config, rng, ..
        } = self;
        match budget {
            Budget::Simulations(n) => {
                // A budget of simulations asks for a search's quality, not its speed: leaf by leaf, as trained.
                let sequential = SearchConfig {
                    leaf_batch: 1,
                    ..config.clone()
                };
                search_blocking(search, evaluator, &sequential, n.max(1), false, rng);
                search.completed()
            }
            Budget::MoveTime(limit) => {
                let chunk = TIMED_CHUNK.max(config.leaf_batch);
                let question = Instant::now();
                // One search for the whole question, a chunk at a time. Until the first chunk is timed the
                // move's simulations are unknown, so a Gumbel root's first phase is planned as if unbounded
                // (the chunk spread over its candidates); after each chunk the plan is what the time left
                // affords at this question's rate so far.
                search.begin(chunk, false, false);
                search.set_budget(chunk, MAX_SIMULATIONS);
                loop {
                    search_to_budget(search, evaluator, config, rng);
                    let total = search.completed();
                    let progress = Progress {
                        tree: search.tree(),
                        gumbel: search.gumbel_root(),
                        simulations: total,
                        elapsed: started.elapsed(),
                    };
                    // A long move on a fast machine stops at the tree size any search may reach, too.
                    if !watch(&progress) || progress.elapsed >= limit || progress.tree.root().visits >= MAX_SIMULATIONS
                    {
                        return total;
                    }
                    let rate = f64::from(total) / question.elapsed().as_secs_f64().max(1e-6);
                    let left = limit.saturating_sub(progress.elapsed).as_secs_f64();
                    let plan = (f64::from(total) + rate * left).min(f64::from(MAX_SIMULATIONS)) as u32;
                    search.set_budget(total + chunk, plan);
                }
            }
        }
    }
}

/// The actions of the one move that leads from `from` to `to` (none when they are the same position), if
/// there is one: positions are compared by hash, ply and notation.
fn actions_between<G: Game>(from: &G, to: &G) -> Option<Vec<Action>> {
    let same = |a: &G, b: &G| a.hash() == b.hash() && a.ply() == b.ply() && a.position() == b.position();
    if same(from, to) {
        return Some(Vec::new());
    }
    let mut moves = Vec::new();
    from.legal_moves(&mut moves);
    let mut after = from.clone();
    let mut actions = ActionList::new();
    moves.into_iter().find_map(|mv| {
        after.clone_from(from);
        after.play(&mv);
        same(&after, to).then(|| {
            from.move_actions(&mv, &mut actions);
            actions.as_slice().to_vec()
        })
    })
}

/// Picks a whole move action by action: `choose(position, legal actions)` is asked at every action until the
/// actions chosen so far start exactly one legal move (so a move with one action, or the only legal move, may
/// be found with fewer questions or none). Every player that thinks in actions goes through here.
pub fn choose_by_actions<G: Game>(game: &G, mut choose: impl FnMut(&G, &[Action]) -> Action) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut candidates: Vec<(G::Move, ActionList)> = moves
        .into_iter()
        .map(|mv| {
            let mut actions = ActionList::new();
            game.move_actions(&mv, &mut actions);
            (mv, actions)
        })
        .collect();
    assert!(!candidates.is_empty(), "asked for a move in a finished game");
    let mut state = game.clone();
    let mut step = 0;
    let mut legal = ActionList::new();
    while candidates.len() > 1 {
        state.legal_actions(&mut legal);
        let action = choose(&state, legal.as_slice());
        candidates.retain(|(_, actions)| actions.get(step) == Some(&action));
        assert!(!candidates.is_empty(), "a legal action that starts no legal move");
        state.apply_action(action);
        step += 1;
    }
    candidates.pop().expect("one move left").0
}

/// What a strength level draws its move from: each root action's visits plus its prior as one more visit, so
/// that a search of a few simulations (whose visits alone pick one action) still weighs every move by the
/// network's judgement, and a long search by its own.
fn level_policy(tree: &Tree) -> Vec<f32> {
    let weights: Vec<f32> = tree
        .root()
        .children()
        .map(|c| tree.node(c).visits as f32 + tree.node(c).prior)
        .collect();
    let total: f32 = weights.iter().sum();
    weights.iter().map(|w| w / total.max(f32::MIN_POSITIVE)).collect()
}

/// `action` then, below it, the most visited child at each level while there is one.
pub fn principal_line(tree: &Tree, action: Action) -> Vec<Action> {
    let mut line = vec![action];
    let mut node = tree.child_by_action(ROOT, action);
    while let Some(id) = node {
        let n = tree.node(id);
        if n.state != NodeState::Expanded {
            break;
        }
        let best = n
            .children()
            .filter(|&c| tree.node(c).visits > 0)
            .max_by_key(|&c| tree.node(c).visits);
        node = best;
        if let Some(c) = best {
            line.push(tree.node(c).action);
        }
    }
    line
}

/// Turns a line of actions into the complete moves it makes, in notation (a trailing partial move is dropped).
pub fn actions_to_moves<G: Game>(game: &G, actions: &[Action]) -> Vec<String> {
    let mut out = Vec::new();
    let mut position = game.clone();
    let mut rest = actions;
    let mut list = ActionList::new();
    while !rest.is_empty() && position.outcome().is_none() {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let found = moves.into_iter().find(|mv| {
            position.move_actions(mv, &mut list);
            rest.starts_with(list.as_slice())
        });
        let Some(mv) = found else { break };
        position.move_actions(&mv, &mut list);
        out.push(position.format_move(&mv));
        position.play(&mv);
        rest = &rest[list.len()..];
    }
    out
}
