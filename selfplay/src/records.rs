//! Turning a game in progress into training records: one [`PositionRecord`] per search (every action decision,
//! full or cheap), and one [`GameRecord`] with the moves in the game's notation once the game ends.
//!
//! Actions in records are in the network's policy-index space ([`policy_index`]), so the trainer needs no game
//! state. The moves of the game record are whole moves: the actions of one move (a Bashni multi-jump, a Tours
//! compound turn) are collected until the move is complete and matched against the legal moves of the position
//! where it started.

use rand::RngExt;
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
    /// Each record's policy surprise, in the order of `positions` (`None` for an engine's move).
    surprises: Vec<Option<f32>>,
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
            surprises: Vec::new(),
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
            short_value: 0.0,
            score: 0.0,
        });
        self.surprises.push(result.policy_surprise);
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

    /// Takes each record's policy surprise (`SearchResult::policy_surprise`), in record order, for
    /// [`weight_by_surprise`] once the game is finished.
    pub fn take_surprises(&mut self) -> Vec<Option<f32>> {
        std::mem::take(&mut self.surprises)
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
        p.result = seen_by(p, final_to_move, score);
    }
}

/// Gives each position the game's final score ([`zero_games::Game::score`] of the last position, `score` from
/// `final_to_move`'s view) from its own side to move's view: the score head's target.
pub fn fill_scores(positions: &mut [PositionRecord], final_to_move: Side, score: f32) {
    let score = score.clamp(-1.0, 1.0);
    for p in positions {
        p.score = seen_by(p, final_to_move, score);
    }
}

/// `value`, which is `side`'s view, from the view of `position`'s side to move (the games are zero-sum).
fn seen_by(position: &PositionRecord, side: Side, value: f32) -> f32 {
    if position.side_to_move as usize == side.index() {
        value
    } else {
        -value
    }
}

/// The horizon, in actions, of the short-horizon value target: KataGo's short-term value looks about six turns
/// ahead, far enough to see a threat the search has already found and near enough to differ from the result.
pub const SHORT_VALUE_HORIZON: f32 = 6.0;

/// Fills each record's short-horizon value target (KataGo's short-term value): the search values from its
/// action on, from its side to move's view, weighted `(1 - l) l^k` at `k` actions ahead with `l = 1 - 1 /
/// horizon`, the game's value target (its result, or a judged draw's score) carrying the weight of the actions
/// past the end. Where actions were not recorded (the engine's side of a sparring game), the last recorded value
/// stands for them. Call it once the results are final and before records are repeated by weight; `positions`
/// are one game's, in the order played.
pub fn fill_short_values(positions: &mut [PositionRecord], horizon: f32) {
    let Some(last) = positions.last() else {
        return;
    };
    let first_player = |p: &PositionRecord, v: f32| if p.side_to_move == 0 { v } else { -v };
    let keep = 1.0 - 1.0 / horizon.max(1.0);
    let mut ahead = first_player(last, last.result);
    let mut next_step = last.step + last.plies_to_end;
    for p in positions.iter_mut().rev() {
        let carried = keep.powi(next_step.saturating_sub(p.step).min(1 << 16) as i32);
        ahead = (1.0 - carried) * first_player(p, p.root_value) + carried * ahead;
        p.short_value = first_player(p, ahead).clamp(-1.0, 1.0);
        next_step = p.step;
    }
}

