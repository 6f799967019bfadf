//! Bot bundles: a directory that holds everything needed to play with one network, verified on load.
//!
//! - `manifest.json`: what the network is for (game, rules, encoding, action space, input shape, architecture),
//!   default search settings, where it came from (run, generation, step, Elo), the strength levels' measured
//!   Elo when known, and the SHA-256 of every other file;
//! - `network.safetensors`: the model checkpoint, byte for byte as training wrote it;
//! - `network.pt`: the network as a TorchScript module (input `[N, planes, H, W]`, output `[N, actions + 3]`:
//!   policy logits then win/draw/loss logits), for `torch.jit.load` in Python or C++;
//! - `network.onnx`: the same network as ONNX (outputs `policy`, `wdl` and `moves_left` apart), for ONNX
//!   Runtime, tract and the libtorch-free bot; bundles exported before it existed have none and still open.
//!
//! The layout is documented in `docs/bundle.md`. A crate of its own, without libtorch, so that what reads a bundle
//! sits below everything that plays one: the arena (`bundle:DIR` players) and the bot; writing one needs libtorch
//! and lives in the bot (`zero_bot::export`).

pub use error::{BundleError, Result};
use error::{Context, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use zero_checkpoint::{CheckpointMeta, NetworkConfig};
use zero_games::{Encoding, GameKind};
use zero_io::FileKind;
use zero_search::PlaySearch;

mod error;

/// Version of the manifest layout; a loader refuses any other.
pub const MANIFEST_VERSION: u32 = 1;
pub const MANIFEST_FILE: &str = "manifest.json";
pub const WEIGHTS_FILE: &str = "network.safetensors";
pub const TORCHSCRIPT_FILE: &str = "network.pt";
pub const ONNX_FILE: &str = "network.onnx";

/// The files every bundle must hold besides its manifest.
pub const REQUIRED_FILES: &[&str] = &[WEIGHTS_FILE, TORCHSCRIPT_FILE];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub manifest_version: u32,
    pub game: GameKind,
    /// The complete rule set as `key=value` options.
    pub rules: Vec<String>,
    pub encoding_version: u32,
    pub action_space: i64,
    /// Planes, height, width of one input.
    pub input_shape: [i64; 3],
    pub architecture: NetworkConfig,
    /// The bot's search unless its user says otherwise: the one type of a judged player's search, written as it
    /// was before the newer keys (`sims`, `movetime_ms` (the run's headline match's time, so that the bot plays
    /// as its figure was measured), `root`, `score_utility`, `minimax_weight`; every other key only where it is
    /// not the default).
    pub search: PlaySearch,
    pub provenance: Provenance,
    pub torchscript: TorchScriptInfo,
    /// Every file of the bundle except the manifest, with its SHA-256 (lowercase hex) and size.
    pub files: BTreeMap<String, FileDigest>,
    /// The strength levels' measured Elo with this network (`zero export --level-ratings`), weakest first; none
    /// when they were not measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub level_ratings: Vec<LevelRating>,
}

/// One strength level's Elo with a bundle's network, from a round robin against the arena's anchors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRating {
    /// `beginner` … `strong` (`zero_search::LEVELS`).
    pub level: String,
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub interval: f64,
    /// The player rated 0 (`random`).
    pub anchor: String,
    pub games: u32,
}

