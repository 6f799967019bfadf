//! Bagh Chal: perft, composed end positions, the repetition rules, the draw, bad input and random playouts.

mod common;
use common::mutated;

use proptest::prelude::*;
use zero_games::baghchal::{BaghChal, BaghChalRules, Phase, RepetitionRule};
use zero_games::checks::{CheckRng, check_position, random_playout};
use zero_games::{EndReason, Game, NotationError, Outcome, Side, perft};

fn rules(variant: Option<&str>, options: &[&str]) -> BaghChalRules {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    BaghChal::parse_rules(variant, &options).expect("valid rules")
}

fn game(position: &str) -> BaghChal {
    BaghChal::from_position(&BaghChalRules::default(), position).expect("valid position")
}

fn play_all(game: &mut BaghChal, moves: &[&str]) {
    for text in moves {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.render()));
        game.play(&mv);
    }
}

#[test]
fn perft_from_the_start() {
    let rules = BaghChal::without_draw_rules(&BaghChalRules::default());
    let start = BaghChal::start(&rules);
    assert_eq!(start.position(), "T...T/...../...../...../T...T g 20 0");
    assert_eq!([1, 2, 3].map(|d| perft(&start, d)), [21, 252, 5052]);
}

/// Regression numbers from this implementation (no outside reference exists for these positions).
#[test]
fn perft_mid_game() {
    let rules = BaghChal::without_draw_rules(&BaghChalRules::default());
    let placement = BaghChal::from_position(&rules, "T.G.T/.T.../G...G/.G..T/.G.G. g 13 1").unwrap();
    assert_eq!([1, 2, 3, 4].map(|d| perft(&placement, d)), [15, 186, 2622, 30482]);
    let movement = BaghChal::from_position(&rules, "GGGGT/..T.G/.GGTG/TGGGG/GG.GG g 0 4").unwrap();
    assert_eq!(
        [1, 2, 3, 4, 5].map(|d| perft(&movement, d)),
        [18, 98, 1260, 7032, 76770]
    );
}

#[test]
fn tigers_win_at_the_fifth_capture() {
    let mut g = game("T...T/...../...../G..../T...T t 15 4");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["a1xa3"]);
    assert_eq!(g.goats_captured(), 5);
    assert_eq!(g.outcome(), Some(Outcome::win(Side::Second, EndReason::CaptureTarget)));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn the_score_counts_captured_goats_for_the_tigers() {
    let start = BaghChal::start(&BaghChalRules::default());
    assert_eq!(start.score(), 0.0);
    let mut g = game("T...T/...../...../G..../T...T t 15 4");
    assert_eq!(g.score(), 0.8);
    play_all(&mut g, &["a1xa3"]);
    assert_eq!((g.to_move(), g.score()), (Side::First, -1.0));
    let goats = game("T.G.T/.T.../G...G/.G..T/.G.G. g 13 1");
    assert_eq!(goats.score(), -0.2);
}

#[test]
fn goats_win_by_blocking_every_tiger() {
    let blocked = game("TGGGT/GG.GG/G.G.G/GG.GG/TGGGT t 0 3");
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoLegalMove))
    );
    // One goat short on c1: the a1 tiger jumps b1.
    let open = game("TGGGT/GG.GG/G.G.G/GG.GG/TG.GT t 0 4");
    assert_eq!(open.outcome(), None);
    assert_eq!(open.count_moves(), 2, "a1xc1 and e1xc1");
}

const CYCLE_START: &str = "TGGGT/GGGGG/GG.GG/G...G/TG.GT t 0 4";
const CYCLE: [&str; 4] = ["a1-b2", "c4-c3", "b2-a1", "c3-c4"];

#[test]
fn a_repeated_position_is_illegal_by_default() {
    let mut g = game(CYCLE_START);
    assert_eq!(g.phase(), Phase::Movement);
    play_all(&mut g, &CYCLE[..3]);
    let err = g.parse_move("c3-c4").unwrap_err();
    assert!(err.to_string().contains("repeat"), "{err}");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(!moves.iter().any(|m| g.format_move(m) == "c3-c4"));
    // Tigers are banned too: the same cycle, goats first.
    let mut g = game("TGGGT/GGGGG/GG.GG/G...G/TG.GT g 0 4");
    play_all(&mut g, &["c4-c3", "a1-b2", "c3-c4"]);
    assert!(g.parse_move("b2-a1").is_err());
}

