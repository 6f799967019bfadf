//! `zero play` driven through its stdin as a scripted person: moves, a bad move, undo, help, quit.

mod support;

use support::{run_with_input, scratch, text, tiny_bundle};

fn play(bundle: &std::path::Path, args: &[&str], script: &str) -> String {
    let command = [&["play", bundle.to_str().unwrap()], args].concat();
    let out = run_with_input(std::path::Path::new(env!("CARGO_BIN_EXE_zero")), &command, script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn a_scripted_person_plays_undoes_and_is_told_about_a_bad_move() {
    let tmp = scratch("play");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    let out = play(
        &bundle,
        &["--sims", "4"],
        "c3-d5\nhelp\nc3-d4\nundo\nundo\na3-b4\nquit\n",
    );
    assert!(out.contains("you are white (first)"), "{out}");
    // The board is drawn: Bashni's rank labels and files.
    assert!(out.contains("a  b  c  d  e  f  g  h"), "{out}");
    assert!(
        out.contains("illegal move: bad move \"c3-d5\"") && out.contains("legal moves: a3-b4 c3-b4 c3-d4"),
        "{out}"
    );
    assert!(out.contains("undo     take back"), "help is shown: {out}");
    assert!(out.contains("you play c3-d4"), "{out}");
    assert!(out.contains("undone: your last move and the bot's reply"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("you play a3-b4"), "{out}");
    let bot_moves = out.lines().filter(|l| l.starts_with("bot (black) plays ")).count();
    assert_eq!(bot_moves, 2, "the bot answered each move: {out}");
    assert!(out.contains("evaluation ") && out.contains("for the bot"), "{out}");
    // After the undo the start position is drawn again, before a3-b4.
    let undone = out.find("undone:").unwrap();
    let after = &out[undone..out.find("you play a3-b4").unwrap()];
    assert!(after.contains("\n3  w     w     w     w"), "{after}");
}

#[test]
fn the_bot_moves_first_when_the_person_plays_second() {
    let tmp = scratch("play-second");
    let dir = tmp.path();
    let bundle = tiny_bundle("baghchal", dir, 4);
    let out = play(&bundle, &["--human", "second", "--sims", "2"], "");
    let intro = out.lines().next().unwrap();
    assert!(intro.contains("(second)"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("bot (")).count(), 1, "{out}");
    assert!(out.trim_end().ends_with("your move>"), "{out}");
}

#[test]
fn a_game_is_saved_as_a_record_and_loaded_to_go_on_from_it() {
    let tmp = scratch("play-save");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    let saved = dir.join("game.pdn");
    let script = format!("c3-d4\nsave {}\nquit\n", saved.display());
    let out = play(&bundle, &["--sims", "4"], &script);
    assert!(out.contains("saved 2 moves to"), "{out}");
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(
        record.contains("[White \"you\"]") && record.contains("[Black \"zero bot\"]"),
        "{record}"
    );
    assert!(record.contains("\n1. c3-d4 "), "{record}");
    let bot_reply = out
        .lines()
        .find_map(|l| l.strip_prefix("bot (black) plays "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    assert!(record.contains(&format!("1. c3-d4 {bot_reply} *")), "{record}");

    // Loaded, the game goes on from its end: the person's second move, then undo back to the loaded end.
    let script = format!(
        "load {}\nmoves\nundo\nload {}/nowhere.pdn\nquit\n",
        saved.display(),
        dir.display()
    );
    let out = play(&bundle, &["--sims", "4"], &script);
    assert!(out.contains("loaded 2 moves from"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(
        out.contains("not loaded: reading") && out.contains("nowhere.pdn"),
        "{out}"
    );
    // A record of another game is refused, naming why.
    std::fs::write(&saved, "[GameType \"tours\"]\n*\n").unwrap();
    let out = play(&bundle, &["--sims", "4"], &format!("load {}\nquit\n", saved.display()));
    assert!(
        out.contains("not loaded:") && out.contains("a record of \"tours\", not of bashni"),
        "{out}"
    );
}
