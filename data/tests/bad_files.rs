//! Damaged, foreign, incomplete and incompatible files are reported with their path, never loaded, never fatal.

mod common;

use std::fs::{self, File};
use std::sync::Arc;

use common::{small_header, write_shard};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use zero_data::{
    DataError, HEADER_KEY, SCHEMA_VERSION_KEY, ShardSet, ShardSpec, clean_incomplete, read_games, read_shard,
};

fn cut_in_half(path: &std::path::Path) {
    let len = fs::metadata(path).unwrap().len();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
}

#[test]
fn a_truncated_shard_is_reported_as_corrupt_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let summary = write_shard(dir.path(), "cut", 0, &[30, 12], 0);
    cut_in_half(&summary.positions_path);
    cut_in_half(&summary.games_path);
    for err in [
        read_shard(&summary.positions_path).unwrap_err(),
        read_games(&summary.games_path).unwrap_err(),
    ] {
        assert!(matches!(err, DataError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains("cut."), "{err}");
        assert!(err.to_string().contains("corrupt or truncated"), "{err}");
    }
    // Even an empty file is an error, not a panic.
    File::create(&summary.positions_path).unwrap();
    assert!(matches!(
        read_shard(&summary.positions_path),
        Err(DataError::Corrupt { .. })
    ));
}

#[test]
fn a_scan_yields_the_good_shard_and_reports_the_cut_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = write_shard(dir.path(), "good", 0, &[10, 3], 20);
    let bad = write_shard(dir.path(), "bad", 2, &[25], 10);
    cut_in_half(&bad.positions_path);
    let set = ShardSet::scan(dir.path()).unwrap();
    assert_eq!(set.len(), 2);
    let results: Vec<_> = set.read_each(None).collect();
    // Newest first: "bad" was dated 10 s ago, "good" 20 s ago.
    let err = results[0].as_ref().unwrap_err();
    assert_eq!(err.path(), bad.positions_path);
    assert!(err.to_string().contains("bad.positions.parquet"), "{err}");
    let (_, positions) = results[1].as_ref().unwrap();
    assert_eq!(positions.len(), 13);
    assert_eq!(good.positions, 13);
}

#[test]
fn an_unknown_schema_version_is_refused_naming_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    let summary = write_shard(dir.path(), "v1", 0, &[4], 0);
    // Rewrite the same rows with a future version number in the file metadata.
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&summary.positions_path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.map(Result::unwrap).collect();
    let header = serde_json::to_string(&small_header()).unwrap();
    let properties = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![
            KeyValue::new(SCHEMA_VERSION_KEY.into(), "99".to_string()),
            KeyValue::new(HEADER_KEY.into(), header),
        ]))
        .build();
    let future = dir.path().join("v99.parquet");
    let mut writer = ArrowWriter::try_new(
        File::create(&future).unwrap(),
        Arc::clone(&batches[0].schema()),
        Some(properties),
    )
    .unwrap();
    for b in &batches {
        writer.write(b).unwrap();
    }
    writer.close().unwrap();

    let err = read_shard(&future).unwrap_err();
    assert!(matches!(err, DataError::UnsupportedVersion { .. }), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("99") && message.contains("version 1") && message.contains("v99.parquet"),
        "{message}"
    );
}

#[test]
fn a_fifo_or_a_device_where_a_shard_should_be_is_refused_at_once() {
    // A FIFO would make the reader wait for a writer that never comes (issue 103's audit of special files).
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("g0001-x.positions.parquet");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for path in [fifo.as_path(), std::path::Path::new("/dev/zero")] {
        let err = read_shard(path).unwrap_err();
        assert!(
            matches!(&err, DataError::NotAShard { reason, .. } if reason.contains("not a regular file")),
            "{err}"
        );
    }
}

#[test]
fn a_parquet_file_without_zero_metadata_is_not_a_shard() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("foreign.parquet");
    let batch = arrow_array::RecordBatch::try_from_iter([(
        "x",
        Arc::new(arrow_array::UInt32Array::from(vec![1, 2])) as arrow_array::ArrayRef,
    )])
    .unwrap();
    let mut writer = ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let err = read_shard(&path).unwrap_err();
    assert!(matches!(err, DataError::NotAShard { .. }), "{err}");
}

