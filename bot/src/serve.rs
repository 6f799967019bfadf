//! `zero serve BUNDLE`: a web page to play the bot in a browser, and the JSON API it uses (see
//! `docs/protocol.md`). Each browser tab plays its own game, named by the `?game=ID` the page adds to every
//! request (a request without one plays the `default` game); at most [`MAX_GAMES`] games are kept, the least
//! recently used one making room for a new one. One search runs at a time (further bot requests get 503 at once
//! rather than queueing), and the HTTP layer ([`crate::http`]) bounds requests in flight and bodies.

use crate::bot::{Bot, describe_outcome, permille_wdl};
use crate::error::{Context, Result};
use crate::http::{self, Request, Response};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Instant;
use zero_bundle::Bundle;
use zero_games::{Encoding, Game, Heuristic, Side};

const PAGE: &str = include_str!("page.html");
/// Games kept at once: memory stays bounded however many tabs (or scripts) open games.
pub const MAX_GAMES: usize = 256;
/// The game a request without `?game=ID` plays.
const DEFAULT_GAME: &str = "default";

struct Table<G: Encoding> {
    /// Where the game started (the start, or a loaded record's set-up) and the moves played since.
    start: G,
    played: Vec<G::Move>,
    game: G,
    /// The positions before each of the person's moves, for undo.
    before_human_moves: Vec<(G, usize)>,
    moves: Vec<String>,
    human: Side,
    /// The last move made, for the page to animate, with the bot's evaluation when the bot made it.
    last: Value,
    /// When a request last used this game, for evicting the least recently used.
    used: Instant,
}

impl<G: Encoding> Table<G> {
    fn new(rules: &G::Rules, human_first: bool) -> Table<G> {
        let game = G::start(rules);
        let human = if human_first {
            game.to_move()
        } else {
            game.to_move().other()
        };
        Table {
            start: game.clone(),
            played: Vec::new(),
            game,
            before_human_moves: Vec::new(),
            moves: Vec::new(),
            human,
            last: Value::Null,
            used: Instant::now(),
        }
    }
}

/// The JSON API and the page behind `zero serve`, without the HTTP layer: [`Api::handle`] answers one request.
pub struct Api<G: Encoding> {
    /// Locked only by a search: `try_lock` failing means a search is running (the semaphore of one).
    bot: Mutex<Bot<G>>,
    /// Every game, by its id.
    tables: Mutex<HashMap<String, Table<G>>>,
    /// The bundle's rules, kept apart so that a new game need not wait for a running search.
    rules: G::Rules,
    /// The bot's strength level, when one was asked for, and its measured Elo with this bundle's network when
    /// the bundle records it (both shown by the page).
    level: Option<&'static str>,
    level_rating: Option<String>,
    height: i64,
    width: i64,
}

