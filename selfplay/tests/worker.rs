//! Whole games from the worker: records replay legally to their outcome, targets are distributions over the
//! legal actions, and a run is reproducible from its seed.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zero_data::{GameRecord, PositionRecord};
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::policy_index;
use zero_games::tours::Tours;
use zero_games::{Encoding, EndReason, Game, Heuristic, Side};
use zero_search::alphabeta::{AlphaBeta, SearchLimit};
use zero_search::balance::{BalanceJudge, SELFPLAY_BALANCE_DEPTH};
use zero_search::{RolloutEvaluator, RootSearch, SearchConfig, UniformEvaluator};
use zero_selfplay::{
    BootstrapConfig, MemorySink, Progress, ResignConfig, SelfPlayConfig, SelfPlayStats, SparringConfig, SparringSide,
    derive_seed, run_selfplay,
};

fn small_config(root: RootSearch, workers: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        search: SearchConfig {
            root: root.into(),
            simulations: 12,
            gumbel_actions: 4,
            ..SearchConfig::default()
        },
        cheap_simulations: 4,
        full_search_prob: 0.5,
        games_in_flight: 3,
        leaves_per_game: 2,
        workers,
        seed: 11,
        resign: ResignConfig {
            threshold: -0.5,
            consecutive: 2,
            check_fraction: 0.5,
            ..Default::default()
        },
        ..SelfPlayConfig::default()
    }
}

fn check_game<G: Encoding>(rules: &G::Rules, game: &GameRecord, positions: &[PositionRecord]) {
    check_game_of::<G>(rules, game, positions, None, 0);
}

/// Replays `game` against its positions: one per action, or, with `recorded`, one per action of that side only
/// (a sparring game, whose engine side is not recorded), none for the first `opening` actions.
fn check_game_of<G: Encoding>(
    rules: &G::Rules,
    game: &GameRecord,
    positions: &[PositionRecord],
    recorded: Option<Side>,
    opening: u32,
) {
    let mut state = if game.start_position == "start" {
        G::start(rules)
    } else {
        G::from_position(rules, &game.start_position).unwrap()
    };
    let mut by_step = positions.iter().peekable();
    let mut step = 0u32;
    for text in &game.moves {
        let mv = state
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{}: {e}", game.game_id));
        let mut actions = zero_games::ActionList::new();
        state.move_actions(&mv, &mut actions);
        for &a in actions.iter() {
            if step < opening || recorded.is_some_and(|side| side != state.to_move()) {
                state.apply_action(a);
                step += 1;
                continue;
            }
            let p = by_step.next().expect("one position per action");
            assert_eq!(p.step, step);
            assert_eq!(p.position, state.position());
            let mut legal = zero_games::ActionList::new();
            state.legal_actions(&mut legal);
            let legal_idx: Vec<u16> = legal.iter().map(|&a| policy_index(&state, a) as u16).collect();
            let mut sorted = p.legal_actions.clone();
            sorted.sort_unstable();
            let mut expected = legal_idx.clone();
            expected.sort_unstable();
            assert_eq!(sorted, expected);
            assert!(p.policy_actions.iter().all(|a| legal_idx.contains(a)));
            let sum: f32 = p.policy_probs.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "policy sums to {sum}");
            let me = Side::from_index(p.side_to_move as usize);
            assert_eq!(me, state.to_move());
            let expected_result = match game.winner {
                None => 0.0,
                Some(w) if w as usize == me.index() => 1.0,
                Some(_) => -1.0,
            };
            assert_eq!(p.result, expected_result);
            state.apply_action(a);
            step += 1;
        }
    }
    assert_eq!(state.ply(), game.plies);
    if game.reason == EndReason::Resignation.as_str() {
        assert!(state.outcome().is_none());
        // A resignation during a move leaves at most its own search unplayed.
        assert!(by_step.count() <= 1);
    } else {
        let outcome = state.outcome().expect("the record ends in a finished game");
        assert_eq!(outcome.reason.as_str(), game.reason);
        assert_eq!(outcome.winner.map(|w| w.index() as u8), game.winner);
        assert_eq!(by_step.count(), 0);
    }
}

