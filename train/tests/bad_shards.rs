//! Bad shards are reported by name and training goes on with the good ones; no shard at all is a clear error.
mod common;

use std::fs::File;
use std::sync::Arc;

use common::*;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use tch::Device;
use zero_data::{HEADER_KEY, SCHEMA_VERSION_KEY};
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_train::{TrainError, Trainer};

/// Rewrites the positions file of `from` as `to` with schema version 99.
fn write_future_version(from: &std::path::Path, to: &std::path::Path, header: &zero_data::ShardHeader) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(from).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.map(Result::unwrap).collect();
    let properties = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![
            KeyValue::new(SCHEMA_VERSION_KEY.into(), "99".to_string()),
            KeyValue::new(HEADER_KEY.into(), serde_json::to_string(header).unwrap()),
        ]))
        .build();
    let mut writer = ArrowWriter::try_new(
        File::create(to).unwrap(),
        Arc::clone(&batches[0].schema()),
        Some(properties),
    )
    .unwrap();
    for b in &batches {
        writer.write(b).unwrap();
    }
    writer.close().unwrap();
}

fn cut_in_half(path: &std::path::Path) {
    let bytes = std::fs::read(path).unwrap();
    std::fs::write(path, &bytes[..bytes.len() / 2]).unwrap();
}

#[test]
fn corrupt_and_unknown_version_shards_are_reported_and_training_goes_on() {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    let spare = tempfile::tempdir().unwrap();
    write_playouts::<BaghChal>(data.path(), "good", &rules, 3, 30, 1);
    let corrupt = write_playouts::<BaghChal>(data.path(), "corrupt", &rules, 3, 30, 2);
    cut_in_half(&corrupt.positions_path);
    let source = write_playouts::<BaghChal>(spare.path(), "v1", &rules, 3, 30, 3);
    write_future_version(
        &source.positions_path,
        &data.path().join("future.parquet"),
        &header::<BaghChal>(&rules),
    );

    let config = quick_config();
    let (index, refused) = window::<BaghChal>(data.path(), &rules, &config);
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(
        refused
            .iter()
            .any(|m| m.contains("corrupt.positions.parquet") && m.contains("corrupt")),
        "{refused:?}"
    );
    assert!(
        refused
            .iter()
            .any(|m| m.contains("future.parquet") && m.contains("schema version 99")),
        "{refused:?}"
    );
    assert_eq!(index.slices().len(), 1);

    let mut trainer = Trainer::<BaghChal>::new(config, &tiny_network(), rules, Device::Cpu).unwrap();
    let mut steps = 0;
    trainer.train_steps(&index, 5, |_| steps += 1).unwrap();
    assert_eq!(steps, 5);
}

/// Trains 12 steps on two shards, "good" and "bad", with `damage` done to "bad" before the window is indexed
/// (`before_indexing`) or after; both shards must be indexed. Returns what training reported skipped.
fn skipped_while_training(before_indexing: bool, damage: fn(&std::path::Path)) -> Vec<String> {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    write_playouts::<BaghChal>(data.path(), "good", &rules, 3, 30, 1);
    let bad = write_playouts::<BaghChal>(data.path(), "bad", &rules, 3, 30, 2);
    if before_indexing {
        damage(&bad.positions_path);
    }
    let config = quick_config();
    let (index, refused) = window::<BaghChal>(data.path(), &rules, &config);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(index.slices().len(), 2);
    if !before_indexing {
        damage(&bad.positions_path);
    }
    let mut trainer = Trainer::<BaghChal>::new(config, &tiny_network(), rules, Device::Cpu).unwrap();
    let mut reports = Vec::new();
    trainer
        .train_steps(&index, 12, |m| reports.extend(m.skipped_shards.iter().cloned()))
        .unwrap();
    reports
}

#[test]
fn a_shard_that_breaks_while_training_is_reported_and_left_out() {
    let reports = skipped_while_training(false, cut_in_half);
    assert!(!reports.is_empty());
    assert!(
        reports.iter().all(|m| m.contains("bad.positions.parquet")),
        "{reports:?}"
    );
}

/// Flips one byte in the middle of the row groups the shard's digest covers.
fn flip_a_data_byte(path: &std::path::Path) {
    let recorded = zero_data::ShardFile::open(path)
        .unwrap()
        .metadata_value(zero_data::DATA_SHA256_KEY)
        .unwrap()
        .to_string();
    let covered: usize = recorded.split_once(':').unwrap().0.parse().unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    bytes[covered / 2] ^= 0x10;
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn a_shard_whose_data_fails_its_digest_is_indexed_then_skipped_at_its_first_read() {
    // Indexing reads footers only, so the damage is not seen there (nor paid for by hashing every file), but
    // it is before any of the shard's rows reaches training.
    let reports = skipped_while_training(true, flip_a_data_byte);
    assert!(!reports.is_empty());
    assert!(
        reports
            .iter()
            .all(|m| m.contains("bad.positions.parquet") && m.contains("digest")),
        "{reports:?}"
    );
}

#[test]
fn no_shards_at_all_is_a_clear_error() {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    let config = quick_config();
    let (index, _) = window::<BaghChal>(data.path(), &rules, &config);
    let mut trainer = Trainer::<BaghChal>::new(config, &tiny_network(), rules, Device::Cpu).unwrap();
    let err = trainer.train_steps(&index, 1, |_| {}).unwrap_err();
    assert!(matches!(err, TrainError::NoData(_)));
    assert!(err.to_string().contains("no readable shards"), "{err}");
}