#[test]
fn goats_lose_on_repetition_variant() {
    let r = rules(Some("goats-lose-on-repetition"), &[]);
    assert_eq!(r.repetition, RepetitionRule::GoatsLose);
    let mut g = BaghChal::from_position(&r, CYCLE_START).unwrap();
    play_all(&mut g, &CYCLE);
    assert_eq!(g.outcome(), Some(Outcome::win(Side::Second, EndReason::RepetitionLoss)));
    // The tigers may still not repeat.
    let mut g = BaghChal::from_position(&r, "TGGGT/GGGGG/GG.GG/G...G/TG.GT g 0 4").unwrap();
    play_all(&mut g, &["c4-c3", "a1-b2", "c3-c4"]);
    assert!(g.parse_move("b2-a1").is_err());
}

#[test]
fn threefold_draw_variant() {
    let r = rules(None, &["threefold-draw=true"]);
    let mut g = BaghChal::from_position(&r, CYCLE_START).unwrap();
    play_all(&mut g, &CYCLE);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.repetitions(), 2);
    play_all(&mut g, &CYCLE[..3]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &CYCLE[3..]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    // Without draw rules, the same cycle goes on.
    let mut g = BaghChal::from_position(&BaghChal::without_draw_rules(&r), CYCLE_START).unwrap();
    for _ in 0..3 {
        play_all(&mut g, &CYCLE);
    }
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_placement_phase_ends_after_twenty_placements_even_after_captures() {
    let mut g = BaghChal::start(&BaghChalRules::default());
    let mut placements = 0;
    let mut moves = Vec::new();
    while g.phase() == Phase::Placement {
        g.legal_moves(&mut moves);
        // Goats place on the first free point; tigers capture whenever they can, twice.
        let mv = if g.to_move() == Side::Second && g.goats_captured() < 2 {
            *moves
                .iter()
                .find(|m| g.format_move(m).contains('x'))
                .unwrap_or(&moves[0])
        } else if g.to_move() == Side::Second {
            *moves
                .iter()
                .find(|m| !g.format_move(m).contains('x'))
                .unwrap_or(&moves[0])
        } else {
            placements += 1;
            moves[0]
        };
        g.play(&mv);
    }
    assert_eq!(placements, 20);
    assert!(g.goats_captured() > 0, "the test wants captures during placement");
    assert_eq!(g.goats_in_hand(), 0);
    assert_eq!(g.goat_points().count_ones() + g.goats_captured(), 20);
    if g.to_move() == Side::Second {
        g.legal_moves(&mut moves);
        let mv = moves[0];
        g.play(&mv);
    }
    g.legal_moves(&mut moves);
    assert!(moves.iter().all(|m| g.format_move(m).contains('-')), "goats now step");
}

#[test]
fn the_ply_cap_draws() {
    let r = rules(None, &["repetition=off"]);
    let mut g = BaghChal::from_position(&r, CYCLE_START).unwrap();
    for _ in 0..62 {
        play_all(&mut g, &CYCLE);
    }
    assert_eq!((g.ply(), g.outcome()), (248, None));
    play_all(&mut g, &CYCLE[..2]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::PlyLimit)));
    let r = rules(None, &["repetition=off", "max-plies=0"]);
    let mut g = BaghChal::from_position(&r, CYCLE_START).unwrap();
    for _ in 0..70 {
        play_all(&mut g, &CYCLE);
    }
    assert_eq!(g.outcome(), None);
}

#[test]
fn rules_round_trip_and_unknown_options_are_refused() {
    for r in [
        BaghChalRules::default(),
        rules(Some("threefold-draw"), &["max-plies=100"]),
        rules(None, &["repetition=goats-lose-on-repetition"]),
    ] {
        let described = BaghChal::describe_rules(&r);
        assert_eq!(BaghChal::parse_rules(None, &described).unwrap(), r);
    }
    let err = |v: Option<&str>, o: &str| BaghChal::parse_rules(v, &[o.to_string()]).unwrap_err().to_string();
    assert!(err(None, "speed=3").contains("speed"));
    assert!(err(None, "max-plies=-1").contains("max_plies"));
    assert!(err(None, "repetition=sometimes").contains("sometimes"));
    assert!(err(Some("fivefold"), "max-plies=1").contains("fivefold"));
    assert!(err(None, "novalue").contains("novalue"));
}

