//! The replay window selects the newest positions, and the sample stream draws shuffled samples from them with a
//! bounded buffer, reproducibly.

mod common;

use std::collections::HashSet;
use std::fs::{self, File};
use std::path::Path;

use common::write_shard;
use zero_data::{DataError, FooterCache, ReplayConfig, ReplayIndex, SampleStream, ShardSet, WindowRule, read_shard};

/// Four shards, oldest to newest: A 15 rows (age 40 s), B 7 (30 s), C 20 (20 s), D 8 (10 s); 50 in all.
fn four_shards(dir: &Path) {
    write_shard(dir, "a", 0, &[10, 5], 40);
    write_shard(dir, "b", 2, &[7], 30);
    write_shard(dir, "c", 3, &[20], 20);
    write_shard(dir, "d", 4, &[4, 4], 10);
}

/// The `simulations` values (unique per row in these tests) of the rows an index selects.
fn selected_rows(index: &ReplayIndex) -> HashSet<u32> {
    let mut rows = HashSet::new();
    for slice in index.slices() {
        let (_, records) = read_shard(&slice.path).unwrap();
        rows.extend(records[slice.rows.clone()].iter().map(|r| r.simulations));
    }
    rows
}

fn config(window: WindowRule, shuffle_buffer: usize, seed: u64) -> ReplayConfig {
    ReplayConfig {
        window,
        samples_per_position: 2.0,
        shuffle_buffer,
        seed,
    }
}

#[test]
fn fixed_window_selects_exactly_the_newest_positions() {
    let dir = tempfile::tempdir().unwrap();
    four_shards(dir.path());
    let set = ShardSet::scan(dir.path()).unwrap();
    let names: Vec<_> = set.shards().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["d", "c", "b", "a"]);

    let (index, errors) = ReplayIndex::build(&set, &WindowRule::Fixed { positions: 30 }, None);
    assert!(errors.is_empty());
    assert_eq!((index.total_positions(), index.window_positions()), (50, 30));
    let ranges: Vec<_> = index.slices().iter().map(|s| s.rows.clone()).collect();
    assert_eq!(ranges, [0..8, 0..20, 5..7]);
    // D (games 4, 5), C (game 3), and the last two rows of B (game 2, positions 5 and 6).
    let mut expected: HashSet<u32> = (0..4).flat_map(|i| [4000 + i, 5000 + i]).collect();
    expected.extend((0..20).map(|i| 3000 + i));
    expected.extend([2005, 2006]);
    assert_eq!(selected_rows(&index), expected);

    let (all, _) = ReplayIndex::build(&set, &WindowRule::Fixed { positions: 1000 }, None);
    assert_eq!((all.window_positions(), all.slices().len()), (50, 4));
    assert_eq!(all.slices()[3].rows, 0..15);
}

#[test]
fn an_index_built_from_remembered_footers_is_the_index_built_afresh() {
    let dir = tempfile::tempdir().unwrap();
    four_shards(dir.path());
    let rule = WindowRule::Fixed { positions: 30 };
    let mut cache = FooterCache::default();
    let fresh = |dir: &Path| ReplayIndex::build(&ShardSet::scan(dir).unwrap(), &rule, None).0;
    let remembered = |dir: &Path, cache: &mut FooterCache| {
        let (index, errors) = ReplayIndex::build_remembering(&ShardSet::scan(dir).unwrap(), &rule, None, cache);
        assert!(errors.is_empty());
        index
    };
    let first = remembered(dir.path(), &mut cache);
    assert_eq!(cache.len(), 4);
    assert_eq!(first.slices(), fresh(dir.path()).slices());

    // A damaged footer that the cache has already seen as it is now is not opened again ...
    let a = zero_data::shard_paths(dir.path(), "a").0;
    let modified = fs::metadata(&a).unwrap().modified().unwrap();
    fs::write(&a, b"not parquet").unwrap();
    File::options()
        .write(true)
        .open(&a)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(remembered(dir.path(), &mut cache).slices(), first.slices());
    // ... but a shard written anew is, and new shards are read and the removed ones forgotten.
    fs::remove_file(&a).unwrap();
    fs::remove_file(zero_data::shard_paths(dir.path(), "a").1).unwrap();
    write_shard(dir.path(), "a", 0, &[10, 5], 41);
    write_shard(dir.path(), "e", 6, &[3], 5);
    fs::remove_file(zero_data::shard_paths(dir.path(), "c").0).unwrap();
    let later = remembered(dir.path(), &mut cache);
    assert_eq!(cache.len(), 4);
    assert_eq!(later.slices(), fresh(dir.path()).slices());
    assert_eq!(later.total_positions(), 33);
}

