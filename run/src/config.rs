//! The run configuration file (TOML): which game under which rules, and one table per part of the pipeline,
//! each defined by the crate it configures (`[network]` the model's, `[train]` the trainer's, `[selfplay]`
//! self-play's with the search's own `[selfplay.search]`, `[run]` this crate's). Unknown keys and wrong types are
//! refused with the key's full path.

use crate::error::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;
use zero_games::{Game, GameKind, with_game};
use zero_model::{NetShape, NetworkConfig};
use zero_search::config::MAX_SIMULATIONS;
use zero_search::{PlaySearch, SearchConfig};
use zero_selfplay::SelfPlayConfig;
use zero_train::TrainConfig;

pub use crate::cluster::config::{ClusterConfig, ConfigError, LauncherKind, SlurmConfig};

/// The `[run]` table: how `zero run` alternates self-play, training and evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoopConfig {
    /// Generations to run; `zero run --run-dir DIR --set run.generations=N` goes on past it.
    pub generations: u32,
    /// Self-play games per generation.
    pub games_per_generation: usize,
    /// Evaluation games per pair of players (paired colours; rounded up to even).
    pub eval_games: usize,
    /// Simulations of the network's search in evaluation games (0: the raw policy).
    pub eval_simulations: u32,
    /// Reference players every generation is rated against (arena specs; `random` anchors the Elo scale).
    pub eval_baselines: Vec<String>,
    /// Also play the previous generation's network.
    pub eval_previous: bool,
    /// Evaluation openings: how many, generated once per run.
    pub eval_openings: usize,
    /// The run's headline: each generation's network searching `run.equal_time.movetime_ms` per move against
    /// `alphabeta:ms=` the same, equal thinking time (kept out of the Elo pool). Its games per generation; 0
    /// switches the match off, as does a `[run.equal_time]` without `movetime_ms`.
    pub eval_equal_time_games: usize,
    /// Games of that match played at once, each on a thread of its own with its own network copy; 0 = one per
    /// core. Fair while no other work shares the machine: each player then thinks on a whole core.
    pub eval_equal_time_parallel: usize,
    /// The network's search in that match, the same settings as a bot bundle's `search` (`movetime_ms`, `root`
    /// (PUCT unless a game's sides search better apart), `score_utility` (needs `network.score`),
    /// `minimax_weight`, `c_puct`, ...; `docs/bundle.md`); `zero export` writes it into the bundle. The weights
    /// are apart from self-play's `selfplay.search`: a weight that helps self-play's targets need not be the one
    /// that plays best.
    pub equal_time: PlaySearch,
    /// Play that match every this many generations (and always for the run's last one): where a generation
    /// takes a minute, 40 equal-time games a generation would take most of the run's time.
    pub eval_equal_time_every: u32,
    /// Play a network's evaluation pool (not its equal-time match, which needs whole cores, nor a gate, which
    /// decides what self-play uses) beside the next generation's self-play instead of before it, on the cores
    /// self-play leaves idle; its summary line then comes one generation later. The last generation's is played
    /// alone.
    pub eval_beside_selfplay: bool,
    /// Each generation's network scored against perfect play, searching `eval_simulations`; 0 = off. Bagh
    /// Chal: on this many sliding-phase positions of each side to move from the standard oracle set (`zero
    /// bench oracle`), and a fifth as many end-of-placement ones; it needs a tablebase (`eval_oracle_tablebase`;
    /// `zero solve baghchal` writes the default one): without one the run says so once and goes on. Connect
    /// Four: on this many positions of each stage (begin, middle, end) of its solved set. Other games ignore it.
    pub eval_oracle_positions: usize,
    /// The tablebase file for `eval_oracle_positions`; empty: the default, `$ZERO_CACHE/tablebases/baghchal.tb`.
    pub eval_oracle_tablebase: String,
    /// Seed of the run's self-play and evaluation.
    pub seed: u64,
    /// Gate each new network: it replaces the network self-play uses only when an SPRT against that one accepts
    /// "at least `gate_elo1` stronger" (AlphaGo Zero's gating; off, every new network plays, as in AlphaZero).
    /// Training always goes on from the newest network.
    pub gate: bool,
    /// The SPRT's hypotheses, in Elo: H0 "the new network is `gate_elo0` stronger", H1 "`gate_elo1` stronger".
    pub gate_elo0: f64,
    pub gate_elo1: f64,
    /// Error rates: accepting H1 when H0 holds, and H0 when H1 holds.
    pub gate_alpha: f64,
    pub gate_beta: f64,
    /// Games after which an undecided test keeps the current network.
    pub gate_max_games: usize,
    /// Games played (and kept in one file) between looks at the test.
    pub gate_batch_games: usize,
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            generations: 10,
            games_per_generation: 200,
            eval_games: 40,
            eval_simulations: 0,
            eval_baselines: vec!["random".to_string(), "greedy".to_string()],
            eval_previous: true,
            eval_openings: 32,
            eval_equal_time_games: 20,
            eval_equal_time_parallel: 0,
            equal_time: PlaySearch::DEFAULT,
            eval_equal_time_every: 1,
            eval_beside_selfplay: false,
            eval_oracle_positions: 50,
            eval_oracle_tablebase: String::new(),
            seed: 1,
            gate: false,
            gate_elo0: 0.0,
            gate_elo1: 35.0,
            gate_alpha: 0.05,
            gate_beta: 0.05,
            gate_max_games: 400,
            gate_batch_games: 20,
        }
    }
}

