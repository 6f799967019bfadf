//! Player specifications as written on the command line: `random`, `greedy`, `alphabeta:depth=4`,
//! `alphabeta:nodes=100000`, `alphabeta:ms=200`, `mcts:sims=200`, `tablebase:ms=100` (Bagh Chal only),
//! `ckpt:PATH,sims=64|ms=100|level=NAME[,temp=T][,root=puct|gumbel|FIRST/SECOND][,score=W|FIRST/SECOND][,device=D][,precision=auto|f32|bf16][,batch=N][,reuse=on|off]`,
//! `bundle:DIR[,...]` (a bot bundle, searching as its manifest says unless the spec changes it; the same keys),
//! `uniform[:...]` (the search on uniform priors and random playouts, self-play's generation 0; the same keys but
//! the path, device and precision), each with an optional `name=LABEL`. Parsing knows no game (a bundle is opened
//! and verified, for its search); [`crate::Entrant`] turns a spec into players of one game.

use std::fmt;
use std::path::PathBuf;
use zero_search::alphabeta::SearchLimit;
use zero_search::config::{MAX_LEAF_BATCH, MAX_MOVE_TIME_MS, MAX_SCORE_UTILITY, MAX_SIMULATIONS};
use zero_search::play::{C_PUCT_RANGE, FPU_RANGE, TEMPERATURE_RANGE};
use zero_search::{PlaySearch, SideWeights};

/// Why a player spec was refused; each names the part that is wrong.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("empty player spec")]
    Empty,
    #[error(
        "player spec {spec:?}: unknown player kind {kind:?}; known: random, greedy, alphabeta, mcts, ckpt, bundle, uniform, tablebase"
    )]
    UnknownKind { spec: String, kind: String },
    #[error("player spec {spec:?}: unknown key {key:?} for {kind}; known: {known}")]
    UnknownKey {
        spec: String,
        kind: &'static str,
        key: String,
        known: &'static str,
    },
    #[error("player spec {spec:?}: bad number {value:?} for {key}: expected {expected}")]
    BadNumber {
        spec: String,
        key: String,
        value: String,
        expected: String,
    },
    #[error("player spec {spec:?}: missing {kind} path (write {kind}:PATH,sims=N)")]
    MissingPath { spec: String, kind: &'static str },
    #[error("player spec {spec:?}: {source}")]
    Bundle {
        spec: String,
        #[source]
        source: Box<zero_bundle::BundleError>,
    },
    #[error("player spec {spec:?}: malformed part {part:?}: expected key=value")]
    Malformed { spec: String, part: String },
    #[error("player spec {spec:?}: bad value {value:?} for {key}: {reason}")]
    BadValue {
        spec: String,
        key: String,
        value: String,
        reason: String,
    },
}

/// What kind of player, with its settings.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerKind {
    Random,
    Greedy,
    AlphaBeta(SearchLimit),
    /// Plain UCT with random playouts.
    Mcts {
        simulations: u32,
    },
    /// A network searching with the search crate's engine (`ckpt:PATH,...`, `bundle:DIR,...`, `uniform:...`):
    /// [`NetworkPlayer`].
    Network(NetworkPlayer),
    /// Bagh Chal's perfect player (`tablebase[:file=PATH][,ms=N|depth=N|nodes=N]`): the tablebase's best move in
    /// the sliding phase and the last placements it searches exactly ([`zero_tablebase::probe`]), alpha-beta
    /// with the given limit before them. No file named: the default one ([`zero_tablebase::default_path`]).
    Tablebase {
        file: Option<PathBuf>,
        placement: SearchLimit,
    },
}

/// A parsed player spec.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// `name=LABEL`, if given.
    pub label: Option<String>,
}

