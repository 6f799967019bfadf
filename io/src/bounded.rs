//! Reading a file a user named with bounded time and memory. The file is opened without blocking (a FIFO or a
//! device answers at once), and what was opened is checked, not the name: it must be a regular file (symlinks
//! followed) of at most its kind's cap ([`FileKind::cap`]), and it is read with that cap as a limit, so a file
//! that grows between the check and the read is refused too. Each refusal names the file and the reason
//! (`docs/reliability.md`, "Bounded inputs").

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What a user-named file is, which decides the largest one zero reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A TOML config (`zero run CONFIG`, `--config`): 1 MiB.
    Config,
    /// A game record (PDN, PGN-style, JSON lines): 256 MiB.
    Record,
    /// A bundle's `manifest.json`: 1 MiB.
    Manifest,
    /// A file of a bundle (weights, TorchScript, ONNX) or a checkpoint: 2 GiB.
    Network,
    /// A JSON or text file of results (standings, level ratings, solved positions): 64 MiB.
    Results,
    /// A self-play shard (Parquet), opened for the Parquet reader rather than read whole: 4 GiB.
    Shard,
}

impl FileKind {
    /// The largest file of this kind that is read, in bytes.
    pub const fn cap(self) -> u64 {
        const MIB: u64 = 1 << 20;
        match self {
            FileKind::Config | FileKind::Manifest => MIB,
            FileKind::Record => 256 * MIB,
            FileKind::Network => 2048 * MIB,
            FileKind::Results => 64 * MIB,
            FileKind::Shard => 4096 * MIB,
        }
    }

    /// The kind's name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            FileKind::Config => "config",
            FileKind::Record => "record",
            FileKind::Manifest => "manifest",
            FileKind::Network => "network file",
            FileKind::Results => "results file",
            FileKind::Shard => "shard",
        }
    }
}

/// Why a user-named file was not read; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The operating system's refusal (`error`, not a `source`: its text is already in this one's).
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: io::Error },
    #[error("{path}: not a regular file but {what}; a {kind} must be a file")]
    NotAFile {
        path: PathBuf,
        kind: &'static str,
        what: &'static str,
    },
    #[error("{path}: {size} bytes, more than the {cap} a {kind} may have")]
    TooLarge {
        path: PathBuf,
        kind: &'static str,
        size: u64,
        cap: u64,
    },
    #[error("{path}: leads outside {root}, where a {kind} must stay")]
    Outside {
        path: PathBuf,
        root: PathBuf,
        kind: &'static str,
    },
    #[error("{path}: not UTF-8 text")]
    NotText { path: PathBuf },
}

impl OpenError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            OpenError::Io { path, .. }
            | OpenError::NotAFile { path, .. }
            | OpenError::TooLarge { path, .. }
            | OpenError::Outside { path, .. }
            | OpenError::NotText { path } => path,
        }
    }
}

