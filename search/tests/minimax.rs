//! Implicit minimax backups: every judged node holds the negamax of its children's judgements, the leaves hold
//! the judge's own view of their positions, a weight of 0 keeps none, and the judgement alone makes a search
//! whose values see nothing take material.

mod common;

use common::{first_action, position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::tours::Tours;
use zero_games::{Game, Heuristic};
use zero_search::minimax::heuristic_judge;
use zero_search::{
    GameSearch, NodeId, NodeState, RolloutEvaluator, RootSearch, SearchConfig, Tree, UniformEvaluator, search_blocking,
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

#[test]
fn the_judgement_alone_takes_a_free_goat() {
    // Tigers to move with 15 goats in hand, 3 taken, goats on a3 and b2: a1xc3 takes the fourth. Uniform priors
    // and zero values see nothing in it; the judge counts the goat.
    let game: BaghChal = position("T...T/...../G..../.G.../T...T t 15 3");
    let expected = first_action(&game, "a1xc3");
    let config = SearchConfig {
        root: RootSearch::Puct.into(),
        dirichlet_fraction: 0.0,
        minimax_weight: 0.5,
        ..SearchConfig::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut search = GameSearch::new(game.clone(), RootSearch::Puct);
    search.set_static_judge(heuristic_judge::<BaghChal>);
    search_blocking(&mut search, &mut UniformEvaluator, &config, 48, false, &mut rng);
    let played = search.finish(0.0, &mut rng).action;
    assert_eq!(played, expected, "played {}", BaghChal::describe_action(played));
}
