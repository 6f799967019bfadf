//! Tours notation: rule options, positions, moves and the text board.

use super::tables::{MAX_HEIGHT, NEXT, NONE, SQUARES};
use super::{PAWNS_PER_SIDE, Tours, ToursMove, ToursRules};
use crate::grid::{DIR_NAMES, dir_of, parse_dir};
use crate::{Game, NotationError, RulesError, Side, parse_bool, parse_count, parse_options};

/// The name of square `s` (`a1`..`h8`).
pub fn square_name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

fn parse_square(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((f - b'a') + 8 * (r - b'1')),
        _ => None,
    }
}

pub(super) fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<ToursRules, RulesError> {
    let mut rules = ToursRules::default();
    match variant {
        None | Some("default") => {}
        Some("compound") => rules.compound = true,
        Some(other) => {
            return Err(RulesError::UnknownVariant {
                game: Tours::NAME,
                name: other.to_string(),
                known: "default, compound".to_string(),
            });
        }
    }
    for (key, value) in parse_options(options)? {
        match key.as_str() {
            "compound" => rules.compound = parse_bool(&key, &value)?,
            "no_capture_plies" => rules.no_capture_plies = parse_count(&key, &value)?,
            "max_plies" => rules.max_plies = parse_count(&key, &value)?,
            _ => {
                return Err(RulesError::UnknownOption {
                    game: Tours::NAME,
                    key,
                    known: "compound, no_capture_plies, max_plies".to_string(),
                });
            }
        }
    }
    Ok(rules)
}

pub(super) fn parse_position(rules: &ToursRules, text: &str) -> Result<Tours, NotationError> {
    let text = text.trim();
    if text == "start" {
        return Ok(Tours::start(rules));
    }
    let mut tokens = text.split_whitespace();
    let side = match tokens.next() {
        Some("w") => Side::First,
        Some("b") => Side::Second,
        Some(other) => {
            return Err(NotationError::position(other, "side to move must be w or b"));
        }
        None => {
            return Err(NotationError::position(
                text,
                "empty position: expected the side to move, w or b",
            ));
        }
    };
    let mut game = Tours::empty(rules, side);
    let mut pending = None;
    for token in tokens {
        if pending.is_some() {
            return Err(NotationError::position(
                token,
                "nothing may follow the pending collapse",
            ));
        }
        if let Some(rest) = token.strip_prefix('>') {
            let (square, dir) = rest
                .split_once(':')
                .and_then(|(s, d)| Some((parse_square(s)?, parse_dir(d)?)))
                .ok_or_else(|| {
                    NotationError::position(token, "expected a pending collapse as >square:dir, like >a1:n")
                })?;
            pending = Some((token, square, dir));
            continue;
        }
        let Some((square_text, stack)) = token.split_once(':') else {
            return Err(NotationError::position(token, "expected square:stack, like a1:ww"));
        };
        let square = parse_square(square_text)
            .ok_or_else(|| NotationError::position(token, format!("{square_text:?} is not a square a1..h8")))?;
        let colour = match stack.as_bytes().first() {
            Some(b'w') => 0,
            Some(b'b') => 1,
            _ => {
                return Err(NotationError::position(
                    token,
                    "a stack is written with w or b per pawn, like www",
                ));
            }
        };
        if stack.bytes().any(|b| b != b"wb"[colour]) {
            return Err(if stack.bytes().all(|b| b == b'w' || b == b'b') {
                NotationError::position(token, "a stack of two colours: stacks are one colour")
            } else {
                NotationError::position(token, "a stack is written with w or b per pawn, like www")
            });
        }
        if stack.len() > MAX_HEIGHT {
            return Err(NotationError::position(
                token,
                format!("a stack of {} pawns: at most 8", stack.len()),
            ));
        }
        if game.height[square as usize] != 0 {
            return Err(NotationError::position(
                token,
                format!("square {square_text} given twice"),
            ));
        }
        game.set_square(square as usize, colour, stack.len() as u8);
    }
    for player in [Side::First, Side::Second] {
        if game.pawns(player) > PAWNS_PER_SIDE {
            return Err(NotationError::position(
                text,
                format!(
                    "{} {} pawns: each side has 15",
                    game.pawns(player),
                    Tours::player_name(player)
                ),
            ));
        }
    }
    if let Some((token, square, dir)) = pending {
        if !rules.compound {
            return Err(NotationError::position(
                token,
                "a pending collapse exists only in the compound variant",
            ));
        }
        let height = game.height[square as usize];
        if game.owner(square as usize) != Some(side) || height < 2 {
            return Err(NotationError::position(
                token,
                "the pending square must hold a tower of the side to move",
            ));
        }
        game.pending = Some((square, dir as u8));
        game.hash ^= super::tables::pending_key(square as usize, dir);
        if !(0..8).any(|c| c != dir && game.collapse_ok(square, c, height)) {
            return Err(NotationError::position(
                token,
                "the pending tower cannot collapse in any allowed direction",
            ));
        }
    }
    Ok(game)
}

