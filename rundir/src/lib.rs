//! A run directory, readable and writable without libtorch: where everything in it lives ([`layout`]), the
//! records a run appends ([`summary`]: the generation summaries and metrics rows), the lease of the process that
//! drives it ([`lease`]), its followers' launch records and heartbeats ([`followers`]), and the status that
//! `zero status` reads from all of them ([`status`]). The run crate drives a run through these; the report crate
//! draws from them.

mod error;
pub mod followers;
pub mod layout;
pub mod lease;
pub mod status;
pub mod summary;

pub use error::RunDirError;
pub use layout::{RunPaths, require_run_dir};

/// Seconds since the Unix epoch, by this host's clock.
pub fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
