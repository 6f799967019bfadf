//! `zero bot` as a client talks to it: over pipes, one line at a time, bad lines included.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use support::{scratch, text, tiny_bundle, zero};
use zero_games::Game;
use zero_games::bashni::Bashni;

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Client {
    fn start(bundle: &std::path::Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zero"))
            .args(["bot", bundle.to_str().unwrap(), "--sims", "8"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("zero bot starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client { child, stdin, stdout }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "the bot closed its output"
        );
        line.trim_end().to_string()
    }

    /// Sends `line` and reads the one-line reply.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.read()
    }

    /// Sends a `go` and reads up to `bestmove`, checking the `info` lines on the way; returns the move.
    fn go(&mut self, line: &str) -> String {
        self.send(line);
        let mut infos = 0;
        loop {
            let reply = self.read();
            if let Some(mv) = reply.strip_prefix("bestmove ") {
                assert!(infos >= 1, "no info line before bestmove");
                return mv.to_string();
            }
            let words: Vec<&str> = reply.split_whitespace().collect();
            assert!(
                words.len() >= 5 && words[0] == "info" && words[1] == "value" && words[3] == "line",
                "{reply:?}"
            );
            let value: f32 = words[2].parse().unwrap();
            assert!((-1.0..=1.0).contains(&value), "{reply:?}");
            infos += 1;
        }
    }
}

fn replay(moves: &[&str]) -> Bashni {
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let mut game = Bashni::start(&rules);
    for text in moves {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} is not legal: {e}"));
        game.play(&mv);
    }
    game
}

