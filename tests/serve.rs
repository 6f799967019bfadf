//! `zero serve`: the JSON API's errors and limits over raw HTTP, and the page played by clicking in headless
//! Chromium (scripts/browser-test.sh installs it when missing; the test fails, never skips, without it).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use support::{scratch, text, tiny_bundle, tiny_checkpoint, zero};
use zero_games::Game;
use zero_games::bashni::Bashni;

/// A running `zero serve`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(bundle: &std::path::Path, sims: u32) -> Server {
        Server::start_with(bundle, &["--sims", &sims.to_string()])
    }

    /// `zero serve BUNDLE --port 0 ARGS`.
    fn start_with(bundle: &std::path::Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zero"))
            .args(["serve", bundle.to_str().unwrap(), "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("zero serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("zero serve: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        assert!(
            address.starts_with("127.0.0.1:"),
            "listens on localhost by default: {address}"
        );
        Server { child, address }
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
        request(&self.address, method, path, body)
    }
}

/// One HTTP request on a fresh connection: the status and the JSON body (null when not JSON).
fn request(address: &str, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    request_with(address, method, path, &format!("Host: {address}\r\n"), body)
}

/// One HTTP request with the given header lines (each ending in CRLF) besides the length and type.
fn request_with(address: &str, method: &str, path: &str, headers: &str, body: &str) -> (u16, serde_json::Value) {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn replay(history: &str) -> Bashni {
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let mut game = Bashni::start(&rules);
    for text in history.split_whitespace().filter(|w| !w.ends_with('.')) {
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(&mv);
    }
    game
}

#[test]
fn api_refuses_bad_requests_clearly_and_limits_searches() {
    let tmp = scratch("serve-api");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    // Many simulations: a search lasts long enough for concurrent requests to meet it.
    let server = Server::start(&bundle, 3000);
    let (status, state) = server.request("GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["game"], "bashni");
    assert_eq!(state["human_to_move"], true);
    assert!(state["legal"].as_array().unwrap().iter().any(|m| m["move"] == "c3-d4"));

    for (method, path, body, want, says) in [
        ("POST", "/api/move", "not json", 400, "malformed JSON"),
        ("POST", "/api/move", "[1]", 400, "expected a JSON object"),
        (
            "POST",
            "/api/move",
            "{\"mv\": \"c3-d4\"}",
            400,
            "expected a JSON object {\"move\"",
        ),
        ("POST", "/api/move", "{\"move\": \"c3-d5\"}", 400, "illegal move"),
        ("POST", "/api/bot", "", 409, "it is your turn"),
        ("POST", "/api/undo", "", 409, "nothing to undo"),
        (
            "POST",
            "/api/new",
            "{\"human\": \"third\"}",
            400,
            "human must be first or second",
        ),
        ("GET", "/api/move", "", 405, "not allowed"),
        ("GET", "/nowhere", "", 404, "no such page"),
        ("GET", "/api/state?game=../x", "", 400, "game=ID must be"),
        ("GET", "/api/state?game=", "", 400, "game=ID must be"),
        (
            "GET",
            "/api/ply?ply=1",
            "",
            400,
            "ply=N must be a whole number from 0 to 0",
        ),
        ("GET", "/api/ply?ply=x", "", 400, "ply=N must be"),
        (
            "POST",
            "/api/load",
            "{\"pdn\": \"\"}",
            400,
            "expected a JSON object {\"record\"",
        ),
        ("POST", "/api/load", "{\"record\": \"\"}", 400, "no game record in it"),
        (
            "POST",
            "/api/load",
            "{\"record\": \"[GameType \\\"bashni\\\"]\\n\\n1. c3-d5 *\\n\"}",
            400,
            "line 3",
        ),
        (
            "POST",
            "/api/load",
            "{\"record\": \"[GameType \\\"tours\\\"]\\n\\n*\\n\"}",
            400,
            "tours",
        ),
        (
            "POST",
            "/api/load",
            "{\"position\": \"nonsense\"}",
            400,
            "position \"nonsense\"",
        ),
        (
            "POST",
            "/api/load",
            "{\"position\": \"x\", \"record\": \"y\"}",
            400,
            "or {\"position\"",
        ),
        ("GET", "/api/analyse", "", 405, "not allowed"),
    ] {
        let (status, reply) = server.request(method, path, body);
        assert_eq!(status, want, "{method} {path} {body}: {reply}");
        let error = reply["error"].as_str().unwrap_or("");
        assert!(error.contains(says), "{method} {path} {body}: {error:?}");
    }
    let huge = format!("{{\"move\": \"{}\"}}", "x".repeat(20_000));
    let (status, _) = server.request("POST", "/api/move", &huge);
    assert_eq!(status, 413);

    let (status, _) = server.request("POST", "/api/move", "{\"move\": \"c3-d4\"}");
    assert_eq!(status, 200);
    // Several bot requests at once: one searches, the others are told at once (503 busy, or 409 once it moved).
    // Whether one of them meets the running search (503) is a race: where the requesting threads start late the
    // search can end before they connect. Not seen to fail here (the test starved: `taskset -c 0 nice -n 19`
    // beside a busy loop on core 0, the server moved to core 1; 4 of 4 passed), but nothing ordered it, so bursts
    // go on, each in a fresh game, until one has met the search; every burst must keep the promise.
    let mut met_the_search = false;
    for burst in 0..8 {
        let game = if burst == 0 {
            String::new()
        } else {
            format!("?game=burst-{burst}")
        };
        if burst > 0 {
            let (status, _) = server.request("POST", &format!("/api/move{game}"), "{\"move\": \"c3-d4\"}");
            assert_eq!(status, 200);
        }
        let results = bot_burst(&server.address, &game, 6);
        assert_eq!(results.iter().filter(|&&r| r == 200).count(), 1, "{results:?}");
        assert!(results.iter().all(|r| matches!(r, 200 | 503 | 409)), "{results:?}");
        met_the_search = results.contains(&503);
        if met_the_search {
            break;
        }
    }
    assert!(
        met_the_search,
        "in 8 bursts of 6 requests no request met the running search"
    );
    let (status, state) = server.request("GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    let (status, state) = server.request("POST", "/api/undo", "");
    assert_eq!(status, 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 0);

    // Each game id is a game of its own: a move in one leaves the others, and the default game, as they were.
    let (status, state) = server.request("POST", "/api/move?game=tab-1", "{\"move\": \"c3-d4\"}");
    assert_eq!(status, 200);
    assert_eq!(state["moves"], serde_json::json!(["c3-d4"]));
    let (_, other) = server.request("POST", "/api/new?game=tab_2", "{\"human\": \"second\"}");
    assert_eq!(other["human_to_move"], false);
    let (_, default) = server.request("GET", "/api/state", "");
    assert_eq!(default["moves"].as_array().unwrap().len(), 0);
    assert_eq!(default["human_to_move"], true);
    let (_, first) = server.request("GET", "/api/state?game=tab-1", "");
    assert_eq!(first["moves"], serde_json::json!(["c3-d4"]));
    let (_, second) = server.request("GET", "/api/state?game=tab_2&x=1", "");
    assert_eq!(second["human_to_move"], false);
    // Games are bounded: once 256 other games have been used since, a game is forgotten and starts afresh.
    for i in 0..256 {
        let (status, _) = server.request("GET", &format!("/api/state?game=flood{i}"), "");
        assert_eq!(status, 200);
    }
    let (_, first) = server.request("GET", "/api/state?game=tab-1", "");
    assert_eq!(first["moves"].as_array().unwrap().len(), 0, "{first}");
}

/// The status and JSON body of the answer to `bytes` sent as they are.
fn raw_request(address: &str, bytes: &[u8]) -> (u16, serde_json::Value) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(bytes).unwrap();
    // A server that closes on bytes it never read (an oversized head) may reset the connection after its answer.
    let mut response = Vec::new();
    if let Err(e) = stream.read_to_end(&mut response) {
        assert!(
            e.kind() == std::io::ErrorKind::ConnectionReset && !response.is_empty(),
            "{e}"
        );
    }
    let response = String::from_utf8(response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

#[test]
fn heads_refused_before_any_handler_get_json_errors_too() {
    let tmp = scratch("serve-heads");
    let bundle = tiny_bundle("bashni", tmp.path(), 4);
    let server = Server::start(&bundle, 4);
    let address = server.address.as_str();
    let long_header = format!(
        "GET /api/state HTTP/1.1\r\nHost: {address}\r\nX-Long: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    for (bytes, want, says) in [
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400, "not valid HTTP/1.1"),
        (
            format!("GET /api/state HTTP/1.1\r\nHost: {address}\r\nBad Header: y\r\n\r\n").into_bytes(),
            400,
            "not valid HTTP/1.1",
        ),
        (long_header.into_bytes(), 431, "over the limit of 16384 bytes"),
    ] {
        let (status, body) = raw_request(address, &bytes);
        assert_eq!(status, want, "{body}");
        assert!(body["error"].as_str().unwrap_or("").contains(says), "{status}: {body}");
    }
    // The server's own answers are left as they are, on a connection kept alive between them.
    let mut stream = TcpStream::connect(address).unwrap();
    let get = format!("GET /nowhere HTTP/1.1\r\nHost: {address}\r\n\r\n");
    stream.write_all(format!("{get}{get}").as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while seen.matches("no such page").count() < 2 {
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "closed after {seen}");
        seen.push_str(std::str::from_utf8(&buffer[..n]).unwrap());
    }
    assert_eq!(seen.matches("HTTP/1.1 404").count(), 2, "{seen}");
}

#[test]
fn pages_of_other_sites_are_refused() {
    let tmp = scratch("serve-origin");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    let server = Server::start(&bundle, 4);
    let address = server.address.as_str();
    let port = address.rsplit(':').next().unwrap();
    for host in [
        format!("localhost:{port}"),
        address.to_string(),
        format!("[::1]:{port}"),
    ] {
        let (status, _) = request_with(address, "GET", "/api/state", &format!("Host: {host}\r\n"), "");
        assert_eq!(status, 200, "{host}");
    }
    // A page whose name was rebound to 127.0.0.1 sends its own name as the host.
    let (status, reply) = request_with(address, "GET", "/api/state", "Host: evil.example\r\n", "");
    assert_eq!(status, 403);
    assert!(reply["error"].as_str().unwrap().contains("evil.example"), "{reply}");
    // A change asked for by another site's page; the server's own page may.
    let foreign = format!("Host: {address}\r\nOrigin: http://evil.example\r\n");
    let (status, reply) = request_with(address, "POST", "/api/new", &foreign, "");
    assert_eq!(status, 403);
    assert!(reply["error"].as_str().unwrap().contains("cross-site"), "{reply}");
    let own = format!("Host: {address}\r\nOrigin: http://{address}\r\n");
    assert_eq!(request_with(address, "POST", "/api/new", &own, "").0, 200);
}

/// A connection that sends `head` and then nothing more, held open.
/// `count` bot requests at once on the game `query` names (`?game=ID`, or empty for the default game): their
/// statuses.
fn bot_burst(address: &str, query: &str, count: usize) -> Vec<u16> {
    let threads: Vec<_> = (0..count)
        .map(|_| {
            let (address, path) = (address.to_string(), format!("/api/bot{query}"));
            std::thread::spawn(move || request(&address, "POST", &path, "").0)
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

fn stalled(address: &str, head: &str) -> TcpStream {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream
}

#[test]
fn slow_clients_hold_no_one_else_up_and_are_cut_off() {
    let tmp = scratch("serve-slow");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    let server = Server::start(&bundle, 4);
    let address = server.address.as_str();
    // More clients than requests handled at once, each stalled in its head or in its body.
    let mut slow: Vec<TcpStream> = (0..100)
        .map(|_| stalled(address, "GET /api/state HTTP/1.1\r\nHost: loc"))
        .collect();
    let body_head = format!("POST /api/move HTTP/1.1\r\nHost: {address}\r\nContent-Length: 100\r\n\r\n{{\"mo");
    slow.extend((0..100).map(|_| stalled(address, &body_head)));
    std::thread::sleep(std::time::Duration::from_millis(300));
    for _ in 0..20 {
        let (status, state) = server.request("GET", "/api/state", "");
        assert_eq!(status, 200, "{state}");
    }
    // At the head timeout (10 s), a stalled head is cut off and a stalled body answered 408. Each read waits for
    // that end (a fixed sleep before reading raced the server's timers on a loaded machine); the read timeout
    // only guards against a server that never ends them.
    let mut ends = std::collections::BTreeMap::new();
    for stream in &mut slow {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let mut reply = String::new();
        let end = match stream.read_to_string(&mut reply) {
            // Cut off: an end of stream, or a reset where the server closed on bytes it never read.
            Ok(_) if reply.is_empty() => "closed".to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => "closed".to_string(),
            Ok(_) => reply.get(9..12).unwrap_or("?").to_string(),
            Err(e) => format!("{:?}", e.kind()),
        };
        *ends.entry(end).or_insert(0) += 1;
    }
    assert_eq!(ends.len(), 2, "{ends:?}");
    assert_eq!(ends.get("closed"), Some(&100), "{ends:?}");
    assert_eq!(ends.get("408"), Some(&100), "{ends:?}");
}

#[test]
fn the_page_is_played_by_clicking_in_headless_chromium() {
    let tmp = scratch("serve-browser");
    let dir = tmp.path();
    let bundle = tiny_bundle("bashni", dir, 4);
    let server = Server::start(&bundle, 4);
    std::fs::create_dir_all(dir.join("bc")).unwrap();
    let baghchal = Server::start(&tiny_bundle("baghchal", &dir.join("bc"), 4), 4);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/browser-test.sh");
    let out = Command::new(script)
        .arg(format!("http://{}/", server.address))
        .arg(format!("http://{}/", baghchal.address))
        .output()
        .expect("scripts/browser-test.sh runs");
    assert!(
        out.status.success(),
        "the browser test failed (is chromium installable?): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let start = &report["start"];
    assert_eq!(start["cells"]["c3"], "w");
    assert_eq!(start["status"], "Your move (you are white)");
    // Clicking a piece highlights its destinations.
    assert_eq!(report["after_select"]["targets"], serde_json::json!(["b4", "d4"]));
    // Clicking one plays the move; the bot answers, and the board drawn is the game's.
    let first = &report["after_first"];
    let history = first["history"].as_str().unwrap();
    assert!(history.starts_with("1. c3-d4 "), "{history}");
    assert_eq!(
        history.split_whitespace().filter(|w| !w.ends_with('.')).count(),
        2,
        "{history}"
    );
    let game = replay(history);
    assert_eq!(first["position"], game.position());
    assert_eq!(first["cells"]["d4"], "w");
    assert!(first["cells"].get("c3").is_none());
    assert!(first["eval"].as_str().unwrap().starts_with("Bot played "), "{first}");
    let second = &report["after_second"];
    let history2 = second["history"].as_str().unwrap();
    assert!(
        history2.starts_with(history) && history2.len() > history.len(),
        "{history2}"
    );
    assert_eq!(second["position"], replay(history2).position());
    // Undo takes back the person's move and the bot's reply.
    assert_eq!(report["after_undo"]["history"], first["history"]);
    assert_eq!(report["after_undo"]["position"], first["position"]);
    assert_eq!(report["after_undo"]["error"], "");
    analysis_flip_steps_save_and_load(&report, first);
    // The address names the current position, and opened in a new tab it shows that position.
    let link = first["link"].as_str().unwrap();
    assert!(link.contains("#position="), "{link}");
    assert_eq!(first["address"], first["link"]);
    let shared = &report["shared"];
    assert_eq!(shared["position"], first["position"]);
    assert_eq!(shared["history"], "");
    assert_eq!(shared["error"], "");
    let bad = &report["bad_address"];
    assert_eq!(bad["position"], replay("").position());
    let error = bad["error"].as_str().unwrap();
    assert!(
        error.starts_with("The address's game: position \"nonsense\""),
        "{error}"
    );
}

/// The page's analysis, flip, move list, save and load, and Bagh Chal drawn as points and lines.
fn analysis_flip_steps_save_and_load(report: &serde_json::Value, first: &serde_json::Value) {
    let analysis = &report["analysis"];
    let text = analysis["text"].as_str().unwrap();
    assert!(
        text.starts_with("Hint for white: ") && text.contains("simulations"),
        "{text}"
    );
    let hint: Vec<&str> = analysis["hint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let best = text.trim_start_matches("Hint for white: ").split(',').next().unwrap();
    assert_eq!(
        hint.len(),
        2,
        "the best move's squares are outlined: {hint:?} for {best}"
    );
    assert!(
        best.starts_with(hint[0]) || best.starts_with(hint[1]),
        "{best} {hint:?}"
    );
    let bar: f32 = analysis["bar"].as_str().unwrap().parse().unwrap();
    assert!((-1.0..=1.0).contains(&bar));
    assert_eq!(report["flipped_first_square"], "h1", "flipped, the board starts at h1");
    // Stepping back shows the position after the first move, then the game again.
    let history = first["history"].as_str().unwrap();
    let first_move = history.split_whitespace().nth(1).unwrap();
    let viewing = &report["viewing"];
    assert_eq!(viewing["status"], "Viewing the position after 1 of 2 moves");
    assert_eq!(viewing["position"], replay(&format!("1. {first_move}")).position());
    assert_eq!(report["live"]["position"], first["position"]);
    // Saved as a PDN record, loaded back into a new game: the same moves and position.
    let saved = report["saved"].as_str().unwrap();
    assert!(
        saved.contains("[Variant \"bashni\"]") && saved.contains(first_move),
        "{saved}"
    );
    assert_eq!(report["loaded"]["history"], first["history"]);
    assert_eq!(report["loaded"]["position"], first["position"]);
    assert_eq!(report["loaded"]["status"], "Your move (you are white)");
    let second = &report["second"];
    assert_eq!(
        second["lines"], 56,
        "5x5 points: 40 lines along ranks and files, 16 diagonals"
    );
    assert_eq!(second["counts"], "Goats in hand: 20 \u{b7} goats captured: 0");
    assert_eq!(second["cells"]["a1"], "T");
}

#[test]
fn a_bundles_measured_level_ratings_are_shown_beside_its_level() {
    let tmp = scratch("serve-levels");
    let dir = tmp.path();
    let ckpt = dir.join("net.safetensors");
    tiny_checkpoint("bashni", &ckpt, 1, 7);
    let ckpt = ckpt.to_str().unwrap();
    // A real round robin of two levels and the anchor, as docs/protocol.md measures one.
    let standings = dir.join("levels.json");
    let out = zero(&[
        "eval",
        "--game",
        "bashni",
        "--player",
        &format!("ckpt:{ckpt},level=casual,name=casual"),
        "--player",
        &format!("ckpt:{ckpt},level=beginner,name=beginner"),
        "--player",
        "random",
        "--games",
        "2",
        "--out",
        standings.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let export = |ratings: &std::path::Path, bundle: &std::path::Path| {
        zero(&[
            "export",
            ckpt,
            "--out",
            bundle.to_str().unwrap(),
            "--level-ratings",
            ratings.to_str().unwrap(),
        ])
    };
    let bundle = dir.join("bundle");
    let out = export(&standings, &bundle);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundle.join("manifest.json")).unwrap()).unwrap();
    let ratings = manifest["level_ratings"].as_array().unwrap();
    let levels: Vec<&str> = ratings.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert_eq!(
        levels,
        ["beginner", "casual"],
        "the levels rated, weakest first; the anchor is none"
    );
    assert!(
        ratings.iter().all(|r| r["anchor"] == "random" && r["games"] == 4),
        "{ratings:?}"
    );

    // The page's state carries the rating of the level the bot plays at.
    let server = Server::start_with(&bundle, &["--level", "casual"]);
    let (status, state) = server.request("GET", "/api/state", "");
    assert_eq!(status, 200);
    assert_eq!(state["level"], "casual");
    let rating = state["level_rating"].as_str().unwrap();
    let casual = &ratings[1];
    let want = format!(
        "{:.0} ±{:.0} Elo over random (4 games)",
        casual["elo"].as_f64().unwrap(),
        casual["interval"].as_f64().unwrap()
    );
    assert_eq!(rating, want);
    let unrated = Server::start_with(&bundle, &["--level", "club"]);
    assert_eq!(
        unrated.request("GET", "/api/state", "").1["level_rating"],
        serde_json::Value::Null
    );

    // Standings without a level's row, of another game, or not standings at all, are refused by name.
    for (name, content, says) in [
        (
            "anchors",
            r#"{"game": "bashni", "standings": {"anchor": "random", "rows": []}}"#,
            "rates no player named after a level",
        ),
        (
            "tours",
            r#"{"game": "tours", "standings": {"anchor": "random", "rows": []}}"#,
            "rates players of tours; this network plays bashni",
        ),
        ("prose", "club: about 270", "not the standings of zero eval --out"),
    ] {
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, content).unwrap();
        let refused = text(&export(&file, &dir.join(format!("bundle-{name}"))).stderr);
        assert!(refused.contains(says), "{name}: {refused}");
    }
}
