//! Following a run (`zero selfplay --follow RUN_DIR`): an extra self-play process for a run, on this machine or
//! another one sharing the run directory. Its shards are named after the generation of the network that played
//! them (`g0003-follow-…`), so the run counts them towards that generation and its trainer reads them like its
//! own.

use crate::config::RunConfig;
use crate::dir::{Phase, RunDir, RunState, checkpoint_path, shard_prefix};
use crate::error::{Context, Result};
use crate::play::{PlayJob, play_games};
use crate::resign::resignation_earned;
use crate::summary::read_generations;
use std::path::Path;
use std::time::{Duration, Instant};
use zero_games::Registered;
use zero_rundir::followers::{FollowerState, Heartbeat, unix_now, write_heartbeat};
use zero_rundir::lease::LeaseWatch;

/// How a follower plays: its workers and seed (default: the run's), and games per batch between looks at the
/// run's newest network.
#[derive(Debug, Clone, Copy)]
pub struct FollowOptions {
    pub workers: Option<usize>,
    pub seed: Option<u64>,
    pub games_per_batch: usize,
    /// How long to wait for the run to be driven again (a restart after a kill) before stopping.
    pub wait_for_run: Duration,
}

/// Plays batches of games for the run in `run_dir` until it has done all its generations.
pub fn follow<G: Registered>(config: &RunConfig, run_dir: &Path, options: FollowOptions) -> Result<()> {
    end_between_writes_on_signals()?;
    let paths = zero_rundir::RunPaths::new(run_dir);
    let rules = config.rules_of::<G>()?;
    let mut sp = config.selfplay.clone();
    if let Some(w) = options.workers {
        sp.workers = w.max(1);
    }
    let host = zero_io::this_host();
    let run_name = run_dir
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // This follower's own token: its games and shard names differ from every other follower's, even one with
    // the same PID on the same host name (containers).
    let instance = zero_io::unique_token();
    let mut pulse = Pulse::start(run_dir, &host, instance);
    // Kept across rounds: a run driven from another machine is known stopped once its beat has stood still.
    let mut lease = LeaseWatch::new(run_dir);
    let mut lead_starts = StartsOfGeneration::default();
    for round in 0u64.. {
        let mut state = RunDir::read_state(run_dir)?;
        if !lease.driven() && state.generation < config.run.generations {
            let driven = wait_until_driven(&mut lease, options.wait_for_run);
            state = RunDir::read_state(run_dir)?;
            if !driven && state.generation < config.run.generations {
                pulse.say(FollowerState::Stopped);
                crate::log::say(format!(
                    "zero selfplay: no process has driven {} for {} s: stopping (start the run again, then its followers)",
                    run_dir.display(),
                    options.wait_for_run.as_secs()
                ));
                return Ok(());
            }
        }
        if state.generation >= config.run.generations {
            pulse.say(FollowerState::Finished);
            crate::log::say(format!(
                "zero selfplay: {} has finished its {} generations",
                run_dir.display(),
                state.generation
            ));
            return Ok(());
        }
        let (generation, network) = network_to_follow(config, run_dir, &state);
        let model = crate::dir::model_of(run_dir, network);
        // The run's rule for resignation: only once the previous generation's checks have earned it.
        let earlier = read_generations(&paths.generations_path())?;
        sp.resign.check_fraction = if resignation_earned(&config.selfplay, &earlier) {
            config.selfplay.resign.check_fraction
        } else {
            1.0
        };
        sp.seed = zero_selfplay::derive_seed(options.seed.unwrap_or(sp.seed) ^ instance, round);
        let starts = lead_starts.of(run_dir, &rules, sp.lead_start_share, generation)?;
        let job = PlayJob {
            config: &sp,
            model: &model,
            games: options.games_per_batch.max(1),
            out: &paths.data_dir(),
            prefix: format!(
                "{}follow-{host}-{}-{:08x}-{round:05}",
                shard_prefix(generation),
                std::process::id(),
                instance as u32
            ),
            games_per_shard: 1,
            run: &run_name,
        };
        let (stats, secs) = play_games::<G>(&rules, job, starts)?;
        pulse.played(generation, stats.games, stats.positions);
        crate::log::say(format!(
            "zero selfplay: {} games of generation {generation} with network {network} into {} ({:.0} positions/s)",
            stats.games,
            paths.data_dir().display(),
            stats.positions as f64 / secs.max(1e-9)
        ));
    }
    Ok(())
}

