//! Connect Four: perft against the published counts, every way a game ends, the two position notations, bad
//! input, and random playouts through the generic checks.

mod common;
use common::mutated;

use proptest::prelude::*;
use zero_games::checks::{CheckRng, random_playout};
use zero_games::connect4::{Connect4, Connect4Rules};
use zero_games::{EndReason, Game, Side, perft};

fn game(position: &str) -> Connect4 {
    Connect4::from_position(&Connect4Rules, position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn play_all(game: &mut Connect4, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        game.play(&mv);
    }
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    // RULES.md: 7^n until a column can fill (ply 7), then fewer; depth 9 as published.
    let expected = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572];
    let start = Connect4::start(&Connect4Rules);
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&start, depth as u32), count, "depth {depth}");
    }
}

#[test]
fn perft_mid_game_regression() {
    // OpenSpiel 2.0.2's connect_four counts the same from this position (reached by 5664464533342): wins at the
    // second ply cut the tree from depth 3 on.
    let g = game("......./......./...o.../..xx.o./..oxox./.xxoxo. o");
    assert_eq!(g.ply(), 13);
    assert_eq!(game("5664464533342").position(), g.position());
    assert_eq!([1, 2, 3, 4].map(|d| perft(&g, d)), [7, 49, 342, 2374]);
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    for (moves, winner) in [
        ("a b a b a b a", Side::First),         // vertical
        ("a a b b c c d", Side::First),         // horizontal
        ("a b b c c d c d d g d", Side::First), // diagonal up-right: a1 b2 c3 d4
        ("g f f e e d e d d a d", Side::First), // diagonal up-left: g1 f2 e3 d4
        ("a b a b a c d b g b", Side::Second),  // the second player's column
    ] {
        let mut g = Connect4::start(&Connect4Rules);
        play_all(&mut g, moves);
        let outcome = g
            .outcome()
            .unwrap_or_else(|| panic!("{moves}: not over\n{}", g.render()));
        assert_eq!(outcome.winner, Some(winner), "{moves}");
        assert_eq!(outcome.reason, EndReason::Line);
        assert_eq!(g.count_moves(), 0);
        let err = g.parse_move("e").unwrap_err().to_string();
        assert!(err.contains("the game is over (line)"), "{err}");
    }
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // Columns filled in the pattern that makes no four: pairs of columns alternate colours every two rows.
    let mut g = Connect4::start(&Connect4Rules);
    let order = "a b a b b a b a a b a b c d c d d c d c c d c d e f e f f e f e e f e f g g g g g g";
    play_all(&mut g, order);
    assert_eq!(g.ply(), 42);
    let outcome = g.outcome().expect("full");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (None, EndReason::BoardFull),
        "{}",
        g.render()
    );
}

#[test]
fn both_position_notations_agree_and_round_trip() {
    let from_sequence = game("4453");
    let mut played = Connect4::start(&Connect4Rules);
    play_all(&mut played, "d d e c");
    assert_eq!(from_sequence.position(), played.position());
    assert_eq!(
        from_sequence.position(),
        "......./......./......./......./...o.../..oxx.. x"
    );
    assert_eq!(game(&from_sequence.position()).hash(), from_sequence.hash());
    assert_eq!(
        game("start").position(),
        "......./......./......./......./......./....... x"
    );
    assert_eq!(
        game("7/7/7/7/7/3x3 o").position(),
        "......./......./......./......./......./...x... o"
    );
    // The landing cell and the column number name the same move as the letter.
    assert_eq!(played.parse_move("c2"), played.parse_move("c"));
    assert_eq!(played.parse_move("3"), played.parse_move("c"));
}

#[test]
fn a_won_position_parses_only_when_the_last_disc_can_have_made_the_four() {
    let won = game("......./......./x....../xo...../xo...../xo..... o");
    assert_eq!(won.outcome().map(|o| o.winner), Some(Some(Side::First)));
    for (position, why) in [
        (
            "......./......./x....../xo...../xo...../xoo.... x",
            "x has four in a row but o moved last",
        ),
        (
            "......./......./......./...o.../ooox.../xxxx... o",
            "no single last disc",
        ),
    ] {
        let err = Connect4::from_position(&Connect4Rules, position)
            .unwrap_err()
            .to_string();
        assert!(err.contains(why), "{position}: {err}");
    }
}

