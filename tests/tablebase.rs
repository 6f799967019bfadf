//! Bagh Chal's tablebase from the command line and in the arena: `zero solve` (resumed, verified, refusing bad
//! files), `zero probe`, the `tablebase` player, `zero bench oracle` and the bot's analysis. The table is solved
//! once for all the workspace's tests (`target/tmp/tablebase/baghchal.tb`, minutes on two cores).

mod support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use support::{run_with_input, scratch, text, tiny_bundle, zero};
use zero_arena::Entrant;
use zero_arena::oracle::{OracleSet, score};
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_tablebase::Table;

/// The shared tablebase: its file and the table.
fn shared() -> &'static (PathBuf, Table) {
    static SHARED: OnceLock<(PathBuf, Table)> = OnceLock::new();
    SHARED.get_or_init(|| {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tablebase/baghchal.tb");
        let table = zero_tablebase::solve::solved_at(&path).expect("the shared solve");
        (path, table)
    })
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn an_interrupted_solve_resumes_from_its_partial_file_and_prints_the_counts() {
    let (_, table) = shared();
    let dir = scratch("tb-resume");
    let out = dir.path().join("resumed.tb");
    // What a solve killed after layer 1 leaves.
    let mut partial = table.clone();
    partial.layers[0] = None;
    partial.write(&zero_tablebase::solve::partial_path(&out)).unwrap();
    let run = zero(&["solve", "baghchal", "--out", arg(&out)]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("layers [4, 3, 2, 1] already solved"), "{stderr}");
    assert!(stderr.contains("layer 0 solved"), "{stderr}");
    assert!(stdout.contains("all classes: 88260972"), "{stdout}");
    assert!(
        stdout.contains("       0  goats           33481       30609          60        2812"),
        "{stdout}"
    );
    let (resumed, _) = Table::open(&out).unwrap();
    assert_eq!(
        resumed.layers[0].as_ref().unwrap().values,
        table.layers[0].as_ref().unwrap().values
    );
}

#[test]
fn verify_refuses_a_damaged_or_truncated_file_naming_it() {
    let (path, _) = shared();
    let dir = scratch("tb-bad");
    let mut bytes = std::fs::read(path).unwrap();
    let cut = dir.path().join("cut.tb");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let run = zero(&["solve", "baghchal", "--verify", arg(&cut)]);
    let stderr = text(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("cut.tb") && stderr.contains("truncated"), "{stderr}");
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    let damaged = dir.path().join("damaged.tb");
    std::fs::write(&damaged, &bytes).unwrap();
    let run = probe(&damaged, "TGGGT/GGGGG/GGGGG/GGGGG/TG.GT g 0 0");
    let stderr = text(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("damaged.tb") && stderr.contains("SHA-256"), "{stderr}");
    let run = zero(&["solve", "bashni", "--verify", arg(path)]);
    assert!(text(&run.stderr).contains("only baghchal"), "{}", text(&run.stderr));
}

/// `zero probe baghchal --tablebase FILE --position POSITION`.
fn probe(table: &Path, position: &str) -> std::process::Output {
    zero(&["probe", "baghchal", "--tablebase", arg(table), "--position", position])
}

#[test]
fn probe_prints_the_value_and_every_moves_value_or_why_there_is_none() {
    let (path, _) = shared();
    let run = probe(path, "TGGGT/GGGGG/GGGGG/GGGGG/TG.GT g 0 0");
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(stdout.contains("win in 1 ply for the goats"), "{stdout}");
    assert!(stdout.contains("c2-c1    win in 1 ply (best)"), "{stdout}");
    // Every other move frees a point beside a tiger: still a win, but slower, and listed after.
    assert!(stdout.contains("b1-c1    win in 3 plies\n"), "{stdout}");
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    let run = probe(path, "T...T/...../...../...../T...T g 20 0");
    let stderr = text(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("20 goats are still in hand"), "{stderr}");
}

#[test]
fn the_tablebase_player_converts_a_won_position_and_others_are_scored_against_it() {
    let (path, table) = shared();
    let spec = format!("tablebase:file={},depth=2", path.display());
    let perfect = Entrant::<BaghChal>::parse(&spec).unwrap();
    let greedy = Entrant::<BaghChal>::parse("greedy").unwrap();
    // The goats win by trapping the tigers at once; the perfect player finds it every time.
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    for seed in 0..4 {
        let mut game = BaghChal::from_position(&rules, "TGGGT/GGGGG/GGGGG/GGGGG/TG.GT g 0 0").unwrap();
        let mut players = [perfect.player(seed, 0), greedy.player(seed, 1)];
        while game.outcome().is_none() {
            let mv = players[game.ply() as usize % 2].choose_move(&game);
            game.play(&mv);
        }
        assert_eq!(game.outcome().unwrap().winner, Some(zero_games::Side::First));
    }
    // On the standard set the perfect player keeps every result; random play does not.
    let set = OracleSet::standard().head(40, 10);
    let perfect_score = score(&perfect, &set, table, 1).unwrap();
    assert_eq!(
        perfect_score.accuracy(""),
        Some(1.0),
        "{:?}",
        perfect_score.mistakes.first()
    );
    let random = Entrant::<BaghChal>::parse("random").unwrap();
    let random_score = score(&random, &set, table, 1).unwrap();
    let (positions, _) = random_score.total("");
    assert_eq!(positions, 90);
    assert!(random_score.accuracy("").unwrap() < 0.9, "{random_score:?}");
    assert_eq!(random_score.mistakes.len(), positions - random_score.total("").1);
    // The tablebase player is refused for another game.
    let err = Entrant::<zero_games::bashni::Bashni>::parse(&spec).err().unwrap();
    assert!(err.to_string().contains("baghchal only"), "{err}");
}

