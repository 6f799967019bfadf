//! The engine as a player, with evaluators written in plain Rust: it plays whole legal moves (a Bashni
//! multi-jump chosen jump by jump), finds a tactic, is reproducible from its seed, and keeps to a time budget.

mod common;

use common::position;
use std::time::{Duration, Instant};
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::tours::Tours;
use zero_games::{Action, ActionList, Game};
use zero_search::{
    Budget, Engine, EvalRequest, Evaluation, Evaluator, RolloutEvaluator, RootSearch, SearchConfig, SideRoots,
    UniformEvaluator, actions_to_moves, choose_by_actions,
};

/// Uniform, recording the size of every batch it is asked about.
#[derive(Default)]
struct Batches {
    sizes: Vec<usize>,
}

impl<G: Game> Evaluator<G> for Batches {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        self.sizes.push(batch.len());
        batch
            .iter()
            .map(|r| Evaluation::uniform(r.legal.len(), 0.0, false))
            .collect()
    }

    fn name(&self) -> String {
        "batches".to_string()
    }
}

#[test]
fn a_multi_jump_is_chosen_jump_by_jump_and_forced_moves_cost_nothing() {
    // White's only capture is the double jump c3:e5:c7; it is the only legal move, so no search runs.
    let game: Bashni = position("w c3:w d4:b d6:b");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1, "a forced position");
    let mut engine = Engine::seeded(Batches::default(), SearchConfig::for_play(RootSearch::Puct, 16), 1);
    let thought = engine.think(&game, Budget::Simulations(16));
    assert_eq!(game.format_move(&thought.mv), "c3:e5:c7");
    assert_eq!((thought.value, thought.simulations), (None, 0));
    assert!(engine.evaluator().sizes.is_empty(), "nothing evaluated");
    // With two captures sharing their first jump, `choose_by_actions` asks at every jump while more than one
    // move remains: at the shared first jump (one legal action), then at the fork.
    let game: Bashni = position("w c3:w d4:b d6:b f6:b");
    let mut asked = Vec::new();
    let mv = choose_by_actions(&game, |_, legal| {
        asked.push(legal.len());
        *legal.last().unwrap()
    });
    assert!(game.format_move(&mv).starts_with("c3:e5:"), "{}", game.format_move(&mv));
    assert_eq!(asked, vec![1, 2]);
}

#[test]
fn the_engine_finds_a_win_and_its_line_starts_with_its_move() {
    for root in [RootSearch::Puct, RootSearch::Gumbel] {
        let game: BaghChal = position("T...T/...../...../.G.../T...T t 15 4");
        let mut engine = Engine::seeded(UniformEvaluator, SearchConfig::for_play(root, 200), 3);
        let thought = engine.think(&game, Budget::Simulations(200));
        assert_eq!(game.format_move(&thought.mv), "a1xc3", "{root:?}");
        assert!(
            thought.value.unwrap() > 0.0,
            "{root:?}: a won position, value {:?}",
            thought.value
        );
        assert_eq!(thought.simulations, 200);
        let line = actions_to_moves(&game, &thought.line);
        assert_eq!(line.first().map(String::as_str), Some("a1xc3"), "{root:?}: {line:?}");
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let play = |seed: u64| -> Vec<String> {
        let mut game: Bashni = position("start");
        let mut engine = Engine::seeded(
            RolloutEvaluator::new(5, 50),
            SearchConfig::for_play(RootSearch::Gumbel, 8),
            seed,
        );
        let mut moves = Vec::new();
        for _ in 0..6 {
            let thought = engine.think(&game, Budget::Simulations(8));
            moves.push(game.format_move(&thought.mv));
            game.play(&thought.mv);
        }
        moves
    };
    assert_eq!(play(9), play(9));
}

#[test]
fn the_first_root_move_is_the_move_played_and_the_order_is_the_roots_own() {
    for root in [RootSearch::Puct, RootSearch::Gumbel] {
        let mut game: Tours = position("start");
        let mut engine = Engine::seeded(RolloutEvaluator::new(4, 40), SearchConfig::for_play(root, 48), 2);
        for ply in 0..8 {
            let thought = engine.think(&game, Budget::Simulations(48));
            let mut actions = ActionList::new();
            game.move_actions(&thought.mv, &mut actions);
            let top = &thought.root_moves;
            assert_eq!(top[0].action, actions.as_slice()[0], "{root:?} ply {ply}: {top:?}");
            let mut seen: Vec<Action> = top.iter().map(|m| m.action).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), top.len(), "{root:?}: each root move once");
            match root {
                RootSearch::Puct => {
                    assert!(top.iter().all(|m| m.gumbel_score.is_none()));
                    assert!(top.windows(2).all(|w| w[0].visits >= w[1].visits), "{top:?}");
                }
                RootSearch::Gumbel => assert!(top.iter().all(|m| m.gumbel_score.is_some()), "{top:?}"),
            }
            game.play(&thought.mv);
        }
    }
}

