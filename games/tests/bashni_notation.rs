//! Notation: round trips, the errors for every kind of bad input, and parser fuzzing.

use proptest::prelude::*;
use zero_games::bashni::{Bashni, Rules};
use zero_games::{Game, NotationError, RulesError};

fn position_error(text: &str) -> (String, String) {
    match Bashni::from_position(&Rules::default(), text) {
        Err(NotationError::Position { token, reason }) => (token, reason),
        other => panic!("{text:?} should be refused, got {other:?}"),
    }
}

fn move_error(position: &str, text: &str) -> (String, String) {
    let game = Bashni::from_position(&Rules::default(), position).expect("valid");
    match game.parse_move(text) {
        Err(NotationError::Move { token, reason }) => (token, reason),
        other => panic!("{text:?} should be refused, got {other:?}"),
    }
}

fn rules_error(variant: Option<&str>, options: &[&str]) -> RulesError {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    Rules::parse(variant, &options).expect_err("should be refused")
}

#[test]
fn start_round_trips_and_renders() {
    let start = Bashni::start(&Rules::default());
    let text = start.position();
    assert_eq!(
        text,
        "w a1:w c1:w e1:w g1:w b2:w d2:w f2:w h2:w a3:w c3:w e3:w g3:w \
         b6:b d6:b f6:b h6:b a7:b c7:b e7:b g7:b b8:b d8:b f8:b h8:b"
    );
    assert_eq!(
        Bashni::from_position(&Rules::default(), "start").unwrap().position(),
        text
    );
    let g = Bashni::from_position(&Rules::default(), "w c1:Bwww e5:wbbbb h8:b").unwrap();
    assert_eq!(g.position(), "w c1:Bwww e5:wbbbb h8:b");
    let drawing = g.render();
    assert!(drawing.contains("c1: Bwww"), "{drawing}");
    assert!(drawing.contains("e5: wbbbb"), "{drawing}");
    assert!(drawing.contains("White to move"), "{drawing}");
}

#[test]
fn bad_positions_name_the_token_and_why() {
    let cases: &[(&str, &str, &str)] = &[
        ("", "", "empty"),
        ("x a1:w", "x", "side to move"),
        ("a1:w c3:b", "a1:w", "side to move"),
        ("w i9:w", "i9:w", "not a square"),
        ("w a2:w", "a2:w", "light square"),
        ("w a1:wq", "a1:wq", "'q'"),
        ("w a1:w a1:b", "a1:b", "twice"),
        ("w a1:", "a1:", "empty stack"),
        ("w a1w", "a1w", "square:stack"),
        ("w a1:wwwwwwwwwwwww", "a1:wwwwwwwwwwwww", "more than 12 white"),
        ("w c3:bbbbbb e3:bbbbbbb", "e3:bbbbbbb", "more than 12 black"),
        ("w b8:wb", "b8:wb", "crowned"),
        ("b c1:b", "c1:b", "crowned"),
    ];
    for &(text, token, why) in cases {
        let (got_token, reason) = position_error(text);
        assert_eq!(got_token, token, "{text:?}");
        assert!(reason.contains(why), "{text:?}: {reason}");
    }
    // Kings and prisoners may stand anywhere.
    assert!(Bashni::from_position(&Rules::default(), "w b8:Wbw c1:wb").is_ok());
}

#[test]
fn bad_moves_name_the_token_and_why() {
    let start = "start";
    let cases: &[(&str, &str)] = &[
        ("c3", "expected"),
        ("c3-d4-e5", "exactly two squares"),
        ("c3-z9", "not a square"),
        ("c3-c5", "not on one diagonal"),
        ("c3-d4:e5", "mixes"),
        ("c3-b5", "light square"),
        ("c3-g5", "not on one diagonal"),
        ("c3-e5", "not legal"),
        ("a1-b2", "not legal"),
        ("c3:e5", "not legal"),
    ];
    for &(text, why) in cases {
        let (token, reason) = move_error(start, text);
        assert_eq!(token, text);
        assert!(reason.contains(why), "{text:?}: {reason}");
    }
    // A quiet move is illegal while a capture is compulsory, and the error lists the captures.
    let (_, reason) = move_error("w c3:w d4:b h8:b", "c3-b4");
    assert!(reason.contains("c3:e5"), "{reason}");
    // `x` is accepted for `:`.
    let g = Bashni::from_position(&Rules::default(), "w c3:w d4:b h8:b").unwrap();
    assert_eq!(g.parse_move("c3xe5"), g.parse_move("c3:e5"));
}

#[test]
fn pdn_square_numbers_and_shortened_captures_are_read() {
    // PDN numbers the dark squares from Black's side: 1 = b8, 22 = c3, 18 = d4, 32 = g1.
    let start = Bashni::start(&Rules::default());
    assert_eq!(start.parse_move("22-18"), start.parse_move("c3-d4"));
    assert!(start.parse_move("22-18").is_ok());
    let (_, reason) = move_error("start", "33-29");
    assert!(reason.contains("1..32"), "{reason}");
    // A multi-jump written by its ends alone is the one legal capture between them.
    let g = Bashni::from_position(&Rules::default(), "w c3:w d4:b f6:b h8:b").unwrap();
    let full = g.parse_move("c3:e5:g7").unwrap();
    assert_eq!(g.format_move(&full), "c3:e5:g7");
    assert_eq!(g.parse_move("c3:g7"), Ok(full));
    assert_eq!(g.parse_move("22x8"), Ok(full));
    // ...but the squares it names must be on its path.
    let (_, reason) = move_error("w c3:w d4:b f6:b h8:b", "c3:e5:c7");
    assert!(reason.contains("not legal"), "{reason}");
}

