//! Feature unification for the workspace's third-party crates (a workspace-hack crate, generated and checked by
//! `cargo hakari`; no code). Every member depends on it, so a build of one member (`cargo build -p zero-bot
//! --no-default-features --features onnx --bin zero-play`, the Python wheel that maturin builds) compiles each
//! third-party crate with the same features as a build of the whole workspace and reuses its artifacts. Without it those builds
//! recompiled nearly every dependency (a differing `syn` feature rebuilds every derive macro and all that uses
//! them): 585 and about 450 seconds of a clean `make test`. After a dependency change, `cargo hakari generate`
//! and `cargo hakari manage-deps` bring it up to date; `scripts/check-hakari.sh` (run by `make test`) fails
//! while it is stale.
