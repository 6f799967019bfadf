//! The worked examples and perft figures of RULES.md, and the seeds' own examples.

use zero_games::bashni::{Bashni, Rules};
use zero_games::{Game, perft, perft_divide};

fn game(position: &str) -> Bashni {
    Bashni::from_position(&Rules::default(), position).expect("a valid position")
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

#[test]
fn worked_example_rejump_not_consecutive() {
    let g = game("w c5:w d4:bb f4:b f6:b d6:b h8:b a1:w");
    assert_eq!(moves_of(&g), sorted(&["c5:e3:g5:e7:c5:e3", "c5:e7:g5:e3:c5"]));
}

#[test]
fn worked_example_king_may_not_jump_straight_back() {
    let g = game("w b2:W d4:bb h8:b a1:w");
    assert_eq!(moves_of(&g), sorted(&["b2:e5", "b2:f6", "b2:g7"]));
}

#[test]
fn worked_example_king_must_land_where_it_continues() {
    let g = game("w a1:W c3:b f4:b h8:b");
    assert_eq!(moves_of(&g), sorted(&["a1:e5:g3", "a1:e5:h2"]));
}

#[test]
fn worked_example_crowned_mid_capture_goes_on_as_king() {
    let g = game("w b6:w c7:b e7:b a1:w h2:b");
    assert_eq!(moves_of(&g), sorted(&["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]));
}

#[test]
fn perft_from_start() {
    let start = Bashni::start(&Rules::default().without_draw_rules());
    let counts: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [7, 49, 302, 1469, 7482]);
}

#[test]
fn perft_divide_sums_to_the_total() {
    let start = Bashni::start(&Rules::default().without_draw_rules());
    let divide = perft_divide(&start, 4);
    assert_eq!(divide.len(), 7);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), perft(&start, 4));
}

#[test]
fn symmetry_one_is_an_involution_that_turns_the_board() {
    use zero_games::bashni::{decode_action, encode_action};
    for a in 0..Bashni::ACTION_SPACE as u16 {
        let turned = Bashni::transform_action(a, 1);
        assert_eq!(Bashni::transform_action(turned, 1), a);
        assert_eq!(Bashni::transform_action(a, 0), a);
        let (from, d, distance) = decode_action(a);
        assert_eq!(encode_action(from, d, distance), a);
        assert_eq!(decode_action(turned), (31 - from, 3 - d, distance));
    }
    let start = Bashni::start(&Rules::default());
    let turned = start.transformed(1);
    // The start is its own image with the colours swapped: only the side to move changes.
    assert_eq!(turned.position(), start.position().replacen("w ", "b ", 1));
    assert_eq!(turned.to_move(), zero_games::Side::Second);
    assert_eq!(turned.transformed(1).hash(), start.hash());
}
