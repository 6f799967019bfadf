//! Invariants of the search: visit counting, the Gumbel target, tree reuse, sign handling in multi-action moves.

mod common;

use common::{config, position, search};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::tours::Tours;
use zero_games::{ActionList, Game, Side};
use zero_search::config::MAX_SIMULATIONS;
use zero_search::{EvalRequest, Evaluation, Evaluator, SideWeights, UniformEvaluator};
use zero_search::{GameSearch, RolloutEvaluator, RootSearch, SearchConfig, search_blocking, search_to_budget};

#[test]
fn root_child_visits_sum_to_simulations_plus_the_carried_subtree() {
    for mode in [RootSearch::Puct, RootSearch::Gumbel] {
        let config = config(mode);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut evaluator = RolloutEvaluator::new(1, 100);
        let mut search = GameSearch::new(Tours::start(&Tours::parse_rules(None, &[]).unwrap()), mode);
        for (step, sims) in [50u32, 37, 64, 1].into_iter().enumerate() {
            let carried = search.tree().root_child_visit_sum();
            if step == 0 {
                assert_eq!(carried, 0);
            }
            search_blocking(&mut search, &mut evaluator, &config, sims, true, &mut rng);
            assert_eq!(
                search.tree().root_child_visit_sum(),
                carried + sims,
                "{mode:?} step {step}"
            );
            assert_eq!(
                search.tree().root().visits,
                carried + sims + 1,
                "the root's own evaluation is one visit"
            );
            let result = search.finish(1.0, &mut rng);
            search.advance(result.action, true);
        }
    }
}

#[test]
fn tree_reuse_keeps_the_chosen_subtree() {
    let config = config(RootSearch::Puct);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut evaluator = RolloutEvaluator::new(2, 100);
    let mut search = GameSearch::new(
        Bashni::start(&Bashni::parse_rules(None, &[]).unwrap()),
        RootSearch::Puct,
    );
    search_blocking(&mut search, &mut evaluator, &config, 200, true, &mut rng);
    let result = search.finish(0.0, &mut rng);
    let tree = search.tree();
    let child = tree.child_by_action(0, result.action).unwrap();
    let (visits, children, q) = (
        tree.node(child).visits,
        tree.node(child).child_count,
        tree.node(child).q(),
    );
    let grandchildren: Vec<_> = tree.node(child).children().map(|c| *tree.node(c)).collect();
    assert!(visits > 1);
    search.advance(result.action, true);
    let root = search.tree().root();
    assert_eq!(root.visits, visits);
    assert_eq!(root.child_count, children);
    // The mover changes after a quiet Bashni move, so the kept value is re-expressed from the new mover's view.
    assert!((root.q() + q).abs() < 1e-5);
    let kept: Vec<_> = search
        .tree()
        .root()
        .children()
        .map(|c| *search.tree().node(c))
        .collect();
    assert_eq!(kept.len(), grandchildren.len());
    for (a, b) in kept.iter().zip(&grandchildren) {
        assert_eq!((a.action, a.visits, a.value_sum), (b.action, b.visits, b.value_sum));
    }
    // Without reuse the tree starts over.
    let result = search.finish(0.0, &mut rng);
    search.advance(result.action, false);
    assert_eq!(search.tree().len(), 1);
}

#[test]
fn gumbel_target_is_a_distribution_over_exactly_the_legal_actions() {
    for text in ["start", "w c3:w e3:w g3:w d6:b f6:b b6:b"] {
        let game: Bashni = position(text);
        let mut legal = ActionList::new();
        game.legal_actions(&mut legal);
        for sims in [1u32, 5, 32, 100] {
            let (result, _) = search(&game, RootSearch::Gumbel, sims, &mut UniformEvaluator);
            let mut sorted = result.legal.clone();
            sorted.sort_unstable();
            let mut expected = legal.as_slice().to_vec();
            expected.sort_unstable();
            assert_eq!(sorted, expected);
            assert_eq!(result.policy.len(), legal.len());
            assert!(result.policy.iter().all(|&p| p > 0.0 && p.is_finite()));
            let sum: f32 = result.policy.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "sum {sum}");
        }
    }
}

#[test]
fn a_gumbel_root_with_its_noise_scaled_to_zero_chooses_alike_whatever_the_seed() {
    // Rollout values from one evaluator seed: the search's generator then only draws the Gumbel noise.
    let game = Tours::start(&Tours::parse_rules(None, &[]).unwrap());
    let config = config(RootSearch::Gumbel);
    let choices = |scale: f32| {
        let mut chosen: Vec<_> = (0..8u64)
            .map(|seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut search = GameSearch::new(game.clone(), RootSearch::Gumbel);
                search.set_gumbel_noise_scale(scale);
                search_blocking(
                    &mut search,
                    &mut RolloutEvaluator::new(3, 100),
                    &config,
                    32,
                    true,
                    &mut rng,
                );
                search.finish(0.0, &mut rng).action
            })
            .collect();
        chosen.sort_unstable();
        chosen.dedup();
        chosen.len()
    };
    assert_eq!(choices(0.0), 1, "without noise the choice is the search's own");
    assert!(choices(1.0) > 1, "the Gumbel sample varies the choice");
}

