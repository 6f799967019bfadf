//! Process-wide set-up that must happen before any tensor work: the OpenMP wait policy, torch's thread pools,
//! and the choice of device. Every `zero` command goes through [`init`] first, so nobody has to know these.
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

/// The text of `zero --version`: the zero version and git revision, the libtorch it links, the device.
pub fn version_text() -> String {
    format!(
        "zero {} (git {})\nlibtorch {}\ndevice {}\n",
        env!("CARGO_PKG_VERSION"),
        env!("ZERO_GIT_REVISION"),
        env!("ZERO_LIBTORCH_VERSION"),
        device_name(auto_device())
    )
}
