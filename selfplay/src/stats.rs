//! Counters of a self-play run: live progress shared between threads, and the summary of finished games.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use zero_games::Side;

/// Live counters the workers bump and a progress display reads.
#[derive(Debug, Default)]
pub struct Progress {
    pub games: AtomicU64,
    pub positions: AtomicU64,
    pub simulations: AtomicU64,
    /// Positions sent to evaluators, and evaluator calls.
    pub evaluations: AtomicU64,
    pub batches: AtomicU64,
}

impl Progress {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    /// Mean positions per evaluator call so far.
    pub fn mean_batch(&self) -> f64 {
        let batches = Self::get(&self.batches);
        if batches == 0 {
            0.0
        } else {
            Self::get(&self.evaluations) as f64 / batches as f64
        }
    }
}

/// What the finished games of a run add up to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SelfPlayStats {
    pub games: u64,
    pub positions: u64,
    pub full_positions: u64,
    pub plies: u64,
    /// Games by (winner: "first", "second" or "draw", reason).
    pub results: BTreeMap<(String, String), u64>,
    /// Would-be resigned games played out to check, and those the resigning side did not lose.
    pub resign_checks: u64,
    pub false_resigns: u64,
    /// Games against the classic engine (`selfplay.sparring.share`), and the network's wins and draws in them.
    pub sparring_games: u64,
    pub sparring_wins: u64,
    pub sparring_draws: u64,
    pub simulations: u64,
    pub evaluations: u64,
    pub batches: u64,
    /// Largest tree arena of any game in flight, in bytes.
    pub max_tree_bytes: u64,
}

impl SelfPlayStats {
    pub fn record_result(&mut self, winner: Option<Side>, reason: &str) {
        let who = match winner {
            Some(Side::First) => "first",
            Some(Side::Second) => "second",
            None => "draw",
        };
        *self.results.entry((who.to_string(), reason.to_string())).or_default() += 1;
    }

    /// Counts a sparring game that the network's side scored `value` in (1 won, 0 drawn, -1 lost).
    pub fn record_sparring(&mut self, value: f32) {
        self.sparring_games += 1;
        self.sparring_wins += (value > 0.0) as u64;
        self.sparring_draws += (value == 0.0) as u64;
    }

    /// The network's score against the engine in sparring games, in [0, 1] (None before any).
    pub fn sparring_score(&self) -> Option<f64> {
        (self.sparring_games > 0)
            .then(|| (self.sparring_wins as f64 + 0.5 * self.sparring_draws as f64) / self.sparring_games as f64)
    }

    pub fn merge(&mut self, other: &SelfPlayStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.full_positions += other.full_positions;
        self.plies += other.plies;
        for (k, v) in &other.results {
            *self.results.entry(k.clone()).or_default() += v;
        }
        self.resign_checks += other.resign_checks;
        self.false_resigns += other.false_resigns;
        self.sparring_games += other.sparring_games;
        self.sparring_wins += other.sparring_wins;
        self.sparring_draws += other.sparring_draws;
        self.simulations += other.simulations;
        self.evaluations += other.evaluations;
        self.batches += other.batches;
        self.max_tree_bytes = self.max_tree_bytes.max(other.max_tree_bytes);
    }

    /// Share of checked would-be resignations whose side did not lose (None before any check).
    pub fn false_resign_rate(&self) -> Option<f64> {
        (self.resign_checks > 0).then(|| self.false_resigns as f64 / self.resign_checks as f64)
    }

    pub fn mean_batch(&self) -> f64 {
        if self.batches == 0 {
            0.0
        } else {
            self.evaluations as f64 / self.batches as f64
        }
    }
}

impl fmt::Display for SelfPlayStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mean_len = if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        };
        write!(
            f,
            "{} games, {} positions ({} full searches), mean length {:.1} plies",
            self.games, self.positions, self.full_positions, mean_len
        )?;
        for who in ["first", "draw", "second"] {
            let parts: Vec<String> = self
                .results
                .iter()
                .filter(|((w, _), _)| w == who)
                .map(|((_, reason), n)| format!("{reason} {n}"))
                .collect();
            let total: u64 = self.results.iter().filter(|((w, _), _)| w == who).map(|(_, n)| n).sum();
            let label = match who {
                "first" => "first-player wins",
                "second" => "second-player wins",
                _ => "draws",
            };
            write!(f, "; {label} {total}")?;
            if !parts.is_empty() {
                write!(f, " ({})", parts.join(", "))?;
            }
        }
        if let Some(score) = self.sparring_score() {
            let losses = self.sparring_games - self.sparring_wins - self.sparring_draws;
            write!(
                f,
                "; against the engine {}-{}-{} ({:.1}%)",
                self.sparring_wins,
                self.sparring_draws,
                losses,
                100.0 * score
            )?;
        }
        match self.false_resign_rate() {
            Some(rate) => write!(
                f,
                "; false resignations {}/{} ({:.1}%)",
                self.false_resigns,
                self.resign_checks,
                100.0 * rate
            ),
            None => write!(f, "; false resignations: no checked game"),
        }
    }
}
