//! `scripts/setup.sh` on bad ground: a missing or too old Python, an unreachable package registry, and a
//! half-installed venv or libtorch left by an interrupted run. Each is reported with the step that failed, and
//! nothing is ever left looking complete. (The good path runs before every README command, so CI exercises it:
//! the CPU-only libtorch where the machine has no GPU, and the venv.)

use std::path::Path;
use std::process::{Command, Output};

/// A fresh cache directory for one test, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("zero-setup-test-{name}-"))
        .tempdir()
        .unwrap()
}

/// `scripts/setup.sh ARGS` with the cache at `cache` and the environment `envs`. The checkout's
/// `.cargo/config.toml` is left alone: the script writes it only once a part is complete, which none of these
/// cases reaches.
fn setup_with(args: &[&str], cache: &Path, envs: &[(&str, &str)]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup.sh");
    let mut cmd = Command::new("bash");
    cmd.arg(script)
        .args(args)
        .env("ZERO_CACHE", cache)
        .env_remove("ZERO_PYTHON")
        .env_remove("ZERO_SETUP_CUDA");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("bash runs")
}

fn setup(cache: &Path, envs: &[(&str, &str)]) -> Output {
    setup_with(&[], cache, envs)
}

/// pip's settings that make the package registry unreachable at once, and let a small scratch disk pass.
const OFFLINE: [(&str, &str); 5] = [
    ("ZERO_SETUP_MIN_FREE_GB", "0"),
    ("PIP_INDEX_URL", "http://127.0.0.1:9/simple"),
    ("PIP_RETRIES", "0"),
    ("PIP_TIMEOUT", "2"),
    ("PIP_NO_CACHE_DIR", "1"),
];

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn missing_python_is_reported_with_its_step() {
    let tmp = scratch("nopython");
    let cache = tmp.path();
    let out = setup(cache, &[("ZERO_PYTHON", "python-that-does-not-exist")]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("FAILED at step: find python3"), "{err}");
    assert!(!cache.join("torch-2.13.0/complete").exists());
}

#[test]
fn too_old_python_is_reported_with_its_step() {
    let tmp = scratch("oldpython");
    let cache = tmp.path();
    let fake = cache.join("python-old");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.8.0' && exit 0\nexit 1\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let out = setup(cache, &[("ZERO_PYTHON", fake.to_str().unwrap())]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("FAILED at step: check python version"), "{err}");
    assert!(err.contains("3.8.0"), "{err}");
}

#[test]
fn too_little_disk_is_reported_before_anything_is_installed() {
    let tmp = scratch("nodisk");
    let cache = tmp.path();
    // No disk anywhere has 100 PB free, so the check must refuse, naming what it needs and how much it found.
    let out = setup(cache, &[("ZERO_SETUP_MIN_FREE_GB", "100000000")]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("FAILED at step: check disk space"), "{err}");
    assert!(err.contains("need 100000000 GB"), "{err}");
    assert!(!cache.join("torch-2.13.0/venv").exists(), "a venv was created anyway");
}

#[test]
fn a_malformed_disk_setting_is_named() {
    let tmp = scratch("badsetting");
    let cache = tmp.path();
    let out = setup(cache, &[("ZERO_SETUP_MIN_FREE_GB", "eight")]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("ZERO_SETUP_MIN_FREE_GB='eight'"), "{err}");
}

#[test]
fn half_installed_venv_is_replaced_and_an_unreachable_registry_reported() {
    let tmp = scratch("offline");
    let cache = tmp.path();
    // What an interrupted earlier run leaves: a venv directory with no marker.
    let venv = cache.join("torch-2.13.0/venv");
    std::fs::create_dir_all(venv.join("bin")).unwrap();
    std::fs::write(venv.join("leftover"), "half").unwrap();
    let out = setup_with(&["--python"], cache, &OFFLINE);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("FAILED at step: pip install"), "{err}");
    assert!(err.contains("could not reach"), "{err}");
    assert!(!venv.join("leftover").exists(), "the unmarked venv was trusted");
    assert!(
        !cache.join("torch-2.13.0/complete").exists(),
        "a failed install left a marker"
    );
}

#[test]
fn a_cpu_libtorch_download_that_fails_leaves_nothing_trusted() {
    let tmp = scratch("cpu-offline");
    let cache = tmp.path();
    // What an interrupted earlier unpacking leaves: the directory it assembles in.
    let half = cache.join("libtorch-2.13.0-cpu.tmp");
    std::fs::create_dir_all(&half).unwrap();
    std::fs::write(half.join("leftover"), "half").unwrap();
    let out = setup_with(&[], cache, &[OFFLINE.as_slice(), &[("ZERO_SETUP_CUDA", "0")]].concat());
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("FAILED at step: pip download"), "{err}");
    assert!(err.contains("could not reach"), "{err}");
    assert!(!half.join("leftover").exists(), "the half-assembled libtorch was kept");
    assert!(
        !cache.join("libtorch-2.13.0-cpu").exists(),
        "a failed download left a libtorch directory"
    );
    assert!(
        !cache.join("torch-2.13.0/venv").exists(),
        "the CPU set-up installed the venv"
    );
}

#[test]
fn an_unknown_argument_or_cuda_setting_is_named() {
    let tmp = scratch("badargs");
    let out = setup_with(&["--pyhton"], tmp.path(), &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unknown argument '--pyhton'"), "{}", stderr(&out));
    let out = setup_with(&[], tmp.path(), &[("ZERO_SETUP_CUDA", "maybe")]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("ZERO_SETUP_CUDA='maybe'"), "{}", stderr(&out));
}
