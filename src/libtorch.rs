//! Finding the libtorch that `zero-torch` needs, wherever the user put it, and handing a command over to it.
//!
//! Where it looks, in order: `ZERO_LIBTORCH` (a libtorch directory or its `lib/`; when set, nothing else is
//! tried), the directory this build linked against (baked into `zero-torch` as its rpath), then the `torch` package
//! of the Python interpreters on `PATH` (`ZERO_PYTHON`, `python3`, `python`), as `pip install torch` puts it. A
//! libtorch found elsewhere than the rpath reaches `zero-torch` through `LD_LIBRARY_PATH`; one of another version
//! is refused, and when none is found the error lists every place and why it did not fit.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The libtorch version `zero-torch` was built against (tch links exactly one), as the wheel names it
/// (`2.13.0+cu130`); any build of the same release (`+cpu`, `+cu130`) will do.
const BUILT_VERSION: &str = env!("ZERO_LIBTORCH_VERSION");
/// The `lib/` directory of that libtorch on the build machine.
const BUILT_WITH: &str = env!("ZERO_LIBTORCH_LIB");
/// The binary that runs every command needing libtorch, installed beside `zero`.
pub const TORCH_BINARY: &str = "zero-torch";

/// Where libtorch is, as far as `zero-torch` needs to know.
#[derive(Debug, PartialEq)]
pub enum Found {
    /// Where the build put it: `zero-torch`'s rpath finds it.
    AtBuildPath,
    /// Its `lib/` directory elsewhere, to be put on `LD_LIBRARY_PATH`.
    At(PathBuf),
}

/// What the search may look at: the environment's say, the build's directory and the interpreters to ask.
pub struct Places {
    pub explicit: Option<PathBuf>,
    pub built_with: PathBuf,
    pub pythons: Vec<OsString>,
}

impl Places {
    /// The places of this process: its environment and this build.
    pub fn of_this_process() -> Places {
        let mut pythons: Vec<OsString> = std::env::var_os("ZERO_PYTHON").into_iter().collect();
        pythons.extend(["python3", "python"].map(OsString::from));
        Places {
            explicit: std::env::var_os("ZERO_LIBTORCH").map(PathBuf::from),
            built_with: PathBuf::from(BUILT_WITH),
            pythons,
        }
    }
}

/// The `lib/` directory under `dir` (or `dir` itself) that holds `libtorch.so`.
fn lib_dir(dir: &Path) -> Option<PathBuf> {
    [dir.join("lib"), dir.to_path_buf()]
        .into_iter()
        .find(|d| d.join("libtorch.so").is_file())
}

/// The version of the libtorch whose `lib/` is `lib`: the Python wheel's `version.py` or the C++ archive's
/// `build-version` beside it (`None` when neither says).
fn version_of(lib: &Path) -> Option<String> {
    let root = lib.parent()?;
    if let Ok(text) = std::fs::read_to_string(root.join("version.py")) {
        let line = text.lines().find_map(|l| l.strip_prefix("__version__ = "))?;
        return Some(line.trim().trim_matches(['\'', '"']).to_string());
    }
    std::fs::read_to_string(root.join("build-version"))
        .ok()
        .map(|v| v.trim().to_string())
}

/// A version without its local build suffix: `2.13.0+cu130` is release `2.13.0`.
fn release(version: &str) -> &str {
    version.split('+').next().unwrap_or(version)
}

/// `Ok` when the libtorch in `lib` is the needed release or says none; `Err` names the version found.
fn check_version(lib: &Path) -> Result<(), String> {
    let needed = release(BUILT_VERSION);
    match version_of(lib) {
        Some(v) if release(&v) != needed => Err(format!("libtorch {v}, not {needed}")),
        _ => Ok(()),
    }
}