impl LoopConfig {
    fn validate(&self) -> std::result::Result<(), ConfigError> {
        if self.games_per_generation == 0 {
            return Err(ConfigError("run.games_per_generation must be at least 1".to_string()));
        }
        if self.eval_openings == 0 {
            return Err(ConfigError("run.eval_openings must be at least 1".to_string()));
        }
        if self.eval_equal_time_every == 0 {
            return Err(ConfigError(
                "run.eval_equal_time_every must be at least 1 (eval_equal_time_games = 0 switches the match off)"
                    .to_string(),
            ));
        }
        // The budgets of the players the run builds in code (not from spec text, whose parser bounds them): a
        // typo of a few zeros is refused here rather than freezing an evaluation for days.
        if self.eval_simulations > MAX_SIMULATIONS {
            return Err(ConfigError(format!(
                "run.eval_simulations must be at most {MAX_SIMULATIONS} (0 plays the raw policy), got {}",
                self.eval_simulations
            )));
        }
        self.equal_time
            .validate()
            .map_err(|e| ConfigError(format!("run.equal_time.{e}")))?;
        for spec in &self.eval_baselines {
            zero_arena::PlayerSpec::parse(spec).map_err(|e| ConfigError(format!("run.eval_baselines: {e}")))?;
        }
        if !(self.gate_elo0.is_finite() && self.gate_elo1.is_finite() && self.gate_elo1 > self.gate_elo0) {
            return Err(ConfigError(format!(
                "run.gate_elo1 ({}) must be finite and above run.gate_elo0 ({})",
                self.gate_elo1, self.gate_elo0
            )));
        }
        for (key, p) in [("run.gate_alpha", self.gate_alpha), ("run.gate_beta", self.gate_beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(ConfigError(format!("{key} must be between 0 and 0.5, not {p}")));
            }
        }
        if self.gate_batch_games < 2 || self.gate_max_games < self.gate_batch_games {
            return Err(ConfigError(format!(
                "run.gate_batch_games ({}) must be at least 2 and at most run.gate_max_games ({})",
                self.gate_batch_games, self.gate_max_games
            )));
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The game, by its registered name (`zero_games::GameKind`).
    pub game: GameKind,
    /// A named variant or preset of the game's rules (default: the game's default rules).
    #[serde(default)]
    pub variant: Option<String>,
    /// Rule options as `key=value`, applied after the variant.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The network's architecture.
    #[serde(default)]
    pub network: NetworkConfig,
    /// The training loop of `zero run`: generations, games, evaluation.
    #[serde(default)]
    pub run: LoopConfig,
    /// The trainer: data window, batch, losses, optimizer, schedule.
    #[serde(default)]
    pub train: TrainConfig,
    /// Self-play: search, workers and records.
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
    /// Self-play followers the run launches itself, locally or on Slurm.
    #[serde(default)]
    pub cluster: ClusterConfig,
}

impl RunConfig {
    /// Parses a config from TOML text; `origin` names it in errors. A key of `[selfplay]` that now lives in a
    /// section of its own (`resign_threshold`, now `resign.threshold`) is refused, naming its new place.
    pub fn parse(text: &str, origin: &str) -> Result<RunConfig> {
        Self::parse_as(text, origin, FlatKeys::Refuse)
    }

    /// Loads the config a run directory recorded: as [`RunConfig::load`], except that the flat keys of run
    /// directories made before `[selfplay]` had sections are read into their sections.
    pub fn load_recorded(path: &Path) -> Result<RunConfig> {
        let text = zero_io::read_text_bounded(path, zero_io::FileKind::Config).context("reading config")?;
        Self::parse_as(&text, &path.display().to_string(), FlatKeys::Nest)
    }

    fn parse_as(text: &str, origin: &str, flat: FlatKeys) -> Result<RunConfig> {
        let mut value: toml::Value = toml::from_str(text).with_context(|| format!("{origin}: not valid TOML"))?;
        nest_search_keys(&mut value);
        nest_sectioned_keys(&mut value, flat).map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        let config: RunConfig = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            crate::error::RunError::invalid(format!("{origin}: key `{path}`: {}", e.into_inner()))
        })?;
        let shape = with_game!(config.game, G => NetShape::of::<G>());
        config
            .network
            .validate_for(shape)
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        config
            .train
            .validate()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        config
            .selfplay
            .validate()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        config
            .run
            .validate()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        config
            .cluster
            .validate()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        config
            .check_rules()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e:#}")))?;
        config
            .check_score()
            .map_err(|e| crate::error::RunError::invalid(format!("{origin}: {e}")))?;
        Ok(config)
    }

