//! `zero bot BUNDLE`: the line protocol of `docs/protocol.md` on stdin/stdout, in the spirit of UCI. A bad line
//! is answered with `error <reason>` and changes nothing; the bot keeps serving until `quit` or end of input.

use crate::bot::{Bot, Decision, MoveStats, describe_outcome, move_stats, permille_wdl};
use crate::error::Result;
use crate::lines::{Line, LineError, Lines};
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};
use zero_games::Encoding;
use zero_search::config::{MAX_MOVE_TIME_MS, MAX_SIMULATIONS};
use zero_search::{Budget, root_moves};

/// One line of the protocol, parsed and checked against the rules: nothing of it is applied yet.
#[derive(Debug, Clone)]
pub enum Command<G: Encoding> {
    Quit,
    IsReady,
    NewGame,
    /// `position ...`: the position it sets, its moves already played.
    Position(G),
    /// `go [sims N | movetime MS | infinite]`.
    Go(GoLimit),
    /// `stop`: ends a `go infinite`; ignored when nothing is searched.
    Stop,
    /// `setoption name NAME value V`.
    SetOption(BotOption),
    Legal,
    Show,
}

/// How long a `go` searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoLimit {
    /// The session's default budget (`--sims`, the bundle's, or `setoption`'s).
    Default,
    Budget(Budget),
    /// Until `stop` (or `quit`, or the end of input).
    Infinite,
}

/// An option `setoption` sets for the rest of the session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BotOption {
    /// The default budget becomes this many simulations.
    Sims(u32),
    /// The default budget becomes this many milliseconds a move.
    MoveTime(u32),
    /// Report the top K moves after each search (0: only the `info value` line).
    MultiPv(u32),
    /// Play at a strength level (its simulations become the default budget).
    Level(zero_search::Level),
}

/// The most top moves one search reports.
pub const MAX_MULTIPV: u32 = 64;
/// Seconds between the progress reports of a `go infinite`.
const INFINITE_INFO_EVERY: Duration = Duration::from_secs(1);

impl<G: Encoding> Command<G> {
    /// Parses one line; `Ok(None)` for a blank one. The error is the reason the `error` reply gives.
    pub fn parse(rules: &G::Rules, line: &str) -> Result<Option<Command<G>>, ProtocolError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(None);
        };
        let command = match command {
            "quit" => Command::Quit,
            "isready" => Command::IsReady,
            "newgame" => Command::NewGame,
            "position" => Command::Position(set_position(rules, args)?),
            "go" => Command::Go(parse_go(args)?),
            "stop" => Command::Stop,
            "setoption" => Command::SetOption(parse_option(args)?),
            "legal" => Command::Legal,
            "show" => Command::Show,
            other => return Err(ProtocolError(format!("unknown command {other:?}"))),
        };
        Ok(Some(command))
    }
}

/// Why a protocol line was refused, as the `error` line that answers it says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProtocolError(String);

impl From<LineError> for ProtocolError {
    fn from(e: LineError) -> Self {
        ProtocolError(e.to_string())
    }
}

/// Reads lines on a thread of its own, so that a `go infinite` hears `stop` while it searches. The channel
/// closes at the end of input; a read error is sent once, then the thread ends.
fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<std::io::Result<Line>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = Lines::new(input);
        loop {
            match lines.next_line() {
                Ok(Some(line)) => {
                    if send.send(Ok(line)).is_err() {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    let _ = send.send(Err(e));
                    return;
                }
            }
        }
    });
    receive
}

/// What the session knows beyond the bot: the position and how many top moves to report.
struct Session<G> {
    game: G,
    multipv: u32,
}

/// Serves the protocol until `quit` or end of input. Only I/O failures end it with an error.
pub fn serve<G: Encoding>(
    bot: &mut Bot<G>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> Result<()> {
    let lines = spawn_reader(input);
    let mut session = Session {
        game: G::start(&bot.rules),
        multipv: 0,
    };
    while let Ok(line) = lines.recv() {
        let command = line?
            .text()
            .map_err(ProtocolError::from)
            .and_then(|text| Command::parse(&bot.rules, &text));
        let reply = match command {
            Ok(None) => continue,
            Ok(Some(Command::Quit)) => break,
            Ok(Some(Command::Go(limit))) => {
                if go(bot, &session, limit, &lines, &mut output)? == After::Quit {
                    break;
                }
                Ok(Vec::new())
            }
            Ok(Some(Command::SetOption(option))) => {
                set_option(bot, &mut session, option);
                Ok(Vec::new())
            }
            Ok(Some(command)) => Ok(answer(&bot.rules, &mut session.game, command)),
            Err(reason) => Err(reason),
        };
        match reply {
            Ok(lines) => lines.iter().try_for_each(|l| writeln!(output, "{l}"))?,
            Err(reason) => writeln!(output, "error {}", reason.to_string().replace('\n', " "))?,
        }
        output.flush()?;
    }
    Ok(())
}

fn set_option<G: Encoding>(bot: &mut Bot<G>, session: &mut Session<G>, option: BotOption) {
    match option {
        BotOption::Sims(n) => bot.default_budget = Budget::Simulations(n),
        BotOption::MoveTime(ms) => bot.default_budget = Budget::MoveTime(Duration::from_millis(ms.into())),
        BotOption::MultiPv(k) => session.multipv = k,
        BotOption::Level(level) => bot.set_level(level),
    }
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
        Command::Quit | Command::Go(_) | Command::Stop | Command::SetOption(_) => Vec::new(),
    }
}