impl LevelRating {
    /// The rating in words: `272 ±154 Elo over random (42 games)`.
    pub fn describe(&self) -> String {
        format!(
            "{:.0} ±{:.0} Elo over {} ({} games)",
            self.elo, self.interval, self.anchor, self.games
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The training run's name, when known.
    pub run: Option<String>,
    pub generation: u32,
    /// Optimizer steps taken to reach these weights.
    pub step: u64,
    /// The network's Elo in its run's last evaluation, when the run recorded one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchScriptInfo {
    pub file: String,
    /// `[-1, planes, height, width]`: any batch size.
    pub input: [i64; 4],
    /// Columns of the output: `actions + 3`.
    pub output_columns: i64,
    pub layout: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDigest {
    pub sha256: String,
    pub bytes: u64,
}

/// A bundle whose manifest, files and checkpoint agree.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub dir: PathBuf,
    pub manifest: Manifest,
}

/// The SHA-256 and size of the file at `path` (at most a network file's cap), as a manifest records it.
pub fn sha256_file(path: &Path) -> Result<FileDigest> {
    let (file, _) = zero_io::open_bounded(path, FileKind::Network)?;
    sha256_of(file, path)
}

/// The digest of what is left to read of `file` (at most a network file's cap), which is `path`.
fn sha256_of(file: std::fs::File, path: &Path) -> Result<FileDigest> {
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut file.take(FileKind::Network.cap()), &mut hasher)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(FileDigest {
        sha256: format!("{:x}", hasher.finalize()),
        bytes,
    })
}

impl Bundle {
    /// Reads and verifies a bundle: manifest version and fields, every file present with its recorded SHA-256,
    /// and the checkpoint's own metadata equal to the manifest's. Names what does not match.
    pub fn open(dir: &Path) -> Result<Bundle> {
        if !dir.is_dir() {
            bail!("bundle {}: not a directory", dir.display());
        }
        let manifest = read_manifest(dir)?;
        verify_files(dir, &manifest)?;
        check_level_ratings(dir, &manifest)?;
        manifest
            .search
            .validate()
            .map_err(|e| BundleError::invalid(format!("bundle {}: {MANIFEST_FILE}: search.{e}", dir.display())))?;
        check_checkpoint(dir, &manifest, &zero_checkpoint::read_meta(&dir.join(WEIGHTS_FILE))?)?;
        Ok(Bundle {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    /// The bundle's default search, on `sims` simulations a move where given (in place of its time per move).
    pub fn search(&self, sims: Option<u32>) -> PlaySearch {
        match sims {
            Some(sims) => self.manifest.search.on_simulations(sims),
            None => self.manifest.search,
        }
    }

    pub fn weights(&self) -> PathBuf {
        self.dir.join(WEIGHTS_FILE)
    }

    /// The bundle's rule set for game `G`.
    pub fn rules<G: Encoding>(&self) -> Result<G::Rules> {
        G::parse_rules(None, &self.manifest.rules).with_context(|| format!("rules of bundle {}", self.dir.display()))
    }
}

/// The manifest of the bundle in `dir`; the version is read on its own first, so that a future layout is named
/// as such and not as a parse error.
fn read_manifest(dir: &Path) -> Result<Manifest> {
    let manifest_path = dir.join(MANIFEST_FILE);
    if !manifest_path.exists() {
        bail!("bundle {}: missing file {MANIFEST_FILE}", dir.display());
    }
    zero_io::require_within(&manifest_path, dir, FileKind::Manifest)
        .with_context(|| format!("bundle {}", dir.display()))?;
    let text = zero_io::read_text_bounded(&manifest_path, FileKind::Manifest)
        .with_context(|| format!("bundle {}", dir.display()))?;
    let raw: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("bundle {}: {MANIFEST_FILE} is not JSON", dir.display()))?;
    match raw.get("manifest_version").and_then(|v| v.as_u64()) {
        Some(v) if v == MANIFEST_VERSION as u64 => {}
        Some(v) => bail!(
            "bundle {}: unknown manifest version {v} (this zero reads version {MANIFEST_VERSION})",
            dir.display()
        ),
        None => bail!("bundle {}: {MANIFEST_FILE} has no manifest_version", dir.display()),
    }
    serde_json::from_value(raw).with_context(|| format!("bundle {}: malformed {MANIFEST_FILE}", dir.display()))
}

/// Every required file is listed, and every listed file is present with its recorded SHA-256 and size.
fn verify_files(dir: &Path, manifest: &Manifest) -> Result<()> {
    for file in REQUIRED_FILES {
        if !manifest.files.contains_key(*file) {
            bail!("bundle {}: the manifest lists no {file}", dir.display());
        }
    }
    let names = manifest.files.keys().chain(std::iter::once(&manifest.torchscript.file));
    if let Some(bad) = names.into_iter().find(|name| !is_plain_file_name(name)) {
        bail!(
            "bundle {}: the manifest names {bad:?}, which is not a plain file name inside the bundle",
            dir.display()
        );
    }
    for (file, digest) in &manifest.files {
        let path = dir.join(file);
        if !path.exists() {
            bail!("bundle {}: missing file {file}", dir.display());
        }
        let context = || format!("bundle {}", dir.display());
        zero_io::require_within(&path, dir, FileKind::Network).with_context(context)?;
        let (opened, size) = zero_io::open_bounded(&path, FileKind::Network).with_context(context)?;
        // A file of another size cannot match: refused before a byte of it is read.
        if size != digest.bytes {
            bail!(
                "bundle {}: checksum mismatch for {file}: {size} bytes, the manifest says {} (not read)",
                dir.display(),
                digest.bytes
            );
        }
        let found = sha256_of(opened, &path)?;
        if found != *digest {
            bail!(
                "bundle {}: checksum mismatch for {file}: sha256 {} ({} bytes), manifest says {} ({} bytes)",
                dir.display(),
                found.sha256,
                found.bytes,
                digest.sha256,
                digest.bytes
            );
        }
    }
    Ok(())
}

/// Each level rating names a level and holds finite numbers.
fn check_level_ratings(dir: &Path, manifest: &Manifest) -> Result<()> {
    for rating in &manifest.level_ratings {
        zero_search::Level::parse(&rating.level)
            .map_err(|e| BundleError::invalid(format!("bundle {}: level_ratings: {e}", dir.display())))?;
        if !rating.elo.is_finite() || !rating.interval.is_finite() || rating.interval < 0.0 {
            bail!(
                "bundle {}: level_ratings: {}'s rating is not a finite Elo with a non-negative interval",
                dir.display(),
                rating.level
            );
        }
    }
    Ok(())
}

/// Whether `name` is one file name: no directory part, no `..`, nothing absolute, so that a manifest cannot make
/// a reader look outside its bundle.
fn is_plain_file_name(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(parts.next(), Some(std::path::Component::Normal(_))) && parts.next().is_none() && !name.contains('\\')
}

/// The checkpoint's own metadata says what the manifest says; names the first field that differs.
fn check_checkpoint(dir: &Path, manifest: &Manifest, meta: &CheckpointMeta) -> Result<()> {
    let pairs = [
        ("game", manifest.game.name().to_string(), meta.game.clone()),
        (
            "encoding version",
            manifest.encoding_version.to_string(),
            meta.encoding_version.to_string(),
        ),
        (
            "action space",
            manifest.action_space.to_string(),
            meta.action_space.to_string(),
        ),
        (
            "input shape",
            format!("{:?}", manifest.input_shape),
            format!("{:?}", meta.input_shape),
        ),
        (
            "architecture",
            format!("{:?}", manifest.architecture),
            format!("{:?}", meta.network),
        ),
        ("rules", manifest.rules.join(" "), meta.rules.join(" ")),
    ];
    for (what, in_manifest, in_checkpoint) in pairs {
        if in_manifest != in_checkpoint {
            bail!(
                "bundle {}: {what} mismatch between manifest ({in_manifest}) and checkpoint ({in_checkpoint})",
                dir.display()
            );
        }
    }
    Ok(())
}
