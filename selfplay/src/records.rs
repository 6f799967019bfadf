//! Turning a game in progress into training records: one [`PositionRecord`] per search (every action decision,
//! full or cheap), and one [`GameRecord`] with the moves in the game's notation once the game ends.
//!
//! Actions in records are in the network's policy-index space ([`policy_index`]), so the trainer needs no game
//! state. The moves of the game record are whole moves: the actions of one move (a Bashni multi-jump, a Tours
//! compound turn) are collected until the move is complete and matched against the legal moves of the position
//! where it started.

use zero_data::{GameRecord, PositionRecord, quantize};
use zero_games::{Action, ActionList, Encoding, Outcome, Side, input_len, policy_index};
use zero_search::SearchResult;

/// Records of one game in progress.
#[derive(Debug, Clone)]
pub struct GameRecorder<G: Encoding> {
    game_id: String,
    start_position: String,
    positions: Vec<PositionRecord>,
    moves: Vec<String>,
    /// The position where the current move started, and the actions played in it so far.
    move_start: G,
    move_actions: Vec<Action>,
    actions_played: u32,
    planes: Vec<f32>,
}

/// Why a move could not be written down (a bug in a rules core: the actions played match no legal move).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game_id}: actions {actions:?} from {position} match no legal move")]
pub struct UnmatchedMove {
    pub game_id: String,
    pub position: String,
    pub actions: Vec<Action>,
}

impl<G: Encoding> GameRecorder<G> {
    pub fn new(game_id: String, start: &G) -> Self {
        GameRecorder {
            game_id,
            start_position: start.position(),
            positions: Vec::new(),
            moves: Vec::new(),
            move_start: start.clone(),
            move_actions: Vec::new(),
            actions_played: 0,
            planes: vec![0.0; input_len::<G>()],
        }
    }

    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// Whether the next action starts a new move (no action of the current move played yet).
    pub fn at_move_start(&self) -> bool {
        self.move_actions.is_empty()
    }

    /// Records the search made at `game` (before its action is played).
    pub fn record_search(&mut self, game: &G, result: &SearchResult) {
        game.encode(&mut self.planes);
        let legal_actions: Vec<u16> = result.legal.iter().map(|&a| policy_index(game, a) as u16).collect();
        let (policy_actions, policy_probs): (Vec<u16>, Vec<f32>) = legal_actions
            .iter()
            .zip(&result.policy)
            .filter(|(_, p)| **p > 0.0)
            .map(|(&a, &p)| (a, p))
            .unzip();
        self.positions.push(PositionRecord {
            game_id: self.game_id.clone(),
            ply: game.ply(),
            step: self.actions_played,
            side_to_move: game.to_move().index() as u8,
            position: game.position(),
            input: quantize(&self.planes),
            legal_actions,
            policy_actions,
            policy_probs,
            root_value: result.root_value.clamp(-1.0, 1.0),
            result: 0.0,
            plies_to_end: 0,
            full_search: result.full,
            simulations: result.simulations,
        });
    }

    /// Notes that `action` was played, `after` being the position it led to; closes the move when it is complete.
    pub fn played(&mut self, action: Action, after: &G) -> Result<(), UnmatchedMove> {
        self.move_actions.push(action);
        self.actions_played += 1;
        if after.ply() == self.move_start.ply() && after.outcome().is_none() {
            return Ok(());
        }
        let mut moves = Vec::new();
        self.move_start.legal_moves(&mut moves);
        let mut steps = ActionList::new();
        let found = moves.iter().find(|mv| {
            self.move_start.move_actions(mv, &mut steps);
            steps.as_slice() == self.move_actions.as_slice()
        });
        let Some(mv) = found else {
            return Err(UnmatchedMove {
                game_id: self.game_id.clone(),
                position: self.move_start.position(),
                actions: self.move_actions.clone(),
            });
        };
        self.moves.push(self.move_start.format_move(mv));
        self.move_start.clone_from(after);
        self.move_actions.clear();
        Ok(())
    }

    /// Positions recorded so far.
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// Closes the game with `outcome` (a resignation included): fills each position's result and distance to
    /// the end and returns the records.
    pub fn finish(self, outcome: Outcome, plies: u32, resigned_false_check: bool) -> (GameRecord, Vec<PositionRecord>) {
        let total = self.actions_played;
        let mut positions = self.positions;
        for p in &mut positions {
            p.result = outcome.value_for(Side::from_index(p.side_to_move as usize));
            p.plies_to_end = total - p.step;
        }
        let game = GameRecord {
            game_id: self.game_id,
            start_position: self.start_position,
            moves: self.moves,
            winner: outcome.winner.map(|w| w.index() as u8),
            reason: outcome.reason.as_str().to_string(),
            plies,
            resigned_false_check,
        };
        (game, positions)
    }
}

/// Gives a drawn game's positions the value target `score` (the final position's judgement from `final_to_move`'s
/// view, `selfplay.draw_score` times the game's heuristic) from each position's side to move, in place of 0.
pub fn judge_draw(positions: &mut [PositionRecord], final_to_move: Side, score: f32) {
    let score = score.clamp(-1.0, 1.0);
    for p in positions {
        p.result = if p.side_to_move as usize == final_to_move.index() {
            score
        } else {
            -score
        };
    }
}