/// Policy surprise weighting (KataGo's): the full searches of one game share their training weight, `share` of
/// it in proportion to each search's surprise and the rest equally, so that a search that found what the
/// network missed is trained on more often: `weight = (1 - share) + share x surprise / the game's mean surprise`.
/// A weight becomes copies of the record: 2.6 is two, and a third with probability 0.6; 0.4 is one with
/// probability 0.4, else none. The expected number of full-search records stays the number of full searches,
/// so `train.samples_per_position` keeps its meaning. Cheap searches' records (value targets only) and an
/// engine's moves (surprise `None`: no network judged them) are kept once each; `surprises` is in the order of
/// `positions`. With `share` 0, or no surprise in the game, nothing changes and `rng` is not touched.
pub fn weight_by_surprise<R: rand::Rng>(
    positions: Vec<PositionRecord>,
    surprises: &[Option<f32>],
    share: f32,
    rng: &mut R,
) -> Vec<PositionRecord> {
    debug_assert_eq!(positions.len(), surprises.len());
    let surprise = |s: f32| if s.is_finite() { f64::from(s.max(0.0)) } else { 0.0 };
    let weighted_search = |p: &PositionRecord, s: Option<f32>| s.filter(|_| p.full_search).map(surprise);
    let (sum, searches) = positions
        .iter()
        .zip(surprises)
        .filter_map(|(p, &s)| weighted_search(p, s))
        .fold((0.0, 0usize), |(sum, n), s| (sum + s, n + 1));
    let mean = sum / searches.max(1) as f64;
    if share <= 0.0 || mean <= 0.0 {
        return positions;
    }
    let share = f64::from(share.min(1.0));
    let mut weighted = Vec::with_capacity(positions.len());
    for (p, &s) in positions.into_iter().zip(surprises) {
        let weight = match weighted_search(&p, s) {
            Some(s) => (1.0 - share) + share * s / mean,
            None => 1.0,
        };
        let whole = weight.floor();
        let fraction = weight - whole;
        let copies = whole as usize + usize::from(fraction > 0.0 && rng.random::<f64>() < fraction);
        for _ in 1..copies {
            weighted.push(p.clone());
        }
        if copies > 0 {
            weighted.push(p);
        }
    }
    weighted
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Records with steps 0.. and the given full-search flags.
    fn records(full: &[bool]) -> Vec<PositionRecord> {
        full.iter()
            .enumerate()
            .map(|(step, &full_search)| PositionRecord {
                game_id: "g".to_string(),
                ply: step as u32,
                step: step as u32,
                side_to_move: (step % 2) as u8,
                position: String::new(),
                input: Vec::new(),
                legal_actions: vec![0, 1],
                policy_actions: vec![0],
                policy_probs: vec![1.0],
                root_value: 0.0,
                result: 0.0,
                plies_to_end: 0,
                full_search,
                simulations: 1,
                short_value: 0.0,
                score: 0.0,
            })
            .collect()
    }

    fn some(surprises: &[f32]) -> Vec<Option<f32>> {
        surprises.iter().map(|&s| Some(s)).collect()
    }

    fn steps(positions: &[PositionRecord]) -> Vec<u32> {
        positions.iter().map(|p| p.step).collect()
    }

    #[test]
    fn whole_weights_repeat_surprising_searches_and_keep_cheap_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // Full searches 0, 2, 3 with surprises 0, 0, 3 (mean 1); 1 is cheap. Share 1: weights 0, 0, 3.
        let surprises = some(&[0.0, 9.0, 0.0, 3.0]);
        let weighted = weight_by_surprise(records(&[true, false, true, true]), &surprises, 1.0, &mut rng);
        assert_eq!(steps(&weighted), vec![1, 3, 3, 3]);
        // Share 0.5: weights 0.5, 0.5, 2 for the full searches.
        let weighted = weight_by_surprise(records(&[true, true, true]), &some(&[0.0, 0.0, 3.0]), 0.5, &mut rng);
        assert_eq!(steps(&weighted).iter().filter(|&&s| s == 2).count(), 2);
        // An engine's move (no surprise) is kept once and leaves the mean to the searches: weights 0, 1, 2.
        let surprises = [Some(0.0), None, Some(2.0)];
        let weighted = weight_by_surprise(records(&[true, true, true]), &surprises, 1.0, &mut rng);
        assert_eq!(steps(&weighted), vec![1, 2, 2]);
    }

    #[test]
    fn no_share_or_no_surprise_keeps_every_record_and_the_rng() {
        let cases: [(f32, [f32; 3]); 3] = [
            (0.0, [1.0, 5.0, 0.0]),
            (1.0, [0.0, 0.0, 0.0]),
            (1.0, [f32::NAN, 0.0, -1.0]),
        ];
        for (share, surprises) in cases {
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            let weighted = weight_by_surprise(records(&[true, true, true]), &some(&surprises), share, &mut rng);
            assert_eq!(
                steps(&weighted),
                vec![0, 1, 2],
                "share {share}, surprises {surprises:?}"
            );
            assert_eq!(rng, ChaCha8Rng::seed_from_u64(2), "the rng was drawn from");
        }
    }

    /// One game's records, a step each, sides alternating, with the given root values (each side's view) and a
    /// first-player win.
    fn played(values: &[f32]) -> Vec<PositionRecord> {
        let mut positions = records(&vec![true; values.len()]);
        for (p, &v) in positions.iter_mut().zip(values) {
            p.root_value = v;
            p.result = if p.side_to_move == 0 { 1.0 } else { -1.0 };
            p.plies_to_end = values.len() as u32 - p.step;
        }
        positions
    }

    #[test]
    fn short_values_weigh_the_next_search_values_and_then_the_result() {
        let values = [0.5, -0.25, 0.75, 0.0, -0.5];
        let mut positions = played(&values);
        let horizon = 3.0;
        fill_short_values(&mut positions, horizon);
        // The definition, summed directly: the first player's view of step k's value is (-1)^k v_k.
        let keep = 1.0 - 1.0 / horizon;
        let first = |k: usize| if k.is_multiple_of(2) { values[k] } else { -values[k] };
        for (t, p) in positions.iter().enumerate() {
            let mut sum = keep.powi((values.len() - t) as i32); // the win, first player's view
            for (k, weight) in (t..values.len()).zip((0..).map(|j| (1.0 - keep) * keep.powi(j))) {
                sum += weight * first(k);
            }
            let expected = if t.is_multiple_of(2) { sum } else { -sum };
            assert!(
                (p.short_value - expected).abs() < 1e-6,
                "step {t}: {} against {expected}",
                p.short_value
            );
        }
        // A horizon of one action is the search's own value; a long one nears the result.
        fill_short_values(&mut positions, 1.0);
        assert_eq!(positions.iter().map(|p| p.short_value).collect::<Vec<_>>(), values);
        fill_short_values(&mut positions, 1e6);
        assert!(positions.iter().all(|p| (p.short_value - p.result).abs() < 1e-3));
    }

    #[test]
    fn scores_are_seen_from_each_side_to_move() {
        let mut positions = played(&[0.0, 0.0, 0.0]);
        fill_scores(&mut positions, Side::Second, 0.6);
        assert_eq!(positions.iter().map(|p| p.score).collect::<Vec<_>>(), [-0.6, 0.6, -0.6]);
        fill_scores(&mut positions, Side::First, 3.0);
        assert_eq!(positions.iter().map(|p| p.score).collect::<Vec<_>>(), [1.0, -1.0, 1.0]);
    }

    #[test]
    fn an_unrecorded_action_counts_the_value_before_it() {
        // The second player's actions were not recorded (a sparring engine's): steps 0, 2 and 4 of five.
        let mut all = played(&[0.5, -0.5, 0.5, -0.5, 0.5]);
        let mut recorded: Vec<PositionRecord> = all.iter().step_by(2).cloned().collect();
        fill_short_values(&mut all, 4.0);
        fill_short_values(&mut recorded, 4.0);
        // Every value was 0.5 for the first player, so the gaps change nothing.
        for (p, q) in recorded.iter().zip(all.iter().step_by(2)) {
            assert!((p.short_value - q.short_value).abs() < 1e-6, "step {}", p.step);
        }
        fill_short_values(&mut [], 4.0);
    }

    #[test]
    fn fractional_weights_keep_the_expected_number_of_records() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let surprises: Vec<Option<f32>> = (0..1000).map(|i| Some((i % 7) as f32 * 0.3)).collect();
        let full = vec![true; surprises.len()];
        let mut total = 0;
        let rounds = 200;
        for _ in 0..rounds {
            total += weight_by_surprise(records(&full), &surprises, 0.5, &mut rng).len();
        }
        let mean = total as f64 / rounds as f64;
        // Each round's count has a standard deviation of about 12 (1000 Bernoulli draws); over 200 rounds under 1.
        assert!((mean - 1000.0).abs() < 5.0, "mean records {mean}");
        // The most surprising searches are repeated most.
        let weighted = weight_by_surprise(records(&full), &surprises, 0.5, &mut rng);
        let count = |step: u32| weighted.iter().filter(|p| p.step % 7 == step % 7).count();
        assert!(count(6) > 2 * count(0), "{} against {}", count(6), count(0));
    }
}