#[test]
fn bad_rules_are_refused_with_the_reason() {
    assert!(matches!(rules_error(Some("polish"), &[]), RulesError::UnknownVariant { name, .. } if name == "polish"));
    assert!(matches!(rules_error(None, &["foo=1"]), RulesError::UnknownOption { key, .. } if key == "foo"));
    assert!(matches!(rules_error(None, &["rejump=twice"]), RulesError::BadValue { value, .. } if value == "twice"));
    assert!(matches!(rules_error(None, &["rejump"]), RulesError::Malformed { text } if text == "rejump"));
    assert!(matches!(rules_error(None, &["max_plies=-1"]), RulesError::BadValue { key, .. } if key == "max_plies"));
    assert!(matches!(
        rules_error(Some("dagaz"), &["rejump=free"]),
        RulesError::BadValue { key, reason, .. } if key == "rejump" && reason.contains("end_of_move")
    ));
}

#[test]
fn rules_describe_themselves_completely() {
    for variant in zero_games::bashni::VARIANTS {
        let rules = Rules::parse(Some(variant), &["max_plies=120".to_string()]).unwrap();
        assert_eq!(Rules::parse(None, &rules.describe()), Ok(rules), "{variant}");
    }
    let ludii = Rules::parse(Some("ludii"), &[]).unwrap();
    let ludii_backward = Rules::parse(Some("ludii"), &["men_capture_backward=true".into()]).unwrap();
    assert!(ludii_backward.men_capture_backward, "options apply after the variant");
    assert!(!ludii.men_capture_backward);
}

#[test]
fn a_pdn_fen_reads_as_single_pieces() {
    let rules = Rules::default();
    let start = Bashni::start(&rules).position();
    // pydraughts' Russian start (algebraic), PDN's numbered squares with ranges, and quoted as a FEN tag holds it.
    for fen in [
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "W:W21-32:B1-12",
        "\"W:B1-12:W21-32.\"",
    ] {
        assert_eq!(Bashni::from_position(&rules, fen).unwrap().position(), start, "{fen}");
    }
    let kings = Bashni::from_position(&rules, "B:WKb8,c3:B5,Kg1").unwrap();
    assert_eq!(kings.position(), "b g1:B c3:w a7:b b8:W");
    let cases: &[(&str, &str, &str)] = &[
        ("W:Wz9:B1", "Wz9", "not a square"),
        ("W:W21:B21", "B21", "twice"),
        ("W:W8-5", "W8-5", "backwards"),
        ("W:W30-40", "W30-40", "not a square number"),
        ("W:X1", "X1", "expected W or B"),
        ("W:W1", "W1", "crowned"),
        ("W:W13-25", "W13-25", "more than 12"),
    ];
    for &(text, token, why) in cases {
        let (got_token, reason) = position_error(text);
        assert_eq!(got_token, token, "{text:?}");
        assert!(reason.contains(why), "{text:?}: {reason}");
    }
}

const FUZZ_CASES: u32 = 2000;

fn check_position_text(text: &str) {
    if let Ok(game) = Bashni::from_position(&Rules::default(), text) {
        let back = Bashni::from_position(&Rules::default(), &game.position()).expect("own output parses");
        assert_eq!(back.position(), game.position());
        let _ = game.render();
        let _ = game.outcome();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: FUZZ_CASES, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_positions_arbitrary(text in any::<String>()) {
        check_position_text(&text);
    }

    #[test]
    fn fuzz_pdn_fens(text in "[WB]:[WBX]K?[a-h0-9]{0,2}(,K?[a-h0-9]{1,2}(-[0-9]{1,2})?){0,6}(:[WB][a-h0-9,K-]{0,12})?") {
        check_position_text(&text);
    }

    #[test]
    fn fuzz_positions_near_miss(text in "(start|[wbx]?)( [a-i][0-9]?[:x]?[wbWBq]{0,4}){0,8} ?") {
        check_position_text(&text);
    }

    #[test]
    fn fuzz_moves(text in "[a-i][0-9]([-:xX ]?[a-i][0-9]){0,4}|\\PC{0,12}") {
        let g = Bashni::from_position(&Rules::default(), "w c3:w d4:b f6:bb h8:b a1:W e3:w").unwrap();
        if let Ok(mv) = g.parse_move(&text) {
            prop_assert_eq!(g.parse_move(&g.format_move(&mv)), Ok(mv));
        }
        let _ = Bashni::start(&Rules::default()).parse_move(&text);
    }

    #[test]
    fn fuzz_rules(variant in proptest::option::of("[a-z_-]{0,12}"), options in proptest::collection::vec("[a-z_]{0,20}=?[a-z0-9_-]{0,8}|\\PC{0,10}", 0..4)) {
        if let Ok(rules) = Rules::parse(variant.as_deref(), &options) {
            prop_assert_eq!(Rules::parse(None, &rules.describe()), Ok(rules));
        }
    }
}
