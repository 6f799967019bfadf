//! `zero games` and `zero replay` on real games: each game's self-play (`zero selfplay`, uniform priors) and
//! evaluation games (`zero eval --games-out`) exported from a run directory as records, read back and replayed
//! to the same moves and results; a damaged record is refused naming its file and line.

mod support;

use std::path::Path;
use support::{scratch, text, zero};
use zero_games::{Game, GameKind, with_game};
use zero_records::{GameResult, read_records, replay};

fn run_ok(args: &[&str]) -> String {
    let out = zero(args);
    assert!(out.status.success(), "zero {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// A run directory with `games` self-play games and a 4-game evaluation of `kind`.
fn make_run(kind: GameKind, dir: &Path, games: usize) {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/{}-quick.toml", kind.name()));
    std::fs::copy(&config, dir.join("config.toml")).unwrap();
    let data = dir.join("data");
    let (config, data_arg, games_arg) = (config.to_str().unwrap(), data.to_str().unwrap(), games.to_string());
    run_ok(&[
        "selfplay", "--config", config, "--model", "uniform", "--games", &games_arg, "--out", data_arg,
    ]);
    let eval = dir.join("games/gen-0001/vs-greedy.jsonl");
    std::fs::create_dir_all(eval.parent().unwrap()).unwrap();
    let eval_arg = eval.to_str().unwrap();
    run_ok(&[
        "eval",
        "--game",
        kind.name(),
        "--player",
        "random",
        "--player",
        "greedy",
        "--games",
        "4",
        "--games-out",
        eval_arg,
    ]);
}

#[test]
fn a_runs_games_export_as_records_that_replay_to_the_same_games() {
    for &kind in GameKind::ALL {
        let tmp = scratch(&format!("records-{}", kind.name()));
        let dir = tmp.path();
        make_run(kind, dir, 24);
        let file = dir.join("games.pgn");
        let (run, file_arg) = (dir.to_str().unwrap(), file.to_str().unwrap());
        run_ok(&["games", run, "--out", file_arg]);
        let records = read_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(records.len(), 24 + 4, "{}", kind.name());
        with_game!(kind, G => check_against_shards::<G>(dir, &records));
        // `zero replay` reads the file back: one line per game.
        let lines = run_ok(&["replay", file_arg]);
        assert_eq!(lines.lines().count(), 28, "{lines}");
        // Only the evaluation, only generation 1.
        run_ok(&[
            "games",
            run,
            "--out",
            file_arg,
            "--only",
            "evaluation",
            "--generation",
            "1",
        ]);
        let evaluation = read_records(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(evaluation.len(), 4);
        assert!(
            evaluation
                .iter()
                .all(|r| r.record.tag("Event") == Some("zero evaluation"))
        );
    }
}

/// Every self-play game of the run's shards is in the records with its moves and result.
fn check_against_shards<G: Game>(dir: &Path, records: &[zero_records::ReadRecord]) {
    let set = zero_data::ShardSet::scan(&dir.join("data")).unwrap();
    let mut stored = Vec::new();
    for shard in set.shards() {
        stored.extend(zero_data::read_games(&shard.games_path).unwrap().1);
    }
    assert_eq!(stored.len(), 24);
    for game in &stored {
        let read = records
            .iter()
            .find(|r| r.record.tag("GameId") == Some(game.game_id.as_str()))
            .unwrap_or_else(|| panic!("game {} not exported", game.game_id));
        assert_eq!(replay::<G>(read).unwrap().move_texts(), game.moves);
        let winner = game.winner.map(|w| zero_games::Side::from_index(w as usize));
        assert_eq!(read.record.result, GameResult::of_winner(winner));
        assert_eq!(read.record.tag("Termination"), Some(game.reason.as_str()));
    }
}

#[test]
fn a_damaged_record_is_refused_naming_its_file_and_line() {
    let tmp = scratch("records-bad");
    let file = tmp.path().join("bad.pdn");
    std::fs::write(&file, "[GameType \"bashni\"]\n\n1. c3-d4 f6-e5\n2. c3-b4 *\n").unwrap();
    let out = zero(&["replay", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.pdn") && err.contains("line 4: move 3 \"c3-b4\""),
        "{err}"
    );
    std::fs::write(&file, "1. c3-d4 *\n").unwrap();
    let err = text(&zero(&["replay", file.to_str().unwrap()]).stderr);
    assert!(
        err.contains("line 1: no GameType tag: name the game with --game"),
        "{err}"
    );
    let out = zero(&["replay", file.to_str().unwrap(), "--game", "bashni"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = zero(&["games", tmp.path().join("nowhere").to_str().unwrap(), "--out", "-"]);
    assert!(
        text(&out.stderr).contains("not a run directory"),
        "{}",
        text(&out.stderr)
    );
    assert!(!tmp.path().join("nowhere").exists());
}