#[test]
fn an_incompatible_shard_is_refused_with_the_differences() {
    let dir = tempfile::tempdir().unwrap();
    write_shard(dir.path(), "s", 0, &[3], 0);
    let mut spec = ShardSpec::of(&small_header());
    spec.game = "tours".into();
    spec.input_shape = [3, 8, 8];
    let set = ShardSet::scan(dir.path()).unwrap();
    let err = set.read_each(Some(&spec)).next().unwrap().unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, DataError::Incompatible { .. }), "{message}");
    assert!(
        message.contains("\"bashni\"") && message.contains("\"tours\"") && message.contains("[3, 8, 8]"),
        "{message}"
    );
    assert!(
        set.read_each(Some(&ShardSpec::of(&small_header())))
            .next()
            .unwrap()
            .is_ok()
    );
}

#[test]
fn temporaries_and_orphans_are_cleaned_and_never_listed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = write_shard(d, "kept", 0, &[3], 0);
    // A worker killed after its games file was renamed but before its positions file was.
    let orphan = write_shard(d, "orphan", 1, &[3], 0);
    fs::remove_file(&orphan.positions_path).unwrap();
    // Workers killed mid-write.
    let temporaries = [
        d.join("x.parquet.zero-tmp-123-0"),
        d.join("x.games.parquet.zero-tmp-123-1"),
    ];
    for t in &temporaries {
        fs::write(t, b"half a file").unwrap();
    }
    fs::write(d.join("notes.txt"), b"not data").unwrap();
    // What live writers have in hand is left alone: a locked temporary, and a games file renamed a moment ago
    // whose positions file is on its way (its writer holds its lock until then).
    let live = d.join("y.parquet.zero-tmp-456-0");
    let writer = File::create(&live).unwrap();
    writer.lock().unwrap();
    let fresh = write_shard(d, "fresh", 2, &[3], 0);
    fs::remove_file(&fresh.positions_path).unwrap();
    let fresh_writer = File::open(&fresh.games_path).unwrap();
    fresh_writer.lock().unwrap();
    // A games file without positions of a shard that another host writes: its lock would not show here.
    let remote = write_shard(d, "elsewhere", 2, &[3], 0);
    fs::remove_file(&remote.positions_path).unwrap();
    let elsewhere = |name: &str| name.starts_with("elsewhere");

    let names: Vec<_> = ShardSet::scan(d)
        .unwrap()
        .shards()
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["kept"]);
    let mut expected = vec![
        orphan.games_path.clone(),
        temporaries[0].clone(),
        temporaries[1].clone(),
    ];
    expected.sort();
    assert_eq!(clean_incomplete(d, elsewhere).unwrap(), expected);
    assert!(kept.positions_path.exists() && kept.games_path.exists() && d.join("notes.txt").exists());
    assert!(live.exists() && fresh.games_path.exists());
    assert_eq!(
        clean_incomplete(d, elsewhere).unwrap(),
        Vec::<std::path::PathBuf>::new()
    );
    // Once their writers are gone, the temporary goes too, and so does the games file left without positions.
    drop(writer);
    drop(fresh_writer);
    let mut expected = vec![live, fresh.games_path.clone()];
    expected.sort();
    assert_eq!(clean_incomplete(d, elsewhere).unwrap(), expected);
    assert!(remote.games_path.exists(), "left to its own host");
}

#[test]
fn a_header_made_from_a_spec_satisfies_it() {
    let spec = ShardSpec::of(&small_header());
    let header = spec.clone().header("run-x", 7, "gen-0007");
    assert_eq!(
        (header.run.as_str(), header.generation, header.model_id.as_str()),
        ("run-x", 7, "gen-0007")
    );
    assert_eq!(ShardSpec::of(&header), spec);
}

/// `samples` samples from the shards of `dir` (every footer intact), through the trainer's stream.
fn draw_from(dir: &std::path::Path, samples: usize) -> zero_data::Drawn {
    let set = ShardSet::scan(dir).unwrap();
    let rule = zero_data::WindowRule::Fixed { positions: 1000 };
    let (index, errors) = zero_data::ReplayIndex::build(&set, &rule, None);
    assert!(errors.is_empty(), "the footers are intact: {errors:?}");
    let config = zero_data::ReplayConfig {
        window: rule,
        samples_per_position: 1.0,
        shuffle_buffer: 8,
        seed: 3,
    };
    zero_data::SampleStream::new(&index, &config).draw(samples).unwrap()
}

