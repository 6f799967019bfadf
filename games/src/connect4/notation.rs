//! Connect Four notation: the (empty) rule set, positions, moves and the text board.

use super::{CELLS, Connect4, Connect4Move, Connect4Rules, HEIGHT, WIDTH, cell_bit, has_four};
use crate::{Game, NotationError, RulesError, Side, parse_options};

const COLUMNS: &[u8; WIDTH] = b"abcdefg";

/// The letter of column `c` (0 = `a`).
pub(super) fn column_name(c: usize) -> char {
    COLUMNS[c] as char
}

fn disc_char(side: Side) -> char {
    match side {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

pub(super) fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<Connect4Rules, RulesError> {
    match variant {
        None | Some("default") => {}
        Some(other) => {
            return Err(RulesError::UnknownVariant {
                game: Connect4::NAME,
                name: other.to_string(),
                known: "default".to_string(),
            });
        }
    }
    if let Some((key, _)) = parse_options(options)?.into_iter().next() {
        return Err(RulesError::UnknownOption {
            game: Connect4::NAME,
            key,
            known: "none (Connect Four has no rule options)".to_string(),
        });
    }
    Ok(Connect4Rules)
}

pub(super) fn parse_position(rules: &Connect4Rules, text: &str) -> Result<Connect4, NotationError> {
    let text = text.trim();
    if text == "start" {
        return Ok(Connect4::start(rules));
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return parse_sequence(rules, text);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, side] = fields[..] else {
        return Err(NotationError::position(
            text,
            "expected a board (6 rows from the top, x, o or . per cell, separated by /) and the side to move (x or o), \
             or a sequence of columns 1-7",
        ));
    };
    let discs = parse_board(board)?;
    let side = match side {
        "x" => Side::First,
        "o" => Side::Second,
        _ => return Err(NotationError::position(side, "the side to move is x or o")),
    };
    let (x, o) = (discs[0].count_ones(), discs[1].count_ones());
    let due = if x == o { Side::First } else { Side::Second };
    if x != o && x != o + 1 {
        return Err(NotationError::position(
            board,
            format!("x has {x} discs and o {o}: x moves first, so x has as many as o or one more"),
        ));
    }
    if side != due {
        return Err(NotationError::position(
            fields[1],
            format!("with {x} x and {o} o discs it is {}'s turn", Connect4::player_name(due)),
        ));
    }
    let winner = winner_of(board, discs, side)?;
    Ok(Connect4::assemble(discs, side, winner))
}

/// Pons' form: the columns played from the start, numbered 1-7.
fn parse_sequence(rules: &Connect4Rules, text: &str) -> Result<Connect4, NotationError> {
    let mut game = Connect4::start(rules);
    for (i, b) in text.bytes().enumerate() {
        let bad = |reason: String| NotationError::position(text, format!("move {} ({}): {reason}", i + 1, b as char));
        let column = match b {
            b'1'..=b'7' => b - b'1',
            _ => return Err(bad("columns are numbered 1-7".to_string())),
        };
        if let Some(outcome) = game.outcome() {
            return Err(bad(format!("the game is already over ({})", outcome.reason)));
        }
        if game.column_height(column as usize) == HEIGHT {
            return Err(bad(format!("column {} is full", column_name(column as usize))));
        }
        game.play(&Connect4Move(column));
    }
    Ok(game)
}

/// Both players' discs from the board field, checked for shape and gravity.
fn parse_board(board: &str) -> Result<[u64; 2], NotationError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != HEIGHT {
        return Err(NotationError::position(
            board,
            format!("expected {HEIGHT} rows separated by /, found {}", rows.len()),
        ));
    }
    let mut discs = [0u64; 2];
    for (i, row_text) in rows.iter().enumerate() {
        let row = HEIGHT - 1 - i;
        let mut column = 0;
        for ch in row_text.chars() {
            let run = match ch {
                '1'..='7' => ch as usize - '0' as usize,
                'x' | 'o' | '.' => 1,
                _ => {
                    return Err(NotationError::position(
                        *row_text,
                        format!("{ch:?} is not x, o, . or 1-7"),
                    ));
                }
            };
            if column + run > WIDTH {
                return Err(NotationError::position(*row_text, format!("a row has {WIDTH} cells")));
            }
            match ch {
                'x' => discs[0] |= cell_bit(column, row),
                'o' => discs[1] |= cell_bit(column, row),
                _ => {}
            }
            column += run;
        }
        if column != WIDTH {
            return Err(NotationError::position(
                *row_text,
                format!("a row has {WIDTH} cells, not {column}"),
            ));
        }
    }
    let occupied = discs[0] | discs[1];
    for c in 0..WIDTH {
        for row in 1..HEIGHT {
            if occupied & cell_bit(c, row) != 0 && occupied & cell_bit(c, row - 1) == 0 {
                return Err(NotationError::position(
                    board,
                    format!("the disc on {}{} floats above an empty cell", column_name(c), row + 1),
                ));
            }
        }
    }
    Ok(discs)
}

/// The winner of a parsed board whose side to move is `side`: a four is possible only when the last mover made
/// it with their last disc, which then sits on top of its column inside every four they have.
fn winner_of(board: &str, discs: [u64; 2], side: Side) -> Result<Option<Side>, NotationError> {
    let mover = side.other();
    let refused = |reason: String| NotationError::position(board, reason);
    if has_four(discs[side.index()]) {
        return Err(refused(format!(
            "{} has four in a row but {} moved last",
            Connect4::player_name(side),
            Connect4::player_name(mover)
        )));
    }
    let own = discs[mover.index()];
    if !has_four(own) {
        return Ok(None);
    }
    let occupied = discs[0] | discs[1];
    let last_disc_possible = (0..WIDTH).any(|c| {
        let height = (0..HEIGHT).take_while(|&r| occupied & cell_bit(c, r) != 0).count();
        height > 0 && own & cell_bit(c, height - 1) != 0 && !has_four(own & !cell_bit(c, height - 1))
    });
    if last_disc_possible {
        Ok(Some(mover))
    } else {
        Err(refused(format!(
            "{} has a four that no single last disc can have made",
            Connect4::player_name(mover)
        )))
    }
}

pub(super) fn format_position(game: &Connect4) -> String {
    let mut out = String::with_capacity(HEIGHT * (WIDTH + 1) + 2);
    for row in (0..HEIGHT).rev() {
        for c in 0..WIDTH {
            out.push(game.disc_at(c, row).map_or('.', disc_char));
        }
        out.push(if row == 0 { ' ' } else { '/' });
    }
    out.push(disc_char(game.to_move()));
    out
}

pub(super) fn render(game: &Connect4) -> String {
    let mut out = String::new();
    for row in (0..HEIGHT).rev() {
        out.push_str(&format!("{} |", row + 1));
        for c in 0..WIDTH {
            out.push(' ');
            out.push(game.disc_at(c, row).map_or('.', disc_char));
        }
        out.push_str(" |\n");
    }
    out.push_str("   ");
    for c in 0..WIDTH {
        out.push(' ');
        out.push(column_name(c));
    }
    out.push('\n');
    let status = match game.outcome() {
        Some(outcome) => match outcome.winner {
            Some(w) => format!("{} wins ({})", Connect4::player_name(w), outcome.reason),
            None => format!("drawn ({})", outcome.reason),
        },
        None => format!("{} to move", Connect4::player_name(game.to_move())),
    };
    out.push_str(&format!("{status}, ply {} of {CELLS}\n", game.ply()));
    out
}

pub(super) fn parse_move(game: &Connect4, text: &str) -> Result<Connect4Move, NotationError> {
    let token = text.trim();
    let bad = |reason: String| NotationError::bad_move(token, reason);
    let (column, row) = match token.as_bytes() {
        [c @ b'a'..=b'g'] => (c - b'a', None),
        [n @ b'1'..=b'7'] => (n - b'1', None),
        [c @ b'a'..=b'g', r @ b'1'..=b'6'] => (c - b'a', Some((r - b'1') as usize)),
        _ => {
            return Err(bad(
                "expected a column a-g (or 1-7), or the cell its disc lands on (d1)".to_string(),
            ));
        }
    };
    if let Some(outcome) = game.outcome() {
        return Err(bad(format!("the game is over ({})", outcome.reason)));
    }
    let height = game.column_height(column as usize);
    if height == HEIGHT {
        return Err(bad(format!("column {} is full", column_name(column as usize))));
    }
    match row {
        Some(row) if row != height => Err(bad(format!(
            "a disc dropped into column {0} lands on {0}{1}",
            column_name(column as usize),
            height + 1
        ))),
        _ => Ok(Connect4Move(column)),
    }
}
