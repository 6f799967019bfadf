//! Workers: each OS thread owns one evaluator and drives `games_in_flight` games at once, gathering up to
//! `leaves_per_game` leaves of every game (kept apart by virtual loss) into one evaluator call. Finished games
//! go through a channel to the calling thread, which hands them to the sink in game-index order.
//!
//! Sparring games (`selfplay.sparring.share`): the classic engine plays one side, on the worker's thread between
//! two evaluator calls (its node budget keeps it short); only the network's side is searched and recorded, and
//! with `sparring_recorded` the engine's moves too, each as a one-hot policy target.
//! Random openings (`selfplay.opening_share`): a share of games begin with a balanced random opening, whose moves
//! are played before the first search, written in the game record and not recorded as positions.
//! Lead starts (`selfplay.lead_start_share`): a share of games begin at one of the positions the job was given
//! ([`crate::starts`]) instead of the start position, with no opening.
//! Bootstrap games (`selfplay.bootstrap.nodes`, generation 0 only): recorded sparring games, the engine on
//! `bootstrap_side` (both sides by default), a share of its moves (`bootstrap_random_moves`) played at random
//! and not recorded.
//!
//! Determinism: worker `w` of `K` plays games `w, w + K, w + 2K, ...`; each game draws its randomness (full or
//! cheap search, noise, Gumbel samples, temperature, resignation checks, whether it spars and the engine's side, its lead
//! start or opening)
//! from its own generator seeded by the run seed and its index, a sparring engine's tie-breaks from another such
//! generator, and the evaluator's (a rollout's) from a per-worker seed. The sink sees the games in
//! index order, so a run is reproducible for a given seed and worker count.

use crate::config::{OPENING_TRIES, SelfPlayConfig, SparringSide};
use crate::records::{
    GameRecorder, SHORT_VALUE_HORIZON, UnmatchedMove, fill_scores, fill_short_values, judge_draw, weight_by_surprise,
};
use crate::sink::{GameSink, SinkError};
use crate::stats::{Progress, SelfPlayStats};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::mpsc;
use zero_data::{GameRecord, PositionRecord};
use zero_games::{Action, ActionList, Encoding, EndReason, Heuristic, Outcome, Side};
use zero_search::alphabeta::{AlphaBeta, SearchInfo, SearchLimit};
use zero_search::balance::{BalanceJudge, SELFPLAY_BALANCE_DEPTH, play_random_moves};
use zero_search::minimax::heuristic_judge;
use zero_search::puct::PuctParams;
use zero_search::{EvalRequest, Evaluator, GameSearch, LeafStep, NodeId, SearchResult};

/// A self-play run failed.
#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    #[error("worker {worker}: could not create its evaluator: {reason}")]
    Evaluator { worker: usize, reason: String },
    #[error(transparent)]
    Move(#[from] UnmatchedMove),
    #[error(transparent)]
    Sink(#[from] SinkError),
    #[error("a worker thread panicked")]
    Panicked,
}

/// Mixes the run seed with a stream number (SplitMix64), so that games and workers get unrelated seeds.
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed
        ^ stream
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seed of worker `w`'s evaluator.
pub fn worker_seed(seed: u64, worker: usize) -> u64 {
    derive_seed(seed, 1 << 40 | worker as u64)
}

/// One finished game, as a worker sends it.
pub struct FinishedGame {
    pub index: usize,
    pub record: GameRecord,
    pub positions: Vec<PositionRecord>,
    pub stats: SelfPlayStats,
}

/// Resignation bookkeeping of one game.
#[derive(Debug, Clone, Default)]
struct ResignState {
    low_streak: [u32; 2],
    /// The side that would have resigned in a game played out to check.
    would_resign: Option<Side>,
}

/// The classic engine playing one side of a sparring game (`selfplay.sparring.share`).
struct Sparring<G: Heuristic> {
    /// The engine's side; `None`: both (a bootstrap game, whose engine moves are the records).
    side: Option<Side>,
    engine: AlphaBeta<G>,
}

impl<G: Heuristic> Sparring<G> {
    fn plays(&self, side: Side) -> bool {
        self.side.is_none_or(|s| s == side)
    }
}

/// The record of the engine's choice of `action` at `game`: a one-hot policy target, its score as the root value.
fn engine_choice<G: Encoding>(game: &G, action: Action, info: &SearchInfo) -> SearchResult {
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    let legal = legal.as_slice().to_vec();
    let policy = legal.iter().map(|&a| if a == action { 1.0 } else { 0.0 }).collect();
    SearchResult {
        action,
        legal,
        policy,
        root_value: info.value(),
        simulations: info.nodes.min(u32::MAX as u64) as u32,
        full: true,
        policy_surprise: None,
    }
}

/// One game in flight.
struct Slot<G: Encoding + Heuristic> {
    index: usize,
    search: GameSearch<G>,
    recorder: GameRecorder<G>,
    rng: ChaCha8Rng,
    resign: ResignState,
    sparring: Option<Sparring<G>>,
}

impl<G: Encoding + Heuristic> Slot<G> {
    /// Plays `action` on the game (the tree kept below it with `reuse`) and writes it into the game's record.
    fn play(&mut self, action: Action, reuse: bool) -> Result<(), UnmatchedMove> {
        self.search.advance(action, reuse);
        self.recorder.played(action, self.search.game())
    }
}

/// A leaf waiting in the batch.
struct Leaf<G> {
    slot: usize,
    path: Vec<NodeId>,
    game: G,
    legal: Vec<Action>,
}

/// Plays games on one thread with one evaluator.
pub struct Worker<'a, G: Encoding + Heuristic, E> {
    config: &'a SelfPlayConfig,
    rules: G::Rules,
    evaluator: E,
    params: PuctParams,
    progress: Option<&'a Progress>,
    stats: SelfPlayStats,
    /// Buffers of the leaf walk, kept between rounds so that gathering allocates nothing.
    path: Vec<NodeId>,
    legal: ActionList,
    /// The start's balance score (`opening_share`), judged once.
    opening_reference: Option<f32>,
    /// The positions a share of games begin from (`lead_start_share`).
    starts: &'a [G],
}

