//! Notation: positions (`w c1:Bwww e5:wbbbb h8:b`, or a PDN FEN of single pieces `W:Wc3,Kd2:B21`), moves
//! (`c3-d4`, `c3:e5:c7`) and the text board.

use super::board::{Board, Piece, Tower};
use super::geometry::{CROWN_RANK, Square, SquareError, direction_between};
use super::movegen::MAX_JUMPS;
use super::state::{Bashni, Move};
use crate::{NotationError, Side};

/// Most pieces of one colour on the board.
const PIECES_PER_COLOUR: usize = 12;

/// Parses a position: the side to move (`w`/`b`), then `square:stack` tokens, stacks top first. `start` is
/// the initial position. A draughts FEN as PDN writes it (`W:Wa1,c1,Ke3:B21,22`, below) is read too.
pub(crate) fn parse_position(text: &str) -> Result<(Board, usize), NotationError> {
    if text.trim() == "start" {
        return Ok((Board::initial(), 0));
    }
    if let Some(fen) = pdn_fen(text) {
        return parse_pdn_fen(fen);
    }
    let mut tokens = text.split_whitespace();
    let side = match tokens.next() {
        Some("w") => 0,
        Some("b") => 1,
        Some(other) => {
            return Err(NotationError::position(
                other,
                "expected the side to move, w or b, first",
            ));
        }
        None => {
            return Err(NotationError::position(
                text,
                "empty: expected the side to move, w or b, first",
            ));
        }
    };
    let mut board = Board::empty();
    let mut counts = [0usize; 2];
    for token in tokens {
        let error = |reason: String| NotationError::position(token, reason);
        let (square, stack) = token
            .split_once(':')
            .ok_or_else(|| error("expected square:stack".into()))?;
        let square = Square::parse(square).map_err(|reason| error(format!("{square:?} is {reason}")))?;
        if !board.towers[square.index()].is_empty() {
            return Err(error(format!("square {square} is given twice")));
        }
        if stack.is_empty() {
            return Err(error("empty stack: a tower has at least one piece".into()));
        }
        let mut pieces = Vec::with_capacity(stack.len());
        for letter in stack.chars() {
            let piece = Piece::from_letter(letter).ok_or_else(|| {
                error(format!(
                    "bad piece letter {letter:?}: expected w, b (men) or W, B (kings)"
                ))
            })?;
            counts[piece.colour.index()] += 1;
            if counts[piece.colour.index()] > PIECES_PER_COLOUR {
                let colour = if piece.colour == Side::First { "white" } else { "black" };
                return Err(error(format!(
                    "more than {PIECES_PER_COLOUR} {colour} pieces on the board"
                )));
            }
            pieces.push(piece);
        }
        let commander = pieces[0];
        if !commander.king && CROWN_RANK[commander.colour.index()] & (1 << square.index()) != 0 {
            return Err(error(format!(
                "a man commands the tower on {square}, where it would have been crowned (write {} for a king)",
                commander.letter().to_ascii_uppercase()
            )));
        }
        board.place(square.index(), Tower::from_pieces(&pieces));
    }
    Ok((board, side))
}

/// The text as a PDN FEN (`W:` or `B:` first, after any quotes), if it is one.
fn pdn_fen(text: &str) -> Option<&str> {
    let fen = text.trim().trim_matches('"').trim_end_matches('.');
    (fen.starts_with("W:") || fen.starts_with("B:")).then_some(fen)
}

