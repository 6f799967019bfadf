//! Checkpoints in and out of tch: a network's variables written as a checkpoint file, and a checkpoint file
//! loaded into a network. The file itself (safetensors with the metadata and checksum that travel with the
//! weights) is `zero-checkpoint`'s, which reads and verifies it without tch.
//!
//! Writes are atomic (temporary name, then rename). Loading checks, before any weight is copied: that the file
//! parses whole and its checksum matches (`zero_checkpoint::parse`), and that game, encoding, input shape and
//! action space are those of the game asked for; then every variable of the architecture must be present with
//! its shape. A checkpoint is loaded completely or not at all.

use crate::network::{NetShape, NetworkConfig, PolicyValueNet};
use std::collections::HashMap;
use std::path::Path;
use tch::{Device, Kind, Tensor, nn};
use zero_checkpoint::{
    CHECKPOINT_FORMAT, CheckpointError, CheckpointMeta, METADATA_KEY, ParsedTensors, RawTensor, parse, read_file,
    sealed_json, serialize_with_metadata, views,
};
use zero_games::Encoding;

/// A tensor's values as little-endian float32, copied to the CPU, ready for safetensors (the trainer's state
/// files use it too).
pub fn raw_tensor(t: &Tensor) -> RawTensor {
    let t = t.detach().to_device(Device::Cpu).to_kind(Kind::Float).contiguous();
    let values: Vec<f32> = Vec::try_from(t.flatten(0, -1)).expect("float tensor");
    RawTensor {
        shape: t.size().iter().map(|&d| d as usize).collect(),
        bytes: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// A loaded network with its metadata.
pub struct Checkpoint {
    pub meta: CheckpointMeta,
    pub vs: nn::VarStore,
    pub net: PolicyValueNet,
}

impl Checkpoint {
    /// Writes the variables of `vs` with `meta` (its checksum is computed here) to `path`, atomically.
    pub fn save(vs: &nn::VarStore, meta: &CheckpointMeta, path: &Path) -> Result<(), CheckpointError> {
        let mut named: Vec<(String, RawTensor)> = vs
            .variables()
            .into_iter()
            .map(|(name, t)| (name, raw_tensor(&t)))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let mut meta = meta.clone();
        meta.format = CHECKPOINT_FORMAT;
        meta.checksum.clear();
        let json = sealed_json(&meta, views(&named));
        let bytes = serialize_with_metadata(&named, METADATA_KEY, json).map_err(|e| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        zero_io::write_atomically(path, &bytes).map_err(|source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Loads a checkpoint of game `G` onto `device`, refusing any mismatch.
    pub fn load<G: Encoding>(path: &Path, device: Device) -> Result<Checkpoint, CheckpointError> {
        let (meta, tensors) = parse(path, &read_file(path)?)?;
        meta.check_game::<G>(path)?;
        let shape = NetShape::of::<G>();
        meta.network.validate_for(shape).map_err(|e| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        let vs = nn::VarStore::new(device);
        let net = PolicyValueNet::new(&vs.root(), &meta.network, shape);
        copy_into(&vs, &tensors, path)?;
        Ok(Checkpoint { meta, vs, net })
    }

    /// Loads the weights of `path` into an existing network (same architecture), refusing any mismatch.
    pub fn load_into<G: Encoding>(
        vs: &mut nn::VarStore,
        network: &NetworkConfig,
        path: &Path,
    ) -> Result<CheckpointMeta, CheckpointError> {
        let (meta, tensors) = parse(path, &read_file(path)?)?;
        meta.check_game::<G>(path)?;
        if &meta.network != network {
            return Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                what: "architecture".to_string(),
                expected: format!("{network:?}"),
                found: format!("{:?}", meta.network),
            });
        }
        copy_into(vs, &tensors, path)?;
        Ok(meta)
    }
}

fn copy_into(vs: &nn::VarStore, tensors: &ParsedTensors, path: &Path) -> Result<(), CheckpointError> {
    let mismatch = |what: String, expected: String, found: String| CheckpointError::Mismatch {
        path: path.to_path_buf(),
        what,
        expected,
        found,
    };
    let mut variables = vs.variables();
    // Everything is checked before anything is copied: a checkpoint is loaded whole or not at all.
    let by_name: HashMap<&str, &(String, Vec<usize>, Vec<f32>)> = tensors.iter().map(|t| (t.0.as_str(), t)).collect();
    for (name, var) in &variables {
        let Some((_, shape, _)) = by_name.get(name.as_str()) else {
            return Err(mismatch(
                format!("architecture (tensor {name})"),
                "present".into(),
                "missing".into(),
            ));
        };
        let want: Vec<usize> = var.size().iter().map(|&d| d as usize).collect();
        if &want != shape {
            return Err(mismatch(
                format!("shape of {name}"),
                format!("{want:?}"),
                format!("{shape:?}"),
            ));
        }
    }
    if let Some((extra, _, _)) = tensors.iter().find(|t| !variables.contains_key(&t.0)) {
        return Err(mismatch(
            format!("architecture (tensor {extra})"),
            "absent".into(),
            "present".into(),
        ));
    }
    let _no_grad = tch::no_grad_guard();
    for (name, var) in variables.iter_mut() {
        let (_, shape, values) = by_name[name.as_str()];
        let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        let source = Tensor::from_slice(values)
            .view(dims.as_slice())
            .to_device(var.device())
            .to_kind(var.kind());
        var.copy_(&source);
    }
    Ok(())
}