#[test]
fn bad_positions_name_the_token_and_the_reason() {
    for (position, token, why) in [
        ("", "", "expected a board"),
        (
            "......./......./......./......./......./....... x extra",
            "......./......./......./......./......./....... x extra",
            "expected a board",
        ),
        (
            "......./......./......./......./....... x",
            "......./......./......./......./.......",
            "6 rows",
        ),
        (
            "......./......./......./......./......./...q... x",
            "...q...",
            "'q' is not x, o",
        ),
        (
            "......./......./......./......./......./........ x",
            "........",
            "a row has 7 cells",
        ),
        ("......./......./......./......./......./...... x", "......", "not 6"),
        (
            "......./......./......./......./......./...x... x",
            "x",
            "it is o's turn",
        ),
        (
            "......./......./......./......./......./..xx... o",
            "......./......./......./......./......./..xx...",
            "x moves first",
        ),
        (
            "......./......./......./......./...x.../...o... x",
            "......./......./......./......./...x.../...o...",
            "",
        ),
        (
            "......./......./......./......./...x.../....o.. x",
            "......./......./......./......./...x.../....o..",
            "floats above",
        ),
        ("......./......./......./......./......./....... z", "z", "x or o"),
        ("4418", "4418", "move 4 (8): columns are numbered 1-7"),
        ("4444444", "4444444", "move 7 (4): column d is full"),
        ("12121212", "12121212", "move 8 (2): the game is already over (line)"),
    ] {
        match Connect4::from_position(&Connect4Rules, position) {
            Ok(g) if why.is_empty() => assert_eq!(g.ply(), 2),
            Ok(g) => panic!("{position:?} parsed as {}", g.position()),
            Err(e) => {
                let text = e.to_string();
                assert!(
                    text.contains(&format!("{token:?}")) && text.contains(why),
                    "{position:?}: {text}"
                );
            }
        }
    }
}

#[test]
fn illegal_moves_say_why() {
    let g = game("4444442");
    for (text, why) in [
        ("d", "column d is full"),
        ("4", "column d is full"),
        ("b3", "lands on b2"),
        ("h", "expected a column a-g"),
        ("d7", "expected a column a-g"),
        ("", "expected a column a-g"),
        ("a1a", "expected a column a-g"),
    ] {
        let err = g.parse_move(text).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains(&format!("{text:?}")), "{text}: {err}");
    }
}

#[test]
fn rules_have_no_options_and_say_so() {
    assert_eq!(Connect4::describe_rules(&Connect4Rules), Vec::<String>::new());
    assert_eq!(Connect4::parse_rules(None, &[]), Ok(Connect4Rules));
    let err = Connect4::parse_rules(None, &["max_plies=10".to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown option \"max_plies\"") && err.contains("no rule options"),
        "{err}"
    );
    let err = Connect4::parse_rules(Some("popout"), &[]).unwrap_err().to_string();
    assert!(err.contains("unknown variant \"popout\""), "{err}");
}

/// Discs only grow, one a ply, by the mover, and always rest on another disc or the bottom.
fn connect4_invariant(g: &Connect4) -> Result<(), String> {
    let (x, o) = (g.discs(Side::First).count_ones(), g.discs(Side::Second).count_ones());
    let due = if x == o { Side::First } else { Side::Second };
    if x + o != g.ply() || (x != o && x != o + 1) || g.to_move() != due {
        return Err(format!("{}: {x} x, {o} o, ply {}", g.position(), g.ply()));
    }
    if g.discs(Side::First) & g.discs(Side::Second) != 0 {
        return Err(format!("{}: two discs on one cell", g.position()));
    }
    Ok(())
}

#[test]
fn random_playouts_keep_the_invariants_and_end_by_a_rule() {
    let mut reasons = std::collections::HashMap::new();
    for seed in 0..400 {
        let mut rng = CheckRng::new(seed);
        let end = random_playout(Connect4::start(&Connect4Rules), &mut rng, 50, connect4_invariant)
            .unwrap_or_else(|e| panic!("{e}"));
        *reasons.entry(end.outcome().expect("over").reason).or_insert(0) += 1;
    }
    assert!(reasons[&EndReason::Line] > 300, "{reasons:?}");
}

const VALID_POSITIONS: &[&str] = &[
    "......./......./......./......./......./....... x",
    "......./......./...o.../..xx.o./..oxox./.xxoxo. o",
    "4453",
];
const POSITION_CHARS: &[char] = &['x', 'o', '.', '/', ' ', '1', '4', '7', '8'];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_positions_never_panic(text in mutated(VALID_POSITIONS, POSITION_CHARS)) {
        if let Ok(g) = Connect4::from_position(&Connect4Rules, &text) {
            prop_assert!(connect4_invariant(&g).is_ok());
            prop_assert_eq!(game(&g.position()).position(), g.position());
            let _ = g.outcome();
        }
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,60}|[1-8]{0,50}") {
        let _ = Connect4::from_position(&Connect4Rules, &text);
    }

    #[test]
    fn move_parser_never_panics(text in "[a-h0-8 ]{0,3}|\\PC{0,10}") {
        let _ = game("4453").parse_move(&text);
        let _ = game("4444442").parse_move(&text);
    }
}
