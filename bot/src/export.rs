//! Writing a bot bundle (`zero export`): the checkpoint, its TorchScript trace and its ONNX model, each checked
//! against the network it came from, and the manifest with every file's SHA-256. The bundle is written into a
//! temporary sibling directory and renamed into place at the end, so a reader never sees half of one.

use crate::error::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use tch::{CModule, Device, Tensor, nn::ModuleT};
use zero_bundle::{
    FileDigest, LevelRating, MANIFEST_FILE, MANIFEST_VERSION, Manifest, ONNX_FILE, Provenance, REQUIRED_FILES,
    TORCHSCRIPT_FILE, TorchScriptInfo, WEIGHTS_FILE, sha256_file,
};
use zero_games::{Encoding, GameKind};
use zero_model::{Checkpoint, CheckpointMeta};

/// The largest difference between libtorch's outputs and the written ONNX model's that export accepts.
#[cfg(feature = "onnx")]
const ONNX_TOLERANCE: f32 = 1e-4;

/// What to write besides the checkpoint itself.
pub struct ExportOptions {
    pub search: zero_search::PlaySearch,
    pub elo: Option<f64>,
    /// The strength levels' measured Elo with this network.
    pub level_ratings: Vec<LevelRating>,
}

/// Writes a bundle of checkpoint `checkpoint` (a network of game `G`) to `out`, atomically. Refuses an existing `out`.
pub fn export<G: Encoding>(checkpoint: &Path, out: &Path, options: ExportOptions) -> Result<Manifest> {
    if out.exists() {
        bail!("{} already exists; remove it or choose another --out", out.display());
    }
    if !cfg!(feature = "onnx") {
        bail!("cannot check the bundle's ONNX model: {}", crate::NO_ONNX_RUNTIME);
    }
    let loaded = Checkpoint::load::<G>(checkpoint, Device::Cpu)?;
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    zero_io::create_dir_durably(parent).with_context(|| format!("creating {}", parent.display()))?;
    let name = out
        .file_name()
        .context("--out needs a directory name")?
        .to_string_lossy();
    sweep_abandoned(parent, &name);
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    zero_io::create_dir_durably(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let result = (|| {
        std::fs::copy(checkpoint, tmp.join(WEIGHTS_FILE))
            .with_context(|| format!("copying {}", checkpoint.display()))?;
        let meta = loaded.meta.clone();
        // Without tract the model could not be checked: export refused above.
        #[cfg(feature = "onnx")]
        write_onnx::<G>(&loaded, checkpoint, &tmp.join(ONNX_FILE))?;
        trace_torchscript(loaded, &tmp.join(TORCHSCRIPT_FILE))?;
        let mut files = BTreeMap::new();
        for file in REQUIRED_FILES.iter().chain([&ONNX_FILE]) {
            files.insert(file.to_string(), sha256_file(&tmp.join(file))?);
        }
        let kind = GameKind::of::<G>().context("an unregistered game")?;
        let manifest = manifest_for(kind, &meta, options, files);
        let json = serde_json::to_string_pretty(&manifest)? + "\n";
        std::fs::write(tmp.join(MANIFEST_FILE), json).context("writing the manifest")?;
        // Every file on the disk before the bundle's name is: a power cut leaves a whole bundle or none.
        for file in REQUIRED_FILES.iter().chain([&ONNX_FILE, &MANIFEST_FILE]) {
            let path = tmp.join(file);
            if path.exists() {
                std::fs::File::open(&path)
                    .and_then(|f| f.sync_all())
                    .with_context(|| format!("syncing {}", path.display()))?;
            }
        }
        zero_io::rename_durably(&tmp, out)
            .with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
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
        level_ratings: options.level_ratings,
    }
}

/// Removes what killed exports of a bundle named `name` left in `parent`: their temporary directories
/// (`.NAME.tmp-PID`) whose process is gone. One of a live export is left to it.
fn sweep_abandoned(parent: &Path, name: &str) {
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let alive = pid
            .parse::<u32>()
            .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes the network as ONNX; the written model is loaded back through tract and must give libtorch's outputs
/// on a few positions.
#[cfg(feature = "onnx")]
fn write_onnx<G: Encoding>(loaded: &Checkpoint, checkpoint: &Path, path: &Path) -> Result<()> {
    let bytes = zero_onnx::checkpoint_file_to_onnx(checkpoint).context("writing the ONNX model")?;
    let onnx = zero_onnx::OnnxEvaluator::<G>::from_bytes(&bytes, "export").context("loading the ONNX model back")?;
    let [planes, height, width] = loaded.meta.input_shape;
    tch::manual_seed(1);
    let check = Tensor::randn([3, planes, height, width], (tch::Kind::Float, Device::Cpu));
    let want = tch::no_grad(|| loaded.net.forward(&check, false));
    let input = Vec::<f32>::try_from(check.flatten(0, -1)).context("reading the check input")?;
    let got = onnx.forward(&input)?;
    for (head, want, got) in [("policy", &want.policy, &got.policy), ("wdl", &want.wdl, &got.wdl)] {
        let want = Vec::<f32>::try_from(want.flatten(0, -1)).context("reading libtorch's output")?;
        let diff = want.iter().zip(got).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        if diff.is_nan() || diff > ONNX_TOLERANCE || want.len() != got.len() {
            bail!("the ONNX model's {head} differs from the network by {diff}");
        }
    }
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
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
