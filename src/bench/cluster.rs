//! `zero bench cluster`: the run's per-generation bookkeeping over the shards of many followers (docs/cluster.md):
//! listing the data directory, counting a generation's games and positions, indexing the replay window, the
//! merge's scan and `zero status`'s counts, each timed over `--followers x --rounds` one-game follower shards.

use anyhow::{Context, Result};
use clap::Args;
use std::path::Path;
use std::time::Instant;
use zero_data::{ReplayIndex, ShardSet};
use zero_games::bashni::Bashni;
use zero_run::RunConfig;
use zero_run::dir::RunDir;
use zero_run::play::{PlayJob, play_games};

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
fn median_ms(repeats: usize, mut work: impl FnMut() -> Result<()>) -> Result<f64> {
    let mut times = Vec::new();
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        work()?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// One real Bashni game (uniform priors, the quick config's search) as a one-game shard in `data`; its name.
fn one_real_shard(config: &RunConfig, data: &Path) -> Result<String> {
    let rules = <Bashni as zero_games::Game>::parse_rules(None, &[])?;
    let mut sp = config.selfplay.clone();
    sp.workers = 1;
    let job = PlayJob {
        config: &sp,
        model: "uniform",
        games: 1,
        out: data,
        prefix: "g0001-seed".to_string(),
        games_per_shard: 1,
        run: "bench",
    };
    play_games::<Bashni>(&rules, job)?;
    let set = ShardSet::scan(data)?;
    Ok(set.shards().first().context("the game wrote no shard")?.name.clone())
}

pub fn run(args: ClusterBenchArgs) -> Result<()> {
    let config = RunConfig::parse(zero_run::DEFAULT_CONFIG, "the embedded config")?;
    let tmp = tempfile::tempdir()?;
    let dir = RunDir::open(tmp.path())?;
    zero_games::files::write_atomically(&dir.config_path(), config.to_toml().as_bytes())?;
    let data = dir.data_dir();
    let seed = one_real_shard(&config, &data)?;
    let (seed_positions, seed_games) = zero_data::shard_paths(&data, &seed);
    for f in 0..args.followers {
        for round in 0..args.rounds {
            let name = format!(
                "g0001-follow-node{f:03}-{}-{:08x}-{round:05}-00000",
                10_000 + f,
                f * 7919
            );
            let (positions, games) = zero_data::shard_paths(&data, &name);
            std::fs::copy(&seed_games, games)?;
            std::fs::copy(&seed_positions, positions)?;
        }
    }
    std::fs::remove_file(&seed_positions)?;
    std::fs::remove_file(&seed_games)?;
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
            "count the generation's games and positions",
            median_ms(args.repeats, || dir.generation_data(1).map(drop))?,
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
            median_ms(args.repeats, || dir.merge_selfplay_shards(1))?,
        ),
        (
            "zero status (counts by producer)",
            median_ms(args.repeats, || zero_report::status::status(tmp.path()).map(drop))?,
        ),
    ];
    for (what, ms) in timings {
        println!("{ms:>9.1} ms  {what}");
    }
    Ok(())
}