#[test]
fn a_time_budget_is_kept_and_runs_at_least_one_chunk() {
    let game: Bashni = position("start");
    let mut engine = Engine::seeded(
        RolloutEvaluator::new(5, 400),
        SearchConfig::for_play(RootSearch::Puct, 1),
        1,
    );
    let limit = Duration::from_millis(60);
    let started = Instant::now();
    let thought = engine.think(&game, Budget::MoveTime(limit));
    let took = started.elapsed();
    assert!(thought.simulations >= 16, "at least one chunk: {}", thought.simulations);
    assert!(took >= limit, "stopped early: {took:?}");
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    let first: Action = thought.line[0];
    assert!(legal.as_slice().contains(&first));
}

/// A player's PUCT search evaluating `leaf_batch` leaves per call under a time budget.
fn timed_config(leaf_batch: u32) -> SearchConfig {
    SearchConfig {
        leaf_batch,
        ..SearchConfig::for_play(RootSearch::Puct, 1)
    }
}

#[test]
fn a_timed_search_evaluates_its_leaves_in_batches_and_a_counted_one_leaf_by_leaf() {
    let game: BaghChal = position("start");
    let config = timed_config(8);
    let mut engine = Engine::seeded(Batches::default(), config.clone(), 1);
    let thought = engine.think(&game, Budget::MoveTime(Duration::from_millis(30)));
    let sizes = &engine.evaluator().sizes;
    assert!(sizes.iter().all(|&n| (1..=8).contains(&n)), "{sizes:?}");
    assert!(
        sizes.iter().filter(|&&n| n == 8).count() * 2 > sizes.len(),
        "mostly full batches: {sizes:?}"
    );
    let evaluated: usize = sizes.iter().sum();
    // Every simulation but a terminal one is an evaluated leaf, and the root's own evaluation is one more.
    assert!(
        evaluated as u32 <= thought.simulations + 1,
        "{evaluated} leaves, {} simulations",
        thought.simulations
    );

    let mut engine = Engine::seeded(Batches::default(), config, 1);
    let thought = engine.think(&game, Budget::Simulations(50));
    assert_eq!(thought.simulations, 50);
    assert!(
        engine.evaluator().sizes.iter().all(|&n| n == 1),
        "{:?}",
        engine.evaluator().sizes
    );
}

#[test]
fn a_batched_timed_search_still_finds_the_capture() {
    let game: BaghChal = position("T...T/...../...../.G.../T...T t 15 4");
    let mut engine = Engine::seeded(UniformEvaluator, timed_config(32), 5);
    let thought = engine.think(&game, Budget::MoveTime(Duration::from_millis(40)));
    assert_eq!(game.format_move(&thought.mv), "a1xc3");
    assert!(thought.simulations >= 32, "{}", thought.simulations);
}

#[test]
fn a_timed_gumbel_root_halves_one_set_of_candidates_over_the_whole_move() {
    // More legal moves than the m = 16 candidates, all alike to the evaluator: a search that drew new
    // candidates or began its halving again every chunk would spread its visits over most of them.
    let game: Tours = position("start");
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    assert!(legal.len() > 16, "{} legal actions", legal.len());
    let config = SearchConfig {
        leaf_batch: 32,
        ..SearchConfig::for_play(RootSearch::Gumbel, 1)
    };
    let mut engine = Engine::seeded(UniformEvaluator, config, 6);
    let thought = engine.think(&game, Budget::MoveTime(Duration::from_millis(200)));
    let visits: Vec<u32> = thought.root_moves.iter().map(|m| m.visits).collect();
    assert!(visits.len() <= 16, "{} actions visited: {visits:?}", visits.len());
    assert!(
        visits.len() == 16 && visits[0] > 4 * visits[8],
        "the survivors of the later phases get more: {visits:?}"
    );
    assert_eq!(visits.iter().sum::<u32>(), thought.simulations);
}

