//! `zero status RUN_DIR`: where a run stands, live or finished, read from its directory alone: generation and
//! phase, games and positions per generation by producer (the run itself and each follower), each follower's
//! last heartbeat, the followers the run launched with their job states, and the latest speed and ratings.

use crate::RunDirError;
use crate::followers::{Heartbeat, LaunchRecord, read_heartbeats, read_launch_record, unix_now};
use crate::layout::{RunPaths, require_run_dir};
use crate::lease::{LeaseWatch, Timing};
use crate::summary::{GenerationSummary, RatingPoint, read_generations};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// Games and positions one producer wrote for one generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProducerCount {
    /// `run`, or `follow-HOST-PID-TOKEN` (a follower, as its shard names say).
    pub producer: String,
    pub games: u64,
    pub positions: u64,
}

/// One generation's self-play, by producer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerationCount {
    pub generation: u32,
    pub producers: Vec<ProducerCount>,
}

/// A follower as its heartbeat shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowerStatus {
    #[serde(flatten)]
    pub heartbeat: Heartbeat,
    /// Seconds since its last heartbeat, by this host's clock (another host's clock may differ).
    pub seconds_since_heartbeat: f64,
}

/// Where a run stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    pub run_dir: String,
    pub game: String,
    /// The generation in progress and its phase (`selfplay`, `training`, `evaluation`).
    pub generation: u64,
    pub phase: String,
    pub generations_wanted: Option<u64>,
    /// Whether a process drives the run now (holds its lease), and which (`pid 123 on node7`).
    pub driven: bool,
    pub driven_by: Option<String>,
    pub selfplay: Vec<GenerationCount>,
    pub followers: Vec<FollowerStatus>,
    /// The followers `zero run` launched, with their launcher's last word on each.
    pub launched: Option<LaunchRecord>,
    /// Self-play positions per second of the latest finished generation.
    pub positions_per_second: Option<f64>,
    /// The latest finished generation's ratings.
    pub latest_generation: Option<u32>,
    pub ratings: Vec<RatingPoint>,
    /// Files that could not be read, each with why.
    pub unreadable: Vec<String>,
}

/// The producer and generation of a shard, from its name (`g0003-...`, `g0003-follow-HOST-PID-TOKEN-...`).
fn producer_of(shard: &str) -> Option<(u32, String)> {
    let rest = shard.strip_prefix('g')?;
    let (generation, rest) = rest.split_once('-')?;
    let generation = generation.parse().ok()?;
    let producer = match rest.strip_prefix("follow-") {
        Some(follower) => {
            let parts: Vec<&str> = follower.splitn(4, '-').take(3).collect();
            format!("follow-{}", parts.join("-"))
        }
        None => "run".to_string(),
    };
    Some((generation, producer))
}

/// Counts each shard of `data` by generation and producer; unreadable shards are named in `unreadable`.
fn count_selfplay(data: &Path, unreadable: &mut Vec<String>) -> Vec<GenerationCount> {
    let mut counts: BTreeMap<(u32, String), (u64, u64)> = BTreeMap::new();
    let shards = match zero_data::ShardSet::scan(data) {
        Ok(set) => set.shards().to_vec(),
        Err(_) if !data.exists() => Vec::new(),
        Err(e) => {
            unreadable.push(e.to_string());
            Vec::new()
        }
    };
    for shard in shards {
        let Some(key) = producer_of(&shard.name) else { continue };
        let games = zero_data::ShardFile::open_games(&shard.games_path).map(|f| f.rows() as u64);
        let positions = zero_data::ShardFile::open(&shard.positions_path).map(|f| f.rows() as u64);
        match (games, positions) {
            (Ok(games), Ok(positions)) => {
                let entry = counts.entry(key).or_default();
                entry.0 += games;
                entry.1 += positions;
            }
            (Err(e), _) | (_, Err(e)) => unreadable.push(e.to_string()),
        }
    }
    let mut out: Vec<GenerationCount> = Vec::new();
    for ((generation, producer), (games, positions)) in counts {
        if out.last().is_none_or(|g| g.generation != generation) {
            out.push(GenerationCount {
                generation,
                producers: Vec::new(),
            });
        }
        let last = out.last_mut().expect("pushed above");
        last.producers.push(ProducerCount {
            producer,
            games,
            positions,
        });
    }
    out
}