/// `startpos|start [moves M...]` or `fen <notation> [moves M...]`: the whole line is checked before anything
/// changes.
fn set_position<G: Encoding>(rules: &G::Rules, args: &[&str]) -> Result<G, ProtocolError> {
    let split = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
    let (head, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let mut game = match head {
        ["startpos"] | ["start"] => G::start(rules),
        ["fen", notation @ ..] if !notation.is_empty() => {
            G::from_position(rules, &notation.join(" ")).map_err(|e| ProtocolError(e.to_string()))?
        }
        [] => return Err(ProtocolError("position needs startpos or fen <notation>".to_string())),
        _ => {
            return Err(ProtocolError(format!(
                "bad position {:?}: expected startpos or fen <notation>",
                head.join(" ")
            )));
        }
    };
    for (i, text) in moves.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(ProtocolError(format!(
                "move {} {text:?} after the game ended: {}",
                i + 1,
                describe_outcome::<G>(&outcome)
            )));
        }
        let mv = game
            .parse_move(text)
            .map_err(|e| ProtocolError(format!("move {}: {e}", i + 1)))?;
        game.play(&mv);
    }
    Ok(game)
}

/// The limit of `go [sims N | movetime MS | infinite]`.
fn parse_go(args: &[&str]) -> Result<GoLimit, ProtocolError> {
    match args {
        [] => Ok(GoLimit::Default),
        ["infinite"] => Ok(GoLimit::Infinite),
        ["sims", n] => Ok(GoLimit::Budget(Budget::Simulations(parse_bounded(
            n,
            "sims",
            MAX_SIMULATIONS,
        )?))),
        ["movetime", ms] => Ok(GoLimit::Budget(Budget::MoveTime(Duration::from_millis(
            parse_bounded(ms, "movetime", MAX_MOVE_TIME_MS)?.into(),
        )))),
        _ => Err(ProtocolError(format!(
            "bad go {:?}: expected go [sims N | movetime MS | infinite]",
            args.join(" ")
        ))),
    }
}

/// `setoption name NAME value V` for the options of [`BotOption`] (names in any case).
fn parse_option(args: &[&str]) -> Result<BotOption, ProtocolError> {
    let ["name", name, "value", value] = args else {
        return Err(ProtocolError(format!(
            "bad setoption {:?}: expected setoption name NAME value V",
            args.join(" ")
        )));
    };
    match name.to_ascii_lowercase().as_str() {
        "sims" => Ok(BotOption::Sims(parse_bounded(value, "sims", MAX_SIMULATIONS)?)),
        "movetime" => Ok(BotOption::MoveTime(parse_bounded(value, "movetime", MAX_MOVE_TIME_MS)?)),
        "level" => zero_search::Level::parse(value)
            .map(BotOption::Level)
            .map_err(|e| ProtocolError(e.to_string())),
        "multipv" => match value.parse::<u32>() {
            Ok(k) if k <= MAX_MULTIPV => Ok(BotOption::MultiPv(k)),
            _ => Err(ProtocolError(format!(
                "multipv must be an integer from 0 to {MAX_MULTIPV}, not {value:?}"
            ))),
        },
        _ => Err(ProtocolError(format!(
            "unknown option {name:?}: the options are sims, movetime, multipv and level"
        ))),
    }
}

/// Whether the session goes on after a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum After {
    Serve,
    Quit,
}

/// Searches the session's game within `limit` and writes the reply: the analysis lines when asked for (always
/// for `go infinite`), `info value V line ...` and `bestmove M`. A `go infinite` reads `lines` while it
/// searches: `stop` (or the end of input) ends it with its reply, `quit` ends the session at once, `isready`
/// is answered, anything else is refused.
fn go<G: Encoding>(
    bot: &mut Bot<G>,
    session: &Session<G>,
    limit: GoLimit,
    lines: &Receiver<std::io::Result<Line>>,
    out: &mut impl Write,
) -> Result<After> {
    let game = &session.game;
    if let Some(outcome) = game.outcome() {
        writeln!(out, "error game over: {}", describe_outcome::<G>(&outcome))?;
        out.flush()?;
        return Ok(After::Serve);
    }
    let multipv = match limit {
        GoLimit::Infinite => session.multipv.max(1),
        _ => session.multipv,
    };
    // The draw share is only reported with the analysis lines: without them, no extra network call.
    let draw = if multipv > 0 { bot.wdl(game)[1] } else { 0.0 };
    let decision = match limit {
        GoLimit::Default => bot.think(game, bot.default_budget),
        GoLimit::Budget(budget) => bot.think(game, budget),
        GoLimit::Infinite => match search_until_stop(bot, game, draw, multipv, lines, out)? {
            (_, After::Quit) => return Ok(After::Quit),
            (decision, After::Serve) => decision,
        },
    };
    let report = Report {
        simulations: decision.simulations,
        elapsed: decision.elapsed,
        value: decision.value,
        draw,
        top: &decision.top,
    };
    report.write(multipv, out)?;
    if multipv > 0
        && let Some(answer) = bot
            .tablebase
            .as_ref()
            .and_then(|table| crate::perfect::perfect_play(table, game))
    {
        writeln!(out, "{}", crate::perfect::protocol_line(&answer))?;
    }
    writeln!(out, "info value {:.4} line {}", decision.value, decision.line.join(" "))?;
    writeln!(out, "bestmove {}", decision.text)?;
    out.flush()?;
    Ok(After::Serve)
}

