//! [`PlaySearch`]: how a judged player searches (one that is rated or played against rather than trained): its
//! budget, its root, its PUCT constants, the weights beside its values, its leaf batch, whether it keeps its tree
//! and its move choice's temperature. One type for every place that names such a player: the arena's network
//! players (`ckpt:PATH,ms=100,root=gumbel`), a run's equal-time match (`[run.equal_time]`), a bot bundle's default
//! search (its manifest's `search`) and the bot itself.
//!
//! Its serde form is the bundle manifest's `search` object: `sims` and `root` always, every other key only where
//! it differs from [`PlaySearch::DEFAULT`], so that manifests written before a key existed still load and ones
//! written now read the same to older builds where they use none of the newer keys.

use crate::config::{
    MAX_LEAF_BATCH, MAX_MOVE_TIME_MS, MAX_SIMULATIONS, PLAY_LEAF_BATCH, PLAY_TREE_REUSE, RootSearch, SearchConfig,
    SearchConfigError, SideRoots, SideWeights, check_minimax_weight,
};
use crate::engine::Budget;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The settings of a judged player's search. Every field has a default ([`PlaySearch::DEFAULT`]), so a config
/// or manifest names only what it changes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlaySearch {
    /// Simulations per move (at every action of it) when `movetime_ms` is absent, and a strength level `max`'s;
    /// 0 plays the network's raw policy.
    pub sims: u32,
    /// Milliseconds of thinking per move, in place of `sims`: equal thinking time with `alphabeta:ms=` the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// `puct` or `gumbel`, or one for each side, `FIRST/SECOND` (`gumbel/puct`).
    pub root: SideRoots,
    /// How much the search weighs the game's score beside the value ([`SearchConfig::score_utility`]): a number
    /// for both sides or a pair `[first, second]`, each in [0, 1].
    #[serde(skip_serializing_if = "is_default_score_utility")]
    pub score_utility: SideWeights,
    /// How much the search weighs the game's heuristic minimaxed through its tree
    /// ([`SearchConfig::minimax_weight`]), in [0, 1].
    #[serde(skip_serializing_if = "is_default_minimax_weight")]
    pub minimax_weight: f32,
    /// PUCT's exploration constant at zero visits ([`SearchConfig::c_puct`]).
    #[serde(skip_serializing_if = "is_default_c_puct")]
    pub c_puct: f32,
    /// First-play urgency reduction ([`SearchConfig::fpu_reduction`]).
    #[serde(skip_serializing_if = "is_default_fpu_reduction")]
    pub fpu_reduction: f32,
    /// Leaves a timed search evaluates per network call ([`SearchConfig::leaf_batch`]).
    #[serde(skip_serializing_if = "is_default_leaf_batch")]
    pub leaf_batch: u32,
    /// Whether the tree is kept across the opponent's reply ([`SearchConfig::tree_reuse`]).
    #[serde(skip_serializing_if = "is_default_tree_reuse")]
    pub tree_reuse: bool,
    /// Temperature of the move choice; 0 plays the search's own choice.
    #[serde(skip_serializing_if = "is_default_temperature")]
    pub temperature: f32,
}

impl Default for PlaySearch {
    fn default() -> Self {
        PlaySearch::DEFAULT
    }
}

/// The search settings a judged player does not name: the search crate's defaults.
const UNNAMED: SearchConfig = SearchConfig::DEFAULT;

impl PlaySearch {
    /// A judged player's search unless told otherwise: 64 simulations, a PUCT root played at temperature 0 (the
    /// most visited action), the search crate's PUCT constants, no score or minimax weight, leaves evaluated
    /// [`PLAY_LEAF_BATCH`] at a time under a time budget, the tree kept ([`PLAY_TREE_REUSE`]).
    pub const DEFAULT: PlaySearch = PlaySearch {
        sims: 64,
        movetime_ms: None,
        root: SideRoots::both(RootSearch::Puct),
        score_utility: UNNAMED.score_utility,
        minimax_weight: UNNAMED.minimax_weight,
        c_puct: UNNAMED.c_puct,
        fpu_reduction: UNNAMED.fpu_reduction,
        leaf_batch: PLAY_LEAF_BATCH,
        tree_reuse: PLAY_TREE_REUSE,
        temperature: 0.0,
    };

