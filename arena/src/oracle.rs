//! Bagh Chal players scored against perfect play: the share of their moves that keep a position's
//! game-theoretic result (a win stays a win, a draw a draw), on a fixed set of positions from real games, with
//! each result-losing move listed.
//!
//! The set ([`OracleSet`]) is made once by [`OracleSet::generate`] and kept in the repository
//! (`arena/oracle/baghchal.txt`, [`OracleSet::standard`]): positions of games between the arena's engines and
//! random play, each begun from a random opening, where the side to move can change the result with some move
//! (a win or a draw with at least one move that throws it away). Sliding-phase positions are taken half with
//! the goats to move and half with the tigers; end-of-placement positions (at most
//! [`zero_tablebase::probe::EXACT_PLACEMENTS`] goats in hand) are valued by the exact search.

use crate::player::{Player, player_rng};
use crate::{ArenaError, Entrant};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, HashSet};
use zero_games::baghchal::{BaghChal, BaghChalMove};
use zero_games::{Game, Registered, Side};
use zero_tablebase::probe::{EXACT_PLACEMENTS, Probe, same_result};
use zero_tablebase::{Table, Value};

/// The set kept in the repository.
const STANDARD: &str = include_str!("../oracle/baghchal.txt");

/// Games of these pairs (first player the goats) make the set's positions.
const SOURCES: [(&str, &str); 6] = [
    ("random", "random"),
    ("greedy", "greedy"),
    ("alphabeta:depth=1", "alphabeta:depth=1"),
    ("alphabeta:depth=2", "greedy"),
    ("greedy", "alphabeta:depth=2"),
    ("alphabeta:depth=3", "alphabeta:depth=3"),
];

/// One position of a set, in the rules core's notation, with the game it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OraclePosition {
    pub position: String,
    pub source: String,
}

/// A fixed set of positions to score players on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleSet {
    pub positions: Vec<OraclePosition>,
}

impl OracleSet {
    /// The set kept in the repository (`arena/oracle/baghchal.txt`).
    pub fn standard() -> OracleSet {
        OracleSet::parse(STANDARD).expect("the standard oracle set parses")
    }

