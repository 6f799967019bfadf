//! The sequential probability ratio test that gates a new generation: play pairs of games (one opening, both
//! colours) against the current best and stop as soon as the evidence decides between H0: "the candidate is
//! `elo0` stronger" and H1: "it is `elo1` stronger" (for example elo0 = 0, elo1 = 30).
//!
//! The log-likelihood ratio is fishtest's generalised SPRT approximation for the logistic Elo model: with the
//! per-sample scores' empirical mean `m` and variance `v`, and the expected scores `s0`, `s1` under the two
//! hypotheses (`s = 1 / (1 + 10^(-elo / 400))`),
//!
//! `LLR = N (s1 - s0) (2m - s0 - s1) / (2 v)`.
//!
//! Samples are **pairs** of games (pentanomial: the pair's mean score is 0, 1/4, 1/2, 3/4 or 1), which is right
//! for paired openings: the two games of a pair are correlated, and treating them as independent games
//! (trinomial) would misstate the variance; [`Sprt::llr_trinomial`] is there for unpaired games. Every category
//! starts with half a sample (a Jeffreys-like prior; fishtest gives empty categories 1e-3): with so small a
//! prior one or two equal results give a variance near 0 and an LLR past either bound at once, while half a
//! sample per category is negligible after a few dozen pairs.
//! The test accepts H1 when LLR >= ln((1 - beta) / alpha), H0 when LLR <= ln(beta / (1 - alpha)), and otherwise
//! continues.

use crate::records::MatchRecord;
use serde::{Deserialize, Serialize};

/// The test's hypotheses and error rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// The candidate is better by at least about `elo1`: promote it.
    AcceptH1,
    /// It is not better than about `elo0`: keep the current best.
    AcceptH0,
    /// Not enough evidence yet: play more games.
    Continue,
}

impl SprtDecision {
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::AcceptH1 => "accept H1",
            SprtDecision::AcceptH0 => "accept H0",
            SprtDecision::Continue => "continue",
        }
    }
}

/// Where the test stands.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
    /// Games used to reach the decision (all games seen when it continues).
    pub games: usize,
    /// The candidate's mean score over those games.
    pub score: f64,
}

/// Prior samples added to every category.
const PRIOR_PER_CATEGORY: f64 = 0.5;

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }

    /// (lower, upper) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of samples with scores `values[k]` seen `counts[k]` times.
    fn llr(&self, values: &[f64], counts: &[f64]) -> f64 {
        let counts: Vec<f64> = counts.iter().map(|&c| c + PRIOR_PER_CATEGORY).collect();
        let n: f64 = counts.iter().sum();
        let mean = values.iter().zip(&counts).map(|(v, c)| v * c).sum::<f64>() / n;
        let variance = values
            .iter()
            .zip(&counts)
            .map(|(v, c)| c * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// LLR from independent games: the candidate's wins, draws and losses.
    pub fn llr_trinomial(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        self.llr(&[1.0, 0.5, 0.0], &[wins as f64, draws as f64, losses as f64])
    }

    /// LLR from pairs of games: `counts[k]` pairs in which the candidate scored `k` half-points (0..=4).
    pub fn llr_pentanomial(&self, counts: [u32; 5]) -> f64 {
        self.llr(&[0.0, 0.25, 0.5, 0.75, 1.0], &counts.map(|c| c as f64))
    }

    fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// Runs the test over pairs in the order played (each pair: the candidate's two game scores, 1/0.5/0),
    /// stopping at the first decision.
    pub fn run_pairs(&self, pairs: impl IntoIterator<Item = (f64, f64)>) -> SprtReport {
        let (lower, upper) = self.bounds();
        let mut counts = [0u32; 5];
        let mut total = 0.0;
        let mut games = 0;
        let mut llr = 0.0;
        for (a, b) in pairs {
            let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
            counts[half_points] += 1;
            total += a + b;
            games += 2;
            llr = self.llr_pentanomial(counts);
            let decision = self.decide(llr);
            if decision != SprtDecision::Continue {
                return SprtReport {
                    llr,
                    lower,
                    upper,
                    decision,
                    games,
                    score: total / games as f64,
                };
            }
        }
        SprtReport {
            llr,
            lower,
            upper,
            decision: SprtDecision::Continue,
            games,
            score: if games == 0 { 0.5 } else { total / games as f64 },
        }
    }

    /// Runs the test over a head-to-head match's records (games `2k` and `2k + 1` form a pair, as
    /// [`crate::head_to_head`] plays them), from `candidate`'s view. An unpaired last game is left out.
    pub fn run_records(&self, records: &[MatchRecord], candidate: &str) -> SprtReport {
        // A game the candidate is not named in counts as one it played second (head-to-head records always
        // name it).
        let score = |r: &MatchRecord| r.score_of(candidate).unwrap_or_else(|| 1.0 - r.first_score());
        self.run_pairs(records.chunks_exact(2).map(|pair| (score(&pair[0]), score(&pair[1]))))
    }
}
