//! The arena's static evaluation of a Bashni position: what each side commands and holds prisoner, kings, and
//! how far the men have come. Material decides most games, so it dominates; advancement breaks ties between
//! quiet moves and pulls men towards the crown.

use super::geometry::Square;
use super::state::Bashni;
use crate::Side;

/// A tower commanded by a man or a king: what its top is worth to its owner.
const MAN: f32 = 1.0;
const KING: f32 = 2.5;
/// A prisoner: an enemy piece under one's own commander is out of play (and comes back to its owner only if
/// the tower is captured), so each counts for its holder.
const PRISONER: f32 = 0.4;
/// Per rank a commanding man has advanced.
const ADVANCE: f32 = 0.04;
/// Material difference that maps to tanh(1) = 0.76: about three men.
const SCALE: f32 = 3.0;

/// The heuristic of [`Heuristic::heuristic`](crate::Heuristic::heuristic) for Bashni.
pub(crate) fn heuristic(game: &Bashni) -> f32 {
    let mut score = [0.0f32; 2];
    for square in Square::all() {
        let tower = game.tower(square);
        let Some(top) = tower.commander() else { continue };
        let owner = top.colour.index();
        score[owner] += if top.king { KING } else { MAN };
        let prisoners = tower.pieces().skip(1).filter(|p| p.colour != top.colour).count();
        score[owner] += PRISONER * prisoners as f32;
        if !top.king {
            let advanced = match top.colour {
                Side::First => square.rank(),
                Side::Second => 7 - square.rank(),
            };
            score[owner] += ADVANCE * advanced as f32;
        }
    }
    let me = game.side;
    ((score[me] - score[1 - me]) / SCALE).tanh()
}
