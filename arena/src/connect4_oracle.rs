//! Connect Four players scored against perfect play: the share of their moves that keep a position's
//! game-theoretic value (a win stays a win, a draw a draw), on a fixed set of positions from real games, solved
//! by the project's solver (`zero-solver`).
//!
//! The set ([`SolvedSet`]) is made once by [`SolvedSet::generate`] and kept in the repository
//! (`arena/oracle/connect4.txt`, [`SolvedSet::standard`]): positions of games between the arena's engines and
//! random play, each begun from a random opening, where the side to move can change the value with some move
//! (a won or drawn position with at least one move that throws it away; in a lost position no move can be
//! wrong). Every line carries its solution, so scoring needs no search: the positions' stages follow Pons' test
//! sets, `begin` (at most 14 discs), `middle` (15-28) and `end` (29 and more).
//!
//! A line is `POSITION<TAB>KEEPING<TAB>STAGE<TAB>VALUE<TAB>COLUMNS<TAB>SOURCE`: the position as the columns
//! played from the start, numbered 1-7 (Pons' form, which outside programs read as it is); the columns (1-7)
//! whose moves keep its value; its stage; its value for the side to move (`win` or `draw`); each column's
//! result for the mover, `W`, `D`, `L` or `-` (full); the game it came from.

use crate::oracle::{Mistake, OracleScore};
use crate::player::Player;
use crate::{ArenaError, Entrant};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::collections::HashSet;
use zero_games::connect4::{Connect4, Connect4Move, Connect4Rules};
use zero_games::{Game, Registered, Side};
use zero_solver::{Outcome, Position, Solver};

/// The set kept in the repository.
const STANDARD: &str = include_str!("../oracle/connect4.txt");

/// Games of these pairs (first player `x`) make the set's positions: play from random to a few plies of search.
const SOURCES: [(&str, &str); 6] = [
    ("random", "random"),
    ("greedy", "greedy"),
    ("alphabeta:depth=2", "alphabeta:depth=2"),
    ("alphabeta:depth=4", "greedy"),
    ("greedy", "alphabeta:depth=4"),
    ("alphabeta:depth=6", "alphabeta:depth=6"),
];

/// A position's stage, by discs on the board (Pons' test sets: begin, middle, end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Begin,
    Middle,
    End,
}

impl Stage {
    pub const ALL: [Stage; 3] = [Stage::Begin, Stage::Middle, Stage::End];

    pub fn of_discs(discs: u32) -> Stage {
        match discs {
            0..=14 => Stage::Begin,
            15..=28 => Stage::Middle,
            _ => Stage::End,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Begin => "begin",
            Stage::Middle => "middle",
            Stage::End => "end",
        }
    }

    fn parse(text: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == text)
    }
}

/// A column's result for the side to move: `W`, `D`, `L`, or `-` for a full column.
fn result_char(outcome: Option<Outcome>) -> char {
    match outcome {
        Some(Outcome::Win) => 'W',
        Some(Outcome::Draw) => 'D',
        Some(Outcome::Loss) => 'L',
        None => '-',
    }
}

/// One solved position of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolvedPosition {
    /// The columns played from the start, 1-7.
    pub moves: String,
    pub stage: Stage,
    /// `W`, `D` or `L` for the side to move.
    pub value: char,
    /// Each column's result for the mover: `W`, `D`, `L` or `-`.
    pub columns: [char; 7],
    pub source: String,
}

impl SolvedPosition {
    /// The columns (0-based) whose moves keep the value.
    pub fn keeping(&self) -> impl Iterator<Item = usize> + '_ {
        (0..7).filter(|&c| self.columns[c] == self.value)
    }

    fn keeping_text(&self) -> String {
        self.keeping().map(|c| char::from(b'1' + c as u8)).collect()
    }

    fn value_name(&self) -> &'static str {
        if self.value == 'W' { "win" } else { "draw" }
    }

    /// Solves `game` (not over): the position with each move's result (win, draw or loss, not how fast: a
    /// weak solve), or none where no move can change the value (a lost position, or one whose every move keeps
    /// it).
    pub fn solve(solver: &mut Solver, game: &Connect4, moves: String, source: String) -> Option<SolvedPosition> {
        let position = to_position(game).ok()?;
        let columns = solver.move_outcomes(&position).map(result_char);
        let value = *columns.iter().filter(|&&c| c != '-').max_by_key(|&&c| rank(c))?;
        let critical = value != 'L' && columns.iter().any(|&c| c != '-' && c != value);
        critical.then(|| SolvedPosition {
            moves,
            stage: Stage::of_discs(game.ply()),
            value,
            columns,
            source,
        })
    }
}

/// Orders results for the mover: a win over a draw over a loss.
fn rank(result: char) -> u8 {
    match result {
        'W' => 2,
        'D' => 1,
        _ => 0,
    }
}

/// The solver's position for a game of the rules core (the same bitboard layout).
pub fn to_position(game: &Connect4) -> Result<Position, zero_solver::PositionError> {
    Position::from_bitboards(game.discs(game.to_move()), game.occupied())
}