    /// Reads a set: one `POSITION<TAB>SOURCE` per line; `#` starts a comment line.
    pub fn parse(text: &str) -> Result<OracleSet, ArenaError> {
        let rules = zero_games::baghchal::BaghChalRules::default();
        let mut positions = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (position, source) = line.split_once('\t').unwrap_or((line, ""));
            BaghChal::from_position(&rules, position)
                .map_err(|e| ArenaError::Invalid(format!("oracle set line {}: {position:?}: {e}", n + 1)))?;
            positions.push(OraclePosition {
                position: position.to_string(),
                source: source.to_string(),
            });
        }
        Ok(OracleSet { positions })
    }

    /// The set as text for [`OracleSet::parse`], with `comment` lines on top.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text: String = comment.lines().map(|l| format!("# {l}\n")).collect();
        for p in &self.positions {
            text.push_str(&format!("{}\t{}\n", p.position, p.source));
        }
        text
    }

    /// The first `sliding` sliding-phase positions of each side to move and the first `placement` placement
    /// positions: a smaller set with the same mix (a run's per-generation check).
    pub fn head(&self, sliding: usize, placement: usize) -> OracleSet {
        let rules = zero_games::baghchal::BaghChalRules::default();
        let mut taken = [0usize; 3];
        let positions = self
            .positions
            .iter()
            .filter(|p| {
                let game = BaghChal::from_position(&rules, &p.position).expect("a parsed set");
                let (kind, limit) = match (game.goats_in_hand(), game.to_move()) {
                    (0, Side::First) => (0, sliding),
                    (0, Side::Second) => (1, sliding),
                    _ => (2, placement),
                };
                taken[kind] += 1;
                taken[kind] <= limit
            })
            .cloned()
            .collect();
        OracleSet { positions }
    }

    /// Makes a set from games between the arena's engines and random play (`SOURCES`), each begun from a
    /// random opening of 2-10 moves: `per_side` sliding-phase positions with each side to move and `placement`
    /// end-of-placement ones, all of them positions where some move changes the result.
    pub fn generate(table: &Table, seed: u64, per_side: usize, placement: usize) -> Result<OracleSet, ArenaError> {
        let rules = zero_games::baghchal::BaghChalRules::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut seen = HashSet::new();
        let mut pools: [Vec<OraclePosition>; 3] = Default::default();
        let wanted = [per_side, per_side, placement];
        let mut game_number = 0u64;
        while pools.iter().zip(wanted).any(|(pool, want)| pool.len() < want) {
            let (goats, tigers) = SOURCES[game_number as usize % SOURCES.len()];
            let source = format!("{goats} v {tigers}, game {game_number}");
            let mut players = [
                Entrant::<BaghChal>::parse(goats)?.player(seed ^ game_number, 0),
                Entrant::<BaghChal>::parse(tigers)?.player(seed ^ game_number, 1),
            ];
            let mut candidates = game_positions(&rules, &mut players, &mut rng);
            candidates.shuffle(&mut rng);
            // A few positions of each game, so that the set spans many games.
            for game in candidates.into_iter().take(4) {
                let kind = match (game.goats_in_hand(), game.to_move()) {
                    (0, Side::First) => 0,
                    (0, Side::Second) => 1,
                    _ => 2,
                };
                if pools[kind].len() < wanted[kind]
                    && seen.insert(game.position())
                    && table.probe(&game).is_ok_and(|p| is_critical(&p))
                {
                    pools[kind].push(OraclePosition {
                        position: game.position(),
                        source: source.clone(),
                    });
                }
            }
            game_number += 1;
        }
        Ok(OracleSet {
            positions: pools.into_iter().flatten().collect(),
        })
    }
}

/// The positions of one game between `players` (goats first) after a random opening, that the tablebase
/// answers: the sliding phase and the last placements.
fn game_positions(
    rules: &zero_games::baghchal::BaghChalRules,
    players: &mut [Box<dyn Player<BaghChal>>; 2],
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Vec<BaghChal> {
    let mut game = BaghChal::start(rules);
    let opening = rng.random_range(2..=10);
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    while game.outcome().is_none() && game.ply() < 400 {
        if game.goats_in_hand() <= EXACT_PLACEMENTS {
            positions.push(game.clone());
        }
        let mv = if game.ply() < opening {
            game.legal_moves(&mut moves);
            moves[rng.random_range(0..moves.len())]
        } else {
            players[(game.to_move() == Side::Second) as usize].choose_move(&game)
        };
        game.play(&mv);
    }
    positions
}

/// Whether the side to move can throw its result away: a win or a draw with some move that loses it.
fn is_critical(probe: &Probe) -> bool {
    !matches!(probe.value, Value::Loss(_)) && probe.moves.iter().any(|(_, v)| !same_result(*v, probe.value))
}

/// A move that changed the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Mistake {
    pub position: String,
    pub played: String,
    /// The position's value and the value after the move, in words ("win in 7 plies", "draw").
    pub value: String,
    pub after: String,
    /// A move that keeps the result.
    pub better: String,
}

/// How one player fared on a set: moves and result-keeping moves by class, and the mistakes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OracleScore {
    /// Per class (`goats win`, `tigers draw`, `placement goats draw`, ...): (positions, moves that kept the
    /// result).
    pub classes: BTreeMap<String, (usize, usize)>,
    pub mistakes: Vec<Mistake>,
}

impl OracleScore {
    /// Positions and result-keeping moves over the classes whose name starts with `prefix` ("" for all).
    pub fn total(&self, prefix: &str) -> (usize, usize) {
        self.classes
            .iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .fold((0, 0), |(n, k), (_, (pn, pk))| (n + pn, k + pk))
    }

