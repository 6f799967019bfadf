//! The `zero` binary as a user runs it: no LD_LIBRARY_PATH, exit codes, errors on bad input.

use std::process::{Command, Output};

fn zero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(args)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("OMP_WAIT_POLICY")
        .output()
        .expect("zero runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn version_names_zero_libtorch_and_the_device_without_ld_library_path() {
    let out = zero(&["--version"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(&format!("zero {}", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    assert!(lines[1].starts_with("libtorch 2.13.0"), "{text}");
    let device = lines[2].strip_prefix("device ").expect("device line");
    assert!(device == "cpu" || device.starts_with("cuda:"), "{text}");
}

#[test]
fn unknown_game_is_an_error_naming_it() {
    // Refused by the argument parser, as a usage error (exit status 2), before anything runs.
    let out = zero(&["perft", "chess", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("unknown game \"chess\""), "{err}");
}

#[test]
fn output_into_a_closed_pipe_ends_the_command_quietly_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    // The reading end is closed before zero writes a byte: its first write meets a broken pipe, as `| head` does.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(["perft", "baghchal", "--depth", "2"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

#[test]
fn a_wrong_path_is_an_error_and_an_error_names_each_cause_once() {
    let tmp = tempfile::tempdir().unwrap();
    let nowhere = tmp.path().join("nowhere");
    let out = zero(&["report", nowhere.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not a run directory"), "{}", stderr(&out));
    assert!(!nowhere.exists(), "zero report made the directory");
    let missing = tmp.path().join("missing.safetensors");
    let spec = format!("ckpt:{}", missing.display());
    let out = zero(&[
        "eval", "--game", "bashni", "--player", &spec, "--player", "random", "--games", "2",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.matches("missing.safetensors").count(), 2, "{err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn eval_plays_the_book_from_first_opening_cycling_and_names_the_openings_it_played() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games.jsonl");
    let eval = |first: &str| {
        let fixed = "eval --game baghchal --player random --player greedy --games 6 --opening-count 10 --seed 3";
        let mut args: Vec<&str> = fixed.split(' ').collect();
        args.extend(["--first-opening", first, "--games-out", games.to_str().unwrap()]);
        zero(&args)
    };
    let opening_of = |line: &str| {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        record["opening_index"].as_u64().unwrap()
    };
    let out = eval("8");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&games).unwrap();
    let mut indices: Vec<u64> = text.lines().map(opening_of).collect();
    indices.sort();
    // Each opening twice, the colours swapped, and past the book's end back to its start.
    assert_eq!(indices, [0, 0, 8, 8, 9, 9]);
    let summary = stdout(&out);
    assert!(summary.contains("6 games in "), "{summary}");
    assert!(summary.contains("from 3 of the book's 10 openings"), "{summary}");
    let summary = stdout(&eval("2"));
    assert!(summary.contains("from openings 2-4 of 10"), "{summary}");
    let out = eval("10");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("--first-opening 10: the book has 10 openings"), "{err}");
}

#[test]
fn eval_says_it_judges_a_new_book_and_takes_it_from_the_cache_the_next_time() {
    let tmp = tempfile::tempdir().unwrap();
    let eval = |save: &str| {
        Command::new(env!("CARGO_BIN_EXE_zero"))
            .args(["eval", "--game", "baghchal", "--player", "random", "--player", "greedy"])
            .args([
                "--games",
                "2",
                "--opening-count",
                "3",
                "--seed",
                "5",
                "--save-openings",
                save,
            ])
            .env("ZERO_CACHE", tmp.path())
            .env("ZERO_PROGRESS_SECONDS", "0")
            .output()
            .expect("zero runs")
    };
    let (first_book, second_book) = (tmp.path().join("first.json"), tmp.path().join("second.json"));
    let first = eval(first_book.to_str().unwrap());
    assert!(first.status.success(), "{}", stderr(&first));
    let said = stderr(&first);
    assert!(
        said.contains("judging an opening book of 3 baghchal openings, 8 plies deep"),
        "{said}"
    );
    assert!(
        said.contains("openings kept, ") && said.contains("random lines judged"),
        "{said}"
    );
    assert!(said.contains("(not judged before; kept in "), "{said}");
    assert_eq!(std::fs::read_dir(tmp.path().join("books")).unwrap().count(), 1);
    let second = eval(second_book.to_str().unwrap());
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(!stderr(&second).contains("judging"), "{}", stderr(&second));
    assert_eq!(
        std::fs::read_to_string(&first_book).unwrap(),
        std::fs::read_to_string(&second_book).unwrap(),
        "the cached book is the judged one"
    );
}

#[test]
fn actions_lists_every_policy_index_with_the_move_it_stands_for() {
    for (game, space) in [
        ("bashni", 896),
        ("baghchal", 25 + 25 * 8 * 2),
        ("tours", 64 * 56 + 64 * 8),
    ] {
        let out = zero(&["actions", game]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "action\tmeaning");
        assert_eq!(lines.len(), space + 1, "{game}: one line per index");
        for (i, line) in lines[1..].iter().enumerate() {
            let (index, meaning) = line.split_once('\t').expect("two columns");
            assert!(index == i.to_string() && !meaning.is_empty(), "{game}: {line}");
        }
        let json = zero(&["actions", game, "--json"]);
        let rows: Vec<serde_json::Value> = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(rows.len(), space);
        assert_eq!(rows[7]["meaning"], lines[8].split_once('\t').unwrap().1);
    }
    assert!(stdout(&zero(&["actions", "baghchal"])).contains("\n0\tplace a1\n"));
}

#[test]
fn completions_and_man_pages_come_from_the_argument_definitions() {
    let bash = zero(&["completions", "bash"]);
    assert!(bash.status.success(), "{}", stderr(&bash));
    let script = stdout(&bash);
    assert!(script.contains("complete -F") && script.contains("actions") && script.contains("--run-dir"));
    let fish = stdout(&zero(&["completions", "fish"]));
    assert!(fish.contains("complete -c zero") && fish.contains("replay"), "{fish}");
    assert_eq!(
        zero(&["completions", "tcsh"]).status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );

    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("man");
    let out = zero(&["man", "--out", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let main_page = std::fs::read_to_string(out_dir.join("zero.1")).unwrap();
    assert!(
        main_page.contains(".TH zero 1") && main_page.contains("zero\\-run(1)"),
        "{main_page}"
    );
    let run_page = std::fs::read_to_string(out_dir.join("zero-run.1")).unwrap();
    assert!(run_page.contains("\\-\\-run\\-dir"), "{run_page}");
}

#[test]
fn special_files_named_on_the_command_line_are_refused_at_once_naming_them() {
    // From the audit of issue 103: `zero run /dev/zero` and `zero replay /dev/zero` read without end.
    for args in [&["run", "/dev/zero"][..], &["replay", "/dev/zero"], &["replay", "/"]] {
        let out = zero(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{}: not a regular file", args[1])),
            "{args:?}: {err}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("huge.toml");
    std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
    let out = zero(&["run", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("1073741824 bytes, more than the 1048576 a config may have"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_worker_count_the_config_would_refuse_is_refused_on_the_command_line_too() {
    // From the audit of issue 103: `--workers 100000` bypassed the config's 1-256 check and grew to 3 GB.
    for workers in ["0", "100000", "-1", "many"] {
        let flag = format!("--workers={workers}");
        let out = zero(&[
            "selfplay",
            "--config",
            "configs/bashni-quick.toml",
            "--model",
            "uniform",
            "--games",
            "1",
            "--out",
            "/nonexistent/never-written",
            &flag,
        ]);
        assert_eq!(out.status.code(), Some(2), "--workers {workers}");
        assert!(
            stderr(&out).contains("expected a number of workers from 1 to 256"),
            "{}",
            stderr(&out)
        );
    }
}