/// The lead starts of the generation this follower plays, read once per generation rather than before every
/// batch: the previous generation's shards are all written by then but a straggling follower's, and a cluster of followers would otherwise read
/// them all again every few games.
struct StartsOfGeneration<G> {
    generation: Option<u32>,
    starts: Vec<G>,
}

impl<G> Default for StartsOfGeneration<G> {
    fn default() -> Self {
        Self {
            generation: None,
            starts: Vec::new(),
        }
    }
}

impl<G: Registered> StartsOfGeneration<G> {
    /// Generation `generation`'s lead starts ([`crate::dir::lead_starts_for`]), read when it changes.
    fn of(&mut self, run_dir: &Path, rules: &G::Rules, share: f32, generation: u32) -> Result<&[G]> {
        if self.generation != Some(generation) {
            self.starts = crate::dir::lead_starts_for::<G>(run_dir, rules, share, generation)?;
            self.generation = Some(generation);
        }
        Ok(&self.starts)
    }
}

/// This follower's heartbeat (`followers/ID.json`, docs/cluster.md), written at start, after each batch and when
/// it stops.
struct Pulse<'a> {
    run_dir: &'a Path,
    beat: Heartbeat,
}

impl<'a> Pulse<'a> {
    fn start(run_dir: &'a Path, host: &str, instance: u64) -> Pulse<'a> {
        let mut pulse = Pulse {
            run_dir,
            beat: Heartbeat {
                id: follower_id(host, instance),
                host: host.to_string(),
                pid: std::process::id(),
                started_unix: unix_now(),
                last_unix: unix_now(),
                generation: 0,
                games: 0,
                positions: 0,
                state: FollowerState::Running,
            },
        };
        pulse.say(FollowerState::Running);
        pulse
    }

    fn played(&mut self, generation: u32, games: u64, positions: u64) {
        self.beat.generation = generation;
        self.beat.games += games;
        self.beat.positions += positions;
        self.say(FollowerState::Running);
    }

    fn say(&mut self, state: FollowerState) {
        self.beat.state = state;
        self.beat.last_unix = unix_now();
        // A heartbeat that cannot be written costs the run its view of this follower, not its games.
        if let Err(e) = write_heartbeat(self.run_dir, &self.beat) {
            tracing::warn!("follower {}: heartbeat not written: {e}", self.beat.id);
        }
    }
}

/// The id this follower writes its heartbeat under: the launcher's (`ZERO_FOLLOWER_ID`, set by `zero run`'s
/// local launcher and its Slurm batch script) or `HOST-PID-TOKEN`, made safe as a file name.
fn follower_id(host: &str, instance: u64) -> String {
    let id = std::env::var("ZERO_FOLLOWER_ID")
        .unwrap_or_else(|_| format!("{host}-{}-{:08x}", std::process::id(), instance as u32));
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A follower told to stop (SIGTERM from its run or from `scancel`, SIGINT) ends once no shard is being written:
/// it leaves no temporary behind, on a host where no other process may clean it. Its games in flight are not
/// finished games, so nothing finished is lost.
fn end_between_writes_on_signals() -> Result<()> {
    crate::exit_between_writes_on_signals(|_| 143).context("watching for SIGINT and SIGTERM")?;
    Ok(())
}

/// Waits up to `patience` for a process to drive the run; whether one does. A follower whose run has stopped
/// (failed, or killed and not restarted) stops too, rather than playing games for it without end.
fn wait_until_driven(lease: &mut LeaseWatch, patience: Duration) -> bool {
    let deadline = Instant::now() + patience;
    loop {
        if lease.driven() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The generation a follower's games count towards and the network it plays them with: the one the run's own
/// self-play uses (with gating, the last one promoted; else the newest the run has made, none in generation 0).
fn network_to_follow(config: &RunConfig, run_dir: &Path, state: &RunState) -> (u32, u32) {
    match state.selfplay_network {
        Some(network) if config.run.gate => {
            let generation = if state.phase == Phase::Selfplay {
                state.generation
            } else {
                state.generation + 1
            };
            (generation, network)
        }
        _ => {
            let newest = (1..=state.generation + 1)
                .rev()
                .find(|g| checkpoint_path(run_dir, *g).exists())
                .unwrap_or(0);
            (newest, newest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_waits_for_its_run_only_so_long() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let mut lease = LeaseWatch::new(dir.path());
        assert!(!wait_until_driven(&mut lease, Duration::from_millis(300)));
        assert!(start.elapsed() >= Duration::from_millis(300));
        let _run = RunDir::open(dir.path()).unwrap();
        assert!(wait_until_driven(&mut lease, Duration::ZERO));
    }
}