/// Where a network player's network comes from; in files `{"checkpoint": PATH}`, `{"bundle": {"dir": DIR,
/// "search": {...}}}`, `"uniform"` or `{"given": NAME}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Network {
    /// A checkpoint file (`ckpt:PATH`).
    Checkpoint(PathBuf),
    /// A bot bundle (`bundle:DIR`), verified when the spec was read: its checkpoint, with the search its manifest
    /// says (`search`), which the spec's keys change.
    Bundle { dir: PathBuf, search: PlaySearch },
    /// No network (`uniform:`): uniform priors and the result of a random playout as the value, the model of
    /// self-play's generation 0 ([`zero_search::RolloutEvaluator`]).
    Uniform,
    /// A network handed over in code, by the name it plays under ([`crate::Entrant::searching_with_evaluator`]:
    /// tests, and callers that hold a network already); never read from text.
    Given(String),
}

/// A network player, the typed form of `ckpt:PATH,sims=64|ms=100|level=NAME,...`: its network, its search (the
/// one type every judged player's search is, [`PlaySearch`]: budget, root, constants, weights, batch, reuse,
/// temperature), a strength level, and where and in what number format its network runs. Its serde form is what
/// `zero eval --out` records of each network player (the search a bundle's manifest gave it included).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkPlayer {
    pub network: Network,
    /// `sims` = 0 plays the raw policy; more, or `movetime_ms` (`ms=N`: equal thinking time with
    /// `alphabeta:ms=N`), runs the search crate's engine with the network (no noise; the most visited action or
    /// the Gumbel final choice at temperature 0).
    pub search: PlaySearch,
    /// A strength level (`level=NAME`): its game's simulations and temperature replace the search's when the
    /// spec is made ready for a game ([`PlayerSpec::for_game`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<zero_search::Level>,
    #[serde(default = "play_device")]
    pub device: zero_model::DeviceChoice,
    /// The number format the network evaluates in (`precision=auto|f32|bf16`, default [`PLAY_PRECISION`]).
    #[serde(default = "play_precision")]
    pub precision: zero_model::Precision,
}

/// The device a network player runs on unless it says otherwise.
fn play_device() -> zero_model::DeviceChoice {
    zero_model::DeviceChoice::Cpu
}

/// [`PLAY_PRECISION`], for serde.
fn play_precision() -> zero_model::Precision {
    PLAY_PRECISION
}

impl Network {
    /// The search a spec's keys change: a bundle's own, else [`PlaySearch::DEFAULT`].
    pub fn own_search(&self) -> PlaySearch {
        match self {
            Network::Bundle { search, .. } => *search,
            _ => PLAY_SEARCH,
        }
    }
}

impl NetworkPlayer {
    /// The network at `network` searching as `search` says, on the CPU in [`PLAY_PRECISION`], at no level.
    pub fn new(network: Network, search: PlaySearch) -> NetworkPlayer {
        NetworkPlayer {
            network,
            search,
            level: None,
            device: play_device(),
            precision: PLAY_PRECISION,
        }
    }
}

const DEFAULT_MCTS_SIMS: u32 = 200;
/// The most nodes an `alphabeta:nodes=N` move may search: minutes at the engine's one to three million nodes a
/// second, so that a typo of a few zeros is refused rather than freezing the match.
pub const MAX_ALPHABETA_NODES: u64 = 1_000_000_000;
/// The number format of `ckpt:` players unless `precision=` says otherwise: f32. At the timed search's batches
/// of 32 leaves f32 ran 1.55 times the simulations of bf16 on a CPU with native bf16 and scored better against
/// alpha-beta at equal time (`docs/experiments/search-at-play.md`); bf16 pays only at self-play's batches of about 250.
pub const PLAY_PRECISION: zero_model::Precision = zero_model::Precision::F32;
/// The keys a `ckpt:` or `bundle:` spec takes, as its refusal of another names them.
const CKPT_KEYS: &str = "PATH (first), path, sims, ms, level, temp, root, score, device, precision, batch, reuse, cpuct, fpu, minimax, name";
/// The keys a `uniform:` spec takes: a network player's but those of a network (its path, device, precision).
const UNIFORM_KEYS: &str = "sims, ms, level, temp, root, score, batch, reuse, cpuct, fpu, minimax, name";
/// The search of a `ckpt:` player that names nothing: 64 simulations, a PUCT root played at temperature 0 (the
/// most visited action; self-play's own default is Gumbel, `root=gumbel` gives that, `root=gumbel/puct` a root for
/// each side), the search crate's constants.
const PLAY_SEARCH: PlaySearch = PlaySearch::DEFAULT;

