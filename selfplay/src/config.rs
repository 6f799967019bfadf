//! The `[selfplay]` table of a run config: the search it plays with (`[selfplay.search]`, the search crate's
//! [`SearchConfig`]) and what self-play adds around it: cheap searches, temperatures, resignation, workers and
//! records.

use serde::{Deserialize, Serialize};
use zero_games::Side;
use zero_search::SearchConfig;
use zero_search::config::MAX_SIMULATIONS;

/// Self-play workers of one process: one per core is the useful number.
pub const MAX_WORKERS: usize = 256;

/// A `--workers` value on the command line: a whole number from 1 to [`MAX_WORKERS`], the range the config's
/// `selfplay.workers` is checked against, so that the command line cannot pass what the config refuses.
pub fn parse_workers(text: &str) -> Result<usize, WorkersError> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_WORKERS).contains(&n) => Ok(n),
        _ => Err(WorkersError(text.to_string())),
    }
}

/// A `--workers` value that is not a number of workers from 1 to [`MAX_WORKERS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a number of workers from 1 to {MAX_WORKERS}, got {0:?}")]
pub struct WorkersError(String);
/// Games one worker plays at once (their trees are all in memory).
pub const MAX_GAMES_IN_FLIGHT: usize = 4096;
/// Leaves one game adds to each network batch.
pub const MAX_LEAVES_PER_GAME: usize = 64;

/// Nodes of one sparring search: about a second of alpha-beta, far beyond any useful share of a self-play move.
pub const MAX_SPARRING_NODES: u64 = 10_000_000;

/// Bounds of a `side_simulations` factor: a side may search from a sixteenth to sixteen times as long.
pub const MIN_SIDE_FACTOR: f32 = 1.0 / 16.0;
pub const MAX_SIDE_FACTOR: f32 = 16.0;

/// Which side the classic engine plays in a sparring game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SparringSide {
    /// Drawn at random for each game, half and half.
    Either,
    /// The side that moves first (Bagh Chal's goats).
    First,
    /// The other side (Bagh Chal's tigers).
    Second,
    /// Both sides: every engine move is recorded as a policy target (there is no network side to record), as in
    /// the first generation's games of `bootstrap.nodes`.
    Both,
}

/// Self-play settings. Every field has a default, so a config names only what it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlayConfig {
    /// The search: root, simulations of a full search, exploration, noise, tree reuse.
    pub search: SearchConfig,
    /// Simulations of a cheap search (playout cap randomization); only moves the game on.
    pub cheap_simulations: u32,
    /// Share of searches that are full and recorded as policy targets; 1 makes every search full.
    pub full_search_prob: f32,
    /// Move-selection temperature at ply 0 (PUCT: actions are drawn in proportion to visits^(1/T)).
    pub temperature_start: f32,
    /// Temperature once `temperature_decay_plies` plies are played; below 0.01 the most visited action is
    /// played.
    pub temperature_end: f32,
    /// Plies over which the temperature falls linearly from start to end.
    pub temperature_decay_plies: u32,
    /// Whether the temperatures also govern a Gumbel root's move choice: its Gumbel noise is scaled by the
    /// temperature at the ply, so the move is drawn as from softmax((logits + sigma(q)) / T) and, once T is
    /// low, the search's best is played. Off, the Gumbel root samples at T = 1 all game (the paper's self-play),
    /// and a side that a single bad move costs the game (Bagh Chal's goats) makes one in many of its moves.
    pub gumbel_temperature: bool,
    /// Resignation, and the checks that measure how often it is wrong (`[selfplay.resign]`).
    pub resign: ResignConfig,
    /// Games played at once by one worker; their leaves share each evaluator call.
    pub games_in_flight: usize,
    /// Leaves gathered per game and evaluator call, kept apart by virtual loss.
    pub leaves_per_game: usize,
    /// Worker threads, each with its own evaluator.
    pub workers: usize,
    /// Run seed; worker and game seeds derive from it.
    pub seed: u64,
    /// Games per written shard.
    pub games_per_shard: usize,
    /// Cap on the actions of one random playout of the rollout evaluator (then it counts as a draw).
    pub rollout_max_actions: u32,
    /// Positions kept in each network evaluator's cache (0 = no cache).
    pub eval_cache: usize,
    /// The number format the network evaluates in: `auto` (bf16 on a CPU with native bf16, else f32), `f32`,
    /// `bf16`.
    pub precision: zero_model::Precision,
    /// A drawn game's value target, judged by the material left: each position's target is this times the
    /// game's static judgement of the final position (its `Heuristic`, in [-1, 1]) from that position's side to
    /// move, in place of a plain 0. 0 keeps the plain draw. Where early self-play draws nearly every game (Tours
    /// at its ply limits), the plain target is a constant and the value head learns nothing from it.
    pub draw_score: f32,
    /// Policy surprise weighting (KataGo's): the share of a game's full-search records repeated in proportion
    /// to how far each search moved from the network's policy, the rest kept once each on average
    /// ([`crate::records::weight_by_surprise`]). 0 writes each search once.
    pub policy_surprise_weight: f32,
    /// Each side's searches (full, cheap and resignation checks) run this many times their simulations: the
    /// first entry for the side that moves first, the second for the other. `[1, 1]` plays both alike. For a
    /// game whose sides differ (Bagh Chal's goats and tigers), a side that searches deeper in training games
    /// punishes plans that an equal opponent would let pass.
    pub side_simulations: [f32; 2],
    /// Games against the classic engine (`[selfplay.sparring]`).
    pub sparring: SparringConfig,
    /// Generation 0's games played by the classic engine (`[selfplay.bootstrap]`).
    pub bootstrap: BootstrapConfig,
    /// Share of games that begin from a balanced random opening (`zero_search::balance`, the kind the arena's
    /// books and a run's matches start from) instead of the start position: `opening_plies` uniformly random
    /// moves, kept only where a depth-4 alpha-beta judges the position about as even as the start (else drawn
    /// again, up to [`OPENING_TRIES`] times, then the start). The opening's moves are in the game record but not
    /// searched, so they have no position records.
    /// Self-play from the start rarely reaches the positions a book's random moves make (a tiger's corner left
    /// empty), so the network meets them first in its matches. 0 starts every game at the start.
    pub opening_share: f32,
    /// The fewest and most plies of such an opening, drawn uniformly (the arena's books: 2 to 6).
    pub opening_plies: [u32; 2],
    /// Share of games that begin from a lead start ([`crate::starts`]) instead: a position of the previous
    /// generation's self-play games that were drawn with one side ahead on material, where that lead was first
    /// held, with a fresh history (the draw counters start again). Such a game begins at a position, not by
    /// moves: its record's start position is that position. Drawn for each game from its own generator among
    /// the starts the job was given; none (generation 0) starts it at the start. 0 draws nothing.
    pub lead_start_share: f32,
}