/// Plays `games` games of `config` with random playouts of at most `playout_actions` actions, worker `w`'s
/// evaluator seeded with `w + seed_offset`; returns the statistics and the recorded games.
fn play_with<G: Encoding + Heuristic>(
    config: &SelfPlayConfig,
    rules: &G::Rules,
    games: usize,
    seed_offset: u64,
    playout_actions: u32,
) -> (SelfPlayStats, MemorySink) {
    let mut sink = MemorySink::default();
    let stats = run_selfplay::<G, _, _, _>(
        config,
        rules,
        &[],
        games,
        |w| Ok::<_, String>(RolloutEvaluator::new(w as u64 + seed_offset, playout_actions)),
        &mut sink,
        &Progress::default(),
    )
    .unwrap();
    (stats, sink)
}

/// Plays `games` games of `config` with the uniform evaluator: no chance in the evaluations.
fn play_uniform<G: Encoding + Heuristic>(config: &SelfPlayConfig, rules: &G::Rules, games: usize) -> MemorySink {
    let mut sink = MemorySink::default();
    run_selfplay::<G, _, _, _>(
        config,
        rules,
        &[],
        games,
        |_| Ok::<_, String>(UniformEvaluator),
        &mut sink,
        &Progress::default(),
    )
    .unwrap();
    sink
}

fn play<G: Encoding + Heuristic>(options: &[&str], root: RootSearch, workers: usize, games: usize) -> MemorySink {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let rules = G::parse_rules(None, &options).unwrap();
    let (stats, sink) = play_with::<G>(&small_config(root, workers), &rules, games, 0, 100);
    assert_eq!(stats.games as usize, games);
    assert!(
        stats.mean_batch() > 1.0,
        "batches gather several leaves: {}",
        stats.mean_batch()
    );
    for (game, positions) in &sink.games {
        check_game::<G>(&rules, game, positions);
    }
    sink
}

#[test]
fn bashni_games_replay_to_their_outcome() {
    play::<Bashni>(&["max_plies=60"], RootSearch::Gumbel, 1, 4);
    play::<Bashni>(&["max_plies=60"], RootSearch::Puct, 2, 3);
}

#[test]
fn baghchal_games_replay_to_their_outcome() {
    play::<BaghChal>(&["max-plies=60"], RootSearch::Puct, 1, 3);
}

#[test]
fn tours_games_replay_to_their_outcome() {
    play::<Tours>(&["max-plies=40", "compound=true"], RootSearch::Gumbel, 1, 3);
}

#[test]
fn each_side_searches_with_its_own_root_in_self_play() {
    // A Gumbel root's target is its improved policy, softmax over every legal action; a PUCT root's is its
    // visit shares, which 12 simulations cannot spread over the goats' 21 first placements.
    let rules = BaghChal::parse_rules(None, &["max-plies=30".to_string()]).unwrap();
    let targets = |roots: &str| -> Vec<(u8, bool)> {
        let config = SelfPlayConfig {
            full_search_prob: 1.0,
            search: SearchConfig {
                root: roots.parse().unwrap(),
                ..small_config(RootSearch::Puct, 1).search
            },
            ..small_config(RootSearch::Puct, 1)
        };
        let sink = play_uniform::<BaghChal>(&config, &rules, 3);
        for (game, positions) in &sink.games {
            check_game::<BaghChal>(&rules, game, positions);
        }
        let positions = sink.games.iter().flat_map(|(_, p)| p);
        positions
            .map(|p| (p.side_to_move, p.policy_actions.len() == p.legal_actions.len()))
            .collect()
    };
    let dense = |targets: &[(u8, bool)], side: u8| targets.iter().filter(|t| t.0 == side).all(|t| t.1);
    let goats_gumbel = targets("gumbel/puct");
    assert!(
        dense(&goats_gumbel, 0),
        "the goats' Gumbel targets cover every legal action"
    );
    let tigers_gumbel = targets("puct/gumbel");
    assert!(
        dense(&tigers_gumbel, 1),
        "the tigers' Gumbel targets cover every legal action"
    );
    assert!(!dense(&tigers_gumbel, 0), "the goats' PUCT targets leave actions out");
}

