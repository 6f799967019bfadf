//! Tours: perft, composed positions for every collapse rule, immobilisation, the compound variant, the draw
//! rules, bad input and random playouts.

mod common;
use common::mutated;

use proptest::prelude::*;
use zero_games::checks::{CheckRng, check_position, random_playout};
use zero_games::tours::{Tours, ToursRules};
use zero_games::{ActionList, BenchPositions, EndReason, Game, Heuristic, NotationError, Outcome, Side, perft};

fn rules(variant: Option<&str>, options: &[&str]) -> ToursRules {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    Tours::parse_rules(variant, &options).expect("valid rules")
}

fn game(position: &str) -> Tours {
    Tours::from_position(&ToursRules::default(), position).unwrap_or_else(|e| panic!("{e}"))
}

fn compound(position: &str) -> Tours {
    Tours::from_position(&rules(Some("compound"), &[]), position).unwrap_or_else(|e| panic!("{e}"))
}

fn after(mut g: Tours, moves: &[&str]) -> Tours {
    for text in moves {
        let mv = g
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
        g.play(&mv);
    }
    g
}

fn refused(g: &Tours, text: &str, why: &str) {
    match g.parse_move(text) {
        Err(e @ NotationError::Move { .. }) => assert!(e.to_string().contains(why), "{text}: {e}"),
        other => panic!("{text} should be refused ({why}), got {other:?}"),
    }
}

#[test]
fn perft_from_the_start() {
    let start = Tours::start(&Tours::without_draw_rules(&ToursRules::default()));
    assert_eq!(
        start.position(),
        "w a1:w b1:w c1:w d1:w e1:w a2:w b2:w c2:w d2:w a3:w b3:w c3:w a4:w b4:w h4:b \
         a5:w g5:b h5:b f6:b g6:b h6:b e7:b f7:b g7:b h7:b d8:b e8:b f8:b g8:b h8:b"
    );
    assert_eq!(perft(&start, 1), 134);
    assert_eq!(perft(&start, 2), 134 * 134);
    assert_eq!(start.pawns(Side::First), 15);
    assert_eq!(start.pawns(Side::Second), 15);
}

/// Regression numbers from this implementation beyond the two known ones (no outside reference exists).
#[test]
fn perft_regression_numbers() {
    let r = Tours::without_draw_rules(&ToursRules::default());
    assert_eq!(perft(&Tours::start(&r), 3), 1_553_956);
    let mid = Tours::from_position(&r, Tours::BENCH_POSITIONS[1].0).unwrap();
    assert_eq!([1, 2, 3].map(|d| perft(&mid, d)), [34, 2720, 85690]);
    let compound = Tours::start(&Tours::without_draw_rules(&rules(Some("compound"), &[])));
    assert_eq!([1, 2].map(|d| perft(&compound, d)), [606, 364_568]);
}

#[test]
fn collapse_spreads_and_captures_the_top_pawn_at_distance_height() {
    let g = after(game("w a1:www d1:bb h8:b"), &["Ca1:e"]);
    assert_eq!(g.position(), "b a1:w b1:w c1:w d1:b h8:b");
    // Without an enemy right beyond the last pawn, nothing is taken.
    let g = after(game("w a1:www e1:b h8:b"), &["Ca1:e"]);
    assert_eq!(g.position(), "b a1:w b1:w c1:w e1:b h8:b");
    // The last lone enemy pawn taken: Black cannot move and loses.
    let g = after(game("w a1:www d1:b"), &["Ca1:e"]);
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, EndReason::NoLegalMove)));
    assert_eq!(g.plies_without_capture(), 0);
}

#[test]
fn collapse_blocked_by_muret_enemy_and_edge() {
    let g = game("w a1:www b1:ww h8:b");
    refused(&g, "Ca1:e", "muret or tower");
    let g = game("w a1:www c1:b h8:b");
    refused(&g, "Ca1:e", "enemy");
    let g = game("w g1:www h8:b");
    refused(&g, "Cg1:e", "leaves the board");
    refused(&g, "Cg1:s", "leaves the board");
    let g = game("w e4:wwww g6:b");
    // ne is blocked by the black pawn at g6, every other direction is open.
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
    assert_eq!(names.len(), 7, "{names:?}");
    assert!(!names.contains(&"Ce4:ne".to_string()));
}

