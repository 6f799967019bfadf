//! `zero play BUNDLE`: a person against the bot in the terminal. The board is the game's `render()` (Bashni's
//! towers listed top first under it); moves are typed in the game's notation and checked, with `undo`,
//! `moves`, `save`, `load`, `help` and `quit`. Games are saved and loaded as records (`docs/records.md`).

use crate::bot::{Bot, describe_outcome};
use crate::error::{Context, Result};
use crate::lines::Lines;
use std::io::{BufRead, Write};
use std::path::Path;
use zero_games::{Encoding, Game, Side};

const HELP: &str = "\
commands:
  <move>   play a move in the game's notation (e.g. c3-d4, c3:e5:c7 in Bashni, a1xc3 in Bagh Chal)
  moves    list the legal moves
  undo     take back your last move and the bot's reply
  save F   write the game so far to file F as a record (PDN for Bashni)
  load F   go on from the end of the first game in record file F
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
    let mut session = Session {
        start: game.clone(),
        moves: Vec::new(),
        before_human_moves: Vec::new(),
        human,
    };
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
            let mv = bot_move(bot, &mut game, human, &mut out)?;
            session.moves.push(mv);
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
        match command(line.trim(), &mut game, &mut session, &bot.rules, &mut out)? {
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

/// The game's record so far: where it started, the moves since, and the positions before each of the person's
/// moves (with the number of moves played then) for `undo`.
struct Session<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    before_human_moves: Vec<(G, usize)>,
    human: Side,
}

/// Carries out one line the person typed.
fn command<G: Encoding>(
    command: &str,
    game: &mut G,
    session: &mut Session<G>,
    rules: &G::Rules,
    out: &mut impl Write,
) -> Result<Step> {
    match command.split_once(' ').map(|(c, arg)| (c, arg.trim())) {
        Some(("save", file)) => {
            match save(session, game, Path::new(file)) {
                Ok(()) => writeln!(out, "saved {} moves to {file}", session.moves.len())?,
                Err(e) => writeln!(out, "not saved: {e}")?,
            }
            return Ok(Step::Board(false));
        }
        Some(("load", file)) => {
            match load(session, rules, Path::new(file)) {
                Ok(end) => {
                    *game = end;
                    writeln!(out, "loaded {} moves from {file}", session.moves.len())?;
                    return Ok(Step::Board(true));
                }
                Err(e) => writeln!(out, "not loaded: {e}")?,
            }
            return Ok(Step::Board(false));
        }
        _ => {}
    }
    match command {
        "" => return Ok(Step::Board(false)),
        "quit" | "exit" => return Ok(Step::Quit),
        "help" => writeln!(out, "{HELP}")?,
        "moves" => writeln!(out, "legal moves: {}", legal_moves_text(game))?,
        "undo" => match session.before_human_moves.pop() {
            Some((previous, played)) => {
                *game = previous;
                session.moves.truncate(played);
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
                session.before_human_moves.push((game.clone(), session.moves.len()));
                writeln!(out, "you play {}", game.format_move(&mv))?;
                game.play(&mv);
                session.moves.push(mv);
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

/// Writes the game so far to `file` as a record, atomically.
fn save<G: Game>(session: &Session<G>, game: &G, file: &Path) -> Result<()> {
    let text = crate::record::record_text(&session.start, &session.moves, game, session.human, "zero play")?;
    zero_io::write_atomically(file, text.as_bytes()).with_context(|| format!("writing {}", file.display()))
}

/// Reads the first record of `file`, which must be played under the bot's rules, and makes it the session's
/// game; returns its last position.
fn load<G: Game>(session: &mut Session<G>, rules: &G::Rules, file: &Path) -> Result<G> {
    let text = zero_io::read_text_bounded(file, zero_io::FileKind::Record).context("reading the record")?;
    let replay = crate::record::first_game::<G>(&text, &file.display().to_string(), rules)?;
    session.start = replay.start;
    session.moves = replay.moves;
    session.before_human_moves.clear();
    Ok(replay.end)
}

fn bot_move<G: Encoding>(bot: &mut Bot<G>, game: &mut G, human: Side, out: &mut impl Write) -> Result<G::Move> {
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
    Ok(decision.mv)
}

fn legal_moves_text<G: Encoding>(game: &G) -> String {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
    texts.sort();
    texts.join(" ")
}
