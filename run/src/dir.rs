//! A run directory: its layout, the lock that keeps a second process out, and the state that says where a killed
//! run resumes.
//!
//! Where each file lives is `zero_rundir::layout` ([`RunPaths`], which a [`RunDir`] dereferences to).

use crate::error::{Context, Result, bail};
use crate::summary::GenerationSummary;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;
use zero_data::{FooterCache, ShardSet};
use zero_games::{EndReason, Game};
use zero_rundir::RunPaths;
use zero_rundir::lease::{Lease, LeaseRecord, Timing};

/// What a run is doing; `state.json` records the next phase to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Selfplay,
    Train,
    Evaluate,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// The generation in progress: its self-play uses network `generation` (none for 0), its training makes
    /// network `generation + 1`.
    pub generation: u32,
    pub phase: Phase,
    /// Seconds of work over every session of the run.
    pub elapsed_seconds: f64,
    /// The network the next self-play uses: the newest one, or with `run.gate` the last one promoted (absent in
    /// a new run, and in runs made before it was recorded: then the newest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selfplay_network: Option<u32>,
    /// A finished network's summary not yet in `generations.jsonl`: in the evaluation phase, what self-play and
    /// training measured (a resumed evaluation keeps it); in the self-play phase, with `run.eval_beside_selfplay`,
    /// the previous network's, waiting for the evaluation that runs beside this self-play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<GenerationSummary>,
}

impl Default for RunState {
    fn default() -> Self {
        RunState {
            generation: 0,
            phase: Phase::Selfplay,
            elapsed_seconds: 0.0,
            selfplay_network: None,
            pending: None,
        }
    }
}

pub struct RunDir {
    paths: RunPaths,
    /// Held and renewed for the life of this value; released when it is dropped. A process killed with it is
    /// known dead on this machine at once, and elsewhere once its beat has stood still (see `zero_rundir::lease`).
    lease: Lease,
    /// What each shard of the generation last counted holds, by name and modification time: a generation's
    /// shards are counted again as it goes on (thousands of followers' one-game shards), and a shard once
    /// written never changes.
    counted: Mutex<HashMap<String, (SystemTime, GenerationGames)>>,
    /// The footers the replay window was last built over: each generation's training opens only the new shards.
    footers: Mutex<FooterCache>,
}

/// A run directory is its paths, with the lease held.
impl std::ops::Deref for RunDir {
    type Target = RunPaths;
    fn deref(&self) -> &RunPaths {
        &self.paths
    }
}

