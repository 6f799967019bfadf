//! The checkpoint file: the network's weights as a safetensors file whose header carries the metadata that must
//! travel with them (under the key `zero`, as JSON): game, rules, encoding version, input shape, action space,
//! architecture, training step, generation, parent run, and a checksum of every tensor's bytes and (from format
//! 2 on) of the metadata itself, so that an edited field is caught like a flipped weight. Format 1 files, whose
//! checksum covers the tensors only, still load.
//!
//! Reading checks that the file parses whole (a truncated file does not), that the checksum matches (a corrupted
//! one does not) and that every tensor is float32; [`CheckpointMeta::check_game`] checks game, encoding, input
//! shape and action space against the code. `zero-model` loads the weights into a network; `zero-onnx` writes
//! them as an ONNX model.

use crate::config::{NetShape, NetworkConfig};
use safetensors::tensor::{Dtype, SafeTensors, View};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use zero_games::{Encoding, GameKind, UnknownGame, with_game};

/// Version of the checkpoint layout itself: 2 puts the metadata under the checksum; 1 (tensors only) still loads.
pub const CHECKPOINT_FORMAT: u32 = 2;
pub const METADATA_KEY: &str = "zero";

/// What travels with the weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointMeta {
    pub format: u32,
    pub game: String,
    /// The rule set, complete, as `key=value` options.
    pub rules: Vec<String>,
    pub encoding_version: u32,
    /// Planes, height, width of the input.
    pub input_shape: [i64; 3],
    pub action_space: i64,
    pub network: NetworkConfig,
    /// Optimizer steps taken to reach these weights.
    pub step: u64,
    /// Generation of the training run that made it (0 for a fresh network).
    pub generation: u32,
    /// The run directory's name, when made by `zero run`.
    pub parent_run: Option<String>,
    /// Checksum of the tensors (names, shapes and bytes), hex; filled in when the file is written.
    #[serde(default)]
    pub checksum: String,
}

impl CheckpointMeta {
    /// Metadata for a fresh network of game `G` under `rules`.
    pub fn new<G: Encoding>(rules: &G::Rules, network: &NetworkConfig) -> Self {
        let shape = NetShape::of::<G>();
        CheckpointMeta {
            format: CHECKPOINT_FORMAT,
            game: G::NAME.to_string(),
            rules: G::describe_rules(rules),
            encoding_version: G::ENCODING_VERSION,
            input_shape: [shape.planes, shape.height, shape.width],
            action_space: shape.actions,
            network: network.clone(),
            step: 0,
            generation: 0,
            parent_run: None,
            checksum: String::new(),
        }
    }