/// Serves `bot` (the bundle's, at the strength asked for) on `host:port` until the process ends.
pub fn run<G: Encoding>(bot: Bot<G>, bundle: &Bundle, host: &str, port: u16) -> Result<()> {
    let server = Arc::new(Api::<G>::with_bot(bot, bundle));
    let listener = TcpListener::bind((host, port)).with_context(|| format!("listening on {host}:{port}"))?;
    // The address line is what scripts and tests wait for (the port may have been 0: any free port).
    println!("zero serve: http://{}/", listener.local_addr()?);
    use std::io::Write;
    std::io::stdout().flush()?;
    http::serve(listener, Arc::new(move |request| server.handle(request)))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<G: Encoding + Heuristic> Api<G> {
    /// The bundle's bot (`sims` overriding its default budget), with no game started yet.
    pub fn new(bundle: &Bundle, sims: Option<u32>) -> Result<Api<G>> {
        let bot = Bot::<G>::from_bundle(bundle, &bundle.search(sims))?;
        Ok(Api::with_bot(bot, bundle))
    }
}

impl<G: Encoding> Api<G> {
    /// The API around `bot`, which plays `bundle`'s network.
    pub fn with_bot(bot: Bot<G>, bundle: &Bundle) -> Api<G> {
        let [_, height, width] = bundle.manifest.input_shape;
        Api {
            rules: bot.rules.clone(),
            level: bot.level().map(|l| l.name),
            level_rating: bot.level().and_then(|level| {
                let ratings = &bundle.manifest.level_ratings;
                ratings.iter().find(|r| r.level == level.name).map(|r| r.describe())
            }),
            bot: Mutex::new(bot),
            tables: Mutex::new(HashMap::new()),
            height,
            width,
        }
    }

    /// Answers one request: the page, or a call of the JSON API (`docs/protocol.md`).
    pub fn handle(&self, request: Request) -> Response {
        let (path, query) = request.path.split_once('?').unwrap_or((&request.path, ""));
        if path.starts_with("/api/") {
            let id = match game_id(query) {
                Ok(id) => id,
                Err(r) => return r,
            };
            match (request.method.as_str(), path) {
                ("GET", "/api/state") => return self.with_table(&id, |table| Response::json(200, &self.state(table))),
                ("POST", "/api/move") => return self.human_move(&id, &request.body),
                ("POST", "/api/bot") => return self.bot_move(&id),
                ("POST", "/api/undo") => return self.undo(&id),
                ("POST", "/api/new") => return self.new_game(&id, &request.body),
                ("POST", "/api/analyse") => return self.analyse(&id),
                ("GET", "/api/ply") => return self.ply(&id, query),
                ("GET", "/api/record") => return self.record(&id),
                ("POST", "/api/load") => return self.load(&id, &request.body),
                _ => {}
            }
        }
        match (request.method.as_str(), path) {
            ("GET", "/") => Response {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: PAGE.as_bytes().to_vec(),
            },
            (_, "/" | "/api/state" | "/api/move" | "/api/bot" | "/api/undo" | "/api/new")
            | (_, "/api/analyse" | "/api/ply" | "/api/record" | "/api/load") => {
                Response::error(405, format!("{} is not allowed on {path}", request.method))
            }
            _ => Response::error(404, format!("no such page: {path}")),
        }
    }

    /// Runs `f` on game `id`, starting it (the person playing first) when it is new, and evicting the least
    /// recently used game when there are too many.
    fn with_table<R>(&self, id: &str, f: impl FnOnce(&mut Table<G>) -> R) -> R {
        let mut tables = lock(&self.tables);
        if !tables.contains_key(id) {
            if tables.len() >= MAX_GAMES
                && let Some(oldest) = tables.iter().min_by_key(|(_, t)| t.used).map(|(k, _)| k.clone())
            {
                tables.remove(&oldest);
            }
            tables.insert(id.to_string(), Table::new(&self.rules, true));
        }
        let table = tables.get_mut(id).expect("inserted above");
        table.used = Instant::now();
        f(table)
    }

    fn state(&self, table: &Table<G>) -> Value {
        let game = &table.game;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let legal: Vec<Value> = moves
            .iter()
            .map(|m| json!({ "move": game.format_move(m), "squares": move_squares(game, m, self.height) }))
            .collect();
        json!({
            "game": G::NAME,
            "board": G::BOARD_STYLE.as_str(),
            "height": self.height,
            "width": self.width,
            "position": game.position(),
            "cells": cells_of(&game.position(), self.height),
            "to_move": G::player_name(game.to_move()),
            "first": G::player_name(Side::First),
            "level": self.level,
            "level_rating": self.level_rating,
            "human": G::player_name(table.human),
            "bot": G::player_name(table.human.other()),
            "human_to_move": game.outcome().is_none() && game.to_move() == table.human,
            "legal": legal,
            "outcome": game.outcome().map(|o| describe_outcome::<G>(&o)),
            "moves": table.moves,
            "can_undo": !table.before_human_moves.is_empty(),
            "last": table.last,
            "text": game.render(),
        })
    }

    fn human_move(&self, id: &str, body: &[u8]) -> Response {
        let text = match parse_body(body).and_then(|v| match v.get("move").and_then(Value::as_str) {
            Some(m) => Ok(m.to_string()),
            None => Err(Response::error(400, "expected a JSON object {\"move\": \"<move>\"}")),
        }) {
            Ok(t) => t,
            Err(r) => return r,
        };
        self.with_table(id, |table| self.play_human(table, &text))
    }

    fn play_human(&self, table: &mut Table<G>, text: &str) -> Response {
        if let Some(outcome) = table.game.outcome() {
            return Response::error(409, format!("game over: {}", describe_outcome::<G>(&outcome)));
        }
        if table.game.to_move() != table.human {
            return Response::error(409, "it is the bot's turn");
        }
        let mv = match table.game.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => return Response::error(400, format!("illegal move: {e}")),
        };
        let formatted = table.game.format_move(&mv);
        let squares = move_squares(&table.game, &mv, self.height);
        let snapshot = (table.game.clone(), table.moves.len());
        table.before_human_moves.push(snapshot);
        table.game.play(&mv);
        table.played.push(mv);
        table.moves.push(formatted.clone());
        table.last = json!({ "by": "human", "move": formatted, "squares": squares });
        Response::json(200, &self.state(table))
    }

    /// The bot, unless a search is running (then 503 at once rather than a queue).
    fn idle_bot(&self) -> Result<std::sync::MutexGuard<'_, Bot<G>>, Response> {
        match self.bot.try_lock() {
            Ok(bot) => Ok(bot),
            Err(TryLockError::WouldBlock) => Err(Response::error(503, "the bot is already thinking; try again")),
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
        }
    }

    fn bot_move(&self, id: &str) -> Response {
        let mut bot = match self.idle_bot() {
            Ok(bot) => bot,
            Err(r) => return r,
        };
        let (game, ply_count) = match self.with_table(id, |table| {
            if let Some(outcome) = table.game.outcome() {
                return Err(Response::error(
                    409,
                    format!("game over: {}", describe_outcome::<G>(&outcome)),
                ));
            }
            if table.game.to_move() == table.human {
                return Err(Response::error(409, "it is your turn, not the bot's"));
            }
            Ok((table.game.clone(), table.moves.len()))
        }) {
            Ok(found) => found,
            Err(r) => return r,
        };
        // The games are not locked while the bot thinks: pages stay readable and other games playable.
        let budget = bot.default_budget;
        let decision = bot.think(&game, budget);
        self.with_table(id, |table| {
            if table.moves.len() != ply_count || table.game.position() != game.position() {
                return Response::error(409, "the game changed while the bot was thinking");
            }
            let squares = move_squares(&game, &decision.mv, self.height);
            table.game.play(&decision.mv);
            table.played.push(decision.mv.clone());
            table.moves.push(decision.text.clone());
            table.last = json!({
                "by": "bot", "move": decision.text, "squares": squares,
                "value": decision.value, "line": decision.line, "simulations": decision.simulations,
            });
            Response::json(200, &self.state(table))
        })
    }

    fn undo(&self, id: &str) -> Response {
        self.with_table(id, |table| {
            let Some((game, moves)) = table.before_human_moves.pop() else {
                return Response::error(409, "nothing to undo");
            };
            table.game = game;
            table.moves.truncate(moves);
            table.played.truncate(moves);
            table.last = Value::Null;
            Response::json(200, &self.state(table))
        })
    }

    fn new_game(&self, id: &str, body: &[u8]) -> Response {
        let human_first = if body.iter().all(u8::is_ascii_whitespace) {
            true
        } else {
            match parse_body(body).map(|v| v.get("human").and_then(Value::as_str).map(str::to_string)) {
                Ok(None) => true,
                Ok(Some(side)) if side == "first" => true,
                Ok(Some(side)) if side == "second" => false,
                Ok(Some(side)) => return Response::error(400, format!("human must be first or second, not {side:?}")),
                Err(r) => return r,
            }
        };
        self.with_table(id, |table| {
            *table = Table::new(&self.rules, human_first);
            Response::json(200, &self.state(table))
        })
    }
}

