//! Random playouts under every preset, checked by the generic invariants of `zero_games::checks`, plus
//! Bashni's own: 12 pieces of each colour always on the board.

use zero_games::bashni::{Bashni, Rules, VARIANTS};
use zero_games::checks::{CheckRng, random_playout};
use zero_games::{EndReason, Game};

/// Games per preset: a few hundred in release, fewer in debug so that the suite stays quick.
const GAMES: u64 = if cfg!(debug_assertions) { 30 } else { 300 };

fn twelve_each(game: &Bashni) -> Result<(), String> {
    match game.piece_counts() {
        [12, 12] => Ok(()),
        counts => Err(format!("{}: piece counts {counts:?}", game.position())),
    }
}

#[test]
fn playouts_keep_every_invariant_under_every_preset() {
    for variant in VARIANTS {
        let rules = Rules::parse(Some(variant), &[]).expect("a preset");
        let mut reasons = std::collections::BTreeMap::new();
        for seed in 0..GAMES {
            let mut rng = CheckRng::new(seed);
            let end = random_playout(Bashni::start(&rules), &mut rng, 5000, twelve_each)
                .unwrap_or_else(|e| panic!("{variant}, seed {seed}: {e}"));
            let outcome = end.outcome().expect("the playout ended");
            *reasons.entry(outcome.reason.as_str()).or_insert(0) += 1;
            if outcome.reason == EndReason::NoLegalMove {
                assert_eq!(outcome.winner, Some(end.to_move().other()));
            }
        }
        eprintln!("{variant}: {reasons:?}");
    }
}
