//! Playing games: one game between two players from an opening, a head-to-head match of paired games, and a
//! round robin between any number of entrants. Every opening is played twice with the colours swapped
//! (consecutive games `2k` and `2k + 1`), the games run in parallel on rayon's pool, and each is recorded. A match
//! where a player thinks on the clock (`ms=`) plays [`MatchOptions::timed_games_at_once`] games at a time
//! instead (one by default), each on a thread of its own with its own copy of every network, so that with no more
//! games than free cores each player's time is a whole core's and no network waits for another game's search
//! (equal time means equal compute).

use crate::entrant::Entrant;
use crate::network_player::SharedEvaluator;
use crate::openings::OpeningBook;
use crate::player::Player;
use crate::records::{MatchRecord, REASON_ARENA_CAP, REASON_ILLEGAL_MOVE};
use crate::spec::PlayerKind;
use crate::{ArenaError, GameResult, Standings, rate};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use zero_games::Registered;

/// How a match is played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchOptions {
    /// Games between each pair of entrants; rounded up to an even number so that colours pair.
    pub games_per_pair: usize,
    /// Fixes every random choice of every player; which openings are played is `first_opening`'s.
    pub seed: u64,
    /// A game the rules have not ended after this many plies is a draw (`arena-ply-cap`); only matters when
    /// the rule set has no ply cap of its own.
    pub max_plies: u32,
    /// Where in the book the match starts (pairs of a round robin start further on): matches played separately
    /// can then cover different openings.
    #[serde(default)]
    pub first_opening: usize,
    /// Games played at once when a player thinks on the clock (`ms=`), each on a thread of its own with its own
    /// copy of every network. Fair while it is at most the number of free cores: then a player thinking on the
    /// clock has a core to itself. 0 and 1 both mean one game at a time.
    #[serde(default = "one")]
    pub timed_games_at_once: usize,
}

fn one() -> usize {
    1
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            games_per_pair: 20,
            seed: 0,
            max_plies: 2000,
            first_opening: 0,
            timed_games_at_once: 1,
        }
    }
}

/// Plays one game from opening `opening_index` of `book`: the opening's moves first, then the players in turn.
/// A player that returns an illegal move loses at once (`illegal-move`).
pub fn play_game<G: Registered>(
    rules: &G::Rules,
    book: &OpeningBook,
    opening_index: usize,
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
    max_plies: u32,
) -> Result<(MatchRecord, Thinking), ArenaError> {
    let mut thinking = Thinking::default();
    let mut game: G = book.position(rules, opening_index)?;
    let mut record = MatchRecord {
        game: G::NAME.to_string(),
        rules: G::describe_rules(rules),
        first: first.name().to_string(),
        second: second.name().to_string(),
        opening_index,
        opening: book.openings[opening_index].clone(),
        moves: Vec::new(),
        winner: None,
        result: String::new(),
        reason: String::new(),
    };
    let mut legal = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            record.set_result(outcome.winner, outcome.reason.as_str());
            return Ok((record, thinking));
        }
        if record.moves.len() as u32 >= max_plies {
            record.set_result(None, REASON_ARENA_CAP);
            return Ok((record, thinking));
        }
        let side = game.to_move();
        let player: &mut dyn Player<G> = if side == zero_games::Side::First {
            &mut *first
        } else {
            &mut *second
        };
        let started = Instant::now();
        let mv = player.choose_move(&game);
        thinking.seconds[side.index()] += started.elapsed().as_secs_f64();
        thinking.moves[side.index()] += 1;
        thinking.simulations[side.index()] = player.simulations();
        game.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            record.set_result(Some(side.other()), REASON_ILLEGAL_MOVE);
            return Ok((record, thinking));
        }
        record.moves.push(game.format_move(&mv));
        game.play(&mv);
    }
}

/// The time each side of one game spent choosing its moves (first side, second side), and how many it chose:
/// what a result cost, beside the result. Not part of the record, whose games are reproducible and compared.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Thinking {
    pub seconds: [f64; 2],
    pub moves: [u32; 2],
    /// Simulations each side's searches ran, for players that count them.
    pub simulations: [Option<u64>; 2],
}

/// One game to play: entrant indices for each side and the opening.
#[derive(Debug, Clone, Copy)]
struct Job {
    first: usize,
    second: usize,
    opening: usize,
}

/// The games of `a` against `b`: `games` rounded up to even, each opening twice with the colours swapped.
/// Openings are taken in book order from `first_opening`, cycling.
fn paired_jobs(a: usize, b: usize, games: usize, first_opening: usize, book_len: usize) -> Vec<Job> {
    (0..games.div_ceil(2))
        .flat_map(|k| {
            let opening = (first_opening + k) % book_len;
            [
                Job {
                    first: a,
                    second: b,
                    opening,
                },
                Job {
                    first: b,
                    second: a,
                    opening,
                },
            ]
        })
        .collect()
}

/// What a caller hears as each game of a match ends (from whichever thread played it, in finishing order):
/// progress for a match that can run for an hour.
pub type OnGame<'a> = &'a (dyn Fn(&MatchRecord) + Sync);