    /// The tree search's settings: [`SearchConfig::for_play`] with this player's root, simulations (at least 1),
    /// constants, weights, batch and reuse.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            c_puct: self.c_puct,
            fpu_reduction: self.fpu_reduction,
            minimax_weight: self.minimax_weight,
            score_utility: self.score_utility,
            leaf_batch: self.leaf_batch,
            tree_reuse: self.tree_reuse,
            ..SearchConfig::for_play(self.root, self.sims.max(1))
        }
    }

    /// What one move may spend: `movetime_ms` where set, else `sims` simulations (at least 1).
    pub fn budget(&self) -> Budget {
        match self.movetime_ms {
            Some(ms) => Budget::MoveTime(Duration::from_millis(ms)),
            None => Budget::Simulations(self.sims.max(1)),
        }
    }

    /// The same search on a budget of `sims` simulations a move: a budget of simulations asked for replaces a
    /// time per move.
    pub fn on_simulations(self, sims: u32) -> PlaySearch {
        PlaySearch {
            sims,
            movetime_ms: None,
            ..self
        }
    }

    /// Whether it searches at all: a budget of time, or of at least one simulation (0 plays the raw policy).
    pub fn searches(&self) -> bool {
        self.sims > 0 || self.movetime_ms.is_some()
    }

    /// The settings that differ from [`PlaySearch::DEFAULT`] besides the budget, each by its short name (the
    /// arena's spec key) and value, in a fixed order: `root`, `batch`, `reuse`, `cpuct`, `fpu`, `minimax`,
    /// `score`, `temp`. What a player spec writes and what names the files of a run's equal-time matches.
    pub fn changed_settings(&self) -> Vec<(&'static str, String)> {
        self.changed_from(&PlaySearch::DEFAULT)
    }

    /// [`PlaySearch::changed_settings`] against another search than the default (a bundle's own).
    pub fn changed_from(&self, default: &PlaySearch) -> Vec<(&'static str, String)> {
        let on_off = |on: bool| if on { "on" } else { "off" }.to_string();
        let settings = [
            ("root", self.root != default.root, self.root.to_string()),
            (
                "batch",
                self.leaf_batch != default.leaf_batch,
                self.leaf_batch.to_string(),
            ),
            ("reuse", self.tree_reuse != default.tree_reuse, on_off(self.tree_reuse)),
            ("cpuct", self.c_puct != default.c_puct, self.c_puct.to_string()),
            (
                "fpu",
                self.fpu_reduction != default.fpu_reduction,
                self.fpu_reduction.to_string(),
            ),
            (
                "minimax",
                self.minimax_weight != default.minimax_weight,
                self.minimax_weight.to_string(),
            ),
            (
                "score",
                self.score_utility != default.score_utility,
                self.score_utility.to_string(),
            ),
            (
                "temp",
                self.temperature != default.temperature,
                self.temperature.to_string(),
            ),
        ];
        settings
            .into_iter()
            .filter(|(_, changed, _)| *changed)
            .map(|(key, _, value)| (key, value))
            .collect()
    }

    /// Checks the ranges serde cannot express; the error names the key.
    pub fn validate(&self) -> Result<(), SearchConfigError> {
        let fail = |key, reason: String| Err(SearchConfigError { key, reason });
        if self.sims > MAX_SIMULATIONS {
            return fail("sims", format!("must be at most {MAX_SIMULATIONS}, got {}", self.sims));
        }
        if let Some(ms) = self.movetime_ms
            && !(1..=u64::from(MAX_MOVE_TIME_MS)).contains(&ms)
        {
            return fail(
                "movetime_ms",
                format!("must be within [1, {MAX_MOVE_TIME_MS}], got {ms}"),
            );
        }
        if let Err(reason) = self.score_utility.check_score_utility() {
            return fail("score_utility", reason.to_string());
        }
        if let Err(reason) = check_minimax_weight(self.minimax_weight) {
            return fail("minimax_weight", reason.to_string());
        }
        let ranges = [
            ("c_puct", self.c_puct, C_PUCT_RANGE),
            ("fpu_reduction", self.fpu_reduction, FPU_RANGE),
            ("temperature", self.temperature, TEMPERATURE_RANGE),
        ];
        for (key, value, range) in ranges {
            if !range.contains(&value) {
                return fail(
                    key,
                    format!("must be within [{}, {}], got {value}", range.start(), range.end()),
                );
            }
        }
        if !(1..=MAX_LEAF_BATCH).contains(&self.leaf_batch) {
            return fail(
                "leaf_batch",
                format!("must be within [1, {MAX_LEAF_BATCH}], got {}", self.leaf_batch),
            );
        }
        Ok(())
    }
}

