//! Process-wide set-up that must happen before any tensor work: the OpenMP wait policy, the C allocator's
//! thresholds, torch's thread pools, and the choice of device. `zero-torch`'s `main` calls these before any
//! command runs, so nobody else has to know them.
//!
//! Why: libtorch's OpenMP busy-waits between parallel regions by default. On a small shared machine that
//! makes two intra-op threads many times slower than one for the small batches of a tree search (see
//! `docs/stack.md` for the measurements). The wait policy is read by the OpenMP runtime when libtorch is
//! loaded, before `main` runs, so setting it from inside the process is too late: when it is missing, `zero`
//! re-executes itself once with `OMP_WAIT_POLICY=PASSIVE` in its environment.

use std::ffi::OsString;

/// Environment variable that marks the re-executed process, so that a failed exec can never loop.
const REEXEC_MARK: &str = "ZERO_REEXECUTED";

/// Ensures the OpenMP wait policy is set before libtorch starts its threads; may replace the process.
pub fn ensure_passive_openmp() {
    if std::env::var_os("OMP_WAIT_POLICY").is_some() || std::env::var_os(REEXEC_MARK).is_some() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if let Ok(exe) = std::env::current_exe() {
            let args: Vec<OsString> = std::env::args_os().skip(1).collect();
            // exec only returns on failure; then we carry on with the default policy rather than fail.
            let err = std::process::Command::new(exe)
                .args(args)
                .env("OMP_WAIT_POLICY", "PASSIVE")
                .env(REEXEC_MARK, "1")
                .exec();
            eprintln!("zero: warning: could not re-execute with OMP_WAIT_POLICY=PASSIVE ({err}); continuing");
        }
    }
}

/// Allocations the C allocator serves from its heaps rather than from fresh `mmap`s: up to glibc's largest
/// allowed threshold (half its 64 MiB heap size).
const MMAP_THRESHOLD_BYTES: i32 = 32 << 20;
/// Free memory at a heap's top that the C allocator keeps rather than returning to the system.
const TRIM_THRESHOLD_BYTES: i32 = 512 << 20;

/// Makes the C allocator keep the memory of freed tensors for the next ones (call once, before any threads).
///
/// Why: libtorch allocates every tensor with glibc's `posix_memalign` and frees it at once. A batch of 256
/// Bashni positions and each activation of it are megabytes, above glibc's `mmap` threshold, so each network
/// call mapped fresh pages, the kernel zeroed them on first touch, and they were unmapped again; freed heap memory
/// above the trim threshold went back to the system the same way. A quarter of a playing process's time went to
/// page faults (`perf record` over `zero bench selfplay`; `docs/stack.md`). With both thresholds raised the pages
/// stay mapped and are reused. (Inside `zero run` glibc had raised its own thresholds already: no gain there.)
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called at start-up before other threads allocate.
    unsafe {
        if libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 0
            || libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES) == 0
        {
            tracing::warn!("the C allocator refused its thresholds; tensors are allocated with fresh pages");
        }
    }
}

/// Default intra-op threads for one libtorch user. One thread per search worker keeps the cores busy with
/// tree search and small batches; larger jobs (training) ask for more explicitly.
pub const DEFAULT_INTRA_OP_THREADS: i32 = 1;

/// Sets torch's thread pools to zero's defaults (callable once, at start-up).
pub fn init_threads() {
    // Inter-op parallelism can only be configured before any parallel work, once per process.
    tch::set_num_interop_threads(1);
    tch::set_num_threads(DEFAULT_INTRA_OP_THREADS);
}

/// The device an `auto` setting resolves to: the first CUDA device when one is usable, else the CPU.
pub fn auto_device() -> tch::Device {
    if tch::Cuda::is_available() {
        tch::Device::Cuda(0)
    } else {
        tch::Device::Cpu
    }
}

/// A device as zero writes it: `cpu` or `cuda:N`.
pub fn device_name(device: tch::Device) -> String {
    match device {
        tch::Device::Cpu => "cpu".to_string(),
        tch::Device::Cuda(i) => format!("cuda:{i}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// zero's version and git revision in one line (`zero 0.1.0 (git 0123456789ab)`): what a new run records in
/// `version.txt`, and what keys the book cache.
pub fn build_identity() -> String {
    format!("zero {} (git {})", env!("CARGO_PKG_VERSION"), env!("ZERO_GIT_REVISION"))
}

/// The text of `zero --version`: the zero version and git revision, the libtorch it links, the device.
pub fn version_text() -> String {
    format!(
        "{}\nlibtorch {}\ndevice {}\n",
        build_identity(),
        env!("ZERO_LIBTORCH_VERSION"),
        device_name(auto_device())
    )
}
