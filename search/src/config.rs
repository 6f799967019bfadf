//! [`SearchConfig`]: the settings of one tree search, and nothing else. Self-play adds its own (how many
//! simulations a cheap search gets, temperatures, resignation, workers) around it; the arena and the bot use it
//! alone.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zero_games::Side;

/// Why a search setting, as text or as a value, was refused; each names the value and what is expected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown root search {0:?}; expected puct or gumbel")]
    Root(String),
    #[error("unknown root search {0:?}; expected puct or gumbel, or one for each side as FIRST/SECOND (gumbel/puct)")]
    SideRoot(String),
    #[error("{0:?} is not a number; expected W, or one for each side as FIRST/SECOND")]
    Weight(String),
    #[error("each side's weight must be within [0, {MAX_SCORE_UTILITY}], got {0}")]
    ScoreUtility(SideWeights),
    #[error("must be within [0, 1], got {0}")]
    MinimaxWeight(f32),
    #[error("unknown level {name:?}: the levels are {names}")]
    Level { name: String, names: String },
}

/// How the root of each search chooses where simulations go and what the training target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSearch {
    /// AlphaZero: PUCT everywhere, Dirichlet noise at the root, the visit distribution as the target.
    Puct,
    /// Gumbel AlphaZero: Gumbel-top-k sampling and sequential halving at the root, the completed-Q improved
    /// policy as the target. Non-root nodes use PUCT (see `docs/selfplay.md`).
    Gumbel,
}

impl RootSearch {
    /// The root's name in configs, specs and manifests.
    fn name(self) -> &'static str {
        match self {
            RootSearch::Puct => "puct",
            RootSearch::Gumbel => "gumbel",
        }
    }
}

impl std::str::FromStr for RootSearch {
    type Err = SettingError;

    fn from_str(text: &str) -> Result<Self, SettingError> {
        [RootSearch::Puct, RootSearch::Gumbel]
            .into_iter()
            .find(|root| root.name() == text)
            .ok_or_else(|| SettingError::Root(text.to_string()))
    }
}

/// The root search of each side: one for both (`puct`, `gumbel`), or one each, the first player's first
/// (`gumbel/puct`: the first player, Bagh Chal's goats, searches with the Gumbel root, the second with PUCT). In
/// an asymmetric game the two sides may not want the same search: on one Bagh Chal network the Gumbel root's
/// goats lost fewer games to alpha-beta than PUCT's and its tigers more (`docs/experiments/search-at-play.md`). Written and read
/// as that text, in configs, player specs and bundle manifests alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideRoots {
    pub first: RootSearch,
    pub second: RootSearch,
}

impl SideRoots {
    /// The same root for both sides.
    pub const fn both(root: RootSearch) -> Self {
        SideRoots {
            first: root,
            second: root,
        }
    }

    /// The root `side` searches with.
    pub fn for_side(self, side: Side) -> RootSearch {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }
}

impl From<RootSearch> for SideRoots {
    fn from(root: RootSearch) -> Self {
        SideRoots::both(root)
    }
}

impl std::fmt::Display for SideRoots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.second {
            f.write_str(self.first.name())
        } else {
            write!(f, "{}/{}", self.first.name(), self.second.name())
        }
    }
}

impl std::str::FromStr for SideRoots {
    type Err = SettingError;

    fn from_str(text: &str) -> Result<Self, SettingError> {
        let [first, second] = each_side(text, |part| {
            part.parse::<RootSearch>()
                .map_err(|_| SettingError::SideRoot(part.to_string()))
        })?;
        Ok(SideRoots { first, second })
    }
}

/// A setting for each side as text: `X` for both, or `FIRST/SECOND`, each part read by `parse`.
fn each_side<T: Copy>(text: &str, parse: impl Fn(&str) -> Result<T, SettingError>) -> Result<[T; 2], SettingError> {
    match text.split_once('/') {
        None => parse(text).map(|both| [both, both]),
        Some((first, second)) => Ok([parse(first)?, parse(second)?]),
    }
}

