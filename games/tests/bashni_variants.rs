//! The seeds' own examples, each variant on a composed position, and the draw rules.

use zero_games::bashni::{Bashni, Rules, Square};
use zero_games::{ActionList, EndReason, Game, Outcome, Side};

fn rules(variant: Option<&str>, options: &[&str]) -> Rules {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    Rules::parse(variant, &options).expect("valid rules")
}

fn game_with(rules: &Rules, position: &str) -> Bashni {
    Bashni::from_position(rules, position).expect("a valid position")
}

fn game(position: &str) -> Bashni {
    game_with(&Rules::default(), position)
}

fn moves_of(game: &Bashni) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut listed: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
    listed.sort();
    listed
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn stack(game: &Bashni, square: &str) -> String {
    game.tower(Square::parse(square).expect("a square"))
        .pieces()
        .map(|p| p.letter())
        .collect()
}

fn play(game: &mut Bashni, text: &str) {
    let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    game.play(&mv);
}

// ---- the seeds' examples ----

#[test]
fn a_man_capturing_a_man_makes_a_two_piece_tower() {
    let mut g = game("w c3:w d4:b h8:b");
    assert_eq!(moves_of(&g), ["c3:e5"]);
    play(&mut g, "c3:e5");
    assert_eq!(stack(&g, "e5"), "wb");
    assert_eq!(stack(&g, "d4"), "");
    assert_eq!(g.position(), "b e5:wb h8:b");
}

#[test]
fn a_man_capturing_that_tower_frees_the_prisoner() {
    let mut g = game("b e5:wb f6:b a1:w");
    assert_eq!(moves_of(&g), ["f6:d4"]);
    play(&mut g, "f6xd4");
    assert_eq!(stack(&g, "d4"), "bw");
    assert_eq!(stack(&g, "e5"), "b", "the prisoner is free and commands its square");
}

#[test]
fn a_tower_capturing_a_tower_takes_only_its_top() {
    let mut g = game("b d6:bww e5:ww a1:w");
    play(&mut g, "d6:f4");
    assert_eq!(stack(&g, "f4"), "bwww");
    assert_eq!(stack(&g, "e5"), "w");
}

#[test]
fn crowning_a_tower_crowns_only_its_commander() {
    let mut g = game("w c7:wbB a3:b");
    play(&mut g, "c7-d8");
    assert_eq!(stack(&g, "d8"), "WbB");
}

#[test]
fn a_captured_king_stays_a_king_and_commands_again_as_a_king_when_freed() {
    let mut g = game("w c3:w d4:B h8:b");
    play(&mut g, "c3:e5");
    assert_eq!(stack(&g, "e5"), "wB");
    let mut g = game("b e5:wB f6:b a1:w");
    play(&mut g, "f6:d4");
    assert_eq!(stack(&g, "e5"), "B");
    // The freed king moves as a king: it flies backwards.
    let g = game(&g.position().replacen("w ", "b ", 1));
    assert!(moves_of(&g).contains(&"e5-h8".to_string()), "{:?}", moves_of(&g));
}

// ---- each variant changes move generation where it should ----

#[test]
fn men_capture_backward_only_by_default() {
    let position = "w d4:w c3:b h8:b";
    assert_eq!(moves_of(&game(position)), ["d4:b2"]);
    let forward_only = rules(None, &["men_capture_backward=false"]);
    assert_eq!(moves_of(&game_with(&forward_only, position)), ["d4-c5", "d4-e5"]);
    assert_eq!(
        moves_of(&game_with(&rules(Some("ludii"), &[]), position)),
        ["d4-c5", "d4-e5"]
    );
}

#[test]
fn promotion_stop_ends_the_move_on_the_crowning_square() {
    let position = "w b6:w c7:b e7:b a1:w h2:b";
    let stop = rules(None, &["promotion_mid_capture=stop"]);
    let mut g = game_with(&stop, position);
    assert_eq!(moves_of(&g), ["b6:d8"]);
    play(&mut g, "b6:d8");
    assert_eq!(stack(&g, "d8"), "Wb");
    assert_eq!(g.to_move(), Side::Second);
    assert_eq!(moves_of(&game_with(&rules(Some("ludii"), &[]), position)), ["b6:d8"]);
}

#[test]
fn free_king_landing_allows_every_square_beyond() {
    let position = "w a1:W c3:b f4:b h8:b";
    let free = rules(None, &["king_landing=free"]);
    assert_eq!(
        moves_of(&game_with(&free, position)),
        sorted(&["a1:d4", "a1:e5:g3", "a1:e5:h2", "a1:f6", "a1:g7"])
    );
}

#[test]
fn rejump_once_and_free() {
    let position = "w c5:w d4:bb f4:b f6:b d6:b h8:b a1:w";
    let once = rules(None, &["rejump=once"]);
    assert_eq!(
        moves_of(&game_with(&once, position)),
        sorted(&["c5:e3:g5:e7:c5", "c5:e7:g5:e3:c5"])
    );
    let free = rules(None, &["rejump=free"]);
    assert_eq!(
        moves_of(&game_with(&free, position)),
        sorted(&["c5:e3:c5:e7:g5:e3", "c5:e3:g5:e7:c5:e3", "c5:e7:g5:e3:c5:e3"])
    );
    let king = "w b2:W d4:bb h8:b a1:w";
    assert_eq!(moves_of(&game_with(&once, king)), sorted(&["b2:e5", "b2:f6", "b2:g7"]));
    assert_eq!(
        moves_of(&game_with(&free, king)),
        sorted(&["b2:e5:b2", "b2:e5:c3", "b2:f6:b2", "b2:f6:c3", "b2:g7:b2", "b2:g7:c3"])
    );
}