    /// Errs, naming the first difference, unless this checkpoint fits game `G` as the current code encodes it.
    pub fn check_game<G: Encoding>(&self, path: &Path) -> Result<(), CheckpointError> {
        let shape = NetShape::of::<G>();
        let mismatch = |what: &str, expected: String, found: String| {
            Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                what: what.to_string(),
                expected,
                found,
            })
        };
        if self.game != G::NAME {
            return mismatch("game", G::NAME.to_string(), self.game.clone());
        }
        if self.encoding_version != G::ENCODING_VERSION {
            return mismatch(
                "encoding version",
                G::ENCODING_VERSION.to_string(),
                self.encoding_version.to_string(),
            );
        }
        let want = [shape.planes, shape.height, shape.width];
        if self.input_shape != want {
            return mismatch("input shape", format!("{want:?}"), format!("{:?}", self.input_shape));
        }
        if self.action_space != shape.actions {
            return mismatch("action space", shape.actions.to_string(), self.action_space.to_string());
        }
        Ok(())
    }

    /// The input and action shape of its game as this build encodes it, once [`CheckpointMeta::check_game`] has
    /// found that they are the ones it was made for; a game this build does not know is refused.
    pub fn shape(&self, path: &Path) -> Result<NetShape, CheckpointError> {
        let kind: GameKind = self.game.parse().map_err(|e: UnknownGame| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        with_game!(kind, G => {
            self.check_game::<G>(path)?;
            Ok(NetShape::of::<G>())
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("checkpoint {path} is corrupt or truncated: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("checkpoint {path} does not match: {what} is {found}, expected {expected}")]
    Mismatch {
        path: PathBuf,
        what: String,
        expected: String,
        found: String,
    },
}

/// Reads and verifies a checkpoint's metadata (the whole file is still checked for truncation and checksum).
pub fn read_meta(path: &Path) -> Result<CheckpointMeta, CheckpointError> {
    let bytes = read_file(path)?;
    read_meta_of(path, &bytes)
}

/// [`read_meta`] of a file's bytes already in memory; `path` only names it in errors.
pub fn read_meta_of(path: &Path, bytes: &[u8]) -> Result<CheckpointMeta, CheckpointError> {
    let (meta, _) = parse(path, bytes)?;
    Ok(meta)
}

/// Reads and verifies a whole checkpoint: its metadata and its tensors.
pub fn read(path: &Path) -> Result<(CheckpointMeta, ParsedTensors), CheckpointError> {
    let bytes = read_file(path)?;
    parse(path, &bytes)
}

/// A checkpoint file's bytes.
pub fn read_file(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    zero_io::read_bounded(path, zero_io::FileKind::Network).map_err(|e| match e {
        zero_io::OpenError::Io { error, .. } => CheckpointError::Io {
            path: path.to_path_buf(),
            source: error,
        },
        refused => CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: refused.to_string(),
        },
    })
}

/// One tensor's float32 bytes, ready for safetensors (the trainer's state files use it too).
pub struct RawTensor {
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
}

/// A safetensors file of `named` tensors whose header carries `json` under `key`.
pub fn serialize_with_metadata(
    named: &[(String, RawTensor)],
    key: &str,
    json: String,
) -> Result<Vec<u8>, safetensors::SafeTensorError> {
    let info = HashMap::from([(key.to_string(), json)]);
    safetensors::serialize(named.iter().map(|(n, t)| (n.as_str(), t)), Some(info))
}

impl View for &RawTensor {
    fn dtype(&self) -> Dtype {
        Dtype::F32
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// Named tensors as [`checksum`] reads them: name, shape, bytes.
pub fn views(named: &[(String, RawTensor)]) -> impl Iterator<Item = (&str, &[usize], &[u8])> {
    named
        .iter()
        .map(|(n, t)| (n.as_str(), t.shape.as_slice(), t.bytes.as_slice()))
}

/// `"checksum":"SUM"`, as serde writes the field.
fn checksum_field(sum: &str) -> String {
    format!("\"checksum\":\"{sum}\"")
}

/// `json` with the last `"checksum":"FROM"` made `"checksum":"TO"`; `None` when it has none.
fn with_checksum(json: &str, from: &str, to: &str) -> Option<String> {
    let field = checksum_field(from);
    let at = json.rfind(&field)?;
    Some(format!(
        "{}{}{}",
        &json[..at],
        checksum_field(to),
        &json[at + field.len()..]
    ))
}

/// Metadata with a blank `checksum` field written as JSON, with the checksum of that very text and of `tensors`
/// filled in: what a file's header carries. The checksum covers the text as written, not a re-serialization of
/// what it parses to (float fields need not come back to the same text).
pub fn sealed_json<'a, T: Serialize>(
    meta: &T,
    tensors: impl Iterator<Item = (&'a str, &'a [usize], &'a [u8])>,
) -> String {
    let blank = serde_json::to_string(meta).expect("metadata serializes");
    let sum = checksum(Some(&blank), tensors);
    with_checksum(&blank, "", &sum).expect("the metadata has a blank checksum field")
}

/// What the checksum `sum` recorded in a sealed `json` covers (the text with that field blanked), if it is there.
pub fn covered_json(json: &str, sum: &str) -> Option<String> {
    with_checksum(json, sum, "")
}

/// Order-sensitive 64-bit checksum of the covered metadata (format 2; `None` for format 1) and of the tensors'
/// names, shapes and bytes (cheap; detects corruption, not tampering). The trainer's state files use it too.
pub fn checksum<'a>(metadata: Option<&str>, tensors: impl Iterator<Item = (&'a str, &'a [usize], &'a [u8])>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(29);
    if let Some(metadata) = metadata {
        metadata.bytes().for_each(|b| mix(b as u64));
        mix(metadata.len() as u64 ^ 0x5A5A);
    }
    for (name, shape, bytes) in tensors {
        name.bytes().for_each(|b| mix(b as u64));
        shape.iter().for_each(|&d| mix(d as u64 ^ 0xA5A5));
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            mix(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        chunks.remainder().iter().for_each(|&b| mix(b as u64));
    }
    format!("{h:016x}")
}

/// A checkpoint's tensors as read: name, shape and float32 values, sorted by name.
pub type ParsedTensors = Vec<(String, Vec<usize>, Vec<f32>)>;

/// Parses and verifies a checkpoint file's bytes (`path` only names it in errors): the whole file, its format,
/// its checksum; the tensors must all be float32.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<(CheckpointMeta, ParsedTensors), CheckpointError> {
    let corrupt = |reason: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(|e| corrupt(format!("{e:?}")))?;
    let file = SafeTensors::deserialize(bytes).map_err(|e| corrupt(format!("{e:?}")))?;
    let json = metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get(METADATA_KEY))
        .ok_or_else(|| corrupt("no zero metadata in the header (not a zero checkpoint)".to_string()))?;
    let meta: CheckpointMeta = serde_json::from_str(json).map_err(|e| corrupt(format!("metadata: {e}")))?;
    let covered = match meta.format {
        1 => None,
        CHECKPOINT_FORMAT => Some(
            covered_json(json, &meta.checksum)
                .ok_or_else(|| corrupt("the metadata does not carry its checksum".to_string()))?,
        ),
        other => {
            return Err(corrupt(format!(
                "checkpoint format {other} is not one this version reads (1 to {CHECKPOINT_FORMAT})"
            )));
        }
    };
    let mut views: Vec<(String, _)> = file.tensors();
    views.sort_by(|a, b| a.0.cmp(&b.0));
    let sum = checksum(
        covered.as_deref(),
        views.iter().map(|(n, v)| (n.as_str(), v.shape(), v.data())),
    );
    if sum != meta.checksum {
        return Err(corrupt(format!(
            "checksum {sum} does not match the recorded {}",
            meta.checksum
        )));
    }
    let mut tensors = Vec::with_capacity(views.len());
    for (name, view) in views {
        if view.dtype() != Dtype::F32 {
            return Err(corrupt(format!("tensor {name} is {:?}, not F32", view.dtype())));
        }
        let values = view
            .data()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        tensors.push((name, view.shape().to_vec(), values));
    }
    Ok((meta, tensors))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensors() -> Vec<(String, RawTensor)> {
        let bytes = [0.5f32, -1.0, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        vec![("w".to_string(), RawTensor { shape: vec![3], bytes })]
    }

    fn meta() -> CheckpointMeta {
        use zero_games::Game;
        let rules = zero_games::baghchal::BaghChal::parse_rules(None, &[]).unwrap();
        CheckpointMeta::new::<zero_games::baghchal::BaghChal>(&rules, &NetworkConfig::default())
    }

    fn file(json: String) -> Vec<u8> {
        serialize_with_metadata(&tensors(), METADATA_KEY, json).unwrap()
    }

    fn sealed(meta: &CheckpointMeta) -> String {
        sealed_json(meta, views(&tensors()))
    }

    fn sum(metadata: Option<&str>) -> String {
        checksum(metadata, views(&tensors()))
    }

    #[test]
    fn an_edited_metadata_field_fails_the_checksum() {
        let json = sealed(&meta());
        let path = Path::new("net.safetensors");
        let read = read_meta_of(path, &file(json.clone())).unwrap();
        assert_eq!(read.network, meta().network);
        let edited = json.replacen("\"value_hidden\":", "\"value_hidden\":9", 1);
        assert_ne!(edited, json);
        let err = read_meta_of(path, &file(edited)).unwrap_err();
        assert!(
            err.to_string().contains("checksum") && err.to_string().contains("net.safetensors"),
            "{err}"
        );
    }

    #[test]
    fn a_format_1_file_checked_on_its_tensors_alone_still_loads_and_an_unknown_format_is_refused() {
        let mut old = meta();
        old.format = 1;
        old.checksum = sum(None);
        let path = Path::new("old.safetensors");
        let json = serde_json::to_string(&old).unwrap();
        assert_eq!(read_meta_of(path, &file(json)).unwrap(), old);
        let mut future = meta();
        future.format = CHECKPOINT_FORMAT + 1;
        let err = read_meta_of(path, &file(sealed(&future))).unwrap_err();
        assert!(err.to_string().contains("format 3"), "{err}");
    }
}