    /// The share of moves that kept the result over classes starting with `prefix`; none without positions.
    pub fn accuracy(&self, prefix: &str) -> Option<f64> {
        let (n, kept) = self.total(prefix);
        (n > 0).then(|| kept as f64 / n as f64)
    }
}

/// Scores `entrant` on every position of `set`: a fresh player per position (seeded by `seed` and the
/// position's number) chooses a move, and the tablebase says whether it kept the result. `G` must be Bagh Chal
/// (generic so that a run, generic over its game, can call it).
pub fn score<G: Registered>(
    entrant: &Entrant<G>,
    set: &OracleSet,
    table: &Table,
    seed: u64,
) -> Result<OracleScore, ArenaError> {
    if !crate::tablebase_player::is_baghchal::<G>() {
        return Err(ArenaError::Invalid(format!(
            "perfect play is known for baghchal only, not {}",
            G::NAME
        )));
    }
    let rules = zero_games::baghchal::BaghChalRules::default();
    let their_rules = G::parse_rules(None, &[]).map_err(|e| ArenaError::Invalid(e.to_string()))?;
    let bad = |p: &OraclePosition, e: &dyn std::fmt::Display| {
        ArenaError::Invalid(format!("oracle position {:?}: {e}", p.position))
    };
    let mut score = OracleScore::default();
    for (i, p) in set.positions.iter().enumerate() {
        let game = BaghChal::from_position(&rules, &p.position).map_err(|e| bad(p, &e))?;
        let probe = table.probe(&game).map_err(|e| bad(p, &e))?;
        let theirs = G::from_position(&their_rules, &p.position).map_err(|e| bad(p, &e))?;
        let mut player = entrant.player(seed, i as u64);
        let played = theirs.format_move(&player.choose_move(&theirs));
        let played = probe
            .moves
            .iter()
            .map(|(mv, _)| *mv)
            .find(|mv| game.format_move(mv) == played)
            .ok_or_else(|| bad(p, &format!("the player's move {played} is not legal")))?;
        let kept = probe.keeps_result(&played);
        let entry = score.classes.entry(class_name(&game, probe.value)).or_default();
        entry.0 += 1;
        entry.1 += kept as usize;
        if !kept {
            score.mistakes.push(mistake(&game, &probe, &played));
        }
    }
    Ok(score)
}

/// "goats win", "tigers draw", "placement goats win": the phase (placement only), the side to move and its
/// result.
fn class_name(game: &BaghChal, value: Value) -> String {
    let side = BaghChal::player_name(game.to_move());
    let result = match value {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    };
    let phase = if game.goats_in_hand() > 0 { "placement " } else { "" };
    format!("{phase}{side} {result}")
}

fn mistake(game: &BaghChal, probe: &Probe, played: &BaghChalMove) -> Mistake {
    let after = probe
        .moves
        .iter()
        .find(|(mv, _)| mv == played)
        .map_or(Value::Loss(0), |(_, v)| *v);
    let better = probe.best_moves()[0];
    Mistake {
        position: game.position(),
        played: game.format_move(played),
        value: probe.value.to_string(),
        after: after.to_string(),
        better: game.format_move(&better),
    }
}

/// How one player's games as the goats stood when the placement ended, under perfect play from there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlacementEnds {
    pub games: usize,
    /// The goats' exact result at the first position with every goat placed (or the game's own result, when it
    /// ended during placement: tigers trapped, or five goats taken).
    pub won: usize,
    pub drawn: usize,
    pub lost: usize,
}

impl PlacementEnds {
    /// The share of games in which the goats reached the sliding phase not lost.
    pub fn not_lost(&self) -> f64 {
        (self.won + self.drawn) as f64 / self.games.max(1) as f64
    }
}

