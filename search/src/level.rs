//! Strength levels: a few named ways for the search to play weaker than it can, for people who want a fair
//! game. A level is a budget of simulations and a temperature for the move choice, set per game
//! ([`Encoding::LEVELS`]): the move is drawn from the root's visit counts, each with the network's prior added as
//! one more visit, sharpened by 1/T (at 0 the search's own choice). Their strength against fixed anchors is
//! measured per bundle with the arena (`ckpt:PATH,level=NAME`, docs/arena.md) and written in docs/protocol.md.

use crate::config::SettingError;
use crate::puct::draw_sharpened;
use zero_games::Encoding;

/// One level: a name, and its rank among the levels a game defines ([`Encoding::LEVELS`]); `max` has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    rank: Option<usize>,
}

/// Written as its name (`club`), as the command line takes it.
impl serde::Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl<'de> serde::Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Level::parse(&name).map_err(serde::de::Error::custom)
    }
}

/// The levels, weakest first.
pub const LEVELS: [Level; 6] = [
    level("beginner", Some(0)),
    level("casual", Some(1)),
    level("club", Some(2)),
    level("expert", Some(3)),
    level("strong", Some(4)),
    level("max", None),
];

const fn level(name: &'static str, rank: Option<usize>) -> Level {
    Level { name, rank }
}

/// How a level searches in a game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelSearch {
    /// Simulations a move (at every action of it); `None`: the player's own default.
    pub simulations: Option<u32>,
    /// Temperature of the move choice; 0 plays the search's choice.
    pub temperature: f32,
}

impl Level {
    /// The level named `name` (any case); the error lists the names.
    pub fn parse(name: &str) -> Result<Level, SettingError> {
        LEVELS
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name))
            .copied()
            .ok_or_else(|| {
                let names: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
                SettingError::Level {
                    name: name.to_string(),
                    names: names.join(", "),
                }
            })
    }

    /// How this level searches in game `G` ([`Encoding::LEVELS`]).
    pub fn search<G: Encoding>(self) -> LevelSearch {
        match self.rank {
            Some(rank) => LevelSearch {
                simulations: Some(G::LEVELS[rank].0),
                temperature: G::LEVELS[rank].1,
            },
            None => LevelSearch {
                simulations: None,
                temperature: 0.0,
            },
        }
    }
}

/// Draws an index from `policy` sharpened by 1/`temperature` (`u` uniform in [0, 1)); the most likely index
/// when the temperature is 0 or the policy has no mass.
pub fn sample_policy(policy: &[f32], temperature: f32, u: f64) -> usize {
    let best = policy
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i);
    if temperature <= 0.0 {
        return best;
    }
    let weights: Vec<f64> = policy.iter().map(|&p| f64::from(p)).collect();
    draw_sharpened(&weights, temperature, u).unwrap_or(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    use zero_games::{GameKind, bashni::Bashni, tours::Tours, with_game};

    #[test]
    fn levels_parse_by_name_and_a_wrong_name_lists_them() {
        let club = Level::parse("Club").unwrap();
        assert_eq!(club.search::<Bashni>().simulations, Some(8));
        assert_eq!(club.search::<Tours>().simulations, Some(64), "a game's own table");
        assert_eq!(Level::parse("max").unwrap().search::<Tours>().simulations, None);
        let err = Level::parse("grandmaster").unwrap_err();
        assert!(
            err.to_string().contains("beginner, casual, club, expert, strong, max"),
            "{err}"
        );
    }

    #[test]
    fn every_games_levels_search_more_and_choose_more_sharply_as_they_rise() {
        for &game in GameKind::ALL {
            let searches: Vec<LevelSearch> =
                with_game!(game, G => LEVELS[..5].iter().map(|l| l.search::<G>()).collect());
            for pair in searches.windows(2) {
                let (weaker, stronger) = (pair[0], pair[1]);
                assert!(stronger.simulations >= weaker.simulations, "{game:?}: {searches:?}");
                assert!(stronger.temperature <= weaker.temperature, "{game:?}: {searches:?}");
                assert!(stronger != weaker, "{game:?}: two levels search alike: {searches:?}");
            }
        }
    }

    #[test]
    fn sampling_follows_the_sharpened_policy() {
        let policy = [0.1, 0.6, 0.3];
        assert_eq!(sample_policy(&policy, 0.0, 0.99), 1);
        // At T = 1 the draw follows the policy: [0, 0.1) -> 0, [0.1, 0.7) -> 1, [0.7, 1) -> 2.
        assert_eq!(sample_policy(&policy, 1.0, 0.05), 0);
        assert_eq!(sample_policy(&policy, 1.0, 0.5), 1);
        assert_eq!(sample_policy(&policy, 1.0, 0.9), 2);
        // A low temperature all but always picks the favourite.
        assert_eq!(sample_policy(&policy, 0.05, 0.999), 1);
        assert_eq!(
            sample_policy(&[0.0, 0.0, 0.7], 1.0, 0.0),
            2,
            "only an action with mass is drawn"
        );
    }
}