#[test]
fn bot_answers_the_protocol_over_pipes_and_survives_bad_lines() {
    let tmp = scratch("bot");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 8);
    let mut bot = Client::start(&bundle);
    assert_eq!(bot.ask("isready"), "readyok");

    // From the start, then after the bot's own move: each bestmove is legal where it was asked.
    let first = bot.go("go");
    replay(&[&first]);
    bot.send(&format!("position startpos moves {first}"));
    let second = bot.go("go sims 4");
    replay(&[&first, &second]);
    // `go` does not play its move: the position is still the one the client set.
    let after = replay(&[&first]);
    assert_eq!(bot.ask("show"), format!("position {}", after.position()));

    // Bad lines: each gets one error line, and nothing changes.
    for (line, reason) in [
        ("frobnicate", "error unknown command"),
        ("position startpos moves c3-d5", "error move 1: bad move \"c3-d5\""),
        ("position startpos moves a3-b4 a3-b4", "error move 2: bad move"),
        ("position fen not a position", "error bad position"),
        ("position", "error position needs startpos"),
        ("position middle", "error bad position \"middle\""),
        ("go sims abc", "error sims must be an integer from 1 to 1000000"),
        ("go sims 0", "error sims must be an integer from 1 to 1000000"),
        ("go sims 4000000000", "error sims must be an integer from 1 to 1000000"),
        (
            "go movetime 600001",
            "error movetime must be an integer from 1 to 600000",
        ),
        ("go fast", "error bad go"),
    ] {
        let reply = bot.ask(line);
        assert!(reply.starts_with(reason), "{line:?} got {reply:?}");
    }
    assert_eq!(bot.ask("show"), format!("position {}", after.position()));

    // Bytes that are not UTF-8, and a line past the limit: one error each, held in bounded memory.
    bot.send_bytes(b"go \xff\xfe\n");
    assert_eq!(bot.read(), "error line is not UTF-8 text (bad byte at offset 3)");
    let long = vec![b'x'; zero_bot::lines::MAX_LINE_BYTES + 10];
    bot.send_bytes(&long);
    bot.send_bytes(b"\n");
    assert!(
        bot.read()
            .starts_with(&format!("error line of {} bytes skipped", long.len()))
    );
    assert_eq!(bot.ask("show"), format!("position {}", after.position()));

    // A capture of several jumps is one move, chosen jump by jump.
    bot.send("position fen w c3:w d4:b d6:b h8:b");
    assert_eq!(bot.go("go movetime 50"), "c3:e5:c7");

    // A finished game: white has no piece left to move.
    bot.send("position fen w h8:b");
    assert_eq!(bot.ask("go"), "error game over: black wins (no-legal-move)");

    bot.send("newgame");
    let fresh = bot.go("go sims 2");
    replay(&[&fresh]);
    assert_eq!(bot.ask("isready"), "readyok");
    bot.send("quit");
    let status = bot.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn bot_ends_quietly_at_the_end_of_its_input() {
    let tmp = scratch("bot-eof");
    let dir = tmp.path();
    let bundle = tiny_bundle("baghchal", dir, 4);
    let out = Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(["bot", bundle.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

/// Checks an analysis block up to `bestmove`: the summary, at most `multipv` top moves (legal, in the root's
/// order: most visited first with a PUCT root, a `gumbel` score on each with a Gumbel root), the value line;
/// returns (periodic reports seen before it, the best move, the first top move).
fn read_analysis(bot: &mut Client, multipv: usize, start: &Bashni) -> (usize, String, String) {
    let (mut summaries, mut top) = (0, Vec::<(String, u32)>::new());
    loop {
        let reply = bot.read();
        let words: Vec<&str> = reply.split_whitespace().collect();
        match words.as_slice() {
            ["bestmove", mv] => {
                assert!(summaries >= 1, "no summary before bestmove");
                return (summaries - 1, mv.to_string(), top[0].0.clone());
            }
            ["info", "nodes", n, "time", _, "nps", _, "value", v, "wdl", w, d, l] => {
                let wdl: u32 = [w, d, l].iter().map(|x| x.parse::<u32>().unwrap()).sum();
                assert!(n.parse::<u32>().unwrap() > 0 && wdl == 1000, "{reply}");
                assert!((-1.0..=1.0).contains(&v.parse::<f32>().unwrap()), "{reply}");
                summaries += 1;
                top.clear();
            }
            [
                "info",
                "multipv",
                i,
                "move",
                mv,
                "visits",
                visits,
                "prior",
                _,
                "q",
                _,
                rest @ ..,
            ] => {
                let (gumbel, first) = match rest {
                    ["gumbel", score, "line", first, ..] => (Some(score.parse::<f32>().unwrap()), first),
                    ["line", first, ..] => (None, first),
                    _ => panic!("unexpected top move {reply:?}"),
                };
                assert_eq!(i.parse::<usize>().unwrap(), top.len() + 1, "{reply}");
                assert!(top.len() < multipv && mv == first, "{reply}");
                assert!(top.iter().all(|(seen, _)| seen != mv), "each move once: {reply}");
                let mut after = start.clone();
                after.play(&start.parse_move(mv).unwrap());
                top.push((mv.to_string(), visits.parse::<u32>().unwrap()));
                if gumbel.is_none() {
                    assert!(top.windows(2).all(|w| w[0].1 >= w[1].1), "most visited first: {top:?}");
                }
            }
            ["info", "value", ..] => assert!(!top.is_empty(), "no top move before {reply}"),
            _ => panic!("unexpected line {reply:?}"),
        }
    }
}

#[test]
fn a_gumbel_bundle_shows_its_halving_order_and_plays_multipv_1() {
    let tmp = scratch("bot-gumbel-analysis");
    tiny_bundle("bashni", tmp.path(), 8);
    let bundle = tmp.path().join("gumbel");
    let ckpt = tmp.path().join("net.safetensors");
    let out = zero(&[
        "export",
        ckpt.to_str().unwrap(),
        "--out",
        bundle.to_str().unwrap(),
        "--root",
        "gumbel",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut bot = Client::start(&bundle);
    let start = replay(&[]);
    bot.send("setoption name multipv value 5");
    for budget in ["go sims 64", "go movetime 300"] {
        bot.send(budget);
        let (_, best, first) = read_analysis(&mut bot, 5, &start);
        assert_eq!(best, first, "{budget}: bestmove is multipv 1");
    }
}

#[test]
fn bot_analyses_with_top_moves_and_searches_until_stop() {
    let tmp = scratch("bot-analysis");
    let bundle = tiny_bundle("bashni", tmp.path(), 8);
    let mut bot = Client::start(&bundle);
    let start = replay(&[]);
    bot.send("setoption name multipv value 3");
    bot.send("go sims 32");
    let (_, best, first) = read_analysis(&mut bot, 3, &start);
    assert_eq!(best, first, "bestmove is multipv 1");
    replay(&[&best]);
    for (line, reason) in [
        (
            "setoption name multipv value 65",
            "error multipv must be an integer from 0 to 64",
        ),
        ("setoption name speed value 1", "error unknown option \"speed\""),
        (
            "setoption name level value master",
            "error unknown level \"master\": the levels are beginner",
        ),
        ("setoption multipv 2", "error bad setoption"),
    ] {
        assert!(bot.ask(line).starts_with(reason), "{line}");
    }

    // go infinite reports every second until stop; meanwhile isready is answered and other lines are refused.
    bot.send("go infinite");
    let first = bot.read();
    assert!(
        first.starts_with("info nodes"),
        "the first report comes after a second: {first:?}"
    );
    bot.send("show");
    bot.send("isready");
    let mut waiting = Vec::new();
    loop {
        let reply = bot.read();
        if reply == "readyok" {
            break;
        }
        waiting.push(reply);
    }
    assert!(waiting.iter().any(|l| l.starts_with("error searching")), "{waiting:?}");
    bot.send("stop");
    let (_, best, first) = read_analysis(&mut bot, 3, &start);
    assert_eq!(best, first, "bestmove is multipv 1");
    replay(&[&best]);
    assert_eq!(bot.ask("isready"), "readyok", "the session goes on after stop");
    // A level: its simulations become the default budget (one simulation for a beginner).
    bot.send("setoption name level value beginner");
    bot.send("go");
    let (_, best, _) = read_analysis(&mut bot, 3, &start);
    replay(&[&best]);
    // quit ends an infinite search and the session at once.
    bot.send("go infinite");
    bot.send("quit");
    assert!(bot.child.wait().unwrap().success());
}
