//! Player specifications as written on the command line: `random`, `greedy`, `alphabeta:depth=4`,
//! `alphabeta:nodes=100000`, `alphabeta:ms=200`, `mcts:sims=200`, `tablebase:ms=100` (Bagh Chal only),
//! `ckpt:PATH,sims=64|ms=100|level=NAME[,temp=T][,root=puct|gumbel|FIRST/SECOND][,score=W|FIRST/SECOND][,device=D][,precision=auto|f32|bf16][,batch=N][,reuse=on|off]`, each with an optional
//! `name=LABEL`. Parsing knows no game; [`crate::Entrant`] turns a spec into players of one game.

use std::fmt;
use std::path::PathBuf;
use zero_search::alphabeta::SearchLimit;
use zero_search::config::{
    MAX_LEAF_BATCH, MAX_MOVE_TIME_MS, MAX_SCORE_UTILITY, MAX_SIMULATIONS, PLAY_LEAF_BATCH, PLAY_TREE_REUSE,
    SearchConfig,
};
use zero_search::{RootSearch, SideRoots, SideWeights};

/// Why a player spec was refused; each names the part that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("empty player spec")]
    Empty,
    #[error(
        "player spec {spec:?}: unknown player kind {kind:?}; known: random, greedy, alphabeta, mcts, ckpt, tablebase"
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
    #[error("player spec {spec:?}: missing checkpoint path (write ckpt:PATH,sims=N)")]
    MissingPath { spec: String },
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
    /// A checkpoint; `simulations` = 0 plays the raw policy, more runs the search crate's engine with the
    /// network (root `root`, no noise, the most visited action / the Gumbel final choice). With `millis` the
    /// engine searches for that long per move instead (`ms=N`: equal thinking time with `alphabeta:ms=N`).
    Checkpoint {
        path: PathBuf,
        simulations: u32,
        millis: Option<u64>,
        device: zero_model::DeviceChoice,
        root: SideRoots,
        /// The number format the network evaluates in (`precision=auto|f32|bf16`, default [`PLAY_PRECISION`]).
        precision: zero_model::Precision,
        /// Leaves its timed search evaluates per network call (`batch=N`, default
        /// [`zero_search::config::PLAY_LEAF_BATCH`]).
        batch: u32,
        /// Whether its search keeps the tree across the opponent's reply (`reuse=on|off`, default
        /// [`zero_search::config::PLAY_TREE_REUSE`], on); the actions of one move always share it.
        reuse: bool,
        /// Temperature of its move choice (`temp=T`, or a strength level's, `level=NAME`); 0 plays the search's
        /// choice.
        temperature: f32,
        /// A strength level (`level=NAME`): its game's simulations and temperature replace the two above when the
        /// spec is made ready for a game ([`PlayerSpec::for_game`]).
        level: Option<zero_search::Level>,
        /// The search's PUCT exploration constant at zero visits (`cpuct=X`, default the search crate's
        /// [`SearchConfig::default`]).
        c_puct: f32,
        /// The search's first-play urgency reduction (`fpu=X`, default the search crate's).
        fpu_reduction: f32,
        /// The weight of the game's static judgement minimaxed through its search beside the network's values
        /// (`minimax=W` in [0, 1], default 0: [`SearchConfig::minimax_weight`]).
        minimax_weight: f32,
        /// How much its search weighs the game's score beside the value (`score=W` for both sides or
        /// `score=FIRST/SECOND`, each in [0, 1], default 0: [`SearchConfig::score_utility`]); a network without a
        /// score head plays on its value alone.
        score_utility: SideWeights,
    },
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