/// The exploration constants a judged player may name: wide enough for any tuning, narrow enough to refuse a
/// typo that would make the search blind.
pub const C_PUCT_RANGE: std::ops::RangeInclusive<f32> = 0.01..=100.0;
/// The first-play urgency reductions a judged player may name.
pub const FPU_RANGE: std::ops::RangeInclusive<f32> = 0.0..=4.0;
/// The move-choice temperatures a judged player may name.
pub const TEMPERATURE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=10.0;

fn is_default_score_utility(weights: &SideWeights) -> bool {
    *weights == PlaySearch::DEFAULT.score_utility
}

fn is_default_minimax_weight(weight: &f32) -> bool {
    *weight == PlaySearch::DEFAULT.minimax_weight
}

fn is_default_c_puct(c: &f32) -> bool {
    *c == PlaySearch::DEFAULT.c_puct
}

fn is_default_fpu_reduction(fpu: &f32) -> bool {
    *fpu == PlaySearch::DEFAULT.fpu_reduction
}

fn is_default_leaf_batch(batch: &u32) -> bool {
    *batch == PlaySearch::DEFAULT.leaf_batch
}

fn is_default_tree_reuse(reuse: &bool) -> bool {
    *reuse == PlaySearch::DEFAULT.tree_reuse
}

fn is_default_temperature(temperature: &f32) -> bool {
    *temperature == PlaySearch::DEFAULT.temperature
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_written_before_the_newer_keys_reads_as_their_defaults() {
        let old = r#"{"sims": 200, "movetime_ms": 100, "root": "gumbel/puct", "minimax_weight": 0.6}"#;
        let search: PlaySearch = serde_json::from_str(old).unwrap();
        assert_eq!(search.sims, 200);
        assert_eq!(search.budget(), Budget::MoveTime(Duration::from_millis(100)));
        assert_eq!(search.root.to_string(), "gumbel/puct");
        assert_eq!(search.minimax_weight, 0.6);
        assert_eq!(search.c_puct, SearchConfig::DEFAULT.c_puct);
        assert_eq!(search.leaf_batch, PLAY_LEAF_BATCH);
        // Written again, it says what it said and nothing more.
        let written = serde_json::to_value(search).unwrap();
        let mut keys: Vec<&str> = written.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["minimax_weight", "movetime_ms", "root", "sims"]);
    }

    #[test]
    fn settings_out_of_range_are_refused_by_key() {
        let cases = [
            (
                PlaySearch {
                    sims: MAX_SIMULATIONS + 1,
                    ..PlaySearch::DEFAULT
                },
                "sims",
            ),
            (
                PlaySearch {
                    movetime_ms: Some(0),
                    ..PlaySearch::DEFAULT
                },
                "movetime_ms",
            ),
            (
                PlaySearch {
                    c_puct: f32::NAN,
                    ..PlaySearch::DEFAULT
                },
                "c_puct",
            ),
            (
                PlaySearch {
                    fpu_reduction: 5.0,
                    ..PlaySearch::DEFAULT
                },
                "fpu_reduction",
            ),
            (
                PlaySearch {
                    temperature: -1.0,
                    ..PlaySearch::DEFAULT
                },
                "temperature",
            ),
            (
                PlaySearch {
                    leaf_batch: 0,
                    ..PlaySearch::DEFAULT
                },
                "leaf_batch",
            ),
            (
                PlaySearch {
                    minimax_weight: 1.5,
                    ..PlaySearch::DEFAULT
                },
                "minimax_weight",
            ),
            (
                PlaySearch {
                    score_utility: SideWeights::both(2.0),
                    ..PlaySearch::DEFAULT
                },
                "score_utility",
            ),
        ];
        for (search, key) in cases {
            assert_eq!(search.validate().unwrap_err().key, key, "{search:?}");
        }
        assert_eq!(PlaySearch::DEFAULT.validate(), Ok(()));
    }

    #[test]
    fn its_tree_search_is_the_judged_players_with_its_own_settings() {
        let search = PlaySearch {
            c_puct: 2.0,
            leaf_batch: 8,
            tree_reuse: false,
            sims: 0,
            ..PlaySearch::DEFAULT
        };
        let config = search.config();
        assert_eq!((config.c_puct, config.leaf_batch, config.tree_reuse), (2.0, 8, false));
        assert_eq!(config.simulations, 1);
        assert_eq!(config.dirichlet_fraction, 0.0);
        assert!(!search.searches());
    }
}
