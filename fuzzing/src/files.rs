//! Files a run or a bot reads that may be damaged or foreign: configs, shards, checkpoints, bundle manifests,
//! ONNX models.

use crate::bot::tiny_bundle;
use crate::game_of;
use std::io::Write;
use std::path::Path;
use zero_bot::Bundle;
use zero_games::with_game;
use zero_model::Checkpoint;
use zero_run::config::RunConfig;

/// A config's TOML: one that parses is written back by `to_toml` to TOML that parses to the same config.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = RunConfig::parse(text, "fuzz.toml") else {
        return;
    };
    let written = config.to_toml();
    let again = RunConfig::parse(&written, "written back")
        .unwrap_or_else(|e| panic!("the config written back does not parse: {e:#}\n{written}"));
    assert_eq!(again, config, "the config written back differs:\n{written}");
}

/// A file's bytes in a fresh temporary file (in memory where `/dev/shm` exists), for readers that take a path.
fn scratch_file(data: &[u8], suffix: &str) -> tempfile::NamedTempFile {
    let dir = Path::new("/dev/shm");
    let mut builder = tempfile::Builder::new();
    builder.prefix("zero-fuzz-").suffix(suffix);
    let mut file = if dir.is_dir() {
        builder.tempfile_in(dir)
    } else {
        builder.tempfile()
    }
    .expect("a temporary file");
    file.write_all(data).expect("writing the temporary file");
    file
}

/// A shard's bytes, read as a positions file and as a games file: each is read whole or refused with an error.
/// Panics inside the Parquet crate are contained by the reader (turned into errors naming the file), so under
/// the fuzzer they are not findings; a panic anywhere else is.
pub fn shard(data: &[u8]) {
    #[cfg(fuzzing)]
    contain_library_panics();
    let file = scratch_file(data, ".parquet");
    if let Ok((header, positions)) = zero_data::read_shard(file.path()) {
        let len = header.input_len();
        assert!(
            positions.iter().all(|p| p.input.len() == len),
            "a position's input differs from its header"
        );
    }
    let _ = zero_data::read_games(file.path());
}

/// libFuzzer aborts on every panic; the shard reader catches those of the Parquet crate and the ONNX runtime
/// those of tract, so they are let through to them.
#[cfg(fuzzing)]
fn contain_library_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let contained = ["/parquet-", "/tract-"];
            if !info
                .location()
                .is_some_and(|l| contained.iter().any(|c| l.file().contains(c)))
            {
                abort(info);
            }
        }));
    });
}

/// A checkpoint's bytes: metadata that passes the checksum describes a network within the size bounds and, when
/// it names a registered game, loads whole or is refused.
pub fn checkpoint(data: &[u8]) {
    let Ok(meta) = zero_model::read_meta_of(Path::new("fuzz.safetensors"), data) else {
        return;
    };
    if meta.network.validate().is_err() {
        return;
    }
    let Ok(kind) = meta.game.parse::<zero_games::GameKind>() else {
        return;
    };
    // Loading builds the network: only small ones, so that a legitimately large one costs no fuzzing time.
    if meta.network.blocks <= 2 && meta.network.channels <= 16 {
        let file = scratch_file(data, ".safetensors");
        with_game!(kind, G => drop(Checkpoint::load::<G>(file.path(), tch::Device::Cpu)));
    }
}

/// `[game] network.onnx`: a model that loads for the game evaluates its start position to priors that sum to 1
/// over the legal actions and a value in [-1, 1]. Panics inside tract are contained by the runtime (turned into
/// errors), so under the fuzzer they are not findings.
pub fn onnx(data: &[u8]) {
    #[cfg(fuzzing)]
    contain_library_panics();
    let Some((&which, model)) = data.split_first() else {
        return;
    };
    with_game!(game_of(which), G => onnx_of::<G>(model));
}

fn onnx_of<G: zero_games::Encoding>(model: &[u8]) {
    use zero_search::{EvalRequest, Evaluator};
    let Ok(mut network) = zero_onnx::OnnxEvaluator::<G>::from_bytes(model, "fuzz") else {
        return;
    };
    let rules = G::parse_rules(None, &[]).expect("the default rules");
    let game = G::start(&rules);
    let mut legal = zero_games::ActionList::new();
    game.legal_actions(&mut legal);
    let evaluation = network
        .evaluate(&[EvalRequest {
            game: &game,
            legal: &legal,
        }])
        .remove(0);
    let sum: f32 = evaluation.priors.iter().sum();
    assert!((sum - 1.0).abs() < 1e-3, "priors sum to {sum}");
    assert!((-1.0..=1.0).contains(&evaluation.value), "value {}", evaluation.value);
}

/// `[game] manifest.json`: the manifest of a real tiny bundle replaced by the input; a bundle that opens gives
/// its rules.
pub fn bundle(data: &[u8]) {
    let Some((&which, manifest)) = data.split_first() else {
        return;
    };
    let kind = game_of(which);
    let source = tiny_bundle(kind);
    // Beside the tiny bundle, so that its files can be linked rather than copied.
    let parent = source.dir.parent().expect("the tiny bundle has a parent");
    let dir = tempfile::tempdir_in(parent).expect("a temporary directory");
    for entry in std::fs::read_dir(&source.dir).expect("the tiny bundle") {
        let path = entry.expect("an entry").path();
        std::fs::hard_link(&path, dir.path().join(path.file_name().expect("a file"))).expect("linking the bundle");
    }
    std::fs::remove_file(dir.path().join("manifest.json")).expect("the linked manifest");
    std::fs::write(dir.path().join("manifest.json"), manifest).expect("writing the manifest");
    if let Ok(bundle) = Bundle::open(dir.path()) {
        with_game!(bundle.manifest.game, G => drop(bundle.rules::<G>()));
    }
}