impl PlayerSpec {
    /// A network player written from code, on the CPU in [`PLAY_PRECISION`].
    pub fn network(network: Network, search: PlaySearch) -> PlayerSpec {
        PlayerSpec {
            kind: PlayerKind::Network(NetworkPlayer::new(network, search)),
            label: None,
        }
    }

    /// Whether the player's thinking is bounded by time (`ms=`) rather than by work: its games depend on the
    /// machine's speed and load.
    pub fn thinks_on_the_clock(&self) -> bool {
        match &self.kind {
            PlayerKind::AlphaBeta(limit) => limit.millis.is_some(),
            PlayerKind::Tablebase { placement, .. } => placement.millis.is_some(),
            PlayerKind::Network(player) => player.search.movetime_ms.is_some(),
            _ => false,
        }
    }

    /// The same spec with `name=LABEL`.
    pub fn labelled(mut self, label: impl Into<String>) -> PlayerSpec {
        self.label = Some(label.into());
        self
    }
}

/// Which network a network player's spec names, by its kind word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Checkpoint,
    Bundle,
    Uniform,
}

impl Source {
    const ALL: [Source; 3] = [Source::Checkpoint, Source::Bundle, Source::Uniform];

    /// The source a spec's kind word names.
    fn named(kind: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|source| source.kind() == kind)
    }

    fn kind(self) -> &'static str {
        match self {
            Source::Checkpoint => "ckpt",
            Source::Bundle => "bundle",
            Source::Uniform => "uniform",
        }
    }

    fn known_keys(self) -> &'static str {
        match self {
            Source::Uniform => UNIFORM_KEYS,
            _ => CKPT_KEYS,
        }
    }
}

/// A spec string cut into its parts: `kind:part,part,...`, with `name=` taken out, `key=value` pairs and bare
/// parts (a checkpoint's path) apart. Its methods build the errors that name the spec.
struct SpecParts<'a> {
    spec: &'a str,
    /// Everything after `kind:`.
    rest: &'a str,
    label: Option<String>,
    pairs: Vec<(&'a str, &'a str)>,
    bare: Vec<&'a str>,
}