/// `[selfplay.resign]`: when a side gives up, and the checks that keep that honest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ResignConfig {
    /// Resign when the root value for the side to move stays below this for `consecutive` of its own
    /// move-starting searches; -1 or less switches resignation off.
    pub threshold: f32,
    /// Consecutive own searches below the threshold before resigning.
    pub consecutive: u32,
    /// Share of would-be resigned games that are played out instead, to measure false resignations.
    pub check_fraction: f32,
    /// In a game played out to check a resignation, the side that would have resigned searches with this many
    /// times the simulations of a full search (the other side as usual): a check that can see a resignation
    /// the usual search would wrongly have made. 1 plays the check as usual.
    pub check_strength: u32,
    /// The run lets self-play resign in a generation only when the one before measured at most this share of
    /// false resignations (over at least `min_checks` checks); until then every would-be resignation
    /// is played out as a check. 1 trusts the value head from the start.
    pub max_false_rate: f32,
    /// Checks the previous generation must have played for its false-resignation rate to count.
    pub min_checks: u32,
}

impl Default for ResignConfig {
    fn default() -> Self {
        ResignConfig {
            threshold: -0.95,
            consecutive: 3,
            check_fraction: 0.1,
            check_strength: 2,
            max_false_rate: 0.05,
            min_checks: 20,
        }
    }
}

/// `[selfplay.sparring]`: games in which the classic engine plays one side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SparringConfig {
    /// Share of games in which one side (`side`) is played by the classic engine
    /// (alpha-beta over the game's heuristic, [`zero_search::alphabeta`]) instead of the network's search.
    /// Only the network's side is searched and recorded, so the network learns from its own searches, with the
    /// results of games against an opponent that plays the plans self-play never tries (Bagh Chal's goats
    /// shutting in the tigers). 0 keeps pure self-play.
    pub share: f32,
    /// The side the engine plays in a sparring game: `either` (drawn for each game), `first` or `second`.
    pub side: SparringSide,
    /// Whether the engine's moves in sparring games are recorded too, each as a one-hot policy target, so that the
    /// network's side learns from the engine where the engine plays it (always so with `side = "both"`,
    /// which has no network side). `bootstrap.random_moves` then applies to the engine's moves.
    pub recorded: bool,
    /// Nodes of each alpha-beta search in a sparring game: a node budget rather than a time budget, so that a
    /// run stays reproducible.
    pub nodes: u64,
}

