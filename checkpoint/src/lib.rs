//! The checkpoint file of zero, with no tch: what a network is ([`NetworkConfig`], the architecture as configs
//! write it, and [`NetShape`], what a game asks of it) and the file its weights travel in (safetensors with
//! [`CheckpointMeta`] and a checksum in the header, read and verified whole by [`parse`]).
//!
//! - [`config`]: [`NetworkConfig`] and [`NetShape`].
//! - [`file`]: [`CheckpointMeta`], reading ([`read`], [`read_meta`]) and the pieces of writing
//!   ([`sealed_json`], [`serialize_with_metadata`]).
//!
//! `zero-model` builds and loads the network in tch from these; `zero-onnx` writes a checkpoint as an ONNX model
//! and runs it without libtorch.

pub mod config;
pub mod file;

pub use config::{NetShape, NetworkConfig, NetworkConfigError, PolicyHead};
pub use file::{
    CHECKPOINT_FORMAT, CheckpointError, CheckpointMeta, METADATA_KEY, ParsedTensors, RawTensor, checksum, covered_json,
    parse, read, read_file, read_meta, read_meta_of, sealed_json, serialize_with_metadata, views,
};
