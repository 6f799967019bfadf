// A build script makes cargo count the crate's build dependencies, which unify the features of the crates that
// build scripts and derive macros use.
fn main() {}
