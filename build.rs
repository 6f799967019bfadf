include!("build/rpath.rs");

fn main() {
    // zero-torch and the tests link libtorch; `zero`, the front door, must not (src/main.rs).
    link_libtorch_with_rpath_for(&["rustc-link-arg-bin=zero-torch", "rustc-link-arg-tests"]);
    // Where that libtorch was: `zero` looks there first before it hands a command to zero-torch.
    println!(
        "cargo:rustc-env=ZERO_LIBTORCH_LIB={}",
        std::env::var("DEP_TCH_LIBTORCH_LIB").unwrap_or_default()
    );
    // `zero --version` names the libtorch it was built against: the wheel's torch/version.py sits next to lib/.
    let version = std::env::var("DEP_TCH_LIBTORCH_LIB")
        .ok()
        .and_then(|lib| std::fs::read_to_string(std::path::Path::new(&lib).join("../version.py")).ok())
        .and_then(|text| {
            text.lines().find_map(|l| {
                l.strip_prefix("__version__ = ")
                    .map(|v| v.trim_matches(['\'', '"']).to_string())
            })
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=ZERO_LIBTORCH_VERSION={version}");
    // The git revision, recorded by `zero --version` and in run directories.
    let revision = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=ZERO_GIT_REVISION={revision}");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
}