#[test]
fn a_drawn_games_positions_take_the_judged_score_of_its_final_position() {
    let rules = Tours::parse_rules(None, &["max-plies=16".to_string()]).unwrap();
    let config = SelfPlayConfig {
        draw_score: 0.5,
        resign: ResignConfig {
            threshold: -1.0,
            ..Default::default()
        },
        ..small_config(RootSearch::Gumbel, 1)
    };
    let (_, sink) = play_with::<Tours>(&config, &rules, 4, 0, 100);
    let mut judged = 0;
    for (game, positions) in &sink.games {
        assert_eq!(game.winner, None, "16 plies of Tours end by the ply limit");
        let mut last = Tours::start(&rules);
        for text in &game.moves {
            let mv = last.parse_move(text).unwrap();
            last.play(&mv);
        }
        let score = 0.5 * last.heuristic();
        judged += (score != 0.0) as usize;
        for p in positions {
            let mine = if p.side_to_move as usize == last.to_move().index() {
                score
            } else {
                -score
            };
            assert_eq!(p.result, mine, "{} step {}", game.game_id, p.step);
        }
    }
    assert!(judged > 0, "some final position is judged other than level");
}

#[test]
fn policy_surprise_weighting_repeats_or_drops_full_searches_and_keeps_cheap_ones_once() {
    let rules = Bashni::parse_rules(None, &["max_plies=40".to_string()]).unwrap();
    let config = SelfPlayConfig {
        policy_surprise_weight: 1.0,
        ..small_config(RootSearch::Gumbel, 1)
    };
    let (stats, sink) = play_with::<Bashni>(&config, &rules, 4, 0, 100);
    let (mut repeated, mut dropped, mut rows) = (0, 0, 0);
    for (game, positions) in &sink.games {
        rows += positions.len();
        // A search at every step below the game's actions (and one at the end where a side resigned there): a
        // missing step is a dropped full search.
        let Some(first) = positions.first() else {
            continue;
        };
        let actions = first.step + first.plies_to_end;
        let mut copies = vec![0u32; actions as usize + 1];
        for pair in positions.windows(2) {
            assert!(pair[0].step <= pair[1].step, "{}: records out of order", game.game_id);
        }
        for p in positions {
            assert_eq!(p.step + p.plies_to_end, actions, "{} step {}", game.game_id, p.step);
            copies[p.step as usize] += 1;
            if !p.full_search {
                let count = positions.iter().filter(|q| q.step == p.step).count();
                assert_eq!(
                    count, 1,
                    "{}: cheap search at step {} written {count} times",
                    game.game_id, p.step
                );
            }
        }
        repeated += copies.iter().filter(|&&c| c > 1).count();
        dropped += copies[..actions as usize].iter().filter(|&&c| c == 0).count();
    }
    assert!(
        repeated > 0 && dropped > 0,
        "{repeated} searches repeated, {dropped} dropped"
    );
    assert_eq!(
        stats.positions as usize, rows,
        "the statistics count the records written"
    );
}

#[test]
fn uniform_evaluator_games_are_recorded_too() {
    let rules = Bashni::parse_rules(None, &["max_plies=30".to_string()]).unwrap();
    let sink = play_uniform::<Bashni>(&small_config(RootSearch::Puct, 1), &rules, 2);
    assert_eq!(sink.games.len(), 2, "both games recorded");
    for (game, positions) in &sink.games {
        assert!(!positions.is_empty(), "{}: no position recorded", game.game_id);
        check_game::<Bashni>(&rules, game, positions);
    }
}

#[test]
fn runs_are_reproducible_for_a_seed_and_worker_count() {
    let a = play::<Bashni>(&["max_plies=40"], RootSearch::Gumbel, 2, 4);
    let b = play::<Bashni>(&["max_plies=40"], RootSearch::Gumbel, 2, 4);
    assert_eq!(a.games, b.games);
}

