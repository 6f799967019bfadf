//! Implicit minimax backups: every judged node holds the negamax of its children's judgements, the leaves hold
//! the judge's own view of their positions, a weight of 0 keeps none, and the judgement alone makes a search
//! whose values see nothing take material.

mod common;

use common::{first_action, position};
use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::heuristic::value_after;
use zero_games::tours::Tours;
use zero_games::{ActionList, Game, Heuristic};
use zero_search::minimax::{QUIESCENCE_PLIES, heuristic_judge};
use zero_search::{
    GameSearch, NodeId, NodeState, RolloutEvaluator, RootSearch, SearchConfig, SearchResult, Tree, UniformEvaluator,
    search_blocking,
};

fn judged_search<G: Heuristic>(game: &G, weight: f32, root: RootSearch, simulations: u32) -> GameSearch<G> {
    let config = SearchConfig {
        root: root.into(),
        minimax_weight: weight,
        leaf_batch: 8,
        ..SearchConfig::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut search = GameSearch::new(game.clone(), root);
    search.set_static_judge(heuristic_judge::<G>);
    search_blocking(
        &mut search,
        &mut RolloutEvaluator::new(3, 40),
        &config,
        simulations,
        true,
        &mut rng,
    );
    search
}

/// Checks the node `id` (position `game`, reached by a move of `mover`; None at the root) and its subtree;
/// returns the judged nodes seen.
fn check_subtree<G: Heuristic>(tree: &Tree, id: NodeId, game: &G, mover: Option<zero_games::Side>) -> usize {
    let node = tree.node(id);
    if node.state != NodeState::Expanded {
        let judged = heuristic_judge(game, mover.expect("the root is expanded"));
        assert_eq!(node.minimax, judged, "{} leaf {:?}", G::NAME, node);
        return 1;
    }
    let best = node
        .children()
        .map(|c| tree.node(c).minimax)
        .fold(f32::NEG_INFINITY, f32::max);
    if let Some(mover) = mover {
        let expected = if game.to_move() == mover { best } else { -best };
        assert_eq!(node.minimax, expected, "{} inner node {:?}", G::NAME, node);
    }
    let mut seen = 1;
    for child in node.children() {
        let mut next = game.clone();
        next.apply_action(tree.node(child).action);
        seen += check_subtree(tree, child, &next, Some(game.to_move()));
    }
    seen
}

fn assert_negamax_of_the_judge<G: Heuristic>(game: G) {
    for root in [RootSearch::Puct, RootSearch::Gumbel] {
        let search = judged_search(&game, 0.5, root, 300);
        let seen = check_subtree(search.tree(), 0, &game, None);
        assert!(seen > 300, "{}: only {seen} nodes judged", G::NAME);
    }
}

#[test]
fn every_node_holds_the_negamax_of_its_childrens_judgements() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    assert_negamax_of_the_judge(Tours::start(&Tours::parse_rules(None, &[]).unwrap()));
    assert_negamax_of_the_judge(BaghChal::start(&BaghChal::parse_rules(None, &[]).unwrap()));
    // A Bashni middle game, where captures are moves of several actions with the same side to move.
    let mut bashni = Bashni::start(&Bashni::parse_rules(None, &[]).unwrap());
    let mut line = Vec::new();
    zero_search::balance::play_random_moves(&mut bashni, 12, &mut rng, &mut line);
    if bashni.outcome().is_none() {
        assert_negamax_of_the_judge(bashni);
    }
}

#[test]
fn a_weight_of_zero_judges_nothing() {
    let game = Tours::start(&Tours::parse_rules(None, &[]).unwrap());
    let search = judged_search(&game, 0.0, RootSearch::Puct, 100);
    let tree = search.tree();
    assert!((0..tree.len() as NodeId).all(|id| tree.node(id).minimax.is_nan()));
}

/// Tigers to move with 15 goats in hand, 3 taken, goats on a3 and b2: a1xc3 takes the fourth.
const FREE_GOAT: &str = "T...T/...../G..../.G.../T...T t 15 3";