const DEFAULT_MCTS_SIMS: u32 = 200;
/// The most nodes an `alphabeta:nodes=N` move may search: minutes at the engine's one to three million nodes a
/// second, so that a typo of a few zeros is refused rather than freezing the match.
pub const MAX_ALPHABETA_NODES: u64 = 1_000_000_000;
/// The number format of `ckpt:` players unless `precision=` says otherwise: f32. At the timed search's batches
/// of 32 leaves f32 ran 1.55 times the simulations of bf16 on a CPU with native bf16 and scored better against
/// alpha-beta at equal time (`docs/experiments/search-at-play.md`); bf16 pays only at self-play's batches of about 250.
pub const PLAY_PRECISION: zero_model::Precision = zero_model::Precision::F32;
pub const DEFAULT_CKPT_SIMS: u32 = 64;
/// The root search of `ckpt:` players unless `root=` says otherwise: PUCT, played at temperature 0 (the most
/// visited action). Self-play's own default is Gumbel; `root=gumbel` gives that, and `root=gumbel/puct` a root
/// for each side ([`SideRoots`]).
pub const DEFAULT_CKPT_ROOT: SideRoots = SideRoots::both(RootSearch::Puct);
/// The keys a `ckpt:` spec takes, as its refusal of another names them.
const CKPT_KEYS: &str = "PATH (first), path, sims, ms, level, temp, root, score, device, precision, batch, reuse, cpuct, fpu, minimax, name";
/// The search settings a `ckpt:` spec does not name: the search crate's defaults, whose PUCT constants the spec
/// may change (`cpuct=`, `fpu=`, `minimax=`).
const PLAY_SEARCH: SearchConfig = SearchConfig::DEFAULT;

impl PlayerSpec {
    /// A checkpoint player written from code: `simulations` = 0 plays the raw policy, more the network search
    /// with the default root ([`DEFAULT_CKPT_ROOT`]; set [`PlayerKind::Checkpoint::root`] to change it).
    pub fn checkpoint(path: impl Into<PathBuf>, simulations: u32, device: zero_model::DeviceChoice) -> PlayerSpec {
        PlayerSpec {
            kind: PlayerKind::Checkpoint {
                path: path.into(),
                simulations,
                millis: None,
                device,
                root: DEFAULT_CKPT_ROOT,
                precision: PLAY_PRECISION,
                batch: PLAY_LEAF_BATCH,
                reuse: PLAY_TREE_REUSE,
                temperature: 0.0,
                level: None,
                c_puct: PLAY_SEARCH.c_puct,
                fpu_reduction: PLAY_SEARCH.fpu_reduction,
                minimax_weight: PLAY_SEARCH.minimax_weight,
                score_utility: PLAY_SEARCH.score_utility,
            },
            label: None,
        }
    }

    /// Whether the player's thinking is bounded by time (`ms=`) rather than by work: its games depend on the
    /// machine's speed and load.
    pub fn thinks_on_the_clock(&self) -> bool {
        match &self.kind {
            PlayerKind::AlphaBeta(limit) => limit.millis.is_some(),
            PlayerKind::Tablebase { placement, .. } => placement.millis.is_some(),
            PlayerKind::Checkpoint { millis, .. } => millis.is_some(),
            _ => false,
        }
    }

