#![allow(dead_code)]

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::{Action, ActionList, Game};
use zero_search::Evaluator;
use zero_search::{GameSearch, RootSearch, SearchConfig, SearchResult, search_blocking};

/// A search config for composed positions: no noise, greedy choice.
pub fn config(root: RootSearch) -> SearchConfig {
    SearchConfig {
        root: root.into(),
        dirichlet_fraction: 0.0,
        gumbel_actions: 16,
        ..SearchConfig::default()
    }
}

/// Searches `game` with `simulations` and returns the result (greedy action).
pub fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    root: RootSearch,
    simulations: u32,
    evaluator: &mut E,
) -> (SearchResult, GameSearch<G>) {
    let config = config(root);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut search = GameSearch::new(game.clone(), root);
    search_blocking(&mut search, evaluator, &config, simulations, true, &mut rng);
    (search.finish(0.0, &mut rng), search)
}

/// The first action of the move written `text` in `game`.
pub fn first_action<G: Game>(game: &G, text: &str) -> Action {
    let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    let mut actions = ActionList::new();
    game.move_actions(&mv, &mut actions);
    actions[0]
}

pub fn position<G: Game>(text: &str) -> G {
    let rules = G::parse_rules(None, &[]).unwrap();
    G::from_position(&rules, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