/// `zero bench oracle --tablebase SHARED ARGS...`'s stdout, once it succeeded.
fn bench_oracle(args: &[&str]) -> String {
    let (path, _) = shared();
    let mut all = vec!["bench", "oracle", "--tablebase", arg(path)];
    all.extend_from_slice(args);
    let run = zero(&all);
    assert!(run.status.success(), "{}", text(&run.stderr));
    text(&run.stdout)
}

#[test]
fn bench_oracle_scores_players_and_reads_where_games_left_the_placement() {
    let (path, _) = shared();
    let dir = scratch("tb-oracle");
    let set = dir.path().join("set.txt");
    std::fs::write(&set, OracleSet::standard().head(10, 5).to_text("a small set")).unwrap();
    let stdout = bench_oracle(&["--set", arg(&set), "--player", "greedy"]);
    assert!(stdout.contains("25 positions"), "{stdout}");
    assert!(
        stdout.contains("greedy:") && stdout.contains("sliding phase: goats"),
        "{stdout}"
    );
    let stdout = bench_oracle(&["--set", arg(&set), "--under-ban"]);
    assert!(stdout.contains("20 sliding-phase positions played out"), "{stdout}");
    // Where games stood when every goat was placed: one match of the perfect player's goats.
    let games = dir.path().join("games.jsonl");
    let spec = format!("tablebase:file={},depth=1", path.display());
    let run = zero(&[
        "eval",
        "--game",
        "baghchal",
        "--player",
        &spec,
        "--player",
        "random",
        "--games",
        "2",
        "--opening-count",
        "2",
        "--games-out",
        arg(&games),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = bench_oracle(&["--games", arg(&games)]);
    assert!(stdout.contains("as goats: 1 games"), "{stdout}");
}

#[test]
fn the_bot_shows_perfect_play_with_its_analysis() {
    let (path, _) = shared();
    let dir = scratch("tb-bot");
    let bundle = tiny_bundle("baghchal", dir.path(), 8);
    let input = "position fen TGGGT/GGGGG/GGGGG/GGGGG/TG.GT g 0 0\nsetoption name multipv value 1\ngo\nquit\n";
    let out = run_with_input(
        Path::new(env!("CARGO_BIN_EXE_zero")),
        &["bot", arg(&bundle), "--tablebase", arg(path)],
        input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("info tablebase"))
        .expect("a tablebase line");
    assert!(line.starts_with("info tablebase win1 moves c2-c1 win1 "), "{line}");
    let out = run_with_input(
        Path::new(env!("CARGO_BIN_EXE_zero")),
        &["bot", arg(&bundle), "--tablebase", arg(path)],
        "setoption name multipv value 1\ngo\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("info tablebase none 20 goats are still in hand"),
        "{stdout}"
    );
}

#[test]
fn a_bagh_chal_run_scores_each_network_against_perfect_play() {
    let (path, _) = shared();
    let dir = scratch("tb-run");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/baghchal-quick.toml");
    let tablebase = format!("run.eval_oracle_tablebase={}", path.display());
    let mut args = vec!["run", arg(&config), "--run-dir", arg(dir.path())];
    for setting in [
        "run.generations=1",
        "run.games_per_generation=20",
        "run.eval_games=2",
        "run.eval_openings=2",
        "run.eval_equal_time_games=0",
        "run.eval_oracle_positions=10",
        &tablebase,
    ] {
        args.extend(["--set", setting]);
    }
    let run = zero(&args);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(stdout.contains("gen1 against perfect play: "), "{stdout}");
    assert!(stdout.contains("(sliding phase: goats "), "{stdout}");
    let summary = std::fs::read_to_string(dir.path().join("generations.jsonl")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(summary.lines().next().unwrap()).unwrap();
    // 10 sliding positions a side and 2 of placement, a share of them kept.
    assert_eq!(summary["oracle"]["positions"], 22, "{summary}");
    assert!(
        (0.0..=1.0).contains(&summary["oracle"]["accuracy"].as_f64().unwrap()),
        "{summary}"
    );
    let report = zero(&["report", arg(dir.path())]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert!(dir.path().join("report/perfect-play-generation.png").exists());
}