#[test]
fn a_resignation_check_is_played_out_by_a_stronger_search_of_the_resigning_side() {
    let rules = BaghChal::parse_rules(None, &["max-plies=60".to_string()]).unwrap();
    // Every would-be resignation is checked; random playouts judge positions harshly enough to trigger some.
    let config = SelfPlayConfig {
        resign: ResignConfig {
            threshold: -0.1,
            consecutive: 1,
            check_fraction: 1.0,
            check_strength: 3,
            ..Default::default()
        },
        full_search_prob: 0.0,
        ..small_config(RootSearch::Puct, 1)
    };
    let (stats, sink) = play_with::<BaghChal>(&config, &rules, 6, 3, 60);
    assert!(stats.resign_checks > 0, "no would-be resignation to check: {stats}");
    assert_eq!(stats.results.keys().filter(|(_, r)| r == "resignation").count(), 0);
    let strong = config.search.simulations * 3;
    for (game, positions) in &sink.games {
        check_game::<BaghChal>(&rules, game, positions);
        let strengthened = positions.iter().filter(|p| p.simulations == strong).count();
        if game.resigned_false_check {
            // After the would-be resignation, the resigning side's searches are full and three times as long.
            assert!(strengthened > 0, "{}: no strengthened search", game.game_id);
            assert!(
                positions
                    .iter()
                    .filter(|p| p.simulations == strong)
                    .all(|p| p.full_search)
            );
        } else {
            assert_eq!(strengthened, 0, "{}", game.game_id);
        }
    }
}

#[test]
fn each_side_searches_with_its_own_share_of_the_simulations() {
    let rules = BaghChal::parse_rules(None, &["max-plies=40".to_string()]).unwrap();
    let config = SelfPlayConfig {
        resign: ResignConfig {
            threshold: -1.0,
            ..Default::default()
        },
        side_simulations: [1.0, 2.5],
        ..small_config(RootSearch::Gumbel, 1)
    };
    let (_, sink) = play_with::<BaghChal>(&config, &rules, 4, 0, 60);
    // The goats (first) search 12 (full) or 4 (cheap) simulations, the tigers 2.5 times as many.
    let mut seen = std::collections::BTreeSet::new();
    for (game, positions) in &sink.games {
        check_game::<BaghChal>(&rules, game, positions);
        for p in positions {
            let expected = match (p.side_to_move, p.full_search) {
                (0, true) => 12,
                (0, false) => 4,
                (_, true) => 30,
                (_, false) => 10,
            };
            assert_eq!(p.simulations, expected, "{} step {}", game.game_id, p.step);
            seen.insert(expected);
        }
    }
    assert_eq!(seen.len(), 4, "every kind of search was played: {seen:?}");
}

#[test]
fn a_resign_threshold_outside_the_value_range_is_refused_by_name() {
    // From the audit of issue 103: 2.0 was accepted and resigned every game.
    for bad in [2.0, 1.01, -1.5, f32::NAN] {
        let config = SelfPlayConfig {
            resign: ResignConfig {
                threshold: bad,
                ..Default::default()
            },
            ..SelfPlayConfig::default()
        };
        let err = config.validate().unwrap_err();
        assert_eq!(err.key, "resign.threshold", "{bad}: {err}");
    }
    for good in [-1.0, -0.95, 1.0] {
        let config = SelfPlayConfig {
            resign: ResignConfig {
                threshold: good,
                ..Default::default()
            },
            ..SelfPlayConfig::default()
        };
        assert_eq!(config.validate(), Ok(()), "{good}");
    }
}

#[test]
fn a_side_factor_out_of_range_is_refused_by_name() {
    for bad in [0.0, -1.0, 17.0, f32::NAN] {
        let config = SelfPlayConfig {
            side_simulations: [1.0, bad],
            ..SelfPlayConfig::default()
        };
        let err = config.validate().unwrap_err();
        assert_eq!(err.key, "side_simulations", "{bad}: {err}");
    }
    assert_eq!(SelfPlayConfig::default().validate(), Ok(()));
}