#[test]
fn growing_window_follows_its_formula() {
    let rule = WindowRule::Growing {
        min_positions: 100,
        max_positions: 1000,
        exponent: 0.5,
    };
    assert_eq!(rule.window_size(0), 0);
    assert_eq!(rule.window_size(50), 50);
    assert_eq!(rule.window_size(100), 100);
    assert_eq!(rule.window_size(400), 200); // 100 * 4^0.5
    assert_eq!(rule.window_size(2500), 500); // 100 * 25^0.5
    assert_eq!(rule.window_size(10_000), 1000);
    assert_eq!(rule.window_size(1_000_000), 1000);
    let mut last = 0;
    for total in (0..20_000).step_by(37) {
        let size = rule.window_size(total);
        assert!(size >= last && size as u64 <= total, "window {size} for total {total}");
        last = size;
    }

    let dir = tempfile::tempdir().unwrap();
    four_shards(dir.path());
    let set = ShardSet::scan(dir.path()).unwrap();
    let rule = WindowRule::Growing {
        min_positions: 20,
        max_positions: 100,
        exponent: 0.5,
    };
    let (index, _) = ReplayIndex::build(&set, &rule, None);
    // 20 * (50 / 20)^0.5 = 31.6
    assert_eq!(index.window_positions(), 31);
    assert_eq!(index.slices().iter().map(|s| s.rows.len()).sum::<usize>(), 31);
}

#[test]
fn sample_stream_draws_k_reproducible_samples_from_inside_the_window() {
    let dir = tempfile::tempdir().unwrap();
    four_shards(dir.path());
    let set = ShardSet::scan(dir.path()).unwrap();
    let (index, _) = ReplayIndex::build(&set, &WindowRule::Fixed { positions: 30 }, None);
    let inside: Vec<_> = index
        .slices()
        .iter()
        .flat_map(|s| read_shard(&s.path).unwrap().1[s.rows.clone()].to_vec())
        .collect();

    let cfg = config(WindowRule::Fixed { positions: 30 }, 8, 42);
    assert_eq!(cfg.samples_for(150), 300);
    let mut stream = SampleStream::new(&index, &cfg);
    let drawn = stream.draw(300).unwrap();
    assert!(drawn.skipped.is_empty());
    assert_eq!(drawn.samples.len(), 300);
    assert_eq!((stream.peak_buffered(), stream.capacity()), (8, 8));
    let mut seen = HashSet::new();
    for sample in &drawn.samples {
        let record = inside
            .iter()
            .find(|r| r.input == sample.input)
            .expect("a sample from outside the window");
        seen.insert(record.simulations);
        assert_eq!(sample.has_policy, record.full_search);
        let policy = if record.full_search {
            (&record.policy_actions, &record.policy_probs)
        } else {
            (&vec![], &vec![])
        };
        assert_eq!((&sample.policy_actions, &sample.policy_probs), policy);
        assert_eq!(
            (&sample.legal_actions, sample.result),
            (&record.legal_actions, record.result)
        );
        assert_eq!(
            (sample.plies_to_end, sample.root_value),
            (record.plies_to_end, record.root_value)
        );
    }
    assert_eq!(seen.len(), 30, "ten passes over the window reach every position");
    // Shuffled: the first pass does not come out in file order.
    let first: Vec<_> = drawn.samples[..30].iter().map(|s| s.input.clone()).collect();
    assert_ne!(first, inside.iter().map(|r| r.input.clone()).collect::<Vec<_>>());

    let again = SampleStream::new(&index, &cfg).draw(300).unwrap().samples;
    assert_eq!(again, drawn.samples, "same seed, same samples");
    let other = SampleStream::new(&index, &config(cfg.window.clone(), 8, 43))
        .draw(300)
        .unwrap()
        .samples;
    assert_ne!(other, drawn.samples);
}