impl Default for SparringConfig {
    fn default() -> Self {
        SparringConfig {
            share: 0.0,
            side: SparringSide::Either,
            recorded: false,
            nodes: 20_000,
        }
    }
}

/// `[selfplay.bootstrap]`: generation 0's games, played by the classic engine while there is no network yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BootstrapConfig {
    /// Generation 0's games (no network yet) played by the classic engine on both sides at this many nodes a
    /// move, each engine move recorded as the policy target (one-hot) and each game's result as the value
    /// target: the first network imitates alpha-beta instead of learning from the uniform-prior search with
    /// random rollouts. 0 keeps the rollout search.
    pub nodes: u64,
    /// The side the engine plays in those games: `both` (the default), or one side (`first`, `second`, `either`),
    /// the other played and recorded by generation 0's uniform-prior rollout search as without a bootstrap.
    pub side: SparringSide,
    /// Share of moves in those games played at random instead (not recorded), so that the games differ and
    /// some are decided.
    pub random_moves: f32,
}

impl Default for BootstrapConfig {
    fn default() -> Self {
        BootstrapConfig {
            nodes: 0,
            side: SparringSide::Both,
            random_moves: 0.05,
        }
    }
}

/// Random openings drawn for one game before it starts from the start position instead.
pub const OPENING_TRIES: usize = 50;
/// The most plies of a self-play opening: past this, random moves are no opening.
pub const MAX_OPENING_PLIES: u32 = 40;

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            search: SearchConfig::default(),
            cheap_simulations: 16,
            full_search_prob: 0.25,
            temperature_start: 1.0,
            temperature_end: 0.1,
            temperature_decay_plies: 30,
            gumbel_temperature: false,
            resign: ResignConfig::default(),
            games_in_flight: 32,
            leaves_per_game: 2,
            workers: 1,
            seed: 1,
            games_per_shard: 256,
            rollout_max_actions: zero_search::rollout::DEFAULT_PLAYOUT_ACTIONS,
            eval_cache: 0,
            precision: zero_model::Precision::Auto,
            draw_score: 0.0,
            policy_surprise_weight: 0.0,
            side_simulations: [1.0, 1.0],
            sparring: SparringConfig::default(),
            bootstrap: BootstrapConfig::default(),
            opening_share: 0.0,
            opening_plies: [2, 6],
            lead_start_share: 0.0,
        }
    }
}

/// A setting that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("selfplay.{key}: {reason}")]
pub struct ConfigError {
    pub key: String,
    pub reason: String,
}

/// The refusal of `key` for `reason`.
fn fail(key: &str, reason: &str) -> Result<(), ConfigError> {
    Err(ConfigError {
        key: key.to_string(),
        reason: reason.to_string(),
    })
}