impl Serialize for SideRoots {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SideRoots {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A weight for each side, the first player's first: one number for both (`0.25`), or a pair (`[0.5, 0.0]` in
/// TOML, `0.5/0` in player specs and manifests). [`SearchConfig::score_utility`] is one: in an asymmetric game
/// one side may gain from playing for the margin and the other not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideWeights {
    pub first: f32,
    pub second: f32,
}

impl SideWeights {
    /// The same weight for both sides.
    pub const fn both(weight: f32) -> Self {
        SideWeights {
            first: weight,
            second: weight,
        }
    }

    /// The weight of `side`.
    pub fn for_side(self, side: Side) -> f32 {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }

    /// Why the weights cannot be a score utility ([`SearchConfig::score_utility`]): each must be within [0,
    /// [`MAX_SCORE_UTILITY`]] (a NaN is not).
    pub fn check_score_utility(self) -> Result<(), SettingError> {
        let in_range = |w: f32| (0.0..=MAX_SCORE_UTILITY).contains(&w);
        if in_range(self.first) && in_range(self.second) {
            Ok(())
        } else {
            Err(SettingError::ScoreUtility(self))
        }
    }
}

/// Why `weight` cannot be a [`SearchConfig::minimax_weight`]: it must be within [0, 1] (a NaN is not). The
/// search's config and every judged player's search ([`crate::PlaySearch`]) are checked by it.
pub fn check_minimax_weight(weight: f32) -> Result<(), SettingError> {
    if (0.0..=1.0).contains(&weight) {
        Ok(())
    } else {
        Err(SettingError::MinimaxWeight(weight))
    }
}

impl std::fmt::Display for SideWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.second {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}/{}", self.first, self.second)
        }
    }
}

impl std::str::FromStr for SideWeights {
    type Err = SettingError;

    fn from_str(text: &str) -> Result<Self, SettingError> {
        let [first, second] = each_side(text, |part| {
            part.trim()
                .parse::<f32>()
                .map_err(|_| SettingError::Weight(part.to_string()))
        })?;
        Ok(SideWeights { first, second })
    }
}

/// As TOML and JSON write it: a number when both sides share it, else `[first, second]`.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum SideWeightsForm {
    Both(f32),
    Each([f32; 2]),
}

impl Serialize for SideWeights {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let form = if self.first == self.second {
            SideWeightsForm::Both(self.first)
        } else {
            SideWeightsForm::Each([self.first, self.second])
        };
        form.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SideWeights {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match SideWeightsForm::deserialize(deserializer) {
            Ok(SideWeightsForm::Both(weight)) => Ok(SideWeights::both(weight)),
            Ok(SideWeightsForm::Each([first, second])) => Ok(SideWeights { first, second }),
            Err(_) => Err(serde::de::Error::custom(
                "expected a number, or a pair of numbers [first player's, second player's]",
            )),
        }
    }
}

/// The largest score utility weight: past 1 the score would outweigh the game's result itself.
pub const MAX_SCORE_UTILITY: f32 = 1.0;

/// The leaf batch of a timed player's search ([`SearchConfig::for_play`]): 32 beat 16 and 8 at equal time
/// (`docs/experiments/search-at-play.md`).
pub const PLAY_LEAF_BATCH: u32 = 32;

/// Whether a judged player keeps its tree across the opponent's reply ([`SearchConfig::for_play`]): yes, as lc0
/// and KataGo do. A fresh tree each move (whose first simulations re-walk positions the evaluation cache still
/// holds) was measured against it on four Bagh Chal networks at equal time and was not shown to win
/// (`docs/experiments/search-at-play.md`, the rows on tree reuse).
pub const PLAY_TREE_REUSE: bool = true;

