//! `zero bot BUNDLE`: the line protocol of `docs/protocol.md` on stdin/stdout, in the spirit of UCI. A bad line
//! is answered with `error <reason>` and changes nothing; the bot keeps serving until `quit` or end of input.

use crate::bot::{Bot, describe_outcome};
use crate::lines::Lines;
use anyhow::Result;
use std::io::{BufRead, Write};
use std::time::Duration;
use zero_games::Encoding;
use zero_search::Budget;
use zero_search::config::MAX_SIMULATIONS;

/// The game being discussed with the client: where it started and the moves since.
struct Session<G: Encoding> {
    game: G,
}

/// Serves the protocol until `quit` or end of input. Only I/O failures end it with an error.
pub fn serve<G: Encoding>(bot: &mut Bot<G>, input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut session = Session {
        game: G::start(&bot.rules),
    };
    let mut lines = Lines::new(input);
    while let Some(line) = lines.next_line()? {
        let line = match line.text() {
            Ok(text) => text,
            Err(reason) => {
                writeln!(output, "error {reason}")?;
                output.flush()?;
                continue;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        let reply = match command {
            "quit" => break,
            "isready" => Ok(vec!["readyok".to_string()]),
            "newgame" => {
                session.game = G::start(&bot.rules);
                Ok(Vec::new())
            }
            "position" => set_position(&bot.rules, args).map(|game| {
                session.game = game;
                Vec::new()
            }),
            "go" => go(bot, &session.game, args),
            "legal" => {
                let mut moves = Vec::new();
                session.game.legal_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|m| session.game.format_move(m)).collect();
                Ok(vec![format!("legal {}", texts.join(" ")).trim_end().to_string()])
            }
            "show" => Ok(vec![format!("position {}", session.game.position())]),
            other => Err(format!("unknown command {other:?}")),
        };
        match reply {
            Ok(lines) => lines.iter().try_for_each(|l| writeln!(output, "{l}"))?,
            Err(reason) => writeln!(output, "error {}", reason.replace('\n', " "))?,
        }
        output.flush()?;
    }
    Ok(())
}

/// `startpos|start [moves M...]` or `fen <notation> [moves M...]`: the whole line is checked before anything
/// changes.
fn set_position<G: Encoding>(rules: &G::Rules, args: &[&str]) -> Result<G, String> {
    let split = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
    let (head, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let mut game = match head {
        ["startpos"] | ["start"] => G::start(rules),
        ["fen", notation @ ..] if !notation.is_empty() => {
            G::from_position(rules, &notation.join(" ")).map_err(|e| e.to_string())?
        }
        [] => return Err("position needs startpos or fen <notation>".to_string()),
        _ => {
            return Err(format!(
                "bad position {:?}: expected startpos or fen <notation>",
                head.join(" ")
            ));
        }
    };
    for (i, text) in moves.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(format!(
                "move {} {text:?} after the game ended: {}",
                i + 1,
                describe_outcome::<G>(&outcome)
            ));
        }
        let mv = game.parse_move(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        game.play(&mv);
    }
    Ok(game)
}

/// The longest `go movetime`, in milliseconds: ten minutes, longer than any game clock gives one move.
pub const MAX_GO_MOVETIME_MS: u32 = 600_000;

/// `go [sims N | movetime MS]`.
fn go<G: Encoding>(bot: &mut Bot<G>, game: &G, args: &[&str]) -> Result<Vec<String>, String> {
    let budget = match args {
        [] => bot.default_budget,
        ["sims", n] => Budget::Simulations(parse_bounded(n, "sims", MAX_SIMULATIONS)?),
        ["movetime", ms] => Budget::MoveTime(Duration::from_millis(
            parse_bounded(ms, "movetime", MAX_GO_MOVETIME_MS)?.into(),
        )),
        _ => {
            return Err(format!(
                "bad go {:?}: expected go [sims N | movetime MS]",
                args.join(" ")
            ));
        }
    };
    if let Some(outcome) = game.outcome() {
        return Err(format!("game over: {}", describe_outcome::<G>(&outcome)));
    }
    let decision = bot.think(game, budget);
    Ok(vec![
        format!("info value {:.4} line {}", decision.value, decision.line.join(" ")),
        format!("bestmove {}", decision.text),
    ])
}

fn parse_bounded(text: &str, what: &str, max: u32) -> Result<u32, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=u64::from(max)).contains(&n) => Ok(n as u32),
        _ => Err(format!("{what} must be an integer from 1 to {max}, not {text:?}")),
    }
}
