//! Invariants every [`Game`] must keep, written once for all games: the property tests of each game call these
//! over random playouts.

use crate::{ActionList, Game};

/// A broken invariant: the position (in notation) and what does not hold there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvariantViolation(pub String);

impl From<String> for InvariantViolation {
    fn from(what: String) -> Self {
        InvariantViolation(what)
    }
}

/// A tiny deterministic generator so that the checks need no dependency (SplitMix64).
#[derive(Debug, Clone)]
pub struct CheckRng(u64);

impl CheckRng {
    pub fn new(seed: u64) -> Self {
        CheckRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0); the modulo bias is irrelevant for tests.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Positions at complete-move boundaries along random games from the start, none of them over: up to `plies`
/// of each game, until `count` are collected (tests and measurements that need many varied positions).
pub fn positions_along_games<G: Game>(rules: &G::Rules, count: usize, plies: u32, rng: &mut CheckRng) -> Vec<G> {
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while out.len() < count {
        let mut game = G::start(rules);
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() || out.len() == count {
                break;
            }
            out.push(game.clone());
            game.play(&moves[rng.below(moves.len())]);
        }
    }
    out
}

/// Checks one position: hash, notation round trip, actions agree with moves, symmetries map legal moves to
/// legal moves. Returns a description of the first violation.
pub fn check_position<G: Game>(game: &G) -> Result<(), InvariantViolation> {
    let here = game.position();
    if game.hash() != game.recompute_hash() {
        return Err(InvariantViolation(format!(
            "{here}: incremental hash {:x} != recomputed {:x}",
            game.hash(),
            game.recompute_hash()
        )));
    }
    let reparsed = G::from_position(game.rules(), &here)
        .map_err(|e| InvariantViolation(format!("{here}: does not re-parse: {e}")))?;
    if reparsed.position() != here {
        return Err(InvariantViolation(format!(
            "{here}: re-parses as {}",
            reparsed.position()
        )));
    }
    if reparsed.recompute_hash() != game.recompute_hash() {
        return Err(InvariantViolation(format!(
            "{here}: re-parsed position hashes differently"
        )));
    }

    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if game.count_moves() != moves.len() as u64 {
        return Err(InvariantViolation(format!(
            "{here}: count_moves {} != {} legal moves",
            game.count_moves(),
            moves.len()
        )));
    }
    let mut actions = ActionList::new();
    game.legal_actions(&mut actions);
    if moves.is_empty() != actions.is_empty() {
        return Err(InvariantViolation(format!(
            "{here}: {} moves but {} actions",
            moves.len(),
            actions.len()
        )));
    }
    if game.outcome().is_some() != moves.is_empty() {
        return Err(InvariantViolation(format!(
            "{here}: outcome {:?} with {} legal moves",
            game.outcome(),
            moves.len()
        )));
    }
    for &a in actions.iter() {
        if a as usize >= G::ACTION_SPACE {
            return Err(InvariantViolation(format!(
                "{here}: action {a} outside the action space {}",
                G::ACTION_SPACE
            )));
        }
    }
    let mut steps = ActionList::new();
    for mv in &moves {
        let text = game.format_move(mv);
        match game.parse_move(&text) {
            Ok(parsed) if &parsed == mv => {}
            Ok(other) => {
                return Err(InvariantViolation(format!(
                    "{here}: {text} parses as {}",
                    game.format_move(&other)
                )));
            }
            Err(e) => return Err(InvariantViolation(format!("{here}: own move {text} refused: {e}"))),
        }
        let mut by_move = game.clone();
        by_move.play(mv);
        let mut by_actions = game.clone();
        game.move_actions(mv, &mut steps);
        if steps.is_empty() {
            return Err(InvariantViolation(format!("{here}: move {text} has no actions")));
        }
        for (i, &a) in steps.iter().enumerate() {
            let mut legal = ActionList::new();
            by_actions.legal_actions(&mut legal);
            if !legal.contains(a) {
                return Err(InvariantViolation(format!(
                    "{here}: action {} of {text} ({}) is not legal",
                    i,
                    G::describe_action(a)
                )));
            }
            by_actions.apply_action(a);
            if i + 1 < steps.len() && by_actions.to_move() != game.to_move() {
                return Err(InvariantViolation(format!(
                    "{here}: side changed in the middle of {text}"
                )));
            }
        }
        if by_actions.position() != by_move.position() || by_actions.hash() != by_move.hash() {
            return Err(InvariantViolation(format!(
                "{here}: {text} by actions gives {} but as a move {}",
                by_actions.position(),
                by_move.position()
            )));
        }
        if by_move.ply() != game.ply() + 1 {
            return Err(InvariantViolation(format!(
                "{here}: ply {} after {text} from ply {}",
                by_move.ply(),
                game.ply()
            )));
        }
    }
    check_symmetries(game, &actions)
}

fn check_symmetries<G: Game>(game: &G, actions: &ActionList) -> Result<(), InvariantViolation> {
    let mut mapped_legal = ActionList::new();
    for sym in 0..G::SYMMETRIES {
        let image = game.transformed(sym);
        if image.hash() != image.recompute_hash() {
            return Err(InvariantViolation(format!(
                "{}: symmetry {sym} breaks the hash",
                game.position()
            )));
        }
        image.legal_actions(&mut mapped_legal);
        if mapped_legal.len() != actions.len() {
            return Err(InvariantViolation(format!(
                "{}: symmetry {sym} has {} legal actions, not {}",
                game.position(),
                mapped_legal.len(),
                actions.len()
            )));
        }
        for &a in actions.iter() {
            let b = G::transform_action(a, sym);
            if !mapped_legal.contains(b) {
                return Err(InvariantViolation(format!(
                    "{}: symmetry {sym} maps legal {} to {}, not legal in {}",
                    game.position(),
                    G::describe_action(a),
                    G::describe_action(b),
                    image.position()
                )));
            }
        }
        if sym == 0 && image.position() != game.position() {
            return Err(InvariantViolation(format!(
                "{}: symmetry 0 is not the identity",
                game.position()
            )));
        }
    }
    Ok(())
}

/// Plays one random game by actions from `game`, checking [`check_position`] at every complete-move boundary
/// (never in the middle of a multi-action move) and `invariant` and the hash at every action. Returns the final state; errs on the first violation or when the game does
/// not end within `max_actions` (every game must end by a rule).
pub fn random_playout<G: Game, E: Into<InvariantViolation>>(
    mut game: G,
    rng: &mut CheckRng,
    max_actions: usize,
    mut invariant: impl FnMut(&G) -> Result<(), E>,
) -> Result<G, InvariantViolation> {
    let mut actions = ActionList::new();
    let mut at_move_boundary = true;
    for _ in 0..max_actions {
        invariant(&game).map_err(Into::into)?;
        if at_move_boundary {
            check_position(&game)?;
        }
        if game.hash() != game.recompute_hash() {
            return Err(InvariantViolation(format!(
                "{}: incremental hash differs from recomputed",
                game.position()
            )));
        }
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            if game.outcome().is_none() {
                return Err(InvariantViolation(format!(
                    "{}: no legal action but no outcome",
                    game.position()
                )));
            }
            return Ok(game);
        }
        let before = game.to_move();
        let ply = game.ply();
        let a = actions[rng.below(actions.len())];
        game.apply_action(a);
        if game.ply() == ply && game.to_move() != before {
            return Err(InvariantViolation(format!(
                "{}: side changed without a ply",
                game.position()
            )));
        }
        at_move_boundary = game.ply() != ply;
    }
    Err(InvariantViolation(format!(
        "game not over after {max_actions} actions: {}",
        game.position()
    )))
}