#[test]
fn collapse_onto_own_pawns_builds_murets() {
    let g = after(game("w a1:www b1:w h8:bb"), &["Ca1:e"]);
    assert_eq!(g.position(), "b a1:w b1:ww c1:w h8:bb");
    assert_eq!((g.height(1), g.owner(1)), (2, Some(Side::First)));
    // The muret may collapse onto an empty square or a lone own pawn, never onto a muret.
    let g = after(g, &["Ch8:s"]);
    for ok in ["Cb1:n", "Cb1:e", "Cb1:w"] {
        assert!(g.parse_move(ok).is_ok(), "{ok}");
    }
    // A muret spread onto a lone own pawn makes a new muret.
    assert_eq!(after(g, &["Cb1:e"]).position(), "b a1:w b1:w c1:ww h7:b h8:b");
}

#[test]
fn form_rules() {
    let g = game("w a1:w a2:w a3:w b1:ww h8:b");
    for ok in ["Fa1-a3", "Fa3-a1", "Fa1-a2", "Fa2-a3", "Fa2-a1"] {
        assert!(g.parse_move(ok).is_ok(), "{ok}");
    }
    refused(&g, "Fa1-b1", "lone pawn");
    refused(&g, "Fa1-b3", "one line");
    refused(&g, "Fa1-a1", "at least 2");
    refused(&g, "Fa1-a4", "lone pawn");
    let g = after(g, &["Fa3-a1"]);
    assert_eq!(g.position(), "b b1:ww a3:www h8:b");
}

#[test]
fn a_side_without_moves_loses() {
    let g = game("w a1:w c1:w h8:bb");
    assert_eq!(g.outcome(), Some(Outcome::win(Side::Second, EndReason::NoLegalMove)));
    let g = game("b a1:w");
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, EndReason::NoLegalMove)));
    // A tower blocked everywhere is no move either.
    let g = game("w a1:ww b1:b a2:b b2:b h8:b");
    assert_eq!(g.count_moves(), 0);
}

#[test]
fn compound_turns() {
    let r = rules(Some("compound"), &[]);
    assert!(r.compound);
    let g = compound("w a1:w a2:w b1:b b2:b h8:b");
    // Formed on a1 along n, the tower may not go back n, and e, ne are blocked: no legal FORM there.
    refused(&g, "Fa1-a2,Ca1:n", "back along the line");
    refused(&g, "Fa1-a2,Ca1:e", "cannot collapse");
    refused(&g, "Fa1-a2", "compound variant");
    refused(&g, "Ca1:n", "starts with a FORM");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
    assert_eq!(names, ["Fa2-a1,Ca2:n", "Fa2-a1,Ca2:ne"]);
    let mut actions = ActionList::new();
    g.legal_actions(&mut actions);
    assert_eq!(actions.len(), 1, "one FORM action");
    // Mid-turn the position records the pending collapse and re-parses.
    let mut mid = g.clone();
    mid.apply_action(actions[0]);
    assert_eq!(mid.to_move(), Side::First);
    assert_eq!(mid.position(), "w b1:b a2:ww b2:b h8:b >a2:s");
    assert_eq!(mid.pending_collapse(), Some((8, 4)));
    let reparsed = compound(&mid.position());
    assert_eq!(reparsed.hash(), mid.hash());
    refused(&mid, "Ca2:s", "back along the line");
    let done = after(mid, &["Ca2:n"]);
    assert_eq!(done.position(), "b b1:b a2:w b2:b a3:w h8:b");
    assert_eq!(done.ply(), 1);
    // The compound start: a perft through the checks.
    let start = Tours::start(&Tours::without_draw_rules(&r));
    check_position(&start).unwrap();
    assert!(perft(&start, 1) > 134);
    // A pending collapse outside the compound variant, or one that cannot be completed, is refused.
    assert!(Tours::from_position(&ToursRules::default(), "w a2:ww >a2:s").is_err());
    assert!(Tours::from_position(&r, "w a1:ww b1:b a2:b b2:b >a1:n").is_err());
}

