//! Positions whose values are known by hand or by theory, the score scale, and the position's own API.

use zero_solver::{HEIGHT, Position, Solver, Value, WIDTH};

/// A game that fills the board without a four: a draw.
const FULL_BOARD_DRAW: &str = "242222246341543663717511153741653355766774";

fn solver() -> Solver {
    Solver::with_table_bits(20).unwrap()
}

fn position(moves: &str) -> Position {
    Position::from_moves(moves).unwrap()
}

#[test]
fn three_in_a_row_with_an_open_end_is_a_win_by_the_next_move() {
    // The first player has columns 1-3 on the bottom row; column 4 completes it.
    let position = position("112233");
    let mut solver = solver();
    assert_eq!(solver.solve(&position), Value::Win { plies: 1 });
    assert_eq!(solver.score(&position), 18);
    assert!(position.is_winning_move(3));
    assert!(!position.is_winning_move(4));
    let values = solver.move_values(&position);
    assert_eq!(values[3], Some(Value::Win { plies: 1 }));
    assert_eq!(solver.best_columns(&position), vec![3]);
}

#[test]
fn two_open_ends_cannot_both_be_blocked() {
    // The first player holds columns 2-4 on the bottom row, open at 1 and 5; the second player blocks one,
    // the first plays the other.
    let position = position("22334");
    let mut solver = solver();
    assert_eq!(solver.solve(&position), Value::Loss { plies: 2 });
    assert_eq!(solver.move_values(&position), [Some(Value::Loss { plies: 2 }); WIDTH]);
    assert_eq!(solver.best_columns(&position), (0..WIDTH).collect::<Vec<_>>());
}

#[test]
fn making_two_open_ends_wins_in_three_plies() {
    let position = position("2233");
    let mut solver = solver();
    assert_eq!(solver.solve(&position), Value::Win { plies: 3 });
    // After column 4 the second player faces two open ends (the other moves take long to solve this early).
    assert_eq!(solver.solve(&self::position("22334")), Value::Loss { plies: 2 });
}

#[test]
fn a_full_board_is_a_draw_with_no_moves() {
    let position = position(FULL_BOARD_DRAW);
    assert!(position.is_full());
    assert_eq!(position.moves_played(), WIDTH * HEIGHT);
    assert_eq!(position.legal_columns().count(), 0);
    let mut solver = solver();
    assert_eq!(solver.solve(&position), Value::Draw);
    assert_eq!(solver.move_values(&position), [None; WIDTH]);
    assert!(solver.best_columns(&position).is_empty());
}

#[test]
fn the_last_cell_of_a_drawn_game_is_a_draw() {
    let last_move = &FULL_BOARD_DRAW[..41];
    let position = position(last_move);
    let mut solver = solver();
    assert_eq!(solver.solve(&position), Value::Draw);
    let values = solver.move_values(&position);
    assert_eq!(values.iter().flatten().count(), 1);
    assert_eq!(values[3], Some(Value::Draw));
}

/// Positions of seeded random games (each move avoiding one that lets the opponent win at once) with their
/// values, as both this solver and the independent `connect-four-solver` crate give them
/// (scripts/connect4-solver-check/, `--sequence`).
const MIDDLE_GAME: [(&str, Value); 8] = [
    ("426532647673", Value::Loss { plies: 10 }),
    ("52676434565535", Value::Win { plies: 23 }),
    ("6351677246776254", Value::Win { plies: 25 }),
    ("741736441662734337", Value::Win { plies: 9 }),
    ("23443527422162717377", Value::Win { plies: 13 }),
    ("1325274171676113456644", Value::Draw),
    ("366472667723256117222573", Value::Win { plies: 11 }),
    ("32127326453455127133326776", Value::Loss { plies: 12 }),
];

#[test]
fn middle_game_positions_have_their_known_values() {
    let mut solver = solver();
    for (moves, expected) in MIDDLE_GAME {
        assert_eq!(solver.solve(&position(moves)), expected, "{moves}");
    }
    // The draw holds by one column only, and the win of 16 stones by one.
    assert_eq!(solver.best_columns(&position("1325274171676113456644")), vec![3]);
    assert_eq!(solver.best_columns(&position("6351677246776254")), vec![3]);
}

#[test]
fn scores_and_values_convert_both_ways() {
    // The empty board's known result: the first player wins with its 21st stone, the 41st of the game.
    assert_eq!(Value::from_score(1, 0), Ok(Value::Win { plies: 41 }));
    assert_eq!(Value::Win { plies: 41 }.score(0), 1);
    for moves_played in 0..=WIDTH * HEIGHT {
        for score in -21..=21 {
            if let Ok(value) = Value::from_score(score, moves_played) {
                assert_eq!(
                    value.score(moves_played),
                    score,
                    "score {score} at {moves_played} stones"
                );
                let plies = match value {
                    Value::Win { plies } => plies % 2 == 1,
                    Value::Loss { plies } => plies % 2 == 0 && plies > 0,
                    Value::Draw => score == 0,
                };
                assert!(plies, "{value:?} from score {score} at {moves_played} stones");
            }
        }
    }
    // A loss by the opponent's next stone, with 40 stones played: its 21st.
    assert_eq!(Value::from_score(-1, 40), Ok(Value::Loss { plies: 2 }));
    assert_eq!(Value::from_score(3, 35), Ok(Value::Win { plies: 3 }));
}

#[test]
fn values_order_from_the_side_to_move_view() {
    let ordered = [
        Value::Loss { plies: 2 },
        Value::Loss { plies: 10 },
        Value::Draw,
        Value::Win { plies: 11 },
        Value::Win { plies: 1 },
    ];
    assert!(ordered.windows(2).all(|pair| pair[0] < pair[1]));
    assert_eq!(Value::Win { plies: 3 }.before_move(), Value::Loss { plies: 4 });
    assert_eq!(Value::Win { plies: 3 }.to_string(), "win in 3 plies");
}

#[test]
fn bitboards_round_trip_and_play_matches_the_move_notation() {
    let mut position = Position::new();
    for column in [3, 3, 2, 4, 0] {
        assert!(position.can_play(column));
        position.play(column).unwrap();
    }
    assert_eq!(position, Position::from_moves("44351").unwrap());
    assert_eq!(position, Position::from_columns(&[3, 3, 2, 4, 0]).unwrap());
    assert_eq!(
        Position::from_bitboards(position.current(), position.mask()),
        Ok(position)
    );
    assert_eq!(position.moves_played(), 5);
    // The second player is to move: its stones are the one in column 4's second row and one in column 5.
    assert_eq!(position.current(), 1 << (3 * 7 + 1) | 1 << (4 * 7));
    assert!(!position.can_play(7));
    assert_eq!(
        position.legal_columns().collect::<Vec<_>>(),
        (0..WIDTH).collect::<Vec<_>>()
    );
}

#[test]
fn the_answers_do_not_depend_on_the_table_size_or_on_earlier_calls() {
    let positions = [
        "741736441662734337",
        "1325274171676113456644",
        "366472667723256117222573",
    ];
    let mut tiny = Solver::with_table_bits(4).unwrap();
    let mut shared = solver();
    for moves in positions {
        let position = position(moves);
        let expected = solver().move_values(&position);
        assert_eq!(tiny.move_values(&position), expected, "{moves}");
        assert_eq!(shared.move_values(&position), expected, "{moves}");
    }
    assert!(shared.nodes() > 0);
    shared.reset();
    assert_eq!(shared.nodes(), 0);
}
