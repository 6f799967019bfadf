//! Every refusal of untrusted input, once each, with the message naming what was wrong.

use zero_solver::{Position, PositionError, ScoreError, Solver, TableBitsError, Value};

/// The error of a refused input, with its message checked to contain each of `named`.
fn refused<T: std::fmt::Debug, E: std::fmt::Display>(result: Result<T, E>, named: &[&str]) -> E {
    let error = result.expect_err("the input should be refused");
    let message = error.to_string();
    for part in named {
        assert!(message.contains(part), "{message:?} does not name {part:?}");
    }
    error
}

#[test]
fn a_character_that_is_not_a_column_is_refused() {
    let error = refused(Position::from_moves("4x4"), &["move 2", "'x'"]);
    assert_eq!(
        error,
        PositionError::NotAColumn {
            number: 2,
            character: 'x'
        }
    );
    refused(Position::from_moves("440"), &["move 3", "'0'"]);
    refused(Position::from_moves("8"), &["move 1", "'8'"]);
}

#[test]
fn a_move_into_a_full_column_is_refused() {
    let error = refused(Position::from_moves("4444444"), &["move 7", "column 4", "full"]);
    assert_eq!(error, PositionError::ColumnFull { number: 7, column: 3 });
}

#[test]
fn a_move_that_wins_is_refused_since_the_game_would_be_over() {
    let error = refused(Position::from_moves("11223345"), &["move 7", "column 4", "wins"]);
    assert_eq!(error, PositionError::MoveWins { number: 7, column: 3 });
}

#[test]
fn a_column_index_off_the_board_is_refused() {
    let error = refused(Position::from_columns(&[3, 9]), &["move 2", "column index 9"]);
    assert_eq!(error, PositionError::ColumnOffBoard { number: 2, column: 9 });
    refused(
        Position::from_columns(&[0, 0, 0, 0, 0, 0, 0]),
        &["move 7", "column 1", "full"],
    );
}

#[test]
fn play_refuses_what_the_constructors_refuse() {
    let mut position = Position::from_moves("112233").unwrap();
    refused(position.play(7), &["move 7", "column index 7"]);
    refused(position.play(3), &["move 7", "column 4", "wins"]);
    let mut full_column = Position::from_moves("444444").unwrap();
    refused(full_column.play(3), &["move 7", "column 4", "full"]);
    // A refused move leaves the position as it was.
    assert_eq!(position, Position::from_moves("112233").unwrap());
}

#[test]
fn bits_outside_the_board_are_refused() {
    let guard_row = 1 << 6;
    let error = refused(Position::from_bitboards(0, guard_row), &["0x40", "outside"]);
    assert_eq!(error, PositionError::OffBoard { bits: guard_row });
    refused(Position::from_bitboards(0, 1 << 49), &["0x2000000000000"]);
}

#[test]
fn stones_of_the_side_to_move_outside_the_mask_are_refused() {
    let error = refused(Position::from_bitboards(1 << 7, 1), &["0x80", "`mask` lacks"]);
    assert_eq!(error, PositionError::CurrentOutsideMask { bits: 1 << 7 });
}

#[test]
fn a_floating_stone_is_refused() {
    // Column 2 holds stones in rows 1 and 3 (from the bottom, counting from 1) and none in row 2.
    let mask = 1 << 7 | 1 << 9;
    let error = refused(Position::from_bitboards(1 << 7, mask), &["column 2", "row 3"]);
    assert_eq!(error, PositionError::FloatingStone { column: 1, row: 2 });
}

#[test]
fn stone_counts_that_do_not_fit_the_side_to_move_are_refused() {
    // One stone played: the second player is to move and has none, but `current` claims the one stone.
    let error = refused(Position::from_bitboards(1, 1), &["1 stones", "other side 0"]);
    assert_eq!(error, PositionError::StoneCounts { to_move: 1, other: 0 });
}

#[test]
fn a_position_with_four_in_a_row_is_refused() {
    let column_one_four = 0b1111;
    let column_two_three = 0b111 << 7;
    let error = refused(
        Position::from_bitboards(column_two_three, column_one_four | column_two_three),
        &["side that just moved", "four in a row"],
    );
    assert_eq!(error, PositionError::AlreadyWon { side_to_move: false });
    let column_two_four = 0b1111 << 7;
    let error = refused(
        Position::from_bitboards(column_one_four, column_one_four | column_two_four),
        &["side to move", "four in a row"],
    );
    assert_eq!(error, PositionError::AlreadyWon { side_to_move: true });
}

#[test]
fn an_impossible_score_is_refused() {
    let error = refused(Value::from_score(22, 0), &["score 22", "0 stones", "-21 to 21"]);
    assert_eq!(
        error,
        ScoreError {
            score: 22,
            moves_played: 0
        }
    );
    refused(Value::from_score(0, 43), &["43 stones"]);
    refused(Value::from_score(-2, 40), &["score -2", "40 stones"]);
}

#[test]
fn a_table_size_not_offered_is_refused() {
    for bits in [0, 29, u32::MAX] {
        let error = refused(
            Solver::with_table_bits(bits).map(|_| ()),
            &[&format!("2^{bits}"), "1 to 28"],
        );
        assert_eq!(error, TableBitsError { bits });
    }
}
