//! `zero play BUNDLE`: a person against the bot in the terminal. The board is the game's `render()` (Bashni's
//! towers listed top first under it); moves are typed in the game's notation and checked, with `undo`,
//! `moves`, `help` and `quit`.

use crate::bot::{Bot, describe_outcome};
use crate::lines::Lines;
use anyhow::Result;
use std::io::{BufRead, Write};
use zero_games::{Encoding, Side};

const HELP: &str = "\
commands:
  <move>   play a move in the game's notation (e.g. c3-d4, c3:e5:c7 in Bashni, a1xc3 in Bagh Chal)
  moves    list the legal moves
  undo     take back your last move and the bot's reply
  help     this text
  quit     leave";

/// Plays until `quit` or end of input. `human_first`: the person makes the first move.
pub fn play<G: Encoding>(bot: &mut Bot<G>, human_first: bool, input: impl BufRead, mut out: impl Write) -> Result<()> {
    let mut game = G::start(&bot.rules);
    let human = if human_first {
        game.to_move()
    } else {
        game.to_move().other()
    };
    writeln!(
        out,
        "zero play: {}, you are {} ({}), the bot is {}. Type a move, or help.",
        G::NAME,
        G::player_name(human),
        if human_first { "first" } else { "second" },
        G::player_name(human.other())
    )?;
    // The positions before each of the person's moves, for `undo`.
    let mut before_human_moves: Vec<G> = Vec::new();
    let mut lines = Lines::new(input);
    let mut show_board = true;
    loop {
        if show_board {
            writeln!(out, "\n{}", game.render().trim_end())?;
        }
        show_board = true;
        if let Some(outcome) = game.outcome() {
            writeln!(out, "game over: {} (undo or quit)", describe_outcome::<G>(&outcome))?;
        } else if game.to_move() != human {
            bot_move(bot, &mut game, human, &mut out)?;
            continue;
        }
        write!(out, "your move> ")?;
        out.flush()?;
        let Some(line) = lines.next_line()? else {
            writeln!(out)?;
            return Ok(());
        };
        let line = match line.text() {
            Ok(text) => text,
            Err(reason) => {
                writeln!(out, "{reason}")?;
                show_board = false;
                continue;
            }
        };
        match command(line.trim(), &mut game, &mut before_human_moves, &mut out)? {
            Step::Quit => return Ok(()),
            Step::Board(show) => show_board = show,
        }
    }
}

/// What the loop does after a command: quit, or go on showing the board again or not.
enum Step {
    Quit,
    Board(bool),
}

/// Carries out one line the person typed.
fn command<G: Encoding>(
    command: &str,
    game: &mut G,
    before_human_moves: &mut Vec<G>,
    out: &mut impl Write,
) -> Result<Step> {
    match command {
        "" => return Ok(Step::Board(false)),
        "quit" | "exit" => return Ok(Step::Quit),
        "help" => writeln!(out, "{HELP}")?,
        "moves" => writeln!(out, "legal moves: {}", legal_moves_text(game))?,
        "undo" => match before_human_moves.pop() {
            Some(previous) => {
                *game = previous;
                writeln!(out, "undone: your last move and the bot's reply")?;
                return Ok(Step::Board(true));
            }
            None => writeln!(out, "nothing to undo")?,
        },
        text if game.outcome().is_some() => {
            writeln!(out, "the game is over; {text:?} cannot be played (undo or quit)")?
        }
        text => match game.parse_move(text) {
            Ok(mv) => {
                before_human_moves.push(game.clone());
                writeln!(out, "you play {}", game.format_move(&mv))?;
                game.play(&mv);
                return Ok(Step::Board(true));
            }
            Err(e) => writeln!(
                out,
                "illegal move: {e}\nlegal moves: {}\n(type help for commands)",
                legal_moves_text(game)
            )?,
        },
    }
    Ok(Step::Board(false))
}

fn bot_move<G: Encoding>(bot: &mut Bot<G>, game: &mut G, human: Side, out: &mut impl Write) -> Result<()> {
    let budget = bot.default_budget;
    let decision = bot.think(game, budget);
    game.play(&decision.mv);
    writeln!(
        out,
        "bot ({}) plays {}   evaluation {:+.2} for the bot ({:+.2} for you), {} simulations, expects {}",
        G::player_name(human.other()),
        decision.text,
        decision.value,
        -decision.value,
        decision.simulations,
        decision.line.join(" ")
    )?;
    Ok(())
}

fn legal_moves_text<G: Encoding>(game: &G) -> String {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
    texts.sort();
    texts.join(" ")
}
