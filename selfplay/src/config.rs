//! The `[selfplay]` table of a run config: every knob of the search, the workers and the records.

use serde::{Deserialize, Serialize};

/// How the root of each search chooses where simulations go and what the training target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootSearch {
    /// AlphaZero: PUCT everywhere, Dirichlet noise at the root, the visit distribution as the target.
    Puct,
    /// Gumbel AlphaZero: Gumbel-top-k sampling and sequential halving at the root, the completed-Q improved
    /// policy as the target. Non-root nodes use PUCT (see `docs/selfplay.md`).
    Gumbel,
}

/// Self-play settings. Every field has a default, so a config names only what it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlayConfig {
    /// `puct` or `gumbel`: the root search.
    pub root: RootSearch,
    /// Simulations of a full search (one simulation = one leaf reached below the root and backed up).
    pub simulations: u32,
    /// Simulations of a cheap search (playout cap randomization); only moves the game on.
    pub cheap_simulations: u32,
    /// Share of searches that are full and recorded as policy targets; 1 makes every search full.
    pub full_search_prob: f32,
    /// PUCT exploration constant at zero visits (c_init).
    pub c_puct: f32,
    /// Growth of the exploration constant with the parent's visits: c(N) = c_puct + ln((N + c_base + 1) /
    /// c_base). 0 turns the growth off.
    pub c_puct_base: f32,
    /// First-play urgency: an unvisited child's Q is the parent's Q minus this times sqrt(sum of the visited
    /// children's priors).
    pub fpu_reduction: f32,
    /// Dirichlet noise at the root (PUCT only): alpha = dirichlet_alpha_total / number of legal actions.
    pub dirichlet_alpha_total: f32,
    /// Weight of the noise in the root priors (0 = no noise).
    pub dirichlet_fraction: f32,
    /// Move-selection temperature at ply 0 (PUCT: actions are drawn in proportion to visits^(1/T)).
    pub temperature_start: f32,
    /// Temperature once `temperature_decay_plies` plies are played; below 0.01 the most visited action is
    /// played.
    pub temperature_end: f32,
    /// Plies over which the temperature falls linearly from start to end.
    pub temperature_decay_plies: u32,
    /// Keep the chosen child's subtree for the next search.
    pub tree_reuse: bool,
    /// Gumbel: number of root actions sampled without replacement (m); capped by the legal actions.
    pub gumbel_actions: u32,
    /// Gumbel: c_visit of sigma(q) = (c_visit + max N) * c_scale * q.
    pub gumbel_c_visit: f32,
    /// Gumbel: c_scale of sigma(q).
    pub gumbel_c_scale: f32,
    /// Resign when the root value for the side to move stays below this for `resign_consecutive` of its own
    /// move-starting searches; -1 or less switches resignation off.
    pub resign_threshold: f32,
    /// Consecutive own searches below the threshold before resigning.
    pub resign_consecutive: u32,
    /// Share of would-be resigned games that are played out instead, to measure false resignations.
    pub resign_check_fraction: f32,
    /// Games played at once by one worker; their leaves share each evaluator call.
    pub games_in_flight: usize,
    /// Leaves gathered per game and evaluator call, kept apart by virtual loss.
    pub leaves_per_game: usize,
    /// Virtual loss added per pending leaf on the way down (in units of a lost simulation).
    pub virtual_loss: f32,
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
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            root: RootSearch::Gumbel,
            simulations: 64,
            cheap_simulations: 16,
            full_search_prob: 0.25,
            c_puct: 1.25,
            c_puct_base: 19652.0,
            fpu_reduction: 0.25,
            dirichlet_alpha_total: 10.0,
            dirichlet_fraction: 0.25,
            temperature_start: 1.0,
            temperature_end: 0.1,
            temperature_decay_plies: 30,
            tree_reuse: true,
            gumbel_actions: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 1.0,
            resign_threshold: -0.95,
            resign_consecutive: 3,
            resign_check_fraction: 0.1,
            games_in_flight: 32,
            leaves_per_game: 2,
            virtual_loss: 1.0,
            workers: 1,
            seed: 1,
            games_per_shard: 256,
            rollout_max_actions: 400,
            eval_cache: 0,
            precision: zero_model::Precision::Auto,
        }
    }
}

/// A setting that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("selfplay.{key}: {reason}")]
pub struct ConfigError {
    pub key: &'static str,
    pub reason: String,
}

impl SelfPlayConfig {
    /// Checks ranges that serde cannot express.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fail = |key, reason: &str| {
            Err(ConfigError {
                key,
                reason: reason.to_string(),
            })
        };
        if self.simulations == 0 {
            return fail("simulations", "must be at least 1");
        }
        if self.cheap_simulations == 0 {
            return fail("cheap_simulations", "must be at least 1");
        }
        for (key, p) in [
            ("full_search_prob", self.full_search_prob),
            ("dirichlet_fraction", self.dirichlet_fraction),
            ("resign_check_fraction", self.resign_check_fraction),
        ] {
            if !(0.0..=1.0).contains(&p) {
                return fail(key, "must be within [0, 1]");
            }
        }
        if self.c_puct <= 0.0 || self.c_puct_base < 0.0 {
            return fail("c_puct", "c_puct must be positive and c_puct_base not negative");
        }
        if self.dirichlet_alpha_total <= 0.0 {
            return fail("dirichlet_alpha_total", "must be positive");
        }
        if self.temperature_start < 0.0 || self.temperature_end < 0.0 {
            return fail("temperature_start", "temperatures must not be negative");
        }
        if self.gumbel_actions < 1 {
            return fail("gumbel_actions", "must be at least 1");
        }
        if self.games_in_flight == 0 || self.leaves_per_game == 0 || self.workers == 0 {
            return fail(
                "games_in_flight",
                "games_in_flight, leaves_per_game and workers must be at least 1",
            );
        }
        if self.games_per_shard == 0 {
            return fail("games_per_shard", "must be at least 1");
        }
        if self.resign_consecutive == 0 {
            return fail("resign_consecutive", "must be at least 1");
        }
        Ok(())
    }

    /// Whether resignation is on at all.
    pub fn resignation_enabled(&self) -> bool {
        self.resign_threshold > -1.0
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
