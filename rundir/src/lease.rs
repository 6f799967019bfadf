//! The run's lease: which process drives a run, decided in a way that holds on a shared filesystem where `flock`
//! may not work and the clocks of different hosts differ (docs/cluster.md).
//!
//! The lease is the highest-numbered record in `RUN_DIR/lease/` (`00000001.json`, `00000002.json`, …). A process
//! takes it by hard-linking a complete record of its own to the next epoch's name: a link fails when the name
//! exists, atomically (NFS included), so of two contenders for one epoch exactly one wins, and two hosts never
//! both hold the run. The holder renews its record every [`Timing::renew`] (its `beat` goes up) and marks it
//! released when it lets go. A contender takes over a lease
//! - at once when it is released, or when its holder is a process of this very machine (same boot, same PID
//!   namespace) that is gone: a run killed with `kill -9` resumes without waiting;
//! - otherwise only after it has watched the beat stand still for [`Timing::stale`] by its own clock (no
//!   timestamps of another host are compared): a holder that crashed elsewhere never leaves the run stuck.
//!
//! A holder that was stalled past `stale` (a stopped process, a hung filesystem) finds a higher epoch when it
//! next renews: it has lost the lease, and [`Lease::check`], asked before every commit of the run, refuses.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::layout::RunPaths;

/// How often a holder renews its lease, and how long a beat must stand still before another host takes over.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub renew: Duration,
    pub stale: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            renew: Duration::from_secs(1),
            stale: Duration::from_secs(10),
        }
    }
}

/// What went wrong with a lease.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error("run directory {dir} is in use by another process ({holder}); stop it first, or use another --run-dir")]
    InUse { dir: PathBuf, holder: String },
    #[error(
        "this process lost the lease of run directory {dir} to {holder}: it was not renewed for {stale_s} s (the \
         process was stopped or its filesystem hung), so another process drives the run now"
    )]
    Lost { dir: PathBuf, holder: String, stale_s: u64 },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path} is damaged ({why}); if no process drives the run, remove it")]
    Damaged { path: PathBuf, why: String },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> LeaseError + '_ {
    move |source| LeaseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One lease record: who holds the epoch and its heartbeat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseRecord {
    pub host: String,
    pub pid: u32,
    /// This machine's boot and PID namespace: a holder with the same one is a process this machine can see.
    pub machine: String,
    /// When the process started, in clock ticks after boot (`/proc/PID/stat`): a reused PID is not the holder.
    pub process_start: u64,
    /// Drawn by the holder; tells its own record from another's.
    pub token: String,
    /// Goes up at every renewal.
    pub beat: u64,
    pub released: bool,
}

impl LeaseRecord {
    /// The holder in words: `pid 123 on node7`.
    pub fn holder(&self) -> String {
        format!("pid {} on {}", self.pid, self.host)
    }

    /// The record of this process, at beat 0.
    pub fn for_this_process() -> LeaseRecord {
        let pid = std::process::id();
        LeaseRecord {
            host: zero_io::this_host(),
            pid,
            machine: this_machine(),
            process_start: zero_io::process_start(pid).unwrap_or(0),
            token: format!("{:016x}", zero_io::unique_token()),
            beat: 0,
            released: false,
        }
    }