impl<'a, G: Encoding + Heuristic, E: Evaluator<G>> Worker<'a, G, E> {
    pub fn new(config: &'a SelfPlayConfig, rules: G::Rules, evaluator: E, progress: Option<&'a Progress>) -> Self {
        Worker {
            config,
            rules,
            evaluator,
            params: PuctParams::from_config(&config.search),
            progress,
            stats: SelfPlayStats::default(),
            path: Vec::new(),
            legal: ActionList::new(),
            opening_reference: None,
            starts: &[],
        }
    }

    /// The positions a share of games (`lead_start_share`) begin from instead of the start position.
    pub fn with_starts(mut self, starts: &'a [G]) -> Self {
        self.starts = starts;
        self
    }

    /// Batch statistics (simulations, evaluations, batches, largest tree) of everything this worker ran.
    pub fn stats(&self) -> &SelfPlayStats {
        &self.stats
    }

    pub fn evaluator(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// A new game, before its first search: the start position, and the moves of its opening if it has one.
    fn new_slot(&mut self, index: usize) -> Result<Slot<G>, SelfPlayError> {
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(self.config.seed, index as u64));
        let sparring = self.draw_sparring(index, &mut rng);
        let lead_start = self.draw_lead_start(&mut rng);
        let opening = match lead_start {
            Some(_) => Vec::new(),
            None => self.draw_opening(index, &mut rng),
        };
        let game = lead_start.unwrap_or_else(|| G::start(&self.rules));
        let mut slot = Slot {
            index,
            recorder: GameRecorder::new(format!("{}-{index}", self.config.seed), &game),
            search: GameSearch::new(game, self.config.search.root),
            rng,
            resign: ResignState::default(),
            sparring,
        };
        slot.search.set_static_judge(heuristic_judge::<G>);
        let mut actions = ActionList::new();
        for mv in &opening {
            slot.search.game().move_actions(mv, &mut actions);
            for &action in actions.as_slice() {
                slot.play(action, false)?;
            }
        }
        Ok(slot)
    }

    /// Whether game `index` is a sparring game, and the engine's side if so (both drawn from the game's own
    /// generator; nothing is drawn when sparring is off, so pure self-play games stay as they were).
    fn draw_sparring(&self, index: usize, rng: &mut ChaCha8Rng) -> Option<Sparring<G>> {
        let c = self.config;
        if c.sparring.share <= 0.0 || rng.random::<f32>() >= c.sparring.share {
            return None;
        }
        let side = match c.sparring.side {
            SparringSide::First => Some(Side::First),
            SparringSide::Second => Some(Side::Second),
            SparringSide::Either if rng.random::<bool>() => Some(Side::First),
            SparringSide::Either => Some(Side::Second),
            SparringSide::Both => None,
        };
        let limit = SearchLimit {
            nodes: Some(c.sparring.nodes),
            ..SearchLimit::default()
        };
        let engine_rng = ChaCha8Rng::seed_from_u64(derive_seed(c.seed, 1 << 41 | index as u64));
        Some(Sparring {
            side,
            engine: AlphaBeta::new(limit, engine_rng),
        })
    }

