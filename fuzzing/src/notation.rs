//! Positions, moves and rule options of every game: what a person or a program types.

use crate::{game_of, holds};
use zero_games::checks::check_position;
use zero_games::{Game, with_game};

/// `[game] position text`: a position that parses keeps every invariant of [`check_position`] (it formats back
/// to itself, its legal moves parse back to themselves and are made of legal actions, symmetries hold), and so
/// do the positions a few of its moves lead to.
pub fn position(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    with_game!(game_of(which), G => position_of::<G>(&text));
}

fn position_of<G: Game>(text: &str) {
    let rules = G::parse_rules(None, &[]).expect("the default rules parse");
    let Ok(mut game) = G::from_position(&rules, text) else {
        return;
    };
    let mut moves = Vec::new();
    // The first, middle and last move in turn: cheap, deterministic, and different lines for different inputs.
    for step in 0..4 {
        holds(check_position(&game), text);
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        let pick = [0, moves.len() / 2, moves.len() - 1][step % 3];
        game.play(&moves[pick]);
    }
}

/// `[game][plies][choices...] move text`: from the start, `plies` (up to 31) moves picked by the next bytes,
/// then the rest as a move. A move that parses is one of the legal moves and formats back to text that parses
/// to it again.
pub fn moves(data: &[u8]) {
    let [which, plies, rest @ ..] = data else { return };
    let plies = (*plies % 32) as usize;
    let (choices, text) = rest.split_at(plies.min(rest.len()));
    let text = String::from_utf8_lossy(text);
    with_game!(game_of(*which), G => move_of::<G>(choices, &text));
}

fn move_of<G: Game>(choices: &[u8], text: &str) {
    let rules = G::parse_rules(None, &[]).expect("the default rules parse");
    let mut game = G::start(&rules);
    let mut legal = Vec::new();
    for &choice in choices {
        game.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        game.play(&legal[choice as usize % legal.len()]);
    }
    let Ok(mv) = game.parse_move(text) else { return };
    game.legal_moves(&mut legal);
    assert!(
        legal.contains(&mv),
        "{text:?} parsed as an illegal move in {}",
        game.position()
    );
    let written = game.format_move(&mv);
    assert_eq!(
        game.parse_move(&written).as_ref(),
        Ok(&mv),
        "{written:?} does not parse back"
    );
}

/// `[game] variant\noption\noption...` (an empty first line: the default): rules that parse are written back
/// complete by `describe_rules`, which parse to the same rules, and their start position keeps every invariant.
pub fn rules(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.split('\n');
    let variant = lines.next().filter(|v| !v.is_empty());
    let options: Vec<String> = lines.map(str::to_string).collect();
    with_game!(game_of(which), G => rules_of::<G>(variant, &options));
}

pub(crate) fn rules_of<G: Game>(variant: Option<&str>, options: &[String]) {
    let Ok(rules) = G::parse_rules(variant, options) else {
        return;
    };
    let described = G::describe_rules(&rules);
    let again = G::parse_rules(None, &described)
        .unwrap_or_else(|e| panic!("{described:?}, written back from {variant:?} {options:?}, fails: {e}"));
    assert_eq!(again, rules, "{described:?} parses to other rules");
    assert_eq!(G::describe_rules(&again), described);
    let _ = G::without_draw_rules(&rules);
    holds(check_position(&G::start(&rules)), "the start position");
}