impl<'a> SpecParts<'a> {
    fn split(spec: &'a str) -> (&'a str, SpecParts<'a>) {
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let mut parts = SpecParts {
            spec,
            rest,
            label: None,
            pairs: Vec::new(),
            bare: Vec::new(),
        };
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some(("name", value)) => parts.label = Some(value.trim().to_string()),
                Some((key, value)) => parts.pairs.push((key.trim(), value.trim())),
                None => parts.bare.push(part),
            }
        }
        (kind.trim(), parts)
    }

    fn malformed(&self, part: &str) -> SpecError {
        SpecError::Malformed {
            spec: self.spec.to_string(),
            part: part.to_string(),
        }
    }

    /// Refuses bare parts (every kind but `ckpt`).
    fn no_bare_parts(&self) -> Result<(), SpecError> {
        match self.bare.first() {
            Some(part) => Err(self.malformed(part)),
            None => Ok(()),
        }
    }

    fn unknown(&self, kind: &'static str, key: &str, known: &'static str) -> SpecError {
        SpecError::UnknownKey {
            spec: self.spec.to_string(),
            kind,
            key: key.to_string(),
            known,
        }
    }

    fn bad_number(&self, key: &str, value: &str, expected: impl fmt::Display) -> SpecError {
        SpecError::BadNumber {
            spec: self.spec.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    fn bad_value(&self, key: &str, value: &str, reason: impl fmt::Display) -> SpecError {
        SpecError::BadValue {
            spec: self.spec.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        }
    }

    fn number(&self, key: &str, value: &str) -> Result<u64, SpecError> {
        value
            .replace('_', "")
            .parse::<u64>()
            .map_err(|_| self.bad_number(key, value, "a non-negative integer"))
    }

    fn small(&self, key: &str, value: &str) -> Result<u32, SpecError> {
        u32::try_from(self.number(key, value)?).map_err(|_| self.bad_number(key, value, "an integer below 2^32"))
    }

    /// An integer within `range`, counting `unit`s (the refusal says the range: "from 1 to 256 leaves").
    fn bounded(
        &self,
        key: &str,
        value: &str,
        range: std::ops::RangeInclusive<u64>,
        unit: &str,
    ) -> Result<u64, SpecError> {
        match self.number(key, value)? {
            n if range.contains(&n) => Ok(n),
            _ => Err(self.bad_number(key, value, format!("from {} to {} {unit}", range.start(), range.end()))),
        }
    }

    /// A move's time, `ms=N`: 1 millisecond to [`MAX_MOVE_TIME_MS`] (ten minutes).
    fn move_time(&self, key: &str, value: &str) -> Result<u64, SpecError> {
        self.bounded(key, value, 1..=u64::from(MAX_MOVE_TIME_MS), "milliseconds")
    }

    /// A search's simulations, `sims=N`: `least` to [`MAX_SIMULATIONS`].
    fn simulations(&self, key: &str, value: &str, least: u32) -> Result<u32, SpecError> {
        let n = self.bounded(key, value, u64::from(least)..=u64::from(MAX_SIMULATIONS), "simulations")?;
        Ok(n as u32)
    }

    /// A decimal number within `range`; `expected` says the range in words.
    fn decimal(
        &self,
        key: &str,
        value: &str,
        range: std::ops::RangeInclusive<f32>,
        expected: &'static str,
    ) -> Result<f32, SpecError> {
        match value.parse::<f32>() {
            Ok(x) if range.contains(&x) => Ok(x),
            _ => Err(self.bad_value(key, value, expected)),
        }
    }

    fn alphabeta(&self) -> Result<PlayerKind, SpecError> {
        self.no_bare_parts()?;
        let limit = self.search_limit(&self.pairs, "alphabeta", "depth, nodes, ms, name")?;
        Ok(PlayerKind::AlphaBeta(limit))
    }

    /// An alpha-beta limit from `depth=`, `nodes=` and `ms=` among `pairs`; any other key is refused, naming the
    /// `known` keys of `kind`.
    fn search_limit(
        &self,
        pairs: &[(&str, &str)],
        kind: &'static str,
        known: &'static str,
    ) -> Result<SearchLimit, SpecError> {
        let mut limit = SearchLimit::default();
        for &(key, value) in pairs {
            match key {
                "depth" => match self.small(key, value)? {
                    0 => return Err(self.bad_number(key, value, "a depth of at least 1")),
                    depth => limit.depth = Some(depth),
                },
                "nodes" => limit.nodes = Some(self.bounded(key, value, 1..=MAX_ALPHABETA_NODES, "nodes")?),
                "ms" => limit.millis = Some(self.move_time(key, value)?),
                _ => return Err(self.unknown(kind, key, known)),
            }
        }
        Ok(limit)
    }

    /// `tablebase[:file=PATH][,ms=N|depth=N|nodes=N]`: the alpha-beta keys limit its placement moves.
    fn tablebase(&self) -> Result<PlayerKind, SpecError> {
        self.no_bare_parts()?;
        let known = "file, depth, nodes, ms, name";
        let file = self
            .pairs
            .iter()
            .rev()
            .find(|(key, _)| *key == "file")
            .map(|(_, v)| PathBuf::from(v));
        let limits: Vec<(&str, &str)> = self.pairs.iter().copied().filter(|(key, _)| *key != "file").collect();
        let placement = self.search_limit(&limits, "tablebase", known)?;
        Ok(PlayerKind::Tablebase { file, placement })
    }

    fn mcts(&self) -> Result<PlayerKind, SpecError> {
        self.no_bare_parts()?;
        let mut simulations = DEFAULT_MCTS_SIMS;
        for &(key, value) in &self.pairs {
            match key {
                "sims" => simulations = self.simulations(key, value, 1)?,
                _ => return Err(self.unknown("mcts", key, "sims, name")),
            }
        }
        Ok(PlayerKind::Mcts { simulations })
    }

    /// The path of a `ckpt:` or `bundle:` spec: its first part, or `path=` (the last one given).
    fn network_path(&self, source: Source) -> Result<PathBuf, SpecError> {
        let mut path = match self.bare.as_slice() {
            [] => None,
            [first] if self.rest.trim_start().starts_with(first) => Some(PathBuf::from(first)),
            [.., wrong] => return Err(self.malformed(wrong)),
        };
        for &(key, value) in &self.pairs {
            if key == "path" {
                path = Some(value).filter(|v| !v.is_empty()).map(PathBuf::from);
            }
        }
        let missing = || SpecError::MissingPath {
            spec: self.spec.to_string(),
            kind: source.kind(),
        };
        path.ok_or_else(missing)
    }

    /// The network a spec names; a bundle is opened and verified here, for the search its manifest holds.
    fn network_of(&self, source: Source) -> Result<Network, SpecError> {
        Ok(match source {
            Source::Checkpoint => Network::Checkpoint(self.network_path(source)?),
            Source::Bundle => {
                let dir = self.network_path(source)?;
                let bundle = zero_bundle::Bundle::open(&dir).map_err(|source| SpecError::Bundle {
                    spec: self.spec.to_string(),
                    source: Box::new(source),
                })?;
                Network::Bundle {
                    dir,
                    search: bundle.manifest.search,
                }
            }
            Source::Uniform => {
                self.no_bare_parts()?;
                Network::Uniform
            }
        })
    }

    /// A network player: `ckpt:PATH,...`, `bundle:DIR,...` or `uniform:...`, its keys applied to the network's
    /// own search (a bundle's, else the default).
    fn network(&self, source: Source) -> Result<PlayerKind, SpecError> {
        let network = self.network_of(source)?;
        let mut player = NetworkPlayer::new(network.clone(), network.own_search());
        for &(key, value) in &self.pairs {
            self.network_setting(&mut player, source, key, value)?;
        }
        let given = |wanted: &[&str]| self.pairs.iter().any(|(key, _)| wanted.contains(key));
        if given(&["sims"]) && given(&["ms"]) {
            let ms = player.search.movetime_ms.unwrap_or_default().to_string();
            return Err(self.bad_value("ms", &ms, "give sims=N or ms=N, not both"));
        }
        if player.level.is_some() && given(&["sims", "ms", "temp"]) {
            return Err(self.bad_value(
                "level",
                "",
                "a level sets the simulations and the temperature: give level=NAME or sims/ms/temp, not both",
            ));
        }
        if player.level.is_some() {
            // A level's budget is simulations: a bundle's time per move gives way to it.
            player.search.movetime_ms = None;
        }
        Ok(PlayerKind::Network(player))
    }

    /// Applies one `key=value` of a network player's spec (`path` was read with the network; a `uniform:` player
    /// has no path, device or precision).
    fn network_setting(
        &self,
        player: &mut NetworkPlayer,
        source: Source,
        key: &str,
        value: &str,
    ) -> Result<(), SpecError> {
        let search = &mut player.search;
        let networked = source != Source::Uniform;
        match key {
            "path" if networked => {}
            "cpuct" => search.c_puct = self.decimal(key, value, C_PUCT_RANGE, "a number from 0.01 to 100")?,
            "fpu" => search.fpu_reduction = self.decimal(key, value, FPU_RANGE, "a number from 0 to 4")?,
            "minimax" => search.minimax_weight = self.decimal(key, value, 0.0..=1.0, "a weight from 0 to 1")?,
            "level" => {
                player.level = Some(zero_search::Level::parse(value).map_err(|e| self.bad_value(key, value, e))?)
            }
            "temp" => search.temperature = self.decimal(key, value, TEMPERATURE_RANGE, "a temperature from 0 to 10")?,
            "sims" => *search = search.on_simulations(self.simulations(key, value, 0)?),
            "ms" => search.movetime_ms = Some(self.move_time(key, value)?),
            "device" if networked => player.device = value.parse().map_err(|e| self.bad_value(key, value, e))?,
            "root" => search.root = value.parse().map_err(|e| self.bad_value(key, value, e))?,
            "score" => search.score_utility = self.side_weights(key, value)?,
            "precision" if networked => player.precision = value.parse().map_err(|e| self.bad_value(key, value, e))?,
            "batch" => search.leaf_batch = self.bounded(key, value, 1..=u64::from(MAX_LEAF_BATCH), "leaves")? as u32,
            "reuse" => {
                search.tree_reuse = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(self.bad_value(key, value, "expected on or off")),
                }
            }
            _ => return Err(self.unknown(source.kind(), key, source.known_keys())),
        }
        Ok(())
    }

    /// Score weights, `score=W` or `score=FIRST/SECOND`, each within [0, [`MAX_SCORE_UTILITY`]].
    fn side_weights(&self, key: &str, value: &str) -> Result<SideWeights, SpecError> {
        let expected = format!("a weight from 0 to {MAX_SCORE_UTILITY}, or one for each side as FIRST/SECOND");
        let weights: SideWeights = value.parse().map_err(|_| self.bad_number(key, value, &expected))?;
        weights
            .check_score_utility()
            .map_err(|_| self.bad_number(key, value, &expected))?;
        Ok(weights)
    }
}

