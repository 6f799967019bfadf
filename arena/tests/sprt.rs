//! The SPRT on synthetic players: decisions go the right way within a bound of games.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zero_arena::{Sprt, SprtDecision};

/// Pairs of game scores for a candidate who wins with probability `win`, draws with `draw`.
fn synthetic_pairs(seed: u64, win: f64, draw: f64) -> impl Iterator<Item = (f64, f64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = move || {
        let x: f64 = rng.random();
        if x < win {
            1.0
        } else if x < win + draw {
            0.5
        } else {
            0.0
        }
    };
    std::iter::repeat_with(move || (game(), game())).take(5000)
}

#[test]
fn a_clearly_stronger_player_is_accepted() {
    let sprt = Sprt::new(0.0, 30.0, 0.05, 0.05);
    for seed in 0..5 {
        // 65% wins, 10% draws: about +190 Elo.
        let report = sprt.run_pairs(synthetic_pairs(seed, 0.65, 0.10));
        assert_eq!(report.decision, SprtDecision::AcceptH1, "{report:?}");
        assert!(report.games <= 400, "took {} games", report.games);
        assert!(report.llr >= report.upper);
        assert!(report.score > 0.6);
    }
}

#[test]
fn an_equal_player_is_rejected() {
    let sprt = Sprt::new(0.0, 30.0, 0.05, 0.05);
    let mut games = Vec::new();
    for seed in 0..5 {
        let report = sprt.run_pairs(synthetic_pairs(100 + seed, 0.4, 0.2));
        assert_eq!(report.decision, SprtDecision::AcceptH0, "{report:?}");
        assert!(report.llr <= report.lower);
        games.push(report.games);
    }
    assert!(games.iter().all(|&g| g <= 6000), "{games:?}");
}

#[test]
fn a_weaker_player_is_rejected_quickly_and_few_games_continue() {
    let sprt = Sprt::new(0.0, 30.0, 0.05, 0.05);
    let report = sprt.run_pairs(synthetic_pairs(7, 0.2, 0.1));
    assert_eq!(report.decision, SprtDecision::AcceptH0);
    assert!(report.games <= 200, "{report:?}");
    let short = sprt.run_pairs([(1.0, 0.0), (0.5, 0.5)]);
    assert_eq!(short.decision, SprtDecision::Continue);
    assert_eq!(short.games, 4);
}

#[test]
fn bounds_and_llr_signs() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
    let (lower, upper) = sprt.bounds();
    assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
    assert!(sprt.llr_trinomial(60, 20, 20) > 0.0);
    assert!(sprt.llr_trinomial(20, 20, 60) < 0.0);
    assert!(sprt.llr_pentanomial([1, 5, 20, 30, 10]) > 0.0);
}