/// Rewrites a positions file as `rewrite` turns each of its batches, keeping its zero metadata but its digest: a
/// shard edited outside zero, which zero's own writer refuses to produce, by a tool that writes no digest (one
/// that kept the old digest is refused for it: `a_byte_changed_anywhere_...`).
fn rewrite_batches(path: &std::path::Path, rewrite: impl Fn(&arrow_array::RecordBatch) -> arrow_array::RecordBatch) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let metadata: Vec<KeyValue> = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap()
        .iter()
        .filter(|kv| kv.key != "ARROW:schema" && kv.key != zero_data::DATA_SHA256_KEY)
        .cloned()
        .collect();
    let batches: Vec<arrow_array::RecordBatch> = builder.build().unwrap().map(|b| rewrite(&b.unwrap())).collect();
    let properties = WriterProperties::builder()
        .set_key_value_metadata(Some(metadata))
        .build();
    let mut writer = ArrowWriter::try_new(File::create(path).unwrap(), batches[0].schema(), Some(properties)).unwrap();
    for batch in batches {
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
}

/// Rewrites a positions file with column `name` changed by `edit` (`rewrite_batches`).
fn edit_column(path: &std::path::Path, name: &str, edit: impl Fn(&dyn arrow_array::Array) -> arrow_array::ArrayRef) {
    rewrite_batches(path, |batch| {
        let index = batch.schema().index_of(name).unwrap();
        let mut columns = batch.columns().to_vec();
        columns[index] = edit(columns[index].as_ref());
        arrow_array::RecordBatch::try_new(batch.schema(), columns).unwrap()
    });
}

/// Rewrites a positions file without column `name`, as a writer from before that column would have written it
/// (no digest, like `edit_column`).
fn drop_column(path: &std::path::Path, name: &str) {
    rewrite_batches(path, |batch| {
        let index = batch.schema().index_of(name).unwrap();
        let kept: Vec<usize> = (0..batch.num_columns()).filter(|&i| i != index).collect();
        batch.project(&kept).unwrap()
    });
}

#[test]
fn a_shard_from_before_the_score_column_reads_zero_there() {
    let dir = tempfile::tempdir().unwrap();
    let old = write_shard(dir.path(), "old", 0, &[12, 9], 0);
    let (_, written) = read_shard(&old.positions_path).unwrap();
    assert!(written.iter().any(|r| r.score != 0.0));
    drop_column(&old.positions_path, "score");
    let (_, records) = read_shard(&old.positions_path).unwrap();
    assert_eq!(records.len(), 21);
    assert!(records.iter().all(|r| r.score == 0.0));
    let drawn = draw_from(dir.path(), 21);
    assert!(drawn.skipped.is_empty(), "{:?}", drawn.skipped);
    assert!(drawn.samples.iter().all(|s| s.score == 0.0));
}

#[test]
fn a_shard_from_before_the_short_value_column_reads_its_result_there() {
    let dir = tempfile::tempdir().unwrap();
    let old = write_shard(dir.path(), "old", 0, &[12, 9], 0);
    drop_column(&old.positions_path, "short_value");
    let (_, records) = read_shard(&old.positions_path).unwrap();
    assert_eq!(records.len(), 21);
    assert!(records.iter().all(|r| r.short_value == r.result));
    assert!(records.iter().any(|r| r.result != 0.0));

    let drawn = draw_from(dir.path(), 21);
    assert!(drawn.skipped.is_empty(), "{:?}", drawn.skipped);
    assert!(drawn.samples.iter().all(|s| s.short_value == s.result));

    // A generation finished by a newer zero merges its older shards with the newer ones, without the column.
    let new = write_shard(dir.path(), "new", 2, &[7], 0);
    let (_, new_records) = read_shard(&new.positions_path).unwrap();
    assert!(new_records.iter().any(|r| r.short_value != r.result));
    let sources = ["old".to_string(), "new".to_string()];
    let merged = zero_data::merge_shards(dir.path(), "both-merged", &sources).unwrap();
    let (_, records) = read_shard(&merged.positions_path).unwrap();
    assert_eq!(records.len(), 28);
    assert!(records.iter().all(|r| r.short_value == r.result));
    assert!(!old.positions_path.exists() && !new.positions_path.exists());
}

/// A change to one column of a file.
type ColumnEdit = Box<dyn Fn(&dyn arrow_array::Array) -> arrow_array::ArrayRef>;

/// A float column with row `row` set to `value`.
fn float_at(row: usize, value: f32) -> impl Fn(&dyn arrow_array::Array) -> arrow_array::ArrayRef {
    move |column| {
        let mut values = column
            .as_any()
            .downcast_ref::<arrow_array::Float32Array>()
            .unwrap()
            .values()
            .to_vec();
        values[row] = value;
        Arc::new(arrow_array::Float32Array::from(values))
    }
}