    /// The same spec with `name=LABEL`.
    pub fn labelled(mut self, label: impl Into<String>) -> PlayerSpec {
        self.label = Some(label.into());
        self
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

    fn checkpoint(&self) -> Result<PlayerKind, SpecError> {
        let mut path = match self.bare.as_slice() {
            [] => None,
            [first] if self.rest.trim_start().starts_with(first) => Some(PathBuf::from(first)),
            [.., wrong] => return Err(self.malformed(wrong)),
        };
        let mut simulations = DEFAULT_CKPT_SIMS;
        let mut millis = None;
        let mut device = zero_model::DeviceChoice::Cpu;
        let mut root = DEFAULT_CKPT_ROOT;
        let mut precision = PLAY_PRECISION;
        let mut batch = PLAY_LEAF_BATCH;
        let mut reuse = PLAY_TREE_REUSE;
        let mut temperature = 0.0;
        let mut level = None;
        let (mut c_puct, mut fpu_reduction) = (PLAY_SEARCH.c_puct, PLAY_SEARCH.fpu_reduction);
        let mut score_utility = PLAY_SEARCH.score_utility;
        let mut minimax_weight = PLAY_SEARCH.minimax_weight;
        for &(key, value) in &self.pairs {
            match key {
                "path" => path = Some(value).filter(|v| !v.is_empty()).map(PathBuf::from),
                "cpuct" => c_puct = self.decimal(key, value, 0.01..=100.0, "a number from 0.01 to 100")?,
                "fpu" => fpu_reduction = self.decimal(key, value, 0.0..=4.0, "a number from 0 to 4")?,
                "minimax" => minimax_weight = self.decimal(key, value, 0.0..=1.0, "a weight from 0 to 1")?,
                "level" => {
                    level = Some(zero_search::Level::parse(value).map_err(|e| self.bad_value(key, value, e))?);
                }
                "temp" => temperature = self.decimal(key, value, 0.0..=10.0, "a temperature from 0 to 10")?,
                "sims" => simulations = self.simulations(key, value, 0)?,
                "ms" => millis = Some(self.move_time(key, value)?),
                "device" => device = value.parse().map_err(|e| self.bad_value(key, value, e))?,
                "root" => root = value.parse().map_err(|e| self.bad_value(key, value, e))?,
                "score" => score_utility = self.side_weights(key, value)?,
                "precision" => precision = value.parse().map_err(|e| self.bad_value(key, value, e))?,
                "batch" => batch = self.bounded(key, value, 1..=u64::from(MAX_LEAF_BATCH), "leaves")? as u32,
                "reuse" => {
                    reuse = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(self.bad_value(key, value, "expected on or off")),
                    }
                }
                _ => {
                    return Err(self.unknown("ckpt", key, CKPT_KEYS));
                }
            }
        }
        let path = path.ok_or_else(|| SpecError::MissingPath {
            spec: self.spec.to_string(),
        })?;
        if let Some(ms) = millis
            && self.pairs.iter().any(|&(key, _)| key == "sims")
        {
            return Err(self.bad_value("ms", &ms.to_string(), "give sims=N or ms=N, not both"));
        }
        if level.is_some() && self.pairs.iter().any(|&(k, _)| k == "sims" || k == "ms" || k == "temp") {
            return Err(self.bad_value(
                "level",
                "",
                "a level sets the simulations and the temperature: give level=NAME or sims/ms/temp, not both",
            ));
        }
        Ok(PlayerKind::Checkpoint {
            path,
            simulations,
            millis,
            device,
            root,
            precision,
            batch,
            reuse,
            temperature,
            level,
            c_puct,
            fpu_reduction,
            minimax_weight,
            score_utility,
        })
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
        let kind = match kind {
            "random" | "greedy" => {
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
            "alphabeta" | "ab" => parts.alphabeta()?,
            "mcts" | "uct" => parts.mcts()?,
            "ckpt" => parts.checkpoint()?,
            "tablebase" => parts.tablebase()?,
            other => {
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
            PlayerKind::Checkpoint {
                path,
                simulations,
                millis,
                root,
                batch,
                reuse,
                temperature,
                level,
                c_puct,
                fpu_reduction,
                minimax_weight,
                score_utility,
                ..
            } => {
                let budget = match (level, millis) {
                    (Some(level), _) => format!("level={}", level.name),
                    (None, Some(ms)) => format!("ms={ms}"),
                    (None, None) => format!("sims={simulations}"),
                };
                // The root and the batch are written only where they differ from the defaults and a search
                // runs at all.
                let searches = *simulations > 0 || millis.is_some() || level.is_some();
                let mut spec = format!("ckpt:{},{budget}", path_part(path));
                if searches && *root != DEFAULT_CKPT_ROOT {
                    spec.push_str(&format!(",root={root}"));
                }
                if searches && *batch != PLAY_LEAF_BATCH {
                    spec.push_str(&format!(",batch={batch}"));
                }
                if searches && *reuse != PLAY_TREE_REUSE {
                    spec.push_str(if *reuse { ",reuse=on" } else { ",reuse=off" });
                }
                if searches && *c_puct != PLAY_SEARCH.c_puct {
                    spec.push_str(&format!(",cpuct={c_puct}"));
                }
                if searches && *fpu_reduction != PLAY_SEARCH.fpu_reduction {
                    spec.push_str(&format!(",fpu={fpu_reduction}"));
                }
                if searches && *minimax_weight != PLAY_SEARCH.minimax_weight {
                    spec.push_str(&format!(",minimax={minimax_weight}"));
                }
                if searches && *score_utility != PLAY_SEARCH.score_utility {
                    spec.push_str(&format!(",score={score_utility}"));
                }
                if *temperature > 0.0 && level.is_none() {
                    spec.push_str(&format!(",temp={temperature}"));
                }
                spec
            }
        }
    }
}

impl PlayerSpec {
    /// The spec made ready for game `G`: a strength level's simulations and temperature are that game's
    /// ([`zero_games::Encoding::LEVELS`]; `max` searches with the default simulations).
    pub fn for_game<G: zero_games::Encoding>(mut self) -> PlayerSpec {
        if let PlayerKind::Checkpoint {
            simulations,
            temperature,
            level: Some(level),
            ..
        } = &mut self.kind
        {
            let search = level.search::<G>();
            *simulations = search.simulations.unwrap_or(DEFAULT_CKPT_SIMS);
            *temperature = search.temperature;
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
