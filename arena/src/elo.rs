//! Ratings: the Bradley-Terry model fitted by maximum likelihood over every game of a pool, as BayesElo and
//! Ordo do.
//!
//! - Player `i` has a strength `r_i`; the expected score of `i` against `j` is `1 / (1 + exp(r_j - r_i))`,
//!   whatever the colours (paired openings cancel the first-move advantage). Ratings are reported on the Elo
//!   scale: `elo = r * 400 / ln 10`, so 400 Elo points are odds of 10 to 1.
//! - A draw counts as half a win for each side (the score is binomial in half-points): simple, and the usual
//!   choice when draws are rare; a Davidson draw parameter would change the intervals little.
//! - Every pair of players that met gets one virtual draw added (a weak prior, as BayesElo's virtual draws), so
//!   a player who won every game gets a large but finite rating instead of an infinite one.
//! - The anchor's rating is fixed at 0 (`random` when present); the others are fitted by Newton's method on the
//!   log-likelihood, which is concave.
//! - 95% intervals: ±1.96 standard errors, from the inverse of the negative Hessian of the log-likelihood at the
//!   maximum (the observed Fisher information). They are relative to the anchor, whose interval is 0.

use crate::ArenaError;
use serde::{Deserialize, Serialize};

/// Natural units to Elo points.
pub const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;
/// Virtual draws added to each pair of players that met.
pub const PRIOR_DRAWS: f64 = 1.0;
const Z_95: f64 = 1.959_964;

/// One game for the ratings: player indices and the first side's score (1, 0.5 or 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub first: usize,
    pub second: usize,
    pub first_score: f64,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    pub elo: f64,
    /// Half-width of the 95% interval (0 for the anchor).
    pub elo_interval: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points (wins + draws / 2) over games, in percent.
    pub score_percent: f64,
    /// Mean milliseconds the player took to choose a move, when its games were played in this process (a round
    /// robin); absent for a pool of recorded games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms_per_move: Option<f64>,
    /// Mean simulations its tree search ran per move (forced moves count, with none), for a network search
    /// player in a round robin: what its budget bought.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sims_per_move: Option<f64>,
}

/// The rated pool, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// The player whose rating is fixed at 0.
    pub anchor: String,
    pub rows: Vec<Standing>,
}

impl Standings {
    pub fn get(&self, name: &str) -> Option<&Standing> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// The table as text for people.
    pub fn table(&self) -> String {
        let width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(6).max(6);
        let timed = self.rows.iter().any(|r| r.ms_per_move.is_some());
        let mut out = format!(
            "{:<width$} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6} {:>7}",
            "player", "elo", "±95%", "games", "wins", "draws", "losses", "score%"
        );
        let searched = self.rows.iter().any(|r| r.sims_per_move.is_some());
        out += if timed { "  ms/move" } else { "" };
        out += if searched { " sims/move\n" } else { "\n" };
        for r in &self.rows {
            out += &format!(
                "{:<width$} {:>7.0} {:>7.0} {:>6} {:>6} {:>6} {:>6} {:>7.1}",
                r.name, r.elo, r.elo_interval, r.games, r.wins, r.draws, r.losses, r.score_percent
            );
            out += &match (timed, r.ms_per_move) {
                (false, _) => String::new(),
                (true, Some(ms)) => format!(" {ms:>8.1}"),
                (true, None) => format!(" {:>8}", "-"),
            };
            out += &match (searched, r.sims_per_move) {
                (false, _) => "\n".to_string(),
                (true, Some(sims)) => format!(" {sims:>9.0}\n"),
                (true, None) => format!(" {:>9}\n", "-"),
            };
        }
        out + &format!("(Bradley-Terry maximum likelihood, {} = 0)\n", self.anchor)
    }
}