#[test]
fn turkish_strike_jumped_pieces_block_until_the_move_ends() {
    let position = "w d4:W f2:b b6:b";
    // Immediately transferred, b6 is gone and the king flies back over it; under the Turkish strike it blocks.
    assert_eq!(
        moves_of(&game_with(&rules(None, &["rejump=once"]), position)),
        sorted(&["d4:a7:g1", "d4:g1:a7"])
    );
    let dagaz = rules(Some("dagaz"), &[]);
    assert_eq!(dagaz, rules(None, &["capture_transfer=end_of_move"]));
    assert_eq!(moves_of(&game_with(&dagaz, position)), sorted(&["d4:a7", "d4:g1"]));
}

#[test]
fn turkish_strike_transfers_at_the_end_in_jump_order() {
    let position = "w a1:W c3:B e5:b";
    for (variant, mid_stack) in [(None, ""), (Some("dagaz"), "B")] {
        let rules = rules(variant, &[]);
        let mut g = game_with(&rules, position);
        let mv = g.parse_move("a1:d4:f6").expect("legal");
        let mut actions = ActionList::new();
        g.move_actions(&mv, &mut actions);
        assert_eq!(actions.len(), 2);
        g.apply_action(actions[0]);
        assert_eq!(g.to_move(), Side::First, "still capturing");
        assert_eq!(g.capturing_square(), Square::parse("d4").ok());
        assert_eq!(g.last_jumped(), Square::parse("c3").ok());
        assert_eq!(
            stack(&g, "c3"),
            mid_stack,
            "{variant:?}: the jumped piece stays only under the Turkish strike"
        );
        g.apply_action(actions[1]);
        assert_eq!(g.to_move(), Side::Second);
        assert_eq!(g.capturing_square(), None);
        assert_eq!(stack(&g, "f6"), "WBb", "{variant:?}");
        assert_eq!(g.position(), "b f6:WBb");
    }
}

#[test]
fn optional_capture_adds_the_quiet_moves() {
    let position = "w c3:w d4:b h8:b";
    assert_eq!(moves_of(&game(position)), ["c3:e5"]);
    let optional = rules(Some("optional-capture"), &[]);
    assert_eq!(moves_of(&game_with(&optional, position)), sorted(&["c3:e5", "c3-b4"]));
    assert_eq!(optional, rules(None, &["mandatory_capture=false"]));
}

// ---- draw rules and the end of the game ----

/// Two kings that can never meet: White shuffles a1-b2, Black a7-b8.
const SHUFFLE: [&str; 4] = ["a1-b2", "a7-b8", "b2-a1", "b8-a7"];
const KINGS: &str = "w a1:W a7:B";

fn shuffle_until_over(rules: &Rules, limit: usize) -> (Bashni, usize) {
    let mut g = game_with(rules, KINGS);
    for i in 0..limit {
        if g.outcome().is_some() {
            return (g, i);
        }
        play(&mut g, SHUFFLE[i % 4]);
    }
    (g, limit)
}

#[test]
fn threefold_repetition_draws() {
    let (g, plies) = shuffle_until_over(&Rules::default(), 100);
    assert_eq!(plies, 8);
    assert_eq!(g.repetition_count(), 3);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn thirty_plies_without_progress_draw() {
    let (g, plies) = shuffle_until_over(&rules(None, &["repetition=0"]), 100);
    assert_eq!(plies, 30);
    assert_eq!(g.plies_since_progress(), 30);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    // A man's move resets the count.
    let mut g = game_with(&rules(None, &["repetition=0"]), "w a1:W a7:B h2:w");
    play(&mut g, "a1-b2");
    play(&mut g, "a7-b8");
    assert_eq!(g.plies_since_progress(), 2);
    play(&mut g, "h2-g3");
    assert_eq!(g.plies_since_progress(), 0);
}

#[test]
fn three_hundred_plies_draw() {
    let (g, plies) = shuffle_until_over(&rules(None, &["repetition=0", "no_progress_plies=0"]), 1000);
    assert_eq!(plies, 300);
    assert_eq!(g.ply(), 300);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::PlyLimit)));
    let (g, plies) = shuffle_until_over(&Rules::default().without_draw_rules(), 1000);
    assert_eq!((plies, g.outcome()), (1000, None));
}

#[test]
fn no_legal_move_loses() {
    let blocked = game("w a1:w b2:b c3:b");
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
    let none_left = game("w h8:B");
    assert_eq!(
        none_left.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
    let mut g = game("w c3:w d4:b h8:W");
    play(&mut g, "c3:e5");
    assert_eq!(g.outcome(), Some(Outcome::win(Side::First, EndReason::NoLegalMove)));
}