#[test]
fn each_side_searches_with_its_own_root() {
    // Tours' start gives either side more legal actions than the Gumbel root's 16 candidates, all alike to the
    // evaluator: a Gumbel root visits at most 16 of them, a PUCT root spreads over all of them.
    let mut game: Tours = position("start");
    let roots: SideRoots = "gumbel/puct".parse().unwrap();
    let mut engine = Engine::seeded(UniformEvaluator, SearchConfig::for_play(roots, 1), 3);
    let visited = |thought: &zero_search::Thought<Tours>| thought.root_moves.iter().filter(|m| m.visits > 0).count();
    let white = engine.think(&game, Budget::Simulations(2000));
    assert!(visited(&white) <= 16, "white (gumbel) visited {}", visited(&white));
    game.play(&white.mv);
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    assert!(legal.len() > 16, "{} legal actions", legal.len());
    // The engine keeps the tree its Gumbel root grew for white; black's search over it is PUCT's all the same.
    let black = engine.think(&game, Budget::Simulations(2000));
    assert!(black.reused > 0, "the tree was kept");
    assert_eq!(visited(&black), legal.len(), "black (puct) visits every action");
}

#[test]
fn the_tree_of_the_last_move_is_kept_for_the_reply_it_expected() {
    let play = |reuse: bool, reply_expected: bool| -> (u32, u32) {
        let mut game: BaghChal = position("start");
        let config = SearchConfig {
            tree_reuse: reuse,
            ..SearchConfig::for_play(RootSearch::Puct, 400)
        };
        let mut engine = Engine::seeded(RolloutEvaluator::new(3, 40), config, 2);
        let first = engine.think(&game, Budget::Simulations(400));
        game.play(&first.mv);
        // The reply the search expected (the second move of its line), or another legal one.
        let expected = actions_to_moves(&position::<BaghChal>("start"), &first.line);
        let mut replies = Vec::new();
        game.legal_moves(&mut replies);
        let reply = replies
            .into_iter()
            .find(|mv| (game.format_move(mv) == expected[1]) == reply_expected)
            .expect("a reply");
        game.play(&reply);
        let second = engine.think(&game, Budget::Simulations(400));
        assert_eq!(second.simulations, 400);
        (first.reused, second.reused)
    };
    let (first, second) = play(true, true);
    assert_eq!(first, 0, "the first move starts from nothing");
    assert!(second > 10, "the expected reply's subtree was kept: {second} visits");
    let (_, unexpected) = play(true, false);
    assert!(
        unexpected < second,
        "a less visited reply keeps less: {unexpected} against {second}"
    );
    assert_eq!(play(false, true), (0, 0), "nothing kept without tree_reuse");
    // A position the last move does not lead to starts afresh.
    let mut engine = Engine::seeded(UniformEvaluator, SearchConfig::for_play(RootSearch::Puct, 50), 1);
    engine.think(&position::<BaghChal>("start"), Budget::Simulations(50));
    let other: BaghChal = position("T...T/...../...../.G.../T...T t 15 4");
    assert_eq!(engine.think(&other, Budget::Simulations(50)).reused, 0);
}

#[test]
fn the_actions_of_one_move_share_a_tree_even_without_reuse_across_moves() {
    // c3:e5 then a fork (d6 or f6): the fork's question starts from the first jump's subtree, so its one chunk
    // adds to the visits the first question gave it.
    let game: Bashni = position("w c3:w d4:b d6:b f6:b");
    let config = SearchConfig {
        tree_reuse: false,
        ..SearchConfig::for_play(RootSearch::Puct, 1)
    };
    let mut engine = Engine::seeded(UniformEvaluator, config, 1);
    let mut seen = Vec::new();
    let thought = engine.think_watched(&game, Budget::MoveTime(Duration::MAX), &mut |progress| {
        seen.push((progress.simulations, progress.tree.root().visits));
        false
    });
    assert!(game.format_move(&thought.mv).starts_with("c3:e5:"));
    assert_eq!(seen.len(), 2, "one chunk at each of the two questions: {seen:?}");
    let ((first_sims, first_visits), (second_sims, second_visits)) = (seen[0], seen[1]);
    assert_eq!(
        first_visits,
        first_sims + 1,
        "the first question starts afresh: {seen:?}"
    );
    assert_eq!(
        second_visits,
        first_sims + second_sims,
        "the fork keeps the first jump's visits: {seen:?}"
    );
}

#[test]
fn a_temperature_varies_the_moves_and_zero_keeps_the_search_choice() {
    let game: BaghChal = position("start");
    let distinct = |temperature: f32| {
        let mut engine = Engine::seeded(UniformEvaluator, SearchConfig::for_play(RootSearch::Puct, 1), 5);
        engine.set_temperature(temperature);
        let mut moves: Vec<String> = (0..30)
            .map(|_| game.format_move(&engine.think(&game, Budget::Simulations(1)).mv))
            .collect();
        moves.sort();
        moves.dedup();
        moves.len()
    };
    assert_eq!(
        distinct(0.0),
        1,
        "no temperature: the same position gives the same move"
    );
    assert!(
        distinct(1.0) > 5,
        "temperature 1 over 21 even priors: {} moves",
        distinct(1.0)
    );
}
