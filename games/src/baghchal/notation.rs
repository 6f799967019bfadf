//! Bagh Chal notation: rule options, positions, moves and the text board.

use super::tables::ALL_POINTS;
use super::{BaghChal, BaghChalMove, BaghChalRules, GOATS, RepetitionRule};
use crate::{Game, NotationError, RulesError, Side, parse_bool, parse_count, parse_options};

const VARIANTS: &str = "default, goats-lose-on-repetition, threefold-draw";
const OPTIONS: &str = "repetition (ban, goats-lose-on-repetition, threefold-draw, off), max_plies, \
                       goats_lose_on_repetition, threefold_draw";

/// The name of point `p` (`a1`..`e5`).
pub fn point_name(p: usize) -> String {
    format!("{}{}", (b'a' + (p % 5) as u8) as char, p / 5 + 1)
}

fn parse_point(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Some((f - b'a') + 5 * (r - b'1')),
        _ => None,
    }
}

fn parse_repetition(value: &str) -> Option<RepetitionRule> {
    [
        RepetitionRule::Ban,
        RepetitionRule::GoatsLose,
        RepetitionRule::ThreefoldDraw,
        RepetitionRule::Off,
    ]
    .into_iter()
    .find(|r| r.as_str() == value)
}

pub(super) fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<BaghChalRules, RulesError> {
    let mut rules = BaghChalRules::default();
    match variant {
        None | Some("default") | Some("ban") => {}
        Some("goats-lose-on-repetition") => rules.repetition = RepetitionRule::GoatsLose,
        Some("threefold-draw") => rules.repetition = RepetitionRule::ThreefoldDraw,
        Some(other) => {
            return Err(RulesError::UnknownVariant {
                game: BaghChal::NAME,
                name: other.to_string(),
                known: VARIANTS.to_string(),
            });
        }
    }
    for (key, value) in parse_options(options)? {
        match key.as_str() {
            "repetition" => {
                rules.repetition = parse_repetition(&value).ok_or_else(|| RulesError::BadValue {
                    key: key.clone(),
                    value: value.clone(),
                    reason: "expected ban, goats-lose-on-repetition, threefold-draw or off".to_string(),
                })?
            }
            "max_plies" => rules.max_plies = parse_count(&key, &value)?,
            "goats_lose_on_repetition" | "threefold_draw" => {
                let flagged = if key == "threefold_draw" {
                    RepetitionRule::ThreefoldDraw
                } else {
                    RepetitionRule::GoatsLose
                };
                if parse_bool(&key, &value)? {
                    rules.repetition = flagged;
                } else if rules.repetition == flagged {
                    rules.repetition = RepetitionRule::Ban;
                }
            }
            _ => {
                return Err(RulesError::UnknownOption {
                    game: BaghChal::NAME,
                    key,
                    known: OPTIONS.to_string(),
                });
            }
        }
    }
    Ok(rules)
}

pub(super) fn parse_position(rules: &BaghChalRules, text: &str) -> Result<BaghChal, NotationError> {
    let text = text.trim();
    if text == "start" {
        return Ok(BaghChal::start(rules));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, side, in_hand, captured] = fields[..] else {
        return Err(NotationError::position(
            text,
            "expected 4 fields: board (5 ranks, rank 5 first, separated by /), side (g or t), goats in hand, goats captured",
        ));
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 5 {
        return Err(NotationError::position(
            board,
            format!("expected 5 ranks separated by /, found {}", ranks.len()),
        ));
    }
    let (mut tigers, mut goats) = (0u32, 0u32);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i;
        let mut file = 0usize;
        for c in rank_text.chars() {
            let run = match c {
                'T' | 'G' | '.' => 1,
                '1'..='5' => c as usize - '0' as usize,
                _ => {
                    return Err(NotationError::position(
                        *rank_text,
                        format!("unexpected {c:?}: expected T, G, . or a digit 1-5"),
                    ));
                }
            };
            if file + run > 5 {
                return Err(NotationError::position(
                    *rank_text,
                    format!("rank {} is longer than 5 points", rank + 1),
                ));
            }
            let bit = 1u32 << (file + 5 * rank);
            match c {
                'T' => tigers |= bit,
                'G' => goats |= bit,
                _ => {}
            }
            file += run;
        }
        if file != 5 {
            return Err(NotationError::position(
                *rank_text,
                format!("rank {} has {file} points, not 5", rank + 1),
            ));
        }
    }
    let side = match side {
        "g" => Side::First,
        "t" => Side::Second,
        _ => {
            return Err(NotationError::position(
                side,
                "side to move must be g (goats) or t (tigers)",
            ));
        }
    };
    let count = |field: &str, what: &str| -> Result<u8, NotationError> {
        match field.parse::<u8>() {
            Ok(n) if n <= GOATS => Ok(n),
            _ => Err(NotationError::position(
                field,
                format!("{what} must be a number from 0 to 20"),
            )),
        }
    };
    let in_hand = count(in_hand, "goats in hand")?;
    let captured = count(captured, "goats captured")?;
    if tigers.count_ones() != 4 {
        return Err(NotationError::position(
            board,
            format!("{} tigers on the board, expected 4", tigers.count_ones()),
        ));
    }
    let total = goats.count_ones() + in_hand as u32 + captured as u32;
    if total != GOATS as u32 {
        return Err(NotationError::position(
            text,
            format!(
                "{} goats on the board + {in_hand} in hand + {captured} captured = {total}, expected 20",
                goats.count_ones()
            ),
        ));
    }
    if captured > 5 {
        return Err(NotationError::position(
            text,
            "more than 5 goats captured: the game ends at the 5th capture",
        ));
    }
    if in_hand == GOATS && side == Side::Second {
        return Err(NotationError::position(
            text,
            "tigers to move before any goat was placed: goats move first",
        ));
    }
    Ok(BaghChal::assemble(rules, tigers, goats, in_hand, captured, side))
}

