//! Every registered game, taken from the registry (so a game added to it is tested with no line here), through
//! the whole workbench as a user drives it: perft, self-play to shards, training a network on them, an
//! evaluation of that network against a baseline, export to a bundle, and the bot playing a move from it.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use support::{scratch, text, zero};
use zero_games::{Game, GameKind, Side, with_game};

/// A tiny config for `kind`: one residual block, a few searches, a few training steps.
fn tiny_config(kind: GameKind) -> String {
    format!(
        "game = \"{kind}\"\n\
         [network]\nblocks = 1\nchannels = 8\nvalue_hidden = 16\n\
         [selfplay]\ngames_in_flight = 2\ncheap_simulations = 2\nresign.threshold = -1.0\n\
         [selfplay.search]\nsimulations = 4\ngumbel_actions = 4\n\
         [train]\nbatch_size = 8\nchunk_steps = 2\nshuffle_buffer = 32\nwarmup_steps = 1\ndevice = \"cpu\"\n"
    )
}

/// Runs `zero ARGS` and returns its standard output; fails the test, naming the step, when it fails.
fn step(kind: GameKind, name: &str, args: &[&str]) -> String {
    let out = zero(args);
    assert!(
        out.status.success(),
        "{kind}: {name} failed: {}\n{}",
        text(&out.stderr),
        text(&out.stdout)
    );
    text(&out.stdout)
}

/// Perft to depth 2 from the start, in process: the command must print the same count.
fn perft_of<G: Game>() -> u64 {
    let rules = G::without_draw_rules(&G::parse_rules(None, &[]).unwrap());
    zero_games::perft(&G::start(&rules), 2)
}

/// Whether `text` is a legal move from the start position of `G`.
fn legal_at_start<G: Game>(text: &str) -> bool {
    let game = G::start(&G::parse_rules(None, &[]).unwrap());
    game.parse_move(text).is_ok()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn pipeline(kind: GameKind, dir: &Path) {
    let name = kind.name();
    let perft = step(kind, "perft", &["perft", name, "--depth", "2"]);
    assert_eq!(
        perft.trim(),
        with_game!(kind, G => perft_of::<G>()).to_string(),
        "{kind}: perft"
    );

    let config = dir.join("tiny.toml");
    std::fs::write(&config, tiny_config(kind)).unwrap();
    let data = dir.join("data");
    let model = ["--model", "uniform", "--games", "2", "--out", path(&data)];
    step(
        kind,
        "self-play",
        &[&["selfplay", "--config", path(&config)][..], &model].concat(),
    );
    let shards = zero_data::ShardSet::scan(&data).unwrap();
    let games: usize = shards
        .shards()
        .iter()
        .map(|e| zero_data::read_games(&e.games_path).unwrap().1.len())
        .sum();
    assert_eq!(games, 2, "{kind}: self-play wrote {games} games");

    let ckpt = dir.join("net.safetensors");
    let train = [
        "train",
        "--config",
        path(&config),
        "--data",
        path(&data),
        "--steps",
        "3",
    ];
    step(kind, "training", &[&train[..], &["--out", path(&ckpt)]].concat());
    assert!(ckpt.is_file(), "{kind}: no checkpoint");

    let player = format!("ckpt:{},sims=2,name=net", path(&ckpt));
    let table = step(
        kind,
        "evaluation",
        &[
            "eval",
            "--game",
            name,
            "--player",
            &player,
            "--player",
            "random",
            "--games",
            "2",
            "--opening-count",
            "2",
        ],
    );
    assert!(
        table.contains("net") && table.contains("random"),
        "{kind}: evaluation table {table}"
    );
    // The pair's games by side, named as the game names its players: one game each with 2 games a pair.
    let [first, second] = with_game!(kind, G => [Side::First, Side::Second].map(G::player_name));
    let by_side = table
        .lines()
        .find(|l| l.starts_with("net vs random "))
        .unwrap_or_default();
    let one_game = |side: &str| {
        ["1-0-0", "0-1-0", "0-0-1"]
            .iter()
            .any(|wdl| by_side.contains(&format!("as {side}: {wdl}, score")))
    };
    assert!(
        one_game(first) && one_game(second),
        "{kind}: no games by side in {table}"
    );

    let bundle = dir.join("bundle");
    step(
        kind,
        "export",
        &["export", path(&ckpt), "--out", path(&bundle), "--sims", "4"],
    );
    let mut bot = Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(["bot", path(&bundle)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zero bot starts");
    bot.stdin.take().unwrap().write_all(b"go\nquit\n").unwrap();
    let out = bot.wait_with_output().unwrap();
    let replies = text(&out.stdout);
    let best = replies
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("{kind}: the bot gave no move: {replies} {}", text(&out.stderr)));
    assert!(
        with_game!(kind, G => legal_at_start::<G>(best)),
        "{kind}: the bot played {best:?}, not a legal move"
    );
}

#[test]
fn every_registered_game_goes_through_the_whole_workbench() {
    for &kind in GameKind::ALL {
        let tmp = scratch(&format!("registry-{kind}"));
        let dir = tmp.path();
        pipeline(kind, dir);
    }
}
