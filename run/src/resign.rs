//! When self-play may resign: judged from the resignation checks of the run's earlier generations.

use crate::summary::{GenerationSummary, ONE_SIDED};
use zero_selfplay::SelfPlayConfig;

/// Generations whose checks may earn resignation: the value head changes with every network, so only the newest
/// checks speak for it.
const CHECK_GENERATIONS: usize = 3;

/// Whether self-play may resign in the generation after `earlier` (see `selfplay.resign.max_false_rate`): the
/// newest checks (those of the last generation, with the ones before it while they number fewer than
/// `selfplay.resign.min_checks`, at most three generations) must show that the value head resigns rightly.
/// Without checks (a first generation, one resumed after its self-play), it has not; nor after a generation one
/// side won almost entirely: there the losing side's play, checks included, is too weak to tell a lost position
/// from a badly defended one (Bagh Chal's goats, whose game is a draw, lose every early game).
pub fn resignation_earned(selfplay: &SelfPlayConfig, earlier: &[GenerationSummary]) -> bool {
    if selfplay.resign.max_false_rate < 1.0
        && earlier
            .last()
            .is_some_and(|g| g.first_win_rate.max(g.second_win_rate) >= ONE_SIDED)
    {
        return false;
    }
    let (mut checks, mut false_resigns) = (0u64, 0u64);
    for g in earlier.iter().rev().take(CHECK_GENERATIONS) {
        checks += g.resign_checks;
        false_resigns += (g.false_resign_rate.unwrap_or(1.0) * g.resign_checks as f64).round() as u64;
        if checks >= u64::from(selfplay.resign.min_checks) {
            break;
        }
    }
    selfplay.resignation_earned(checks, false_resigns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resignation_is_earned_by_enough_checks_that_were_rarely_wrong() {
        let sp = SelfPlayConfig::default();
        let with = |checks: u64, rate: f64| GenerationSummary {
            resign_checks: checks,
            false_resign_rate: Some(rate),
            ..Default::default()
        };
        assert!(!resignation_earned(&sp, &[]));
        assert!(!resignation_earned(&sp, &[GenerationSummary::default()]));
        assert!(!resignation_earned(&sp, &[with(10, 0.0)]), "too few checks");
        assert!(!resignation_earned(&sp, &[with(40, 0.1)]), "too often wrong");
        assert!(resignation_earned(&sp, &[with(40, 0.05)]));
        // A generation that resigned checks only a share of its would-be resignations: the ones before count too,
        // newest first, until there are enough (at most three generations back).
        assert!(resignation_earned(&sp, &[with(40, 0.0), with(5, 0.0)]));
        assert!(!resignation_earned(&sp, &[with(40, 0.5), with(5, 0.0)]));
        assert!(!resignation_earned(
            &sp,
            &[with(40, 0.0), with(5, 0.0), with(5, 0.0), with(5, 0.0)]
        ));
        let mut trusting = sp.clone();
        trusting.resign.max_false_rate = 1.0;
        assert!(resignation_earned(&trusting, &[]));
    }
}
