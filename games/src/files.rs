//! The one way zero writes files: to a temporary name beside the target, flushed to disk, then renamed over it.
//! A process killed at any moment leaves either the old file or the new one, never half of one; leftover
//! temporaries carry [`TEMP_MARKER`] in their name so that readers skip them and resumes can delete them.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Part of the name of every temporary file zero writes.
pub const TEMP_MARKER: &str = ".zero-tmp-";

/// Whether `path` is a temporary file of [`write_atomically`] (complete or not, it was never renamed).
pub fn is_temporary(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().contains(TEMP_MARKER))
}

fn temporary_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{name}{TEMP_MARKER}{}", std::process::id()))
}

/// Writes the file through `fill`, atomically: `path` appears only once everything was written and synced.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let tmp = temporary_for(path);
    let result = (|| {
        let mut file = File::create(&tmp)?;
        fill(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        // The rename itself must reach the disk before anyone relies on it.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |f| f.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        fs::remove_dir_all(dir).unwrap();
    }
}