/// What a file type is, in words.
fn describe(kind: std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// Opens `path` as a file of `kind`: a regular file (symlinks followed) of at most `kind.cap()` bytes. Returns
/// the open file and its size. Never blocks on a FIFO or device: they are opened non-blocking and refused.
pub fn open_bounded(path: &Path, kind: FileKind) -> Result<(File, u64), OpenError> {
    let io_error = |error| OpenError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    if !meta.is_file() {
        return Err(OpenError::NotAFile {
            path: path.to_path_buf(),
            kind: kind.name(),
            what: describe(meta.file_type()),
        });
    }
    if meta.len() > kind.cap() {
        return Err(OpenError::TooLarge {
            path: path.to_path_buf(),
            kind: kind.name(),
            size: meta.len(),
            cap: kind.cap(),
        });
    }
    Ok((file, meta.len()))
}

/// The bytes of `path`, a file of `kind` ([`open_bounded`]), read with the cap as a limit.
pub fn read_bounded(path: &Path, kind: FileKind) -> Result<Vec<u8>, OpenError> {
    let (file, size) = open_bounded(path, kind)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(kind.cap() + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| OpenError::Io {
            path: path.to_path_buf(),
            error,
        })?;
    if bytes.len() as u64 > kind.cap() {
        return Err(OpenError::TooLarge {
            path: path.to_path_buf(),
            kind: kind.name(),
            size: bytes.len() as u64,
            cap: kind.cap(),
        });
    }
    Ok(bytes)
}

/// The text of `path`, a file of `kind` ([`read_bounded`]), which must be UTF-8.
pub fn read_text_bounded(path: &Path, kind: FileKind) -> Result<String, OpenError> {
    String::from_utf8(read_bounded(path, kind)?).map_err(|_| OpenError::NotText {
        path: path.to_path_buf(),
    })
}

/// `Ok` when `path`, symlinks resolved, lies inside `root` (itself resolved): a file a format places in a
/// directory (a bundle's files) may not lead anywhere else.
pub fn require_within(path: &Path, root: &Path, kind: FileKind) -> Result<(), OpenError> {
    let io_error = |path: &Path, error| OpenError::Io {
        path: path.to_path_buf(),
        error,
    };
    let resolved = path.canonicalize().map_err(|e| io_error(path, e))?;
    let root_resolved = root.canonicalize().map_err(|e| io_error(root, e))?;
    if resolved.starts_with(&root_resolved) {
        Ok(())
    } else {
        Err(OpenError::Outside {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
            kind: kind.name(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_at_once_by_what_they_are() {
        for (path, what) in [("/dev/zero", "a character device"), ("/", "a directory")] {
            let err = read_bounded(Path::new(path), FileKind::Config).unwrap_err();
            assert!(
                matches!(&err, OpenError::NotAFile { what: w, .. } if *w == what),
                "{path}: {err}"
            );
            assert!(err.to_string().starts_with(path), "{err}");
        }
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let err = read_bounded(&fifo, FileKind::Manifest).unwrap_err();
        assert!(matches!(err, OpenError::NotAFile { what: "a FIFO", .. }), "{err}");
    }

    #[test]
    fn a_symlink_is_followed_and_judged_by_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.toml");
        std::fs::write(&good, "game = \"bashni\"\n").unwrap();
        let to_good = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&good, &to_good).unwrap();
        assert_eq!(
            read_text_bounded(&to_good, FileKind::Config).unwrap(),
            "game = \"bashni\"\n"
        );
        let to_device = dir.path().join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &to_device).unwrap();
        let err = read_bounded(&to_device, FileKind::Config).unwrap_err();
        assert!(matches!(err, OpenError::NotAFile { .. }), "{err}");
    }

    #[test]
    fn a_file_over_its_kinds_cap_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("sparse");
        // Sparse: 3 GiB claimed, nothing written, so the test costs no disk.
        File::create(&big).unwrap().set_len(3 << 30).unwrap();
        for kind in [FileKind::Config, FileKind::Network] {
            let err = read_bounded(&big, kind).unwrap_err();
            assert!(
                matches!(err, OpenError::TooLarge { size, cap, .. } if size == 3 << 30 && cap == kind.cap()),
                "{err}"
            );
        }
        let at_cap = dir.path().join("at-cap");
        File::create(&at_cap).unwrap().set_len(FileKind::Config.cap()).unwrap();
        assert_eq!(
            read_bounded(&at_cap, FileKind::Config).unwrap().len() as u64,
            FileKind::Config.cap()
        );
    }

    #[test]
    fn text_must_be_utf8_and_a_missing_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = dir.path().join("latin1.pdn");
        std::fs::write(&bytes, b"[Event \"caf\xe9\"]").unwrap();
        assert!(matches!(
            read_text_bounded(&bytes, FileKind::Record),
            Err(OpenError::NotText { .. })
        ));
        let missing = dir.path().join("missing.pdn");
        let err = read_text_bounded(&missing, FileKind::Record).unwrap_err();
        assert_eq!(err.path(), missing.as_path());
        assert!(matches!(err, OpenError::Io { .. }));
    }

    #[test]
    fn a_link_that_leaves_its_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("bundle");
        std::fs::create_dir(&bundle).unwrap();
        std::fs::write(bundle.join("inside"), "x").unwrap();
        std::fs::write(dir.path().join("outside"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), bundle.join("escape")).unwrap();
        std::os::unix::fs::symlink("inside", bundle.join("alias")).unwrap();
        require_within(&bundle.join("inside"), &bundle, FileKind::Network).unwrap();
        require_within(&bundle.join("alias"), &bundle, FileKind::Network).unwrap();
        let err = require_within(&bundle.join("escape"), &bundle, FileKind::Network).unwrap_err();
        assert!(matches!(err, OpenError::Outside { .. }), "{err}");
    }
}
