// Shared by the build scripts of every package that links libtorch (included with `include!`).
//
// torch-sys exports the directory of the libtorch it built against as DEP_TCH_LIBTORCH_LIB, but only to
// packages that depend on it directly. Baking that directory into the binaries as an rpath lets them run
// without LD_LIBRARY_PATH. Where that libtorch has CUDA (libtorch_cuda.so beside it), `--no-as-needed -ltorch`
// keeps libtorch and through it libtorch_cuda linked even though Rust code calls no symbol of it directly: that
// is what makes CUDA visible. The CPU part that scripts/setup.sh unpacks where there is no GPU has no
// libtorch_cuda.so, and its libtorch.so (which names it) is left to `--as-needed` to drop.
#[allow(dead_code)] // the root package links only some of its targets (link_libtorch_with_rpath_for)
fn link_libtorch_with_rpath() {
    link_libtorch_with_rpath_for(&["rustc-link-arg"]);
}

// The same for some targets only: each of `directives` is a link-argument directive of cargo
// (`rustc-link-arg-bin=NAME`, `rustc-link-arg-tests`, ...), so that a binary that must not load libtorch is left
// without it.
fn link_libtorch_with_rpath_for(directives: &[&str]) {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    match std::env::var("DEP_TCH_LIBTORCH_LIB") {
        Ok(dir) => {
            let cuda = std::path::Path::new(&dir).join("libtorch_cuda.so").exists();
            for directive in directives {
                println!("cargo:{directive}=-Wl,-rpath,{dir}");
                if cuda {
                    println!("cargo:{directive}=-Wl,--no-as-needed");
                    println!("cargo:{directive}=-ltorch");
                }
            }
        }
        Err(_) => println!("cargo:warning=DEP_TCH_LIBTORCH_LIB is not set: binaries will need LD_LIBRARY_PATH"),
    }
}
