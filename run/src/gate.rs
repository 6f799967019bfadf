//! Gating a new network (`run.gate`): it replaces the network self-play uses only when a sequential probability
//! ratio test (the arena's [`Sprt`]) accepts that it is at least `run.gate_elo1` stronger.
//!
//! The test plays paired games (each opening twice, colours swapped) in batches of `run.gate_batch_games`, each
//! batch written atomically to `games/gen-NNNN/gate-vs-genB-KKK.jsonl` when it finishes, and looks at the test
//! after each batch: a killed gate resumes from the batches on disk and, since each batch's seed comes from its
//! file name, reaches the same decision. The games also join the run's rating pool. A test still undecided after
//! `run.gate_max_games` keeps the current network.

use crate::config::RunConfig;
use crate::dir::RunDir;
use crate::error::{Context, Result};
use crate::evaluate::{Pairing, entrant};
use crate::summary::GateSummary;
use zero_arena::{MatchRecord, OpeningBook, Sprt, SprtDecision};
use zero_games::Registered;

/// Plays (or reads back) the gate of network `candidate` against network `incumbent`.
pub fn gate<G: Registered>(
    config: &RunConfig,
    dir: &RunDir,
    rules: &G::Rules,
    book: &OpeningBook,
    candidate: u32,
    incumbent: u32,
) -> Result<GateSummary> {
    let run = &config.run;
    let sprt = Sprt::new(run.gate_elo0, run.gate_elo1, run.gate_alpha, run.gate_beta);
    let challenger = entrant::<G>(config, dir, candidate)?;
    let holder = entrant::<G>(config, dir, incumbent)?;
    let folder = dir.games_dir().join(format!("gen-{candidate:04}"));
    zero_io::create_dir_durably(&folder).with_context(|| format!("creating {}", folder.display()))?;
    let bar = crate::progress::bar(
        run.gate_max_games as u64,
        "gating    {bar:30} {pos}/{len} games at most, {msg}",
    );
    let mut records: Vec<MatchRecord> = Vec::new();
    let mut report = sprt.run_records(&records, challenger.name());
    for batch in 0.. {
        if report.decision != SprtDecision::Continue || records.len() >= run.gate_max_games {
            break;
        }
        let batch = Pairing {
            a: &challenger,
            b: &holder,
            file: folder.join(format!("gate-vs-gen{incumbent}-{batch:03}.jsonl")),
            // Batches go on through the book where the last one stopped.
            first_opening: records.len() / 2,
        };
        let games = batch.games(
            rules,
            dir,
            run.seed,
            book,
            run.gate_batch_games.min(run.gate_max_games - records.len()),
            1,
        )?;
        if games.is_empty() {
            break;
        }
        records.extend(games);
        report = sprt.run_records(&records, challenger.name());
        bar.set_position(records.len() as u64);
        bar.set_message(format!(
            "LLR {:.2} in [{:.2}, {:.2}], score {:.0}%",
            report.llr,
            report.lower,
            report.upper,
            100.0 * report.score
        ));
    }
    bar.finish_and_clear();
    Ok(GateSummary {
        opponent: holder.name().to_string(),
        promoted: report.decision == SprtDecision::AcceptH1,
        decision: report.decision.as_str().to_string(),
        games: report.games,
        llr: report.llr,
        score: report.score,
    })
}
