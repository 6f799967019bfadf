//! Openings: short random move sequences from the start, so that two deterministic players do not play the same
//! game over and over, and so that colour and opening luck cancel out (each opening is played twice, colours
//! swapped).
//!
//! An opening is a uniformly random number of plies in `min_plies..=max_plies` (2-6 by default), each a uniformly
//! random legal move. It is kept only if it is **balanced** (`zero_search::balance`): the game is not over, and an
//! alpha-beta search of `Heuristic::BOOK_BALANCE_DEPTH` plies (4; 8 for Bagh Chal) with the game's heuristic scores
//! it, from the first player's view, within [`BALANCE_LIMIT`] of the same search from the start position (so no
//! side has already lost material, or left a piece to a capture, a fork or a slower threat, that it cannot get
//! back). Self-play's random openings (`selfplay.opening_share`) are judged the same way, four plies deep in every
//! game. Duplicates (same position hash) are dropped. The book is generated once from a seed and stored as JSON
//! (the move sequences in notation, with the game and rules they belong to), so that a match can be replayed
//! exactly.

use crate::ArenaError;
use crate::player::player_rng;
use rand::RngExt;
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use std::path::Path;
use zero_games::Heuristic;
use zero_search::balance::{BalanceJudge, play_random_moves};

pub use zero_search::balance::BALANCE_LIMIT;
/// Random tries per opening wanted before giving up on finding more.
pub(crate) const TRIES_PER_OPENING: usize = 50;

/// How far [`OpeningBook::generate_reporting`] has got: openings kept of those wanted, and distinct random lines
/// judged so far (kept or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookProgress {
    pub kept: usize,
    pub wanted: usize,
    pub tried: usize,
}

/// The size, seed and line lengths of a book to generate ([`OpeningBook::generate`]'s arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookRequest {
    pub count: usize,
    pub seed: u64,
    pub min_plies: u32,
    pub max_plies: u32,
}

impl BookRequest {
    /// `count` openings of 2 to 6 random plies from `seed`: the books of runs and of `zero eval`.
    pub fn new(count: usize, seed: u64) -> Self {
        BookRequest {
            count,
            seed,
            min_plies: 2,
            max_plies: 6,
        }
    }
}

/// A stored list of openings for one game and rule set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpeningBook {
    pub game: String,
    pub rules: Vec<String>,
    pub seed: u64,
    pub min_plies: u32,
    pub max_plies: u32,
    /// Each opening: moves in notation from the start position.
    pub openings: Vec<Vec<String>>,
}

impl OpeningBook {
    /// Generates `count` balanced openings of `min_plies..=max_plies` random moves (fewer if the game has
    /// fewer distinct balanced ones; at least the empty opening).
    pub fn generate<G: Heuristic>(
        rules: &G::Rules,
        count: usize,
        seed: u64,
        min_plies: u32,
        max_plies: u32,
    ) -> OpeningBook {
        let request = BookRequest {
            count,
            seed,
            min_plies,
            max_plies,
        };
        Self::generate_reporting::<G>(rules, request, &mut |_| {})
    }