#[test]
fn draw_rules() {
    // Two murets shuffling forever: the no-capture rule draws at ply 4 here.
    let r = rules(None, &["no-capture-plies=4"]);
    let mut g = Tours::from_position(&r, "w a1:ww h8:bb").unwrap();
    for text in ["Ca1:n", "Ch8:s", "Fa1-a2", "Fh8-h7"] {
        assert_eq!(g.outcome(), None);
        g = after(g, &[text]);
    }
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    let r = rules(None, &["no-capture-plies=0", "max-plies=3"]);
    let g = after(
        Tours::from_position(&r, "w a1:ww h8:bb").unwrap(),
        &["Ca1:n", "Ch8:s", "Fa1-a2"],
    );
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::PlyLimit)));
    // Defaults and round trip of the rule options.
    let d = ToursRules::default();
    assert_eq!((d.no_capture_plies, d.max_plies, d.compound), (100, 300, false));
    for r in [
        d.clone(),
        rules(Some("compound"), &["max-plies=0"]),
        Tours::without_draw_rules(&d),
    ] {
        assert_eq!(Tours::parse_rules(None, &Tours::describe_rules(&r)).unwrap(), r);
    }
    let err = |v: Option<&str>, o: &str| Tours::parse_rules(v, &[o.to_string()]).unwrap_err().to_string();
    assert!(err(None, "colour=red").contains("colour"));
    assert!(err(None, "compound=maybe").contains("maybe"));
    assert!(err(Some("baldwin"), "max-plies=3").contains("baldwin"));
}