impl RunDir {
    /// Opens (creating if needed) a run directory and takes its lease; fails with the holder's name when another
    /// process drives it.
    pub fn open(root: &Path) -> Result<RunDir> {
        let paths = RunPaths::new(root);
        let old_lock = paths.old_lock_path();
        for dir in paths.created_dirs() {
            zero_io::create_dir_durably(&dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let lease = Lease::acquire_as(root, LeaseRecord::for_this_process(), Timing::default(), |holder| {
            tracing::info!(
                "zero run: {} holds the run's lease; it is taken over if its heartbeat stands still for {} s",
                holder.holder(),
                Timing::default().stale.as_secs()
            )
        })?;
        // The lock file of zero versions before the lease; nothing reads it any more.
        let _ = std::fs::remove_file(old_lock);
        let dir = RunDir {
            paths,
            lease,
            counted: Mutex::default(),
            footers: Mutex::default(),
        };
        dir.clean_leftovers()?;
        Ok(dir)
    }

    /// Refuses once this process has lost the run's lease (it was stalled while another process took the run
    /// over): asked before every commit, so that a run that lost its lease writes nothing more.
    pub fn check_lease(&self) -> Result<()> {
        Ok(self.lease.check()?)
    }

    /// Removes what a killed process left half-written: abandoned temporaries everywhere (a live follower's are
    /// locked and kept) and orphaned shard halves.
    pub fn clean_leftovers(&self) -> Result<()> {
        // Another host's follower may be between the two halves of a shard, with a lock this host cannot see.
        let host = zero_io::this_host();
        let elsewhere = |shard: &str| zero_rundir::layout::follower_shard_host(shard).is_some_and(|h| h != host);
        let removed =
            zero_data::clean_incomplete(&self.data_dir(), elsewhere).context("cleaning the data directory")?;
        let mut count = removed.len();
        let mut dirs = vec![
            self.root().to_path_buf(),
            self.checkpoints_dir(),
            self.games_dir(),
            self.equal_time_dir(),
            self.report_dir(),
            // A renewal of the lease cut short leaves a temporary there too.
            self.lease_dir(),
        ];
        // Evaluation games live one level down, a folder per generation.
        for entry in std::fs::read_dir(self.games_dir())?.flatten() {
            if entry.path().is_dir() {
                dirs.push(entry.path());
            }
        }
        for sub in dirs {
            for entry in std::fs::read_dir(&sub)?.flatten() {
                let path = entry.path();
                if zero_io::is_temporary(&path) && zero_io::remove_if_abandoned(&path)? {
                    count += 1;
                }
            }
        }
        if count > 0 {
            tracing::info!("zero run: removed {count} half-written file(s) left by an interrupted run");
        }
        Ok(())
    }

    /// The footers of the shards the replay window was last built over ([`crate::training::open_window`]).
    pub fn footers(&self) -> std::sync::MutexGuard<'_, FooterCache> {
        self.footers.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn name(&self) -> String {
        self.root()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".to_string())
    }

    pub fn load_state(&self) -> Result<RunState> {
        Self::read_state(self.root())
    }

    /// The state of the run in `root`, read without taking its lock (for processes that follow a run).
    pub fn read_state(root: &Path) -> Result<RunState> {
        let path = RunPaths::new(root).state_path();
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).with_context(|| format!("{} is damaged", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(RunState::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    pub fn save_state(&self, state: &RunState) -> Result<()> {
        self.check_lease()?;
        let path = self.state_path();
        let text = serde_json::to_string_pretty(state)?;
        zero_io::write_atomically(&path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
    }

    /// Appends one JSON line. A torn last line (a kill or a full disk while appending) is cut off first, so that
    /// it never ends up buried under later lines where readers would take it for damage.
    pub fn append_line(path: &Path, value: &impl Serialize) -> Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        cut_torn_tail(&file).with_context(|| format!("cutting the torn last line of {}", path.display()))?;
        let mut line = serde_json::to_string(value)?;
        line.push('\n');
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .with_context(|| format!("appending to {}", path.display()))?;
        Ok(())
    }

    /// Merges the one-game shards that the run's own self-play wrote for generations up to `last` (each one
    /// finished) into one shard per generation, named after its first ([`zero_data::merge_shards`]: crash-safe,
    /// same rows in the same order). A generation that cannot be merged (a damaged shard) stays as it is, with a
    /// warning: the replay window reports and skips a damaged shard either way. Followers' shards are left alone,
    /// since a follower may still be writing into a generation the run has finished.
    pub fn merge_selfplay_shards(&self, last: u32) -> Result<()> {
        self.check_lease()?;
        let data = self.data_dir();
        let set = ShardSet::scan(&data).with_context(|| format!("reading {}", data.display()))?;
        // The set is newest first; each generation's sources go oldest first.
        let mut by_generation: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for shard in set.shards().iter().rev() {
            if let Some(g) = own_selfplay_shard_generation(&shard.name).filter(|&g| g <= last) {
                by_generation.entry(g).or_default().push(shard.name.clone());
            }
        }
        let mut failed = false;
        for (g, sources) in by_generation {
            if sources.len() < 2 {
                continue;
            }
            let merged = (1..)
                .map(|k| match k {
                    1 => format!("{}{}", sources[0], zero_data::MERGED_SUFFIX),
                    k => format!("{}-{k}{}", sources[0], zero_data::MERGED_SUFFIX),
                })
                .find(|name| !zero_data::shard_paths(&data, name).0.exists())
                .expect("some name is free");
            if let Err(e) = zero_data::merge_shards(&data, &merged, &sources) {
                tracing::warn!("generation {g}'s {} self-play shards stay unmerged: {e}", sources.len());
                failed = true;
            }
        }
        // A merge that failed while deleting its sources left them beside the complete merged shard: they go
        // now, or the run stops, before anything counts their games twice (a later merge took them for
        // unmerged shards; found by scripts/fs-faults.py failing an unlink). A merge that succeeded deleted its
        // own, and a session killed while deleting is cleaned when the run opens again.
        if failed {
            zero_data::remove_merged_sources(&data)
                .with_context(|| format!("deleting the shards merged shards replace in {}", data.display()))?;
        }
        Ok(())
    }

    /// What the complete shards of generation `generation` in `data/` hold (the run's and followers' games, from
    /// every session that played them).
    pub fn generation_data(&self, generation: u32) -> Result<GenerationGames> {
        let prefix = shard_prefix(generation);
        let dir = self.data_dir();
        let set = ShardSet::scan(&dir).with_context(|| format!("reading {}", dir.display()))?;
        let shards = generation_shards(&set, generation);
        let mut counted = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        counted.retain(|name, _| name.starts_with(&prefix));
        let (known, new): (Vec<_>, Vec<_>) = shards.into_iter().partition(|s| {
            counted
                .get(&s.name)
                .is_some_and(|(modified, _)| *modified == s.modified)
        });
        let mut total = known
            .iter()
            .fold(GenerationGames::default(), |sum, s| sum.plus(&counted[&s.name].1));
        // Thousands of followers' one-game shards: the new ones counted in parallel, each reading only what it
        // counts.
        use rayon::prelude::*;
        let fresh: Vec<GenerationGames> = new.par_iter().map(|shard| shard_games(shard)).collect::<Result<_>>()?;
        for (shard, games) in new.iter().zip(fresh) {
            total = total.plus(&games);
            counted.insert(shard.name.clone(), (shard.modified, games));
        }
        Ok(total)
    }
}

/// The complete shards of generation `generation` in `set`: a positions file without its games file (never
/// written so) is left out, as a games file alone is.
fn generation_shards(set: &ShardSet, generation: u32) -> Vec<&zero_data::ShardEntry> {
    let prefix = shard_prefix(generation);
    set.shards()
        .iter()
        .filter(|s| s.name.starts_with(&prefix) && s.games_path.exists())
        .collect()
}

/// What one shard holds.
fn shard_games(shard: &zero_data::ShardEntry) -> Result<GenerationGames> {
    let mut data = GenerationGames::default();
    let games = zero_data::read_game_outcomes(&shard.games_path)
        .with_context(|| format!("reading {}", shard.games_path.display()))?;
    for game in &games {
        data.games += 1;
        data.plies += u64::from(game.plies);
        data.draws += u64::from(game.winner.is_none());
        data.first_wins += u64::from(game.winner == Some(0));
        data.second_wins += u64::from(game.winner == Some(1));
        data.resignations += u64::from(game.reason == EndReason::Resignation.as_str());
    }
    data.positions = zero_data::ShardFile::open(&shard.positions_path)
        .with_context(|| format!("reading {}", shard.positions_path.display()))?
        .rows() as u64;
    Ok(data)
}

/// The finished self-play games of one generation, as its shards hold them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GenerationGames {
    pub games: u64,
    pub positions: u64,
    /// Plies of all the games together.
    pub plies: u64,
    pub draws: u64,
    pub first_wins: u64,
    pub second_wins: u64,
    pub resignations: u64,
}

impl GenerationGames {
    /// The counts of both.
    fn plus(&self, other: &GenerationGames) -> GenerationGames {
        GenerationGames {
            games: self.games + other.games,
            positions: self.positions + other.positions,
            plies: self.plies + other.plies,
            draws: self.draws + other.draws,
            first_wins: self.first_wins + other.first_wins,
            second_wins: self.second_wins + other.second_wins,
            resignations: self.resignations + other.resignations,
        }
    }

    /// `count` per game: a share of the games, or a mean (0 without games).
    pub fn per_game(&self, count: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            count as f64 / self.games as f64
        }
    }
}

/// The generation of a shard the run's own self-play wrote (`g0004-000123-00000`: generation, games the generation
/// had before the session, shard), or `None` for any other name (a follower's, a merged one).
fn own_selfplay_shard_generation(name: &str) -> Option<u32> {
    let b = name.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let own = b.len() == 18 && b[0] == b'g' && b[5] == b'-' && b[12] == b'-' && digits(1..5) && digits(6..12);
    (own && digits(13..18)).then(|| name[1..5].parse().ok()).flatten()
}

/// Network `generation` of the run in `root`.
pub use zero_rundir::layout::{require_run_dir, shard_prefix};

/// The model that self-play of the run in `run_dir` plays network `network` with (what a self-play job's `model`
/// takes): random rollouts for 0, else its checkpoint.
pub fn model_of(run_dir: &Path, network: u32) -> crate::play::SelfPlayModel {
    match network {
        0 => crate::play::SelfPlayModel::Uniform,
        n => crate::play::SelfPlayModel::Checkpoint(checkpoint_path(run_dir, n)),
    }
}

pub fn checkpoint_path(root: &Path, generation: u32) -> PathBuf {
    RunPaths::new(root).checkpoint(generation)
}

/// The checkpoint under `RUN_DIR/checkpoints/` with the highest generation (then step, then name).
pub fn newest_checkpoint(run_dir: &Path) -> Result<PathBuf> {
    let dir = RunPaths::new(run_dir).checkpoints_dir();
    let entries = std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut best: Option<((u32, u64, PathBuf), PathBuf)> = None;
    for entry in entries {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("safetensors") {
            continue;
        }
        // A checkpoint that does not verify is not a candidate (a torn file from a killed run, say).
        let Ok(meta) = zero_model::read_meta(&path) else {
            continue;
        };
        let key = (meta.generation, meta.step, path.clone());
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            best = Some((key, path));
        }
    }
    match best {
        Some((_, path)) => Ok(path),
        None => bail!("no valid checkpoint under {}", dir.display()),
    }
}

/// The lead starts that generation `generation`'s self-play in the run in `run_dir` begins a share of its games
/// from (`selfplay.lead_start_share`, `share` here): the previous generation's ([`lead_starts`]), none for
/// generation 0 or a share of 0.
pub fn lead_starts_for<G: Game>(run_dir: &Path, rules: &G::Rules, share: f32, generation: u32) -> Result<Vec<G>> {
    match generation {
        1.. if share > 0.0 => lead_starts(run_dir, rules, generation - 1),
        _ => Ok(Vec::new()),
    }
}

/// The lead starts ([`zero_selfplay::starts`]) of generation `generation`'s self-play games in the run in
/// `run_dir` (its shards in name order, the followers' too), for the next generation's
/// `selfplay.lead_start_share`. A shard that cannot be read, or a game that does not replay, is left out with a
/// warning: a start is an option of self-play, not data it must not lose.
pub fn lead_starts<G: Game>(run_dir: &Path, rules: &G::Rules, generation: u32) -> Result<Vec<G>> {
    let dir = RunPaths::new(run_dir).data_dir();
    let set = ShardSet::scan(&dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut shards = generation_shards(&set, generation);
    shards.sort_by(|a, b| a.name.cmp(&b.name));
    let mut records = Vec::new();
    for shard in shards {
        match zero_data::read_games(&shard.games_path) {
            Ok((_, games)) => records.extend(games),
            Err(e) => tracing::warn!("lead starts: {} left out: {e}", shard.games_path.display()),
        }
    }
    let (starts, unreadable) = zero_selfplay::lead_starts::<G>(rules, &records);
    if unreadable > 0 {
        tracing::warn!("lead starts: {unreadable} drawn games of generation {generation} do not replay; left out");
    }
    tracing::info!(
        "self-play: {} lead starts from generation {generation}'s {} games",
        starts.len(),
        records.len()
    );
    Ok(starts)
}

/// Cuts a torn last line (one without its newline) off the JSONL file `path`; returns whether there was one.
pub fn cut_torn_last_line(path: &Path) -> Result<bool> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    cut_torn_tail(&file).with_context(|| format!("cutting the torn last line of {}", path.display()))
}

fn cut_torn_tail(file: &File) -> std::io::Result<bool> {
    let complete = complete_lines_len(file)?;
    let torn = complete < file.metadata()?.len();
    if torn {
        file.set_len(complete)?;
        file.sync_data()?;
    }
    Ok(torn)
}

/// The length of a file's complete lines: up to and including its last newline (0 when it has none).
fn complete_lines_len(file: &File) -> std::io::Result<u64> {
    use std::os::unix::fs::FileExt;
    const CHUNK: u64 = 64 * 1024;
    let mut end = file.metadata()?.len();
    let mut last = [0u8];
    if end == 0 || (file.read_exact_at(&mut last, end - 1).is_ok() && last[0] == b'\n') {
        return Ok(end);
    }
    let mut buffer = vec![0u8; CHUNK as usize];
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buffer[..(end - start) as usize];
        file.read_exact_at(chunk, start)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_runs_own_one_game_shards_are_merge_sources() {
        assert_eq!(own_selfplay_shard_generation("g0004-000123-00000"), Some(4));
        assert_eq!(own_selfplay_shard_generation("g0123-000000-00017"), Some(123));
        for other in [
            "g0004-000000-00000-merged",
            "g0004-follow-host-77-00001-00000",
            "g0004-000123-0000",
            "g00x4-000123-00000",
            "h0004-000123-00000",
            "g0004_000123-00000",
            "g0004-000123-00000.games",
        ] {
            assert_eq!(own_selfplay_shard_generation(other), None, "{other}");
        }
    }

    #[test]
    fn a_torn_last_line_is_cut_before_the_next_append_and_never_buried() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metrics.jsonl");
        RunDir::append_line(&path, &serde_json::json!({"step": 1})).unwrap();
        // A kill (or a full disk) in the middle of the second line.
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"step\": 2, \"lo").unwrap();
        RunDir::append_line(&path, &serde_json::json!({"step": 3})).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"step\":1}\n{\"step\":3}\n");
        let rows: Vec<serde_json::Value> = crate::summary::read_jsonl(&path).unwrap();
        assert_eq!(rows.len(), 2);

