include!("../build/rpath.rs");

fn main() {
    link_libtorch_with_rpath();
}
