//! What a run records of itself, one JSON line per generation in `generations.jsonl`: the
//! [`GenerationSummary`] with its ratings and gate decision, and how the run names its networks. The loop writes
//! these records, the report reads them.

use crate::RunDirError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The name a run's network `generation` plays under.
pub fn network_name(generation: u32) -> String {
    format!("gen{generation}")
}

/// Whether `name` is how a run names one of its networks (`gen12`).
pub fn is_network_name(name: &str) -> bool {
    name.strip_prefix("gen").is_some_and(|n| n.parse::<u32>().is_ok())
}

/// One player's rating in a generation's evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub player: String,
    pub elo: f64,
    /// 95% interval.
    pub low: f64,
    pub high: f64,
}

/// What `zero run` records after each generation (one JSON line in `generations.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct GenerationSummary {
    pub generation: u32,
    /// Seconds since the run started (across resumes: time actually spent working).
    pub elapsed_seconds: f64,
    pub games: u64,
    pub positions: u64,
    /// Self-play positions per second, when self-play ran in the session that finished the generation (a
    /// generation whose self-play finished before a resume has none: `null`).
    pub positions_per_second: Option<f64>,
    pub mean_game_length: f64,
    pub draw_rate: f64,
    pub resign_rate: f64,
    /// Shares of the games the first and the second player won (a side that always wins is a collapse sign).
    #[serde(default)]
    pub first_win_rate: f64,
    #[serde(default)]
    pub second_win_rate: f64,
    /// Would-be resignations played out in this session and the share of them the resigning side did not lose.
    #[serde(default)]
    pub resign_checks: u64,
    pub false_resign_rate: Option<f64>,
    /// Whether self-play could resign in this generation (the one before earned it), when the session decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resignation_allowed: Option<bool>,
    /// Signs that self-play is collapsing (see [`collapse_warnings`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    pub train_steps: u64,
    /// Wall-clock seconds and cores busy of each phase, where the session that finished the generation ran it.
    #[serde(default)]
    pub phases: PhaseTimes,
    /// Mean of each loss term over this generation's training steps.
    pub losses: BTreeMap<String, f64>,
    /// The new network's rating and the references', from the generation's evaluation pool.
    pub ratings: Vec<RatingPoint>,
    /// Name of the rated network of this generation (in `ratings`).
    pub network: String,
    /// The network's results against each player of its evaluation (the baselines and its parent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<MatchScore>,
    /// With `[run.equal_time]`'s `movetime_ms`: the network against alpha-beta at equal thinking time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equal_time: Option<EqualTimeResult>,
    /// Bagh Chal with a tablebase (`run.eval_oracle_positions`): the network's moves against perfect play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle: Option<OracleSummary>,
    /// With `run.gate`: what the gate decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateSummary>,
    /// With `selfplay.sparring.share`: the network's results in its self-play games against the classic engine
    /// (those played in the session that finished the generation), with its temperature and cheap searches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sparring: Option<MatchScore>,
}

/// Reads `generations.jsonl`; a torn last line (a run killed while appending) is ignored.
pub fn read_generations(path: &Path) -> Result<Vec<GenerationSummary>, RunDirError> {
    read_jsonl(path)
}

/// Reads a JSONL file of objects, skipping a torn last line.
pub fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, RunDirError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(RunDirError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str(line) {
            Ok(v) => out.push(v),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(source) => {
                return Err(RunDirError::DamagedLine {
                    path: path.to_path_buf(),
                    line: i + 1,
                    source,
                });
            }
        }
    }
    Ok(out)
}

/// What a gate decided, as the generation's summary records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateSummary {
    /// The network the candidate played: the one self-play used.
    pub opponent: String,
    /// Whether the candidate now plays self-play.
    pub promoted: bool,
    /// `accept H1`, `accept H0`, or `continue` when the games ran out first.
    pub decision: String,
    /// Games the decision took (all of them when undecided).
    pub games: usize,
    pub llr: f64,
    /// The candidate's mean score over those games.
    pub score: f64,
}