#[test]
fn bad_positions_name_the_token_and_the_reason() {
    let r = BaghChalRules::default();
    let cases = [
        ("TT..T/...../...../...../T...T g 20 0", "5 tigers"),
        ("T...T/...../...../...../T...T g 21 0", "from 0 to 20"),
        ("T...T/GGGGG/GGGGG/GGGGG/TGGGT g 0 0", "= 18"),
        ("T...T/...../...../...../T...T g 20 1", "= 21"),
        ("T...T/GGGGG/GGGGG/GGG../T...T g 0 7", "more than 5"),
        ("T...T/...../...../...../T...T t 20 0", "goats move first"),
        ("T...T/...../...../...../T...T x 20 0", "side to move"),
        ("T...T/...../...../...../T...T g 20", "4 fields"),
        ("T...T/...../....../...../T...T g 20 0", "longer than 5"),
        ("T...T/...../...../T...T g 20 0", "5 ranks"),
        ("T...T/..X../...../...../T...T g 20 0", "'X'"),
        ("T...T/...../...../...../T..T g 20 0", "4 points"),
        ("", "4 fields"),
    ];
    for (text, why) in cases {
        match BaghChal::from_position(&r, text) {
            Err(e @ NotationError::Position { .. }) => {
                assert!(e.to_string().contains(why), "{text}: {e}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Digits stand for empty runs.
    assert_eq!(
        BaghChal::from_position(&r, "T3T/5/5/5/T3T g 20 0").unwrap().position(),
        "T...T/...../...../...../T...T g 20 0"
    );
}

#[test]
fn illegal_moves_say_why() {
    let g = BaghChal::start(&BaghChalRules::default());
    for (text, why) in [
        ("a1", "occupied"),
        ("f1", "not a point"),
        ("a1-b2", "must place"),
        ("c3c4", "expected a placement"),
        ("", "expected a placement"),
    ] {
        let e = g.parse_move(text).unwrap_err();
        assert!(e.to_string().contains(why), "{text}: {e}");
    }
    let g = game("T...T/...../...../G..../T...T t 15 4");
    for (text, why) in [
        ("a1xa5", "occupied"),
        ("a1xb3", "no goat"),
        ("e1-e3", "not joined"),
        ("c3", "tigers do not"),
    ] {
        let e = g.parse_move(text).unwrap_err();
        assert!(e.to_string().contains(why), "{text}: {e}");
    }
}

fn bagh_invariant(g: &BaghChal) -> Result<(), String> {
    if g.tiger_points().count_ones() != 4 {
        return Err(format!("{}: not 4 tigers", g.position()));
    }
    if g.goat_points() & g.tiger_points() != 0 {
        return Err(format!("{}: goat and tiger on one point", g.position()));
    }
    let goats = g.goat_points().count_ones() + g.goats_in_hand() + g.goats_captured();
    if goats != 20 {
        return Err(format!("{}: {goats} goats in all", g.position()));
    }
    Ok(())
}

fn playouts(rules: &BaghChalRules, count: u64, seed: u64) -> [u32; 7] {
    let mut reasons = [0; 7];
    for i in 0..count {
        let mut rng = CheckRng::new(seed + i);
        let end =
            random_playout(BaghChal::start(rules), &mut rng, 1000, bagh_invariant).unwrap_or_else(|e| panic!("{e}"));
        let outcome = end.outcome().expect("ended");
        reasons[outcome.reason as usize] += 1;
    }
    reasons
}

#[test]
fn random_playouts_keep_the_invariants_default() {
    let reasons = playouts(&BaghChalRules::default(), 150, 1);
    assert!(reasons[EndReason::CaptureTarget as usize] > 0, "{reasons:?}");
}

#[test]
fn random_playouts_keep_the_invariants_goats_lose() {
    playouts(&rules(Some("goats-lose-on-repetition"), &[]), 150, 1000);
}

#[test]
fn random_playouts_keep_the_invariants_threefold() {
    playouts(&rules(Some("threefold-draw"), &[]), 150, 2000);
}

#[test]
fn random_playouts_keep_the_invariants_without_repetition_rule() {
    playouts(&rules(None, &["repetition=off", "max-plies=120"]), 100, 3000);
}

/// Random play from the start rarely reaches the movement phase; these games start there, crowded, so that the
/// repetition rules and the ply cap decide some of them.
#[test]
fn random_playouts_in_the_movement_phase_for_every_repetition_rule() {
    let mut seen = std::collections::HashSet::new();
    for (i, repetition) in ["ban", "goats-lose-on-repetition", "threefold-draw", "off"]
        .into_iter()
        .enumerate()
    {
        let r = rules(None, &[&format!("repetition={repetition}"), "max-plies=60"]);
        for start in [
            "TGGGT/GGGGG/G.GGG/GGGGG/TGGGT g 0 0",
            "TGGGT/G.GGG/GGGGG/GGG.G/TGGGT t 0 1",
        ] {
            for seed in 0..40 {
                let mut rng = CheckRng::new(10_000 * i as u64 + seed);
                let start = BaghChal::from_position(&r, start).unwrap();
                let end = random_playout(start, &mut rng, 200, bagh_invariant).unwrap_or_else(|e| panic!("{e}"));
                seen.insert(end.outcome().unwrap().reason);
            }
        }
    }
    for reason in [
        EndReason::RepetitionLoss,
        EndReason::PlyLimit,
        EndReason::CaptureTarget,
        EndReason::NoLegalMove,
    ] {
        assert!(seen.contains(&reason), "{reason} missing from {seen:?}");
    }
}

#[test]
fn positions_along_a_game_check_out_mid_movement() {
    // A movement-phase position with history: symmetries must carry the history.
    let mut g = game(CYCLE_START);
    play_all(&mut g, &CYCLE[..3]);
    check_position(&g).unwrap();
    for sym in 0..8 {
        let image = g.transformed(sym);
        assert_eq!(image.count_moves(), g.count_moves(), "symmetry {sym}");
    }
}

const VALID_POSITIONS: &[&str] = &[
    "T...T/...../...../...../T...T g 20 0",
    "TGGGT/GGGGG/GG.GG/G...G/TG.GT t 0 4",
    "T.G.T/.T.../G...G/.G..T/.G.G. g 13 1",
];
const POSITION_CHARS: &[char] = &['T', 'G', '.', '/', ' ', '0', '1', '2', '5', '6', '9', 'g', 't'];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_positions_never_panic(text in mutated(VALID_POSITIONS, POSITION_CHARS)) {
        if let Ok(g) = BaghChal::from_position(&BaghChalRules::default(), &text) {
            prop_assert!(bagh_invariant(&g).is_ok());
            prop_assert_eq!(BaghChal::from_position(&BaghChalRules::default(), &g.position()).unwrap().position(), g.position());
            let _ = g.outcome();
        }
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,60}") {
        let _ = BaghChal::from_position(&BaghChalRules::default(), &text);
    }

    #[test]
    fn near_miss_positions_never_panic(text in "[TG.1-9/]{20,34} [gtx] [0-9]{1,3} [0-9]{1,2}") {
        if let Ok(g) = BaghChal::from_position(&BaghChalRules::default(), &text) {
            prop_assert!(bagh_invariant(&g).is_ok());
            prop_assert_eq!(BaghChal::from_position(&BaghChalRules::default(), &g.position()).unwrap().position(), g.position());
        }
    }

    #[test]
    fn move_parser_never_panics(text in "[a-f0-6x:\\- ]{0,8}|\\PC{0,10}") {
        let g = game(CYCLE_START);
        let _ = g.parse_move(&text);
        let _ = BaghChal::start(&BaghChalRules::default()).parse_move(&text);
    }

    #[test]
    fn option_parser_never_panics(key in "[a-z\\-]{0,30}", value in "\\PC{0,8}") {
        let _ = BaghChal::parse_rules(None, &[format!("{key}={value}")]);
    }
}
