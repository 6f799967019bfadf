//! The search finds a win in one and avoids a loss in one in composed positions of each game, in both root
//! modes, with uniform priors and zero values (UniformEvaluator): only the tree search itself can see the
//! tactic. (Random rollouts judge these endgames as already decided, whatever is played.)

mod common;

use common::{first_action, position, search};
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::tours::Tours;
use zero_search::RootSearch;
use zero_search::UniformEvaluator;

const MODES: [RootSearch; 2] = [RootSearch::Puct, RootSearch::Gumbel];

fn assert_plays<G: Game>(text: &str, expected_move: &str, simulations: u32) {
    let game: G = position(text);
    let expected = first_action(&game, expected_move);
    for mode in MODES {
        let (result, _) = search(&game, mode, simulations, &mut UniformEvaluator);
        assert_eq!(
            result.action,
            expected,
            "{} {text}, {mode:?}: played {} instead of {expected_move}; policy {:?} over {:?}",
            G::NAME,
            G::describe_action(result.action),
            result.policy,
            result.legal.iter().map(|&a| G::describe_action(a)).collect::<Vec<_>>()
        );
    }
}

#[test]
fn baghchal_tigers_take_the_fifth_goat() {
    assert_plays::<BaghChal>("T...T/...../...../.G.../T...T t 15 4", "a1xc3", 200);
}

#[test]
fn baghchal_goats_block_the_fifth_capture() {
    assert_plays::<BaghChal>("T...T/...../...../.G.../T...T g 15 4", "c3", 400);
}

#[test]
fn tours_collapse_that_leaves_the_opponent_a_last_lone_pawn() {
    // Black's tower is its last mobile piece: taking its top pawn leaves a lone pawn, which cannot move. The
    // other collapses let Black take White's top pawn instead and win the same way.
    assert_plays::<Tours>("w a1:ww c1:bb", "Ca1:e", 200);
}

#[test]
fn tours_form_avoids_handing_over_the_last_pawn() {
    assert_plays::<Tours>("w a1:w b1:w a3:bb", "Fb1-a1", 200);
}

#[test]
fn bashni_capture_that_leaves_no_move() {
    assert_plays::<Bashni>("w a3:w c3:w d2:w e3:w d6:w b4:b d4:b", "e3:c5", 200);
}

#[test]
fn bashni_quiet_move_that_hands_over_no_capture() {
    assert_plays::<Bashni>("w c1:w a3:b", "c1-d2", 200);
}