/// Reads where the run in `run_dir` stands.
pub fn status(run_dir: &Path) -> Result<Status, RunDirError> {
    require_run_dir(run_dir)?;
    let mut unreadable = Vec::new();
    let paths = RunPaths::new(run_dir);
    let state: serde_json::Value = match std::fs::read_to_string(paths.state_path()) {
        Ok(text) => serde_json::from_str(&text).map_err(|source| RunDirError::Damaged {
            path: paths.state_path(),
            source,
        })?,
        Err(_) => serde_json::Value::Null,
    };
    let (game, generations_wanted) = config_facts(&paths.config_path());
    let (beats, bad) = read_heartbeats(run_dir);
    unreadable.extend(bad);
    let now = unix_now();
    let followers = beats
        .into_iter()
        .map(|heartbeat| FollowerStatus {
            seconds_since_heartbeat: (now - heartbeat.last_unix).max(0.0),
            heartbeat,
        })
        .collect();
    let launched = read_launch_record(run_dir).unwrap_or_else(|e| {
        unreadable.push(format!("{e:#}"));
        None
    });
    let holder = LeaseWatch::look(run_dir, Timing::default());
    let generations: Vec<GenerationSummary> = read_generations(&paths.generations_path()).unwrap_or_else(|e| {
        unreadable.push(format!("{e:#}"));
        Vec::new()
    });
    let latest = generations.last();
    Ok(Status {
        run_dir: run_dir.display().to_string(),
        game,
        generation: state["generation"].as_u64().unwrap_or(0),
        phase: state["phase"].as_str().unwrap_or("not started").to_string(),
        generations_wanted,
        driven: holder.is_some(),
        driven_by: holder.map(|h| h.holder()),
        selfplay: count_selfplay(&paths.data_dir(), &mut unreadable),
        followers,
        launched,
        positions_per_second: latest.and_then(|g| g.positions_per_second),
        latest_generation: latest.map(|g| g.generation),
        ratings: latest.map(|g| g.ratings.clone()).unwrap_or_default(),
        unreadable,
    })
}

/// The run's game and wanted generations from its recorded config (unknown where it says nothing).
fn config_facts(path: &Path) -> (String, Option<u64>) {
    let table: toml::Table = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| toml::from_str(&text).ok())
        .unwrap_or_default();
    let game = table
        .get("game")
        .and_then(|g| g.as_str())
        .unwrap_or("unknown")
        .to_string();
    let generations = table
        .get("run")
        .and_then(|run| run.get("generations"))
        .and_then(|g| g.as_integer())
        .and_then(|g| u64::try_from(g).ok());
    (game, generations)
}

/// The status as text for people.
pub fn describe(status: &Status) -> String {
    let mut out = String::new();
    let wanted = status
        .generations_wanted
        .map(|g| format!(" of {g}"))
        .unwrap_or_default();
    let driven = match &status.driven_by {
        Some(holder) => format!("driven now by {holder}"),
        None => "not driven (no process holds its lease)".to_string(),
    };
    let _ = writeln!(
        out,
        "{}: {}, generation {}{wanted}, {}, {driven}",
        status.run_dir, status.game, status.generation, status.phase
    );
    if let (Some(g), Some(speed)) = (status.latest_generation, status.positions_per_second) {
        let ratings: Vec<String> = status
            .ratings
            .iter()
            .map(|r| format!("{} {:+.0} [{:+.0}, {:+.0}]", r.player, r.elo, r.low, r.high))
            .collect();
        let _ = writeln!(
            out,
            "latest finished generation {g}: {speed:.0} positions/s; Elo {}",
            ratings.join(", ")
        );
    }
    let _ = writeln!(out, "self-play by generation and producer (games, positions):");
    for generation in &status.selfplay {
        let parts: Vec<String> = generation
            .producers
            .iter()
            .map(|p| format!("{} {} games {} positions", p.producer, p.games, p.positions))
            .collect();
        let _ = writeln!(out, "  gen {:>4}: {}", generation.generation, parts.join("; "));
    }
    if !status.followers.is_empty() {
        let _ = writeln!(out, "followers (heartbeats):");
    }
    for f in &status.followers {
        let h = &f.heartbeat;
        let _ = writeln!(
            out,
            "  {} on {} pid {}: {:?}, {} games {} positions, generation {}, last heard {:.0} s ago",
            h.id, h.host, h.pid, h.state, h.games, h.positions, h.generation, f.seconds_since_heartbeat
        );
    }
    if let Some(record) = &status.launched {
        let _ = writeln!(out, "launched by the run ({}):", record.launcher);
        for f in &record.followers {
            let _ = writeln!(
                out,
                "  slot {} job {}: {}, {} restarts",
                f.slot, f.job, f.state, f.restarts
            );
        }
        if let Some(why) = &record.gave_up {
            let _ = writeln!(out, "  gave up: {why}");
        }
    }
    for bad in &status.unreadable {
        let _ = writeln!(out, "unreadable: {bad}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names_tell_generation_and_producer() {
        assert_eq!(producer_of("g0003-000000-00000-merged"), Some((3, "run".to_string())));
        assert_eq!(
            producer_of("g0012-follow-node7-4411-0aa1b2c3-00004-00000"),
            Some((12, "follow-node7-4411-0aa1b2c3".to_string()))
        );
        assert_eq!(producer_of("selfplay-s1-00000"), None);
    }
}