#[test]
fn bad_positions_name_the_token_and_the_reason() {
    let r = ToursRules::default();
    for (text, why) in [
        ("w a1:wb", "two colours"),
        ("w a1:wwwwwwwww", "at most 8"),
        ("w i1:w", "not a square"),
        ("w a9:w", "not a square"),
        ("w a1:x", "w or b per pawn"),
        ("w a1", "square:stack"),
        ("w a1:w a1:w", "given twice"),
        ("x a1:w", "side to move"),
        ("", "empty position"),
        ("w a1:wwwwwwww b1:wwwwwwww", "16 white pawns"),
        ("w a1:ww >a1:n", "compound"),
        ("w a1:w >a1", ">square:dir"),
    ] {
        match Tours::from_position(&r, text) {
            Err(e @ NotationError::Position { .. }) => {
                assert!(e.to_string().contains(why), "{text}: {e}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

fn pawns(g: &Tours) -> u32 {
    g.pawns(Side::First) + g.pawns(Side::Second)
}

fn tours_invariant(last: &mut (u32, u32)) -> impl FnMut(&Tours) -> Result<(), String> + '_ {
    move |g: &Tours| {
        let now = pawns(g);
        if g.occupied(Side::First) & g.occupied(Side::Second) != 0 {
            return Err(format!("{}: a stack of two colours", g.position()));
        }
        let (before, ply) = *last;
        if now > before || (g.ply() == ply + 1 && before - now > 1) || (g.ply() == ply && now != before) {
            return Err(format!(
                "{}: {before} pawns at ply {ply}, now {now} at ply {}",
                g.position(),
                g.ply()
            ));
        }
        for s in 0..64 {
            if g.height(s) > 8 || (g.height(s) > 0) != g.owner(s).is_some() {
                return Err(format!("{}: bad stack on square {s}", g.position()));
            }
        }
        *last = (now, g.ply());
        Ok(())
    }
}

fn playouts(rules: &ToursRules, count: u64, seed: u64) -> [u32; 7] {
    let mut reasons = [0; 7];
    for i in 0..count {
        let mut rng = CheckRng::new(seed + i);
        let mut last = (30, 0);
        let end = random_playout(Tours::start(rules), &mut rng, 1000, tours_invariant(&mut last))
            .unwrap_or_else(|e| panic!("{e}"));
        reasons[end.outcome().expect("ended").reason as usize] += 1;
    }
    reasons
}

#[test]
fn random_playouts_keep_the_invariants_default() {
    let reasons = playouts(&rules(None, &["no-capture-plies=30", "max-plies=120"]), 120, 1);
    assert!(
        reasons[EndReason::NoLegalMove as usize] + reasons[EndReason::NoProgress as usize] > 0,
        "{reasons:?}"
    );
}

#[test]
fn random_playouts_keep_the_invariants_compound() {
    playouts(
        &rules(Some("compound"), &["no-capture-plies=30", "max-plies=120"]),
        120,
        500,
    );
}

#[test]
fn random_playouts_with_the_self_play_draw_rules() {
    playouts(&ToursRules::default(), 10, 900);
    playouts(&rules(Some("compound"), &[]), 10, 950);
}

const VALID_POSITIONS: &[&str] = &[
    "w a1:www d1:bb h8:b",
    "w b1:b a2:ww b2:b h8:b >a2:s",
    "b a1:w b1:ww c1:w h8:bb",
];
const POSITION_CHARS: &[char] = &[
    'w', 'b', 'a', 'h', 'i', ':', '>', ' ', '0', '1', '8', '9', 'n', 's', 'e',
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_positions_never_panic(text in mutated(VALID_POSITIONS, POSITION_CHARS)) {
        for r in [ToursRules::default(), rules(Some("compound"), &[])] {
            if let Ok(g) = Tours::from_position(&r, &text) {
                let again = Tours::from_position(&r, &g.position()).unwrap();
                prop_assert_eq!(again.position(), g.position());
                let _ = g.outcome();
            }
        }
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,60}") {
        let _ = Tours::from_position(&ToursRules::default(), &text);
        let _ = Tours::from_position(&rules(Some("compound"), &[]), &text);
    }

    #[test]
    fn near_miss_positions_never_panic(text in "[wbx]( [a-i][0-9]:[wbx]{0,9}){0,12}( >[a-h][1-8]:[nesw]{1,2})?") {
        for r in [ToursRules::default(), rules(Some("compound"), &[])] {
            if let Ok(g) = Tours::from_position(&r, &text) {
                let again = Tours::from_position(&r, &g.position()).unwrap();
                prop_assert_eq!(again.position(), g.position());
                prop_assert_eq!(again.hash(), g.recompute_hash());
                let _ = g.outcome();
            }
        }
    }

    #[test]
    fn move_parser_never_panics(text in "[FCfc]?[a-i][0-9][\\-:]?[a-i]?[nesw0-9]{0,2}(,[FCfc][a-i][0-9]:[nesw]{0,2})?|\\PC{0,12}") {
        let _ = Tours::start(&ToursRules::default()).parse_move(&text);
        let _ = Tours::start(&rules(Some("compound"), &[])).parse_move(&text);
        let _ = game("w a1:www b1:w c1:b h8:bb").parse_move(&text);
    }

    #[test]
    fn option_parser_never_panics(key in "[a-z\\-]{0,20}", value in "\\PC{0,8}") {
        let _ = Tours::parse_rules(None, &[format!("{key}={value}")]);
    }
}

#[test]
fn the_score_is_the_pawn_difference_over_fifteen_for_the_side_to_move() {
    let start = Tours::start(&rules(None, &[]));
    assert_eq!(start.score(), 0.0);
    // White 4 pawns against Black's 1, and then Black to move after White takes nothing.
    let g = game("w a1:www c3:w h8:b");
    assert_eq!(g.score(), 3.0 / 15.0);
    let g = after(g, &["Ca1:e"]);
    assert_eq!((g.to_move(), g.score()), (Side::Second, -3.0 / 15.0));
    // A capture changes the count by one for the capturer.
    let g = after(game("w a1:www d1:bb h8:b"), &["Ca1:e"]);
    assert_eq!((g.to_move(), g.score()), (Side::Second, -1.0 / 15.0));
}

/// `Heuristic::captures` lists exactly the legal actions after which the other side has a pawn fewer (none at the
/// start of a compound turn, whose capture is its second action); returns how many it listed.
fn captures_match_the_pawns_taken(g: &Tours) -> Result<usize, String> {
    let mut listed = ActionList::new();
    g.captures(&mut listed);
    let mut legal = ActionList::new();
    g.legal_actions(&mut legal);
    let enemy = g.to_move().other();
    let takes = |&a: &zero_games::Action| {
        let mut next = g.clone();
        next.apply_action(a);
        next.pawns(enemy) < g.pawns(enemy)
    };
    let mut expected: Vec<_> = legal.iter().copied().filter(takes).collect();
    if g.rules().compound && g.pending_collapse().is_none() {
        expected.clear();
    }
    let mut got = listed.as_slice().to_vec();
    got.sort_unstable();
    expected.sort_unstable();
    if got != expected {
        return Err(format!(
            "{}: captures {got:?}, the legal actions that take {expected:?}",
            g.position()
        ));
    }
    Ok(got.len())
}

#[test]
fn captures_are_the_actions_that_take_a_pawn() {
    for (variant, seed) in [(None, 3000), (Some("compound"), 4000)] {
        let rules = rules(variant, &["no-capture-plies=40", "max-plies=200"]);
        let mut listed = 0;
        for i in 0..40 {
            let mut rng = CheckRng::new(seed + i);
            random_playout(Tours::start(&rules), &mut rng, 1000, |g| {
                listed += captures_match_the_pawns_taken(g)?;
                Ok::<(), String>(())
            })
            .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
        }
        assert!(
            listed > 100,
            "{variant:?}: only {listed} captures listed in 40 playouts"
        );
    }
}
