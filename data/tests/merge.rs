//! Merging small shards: the same rows in the same order in one shard, the sources gone, and a merge killed
//! half-way (or refused) never loses or doubles a position.

mod common;

use std::fs::{self, File};
use std::path::Path;

use common::{small_header, write_shard};
use zero_data::{
    DataError, MERGED_FROM_KEY, ShardFile, ShardSet, ShardWriter, clean_incomplete, merge_shards, read_games,
    read_shard, shard_paths,
};

/// Three shards, oldest first: a (2 games), b (1), c (3).
fn three_shards(dir: &Path) -> Vec<String> {
    write_shard(dir, "a", 0, &[4, 6], 30);
    write_shard(dir, "b", 2, &[5], 20);
    write_shard(dir, "c", 3, &[3, 7, 2], 10);
    vec!["a".into(), "b".into(), "c".into()]
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_merged_shard_holds_every_row_in_order_and_replaces_its_sources() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    let (mut positions, mut games) = (Vec::new(), Vec::new());
    for name in &sources {
        let (p, g) = shard_paths(dir.path(), name);
        positions.extend(read_shard(&p).unwrap().1);
        games.extend(read_games(&g).unwrap().1);
    }
    let newest = fs::metadata(shard_paths(dir.path(), "c").0)
        .unwrap()
        .modified()
        .unwrap();

    let summary = merge_shards(dir.path(), "abc-merged", &sources).unwrap();
    assert_eq!((summary.games, summary.positions), (6, 27));
    assert_eq!(
        files_in(dir.path()),
        ["abc-merged.games.parquet", "abc-merged.positions.parquet"]
    );
    let (header, merged_positions) = read_shard(&summary.positions_path).unwrap();
    assert_eq!(header, small_header());
    assert_eq!(merged_positions, positions, "every position, in the sources' order");
    assert_eq!(read_games(&summary.games_path).unwrap().1, games);
    let file = ShardFile::open(&summary.positions_path).unwrap();
    assert_eq!(file.metadata_value(MERGED_FROM_KEY), Some(r#"["a","b","c"]"#));
    assert!(file.row_groups().len() == 1 && file.rows() == 27);
    let modified = fs::metadata(&summary.positions_path).unwrap().modified().unwrap();
    assert_eq!(modified, newest, "dated as its newest source, for the window's order");
    assert_eq!(ShardSet::scan(dir.path()).unwrap().len(), 1);
}

#[test]
fn sources_left_by_a_merge_killed_while_deleting_them_are_removed_on_cleaning() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    let keep = tempfile::tempdir().unwrap();
    for name in ["b", "c"] {
        for path in <[_; 2]>::from(shard_paths(dir.path(), name)) {
            fs::copy(&path, keep.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    merge_shards(dir.path(), "abc-merged", &sources).unwrap();
    // As if killed after deleting a's files and c's positions file.
    fs::copy(
        keep.path().join("b.positions.parquet"),
        dir.path().join("b.positions.parquet"),
    )
    .unwrap();
    fs::copy(keep.path().join("b.games.parquet"), dir.path().join("b.games.parquet")).unwrap();
    fs::copy(keep.path().join("c.games.parquet"), dir.path().join("c.games.parquet")).unwrap();
    write_shard(dir.path(), "unrelated", 9, &[3], 0);

    let removed = clean_incomplete(dir.path(), |_| false).unwrap();
    let removed: Vec<_> = removed
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(removed, ["b.games.parquet", "b.positions.parquet", "c.games.parquet"]);
    assert_eq!(
        files_in(dir.path()),
        [
            "abc-merged.games.parquet",
            "abc-merged.positions.parquet",
            "unrelated.games.parquet",
            "unrelated.positions.parquet"
        ]
    );

    // A merged shard whose footer is damaged keeps its sources: they are the readable copy of its rows.
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    let summary = merge_shards(dir.path(), "abc-merged", &sources[..2]).unwrap();
    fs::copy(
        keep.path().join("b.positions.parquet"),
        dir.path().join("b.positions.parquet"),
    )
    .unwrap();
    fs::copy(keep.path().join("b.games.parquet"), dir.path().join("b.games.parquet")).unwrap();
    let len = fs::metadata(&summary.positions_path).unwrap().len();
    File::options()
        .write(true)
        .open(&summary.positions_path)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    assert!(clean_incomplete(dir.path(), |_| false).unwrap().is_empty());
    assert!(dir.path().join("b.positions.parquet").exists());
}

#[test]
fn a_refused_merge_names_the_reason_and_leaves_every_source_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    let before = files_in(dir.path());

    // A truncated source.
    let b = shard_paths(dir.path(), "b").0;
    let good_b = fs::read(&b).unwrap();
    fs::write(&b, &good_b[..good_b.len() / 2]).unwrap();
    let err = merge_shards(dir.path(), "abc-merged", &sources).unwrap_err();
    assert_eq!(err.path(), b, "{err}");
    assert_eq!(files_in(dir.path()), before, "nothing written, nothing deleted");
    fs::write(&b, &good_b).unwrap();

    // A source of another generation.
    let mut other = small_header();
    other.generation = 8;
    let mut writer = ShardWriter::create(dir.path(), "d", other.clone()).unwrap();
    let (g, p) = common::game(&other, 11, 3);
    writer.add_game(&g, &p).unwrap();
    writer.finish().unwrap();
    let before = files_in(dir.path());
    let all: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let err = merge_shards(dir.path(), "abcd-merged", &all).unwrap_err();
    assert!(
        matches!(err, DataError::Incompatible { .. }) && err.path() == shard_paths(dir.path(), "d").0,
        "{err}"
    );
    assert_eq!(files_in(dir.path()), before);

    // Names: a merged name must say so, sources are named once, an existing shard is never replaced.
    for (name, sources, expected) in [
        ("abc", &sources[..], "must end in"),
        ("abc-merged", &["a".to_string(), "a".to_string()][..], "named twice"),
        ("abc-merged", &[][..], "nothing to merge"),
        ("../x-merged", &sources[..], "not a usable shard name"),
    ] {
        let err = merge_shards(dir.path(), name, sources).unwrap_err();
        assert!(err.to_string().contains(expected), "{name}: {err}");
    }
    merge_shards(dir.path(), "ab-merged", &sources[..2]).unwrap();
    let err = merge_shards(dir.path(), "ab-merged", &sources[2..]).unwrap_err();
    assert!(matches!(err, DataError::AlreadyExists { .. }), "{err}");
    assert!(dir.path().join("c.positions.parquet").exists());
}

#[test]
fn a_merged_shard_deletes_only_sources_of_its_own_run_and_generation() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    merge_shards(dir.path(), "abc-merged", &sources).unwrap();
    // Shards that bear a listed name but were written for another generation, and another run: the list in the
    // merged shard's metadata must not reach them.
    for (name, header) in [
        (
            "a",
            zero_data::ShardHeader {
                generation: 5,
                ..small_header()
            },
        ),
        (
            "b",
            zero_data::ShardHeader {
                run: "another-run".into(),
                ..small_header()
            },
        ),
    ] {
        let mut writer = ShardWriter::create(dir.path(), name, header.clone()).unwrap();
        let (game, positions) = common::game(&header, 40, 3);
        writer.add_game(&game, &positions).unwrap();
        writer.finish().unwrap();
    }
    assert!(clean_incomplete(dir.path(), |_| false).unwrap().is_empty());
    assert_eq!(
        files_in(dir.path()),
        [
            "a.games.parquet",
            "a.positions.parquet",
            "abc-merged.games.parquet",
            "abc-merged.positions.parquet",
            "b.games.parquet",
            "b.positions.parquet"
        ]
    );
}

#[test]
fn shards_named_before_the_positions_suffix_are_read_cleaned_and_merged_like_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    // "a" as a run directory written before `.positions.parquet` holds it: `a.parquet` beside `a.games.parquet`.
    fs::rename(dir.path().join("a.positions.parquet"), dir.path().join("a.parquet")).unwrap();
    assert_eq!(shard_paths(dir.path(), "a").0, dir.path().join("a.parquet"));
    let set = ShardSet::scan(dir.path()).unwrap();
    assert_eq!(set.len(), 3, "the old name is listed with the new ones");
    assert_eq!(read_shard(&shard_paths(dir.path(), "a").0).unwrap().1.len(), 10);
    assert!(
        clean_incomplete(dir.path(), |_| false).unwrap().is_empty(),
        "an old shard's games file is no orphan"
    );

    let summary = merge_shards(dir.path(), "abc-merged", &sources).unwrap();
    assert_eq!((summary.games, summary.positions), (6, 27));
    assert_eq!(
        files_in(dir.path()),
        ["abc-merged.games.parquet", "abc-merged.positions.parquet"]
    );
}
