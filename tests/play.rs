//! `zero play` driven through its stdin as a scripted person: moves, a bad move, undo, help, quit.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use support::{scratch, text, tiny_bundle};

fn play(bundle: &std::path::Path, args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zero"))
        .arg("play")
        .arg(bundle)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
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