/// A list column of `T` with its first child value set to `value`.
fn first_child<T: arrow_array::ArrowPrimitiveType>(
    value: T::Native,
) -> impl Fn(&dyn arrow_array::Array) -> arrow_array::ArrayRef {
    move |column| {
        let list = column.as_any().downcast_ref::<arrow_array::ListArray>().unwrap();
        let children = list.values().as_any().downcast_ref::<arrow_array::PrimitiveArray<T>>();
        let mut values = children.unwrap().values().to_vec();
        values[0] = value;
        let (field, offsets, _, nulls) = list.clone().into_parts();
        let children = arrow_array::PrimitiveArray::<T>::from_iter_values(values);
        Arc::new(arrow_array::ListArray::new(field, offsets, Arc::new(children), nulls))
    }
}

#[test]
fn a_shard_with_values_the_trainer_cannot_use_is_refused_naming_the_file_row_and_value() {
    let cases: [(&str, ColumnEdit, &str); 6] = [
        (
            "result",
            Box::new(float_at(3, f32::NAN)),
            "row 3: result NaN is not a number in [-1, 1]",
        ),
        (
            "result",
            Box::new(float_at(5, 5.0)),
            "row 5: result 5 is not a number in [-1, 1]",
        ),
        (
            "root_value",
            Box::new(float_at(0, f32::INFINITY)),
            "row 0: root value inf",
        ),
        (
            "short_value",
            Box::new(float_at(1, 2.0)),
            "row 1: short value 2 is not a number in [-1, 1]",
        ),
        (
            "score",
            Box::new(float_at(2, -3.0)),
            "row 2: score -3 is not a number in [-1, 1]",
        ),
        (
            "legal_actions",
            Box::new(first_child::<arrow_array::types::UInt16Type>(u16::MAX)),
            "row 0: action 65535 outside the action space",
        ),
    ];
    for (column, edit, reason) in cases {
        let dir = tempfile::tempdir().unwrap();
        let good = write_shard(dir.path(), "good", 0, &[12], 20);
        let bad = write_shard(dir.path(), "bad", 1, &[12], 10);
        edit_column(&bad.positions_path, column, edit);
        let err = read_shard(&bad.positions_path).unwrap_err();
        assert!(matches!(err, DataError::BadRow { .. }), "{err}");
        let message = err.to_string();
        assert!(
            message.contains("bad.positions.parquet") && message.contains(reason),
            "{message}"
        );

        // The trainer's stream reports the shard once and goes on with the good one.
        let drawn = draw_from(dir.path(), 40);
        assert_eq!(drawn.skipped.len(), 1, "{:?}", drawn.skipped);
        assert!(drawn.skipped[0].to_string().contains(reason), "{}", drawn.skipped[0]);
        assert_eq!(drawn.skipped[0].path(), bad.positions_path);
        assert!(
            drawn
                .samples
                .iter()
                .all(|s| s.result.is_finite() && s.root_value.is_finite())
        );
        assert_eq!(good.positions, 12);
    }
}

#[test]
fn policy_probabilities_that_are_not_a_distribution_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write_shard(dir.path(), "probs", 0, &[12], 0);
    // Row 0 of the common shard searched fully (its policy lists are not empty).
    edit_column(
        &bad.positions_path,
        "policy_probs",
        first_child::<arrow_array::types::Float32Type>(f32::NAN),
    );
    let message = read_shard(&bad.positions_path).unwrap_err().to_string();
    assert!(message.contains("policy probability NaN"), "{message}");
}

#[test]
fn files_the_parquet_reader_panics_or_would_panic_on_are_reported_as_corrupt_with_their_path() {
    // Found by fuzzing (fuzz/regressions/shard): a column chunk at a negative offset in the footer, which the
    // reader's own range check would panic on, and a data page that claims a dictionary the file does not have,
    // which panics inside the Parquet crate's decoder.
    let found = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/shard");
    for (name, reason) in [
        ("negative-column-offset.parquet", "outside the file"),
        (
            "data-page-without-dictionary.parquet",
            "the Parquet reader failed on it",
        ),
    ] {
        let path = found.join(name);
        let err = zero_data::read_shard(&path).unwrap_err();
        assert!(matches!(err, DataError::Corrupt { .. }), "{name}: {err}");
        let text = err.to_string();
        assert!(text.contains(name) && text.contains(reason), "{text}");
    }
}