/// For each player of Bagh Chal match records who played the goats: where its games stood at the end of the
/// placement, by the tablebase.
pub fn placement_ends(
    records: &[crate::MatchRecord],
    table: &Table,
) -> Result<BTreeMap<String, PlacementEnds>, ArenaError> {
    let mut ends: BTreeMap<String, PlacementEnds> = BTreeMap::new();
    for record in records.iter().filter(|r| r.game == BaghChal::NAME) {
        let rules = BaghChal::parse_rules(None, &record.rules)
            .map_err(|e| ArenaError::Invalid(format!("a record's rules {:?}: {e}", record.rules)))?;
        let mut game = BaghChal::start(&rules);
        for text in record.opening.iter().chain(&record.moves) {
            if game.goats_in_hand() == 0 || game.outcome().is_some() {
                break;
            }
            let mv = game
                .parse_move(text)
                .map_err(|e| ArenaError::Invalid(format!("a record's move {text:?}: {e}")))?;
            game.play(&mv);
        }
        let goats = match game.outcome() {
            Some(outcome) => match outcome.winner {
                Some(Side::First) => Value::Win(0),
                Some(Side::Second) => Value::Loss(0),
                None => Value::Draw,
            },
            // Unfinished records (cut in placement) are left out.
            None if game.goats_in_hand() > 0 => continue,
            None => table.value(&zero_tablebase::probe::slide_of(&game)).before(),
        };
        let entry = ends.entry(record.first.clone()).or_default();
        entry.games += 1;
        match goats {
            Value::Win(_) => entry.won += 1,
            Value::Draw => entry.drawn += 1,
            Value::Loss(_) => entry.lost += 1,
        }
    }
    Ok(ends)
}

/// The results, for the side to move, of the sliding-phase positions of `set` under perfect play by the
/// `threefold-draw` rules the tablebase solves, against those of games played from them under `rules` (the
/// default rules ban repetition and cap a game at 250 plies) by two [`crate::tablebase_player::TablebasePlayer`]s:
/// each plays the best move by the table among the moves the rules allow. Counts by (table result, result of
/// the game), each "win", "draw" or "loss".
pub fn results_under(
    rules: &zero_games::baghchal::BaghChalRules,
    set: &OracleSet,
    table: &std::sync::Arc<Table>,
    seed: u64,
) -> Result<BTreeMap<(&'static str, &'static str), usize>, ArenaError> {
    use crate::tablebase_player::TablebasePlayer;
    let result = |v: Value| match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    };
    let mut counts = BTreeMap::new();
    for (i, p) in set.positions.iter().enumerate() {
        let mut game = BaghChal::from_position(rules, &p.position)
            .map_err(|e| ArenaError::Invalid(format!("oracle position {:?}: {e}", p.position)))?;
        if game.goats_in_hand() > 0 {
            continue;
        }
        let mover = game.to_move();
        let expected = result(table.value(&zero_tablebase::probe::slide_of(&game)));
        let limit = zero_search::alphabeta::SearchLimit::default();
        let mut players = [0u64, 1].map(|stream| {
            TablebasePlayer::new(String::new(), table.clone(), limit, player_rng(seed ^ i as u64, stream))
        });
        while game.outcome().is_none() {
            let mv = players[(game.to_move() == Side::Second) as usize].choose_move(&game);
            game.play(&mv);
        }
        let outcome = game.outcome().expect("the game ended");
        let got = match outcome.winner {
            Some(w) if w == mover => "win",
            Some(_) => "loss",
            None => "draw",
        };
        *counts.entry((expected, got)).or_insert(0) += 1;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_reads_back_what_it_writes_and_a_bad_line_is_named() {
        let set = OracleSet::standard();
        assert_eq!(set.positions.len(), 1200);
        let again = OracleSet::parse(&set.to_text("comment\nlines")).unwrap();
        assert_eq!(again, set);
        let head = set.head(3, 2);
        assert_eq!(head.positions.len(), 8);
        let err =
            OracleSet::parse("# fine\nT...T/...../...../...../T...T g 20 0\tstart\nTTTTT/ g 0 0\tbad\n").unwrap_err();
        assert!(err.to_string().contains("line 3"), "{err}");
    }
}