/// A draughts FEN as PDN and pydraughts write it: the side to move (`W`/`B`), then each colour's pieces,
/// `:W` and `:B` followed by comma-separated squares (algebraic `c3` or PDN numbers `22`, a `K` before a king,
/// `5-8` for a range of numbered squares). It has no towers: each piece stands alone on its square.
fn parse_pdn_fen(fen: &str) -> Result<(Board, usize), NotationError> {
    let mut sections = fen.split(':');
    let side = match sections.next() {
        Some("W") => 0,
        Some(_) => 1,
        None => unreachable!("split yields at least one section"),
    };
    let mut board = Board::empty();
    let mut counts = [0usize; 2];
    for section in sections {
        let error = |reason: String| NotationError::position(section, reason);
        let (colour, list) = match section.split_at_checked(1) {
            Some(("W", list)) => (Side::First, list),
            Some(("B", list)) => (Side::Second, list),
            _ => return Err(error("expected W or B and that colour's squares".into())),
        };
        for item in list.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let (king, squares) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            for square in pdn_squares(squares).map_err(|reason| error(format!("{item:?}: {reason}")))? {
                if !board.towers[square.index()].is_empty() {
                    return Err(error(format!("square {square} is given twice")));
                }
                counts[colour.index()] += 1;
                if counts[colour.index()] > PIECES_PER_COLOUR {
                    return Err(error(format!("more than {PIECES_PER_COLOUR} pieces of one colour")));
                }
                if !king && CROWN_RANK[colour.index()] & (1 << square.index()) != 0 {
                    return Err(error(format!("a man on {square}, where it would have been crowned")));
                }
                board.place(square.index(), Tower::single(Piece { colour, king }));
            }
        }
    }
    Ok((board, side))
}

/// One square (`c3`, `22`) or a range of numbered ones (`5-8`).
fn pdn_squares(text: &str) -> Result<Vec<Square>, SquareError> {
    let Some((first, last)) = text.split_once('-') else {
        return Ok(vec![Square::parse(text)?]);
    };
    let number = |n: &str| {
        n.parse::<usize>()
            .ok()
            .filter(|n| (1..=32).contains(n))
            .ok_or_else(|| SquareError::RangeEnd(n.to_string()))
    };
    let (first, last) = (number(first)?, number(last)?);
    if first > last {
        return Err(SquareError::Backwards(first, last));
    }
    (first..=last).map(|n| Square::parse(&n.to_string())).collect()
}

/// The position in notation: side to move, then the occupied squares in index order.
pub(crate) fn format_position(game: &Bashni) -> String {
    let mut text = String::from(if game.side == 0 { "w" } else { "b" });
    for square in Square::all() {
        let tower = game.board.towers[square.index()];
        if !tower.is_empty() {
            text.push(' ');
            text.push_str(&square.to_string());
            text.push(':');
            text.extend(tower.pieces().map(Piece::letter));
        }
    }
    text
}