/// The engine a sparring or bootstrap game of `config` played with: its game's seed and `nodes` a move.
fn engine_of<G: Heuristic>(config: &SelfPlayConfig, game: &GameRecord, nodes: u64) -> AlphaBeta<G> {
    let index: u64 = game.game_id.rsplit('-').next().unwrap().parse().unwrap();
    let limit = SearchLimit {
        nodes: Some(nodes),
        ..SearchLimit::default()
    };
    AlphaBeta::new(
        limit,
        ChaCha8Rng::seed_from_u64(derive_seed(config.seed, 1 << 41 | index)),
    )
}

/// Asserts that `text`, the move played at `state` in `game`, is the one `engine` chooses there.
fn assert_engine_chose<G: Heuristic>(engine: &mut AlphaBeta<G>, state: &G, text: &str, game: &GameRecord) {
    let (chosen, _) = engine.search(state);
    assert_eq!(
        state.format_move(&chosen),
        text,
        "{} at ply {}",
        game.game_id,
        state.ply()
    );
}

#[test]
fn in_a_sparring_game_the_engine_plays_one_side_and_only_the_other_is_recorded() {
    let rules = BaghChal::parse_rules(None, &["max-plies=60".to_string()]).unwrap();
    let config = SelfPlayConfig {
        sparring: SparringConfig {
            share: 1.0,
            nodes: 3000,
            ..Default::default()
        },
        resign: ResignConfig {
            threshold: -0.1,
            consecutive: 1,
            ..Default::default()
        },
        // Resignation is on, but a sparring game is always played out.
        ..small_config(RootSearch::Puct, 1)
    };
    let (stats, sink) = play_with::<BaghChal>(&config, &rules, 6, 0, 60);
    assert_eq!(stats.sparring_games, 6, "{stats}");
    assert_eq!(stats.results.keys().filter(|(_, r)| r == "resignation").count(), 0);
    let mut network_sides = std::collections::BTreeSet::new();
    let (mut wins, mut draws) = (0, 0);
    for (game, positions) in &sink.games {
        let network = Side::from_index(positions[0].side_to_move as usize);
        network_sides.insert(network.index());
        check_game_of::<BaghChal>(&rules, game, positions, Some(network), 0);
        wins += (game.winner == Some(network.index() as u8)) as u64;
        draws += game.winner.is_none() as u64;
        // The engine's moves are those of alpha-beta with the game's engine seed and the node budget.
        let mut engine = engine_of::<BaghChal>(&config, game, 3000);
        let mut state = BaghChal::start(&rules);
        for text in &game.moves {
            let mv = state.parse_move(text).unwrap();
            if state.to_move() != network {
                assert_engine_chose(&mut engine, &state, text, game);
            }
            state.play(&mv);
        }
    }
    assert_eq!(network_sides.len(), 2, "the engine played each side in some game");
    assert_eq!((stats.sparring_wins, stats.sparring_draws), (wins, draws));
}

#[test]
fn a_sparring_side_set_in_the_config_is_the_engines_in_every_sparring_game() {
    let rules = BaghChal::parse_rules(None, &["max-plies=30".to_string()]).unwrap();
    for (engine, network) in [(SparringSide::First, 1), (SparringSide::Second, 0)] {
        let config = SelfPlayConfig {
            sparring: SparringConfig {
                share: 1.0,
                side: engine,
                nodes: 500,
                ..Default::default()
            },
            ..small_config(RootSearch::Puct, 1)
        };
        let (stats, sink) = play_with::<BaghChal>(&config, &rules, 4, 0, 30);
        assert_eq!(stats.sparring_games, 4);
        for (game, positions) in &sink.games {
            assert!(positions.iter().all(|p| p.side_to_move == network), "{}", game.game_id);
            check_game_of::<BaghChal>(&rules, game, positions, Some(Side::from_index(network as usize)), 0);
        }
    }
}