pub(super) fn format_position(game: &BaghChal) -> String {
    let mut out = String::with_capacity(40);
    for rank in (0..5).rev() {
        for file in 0..5 {
            let p = file + 5 * rank;
            out.push(match game.piece_at(p) {
                Some(super::Piece::Tiger) => 'T',
                Some(super::Piece::Goat) => 'G',
                None => '.',
            });
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = if game.side == Side::First { 'g' } else { 't' };
    format!("{out} {side} {} {}", game.in_hand, game.captured)
}

pub(super) fn render(game: &BaghChal) -> String {
    let mut out = String::new();
    for rank in (0..5).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..5 {
            out.push(' ');
            out.push(match game.piece_at(file + 5 * rank) {
                Some(super::Piece::Tiger) => 'T',
                Some(super::Piece::Goat) => 'G',
                None => '.',
            });
        }
        out.push('\n');
    }
    out.push_str("   a b c d e\n");
    out.push_str(&format!(
        "{} to move, {} goats in hand, {} captured, ply {}\n",
        BaghChal::player_name(game.side),
        game.in_hand,
        game.captured,
        game.ply
    ));
    out
}

pub(super) fn format_move(mv: &BaghChalMove) -> String {
    match *mv {
        BaghChalMove::Place(p) => point_name(p as usize),
        BaghChalMove::Step { from, to } => {
            format!("{}-{}", point_name(from as usize), point_name(to as usize))
        }
        BaghChalMove::Jump { from, to } => {
            format!("{}x{}", point_name(from as usize), point_name(to as usize))
        }
    }
}

pub(super) fn parse_move(game: &BaghChal, text: &str) -> Result<BaghChalMove, NotationError> {
    let token = text.trim();
    let bad = |reason: &str| NotationError::bad_move(token, reason);
    let point = |s: &str| parse_point(s).ok_or_else(|| bad(&format!("{s:?} is not a point a1..e5")));
    let mv = if let Some((from, to)) = token.split_once('-') {
        BaghChalMove::Step {
            from: point(from)?,
            to: point(to)?,
        }
    } else if let Some((from, to)) = token.split_once(['x', ':']) {
        BaghChalMove::Jump {
            from: point(from)?,
            to: point(to)?,
        }
    } else if token.len() == 2 {
        BaghChalMove::Place(point(token)?)
    } else {
        return Err(bad("expected a placement (c3), a step (a1-b2) or a capture (a1xc3)"));
    };
    if let Some(outcome) = game.outcome() {
        return Err(bad(&format!("the game is over ({})", outcome.reason)));
    }
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    if legal.contains(&mv) {
        return Ok(mv);
    }
    let empty = !(game.tigers | game.goats) & ALL_POINTS;
    let reason = match mv {
        BaghChalMove::Place(_) if game.side == Side::Second => "tigers do not place",
        BaghChalMove::Place(_) if game.in_hand == 0 => "no goat left in hand",
        BaghChalMove::Place(p) if empty >> p & 1 == 0 => "the point is occupied",
        BaghChalMove::Step { .. } | BaghChalMove::Jump { .. } if game.side == Side::First && game.in_hand > 0 => {
            "goats must place while any remain in hand"
        }
        BaghChalMove::Step { from, .. } | BaghChalMove::Jump { from, .. }
            if (game.side == Side::First && game.goats >> from & 1 == 0)
                || (game.side == Side::Second && game.tigers >> from & 1 == 0) =>
        {
            "no piece of the side to move on the starting point"
        }
        BaghChalMove::Step { to, .. } | BaghChalMove::Jump { to, .. } if empty >> to & 1 == 0 => {
            "the target point is occupied"
        }
        BaghChalMove::Step { .. } if game.would_repeat(&mv) => "it would repeat an earlier position",
        BaghChalMove::Step { .. } => "the points are not joined by a line",
        BaghChalMove::Jump { .. } if game.side == Side::First => "goats do not capture",
        BaghChalMove::Jump { .. } => "no goat to jump on a straight line between the points",
        _ => "not legal here",
    };
    Err(bad(reason))
}