/// A fixed set of solved positions to score players on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolvedSet {
    pub positions: Vec<SolvedPosition>,
}

impl SolvedSet {
    /// The set kept in the repository (`arena/oracle/connect4.txt`).
    pub fn standard() -> SolvedSet {
        SolvedSet::parse(STANDARD).expect("the standard Connect Four set parses")
    }

    /// Reads a set (see the module documentation); `#` starts a comment line.
    pub fn parse(text: &str) -> Result<SolvedSet, ArenaError> {
        let mut positions = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| ArenaError::Invalid(format!("Connect Four set line {}: {why}: {line:?}", n + 1));
            positions.push(parse_line(line).map_err(|why| bad(&why.to_string()))?);
        }
        Ok(SolvedSet { positions })
    }

    /// The set as text for [`SolvedSet::parse`], with `comment` lines on top.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text: String = comment.lines().map(|l| format!("# {l}\n")).collect();
        for p in &self.positions {
            let columns: String = p.columns.iter().collect();
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{columns}\t{}\n",
                p.moves,
                p.keeping_text(),
                p.stage.name(),
                p.value_name(),
                p.source
            ));
        }
        text
    }

    /// The first `per_stage` positions of each stage: a smaller set with the same mix (a run's per-generation
    /// check).
    pub fn head(&self, per_stage: usize) -> SolvedSet {
        let mut taken = [0usize; 3];
        let positions = self
            .positions
            .iter()
            .filter(|p| {
                taken[p.stage as usize] += 1;
                taken[p.stage as usize] <= per_stage
            })
            .cloned()
            .collect();
        SolvedSet { positions }
    }

    /// Makes a set from games between the arena's engines and random play (`SOURCES`), each begun from a
    /// random opening of 2-8 moves: `per_stage` positions of each stage with at least `min_discs` discs, all of
    /// them positions where some move changes the value. The candidates of each batch of games are solved on
    /// every core, and taken in the games' order, so that the set depends on `seed` alone. `progress` hears of
    /// each position taken.
    pub fn generate(
        seed: u64,
        per_stage: usize,
        min_discs: u32,
        mut progress: impl FnMut(Stage, usize),
    ) -> Result<SolvedSet, ArenaError> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut seen = HashSet::new();
        let mut pools: [Vec<SolvedPosition>; 3] = Default::default();
        let mut game_number = 0u64;
        let mut solvers: Vec<Solver> = (0..rayon::current_num_threads()).map(|_| Solver::new()).collect();
        while pools.iter().any(|pool| pool.len() < per_stage) {
            let mut batch = Vec::new();
            for _ in 0..GAMES_PER_BATCH {
                let found = candidates(seed, game_number, &mut rng, min_discs, &mut seen)?;
                // Positions of a stage already complete are not worth solving.
                batch.extend(
                    found
                        .into_iter()
                        .filter(|(game, ..)| pools[Stage::of_discs(game.ply()) as usize].len() < per_stage),
                );
                game_number += 1;
            }
            // One solver per thread for the whole set: its table is large, and what it learnt carries over.
            let chunk = batch.len().div_ceil(solvers.len()).max(1);
            let solved: Vec<Option<SolvedPosition>> = solvers
                .par_iter_mut()
                .zip(batch.par_chunks(chunk))
                .flat_map_iter(|(solver, chunk)| {
                    let solve = |(game, moves, source): &(Connect4, String, String)| {
                        SolvedPosition::solve(solver, game, moves.clone(), source.clone())
                    };
                    chunk.iter().map(solve).collect::<Vec<_>>()
                })
                .collect();
            for p in solved.into_iter().flatten() {
                let pool = &mut pools[p.stage as usize];
                if pool.len() < per_stage {
                    let stage = p.stage;
                    pool.push(p);
                    progress(stage, pool.len());
                }
            }
        }
        Ok(SolvedSet {
            positions: pools.into_iter().flatten().collect(),
        })
    }
}

/// Games whose candidates are solved together in [`SolvedSet::generate`].
const GAMES_PER_BATCH: usize = 16;

/// A few positions of game `game_number` (so that the set spans many games) with at least `min_discs` discs and
/// not seen before, each with the columns played and the game's source.
fn candidates(
    seed: u64,
    game_number: u64,
    rng: &mut rand_chacha::ChaCha8Rng,
    min_discs: u32,
    seen: &mut HashSet<String>,
) -> Result<Vec<(Connect4, String, String)>, ArenaError> {
    let (first, second) = SOURCES[game_number as usize % SOURCES.len()];
    let source = format!("{first} v {second}, game {game_number}");
    let mut players = [
        Entrant::<Connect4>::parse(first)?.player(seed ^ game_number, 0),
        Entrant::<Connect4>::parse(second)?.player(seed ^ game_number, 1),
    ];
    let mut positions = game_positions(&mut players, rng);
    positions.shuffle(rng);
    Ok(positions
        .into_iter()
        .take(3)
        .filter(|(game, moves)| game.ply() >= min_discs && seen.insert(moves.clone()))
        .map(|(game, moves)| (game, moves, source.clone()))
        .collect())
}