#[test]
fn a_sparring_or_bootstrap_setting_out_of_range_is_refused_by_name() {
    for (config, key) in [
        (
            SelfPlayConfig {
                sparring: SparringConfig {
                    share: 1.5,
                    ..Default::default()
                },
                ..SelfPlayConfig::default()
            },
            "sparring.share",
        ),
        (
            SelfPlayConfig {
                sparring: SparringConfig {
                    nodes: 0,
                    ..Default::default()
                },
                ..SelfPlayConfig::default()
            },
            "sparring.nodes",
        ),
        (
            SelfPlayConfig {
                bootstrap: BootstrapConfig {
                    nodes: 100_000_000,
                    ..Default::default()
                },
                ..SelfPlayConfig::default()
            },
            "bootstrap.nodes",
        ),
        (
            SelfPlayConfig {
                bootstrap: BootstrapConfig {
                    random_moves: -0.1,
                    ..Default::default()
                },
                ..SelfPlayConfig::default()
            },
            "bootstrap.random_moves",
        ),
        (
            SelfPlayConfig {
                policy_surprise_weight: 1.5,
                ..SelfPlayConfig::default()
            },
            "policy_surprise_weight",
        ),
    ] {
        assert_eq!(config.validate().unwrap_err().key, key);
    }
}

/// Bootstrap settings (`bootstrap.nodes`, the engine on `side`) as generation 0 plays them.
fn bootstrap_config(random_moves: f32, side: SparringSide) -> SelfPlayConfig {
    SelfPlayConfig {
        bootstrap: BootstrapConfig {
            nodes: 400,
            random_moves,
            side,
        },
        ..small_config(RootSearch::Gumbel, 2)
    }
    .for_generation_zero()
}

#[test]
fn in_a_bootstrap_game_the_engine_plays_both_sides_and_each_of_its_moves_is_the_target() {
    let rules = BaghChal::parse_rules(None, &["max-plies=40".to_string()]).unwrap();
    let config = bootstrap_config(0.3, SparringSide::Both);
    let (stats, sink) = play_with::<BaghChal>(&config, &rules, 4, 0, 40);
    assert_eq!(stats.games, 4);
    assert_eq!(stats.sparring_games, 0, "no network side to score");
    let (mut recorded, mut moves) = (0, 0);
    for (game, positions) in &sink.games {
        let mut engine = engine_of::<BaghChal>(&config, game, 400);
        let mut state = BaghChal::start(&rules);
        let mut by_step = positions.iter().peekable();
        for text in &game.moves {
            // The engine searches every move, the random ones too, so its tie-breaks replay in order.
            let (chosen, _) = engine.search(&state);
            let played = state.parse_move(text).unwrap();
            if let Some(p) = by_step.next_if(|p| p.ply == state.ply()) {
                assert_eq!(
                    state.format_move(&chosen),
                    *text,
                    "{} at ply {}",
                    game.game_id,
                    state.ply()
                );
                let mut actions = zero_games::ActionList::new();
                state.move_actions(&chosen, &mut actions);
                assert_eq!(p.policy_actions, vec![policy_index(&state, actions[0]) as u16]);
                assert_eq!(p.policy_probs, vec![1.0]);
                assert!(p.full_search);
                recorded += 1;
            }
            moves += 1;
            state.play(&played);
        }
        assert!(
            by_step.next().is_none(),
            "{}: every position is one of its moves",
            game.game_id
        );
    }
    assert!(
        0 < recorded && recorded < moves,
        "random moves are played and not recorded: {recorded} of {moves}"
    );
}