    /// A score weight is in range, and is only set for a network that predicts the score (without the head the
    /// weight would do nothing, silently).
    fn check_score(&self) -> std::result::Result<(), ConfigError> {
        let weights = [
            ("selfplay.search.score_utility", self.selfplay.search.score_utility),
            ("run.equal_time.score_utility", self.run.equal_time.score_utility),
        ];
        for (key, weights) in weights {
            weights
                .check_score_utility()
                .map_err(|reason| ConfigError(format!("{key}: {reason}")))?;
            if weights != SearchConfig::DEFAULT.score_utility && !self.network.score {
                return Err(ConfigError(format!(
                    "{key} = {weights} needs a network with a score head: set network.score = true"
                )));
            }
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<RunConfig> {
        Self::load_with_overrides(path, &[])
    }

    /// Loads a config file and applies `--set section.key=value` overrides before checking it, so that an
    /// override is checked exactly like the file (unknown keys and wrong types name the full path).
    pub fn load_with_overrides(path: &Path, overrides: &[String]) -> Result<RunConfig> {
        let text = zero_io::read_text_bounded(path, zero_io::FileKind::Config).context("reading config")?;
        Self::parse_with_overrides(&text, &path.display().to_string(), overrides)
    }

    /// [`RunConfig::parse`] with overrides applied to the TOML first.
    pub fn parse_with_overrides(text: &str, origin: &str, overrides: &[String]) -> Result<RunConfig> {
        let mut value: toml::Table = toml::from_str(text).with_context(|| format!("{origin}: not valid TOML"))?;
        for o in overrides {
            apply_override(&mut value, o).with_context(|| format!("--set {o}"))?;
        }
        let text = toml::to_string(&value).expect("a TOML table serializes");
        Self::parse(&text, origin)
    }

    /// The config as TOML, complete with every default: what a run directory records.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("the config serializes")
    }
}

/// Keys a run may change when it resumes: how long it goes on, how much each evaluation plays, and the
/// machine's resources (every key of `[cluster]` too, [`is_resumable`]). Every other key shapes the data,
/// networks or ratings the run already made.
pub const RESUMABLE_KEYS: &[&str] = &[
    "run.generations",
    "run.eval_games",
    "run.eval_baselines",
    "run.eval_previous",
    "run.eval_equal_time_games",
    "run.eval_equal_time_parallel",
    "run.eval_equal_time_every",
    "run.eval_beside_selfplay",
    "run.eval_oracle_positions",
    "run.eval_oracle_tablebase",
    "selfplay.workers",
    "selfplay.games_in_flight",
    "selfplay.precision",
    "selfplay.eval_cache",
    "train.device",
    "train.threads",
    "train.prefetch_batches",
];

/// Whether a resumed run may change `key` ([`RESUMABLE_KEYS`], the equal-time match's player
/// (`run.equal_time`, whose later matches go into files of their own), and the followers: `[cluster]`).
pub fn is_resumable(key: &str) -> bool {
    RESUMABLE_KEYS.contains(&key) || key.starts_with("cluster.") || key.starts_with("run.equal_time.")
}

impl RunConfig {
    /// The dotted keys whose values differ between two configs (a key set in only one counts).
    pub fn differing_keys(&self, other: &RunConfig) -> Vec<String> {
        fn walk(prefix: &str, a: Option<&toml::Value>, b: Option<&toml::Value>, out: &mut Vec<String>) {
            match (a, b) {
                (Some(toml::Value::Table(a)), Some(toml::Value::Table(b))) => {
                    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
                    for key in keys {
                        let path = if prefix.is_empty() {
                            key.clone()
                        } else {
                            format!("{prefix}.{key}")
                        };
                        walk(&path, a.get(key), b.get(key), out);
                    }
                }
                (a, b) if a != b => out.push(prefix.to_string()),
                _ => {}
            }
        }
        let value = |c: &RunConfig| toml::Value::try_from(c).expect("the config serializes");
        let mut out = Vec::new();
        walk("", Some(&value(self)), Some(&value(other)), &mut out);
        out
    }
}

/// Moves search settings written straight under `[selfplay]` (as configs and run directories did before the
/// search had a table of its own) into `[selfplay.search]`, unless that table sets them already; so old run
/// directories, configs and `--set selfplay.simulations=N` keep working.
fn nest_search_keys(root: &mut toml::Value) {
    let search_keys: Vec<String> = match toml::Value::try_from(SearchConfig::default()) {
        Ok(toml::Value::Table(t)) => t.keys().cloned().collect(),
        _ => return,
    };
    let Some(toml::Value::Table(selfplay)) = root.get_mut("selfplay") else {
        return;
    };
    let legacy: Vec<(String, toml::Value)> = search_keys
        .iter()
        .filter_map(|k| selfplay.remove(k).map(|v| (k.clone(), v)))
        .collect();
    for (key, value) in legacy {
        nest_key(selfplay, "search", key, value);
    }
}

/// Puts a flat key of a table (`[selfplay]`, `[run]`) into its table `section` (made if missing), unless that
/// table sets it already.
fn nest_key(parent: &mut toml::Table, section: &str, key: String, value: toml::Value) {
    let table = parent
        .entry(section)
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(table) = table {
        table.entry(key).or_insert(value);
    }
}

/// The keys that moved into sections: (table, old flat key, section, its key there).
const SECTIONED_KEYS: &[(&str, &str, &str, &str)] = &[
    ("selfplay", "resign_threshold", "resign", "threshold"),
    ("selfplay", "resign_consecutive", "resign", "consecutive"),
    ("selfplay", "resign_check_fraction", "resign", "check_fraction"),
    ("selfplay", "resign_check_strength", "resign", "check_strength"),
    ("selfplay", "resign_max_false_rate", "resign", "max_false_rate"),
    ("selfplay", "resign_min_checks", "resign", "min_checks"),
    ("selfplay", "sparring_share", "sparring", "share"),
    ("selfplay", "sparring_side", "sparring", "side"),
    ("selfplay", "sparring_recorded", "sparring", "recorded"),
    ("selfplay", "sparring_nodes", "sparring", "nodes"),
    ("selfplay", "bootstrap_nodes", "bootstrap", "nodes"),
    ("selfplay", "bootstrap_side", "bootstrap", "side"),
    ("selfplay", "bootstrap_random_moves", "bootstrap", "random_moves"),
    ("run", "eval_equal_time_ms", "equal_time", "movetime_ms"),
    ("run", "eval_equal_time_root", "equal_time", "root"),
    ("run", "eval_equal_time_score_utility", "equal_time", "score_utility"),
    ("run", "eval_equal_time_minimax", "equal_time", "minimax_weight"),
];

/// What becomes of a flat key of [`SECTIONED_KEYS`]: read into its section (a run directory recorded before the
/// sections), or refused (a config being written now, where the old name would only confuse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FlatKeys {
    Nest,
    Refuse,
}