/// The `torch` package directory of interpreter `python`, if it has one.
fn python_torch(python: &OsString) -> Result<PathBuf, String> {
    let out = Command::new(python)
        .args(["-c", "import os, torch; print(os.path.dirname(torch.__file__))"])
        .output()
        .map_err(|e| format!("not runnable ({e})"))?;
    if !out.status.success() {
        return Err("has no torch package".to_string());
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// Finds libtorch (see the module documentation); the error lists each place looked at and why it did not fit.
pub fn find(places: &Places) -> Result<Found, String> {
    if let Some(dir) = &places.explicit {
        let lib = lib_dir(dir)
            .ok_or_else(|| format!("ZERO_LIBTORCH={}: no libtorch.so there or in its lib/", dir.display()))?;
        check_version(&lib).map_err(|e| format!("ZERO_LIBTORCH={}: {e}", dir.display()))?;
        return Ok(Found::At(lib));
    }
    let mut looked = Vec::new();
    match lib_dir(&places.built_with) {
        Some(lib) if check_version(&lib).is_ok() => return Ok(Found::AtBuildPath),
        Some(lib) => looked.push(format!(
            "{} (the build's): {}",
            lib.display(),
            check_version(&lib).unwrap_err()
        )),
        None => looked.push(format!("{} (the build's): no libtorch.so", places.built_with.display())),
    }
    for python in &places.pythons {
        let name = python.to_string_lossy();
        match python_torch(python) {
            Ok(torch) => match lib_dir(&torch) {
                Some(lib) => match check_version(&lib) {
                    Ok(()) => return Ok(Found::At(lib)),
                    Err(e) => looked.push(format!("{name}'s torch at {}: {e}", torch.display())),
                },
                None => looked.push(format!("{name}'s torch at {}: no lib/libtorch.so", torch.display())),
            },
            Err(why) => looked.push(format!("{name}: {why}")),
        }
    }
    let needed = release(BUILT_VERSION);
    Err(format!(
        "this command needs libtorch {needed} and none was found; looked at:\n  {}\n\
         Install it with `pip install torch=={needed}` (or run scripts/setup.sh), or set ZERO_LIBTORCH to a \
         libtorch directory",
        looked.join("\n  ")
    ))
}

/// Replaces this process by `zero-torch` (beside this binary) with the same arguments, libtorch found; returns
/// only the reason it could not.
pub fn hand_over(args: &[OsString]) -> String {
    let torch = match std::env::current_exe() {
        Ok(exe) => exe.with_file_name(TORCH_BINARY),
        Err(e) => return format!("cannot find this program's own path ({e})"),
    };
    if !torch.is_file() {
        return format!(
            "{} is missing: every command but perft, moves, show, actions, games, replay, report and status runs in {TORCH_BINARY}, which \
             is installed beside zero",
            torch.display()
        );
    }
    let mut command = Command::new(&torch);
    command.args(args);
    match find(&Places::of_this_process()) {
        Ok(Found::AtBuildPath) => {}
        Ok(Found::At(lib)) => {
            let mut path = lib.into_os_string();
            if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty()) {
                path.push(":");
                path.push(old);
            }
            command.env("LD_LIBRARY_PATH", path);
        }
        Err(message) => return message,
    }
    if std::env::var_os("OMP_WAIT_POLICY").is_none() {
        // libtorch's OpenMP reads it at load time (src/runtime.rs); set here, zero-torch need not re-execute.
        command.env("OMP_WAIT_POLICY", "PASSIVE");
    }
    use std::os::unix::process::CommandExt;
    // Named `zero` in its usage lines and errors, as the user typed it.
    let err = command.arg0("zero").exec();
    format!("could not start {}: {err}", torch.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake libtorch of `version` under `root`: `lib/libtorch.so` and the wheel's `version.py`.
    fn fake_libtorch(root: &Path, version: &str) -> PathBuf {
        std::fs::create_dir_all(root.join("lib")).unwrap();
        std::fs::write(root.join("lib/libtorch.so"), b"").unwrap();
        std::fs::write(root.join("version.py"), format!("__version__ = '{version}'\n")).unwrap();
        root.join("lib")
    }

    /// A fake interpreter `name` in `dir` that reports `torch_dir` as its torch package.
    fn fake_python(dir: &Path, name: &str, torch_dir: &Path) -> OsString {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\necho '{}'\n", torch_dir.display())).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.into_os_string()
    }

    fn places(explicit: Option<&Path>, built_with: &Path, pythons: Vec<OsString>) -> Places {
        Places {
            explicit: explicit.map(Path::to_path_buf),
            built_with: built_with.to_path_buf(),
            pythons,
        }
    }

    #[test]
    fn the_builds_own_libtorch_comes_first_and_needs_no_path() {
        let tmp = tempfile::tempdir().unwrap();
        let built = fake_libtorch(&tmp.path().join("built"), &format!("{}+cu130", release(BUILT_VERSION)));
        let elsewhere = tmp.path().join("elsewhere");
        fake_libtorch(&elsewhere, release(BUILT_VERSION));
        let python = fake_python(tmp.path(), "python", &elsewhere);
        assert_eq!(find(&places(None, &built, vec![python])), Ok(Found::AtBuildPath));
    }

    #[test]
    fn a_moved_libtorch_is_found_through_python_and_a_wrong_version_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let gone = tmp.path().join("gone/lib");
        let old = tmp.path().join("old-torch");
        fake_libtorch(&old, "2.0.1");
        let good = tmp.path().join("good-torch");
        let good_lib = fake_libtorch(&good, release(BUILT_VERSION));
        let old_python = fake_python(tmp.path(), "python-old", &old);
        let good_python = fake_python(tmp.path(), "python-good", &good);
        let found = find(&places(None, &gone, vec![old_python.clone(), good_python]));
        assert_eq!(found, Ok(Found::At(good_lib)));
        let missing = OsString::from("no-such-python-here");
        let err = find(&places(None, &gone, vec![old_python, missing])).unwrap_err();
        assert!(
            err.contains(&format!("needs libtorch {}", release(BUILT_VERSION))),
            "{err}"
        );
        assert!(err.contains("(the build's): no libtorch.so"), "{err}");
        assert!(err.contains("libtorch 2.0.1, not"), "{err}");
        assert!(err.contains("no-such-python-here: not runnable"), "{err}");
        assert!(err.contains("ZERO_LIBTORCH"), "{err}");
    }

    #[test]
    fn zero_libtorch_decides_alone_and_is_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let built = fake_libtorch(&tmp.path().join("built"), BUILT_VERSION);
        let mine = tmp.path().join("mine");
        let mine_lib = fake_libtorch(&mine, release(BUILT_VERSION));
        assert_eq!(
            find(&places(Some(&mine), &built, vec![])),
            Ok(Found::At(mine_lib.clone()))
        );
        assert_eq!(find(&places(Some(&mine_lib), &built, vec![])), Ok(Found::At(mine_lib)));
        let err = find(&places(Some(&tmp.path().join("nowhere")), &built, vec![])).unwrap_err();
        assert!(
            err.starts_with("ZERO_LIBTORCH=") && err.contains("no libtorch.so"),
            "{err}"
        );
        let old = tmp.path().join("old");
        fake_libtorch(&old, "1.13.0");
        let err = find(&places(Some(&old), &built, vec![])).unwrap_err();
        assert!(err.contains("libtorch 1.13.0, not"), "{err}");
    }
}