#[test]
fn a_gumbel_search_given_more_budget_keeps_one_sequential_halving_planned_over_it() {
    // The Tours start has more legal moves than the m = 16 candidates: four phases of halving.
    let game = Tours::start(&Tours::parse_rules(None, &[]).unwrap());
    let config = config(RootSearch::Gumbel);
    let visits = |search: &GameSearch<Tours>| {
        let mut v = search.tree().root_child_visits();
        v.retain(|&n| n > 0);
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    };
    // A timed search's start: one chunk with the budget unknown spreads over the candidates...
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut timed = GameSearch::new(game.clone(), RootSearch::Gumbel);
    timed.begin(32, false, false);
    timed.set_budget(32, MAX_SIMULATIONS);
    search_to_budget(&mut timed, &mut RolloutEvaluator::new(4, 60), &config, &mut rng);
    assert_eq!(visits(&timed), vec![2; 16]);
    // ...and once the budget is known, the phases go on over it: 640 / (4 phases x 16, 8, 4, 2 survivors)
    // more visits a survivor each phase, as a search planned for 640 from the start gives.
    timed.set_budget(640, 640);
    search_to_budget(&mut timed, &mut RolloutEvaluator::new(4, 60), &config, &mut rng);
    let expected: Vec<u32> = [[150; 2].as_slice(), &[70; 2], &[30; 4], &[10; 8]].concat();
    assert_eq!(visits(&timed), expected);
    assert_eq!(timed.completed(), 640);

    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut planned = GameSearch::new(game, RootSearch::Gumbel);
    search_blocking(
        &mut planned,
        &mut RolloutEvaluator::new(4, 60),
        &config,
        640,
        false,
        &mut rng,
    );
    assert_eq!(visits(&planned), expected);
}

#[test]
fn policy_surprise_is_the_targets_divergence_from_the_priors() {
    // Uniform priors: the surprise is ln(n) minus the target's entropy, 0 only where the target stays uniform.
    let game: Bashni = position("start");
    for (root, sims) in [
        (RootSearch::Gumbel, 1u32),
        (RootSearch::Gumbel, 64),
        (RootSearch::Puct, 64),
    ] {
        let (result, _) = search(&game, root, sims, &mut UniformEvaluator);
        let n = result.legal.len() as f64;
        let expected: f64 = result
            .policy
            .iter()
            .filter(|&&p| p > 0.0)
            .map(|&p| f64::from(p) * (f64::from(p) * n).ln())
            .sum();
        let surprise = f64::from(result.policy_surprise.expect("a search has priors"));
        assert!(
            (surprise - expected.max(0.0)).abs() < 1e-4,
            "{root:?} {sims}: {surprise} against {expected}"
        );
        assert!(surprise >= 0.0 && surprise.is_finite());
    }
    assert_eq!(zero_search::policy_surprise(&[0.5, 0.5], &[0.5, 0.5]), 0.0);
    let sure = zero_search::policy_surprise(&[1.0, 0.0], &[0.1, 0.9]);
    assert!((sure - 10f32.ln()).abs() < 1e-5, "{sure}");
    // A target on an action the network ruled out stays finite.
    assert!(zero_search::policy_surprise(&[1.0, 0.0], &[0.0, 1.0]).is_finite());
}

#[test]
fn multi_jump_wins_are_backed_up_as_wins() {
    // White's c1 man must jump d2 then d4 (two actions of one move); Black is then left with nothing.
    let game: Bashni = position("w c1:w d2:b d4:b");
    for mode in [RootSearch::Puct, RootSearch::Gumbel] {
        let (result, search) = search(&game, mode, 16, &mut RolloutEvaluator::new(5, 100));
        assert!(result.root_value > 0.9, "{mode:?}: root value {}", result.root_value);
        let tree = search.tree();
        let child = tree.child_by_action(0, result.action).unwrap();
        // The first jump keeps White to move: its node's value is a win from White's view, not a loss.
        assert_eq!(tree.node(child).to_move, 0);
        assert!(tree.node(child).q() > 0.9);
    }
    // And from Black's side: a multi-jump loss for the mover is valued as a loss.
    let game: Bashni = position("b f8:b e7:w e5:w h2:w");
    let (result, _) = search(&game, RootSearch::Puct, 32, &mut RolloutEvaluator::new(5, 100));
    assert!(
        result.root_value > 0.9,
        "black wins by f8:d6:f4: root value {}",
        result.root_value
    );
}

