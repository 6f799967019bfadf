//! What a bot's clients send: protocol lines (`zero bot`) and HTTP requests (`zero serve`).

use crate::game_of;
use std::any::Any;
use std::path::Path;
use std::sync::OnceLock;
use tch::{Device, nn};
use zero_bot::http::Request;
use zero_bot::lines::Lines;
use zero_bot::protocol::{BotOption, Command, GoLimit, MAX_MULTIPV, answer};
use zero_bot::serve::Api;
use zero_bot::{Bundle, ExportOptions};
use zero_games::{Encoding, GameKind, with_game};
use zero_model::network::NetShape;
use zero_model::{Checkpoint, CheckpointMeta, NetworkConfig, PolicyValueNet};
use zero_search::config::MAX_SIMULATIONS;

/// `[game] lines...`: every line is read within the line limit, parsed, and carried out on one session (all
/// but `go`, whose search is not the parser's); a position set formats to text that parses back to it.
pub fn protocol(data: &[u8]) {
    let Some((&which, input)) = data.split_first() else {
        return;
    };
    with_game!(game_of(which), G => protocol_of::<G>(input));
}

fn protocol_of<G: Encoding>(input: &[u8]) {
    let rules = G::parse_rules(None, &[]).expect("the default rules parse");
    let mut game = G::start(&rules);
    // A small limit, so that the fuzzer reaches the over-long case without megabytes of input.
    let mut lines = Lines::with_limit(input, 256);
    while let Some(line) = lines.next_line().expect("reading from memory") {
        let Some(Ok(Some(command))) = line.text().ok().map(|text| Command::<G>::parse(&rules, &text)) else {
            continue;
        };
        match command {
            Command::Quit => break,
            Command::Go(limit) => {
                if let GoLimit::Budget(zero_search::Budget::Simulations(n)) = limit {
                    assert!((1..=MAX_SIMULATIONS).contains(&n), "go sims {n} accepted");
                }
            }
            Command::SetOption(BotOption::Sims(n)) => {
                assert!((1..=MAX_SIMULATIONS).contains(&n), "setoption sims {n} accepted");
            }
            Command::SetOption(BotOption::MultiPv(k)) => assert!(k <= MAX_MULTIPV, "multipv {k} accepted"),
            Command::Position(set) => {
                // The whole check_position is the position target's; here, what `show` will answer parses back.
                let shown = set.position();
                let again = G::from_position(&rules, &shown).map(|g| g.position());
                assert_eq!(again.as_deref(), Ok(shown.as_str()), "a position set by the protocol");
                answer(&rules, &mut game, Command::Position(set));
            }
            command => drop(answer(&rules, &mut game, command)),
        }
    }
}

/// `[game] requests`, separated by NUL bytes, each `METHOD PATH\nBODY`, played in order against the API over a
/// tiny bundle (bot moves search 4 simulations): every answer has a status the API documents and, when it says
/// JSON, a JSON body. The API lives as long as the process, as a server's does (a fresh one per input would
/// cost its network's loading each time): its games carry over from one input to the next, up to its limit.
pub fn http(data: &[u8]) {
    let Some((&which, input)) = data.split_first() else {
        return;
    };
    let kind = game_of(which);
    with_game!(kind, G => http_of::<G>(api::<G>(kind), input));
}

/// The API of `kind`'s tiny bundle, made once per process.
fn api<G: Encoding + zero_games::Heuristic>(kind: GameKind) -> &'static Api<G> {
    const GAMES: usize = GameKind::ALL.len();
    static APIS: [OnceLock<Box<dyn Any + Send + Sync>>; GAMES] = [const { OnceLock::new() }; GAMES];
    APIS[index_of(kind)]
        .get_or_init(|| Box::new(Api::<G>::new(tiny_bundle(kind), None).expect("the tiny bundle's bot")))
        .downcast_ref()
        .expect("the API of this game")
}

fn index_of(kind: GameKind) -> usize {
    GameKind::ALL
        .iter()
        .position(|&k| k == kind)
        .expect("a registered game")
}

fn http_of<G: Encoding>(api: &Api<G>, input: &[u8]) {
    for request in input.split(|&b| b == 0).take(16) {
        let (head, body) = match request.iter().position(|&b| b == b'\n') {
            Some(i) => (&request[..i], &request[i + 1..]),
            None => (request, &[][..]),
        };
        let head = String::from_utf8_lossy(head);
        let (method, path) = head.split_once(' ').unwrap_or((&head, "/"));
        let response = api.handle(Request {
            method: method.to_string(),
            path: path.to_string(),
            body: body.to_vec(),
        });
        assert!(
            [200, 400, 404, 405, 409, 503].contains(&response.status),
            "{method} {path}: status {}",
            response.status
        );
        if response.content_type == "application/json" {
            let parsed: Result<serde_json::Value, _> = serde_json::from_slice(&response.body);
            assert!(parsed.is_ok(), "{method} {path}: a JSON answer that is not JSON");
        }
    }
}

/// A bundle of a tiny random network of `kind`, searching 4 simulations a move, exported once per process.
pub(crate) fn tiny_bundle(kind: GameKind) -> &'static Bundle {
    static BUNDLES: OnceLock<(tempfile::TempDir, Vec<Bundle>)> = OnceLock::new();
    let (_, bundles) = BUNDLES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let bundles = GameKind::ALL
            .iter()
            .map(|&kind| with_game!(kind, G => export_tiny::<G>(dir.path())))
            .collect();
        (dir, bundles)
    });
    &bundles[GameKind::ALL
        .iter()
        .position(|&k| k == kind)
        .expect("a registered game")]
}

fn export_tiny<G: Encoding>(dir: &Path) -> Bundle {
    tch::manual_seed(7);
    let config = NetworkConfig {
        blocks: 1,
        channels: 8,
        value_hidden: 16,
        ..Default::default()
    };
    let vs = nn::VarStore::new(Device::Cpu);
    let _net = PolicyValueNet::new(&vs.root(), &config, NetShape::of::<G>());
    let rules = G::parse_rules(None, &[]).expect("the default rules parse");
    let checkpoint = dir.join(format!("{}.safetensors", G::NAME));
    Checkpoint::save(&vs, &CheckpointMeta::new::<G>(&rules, &config), &checkpoint).expect("saving the network");
    let out = dir.join(G::NAME);
    let search = zero_search::PlaySearch {
        sims: 4,
        ..zero_search::PlaySearch::DEFAULT
    };
    zero_bot::export::<G>(
        &checkpoint,
        &out,
        ExportOptions {
            search,
            elo: None,
            level_ratings: Vec::new(),
        },
    )
    .expect("exporting the bundle");
    Bundle::open(&out).expect("the exported bundle opens")
}