    /// The position a game begins from in a share of games (`lead_start_share`), drawn from the game's own
    /// generator; nothing is drawn when the share is 0 or the job has no starts.
    fn draw_lead_start(&self, rng: &mut ChaCha8Rng) -> Option<G> {
        let share = self.config.lead_start_share;
        if share <= 0.0 || self.starts.is_empty() || rng.random::<f32>() >= share {
            return None;
        }
        Some(self.starts[rng.random_range(0..self.starts.len())].clone())
    }

    /// The opening game `index` plays before its first search: none, or in a share of games (`opening_share`) a
    /// balanced random one, drawn from the game's own generator and judged by an alpha-beta of its own, so that
    /// it depends on nothing but the seed and the index (nothing is drawn when the share is 0).
    fn draw_opening(&mut self, index: usize, rng: &mut ChaCha8Rng) -> Vec<G::Move> {
        let c = self.config;
        if c.opening_share <= 0.0 || rng.random::<f32>() >= c.opening_share {
            return Vec::new();
        }
        let start = G::start(&self.rules);
        let judge_rng = || ChaCha8Rng::seed_from_u64(derive_seed(c.seed, 1 << 42 | index as u64));
        let reference = *self.opening_reference.get_or_insert_with(|| {
            BalanceJudge::<G>::new(&self.rules, SELFPLAY_BALANCE_DEPTH, judge_rng()).reference()
        });
        let mut judge = BalanceJudge::with_reference(reference, SELFPLAY_BALANCE_DEPTH, judge_rng());
        let [fewest, most] = c.opening_plies;
        let mut line = Vec::new();
        for _ in 0..OPENING_TRIES {
            let mut game = start.clone();
            line.clear();
            play_random_moves(&mut game, rng.random_range(fewest..=most), rng, &mut line);
            if judge.is_balanced(&game) {
                return line;
            }
        }
        Vec::new()
    }

