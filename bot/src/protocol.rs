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

/// One line of the protocol, parsed and checked against the rules: nothing of it is applied yet.
#[derive(Debug, Clone)]
pub enum Command<G: Encoding> {
    Quit,
    IsReady,
    NewGame,
    /// `position ...`: the position it sets, its moves already played.
    Position(G),
    /// `go [sims N | movetime MS]`: the budget named, or `None` for the bot's default.
    Go(Option<Budget>),
    Legal,
    Show,
}

impl<G: Encoding> Command<G> {
    /// Parses one line; `Ok(None)` for a blank one. The error is the reason the `error` reply gives.
    pub fn parse(rules: &G::Rules, line: &str) -> Result<Option<Command<G>>, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(None);
        };
        let command = match command {
            "quit" => Command::Quit,
            "isready" => Command::IsReady,
            "newgame" => Command::NewGame,
            "position" => Command::Position(set_position(rules, args)?),
            "go" => Command::Go(parse_budget(args)?),
            "legal" => Command::Legal,
            "show" => Command::Show,
            other => return Err(format!("unknown command {other:?}")),
        };
        Ok(Some(command))
    }
}

/// Serves the protocol until `quit` or end of input. Only I/O failures end it with an error.
pub fn serve<G: Encoding>(bot: &mut Bot<G>, input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut game = G::start(&bot.rules);
    let mut lines = Lines::new(input);
    while let Some(line) = lines.next_line()? {
        let command = line.text().and_then(|text| Command::parse(&bot.rules, &text));
        let reply = match command {
            Ok(None) => continue,
            Ok(Some(Command::Quit)) => break,
            Ok(Some(Command::Go(budget))) => go(bot, &game, budget),
            Ok(Some(command)) => Ok(answer(&bot.rules, &mut game, command)),
            Err(reason) => Err(reason),
        };
        match reply {
            Ok(lines) => lines.iter().try_for_each(|l| writeln!(output, "{l}"))?,
            Err(reason) => writeln!(output, "error {}", reason.replace('\n', " "))?,
        }
        output.flush()?;
    }
    Ok(())
}

/// Carries out a command that needs no search on the session's `game`; returns the reply lines. `go` and `quit`
/// are the caller's.
pub fn answer<G: Encoding>(rules: &G::Rules, game: &mut G, command: Command<G>) -> Vec<String> {
    match command {
        Command::IsReady => vec!["readyok".to_string()],
        Command::NewGame => {
            *game = G::start(rules);
            Vec::new()
        }
        Command::Position(set) => {
            *game = set;
            Vec::new()
        }
        Command::Legal => {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let texts: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
            vec![format!("legal {}", texts.join(" ")).trim_end().to_string()]
        }
        Command::Show => vec![format!("position {}", game.position())],
        Command::Quit | Command::Go(_) => Vec::new(),
    }
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

/// The budget of `go [sims N | movetime MS]`, or `None` for the bot's default.
fn parse_budget(args: &[&str]) -> Result<Option<Budget>, String> {
    match args {
        [] => Ok(None),
        ["sims", n] => Ok(Some(Budget::Simulations(parse_bounded(n, "sims", MAX_SIMULATIONS)?))),
        ["movetime", ms] => Ok(Some(Budget::MoveTime(Duration::from_millis(
            parse_bounded(ms, "movetime", MAX_GO_MOVETIME_MS)?.into(),
        )))),
        _ => Err(format!(
            "bad go {:?}: expected go [sims N | movetime MS]",
            args.join(" ")
        )),
    }
}

/// Searches the session's game with `budget` (the bot's default when `None`).
fn go<G: Encoding>(bot: &mut Bot<G>, game: &G, budget: Option<Budget>) -> Result<Vec<String>, String> {
    if let Some(outcome) = game.outcome() {
        return Err(format!("game over: {}", describe_outcome::<G>(&outcome)));
    }
    let decision = bot.think(game, budget.unwrap_or(bot.default_budget));
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
