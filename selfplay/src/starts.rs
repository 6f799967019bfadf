//! Lead starts (`selfplay.lead_start_share`): positions taken from earlier self-play games that were drawn with
//! one side ahead on the game's material count ([`Game::score`]), for new games to begin from.
//!
//! Why: Tours self-play draws most of its games at the ply limit with pawns up (a network of an hour's training
//! leads but does not know how to finish), and the value target of such a game says "draw" for every position
//! of it. A game that begins again where the lead was won, with a fresh history (every draw counter back at 0,
//! as [`Game::from_position`] gives), is a game about converting that lead: the side ahead learns to finish, the
//! side behind to hold, and the value head learns what the lead is worth.
//!
//! The position chosen in a drawn game is the first one at which the side ahead at the end held at least its
//! final lead: the lead that the draw rules, not the play, failed to turn into a result.

use zero_data::GameRecord;
use zero_games::{Game, NotationError, Side};

/// The lead start of every drawn game in `records` that ended with one side ahead (in the order of `records`),
/// and how many drawn records could not be replayed under `rules` (a move or position that does not parse; they
/// are left out).
pub fn lead_starts<G: Game>(rules: &G::Rules, records: &[GameRecord]) -> (Vec<G>, usize) {
    let mut starts = Vec::new();
    let mut unreadable = 0;
    for record in records.iter().filter(|r| r.winner.is_none()) {
        match lead_start::<G>(rules, record) {
            Ok(Some(start)) => starts.push(start),
            Ok(None) => {}
            Err(_) => unreadable += 1,
        }
    }
    (starts, unreadable)
}

/// The lead start of one drawn game: `None` when it ended level, or when the position, with a fresh history, is
/// already over.
pub fn lead_start<G: Game>(rules: &G::Rules, record: &GameRecord) -> Result<Option<G>, NotationError> {
    let start = G::from_position(rules, &record.start_position)?;
    // The first player's material lead after each ply (index 0: the start).
    let mut game = start.clone();
    let mut leads = vec![first_players_lead(&game)];
    for text in &record.moves {
        let mv = game.parse_move(text)?;
        game.play(&mv);
        leads.push(first_players_lead(&game));
    }
    let last = *leads.last().expect("the start is there");
    if last == 0.0 {
        return Ok(None);
    }
    let held = |lead: f32| if last > 0.0 { lead >= last } else { lead <= last };
    let ply = leads
        .iter()
        .position(|&lead| held(lead))
        .expect("the last position holds it");
    let mut game = start;
    for text in &record.moves[..ply] {
        let mv = game.parse_move(text)?;
        game.play(&mv);
    }
    let fresh = G::from_position(rules, &game.position())?;
    Ok(fresh.outcome().is_none().then_some(fresh))
}

/// [`Game::score`] (the side to move's view) from the first player's view.
fn first_players_lead<G: Game>(game: &G) -> f32 {
    match game.to_move() {
        Side::First => game.score(),
        Side::Second => -game.score(),
    }
}