/// The squares of a move as written, and whether it is written as a capture.
fn parse_move_squares(text: &str) -> Result<(Vec<Square>, bool), NotationError> {
    let trimmed = text.trim();
    let has_quiet = trimmed.contains('-');
    let has_capture = trimmed.contains([':', 'x', 'X']);
    if has_quiet && has_capture {
        return Err(NotationError::bad_move(
            text,
            "mixes '-' (quiet move) with ':' or 'x' (capture)",
        ));
    }
    if !has_quiet && !has_capture {
        return Err(NotationError::bad_move(
            text,
            "expected from-to (c3-d4) or a capture c3:e5:c7",
        ));
    }
    let parts: Vec<&str> = if has_quiet {
        trimmed.split('-').collect()
    } else {
        trimmed.split([':', 'x', 'X']).collect()
    };
    if has_quiet && parts.len() != 2 {
        return Err(NotationError::bad_move(
            text,
            "a quiet move has exactly two squares, from-to",
        ));
    }
    if parts.len() > MAX_JUMPS + 1 {
        return Err(NotationError::bad_move(text, format!("more than {MAX_JUMPS} jumps")));
    }
    let squares = parts
        .iter()
        .map(|part| {
            Square::parse(part).map_err(|reason| NotationError::bad_move(text, format!("{part:?} is {reason}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // A capture may leave out squares it passes (PDN writes `22x15` or `c3:g7` for a multi-jump): its squares
    // are matched against the legal captures by `parse_move`.
    for pair in squares.windows(2).filter(|_| has_quiet) {
        if direction_between(pair[0].index(), pair[1].index()).is_none() {
            return Err(NotationError::bad_move(
                text,
                format!("{} and {} are not on one diagonal", pair[0], pair[1]),
            ));
        }
    }
    Ok((squares, has_capture))
}

/// Parses a move and finds it among the legal moves.
pub(crate) fn parse_move(game: &Bashni, text: &str) -> Result<Move, NotationError> {
    let (squares, capture) = parse_move_squares(text)?;
    let stops: Vec<u8> = squares[1..].iter().map(|s| s.index() as u8).collect();
    let wanted = if capture {
        Move::capture(squares[0].index(), &stops)
    } else {
        Move::quiet(squares[0].index(), stops[0] as usize)
    };
    let mut legal = Vec::new();
    game.legal_moves_into(&mut legal);
    if legal.contains(&wanted) {
        return Ok(wanted);
    }
    if capture {
        let matching: Vec<&Move> = legal.iter().filter(|mv| capture_passes(mv, &squares)).collect();
        match matching.as_slice() {
            [one] => return Ok(**one),
            [] => {}
            several => {
                let listed: Vec<String> = several.iter().map(|mv| format_move(mv)).collect();
                return Err(NotationError::bad_move(
                    text,
                    format!("ambiguous: it can be {}", listed.join(" or ")),
                ));
            }
        }
    }
    let reason = if legal.is_empty() {
        "not legal: the game is over".to_string()
    } else {
        let listed: Vec<String> = legal.iter().take(12).map(format_move).collect();
        let more = if legal.len() > 12 { ", ..." } else { "" };
        format!("not legal here; legal moves: {}{more}", listed.join(", "))
    };
    Err(NotationError::bad_move(text, reason))
}

/// Whether capture `mv` starts on `squares[0]`, ends on the last of them and lands on the others in order.
fn capture_passes(mv: &Move, squares: &[Square]) -> bool {
    let (Some(first), Some(last)) = (squares.first(), squares.last()) else {
        return false;
    };
    if !mv.is_capture() || mv.from() != *first || mv.to() != *last {
        return false;
    }
    let mut stops = mv.stops();
    squares[1..squares.len() - 1]
        .iter()
        .all(|wanted| stops.any(|s| s == *wanted))
}

pub(crate) fn format_move(mv: &Move) -> String {
    let separator = if mv.is_capture() { ":" } else { "-" };
    let mut text = mv.from().to_string();
    for stop in mv.stops() {
        text.push_str(separator);
        text.push_str(&stop.to_string());
    }
    text
}

/// An 8x8 grid of commanders (a digit after the letter gives the tower's height when above 1), then every
/// tower of height above 1 with its pieces top first, then whose move it is.
pub(crate) fn render(game: &Bashni) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        text.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let cell = match Square::from_file_rank(file, rank) {
                None => "   ".to_string(),
                Some(square) => {
                    let tower = game.board.towers[square.index()];
                    match tower.commander() {
                        None => " . ".to_string(),
                        Some(piece) if tower.height() == 1 => format!(" {} ", piece.letter()),
                        Some(piece) => format!("{}{:<2}", piece.letter(), tower.height()),
                    }
                }
            };
            text.push_str(&cell);
        }
        text.push('\n');
    }
    text.push_str("   a  b  c  d  e  f  g  h\n");
    for square in Square::all() {
        let tower = game.board.towers[square.index()];
        if tower.height() > 1 {
            let stack: String = tower.pieces().map(Piece::letter).collect();
            text.push_str(&format!("{square}: {stack} (top first)\n"));
        }
    }
    let side = if game.side == 0 { "White" } else { "Black" };
    match game.capturing_square() {
        Some(square) => text.push_str(&format!("{side} to move, capturing with {square}\n")),
        None => text.push_str(&format!("{side} to move\n")),
    }
    text
}