impl PlayerSpec {
    /// Parses a spec string; every refusal names the spec and the part that is wrong.
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let spec = text.trim();
        if spec.is_empty() {
            return Err(SpecError::Empty);
        }
        let (kind, parts) = SpecParts::split(spec);
        let kind = match (kind, Source::named(kind)) {
            (_, Some(source)) => parts.network(source)?,
            ("random" | "greedy", _) => {
                parts.no_bare_parts()?;
                let name = if kind == "random" { "random" } else { "greedy" };
                if let Some((key, _)) = parts.pairs.first() {
                    return Err(parts.unknown(name, key, "name"));
                }
                if name == "random" {
                    PlayerKind::Random
                } else {
                    PlayerKind::Greedy
                }
            }
            ("alphabeta" | "ab", _) => parts.alphabeta()?,
            ("mcts" | "uct", _) => parts.mcts()?,
            ("tablebase", _) => parts.tablebase()?,
            (other, None) => {
                return Err(SpecError::UnknownKind {
                    spec: spec.to_string(),
                    kind: other.to_string(),
                });
            }
        };
        Ok(PlayerSpec {
            kind,
            label: parts.label,
        })
    }
}

/// An alpha-beta limit as spec parts: `depth=4` when none is set (the engine's default).
fn limit_parts(limit: &SearchLimit) -> String {
    let mut parts = Vec::new();
    match (limit.depth, limit.nodes, limit.millis) {
        (None, None, None) => parts.push("depth=4".to_string()),
        (depth, nodes, millis) => {
            parts.extend(depth.map(|d| format!("depth={d}")));
            parts.extend(nodes.map(|n| format!("nodes={n}")));
            parts.extend(millis.map(|m| format!("ms={m}")));
        }
    }
    parts.join(",")
}