impl SelfPlayConfig {
    /// Checks ranges that serde cannot express.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if let Err(e) = self.search.validate() {
            return Err(ConfigError {
                key: format!("search.{}", e.key),
                reason: e.reason,
            });
        }
        if !(1..=MAX_SIMULATIONS).contains(&self.cheap_simulations) {
            return fail("cheap_simulations", &format!("must be within [1, {MAX_SIMULATIONS}]"));
        }
        for (key, p) in [
            ("full_search_prob", self.full_search_prob),
            ("resign.check_fraction", self.resign.check_fraction),
            ("resign.max_false_rate", self.resign.max_false_rate),
            ("draw_score", self.draw_score),
            ("policy_surprise_weight", self.policy_surprise_weight),
            ("sparring.share", self.sparring.share),
            ("bootstrap.random_moves", self.bootstrap.random_moves),
            ("opening_share", self.opening_share),
            ("lead_start_share", self.lead_start_share),
        ] {
            if !(0.0..=1.0).contains(&p) {
                return fail(key, "must be within [0, 1]");
            }
        }
        // A value is in [-1, 1]: a threshold outside it would resign every game (above 1) or silently never
        // (below -1, where -1 is the documented way to switch resignation off).
        if !(-1.0..=1.0).contains(&self.resign.threshold) {
            return fail(
                "resign.threshold",
                &format!(
                    "must be within [-1, 1] (-1 switches resignation off), got {}",
                    self.resign.threshold
                ),
            );
        }
        // A NaN passes a plain `< 0`; it and an infinity would garble every move choice.
        for (key, t) in [
            ("temperature_start", self.temperature_start),
            ("temperature_end", self.temperature_end),
        ] {
            if !(t.is_finite() && t >= 0.0) {
                return fail(key, &format!("must be a number 0 or above, got {t}"));
            }
        }
        // Upper bounds too: each worker holds a network and each game in flight a tree, so a typo of a few
        // zeros must be refused here rather than abort after allocating gigabytes.
        for (key, value, max) in [
            ("workers", self.workers, MAX_WORKERS),
            ("games_in_flight", self.games_in_flight, MAX_GAMES_IN_FLIGHT),
            ("leaves_per_game", self.leaves_per_game, MAX_LEAVES_PER_GAME),
        ] {
            if !(1..=max).contains(&value) {
                return fail(key, &format!("must be within [1, {max}], got {value}"));
            }
        }
        if self.games_per_shard == 0 {
            return fail("games_per_shard", "must be at least 1");
        }
        if self.resign.consecutive == 0 {
            return fail("resign.consecutive", "must be at least 1");
        }
        if self.resign.check_strength == 0 {
            return fail("resign.check_strength", "must be at least 1");
        }
        self.validate_lengths()
    }

    /// Checks the engine's node budgets, the openings' lengths and the sides' simulation factors.
    fn validate_lengths(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_SPARRING_NODES).contains(&self.sparring.nodes) {
            return fail(
                "sparring.nodes",
                &format!("must be within [1, {MAX_SPARRING_NODES}], got {}", self.sparring.nodes),
            );
        }
        if self.bootstrap.nodes > MAX_SPARRING_NODES {
            return fail(
                "bootstrap.nodes",
                &format!("must be within [0, {MAX_SPARRING_NODES}], got {}", self.bootstrap.nodes),
            );
        }
        let [fewest, most] = self.opening_plies;
        if fewest > most || most > MAX_OPENING_PLIES {
            return fail(
                "opening_plies",
                &format!("must be [fewest, most] with fewest <= most <= {MAX_OPENING_PLIES}, got [{fewest}, {most}]"),
            );
        }
        for factor in self.side_simulations {
            if !(MIN_SIDE_FACTOR..=MAX_SIDE_FACTOR).contains(&factor) {
                return fail(
                    "side_simulations",
                    &format!("each factor must be within [{MIN_SIDE_FACTOR}, {MAX_SIDE_FACTOR}], got {factor}"),
                );
            }
        }
        Ok(())
    }

    /// The settings generation 0 plays with when no network exists yet: with `bootstrap.nodes`, every game is
    /// a recorded sparring game of the engine at that budget on `bootstrap.side` (against itself by default);
    /// else these settings (the uniform-prior rollout search).
    pub fn for_generation_zero(&self) -> SelfPlayConfig {
        let mut config = self.clone();
        if self.bootstrap.nodes > 0 {
            config.sparring = SparringConfig {
                share: 1.0,
                side: self.bootstrap.side,
                recorded: true,
                nodes: self.bootstrap.nodes,
            };
        }
        config
    }

    /// Whether resignation is on at all.
    pub fn resignation_enabled(&self) -> bool {
        self.resign.threshold > -1.0
    }

    /// Whether a run may let this generation resign, given the previous generation's checks: `false_resigns`
    /// of `checks` would-be resignations played out were not lost.
    pub fn resignation_earned(&self, checks: u64, false_resigns: u64) -> bool {
        if self.resign.max_false_rate >= 1.0 {
            return true;
        }
        checks >= u64::from(self.resign.min_checks)
            && false_resigns as f64 <= self.resign.max_false_rate as f64 * checks as f64
    }

    /// The simulations of a search of `base` simulations for `side`: scaled by its `side_simulations` factor,
    /// at least 1 and at most the search's cap.
    pub fn simulations_for(&self, side: Side, base: u32) -> u32 {
        let scaled = (base as f64 * self.side_simulations[side.index()] as f64).round();
        scaled.clamp(1.0, MAX_SIMULATIONS as f64) as u32
    }

    /// The Gumbel root's noise scale at `ply`: the temperature there with `gumbel_temperature`, else 1.
    pub fn gumbel_noise_scale_at(&self, ply: u32) -> f32 {
        if self.gumbel_temperature {
            self.temperature_at(ply)
        } else {
            1.0
        }
    }

    /// The move-selection temperature at `ply`: linear from start to end over the decay plies.
    pub fn temperature_at(&self, ply: u32) -> f32 {
        if self.temperature_decay_plies == 0 || ply >= self.temperature_decay_plies {
            return self.temperature_end;
        }
        let t = ply as f32 / self.temperature_decay_plies as f32;
        self.temperature_start + (self.temperature_end - self.temperature_start) * t
    }
}