#[test]
fn a_non_finite_or_out_of_range_search_setting_is_refused_by_its_name() {
    type Set = fn(&mut SearchConfig, f32);
    let settings: [(&str, Set, f32); 7] = [
        ("c_puct", |c, v| c.c_puct = v, 0.0),
        ("c_puct_base", |c, v| c.c_puct_base = v, -1.0),
        ("dirichlet_alpha_total", |c, v| c.dirichlet_alpha_total = v, 0.0),
        ("gumbel_c_visit", |c, v| c.gumbel_c_visit = v, -1.0),
        ("gumbel_c_scale", |c, v| c.gumbel_c_scale = v, -0.5),
        ("virtual_loss", |c, v| c.virtual_loss = v, -1.0),
        ("fpu_reduction", |c, v| c.fpu_reduction = v, f32::NEG_INFINITY),
    ];
    for (key, set, out_of_range) in settings {
        for bad in [f32::NAN, f32::INFINITY, out_of_range] {
            let mut config = SearchConfig::default();
            set(&mut config, bad);
            let err = config.validate().unwrap_err();
            assert_eq!(err.key, key, "{key} = {bad}: {err}");
        }
    }
    // The edges that still make a search: no growth of c, no virtual loss, an optimistic first-play urgency.
    let edges = SearchConfig {
        c_puct_base: 0.0,
        virtual_loss: 0.0,
        fpu_reduction: -0.5,
        ..SearchConfig::default()
    };
    assert_eq!(edges.validate(), Ok(()));
    assert_eq!(SearchConfig::default().validate(), Ok(()));
}

/// Uniform priors and a flat value, with the position's own score as the predicted one: what a search then
/// prefers comes from the score utility alone.
struct ScoreOnly;

impl<G: Game> Evaluator<G> for ScoreOnly {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        let judge = |r: &EvalRequest<'_, G>| Evaluation {
            score: Some(r.game.score()),
            ..Evaluation::uniform(r.legal.len(), 0.0, false)
        };
        batch.iter().map(judge).collect()
    }

    fn name(&self) -> String {
        "score-only".to_string()
    }
}

#[test]
fn the_searching_sides_score_weight_values_a_capture_and_the_others_does_not() {
    // Tigers to move, three goats taken; a1xa3 takes a fourth (not the fifth, which would end the game).
    let game: BaghChal = position("T...T/...../...../G..../T...T t 16 3");
    let capture = common::first_action(&game, "a1xa3");
    let run = |weights: &str| {
        let config = SearchConfig {
            score_utility: weights.parse().unwrap(),
            ..config(RootSearch::Puct)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut search = GameSearch::new(game.clone(), RootSearch::Puct);
        search_blocking(&mut search, &mut ScoreOnly, &config, 200, true, &mut rng);
        search.finish(0.0, &mut rng)
    };
    // The tigers weigh the score: the capture is the most visited move, and the root is worth more than a draw.
    let tigers = run("0/0.5");
    assert_eq!(tigers.action, capture);
    assert!(tigers.root_value > 0.2, "root value {}", tigers.root_value);
    // Only the goats weigh it: to the tigers' search every leaf is worth its flat value.
    let goats_only = run("0.5/0");
    assert_eq!(goats_only.root_value, 0.0);
}

#[test]
fn score_weights_are_one_for_both_sides_or_a_pair_and_refused_out_of_range() {
    let both: SideWeights = "0.25".parse().unwrap();
    assert_eq!(both, SideWeights::both(0.25));
    assert_eq!(both.to_string(), "0.25");
    let pair: SideWeights = "0.5/0".parse().unwrap();
    assert_eq!((pair.for_side(Side::First), pair.for_side(Side::Second)), (0.5, 0.0));
    assert_eq!(pair.to_string(), "0.5/0");
    let err = "0.5/x".parse::<SideWeights>().unwrap_err();
    assert!(err.to_string().contains("\"x\" is not a number"), "{err}");
    for bad in ["-0.1", "1.5", "NaN", "0/inf"] {
        let config = SearchConfig {
            score_utility: bad.parse().unwrap(),
            ..SearchConfig::default()
        };
        assert_eq!(config.validate().unwrap_err().key, "score_utility", "{bad}");
    }
    // The utility adds the searcher's weight times the score, kept in [-1, 1]; no score leaves the value.
    let config = SearchConfig {
        score_utility: pair,
        ..SearchConfig::default()
    };
    assert_eq!(config.utility(Side::First, 0.5, Some(-0.4)), 0.3);
    assert_eq!(config.utility(Side::First, 0.9, Some(0.8)), 1.0);
    assert_eq!(config.utility(Side::Second, 0.5, Some(-0.4)), 0.5);
    assert_eq!(config.utility(Side::First, 0.5, None), 0.5);
}