#[test]
fn a_byte_changed_anywhere_in_a_shards_data_is_caught_by_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    let shard = write_shard(dir.path(), "s", 0, &[3, 4], 0);
    let clean = fs::read(&shard.positions_path).unwrap();
    assert!(zero_data::read_shard(&shard.positions_path).is_ok());
    // The row groups the digest covers: its byte count is recorded beside it.
    let file = zero_data::ShardFile::open(&shard.positions_path).unwrap();
    let recorded = file.metadata_value(zero_data::DATA_SHA256_KEY).unwrap();
    let data_end: usize = recorded.split_once(':').unwrap().0.parse().unwrap();
    assert!(data_end > 100 && data_end < clean.len());
    for at in [4, data_end / 2, data_end - 1] {
        let mut damaged = clean.clone();
        damaged[at] ^= 0x01;
        fs::write(&shard.positions_path, &damaged).unwrap();
        let err = zero_data::read_shard(&shard.positions_path).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("s.parquet") && text.contains("digest"),
            "byte {at} of {data_end}: {text}"
        );
    }
}

/// A list of `lists` lists of 2^31 - 1 booleans each, in Thrift's compact protocol, as field 20 of a struct: the
/// Parquet crate (60.1) skips each boolean of an unknown field without reading a byte, so it would spend
/// `lists` x 2^31 steps on these few bytes (found by fuzzing a page header; the footer's decoder skips alike).
fn lists_of_booleans(lists: u32) -> Vec<u8> {
    let mut bytes = vec![0x09, 40, 0xf9];
    let varint = |out: &mut Vec<u8>, mut n: u64| {
        while n >= 0x80 {
            out.push(n as u8 | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
    };
    varint(&mut bytes, u64::from(lists));
    for _ in 0..lists {
        bytes.push(0xf1);
        varint(&mut bytes, (1 << 31) - 1);
    }
    bytes
}

#[test]
fn a_footer_that_would_keep_the_parquet_reader_busy_for_hours_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let shard = write_shard(dir.path(), "s", 0, &[3, 4], 0);
    let clean = fs::read(&shard.positions_path).unwrap();
    let footer_length = u32::from_le_bytes(clean[clean.len() - 8..clean.len() - 4].try_into().unwrap()) as usize;
    let footer_start = clean.len() - 8 - footer_length;
    // The footer's last byte ends FileMetaData; an unknown field goes in before it.
    let mut footer = clean[footer_start..clean.len() - 9].to_vec();
    footer.extend(lists_of_booleans(1000));
    footer.push(0);
    let mut hostile = clean[..footer_start].to_vec();
    hostile.extend(&footer);
    hostile.extend((footer.len() as u32).to_le_bytes());
    hostile.extend(b"PAR1");
    fs::write(&shard.positions_path, &hostile).unwrap();
    let started = std::time::Instant::now();
    let err = zero_data::ShardFile::open(&shard.positions_path).err().unwrap();
    let text = err.to_string();
    assert!(matches!(err, DataError::Corrupt { .. }), "{text}");
    assert!(
        text.contains("s.parquet") && text.contains("2147483647 booleans"),
        "{text}"
    );
    // Not a timing test: without the walk this does not end within the suite.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

#[test]
fn a_page_header_that_would_keep_the_parquet_reader_busy_is_refused_before_any_page_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let shard = write_shard(dir.path(), "s", 0, &[3, 4], 0);
    // A digest-less file (as written before digests, or by a tool that writes none): no checksum stands in the
    // way, and a digest is no defence anyway, since a file made to hurt can carry a matching one.
    edit_column(&shard.positions_path, "ply", |column| {
        arrow_array::make_array(column.to_data())
    });
    let mut bytes = fs::read(&shard.positions_path).unwrap();
    // The first page header starts right after the leading magic: its first bytes become a field holding one
    // list of 2^31 - 1 booleans.
    let attack = lists_of_booleans(1);
    bytes[4..4 + attack.len()].copy_from_slice(&attack);
    fs::write(&shard.positions_path, &bytes).unwrap();
    let err = zero_data::read_shard(&shard.positions_path).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, DataError::Corrupt { .. }), "{text}");
    assert!(
        text.contains("s.parquet")
            && text.contains("row group 0, column 0: page 0 at byte 0")
            && text.contains("booleans"),
        "{text}"
    );
}
