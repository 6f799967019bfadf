//! Process set-up that both binaries need and that has nothing to do with libtorch.

/// Restores the default action of SIGPIPE, which Rust's runtime ignores: output piped into a reader that stops
/// early (`zero moves ... | head`) then ends the process quietly, as it ends any command-line tool, instead of
/// making `println!` panic. Sockets are unaffected: the standard library writes to them with `MSG_NOSIGNAL`.
pub fn die_quietly_on_a_closed_pipe() {
    // SAFETY: called first thing in `main`, before any other thread exists; it changes one signal disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