pub(super) fn format_position(game: &Tours) -> String {
    let mut out = String::from(if game.side == Side::First { "w" } else { "b" });
    for s in 0..SQUARES {
        if let Some(owner) = game.owner(s) {
            let letter = if owner == Side::First { "w" } else { "b" };
            out.push_str(&format!(
                " {}:{}",
                square_name(s),
                letter.repeat(game.height[s] as usize)
            ));
        }
    }
    if let Some((s, d)) = game.pending {
        out.push_str(&format!(" >{}:{}", square_name(s as usize), DIR_NAMES[d as usize]));
    }
    out
}

pub(super) fn render(game: &Tours) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let s = file + 8 * rank;
            match game.owner(s) {
                Some(Side::First) => out.push_str(&format!(" W{}", game.height[s])),
                Some(Side::Second) => out.push_str(&format!(" B{}", game.height[s])),
                None => out.push_str("  ."),
            }
        }
        out.push('\n');
    }
    out.push_str("    a  b  c  d  e  f  g  h\n");
    out.push_str(&format!(
        "{} to move, ply {}, {} plies without capture{}\n",
        Tours::player_name(game.side),
        game.ply,
        game.plies_without_capture,
        match game.pending {
            Some((s, d)) => format!(
                ", {} must collapse (not {})",
                square_name(s as usize),
                DIR_NAMES[d as usize]
            ),
            None => String::new(),
        }
    ));
    out
}

fn far_end(base: u8, dir: u8, len: u8) -> u8 {
    let mut at = base;
    for _ in 1..len {
        at = NEXT[at as usize][dir as usize];
    }
    at
}

pub(super) fn format_move(mv: &ToursMove) -> String {
    match *mv {
        ToursMove::Form { base, dir, len } => {
            format!(
                "F{}-{}",
                square_name(base as usize),
                square_name(far_end(base, dir, len) as usize)
            )
        }
        ToursMove::Collapse { square, dir } => format!("C{}:{}", square_name(square as usize), DIR_NAMES[dir as usize]),
        ToursMove::Compound {
            base,
            dir,
            len,
            collapse_dir,
        } => format!(
            "{},{}",
            format_move(&ToursMove::Form { base, dir, len }),
            format_move(&ToursMove::Collapse {
                square: base,
                dir: collapse_dir
            })
        ),
    }
}

/// Parses `Fa1-a4` or `Cb4:ne` (the letter in either case) without checking legality; errors name `whole`,
/// the move text this part is of.
fn parse_part(token: &str, whole: &str) -> Result<ToursMove, NotationError> {
    let bad = |reason: &str| NotationError::bad_move(whole, reason);
    let (kind, rest) = match token.chars().next() {
        Some(c @ ('F' | 'f' | 'C' | 'c')) => (c.to_ascii_uppercase(), &token[1..]),
        _ => return Err(bad("a move starts with F (form, Fa1-a4) or C (collapse, Cb4:ne)")),
    };
    let square = |text: &str| parse_square(text).ok_or_else(|| bad(&format!("{text:?} is not a square a1..h8")));
    if kind == 'F' {
        let (base, end) = rest
            .split_once('-')
            .ok_or_else(|| bad("a FORM is written Fbase-end, like Fa1-a4"))?;
        let (base, end) = (square(base)?, square(end)?);
        let (df, dr) = (
            (end % 8) as i32 - (base % 8) as i32,
            (end / 8) as i32 - (base / 8) as i32,
        );
        let len = df.abs().max(dr.abs());
        if len == 0 {
            return Err(bad("a FORM stacks at least 2 pawns: base and end differ"));
        }
        let dir = (df.abs() == dr.abs() || df == 0 || dr == 0)
            .then(|| dir_of(df.signum(), dr.signum()))
            .flatten()
            .ok_or_else(|| bad("base and end are not on one line"))?;
        Ok(ToursMove::Form {
            base,
            dir: dir as u8,
            len: len as u8 + 1,
        })
    } else {
        let (at, dir) = rest
            .split_once(':')
            .ok_or_else(|| bad("a COLLAPSE is written Csquare:dir, like Cb4:ne"))?;
        let at = square(at)?;
        let dir =
            parse_dir(dir).ok_or_else(|| bad(&format!("{dir:?} is not a direction (n, ne, e, se, s, sw, w, nw)")))?;
        Ok(ToursMove::Collapse {
            square: at,
            dir: dir as u8,
        })
    }
}