fn nest_sectioned_keys(root: &mut toml::Value, flat: FlatKeys) -> Result<()> {
    for (table, old, section, key) in SECTIONED_KEYS {
        let Some(toml::Value::Table(parent)) = root.get_mut(*table) else {
            continue;
        };
        let Some(value) = parent.remove(*old) else {
            continue;
        };
        if flat == FlatKeys::Refuse {
            bail!("key `{table}.{old}` is now `{table}.{section}.{key}` (its table is [{table}.{section}])");
        }
        // The old match time's 0 switched the match off: the new table leaves the time out.
        if *old == "eval_equal_time_ms" && value.as_integer() == Some(0) {
            continue;
        }
        nest_key(parent, section, key.to_string(), value);
    }
    if flat == FlatKeys::Nest {
        old_match_simulations(root);
    }
    Ok(())
}

/// The simulations of an old run's equal-time player: self-play's, which `zero export` gave its bundles before
/// the player had a table of its own (the bundle's `sims`, a strength level `max`'s).
fn old_match_simulations(root: &mut toml::Value) {
    let simulations = root
        .get("selfplay")
        .and_then(|s| s.get("search"))
        .and_then(|s| s.get("simulations"))
        .cloned();
    let Some(toml::Value::Table(run)) = root.get_mut("run") else {
        return;
    };
    if let (Some(simulations), Some(toml::Value::Table(equal_time))) = (simulations, run.get_mut("equal_time")) {
        equal_time.entry("sims").or_insert(simulations);
    }
}

