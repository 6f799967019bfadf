//! `zero export`: the bundle it writes, and every kind of damage refused by name when a bundle is loaded.

mod support;

use std::path::Path;
use support::{scratch, text, tiny_bundle, tiny_checkpoint, zero};

fn manifest(bundle: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(bundle.join("manifest.json")).unwrap()).unwrap()
}

fn write_manifest(bundle: &Path, value: &serde_json::Value) {
    std::fs::write(
        bundle.join("manifest.json"),
        serde_json::to_string_pretty(value).unwrap(),
    )
    .unwrap();
}

/// Loading goes through `zero bot`, which opens the bundle before reading any input.
fn load_error(bundle: &Path) -> String {
    let out = zero(&["bot", bundle.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "a damaged bundle was accepted");
    text(&out.stderr)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn export_of_a_checkpoint_writes_weights_torchscript_and_a_complete_manifest() {
    let tmp = scratch("export-file");
    let dir = tmp.path();
    let bundle = tiny_bundle("baghchal", dir, 32);
    let ckpt = std::fs::read(dir.join("net.safetensors")).unwrap();
    assert_eq!(
        std::fs::read(bundle.join("network.safetensors")).unwrap(),
        ckpt,
        "weights copied as is"
    );
    let m = manifest(&bundle);
    assert_eq!(m["manifest_version"], 1);
    assert_eq!(m["game"], "baghchal");
    assert!(m["rules"].as_array().is_some_and(|r| !r.is_empty()));
    assert!(m["encoding_version"].is_u64());
    assert!(m["action_space"].as_u64().unwrap() > 0);
    assert_eq!(m["input_shape"].as_array().unwrap().len(), 3);
    assert_eq!(m["architecture"]["channels"], 8);
    assert_eq!(m["search"]["sims"], 32);
    assert_eq!(m["search"]["root"], "puct");
    assert_eq!(m["provenance"]["run"], "run-test");
    assert_eq!(m["provenance"]["generation"], 1);
    assert_eq!(m["provenance"]["step"], 100);
    assert!(
        m["provenance"].get("elo").is_none(),
        "no Elo is known for a bare checkpoint"
    );
    for file in ["network.safetensors", "network.pt"] {
        let sha = m["files"][file]["sha256"].as_str().unwrap();
        assert_eq!(sha.len(), 64, "{file}");
    }
    // No temporary directory is left beside the bundle.
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    // An existing bundle is not overwritten.
    let again = zero(&[
        "export",
        dir.join("net.safetensors").to_str().unwrap(),
        "--out",
        bundle.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("already exists"),
        "{}",
        text(&again.stderr)
    );
    // What a killed export left (its process gone) is swept by the next export of that name; a live
    // process's temporary is left to it. From the audit of issue 103.
    let dead = dir.join(".second.tmp-4294967295");
    let live = dir.join(format!(".second.tmp-{}", std::process::id()));
    for left in [&dead, &live] {
        std::fs::create_dir_all(left).unwrap();
        std::fs::write(left.join("network.safetensors"), b"half").unwrap();
    }
    let second = zero(&[
        "export",
        dir.join("net.safetensors").to_str().unwrap(),
        "--out",
        dir.join("second").to_str().unwrap(),
    ]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(!dead.exists(), "a dead export's temporary was kept");
    assert!(live.exists(), "a live process's temporary was removed");
}

#[test]
fn export_of_a_run_directory_takes_the_newest_generation_and_its_elo() {
    let tmp = scratch("export-run");
    let dir = tmp.path();
    let run = dir.join("run");
    std::fs::create_dir_all(run.join("checkpoints")).unwrap();
    // Names sort the other way round from generations: the generation decides.
    tiny_checkpoint("tours", &run.join("checkpoints/a.safetensors"), 3, 1);
    tiny_checkpoint("tours", &run.join("checkpoints/b.safetensors"), 2, 2);
    std::fs::write(run.join("checkpoints/torn.safetensors"), b"not a checkpoint").unwrap();
    let line = |generation: u32, elo: f64| {
        serde_json::json!({
            "generation": generation, "elapsed_seconds": 1.0, "games": 1, "positions": 1,
            "positions_per_second": 1.0, "mean_game_length": 1.0, "draw_rate": 0.0, "resign_rate": 0.0,
            "false_resign_rate": null, "train_steps": 1, "losses": {},
            "ratings": [{"player": "random", "elo": 0.0, "low": -1.0, "high": 1.0},
                        {"player": format!("gen{generation}"), "elo": elo, "low": elo - 10.0, "high": elo + 10.0}],
            "network": format!("gen{generation}"),
        })
        .to_string()
    };
    std::fs::write(
        run.join("generations.jsonl"),
        format!("{}\n{}\n", line(2, 50.0), line(3, 123.5)),
    )
    .unwrap();
    // The run's self-play searched 48 simulations with a Gumbel root, and its headline match gave the network 20 ms
    // a move with the PUCT root: the bundle plays as that match measured it (the simulations stay for `max`).
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tours-quick.toml");
    std::fs::copy(config, run.join("config.toml")).unwrap();
    let bundle = dir.join("bundle");
    let out = zero(&["export", run.to_str().unwrap(), "--out", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let m = manifest(&bundle);
    assert_eq!(m["game"], "tours");
    assert_eq!(m["provenance"]["generation"], 3);
    assert_eq!(m["provenance"]["elo"], 123.5);
    assert_eq!(m["search"]["sims"], 48);
    assert_eq!(m["search"]["movetime_ms"], 20);
    assert_eq!(m["search"]["root"], "puct");
    // ...and so are a checkpoint file's of the run, unless the command line says otherwise: simulations asked for
    // replace the time.
    let file_bundle = dir.join("bundle-of-file");
    let checkpoint = run.join("checkpoints/a.safetensors");
    let out = zero(&[
        "export",
        checkpoint.to_str().unwrap(),
        "--out",
        file_bundle.to_str().unwrap(),
        "--sims",
        "64",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let m = manifest(&file_bundle);
    assert_eq!(
        (m["search"]["sims"].clone(), m["search"]["root"].clone()),
        (64.into(), "puct".into())
    );
    assert!(m["search"].get("movetime_ms").is_none(), "{}", m["search"]);
    assert_eq!(
        std::fs::read(bundle.join("network.safetensors")).unwrap(),
        std::fs::read(run.join("checkpoints/a.safetensors")).unwrap()
    );
    // A root for each side, the first player's first, is recorded as written; a misspelt one is refused.
    let split_bundle = dir.join("bundle-split");
    let export_with_root = |root: &str| {
        zero(&[
            "export",
            checkpoint.to_str().unwrap(),
            "--out",
            split_bundle.to_str().unwrap(),
            "--root",
            root,
        ])
    };
    let out = export_with_root("gumbel/pcut");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--root"), "{}", text(&out.stderr));
    assert!(!split_bundle.exists());
    let out = export_with_root("gumbel/puct");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(manifest(&split_bundle)["search"]["root"], "gumbel/puct");
}

#[test]
fn loading_refuses_damaged_bundles_naming_what_is_wrong() {
    let tmp = scratch("export-damage");
    let dir = tmp.path();
    let good = tiny_bundle("bashni", dir, 8);
    let case = |name: &str, damage: &dyn Fn(&Path), expect: &str| {
        let bundle = dir.join(name);
        copy_dir(&good, &bundle);
        damage(&bundle);
        let err = load_error(&bundle);
        assert!(err.contains(expect), "{name}: {err:?} does not say {expect:?}");
    };
    case(
        "missing-pt",
        &|b| std::fs::remove_file(b.join("network.pt")).unwrap(),
        "missing file network.pt",
    );
    case(
        "missing-manifest",
        &|b| std::fs::remove_file(b.join("manifest.json")).unwrap(),
        "missing file manifest.json",
    );
    case(
        "flipped-weights",
        &|b| {
            let path = b.join("network.safetensors");
            let mut bytes = std::fs::read(&path).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
            std::fs::write(path, bytes).unwrap();
        },
        "checksum mismatch for network.safetensors",
    );
    case(
        "outside-file",
        &|b| {
            let mut m = manifest(b);
            let files = m["files"].as_object_mut().unwrap();
            let digest = files.values().next().unwrap().clone();
            files.insert("../outside.bin".into(), digest);
            write_manifest(b, &m);
        },
        "the manifest names \"../outside.bin\", which is not a plain file name inside the bundle",
    );
    // Files that are not what they claim, from the audit of issue 103: each refused at once, naming the file.
    case(
        "manifest-device",
        &|b| {
            std::fs::remove_file(b.join("manifest.json")).unwrap();
            std::os::unix::fs::symlink("/dev/zero", b.join("manifest.json")).unwrap();
        },
        "manifest.json: leads outside",
    );
    case(
        "manifest-fifo",
        &|b| {
            std::fs::remove_file(b.join("manifest.json")).unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(b.join("manifest.json"))
                .status()
                .unwrap();
            assert!(made.success());
        },
        "manifest.json: not a regular file but a FIFO",
    );
    case(
        "sparse-weights",
        &|b| {
            // Listed with its real size, then grown to 1 GiB without writing a byte.
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(b.join("network.pt"))
                .unwrap();
            file.set_len(1 << 30).unwrap();
        },
        "checksum mismatch for network.pt: 1073741824 bytes, the manifest says",
    );
    case(
        "escaping-link",
        &|b| {
            // The same bytes, so that only where they are gives it away.
            let outside = b.with_extension("outside.pt");
            std::fs::rename(b.join("network.pt"), &outside).unwrap();
            std::os::unix::fs::symlink(&outside, b.join("network.pt")).unwrap();
        },
        "network.pt: leads outside",
    );
    case(
        "absolute-torchscript",
        &|b| {
            let mut m = manifest(b);
            m["torchscript"]["file"] = "/etc/passwd".into();
            write_manifest(b, &m);
        },
        "the manifest names \"/etc/passwd\"",
    );
    case(
        "unknown-level",
        &|b| {
            let mut m = manifest(b);
            m["level_ratings"] = serde_json::json!([
                {"level": "grandmaster", "elo": 2500.0, "interval": 50.0, "anchor": "random", "games": 10}
            ]);
            write_manifest(b, &m);
        },
        "level_ratings: unknown level \"grandmaster\"",
    );
    case(
        "score-utility-out-of-range",
        &|b| {
            let mut m = manifest(b);
            m["search"]["score_utility"] = serde_json::json!([0.5, 1.5]);
            write_manifest(b, &m);
        },
        "manifest.json: search.score_utility: each side's weight must be within [0, 1], got 0.5/1.5",
    );
    case(
        "minimax-out-of-range",
        &|b| {
            let mut m = manifest(b);
            m["search"]["minimax_weight"] = serde_json::json!(1.5);
            write_manifest(b, &m);
        },
        "manifest.json: search.minimax_weight: must be within [0, 1], got 1.5",
    );
    case(
        "c-puct-out-of-range",
        &|b| {
            let mut m = manifest(b);
            m["search"]["c_puct"] = serde_json::json!(1000.0);
            write_manifest(b, &m);
        },
        "manifest.json: search.c_puct: must be within [0.01, 100], got 1000",
    );
    case(
        "unknown-search-key",
        &|b| {
            let mut m = manifest(b);
            m["search"]["simulations"] = serde_json::json!(8);
            write_manifest(b, &m);
        },
        "unknown field `simulations`",
    );
    case(
        "score-utility-not-a-number",
        &|b| {
            let mut m = manifest(b);
            m["search"]["score_utility"] = "much".into();
            write_manifest(b, &m);
        },
        "expected a number, or a pair of numbers",
    );
    case(
        "future-version",
        &|b| {
            let mut m = manifest(b);
            m["manifest_version"] = 99.into();
            write_manifest(b, &m);
        },
        "unknown manifest version 99",
    );
    case(
        "other-game",
        &|b| {
            let mut m = manifest(b);
            m["game"] = "tours".into();
            write_manifest(b, &m);
        },
        "game mismatch between manifest (tours) and checkpoint (bashni)",
    );
    case(
        "other-encoding",
        &|b| {
            let mut m = manifest(b);
            m["encoding_version"] = 999.into();
            write_manifest(b, &m);
        },
        "encoding version mismatch",
    );
    case(
        "other-actions",
        &|b| {
            let mut m = manifest(b);
            m["action_space"] = 5.into();
            write_manifest(b, &m);
        },
        "action space mismatch",
    );
    case(
        "unknown-field",
        &|b| {
            let mut m = manifest(b);
            m["surprise"] = 1.into();
            write_manifest(b, &m);
        },
        "malformed manifest.json",
    );
}

#[test]
fn export_records_a_minimax_weight_and_its_bot_plays_with_it() {
    let tmp = scratch("export-minimax");
    let dir = tmp.path();
    let plain = tiny_bundle("tours", dir, 16);
    assert!(
        manifest(&plain)["search"].get("minimax_weight").is_none(),
        "written only when not 0"
    );
    let ckpt = dir.join("net.safetensors");
    let judged = dir.join("judged");
    let out = zero(&[
        "export",
        ckpt.to_str().unwrap(),
        "--out",
        judged.to_str().unwrap(),
        "--minimax",
        "0.6",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(manifest(&judged)["search"]["minimax_weight"], 0.6);
    let bot = support::run_with_input(
        std::path::Path::new(env!("CARGO_BIN_EXE_zero")),
        &["bot", judged.to_str().unwrap()],
        "go sims 64\nquit\n",
    );
    assert!(bot.status.success(), "{}", text(&bot.stderr));
    assert!(text(&bot.stdout).contains("bestmove "), "{}", text(&bot.stdout));
    let refused = zero(&[
        "export",
        ckpt.to_str().unwrap(),
        "--out",
        dir.join("too-much").to_str().unwrap(),
        "--minimax",
        "1.5",
    ]);
    assert_eq!(refused.status.code(), Some(2), "a clap usage error");
    assert!(
        text(&refused.stderr).contains("expected a weight from 0 to 1"),
        "{}",
        text(&refused.stderr)
    );
}

/// The evaluation games of `player` against random (two games, one a side), as `zero eval --games-out` writes them;
/// `--out` writes the standings beside them (`.json`).
fn games_against_random(player: &str, out: &Path) -> String {
    let games = out.to_str().unwrap();
    let args = [
        "eval", "--game", "tours", "--player", player, "--player", "random", "--games", "2",
    ];
    let standings = out.with_extension("json");
    let outputs = ["--games-out", games, "--out", standings.to_str().unwrap()];
    let out = zero(&[&args[..], &["--seed", "3"], &outputs[..]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_to_string(games).unwrap()
}

#[test]
fn a_bundle_plays_in_the_arena_with_its_manifest_search_and_the_spec_changes_it() {
    let tmp = scratch("arena");
    let bundle = tiny_bundle("tours", tmp.path(), 4);
    let dir = bundle.display().to_string();
    let own = zero_bot::Bundle::open(&bundle).unwrap().manifest.search;
    let network = |spec: &str| match zero_arena::PlayerSpec::parse(spec).unwrap().kind {
        zero_arena::PlayerKind::Network(player) => player,
        other => panic!("{spec} parsed to {other:?}"),
    };
    // With no key, the bundle searches as its manifest says; a key changes only itself, and the name says what
    // differs from the bundle's own search.
    assert_eq!(network(&format!("bundle:{dir}")).search, own);
    let changed = zero_arena::PlayerSpec::parse(&format!("bundle:{dir},sims=8,cpuct=2")).unwrap();
    let zero_arena::PlayerKind::Network(player) = &changed.kind else {
        panic!()
    };
    assert_eq!(
        player.search,
        zero_search::PlaySearch {
            c_puct: 2.0,
            ..own.on_simulations(8)
        }
    );
    assert_eq!(changed.canonical(), "bundle:bundle,sims=8,cpuct=2");
    // Its games are those of its checkpoint searching with the manifest's settings.
    let settings: String = own
        .changed_settings()
        .iter()
        .map(|(k, v)| format!(",{k}={v}"))
        .collect();
    let as_bundle = games_against_random(&format!("bundle:{dir},name=net"), &tmp.path().join("b.jsonl"));
    let weights = bundle.join("network.safetensors");
    let as_checkpoint = format!("ckpt:{},sims={}{settings},name=net", weights.display(), own.sims);
    assert_eq!(
        as_bundle,
        games_against_random(&as_checkpoint, &tmp.path().join("c.jsonl"))
    );
    assert_eq!(as_bundle.lines().count(), 2);
    // The standings record the search the bundle's player played with, typed.
    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("b.json")).unwrap()).unwrap();
    let recorded = &standings["network_players"]["net"]["network"]["bundle"]["search"];
    assert_eq!(*recorded, serde_json::to_value(own).unwrap(), "{standings}");
    // A damaged bundle is refused by name before a game is played.
    let onnx = bundle.join("network.onnx");
    let mut bytes = std::fs::read(&onnx).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&onnx, bytes).unwrap();
    let out = zero(&[
        "eval",
        "--game",
        "tours",
        "--player",
        &format!("bundle:{dir}"),
        "--player",
        "random",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("checksum mismatch for network.onnx") && err.contains(&dir),
        "{err}"
    );
}
