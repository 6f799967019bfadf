//! Every registered game ends within the number of actions its rules promise (`Game::max_actions`), which
//! Python's OpenSpiel-shaped API reports as `max_game_length`.

use zero_games::checks::CheckRng;
use zero_games::{ActionList, Game, GameKind, with_game};

/// Plays `games` random games of `G` under its default rules, counting actions; returns the longest.
fn longest_random_game<G: Game>(games: usize, seed: u64) -> (u32, Option<u32>) {
    let rules = G::parse_rules(None, &[]).unwrap();
    let bound = G::max_actions(&rules);
    let mut rng = CheckRng::new(seed);
    let mut actions = ActionList::new();
    let mut longest = 0;
    for _ in 0..games {
        let mut game = G::start(&rules);
        let mut played = 0u32;
        while game.outcome().is_none() {
            game.legal_actions(&mut actions);
            game.apply_action(actions[rng.below(actions.len())]);
            played += 1;
            assert!(
                bound.is_none_or(|b| played <= b),
                "{}: {played} actions, past the bound {bound:?}",
                G::NAME
            );
        }
        longest = longest.max(played);
    }
    (longest, bound)
}

#[test]
fn random_games_end_within_the_bound_the_rules_promise() {
    for &kind in GameKind::ALL {
        let (longest, bound) = with_game!(kind, G => longest_random_game::<G>(40, 7));
        let bound = bound.unwrap_or_else(|| panic!("{kind}: the default rules bound a game"));
        assert!(
            longest > 0 && longest <= bound,
            "{kind}: longest {longest}, bound {bound}"
        );
    }
}

#[test]
fn a_bound_without_draw_rules_is_the_boards_own_and_holds_too() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let rules = G::without_draw_rules(&G::parse_rules(None, &[]).unwrap());
            if let Some(bound) = G::max_actions(&rules) {
                let mut rng = CheckRng::new(11);
                let mut actions = ActionList::new();
                for _ in 0..20 {
                    let mut game = G::start(&rules);
                    let mut played = 0;
                    while game.outcome().is_none() && played <= bound {
                        game.legal_actions(&mut actions);
                        game.apply_action(actions[rng.below(actions.len())]);
                        played += 1;
                    }
                    assert!(game.outcome().is_some(), "{kind}: still going after {bound} actions");
                }
            }
        });
    }
}