    /// Fills `slot_ref` with the next pending game, ready for the network's first search. A game that the
    /// engine's moves alone end goes straight to `done`. Returns false when `done` asks to stop.
    fn refill(
        &mut self,
        slot_ref: &mut Option<Slot<G>>,
        pending: &mut dyn Iterator<Item = usize>,
        done: &mut dyn FnMut(FinishedGame) -> bool,
    ) -> Result<bool, SelfPlayError> {
        *slot_ref = None;
        for index in pending {
            let mut slot = self.new_slot(index)?;
            match self.start_turn(&mut slot)? {
                None => {
                    *slot_ref = Some(slot);
                    return Ok(true);
                }
                Some(finished) => {
                    if !done(finished) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Plays the sparring engine's moves while it is to move, then begins the network's next search; returns
    /// the game if the engine's moves ended it.
    fn start_turn(&mut self, slot: &mut Slot<G>) -> Result<Option<FinishedGame>, SelfPlayError> {
        while let Some(sparring) = slot.sparring.as_ref()
            && sparring.plays(slot.search.game().to_move())
        {
            self.play_engine_move(slot)?;
            if let Some(outcome) = slot.search.game().outcome() {
                return Ok(Some(self.close(slot, outcome)));
            }
        }
        self.begin_search_of(slot);
        Ok(None)
    }

    /// Plays the engine's move in a sparring game. Where the engine's moves are recorded (`sparring_recorded`,
    /// a bootstrap game), each of its actions is a policy target, unless a random move
    /// (`bootstrap_random_moves`) is played instead, unrecorded.
    fn play_engine_move(&mut self, slot: &mut Slot<G>) -> Result<(), SelfPlayError> {
        let sparring = slot.sparring.as_mut().expect("the engine plays this game");
        let game = slot.search.game().clone();
        let (mut mv, info) = sparring.engine.search(&game);
        let recorded = self.config.sparring.recorded || sparring.side.is_none();
        let random = recorded && slot.rng.random::<f32>() < self.config.bootstrap.random_moves;
        if random {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            mv = moves.swap_remove(slot.rng.random_range(0..moves.len()));
        }
        let mut actions = ActionList::new();
        game.move_actions(&mv, &mut actions);
        for &action in actions.as_slice() {
            if recorded && !random {
                let choice = engine_choice(slot.search.game(), action, &info);
                slot.recorder.record_search(slot.search.game(), &choice);
                if let Some(p) = self.progress {
                    Progress::add(&p.positions, 1);
                }
            }
            slot.play(action, self.config.search.tree_reuse)?;
        }
        Ok(())
    }

    /// Starts the next search of a game: full or cheap (playout cap randomization); a side that would have
    /// resigned, in a game played out to check it, searches fully with `resign_check_strength` times the
    /// simulations, so that the check can see a resignation its usual search could not avoid. Every budget is
    /// then scaled by the side to move's `side_simulations` factor.
    fn begin_search(&self, search: &mut GameSearch<G>, rng: &mut ChaCha8Rng, checked: Option<Side>) {
        let c = self.config;
        let drawn_full = c.full_search_prob >= 1.0 || rng.random::<f32>() < c.full_search_prob;
        let strengthened = checked.is_some_and(|side| side == search.game().to_move());
        let full = drawn_full || strengthened;
        let base = if strengthened {
            c.search.simulations.saturating_mul(c.resign.check_strength.max(1))
        } else if full {
            c.search.simulations
        } else {
            c.cheap_simulations
        };
        let mover = search.game().to_move();
        let budget = c.simulations_for(mover, base);
        let noise = full && c.search.root_noise(mover);
        search.set_gumbel_noise_scale(c.gumbel_noise_scale_at(search.game().ply()));
        search.begin(budget, full, noise);
    }

    /// Walks every game in flight down to up to `leaves_per_game` new leaves, written into `leaves` (reused
    /// between rounds); returns how many need an evaluation and how many terminal lines were backed up at once.
    fn gather_leaves(&mut self, slots: &mut [Option<Slot<G>>], leaves: &mut Vec<Leaf<G>>) -> (usize, u64) {
        let mut count = 0;
        let mut terminal = 0u64;
        let (path, legal) = (&mut self.path, &mut self.legal);
        for (s, slot) in slots.iter_mut().enumerate() {
            let Some(slot) = slot else { continue };
            for _ in 0..self.config.leaves_per_game {
                if count == leaves.len() {
                    leaves.push(Leaf {
                        slot: s,
                        path: Vec::new(),
                        game: slot.search.game().clone(),
                        legal: Vec::new(),
                    });
                }
                let leaf = &mut leaves[count];
                let step = slot.search.select_leaf(
                    &self.config.search,
                    &self.params,
                    &mut slot.rng,
                    path,
                    &mut leaf.game,
                    legal,
                );
                match step {
                    LeafStep::Evaluate => {
                        leaf.slot = s;
                        leaf.path.clone_from(path);
                        leaf.legal.clear();
                        leaf.legal.extend_from_slice(legal.as_slice());
                        count += 1;
                    }
                    LeafStep::Terminal => terminal += 1,
                    LeafStep::Collision | LeafStep::Idle => break,
                }
            }
        }
        (count, terminal)
    }

    /// Evaluates `leaves` in one evaluator call and expands each into its game's tree; returns the simulations
    /// this completed (a root's own evaluation is none).
    fn evaluate_leaves(&mut self, slots: &mut [Option<Slot<G>>], leaves: &[Leaf<G>]) -> u64 {
        if leaves.is_empty() {
            return 0;
        }
        let requests: Vec<EvalRequest<'_, G>> = leaves
            .iter()
            .map(|l| EvalRequest {
                game: &l.game,
                legal: &l.legal,
            })
            .collect();
        let evaluations = self.evaluator.evaluate(&requests);
        let mut simulations = 0;
        for (leaf, eval) in leaves.iter().zip(&evaluations) {
            let slot = slots[leaf.slot].as_mut().expect("a leaf's game is in flight");
            if leaf.path.len() > 1 {
                simulations += 1;
            }
            slot.search.expand_leaf(
                &self.config.search,
                &mut slot.rng,
                &leaf.path,
                &leaf.game,
                &leaf.legal,
                eval,
            );
        }
        self.stats.evaluations += leaves.len() as u64;
        self.stats.batches += 1;
        if let Some(p) = self.progress {
            Progress::add(&p.evaluations, leaves.len() as u64);
            Progress::add(&p.batches, 1);
        }
        simulations
    }

    /// Plays the games `indices` (in that order of starting), sending each finished game to `done`. Stops
    /// early, without error, when `done` returns false; `stop` is polled between rounds.
    pub fn play(
        &mut self,
        indices: impl IntoIterator<Item = usize>,
        mut done: impl FnMut(FinishedGame) -> bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), SelfPlayError> {
        let mut pending = indices.into_iter();
        let mut slots: Vec<Option<Slot<G>>> = (0..self.config.games_in_flight).map(|_| None).collect();
        for slot_ref in slots.iter_mut() {
            if !self.refill(slot_ref, &mut pending, &mut done)? {
                return Ok(());
            }
        }
        let mut leaves: Vec<Leaf<G>> = Vec::new();
        while slots.iter().any(Option::is_some) && !stop() {
            let (count, terminal) = self.gather_leaves(&mut slots, &mut leaves);
            let simulations = terminal + self.evaluate_leaves(&mut slots, &leaves[..count]);
            self.stats.simulations += simulations;
            if let Some(p) = self.progress {
                Progress::add(&p.simulations, simulations);
            }
            // Move on every game whose search is complete.
            for slot_ref in slots.iter_mut() {
                let Some(slot) = slot_ref.as_mut() else { continue };
                if !slot.search.is_done() {
                    continue;
                }
                self.stats.max_tree_bytes = self.stats.max_tree_bytes.max(slot.search.tree().arena_bytes() as u64);
                if let Some(finished) = self.step_game(slot)?
                    && (!done(finished) || !self.refill(slot_ref, &mut pending, &mut done)?)
                {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Plays the searched action of a game, records it, and returns the game if it ended.
    fn step_game(&mut self, slot: &mut Slot<G>) -> Result<Option<FinishedGame>, SelfPlayError> {
        let config = self.config;
        let game = slot.search.game();
        let temperature = config.temperature_at(game.ply());
        let result = slot.search.finish(temperature, &mut slot.rng);
        slot.recorder.record_search(game, &result);
        if let Some(p) = self.progress {
            Progress::add(&p.positions, 1);
        }
        let mover = game.to_move();
        if let Some(outcome) = self.resignation(slot, mover, result.root_value) {
            return Ok(Some(self.close(slot, outcome)));
        }
        slot.play(result.action, config.search.tree_reuse)?;
        if let Some(outcome) = slot.search.game().outcome() {
            return Ok(Some(self.close(slot, outcome)));
        }
        self.start_turn(slot)
    }

    fn begin_search_of(&self, slot: &mut Slot<G>) {
        let Slot {
            search, rng, resign, ..
        } = slot;
        self.begin_search(search, rng, resign.would_resign);
    }

    /// Applies the resignation rule after a search at the start of a move; returns the resigned outcome. A
    /// sparring game is always played out: its result against the engine is what it is for.
    fn resignation(&self, slot: &mut Slot<G>, mover: Side, root_value: f32) -> Option<Outcome> {
        let config = self.config;
        if !config.resignation_enabled()
            || !slot.recorder.at_move_start()
            || slot.resign.would_resign.is_some()
            || slot.sparring.is_some()
        {
            return None;
        }
        let streak = &mut slot.resign.low_streak[mover.index()];
        if root_value >= config.resign.threshold {
            *streak = 0;
            return None;
        }
        *streak += 1;
        if *streak < config.resign.consecutive {
            return None;
        }
        if slot.rng.random::<f32>() < config.resign.check_fraction {
            slot.resign.would_resign = Some(mover);
            None
        } else {
            Some(Outcome::win(mover.other(), EndReason::Resignation))
        }
    }

    fn close(&mut self, slot: &mut Slot<G>, outcome: Outcome) -> FinishedGame {
        let plies = slot.search.game().ply();
        let mut recorder = std::mem::replace(&mut slot.recorder, GameRecorder::new(String::new(), slot.search.game()));
        let checked = slot.resign.would_resign;
        let surprises = recorder.take_surprises();
        let (record, mut positions) = recorder.finish(outcome, plies, checked.is_some());
        if outcome.winner.is_none() && self.config.draw_score > 0.0 {
            let last = slot.search.game();
            judge_draw(
                &mut positions,
                last.to_move(),
                self.config.draw_score * last.heuristic(),
            );
        }
        let last = slot.search.game();
        fill_scores(&mut positions, last.to_move(), last.score());
        fill_short_values(&mut positions, SHORT_VALUE_HORIZON);
        let positions = weight_by_surprise(positions, &surprises, self.config.policy_surprise_weight, &mut slot.rng);
        let mut stats = SelfPlayStats {
            games: 1,
            positions: positions.len() as u64,
            full_positions: positions.iter().filter(|p| p.full_search).count() as u64,
            plies: plies as u64,
            ..SelfPlayStats::default()
        };
        stats.record_result(outcome.winner, outcome.reason.as_str());
        if let Some(side) = slot.sparring.as_ref().and_then(|s| s.side) {
            stats.record_sparring(outcome.value_for(side.other()));
        }
        if let Some(resigner) = checked {
            stats.resign_checks = 1;
            stats.false_resigns = (outcome.winner != Some(resigner.other())) as u64;
        }
        if let Some(p) = self.progress {
            Progress::add(&p.games, 1);
        }
        FinishedGame {
            index: slot.index,
            record,
            positions,
            stats,
        }
    }
}

/// Runs `games` games on `config.workers` threads, each with the evaluator `make_evaluator(worker)` builds in
/// its own thread (with one intra-op torch thread), and writes them to `sink` in game order; a share of them
/// (`lead_start_share`) begin at one of `starts`. Returns the summary of the finished games plus the workers'
/// search counters.
pub fn run_selfplay<G, E, F, R>(
    config: &SelfPlayConfig,
    rules: &G::Rules,
    starts: &[G],
    games: usize,
    make_evaluator: F,
    sink: &mut dyn GameSink,
    progress: &Progress,
) -> Result<SelfPlayStats, SelfPlayError>
where
    G: Encoding + Heuristic,
    E: Evaluator<G>,
    F: Fn(usize) -> Result<E, R> + Sync,
    R: std::fmt::Display,
{
    let workers = config.workers.max(1);
    let (sender, receiver) = mpsc::channel::<Result<FinishedGame, SelfPlayError>>();
    let mut summary = SelfPlayStats::default();
    let search_totals = std::thread::scope(|scope| -> Result<Vec<SelfPlayStats>, SelfPlayError> {
        let mut handles = Vec::new();
        for w in 0..workers {
            let sender = sender.clone();
            let make_evaluator = &make_evaluator;
            let rules = rules.clone();
            handles.push(scope.spawn(move || -> SelfPlayStats {
                tch::set_num_threads(1);
                let evaluator = match make_evaluator(w) {
                    Ok(e) => e,
                    Err(reason) => {
                        let reason = reason.to_string();
                        let _ = sender.send(Err(SelfPlayError::Evaluator { worker: w, reason }));
                        return SelfPlayStats::default();
                    }
                };
                let mut worker = Worker::<G, E>::new(config, rules, evaluator, Some(progress)).with_starts(starts);
                let result = worker.play(
                    (w..games).step_by(workers),
                    |game| sender.send(Ok(game)).is_ok(),
                    &|| false,
                );
                if let Err(e) = result {
                    let _ = sender.send(Err(e));
                }
                worker.stats().clone()
            }));
        }
        drop(sender);
        let failure = hand_to_sink(receiver, sink, &mut summary);
        let mut totals = Vec::new();
        for h in handles {
            totals.push(h.join().map_err(|_| SelfPlayError::Panicked)?);
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(totals),
        }
    })?;
    sink.close()?;
    for t in &search_totals {
        summary.simulations += t.simulations;
        summary.evaluations += t.evaluations;
        summary.batches += t.batches;
        summary.max_tree_bytes = summary.max_tree_bytes.max(t.max_tree_bytes);
    }
    Ok(summary)
}

/// Hands finished games to the sink in index order, whatever order the workers finish them in, until the
/// workers are done or one message is a failure (returned; the workers then stop at their next game).
fn hand_to_sink(
    receiver: mpsc::Receiver<Result<FinishedGame, SelfPlayError>>,
    sink: &mut dyn GameSink,
    summary: &mut SelfPlayStats,
) -> Option<SelfPlayError> {
    let mut waiting: BTreeMap<usize, FinishedGame> = BTreeMap::new();
    let mut next = 0;
    for message in receiver {
        let game = match message {
            Ok(game) => game,
            Err(e) => return Some(e),
        };
        waiting.insert(game.index, game);
        while let Some(game) = waiting.remove(&next) {
            summary.merge(&game.stats);
            if let Err(e) = sink.finished(game.record, game.positions) {
                return Some(SelfPlayError::Sink(e));
            }
            next += 1;
        }
    }
    None
}
