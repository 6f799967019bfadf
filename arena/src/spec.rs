//! Player specifications as written on the command line: `random`, `greedy`, `alphabeta:depth=4`,
//! `alphabeta:nodes=100000`, `alphabeta:ms=200`, `mcts:sims=200`, `ckpt:PATH,sims=64[,root=puct|gumbel][,device=D][,precision=auto|f32|bf16]`, each with an optional
//! `name=LABEL`. Parsing knows no game; [`crate::Entrant`] turns a spec into players of one game.

use crate::baselines::SearchLimit;
use std::fmt;
use std::path::PathBuf;
use zero_selfplay::RootSearch;

/// Why a player spec was refused; each names the part that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("empty player spec")]
    Empty,
    #[error("player spec {spec:?}: unknown player kind {kind:?}; known: random, greedy, alphabeta, mcts, ckpt")]
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
        expected: &'static str,
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
    /// A checkpoint; `simulations` = 0 plays the raw policy, more runs the selfplay crate's search with the
    /// network (root `root`, no noise, the most visited action / the Gumbel final choice).
    Checkpoint {
        path: PathBuf,
        simulations: u32,
        device: zero_model::DeviceChoice,
        root: RootSearch,
        /// The number format the network evaluates in (`precision=auto|f32|bf16`, default auto).
        precision: zero_model::Precision,
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
const DEFAULT_CKPT_SIMS: u32 = 64;
/// The root search of `ckpt:` players unless `root=` says otherwise: PUCT, played at temperature 0 (the most
/// visited action). Self-play's own default is Gumbel; `root=gumbel` gives that.
pub const DEFAULT_CKPT_ROOT: RootSearch = RootSearch::Puct;

impl PlayerSpec {
    /// A checkpoint player written from code: `simulations` = 0 plays the raw policy, more the network search
    /// with the default root ([`DEFAULT_CKPT_ROOT`]; set [`PlayerKind::Checkpoint::root`] to change it).
    pub fn checkpoint(path: impl Into<PathBuf>, simulations: u32, device: zero_model::DeviceChoice) -> PlayerSpec {
        PlayerSpec {
            kind: PlayerKind::Checkpoint {
                path: path.into(),
                simulations,
                device,
                root: DEFAULT_CKPT_ROOT,
                precision: zero_model::Precision::Auto,
            },
            label: None,
        }
    }

    /// The same spec with `name=LABEL`.
    pub fn labelled(mut self, label: impl Into<String>) -> PlayerSpec {
        self.label = Some(label.into());
        self
    }
}

impl PlayerSpec {
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let spec = text.trim();
        if spec.is_empty() {
            return Err(SpecError::Empty);
        }
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let parts: Vec<&str> = rest.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        let mut label = None;
        let mut pairs = Vec::new();
        let mut bare = Vec::new();
        for part in parts {
            match part.split_once('=') {
                Some(("name", value)) => label = Some(value.trim().to_string()),
                Some((key, value)) => pairs.push((key.trim(), value.trim())),
                None => bare.push(part),
            }
        }
        let err_spec = || spec.to_string();
        let malformed = |part: &str| SpecError::Malformed {
            spec: err_spec(),
            part: part.to_string(),
        };
        let unknown = |kind: &'static str, key: &str, known: &'static str| SpecError::UnknownKey {
            spec: err_spec(),
            kind,
            key: key.to_string(),
            known,
        };
        let number = |key: &str, value: &str| -> Result<u64, SpecError> {
            value.replace('_', "").parse::<u64>().map_err(|_| SpecError::BadNumber {
                spec: err_spec(),
                key: key.to_string(),
                value: value.to_string(),
                expected: "a non-negative integer",
            })
        };
        let small = |key: &str, value: &str| -> Result<u32, SpecError> {
            u32::try_from(number(key, value)?).map_err(|_| SpecError::BadNumber {
                spec: err_spec(),
                key: key.to_string(),
                value: value.to_string(),
                expected: "an integer below 2^32",
            })
        };
        let kind = match kind.trim() {
            "random" | "greedy" => {
                let name: &'static str = if kind.trim() == "random" { "random" } else { "greedy" };
                if let Some(part) = bare.first() {
                    return Err(malformed(part));
                }
                if let Some((key, _)) = pairs.first() {
                    return Err(unknown(name, key, "name"));
                }
                if name == "random" {
                    PlayerKind::Random
                } else {
                    PlayerKind::Greedy
                }
            }
            "alphabeta" | "ab" => {
                if let Some(part) = bare.first() {
                    return Err(malformed(part));
                }
                let mut limit = SearchLimit::default();
                for (key, value) in pairs {
                    match key {
                        "depth" => {
                            let depth = small(key, value)?;
                            if depth == 0 {
                                return Err(SpecError::BadNumber {
                                    spec: err_spec(),
                                    key: key.to_string(),
                                    value: value.to_string(),
                                    expected: "a depth of at least 1",
                                });
                            }
                            limit.depth = Some(depth);
                        }
                        "nodes" => limit.nodes = Some(number(key, value)?),
                        "ms" => limit.millis = Some(number(key, value)?),
                        _ => return Err(unknown("alphabeta", key, "depth, nodes, ms, name")),
                    }
                }
                PlayerKind::AlphaBeta(limit)
            }
            "mcts" | "uct" => {
                if let Some(part) = bare.first() {
                    return Err(malformed(part));
                }
                let mut simulations = DEFAULT_MCTS_SIMS;
                for (key, value) in pairs {
                    match key {
                        "sims" => simulations = small(key, value)?.max(1),
                        _ => return Err(unknown("mcts", key, "sims, name")),
                    }
                }
                PlayerKind::Mcts { simulations }
            }
            "ckpt" => {
                let mut path = None;
                match bare.as_slice() {
                    [] => {}
                    [first] if rest.trim_start().starts_with(first) => path = Some(PathBuf::from(first)),
                    [.., wrong] => return Err(malformed(wrong)),
                }
                let mut simulations = DEFAULT_CKPT_SIMS;
                let mut device = zero_model::DeviceChoice::Cpu;
                let mut root = DEFAULT_CKPT_ROOT;
                let mut precision = zero_model::Precision::Auto;
                for (key, value) in pairs {
                    match key {
                        "path" => path = Some(PathBuf::from(value)),
                        "sims" => simulations = small(key, value)?,
                        "device" => {
                            device =
                                value
                                    .parse()
                                    .map_err(|e: zero_model::device::DeviceError| SpecError::BadValue {
                                        spec: err_spec(),
                                        key: key.to_string(),
                                        value: value.to_string(),
                                        reason: e.to_string(),
                                    })?
                        }
                        "root" => {
                            root = match value {
                                "puct" => RootSearch::Puct,
                                "gumbel" => RootSearch::Gumbel,
                                _ => {
                                    return Err(SpecError::BadValue {
                                        spec: err_spec(),
                                        key: key.to_string(),
                                        value: value.to_string(),
                                        reason: "expected puct or gumbel".to_string(),
                                    });
                                }
                            }
                        }
                        "precision" => {
                            precision = value.parse().map_err(|e: zero_model::device::UnknownPrecision| {
                                SpecError::BadValue {
                                    spec: err_spec(),
                                    key: key.to_string(),
                                    value: value.to_string(),
                                    reason: e.to_string(),
                                }
                            })?
                        }
                        _ => {
                            return Err(unknown(
                                "ckpt",
                                key,
                                "PATH (first), path, sims, root, device, precision, name",
                            ));
                        }
                    }
                }
                let path = path.ok_or_else(|| SpecError::MissingPath { spec: err_spec() })?;
                PlayerKind::Checkpoint {
                    path,
                    simulations,
                    device,
                    root,
                    precision,
                }
            }
            other => {
                return Err(SpecError::UnknownKind {
                    spec: err_spec(),
                    kind: other.to_string(),
                });
            }
        };
        Ok(PlayerSpec { kind, label })
    }

    /// The name in tables and records: the label if given, else the spec written canonically (a checkpoint by
    /// its file name without directory).
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.canonical())
    }

    /// The spec without its label, with defaults made explicit.
    pub fn canonical(&self) -> String {
        match &self.kind {
            PlayerKind::Random => "random".to_string(),
            PlayerKind::Greedy => "greedy".to_string(),
            PlayerKind::AlphaBeta(limit) => {
                let mut parts = Vec::new();
                match (limit.depth, limit.nodes, limit.millis) {
                    (None, None, None) => parts.push("depth=4".to_string()),
                    (depth, nodes, millis) => {
                        parts.extend(depth.map(|d| format!("depth={d}")));
                        parts.extend(nodes.map(|n| format!("nodes={n}")));
                        parts.extend(millis.map(|m| format!("ms={m}")));
                    }
                }
                format!("alphabeta:{}", parts.join(","))
            }
            PlayerKind::Mcts { simulations } => format!("mcts:sims={simulations}"),
            PlayerKind::Checkpoint {
                path,
                simulations,
                root,
                ..
            } => {
                let file = path
                    .file_name()
                    .map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
                // The root is written only where it differs from the default and a search runs at all.
                match root {
                    _ if *simulations == 0 || *root == DEFAULT_CKPT_ROOT => format!("ckpt:{file},sims={simulations}"),
                    RootSearch::Puct => format!("ckpt:{file},sims={simulations},root=puct"),
                    RootSearch::Gumbel => format!("ckpt:{file},sims={simulations},root=gumbel"),
                }
            }
        }
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