/// The largest leaf batch a config may ask for: past a few dozen leaves one search's virtual losses spread it
/// thin, and the batch's memory is held per search.
pub const MAX_LEAF_BATCH: u32 = 256;
/// The most simulations one search may be given: a tree of about a gigabyte, minutes of thinking on a CPU. A
/// bound, so that no config, spec or protocol line asks for a search that never ends or exhausts memory.
pub const MAX_SIMULATIONS: u32 = 1_000_000;
/// The longest time one move may be given, in milliseconds: ten minutes, longer than any game clock gives one move.
/// A bound, so that a typo of a few zeros in a player spec or a protocol line is refused rather than freezing a
/// match or a session for days.
pub const MAX_MOVE_TIME_MS: u32 = 600_000;

/// Search settings. Every field has a default, so a config names only what it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// `puct` or `gumbel`: the root search, or one for each side, `FIRST/SECOND` ([`SideRoots`]).
    pub root: SideRoots,
    /// Simulations of a full search (one simulation = one leaf reached below the root and backed up).
    pub simulations: u32,
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
    /// Keep the chosen child's subtree for the next search: in self-play at every action; in the [`Engine`]
    /// across the opponent's reply (the actions of one move share their tree whatever this says).
    ///
    /// [`Engine`]: crate::Engine
    pub tree_reuse: bool,
    /// Gumbel: number of root actions sampled without replacement (m); capped by the legal actions.
    pub gumbel_actions: u32,
    /// Gumbel: c_visit of sigma(q) = (c_visit + max N) * c_scale * q.
    pub gumbel_c_visit: f32,
    /// Gumbel: c_scale of sigma(q).
    pub gumbel_c_scale: f32,
    /// Virtual loss added per pending leaf on the way down (in units of a lost simulation).
    pub virtual_loss: f32,
    /// Leaves one lone timed search gathers (kept apart by virtual loss) for each evaluator call: the
    /// [`Engine`]'s batch under a time budget, as the arena's `ms=` network players search. A network on a CPU
    /// evaluates 16 positions in about 1.4-2.5x the time of one, so a timed search runs several times the
    /// simulations (`docs/experiments/search-at-play.md`). A budget of simulations searches leaf by leaf, and self-play
    /// batches across its games instead (`selfplay.leaves_per_game`): both ignore this.
    ///
    /// [`Engine`]: crate::Engine
    pub leaf_batch: u32,
    /// How much the searching side's leaves weigh the game's score ([`zero_games::Game::score`], Bagh Chal's
    /// goats captured) beside the value: a leaf is worth `value + w x score` (the network's predicted score,
    /// or a finished game's own), kept in [-1, 1], `w` being the weight of the side to move at the search's
    /// root. A search then prefers a win with more in hand and a loss with less, where a plain value sees only
    /// the result. Needs a network with a score head (`network.score`); without one, leaves are worth their
    /// value. 0 (the default) for both sides: the plain value.
    pub score_utility: SideWeights,
    /// Implicit minimax backups ([`crate::minimax`]): PUCT, and a Gumbel root's completed Q, weigh each child by
    /// `(1 - w) x its mean value + w x the minimax of the game's static judgement over its searched subtree`,
    /// so that the search sees material won or lost as sharply as alpha-beta does over the same tree. 0 (the
    /// default) is the plain mean; it needs a search given the game's judge
    /// ([`crate::Engine::set_static_judge`]), and without one it is the plain mean too.
    pub minimax_weight: f32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::DEFAULT
    }
}

/// A setting that cannot work; `key` is the field's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {reason}")]
pub struct SearchConfigError {
    pub key: &'static str,
    pub reason: String,
}

