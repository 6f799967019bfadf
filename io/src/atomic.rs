//! The one way zero writes files: to a temporary name beside the target, flushed to disk, then renamed over it.
//! A process killed at any moment leaves either the old file or the new one, never half of one; leftover
//! temporaries carry [`TEMP_MARKER`] in their name so that readers skip them and resumes can delete them.
//! A temporary's name carries its writer's host, PID and a random token, and the writer holds an exclusive
//! lock on it until the rename, so that a cleanup by another process (a run restarting while its followers write
//! into the same directory) can tell a live writer's file from a dead one's: [`remove_if_abandoned`]. Only the
//! writer's own host can tell (a lock of another host's process may not be visible over a shared filesystem),
//! so a cleanup never touches another host's temporaries. No age or timeout enters it, so a run resumed a
//! moment after a kill cleans what the killed one left.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Writes in progress in this process ([`writing`]), and whether it is ending ([`stop_writes`]).
static WRITES_IN_PROGRESS: AtomicUsize = AtomicUsize::new(0);
static ENDING: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// How many [`Writing`]s the current thread holds: a write nested in one (each half of a shard, written
    /// while the pair is held) is part of it and must go on, not wait for an exit that waits for it.
    static HELD_BY_THIS_THREAD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Held while a file, or files that belong together (a shard's two halves), are written: a process that ends on
/// a signal through [`stop_writes`] waits until none is held. Not `Send`: it is counted per thread.
pub struct Writing(std::marker::PhantomData<*const ()>);

/// Marks a write in progress until the returned value is dropped. Once the process is ending, the write never
/// starts: the calling thread waits for the exit, unless it already holds a write that this one belongs to.
pub fn writing() -> Writing {
    loop {
        // Counted first, then the flag read; `stop_writes` sets the flag, then reads the count: one of
        // the two always sees the other.
        WRITES_IN_PROGRESS.fetch_add(1, Ordering::SeqCst);
        let nested = HELD_BY_THIS_THREAD.get() > 0;
        if nested || !ENDING.load(Ordering::SeqCst) {
            HELD_BY_THIS_THREAD.set(HELD_BY_THIS_THREAD.get() + 1);
            return Writing(std::marker::PhantomData);
        }
        WRITES_IN_PROGRESS.fetch_sub(1, Ordering::SeqCst);
        std::thread::park();
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        HELD_BY_THIS_THREAD.set(HELD_BY_THIS_THREAD.get() - 1);
        WRITES_IN_PROGRESS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Lets no new write start (they wait for ever) and returns once none is in progress, waiting at most 30 s for
/// one that hangs: what a process ending on a signal calls before it exits, so that it leaves no temporary and
/// no half of a shard behind (`zero_run::exit_between_writes`).
pub fn stop_writes() {
    ENDING.store(true, Ordering::SeqCst);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while WRITES_IN_PROGRESS.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Part of the name of every temporary file zero writes.
pub const TEMP_MARKER: &str = ".zero-tmp-";

/// Whether `path` is a temporary file of [`write_atomically`] (complete or not, it was never renamed).
pub fn is_temporary(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().contains(TEMP_MARKER))
}

/// A random 64-bit number, different in every call and in every process (the standard library seeds its hash
/// keys from the OS's randomness): for names and seeds that must not collide between processes, even ones
/// with the same PID on different hosts or containers.
pub fn unique_token() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// When process `pid` started, in clock ticks after boot; none when no such process runs.
pub fn process_start(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields that follow come after the last ')'. The
    // start time is field 22; after the name, field 3 comes first.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// zero's cache directory, shared with the set-up (`scripts/setup.sh`): `$ZERO_CACHE`, or `~/.cache/zero`; none
/// where neither is set.
pub fn zero_cache_dir() -> Option<PathBuf> {
    let named = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
    named("ZERO_CACHE").or_else(|| named("HOME").map(|home| home.join(".cache/zero")))
}

/// This machine's host name, its letters and digits only (as file names carry it), `host` if it has none.
pub fn this_host() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = name.trim().chars().filter(char::is_ascii_alphanumeric).collect();
    if name.is_empty() { "host".to_string() } else { name }
}

fn temporary_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        "{name}{TEMP_MARKER}{}-{}-{:016x}",
        this_host(),
        std::process::id(),
        unique_token()
    ))
}