/// A judged search of `simulations` from [`FREE_GOAT`] with uniform priors and zero values, so that only the
/// minimax tells the moves apart, and the result it finishes with.
fn free_goat_search(root: RootSearch, weight: f32, simulations: u32) -> (GameSearch<BaghChal>, SearchResult) {
    let config = SearchConfig {
        root: root.into(),
        dirichlet_fraction: 0.0,
        minimax_weight: weight,
        ..SearchConfig::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut search = GameSearch::new(position::<BaghChal>(FREE_GOAT), root);
    search.set_static_judge(heuristic_judge::<BaghChal>);
    search_blocking(
        &mut search,
        &mut UniformEvaluator,
        &config,
        simulations,
        false,
        &mut rng,
    );
    let result = search.finish(0.0, &mut rng);
    (search, result)
}

#[test]
fn the_judgement_alone_takes_a_free_goat() {
    // Uniform priors and zero values see nothing in a1xc3; the judge counts the goat.
    let expected = first_action(&position::<BaghChal>(FREE_GOAT), "a1xc3");
    let played = free_goat_search(RootSearch::Puct, 0.5, 48).1.action;
    assert_eq!(played, expected, "played {}", BaghChal::describe_action(played));
}

/// A Gumbel-root search from [`FREE_GOAT`], where a root child's completed Q is its minimax times `weight`
/// alone: the action played, the training target and each root child's minimax.
fn gumbel_search(weight: f32) -> (zero_games::Action, Vec<f32>, Vec<f32>, Vec<zero_games::Action>) {
    let (search, result) = free_goat_search(RootSearch::Gumbel, weight, 64);
    let tree = search.tree();
    let minimax = tree.root().children().map(|c| tree.node(c).minimax).collect();
    let actions = tree.root().children().map(|c| tree.node(c).action).collect();
    (result.action, result.policy, minimax, actions)
}

#[test]
fn the_gumbel_roots_move_and_target_follow_the_minimax() {
    // Self-play's Gumbel root values its children with their minimax too, as PUCT does below it: with nothing
    // else to tell them apart, the training target ranks the children as their minimax does and the move
    // played is the best of them. Without the weight every completed Q is 0 and the target flat.
    let (played, policy, minimax, actions) = gumbel_search(0.5);
    assert!(
        minimax.iter().all(|m| m.is_finite()),
        "every root child judged: {minimax:?}"
    );
    for i in 0..policy.len() {
        for j in 0..policy.len() {
            if minimax[i] > minimax[j] + 1e-6 {
                assert!(policy[i] > policy[j], "target {policy:?} against minimax {minimax:?}");
            }
        }
    }
    let best = (0..minimax.len())
        .max_by(|&a, &b| minimax[a].total_cmp(&minimax[b]))
        .unwrap();
    assert_eq!(
        minimax[actions.iter().position(|&a| a == played).unwrap()],
        minimax[best],
        "played {played}"
    );
    let (_, flat, _, _) = gumbel_search(0.0);
    let spread = flat.iter().fold(0.0f32, |m, &p| m.max(p)) - flat.iter().fold(1.0f32, |m, &p| m.min(p));
    assert!(spread < 1e-6, "target without the weight {flat:?}");
}

/// The settled value of `game` from its side to move's view, by the plain negamax of its heuristic and every
/// capture, `plies` deep, without the judge's pruning.
fn reference_settled<G: Heuristic>(game: &G, plies: u32) -> f32 {
    if let Some(outcome) = game.outcome() {
        return outcome.value_for(game.to_move());
    }
    let mut best = game.heuristic().clamp(-1.0, 1.0);
    if plies == 0 {
        return best;
    }
    let mut captures = ActionList::new();
    game.captures(&mut captures);
    for &action in captures.iter() {
        let mut next = game.clone();
        next.apply_action(action);
        let value = reference_settled(&next, plies - 1);
        best = best.max(if next.to_move() == game.to_move() {
            value
        } else {
            -value
        });
    }
    best
}

/// Judges every child of every position of `games` random playouts, checks each judgement against the
/// reference and the one-ply judgement, and returns how many children were judged and how many of them the
/// captures changed.
fn judge_playouts<G: Heuristic>(start: G, games: u64) -> (usize, usize) {
    let (mut judged, mut changed) = (0, 0);
    let mut actions = ActionList::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = start.clone();
        for _ in 0..150 {
            if game.outcome().is_some() {
                break;
            }
            game.legal_actions(&mut actions);
            let mover = game.to_move();
            for &action in actions.iter() {
                let mut child = game.clone();
                child.apply_action(action);
                let judgement = heuristic_judge(&child, mover);
                let settled = reference_settled(&child, QUIESCENCE_PLIES);
                let reference = if child.to_move() == mover { settled } else { -settled };
                let one_ply = value_after(&child, mover).clamp(-1.0, 1.0);
                assert_eq!(judgement, reference, "{}: {}", G::NAME, child.position());
                if child.to_move() != mover {
                    // The side to move may decline every capture, so taking them can only worsen the mover's lot.
                    assert!(
                        judgement <= one_ply,
                        "{}: {judgement} above {one_ply}",
                        child.position()
                    );
                }
                judged += 1;
                changed += usize::from(judgement != one_ply);
            }
            let action = actions[rng.random_range(0..actions.len())];
            game.apply_action(action);
        }
    }
    (judged, changed)
}

#[test]
fn the_judge_plays_out_the_pending_captures() {
    for variant in [None, Some("compound")] {
        let (judged, changed) = judge_playouts(Tours::start(&Tours::parse_rules(variant, &[]).unwrap()), 6);
        assert!(
            changed * 10 > judged,
            "{variant:?}: captures changed {changed} of {judged} judgements"
        );
    }
}

#[test]
fn a_game_that_names_no_captures_is_judged_one_ply_deep() {
    let (judged, changed) = judge_playouts(BaghChal::start(&BaghChal::parse_rules(None, &[]).unwrap()), 3);
    assert!(
        judged > 1000 && changed == 0,
        "{changed} of {judged} judgements differ from one ply"
    );
}