/// Sets `a.b.c = value` in a TOML table; the value is read as a TOML value (`64`, `true`, `"x"`, `[1, 2]`) and,
/// when it is not one, as a string.
fn apply_override(root: &mut toml::Table, text: &str) -> Result<()> {
    let Some((path, raw)) = text.split_once('=') else {
        bail!("expected section.key=value");
    };
    let keys: Vec<&str> = path.trim().split('.').map(str::trim).collect();
    if keys.iter().any(|k| k.is_empty()) {
        bail!("empty key in {:?}", path.trim());
    }
    let value = toml::from_str::<toml::Table>(&format!("v = {}", raw.trim()))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.trim().to_string()));
    let (last, parents) = keys.split_last().expect("at least one key");
    let mut table = root;
    for (i, key) in parents.iter().enumerate() {
        let entry = table
            .entry(key.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        table = match entry {
            toml::Value::Table(t) => t,
            _ => bail!("`{}` is not a table", keys[..=i].join(".")),
        };
    }
    table.insert(last.to_string(), value);
    Ok(())
}

impl RunConfig {
    /// Checks the parts that serde cannot: the rules parse for the game.
    pub fn check_rules(&self) -> Result<()> {
        with_game!(self.game, G => self.rules_of::<G>().map(|_| ()))
    }