/// The host and PID a temporary's name gives (`NAME.zero-tmp-HOST-PID-TOKEN`); none for other names, and for
/// the temporaries of zero versions that named no host.
fn temporary_writer(path: &Path) -> Option<(String, u32)> {
    let name = path.file_name()?.to_str()?;
    let writer = &name[name.rfind(TEMP_MARKER)? + TEMP_MARKER.len()..];
    let mut parts = writer.split('-');
    let (host, pid, token) = (parts.next()?, parts.next()?, parts.next()?);
    let named = parts.next().is_none() && token.len() == 16 && !host.is_empty();
    named.then(|| Some((host.to_string(), pid.parse().ok()?))).flatten()
}

/// Writes the file through `fill`, atomically: `path` appears only once everything was written and synced.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    write_atomically_held(path, fill).map(drop)
}

/// [`write_atomically_with`], returning the written file still locked: a writer whose file is one half of a pair
/// holds it until the other half is in place, so that a cleanup never takes the first half for an orphan
/// ([`remove_if_unheld`]).
pub fn write_atomically_held(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<File> {
    let _writing = writing();
    let (tmp, mut file) = create_locked_temporary(path)?;
    let result = (|| {
        fill(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        // The rename itself must reach the disk before anyone relies on it.
        sync_parent(path);
        Ok(())
    })();
    match result {
        Ok(()) => Ok(file),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Syncs the directory that holds `path`, so that a name just made in it (a rename, a new directory) survives a
/// power cut. Best effort: the name is already in place, and some file systems cannot sync a directory.
fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

/// Moves a finished file or directory into place durably: `from` synced first (a directory's entries; sync the
/// files in it before), then the rename, then the directory that holds `to`. For what another library wrote to
/// a path of its own; [`write_atomically`] does all of this for what zero writes itself.
pub fn rename_durably(from: &Path, to: &Path) -> io::Result<()> {
    File::open(from)?.sync_all()?;
    fs::rename(from, to)?;
    sync_parent(to);
    Ok(())
}

/// Creates `dir` and whatever parents it lacks, each made durable: the directory holding a new one is synced
/// after it. A new directory whose own entry never reached the disk would take every file in it along at a
/// power cut, however carefully each was synced (found by scripts/fs-faults.py).
pub fn create_dir_durably(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir_durably(parent)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => sync_parent(dir),
        // Made meanwhile by another process, which syncs it.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => {}
        Err(e) => return Err(e),
    }
    Ok(())
}

/// Creates and locks a new temporary for `path`. A cleanup may remove the file between its creation and the
/// lock (it is unlocked then, as a dead writer's is); the name then no longer leads to the locked file, and a
/// fresh temporary is made.
fn create_locked_temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    loop {
        let tmp = temporary_for(path);
        let file = File::create(&tmp)?;
        // Held until the file is dropped: the mark of a live writer for `remove_if_unheld`. A filesystem without
        // locks leaves the writer's PID in the name as the only mark (see `remove_if_abandoned`).
        if let Err(e) = file.lock()
            && !locks_unsupported(&e)
        {
            return Err(e);
        }
        if names_this_file(&tmp, &file)? {
            return Ok((tmp, file));
        }
    }
}

/// Whether `path` still names the open `file`.
fn names_this_file(path: &Path, file: &File) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let held = file.metadata()?;
    match fs::metadata(path) {
        Ok(named) => Ok(named.dev() == held.dev() && named.ino() == held.ino()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |f| f.write_all(bytes))
}

/// Whether a lock failed because the filesystem has none (an NFS mount without a lock manager).
fn locks_unsupported(e: &io::Error) -> bool {
    const ENOLCK: i32 = 37;
    e.kind() == io::ErrorKind::Unsupported || e.raw_os_error() == Some(ENOLCK)
}

/// Removes the temporary `path` if its writer is gone: it was written on this host and no process holds its
/// lock (where the filesystem has no locks: its writer's PID no longer runs here). Another host's temporary is
/// left to that host. Returns whether it was removed; a file already gone counts as not removed.
pub fn remove_if_abandoned(path: &Path) -> io::Result<bool> {
    let writer = temporary_writer(path);
    if writer.as_ref().is_some_and(|(host, _)| *host != this_host()) {
        return Ok(false);
    }
    match remove_if_unheld(path, || false) {
        Err(e) if locks_unsupported(&e) => {
            if writer.is_some_and(|(_, pid)| process_start(pid).is_none()) {
                return remove_unless_gone(path);
            }
            Ok(false)
        }
        other => other,
    }
}

fn remove_unless_gone(path: &Path) -> io::Result<bool> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Removes `path` if no process holds its lock and, asked once the lock is taken, `still_needed` says no. A
/// writer holds its lock until it is done (see [`write_atomically_held`]), so what `still_needed` looks at is
/// final by then: a games file whose positions file is missing once no writer holds it is an orphan for good.
/// Returns whether it was removed; a file already gone counts as not removed.
pub fn remove_if_unheld(path: &Path, still_needed: impl FnOnce() -> bool) -> io::Result<bool> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => return Ok(false),
        Err(fs::TryLockError::Error(e)) => return Err(e),
    }
    // The file may have been replaced under its name meanwhile (a writer's rename): only the one locked goes.
    if still_needed() || !names_this_file(path, &file)? {
        return Ok(false);
    }
    remove_unless_gone(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durable_directories_and_renames_make_what_they_name() {
        let dir = std::env::temp_dir().join(format!("zero-durable-dir-test-{}", std::process::id()));
        let deep = dir.join("a").join("b");
        create_dir_durably(&deep).unwrap();
        create_dir_durably(&deep).unwrap();
        assert!(deep.is_dir());
        // A file where a directory is asked for is an error, not a silent success.
        fs::write(dir.join("file"), b"x").unwrap();
        assert!(create_dir_durably(&dir.join("file")).is_err());
        assert!(create_dir_durably(&dir.join("file").join("under")).is_err());
        fs::write(deep.join("drawn"), b"png").unwrap();
        rename_durably(&deep.join("drawn"), &dir.join("plot.png")).unwrap();
        assert_eq!(fs::read(dir.join("plot.png")).unwrap(), b"png");
        assert!(rename_durably(&deep.join("drawn"), &dir.join("again")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replaces_whole_files_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("zero-files-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.bin");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let failed = write_atomically_with(&path, |f| {
            f.write_all(b"partial")?;
            Err(io::Error::other("killed"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"second", "a failed write touched the file");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(names, vec![path.clone()]);
        assert!(is_temporary(&temporary_for(&path)) && !is_temporary(&path));
        assert_ne!(
            temporary_for(&path),
            temporary_for(&path),
            "every write has its own temporary"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn only_a_temporary_whose_writer_is_gone_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(format!("a.bin.zero-tmp-{}-1-{:016x}", this_host(), 7));
        fs::write(&dead, b"half").unwrap();
        assert!(remove_if_abandoned(&dead).unwrap(), "no one holds it, however new");
        assert!(!dead.exists());
        assert!(!remove_if_abandoned(&dead).unwrap(), "already gone");

        // A live writer's temporary, locked as write_atomically_with locks it (another open file description
        // of the same process conflicts like another process's).
        let live = dir.path().join("b.bin.zero-tmp-1-0");
        assert_eq!(
            temporary_writer(&live),
            None,
            "a name of older versions, without the host"
        );
        let writer = File::create(&live).unwrap();
        writer.lock().unwrap();
        assert!(!remove_if_abandoned(&live).unwrap());
        assert!(live.exists());
        drop(writer);
        assert!(remove_if_abandoned(&live).unwrap());

        // Another host's temporary: only that host can tell whether its writer lives.
        let elsewhere = dir.path().join(format!("c.bin.zero-tmp-{}x-1-{:016x}", this_host(), 7));
        fs::write(&elsewhere, b"half").unwrap();
        assert!(!remove_if_abandoned(&elsewhere).unwrap());
        assert!(elsewhere.exists());
    }

    #[test]
    fn a_temporary_names_its_host_and_process() {
        let tmp = temporary_for(Path::new("/run/data/g0001-a.parquet"));
        assert_eq!(temporary_writer(&tmp), Some((this_host(), std::process::id())));
        assert!(this_host().chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn a_held_file_stays_until_its_writer_lets_go_and_is_then_removed_only_if_not_needed() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("pair.first");
        let held = write_atomically_held(&first, |f| f.write_all(b"one half")).unwrap();
        assert_eq!(fs::read(&first).unwrap(), b"one half");
        assert!(
            !remove_if_unheld(&first, || false).unwrap(),
            "its writer still holds it"
        );
        drop(held);
        assert!(!remove_if_unheld(&first, || true).unwrap(), "needed");
        assert!(first.exists());
        assert!(remove_if_unheld(&first, || false).unwrap());
        assert!(!first.exists());
    }

    #[test]
    fn a_temporary_removed_before_its_lock_is_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        let (tmp, file) = create_locked_temporary(&path).unwrap();
        assert!(names_this_file(&tmp, &file).unwrap());
        // What a cleanup between the creation and the lock would have done.
        fs::remove_file(&tmp).unwrap();
        assert!(!names_this_file(&tmp, &file).unwrap());
        fs::write(&tmp, b"another file under the name").unwrap();
        assert!(!names_this_file(&tmp, &file).unwrap());
    }
}