        // A file that is one torn line, longer than the chunk the search reads at a time.
        std::fs::write(&path, vec![b'x'; 200_000]).unwrap();
        RunDir::append_line(&path, &serde_json::json!({"step": 4})).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"step\":4}\n");
        // A torn line after a long complete one.
        let long = format!("{{\"pad\":\"{}\"}}\n", "y".repeat(150_000));
        std::fs::write(&path, format!("{long}{{\"torn")).unwrap();
        RunDir::append_line(&path, &serde_json::json!({"step": 5})).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{long}{{\"step\":5}}\n")
        );
    }

    #[test]
    fn a_generations_count_remembers_shards_it_has_read_and_follows_new_and_removed_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::open(tmp.path()).unwrap();
        crate::play::play_quick_bashni_shards(&dir.data_dir(), 2, "g0001-000000").unwrap();
        let two = dir.generation_data(1).unwrap();
        assert_eq!(two.games, 2);
        assert_eq!(dir.counted.lock().unwrap().len(), 2);
        assert_eq!(dir.generation_data(1).unwrap(), two, "counted again from memory");

        // A follower's shard appears: a copy of one already counted, under its own name.
        let set = ShardSet::scan(&dir.data_dir()).unwrap();
        let first = &set.shards()[0];
        let (positions, games) = zero_data::shard_paths(&dir.data_dir(), "g0001-follow-node1-7-0000000a-00000-00000");
        std::fs::copy(&first.positions_path, &positions).unwrap();
        std::fs::copy(&first.games_path, &games).unwrap();
        let three = dir.generation_data(1).unwrap();
        assert_eq!(three.games, 3);
        assert_eq!(
            three.positions,
            two.positions + dir.counted.lock().unwrap()[&first.name].1.positions
        );

        // A shard removed (merged away) no longer counts; other generations' shards never did.
        std::fs::remove_file(&positions).unwrap();
        assert_eq!(dir.generation_data(1).unwrap(), two);
        assert_eq!(dir.generation_data(2).unwrap(), GenerationGames::default());
        assert!(
            dir.counted.lock().unwrap().is_empty(),
            "only the generation counted last is remembered"
        );
    }

    #[test]
    fn a_run_is_driven_while_its_process_holds_the_lease() {
        let dir = tempfile::tempdir().unwrap();
        let driven = || zero_rundir::lease::LeaseWatch::new(dir.path()).driven();
        assert!(!driven(), "no lease yet");
        let run = RunDir::open(dir.path()).unwrap();
        assert!(driven());
        let refused = RunDir::open(dir.path()).err().expect("held").to_string();
        assert!(refused.contains("is in use by another process"), "{refused}");
        drop(run);
        assert!(!driven());
        assert!(RunDir::open(dir.path()).is_ok());
    }
}
