//! Alpha-beta finds forced wins in composed positions of each game, agrees with a brute-force solver on short
//! forced wins in random positions, and never plays an illegal move.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::checks::CheckRng;
use zero_games::tours::Tours;
use zero_games::{Game, Heuristic};
use zero_search::alphabeta::{AlphaBeta, SearchLimit, WIN};

fn engine_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn best<G: Heuristic>(position: &str, limit: SearchLimit) -> (String, i32, G) {
    let rules = G::parse_rules(None, &[]).unwrap();
    let game = G::from_position(&rules, position).unwrap();
    let mut engine = AlphaBeta::<G>::new(limit, engine_rng(1));
    let (mv, info) = engine.search(&game);
    (game.format_move(&mv), info.score, game)
}

/// Whether the side to move can force a win within `plies` of its own and the opponent's moves (plies odd).
fn forced_win<G: Heuristic>(game: &G, plies: u32) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let me = game.to_move();
    moves.iter().any(|mv| {
        let mut child = game.clone();
        child.play(mv);
        match child.outcome() {
            Some(o) => o.winner == Some(me),
            None if plies >= 3 => {
                let mut replies = Vec::new();
                child.legal_moves(&mut replies);
                replies.iter().all(|reply| {
                    let mut next = child.clone();
                    next.play(reply);
                    match next.outcome() {
                        Some(o) => o.winner == Some(me),
                        None => forced_win(&next, plies - 2),
                    }
                })
            }
            None => false,
        }
    })
}

#[test]
fn bagh_chal_tigers_take_the_fifth_goat() {
    // Four goats taken; a1 can jump b2. Any other move lets the goats go on.
    let (mv, score, _) = best::<BaghChal>("T...T/...../...../.G.../T...T t 15 4", SearchLimit::depth(4));
    assert_eq!(mv, "a1xc3");
    assert_eq!(score, WIN - 1);
}

#[test]
fn bagh_chal_tigers_win_in_two_moves() {
    // Four goats taken and no capture now; the tigers can step so that they threaten two goats at once, and
    // the goats cannot cover both: a win in two tiger moves, checked by brute force first.
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let position = "T...T/.G.G./..T../...../....T t 14 4";
    let game = BaghChal::from_position(&rules, position).unwrap();
    assert!(forced_win(&game, 3), "composed position is a forced win");
    let (mv, score, game) = best::<BaghChal>(position, SearchLimit::depth(5));
    assert!(score >= WIN - 3, "{mv} scores {score}");
    let mut after = game.clone();
    after.play(&game.parse_move(&mv).unwrap());
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    for reply in &replies {
        let mut next = after.clone();
        next.play(reply);
        assert!(
            forced_win(&next, 1),
            "{mv} {}: no win follows",
            after.format_move(reply)
        );
    }
}

#[test]
fn tours_takes_the_last_enemy_pawn() {
    // Black's two lone pawns can FORM; the collapse north takes a3 and leaves b3 alone, with no move at all.
    let (mv, score, _) = best::<Tours>("w a1:ww a3:b b3:b", SearchLimit::depth(3));
    assert_eq!(mv, "Ca1:n");
    assert_eq!(score, WIN - 1);
}

#[test]
fn bashni_captures_the_last_tower() {
    // White can take d4 with the man on c3 and leave Black with nothing to command.
    let (mv, score, _) = best::<Bashni>("w c3:w g3:w d4:b", SearchLimit::depth(3));
    assert_eq!(mv, "c3:e5");
    assert_eq!(score, WIN - 1);
}

/// Random positions along random games: alpha-beta's moves are legal, and it sees every forced win in one
/// move (depth 2) and in two moves (depth 4) that brute force finds.
fn agrees_with_brute_force<G: Heuristic>(games: usize, three_ply: bool) {
    let rules = G::parse_rules(None, &[]).unwrap();
    let mut rng = CheckRng::new(42);
    let mut moves = Vec::new();
    let mut checked = 0;
    for g in 0..games {
        let mut game = G::start(&rules);
        while game.outcome().is_none() {
            let mut engine =
                AlphaBeta::<G>::new(SearchLimit::depth(if three_ply { 3 } else { 2 }), engine_rng(g as u64));
            let (mv, info) = engine.search(&game);
            game.legal_moves(&mut moves);
            assert!(moves.contains(&mv), "illegal move {:?} in {}", mv, game.position());
            let win_now = forced_win(&game, 1);
            assert_eq!(
                info.score == WIN - 1,
                win_now,
                "{}: score {}",
                game.position(),
                info.score
            );
            if three_ply && moves.len() <= 12 {
                let win_soon = forced_win(&game, 3);
                assert_eq!(
                    info.score >= WIN - 3,
                    win_soon,
                    "{}: score {}",
                    game.position(),
                    info.score
                );
            }
            checked += 1;
            game.play(&moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 50);
}

#[test]
fn bagh_chal_forced_wins_and_legal_moves() {
    agrees_with_brute_force::<BaghChal>(3, true);
}

#[test]
fn bashni_forced_wins_and_legal_moves() {
    agrees_with_brute_force::<Bashni>(4, true);
}

#[test]
fn tours_forced_wins_and_legal_moves() {
    agrees_with_brute_force::<Tours>(2, false);
}

#[test]
fn node_and_time_limits_stop_the_search() {
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let game = Bashni::start(&rules);
    let mut engine = AlphaBeta::<Bashni>::new(
        SearchLimit {
            nodes: Some(2000),
            ..Default::default()
        },
        engine_rng(0),
    );
    let (_, info) = engine.search(&game);
    assert!(info.depth >= 1 && info.nodes < 200_000, "{info:?}");
    let mut engine = AlphaBeta::<Bashni>::new(
        SearchLimit {
            millis: Some(50),
            ..Default::default()
        },
        engine_rng(0),
    );
    let started = std::time::Instant::now();
    let (mv, _) = engine.search(&game);
    assert!(started.elapsed().as_millis() < 2000);
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert!(legal.contains(&mv));
}