#[test]
fn a_one_sided_bootstrap_records_the_engines_moves_and_the_searches_of_the_other_side() {
    let rules = BaghChal::parse_rules(None, &["max-plies=40".to_string()]).unwrap();
    let config = bootstrap_config(0.0, SparringSide::Second);
    assert!(config.sparring.recorded);
    let (stats, sink) = play_with::<BaghChal>(&config, &rules, 4, 0, 40);
    assert_eq!(
        stats.sparring_games, 4,
        "the rollout search's side is scored against the engine"
    );
    let (mut engine_positions, mut searched_positions) = (0, 0);
    for (game, positions) in &sink.games {
        check_game_of::<BaghChal>(&rules, game, positions, None, 0);
        let mut engine = engine_of::<BaghChal>(&config, game, 400);
        let mut state = BaghChal::start(&rules);
        let mut by_step = positions.iter().peekable();
        for text in &game.moves {
            let recorded = by_step.next_if(|p| p.ply == state.ply());
            if state.to_move() == Side::Second {
                assert_engine_chose(&mut engine, &state, text, game);
                let p = recorded.expect("every engine move is recorded");
                assert_eq!(p.policy_probs, vec![1.0]);
                engine_positions += 1;
            } else if let Some(p) = recorded {
                // A search's shares over the legal actions, not one engine choice.
                searched_positions += (p.policy_probs.len() > 1) as u32;
            }
            state.play(&state.parse_move(text).unwrap());
        }
        assert!(
            by_step.next().is_none(),
            "{}: every position is one of its moves",
            game.game_id
        );
    }
    assert!(engine_positions > 0 && searched_positions > 0);
}

#[test]
fn bootstrap_games_record_every_action_of_a_multi_action_move() {
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let config = bootstrap_config(0.0, SparringSide::Both);
    let (_, sink) = play_with::<Bashni>(&config, &rules, 2, 0, 40);
    for (game, positions) in &sink.games {
        check_game_of::<Bashni>(&rules, game, positions, None, 0);
        assert!(positions.iter().all(|p| p.policy_probs == [1.0]));
    }
    assert!(
        sink.games
            .iter()
            .any(|(game, positions)| positions.len() > game.moves.len()),
        "a capture of several jumps was played"
    );
}

#[test]
fn without_bootstrap_nodes_generation_zero_plays_the_rollout_search() {
    let config = small_config(RootSearch::Gumbel, 1);
    assert_eq!(config.for_generation_zero(), config);
    let boot = bootstrap_config(0.05, SparringSide::Both);
    assert_eq!(
        (
            boot.sparring.share,
            boot.sparring.side,
            boot.sparring.recorded,
            boot.sparring.nodes
        ),
        (1.0, SparringSide::Both, true, 400)
    );
}

#[test]
fn with_gumbel_temperature_at_zero_the_gumbel_root_plays_its_best_and_the_games_agree() {
    // A uniform evaluator leaves the Gumbel noise as the only chance in a game: at T = 1 the games part, at
    // T = 0 with `gumbel_temperature` every game plays the same moves.
    let rules = Bashni::parse_rules(None, &["max_plies=30".to_string()]).unwrap();
    let moves_of = |gumbel_temperature: bool| {
        let config = SelfPlayConfig {
            gumbel_temperature,
            temperature_start: 0.0,
            temperature_end: 0.0,
            full_search_prob: 1.0,
            resign: ResignConfig {
                threshold: -1.0,
                ..Default::default()
            },
            ..small_config(RootSearch::Gumbel, 1)
        };
        let sink = play_uniform::<Bashni>(&config, &rules, 3);
        let moves: Vec<Vec<String>> = sink.games.iter().map(|(game, _)| game.moves.clone()).collect();
        assert_eq!(moves.len(), 3);
        moves
    };
    let greedy = moves_of(true);
    assert!(greedy.iter().all(|m| *m == greedy[0]), "{greedy:?}");
    let sampled = moves_of(false);
    assert!(sampled.iter().any(|m| *m != sampled[0]), "{sampled:?}");
}

