//! Bot bundles: a directory that holds everything needed to play with one network, verified on load.
//!
//! - `manifest.json`: what the network is for (game, rules, encoding, action space, input shape, architecture),
//!   default search settings, where it came from (run, generation, step, Elo), and the SHA-256 of every other
//!   file;
//! - `network.safetensors`: the model checkpoint, byte for byte as training wrote it;
//! - `network.pt`: the network as a TorchScript module (input `[N, planes, H, W]`, output `[N, actions + 3]`:
//!   policy logits then win/draw/loss logits), for `torch.jit.load` in Python or C++.
//!
//! The layout is documented in `docs/bundle.md`. A bundle is written into a temporary sibling directory and
//! renamed into place at the end, so a reader never sees half of one.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tch::{CModule, Device, Tensor, nn::ModuleT};
use zero_games::{Encoding, GameKind};
use zero_model::{Checkpoint, CheckpointMeta, NetworkConfig, NetworkEvaluator, Precision};
use zero_search::RootSearch;

/// Version of the manifest layout; a loader refuses any other.
pub const MANIFEST_VERSION: u32 = 1;
pub const MANIFEST_FILE: &str = "manifest.json";
pub const WEIGHTS_FILE: &str = "network.safetensors";
pub const TORCHSCRIPT_FILE: &str = "network.pt";

/// The files every bundle must hold besides its manifest.
const REQUIRED_FILES: &[&str] = &[WEIGHTS_FILE, TORCHSCRIPT_FILE];

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
    pub search: SearchDefaults,
    pub provenance: Provenance,
    pub torchscript: TorchScriptInfo,
    /// Every file of the bundle except the manifest, with its SHA-256 (lowercase hex) and size.
    pub files: BTreeMap<String, FileDigest>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchDefaults {
    /// Simulations per move when the user names none.
    pub sims: u32,
    /// Root search: `puct` or `gumbel`.
    pub root: RootSearch,
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

/// What to write besides the checkpoint itself.
pub struct ExportOptions {
    pub search: SearchDefaults,
    pub elo: Option<f64>,
}

fn sha256_file(path: &Path) -> Result<FileDigest> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(FileDigest {
        sha256: format!("{:x}", Sha256::digest(&bytes)),
        bytes: bytes.len() as u64,
    })
}

/// Writes a bundle of checkpoint `checkpoint` (a network of game `G`) to `out`, atomically. Refuses an existing `out`.
pub fn export<G: Encoding>(checkpoint: &Path, out: &Path, options: ExportOptions) -> Result<Manifest> {
    if out.exists() {
        bail!("{} already exists; remove it or choose another --out", out.display());
    }
    let loaded = Checkpoint::load::<G>(checkpoint, Device::Cpu)?;
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let name = out
        .file_name()
        .context("--out needs a directory name")?
        .to_string_lossy();
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let result = (|| {
        std::fs::copy(checkpoint, tmp.join(WEIGHTS_FILE))
            .with_context(|| format!("copying {}", checkpoint.display()))?;
        let meta = loaded.meta.clone();
        trace_torchscript(loaded, &tmp.join(TORCHSCRIPT_FILE))?;
        let mut files = BTreeMap::new();
        for file in REQUIRED_FILES {
            files.insert(file.to_string(), sha256_file(&tmp.join(file))?);
        }
        let kind = GameKind::of::<G>().context("an unregistered game")?;
        let manifest = manifest_for(kind, &meta, options, files);
        let json = serde_json::to_string_pretty(&manifest)? + "\n";
        std::fs::write(tmp.join(MANIFEST_FILE), json).context("writing the manifest")?;
        std::fs::rename(&tmp, out).with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
        Ok(manifest)
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn manifest_for(
    game: GameKind,
    meta: &CheckpointMeta,
    options: ExportOptions,
    files: BTreeMap<String, FileDigest>,
) -> Manifest {
    let [planes, height, width] = meta.input_shape;
    Manifest {
        manifest_version: MANIFEST_VERSION,
        game,
        rules: meta.rules.clone(),
        encoding_version: meta.encoding_version,
        action_space: meta.action_space,
        input_shape: meta.input_shape,
        architecture: meta.network.clone(),
        search: options.search,
        provenance: Provenance {
            run: meta.parent_run.clone(),
            generation: meta.generation,
            step: meta.step,
            elo: options.elo,
        },
        torchscript: TorchScriptInfo {
            file: TORCHSCRIPT_FILE.to_string(),
            input: [-1, planes, height, width],
            output_columns: meta.action_space + 3,
            layout: "policy logits over the action space, then win/draw/loss logits; inference mode (batch norm \
                     uses its running statistics)"
                .to_string(),
        },
        files,
    }
}

/// Traces the network in inference mode on the CPU and saves it; the saved module is loaded back and must give
/// the same outputs as the network it was traced from.
fn trace_torchscript(mut loaded: Checkpoint, path: &Path) -> Result<()> {
    loaded.vs.freeze();
    let [planes, height, width] = loaded.meta.input_shape;
    // A batch of 2 random inputs: tracing records the operations, not the batch size.
    tch::manual_seed(0);
    let input = Tensor::randn([2, planes, height, width], (tch::Kind::Float, Device::Cpu));
    let net = &loaded.net;
    let module = CModule::create_by_tracing("ZeroNetwork", "forward", std::slice::from_ref(&input), &mut |xs| {
        vec![net.forward_t(&xs[0], false)]
    })
    .context("tracing the network")?;
    module
        .save(path)
        .with_context(|| format!("writing {}", path.display()))?;
    let reloaded = CModule::load(path).with_context(|| format!("loading {} back", path.display()))?;
    let check = Tensor::randn([3, planes, height, width], (tch::Kind::Float, Device::Cpu));
    let want = tch::no_grad(|| net.forward_t(&check, false));
    let got = tch::no_grad(|| reloaded.forward_ts(&[&check])).context("running the traced module")?;
    let diff = (want - got).abs().max().double_value(&[]);
    // NaN fails this comparison as well.
    if diff.is_nan() || diff > 1e-5 {
        bail!("the traced module differs from the network by {diff}");
    }
    Ok(())
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
        check_checkpoint(dir, &manifest, &Checkpoint::read_meta(&dir.join(WEIGHTS_FILE))?)?;
        Ok(Bundle {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    pub fn weights(&self) -> PathBuf {
        self.dir.join(WEIGHTS_FILE)
    }

    /// The network as an evaluator of game `G` (the checkpoint checks game, encoding and shapes against the code),
    /// evaluating in `precision`.
    pub fn evaluator<G: Encoding>(&self, device: Device, precision: Precision) -> Result<NetworkEvaluator<G>> {
        Ok(NetworkEvaluator::from_checkpoint(&self.weights(), device, precision)?)
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
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("bundle {}: missing file {MANIFEST_FILE}", dir.display()))?;
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
        if !path.is_file() {
            bail!("bundle {}: missing file {file}", dir.display());
        }
        let found = sha256_file(&path)?;
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