fn play_jobs<G: Registered>(
    rules: &G::Rules,
    entrants: &[&Entrant<G>],
    book: &OpeningBook,
    jobs: &[Job],
    options: &MatchOptions,
    on_game: OnGame,
) -> Result<Vec<(MatchRecord, Thinking)>, ArenaError> {
    book.validate::<G>(rules)?;
    let shared: Vec<_> = entrants.iter().map(|e| e.shared_evaluator()).collect();
    let play = |n: usize, job: &Job, evaluators: &[Option<SharedEvaluator<G>>]| {
        // Two streams per game, one per side, so each player's choices depend on the seed and the game only.
        let mut first = entrants[job.first].player_with(options.seed, 2 * n as u64, evaluators[job.first].clone());
        let mut second =
            entrants[job.second].player_with(options.seed, 2 * n as u64 + 1, evaluators[job.second].clone());
        let played = play_game(
            rules,
            book,
            job.opening,
            first.as_mut(),
            second.as_mut(),
            options.max_plies,
        );
        if let Ok((record, _)) = &played {
            on_game(record);
        }
        played
    };
    if !entrants.iter().any(|e| e.spec.thinks_on_the_clock()) {
        return jobs
            .par_iter()
            .enumerate()
            .map(|(n, job)| play(n, job, &shared))
            .collect();
    }
    let threads = options.timed_games_at_once.clamp(1, jobs.len().max(1));
    if threads == 1 {
        return jobs.iter().enumerate().map(|(n, job)| play(n, job, &shared)).collect();
    }
    // One set of network copies per thread: no game's search waits for another's.
    let copies = (0..threads)
        .map(|_| {
            entrants
                .iter()
                .map(|e| e.evaluator_copy())
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let next = AtomicUsize::new(0);
    let mut results: Vec<_> = std::thread::scope(|scope| {
        let workers: Vec<_> = copies
            .iter()
            .map(|evaluators| {
                let next = &next;
                scope.spawn(move || {
                    let mut played = Vec::new();
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(n) else { break played };
                        played.push((n, play(n, job, evaluators)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    // Back in the match's order, whichever thread finished first.
    results.sort_unstable_by_key(|(n, _)| *n);
    results.into_iter().map(|(_, result)| result).collect()
}

/// The games of a head-to-head match between `a` and `b` (in pairs: games `2k` and `2k + 1` share an opening,
/// `a` first in the even one), as the gating of a new generation plays them.
pub fn head_to_head<G: Registered>(
    rules: &G::Rules,
    a: &Entrant<G>,
    b: &Entrant<G>,
    book: &OpeningBook,
    options: &MatchOptions,
) -> Result<Vec<MatchRecord>, ArenaError> {
    let jobs = paired_jobs(0, 1, options.games_per_pair, options.first_opening, book.openings.len());
    let played = play_jobs(rules, &[a, b], book, &jobs, options, &|_| {})?;
    Ok(played.into_iter().map(|(record, _)| record).collect())
}

/// How many games a round robin of `players` plays: every pair `games_per_pair` rounded up to even.
pub fn round_robin_games(players: usize, games_per_pair: usize) -> usize {
    players * players.saturating_sub(1) / 2 * 2 * games_per_pair.div_ceil(2)
}

/// A finished round robin: the table and every game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RoundRobin {
    pub standings: Standings,
    pub records: Vec<MatchRecord>,
}

/// Plays every pair of entrants `options.games_per_pair` games (paired colours) and rates them all. The
/// anchor (rating 0) is the first `random` entrant, else the first entrant. Pairs start at different places
/// in the book, so that a short book still gives each pair varied openings. `on_game` hears each game as it
/// ends ([`round_robin_games`] says how many there will be).
pub fn round_robin<G: Registered>(
    rules: &G::Rules,
    entrants: &[Entrant<G>],
    book: &OpeningBook,
    options: &MatchOptions,
    on_game: OnGame,
) -> Result<RoundRobin, ArenaError> {
    if entrants.len() < 2 {
        return Err(ArenaError::Invalid(
            "a round robin needs at least two players".to_string(),
        ));
    }
    let names: Vec<String> = entrants.iter().map(|e| e.name().to_string()).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(ArenaError::Invalid(format!(
                "two players are named {name:?}; label one with name=LABEL"
            )));
        }
    }
    let mut jobs = Vec::new();
    let mut pair = 0;
    for a in 0..entrants.len() {
        for b in a + 1..entrants.len() {
            let start = options.first_opening + pair * options.games_per_pair.div_ceil(2);
            jobs.extend(paired_jobs(a, b, options.games_per_pair, start, book.openings.len()));
            pair += 1;
        }
    }
    let pool: Vec<&Entrant<G>> = entrants.iter().collect();
    let played = play_jobs(rules, &pool, book, &jobs, options, on_game)?;
    // Each entrant's thinking time over all its moves.
    let mut seconds = vec![0.0; entrants.len()];
    let mut moves = vec![0u32; entrants.len()];
    let mut simulations: Vec<Option<u64>> = vec![None; entrants.len()];
    for (job, (_, thinking)) in jobs.iter().zip(&played) {
        for (side, entrant) in [job.first, job.second].into_iter().enumerate() {
            seconds[entrant] += thinking.seconds[side];
            moves[entrant] += thinking.moves[side];
            if let Some(n) = thinking.simulations[side] {
                *simulations[entrant].get_or_insert(0) += n;
            }
        }
    }
    let records: Vec<MatchRecord> = played.into_iter().map(|(record, _)| record).collect();
    let results: Vec<GameResult> = jobs
        .iter()
        .zip(&records)
        .map(|(job, record)| GameResult {
            first: job.first,
            second: job.second,
            first_score: record.first_score(),
        })
        .collect();
    let anchor = entrants
        .iter()
        .position(|e| e.spec.kind == PlayerKind::Random)
        .unwrap_or(0);
    let mut standings = rate(&names, &results, anchor)?;
    for row in &mut standings.rows {
        let i = names
            .iter()
            .position(|n| *n == row.name)
            .expect("rated players are the entrants");
        row.ms_per_move = (moves[i] > 0).then(|| 1000.0 * seconds[i] / moves[i] as f64);
        row.sims_per_move = simulations[i]
            .filter(|_| moves[i] > 0)
            .map(|n| n as f64 / moves[i] as f64);
    }
    Ok(RoundRobin { standings, records })
}