#[test]
fn a_minimax_weight_steers_self_plays_searches_and_its_games_replay() {
    // With a uniform evaluator and temperature 0 a game is fixed by its seed; the heuristic's minimax alone can
    // change its moves.
    let rules = BaghChal::parse_rules(None, &["max_plies=40".to_string()]).unwrap();
    let play = |minimax_weight: f32| {
        let mut config = SelfPlayConfig {
            temperature_start: 0.0,
            temperature_end: 0.0,
            full_search_prob: 1.0,
            resign: ResignConfig {
                threshold: -1.0,
                ..Default::default()
            },
            ..small_config(RootSearch::Puct, 1)
        };
        config.search.minimax_weight = minimax_weight;
        config.search.dirichlet_fraction = 0.0;
        config.search.simulations = 48;
        let sink = play_uniform::<BaghChal>(&config, &rules, 2);
        for (game, positions) in &sink.games {
            check_game::<BaghChal>(&rules, game, positions);
        }
        sink.games
            .iter()
            .map(|(game, _)| game.moves.clone())
            .collect::<Vec<_>>()
    };
    let plain = play(0.0);
    assert_eq!(plain, play(0.0), "the plain games are fixed by the seed");
    let judged = play(0.5);
    assert_eq!(judged.len(), 2);
    assert_ne!(plain, judged, "the minimax weight changed no move");
}

#[test]
fn a_negative_or_non_finite_temperature_is_refused_by_its_name() {
    for (start, end, key) in [
        (-0.5, 0.1, "temperature_start"),
        (f32::NAN, 0.1, "temperature_start"),
        (1.0, -1.0, "temperature_end"),
        (1.0, f32::INFINITY, "temperature_end"),
    ] {
        let config = SelfPlayConfig {
            temperature_start: start,
            temperature_end: end,
            ..SelfPlayConfig::default()
        };
        assert_eq!(config.validate().unwrap_err().key, key, "{start} {end}");
    }
    assert!(SelfPlayConfig::default().validate().is_ok());
}

#[test]
fn with_an_opening_share_games_start_from_balanced_random_openings_that_replay() {
    let rules = BaghChal::parse_rules(None, &["max-plies=60".to_string()]).unwrap();
    let config = SelfPlayConfig {
        opening_share: 1.0,
        opening_plies: [2, 6],
        ..small_config(RootSearch::Gumbel, 2)
    };
    let (_, sink) = play_with::<BaghChal>(&config, &rules, 6, 0, 100);
    let reference =
        BalanceJudge::<BaghChal>::new(&rules, SELFPLAY_BALANCE_DEPTH, ChaCha8Rng::seed_from_u64(0)).reference();
    let mut openings = std::collections::BTreeSet::new();
    for (game, positions) in &sink.games {
        // A Bagh Chal move is one action, so the first recorded step is the opening's length in moves.
        let plies = positions[0].step as usize;
        check_game_of::<BaghChal>(&rules, game, positions, None, plies as u32);
        assert!((2..=6).contains(&plies), "{}: opening of {plies} plies", game.game_id);
        let mut state = BaghChal::start(&rules);
        for text in &game.moves[..plies] {
            state.play(&state.parse_move(text).unwrap());
        }
        let mut judge = BalanceJudge::with_reference(reference, SELFPLAY_BALANCE_DEPTH, ChaCha8Rng::seed_from_u64(1));
        let line = game.moves[..plies].join(" ");
        assert!(
            judge.is_balanced(&state),
            "{}: {line} is no balanced opening",
            game.game_id
        );
        openings.insert(line);
    }
    assert!(openings.len() > 3, "the openings vary: {openings:?}");
    let (_, again) = play_with::<BaghChal>(&config, &rules, 6, 0, 100);
    assert_eq!(
        sink.games, again.games,
        "an opening follows from the seed and the game's index alone"
    );

    let plain = SelfPlayConfig {
        opening_share: 0.0,
        ..config
    };
    let (_, from_start) = play_with::<BaghChal>(&plain, &rules, 3, 0, 100);
    assert!(from_start.games.iter().all(|(_, positions)| positions[0].step == 0));
}

#[test]
fn an_opening_setting_out_of_range_is_refused_by_name() {
    for (share, plies) in [(1.5, [2, 6]), (-0.5, [2, 6]), (0.5, [6, 2]), (0.5, [2, 100])] {
        let config = SelfPlayConfig {
            opening_share: share,
            opening_plies: plies,
            ..SelfPlayConfig::default()
        };
        let key = if (0.0..=1.0).contains(&share) {
            "opening_plies"
        } else {
            "opening_share"
        };
        assert_eq!(config.validate().unwrap_err().key, key, "{share} {plies:?}");
    }
}