/// Where a generation's time went: self-play, training and evaluation (the pool, the equal-time match and the
/// gate), each `None` when an earlier session ran that phase.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PhaseTimes {
    pub selfplay: Option<PhaseTime>,
    pub train: Option<PhaseTime>,
    pub evaluate: Option<PhaseTime>,
    /// With `run.eval_beside_selfplay`: the evaluation pool, played beside the next generation's self-play
    /// (wall-clock seconds only: its processor time is counted in that self-play's cores).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside_selfplay: Option<PhaseTime>,
}

/// One phase's wall-clock seconds, and the cores it kept busy on average (the process's processor time over
/// the wall-clock time; unknown where the system does not say).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PhaseTime {
    pub seconds: f64,
    pub cores: Option<f64>,
}

impl PhaseTimes {
    /// `self-play 95 s (1.0 cores), training 20 s (1.9 cores), ...` (phases not timed in this session left out).
    pub fn describe(&self) -> String {
        [
            ("self-play", self.selfplay),
            ("training", self.train),
            ("evaluation", self.evaluate),
            ("evaluation beside the next self-play", self.beside_selfplay),
        ]
        .iter()
        .filter_map(|(name, time)| {
            time.map(|t| match t.cores {
                Some(cores) => format!("{name} {:.0} s ({cores:.1} cores)", t.seconds),
                None => format!("{name} {:.0} s", t.seconds),
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// Times a stretch of work: wall clock and the process's processor time.
pub struct Stopwatch {
    started: std::time::Instant,
    cpu: Option<f64>,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            started: std::time::Instant::now(),
            cpu: process_cpu_seconds(),
        }
    }

    pub fn stop(&self) -> PhaseTime {
        let seconds = self.started.elapsed().as_secs_f64();
        let cores = match (self.cpu, process_cpu_seconds()) {
            (Some(before), Some(after)) if seconds > 0.0 => Some((after - before) / seconds),
            _ => None,
        };
        PhaseTime { seconds, cores }
    }
}

/// User and system processor seconds of this process, all threads, from `/proc/self/stat` (Linux; its clock
/// ticks are 100 a second on every mainstream architecture). `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// A player's games against one opponent, from the player's side: W-D-L and the mean score with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchScore {
    /// The opponent, as an arena spec or a network's name (`alphabeta:ms=100`, `greedy`, `gen4`).
    pub opponent: String,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// The mean score (win 1, draw 1/2), with its 95% interval.
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

impl MatchScore {
    /// A player's `scores` (1 won, 1/2 drawn, 0 lost) in its games against `opponent`.
    pub fn of(opponent: &str, scores: impl IntoIterator<Item = f64>) -> MatchScore {
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for score in scores {
            match score {
                1.0 => wins += 1,
                0.0 => losses += 1,
                _ => draws += 1,
            }
        }
        let n = (wins + draws + losses) as f64;
        let score = if n > 0.0 {
            (wins as f64 + 0.5 * draws as f64) / n
        } else {
            0.0
        };
        // Wilson's 95% interval, a draw counted as half a win: it stays honest at 0-0-10 or 10-0-0, where the
        // normal approximation would claim certainty.
        let (low, high) = if n > 0.0 {
            let z2 = 1.96f64 * 1.96;
            let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = (z2 * (score * (1.0 - score) / n + z2 / (4.0 * n * n))).sqrt() / (1.0 + z2 / n);
            ((centre - half).max(0.0), (centre + half).min(1.0))
        } else {
            (0.0, 1.0)
        };
        MatchScore {
            opponent: opponent.to_string(),
            wins,
            draws,
            losses,
            score,
            low,
            high,
        }
    }

    /// `W-D-L, score 56% [48%, 64%]`.
    pub fn describe(&self) -> String {
        format!(
            "{}, score {:.0}% [{:.0}%, {:.0}%]",
            self.wdl(),
            100.0 * self.score,
            100.0 * self.low,
            100.0 * self.high
        )
    }

    /// Wins, draws and losses: `34-4-12`.
    pub fn wdl(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// A generation's network scored against perfect play (Bagh Chal's tablebase, Connect Four's solver): the shares
/// of its moves that kept the position's result, on a fixed set of positions from real games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OracleSummary {
    /// Positions scored, and the simulations of the network's search on each.
    pub positions: usize,
    pub simulations: u32,
    /// Over every position; then Bagh Chal's sliding phase by side to move and its last placements.
    pub accuracy: f64,
    pub goats: Option<f64>,
    pub tigers: Option<f64>,
    pub placement: Option<f64>,
    /// Connect Four's stages (`begin`, `middle`, `end`), in that order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<(String, f64)>,
}

impl OracleSummary {
    /// The share of stage `name`, where the game has stages.
    pub fn stage(&self, name: &str) -> Option<f64> {
        self.stages.iter().find(|(n, _)| n == name).map(|(_, x)| *x)
    }

    /// `91.7% of moves keep the result (sliding phase: goats 95.0%, tigers 88.3%; placement 85.0%; 120 positions
    /// at 64 simulations)`, or by stage: `96.0% of moves keep the result (begin 93.0%, middle 96.0%, end 99.0%;
    /// 300 positions at 64 simulations)`.
    pub fn describe(&self) -> String {
        let share = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
        if !self.stages.is_empty() {
            let stages: Vec<String> = self
                .stages
                .iter()
                .map(|(name, x)| format!("{name} {}", share(Some(*x))))
                .collect();
            return format!(
                "{:.1}% of moves keep the result ({}; {} positions at {} simulations)",
                100.0 * self.accuracy,
                stages.join(", "),
                self.positions,
                self.simulations
            );
        }
        format!(
            "{:.1}% of moves keep the result (sliding phase: goats {}, tigers {}; placement {}; {} positions at {} simulations)",
            100.0 * self.accuracy,
            share(self.goats),
            share(self.tigers),
            share(self.placement),
            self.positions,
            self.simulations
        )
    }
}

/// A generation's match against a classic engine at equal thinking time per move, from the network's side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EqualTimeResult {
    /// Thinking time per move of both sides.
    pub ms: u64,
    /// The result; its opponent is the engine's arena spec.
    #[serde(flatten)]
    pub result: MatchScore,
    /// The same games split by the side the network played, the first player's first (absent in summaries
    /// written before it was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_side: Vec<SideScore>,
}

impl EqualTimeResult {
    /// The result and, when kept, the sides: `61-5-34, score 64% [54%, 72%]; as goats 34-4-12, as tigers
    /// 27-1-22`.
    pub fn describe(&self) -> String {
        let sides: Vec<String> = self.by_side.iter().map(SideScore::describe).collect();
        match sides.is_empty() {
            true => self.result.describe(),
            false => format!("{}; {}", self.result.describe(), sides.join(", ")),
        }
    }
}

/// A player's games against one opponent, with one side of the board: a Bagh Chal network's goats lose in
/// other ways than its tigers, and a total can hide either.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideScore {
    /// The side's name in the game (`white`, `goats`).
    pub side: String,
    #[serde(flatten)]
    pub result: MatchScore,
}

impl SideScore {
    /// `as goats 34-4-12`.
    pub fn describe(&self) -> String {
        format!("as {} {}", self.side, self.result.wdl())
    }
}

/// The share of self-play games one side must win for the results to count as one-sided.
pub const ONE_SIDED: f64 = 0.95;

/// Signs, in generation `current` against the run's earlier ones, that self-play has collapsed into games that
/// teach little: most games resigned, games much shorter than the run has seen, nearly every game drawn (Tours'
/// early games reach the ply cap), or one side winning nearly every game (Bagh Chal's tigers over weak goats).
pub fn collapse_warnings(earlier: &[GenerationSummary], current: &GenerationSummary) -> Vec<String> {
    let mut warnings = Vec::new();
    if current.games == 0 {
        return warnings;
    }
    if current.resign_rate >= 0.5 {
        warnings.push(format!(
            "{:.0}% of self-play games ended in resignation",
            100.0 * current.resign_rate
        ));
    }
    let longest = earlier.iter().map(|g| g.mean_game_length).fold(0.0, f64::max);
    if longest > 0.0 && current.mean_game_length < 0.5 * longest {
        warnings.push(format!(
            "self-play games average {:.1} plies, under half the run's longest ({longest:.1})",
            current.mean_game_length
        ));
    }
    if current.draw_rate >= ONE_SIDED && current.games >= 20 {
        warnings.push(format!(
            "{:.0}% of self-play games were draws: the value target is nearly constant",
            100.0 * current.draw_rate
        ));
    }
    for (side, rate) in [("first", current.first_win_rate), ("second", current.second_win_rate)] {
        if rate >= ONE_SIDED && current.games >= 20 {
            warnings.push(format!("the {side} player won {:.0}% of self-play games", 100.0 * rate));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_score_counts_wins_draws_and_losses_with_an_honest_interval() {
        let r = MatchScore::of("ab", [1.0, 0.0, 0.5, 1.0]);
        assert_eq!((r.wins, r.draws, r.losses), (2, 1, 1));
        assert!((r.score - 0.625).abs() < 1e-9);
        assert!(r.low < r.score && r.score < r.high && r.low >= 0.0 && r.high <= 1.0);
        assert!(r.describe().starts_with("2-1-1, score 6"), "{}", r.describe());
        // One game won is not certainty: the interval stays wide.
        let one = MatchScore::of("ab", [1.0]);
        assert!(one.score == 1.0 && one.high > 0.999, "{one:?}");
        assert!(one.low < 0.25, "{one:?}");
    }

    fn generation(length: f64, resign: f64, first: f64) -> GenerationSummary {
        GenerationSummary {
            games: 100,
            mean_game_length: length,
            resign_rate: resign,
            first_win_rate: first,
            second_win_rate: 1.0 - first,
            ..Default::default()
        }
    }

    #[test]
    fn collapse_is_flagged_by_resignations_short_games_and_one_sided_results() {
        let healthy = [generation(60.0, 0.1, 0.5), generation(55.0, 0.2, 0.45)];
        assert!(collapse_warnings(&healthy, &generation(50.0, 0.3, 0.55)).is_empty());
        let collapsed = collapse_warnings(&healthy, &generation(4.0, 0.9, 0.0));
        assert_eq!(collapsed.len(), 3, "{collapsed:?}");
        let drawn = GenerationSummary {
            draw_rate: 0.97,
            first_win_rate: 0.02,
            second_win_rate: 0.01,
            ..generation(240.0, 0.0, 0.0)
        };
        assert_eq!(
            collapse_warnings(&healthy, &drawn),
            vec!["97% of self-play games were draws: the value target is nearly constant".to_string()]
        );
        assert!(collapsed[0].contains("90% of self-play games ended in resignation"));
        assert!(collapsed[1].contains("under half the run's longest (60.0)"));
        assert!(collapsed[2].contains("second player won 100%"));
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn a_busy_thread_shows_as_about_one_core() {
        let watch = Stopwatch::start();
        let mut x = 0u64;
        while watch.started.elapsed().as_millis() < 300 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let time = watch.stop();
        assert!(time.seconds >= 0.3);
        let cores = time.cores.expect("Linux says");
        // Loose: a loaded machine may share the core; a wrong tick rate would be ten times off.
        assert!(cores > 0.2 && cores < 3.0, "{cores}");
    }
}