impl SearchConfig {
    /// The defaults, as a constant (what [`Default`] gives).
    pub const DEFAULT: SearchConfig = SearchConfig {
        root: SideRoots::both(RootSearch::Gumbel),
        simulations: 64,
        c_puct: 1.25,
        c_puct_base: 19652.0,
        fpu_reduction: 0.25,
        dirichlet_alpha_total: 10.0,
        dirichlet_fraction: 0.25,
        tree_reuse: true,
        gumbel_actions: 16,
        gumbel_c_visit: 50.0,
        gumbel_c_scale: 1.0,
        virtual_loss: 1.0,
        leaf_batch: 1,
        score_utility: SideWeights::both(0.0),
        minimax_weight: 0.0,
    };

    /// The settings of a player that is judged rather than trained: the defaults, with `root`, `simulations`,
    /// no root noise, leaves evaluated [`PLAY_LEAF_BATCH`] at a time and the tree kept across moves
    /// ([`PLAY_TREE_REUSE`]) (the arena's network players, the bot).
    pub fn for_play(root: impl Into<SideRoots>, simulations: u32) -> Self {
        SearchConfig {
            root: root.into(),
            simulations,
            dirichlet_fraction: 0.0,
            leaf_batch: PLAY_LEAF_BATCH,
            tree_reuse: PLAY_TREE_REUSE,
            ..SearchConfig::default()
        }
    }

    /// Checks ranges that serde cannot express.
    pub fn validate(&self) -> Result<(), SearchConfigError> {
        let fail = |key, reason: &str| {
            Err(SearchConfigError {
                key,
                reason: reason.to_string(),
            })
        };
        if !(1..=MAX_SIMULATIONS).contains(&self.simulations) {
            return fail("simulations", &format!("must be within [1, {MAX_SIMULATIONS}]"));
        }
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return fail("dirichlet_fraction", "must be within [0, 1]");
        }
        // A NaN passes every plain comparison, and it or an infinity would garble every score in the tree: each
        // is refused by its own key.
        for (key, value) in [
            ("c_puct", self.c_puct),
            ("dirichlet_alpha_total", self.dirichlet_alpha_total),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return fail(key, &format!("must be a finite number above 0, got {value}"));
            }
        }
        for (key, value) in [
            ("c_puct_base", self.c_puct_base),
            ("gumbel_c_visit", self.gumbel_c_visit),
            ("gumbel_c_scale", self.gumbel_c_scale),
            ("virtual_loss", self.virtual_loss),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return fail(key, &format!("must be a finite number 0 or above, got {value}"));
            }
        }
        // A negative reduction is an optimistic first-play urgency: odd, but a search all the same.
        if !self.fpu_reduction.is_finite() {
            return fail(
                "fpu_reduction",
                &format!("must be a finite number, got {}", self.fpu_reduction),
            );
        }
        if self.gumbel_actions < 1 {
            return fail("gumbel_actions", "must be at least 1");
        }
        if !(1..=MAX_LEAF_BATCH).contains(&self.leaf_batch) {
            return fail("leaf_batch", &format!("must be within [1, {MAX_LEAF_BATCH}]"));
        }
        if let Err(reason) = check_minimax_weight(self.minimax_weight) {
            return fail("minimax_weight", &reason.to_string());
        }
        if let Err(reason) = self.score_utility.check_score_utility() {
            return fail("score_utility", &reason.to_string());
        }
        Ok(())
    }

    /// What a position is worth to a search whose root has `searcher` to move: `value` (a network's, or a
    /// finished game's result) plus the searcher's [`SearchConfig::score_utility`] weight times `score`, both
    /// from the position's side to move's view, kept in [-1, 1]; the plain value without a score.
    pub fn utility(&self, searcher: Side, value: f32, score: Option<f32>) -> f32 {
        match score {
            Some(score) => {
                let weight = self.score_utility.for_side(searcher);
                (value + weight * score).clamp(-1.0, 1.0)
            }
            None => value,
        }
    }

    /// Whether a full search by `side` gets Dirichlet noise at its root.
    pub fn root_noise(&self, side: Side) -> bool {
        self.root.for_side(side) == RootSearch::Puct && self.dirichlet_fraction > 0.0
    }
}