pub(super) fn parse_move(game: &Tours, text: &str) -> Result<ToursMove, NotationError> {
    let token = text.trim();
    let bad = |reason: String| NotationError::bad_move(token, reason);
    let mv = match token.split_once(',') {
        Some((form, collapse)) => match (parse_part(form, token)?, parse_part(collapse, token)?) {
            (
                ToursMove::Form { base, dir, len },
                ToursMove::Collapse {
                    square,
                    dir: collapse_dir,
                },
            ) => {
                if square != base {
                    return Err(bad(
                        "the compound turn collapses the tower just formed, on its base".to_string()
                    ));
                }
                ToursMove::Compound {
                    base,
                    dir,
                    len,
                    collapse_dir,
                }
            }
            _ => {
                return Err(bad(
                    "a compound turn is a FORM then a COLLAPSE, like Fa1-a4,Ca1:ne".to_string()
                ));
            }
        },
        None => parse_part(token, token)?,
    };
    if let Some(outcome) = game.outcome() {
        return Err(bad(format!("the game is over ({})", outcome.reason)));
    }
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    if legal.contains(&mv) {
        return Ok(mv);
    }
    Err(bad(why_illegal(game, &mv).to_string()))
}

fn why_illegal(game: &Tours, mv: &ToursMove) -> &'static str {
    let me = game.side.index();
    let lone_run = |base: u8, dir: u8, len: u8| {
        let mut at = base;
        for i in 0..len {
            if i > 0 {
                at = NEXT[at as usize][dir as usize];
            }
            if at == NONE || game.lone[me] >> at & 1 == 0 {
                return false;
            }
        }
        true
    };
    match *mv {
        ToursMove::Form { .. } | ToursMove::Compound { .. } if game.pending.is_some() => {
            "the tower just formed must collapse first"
        }
        ToursMove::Form { .. } if game.rules.compound => {
            "in the compound variant a FORM is followed by the COLLAPSE of its tower, like Fa1-a4,Ca1:ne"
        }
        ToursMove::Compound { .. } if !game.rules.compound => "compound turns exist only in the compound variant",
        ToursMove::Form { base, dir, len } | ToursMove::Compound { base, dir, len, .. }
            if !lone_run(base, dir, len) =>
        {
            "every square from base to end must hold a lone pawn of the side to move"
        }
        ToursMove::Compound { dir, collapse_dir, .. } if dir == collapse_dir => {
            "the tower may not collapse back along the line it was formed on"
        }
        ToursMove::Compound { .. } => "the tower cannot collapse that way (edge, enemy, or own stack in the path)",
        ToursMove::Collapse { square, .. } if game.pending.is_some_and(|(s, _)| s != square) => {
            "the tower just formed must collapse"
        }
        ToursMove::Collapse { dir, .. } if game.pending.is_some_and(|(_, d)| d == dir) => {
            "the tower may not collapse back along the line it was formed on"
        }
        ToursMove::Collapse { .. } if game.rules.compound && game.pending.is_none() => {
            "in the compound variant every turn starts with a FORM"
        }
        ToursMove::Collapse { square, .. }
            if game.owner(square as usize) != Some(game.side) || game.height[square as usize] < 2 =>
        {
            "no stack of 2 or more pawns of the side to move there"
        }
        ToursMove::Collapse { .. } => "the path leaves the board or meets an enemy piece or an own muret or tower",
        _ => "not legal here",
    }
}