/// Why a line of the solved-position set was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
struct BadLine(String);

impl From<&str> for BadLine {
    fn from(why: &str) -> Self {
        BadLine(why.to_string())
    }
}

fn parse_line(line: &str) -> Result<SolvedPosition, BadLine> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [moves, keeping, stage, value, columns, source] = fields[..] else {
        return Err(BadLine(format!(
            "expected 6 tab-separated fields, found {}",
            fields.len()
        )));
    };
    let game = Connect4::from_position(&Connect4Rules, moves).map_err(|e| BadLine(e.to_string()))?;
    let stage = Stage::parse(stage).ok_or("the stage is begin, middle or end")?;
    if stage != Stage::of_discs(game.ply()) {
        return Err(BadLine(format!(
            "{} discs are not the {} stage",
            game.ply(),
            stage.name()
        )));
    }
    let value = match value {
        "win" => 'W',
        "draw" => 'D',
        _ => return Err("the value is win or draw".into()),
    };
    let columns: Vec<char> = columns.chars().collect();
    let columns: [char; 7] = columns
        .try_into()
        .map_err(|_| BadLine("the column results are 7 characters".to_string()))?;
    if columns.iter().any(|c| !"WDL-".contains(*c)) {
        return Err("a column's result is W, D, L or -".into());
    }
    let solved = SolvedPosition {
        moves: moves.to_string(),
        stage,
        value,
        columns,
        source: source.to_string(),
    };
    if solved.keeping_text() != keeping || solved.keeping().next().is_none() {
        return Err(BadLine(format!(
            "the keeping columns {keeping:?} do not match the column results"
        )));
    }
    Ok(solved)
}

/// The positions of one game between `players` (`x` first) after a random opening, each with the columns
/// played to reach it.
fn game_positions(
    players: &mut [Box<dyn Player<Connect4>>; 2],
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Vec<(Connect4, String)> {
    let mut game = Connect4::start(&Connect4Rules);
    let opening = rng.random_range(2..=8);
    let (mut moves, mut played) = (Vec::new(), String::new());
    let mut positions = Vec::new();
    while game.outcome().is_none() {
        positions.push((game.clone(), played.clone()));
        let mv = if game.ply() < opening {
            game.legal_moves(&mut moves);
            moves[rng.random_range(0..moves.len())]
        } else {
            players[(game.to_move() == Side::Second) as usize].choose_move(&game)
        };
        played.push(char::from(b'1' + mv.0));
        game.play(&mv);
    }
    positions
}

/// Scores `entrant` on every position of `set`: a fresh player per position (seeded by `seed` and the
/// position's number) chooses a move, and the set's solution says whether it kept the value. Classes are
/// `begin win`, `middle draw`, ... `G` must be Connect Four (generic so that a run, generic over its game, can
/// call it).
pub fn score<G: Registered>(entrant: &Entrant<G>, set: &SolvedSet, seed: u64) -> Result<OracleScore, ArenaError> {
    if G::NAME != Connect4::NAME {
        return Err(ArenaError::Invalid(format!(
            "the solved Connect Four set scores connect4 players, not {}",
            G::NAME
        )));
    }
    let rules = G::parse_rules(None, &[]).map_err(|e| ArenaError::Invalid(e.to_string()))?;
    let mut score = OracleScore::default();
    for (i, p) in set.positions.iter().enumerate() {
        let bad = |e: &dyn std::fmt::Display| ArenaError::Invalid(format!("position {:?}: {e}", p.moves));
        let game = G::from_position(&rules, &p.moves).map_err(|e| bad(&e))?;
        let mut player = entrant.player(seed, i as u64);
        let played = game.format_move(&player.choose_move(&game));
        let column = Connect4::start(&Connect4Rules)
            .parse_move(&played)
            .map_err(|e| bad(&e))?
            .0 as usize;
        let kept = p.columns[column] == p.value;
        let entry = score
            .classes
            .entry(format!("{} {}", p.stage.name(), p.value_name()))
            .or_default();
        entry.0 += 1;
        entry.1 += kept as usize;
        if !kept {
            score.mistakes.push(mistake(p, column));
        }
    }
    Ok(score)
}

fn mistake(p: &SolvedPosition, column: usize) -> Mistake {
    let name = |c: usize| Connect4Move(c as u8);
    let start = Connect4::start(&Connect4Rules);
    let word = |c: char| match c {
        'W' => "win",
        'D' => "draw",
        _ => "loss",
    };
    Mistake {
        position: p.moves.clone(),
        played: start.format_move(&name(column)),
        value: word(p.value).to_string(),
        after: word(p.columns[column]).to_string(),
        better: p
            .keeping()
            .next()
            .map_or(String::new(), |c| start.format_move(&name(c))),
    }
}