/// A checkpoint's path as the first part of its canonical spec, written so that it parses back: its file name
/// alone where that reads as a bare part; `path=NAME` where the name holds an `=`; the whole path, `path=PATH`,
/// where the name cannot stand in a spec by itself (it begins or ends with a space, as `dir/ a` does).
fn path_part(path: &std::path::Path) -> String {
    let file = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
    let holds = |text: &str| !text.is_empty() && text.trim() == text && !text.contains(',');
    if holds(&file) && !file.contains('=') {
        file
    } else if holds(&file) {
        format!("path={file}")
    } else {
        format!("path={}", path.display())
    }
}

impl PlayerSpec {
    /// The name in tables and records: the label if given, else the spec written canonically (a checkpoint by
    /// its file name without directory).
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.canonical())
    }

    /// The spec without its label, with defaults made explicit: a spec that parses back (to the same player but
    /// for a checkpoint's directory, device and precision, and the search settings a raw policy does not use).
    pub fn canonical(&self) -> String {
        match &self.kind {
            PlayerKind::Random => "random".to_string(),
            PlayerKind::Greedy => "greedy".to_string(),
            PlayerKind::AlphaBeta(limit) => format!("alphabeta:{}", limit_parts(limit)),
            PlayerKind::Tablebase { file: None, placement } => format!("tablebase:{}", limit_parts(placement)),
            PlayerKind::Tablebase {
                file: Some(file),
                placement,
            } => format!("tablebase:file={},{}", file.display(), limit_parts(placement)),
            PlayerKind::Mcts { simulations } => format!("mcts:sims={simulations}"),
            PlayerKind::Network(player) => network_spec(player),
        }
    }
}

