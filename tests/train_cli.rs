//! `zero train` end to end: fresh start, resume, a corrupt shard reported, a mismatched checkpoint refused.

use std::path::Path;
use std::process::{Command, Output};

use zero_data::{GameRecord, PositionRecord, ShardWriter};
use zero_games::baghchal::BaghChal;
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Encoding, Game};

fn zero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(args)
        .output()
        .expect("zero runs")
}

fn write_shard(dir: &Path, name: &str, seed: u64) -> std::path::PathBuf {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let header = zero_train::shard_spec::<BaghChal>(&rules).header("cli", 0, "random");
    let mut writer = ShardWriter::create(dir, name, header).unwrap();
    let mut rng = CheckRng::new(seed);
    let mut legal = ActionList::new();
    let mut planes = vec![0.0; 14 * 25];
    for g in 0..4 {
        let id = format!("{name}-{g}");
        let mut game = BaghChal::start(&rules);
        let mut rows = Vec::new();
        for i in 0..30u32 {
            game.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            game.encode(&mut planes);
            let actions: Vec<u16> = legal.iter().copied().collect();
            let p = 1.0 / actions.len() as f32;
            rows.push(PositionRecord {
                game_id: id.clone(),
                ply: i,
                step: i,
                side_to_move: game.to_move().index() as u8,
                position: game.position(),
                input: zero_data::quantize(&planes),
                policy_probs: vec![p; actions.len()],
                policy_actions: actions.clone(),
                legal_actions: actions,
                root_value: 0.0,
                result: [1.0, 0.0, -1.0][i as usize % 3],
                plies_to_end: 30 - i,
                full_search: true,
                simulations: 1,
                short_value: 0.0,
                score: 0.0,
            });
            game.apply_action(legal[rng.below(legal.len())]);
        }
        let record = GameRecord {
            game_id: id,
            start_position: "start".into(),
            moves: vec![],
            winner: None,
            reason: "test".into(),
            plies: rows.len() as u32,
            resigned_false_check: false,
        };
        writer.add_game(&record, &rows).unwrap();
    }
    writer.finish().unwrap().positions_path
}

fn config(dir: &Path, name: &str, channels: u32) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "game = \"baghchal\"\n[network]\nblocks = 1\nchannels = {channels}\nvalue_hidden = 16\n\
             [train]\nbatch_size = 16\nshuffle_buffer = 64\nwarmup_steps = 2\ndevice = \"cpu\"\n"
        ),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn train_resume_report_bad_shards_and_refuse_mismatches() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_shard(&data, "good", 1);
    let bad = write_shard(&data, "bad", 2);
    let bytes = std::fs::read(&bad).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();
    let cfg = config(dir.path(), "c.toml", 8);
    let data = data.to_string_lossy().into_owned();
    let first = dir.path().join("n1.safetensors").to_string_lossy().into_owned();
    let out = zero(&[
        "train", "--config", &cfg, "--data", &data, "--steps", "4", "--out", &first,
    ]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("zero: warning: skipping shard") && err.contains("bad.positions.parquet"),
        "{err}"
    );
    assert!(
        err.contains("zero train: step 4;"),
        "information is shown by default: {err}"
    );
    assert!(dir.path().join("n1.train.safetensors").exists());
    let metrics = std::fs::read_to_string(dir.path().join("n1.metrics.jsonl")).unwrap();
    assert_eq!(metrics.lines().count(), 4);
    assert!(
        metrics.contains("\"policy_loss\"") && metrics.contains("\"grad_norm\""),
        "{metrics}"
    );

    let second = dir.path().join("n2.safetensors").to_string_lossy().into_owned();
    let out = zero(&[
        "-q", "train", "--config", &cfg, "--data", &data, "--from", &first, "--steps", "2", "--out", &second,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // -q: warnings only (the bad shard's), no information.
    assert!(
        !err.contains("zero train:") && err.contains("zero: warning: skipping shard"),
        "{err}"
    );
    let metrics = std::fs::read_to_string(dir.path().join("n2.metrics.jsonl")).unwrap();
    assert!(metrics.lines().last().unwrap().contains("\"step\":6"), "{metrics}");

    let other = config(dir.path(), "other.toml", 12);
    let out = zero(&[
        "train", "--config", &other, "--data", &data, "--from", &first, "--steps", "1", "--out", &second,
    ]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success());
    assert!(err.contains("architecture"), "{err}");
}
