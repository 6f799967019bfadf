//! `zero bench cluster`: the run's per-generation bookkeeping over the shards of many followers (docs/cluster.md):
//! listing the data directory, counting a generation's games and positions, indexing the replay window, the
//! merge's scan and `zero status`'s counts, each timed over `--followers x --rounds` one-game follower shards.

use anyhow::{Context, Result};
use clap::Args;
use std::path::Path;
use std::time::Instant;
use zero_data::{ReplayIndex, ShardSet};
use zero_run::RunConfig;
use zero_run::dir::RunDir;
use zero_run::play::play_quick_bashni_shards;

#[derive(Args, Debug)]
pub struct ClusterBenchArgs {
    /// Simulated followers.
    #[arg(long, default_value_t = 100)]
    pub followers: u32,
    /// One-game shards each follower wrote for the generation.
    #[arg(long, default_value_t = 100)]
    pub rounds: u32,
    /// Times each measurement is taken (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
}

/// The median of `repeats` timings of `work`, in milliseconds.
fn median_ms(repeats: usize, work: impl FnMut() -> Result<()>) -> Result<f64> {
    median_ms_after(repeats, || Ok(()), work)
}

/// The median of `repeats` timings of `work`, each after an untimed `prepare`, in milliseconds.
fn median_ms_after(
    repeats: usize,
    mut prepare: impl FnMut() -> Result<()>,
    mut work: impl FnMut() -> Result<()>,
) -> Result<f64> {
    let mut times = Vec::new();
    for _ in 0..repeats.max(1) {
        prepare()?;
        let start = Instant::now();
        work()?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// One real Bashni game as a one-game shard in `data`; its name.
fn one_real_shard(data: &Path) -> Result<String> {
    play_quick_bashni_shards(data, 1, "g0001-seed")?;
    let set = ShardSet::scan(data)?;
    Ok(set.shards().first().context("the game wrote no shard")?.name.clone())
}

/// One more one-game shard of each of `followers` followers, copies of `seed` (positions, games) named for
/// round `round`.
fn copy_round(data: &Path, seed: (&Path, &Path), followers: u32, round: u32) -> Result<()> {
    for f in 0..followers {
        let name = format!(
            "g0001-follow-node{f:03}-{}-{:08x}-{round:05}-00000",
            10_000 + f,
            f * 7919
        );
        let (positions, games) = zero_data::shard_paths(data, &name);
        std::fs::copy(seed.1, games)?;
        std::fs::copy(seed.0, positions)?;
    }
    Ok(())
}

pub fn run(args: ClusterBenchArgs) -> Result<()> {
    let config = RunConfig::parse(zero_run::DEFAULT_CONFIG, "the embedded config")?;
    let tmp = tempfile::tempdir()?;
    let dir = RunDir::open(tmp.path())?;
    zero_io::write_atomically(&dir.config_path(), config.to_toml().as_bytes())?;
    let data = dir.data_dir();
    let seed = one_real_shard(&data)?;
    // Kept outside the data directory, to be copied under followers' names.
    let (seed_positions, seed_games) = (tmp.path().join("seed.parquet"), tmp.path().join("seed.games.parquet"));
    let (played_positions, played_games) = zero_data::shard_paths(&data, &seed);
    std::fs::rename(played_positions, &seed_positions)?;
    std::fs::rename(played_games, &seed_games)?;
    let seed = (seed_positions.as_path(), seed_games.as_path());
    let copy_round = |round: u32| copy_round(&data, seed, args.followers, round);
    for round in 0..args.rounds {
        copy_round(round)?;
    }
    let shards = (args.followers * args.rounds) as usize;
    let bytes: u64 = std::fs::read_dir(&data)?
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    println!(
        "{shards} one-game shards ({} files, {:.1} MB) from {} followers in one generation",
        shards * 2,
        bytes as f64 / 1e6,
        args.followers
    );
    let rule = config.train.window_rule();
    let timings = [
        (
            "list the data directory (ShardSet::scan)",
            median_ms(args.repeats, || ShardSet::scan(&data).map(drop).map_err(Into::into))?,
        ),
        (
            "count the generation's games and positions, the first time (every shard read; once)",
            median_ms(1, || dir.generation_data(1).map(drop).map_err(Into::into))?,
        ),
        (
            "index the replay window (every shard's footer)",
            median_ms(args.repeats, || {
                let (_, errors) = ReplayIndex::build(&ShardSet::scan(&data)?, &rule, None);
                anyhow::ensure!(errors.is_empty(), "{} shards unreadable", errors.len());
                Ok(())
            })?,
        ),
        (
            "the merge's scan (followers' shards are never merged)",
            median_ms(args.repeats, || dir.merge_selfplay_shards(1).map_err(Into::into))?,
        ),
        (
            "zero status (counts by producer)",
            median_ms(args.repeats, || Ok(zero_rundir::status::status(tmp.path()).map(drop)?))?,
        ),
    ];
    for (what, ms) in timings {
        println!("{ms:>9.1} ms  {what}");
    }
    // Last, since they add shards: what a generation's end costs once the run has counted while the followers
    // played (run/src/run_loop.rs counts every few seconds during self-play) and remembers the footers its last
    // replay window read.
    let mut footers = zero_data::FooterCache::default();
    ReplayIndex::build_remembering(&ShardSet::scan(&data)?, &rule, None, &mut footers);
    let mut round = args.rounds;
    let mut next_round = || {
        round += 1;
        copy_round(round)
    };
    let scan = || dir.generation_data(1).map(drop).map_err(Into::into);
    let count = median_ms_after(args.repeats, &mut next_round, scan)?;
    let index = median_ms_after(args.repeats, &mut next_round, || {
        ReplayIndex::build_remembering(&ShardSet::scan(&data)?, &rule, None, &mut footers);
        Ok(())
    })?;
    let new = args.followers;
    println!("{count:>9.1} ms  count it again after each follower wrote one more shard ({new} new shards read)");
    println!("{index:>9.1} ms  index the window again after {new} new shards (the footers read before remembered)");
    Ok(())
}