impl<G: Encoding> Api<G> {
    /// `POST /api/analyse`: the bot's search of the current position, whoever is to move, without playing:
    /// its value and WDL for the side to move, its choice and its top moves.
    fn analyse(&self, id: &str) -> Response {
        let mut bot = match self.idle_bot() {
            Ok(bot) => bot,
            Err(r) => return r,
        };
        let game = match self.with_table(id, |table| match table.game.outcome() {
            Some(outcome) => Err(Response::error(
                409,
                format!("game over: {}", describe_outcome::<G>(&outcome)),
            )),
            None => Ok(table.game.clone()),
        }) {
            Ok(game) => game,
            Err(r) => return r,
        };
        let budget = bot.default_budget;
        let decision = bot.think(&game, budget);
        let draw = bot.wdl(&game)[1];
        let top: Vec<Value> = decision
            .top
            .iter()
            .map(|m| {
                let squares = game
                    .parse_move(&m.text)
                    .map_or_else(|_| squares_of(&m.text), |mv| move_squares(&game, &mv, self.height));
                json!({ "move": m.text, "squares": squares, "visits": m.visits, "prior": m.prior,
                        "q": m.q, "gumbel": m.gumbel_score, "line": m.line })
            })
            .collect();
        let mut answer = json!({
            "position": game.position(), "to_move": G::player_name(game.to_move()),
            "value": decision.value, "wdl": permille_wdl(decision.value, draw),
            "simulations": decision.simulations, "best": decision.text,
            "best_squares": move_squares(&game, &decision.mv, self.height), "top": top,
        });
        if let Some(perfect) = bot
            .tablebase
            .as_ref()
            .and_then(|table| crate::perfect::perfect_play(table, &game))
        {
            answer["perfect_play"] = crate::perfect::json(&perfect);
        }
        Response::json(200, &answer)
    }

