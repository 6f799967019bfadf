//! Bradley-Terry ratings on synthetic results.

use zero_arena::{GameResult, rate};

fn names(n: usize) -> Vec<String> {
    ["random", "b", "c", "d"][..n].iter().map(|s| s.to_string()).collect()
}

/// `games` games between players 0 and 1 (colours alternating) where player 0 scores `score` each game.
fn results(games: usize, score_of_0: impl Fn(usize) -> f64) -> Vec<GameResult> {
    (0..games)
        .map(|k| {
            let s = score_of_0(k);
            if k % 2 == 0 {
                GameResult {
                    first: 0,
                    second: 1,
                    first_score: s,
                }
            } else {
                GameResult {
                    first: 1,
                    second: 0,
                    first_score: 1.0 - s,
                }
            }
        })
        .collect()
}

#[test]
fn a_player_who_always_wins_rates_above_one_who_always_loses() {
    let standings = rate(&names(2), &results(20, |_| 0.0), 0).unwrap();
    let b = standings.get("b").unwrap();
    let random = standings.get("random").unwrap();
    assert!(b.elo > random.elo + 200.0, "{}", standings.table());
    assert!(b.elo.is_finite());
    assert_eq!((b.wins, b.draws, b.losses), (20, 0, 0));
    assert_eq!(standings.rows[0].name, "b");
}

#[test]
fn ratings_are_anchored_at_random() {
    let standings = rate(
        &names(3),
        &[
            results(10, |k| (k % 3) as f64 / 2.0),
            vec![
                GameResult {
                    first: 1,
                    second: 2,
                    first_score: 1.0,
                },
                GameResult {
                    first: 2,
                    second: 1,
                    first_score: 0.5,
                },
                GameResult {
                    first: 0,
                    second: 2,
                    first_score: 0.0,
                },
            ],
        ]
        .concat(),
        0,
    )
    .unwrap();
    assert_eq!(standings.anchor, "random");
    let random = standings.get("random").unwrap();
    assert_eq!(random.elo, 0.0);
    assert_eq!(random.elo_interval, 0.0);
}

#[test]
fn all_draws_give_equal_ratings() {
    let mut all = results(30, |_| 0.5);
    all.extend((0..30).map(|k| GameResult {
        first: 1 + k % 2,
        second: 2 - k % 2,
        first_score: 0.5,
    }));
    all.extend((0..30).map(|_| GameResult {
        first: 2,
        second: 0,
        first_score: 0.5,
    }));
    let standings = rate(&names(3), &all, 0).unwrap();
    for row in &standings.rows {
        assert!(row.elo.abs() < 1e-6, "{}", standings.table());
        assert!((row.score_percent - 50.0).abs() < 1e-9);
    }
}

#[test]
fn intervals_shrink_with_more_games() {
    // Player 0 scores 60%: win, loss, win, draw, draw, ... over every 5 games: 1 + 0 + 1 + 0.5 + 0.5 = 3/5.
    let pattern = |k: usize| [1.0, 0.0, 1.0, 0.5, 0.5][k % 5];
    let few = rate(&names(2), &results(20, pattern), 0).unwrap();
    let many = rate(&names(2), &results(400, pattern), 0).unwrap();
    let (few, many) = (few.get("b").unwrap(), many.get("b").unwrap());
    assert!(
        many.elo_interval < few.elo_interval / 3.0,
        "{} vs {}",
        many.elo_interval,
        few.elo_interval
    );
    // 60% is about 70 Elo for player 0, so about -70 for b.
    assert!((many.elo + 70.0).abs() < 10.0, "{}", many.elo);
    assert!(many.elo + many.elo_interval > -70.5 && many.elo - many.elo_interval < -69.5);
}

#[test]
fn a_disconnected_pool_is_refused() {
    let all = vec![
        GameResult {
            first: 0,
            second: 1,
            first_score: 1.0,
        },
        GameResult {
            first: 2,
            second: 3,
            first_score: 0.0,
        },
    ];
    assert!(rate(&names(4), &all, 0).is_err());
}
