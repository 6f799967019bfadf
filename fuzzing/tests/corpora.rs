//! Every seed of every fuzz target (`fuzz/seeds/TARGET/`), every input a campaign found that broke one
//! (`fuzz/regressions/TARGET/`, kept after its fix) and the minimised corpus the last campaign left
//! (`fuzz/corpus/TARGET/`, `scripts/fuzz.py`) go through the target's check in the normal suite.

use std::path::{Path, PathBuf};

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_seed_every_finding_and_the_kept_corpus_pass_their_target() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    for (name, check) in zero_fuzz::TARGETS {
        let seeds = files_in(&fuzz.join("seeds").join(name));
        assert!(
            seeds.len() >= 3,
            "target {name} has {} seeds in fuzz/seeds/{name}",
            seeds.len()
        );
        let findings = files_in(&fuzz.join("regressions").join(name));
        let corpus = files_in(&fuzz.join("corpus").join(name));
        for input in seeds.iter().chain(&findings).chain(&corpus) {
            let bytes = std::fs::read(input).unwrap();
            if std::panic::catch_unwind(|| check(&bytes)).is_err() {
                panic!("target {name} fails on {}", input.display());
            }
        }
    }
}

#[test]
fn every_target_has_its_cargo_fuzz_target() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/fuzz_targets");
    let mut found: Vec<String> = files_in(&targets)
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    found.sort();
    let mut expected: Vec<String> = zero_fuzz::TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    expected.sort();
    assert_eq!(found, expected);
}