#[test]
fn the_buffer_is_capped_by_the_window_and_a_shard_failing_mid_stream_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    four_shards(dir.path());
    let set = ShardSet::scan(dir.path()).unwrap();
    let (index, _) = ReplayIndex::build(&set, &WindowRule::Fixed { positions: 1000 }, None);
    let mut stream = SampleStream::new(&index, &config(WindowRule::Fixed { positions: 1000 }, 10_000, 1));
    assert_eq!(stream.capacity(), 50);

    // Shard C is damaged after the index was built.
    let c = dir.path().join("c.positions.parquet");
    let len = fs::metadata(&c).unwrap().len();
    File::options().write(true).open(&c).unwrap().set_len(len / 2).unwrap();
    let drawn = stream.draw(200).unwrap();
    assert_eq!(drawn.samples.len(), 200);
    assert_eq!(drawn.skipped.len(), 1, "reported once, then dropped");
    assert_eq!(drawn.skipped[0].path(), c);
    assert!(stream.peak_buffered() <= 50);
}

#[test]
fn an_index_leaves_out_bad_shards_and_an_empty_window_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write_shard(dir.path(), "bad", 0, &[5], 0);
    fs::write(&bad.positions_path, b"not parquet").unwrap();
    let set = ShardSet::scan(dir.path()).unwrap();
    let (index, errors) = ReplayIndex::build(&set, &WindowRule::Fixed { positions: 10 }, None);
    assert_eq!(errors.len(), 1);
    assert_eq!(index.skipped(), std::slice::from_ref(&bad.positions_path));
    assert_eq!(index.total_positions(), 0);
    let err = SampleStream::new(&index, &ReplayConfig::default()).draw(1).unwrap_err();
    assert!(matches!(err, DataError::EmptyWindow { .. }), "{err}");
    // The error names the shard that failed and why (the audit of issue 103 found it named neither).
    let message = err.to_string();
    assert!(
        message.contains("1 shard(s) failed: ") && message.contains(&bad.positions_path.display().to_string()),
        "{message}"
    );
}

#[test]
fn a_pass_visits_row_groups_in_random_order_so_a_few_large_shards_mix_in_the_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let header = common::small_header();
    let group = zero_data::ROW_GROUP_ROWS as u32;
    // Four shards of four row groups each; a row's root value (a quarter of its shard's number) names its shard.
    for shard in 0..4u32 {
        let mut writer = zero_data::ShardWriter::create(dir.path(), &format!("s{shard}"), header.clone()).unwrap();
        for g in 0..4 {
            let (game, mut positions) = common::game(&header, shard * 10 + g, group);
            positions.iter_mut().for_each(|p| p.root_value = shard as f32 / 4.0);
            writer.add_game(&game, &positions).unwrap();
        }
        writer.finish().unwrap();
    }
    let set = ShardSet::scan(dir.path()).unwrap();
    let rule = WindowRule::Fixed { positions: 1 << 20 };
    let (index, _) = ReplayIndex::build(&set, &rule, None);
    assert!(
        index.slices().iter().all(|s| s.pieces.len() == 4),
        "a piece per row group"
    );

    // With the buffer a quarter of a shard, the first shard's worth of samples comes from most of the shards, as
    // it would not if each shard were read whole in turn.
    let drawn = SampleStream::new(&index, &config(rule, group as usize, 5))
        .draw(4 * group as usize)
        .unwrap();
    let mut per_shard = [0usize; 4];
    for sample in &drawn.samples {
        per_shard[(sample.root_value * 4.0) as usize] += 1;
    }
    assert!(
        per_shard.iter().filter(|&&n| n > 0).count() >= 3 && per_shard.iter().all(|&n| n < 3 * group as usize),
        "samples per shard {per_shard:?}"
    );
}