/// A network player's canonical spec: its network, its budget, then every search setting that differs from its
/// network's own search (a bundle's, else the default) where a search runs at all (a raw policy uses none).
fn network_spec(player: &NetworkPlayer) -> String {
    let search = &player.search;
    let (source, mut parts) = match &player.network {
        Network::Checkpoint(path) => (Source::Checkpoint, vec![path_part(path)]),
        Network::Bundle { dir, .. } => (Source::Bundle, vec![path_part(dir)]),
        Network::Uniform => (Source::Uniform, vec![]),
        Network::Given(name) => (Source::Checkpoint, vec![format!("path={name}")]),
    };
    parts.push(match (player.level, search.movetime_ms) {
        (Some(level), _) => format!("level={}", level.name),
        (None, Some(ms)) => format!("ms={ms}"),
        (None, None) => format!("sims={}", search.sims),
    });
    // The settings a search uses are written only where a search runs at all (a raw policy uses none); a
    // temperature where no level sets it.
    let searches = search.searches() || player.level.is_some();
    for (key, value) in search.changed_from(&player.network.own_search()) {
        let written = if key == "temp" {
            player.level.is_none()
        } else {
            searches
        };
        if written {
            parts.push(format!("{key}={value}"));
        }
    }
    format!("{}:{}", source.kind(), parts.join(","))
}

impl PlayerSpec {
    /// The spec made ready for game `G`: a strength level's simulations and temperature are that game's
    /// ([`zero_games::Encoding::LEVELS`]; `max` searches with the default simulations).
    pub fn for_game<G: zero_games::Encoding>(mut self) -> PlayerSpec {
        if let PlayerKind::Network(NetworkPlayer {
            search,
            level: Some(level),
            ..
        }) = &mut self.kind
        {
            let at_level = level.search::<G>();
            search.sims = at_level.simulations.unwrap_or(PLAY_SEARCH.sims);
            search.temperature = at_level.temperature;
        }
        self
    }
}

impl std::str::FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        PlayerSpec::parse(s)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