    /// `GET /api/ply?ply=N`: the game's position after its first N moves, for stepping through the move list.
    fn ply(&self, id: &str, query: &str) -> Response {
        let wanted = query
            .split('&')
            .find_map(|p| p.strip_prefix("ply="))
            .map(str::parse::<usize>);
        self.with_table(id, |table| {
            let n = match wanted {
                Some(Ok(n)) if n <= table.played.len() => n,
                _ => {
                    return Response::error(
                        400,
                        format!("ply=N must be a whole number from 0 to {}", table.played.len()),
                    );
                }
            };
            let mut game = table.start.clone();
            let mut squares = Vec::new();
            for mv in &table.played[..n] {
                squares = move_squares(&game, mv, self.height);
                game.play(mv);
            }
            Response::json(
                200,
                &json!({ "ply": n, "position": game.position(), "cells": cells_of(&game.position(), self.height),
                         "squares": squares }),
            )
        })
    }

    /// `GET /api/record`: the game so far as a record (`docs/records.md`).
    fn record(&self, id: &str) -> Response {
        self.with_table(id, |table| {
            match crate::record::record_text(&table.start, &table.played, &table.game, table.human, "zero serve") {
                Ok(text) => Response::json(200, &json!({ "record": text })),
                Err(e) => Response::error(500, format!("the game cannot be written as a record: {e}")),
            }
        })
    }

    /// `POST /api/load` with `{"record": TEXT}`: the first game of the record becomes this game; with
    /// `{"position": NOTATION}`: a game from that position (the page's shareable URL). The person plays the side
    /// to move at its end.
    fn load(&self, id: &str, body: &[u8]) -> Response {
        let request = match parse_body(body) {
            Ok(request) => request,
            Err(r) => return r,
        };
        let fresh = match (request.get("record"), request.get("position")) {
            (Some(Value::String(text)), None) => self.table_of_record(text),
            (None, Some(Value::String(position))) => self.table_at(position),
            _ => Err(Response::error(
                400,
                "expected a JSON object {\"record\": \"<record text>\"} or {\"position\": \"<position>\"}",
            )),
        };
        match fresh {
            Ok(fresh) => self.with_table(id, |table| {
                *table = fresh;
                Response::json(200, &self.state(table))
            }),
            Err(r) => r,
        }
    }

