//! How zero touches the file system, in one place for every crate:
//!
//! - [`atomic`]: the one way zero writes files, to a temporary beside the target, synced, then renamed over it,
//!   with the writers' locks and the sweep of abandoned temporaries;
//! - [`bounded`]: the one way zero reads a file a user named (a config, a record, a bundle's manifest and
//!   files, a standings file): only a regular file (after symlinks), at most the documented size for its kind
//!   ([`FileKind`]), inside the directory that contains it where the format implies containment, never waiting
//!   on a FIFO or a device.

pub mod atomic;
pub mod bounded;

pub use atomic::{
    TEMP_MARKER, Writing, create_dir_durably, is_temporary, process_start, remove_if_abandoned, remove_if_unheld,
    rename_durably, stop_writes, this_host, unique_token, write_atomically, write_atomically_held,
    write_atomically_with, writing, zero_cache_dir,
};
pub use bounded::{FileKind, OpenError, open_bounded, read_bounded, read_text_bounded, require_within};