    /// The rule set of game `G` the config names (`variant`, then the `rules` options); the refusal names the keys.
    pub fn rules_of<G: Game>(&self) -> Result<G::Rules> {
        G::parse_rules(self.variant.as_deref(), &self.rules)
            .map_err(|e| crate::error::RunError::invalid(format!("keys `variant`/`rules`: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zero_selfplay::SparringSide;

    #[test]
    fn bad_cluster_settings_are_refused_by_key() {
        let cases = [
            ("cluster.launcher=\"pbs\"", "cluster.launcher"),
            ("cluster.nodes=3", "cluster.nodes"),
            ("cluster.slurm.extra_args=[\"--qos low\"]", "one word"),
            ("cluster.slurm.extra_args=[\"qos\"]", "not an option"),
            ("cluster.poll_seconds=0", "cluster.poll_seconds"),
            ("cluster.follower_batch_games=0", "cluster.follower_batch_games"),
        ];
        for (set, says) in cases {
            let err = RunConfig::parse_with_overrides("game = \"bashni\"\n", "test", &[set.to_string()]).unwrap_err();
            assert!(format!("{err:#}").contains(says), "{set}: {err:#}");
        }
        let ok = RunConfig::parse_with_overrides("game = \"bashni\"\n", "test", &["cluster.launcher=\"slurm\"".into()]);
        assert_eq!(ok.unwrap().cluster.launcher, LauncherKind::Slurm);
        assert!(is_resumable("cluster.followers") && !is_resumable("selfplay.seed"));
    }

    /// Found by the `cli` fuzz target: the evaluation's budgets, given to players built in code, were not bounded.
    #[test]
    fn evaluation_budgets_are_bounded_like_a_player_specs() {
        let set = |o: &str| RunConfig::parse_with_overrides("game = \"bashni\"\n", "test", &[o.to_string()]);
        for (o, says) in [
            (
                "run.eval_simulations=1000001",
                "run.eval_simulations must be at most 1000000",
            ),
            (
                "run.equal_time.movetime_ms=600001",
                "run.equal_time.movetime_ms: must be within [1, 600000]",
            ),
        ] {
            let err = format!("{:#}", set(o).unwrap_err());
            assert!(err.contains(says), "{o}: {err}");
        }
        assert_eq!(
            set("run.eval_simulations=1000000").unwrap().run.eval_simulations,
            1_000_000
        );
        assert_eq!(
            set("run.equal_time.movetime_ms=600000")
                .unwrap()
                .run
                .equal_time
                .movetime_ms,
            Some(600_000)
        );
    }

    #[test]
    fn unknown_keys_and_wrong_types_name_the_full_path() {
        let err = RunConfig::parse("game = \"bashni\"\n[network]\nchanels = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("network.chanels") || err.contains("`network`"), "{err}");
        assert!(err.contains("chanels"), "{err}");
        let err = RunConfig::parse("game = \"bashni\"\n[network]\nblocks = \"six\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("network.blocks"), "{err}");
        let err = RunConfig::parse("game = \"chess\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown game \"chess\""), "{err}");
        let ok = RunConfig::parse("game = \"tours\"\n[network]\nblocks = 2\n", "t.toml").unwrap();
        assert_eq!(ok.network.blocks, 2);
        let err = RunConfig::parse("game = \"tours\"\n[train]\nbatch = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("train.batch"), "{err}");
        // The convolutional policy head: an unknown kind by path, a game without an action map by key.
        let conv = |game: &str, head: &str| {
            RunConfig::parse(
                &format!("game = \"{game}\"\n[network]\npolicy_head = \"{head}\"\n"),
                "t.toml",
            )
        };
        assert_eq!(
            conv("tours", "conv").unwrap().network.policy_head,
            zero_model::PolicyHead::Conv
        );
        let err = conv("tours", "dense").unwrap_err().to_string();
        assert!(err.contains("network.policy_head") && err.contains("dense"), "{err}");
        let err = conv("baghchal", "conv").unwrap_err().to_string();
        assert!(err.contains("t.toml") && err.contains("network.policy_head"), "{err}");
        let ok = RunConfig::parse(
            "game = \"tours\"\n[train]\nbatch_size = 64\noptimizer = \"adamw\"\n",
            "t.toml",
        )
        .unwrap();
        assert_eq!(ok.train.batch_size, 64);
        assert_eq!(ok.train.optimizer, zero_train::OptimizerKind::AdamW);
        for file in [
            "bashni",
            "bashni-quick",
            "baghchal",
            "baghchal-quick",
            "tours",
            "tours-quick",
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../configs/{file}.toml"));
            RunConfig::load(&path).unwrap();
        }
    }

    #[test]
    fn score_weights_are_a_number_or_a_pair_and_need_a_score_head() {
        let parse = |text: &str| RunConfig::parse(&format!("game = \"baghchal\"\n{text}"), "t.toml");
        let config = parse(
            "[network]\nscore = true\n[selfplay.search]\nscore_utility = 0.25\n\
             [run.equal_time]\nscore_utility = [0.5, 0.0]\n",
        )
        .unwrap();
        assert_eq!(
            config.selfplay.search.score_utility,
            zero_search::SideWeights::both(0.25)
        );
        assert_eq!(config.run.equal_time.score_utility.to_string(), "0.5/0");
        // The config written into a run directory reads back the same.
        assert_eq!(RunConfig::parse(&config.to_toml(), "again.toml").unwrap(), config);
        let refusals = [
            (
                "[selfplay.search]\nscore_utility = 0.25\n",
                "needs a network with a score head",
            ),
            (
                "[network]\nscore = true\n[run.equal_time]\nscore_utility = 2.0\n",
                "within [0, 1]",
            ),
            (
                "[network]\nscore = true\n[selfplay.search]\nscore_utility = \"much\"\n",
                "a pair of numbers",
            ),
            (
                "[network]\nscore = true\n[selfplay.search]\nscore_utility = [1.0]\n",
                "a pair of numbers",
            ),
        ];
        for (text, reason) in refusals {
            let err = format!("{:#}", parse(text).unwrap_err());
            assert!(err.contains("score_utility") && err.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn minimax_weights_out_of_range_are_refused_by_key() {
        let parse = |text: &str| RunConfig::parse(&format!("game = \"tours\"\n{text}"), "t.toml");
        let config = parse("[run.equal_time]\nminimax_weight = 0.6\n").unwrap();
        assert_eq!(config.run.equal_time.minimax_weight, 0.6);
        for (text, key) in [
            (
                "[run.equal_time]\nminimax_weight = 1.5\n",
                "run.equal_time.minimax_weight",
            ),
            (
                "[run.equal_time]\nminimax_weight = -0.1\n",
                "run.equal_time.minimax_weight",
            ),
            ("[selfplay.search]\nminimax_weight = 2.0\n", "minimax_weight"),
        ] {
            let err = format!("{:#}", parse(text).unwrap_err());
            assert!(
                err.contains(key) && err.contains("must be within [0, 1]"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn search_keys_written_under_selfplay_move_into_its_search_table() {
        // As configs and run directories wrote them before the search had a table of its own.
        let legacy = RunConfig::parse(
            "game = \"tours\"\n[selfplay]\nsimulations = 7\nroot = \"puct\"\nworkers = 2\n",
            "t.toml",
        )
        .unwrap();
        assert_eq!(legacy.selfplay.search.simulations, 7);
        assert_eq!(legacy.selfplay.search.root, zero_search::RootSearch::Puct.into());
        assert_eq!(legacy.selfplay.workers, 2);
        // The nested table wins over a legacy key, and a --set of the old key still lands.
        let both = RunConfig::parse_with_overrides(
            "game = \"tours\"\n[selfplay.search]\nsimulations = 9\n",
            "t.toml",
            &["selfplay.c_puct=2.5".to_string(), "selfplay.simulations=3".to_string()],
        )
        .unwrap();
        assert_eq!(both.selfplay.search.simulations, 9);
        assert_eq!(both.selfplay.search.c_puct, 2.5);
        // Unknown keys are still refused with their full path, in either table.
        let err = RunConfig::parse("game = \"tours\"\n[selfplay.search]\nsimulation = 9\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("selfplay.search.simulation"), "{err}");
        let err = RunConfig::parse("game = \"tours\"\n[selfplay.search]\nsimulations = 0\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("selfplay.search.simulations"), "{err}");
    }

    #[test]
    fn differing_keys_name_each_changed_value_by_its_full_path() {
        let base = RunConfig::parse("game = \"tours\"\n", "t.toml").unwrap();
        assert!(base.differing_keys(&base.clone()).is_empty());
        let changed = RunConfig::parse_with_overrides(
            &base.to_toml(),
            "t.toml",
            &["run.generations=7".to_string(), "network.blocks=3".to_string()],
        )
        .unwrap();
        assert_eq!(
            base.differing_keys(&changed),
            vec!["network.blocks".to_string(), "run.generations".to_string()]
        );
        // A key present in only one of them counts as changed.
        let mut with_variant = base.clone();
        with_variant.variant = Some("standard".to_string());
        assert_eq!(base.differing_keys(&with_variant), vec!["variant".to_string()]);
    }

    #[test]
    fn overrides_are_applied_and_checked_like_the_file() {
        let text = "game = \"bashni\"\n[network]\nblocks = 2\n";
        let set = |o: &[&str]| {
            let o: Vec<String> = o.iter().map(|s| s.to_string()).collect();
            RunConfig::parse_with_overrides(text, "t.toml", &o)
        };
        let c = set(&[
            "network.blocks=5",
            "network.global_pool=true",
            "rules=[\"max_plies=100\"]",
        ])
        .unwrap();
        assert_eq!(c.network.blocks, 5);
        assert!(c.network.global_pool);
        assert_eq!(c.rules, vec!["max_plies=100".to_string()]);
        let err = format!("{:#}", set(&["network.blokcs=5"]).unwrap_err());
        assert!(err.contains("network.blokcs"), "{err}");
        let err = format!("{:#}", set(&["network.blocks=many"]).unwrap_err());
        assert!(err.contains("network.blocks"), "{err}");
        let err = format!("{:#}", set(&["game.x=1"]).unwrap_err());
        assert!(err.contains("`game` is not a table"), "{err}");
        assert!(set(&["noequals"]).is_err());
        // The resolved config round-trips.
        let again = RunConfig::parse(&c.to_toml(), "resolved").unwrap();
        assert_eq!(again, c);
        let bad_rules = set(&["rules=[\"max_plies=x\"]"]).unwrap_err();
        assert!(format!("{bad_rules:#}").contains("max_plies"), "{bad_rules:#}");
    }

    #[test]
    fn flat_keys_of_the_selfplay_sections_are_read_from_old_run_directories_only() {
        // A run directory recorded before [selfplay] had sections.
        let old = "game = \"baghchal\"\n[selfplay]\nresign_threshold = -0.8\nresign_min_checks = 7\n\
                   sparring_share = 0.25\nsparring_side = \"second\"\nbootstrap_nodes = 300\n\
                   [selfplay.resign]\nconsecutive = 5\n";
        let dir = tempfile::tempdir().unwrap();
        let recorded = dir.path().join("config.toml");
        std::fs::write(&recorded, old).unwrap();
        let config = RunConfig::load_recorded(&recorded).unwrap();
        let selfplay = &config.selfplay;
        assert_eq!(
            (
                selfplay.resign.threshold,
                selfplay.resign.min_checks,
                selfplay.resign.consecutive
            ),
            (-0.8, 7, 5)
        );
        assert_eq!(
            (selfplay.sparring.share, selfplay.sparring.side),
            (0.25, SparringSide::Second)
        );
        assert_eq!(selfplay.bootstrap.nodes, 300);
        // What it writes back is the sectioned form, which a new config may hold.
        assert_eq!(RunConfig::parse(&config.to_toml(), "written").unwrap(), config);
        // A config being written now, or an override, is told where the key went.
        let err = format!("{:#}", RunConfig::load(&recorded).unwrap_err());
        assert!(
            err.contains("key `selfplay.resign_threshold` is now `selfplay.resign.threshold`"),
            "{err}"
        );
        let overrides = vec!["selfplay.bootstrap_random_moves=0.1".to_string()];
        let err = format!(
            "{:#}",
            RunConfig::parse_with_overrides("game = \"baghchal\"\n", "t.toml", &overrides).unwrap_err()
        );
        assert!(err.contains("is now `selfplay.bootstrap.random_moves`"), "{err}");
    }

    #[test]
    fn flat_keys_of_the_equal_time_player_are_read_from_old_run_directories_only() {
        // A run directory recorded before the match's player had a table of its own.
        let old = "game = \"baghchal\"\n[network]\nscore = true\n[run]\neval_equal_time_ms = 100\n\
                   eval_equal_time_root = \"gumbel/puct\"\neval_equal_time_score_utility = [0.5, 0.0]\n\
                   eval_equal_time_minimax = 0.25\neval_equal_time_games = 8\n[selfplay.search]\nsimulations = 96\n";
        let dir = tempfile::tempdir().unwrap();
        let recorded = dir.path().join("config.toml");
        std::fs::write(&recorded, old).unwrap();
        let config = RunConfig::load_recorded(&recorded).unwrap();
        let player = config.run.equal_time;
        assert_eq!(player.movetime_ms, Some(100));
        assert_eq!(player.root.to_string(), "gumbel/puct");
        assert_eq!(player.score_utility.to_string(), "0.5/0");
        assert_eq!((player.minimax_weight, player.sims), (0.25, 96));
        assert_eq!(config.run.eval_equal_time_games, 8);
        assert_eq!(RunConfig::parse(&config.to_toml(), "written").unwrap(), config);
        // A time of 0 switched the match off: the player has no time.
        std::fs::write(&recorded, "game = \"tours\"\n[run]\neval_equal_time_ms = 0\n").unwrap();
        assert_eq!(
            RunConfig::load_recorded(&recorded).unwrap().run.equal_time.movetime_ms,
            None
        );
        let err = format!("{:#}", RunConfig::load(&recorded).unwrap_err());
        assert!(
            err.contains("key `run.eval_equal_time_ms` is now `run.equal_time.movetime_ms`"),
            "{err}"
        );
    }

    #[test]
    fn sizes_that_would_exhaust_memory_are_refused_by_name_before_anything_runs() {
        let text = "game = \"bashni\"\n";
        for (key, value, expected) in [
            (
                "selfplay.workers",
                "100000",
                "selfplay.workers: must be within [1, 256], got 100000",
            ),
            (
                "selfplay.games_in_flight",
                "1000000",
                "selfplay.games_in_flight: must be within [1, 4096]",
            ),
            (
                "selfplay.leaves_per_game",
                "0",
                "selfplay.leaves_per_game: must be within [1, 64], got 0",
            ),
            (
                "selfplay.search.simulations",
                "4000000000",
                "selfplay.search.simulations: must be within [1, 1000000]",
            ),
            (
                "selfplay.cheap_simulations",
                "2000000",
                "selfplay.cheap_simulations: must be within [1, 1000000]",
            ),
            (
                "selfplay.side_simulations",
                "[1.0, 40.0]",
                "selfplay.side_simulations: each factor must be within [0.0625, 16], got 40",
            ),
            (
                "selfplay.sparring.nodes",
                "0",
                "selfplay.sparring.nodes: must be within [1, 10000000], got 0",
            ),
            ("selfplay.sparring.side", "\"goats\"", "selfplay.sparring.side"),
            ("selfplay.bootstrap.side", "\"tigers\"", "selfplay.bootstrap.side"),
            ("selfplay.sparring.recorded", "\"yes\"", "selfplay.sparring.recorded"),
            (
                "selfplay.bootstrap.nodes",
                "20000000",
                "selfplay.bootstrap.nodes: must be within [0, 10000000], got 20000000",
            ),
        ] {
            let overrides = vec![format!("{key}={value}")];
            let err = format!(
                "{:#}",
                RunConfig::parse_with_overrides(text, "t.toml", &overrides).unwrap_err()
            );
            assert!(err.contains(expected), "{key}: {err}");
        }
    }
}
