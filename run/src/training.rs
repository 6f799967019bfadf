//! What training needs from a run's data: the replay window over a directory's shards (refused shards are
//! reported and left out) and the memory check of the data path. The run loop and `zero train` share them.

use crate::error::{Context, Result, bail};
use std::path::Path;
use zero_data::{FooterCache, ReplayIndex, ShardSet};
use zero_games::Encoding;
use zero_model::network::NetShape;
use zero_train::{TrainConfig, shard_spec};

/// The window over the readable shards of `dir`; each refused shard is reported on stderr and left out. Only
/// the shards `footers` has not seen are opened (a fresh cache opens them all).
pub fn open_window<G: Encoding>(
    dir: &Path,
    rules: &G::Rules,
    train: &TrainConfig,
    footers: &mut FooterCache,
) -> Result<ReplayIndex> {
    let set = ShardSet::scan(dir).with_context(|| format!("reading the data directory {}", dir.display()))?;
    let spec = shard_spec::<G>(rules);
    let (index, errors) = ReplayIndex::build_remembering(&set, &train.window_rule(), Some(&spec), footers);
    for e in &errors {
        tracing::warn!("skipping shard: {e}");
    }
    if index.slices().is_empty() {
        bail!(
            "{}: no shards to train on ({} complete shard(s) found, {} refused)",
            dir.display(),
            set.len(),
            errors.len()
        );
    }
    Ok(index)
}

/// Refuses a data path whose estimated memory exceeds `train.memory_cap_mib`.
pub fn check_memory<G: Encoding>(train: &TrainConfig) -> Result<u64> {
    let shape = NetShape::of::<G>();
    let bytes = train.data_memory_bytes((shape.planes * shape.squares()) as usize, G::ACTION_SPACE);
    let mib = bytes.div_ceil(1 << 20);
    if mib > train.memory_cap_mib as u64 {
        bail!(
            "the data path needs about {mib} MiB (shuffle buffer {} rows, {} prefetched batches of {}), over \
             train.memory_cap_mib = {}: lower train.shuffle_buffer or raise the cap",
            train.shuffle_buffer,
            train.prefetch_batches,
            train.batch_size,
            train.memory_cap_mib
        );
    }
    Ok(mib)
}
