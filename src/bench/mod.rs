//! `zero bench ...`: speed measurements. Speed is measured here and in `cargo bench`, never in timed tests; each
//! command reports ratios measured within one run, because the machine is shared and noisy.

mod arena;
mod cluster;
mod nn;
mod oracle;
mod oracle_connect4;
mod perft;
mod selfplay;
mod threads;
mod train;

use anyhow::Result;
use clap::{Args, Subcommand};
use zero_games::GameKind;

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchCommand,
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Games per second of baseline matches and alpha-beta nodes per second, per game.
    Arena(arena::ArenaBenchArgs),
    /// The run's per-generation bookkeeping over many followers' shards: listing, counting, the replay index.
    Cluster(cluster::ClusterBenchArgs),
    /// Bagh Chal players against perfect play: the share of moves that keep the result, from the tablebase.
    Oracle(oracle::OracleBenchArgs),
    /// Perft nodes per second for each game's benchmark positions, and instructions per leaf under callgrind.
    Perft(perft::PerftBenchArgs),
    /// The network of a config: evaluations/s and GFLOP/s by batch size beside the matmul ceiling.
    Nn(nn::NnBenchArgs),
    /// The self-play loop with a network: simulations/s, evaluations/s and mean batch beside the bare network's
    /// speed at that batch (the search's efficiency), and tree memory per game in flight.
    Selfplay(selfplay::SelfPlayBenchArgs),
    /// libtorch thread counts and OpenMP wait policies, with and without a busy core beside the network.
    Threads(threads::ThreadsBenchArgs),
    /// Training samples/s from shards on disk beside a bare in-memory loop of the same network.
    Train(train::TrainBenchArgs),
}

pub fn run(args: BenchArgs) -> Result<()> {
    match args.what {
        BenchCommand::Arena(a) => arena::run(a),
        BenchCommand::Cluster(a) => cluster::run(a),
        BenchCommand::Perft(a) => perft::run(a),
        BenchCommand::Nn(a) => nn::run(a),
        BenchCommand::Oracle(a) => match a.game {
            GameKind::BaghChal => oracle::run(a),
            GameKind::Connect4 => oracle_connect4::run(a),
            other => {
                anyhow::bail!("perfect play is known for baghchal (a tablebase) and connect4 (a solver), not {other}")
            }
        },
        BenchCommand::Threads(a) => threads::run(a),
        BenchCommand::Train(a) => train::run(a),
        BenchCommand::Selfplay(a) => selfplay::run(a),
    }
}