    /// Whether the holder is known to be gone without waiting: released, or a process of this machine that no
    /// longer runs (its PID gone, or reused by a process started at another time).
    fn gone_here(&self) -> bool {
        self.released
            || (!self.machine.is_empty()
                && self.machine == this_machine()
                && zero_io::process_start(self.pid) != Some(self.process_start))
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// This boot of this machine and this process's PID namespace (empty where they cannot be read: then no holder
/// counts as local, and every takeover waits for a stale beat).
fn this_machine() -> String {
    let boot = read_trimmed("/proc/sys/kernel/random/boot_id");
    let namespace = std::fs::read_link("/proc/self/ns/pid").ok();
    match (boot, namespace) {
        (Some(boot), Some(ns)) => format!("{boot} {}", ns.display()),
        _ => String::new(),
    }
}

fn epoch_path(dir: &Path, epoch: u64) -> PathBuf {
    dir.join(format!("{epoch:08}.json"))
}

/// The epoch a lease file's name gives (`00000012.json`), none for any other file.
fn epoch_of(name: &str) -> Option<u64> {
    let digits = name.strip_suffix(".json")?;
    (digits.len() == 8 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn epochs(dir: &Path) -> Result<Vec<u64>, LeaseError> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries
            .flatten()
            .filter_map(|e| epoch_of(&e.file_name().to_string_lossy()))
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(io_error(dir)(e)),
    }
}

/// The current lease of the lease folder `dir`: its epoch and record, none if no process ever took one.
pub fn current(dir: &Path) -> Result<Option<(u64, LeaseRecord)>, LeaseError> {
    // A record is replaced by a rename and old epochs are removed by a new holder: a read that misses is retried.
    for _ in 0..20 {
        let Some(epoch) = epochs(dir)?.into_iter().max() else {
            return Ok(None);
        };
        let path = epoch_path(dir, epoch);
        match std::fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str(&text) {
                Ok(record) => return Ok(Some((epoch, record))),
                // Only a filesystem without hard links shows a record while it is written.
                Err(_) if text.is_empty() => {}
                Err(e) => {
                    return Err(LeaseError::Damaged {
                        path,
                        why: e.to_string(),
                    });
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_error(&path)(e)),
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Err(LeaseError::Damaged {
        path: dir.to_path_buf(),
        why: "its newest record kept vanishing or stayed empty".to_string(),
    })
}

/// Makes `record` epoch `epoch`'s record unless that epoch is taken; whether it was.
fn claim(dir: &Path, epoch: u64, record: &LeaseRecord) -> Result<bool, LeaseError> {
    zero_io::create_dir_durably(dir).map_err(io_error(dir))?;
    let target = epoch_path(dir, epoch);
    let draft = dir.join(format!("claim-{}.json", record.token));
    let text = serde_json::to_vec(record).expect("a lease record serializes");
    zero_io::write_atomically(&draft, &text).map_err(io_error(&draft))?;
    let linked = std::fs::hard_link(&draft, &target);
    let _ = std::fs::remove_file(&draft);
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        // A filesystem without hard links (EPERM or ENOTSUP): an exclusive create decides instead (readers wait
        // out the moment the record is empty).
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::Unsupported
            ) =>
        {
            claim_by_exclusive_create(&target, &text)
        }
        Err(e) => Err(io_error(&target)(e)),
    }
}

fn claim_by_exclusive_create(target: &Path, text: &[u8]) -> Result<bool, LeaseError> {
    use std::io::Write;
    match std::fs::OpenOptions::new().write(true).create_new(true).open(target) {
        Ok(mut file) => {
            file.write_all(text)
                .and_then(|()| file.sync_all())
                .map_err(io_error(target))?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(io_error(target)(e)),
    }
}

/// What a holder's renewing thread and the holder share.
struct Held {
    dir: PathBuf,
    epoch: u64,
    timing: Timing,
    record: Mutex<LeaseRecord>,
    /// The record of the process that took the lease over, once this one lost it.
    lost_to: Mutex<Option<LeaseRecord>>,
}

impl Held {
    /// One renewal: the beat goes up, unless a higher epoch shows the lease lost. A failed write is retried at the
    /// next renewal (if they keep failing past `stale`, another host may take the run over, and this one learns
    /// it from the higher epoch).
    fn renew(&self) {
        match current(&self.dir) {
            Ok(Some((epoch, record))) if epoch > self.epoch => {
                *self.lost_to.lock().unwrap_or_else(|e| e.into_inner()) = Some(record);
                return;
            }
            Ok(_) => {}
            Err(_) => return,
        }
        let mut record = self.record.lock().unwrap_or_else(|e| e.into_inner());
        record.beat += 1;
        let path = epoch_path(&self.dir, self.epoch);
        let text = serde_json::to_vec(&*record).expect("a lease record serializes");
        let _ = zero_io::write_atomically(&path, &text);
    }

    fn lost(&self) -> Option<LeaseRecord> {
        self.lost_to.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A lease held by this process, renewed by a thread of its own until it is dropped (then released).
pub struct Lease {
    held: Arc<Held>,
    stop: Option<Sender<()>>,
    renewer: Option<std::thread::JoinHandle<()>>,
}

impl Lease {
    /// Takes the lease of the run in `root` for this process, with the default timing.
    pub fn acquire(root: &Path) -> Result<Lease, LeaseError> {
        Lease::acquire_as(root, LeaseRecord::for_this_process(), Timing::default(), |_| {})
    }

    /// Takes the lease for `record`'s holder. `waiting` hears of a holder elsewhere whose beat is being watched.
    pub fn acquire_as(
        root: &Path,
        record: LeaseRecord,
        timing: Timing,
        mut waiting: impl FnMut(&LeaseRecord),
    ) -> Result<Lease, LeaseError> {
        let dir = RunPaths::new(root).lease_dir();
        let mut watched: Option<(u64, u64, Instant)> = None;
        loop {
            let next = match current(&dir)? {
                None => 1,
                Some((epoch, held)) if held.gone_here() => epoch + 1,
                Some((epoch, held)) => match watched {
                    Some((e, beat, since)) if e == epoch && beat == held.beat => {
                        if since.elapsed() < timing.stale {
                            std::thread::sleep(timing.renew / 4);
                            continue;
                        }
                        epoch + 1
                    }
                    // The same machine can tell a live holder at once; elsewhere a moving beat (or a new epoch
                    // taken meanwhile) is the sign of life.
                    _ if watched.is_some() || (!record.machine.is_empty() && held.machine == record.machine) => {
                        return Err(LeaseError::InUse {
                            dir: root.to_path_buf(),
                            holder: held.holder(),
                        });
                    }
                    _ => {
                        waiting(&held);
                        watched = Some((epoch, held.beat, Instant::now()));
                        continue;
                    }
                },
            };
            if claim(&dir, next, &record)? {
                return Ok(Lease::start(dir, next, record, timing));
            }
            // Another contender took that epoch first: it is alive, as the next look shows.
            watched = None;
        }
    }

    fn start(dir: PathBuf, epoch: u64, record: LeaseRecord, timing: Timing) -> Lease {
        // Older epochs are history now; a stalled holder that renews its old one later is told by this epoch.
        for old in epochs(&dir).unwrap_or_default().into_iter().filter(|&e| e < epoch) {
            let _ = std::fs::remove_file(epoch_path(&dir, old));
        }
        let held = Arc::new(Held {
            dir,
            epoch,
            timing,
            record: Mutex::new(record),
            lost_to: Mutex::new(None),
        });
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let renewing = held.clone();
        let renewer = std::thread::Builder::new()
            .name("lease".to_string())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(renewing.timing.renew) {
                    renewing.renew();
                    if renewing.lost().is_some() {
                        return;
                    }
                }
            })
            .ok();
        Lease {
            held,
            stop: Some(stop),
            renewer,
        }
    }

    /// The epoch this lease holds.
    pub fn epoch(&self) -> u64 {
        self.held.epoch
    }

    /// Whether this process still holds the lease: asked before each commit, so that a holder that lost it
    /// (stalled past `stale` while another took over) writes nothing more.
    pub fn check(&self) -> Result<(), LeaseError> {
        if self.held.lost().is_none() {
            // A renewer that is behind (the process was stopped) may not have looked yet.
            if let Ok(Some((epoch, record))) = current(&self.held.dir)
                && epoch > self.held.epoch
            {
                *self.held.lost_to.lock().unwrap_or_else(|e| e.into_inner()) = Some(record);
            }
        }
        match self.held.lost() {
            None => Ok(()),
            Some(by) => Err(LeaseError::Lost {
                dir: self.held.dir.parent().unwrap_or(&self.held.dir).to_path_buf(),
                holder: by.holder(),
                stale_s: self.held.timing.stale.as_secs(),
            }),
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(renewer) = self.renewer.take() {
            let _ = renewer.join();
        }
        if self.check().is_ok() {
            let mut record = self.held.record.lock().unwrap_or_else(|e| e.into_inner());
            record.released = true;
            let text = serde_json::to_vec(&*record).expect("a lease record serializes");
            let _ = zero_io::write_atomically(&epoch_path(&self.held.dir, self.held.epoch), &text);
        }
    }
}

/// A reader's view of whether a run is driven, kept across looks: a holder on another machine counts as live
/// until its beat has stood still for `stale` by this reader's clock.
pub struct LeaseWatch {
    dir: PathBuf,
    timing: Timing,
    /// The epoch and beat last seen, and when they were first seen so.
    seen: Option<(u64, u64, Instant)>,
}

impl LeaseWatch {
    pub fn new(root: &Path) -> LeaseWatch {
        LeaseWatch::with_timing(root, Timing::default())
    }

    pub fn with_timing(root: &Path, timing: Timing) -> LeaseWatch {
        LeaseWatch {
            dir: RunPaths::new(root).lease_dir(),
            timing,
            seen: None,
        }
    }

    /// The current holder, if any process drives the run as far as this watch can tell now (a lease that
    /// cannot be read counts as held: a follower then keeps going rather than stop a live run's work).
    pub fn holder(&mut self) -> Option<LeaseRecord> {
        let (epoch, record) = match current(&self.dir) {
            Ok(Some(found)) => found,
            Ok(None) => return None,
            Err(_) => return unknown_holder(),
        };
        if record.gone_here() {
            return None;
        }
        match self.seen {
            Some((e, beat, since)) if e == epoch && beat == record.beat => {
                (since.elapsed() < self.timing.stale).then_some(record)
            }
            _ => {
                self.seen = Some((epoch, record.beat, Instant::now()));
                Some(record)
            }
        }
    }

    /// Whether a process drives the run.
    pub fn driven(&mut self) -> bool {
        self.holder().is_some()
    }

    /// A one-time look (`zero status`): the holder, if one drives the run. A holder on another machine is
    /// watched for up to two renewals; it counts as live if its beat moves (or the look cannot tell).
    pub fn look(root: &Path, timing: Timing) -> Option<LeaseRecord> {
        let mut watch = LeaseWatch::with_timing(root, timing);
        let first = watch.holder()?;
        if !first.machine.is_empty() && first.machine == this_machine() {
            return Some(first);
        }
        let deadline = Instant::now() + timing.renew * 2;
        while Instant::now() < deadline {
            std::thread::sleep(timing.renew / 4);
            match current(&watch.dir) {
                Ok(Some((_, now))) if now.beat != first.beat || now.token != first.token => {
                    return (!now.released).then_some(now);
                }
                Ok(None) => return None,
                _ => {}
            }
        }
        None
    }
}

fn unknown_holder() -> Option<LeaseRecord> {
    Some(LeaseRecord {
        host: "an unreadable lease".to_string(),
        pid: 0,
        machine: String::new(),
        process_start: 0,
        token: String::new(),
        beat: 0,
        released: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::LEASE_DIR;

    fn fast() -> Timing {
        Timing {
            renew: Duration::from_millis(20),
            stale: Duration::from_secs(1),
        }
    }

    /// A holder on another machine, as this test plays it.
    fn elsewhere(host: &str) -> LeaseRecord {
        LeaseRecord {
            host: host.to_string(),
            machine: format!("machine of {host}"),
            token: format!("{:016x}", zero_io::unique_token()),
            ..LeaseRecord::for_this_process()
        }
    }

    fn write_record(root: &Path, epoch: u64, record: &LeaseRecord) {
        let dir = root.join(LEASE_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(epoch_path(&dir, epoch), serde_json::to_vec(record).unwrap()).unwrap();
    }

    #[test]
    fn a_live_local_holder_is_refused_at_once_and_a_released_lease_is_taken_at_once() {
        let run = tempfile::tempdir().unwrap();
        let lease = Lease::acquire(run.path()).unwrap();
        assert_eq!(lease.epoch(), 1);
        let start = Instant::now();
        let refused = Lease::acquire(run.path()).err().expect("the run is held");
        // Waiting would take the 10 s of a stale beat; 5 s leaves room for a slow fsync on a loaded disk.
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no waiting for a local holder"
        );
        let text = refused.to_string();
        assert!(text.contains(&format!("pid {}", std::process::id())), "{text}");
        assert!(LeaseWatch::new(run.path()).driven());
        drop(lease);
        assert!(!LeaseWatch::new(run.path()).driven(), "released");
        let again = Lease::acquire(run.path()).unwrap();
        assert_eq!(again.epoch(), 2);
        let names: Vec<String> = std::fs::read_dir(run.path().join(LEASE_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["00000002.json"], "older epochs and drafts are gone");
    }

    #[test]
    fn a_dead_local_holder_is_taken_over_without_waiting() {
        let run = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead_pid = child.id();
        child.wait().unwrap();
        let dead = LeaseRecord {
            pid: dead_pid,
            ..LeaseRecord::for_this_process()
        };
        write_record(run.path(), 7, &dead);
        assert!(!LeaseWatch::new(run.path()).driven());
        let start = Instant::now();
        let lease = Lease::acquire(run.path()).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no waiting out a stale beat (10 s)"
        );
        assert_eq!(lease.epoch(), 8);
    }

    #[test]
    fn a_holder_elsewhere_is_refused_while_its_beat_moves_and_taken_over_once_it_stands_still() {
        let run = tempfile::tempdir().unwrap();
        let live = Lease::acquire_as(run.path(), elsewhere("node1"), fast(), |_| {}).unwrap();
        let mut heard = Vec::new();
        let refused = Lease::acquire_as(run.path(), elsewhere("node2"), fast(), |h| heard.push(h.holder()));
        assert!(matches!(refused, Err(LeaseError::InUse { .. })), "{:?}", refused.err());
        assert_eq!(heard.len(), 1, "the contender said it watched node1's beat");
        assert!(heard[0].ends_with("on node1"));

        // node1 crashes: its record stays as it was, never renewed and never released.
        let crashed = current(&run.path().join(LEASE_DIR)).unwrap().unwrap().1;
        drop(live);
        write_record(run.path(), 1, &crashed);
        let mut watch = LeaseWatch::with_timing(run.path(), fast());
        assert!(
            watch.driven(),
            "a holder elsewhere counts as live until its beat has stood still"
        );
        let start = Instant::now();
        let taken = Lease::acquire_as(run.path(), elsewhere("node2"), fast(), |_| {}).unwrap();
        assert!(start.elapsed() >= fast().stale, "took over after {:?}", start.elapsed());
        assert_eq!(taken.epoch(), 2);
        assert_eq!(watch.holder().map(|h| h.host).as_deref(), Some("node2"));
    }

    #[test]
    fn of_many_hosts_racing_for_a_stale_lease_exactly_one_wins() {
        let run = tempfile::tempdir().unwrap();
        write_record(run.path(), 3, &elsewhere("crashed"));
        let outcomes: Vec<Result<Lease, LeaseError>> = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..8)
                .map(|i| {
                    let root = run.path();
                    scope.spawn(move || Lease::acquire_as(root, elsewhere(&format!("node{i}")), fast(), |_| {}))
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let winners = outcomes.iter().filter(|o| o.is_ok()).count();
        assert_eq!(
            winners,
            1,
            "{:?}",
            outcomes
                .iter()
                .map(|o| o.as_ref().err().map(|e| e.to_string()))
                .collect::<Vec<_>>()
        );
        for outcome in &outcomes {
            match outcome {
                Ok(lease) => assert_eq!(lease.epoch(), 4),
                Err(e) => assert!(matches!(e, LeaseError::InUse { .. }), "{e}"),
            }
        }
    }

    #[test]
    fn a_stalled_holder_loses_the_lease_and_its_check_refuses() {
        let run = tempfile::tempdir().unwrap();
        let stalled = Lease::acquire_as(run.path(), elsewhere("node1"), fast(), |_| {}).unwrap();
        assert!(stalled.check().is_ok());
        let taken = {
            // The holder's renewals wait on its record: it is stalled, as a stopped process would be.
            let _stall = stalled.held.record.lock().unwrap();
            Lease::acquire_as(run.path(), elsewhere("node2"), fast(), |_| {}).unwrap()
        };
        let refused = stalled.check().expect_err("lost");
        assert!(matches!(refused, LeaseError::Lost { .. }));
        assert!(refused.to_string().contains("on node2"), "{refused}");
        // The loser's renewer stops, and dropping it releases nothing of the new holder's.
        std::thread::sleep(fast().renew * 3);
        drop(stalled);
        assert!(taken.check().is_ok());
        let (epoch, record) = current(&run.path().join(LEASE_DIR)).unwrap().unwrap();
        assert_eq!((epoch, record.host.as_str(), record.released), (2, "node2", false));
    }

    #[test]
    fn a_damaged_lease_is_named_and_not_taken_over() {
        let run = tempfile::tempdir().unwrap();
        let dir = run.path().join(LEASE_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("00000004.json"), b"{\"host\": 12").unwrap();
        let refused = Lease::acquire(run.path()).err().expect("damaged");
        assert!(refused.to_string().contains("00000004.json is damaged"), "{refused}");
        assert!(LeaseWatch::new(run.path()).driven(), "a follower keeps going");
    }

    #[test]
    fn only_eight_digit_json_names_are_epochs() {
        assert_eq!(epoch_of("00000012.json"), Some(12));
        for other in [
            "0000012.json",
            "00000012.json.zero-tmp-1",
            "claim-ab.json",
            "0000001x.json",
        ] {
            assert_eq!(epoch_of(other), None, "{other}");
        }
    }
}
