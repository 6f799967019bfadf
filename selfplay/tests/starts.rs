//! Lead starts: the position a drawn game's lead was first held at, found by replaying its record, and self-play
//! games that begin there.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zero_data::GameRecord;
use zero_games::tours::Tours;
use zero_games::{Game, Side};
use zero_search::{RolloutEvaluator, SearchConfig};
use zero_selfplay::starts::lead_start;
use zero_selfplay::{MemorySink, Progress, SelfPlayConfig, lead_starts, run_selfplay};

fn rules() -> <Tours as Game>::Rules {
    Tours::parse_rules(None, &["max_plies=80".to_string()]).unwrap()
}

/// A game of uniformly random moves from the start, as a record.
fn random_game(seed: u64) -> GameRecord {
    let rules = rules();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Tours::start(&rules);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while game.outcome().is_none() {
        game.legal_moves(&mut legal);
        let mv = legal[rng.random_range(0..legal.len())];
        moves.push(game.format_move(&mv));
        game.play(&mv);
    }
    let outcome = game.outcome().unwrap();
    GameRecord {
        game_id: format!("random-{seed}"),
        start_position: Tours::start(&rules).position(),
        moves,
        winner: outcome.winner.map(|w| w.index() as u8),
        reason: outcome.reason.as_str().to_string(),
        plies: game.ply(),
        resigned_false_check: false,
    }
}

/// The first player's material lead after each ply of `record` (index 0: its start).
fn leads(record: &GameRecord) -> Vec<(f32, String)> {
    let mut game = Tours::from_position(&rules(), &record.start_position).unwrap();
    let lead = |g: &Tours| match g.to_move() {
        Side::First => g.score(),
        Side::Second => -g.score(),
    };
    let mut out = vec![(lead(&game), game.position())];
    for text in &record.moves {
        game.play(&game.parse_move(text).unwrap());
        out.push((lead(&game), game.position()));
    }
    out
}

/// Random games drawn at the ply limit with one side ahead at the end.
fn drawn_with_a_lead(count: usize) -> Vec<GameRecord> {
    let found: Vec<GameRecord> = (0..400)
        .map(random_game)
        .filter(|r| r.winner.is_none() && leads(r).last().unwrap().0 != 0.0)
        .take(count)
        .collect();
    assert_eq!(
        found.len(),
        count,
        "random Tours games are often drawn at 80 plies with a lead"
    );
    found
}

#[test]
fn a_lead_start_is_where_the_final_lead_was_first_held_with_a_fresh_history() {
    for record in drawn_with_a_lead(5) {
        let start = lead_start::<Tours>(&rules(), &record)
            .unwrap()
            .expect("a lead at the end");
        let line = leads(&record);
        let last = line.last().unwrap().0;
        let held = |lead: f32| if last > 0.0 { lead >= last } else { lead <= last };
        let ply = line.iter().position(|(lead, _)| held(*lead)).unwrap();
        assert!(ply > 0, "the start is level");
        assert_eq!(start.position(), line[ply].1, "{}", record.game_id);
        assert!(!held(line[ply - 1].0));
        assert_eq!(start.ply(), 0, "a lead start's history begins again");
        assert!(start.outcome().is_none());
    }
}

#[test]
fn only_drawn_games_that_end_with_a_lead_give_a_start_and_broken_records_are_counted() {
    let drawn = drawn_with_a_lead(3);
    let mut decisive = drawn[0].clone();
    decisive.winner = Some(0);
    let mut level = drawn[1].clone();
    level.moves.truncate(2); // two opening FORMs: no capture yet
    let mut broken = drawn[2].clone();
    broken.moves[3] = "Zz9".to_string();
    let (starts, unreadable) = lead_starts::<Tours>(&rules(), &[decisive, level.clone(), broken, drawn[0].clone()]);
    assert!(lead_start::<Tours>(&rules(), &level).unwrap().is_none());
    assert_eq!(unreadable, 1);
    assert_eq!(starts.len(), 1);
    assert_eq!(
        starts[0].position(),
        lead_start::<Tours>(&rules(), &drawn[0]).unwrap().unwrap().position()
    );
}

#[test]
fn with_a_lead_start_share_games_begin_at_the_given_starts() {
    let starts: Vec<Tours> = drawn_with_a_lead(2)
        .iter()
        .map(|r| lead_start::<Tours>(&rules(), r).unwrap().unwrap())
        .collect();
    let config = SelfPlayConfig {
        search: SearchConfig {
            simulations: 8,
            gumbel_actions: 4,
            ..SearchConfig::default()
        },
        cheap_simulations: 4,
        games_in_flight: 2,
        workers: 2,
        lead_start_share: 1.0,
        ..SelfPlayConfig::default()
    };
    let play = |config: &SelfPlayConfig, starts: &[Tours]| {
        let mut sink = MemorySink::default();
        run_selfplay::<Tours, _, _, _>(
            config,
            &rules(),
            starts,
            6,
            |w| Ok::<_, String>(RolloutEvaluator::new(w as u64, 50)),
            &mut sink,
            &Progress::default(),
        )
        .unwrap();
        sink
    };
    let sink = play(&config, &starts);
    let begun: Vec<String> = starts.iter().map(Game::position).collect();
    for (game, positions) in &sink.games {
        assert!(begun.contains(&game.start_position), "{} began elsewhere", game.game_id);
        assert_eq!(
            positions[0].position, game.start_position,
            "the first search is at the start"
        );
        let mut state = Tours::from_position(&rules(), &game.start_position).unwrap();
        for text in &game.moves {
            state.play(&state.parse_move(text).unwrap());
        }
        assert_eq!(state.ply(), game.plies);
    }
    assert_eq!(sink.games, play(&config, &starts).games, "reproducible from the seed");
    let start = Tours::start(&rules()).position();
    let plain = play(
        &SelfPlayConfig {
            lead_start_share: 0.0,
            ..config.clone()
        },
        &starts,
    );
    assert!(plain.games.iter().all(|(g, _)| g.start_position == start));
    let none_given = play(&config, &[]);
    assert!(none_given.games.iter().all(|(g, _)| g.start_position == start));
}

#[test]
fn a_lead_start_share_out_of_range_is_refused_by_name() {
    for share in [-0.1, 1.5, f32::NAN] {
        let config = SelfPlayConfig {
            lead_start_share: share,
            ..SelfPlayConfig::default()
        };
        assert_eq!(config.validate().unwrap_err().key, "lead_start_share", "{share}");
    }
}
