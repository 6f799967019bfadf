include!("../build/rpath.rs");

fn main() {
    // Without the `torch` feature nothing here links libtorch (the libtorch-free `zero-play`).
    if std::env::var_os("CARGO_FEATURE_TORCH").is_some() {
        link_libtorch_with_rpath();
    }
}