/// Rates every player that appears in `records` (in order of first appearance), with `anchor` at 0 when it
/// played, else the first player: how a pool of games recorded over time, as a training run's, is rated.
pub fn rate_records(records: &[crate::MatchRecord], anchor: &str) -> Result<Standings, ArenaError> {
    let mut names: Vec<String> = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let results: Vec<GameResult> = records
        .iter()
        .map(|r| GameResult {
            first: index(&r.first, &mut names),
            second: index(&r.second, &mut names),
            first_score: r.first_score(),
        })
        .collect();
    if names.is_empty() {
        return Err(ArenaError::Ratings("no games to rate".to_string()));
    }
    let anchor = names.iter().position(|n| n == anchor).unwrap_or(0);
    rate(&names, &results, anchor)
}

/// Fits ratings for `names` from `results`, with `names[anchor]` at 0.
pub fn rate(names: &[String], results: &[GameResult], anchor: usize) -> Result<Standings, ArenaError> {
    let n = names.len();
    if anchor >= n {
        return Err(ArenaError::Ratings("no anchor player".to_string()));
    }
    // Games and points between each pair, the virtual draws included.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    let mut tally = vec![[0u32; 3]; n];
    for r in results {
        if r.first >= n || r.second >= n || r.first == r.second {
            return Err(ArenaError::Ratings(format!(
                "bad game between players {} and {}",
                r.first, r.second
            )));
        }
        games[r.first][r.second] += 1.0;
        games[r.second][r.first] += 1.0;
        points[r.first][r.second] += r.first_score;
        points[r.second][r.first] += 1.0 - r.first_score;
        let (a, b) = match r.first_score {
            s if s > 0.75 => (0, 2),
            s if s < 0.25 => (2, 0),
            _ => (1, 1),
        };
        tally[r.first][a] += 1;
        tally[r.second][b] += 1;
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += PRIOR_DRAWS;
                points[i][j] += PRIOR_DRAWS / 2.0;
            }
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut r = vec![0.0f64; n];
    let mut covariance = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        let (gradient, information) = derivatives(&r, &games, &points, &free);
        covariance = invert(&information).ok_or_else(|| {
            ArenaError::Ratings("the pool is not connected: some players never met the others".to_string())
        })?;
        let mut largest = 0.0f64;
        for (a, &i) in free.iter().enumerate() {
            // Newton's step, capped so that a far-off start cannot overshoot.
            let step: f64 = (0..free.len())
                .map(|b| covariance[a][b] * gradient[b])
                .sum::<f64>()
                .clamp(-2.0, 2.0);
            r[i] += step;
            largest = largest.max(step.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| {
            let interval = free
                .iter()
                .position(|&f| f == i)
                .map_or(0.0, |a| Z_95 * covariance[a][a].max(0.0).sqrt() * ELO_PER_NATURAL);
            let [wins, draws, losses] = tally[i];
            let played = wins + draws + losses;
            Standing {
                name: names[i].clone(),
                elo: r[i] * ELO_PER_NATURAL,
                elo_interval: interval,
                games: played,
                wins,
                draws,
                losses,
                score_percent: if played == 0 {
                    0.0
                } else {
                    100.0 * (wins as f64 + draws as f64 / 2.0) / played as f64
                },
                ms_per_move: None,
                sims_per_move: None,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(Standings {
        anchor: names[anchor].clone(),
        rows,
    })
}

/// Gradient of the log-likelihood and its negative Hessian (the information), over the free players.
fn derivatives(r: &[f64], games: &[Vec<f64>], points: &[Vec<f64>], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut gradient = vec![0.0; free.len()];
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    let index: Vec<Option<usize>> = (0..n).map(|i| free.iter().position(|&f| f == i)).collect();
    for i in 0..n {
        for j in 0..n {
            if i == j || games[i][j] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (r[j] - r[i]).exp());
            let w = games[i][j] * p * (1.0 - p);
            if let Some(a) = index[i] {
                gradient[a] += points[i][j] - games[i][j] * p;
                information[a][a] += w;
                if let Some(b) = index[j] {
                    information[a][b] -= w;
                }
            }
        }
    }
    (gradient, information)
}

/// Gauss-Jordan inverse with partial pivoting; `None` when singular.
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(i == j)).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let scale = a[col][col];
        for k in 0..n {
            a[col][k] /= scale;
            inv[col][k] /= scale;
        }
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    for k in 0..n {
                        a[row][k] -= factor * a[col][k];
                        inv[row][k] -= factor * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}