    /// [`OpeningBook::generate`], calling `progress` after each random line judged (a Bagh Chal book of 64 takes
    /// tens of seconds of a core, eight plies deep). The book is the same whatever `progress` does.
    pub fn generate_reporting<G: Heuristic>(
        rules: &G::Rules,
        request: BookRequest,
        progress: &mut dyn FnMut(BookProgress),
    ) -> OpeningBook {
        let BookRequest {
            count,
            seed,
            min_plies,
            max_plies,
        } = request;
        let mut rng = player_rng(seed, u64::MAX);
        let mut judge = BalanceJudge::<G>::new(rules, G::BOOK_BALANCE_DEPTH, player_rng(seed, u64::MAX - 1));
        let mut seen = FxHashSet::default();
        let mut openings = Vec::new();
        let mut line = Vec::new();
        let max_plies = max_plies.max(min_plies);
        let mut tried = 0;
        for _ in 0..count.max(1) * TRIES_PER_OPENING {
            if openings.len() >= count {
                break;
            }
            let plies = rng.random_range(min_plies..=max_plies);
            let mut game = G::start(rules);
            line.clear();
            play_random_moves(&mut game, plies, &mut rng, &mut line);
            if game.outcome().is_some() || !seen.insert(game.hash()) {
                continue;
            }
            if judge.is_balanced(&game) {
                openings.push(Self::notation(&G::start(rules), &line));
            }
            tried += 1;
            progress(BookProgress {
                kept: openings.len(),
                wanted: count.max(1),
                tried,
            });
        }
        if openings.is_empty() {
            openings.push(Vec::new());
        }
        OpeningBook {
            game: G::NAME.to_string(),
            rules: G::describe_rules(rules),
            seed,
            min_plies,
            max_plies,
            openings,
        }
    }

    /// `line`, played from `start`, in notation.
    fn notation<G: Heuristic>(start: &G, line: &[G::Move]) -> Vec<String> {
        let mut game = start.clone();
        line.iter()
            .map(|mv| {
                let text = game.format_move(mv);
                game.play(mv);
                text
            })
            .collect()
    }

    /// The empty book: every game from the start position.
    pub fn start_only<G: Heuristic>(rules: &G::Rules) -> OpeningBook {
        OpeningBook {
            game: G::NAME.to_string(),
            rules: G::describe_rules(rules),
            seed: 0,
            min_plies: 0,
            max_plies: 0,
            openings: vec![Vec::new()],
        }
    }

    /// Checks that the book belongs to `G` under `rules` and that every opening replays legally.
    pub fn validate<G: Heuristic>(&self, rules: &G::Rules) -> Result<(), ArenaError> {
        if self.game != G::NAME {
            return Err(ArenaError::Openings(format!("book for {}, not {}", self.game, G::NAME)));
        }
        if self.rules != G::describe_rules(rules) {
            return Err(ArenaError::Openings(format!(
                "book made under rules [{}], not [{}]",
                self.rules.join(" "),
                G::describe_rules(rules).join(" ")
            )));
        }
        if self.openings.is_empty() {
            return Err(ArenaError::Openings("the book holds no opening".to_string()));
        }
        for (i, line) in self.openings.iter().enumerate() {
            self.position::<G>(rules, i)
                .map_err(|e| ArenaError::Openings(format!("opening {i} ({}): {e}", line.join(" "))))?;
        }
        Ok(())
    }

    /// The position after opening `index`.
    pub fn position<G: Heuristic>(&self, rules: &G::Rules, index: usize) -> Result<G, ArenaError> {
        let mut game = G::start(rules);
        for text in &self.openings[index] {
            if game.outcome().is_some() {
                return Err(ArenaError::Openings(format!("move {text} after the end of the game")));
            }
            let mv = game.parse_move(text).map_err(|e| ArenaError::Openings(e.to_string()))?;
            game.play(&mv);
        }
        if game.outcome().is_some() {
            return Err(ArenaError::Openings("the opening ends the game".to_string()));
        }
        Ok(game)
    }

    pub fn load(path: &Path) -> Result<OpeningBook, ArenaError> {
        let text = std::fs::read_to_string(path).map_err(|source| ArenaError::Io {
            path: path.display().to_string(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| ArenaError::BadFile {
            path: path.display().to_string(),
            reason: e.to_string(),
        })
    }

    /// Writes the book as JSON, atomically: a kill leaves the old file or the new one, never half of one.
    pub fn save(&self, path: &Path) -> Result<(), ArenaError> {
        let text = serde_json::to_string_pretty(self).expect("a book serialises");
        zero_io::write_atomically(path, (text + "\n").as_bytes()).map_err(|source| ArenaError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}