/// A `go infinite`: searches until `stop`, `quit` or the end of input, reporting every second; a search that
/// fills its tree waits for them.
fn search_until_stop<G: Encoding>(
    bot: &mut Bot<G>,
    game: &G,
    draw: f32,
    multipv: u32,
    lines: &Receiver<std::io::Result<Line>>,
    out: &mut impl Write,
) -> Result<(Decision<G>, After)> {
    let mut ended: Option<std::io::Result<After>> = None;
    let mut reported = Instant::now();
    let decision = bot.think_watched(game, Budget::MoveTime(Duration::MAX), &mut |progress| {
        while ended.is_none() {
            match lines.try_recv() {
                Ok(line) => ended = while_searching(line, out).transpose(),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => ended = Some(Ok(After::Serve)),
            }
        }
        if ended.is_none() && reported.elapsed() >= INFINITE_INFO_EVERY {
            reported = Instant::now();
            let top = move_stats(game, &root_moves(progress.tree, progress.gumbel));
            let report = Report {
                simulations: progress.simulations,
                elapsed: progress.elapsed,
                value: progress.tree.root().q(),
                draw,
                top: &top,
            };
            if let Err(e) = report.write(multipv, out).and_then(|()| out.flush()) {
                ended = Some(Err(e));
            }
        }
        ended.is_none()
    });
    while ended.is_none() {
        ended = match lines.recv() {
            Ok(line) => while_searching(line, out).transpose(),
            Err(_) => Some(Ok(After::Serve)),
        };
    }
    let after = ended.expect("the loop ends with it")?;
    Ok((decision, after))
}

/// A line read while a `go infinite` searches: `Some` when it ends the search.
fn while_searching(line: std::io::Result<Line>, out: &mut impl Write) -> std::io::Result<Option<After>> {
    let reply = match line?.text() {
        Ok(text) => match text.split_whitespace().next() {
            None => return Ok(None),
            Some("stop") => return Ok(Some(After::Serve)),
            Some("quit") => return Ok(Some(After::Quit)),
            Some("isready") => "readyok".to_string(),
            Some(_) => "error searching: only stop, isready and quit are read until the search stops".to_string(),
        },
        Err(reason) => format!("error {reason}"),
    };
    writeln!(out, "{reply}")?;
    out.flush()?;
    Ok(None)
}

/// A search's analysis lines: one summary, then one per top move.
struct Report<'a> {
    simulations: u32,
    elapsed: Duration,
    /// The search's value for the side to move.
    value: f32,
    /// The network's draw probability at the root.
    draw: f32,
    top: &'a [MoveStats],
}

impl Report<'_> {
    /// `info nodes N time MS nps X value V wdl W D L` and `info multipv I move M visits N prior P q Q [gumbel S]
    /// line ...` for the first `multipv` moves in the search's order; nothing when `multipv` is 0.
    fn write(&self, multipv: u32, out: &mut impl Write) -> std::io::Result<()> {
        if multipv == 0 {
            return Ok(());
        }
        let ms = self.elapsed.as_millis();
        let nps = (f64::from(self.simulations) / self.elapsed.as_secs_f64().max(1e-3)).round();
        let [w, d, l] = permille_wdl(self.value, self.draw);
        writeln!(
            out,
            "info nodes {} time {ms} nps {nps} value {:.4} wdl {w} {d} {l}",
            self.simulations, self.value
        )?;
        for (i, m) in self.top.iter().take(multipv as usize).enumerate() {
            // A Gumbel root ranks by its halving, not by visits: the score it ranks by is shown.
            let gumbel = m.gumbel_score.map_or_else(String::new, |s| format!(" gumbel {s:.4}"));
            writeln!(
                out,
                "info multipv {} move {} visits {} prior {:.4} q {:.4}{gumbel} line {}",
                i + 1,
                m.text,
                m.visits,
                m.prior,
                m.q,
                m.line.join(" ")
            )?;
        }
        Ok(())
    }
}

fn parse_bounded(text: &str, what: &str, max: u32) -> Result<u32, ProtocolError> {
    match text.parse::<u64>() {
        Ok(n) if (1..=u64::from(max)).contains(&n) => Ok(n as u32),
        _ => Err(ProtocolError(format!(
            "{what} must be an integer from 1 to {max}, not {text:?}"
        ))),
    }
}