    /// A table holding the first game of record `text`.
    fn table_of_record(&self, text: &str) -> Result<Table<G>, Response> {
        let replay = crate::record::first_game::<G>(text, "the record", &self.rules)
            .map_err(|e| Response::error(400, format!("{e}")))?;
        let mut fresh = Table::new(&self.rules, true);
        fresh.human = replay.end.to_move();
        fresh.moves = replay.move_texts();
        fresh.start = replay.start;
        fresh.played = replay.moves;
        fresh.game = replay.end;
        Ok(fresh)
    }

    /// A table whose game starts at `position`, in the game's notation.
    fn table_at(&self, position: &str) -> Result<Table<G>, Response> {
        let game = G::from_position(&self.rules, position)
            .map_err(|e| Response::error(400, format!("position {position:?}: {e}")))?;
        let mut fresh = Table::new(&self.rules, true);
        fresh.human = game.to_move();
        fresh.start = game.clone();
        fresh.game = game;
        Ok(fresh)
    }
}

/// The game a request plays: `game=ID` in the query (1 to 64 letters, digits, `-` or `_`), else the default.
fn game_id(query: &str) -> Result<String, Response> {
    for pair in query.split('&') {
        if let Some(id) = pair.strip_prefix("game=") {
            let valid = !id.is_empty()
                && id.len() <= 64
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            return if valid {
                Ok(id.to_string())
            } else {
                Err(Response::error(
                    400,
                    "game=ID must be 1 to 64 letters, digits, '-' or '_'",
                ))
            };
        }
    }
    Ok(DEFAULT_GAME.to_string())
}

fn parse_body(body: &[u8]) -> Result<Value, Response> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| Response::error(400, format!("malformed JSON: {e}")))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(Response::error(400, "expected a JSON object"))
    }
}

/// The squares a move touches, for the page to mark: those its text names ([`squares_of`]), or for a move whose
/// text names none (Connect Four's column `d`) the cells it changes on the board.
fn move_squares<G: Game>(before: &G, mv: &G::Move, height: i64) -> Vec<String> {
    let named = squares_of(&before.format_move(mv));
    if !named.is_empty() {
        return named;
    }
    let mut after = before.clone();
    after.play(mv);
    let (was, now) = (
        cells_of(&before.position(), height),
        cells_of(&after.position(), height),
    );
    let changed = now.iter().filter(|(cell, pieces)| was.get(*cell) != Some(*pieces));
    changed.map(|(cell, _)| cell.clone()).collect()
}

/// The squares a move names, in order (`c3:e5:c7` -> c3, e5, c7; Tours' `Fa1-a2` -> a1, a2; a drop `a2` -> a2).
pub fn squares_of(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_lowercase() && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            out.push(chars[i..j].iter().collect());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The board's contents from a position's notation: square -> pieces, top first. Two notations occur: a list
/// of `square:pieces` tokens (Bashni, Tours) and ranks separated by `/`, highest rank first, with `.` or a
/// digit run for empty squares (Bagh Chal).
pub fn cells_of(position: &str, height: i64) -> serde_json::Map<String, Value> {
    let mut cells = serde_json::Map::new();
    let tokens: Vec<&str> = position.split_whitespace().collect();
    if let Some(board) = tokens.iter().find(|t| t.contains('/')) {
        for (i, rank) in board.split('/').enumerate() {
            let rank_number = height - i as i64;
            let mut file = 0u8;
            for c in rank.chars() {
                if let Some(run) = c.to_digit(10) {
                    file += run as u8;
                    continue;
                }
                if c != '.' {
                    cells.insert(
                        format!("{}{}", (b'a' + file) as char, rank_number),
                        Value::from(c.to_string()),
                    );
                }
                file += 1;
            }
        }
    } else {
        for token in tokens {
            if let Some((square, pieces)) = token.split_once(':') {
                cells.insert(square.to_string(), Value::from(pieces));
            }
        }
    }
    cells
}
